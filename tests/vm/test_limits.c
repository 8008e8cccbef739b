// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process device memory limits (UAPI 1.6 MEM_LIMIT, sysfs
 * proc_mem_limit_bytes, NPU_SIM_MEM_LIMIT): the allocation that crosses the
 * limit fails with 207001 through the library and with ENOMEM through raw
 * ioctls; aclrtGetMemInfo reports the limited total; a process may only
 * lower its own limit; all files of a process share one account; physical
 * handles count; imports count for the importer while it holds them; the
 * account is the process's across exec.  Each Check test runs in its own process.
 */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <misc/npu_sim.h>

#include "acl/acl.h"

#define LIMIT (64 * MiB)
#define SYSFS_LIMIT "/sys/class/npu_sim/npu_sim0/proc_mem_limit_bytes"

static struct npu_sim_mem_limit limit_get(int fd)
{
	struct npu_sim_mem_limit l = { .op = NPU_SIM_LIMIT_GET };

	ck_assert_int_eq(vm_xioctl(fd, NPU_SIM_IOCTL_MEM_LIMIT, &l), 0);
	return l;
}

static int limit_set(int fd, uint64_t bytes)
{
	struct npu_sim_mem_limit l = { .op = NPU_SIM_LIMIT_SET, .limit = bytes };

	return vm_xioctl(fd, NPU_SIM_IOCTL_MEM_LIMIT, &l);
}

static void admin_limit(uint64_t bytes)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bytes);
	ck_assert_int_eq(vm_write_str(SYSFS_LIMIT, buf), 0);
	ck_assert_int_eq(vm_sysfs(0, "proc_mem_limit_bytes"), (long long)bytes);
}

static void setup(void)
{
	vm_mod_ensure_default();
	admin_limit(0);
	unsetenv("NPU_SIM_MEM_LIMIT");
}

static void teardown(void)
{
	vm_write_str(SYSFS_LIMIT, "0");
}

/* The bytes of debugfs "limits" column @col for @pid, -1 if absent. */
static long long dbg_limits(pid_t pid, const char *col)
{
	char line[256], name[64];
	long long v[5], want = -1;
	int idx = -1, i = 0, p;
	char *tok, *save;
	FILE *f = fopen("/sys/kernel/debug/npu_sim/npu_sim0/limits", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "pid used_bytes own_limit admin_limit effective_limit\n");
	for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save), i++) {
		snprintf(name, sizeof(name), "%s", tok);
		if (strcmp(name, col) == 0)
			idx = i;
	}
	ck_assert_int_ge(idx, 1);
	while (fgets(line, sizeof(line), f)) {
		ck_assert_int_eq(sscanf(line, "%d %lld %lld %lld %lld", &p, &v[0], &v[1], &v[2], &v[3]),
				 5);
		if (p == pid)
			want = v[idx - 1];
	}
	fclose(f);
	return want;
}

