# Host unit tests (Check).
#
# Pure-logic tests link the library's pure objects directly; test_api_host
# links build/lib/libacl_rt.a and dlopens build/lib/libacl_rt.so.
# UNIT_TESTS lists the binaries; build/unit-tests.list carries the same
# paths (relative to the repository root, one a line) for tests/run-suite.

UNIT_PURE_TESTS := test_policy test_copy_rules test_meminfo_rules test_errmap test_vmm_rules test_profile \
	test_fidelity_rules test_device_rules
UNIT_KERNEL_TESTS := test_managed_state
UNIT_API_TESTS := test_api_host test_data_buffer test_err_msg test_api_added_host test_env_parse
UNIT_TESTS := $(UNIT_PURE_TESTS:%=$(BUILD)/tests/unit/%) $(UNIT_KERNEL_TESTS:%=$(BUILD)/tests/unit/%) \
	$(UNIT_API_TESTS:%=$(BUILD)/tests/unit/%)
UNIT_CFLAGS := $(PKG_CHECK_CFLAGS) -pthread

user: $(UNIT_TESTS) $(BUILD)/unit-tests.list

$(BUILD)/tests/unit/test_policy: tests/unit/test_policy.c $(BUILD)/lib/static/rules/policy.o $(LIB_HEADERS)
$(BUILD)/tests/unit/test_copy_rules: tests/unit/test_copy_rules.c $(BUILD)/lib/static/rules/copy_rules.o \
	$(BUILD)/lib/static/rules/address.o $(BUILD)/lib/static/api/err_msg.o $(LIB_HEADERS)
$(BUILD)/tests/unit/test_meminfo_rules: tests/unit/test_meminfo_rules.c $(BUILD)/lib/static/rules/meminfo_rules.o \
	$(BUILD)/lib/static/rules/profile.o $(LIB_HEADERS)
$(BUILD)/tests/unit/test_errmap: tests/unit/test_errmap.c $(BUILD)/lib/static/rules/errmap.o \
	$(BUILD)/lib/static/api/err_msg.o $(LIB_HEADERS)
$(BUILD)/tests/unit/test_profile: tests/unit/test_profile.c $(BUILD)/lib/static/rules/profile.o \
	$(BUILD)/lib/static/rules/policy.o $(BUILD)/lib/static/rules/meminfo_rules.o $(LIB_HEADERS)
$(BUILD)/tests/unit/test_fidelity_rules: tests/unit/test_fidelity_rules.c tests/unit/unit_run.h \
	$(BUILD)/lib/static/rules/policy.o $(BUILD)/lib/static/rules/copy_rules.o $(BUILD)/lib/static/rules/address.o \
	$(BUILD)/lib/static/rules/meminfo_rules.o $(BUILD)/lib/static/rules/vmm_rules.o \
	$(BUILD)/lib/static/rules/errmap.o $(BUILD)/lib/static/api/err_msg.o $(LIB_HEADERS)
$(BUILD)/tests/unit/test_device_rules: tests/unit/test_device_rules.c $(BUILD)/lib/static/rules/platform_spec.o \
	$(BUILD)/lib/static/rules/device_rules.o $(BUILD)/lib/static/api/err_msg.o $(LIB_HEADERS)
$(BUILD)/tests/unit/test_vmm_rules: tests/unit/test_vmm_rules.c $(BUILD)/lib/static/rules/vmm_rules.o \
	$(BUILD)/lib/static/rules/errmap.o $(BUILD)/lib/static/api/err_msg.o $(LIB_HEADERS)

$(UNIT_PURE_TESTS:%=$(BUILD)/tests/unit/%):
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.o,$^) $(PKG_CHECK_LIBS)

# Kernel files with no mm calls, built as plain C: the shim stands in for
# <linux/types.h>; kernel/ comes after it so "npu_managed_state.h" resolves.
$(BUILD)/tests/unit/test_managed_state: tests/unit/test_managed_state.c kernel/npu_managed_state.c \
	kernel/npu_managed_state.h tests/unit/shim/linux/types.h
	@mkdir -p $(@D)
	$(CC) -Itests/unit/shim -Ikernel $(CFLAGS) $(UNIT_CFLAGS) -o $@ \
		tests/unit/test_managed_state.c kernel/npu_managed_state.c $(PKG_CHECK_LIBS)

$(UNIT_API_TESTS:%=$(BUILD)/tests/unit/%): $(BUILD)/tests/unit/%: tests/unit/%.c tests/unit/unit_run.h $(LIBACL_RT_A) \
	$(LIBACL_RT_SO) $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(UNIT_CFLAGS) -DLIBACL_RT_SO='"$(CURDIR)/$(LIBACL_RT_SO)"' \
		-o $@ $< $(LIBACL_RT_A) $(PKG_CHECK_LIBS) -ldl

# Host-side suites in other forms, run by tests/run-suite like the binaries
# (check-declared-only: every required-group call of the headers is exported,
# and every exported call is named by a VM test;
# test-kernel-layers: no call circle among kernel files, kernel-doc clean;
# test-lib-layers: no call circle among lib files, calls only downwards;
# check-headers-alone: each public header compiles included alone;
# check-pyacl-surface: every real pyACL function whose C call the library
# defines is in the acl module, tests/unit/real-pyacl-functions.txt;
# check-vm-calls: every CANN header function the library defines is called
# by a C test of tests/vm or a Python test of tests/py).
HOST_SUITES := tests/tools/test-install tests/unit/check-declared-only \
	tests/tools/test-kernel-layers tests/tools/test-lib-layers tests/unit/check-headers-alone \
	tests/unit/check-pyacl-surface tests/unit/check-vm-calls

$(BUILD)/unit-tests.list: $(UNIT_TESTS) tests/unit/unit.mk
	@mkdir -p $(@D)
	printf '%s\n' $(UNIT_TESTS) $(HOST_SUITES) > $@

unit-tests: $(UNIT_TESTS) $(BUILD)/unit-tests.list
	@for t in $(UNIT_TESTS); do $$t || exit 1; done

.PHONY: unit-tests

# The call trace (docs/tracing.md): its pure JSON formatting (Check), and
# the generator, converter and library trace checked from Python.
UNIT_TESTS += $(BUILD)/tests/unit/test_trace_fmt
user: $(BUILD)/tests/unit/test_trace_fmt
$(BUILD)/tests/unit/test_trace_fmt: tests/unit/test_trace_fmt.c tests/unit/unit_run.h \
	$(BUILD)/lib/static/diag/trace_fmt.o $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.o,$^) $(PKG_CHECK_LIBS)
HOST_SUITES += tests/unit/test-trace-tools

# The race checker's pure parts (docs/checks.md "races"): vector clocks and
# the shadow of memory.
UNIT_TESTS += $(BUILD)/tests/unit/test_races_shadow
user: $(BUILD)/tests/unit/test_races_shadow
$(BUILD)/tests/unit/test_races_shadow: tests/unit/test_races_shadow.c tests/unit/unit_run.h \
	$(BUILD)/lib/static/diag/races_shadow.o $(BUILD)/lib/static/diag/races_clock.o $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.o,$^) $(PKG_CHECK_LIBS)
