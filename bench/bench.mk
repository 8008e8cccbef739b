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
