# Benchmarks: built with everything, run in the test guest by `make bench`.
BENCH := $(BUILD)/bench/bench_mem

user: $(BENCH)

$(BENCH): bench/bench_mem.c $(LIBACL_RT_SO) $(wildcard include/acl/*.h include/acl/*/*.h)
	@mkdir -p $(@D)
	$(CC) -Iinclude $(CFLAGS) $(LDFLAGS) -o $@ bench/bench_mem.c -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../lib'

# 2 MiB pages for the device and for the raw hugetlb mappings it is compared with.
bench: deps
	$(MAKE) all
	tools/npu-vm --hugepages-2m 160 -- $(BENCH)

.PHONY: bench