/* The library path: NPU_SIM_MEM_LIMIT=64M, aclrtMalloc, aclrtGetMemInfo. */
START_TEST(test_env_limit_malloc)
{
	long long fail_limit = vm_dbg_stat(0, "fail_limit");
	size_t f, t;
	void *a = NULL, *b = NULL, *c = NULL;
	const char *msg;

	setenv("NPU_SIM_MEM_LIMIT", "64M", 1);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(dbg_limits(getpid(), "own_limit"), (long long)LIMIT);

	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(t, LIMIT);
	ck_assert_uint_eq(f, LIMIT);

	ck_assert_int_eq(aclrtMalloc(&a, 16 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(t, LIMIT);
	ck_assert_int_eq(dbg_limits(getpid(), "used_bytes"), (long long)(LIMIT - f));
	/* normal pages: ALIGN_UP(16 MiB, 32) + 32 bytes take 4097 pages of 4 KiB */
	ck_assert_uint_eq(LIMIT - f, 16 * MiB + 4096);

	/* 48 MiB more crosses 64 MiB (the first one charged a bit over 16). */
	ck_assert_int_eq(aclrtMalloc(&b, 48 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_null(b);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "device memory limit") && strstr(msg, "NPU_SIM_MEM_LIMIT") &&
		      strstr(msg, "67108864"), "message: %s", msg);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_limit"), fail_limit + 1);

	/* What is left still fits. */
	ck_assert_int_eq(aclrtMalloc(&c, 40 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(f, LIMIT);
	ck_assert_int_eq(dbg_limits(getpid(), "used_bytes"), 0);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

START_TEST(test_env_limit_malformed)
{
	const char *msg;

	setenv("NPU_SIM_MEM_LIMIT", "64MB", 1);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_ERROR_RT_PARAM_INVALID);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "NPU_SIM_MEM_LIMIT=\"64MB\""), "message: %s", msg);
	ck_assert_int_eq(vm_dbg_contexts(0), 0);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

/* The administrator's limit holds for a process that never uses the library. */
START_TEST(test_admin_limit_raw)
{
	long long fail_limit = vm_dbg_stat(0, "fail_limit");
	long long used = vm_sysfs(0, "used_bytes");
	struct npu_sim_mem_limit l;
	struct vm_raw r, r2;
	uint64_t va1, va2, va3;

	admin_limit(LIMIT);
	vm_raw_open(&r, 0);
	l = limit_get(r.fd);
	ck_assert_uint_eq(l.admin_limit, LIMIT);
	ck_assert_uint_eq(l.own_limit, 0);
	ck_assert_uint_eq(l.effective, LIMIT);
	ck_assert_uint_eq(l.used, 0);

	ck_assert_int_eq(vm_raw_alloc(&r, 32 * MiB, &va1), 0);
	ck_assert_int_eq(vm_raw_alloc(&r, 32 * MiB - 4096, &va2), 0);
	ck_assert_uint_eq(limit_get(r.fd).used, LIMIT - 4096);
	/* Two pages more than fit: the allocation crossing 64 MiB fails. */
	ck_assert_int_eq(vm_raw_alloc(&r, 8192, NULL), ENOMEM);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_limit"), fail_limit + 1);
	ck_assert_int_eq(vm_sysfs(0, "used_bytes"), used + (long long)(LIMIT - 4096));

	/* A second file of the same process shares the account. */
	vm_raw_open(&r2, 0);
	ck_assert_uint_eq(limit_get(r2.fd).used, LIMIT - 4096);
	ck_assert_int_eq(vm_raw_alloc(&r2, 8192, NULL), ENOMEM);
	ck_assert_int_eq(vm_raw_alloc(&r2, 4096, &va3), 0);
	ck_assert_uint_eq(limit_get(r.fd).used, LIMIT);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_limit"), fail_limit + 2);
	vm_raw_close(&r2);	/* its memory goes with its file */
	ck_assert_uint_eq(limit_get(r.fd).used, LIMIT - 4096);

	/* Raising the administrator's limit lets it through at once. */
	admin_limit(LIMIT + 8192);
	ck_assert_int_eq(vm_raw_alloc(&r, 8192, &va3), 0);
	vm_raw_free(&r, va3);
	vm_raw_free(&r, va1);
	vm_raw_free(&r, va2);
	ck_assert_uint_eq(limit_get(r.fd).used, 0);
	vm_raw_close(&r);
	ck_assert_int_eq(vm_sysfs(0, "used_bytes"), used);
}
END_TEST

/* The own limit by raw ioctl: only down, and bounded by the admin's. */
START_TEST(test_own_limit_rules)
{
	struct npu_sim_mem_limit l;
	struct vm_raw r;
	uint64_t va;

	vm_raw_open(&r, 0);
	ck_assert_int_eq(limit_set(r.fd, 0), EINVAL);
	l = (struct npu_sim_mem_limit){ .op = NPU_SIM_LIMIT_GET, .limit = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEM_LIMIT, &l), EINVAL);
	l = (struct npu_sim_mem_limit){ .op = NPU_SIM_LIMIT_GET, .used = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEM_LIMIT, &l), EINVAL);
	l = (struct npu_sim_mem_limit){ .op = 3 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEM_LIMIT, &l), EINVAL);
	l = (struct npu_sim_mem_limit){ .op = NPU_SIM_LIMIT_GET, .flags = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEM_LIMIT, &l), EINVAL);
	ck_assert_uint_eq(limit_get(r.fd).own_limit, 0);

	ck_assert_int_eq(limit_set(r.fd, LIMIT), 0);
	ck_assert_int_eq(limit_set(r.fd, LIMIT + 1), EPERM);
	ck_assert_int_eq(limit_set(r.fd, LIMIT / 2), 0);
	ck_assert_int_eq(limit_set(r.fd, LIMIT), EPERM);
	l = limit_get(r.fd);
	ck_assert_uint_eq(l.own_limit, LIMIT / 2);
	ck_assert_uint_eq(l.effective, LIMIT / 2);

	/* The admin's lower limit wins; a higher one changes nothing. */
	admin_limit(LIMIT / 4);
	ck_assert_uint_eq(limit_get(r.fd).effective, LIMIT / 4);
	ck_assert_int_eq(vm_raw_alloc(&r, LIMIT / 4 + 4096, NULL), ENOMEM);
	admin_limit(LIMIT);
	ck_assert_uint_eq(limit_get(r.fd).effective, LIMIT / 2);
	ck_assert_int_eq(vm_raw_alloc(&r, LIMIT / 2 + 4096, NULL), ENOMEM);
	ck_assert_int_eq(vm_raw_alloc(&r, LIMIT / 2, &va), 0);
	vm_raw_free(&r, va);
	vm_raw_close(&r);
}
END_TEST

