/*
 * Managed-memory rows: the host's first touch of a 2 MiB block that lives
 * on the device (it migrates back) against memcpy of 2 MiB, and
 * aclrtMemManagedPrefetchAsync of 64 MiB from the host to the device
 * against memcpy of 64 MiB.
 */
#include <string.h>
#include <sys/mman.h>

#include "bench.h"

#define BLOCK (2 * MiB)
#define TOUCH_BLOCKS 8
#define PREFETCH (64 * MiB)

static const aclrtMemManagedLocation on_dev = { ACL_MEM_LOCATIONTYPE_DEVICE, 0 };

static void to_device(void *p, size_t len, aclrtStream s)
{
	bench_check(aclrtMemManagedPrefetchAsync(p, len, on_dev, 0, s), "PrefetchAsync");
	bench_check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
}

/* Host first touch of TOUCH_BLOCKS device-resident blocks (one write each). */
static double first_touches(aclrtStream s)
{
	char *p;
	double t;

	bench_check(aclrtMemAllocManaged((void **)&p, BLOCK * TOUCH_BLOCKS, ACL_RT_MEM_ATTACH_GLOBAL),
		    "aclrtMemAllocManaged");
	memset(p, 0x33, BLOCK * TOUCH_BLOCKS);		/* host data ... */
	to_device(p, BLOCK * TOUCH_BLOCKS, s);		/* ... moved to the device */
	t = bench_now();
	for (int i = 0; i < TOUCH_BLOCKS; i++)
		((volatile char *)p)[(size_t)i * BLOCK] = 1;
	t = bench_now() - t;
	bench_check(aclrtFree(p), "aclrtFree");
	return t;
}

static double prefetch(aclrtStream s)
{
	char *p;
	double t;

	bench_check(aclrtMemAllocManaged((void **)&p, PREFETCH, ACL_RT_MEM_ATTACH_GLOBAL),
		    "aclrtMemAllocManaged");
	memset(p, 0x44, PREFETCH);			/* host resident */
	t = bench_now();
	to_device(p, PREFETCH, s);
	t = bench_now() - t;
	bench_check(aclrtFree(p), "aclrtFree");
	return t;
}

static double copies(char *dst, const char *src, size_t n, int iters)
{
	double t = bench_now();

	for (int i = 0; i < iters; i++) {
		memcpy(dst + (size_t)i * n % PREFETCH, src, n);
		__asm__ __volatile__("" : : "r"(dst) : "memory");
	}
	return bench_now() - t;
}

void bench_managed(void)
{
	struct bench_samples a = { 0 }, b = { 0 };
	int reps = bench_reps();
	char *src, *dst;
	aclrtStream s;

	if (!bench_selected("managed"))
		return;
	src = bench_host_buf(PREFETCH);
	dst = bench_host_buf(PREFETCH);
	bench_check(aclrtCreateStream(&s), "aclrtCreateStream");
	for (int r = 0; r < reps; r++) {
		bench_add(&a, first_touches(s));
		bench_add(&b, copies(dst, src, BLOCK, TOUCH_BLOCKS));
	}
	bench_row(&(struct bench_row){ "managed: host first touch of a 2 MiB device block",
				       "memcpy 2 MiB", "<=1.2", TOUCH_BLOCKS, 0, 0, "" }, &a, &b);
	a.n = b.n = 0;
	for (int r = 0; r < reps; r++) {
		bench_add(&a, prefetch(s));
		bench_add(&b, copies(dst, src, PREFETCH, 1));
	}
	bench_row(&(struct bench_row){ "managed: PrefetchAsync 64 MiB host->device", "memcpy 64 MiB",
				       "<=1.1", 1, PREFETCH, 0, "" }, &a, &b);
	bench_check(aclrtDestroyStream(s), "aclrtDestroyStream");
	munmap(src, PREFETCH);
	munmap(dst, PREFETCH);
}
