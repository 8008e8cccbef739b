# Tests: host unit tests (tests/unit, Check) and the VM integration suite
# (tests/vm, Check, run inside a QEMU guest against the real module).
include tests/unit/unit.mk
include tests/vm/vm.mk
include tests/races/races.mk
include tests/tools/tools-tests.mk
include tests/stress/stress.mk

# The README's test command.  Installs what is missing, builds everything,
# runs the unit tests on the host and the VM suite in a guest; the last line
# is "N passed, M failed, K skipped".
check: deps
	$(MAKE) all
	tests/run-suite

# Host tests only: user space, no module, so no kernel headers needed.
unit-check: user
	tests/run-suite --unit-only

vm-check: all
	tests/run-suite --vm-only

# Long variants on the stock kernel, then, when 'make debug-kernel' has been
# run, on the sanitizer kernel too (its module rebuilt first; KASAN and
# lockdep make the guest several times slower, hence the longer timeout).
stress: deps
	$(MAKE) all
	NPU_SIM_STRESS=1 tests/run-suite --vm-only
	if [ -f $(BUILD)/debug-kernel/bzImage ]; then \
		tools/build-debug-kernel && \
		NPU_SIM_STRESS=1 NPU_VM_TIMEOUT=9000 NPU_VM_OPTS="--kernel debug" \
			tests/run-suite --vm-only; \
	else \
		echo "stress: no debug kernel ('make debug-kernel'): stock kernel only"; \
	fi

# The README's main job: build, boot a VM, load the module, run the example
# (which shows debugfs and the status tool while it holds its memory).
demo: deps
	$(MAKE) all
	tools/npu-vm -- examples/run-demo
