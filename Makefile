# npu_sim top-level build.
#
#   make            module, library, tools, tests, examples
#   make check      host unit tests + the VM integration suite (README)
#   make unit-check host unit tests only; needs no kernel headers
#   make demo       boot a VM, load the module, run the example, show debugfs
#   make stress     long variants of the VM suite (also on the debug kernel
#                   once built)
#   make debug-kernel  sanitizer guest kernel + module (build/debug-kernel/)
#   make bench      benchmarks (ratios against the raw primitives) in a VM
#   make bench-insns  exact guest instructions per small call (TCG plugin)
#   make deps       install the Debian packages a fresh machine lacks
#
# User-space parts are described by one fragment per directory (*/*.mk),
# included below; every output goes under build/.  The module is built by
# Kbuild (./Kbuild, kernel/Kbuild), its outputs next to its sources.
#
# KDIR is looked up only when the module is built or cleaned, so the
# user-space targets (user, unit-check) work without kernel headers.

KDIR ?= $(shell tools/find-kdir)

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE
CPPFLAGS += -Iinclude -Iinclude/uapi
PKG_CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
PKG_CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

BUILD := build

.PHONY: all module user clean check unit-check vm-check demo stress deps bench debug-kernel
all: module user

module:
	@kdir='$(KDIR)'; test -d "$$kdir" || { \
		echo "make: no kernel build tree at '$$kdir': run 'make deps' or set KDIR=" >&2; \
		exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

user:

include lib/lib.mk
include tools/tools.mk
include tests/tests.mk
include examples/examples.mk
include bench/bench.mk

deps:
	tools/install-deps

# KASAN/lockdep/kmemleak/UBSAN/fail-nth guest kernel and the module built for
# it, cached under build/debug-kernel/ (first build up to 45 minutes on 2 cores).
debug-kernel:
	tools/build-debug-kernel

clean:
	-kdir='$(KDIR)'; if test -d "$$kdir"; then $(MAKE) -C "$$kdir" M=$(CURDIR) clean; fi
	rm -rf $(BUILD)

include install.mk
