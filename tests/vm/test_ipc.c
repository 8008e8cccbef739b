// SPDX-License-Identifier: GPL-2.0
/*
 * Sharing physical memory between processes (docs/design.md 4.3, issue 3):
 * aclrtMemExportToShareableHandle once per handle, the pid whitelist of
 * aclrtMemSetPidToShareableHandle (exporter only), import by a whitelisted
 * process only (or by anyone with pid validation disabled), guessed values
 * never import, the importer's FreePhysical frees only its own hold, and the
 * memory goes back only when every holder (also a killed one) let go.
 * Every importer is a separate process (fork, then its own aclInit and
 * aclrtSetDevice).  Expected codes are those written in lib/api/vmm_share.c.
 */
#include "vmtest.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <acl/acl.h>

#define HPAGE (2 * MiB)

enum { CMD_FREE = 1, CMD_EXIT = 2, CMD_KEY = 3 };

/* What an importer child does with the key it is sent. */
struct imp_arg {
	int device;		/* import into this device (0 or 1) */
	int map_check;		/* map it and compare with vm_fill(seed) */
	uint32_t seed;
	int write_seed;		/* then write vm_fill(write_seed) to the first 4 KiB */
	int guess;		/* also try guessed keys, expecting 107017 */
};

static aclrtPhysicalMemProp prop_huge(void)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.memAttr = ACL_MEM_HUGE;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	return p;
}

/*
 * Importer: reports 0 when ready, then for the key it gets: the import
 * result, then (if imported and map_check) 0 or the failed step.  Then
 * serves CMD_FREE (reports the FreePhysical result and the second one) and
 * CMD_EXIT.
 */
static int child_importer(void *argp, int cmd, int rep)
{
	struct imp_arg *a = argp;
	aclrtDrvMemHandle h = NULL, h2 = NULL;
	aclrtPhysicalMemProp q;
	unsigned char *want, *got;
	uint64_t key, c, sk;
	int32_t self = getpid();
	char *r = NULL;
	int ret;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	if (a->device == 1 && aclrtSetDevice(1))
		return 2;
	if (vm_put(rep, 0) || vm_get(cmd, &key))
		return 3;
	if (a->guess) {
		for (uint64_t i = 1; i <= 2000; i++) {
			uint64_t g = key ^ (i * 0x9E3779B97F4A7C15ULL);

			if (aclrtMemImportFromShareableHandle(g, 0, &h2) != 107017)
				return 4;
		}
		if (aclrtMemImportFromShareableHandle(key + 1, 0, &h2) != 107017 ||
		    aclrtMemImportFromShareableHandle(key - 1, 0, &h2) != 107017 ||
		    aclrtMemImportFromShareableHandle(0, 0, &h2) != 107000 ||
		    aclrtMemImportFromShareableHandle(key, 0, NULL) != 100000 ||
		    aclrtMemImportFromShareableHandle(key, -1, &h2) != 107001 ||
		    aclrtMemImportFromShareableHandle(key, 3, &h2) != 107001)
			return 5;
	}
	ret = aclrtMemImportFromShareableHandle(key, a->device, &h);
	if (vm_put(rep, (uint64_t)(int64_t)ret))
		return 6;
	if (ret == ACL_SUCCESS && a->map_check) {
		uint64_t step = 0;

		want = malloc(HPAGE);
		got = malloc(HPAGE);
		if (!want || !got)
			step = 10;
		if (!step && (aclrtMemGetAllocationPropertiesFromHandle(h, &q) || q.memAttr != ACL_MEM_HUGE ||
			      q.location.type != ACL_MEM_LOCATION_TYPE_DEVICE))
			step = 11;
		if (!step && aclrtReserveMemAddress((void **)&r, 8 * MiB, 0, NULL, 0))
			step = 12;
		if (!step && aclrtMapMem(r + HPAGE, HPAGE, 0, h, 0))
			step = 13;
		if (!step && aclrtMemcpy(got, HPAGE, r + HPAGE, HPAGE, ACL_MEMCPY_DEVICE_TO_HOST))
			step = 14;
		if (!step) {
			vm_fill(want, HPAGE, a->seed);
			if (memcmp(want, got, HPAGE))
				step = 15;
		}
		if (!step && a->write_seed) {
			vm_fill(want, 4096, a->write_seed);
			if (aclrtMemcpy(r + HPAGE, 4096, want, 4096, ACL_MEMCPY_HOST_TO_DEVICE))
				step = 16;
		}
		/* not the exporter: no whitelist changes, no re-export */
		if (!step && aclrtMemSetPidToShareableHandle(key, &self, 1) != 207006)
			step = 17;
		if (!step && aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &sk) != 207006)
			step = 18;
		if (!step && aclrtUnmapMem(r + HPAGE))
			step = 19;
		if (!step && aclrtMapMem(r, HPAGE, 0, h, 0))	/* keep it mapped */
			step = 20;
		free(want);
		free(got);
		if (vm_put(rep, step))
			return 7;
	}
	for (;;) {
		if (vm_get(cmd, &c))
			return 8;
		if (c == CMD_FREE) {
			if (r && aclrtUnmapMem(r))
				return 9;
			vm_put(rep, (uint64_t)(int64_t)aclrtFreePhysical(h));
			vm_put(rep, (uint64_t)(int64_t)aclrtFreePhysical(h));
		} else if (c == CMD_EXIT) {
			return 0;
		}
	}
}

