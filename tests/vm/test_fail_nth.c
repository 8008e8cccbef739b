// SPDX-License-Identifier: GPL-2.0
/*
 * Error paths under injected allocation failures (issue 12), on the debug
 * kernel of 'make debug-kernel' (CONFIG_FAULT_INJECTION, failslab,
 * fail_page_alloc).  For each API path below and each n = 1, 2, ... the n-th
 * kernel allocation of this thread fails (/proc/thread-self/fail-nth) until
 * the call gets through without reaching the n-th one.  Each call must
 * either succeed (a fallback took over) or return 207001
 * (ACL_ERROR_RT_MEMORY_ALLOCATION, what ENOMEM means); a failed call must
 * leave the device counters, hugetlb pools and allocation list exactly as
 * before, and a succeeded one must undo completely.  Afterwards kmemleak
 * finds nothing of npu_sim, and the kernel log holds no report other than
 * the expected allocation-failure messages.
 *
 * On a kernel without fail-nth (the stock one) the binary prints
 * "SKIPPED: test_fail_nth: ..." and exits 0 without running a check;
 * tests/run-suite counts it as skipped (allowed on the stock kernel only).
 */
#include "vmtest.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include <acl/acl.h>

#define FAIL_NTH "/proc/thread-self/fail-nth"
#define DBG "/sys/kernel/debug"
#define MAX_NTH 400

struct path_case {
	const char *name;
	/* one API path; 0 or an aclError; undone by undo() after success */
	aclError (*run)(void **state);
	void (*undo)(void *state);
	/* the path allocates kernel memory (synchronous copies need none) */
	bool allocates;
};

static char big[256 * 1024];

/* ---- the paths -------------------------------------------------------- */

static aclError malloc_normal(void **st)
{
	return aclrtMalloc(st, 4096, ACL_MEM_MALLOC_NORMAL_ONLY);
}

/* A slot of a small page (an idle page is reused after the first run). */
static aclError malloc_small(void **st)
{
	return aclrtMalloc(st, 64, ACL_MEM_MALLOC_NORMAL_ONLY);
}

/*
 * 33 slots: the 33rd needs a new small page (its npu_phys, page, VA range
 * and hole) even when the previous run left an idle one.
 */
#define SMALL_RUN 33

static aclError malloc_small_pages(void **st)
{
	void **p = calloc(SMALL_RUN, sizeof(*p));
	aclError e = ACL_SUCCESS;
	int i;

	ck_assert_ptr_nonnull(p);
	for (i = 0; i < SMALL_RUN && e == ACL_SUCCESS; i++)
		e = aclrtMalloc(&p[i], 64, ACL_MEM_MALLOC_NORMAL_ONLY);
	if (e == ACL_SUCCESS) {
		*st = p;
		return e;
	}
	/* a path that fails half-way undoes its steps as a program would */
	while (--i > 0)
		ck_assert_int_eq(aclrtFree(p[i - 1]), ACL_SUCCESS);
	free(p);
	return e;
}

static void small_pages_undo(void *st)
{
	void **p = st;

	for (int i = 0; i < SMALL_RUN; i++)
		ck_assert_int_eq(aclrtFree(p[i]), ACL_SUCCESS);
	free(p);
}

static aclError malloc_huge_first(void **st)
{
	return aclrtMalloc(st, 2 * MiB, ACL_MEM_MALLOC_HUGE_FIRST);
}

static aclError malloc_huge_only(void **st)
{
	return aclrtMalloc(st, 2 * MiB, ACL_MEM_MALLOC_HUGE_ONLY);
}

static void undo_free(void *st)
{
	ck_assert_int_eq(aclrtFree(st), ACL_SUCCESS);
}

static void *dev_buf;	/* a live allocation the copy paths use */

static aclError copy_h2d(void **st)
{
	(void)st;
	return aclrtMemcpy(dev_buf, sizeof(big), big, sizeof(big), ACL_MEMCPY_HOST_TO_DEVICE);
}

