# Tests: host unit tests (tests/unit, Check) and the VM integration suite
# (tests/vm, Check, run inside a QEMU guest against the real module).
include tests/unit/unit.mk
include tests/vm/vm.mk
include tests/stress/stress.mk

# The README's test command.  Installs what is missing, builds everything,
# runs the unit tests on the host and the VM suite in a guest; the last line
# is "N passed, M failed".
check: deps
	$(MAKE) all
	tests/run-suite

# Host tests only: user space, no module, so no kernel headers needed.
unit-check: user
	tests/run-suite --unit-only

vm-check: all
	tests/run-suite --vm-only

stress: deps
	$(MAKE) all
	NPU_SIM_STRESS=1 tests/run-suite --vm-only

# The README's main job: build, boot a VM, load the module, run the example
# (which shows debugfs and the status tool while it holds its memory).
demo: deps
	$(MAKE) all
	tools/npu-vm -- examples/run-demo
