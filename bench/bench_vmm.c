/*
 * VMM rows: aclrtMapMem + aclrtUnmapMem of a 2 MiB physical handle against
 * mmap + munmap of 2 MiB and against the two ioctls they need, and a 64 GiB aclrtReserveMemAddress +
 * aclrtReleaseMemAddress against mmap(PROT_NONE, MAP_NORESERVE) + munmap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "bench.h"

#define OPS 500

static double raw_maps(size_t len, int prot, int flags, int ops)
{
	double t = bench_now();

	for (int i = 0; i < ops; i++) {
		void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

		if (p == MAP_FAILED) {
			perror("bench: mmap");
			exit(1);
		}
		munmap(p, len);
	}
	return bench_now() - t;
}

static double map_unmap(void *va, aclrtDrvMemHandle h, int ops)
{
	double t = bench_now();

	for (int i = 0; i < ops; i++) {
		bench_check(aclrtMapMem(va, 2 * MiB, 0, h, 0), "aclrtMapMem");
		bench_check(aclrtUnmapMem(va), "aclrtUnmapMem");
	}
	return bench_now() - t;
}

static double reserve_release(size_t len, int ops)
{
	double t = bench_now();
	void *va;

	for (int i = 0; i < ops; i++) {
		bench_check(aclrtReserveMemAddress(&va, len, 0, NULL, 0), "aclrtReserveMemAddress");
		bench_check(aclrtReleaseMemAddress(va), "aclrtReleaseMemAddress");
	}
	return bench_now() - t;
}

void bench_vmm(void)
{
	aclrtPhysicalMemProp prop = { ACL_MEM_HANDLE_TYPE_NONE, ACL_MEM_ALLOCATION_TYPE_PINNED,
				      ACL_HBM_MEM_HUGE, { 0, ACL_MEM_LOCATION_TYPE_DEVICE }, 0 };
	struct bench_samples a = { 0 }, b = { 0 };
	int reps = bench_reps();
	aclrtDrvMemHandle h;
	void *va;

	if (!bench_selected("VMM"))
		return;
	bench_check(aclrtReserveMemAddress(&va, 2 * MiB, 0, NULL, 0), "aclrtReserveMemAddress");
	bench_check(aclrtMallocPhysical(&h, 2 * MiB, &prop, 0), "aclrtMallocPhysical");
	for (int r = 0; r < reps; r++) {
		bench_add(&a, map_unmap(va, h, OPS));
		bench_add(&b, raw_maps(2 * MiB, PROT_READ | PROT_WRITE, 0, OPS));
	}
	bench_row(&(struct bench_row){ "VMM aclrtMapMem+aclrtUnmapMem 2 MiB", "mmap+munmap 2 MiB", "",
				       OPS, 0, 0, "" }, &a, &b);
	a.n = b.n = 0;
	for (int r = 0; r < reps; r++) {
		bench_add(&a, map_unmap(va, h, OPS));
		bench_add(&b, bench_null_ioctls(2 * OPS));
	}
	bench_row(&(struct bench_row){ "VMM aclrtMapMem+aclrtUnmapMem 2 MiB (handle kept)",
				       "two null ioctls", "<=2.0", OPS, 0, 0, "" }, &a, &b);
	bench_check(aclrtFreePhysical(h), "aclrtFreePhysical");
	bench_check(aclrtReleaseMemAddress(va), "aclrtReleaseMemAddress");

	a.n = b.n = 0;
	for (int r = 0; r < reps; r++) {
		bench_add(&a, reserve_release(64 * GiB, OPS));
		bench_add(&b, raw_maps(64 * GiB, PROT_NONE, MAP_NORESERVE, OPS));
	}
	bench_row(&(struct bench_row){ "VMM reserve+release 64 GiB", "mmap+munmap PROT_NONE 64 GiB", "",
				       OPS, 0, 0, "" }, &a, &b);
}
