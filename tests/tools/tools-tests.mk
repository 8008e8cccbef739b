# Host-side tests of the runner and the user guide, run by tests/run-suite
# from build/unit-tests.list: tests/tools/test-npu-sim (tools/npu-sim and the
# set-up errors of tools/npu-vm; boots the VM a few times when the module is
# built) and tests/tools/test-guide (runs the command blocks of
# docs/guide.md as written).  build/tests/tools/leak_prog leaks one device
# allocation for the --check case.

LEAK_PROG := $(BUILD)/tests/tools/leak_prog
HOST_SUITES += tests/tools/test-npu-sim tests/tools/test-guide

user: $(LEAK_PROG)
$(BUILD)/unit-tests.list: tests/tools/tools-tests.mk

$(LEAK_PROG): tests/tools/leak_prog.c $(LIBACL_RT_SO) $(wildcard include/acl/*.h include/acl/*/*.h)
	@mkdir -p $(@D)
	$(CC) -Iinclude $(CFLAGS) $(LDFLAGS) -o $@ tests/tools/leak_prog.c -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../../lib'
