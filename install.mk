# Installation, as a driver package would lay it out (docs/install.md):
#
#   make install [PREFIX=/usr/local] [DESTDIR=/staging]
#       library (libacl_rt.so/.a and the link name libascendcl.so, so CANN
#       build scripts' -lascendcl work unchanged), headers <acl/*.h>,
#       pkg-config file acl_rt.pc, the Python module `acl`, the tools
#   make install-dkms [DESTDIR=...]
#       module source in /usr/src/npu_sim-<version>/ for `dkms install`
#   make uninstall
#
# The package version is the one in dkms.conf, so there is one place to bump.

# The Python module fragment; built with the rest of `user`.
include python/python.mk

NPU_SIM_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DKMS_SRCDIR  ?= /usr/src/npu_sim-$(NPU_SIM_VERSION)
# Where Debian's python3 looks: dist-packages of /usr, or of the prefix
PYTHON_VERSION := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PYTHONDIR  ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/python3/dist-packages,$(PREFIX)/lib/python$(PYTHON_VERSION)/dist-packages)

INSTALL      ?= install
PY_INSTALL_MODULE := $(BUILD)/python/install/acl$(PY_EXT_SUFFIX)
INSTALL_PC := $(BUILD)/lib/acl_rt.pc

# The values built into installed files (the Python module's run path,
# acl_rt.pc), kept in a file rewritten only when they change, as Kbuild does
# for its flags: what depends on it is rebuilt for a new PREFIX, and only
# then.  DESTDIR is not among them: no built file names the staging tree.
INSTALL_VARS  := PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR) VERSION=$(NPU_SIM_VERSION)
INSTALL_STAMP := $(BUILD)/install.vars
ifneq ($(file <$(INSTALL_STAMP)),$(INSTALL_VARS))
$(shell mkdir -p $(BUILD))
$(file >$(INSTALL_STAMP),$(INSTALL_VARS))
endif

.PHONY: install install-lib install-headers install-pkgconfig install-python \
	install-tools install-dkms uninstall

install: install-lib install-headers install-pkgconfig install-python \
	 install-tools

install-lib: $(LIBACL_RT_SO) $(LIBACL_RT_A)
	$(INSTALL) -d $(DESTDIR)$(LIBDIR)
	$(INSTALL) -m 644 $(LIBACL_RT_A) $(DESTDIR)$(LIBDIR)/
	# the .so with its versioned names, symlinks kept as symlinks
	cp -P $(LIBACL_RT_SO)* $(DESTDIR)$(LIBDIR)/
	ln -sf libacl_rt.so $(DESTDIR)$(LIBDIR)/libascendcl.so

install-headers:
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/acl/error_codes
	$(INSTALL) -m 644 include/acl/*.h $(DESTDIR)$(INCLUDEDIR)/acl/
	$(INSTALL) -m 644 include/acl/error_codes/*.h \
		$(DESTDIR)$(INCLUDEDIR)/acl/error_codes/
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/npu_sim
	$(INSTALL) -m 644 include/npu_sim/check.h $(DESTDIR)$(INCLUDEDIR)/npu_sim/

$(INSTALL_PC): lib/acl_rt.pc.in $(INSTALL_STAMP)
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(NPU_SIM_VERSION)|' \
	    lib/acl_rt.pc.in > $@

install-pkgconfig: $(INSTALL_PC)
	$(INSTALL) -d $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 644 $(INSTALL_PC) $(DESTDIR)$(PKGCONFIGDIR)/

ifneq ($(PY_MODULE),)
# Linked again with the installed library directory as rpath, so the module
# works from a prefix the dynamic linker does not search.
$(PY_INSTALL_MODULE): $(PY_OBJS) $(LIBACL_RT_SO) $(INSTALL_STAMP)
	@mkdir -p $(@D)
	$(CC) -shared $(CFLAGS) $(LDFLAGS) -o $@ $(PY_OBJS) \
		-L$(LIBACL_RT_DIR) -lacl_rt -Wl,-rpath,$(LIBDIR)

install-python: $(PY_INSTALL_MODULE)
	$(INSTALL) -d $(DESTDIR)$(PYTHONDIR)
	$(INSTALL) -m 755 $(PY_INSTALL_MODULE) $(DESTDIR)$(PYTHONDIR)/
else
install-python:
	@echo "install: $(PYTHON_CONFIG) missing: skipping the Python module"
endif

install-tools: $(NPU_SIM_SMI) $(NPU_SIM_LOAD)
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 755 $(NPU_SIM_SMI) $(NPU_SIM_LOAD) $(DESTDIR)$(BINDIR)/

# Only the module's sources: DKMS builds them for each kernel.
install-dkms:
	$(INSTALL) -d $(DESTDIR)$(DKMS_SRCDIR)/kernel \
		$(DESTDIR)$(DKMS_SRCDIR)/include/uapi/misc
	$(INSTALL) -m 644 dkms.conf Kbuild $(DESTDIR)$(DKMS_SRCDIR)/
	$(INSTALL) -m 644 $(wildcard kernel/*.c kernel/*.h kernel/Kbuild \
		kernel/Makefile) $(DESTDIR)$(DKMS_SRCDIR)/kernel/
	$(INSTALL) -m 644 include/uapi/misc/npu_sim.h \
		include/uapi/misc/npu_sim_layout.h \
		include/uapi/misc/npu_sim_profiles.h \
		$(DESTDIR)$(DKMS_SRCDIR)/include/uapi/misc/

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libacl_rt.a $(DESTDIR)$(LIBDIR)/libacl_rt.so* \
	      $(DESTDIR)$(LIBDIR)/libascendcl.so \
	      $(DESTDIR)$(PKGCONFIGDIR)/acl_rt.pc \
	      $(DESTDIR)$(PYTHONDIR)/acl$(PY_EXT_SUFFIX) \
	      $(DESTDIR)$(BINDIR)/npu-sim-smi $(DESTDIR)$(BINDIR)/npu-sim-load
	rm -rf $(DESTDIR)$(INCLUDEDIR)/acl $(DESTDIR)$(INCLUDEDIR)/npu_sim
