/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the VM integration suite (tests/vm): reading hugetlb pool
 * counters, sysfs and debugfs files of the driver, reloading the module with
 * parameters, and small fork/pipe helpers for multi-process tests.
 *
 * All tests run as root inside the guest with the repository root as cwd.
 * Helpers that can fail in a way a test cannot go on from use ck_assert, so
 * they may only be called from a Check test (or fixture) process.  Code that
 * runs in a grandchild (forked from a test) must not use ck_assert: it reports
 * through its exit status instead (see vm_child_*).
 */
#ifndef NPU_SIM_VMTEST_H
#define NPU_SIM_VMTEST_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include <check.h>

#include <acl/acl.h>
#include <acl/acl_rt_memory_soma.h>

#define KiB (1024ULL)
#define MiB (1024ULL * 1024)
#define GiB (1024ULL * 1024 * 1024)

#define VM_ALIGN_UP(x, a) ((((uint64_t)(x)) + ((a) - 1)) / (a) * (a))

/* Module defaults (docs/driver-interface.md). */
#define VM_DEFAULT_HBM_BYTES	(2048ULL * MiB)
#define VM_DEFAULT_NUM_DEVICES	2
#define VM_DEFAULT_VA_WINDOW	(1024ULL * GiB)

/* Generous per-test timeouts: the suite runs under TCG emulation. */
#define VM_TIMEOUT		120
#define VM_TIMEOUT_LONG		900

/* ---- plain files ------------------------------------------------------- */

/* Reads a file holding one decimal number; -1 if it cannot be read. */
long long vm_read_ll(const char *path);
/* Writes @s to @path; 0 or -errno. */
int vm_write_str(const char *path, const char *s);
/* 1 if @path exists. */
int vm_exists(const char *path);

/* ---- hugetlb pools ----------------------------------------------------- */

long long vm_hp2m_free(void);	/* hugepages-2048kB/free_hugepages */
long long vm_hp2m_total(void);	/* hugepages-2048kB/nr_hugepages */
long long vm_hp1g_free(void);	/* hugepages-1048576kB/free_hugepages */
long long vm_hp1g_total(void);
/* @key's value in a "key value" per line file (memory.stat ...), -1 if absent. */
long long vm_kv_read(const char *path, const char *key);
/* A /proc/meminfo field ("HugePages_Free" ...), -1 if absent. */
long long vm_meminfo(const char *key);
/*
 * Sets the 2 MiB pool to @n pages (nothing may hold pool pages) and asserts
 * that exactly @n pages are then free.
 */
void vm_set_hp2m_pool(long n);

/* ---- debugfs / sysfs of the driver ------------------------------------- */

/* Value of @key in debugfs npu_sim<dev>/info; asserts that it exists. */
long long vm_dbg_info(int dev, const char *key);
/* Value of @key in debugfs npu_sim<dev>/stats; asserts that it exists. */
long long vm_dbg_stat(int dev, const char *key);
/* /sys/class/npu_sim/npu_sim<dev>/<name> as a number, -1 if unreadable. */
long long vm_sysfs(int dev, const char *name);
/* The same as a string without its newline into buf[n]: 0 or -errno. */
int vm_sysfs_str(int dev, const char *name, char *buf, size_t n);

struct vm_alloc {
	unsigned long long id;
	long pid;
	unsigned long long va;
	unsigned long long size;
	unsigned long long footprint;
	unsigned long long charged;
	char kind[16];
	unsigned long long policy;
	char api[24];
	char flags[32];
};

/*
 * Parses debugfs npu_sim<dev>/allocations.  Asserts the header line and the
 * shape of every line.  Returns the number of allocation lines; *out (if not
 * NULL) gets a malloc'ed array the caller frees.
 */
long vm_dbg_allocs(int dev, struct vm_alloc **out);
/* Finds the allocation starting at @va; 1 found (copied to *out), 0 not. */
int vm_dbg_alloc_find(int dev, uint64_t va, struct vm_alloc *out);
/* Number of lines of debugfs npu_sim<dev>/contexts after the header. */
long vm_dbg_contexts(int dev);
/* Number of allocation lines owned by @pid. */
long vm_dbg_allocs_of(int dev, pid_t pid);

/* Test-only debugfs knob npu_sim0/stream_hold: 1 holds every stream
 * worker (no queued operation starts), 0 releases them; asserts the write. */
void vm_stream_hold(int on);

/* Snapshot of the device-wide counters a failing call must not change. */
struct vm_snap {
	long long hp2m_free, hp1g_free;
	long long used, used_normal, used_2m, used_1g, used_p2p;
	long long allocations, dev_2m_pages, dev_1g_pages;
	long alloc_lines;
};
void vm_snap_take(int dev, struct vm_snap *s);
/* Asserts that nothing in @before changed. */
void vm_snap_assert_same(int dev, const struct vm_snap *before);

/* ---- module ------------------------------------------------------------ */

