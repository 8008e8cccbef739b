# The `acl` Python module (pyACL spellings), a C extension on libacl_rt.
# Built for Debian's /usr/bin/python3 (not whatever python3 is first on
# PATH), only when its development files are installed.
#
#   build/python/acl<ext-suffix>  in-tree build, finds build/lib/libacl_rt.so
#                            through an $ORIGIN rpath: PYTHONPATH=build/python
#                            works
#   $(BUILD)/python/install/ the same objects linked for installation, with
#                            the installed library directory as rpath
#   $(BUILD)/python/dist/    a wheel built by pip from python/pyproject.toml
#                            (what `pip install ./python` builds; rpath to
#                            build/lib), when pip, setuptools and wheel are
#                            there
#   $(BUILD)/python/venv/    a venv (--system-site-packages) into which pip
#                            installed that wheel; tests/py/test_venv.py runs
#                            the numpy sample with it in the VM (pip itself
#                            takes minutes in the emulated guest)

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

PY_WHEEL_DIR := $(PY_BUILD)/dist
PY_WHEEL_STAMP := $(PY_WHEEL_DIR)/.built
# setuptools first: Debian's pip imports the stdlib distutils, which
# setuptools' distutils shim then refuses
PY_HAVE_PIP := $(shell $(PYTHON) -c 'import setuptools, wheel, pip' 2>/dev/null && echo yes)

PY_VENV := $(PY_BUILD)/venv
PY_VENV_STAMP := $(PY_VENV)/.installed

.PHONY: python-wheel python-venv
python-wheel: $(PY_WHEEL_STAMP)
python-venv: $(PY_VENV_STAMP)
ifeq ($(PY_HAVE_PIP),yes)
user: python-wheel python-venv
endif

# From a copy of the sources, so pip's in-tree build leaves python/ clean.
$(PY_WHEEL_STAMP): $(PY_SRCS) python/pyacl.h python/pyproject.toml python/setup.py $(LIBACL_RT_SO)
	rm -rf $(PY_BUILD)/src $(PY_WHEEL_DIR)
	mkdir -p $(PY_BUILD)/src $(PY_WHEEL_DIR)
	cp $(PY_SRCS) python/pyacl.h python/pyproject.toml python/setup.py $(PY_BUILD)/src/
	NPU_SIM_ROOT=$(CURDIR) $(PYTHON) -m pip wheel --quiet --no-build-isolation \
		--no-index --no-deps --no-cache-dir --disable-pip-version-check \
		-w $(PY_WHEEL_DIR) $(PY_BUILD)/src
	touch $@

# --without-pip: the venv uses Debian's pip through --system-site-packages
$(PY_VENV_STAMP): $(PY_WHEEL_STAMP)
	rm -rf $(PY_VENV)
	$(PYTHON) -m venv --system-site-packages --without-pip $(PY_VENV)
	$(PY_VENV)/bin/python -m pip install --quiet --no-index --no-deps \
		--no-cache-dir --disable-pip-version-check $(PY_WHEEL_DIR)/*.whl
	touch $@

-include $(PY_OBJS:.o=.d)
endif