/* Physical handles are charged like linear memory; host handles are not. */
START_TEST(test_phys_alloc_counts)
{
	struct npu_sim_phys_alloc p = {
		.size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL, .location = NPU_SIM_LOC_DEVICE,
	};
	struct npu_sim_phys_free pf = { 0 };
	struct vm_raw r;
	uint64_t va;

	vm_raw_open(&r, 0);
	ck_assert_int_eq(limit_set(r.fd, 4 * MiB), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_PHYS_ALLOC, &p), 0);
	ck_assert_uint_eq(limit_get(r.fd).used, 2 * MiB);
	ck_assert_int_eq(vm_raw_alloc(&r, 2 * MiB + 4096, NULL), ENOMEM);
	ck_assert_int_eq(vm_raw_alloc(&r, 2 * MiB, &va), 0);
	ck_assert_uint_eq(limit_get(r.fd).used, 4 * MiB);
	p.handle = 0;
	p.charged = 0;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_PHYS_ALLOC, &p), ENOMEM);
	p.location = NPU_SIM_LOC_HOST;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_PHYS_ALLOC, &p), 0);
	ck_assert_uint_eq(limit_get(r.fd).used, 4 * MiB);
	pf.handle = p.handle;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), 0);
	vm_raw_free(&r, va);
	ck_assert_uint_eq(limit_get(r.fd).used, 2 * MiB);
	vm_raw_close(&r);
}
END_TEST

/*
 * Exporter child: 2 MiB physical handle (shareable key) and 2 MiB linear
 * allocation (IPC key), both importable by anyone; reports the two keys,
 * then exits on command.  Its own account holds 4 MiB.
 */