int vm_mod_loaded(void);
/* delete_module("npu_sim"): 0 or errno. */
int vm_mod_try_unload(void);
/* Loads kernel/npu_sim.ko with @params ("" for defaults); asserts success. */
void vm_mod_load(const char *params);
/* finit_module with @params: 0 or the errno of the failed load. */
int vm_mod_try_load(const char *params);
/* Unloads (asserting success) and loads with @params. */
void vm_mod_reload(const char *params);
/*
 * Makes sure the module is loaded with its default parameters (2 devices of
 * 2048 MiB, strict host access, profile atlas-a2), reloading it if a previous test left it
 * otherwise (or not loaded).
 */
void vm_mod_ensure_default(void);

/* ---- runtime fixtures -------------------------------------------------- */

/* Checked fixture: default module, aclInit(NULL), aclrtSetDevice(0). */
void vm_acl_setup(void);
void vm_acl_teardown(void);
/* Checked fixture without the runtime: only the default module. */
void vm_mod_setup(void);
/*
 * vm_acl_setup, then no stream held (stream_hold 0) and no message of
 * aclGetRecentErrMsg pending; its teardown releases any hold first.
 */
void vm_acl_stream_setup(void);
void vm_acl_stream_teardown(void);
/* aclrtMalloc of n bytes of normal pages on the current device; asserted. */
void *vm_dev_alloc(size_t n);
/* The 8-byte value at device address dev, written / read by aclrtMemcpy;
 * asserted. */
void vm_dev_put_u64(void *dev, uint64_t v);
uint64_t vm_dev_get_u64(const void *dev);

/* aclrtMemPoolGetAttr of a 64-bit attribute; asserts success. */
uint64_t vm_pool_attr(aclrtMemPool pool, aclrtMemPoolAttr a);

/* aclrtGetMemInfo(ACL_HBM_MEM) of the current device; asserts success. */
void vm_hbm_info(size_t *free_b, size_t *total_b);

/* ---- processes --------------------------------------------------------- */

/*
 * A child process with a command pipe (parent -> child) and a report pipe
 * (child -> parent).  The child runs fn(arg, cmd_fd, rep_fd) and _exit()s with
 * its return value.  It must not use ck_assert.
 */
struct vm_child {
	pid_t pid;
	int cmd;	/* parent writes */
	int rep;	/* parent reads */
};
typedef int (*vm_child_fn)(void *arg, int cmd_fd, int rep_fd);
void vm_child_start(struct vm_child *c, vm_child_fn fn, void *arg);
/* Send / receive one 64-bit word; return 0 or -1. */
int vm_put(int fd, uint64_t v);
int vm_get(int fd, uint64_t *v);
/* Parent side: receive one word from the child, asserting it arrived. */
uint64_t vm_child_get(struct vm_child *c);
void vm_child_put(struct vm_child *c, uint64_t v);
/* Waits for the child; returns its wait status. */
int vm_child_wait(struct vm_child *c);
/* Asserts the child exited with status 0 (else prints the step it failed). */
void vm_child_wait_ok(struct vm_child *c);
/*
 * Waits until process @pid sleeps inside ioctl(fd, @cmd): /proc/PID/syscall
 * names that call and /proc/PID/stat says the task is not running.  Asserts
 * it gets there (bounded at 60 s, so a wrong driver fails instead of hanging).
 */
void vm_wait_blocked_in_ioctl(pid_t pid, unsigned long cmd);

/* ---- raw driver access (no library) ------------------------------------ */

/* An open /dev/npu_sim<dev> with its VA window mapped. */
struct vm_raw {
	int fd;
	void *win;
	uint64_t wsize;
};
/* ioctl: 0 or errno. */
int vm_xioctl(int fd, unsigned long cmd, void *arg);
/* Opens device @dev and maps its window; asserted. */
void vm_raw_open(struct vm_raw *r, int dev);
void vm_raw_close(struct vm_raw *r);
/* MEM_ALLOC of @bytes of normal pages; 0 or errno, *va (if not NULL) set. */
int vm_raw_alloc(struct vm_raw *r, uint64_t bytes, uint64_t *va);
/* MEM_FREE of @va; asserted. */
void vm_raw_free(struct vm_raw *r, uint64_t va);

/* ---- misc -------------------------------------------------------------- */

/*
 * KiB of this process counted against RLIMIT_MEMLOCK: VmLck plus VmPin of
 * /proc/self/status (pinned pages are counted in one or the other, by
 * kernel version); -1 if unreadable.  Safe in forked children.
 */
long vm_lck_kib(void);

/*
 * The aclrtMallocPhysical properties of memory attribute @attr at location
 * @loc_type / @id: handle type NONE, PINNED, everything else zero.
 */
aclrtPhysicalMemProp vm_phys_prop(int attr, int loc_type, uint32_t id);

/* Deterministic byte pattern. */
void vm_fill(void *buf, size_t n, uint32_t seed);
/* Whether all n bytes at p are v. */
int vm_all_bytes(const void *p, size_t n, unsigned char v);
/* Monotonic seconds. */
double vm_now(void);
/* Runs one suite with CK_VERBOSE and returns the exit status for main(). */
int vm_run_suite(Suite *s);

#endif /* NPU_SIM_VMTEST_H */
