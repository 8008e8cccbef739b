# The `acl` Python module (pyACL spellings), a C extension on libacl_rt.
# Built for Debian's /usr/bin/python3 (not whatever python3 is first on
# PATH), only when its development files are installed.
#
#   python/acl<ext-suffix>   in-tree build, finds lib/libacl_rt.so through
#                            an $ORIGIN rpath: PYTHONPATH=python works
#   $(BUILD)/python/install/ the same objects linked for installation, with
#                            the installed library directory as rpath

PYTHON_CONFIG ?= /usr/bin/python3-config
PYTHON        ?= /usr/bin/python3

ifneq ($(wildcard $(PYTHON_CONFIG)),)
PY_EXT_SUFFIX := $(shell $(PYTHON_CONFIG) --extension-suffix)
PY_INCLUDES   := $(shell $(PYTHON_CONFIG) --includes)
PY_BUILD      := $(BUILD)/python
PY_SRCS       := $(wildcard python/*.c)
PY_OBJS       := $(patsubst python/%.c,$(PY_BUILD)/%.o,$(PY_SRCS))
PY_MODULE     := python/acl$(PY_EXT_SUFFIX)
# Python's own headers are not -Wextra clean for every warning
PY_CFLAGS     := $(PY_INCLUDES) -fPIC -fvisibility=hidden -Wno-missing-field-initializers

.PHONY: python
user: python
python: $(PY_MODULE)

$(PY_BUILD)/%.o: python/%.c python/pyacl.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PY_CFLAGS) -MMD -MP -c -o $@ $<

$(PY_MODULE): $(PY_OBJS) lib/libacl_rt.so
	$(CC) -shared $(CFLAGS) $(LDFLAGS) -o $@ $(PY_OBJS) \
		-Llib -lacl_rt -Wl,-rpath,'$$ORIGIN/../lib'

-include $(PY_OBJS:.o=.d)
CLEAN_FILES += $(PY_MODULE)
endif