static int child_exporter(void *arg, int cmd, int rep)
{
	struct npu_sim_phys_alloc p = {
		.size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL, .location = NPU_SIM_LOC_DEVICE,
	};
	struct npu_sim_share_export se = { .flags = NPU_SIM_SHARE_NO_PID_CHECK };
	struct npu_sim_ipc_export ie = { .size = 2 * MiB, .flags = NPU_SIM_IPC_NO_PID_CHECK };
	struct vm_raw r;
	uint64_t c, va;

	(void)arg;
	vm_raw_open(&r, 0);
	if (vm_xioctl(r.fd, NPU_SIM_IOCTL_PHYS_ALLOC, &p))
		return 1;
	se.handle = p.handle;
	if (vm_xioctl(r.fd, NPU_SIM_IOCTL_SHARE_EXPORT, &se) || vm_raw_alloc(&r, 2 * MiB, &va))
		return 2;
	ie.va = va;
	if (vm_xioctl(r.fd, NPU_SIM_IOCTL_IPC_EXPORT, &ie))
		return 3;
	if (limit_get(r.fd).used != 4 * MiB)
		return 4;
	if (vm_put(rep, se.key) || vm_put(rep, ie.key) || vm_get(cmd, &c))
		return 5;
	return 0;
}

/*
 * Imports count for the importer while it holds them (4 MiB of a child's
 * memory under a 4 MiB limit leave no room), also after the exporting
 * child has exited; giving them back makes room again.
 */
START_TEST(test_imports_count_for_importer)
{
	long long fail_limit = vm_dbg_stat(0, "fail_limit");
	struct npu_sim_share_import si = { 0 };
	struct npu_sim_ipc_import ii = { 0 };
	struct npu_sim_ipc_close ic = { 0 };
	struct npu_sim_phys_free pf = { 0 };
	struct vm_child e;
	struct vm_raw r;
	uint64_t va;

	admin_limit(4 * MiB);
	vm_child_start(&e, child_exporter, NULL);
	si.key = vm_child_get(&e);
	ii.key = vm_child_get(&e);
	vm_raw_open(&r, 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_SHARE_IMPORT, &si), 0);
	ck_assert_uint_eq(limit_get(r.fd).used, 2 * MiB);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_IPC_IMPORT, &ii), 0);
	ck_assert_uint_eq(limit_get(r.fd).used, 4 * MiB);
	ck_assert_int_eq(dbg_limits(getpid(), "used_bytes"), 4 * MiB);
	ck_assert_int_eq(vm_raw_alloc(&r, 4096, NULL), ENOMEM);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_limit"), fail_limit + 1);

	vm_child_put(&e, 1);
	vm_child_wait_ok(&e);
	ck_assert_uint_eq(limit_get(r.fd).used, 4 * MiB);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 4 * MiB);	/* once, to the dead exporter */
	ck_assert_int_eq(vm_raw_alloc(&r, 4096, NULL), ENOMEM);

	ic.key = ii.key;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_IPC_CLOSE, &ic), 0);
	ck_assert_uint_eq(limit_get(r.fd).used, 2 * MiB);
	pf.handle = si.handle;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), 0);
	ck_assert_uint_eq(limit_get(r.fd).used, 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(vm_raw_alloc(&r, 4 * MiB, &va), 0);
	vm_raw_free(&r, va);
	vm_raw_close(&r);
}
END_TEST

/*
 * After exec (NPU_SIM_TEST_EXEC set): the handle the earlier image made
 * through a file it kept open over exec was freed when that image's mm went
 * (the context's owner is gone), so the account, which is the process's and
 * not its mm's, has nothing charged and the new image gets the whole 2 MiB
 * of its limit, no more.
 * Exit status 0, or which check failed.
 */
