# VM integration tests (Check), run in the guest by tests/vm/run-in-guest.
#
# One Check binary per topic under build/tests/vm/, each linked with the
# shared helpers (tests/vm/vmtest.c) and build/lib/libacl_rt.so; the rpath
# points at build/lib/ relative to the binary, so they run without
# LD_LIBRARY_PATH, in the guest as on the host.

VM_TEST_NAMES := test_malloc_policy test_copy test_lifecycle test_scale test_ioctl_input \
		 test_vmm test_ipc test_stream test_context test_managed test_api_surface \
		 test_ipc_key test_host_register test_stream_value test_stream_api test_peer test_fail_nth test_profile \
		 test_limits test_faults test_tracepoints test_check test_hardening test_stream_isolation \
		 test_lock_discipline test_fidelity test_system test_device_info test_event_api test_callback test_memory_ops test_notify test_memory_misc test_mem_pool test_graph test_graph_build test_graph_pool_race
VM_TEST_DIR   := $(BUILD)/tests/vm
VM_TEST_BINS  := $(addprefix $(VM_TEST_DIR)/,$(VM_TEST_NAMES))
VM_TEST_COMMON := $(VM_TEST_DIR)/vmtest.o
VM_TEST_HDRS  := tests/vm/vmtest.h tests/npu_raw_stream.h $(wildcard include/acl/*.h include/acl/*/*.h) \
		 include/uapi/misc/npu_sim.h include/uapi/misc/npu_sim_profiles.h

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

# The call trace test (docs/tracing.md): test_trace runs the known program
# trace_prog with NPU_SIM_TRACE set, the converter and npu-sim-replay; it
# parses the JSON with json-c.
VM_TRACE_BINS := $(VM_TEST_DIR)/test_trace $(VM_TEST_DIR)/trace_prog
user: $(VM_TRACE_BINS)
vm-tests: $(VM_TRACE_BINS)

$(VM_TEST_DIR)/test_trace.o $(VM_TEST_DIR)/trace_prog.o: $(VM_TEST_DIR)/%.o: tests/vm/%.c $(VM_TEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CHECK_CFLAGS) $(JSONC_CFLAGS) -c -o $@ $<

$(VM_TEST_DIR)/test_trace: $(VM_TEST_DIR)/test_trace.o $(VM_TEST_COMMON) $(LIBACL_RT_SO) \
	$(VM_TEST_DIR)/trace_prog $(NPU_SIM_REPLAY)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../../lib' $(PKG_CHECK_LIBS) $(JSONC_LIBS)

$(VM_TEST_DIR)/trace_prog: $(VM_TEST_DIR)/trace_prog.o $(LIBACL_RT_SO)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -L$(LIBACL_RT_DIR) -lacl_rt -Wl,-rpath,'$$ORIGIN/../../lib' -pthread

# The program test_check runs under NPU_SIM_CHECK: -O0 -g, so its reports
# name exact lines; the npu_sim-specific header include/npu_sim/check.h.
VM_CHECK_PROG := $(VM_TEST_DIR)/check_prog
user: $(VM_CHECK_PROG)
vm-tests: $(VM_CHECK_PROG)
$(VM_CHECK_PROG): tests/vm/check_prog.c include/npu_sim/check.h $(VM_TEST_HDRS) $(LIBACL_RT_SO)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -O0 -g -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE $(LDFLAGS) -o $@ $< \
		-L$(LIBACL_RT_DIR) -lacl_rt -Wl,-rpath,'$$ORIGIN/../../lib'
