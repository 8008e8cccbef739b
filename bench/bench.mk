# Benchmarks: built with everything, run in the test guest by `make bench`
# (BENCH_ARGS=--profile adds a perf profile; BENCH_ENV="BENCH_SCALE=100000 ..."
# passes knobs, see bench/bench.h).  The table goes to stdout, the CSV to
# build/bench/results.csv.
BENCH := $(BUILD)/bench/npu_bench
BENCH_SRCS := $(wildcard bench/*.c)
BENCH_ARGS ?=
BENCH_ENV ?=

user: $(BENCH)

$(BENCH): $(BENCH_SRCS) bench/bench.h $(LIBACL_RT_SO) $(wildcard include/acl/*.h include/acl/*/*.h)
	@mkdir -p $(@D)
	$(CC) -Iinclude $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_SRCS) -L$(LIBACL_RT_DIR) -lacl_rt \
		-lpthread -Wl,-rpath,'$$ORIGIN/../lib'

# Two devices (cross-device copies), 2 MiB pages for 1 GiB + 2 x 256 MiB of
# device buffers, no 1 GiB pages, SMAP off (under TCG it slows user copies
# ~5x; the test suite keeps it on).
bench: deps
	$(MAKE) all
	@echo "== the host (no emulator): the kernel's own calls against the null ioctl =="
	$(BENCH) --kernel-calls
	@echo "== the guest (QEMU TCG) =="
	tools/npu-vm --mem 5120 --hugepages-1g 0 --hugepages-2m 840 --cpu-flags -smap \
		--params "num_devices=2" --results $(BUILD)/bench \
		$(foreach e,$(BENCH_ENV),--env $(e)) -- bench/run-bench $(BENCH_ARGS) $(BENCH)

# The cost of NPU_SIM_CHECK=races: the per-call rows with checks off and
# with races, alternately in one guest (bench/run-bench-races).
bench-races: deps
	$(MAKE) all
	tools/npu-vm --mem 5120 --hugepages-1g 0 --hugepages-2m 800 --cpu-flags -smap \
		--params "num_devices=2" --results $(BUILD)/bench \
		$(foreach e,$(BENCH_ENV),--env $(e)) -- bench/run-bench-races $(BENCH)

.PHONY: bench bench-races

# Exact guest instructions per call of the small calls (BENCHMARKS.md
# "Instruction profile"): the insnprof TCG plugin counts the instructions the
# guest executes inside the driver's marker windows, the symbolizer splits
# them by function.  INSNS_N calls per row.  Report in build/bench/insns/.
INSNPROF_DIR := $(BUILD)/bench/insnprof
INSNPROF_SO := $(INSNPROF_DIR)/libinsnprof.so
INSN_OPS := $(INSNPROF_DIR)/insn_ops
INSNS_OUT := $(BUILD)/bench/insns
INSNS_N ?= 20000

user: $(INSNPROF_SO) $(INSN_OPS)

$(INSNPROF_SO): bench/insnprof/insnprof.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -shared $(LDFLAGS) -o $@ $<

# No PIE: the symbolizer reads the driver's addresses as they are.
$(INSN_OPS): bench/insnprof/insn_ops.c $(LIBACL_RT_SO) include/uapi/misc/npu_sim.h \
		$(wildcard include/acl/*.h include/acl/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fno-pie -no-pie $(LDFLAGS) -o $@ $< \
		-L$(LIBACL_RT_DIR) -lacl_rt -Wl,-rpath,'$$ORIGIN/../../lib'

bench-insns: deps
	$(MAKE) all
	rm -rf $(INSNS_OUT)
	mkdir -p $(INSNS_OUT)
	tools/npu-vm --mem 5120 --hugepages-1g 0 --hugepages-2m 840 --cpu-flags -smap \
		--params "num_devices=2" --results $(INSNS_OUT) \
		--qemu-plugin $(INSNPROF_SO),out=$(CURDIR)/$(INSNS_OUT)/counts.txt \
		-- bench/insnprof/run-in-guest $(INSN_OPS) $(INSNS_N)
	bench/insnprof/symbolize.py $(INSNS_OUT) >$(INSNS_OUT)/report.txt
	@sed '/^## Top functions/,$$d' $(INSNS_OUT)/report.txt
	@echo "(top functions per call: $(INSNS_OUT)/report.txt)"

.PHONY: bench-insns