static int exec_child(void)
{
	struct npu_sim_mem_limit l = { .op = NPU_SIM_LIMIT_GET };
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	struct npu_sim_phys_alloc p = {
		.size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL,
		.location = NPU_SIM_LOC_DEVICE,
	};
	struct npu_sim_mem_alloc a = {
		.size = 4096, .footprint = 4096, .backing = NPU_SIM_BACKING_NORMAL,
		.policy = 2, .api = NPU_SIM_API_MALLOC,
	};
	int fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);

	if (fd < 0 || ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp) ||
	    mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED)
		return 1;
	if (ioctl(fd, NPU_SIM_IOCTL_MEM_LIMIT, &l) || l.used != 0 || l.effective != 2 * MiB)
		return 2;
	if (ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &p))
		return 3;
	l = (struct npu_sim_mem_limit){ .op = NPU_SIM_LIMIT_GET };
	if (ioctl(fd, NPU_SIM_IOCTL_MEM_LIMIT, &l) || l.used != 2 * MiB)
		return 4;
	if (ioctl(fd, NPU_SIM_IOCTL_MEM_ALLOC, &a) == 0 || errno != ENOMEM)
		return 5;
	return 0;
}

/*
 * Exec ends the earlier image's use of its contexts: memory it made through
 * a file kept open over exec is freed and uncharged, not carried into (or
 * escaping the limit of) the new image.
 */
START_TEST(test_exec_frees_earlier_image)
{
	int st;
	pid_t pid;

	admin_limit(2 * MiB);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct npu_sim_phys_alloc p = {
			.size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL,
			.location = NPU_SIM_LOC_DEVICE,
		};
		int fd = open("/dev/npu_sim0", O_RDWR);	/* kept over exec */

		if (fd < 0 || ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &p))
			_exit(90);
		setenv("NPU_SIM_TEST_EXEC", "1", 1);
		execl("/proc/self/exe", "test_limits", (char *)NULL);
		_exit(91);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exec child: status 0x%x", st);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
}
END_TEST

/* The device copies of managed blocks count, the host pages do not. */
START_TEST(test_managed_device_copies_count)
{
	static char buf[4096];
	char *p = NULL;

	setenv("NPU_SIM_MEM_LIMIT", "2M", 1);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemAllocManaged((void **)&p, 4 * MiB, ACL_RT_MEM_ATTACH_GLOBAL),
			 ACL_SUCCESS);
	ck_assert_int_eq(dbg_limits(getpid(), "used_bytes"), 0);
	/* A device write migrates the first block: one 2 MiB device copy. */
	ck_assert_int_eq(aclrtMemcpy(p, sizeof(buf), buf, sizeof(buf), ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_SUCCESS);
	ck_assert_int_eq(dbg_limits(getpid(), "used_bytes"), (long long)(2 * MiB));
	/* The second block's copy would cross the limit. */
	ck_assert_int_eq(aclrtMemcpy(p + 2 * MiB, sizeof(buf), buf, sizeof(buf),
				     ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_int_eq(dbg_limits(getpid(), "used_bytes"), (long long)(2 * MiB));
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(dbg_limits(getpid(), "used_bytes"), 0);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

/* The admin limit alone shapes aclrtGetMemInfo of a library process. */
START_TEST(test_admin_limit_meminfo)
{
	size_t f, t;

	admin_limit(LIMIT);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(t, LIMIT);
	ck_assert_uint_eq(f, LIMIT);
	/* Host memory is not limited. */
	ck_assert_int_eq(aclrtGetMemInfo(ACL_DDR_MEM, &f, &t), ACL_SUCCESS);
	ck_assert_uint_gt(t, LIMIT);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

static Suite *limits_suite(void)
{
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("limits");

	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_env_limit_malloc);
	tcase_add_test(tc, test_env_limit_malformed);
	tcase_add_test(tc, test_admin_limit_raw);
	tcase_add_test(tc, test_own_limit_rules);
	tcase_add_test(tc, test_phys_alloc_counts);
	tcase_add_test(tc, test_admin_limit_meminfo);
	tcase_add_test(tc, test_managed_device_copies_count);
	tcase_add_test(tc, test_imports_count_for_importer);
	tcase_add_test(tc, test_exec_frees_earlier_image);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (getenv("NPU_SIM_TEST_EXEC"))
		return exec_child();
	return vm_run_suite(limits_suite());
}
