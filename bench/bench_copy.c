/*
 * Copy rows: aclrtMemcpy of 64 B against memcpy plus one null ioctl, and
 * 4 KiB ... 1 GiB H2D / D2H / D2D within device 0 and D2D from device 1
 * (peer access enabled) against glibc memcpy between host buffers; H2D and
 * D2H also against the kernel's memmove, as measured by the D2D copy of
 * the same size (glibc's AVX memcpy is slow under TCG, the kernel's
 * memmove is not).  "MemcpyAsync 64 B": 64 B D2D copies queued on a stream
 * with one synchronize per 100 (the path NPU_SIM_CHECK=races watches most).  Device buffers are 2 MiB hugetlb pages (HUGE_ONLY).
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"

#define SMALL_OPS 2000
#define D2D_MAX (256 * MiB)	/* D2D and peer rows: device memory for two buffers */

static double npu_copies(void *dst, const void *src, size_t n, aclrtMemcpyKind kind, int iters)
{
	double t = bench_now();

	for (int i = 0; i < iters; i++)
		bench_check(aclrtMemcpy(dst, n, src, n, kind), "aclrtMemcpy");
	return bench_now() - t;
}

static double host_copies(void *dst, const void *src, size_t n, int iters, int with_ioctl)
{
	double t = bench_now();

	for (int i = 0; i < iters; i++) {
		memcpy(dst, src, n);
		__asm__ __volatile__("" : : "r"(dst) : "memory");	/* keep every copy */
		if (with_ioctl)
			bench_null_ioctl();
	}
	return bench_now() - t;
}

