# The `acl` Python module (pyACL spellings), a C extension on libacl_rt.
# Built for Debian's /usr/bin/python3 (not whatever python3 is first on
# PATH), only when its development files are installed.
#
#   build/python/acl<ext-suffix>  in-tree build, finds build/lib/libacl_rt.so
#                            through an $ORIGIN rpath: PYTHONPATH=build/python
#                            works
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
PY_MODULE     := $(PY_BUILD)/acl$(PY_EXT_SUFFIX)
# Python's own headers are not -Wextra clean for every warning
PY_CFLAGS     := $(PY_INCLUDES) -fPIC -fvisibility=hidden -Wno-missing-field-initializers

.PHONY: python
user: python
python: $(PY_MODULE)

$(PY_BUILD)/%.o: python/%.c python/pyacl.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PY_CFLAGS) -MMD -MP -c -o $@ $<

$(PY_MODULE): $(PY_OBJS) $(LIBACL_RT_SO)
	$(CC) -shared $(CFLAGS) $(LDFLAGS) -o $@ $(PY_OBJS) \
		-L$(LIBACL_RT_DIR) -lacl_rt -Wl,-rpath,'$$ORIGIN/../lib'

-include $(PY_OBJS:.o=.d)
endif
