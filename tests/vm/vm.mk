# VM integration tests (Check), run in the guest by tests/vm/run-in-guest.
#
# One Check binary per topic under build/tests/vm/, each linked with the
# shared helpers (tests/vm/vmtest.c) and build/lib/libacl_rt.so; the rpath
# points at build/lib/ relative to the binary, so they run without
# LD_LIBRARY_PATH, in the guest as on the host.

VM_TEST_NAMES := test_malloc_policy test_copy test_lifecycle test_scale test_ioctl_input \
		 test_vmm test_ipc test_stream test_context test_managed test_api_surface \
		 test_ipc_key test_host_register test_stream_value test_peer \
		 test_hardening
VM_TEST_DIR   := $(BUILD)/tests/vm
VM_TEST_BINS  := $(addprefix $(VM_TEST_DIR)/,$(VM_TEST_NAMES))
VM_TEST_COMMON := $(VM_TEST_DIR)/vmtest.o
VM_TEST_HDRS  := tests/vm/vmtest.h $(wildcard include/acl/*.h include/acl/*/*.h) \
		 include/uapi/misc/npu_sim.h

user: $(VM_TEST_BINS)

.PHONY: vm-tests
vm-tests: $(VM_TEST_BINS)

VM_TEST_OBJS  := $(VM_TEST_BINS:%=%.o) $(VM_TEST_COMMON)

$(VM_TEST_OBJS): $(VM_TEST_DIR)/%.o: tests/vm/%.c $(VM_TEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CHECK_CFLAGS) -c -o $@ $<

$(VM_TEST_BINS): $(VM_TEST_DIR)/%: $(VM_TEST_DIR)/%.o $(VM_TEST_COMMON) $(LIBACL_RT_SO)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../../lib' $(PKG_CHECK_LIBS)