struct exporter {
	aclrtDrvMemHandle h;
	char *r;
	uint64_t key;
};

/* Parent: a 2 MiB handle mapped and filled with vm_fill(seed), exported. */
static void export_one(struct exporter *e, uint32_t seed, uint64_t flags)
{
	aclrtPhysicalMemProp p = prop_huge();
	unsigned char *buf = malloc(HPAGE);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(aclrtMallocPhysical(&e->h, HPAGE, &p, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&e->r, 4 * MiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(e->r, HPAGE, 0, e->h, 0), ACL_SUCCESS);
	vm_fill(buf, HPAGE, seed);
	ck_assert_int_eq(aclrtMemcpy(e->r, HPAGE, buf, HPAGE, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	e->key = 0;
	ck_assert_int_eq(aclrtMemExportToShareableHandle(e->h, ACL_MEM_HANDLE_TYPE_NONE, flags, &e->key),
			 ACL_SUCCESS);
	ck_assert_uint_ne(e->key, 0);
	free(buf);
}

static void unexport_free(struct exporter *e)
{
	ck_assert_int_eq(aclrtUnmapMem(e->r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(e->r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(e->h), ACL_SUCCESS);
}

static int dbg_count(const char *file, const char *needle)
{
	char path[128], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/npu_sim/npu_sim0/%s", file);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "open %s", path);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

/* Keys listed by debugfs "shared": its lines but the header. */
static int shared_keys(void)
{
	return dbg_count("shared", "\n") - 1;
}

static long long used_bytes(void)
{
	return vm_dbg_info(0, "used_bytes");
}

static void ipc_setup(void)
{
	vm_mod_ensure_default();
	vm_set_hp2m_pool(16);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}

static void ipc_teardown(void)
{
	aclrtResetDevice(0);
	aclFinalize();
}

/* Start an importer, wait for ready, send the key, return the import result. */
static int start_importer(struct vm_child *c, struct imp_arg *a, uint64_t key, int whitelist)
{
	vm_child_start(c, child_importer, a);
	ck_assert_uint_eq(vm_child_get(c), 0);
	if (whitelist) {
		int32_t pid = c->pid;

		ck_assert_int_eq(aclrtMemSetPidToShareableHandle(key, &pid, 1), ACL_SUCCESS);
	}
	vm_child_put(c, key);
	return (int)(int64_t)vm_child_get(c);
}

START_TEST(test_export_whitelist_import)
{
	struct imp_arg ia = { .map_check = 1, .seed = 81, .write_seed = 82 };
	struct imp_arg ib = { .guess = 1 };
	unsigned char want[4096], got[4096];
	struct vm_child a, b;
	struct exporter e;
	uint64_t k2 = 0;
	int32_t pids[2];
	struct stat st;
	char needle[160];
	long long used0 = used_bytes();

	export_one(&e, 81, ACL_RT_VMM_EXPORT_FLAG_DEFAULT);
	/* once per handle */
	ck_assert_int_eq(aclrtMemExportToShareableHandle(e.h, ACL_MEM_HANDLE_TYPE_NONE, 0, &k2), 107000);
	ck_assert_int_eq(aclrtMemExportToShareableHandle(e.h, ACL_MEM_HANDLE_TYPE_POSIX, 0, &k2), 100000);
	ck_assert_int_eq(aclrtMemExportToShareableHandle(e.h, ACL_MEM_HANDLE_TYPE_NONE, 2, &k2), 107000);
	ck_assert_int_eq(aclrtMemExportToShareableHandle(e.h, ACL_MEM_HANDLE_TYPE_NONE, 0, NULL), 100000);
	ck_assert_int_eq(aclrtMemExportToShareableHandle(NULL, ACL_MEM_HANDLE_TYPE_NONE, 0, &k2), 100000);
	ck_assert_uint_eq(k2, 0);
	/* root only, and no key in it: the key is the credential */
	ck_assert_int_eq(stat("/sys/kernel/debug/npu_sim/npu_sim0/shared", &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0400);
	snprintf(needle, sizeof(needle), "%016llx", (unsigned long long)e.key);
	ck_assert_int_eq(dbg_count("shared", needle), 0);
	snprintf(needle, sizeof(needle), "%llx", (unsigned long long)e.key);
	ck_assert_int_eq(dbg_count("shared", needle), 0);
	snprintf(needle, sizeof(needle), "%llu", (unsigned long long)e.key);
	ck_assert_int_eq(dbg_count("shared", needle), 0);
	ck_assert_int_eq(dbg_count("shared", "export owner_pid handle size kind imports flags whitelist\n"), 1);
	snprintf(needle, sizeof(needle), " %d %u 2097152 huge_2m 0 - -\n", getpid(),
		 (uint32_t)(uintptr_t)e.h);
	ck_assert_int_eq(dbg_count("shared", needle), 1);
	/* not in the exporting process */
	ck_assert_int_eq(aclrtMemImportFromShareableHandle(e.key, 0, &e.h), 207006);

	/* SetPid argument checks */
	pids[0] = getpid();
	pids[1] = -5;
	ck_assert_int_eq(aclrtMemSetPidToShareableHandle(e.key, NULL, 1), 100000);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandle(e.key, pids, 0), 100000);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandle(e.key, pids, 2), 107000);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandle(0, pids, 1), 107000);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandle(e.key ^ 1, pids, 1), 107017);

	/* a whitelisted importer sees the data, and writes back */
	ck_assert_int_eq(start_importer(&a, &ia, e.key, 1), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	vm_fill(want, sizeof(want), 82);
	ck_assert_int_eq(aclrtMemcpy(got, sizeof(got), e.r, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(got, want, sizeof(want));
	snprintf(needle, sizeof(needle), " %d %u 2097152 huge_2m 1 - %d\n",
		 getpid(), (uint32_t)(uintptr_t)e.h, a.pid);
	ck_assert_int_eq(dbg_count("shared", needle), 1);
	snprintf(needle, sizeof(needle), "%d 1 2097152 huge_2m device 0 13 1 1 imported", a.pid);
	ck_assert_int_eq(dbg_count("handles", needle), 1);
	/* charged once */
	ck_assert_int_eq(used_bytes(), used0 + (long long)HPAGE);

	/* anyone else is refused, and guessing never works */
	ck_assert_int_eq(start_importer(&b, &ib, e.key, 0), 207006);
	vm_child_put(&b, CMD_EXIT);
	vm_child_wait_ok(&b);

	/* the importer's free drops only its own hold */
	vm_child_put(&a, CMD_FREE);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&a), ACL_SUCCESS);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&a), 107017);
	ck_assert_int_eq(used_bytes(), used0 + (long long)HPAGE);
	ck_assert_int_eq(aclrtMemcpy(got, sizeof(got), e.r, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(got, want, sizeof(want));
	vm_child_put(&a, CMD_EXIT);
	vm_child_wait_ok(&a);

	unexport_free(&e);
	ck_assert_int_eq(used_bytes(), used0);
	ck_assert_int_eq(shared_keys(), 0);
}
END_TEST

START_TEST(test_disable_pid_validation)
{
	struct imp_arg ia = { .map_check = 1, .seed = 91 };
	struct vm_child a;
	struct exporter e;
	char needle[64];

	export_one(&e, 91, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
	snprintf(needle, sizeof(needle), " %d %u 2097152 huge_2m 0 nopid -\n", getpid(),
		 (uint32_t)(uintptr_t)e.h);
	ck_assert_int_eq(dbg_count("shared", needle), 1);
	ck_assert_int_eq(dbg_count("shared", " nopid -"), 1);
	ck_assert_int_eq(start_importer(&a, &ia, e.key, 0), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	vm_child_put(&a, CMD_EXIT);
	vm_child_wait_ok(&a);
	/* still exported by the exporter: the exporter itself may not import */
	ck_assert_int_eq(aclrtMemImportFromShareableHandle(e.key, 0, &e.h), 207006);
	unexport_free(&e);
	ck_assert_int_eq(used_bytes(), 0);
}
END_TEST

/* Exporter frees first; a killed importer lets the memory go. */
START_TEST(test_release_after_exporter_then_killed_importer)
{
	struct imp_arg ia = { .map_check = 1, .seed = 101 };
	struct imp_arg ib = { 0 };
	long long hp0 = vm_hp2m_free();
	struct vm_child a, b;
	struct exporter e;

	export_one(&e, 101, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
	ck_assert_int_eq(start_importer(&a, &ia, e.key, 0), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	unexport_free(&e);
	/* the importer still holds it: still charged once, pages still out */
	ck_assert_int_eq(used_bytes(), (long long)HPAGE);
	ck_assert_int_eq(vm_hp2m_free(), hp0 - 1);
	/* the key died with the exporter's handle */
	ck_assert_int_eq(shared_keys(), 0);
	ck_assert_int_eq(start_importer(&b, &ib, e.key, 0), 107017);
	vm_child_put(&b, CMD_EXIT);
	vm_child_wait_ok(&b);

	kill(a.pid, SIGKILL);
	vm_child_wait(&a);
	ck_assert_int_eq(used_bytes(), 0);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
}
END_TEST

/* Importer killed first; the exporter's free then releases it. */
START_TEST(test_release_after_killed_importer_then_exporter)
{
	struct imp_arg ia = { .map_check = 1, .seed = 111 };
	long long hp0 = vm_hp2m_free();
	unsigned char want[4096], got[4096];
	struct vm_child a;
	struct exporter e;

	export_one(&e, 111, ACL_RT_VMM_EXPORT_FLAG_DEFAULT);
	ck_assert_int_eq(start_importer(&a, &ia, e.key, 1), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	kill(a.pid, SIGKILL);
	vm_child_wait(&a);
	ck_assert_int_eq(used_bytes(), (long long)HPAGE);
	ck_assert_int_eq(vm_hp2m_free(), hp0 - 1);
	vm_fill(want, sizeof(want), 111);
	ck_assert_int_eq(aclrtMemcpy(got, sizeof(got), e.r, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(got, want, sizeof(want));
	unexport_free(&e);
	ck_assert_int_eq(used_bytes(), 0);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
}
END_TEST

/* Exporter in a child: reports the key, then waits to be killed. */
static int child_exporter(void *arg, int cmd, int rep)
{
	aclrtPhysicalMemProp p = prop_huge();
	unsigned char *buf = malloc(HPAGE);
	aclrtDrvMemHandle h;
	uint64_t key = 0, c;
	char *r = NULL;

	(void)arg;
	if (!buf || aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	if (aclrtMallocPhysical(&h, HPAGE, &p, 0) || aclrtReserveMemAddress((void **)&r, HPAGE, 0, NULL, 0) ||
	    aclrtMapMem(r, HPAGE, 0, h, 0))
		return 2;
	vm_fill(buf, HPAGE, 121);
	if (aclrtMemcpy(r, HPAGE, buf, HPAGE, ACL_MEMCPY_HOST_TO_DEVICE))
		return 3;
	if (aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
					    ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &key))
		return 4;
	if (vm_put(rep, key))
		return 5;
	vm_get(cmd, &c);
	return 0;
}

/* A killed exporter: the importer (this process) keeps the memory until it frees it. */
START_TEST(test_killed_exporter)
{
	long long hp0 = vm_hp2m_free();
	unsigned char *want = malloc(HPAGE), *got = malloc(HPAGE);
	aclrtDrvMemHandle h = NULL;
	struct vm_child x;
	char *r = NULL;
	uint64_t key;

	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	vm_child_start(&x, child_exporter, NULL);
	key = vm_child_get(&x);
	ck_assert_int_eq(aclrtMemImportFromShareableHandle(key, 0, &h), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), (long long)HPAGE);
	kill(x.pid, SIGKILL);
	vm_child_wait(&x);
	/* still held by the importer; the key is gone */
	ck_assert_int_eq(used_bytes(), (long long)HPAGE);
	ck_assert_int_eq(vm_hp2m_free(), hp0 - 1);
	ck_assert_int_eq(shared_keys(), 0);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, HPAGE, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(r, HPAGE, 0, h, 0), ACL_SUCCESS);
	vm_fill(want, HPAGE, 121);
	ck_assert_int_eq(aclrtMemcpy(got, HPAGE, r, HPAGE, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(memcmp(want, got, HPAGE) == 0);
	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), 0);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
	free(want);
	free(got);
}
END_TEST

/*
 * Memory of device 0 imports into device 1: as the CANN runtime, the import
 * gives device 1 peer access to device 0; the bytes are the exporter's.
 */
START_TEST(test_import_other_device)
{
	struct imp_arg ia = { .device = 1, .map_check = 1, .seed = 131 };
	struct vm_child a;
	struct exporter e;

	export_one(&e, 131, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
	ck_assert_int_eq(start_importer(&a, &ia, e.key, 0), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&a), 0);	/* map_check: every step passed */
	vm_child_put(&a, CMD_EXIT);
	vm_child_wait_ok(&a);
	unexport_free(&e);
}
END_TEST

static Suite *ipc_suite(void)
{
	Suite *s = suite_create("ipc");
	TCase *tc;

	tc = tcase_create("share");
	tcase_add_checked_fixture(tc, ipc_setup, ipc_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_export_whitelist_import);
	tcase_add_test(tc, test_disable_pid_validation);
	tcase_add_test(tc, test_release_after_exporter_then_killed_importer);
	tcase_add_test(tc, test_release_after_killed_importer_then_exporter);
	tcase_add_test(tc, test_killed_exporter);
	tcase_add_test(tc, test_import_other_device);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(ipc_suite());
}
