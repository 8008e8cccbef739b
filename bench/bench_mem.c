/*
 * npu_sim micro-benchmarks, run in the test guest (make bench).  Each line
 * times an npu_sim call and the raw primitive it stands in for, measured in
 * the same run, and prints their ratio (npu_sim time / primitive time):
 *   aclrtMemcpy H2D / D2H / D2D  vs  memcpy between hugetlb mappings
 *   aclrtMalloc + aclrtFree (2 MiB pages)  vs  mmap(MAP_HUGETLB) + touch + munmap
 *   aclrtMalloc + aclrtFree (normal pages) vs  mmap + touch + munmap of 4 KiB
 * Timings only inform: nothing here asserts a speed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <acl/acl.h>

#define MiB (1024UL * 1024UL)
#define COPY_BYTES (64 * MiB)
#define COPY_ROUNDS 8
#define ALLOC_ROUNDS 64
#define SMALL_ROUNDS 2000

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *huge_map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB,
		       -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap(MAP_HUGETLB) (are 2 MiB pages reserved?)");
		exit(1);
	}
	memset(p, 1, len);
	return p;
}

static void check(aclError err, const char *what)
{
	if (err != ACL_SUCCESS) {
		fprintf(stderr, "%s failed: %d\n", what, err);
		exit(1);
	}
}

static void report(const char *name, double npu, double raw, size_t bytes_per_round, int rounds)
{
	if (bytes_per_round)
		printf("%-34s npu_sim %8.1f MB/s   primitive %8.1f MB/s   ratio %.2f\n", name,
		       bytes_per_round * (double)rounds / npu / 1e6,
		       bytes_per_round * (double)rounds / raw / 1e6, npu / raw);
	else
		printf("%-34s npu_sim %8.2f us/op   primitive %8.2f us/op   ratio %.2f\n", name,
		       npu / rounds * 1e6, raw / rounds * 1e6, npu / raw);
}

static void bench_copies(void)
{
	char *host = huge_map(COPY_BYTES), *other = huge_map(COPY_BYTES);
	void *dev, *dev2;
	double t, npu, raw;
	int i;

	check(aclrtMalloc(&dev, COPY_BYTES, ACL_MEM_MALLOC_HUGE_ONLY), "aclrtMalloc");
	check(aclrtMalloc(&dev2, COPY_BYTES, ACL_MEM_MALLOC_HUGE_ONLY), "aclrtMalloc");

	t = now();
	for (i = 0; i < COPY_ROUNDS; i++)
		memcpy(other, host, COPY_BYTES);
	raw = now() - t;

	t = now();
	for (i = 0; i < COPY_ROUNDS; i++)
		check(aclrtMemcpy(dev, COPY_BYTES, host, COPY_BYTES, ACL_MEMCPY_HOST_TO_DEVICE), "H2D");
	npu = now() - t;
	report("aclrtMemcpy H2D 64 MiB vs memcpy", npu, raw, COPY_BYTES, COPY_ROUNDS);

	t = now();
	for (i = 0; i < COPY_ROUNDS; i++)
		check(aclrtMemcpy(other, COPY_BYTES, dev, COPY_BYTES, ACL_MEMCPY_DEVICE_TO_HOST), "D2H");
	npu = now() - t;
	report("aclrtMemcpy D2H 64 MiB vs memcpy", npu, raw, COPY_BYTES, COPY_ROUNDS);

	t = now();
	for (i = 0; i < COPY_ROUNDS; i++)
		check(aclrtMemcpy(dev2, COPY_BYTES, dev, COPY_BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE), "D2D");
	npu = now() - t;
	report("aclrtMemcpy D2D 64 MiB vs memcpy", npu, raw, COPY_BYTES, COPY_ROUNDS);

	check(aclrtFree(dev), "aclrtFree");
	check(aclrtFree(dev2), "aclrtFree");
	munmap(host, COPY_BYTES);
	munmap(other, COPY_BYTES);
}

static double time_raw_maps(size_t len, int flags, int rounds)
{
	double t = now();
	int i;

	for (i = 0; i < rounds; i++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		p[0] = 1;	/* take the page, as the device allocation does */
		munmap(p, len);
	}
	return now() - t;
}

static double time_npu_allocs(size_t size, aclrtMemMallocPolicy policy, int rounds)
{
	double t = now();
	void *p;
	int i;

	for (i = 0; i < rounds; i++) {
		check(aclrtMallocAlign32(&p, size, policy), "aclrtMallocAlign32");
		check(aclrtFree(p), "aclrtFree");
	}
	return now() - t;
}

int main(void)
{
	double npu, raw;

	check(aclInit(NULL), "aclInit");
	check(aclrtSetDevice(0), "aclrtSetDevice");
	printf("npu_sim benchmarks (ratio = npu_sim time / primitive time; lower is better)\n");

	bench_copies();

	raw = time_raw_maps(2 * MiB, MAP_HUGETLB, ALLOC_ROUNDS);
	npu = time_npu_allocs(2 * MiB, ACL_MEM_MALLOC_HUGE_ONLY, ALLOC_ROUNDS);
	report("alloc+free 2 MiB page vs hugetlb mmap", npu, raw, 0, ALLOC_ROUNDS);

	raw = time_raw_maps(4096, 0, SMALL_ROUNDS);
	npu = time_npu_allocs(4096, ACL_MEM_MALLOC_NORMAL_ONLY, SMALL_ROUNDS);
	report("alloc+free 4 KiB vs anonymous mmap", npu, raw, 0, SMALL_ROUNDS);

	check(aclrtResetDevice(0), "aclrtResetDevice");
	check(aclFinalize(), "aclFinalize");
	return 0;
}
