// SPDX-License-Identifier: GPL-2.0
/*
 * Scale: 100,000 live 64 B allocations in one process (more than
 * vm.max_map_count would allow as one VMA each), all visible in debugfs,
 * usable, and freed; NPU_SIM_STRESS=1 raises the count to 1,000,000 (not on
 * the debug kernel, whose kmemleak makes that take an hour).  They
 * are slots of shared 4 KiB pages (footprint 96 B -> 128 B slots, 32 to a
 * page): the device is charged one page per 32, and the kernel memory per
 * allocation stays at most 300 bytes.
 */
#include "vmtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* 64 B allocations: footprint ALIGN_UP(64, 32) + 32 = 96 in 128-byte slots. */
#define SLOT 128
#define PER_PAGE (4096 / SLOT)

static void live_allocations(long n, int debug_kernel)
{
	uintptr_t *p = calloc((size_t)n, sizeof(*p)), *sorted;
	long long pages = (n + PER_PAGE - 1) / PER_PAGE, slab0, slab;
	struct vm_alloc *all;
	unsigned char src[64], back[64];
	size_t f0, t0, f, t;
	long i, lines;
	double t_start, t_alloc, t_dbg, t_io, t_free;
	aclError ret;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	vm_hbm_info(&f0, &t0);
	slab0 = vm_meminfo("Slab");

	t_start = vm_now();
	for (i = 0; i < n; i++) {
		void *q = NULL;

		ret = aclrtMalloc(&q, 64, ACL_MEM_MALLOC_NORMAL_ONLY);
		if (ret != ACL_SUCCESS || !q || ((uintptr_t)q & 63))
			ck_abort_msg("allocation %ld of %ld: ret %d ptr %p", i, n, ret, q);
		p[i] = (uintptr_t)q;
	}
	t_alloc = vm_now();
	slab = vm_meminfo("Slab");
	printf("scale: %ld x 64 B: %lld pages charged, slab %.0f B per allocation\n", n, pages,
	       (slab - slab0) * 1024.0 / n);
	/* the bound is the stock kernel's: KASAN and kmemleak grow every object */
	if (!debug_kernel)
		ck_assert_msg((slab - slab0) * 1024 <= 300LL * n, "slab grew by %lld KiB for %ld allocations",
			      slab - slab0, n);

	/* distinct and non-overlapping, one slot each */
	sorted = malloc((size_t)n * sizeof(*sorted));
	ck_assert_ptr_nonnull(sorted);
	memcpy(sorted, p, (size_t)n * sizeof(*sorted));
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_ptr);
	for (i = 1; i < n; i++)
		if (sorted[i - 1] + SLOT > sorted[i])
			ck_abort_msg("allocations at 0x%lx and 0x%lx overlap", (unsigned long)sorted[i - 1],
				     (unsigned long)sorted[i]);
	free(sorted);

	lines = vm_dbg_allocs(0, &all);
	ck_assert_int_eq(lines, n);
	for (i = 0; i < lines; i++)
		if (all[i].pid != getpid() || all[i].size != 64 || all[i].footprint != 96 ||
		    all[i].charged != SLOT || strcmp(all[i].kind, "normal"))
			ck_abort_msg("debugfs line %ld: pid %ld size %llu footprint %llu charged %llu %s",
				     i, all[i].pid, all[i].size, all[i].footprint, all[i].charged,
				     all[i].kind);
	free(all);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), n);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), pages * 4096);
	ck_assert_int_eq(vm_dbg_info(0, "used_normal_bytes"), pages * 4096);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0 - (uint64_t)pages * 4096);
	t_dbg = vm_now();

	/* every allocation is found by the driver: 1,000 spread round trips */
	for (i = 0; i < n; i += n / 1000) {
		vm_fill(src, sizeof(src), (uint32_t)i);
		if (aclrtMemcpy((void *)p[i], 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
		    aclrtMemcpy(back, 64, (void *)p[i], 64, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS ||
		    memcmp(src, back, 64))
			ck_abort_msg("round trip through allocation %ld failed", i);
	}
	t_io = vm_now();

	/* free odd ones (every page keeps its even slots), then even ones */
	for (i = 1; i < n; i += 2)
		if ((ret = aclrtFree((void *)p[i])) != ACL_SUCCESS)
			ck_abort_msg("free %ld: %d", i, ret);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), n - n / 2);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), pages * 4096);
	for (i = 0; i < n; i += 2)
		if ((ret = aclrtFree((void *)p[i])) != ACL_SUCCESS)
			ck_abort_msg("free %ld: %d", i, ret);
	t_free = vm_now();

	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_allocs(0, NULL), 0);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0);
	free(p);
	printf("scale: %ld live allocations: alloc %.2fs, debugfs+checks %.2fs, 1000 round trips %.2fs, free %.2fs\n",
	       n, t_alloc - t_start, t_dbg - t_alloc, t_io - t_dbg, t_free - t_io);
	fflush(stdout);
}

START_TEST(test_100k_live)
{
	const char *stress = getenv("NPU_SIM_STRESS");
	/* kmemleak tracks every object: a million take an hour on that kernel */
	int debug_kernel = access("/sys/kernel/debug/kmemleak", F_OK) == 0;

	live_allocations(stress && !strcmp(stress, "1") && !debug_kernel ? 1000000 : 100000, debug_kernel);
}
END_TEST

/* The process exits holding them all: the release frees 100,000 at once. */
START_TEST(test_100k_exit_cleanup)
{
	struct vm_child ch;
	int st;

	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ch.pid = fork();
	ck_assert_int_ge(ch.pid, 0);
	if (ch.pid == 0) {
		long i;

		if (aclInit(NULL) || aclrtSetDevice(0))
			_exit(1);
		for (i = 0; i < 100000; i++) {
			void *q;

			if (aclrtMalloc(&q, 1, ACL_MEM_MALLOC_NORMAL_ONLY))
				_exit(2);
		}
		_exit(0);
	}
	ch.cmd = ch.rep = -1;
	st = vm_child_wait(&ch);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_contexts(0), 0);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

static Suite *scale_suite(void)
{
	Suite *s = suite_create("scale");
	TCase *tc = tcase_create("live");

	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT_LONG);
	tcase_add_test(tc, test_100k_live);
	tcase_add_test(tc, test_100k_exit_cleanup);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(scale_suite());
}