static aclError copy_d2h(void **st)
{
	(void)st;
	return aclrtMemcpy(big, sizeof(big), dev_buf, sizeof(big), ACL_MEMCPY_DEVICE_TO_HOST);
}

static void undo_nothing(void *st)
{
	(void)st;
}

struct vmm_state {
	aclrtDrvMemHandle h;
	void *va;
	uint64_t key;
};

static aclError vmm_map(void **st)
{
	aclrtPhysicalMemProp prop = vm_phys_prop(ACL_HBM_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
	struct vmm_state *s = calloc(1, sizeof(*s));
	aclError e;

	ck_assert_ptr_nonnull(s);
	e = aclrtMallocPhysical(&s->h, 2 * MiB, &prop, 0);
	if (e)
		goto out_free;
	e = aclrtReserveMemAddress(&s->va, 4 * MiB, 0, NULL, 0);
	if (e)
		goto out_phys;
	e = aclrtMapMem(s->va, 2 * MiB, 0, s->h, 0);
	if (e)
		goto out_va;
	e = aclrtMemExportToShareableHandle(s->h, ACL_MEM_HANDLE_TYPE_NONE,
					    ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &s->key);
	if (e)
		goto out_map;
	*st = s;
	return ACL_SUCCESS;
	/* a path that fails half-way undoes its steps as a program would */
out_map:
	ck_assert_int_eq(aclrtUnmapMem(s->va), ACL_SUCCESS);
out_va:
	ck_assert_int_eq(aclrtReleaseMemAddress(s->va), ACL_SUCCESS);
out_phys:
	ck_assert_int_eq(aclrtFreePhysical(s->h), ACL_SUCCESS);
out_free:
	free(s);
	return e;
}

static void vmm_undo(void *st)
{
	struct vmm_state *s = st;

	ck_assert_int_eq(aclrtUnmapMem(s->va), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(s->va), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(s->h), ACL_SUCCESS);
	free(s);
}

static aclError stream_copy(void **st)
{
	aclrtStream s = NULL;
	aclError e = aclrtCreateStream(&s);

	if (e)
		return e;
	e = aclrtMemcpyAsync(dev_buf, sizeof(big), big, sizeof(big),
			     ACL_MEMCPY_HOST_TO_DEVICE, s);
	if (e == ACL_SUCCESS)
		e = aclrtSynchronizeStream(s);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	(void)st;
	return e;
}

static aclError managed_touch(void **st)
{
	aclrtStream s = NULL;
	void *p = NULL;
	aclError e = aclrtMemAllocManaged(&p, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL);

	if (e)
		return e;
	e = aclrtCreateStream(&s);
	if (e == ACL_SUCCESS) {
		aclrtMemManagedLocation loc = { .type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0 };

		e = aclrtMemManagedPrefetchAsync(p, 2 * MiB, loc, 0, s);
		if (e == ACL_SUCCESS)
			e = aclrtSynchronizeStream(s);
		ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	}
	if (e) {
		ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
		return e;
	}
	*st = p;
	return ACL_SUCCESS;
}

struct ipc_state {
	void *p;
	char key[65];
};

static aclError ipc_export(void **st)
{
	struct ipc_state *s = calloc(1, sizeof(*s));
	aclError e;

	ck_assert_ptr_nonnull(s);
	e = aclrtMalloc(&s->p, 64 * KiB, ACL_MEM_MALLOC_NORMAL_ONLY);
	if (e == ACL_SUCCESS) {
		e = aclrtIpcMemGetExportKey(s->p, 64 * KiB, s->key, sizeof(s->key),
					    ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT);
		if (e == ACL_SUCCESS) {
			*st = s;
			return ACL_SUCCESS;
		}
		ck_assert_int_eq(aclrtFree(s->p), ACL_SUCCESS);
	}
	free(s);
	return e;
}

/* The key holds the memory until the exporter closes it. */
static void ipc_undo(void *st)
{
	struct ipc_state *s = st;

	ck_assert_int_eq(aclrtIpcMemClose(s->key), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(s->p), ACL_SUCCESS);
	free(s);
}

static aclError host_register(void **st)
{
	void *dev = NULL;
	aclError e = aclrtHostRegister(big, sizeof(big), ACL_HOST_REGISTER_MAPPED, &dev);

	(void)st;
	if (e == ACL_SUCCESS)
		ck_assert_int_eq(aclrtHostUnregister(big), ACL_SUCCESS);
	return e;
}

static const struct path_case cases[] = {
	{ "aclrtMalloc NORMAL_ONLY", malloc_normal, undo_free, true },
	{ "aclrtMalloc 64 B (a slot)", malloc_small, undo_free, true },
	{ "aclrtMalloc 33 x 64 B (a new page)", malloc_small_pages, small_pages_undo, true },
	{ "aclrtMalloc HUGE_FIRST", malloc_huge_first, undo_free, true },
	{ "aclrtMalloc HUGE_ONLY", malloc_huge_only, undo_free, true },
	{ "aclrtMemcpy H2D", copy_h2d, undo_nothing, false },
	{ "aclrtMemcpy D2H", copy_d2h, undo_nothing, false },
	{ "VMM physical+reserve+map+export", vmm_map, vmm_undo, true },
	{ "stream + aclrtMemcpyAsync", stream_copy, undo_nothing, true },
	{ "managed alloc + prefetch", managed_touch, undo_free, true },
	{ "aclrtIpcMemGetExportKey", ipc_export, ipc_undo, true },
	{ "aclrtHostRegister", host_register, undo_nothing, true },
};

/* ---- fault injection set-up -------------------------------------------- */

static int have_fail_nth(void)
{
	return access(FAIL_NTH, W_OK) == 0 && vm_exists(DBG "/failslab");
}

/* Slab and page allocations that may sleep can fail too; no stack dumps. */
static void faults_setup(void)
{
	ck_assert_int_eq(vm_write_str(DBG "/failslab/ignore-gfp-wait", "N"), 0);
	ck_assert_int_eq(vm_write_str(DBG "/failslab/verbose", "0"), 0);
	ck_assert_int_eq(vm_write_str(DBG "/fail_page_alloc/ignore-gfp-wait", "N"), 0);
	ck_assert_int_eq(vm_write_str(DBG "/fail_page_alloc/verbose", "0"), 0);
}

static void set_nth(int fd, unsigned int n)
{
	char b[16];
	int len = snprintf(b, sizeof(b), "%u", n);

	ck_assert_int_eq(pwrite(fd, b, len, 0), len);
}

/* 0: the armed failure was injected; otherwise it was not reached. */
static unsigned int get_nth(int fd)
{
	char b[16] = "";

	ck_assert_int_gt(pread(fd, b, sizeof(b) - 1, 0), 0);
	return (unsigned int)strtoul(b, NULL, 10);
}

/* Lines of the kernel log no test may produce, even here. */
static const char *const bad_words[] = {
	"BUG:", "KASAN:", "UBSAN:", "WARNING:", "Oops", "general protection",
	"possible circular locking", "possible recursive locking",
	"inconsistent lock state", "suspicious RCU usage", "lock held when returning",
	"sleeping function called", "kernel BUG", "unreferenced object",
};

/*
 * The log since boot must be free of reports; the allocation-failure
 * messages this test causes (with their stack dumps) are dropped from the
 * ring buffer once checked, so that the runner's log scan sees only what
 * came before and after.
 */
static void klog_check_and_clear(const char *when)
{
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	size_t i;

	ck_assert_int_gt(n, 0);
	buf = calloc(1, n + 1);
	ck_assert_ptr_nonnull(buf);
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	ck_assert_int_ge(n, 0);
	for (i = 0; i < sizeof(bad_words) / sizeof(bad_words[0]); i++) {
		char *hit = strstr(buf, bad_words[i]);

		ck_assert_msg(hit == NULL, "%s: kernel log has \"%s\": %.300s", when,
			      bad_words[i], hit ? hit : "");
	}
	free(buf);
	ck_assert_int_eq(klogctl(5 /* SYSLOG_ACTION_CLEAR */, NULL, 0), 0);
}

static void kmemleak_check(void)
{
	FILE *f;
	char line[256];
	int npu_lines = 0, lines = 0;

	if (!vm_exists(DBG "/kmemleak"))
		return;
	/* two scans: an object must stay unreferenced over both to count */
	ck_assert_int_eq(vm_write_str(DBG "/kmemleak", "scan"), 0);
	ck_assert_int_eq(vm_write_str(DBG "/kmemleak", "scan"), 0);
	f = fopen(DBG "/kmemleak", "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		lines++;
		if (strstr(line, "npu_") || strstr(line, "npu_sim"))
			npu_lines++;
	}
	fclose(f);
	ck_assert_msg(npu_lines == 0, "kmemleak: %d lines name npu_sim (of %d)", npu_lines, lines);
}

START_TEST(every_allocation_fails_once)
{
	const struct path_case *c = &cases[_i];
	int fd = open(FAIL_NTH, O_RDWR);
	unsigned int n, injected = 0, survived = 0;
	struct vm_snap before;
	void *st = NULL;

	ck_assert_int_ge(fd, 0);
	/* once without faults: warms caches, proves the path works */
	ck_assert_int_eq(c->run(&st), ACL_SUCCESS);
	c->undo(st);
	vm_snap_take(0, &before);
	for (n = 1; n <= MAX_NTH; n++) {
		aclError e;
		unsigned int left;

		st = NULL;
		set_nth(fd, n);
		e = c->run(&st);
		left = get_nth(fd);
		if (left)
			set_nth(fd, 0);
		if (left && e == ACL_SUCCESS) {
			c->undo(st);
			vm_snap_assert_same(0, &before);
			break;	/* n is past the path's last allocation */
		}
		ck_assert_msg(left == 0, "%s: failed (%d) without an injected fault", c->name, e);
		injected++;
		if (e == ACL_SUCCESS) {
			survived++;
			c->undo(st);
		} else {
			ck_assert_msg(e == ACL_ERROR_RT_MEMORY_ALLOCATION,
				      "%s: allocation %u failed -> %d, want 207001", c->name, n, e);
		}
		vm_snap_assert_same(0, &before);
	}
	ck_assert_msg(n <= MAX_NTH, "%s: still allocating after %u faults", c->name, MAX_NTH);
	ck_assert_msg(injected > 0 || !c->allocates, "%s: no allocation to fail", c->name);
	printf("fail-nth: %-34s %3u allocations failed in turn (%u survived by fallback)\n",
	       c->name, injected, survived);
	close(fd);
	klog_check_and_clear(c->name);
}
END_TEST

static long hp2m_before;

static void setup(void)
{
	vm_acl_setup();
	hp2m_before = vm_hp2m_total();
	vm_set_hp2m_pool(8);	/* for the HUGE_* paths */
	faults_setup();
	klog_check_and_clear("before");
	memset(big, 0x5a, sizeof(big));
	ck_assert_int_eq(aclrtMalloc(&dev_buf, sizeof(big), ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
}

static void teardown(void)
{
	ck_assert_int_eq(aclrtFree(dev_buf), ACL_SUCCESS);
	vm_acl_teardown();
	vm_set_hp2m_pool(hp2m_before);
}

START_TEST(no_leak_after_all)
{
	kmemleak_check();
	klog_check_and_clear("kmemleak");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fail_nth");
	TCase *tc = tcase_create("paths");
	SRunner *sr;
	int failed;

	if (!have_fail_nth()) {
		printf("SKIPPED: test_fail_nth: this kernel has no fail-nth fault injection; "
		       "it runs on 'make debug-kernel' (tools/npu-vm --kernel debug, make stress)\n");
		return 0;
	}
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, every_allocation_fails_once, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, no_leak_after_all);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	/* every path in this one process, one after another: a forked child
	 * per path would take what a path left behind away at its exit, before
	 * the next path's baseline and the kmemleak scan could see it */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
