/*
 * npu_sim benchmarks, run in the test guest by `make bench`: one table of
 * rows (bench.h), also written as CSV to $NPU_VM_RESULTS/results.csv (or
 * the path given as the only argument).  Environment: BENCH_REPS,
 * BENCH_SCALE, BENCH_COPY_MAX_MIB, BENCH_ONLY (see bench.h).
 * `npu_bench --kernel-calls` prints only the kernel-call rows and needs no
 * device: `make bench` runs it on the host, the machine without emulator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
	const char *dir = getenv("NPU_VM_RESULTS");
	char path[4096];

	if (argc == 2 && strcmp(argv[1], "--kernel-calls") == 0) {
		bench_begin(NULL);
		bench_kernel();
		bench_end();
		return 0;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: %s [CSV | --kernel-calls]\n", argv[0]);
		return 2;
	}
	if (argc == 2)
		snprintf(path, sizeof(path), "%s", argv[1]);
	else if (dir != NULL)
		snprintf(path, sizeof(path), "%s/results.csv", dir);
	else
		path[0] = '\0';

	bench_check(aclInit(NULL), "aclInit");
	bench_check(aclrtSetDevice(0), "aclrtSetDevice");
	bench_begin(path[0] ? path : NULL);
	bench_alloc();
	bench_copy();
	bench_info();
	bench_kernel();
	bench_managed();
	bench_vmm();
	bench_lookup();
	bench_stream();
	bench_end();
	bench_check(aclrtResetDevice(0), "aclrtResetDevice");
	bench_check(aclFinalize(), "aclFinalize");
	if (path[0])
		printf("\nCSV: %s\n", path);
	return 0;
}