static void small_rows(void)
{
	struct bench_samples a = { 0 }, b = { 0 }, c = { 0 };
	char *host = bench_host_buf(4096), *other = bench_host_buf(4096);
	void *dev;
	int reps = bench_reps();

	if (!bench_selected("Memcpy 64 B"))
		return;
	bench_check(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc 64");
	for (int r = 0; r < reps; r++) {
		bench_add(&a, npu_copies(dev, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, SMALL_OPS));
		bench_add(&c, npu_copies(host, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST, SMALL_OPS));
		bench_add(&b, host_copies(other, host, 64, SMALL_OPS, 1));
	}
	bench_row(&(struct bench_row){ "aclrtMemcpy 64 B H2D", "memcpy 64 B + null ioctl", "<=2.0",
				       SMALL_OPS, 0, 0, "" }, &a, &b);
	bench_row(&(struct bench_row){ "aclrtMemcpy 64 B D2H", "memcpy 64 B + null ioctl", "<=2.0",
				       SMALL_OPS, 0, 0, "" }, &c, &b);
	bench_check(aclrtFree(dev), "aclrtFree");
}

#define ASYNC_BATCH 100

static double npu_async_copies(void *dst, const void *src, aclrtStream s, int iters)
{
	double t = bench_now();

	for (int i = 0; i < iters; i++) {
		bench_check(aclrtMemcpyAsync(dst, 64, src, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s), "aclrtMemcpyAsync");
		if (i % ASYNC_BATCH == ASYNC_BATCH - 1)
			bench_check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
	}
	bench_check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
	return bench_now() - t;
}

static void async_rows(void)
{
	struct bench_samples a = { 0 }, b = { 0 };
	char *host = bench_host_buf(4096), *other = bench_host_buf(4096);
	aclrtStream s;
	void *dev;
	int reps = bench_reps();

	if (!bench_selected("MemcpyAsync 64 B"))
		return;
	bench_check(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc 4096");
	bench_check(aclrtCreateStream(&s), "aclrtCreateStream");
	for (int r = 0; r < reps; r++) {
		bench_add(&a, npu_async_copies((char *)dev + 2048, dev, s, SMALL_OPS));
		bench_add(&b, host_copies(other, host, 64, SMALL_OPS, 1));
	}
	bench_row(&(struct bench_row){ "aclrtMemcpyAsync 64 B D2D (sync per 100)", "memcpy 64 B + null ioctl", "",
				       SMALL_OPS, 0, 0, "" }, &a, &b);
	bench_check(aclrtDestroyStream(s), "aclrtDestroyStream");
	bench_check(aclrtFree(dev), "aclrtFree");
}

/* len bytes of 2 MiB pages on the current device dev, or NULL. */
static void *dev_buf(int dev, size_t len)
{
	void *p;
	aclError err;

	err = aclrtMallocAlign32(&p, len, ACL_MEM_MALLOC_HUGE_ONLY);
	if (err != ACL_SUCCESS) {
		fprintf(stderr, "bench: %zu MiB of 2 MiB pages on device %d failed (%d): reserve "
			"more with tools/npu-vm --hugepages-2m N or lower BENCH_COPY_MAX_MIB\n",
			len / MiB, dev, err);
		return NULL;
	}
	return p;
}

/*
 * H2D of 64 MiB whose host side is 2 MiB hugetlb memory (as a framework's
 * pinned staging buffer often is) against glibc memcpy of the same size
 * between ordinary host buffers.
 */
static void huge_host_row(void)
{
	struct bench_samples a = { 0 }, b = { 0 };
	size_t n = 64 * MiB;
	char *hsrc, *plain_src, *plain_dst;
	void *dev;
	int reps = bench_reps();

	if (!bench_selected("hugetlb host"))
		return;
	hsrc = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (hsrc == MAP_FAILED) {
		printf("    (no 64 MiB of 2 MiB host pages left: the hugetlb host row is skipped)\n");
		return;
	}
	memset(hsrc, 0x5a, n);
	plain_src = bench_host_buf(n);
	plain_dst = bench_host_buf(n);
	dev = dev_buf(0, n);
	if (dev != NULL) {
		for (int r = 0; r < reps; r++) {
			bench_add(&a, npu_copies(dev, hsrc, n, ACL_MEMCPY_HOST_TO_DEVICE, 4));
			bench_add(&b, host_copies(plain_dst, plain_src, n, 4, 0));
		}
		bench_row(&(struct bench_row){ "aclrtMemcpy H2D 64 MiB from hugetlb host", "glibc memcpy 64 MiB",
					       "<=0.9", 4, (double)n * 4, 0, "" }, &a, &b);
		bench_check(aclrtFree(dev), "aclrtFree");
	}
	munmap(plain_src, n);
	munmap(plain_dst, n);
	munmap(hsrc, n);
}

static void ratio_note(char *buf, size_t len, const struct bench_samples *npu,
		       const struct bench_samples *kern)
{
	snprintf(buf, len, "ratio vs kernel memmove (D2D same size): %.2f",
		 bench_median(npu) / bench_median(kern));
}

static void size_rows(size_t n, char *hsrc, char *hdst, char *d0a, char *d0b, char *d1, int peer)
{
	struct bench_samples prim = { 0 }, h2d = { 0 }, d2h = { 0 }, d2d = { 0 }, p2p = { 0 };
	int reps = bench_reps(), iters = (int)(64 * MiB / n);
	int with_d2d = n <= D2D_MAX && d0b != NULL;
	char name[64], pname[64], note_h[96], note_d[96];
	const char *unit = n >= GiB ? "GiB" : n >= MiB ? "MiB" : "KiB";
	size_t shown = n >= GiB ? n / GiB : n >= MiB ? n / MiB : n / KiB;
	const char *target = n == GiB ? "<=0.7" : "";

	if (iters < 1)
		iters = 1;
	if (iters > 256)
		iters = 256;
	for (int r = 0; r < reps; r++) {
		bench_add(&prim, host_copies(hdst, hsrc, n, iters, 0));
		bench_add(&h2d, npu_copies(d0a, hsrc, n, ACL_MEMCPY_HOST_TO_DEVICE, iters));
		bench_add(&d2h, npu_copies(hdst, d0a, n, ACL_MEMCPY_DEVICE_TO_HOST, iters));
		if (with_d2d)
			bench_add(&d2d, npu_copies(d0b, d0a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, iters));
		if (with_d2d && peer)
			bench_add(&p2p, npu_copies(d0b, d1, n, ACL_MEMCPY_DEVICE_TO_DEVICE, iters));
	}
	snprintf(pname, sizeof(pname), "glibc memcpy %zu %s", shown, unit);
	note_h[0] = note_d[0] = '\0';
	if (with_d2d) {
		ratio_note(note_h, sizeof(note_h), &h2d, &d2d);
		ratio_note(note_d, sizeof(note_d), &d2h, &d2d);
	}
	snprintf(name, sizeof(name), "aclrtMemcpy H2D %zu %s", shown, unit);
	bench_row(&(struct bench_row){ name, pname, target, iters, (double)n * iters, 0, note_h }, &h2d,
		  &prim);
	snprintf(name, sizeof(name), "aclrtMemcpy D2H %zu %s", shown, unit);
	bench_row(&(struct bench_row){ name, pname, target, iters, (double)n * iters, 0, note_d }, &d2h,
		  &prim);
	if (with_d2d) {
		snprintf(name, sizeof(name), "aclrtMemcpy D2D dev0 %zu %s", shown, unit);
		bench_row(&(struct bench_row){ name, pname, "", iters, (double)n * iters, 0, "" }, &d2d,
			  &prim);
	}
	if (with_d2d && peer) {
		snprintf(name, sizeof(name), "aclrtMemcpy D2D dev1->dev0 %zu %s", shown, unit);
		bench_row(&(struct bench_row){ name, pname, "", iters, (double)n * iters, 0, "" }, &p2p,
			  &prim);
	}
}

/*
 * The emulator's software TLB: a D2D copy of 16 MiB inside one buffer, its
 * destination half the buffer above the source, against the same copy with
 * the destination 4 KiB further.  Under QEMU's TCG the first pair of
 * addresses may share entries of the direct-mapped TLB, so the driver
 * copies through a second mapping of the destination's pages
 * (kernel/npu_copy_remap.c); the row shows what such a pair still costs.  On hardware the two are the same copy.
 */
static void tlb_row(char *d0a, size_t len)
{
	struct bench_samples on = { 0 }, off = { 0 };
	size_t n = 16 * MiB, apart = len / 2;
	int reps = bench_reps();

	if (len < 2 * (n + 4096))
		return;
	for (int r = 0; r < reps; r++) {
		bench_add(&on, npu_copies(d0a + apart, d0a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, 4));
		bench_add(&off, npu_copies(d0a + apart + 4096, d0a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, 4));
	}
	bench_row(&(struct bench_row){ "aclrtMemcpy D2D 16 MiB, dst half a buffer up",
				       "the same, dst 4 KiB further", "", 4, (double)n * 4, 0,
				       "an emulator effect (QEMU's software TLB), BENCHMARKS.md" }, &on, &off);
}

void bench_copy(void)
{
	static const size_t sizes[] = { 4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB, 256 * MiB, 1 * GiB };
	size_t max = bench_copy_max_mib() * MiB, dmax = max < D2D_MAX ? max : D2D_MAX;
	int32_t can = 0, peer = 0;
	char *hsrc, *hdst, *d0a, *d0b, *d1 = NULL;

	small_rows();
	huge_host_row();
	async_rows();
	if (!bench_selected("aclrtMemcpy "))
		return;
	if (aclrtDeviceCanAccessPeer(&can, 0, 1) == ACL_SUCCESS && can) {
		bench_check(aclrtSetDevice(1), "aclrtSetDevice");
		d1 = dev_buf(1, dmax);
		bench_check(aclrtSetDevice(0), "aclrtSetDevice");	/* back; dev 0 held twice */
		peer = d1 != NULL && aclrtDeviceEnablePeerAccess(1, 0) == ACL_SUCCESS;
	}
	if (!peer)
		printf("    (no second device with peer access: load with num_devices=2 for the "
		       "cross-device rows)\n");
	hsrc = bench_host_buf(max);
	hdst = bench_host_buf(max);
	d0a = dev_buf(0, max);
	d0b = dev_buf(0, dmax);
	if (d0a == NULL)
		goto out;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]) && sizes[i] <= max; i++)
		size_rows(sizes[i], hsrc, hdst, d0a, d0b, d1, peer);
	tlb_row(d0a, max);
	bench_check(aclrtFree(d0a), "aclrtFree");
	if (d0b)
		bench_check(aclrtFree(d0b), "aclrtFree");
	if (d1) {
		bench_check(aclrtDeviceDisablePeerAccess(1), "aclrtDeviceDisablePeerAccess");
		bench_check(aclrtFree(d1), "aclrtFree");
		bench_check(aclrtResetDevice(1), "aclrtResetDevice");
		bench_check(aclrtResetDevice(0), "aclrtResetDevice");	/* the second hold */
	}
out:
	munmap(hsrc, max);
	munmap(hdst, max);
}
