// SPDX-License-Identifier: GPL-2.0
/*
 * IPC memory by key (issue 9): aclrtIpcMemGetExportKey in one process,
 * aclrtIpcMemImportByKey in another (fork, then its own aclInit and
 * aclrtSetDevice), with the pid whitelist of aclrtIpcMemSetImportPid (pids
 * from aclrtDeviceGetBareTgid) and without it (DISABLE_PID_VALIDATION).
 * Data written by one process is seen by the other; the close order
 * importers, exporter, aclrtFree; killed importers and exporters leave
 * nothing behind (debugfs "shared" without their keys, device use back to
 * its baseline).  Exact codes as documented in include/acl/acl_rt.h.
 */
#include "vmtest.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <misc/npu_sim.h>

#include <acl/acl.h>

#define SZ (1 * MiB)
#define KEYLEN 65

enum { CMD_CLOSE = 1, CMD_EXIT = 2, CMD_READ = 3 };

struct imp_arg {
	uint64_t flags;		/* import flags */
	uint32_t seed;		/* compare the first 4 KiB with vm_fill(seed) */
	uint32_t write_seed;	/* then write vm_fill(write_seed) there */
};

static long long used_bytes(void)
{
	return vm_dbg_info(0, "used_bytes");
}

static int shared_lines(const char *needle)
{
	FILE *f = fopen("/sys/kernel/debug/npu_sim/npu_sim0/shared", "r");
	char line[512];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

/*
 * IPC keys listed by debugfs "shared", which never shows a key itself (it
 * is the only credential of a no-pid-check export): @key's digits appear
 * nowhere in it.
 */
static int shared_ipc_keys(const char *key)
{
	ck_assert_int_eq(shared_lines(key + strlen("npusim-ipc-")), 0);
	return shared_lines(" ipc");
}

/* A key string travels through the pipes as 4 words. */
static int put_key(int fd, const char *key)
{
	uint64_t w[4] = { 0 };

	memcpy(w, key, strlen(key) < 31 ? strlen(key) : 31);
	for (int i = 0; i < 4; i++)
		if (vm_put(fd, w[i]))
			return -1;
	return 0;
}

static int get_key(int fd, char key[KEYLEN])
{
	uint64_t w[4];

	for (int i = 0; i < 4; i++)
		if (vm_get(fd, &w[i]))
			return -1;
	memset(key, 0, KEYLEN);
	memcpy(key, w, 31);
	return 0;
}

/*
 * Importer: reports its bare tgid, gets a key, reports the import result;
 * when imported: 0 if the first 4 KiB match vm_fill(seed) (else 1), then
 * writes vm_fill(write_seed) there and reports 0.  Then serves CMD_READ
 * (reports 0 if the bytes still match vm_fill(seed)), CMD_CLOSE (reports
 * the close result and a second close's) and CMD_EXIT.
 */
static int child_importer(void *argp, int cmd, int rep)
{
	struct imp_arg *a = argp;
	unsigned char want[4096], got[4096];
	char key[KEYLEN];
	int32_t tgid = 0;
	void *p = NULL;
	uint64_t c;
	int ret;

	if (aclInit(NULL) || aclrtSetDevice(0) || aclrtDeviceGetBareTgid(&tgid))
		return 1;
	if (vm_put(rep, (uint64_t)tgid) || get_key(cmd, key))
		return 2;
	ret = aclrtIpcMemImportByKey(&p, key, a->flags);
	if (vm_put(rep, (uint64_t)(int64_t)ret))
		return 3;
	if (ret == ACL_SUCCESS) {
		vm_fill(want, sizeof(want), a->seed);
		if (aclrtMemcpy(got, sizeof(got), p, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST))
			return 4;
		if (vm_put(rep, memcmp(got, want, sizeof(want)) != 0))
			return 5;
		vm_fill(got, sizeof(got), a->write_seed);
		if (aclrtMemcpy(p, sizeof(got), got, sizeof(got), ACL_MEMCPY_HOST_TO_DEVICE) || vm_put(rep, 0))
			return 6;
	}
	while (vm_get(cmd, &c) == 0) {
		if (c == CMD_EXIT)
			return 0;
		if (c == CMD_READ) {
			if (aclrtMemcpy(got, sizeof(got), p, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST))
				return 7;
			vm_fill(want, sizeof(want), a->write_seed);
			if (vm_put(rep, memcmp(got, want, sizeof(want)) != 0))
				return 8;
		} else if (c == CMD_CLOSE) {
			int r1 = aclrtIpcMemClose(key), r2 = aclrtIpcMemClose(key);

			if (vm_put(rep, (uint64_t)(int64_t)r1) || vm_put(rep, (uint64_t)(int64_t)r2))
				return 9;
		}
	}
	return 10;
}

/* Start an importer; *tgid is what it reported as its bare tgid. */
static void start_importer(struct vm_child *c, struct imp_arg *a)
{
	vm_child_start(c, child_importer, a);
	ck_assert_uint_eq(vm_child_get(c), (uint64_t)c->pid);	/* bare tgid == pid */
}

static int send_key(struct vm_child *c, const char *key)
{
	ck_assert_int_eq(put_key(c->cmd, key), 0);
	return (int)(int64_t)vm_child_get(c);
}

static void *export_buf(uint32_t seed, uint64_t flags, char key[KEYLEN])
{
	unsigned char *buf = malloc(SZ);
	void *d = NULL;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(aclrtMalloc(&d, SZ, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	vm_fill(buf, SZ, seed);
	ck_assert_int_eq(aclrtMemcpy(d, SZ, buf, SZ, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	memset(key, 0, KEYLEN);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(d, SZ, key, KEYLEN, flags), ACL_SUCCESS);
	free(buf);
	return d;
}

START_TEST(export_whitelist_import_close)
{
	struct imp_arg ia = { .seed = 11, .write_seed = 12 }, ib = { 0 };
	unsigned char want[4096], got[4096];
	char key[KEYLEN], k2[KEYLEN], bad[KEYLEN];
	long long used0 = used_bytes();
	struct vm_child a, b;
	int32_t pid[2];
	void *d, *p = NULL;
	char needle[160];

	d = export_buf(11, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, key);
	ck_assert_uint_eq(strlen(key), 27);
	ck_assert(strncmp(key, "npusim-ipc-", 11) == 0);
	ck_assert_int_eq(shared_ipc_keys(key), 1);
	snprintf(needle, sizeof(needle), " %d 0 %llu normal 0 ipc -", getpid(),
		 (unsigned long long)SZ);
	ck_assert_int_eq(shared_lines(needle), 1);
	ck_assert_int_eq(used_bytes(), used0 + (long long)VM_ALIGN_UP(SZ + 32, 4096));

	/* export: bad arguments change nothing */
	memset(k2, 0, sizeof(k2));
	ck_assert_int_eq(aclrtIpcMemGetExportKey(NULL, SZ, k2, KEYLEN, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(d, SZ, NULL, KEYLEN, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(d, 0, k2, KEYLEN, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(d, SZ, k2, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(d, SZ, k2, 27, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(d, SZ, k2, KEYLEN, 2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(d, SZ + 8192, k2, KEYLEN, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(want, 64, k2, KEYLEN, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_str_eq(k2, "");
	{
		const char *m = aclGetRecentErrMsg();

		ck_assert_ptr_nonnull(m);
		ck_assert(strncmp(m, "aclrtIpcMemGetExportKey: [", 26) == 0);
		ck_assert_ptr_nonnull(strstr(m, "is not device memory of one device of this process "
					     "(error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"));
		ck_assert_ptr_nonnull(strstr(m, "is not inside one aclrtMalloc allocation of this process "
					     "(error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"));
		ck_assert_ptr_nonnull(strstr(m, "aclrtIpcMemGetExportKey: devPtr is NULL "
					     "(error 100000 ACL_ERROR_INVALID_PARAM)"));
	}
	ck_assert_int_eq(shared_lines("ipc"), 1);

	/* the exporter itself may not import; malformed keys name nothing */
	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, key, 0), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtIpcMemImportByKey: import: not permitted to this process (the exporter may not "
			 "import its own key; only the exporter may set the pids) "
			 "(error 207006 ACL_ERROR_RT_NO_PERMISSION)");
	ck_assert_int_eq(aclrtIpcMemImportByKey(NULL, key, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, key, 2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, "npusim-ipc-00", 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, "hello", 0), ACL_ERROR_RT_INVALID_HANDLE);
	snprintf(bad, sizeof(bad), "%sx", key);
	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, bad, 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_ptr_null(p);

	/* SetImportPid checks */
	pid[0] = getpid();
	pid[1] = -5;
	ck_assert_int_eq(aclrtIpcMemSetImportPid(key, NULL, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtIpcMemSetImportPid(NULL, pid, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtIpcMemSetImportPid(key, pid, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtIpcMemSetImportPid(key, pid, 2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtIpcMemSetImportPid(key, pid, 1025), ACL_ERROR_RT_PARAM_INVALID);
	snprintf(bad, sizeof(bad), "npusim-ipc-%016llx", 0x123456789abcdefULL);
	ck_assert_int_eq(aclrtIpcMemSetImportPid(bad, pid, 1), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(shared_lines(" ipc -\n"), 1);	/* whitelist still empty */

	/* a whitelisted importer sees the data and writes back */
	start_importer(&a, &ia);
	pid[0] = a.pid;
	ck_assert_int_eq(aclrtIpcMemSetImportPid(key, pid, 1), ACL_SUCCESS);
	ck_assert_int_eq(send_key(&a, key), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	vm_fill(want, sizeof(want), 12);
	ck_assert_int_eq(aclrtMemcpy(got, sizeof(got), d, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(got, want, sizeof(want));
	snprintf(needle, sizeof(needle), " 1 ipc %d\n", a.pid);
	ck_assert_int_eq(shared_lines(needle), 1);
	/* charged once, to the exporter's device */
	ck_assert_int_eq(used_bytes(), used0 + (long long)VM_ALIGN_UP(SZ + 32, 4096));

	/* anyone else is refused */
	start_importer(&b, &ib);
	ck_assert_int_eq(send_key(&b, key), ACL_ERROR_RT_NO_PERMISSION);
	vm_child_put(&b, CMD_EXIT);
	vm_child_wait_ok(&b);

	/* close order: importer, then exporter, then free */
	vm_child_put(&a, CMD_CLOSE);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&a), ACL_SUCCESS);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&a), ACL_ERROR_RT_INVALID_HANDLE);
	vm_child_put(&a, CMD_EXIT);
	vm_child_wait_ok(&a);
	snprintf(needle, sizeof(needle), " 1 ipc %d\n", a.pid);	/* imports made: 1 */
	ck_assert_int_eq(shared_lines(needle), 1);
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_SUCCESS);
	ck_assert_int_eq(shared_ipc_keys(key), 0);
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtIpcMemClose(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtIpcMemSetImportPid(key, pid, 1), ACL_ERROR_RT_INVALID_HANDLE);
	/* the allocation is still the exporter's */
	ck_assert_int_eq(aclrtMemcpy(got, sizeof(got), d, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(got, want, sizeof(want));
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), used0);
}
END_TEST

/* Without pid validation anyone imports; the key dies, imports stay. */
START_TEST(disable_pid_validation)
{
	struct imp_arg ia = { .seed = 21, .write_seed = 22, .flags = ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS };
	struct imp_arg ib = { 0 };
	long long used0 = used_bytes();
	struct vm_child a, b;
	char key[KEYLEN];
	void *d;

	d = export_buf(21, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION, key);
	ck_assert_int_eq(shared_lines(" ipc,nopid -\n"), 1);
	start_importer(&a, &ia);
	ck_assert_int_eq(send_key(&a, key), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	ck_assert_uint_eq(vm_child_get(&a), 0);

	/* the exporter closes and frees first: the importer keeps the memory */
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(shared_ipc_keys(key), 0);
	ck_assert_int_eq(used_bytes(), used0 + (long long)VM_ALIGN_UP(SZ + 32, 4096));
	vm_child_put(&a, CMD_READ);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	/* a closed key imports no more */
	start_importer(&b, &ib);
	ck_assert_int_eq(send_key(&b, key), ACL_ERROR_RT_INVALID_HANDLE);
	vm_child_put(&b, CMD_EXIT);
	vm_child_wait_ok(&b);
	/* the last holder lets go */
	vm_child_put(&a, CMD_CLOSE);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&a), ACL_SUCCESS);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&a), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(used_bytes(), used0);
	vm_child_put(&a, CMD_EXIT);
	vm_child_wait_ok(&a);
}
END_TEST

/* A killed importer leaves nothing behind. */
START_TEST(killed_importer)
{
	struct imp_arg ia = { .seed = 31, .write_seed = 32 };
	long long used0 = used_bytes();
	unsigned char want[4096], got[4096];
	struct vm_child a;
	char key[KEYLEN];
	int32_t pid;
	void *d;

	d = export_buf(31, 0, key);
	start_importer(&a, &ia);
	pid = a.pid;
	ck_assert_int_eq(aclrtIpcMemSetImportPid(key, &pid, 1), ACL_SUCCESS);
	ck_assert_int_eq(send_key(&a, key), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	ck_assert_uint_eq(vm_child_get(&a), 0);
	kill(a.pid, SIGKILL);
	vm_child_wait(&a);
	vm_fill(want, sizeof(want), 32);
	ck_assert_int_eq(aclrtMemcpy(got, sizeof(got), d, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(got, want, sizeof(want));
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(shared_ipc_keys(key), 0);
	ck_assert_int_eq(used_bytes(), used0);
}
END_TEST

/* Exporter in a child: reports its key, then waits to be killed. */
static int child_exporter(void *arg, int cmd, int rep)
{
	unsigned char *buf = malloc(SZ);
	char key[KEYLEN];
	void *d = NULL;
	uint64_t c;

	(void)arg;
	if (!buf || aclInit(NULL) || aclrtSetDevice(0) || aclrtMalloc(&d, SZ, ACL_MEM_MALLOC_NORMAL_ONLY))
		return 1;
	vm_fill(buf, SZ, 41);
	if (aclrtMemcpy(d, SZ, buf, SZ, ACL_MEMCPY_HOST_TO_DEVICE))
		return 2;
	if (aclrtIpcMemGetExportKey(d, SZ, key, sizeof(key), ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION))
		return 3;
	if (put_key(rep, key))
		return 4;
	vm_get(cmd, &c);
	return 0;
}

/* A killed exporter: its key dies, the importer keeps the memory until it closes. */
START_TEST(killed_exporter)
{
	long long used0 = used_bytes();
	unsigned char *want = malloc(SZ), *got = malloc(SZ);
	struct vm_child x;
	char key[KEYLEN];
	void *p = NULL;

	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	vm_child_start(&x, child_exporter, NULL);
	ck_assert_int_eq(get_key(x.rep, key), 0);
	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, key, 0), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), used0 + (long long)VM_ALIGN_UP(SZ + 32, 4096));
	kill(x.pid, SIGKILL);
	vm_child_wait(&x);
	ck_assert_int_eq(shared_ipc_keys(key), 0);
	ck_assert_int_eq(used_bytes(), used0 + (long long)VM_ALIGN_UP(SZ + 32, 4096));
	vm_fill(want, SZ, 41);
	ck_assert_int_eq(aclrtMemcpy(got, SZ, p, SZ, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(memcmp(got, want, SZ) == 0);
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), used0);
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_ERROR_RT_INVALID_HANDLE);
	free(want);
	free(got);
}
END_TEST

static void *no_device_thread(void *arg)
{
	void *p = NULL;

	return (void *)(long)aclrtIpcMemImportByKey(&p, arg, 0);
}

/* Calls on a thread without a current device. */
/* What a raw importer child does with an IPC key. */
struct raw_imp {
	uint64_t key;
	int write;		/* then write 0x5a to the first byte */
};

/*
 * Raw importer: maps the key into its own window, reports the first byte
 * read through the window, then (write) writes it and reports it again.
 */
static int child_raw_import(void *argp, int cmd, int rep)
{
	struct raw_imp *a = argp;
	struct npu_sim_ipc_import im = { .key = a->key };
	volatile unsigned char *p;
	struct vm_raw r;

	(void)cmd;
	vm_raw_open(&r, 0);
	if (vm_xioctl(r.fd, NPU_SIM_IOCTL_IPC_IMPORT, &im))
		return 1;
	p = (volatile unsigned char *)(uintptr_t)im.va;
	if (vm_put(rep, p[0]))
		return 2;
	if (a->write) {
		p[0] = 0x5a;
		if (vm_put(rep, p[0]))
			return 3;
	}
	return 0;
}

/* Export a fresh page of @r with @flags (NPU_SIM_ALLOC_*) for anyone. */
static uint64_t raw_export_page(struct vm_raw *r, uint32_t flags)
{
	struct npu_sim_mem_alloc al = { .size = 4096, .footprint = 4096,
					.backing = NPU_SIM_BACKING_NORMAL, .flags = flags,
					.policy = 2, .api = NPU_SIM_API_MALLOC };
	struct npu_sim_ipc_export ex = { .size = 4096, .flags = NPU_SIM_IPC_NO_PID_CHECK };

	ck_assert_int_eq(vm_xioctl(r->fd, NPU_SIM_IOCTL_MEM_ALLOC, &al), 0);
	ex.va = al.va;
	ck_assert_int_eq(vm_xioctl(r->fd, NPU_SIM_IOCTL_IPC_EXPORT, &ex), 0);
	return ex.key;
}

/*
 * An import keeps the exporter's READONLY: with host access on, the
 * importer reads the page through its window, but its write is refused
 * (SIGSEGV) and changes nothing; a writable export takes the write.
 */
START_TEST(import_keeps_readonly)
{
	struct raw_imp w = { .write = 1 }, rd = { 0 };
	struct vm_child c;
	struct vm_raw r;
	int st;

	ck_assert_int_eq(vm_write_str("/sys/class/npu_sim/npu_sim0/host_access", "1"), 0);
	vm_raw_open(&r, 0);

	w.key = rd.key = raw_export_page(&r, NPU_SIM_ALLOC_READONLY);
	vm_child_start(&c, child_raw_import, &w);
	ck_assert_uint_eq(vm_child_get(&c), 0);
	st = vm_child_wait(&c);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "write to a read-only import: status 0x%x", st);
	vm_child_start(&c, child_raw_import, &rd);
	ck_assert_uint_eq(vm_child_get(&c), 0);		/* unchanged */
	vm_child_wait_ok(&c);

	w.key = rd.key = raw_export_page(&r, 0);
	vm_child_start(&c, child_raw_import, &w);
	ck_assert_uint_eq(vm_child_get(&c), 0);
	ck_assert_uint_eq(vm_child_get(&c), 0x5a);
	vm_child_wait_ok(&c);
	vm_child_start(&c, child_raw_import, &rd);
	ck_assert_uint_eq(vm_child_get(&c), 0x5a);
	vm_child_wait_ok(&c);

	vm_raw_close(&r);
	ck_assert_int_eq(vm_write_str("/sys/class/npu_sim/npu_sim0/host_access", "0"), 0);
}
END_TEST

/*
 * IPC_CLOSE of key 0 names nothing: host registrations share the list of
 * imports but are not keys, so the registration stays.
 */
START_TEST(close_key_zero)
{
	struct npu_sim_ipc_close cl = { .key = 0 };
	struct npu_sim_host_register hr = { .size = 8192 };
	struct npu_sim_host_unregister hu = { 0 };
	void *buf = NULL;
	struct vm_raw r;

	ck_assert_int_eq(posix_memalign(&buf, 4096, 8192), 0);
	memset(buf, 1, 8192);
	vm_raw_open(&r, 0);
	hr.addr = (uintptr_t)buf;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_HOST_REGISTER, &hr), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_IPC_CLOSE, &cl), ENOENT);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_IPC_CLOSE, &cl), ENOENT);
	/* the registration is still there, once */
	hu.va = hr.va;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_HOST_UNREGISTER, &hu), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_HOST_UNREGISTER, &hu), ENOENT);
	vm_raw_close(&r);
	free(buf);
}
END_TEST

START_TEST(no_current_device)
{
	char key[KEYLEN];
	void *ret = NULL;
	pthread_t t;
	void *d = export_buf(51, 0, key);

	ck_assert_int_eq(pthread_create(&t, NULL, no_device_thread, key), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_int_eq((long)ret, ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

/*
 * Importer of a 64 B allocation (a slot of a shared page): reports the
 * import result, 0 if the 64 bytes match vm_fill(seed), the result of a
 * 4 KiB read (the page holds other allocations of the exporter) and of a
 * 128-byte read from 64 bytes into the slot.
 */
static int child_slot_importer(void *argp, int cmd, int rep)
{
	unsigned char want[64], got[4096];
	const uint32_t *seed = argp;
	char key[KEYLEN];
	void *p = NULL;
	int ret;

	if (aclInit(NULL) || aclrtSetDevice(0) || get_key(cmd, key))
		return 1;
	ret = aclrtIpcMemImportByKey(&p, key, 0);
	if (vm_put(rep, (uint64_t)(int64_t)ret) || ret)
		return 2;
	vm_fill(want, sizeof(want), *seed);
	if (aclrtMemcpy(got, 64, p, 64, ACL_MEMCPY_DEVICE_TO_HOST) ||
	    vm_put(rep, memcmp(got, want, 64) != 0))
		return 3;
	ret = aclrtMemcpy(got, sizeof(got), p, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST);
	if (vm_put(rep, (uint64_t)(int64_t)ret))
		return 4;
	ret = aclrtMemcpy(got, 128, (char *)p + 64, 128, ACL_MEMCPY_DEVICE_TO_HOST);
	if (vm_put(rep, (uint64_t)(int64_t)ret))
		return 5;
	return aclrtIpcMemClose(key) ? 6 : 0;
}

/* An import of a small allocation gets its slot, not the page it shares. */
START_TEST(slot_export)
{
	static uint32_t seed = 31;
	unsigned char img[64];
	long long used0 = used_bytes();
	char key[KEYLEN] = { 0 };
	void *before = NULL, *d = NULL, *after = NULL;
	struct vm_child c;

	ck_assert_int_eq(aclrtMalloc(&before, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&after, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_ptr_eq(d, (char *)before + 128);
	ck_assert_ptr_eq(after, (char *)d + 128);
	ck_assert_int_eq(used_bytes(), used0 + 4096);
	ck_assert_int_eq(aclrtMemset(before, 64, 0x5A, 64), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(after, 64, 0x5A, 64), ACL_SUCCESS);
	vm_fill(img, sizeof(img), seed);
	ck_assert_int_eq(aclrtMemcpy(d, 64, img, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(d, 64, key, KEYLEN,
						 ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
			 ACL_SUCCESS);

	vm_child_start(&c, child_slot_importer, &seed);
	ck_assert_int_eq(put_key(c.cmd, key), 0);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&c), 0);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_ERROR_RT_PARAM_INVALID);
	vm_child_wait_ok(&c);

	/* the page of an exported slot hands out no freed slot again */
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_uint_eq((uintptr_t)d % 4096, 0);
	ck_assert_int_eq(used_bytes(), used0 + 2 * 4096);
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(before), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(after), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), used0);
}
END_TEST

static Suite *ipc_key_suite(void)
{
	Suite *s = suite_create("ipc_key");
	TCase *tc = tcase_create("key");

	tcase_add_checked_fixture(tc, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, export_whitelist_import_close);
	tcase_add_test(tc, disable_pid_validation);
	tcase_add_test(tc, killed_importer);
	tcase_add_test(tc, killed_exporter);
	tcase_add_test(tc, no_current_device);
	tcase_add_test(tc, slot_export);
	tcase_add_test(tc, import_keeps_readonly);
	tcase_add_test(tc, close_key_zero);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(ipc_key_suite());
}
