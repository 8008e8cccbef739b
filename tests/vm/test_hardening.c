// SPDX-License-Identifier: GPL-2.0
/*
 * Hardening (issue 12): what an unprivileged or careless process must not be
 * able to do to the machine through the device node.
 *
 * - Managed memory and host-location physical memory pin host memory: they
 *   count against RLIMIT_MEMLOCK of a process without CAP_IPC_LOCK (here
 *   uid 65534 with ulimit -l 4 MiB); over it the call fails with 207001 and
 *   nothing stays pinned (VmPin) or charged (device used_bytes); a request
 *   far over it is refused before its page array is allocated (the fuzzer
 *   once made a 2 TiB request invoke the OOM killer).  Host memory a child
 *   exported counts for its importing parent too, while the parent holds
 *   it (the child's own count goes with the child).
 * - A read-only host registration never dirties the pages it pinned.
 * - Kernel objects (GFP_KERNEL_ACCOUNT) and the normal pages of managed
 *   memory (__GFP_ACCOUNT) are charged to the caller's memory cgroup; the
 *   device copies of managed blocks take no pages of their own.
 * - max_objects_per_ctx caps the live objects of each kind one open file
 *   holds (allocations, physical handles, IPC keys, streams, events): the
 *   call over the cap fails with 207001, one freed makes room again.
 * - A whitelist entry names a process, not a number: once the whitelisted
 *   process is gone, a new process that gets its pid number (forced with
 *   /proc/sys/kernel/ns_last_pid) cannot import (207006), while the
 *   whitelisted process itself could; likewise the right to set a key's
 *   whitelist is its exporting process's, not its pid number's.
 * - A handle's references (VMM_QUERY RETAIN) are bounded like objects.
 */
#include "vmtest.h"

#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define NOBODY 65534
#define CAP 16

/* ulimit -l @bytes, then uid/gid 65534 (which drops every capability). */
static int become_nobody(rlim_t bytes)
{
	struct rlimit rl = { .rlim_cur = bytes, .rlim_max = bytes };

	if (setrlimit(RLIMIT_MEMLOCK, &rl) || setgroups(0, NULL) ||
	    setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY))
		return -1;
	return 0;
}

/*
 * become_nobody(4 MiB), then the library on device 0; *@base: the KiB
 * pinned then.  0, or 1 / 2: which step failed.
 */
static int nobody_on_device(long *base)
{
	if (become_nobody(4 * MiB))
		return 1;
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 2;
	*base = vm_lck_kib();
	return 0;
}

/* Report @code and the KiB pinned over @base: 0, or -1 on a pipe error. */
static int report(int rep, aclError code, long base)
{
	return vm_put(rep, (uint64_t)(int64_t)code) ||
	       vm_put(rep, (uint64_t)(vm_lck_kib() - base)) ? -1 : 0;
}

/*
 * Child, uid 65534, ulimit -l 4 MiB.  Reports (code, pinned KiB over its
 * start) after: managed 2 MiB; managed 4 MiB more (over); host physical
 * 4 MiB (over); freeing the 2 MiB; host physical 4 MiB (fits now); its
 * free; managed 8 MiB (over the limit alone).
 */
static int child_memlock(void *arg, int cmd, int rep)
{
	aclrtPhysicalMemProp prop = vm_phys_prop(ACL_DDR_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_HOST, 0);
	aclrtDrvMemHandle h = NULL;
	void *a = NULL, *b = NULL;
	long base;
	int ret = nobody_on_device(&base);

	(void)arg;
	(void)cmd;
	if (ret)
		return ret;
	if (report(rep, aclrtMemAllocManaged(&a, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL), base))
		return 3;
	if (report(rep, aclrtMemAllocManaged(&b, 4 * MiB, ACL_RT_MEM_ATTACH_GLOBAL), base))
		return 4;
	if (report(rep, aclrtMallocPhysical(&h, 4 * MiB, &prop, 0), base))
		return 5;
	if (report(rep, aclrtFree(a), base))
		return 6;
	if (report(rep, aclrtMallocPhysical(&h, 4 * MiB, &prop, 0), base))
		return 7;
	if (report(rep, aclrtFreePhysical(h), base))
		return 8;
	if (report(rep, aclrtMemAllocManaged(&b, 8 * MiB, ACL_RT_MEM_ATTACH_GLOBAL), base))
		return 9;
	/*
	 * Far over the limit (2 TiB: a 4 GiB page array): refused before
	 * anything is allocated - once the OOM killer ran here.
	 */
	{
		struct npu_sim_phys_alloc pa = { .size = 2ULL << 40, .page_kind = NPU_SIM_PAGE_NORMAL,
						 .location = NPU_SIM_LOC_HOST };
		struct npu_sim_host_register hr = { .addr = 256 * MiB, .size = 2ULL << 40 };
		int fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);

		if (fd < 0)
			return 10;
		if (vm_put(rep, ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &pa) ? (uint64_t)errno : 0) ||
		    vm_put(rep, ioctl(fd, NPU_SIM_IOCTL_HOST_REGISTER, &hr) ? (uint64_t)errno : 0) ||
		    vm_put(rep, (uint64_t)(vm_lck_kib() - base)))
			return 11;
		close(fd);
	}
	return 0;
}

static void expect(struct vm_child *c, aclError code, long kib)
{
	ck_assert_int_eq((int)(int64_t)vm_child_get(c), code);
	ck_assert_int_eq((long)(int64_t)vm_child_get(c), kib);
}

START_TEST(host_memory_counts_against_memlock)
{
	long long used0 = vm_dbg_info(0, "used_bytes");
	long long fail0 = vm_dbg_stat(0, "fail_nomem");
	struct vm_child c;

	vm_child_start(&c, child_memlock, NULL);
	expect(&c, ACL_SUCCESS, 2048);
	expect(&c, ACL_ERROR_RT_MEMORY_ALLOCATION, 2048);
	expect(&c, ACL_ERROR_RT_MEMORY_ALLOCATION, 2048);
	expect(&c, ACL_SUCCESS, 0);
	expect(&c, ACL_SUCCESS, 4096);
	expect(&c, ACL_SUCCESS, 0);
	expect(&c, ACL_ERROR_RT_MEMORY_ALLOCATION, 0);
	ck_assert_uint_eq(vm_child_get(&c), ENOMEM);	/* 2 TiB host physical */
	ck_assert_uint_eq(vm_child_get(&c), ENOMEM);	/* 2 TiB registration */
	ck_assert_uint_eq(vm_child_get(&c), 0);
	vm_child_wait_ok(&c);
	/* host memory was never device memory; the refusals were counted */
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_nomem"), fail0 + 4);
}
END_TEST

/*
 * Exporter, a child of the importer (so uid 65534, ulimit -l 4 MiB too):
 * 4 MiB of host physical memory exported to anyone; reports the key, then
 * exits on command.
 */
static int child_host_exporter(void *arg, int cmd, int rep)
{
	aclrtPhysicalMemProp prop = vm_phys_prop(ACL_DDR_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_HOST, 0);
	aclrtDrvMemHandle h = NULL;
	uint64_t key = 0, c;

	(void)arg;
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	if (aclrtMallocPhysical(&h, 4 * MiB, &prop, 0) ||
	    aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
					    ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &key))
		return 2;
	return vm_put(rep, key) || vm_get(cmd, &c) ? 3 : 0;
}

/*
 * Importer, uid 65534, ulimit -l 4 MiB.  Reports (code, pinned KiB over
 * its start) after: importing its child's 4 MiB of host memory; importing
 * it again (over); then the pinned KiB once the child has exited; then
 * (code, KiB) of freeing the import.
 */
static int child_host_importer(void *arg, int cmd, int rep)
{
	aclrtDrvMemHandle h1 = NULL, h2 = NULL;
	struct vm_child e;
	long base;
	int ret = nobody_on_device(&base);
	uint64_t key;

	(void)arg;
	(void)cmd;
	if (ret)
		return ret;
	vm_child_start(&e, child_host_exporter, NULL);
	key = vm_child_get(&e);
	if (report(rep, aclrtMemImportFromShareableHandle(key, 0, &h1), base))
		return 3;
	if (report(rep, aclrtMemImportFromShareableHandle(key, 0, &h2), base))
		return 4;
	vm_child_put(&e, 1);
	vm_child_wait_ok(&e);
	if (vm_put(rep, (uint64_t)(vm_lck_kib() - base)))
		return 5;
	return report(rep, aclrtFreePhysical(h1), base) ? 6 : 0;
}

/*
 * Host memory a child exported and its parent imported counts against the
 * parent's RLIMIT_MEMLOCK while the parent holds it, also after the child
 * (whose own count went with its mm) has exited.
 */
START_TEST(host_import_counts_for_importer)
{
	struct vm_child c;

	vm_child_start(&c, child_host_importer, NULL);
	expect(&c, ACL_SUCCESS, 4096);
	expect(&c, ACL_ERROR_RT_MEMORY_ALLOCATION, 4096);
	ck_assert_int_eq((long)(int64_t)vm_child_get(&c), 4096);
	expect(&c, ACL_SUCCESS, 0);
	vm_child_wait_ok(&c);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
}
END_TEST

/* Root (CAP_IPC_LOCK) is not limited by its RLIMIT_MEMLOCK. */
static int child_root_unlimited(void *arg, int cmd, int rep)
{
	struct rlimit rl = { .rlim_cur = 64 * KiB, .rlim_max = 64 * KiB };
	void *a = NULL;

	(void)arg;
	(void)cmd;
	if (setrlimit(RLIMIT_MEMLOCK, &rl) || aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	if (vm_put(rep, (uint64_t)(int64_t)aclrtMemAllocManaged(&a, 4 * MiB, ACL_RT_MEM_ATTACH_GLOBAL)))
		return 2;
	return aclrtFree(a) == ACL_SUCCESS ? 0 : 3;
}

START_TEST(cap_ipc_lock_exempt)
{
	struct vm_child c;

	vm_child_start(&c, child_root_unlimited, NULL);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_SUCCESS);
	vm_child_wait_ok(&c);
}
END_TEST

/* Whether the page at @pfn is dirty (/proc/kpageflags, KPF_DIRTY). */
static int pfn_dirty(uint64_t pfn)
{
	int fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	uint64_t flags = 0;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &flags, 8, (off_t)(pfn * 8)), 8);
	close(fd);
	return (flags >> 4) & 1;
}

/* The frame of this process's present page at @va (/proc/self/pagemap). */
static uint64_t pfn_of(const volatile void *va)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	uint64_t e = 0;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &e, 8, (off_t)((uintptr_t)va / 4096 * 8)), 8);
	close(fd);
	ck_assert_msg(e >> 63, "page at %p not present", (void *)va);
	ck_assert_uint_ne(e & ((1ULL << 55) - 1), 0);
	return e & ((1ULL << 55) - 1);
}

/*
 * A read-only registration of a file's page cache page (a private read-only
 * mapping of README.md, on the guest's read-only 9p view of the host) must
 * not mark it dirty: the page's dirty flag is clean before and after (and
 * writeback of a dirtied page of that file hit a kernel BUG in 9p once,
 * found by stress_fuzz; fsync forces a writeback now, in this process).
 */
START_TEST(readonly_registration_leaves_file_clean)
{
	int fd = open("README.md", O_RDONLY | O_CLOEXEC);
	volatile unsigned char *p;
	void *dev = NULL;
	uint64_t pfn;

	ck_assert_int_ge(fd, 0);
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert(p != MAP_FAILED);
	ck_assert_int_eq(p[0], '#');
	pfn = pfn_of(p);
	ck_assert_int_eq(pfn_dirty(pfn), 0);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtHostRegister((void *)p, 4096, ACL_HOST_REGISTER_READONLY, &dev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtHostUnregister((void *)p), ACL_SUCCESS);
	ck_assert_uint_eq(pfn_of(p), pfn);	/* the same page cache page */
	ck_assert_int_eq(pfn_dirty(pfn), 0);
	ck_assert_int_eq(munmap((void *)p, 4096), 0);
	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(syncfs(fd), 0);
	close(fd);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

/* ---- memory cgroup ------------------------------------------------------ */

#define CG_ROOT "/sys/fs/cgroup"

static long long cg_current(const char *cg)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/memory.current", cg);
	return vm_read_ll(path);
}

#define TEST_HOOKS "/sys/module/npu_sim/parameters/test_hooks"

/*
 * Child in its own memory cgroup: 20000 events (kernel objects) through a
 * raw device file, then 64 MiB of managed memory, then a device write of
 * all of it (test hook MANAGED_TOUCH: every block gets its device copy);
 * reports the growth of memory.current after each.
 */
static int child_memcg(void *arg, int cmd, int rep)
{
	const char *cg = arg;
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	struct npu_sim_managed_alloc ma = { .size = 64 * MiB };
	struct npu_sim_managed_touch touch = { 0 };
	long long c0, c1, c2, c3;
	uint64_t go;
	int fd;

	if (vm_get(cmd, &go))
		return 1;
	fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp) ||
	    mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED)
		return 2;
	c0 = cg_current(cg);
	for (int i = 0; i < 20000; i++) {
		struct npu_sim_event_create ec = { 0 };

		if (ioctl(fd, NPU_SIM_IOCTL_EVENT_CREATE, &ec))
			return 3;
	}
	c1 = cg_current(cg);
	if (ioctl(fd, NPU_SIM_IOCTL_MANAGED_ALLOC, &ma))
		return 4;
	c2 = cg_current(cg);
	touch.va = ma.va;
	touch.size = ma.len;
	touch.flags = NPU_SIM_TOUCH_WRITE;
	if (ioctl(fd, NPU_SIM_IOCTL_MANAGED_TOUCH, &touch))
		return 6;
	c3 = cg_current(cg);
	if (vm_put(rep, (uint64_t)(c1 - c0)) || vm_put(rep, (uint64_t)(c2 - c1)) ||
	    vm_put(rep, (uint64_t)(c3 - c2)))
		return 5;
	return 0;
}

START_TEST(kernel_objects_and_host_pages_charged_to_memcg)
{
	char cg[128], path[192], num[32];
	struct vm_child c;
	long long objs, pages, dev;

	if (!vm_exists(CG_ROOT "/cgroup.controllers"))
		ck_assert_int_eq(mount("none", CG_ROOT, "cgroup2", 0, NULL), 0);
	ck_assert_int_eq(vm_write_str(CG_ROOT "/cgroup.subtree_control", "+memory"), 0);
	snprintf(cg, sizeof(cg), CG_ROOT "/npu_hardening_%d", (int)getpid());
	ck_assert(mkdir(cg, 0755) == 0 || errno == EEXIST);
	ck_assert_int_eq(vm_write_str(TEST_HOOKS, "1"), 0);
	vm_child_start(&c, child_memcg, cg);
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(num, sizeof(num), "%d", (int)c.pid);
	ck_assert_int_eq(vm_write_str(path, num), 0);
	vm_child_put(&c, 1);
	objs = (long long)vm_child_get(&c);
	pages = (long long)vm_child_get(&c);
	dev = (long long)vm_child_get(&c);
	vm_child_wait_ok(&c);
	ck_assert_int_eq(vm_write_str(TEST_HOOKS, "0"), 0);
	/* 20000 events of >= 40 bytes (kmalloc-64), 64 MiB of normal pages */
	ck_assert_msg(objs >= 20000LL * 48, "events charged %lld bytes", objs);
	ck_assert_msg(pages >= (long long)(64 * MiB), "managed memory charged %lld bytes", pages);
	/*
	 * The device copies are views of those host pages, not pages of their
	 * own: 32 small objects, where copies of their own would be 64 MiB.
	 */
	ck_assert_msg(dev < (long long)MiB, "device copies charged %lld bytes", dev);
	ck_assert_int_eq(rmdir(cg), 0);
}
END_TEST

/* ---- max_objects_per_ctx ------------------------------------------------ */

/*
 * Child on a module loaded with max_objects_per_ctx=CAP: per kind, how many
 * creations succeed before the first failure, that failure's code, and
 * whether one more works after freeing one.
 */
static int child_caps(void *arg, int cmd, int rep)
{
	void *ptrs[CAP + 1], *big = NULL;
	aclrtDrvMemHandle hs[CAP + 1];
	aclrtPhysicalMemProp prop;
	aclrtStream ss[CAP + 1];
	aclrtEvent es[CAP + 1];
	char key[65];
	aclError rc = ACL_SUCCESS;
	int n;

	(void)arg;
	(void)cmd;
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	/* allocations: VA ranges of the window */
	for (n = 0; n <= CAP; n++)
		if ((rc = aclrtMalloc(&ptrs[n], 4096, ACL_MEM_MALLOC_NORMAL_ONLY)) != ACL_SUCCESS)
			break;
	if (vm_put(rep, (uint64_t)n) || vm_put(rep, (uint64_t)(int64_t)rc))
		return 2;
	if (aclrtFree(ptrs[--n]) || vm_put(rep, (uint64_t)(int64_t)aclrtMalloc(&ptrs[n], 4096, ACL_MEM_MALLOC_NORMAL_ONLY)))
		return 3;
	while (n >= 0)
		if (aclrtFree(ptrs[n--]))
			return 4;
	/* physical handles */
	prop = vm_phys_prop(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
	for (n = 0; n <= CAP; n++)
		if ((rc = aclrtMallocPhysical(&hs[n], 2 * MiB, &prop, 0)) != ACL_SUCCESS)
			break;
	if (vm_put(rep, (uint64_t)n) || vm_put(rep, (uint64_t)(int64_t)rc))
		return 5;
	while (--n >= 0)
		if (aclrtFreePhysical(hs[n]))
			return 6;
	/* IPC keys of one allocation */
	if (aclrtMalloc(&big, 4096, ACL_MEM_MALLOC_NORMAL_ONLY))
		return 7;
	for (n = 0; n <= CAP; n++)
		if ((rc = aclrtIpcMemGetExportKey(big, 4096, key, sizeof(key), 0)) != ACL_SUCCESS)
			break;
	if (vm_put(rep, (uint64_t)n) || vm_put(rep, (uint64_t)(int64_t)rc))
		return 8;
	if (aclrtIpcMemClose(key) != ACL_SUCCESS ||
	    vm_put(rep, (uint64_t)(int64_t)aclrtIpcMemGetExportKey(big, 4096, key, sizeof(key), 0)))
		return 9;
	if (aclrtFree(big))
		return 10;
	/* streams, events */
	for (n = 0; n <= CAP; n++)
		if ((rc = aclrtCreateStream(&ss[n])) != ACL_SUCCESS)
			break;
	if (vm_put(rep, (uint64_t)n) || vm_put(rep, (uint64_t)(int64_t)rc))
		return 11;
	while (--n >= 0)
		if (aclrtDestroyStream(ss[n]))
			return 12;
	for (n = 0; n <= CAP; n++)
		if ((rc = aclrtCreateEvent(&es[n])) != ACL_SUCCESS)
			break;
	if (vm_put(rep, (uint64_t)n) || vm_put(rep, (uint64_t)(int64_t)rc))
		return 13;
	while (--n >= 0)
		if (aclrtDestroyEvent(es[n]))
			return 14;
	return aclrtResetDevice(0) || aclFinalize() ? 15 : 0;
}

/* @n creations of @what worked, then one failed with 207001. */
static void expect_cap(struct vm_child *c, const char *what, uint64_t n)
{
	uint64_t got = vm_child_get(c);
	int rc = (int)(int64_t)vm_child_get(c);

	ck_assert_msg(got == n && rc == ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: %llu created, then %d", what,
		      (unsigned long long)got, rc);
}

START_TEST(objects_per_context_capped)
{
	struct vm_child c;
	char params[64];

	snprintf(params, sizeof(params), "max_objects_per_ctx=%d", CAP);
	vm_mod_reload(params);
	ck_assert_int_eq(vm_read_ll("/sys/module/npu_sim/parameters/max_objects_per_ctx"), CAP);
	vm_child_start(&c, child_caps, NULL);
	expect_cap(&c, "allocations", CAP);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_SUCCESS);	/* room after a free */
	expect_cap(&c, "physical handles", CAP);
	expect_cap(&c, "IPC keys", CAP);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_SUCCESS);	/* room after a close */
	/* streams (the default stream of a context is made when first used) */
	expect_cap(&c, "streams", CAP);
	expect_cap(&c, "events", CAP);
	vm_child_wait_ok(&c);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	vm_mod_reload("");
}
END_TEST

/* Sizes of 8 slot sizes (128 to 1024 B slots). */
static const size_t idle_sizes[] = { 64, 192, 320, 448, 576, 704, 832, 960 };

/* A slot of each of idle_sizes allocated and freed: failures into *arg. */
static void *idle_thread(void *arg)
{
	int *failed = arg;
	unsigned int i;
	void *p;

	if (aclrtSetDevice(0)) {
		(*failed)++;
		return NULL;
	}
	for (i = 0; i < sizeof(idle_sizes) / sizeof(idle_sizes[0]); i++) {
		if (aclrtMalloc(&p, idle_sizes[i], ACL_MEM_MALLOC_NORMAL_ONLY) || aclrtFree(p))
			(*failed)++;
	}
	return NULL;
}

/*
 * Child under max_objects_per_ctx=CAP: 16 threads in turn (a shard of
 * small pages each) leave idle pages of 8 slot sizes; then CAP 4 KiB
 * allocations still fit, as a small page is no object (its slots are).
 */
static int child_idle_pages(void *arg, int cmd, int rep)
{
	void *ptrs[CAP + 1];
	aclError rc = ACL_SUCCESS;
	int failed = 0, n;
	pthread_t th;

	(void)arg;
	(void)cmd;
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	for (n = 0; n < 16; n++)
		if (pthread_create(&th, NULL, idle_thread, &failed) || pthread_join(th, NULL))
			return 2;
	if (vm_put(rep, (uint64_t)failed))
		return 3;
	for (n = 0; n <= CAP; n++)
		if ((rc = aclrtMalloc(&ptrs[n], 4096, ACL_MEM_MALLOC_NORMAL_ONLY)) != ACL_SUCCESS)
			break;
	if (vm_put(rep, (uint64_t)n) || vm_put(rep, (uint64_t)(int64_t)rc))
		return 4;
	while (--n >= 0)
		if (aclrtFree(ptrs[n]))
			return 5;
	return aclrtResetDevice(0) || aclFinalize() ? 6 : 0;
}

/* Idle small pages of many threads do not hold back the object limit. */
START_TEST(objects_cap_not_held_by_idle_pages)
{
	struct vm_child c;
	char params[64];

	snprintf(params, sizeof(params), "max_objects_per_ctx=%d", CAP);
	vm_mod_reload(params);
	vm_child_start(&c, child_idle_pages, NULL);
	ck_assert_int_eq((int)vm_child_get(&c), 0);	/* no slot allocation failed */
	expect_cap(&c, "allocations after idle pages", CAP);
	vm_child_wait_ok(&c);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	vm_mod_reload("");
}
END_TEST

/*
 * A handle's references (MallocPhysical, each VMM_QUERY RETAIN) are bounded
 * like objects: the RETAIN over max_objects_per_ctx fails with EOVERFLOW
 * and changes nothing (the u32 count never wraps to a handle that dies
 * while mapped); each reference is then freed once.
 */
START_TEST(retain_bounded)
{
	struct npu_sim_phys_alloc pa = { .size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL,
					 .location = NPU_SIM_LOC_DEVICE };
	struct npu_sim_vmm_reserve rv = { .size = 2 * MiB };
	struct npu_sim_vmm_map mp = { .size = 2 * MiB };
	struct npu_sim_vmm_unmap um = { 0 };
	struct npu_sim_vmm_release rl = { 0 };
	struct npu_sim_phys_free pf = { 0 };
	struct npu_sim_vmm_query q;
	char params[64], needle[64];
	struct vm_raw r;
	int i;

	snprintf(params, sizeof(params), "max_objects_per_ctx=%d", CAP);
	vm_mod_reload(params);
	vm_raw_open(&r, 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_PHYS_ALLOC, &pa), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), 0);
	mp.va = rv.va;
	mp.handle = pa.handle;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_VMM_MAP, &mp), 0);
	for (i = 1; i < CAP; i++) {
		q = (struct npu_sim_vmm_query){ .addr = rv.va, .flags = NPU_SIM_QUERY_RETAIN };
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_VMM_QUERY, &q), 0);
		ck_assert_uint_eq(q.handle, pa.handle);
	}
	q = (struct npu_sim_vmm_query){ .addr = rv.va, .flags = NPU_SIM_QUERY_RETAIN };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_VMM_QUERY, &q), EOVERFLOW);
	ck_assert_uint_eq(q.handle, 0);
	q = (struct npu_sim_vmm_query){ .addr = rv.va };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_VMM_QUERY, &q), 0);	/* no RETAIN: fine */
	/* pid handle size kind location location_id mem_attr holds mappings */
	snprintf(needle, sizeof(needle), "%d %u 2097152 normal device 0 ", getpid(), pa.handle);
	{
		char *h = NULL, line[256];
		FILE *f = fopen("/sys/kernel/debug/npu_sim/npu_sim0/handles", "r");
		int found = 0;

		ck_assert_ptr_nonnull(f);
		while (fgets(line, sizeof(line), f))
			if (strncmp(line, needle, strlen(needle)) == 0 && (h = strchr(line + strlen(needle), ' ')))
				found = sscanf(h, " %d", &i) == 1 && i == CAP;
		fclose(f);
		ck_assert_msg(found, "handle %u does not have %d holds", pa.handle, CAP);
	}
	pf.handle = pa.handle;
	for (i = 0; i < CAP; i++)
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), ENOENT);
	um.va = rv.va;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_VMM_UNMAP, &um), 0);
	rl.va = rv.va;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_VMM_RELEASE, &rl), 0);
	vm_raw_close(&r);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	vm_mod_reload("");
}
END_TEST

START_TEST(objects_cap_bad_values)
{
	ck_assert_int_eq(vm_mod_try_unload(), 0);
	ck_assert_int_eq(vm_mod_try_load("max_objects_per_ctx=0"), EINVAL);
	ck_assert(!vm_mod_loaded());
	vm_mod_load("");
	ck_assert_int_eq(vm_read_ll("/sys/module/npu_sim/parameters/max_objects_per_ctx"), 1 << 20);
}
END_TEST

/* ---- whitelists bound to processes -------------------------------------- */

enum { KIND_SHARE, KIND_IPC };

struct wl_arg {
	int kind;
	uint64_t share;		/* KIND_SHARE: the key */
	char ipc[65];		/* KIND_IPC: the key */
};

/* Import what @a names in this (fresh) process: the aclError. */
static aclError wl_import(const struct wl_arg *a)
{
	aclrtDrvMemHandle h = NULL;
	void *p = NULL;
	aclError rc;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return (aclError)-1;
	if (a->kind == KIND_SHARE) {
		rc = aclrtMemImportFromShareableHandle(a->share, 0, &h);
		if (rc == ACL_SUCCESS)
			(void)aclrtFreePhysical(h);
	} else {
		rc = aclrtIpcMemImportByKey(&p, a->ipc, 0);
		if (rc == ACL_SUCCESS)
			(void)aclrtIpcMemClose(a->ipc);
	}
	return rc;
}

/* Whitelisted child: waits for the word "go", imports, reports the code. */
static int child_listed(void *argp, int cmd, int rep)
{
	uint64_t go;

	if (vm_get(cmd, &go))
		return 1;
	return vm_put(rep, (uint64_t)(int64_t)wl_import(argp)) ? 2 : 0;
}

/*
 * Fork until a child gets pid number @want (ns_last_pid = want - 1 before
 * each fork; another process may take it first); that child runs @fn.
 * Returns what @fn returned, or asserts after 50 tries.
 */
static int64_t run_as_pid(pid_t want, int64_t (*fn)(const void *arg), const void *arg)
{
	char buf[32];

	for (int tries = 0; tries < 50; tries++) {
		int fds[2], st;
		int64_t code = -1;
		pid_t pid;

		ck_assert_int_eq(pipe(fds), 0);
		snprintf(buf, sizeof(buf), "%d", (int)want - 1);
		ck_assert_int_eq(vm_write_str("/proc/sys/kernel/ns_last_pid", buf), 0);
		fflush(NULL);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			close(fds[0]);
			if (getpid() != want)
				_exit(100);
			code = fn(arg);
			_exit(write(fds[1], &code, sizeof(code)) == sizeof(code) ? 0 : 1);
		}
		close(fds[1]);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert(WIFEXITED(st));
		if (WEXITSTATUS(st) == 100) {
			close(fds[0]);
			continue;
		}
		ck_assert_int_eq(WEXITSTATUS(st), 0);
		ck_assert_int_eq(read(fds[0], &code, sizeof(code)), (ssize_t)sizeof(code));
		close(fds[0]);
		return code;
	}
	ck_abort_msg("no process got pid %d", (int)want);
	return -1;
}

static int64_t wl_import_fn(const void *arg)
{
	return wl_import(arg);
}

static aclError import_as_pid(const struct wl_arg *a, pid_t want)
{
	return (aclError)run_as_pid(want, wl_import_fn, a);
}

/*
 * Whitelist two children A and B; A imports (allowed), B exits without
 * importing; a new process with B's number cannot import.
 */
static void recycled_pid_case(struct wl_arg *a)
{
	struct vm_child ca, cb;
	int32_t pids[2];
	pid_t gone;
	int st;

	vm_child_start(&ca, child_listed, a);
	vm_child_start(&cb, child_listed, a);
	pids[0] = ca.pid;
	pids[1] = cb.pid;
	if (a->kind == KIND_SHARE)
		ck_assert_int_eq(aclrtMemSetPidToShareableHandle(a->share, pids, 2), ACL_SUCCESS);
	else
		ck_assert_int_eq(aclrtIpcMemSetImportPid(a->ipc, pids, 2), ACL_SUCCESS);
	/* the whitelisted process itself may import */
	vm_child_put(&ca, 1);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ca), ACL_SUCCESS);
	vm_child_wait_ok(&ca);
	/* B goes without importing; its number comes back to another process */
	gone = cb.pid;
	st = vm_child_wait(&cb);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	ck_assert_int_eq(import_as_pid(a, gone), ACL_ERROR_RT_NO_PERMISSION);
}

/* SHARE_SET_PIDS (whitelist: init) on key *@arg through a new file: errno. */
static int64_t set_pids_raw(const void *arg)
{
	int32_t one = 1;
	struct npu_sim_share_set_pids sp = { .key = *(const uint64_t *)arg,
					     .pids = (uintptr_t)&one, .nr = 1 };
	int fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);
	int64_t err;

	if (fd < 0)
		return -1;
	err = ioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp) ? errno : 0;
	close(fd);
	return err;
}

/*
 * Exporter: a physical handle exported through a file whose window was
 * never mapped, its own SET_PIDS works; a forked child G keeps the file
 * open until @hold closes; reports (key, G's pid), then exits once @go
 * closes.
 */
static void orphan_exporter(int hold, int go, int rep)
{
	struct npu_sim_phys_alloc pa = { .size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL,
					 .location = NPU_SIM_LOC_DEVICE };
	struct npu_sim_share_export se = { 0 };
	int fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);
	uint64_t msg[2];
	pid_t g;
	char c;

	if (fd < 0 || ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &pa))
		_exit(1);
	se.handle = pa.handle;
	if (ioctl(fd, NPU_SIM_IOCTL_SHARE_EXPORT, &se))
		_exit(2);
	{
		int32_t one = 1;
		struct npu_sim_share_set_pids sp = { .key = se.key, .pids = (uintptr_t)&one, .nr = 1 };

		if (ioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp))
			_exit(3);
	}
	g = fork();
	if (g == 0)
		_exit(read(hold, &c, 1) == 0 ? 0 : 1);	/* until the test closes it */
	msg[0] = se.key;
	msg[1] = (uint64_t)g;
	if (g <= 0 || write(rep, msg, sizeof(msg)) != sizeof(msg))
		_exit(4);
	_exit(read(go, &c, 1) == 0 ? 0 : 5);
}

/*
 * The right to set a key's whitelist is its exporting process's, not its
 * number's: while the exporter lives, another process gets EPERM; once the
 * exporter is gone its memory and key go with it (the context's owner is
 * gone), even while a forked child keeps the file, so a new process with
 * the exporter's pid number finds nothing (ENOENT).
 */
START_TEST(set_pids_bound_to_exporter)
{
	int hold[2], go[2], rep[2], st;
	uint64_t msg[2];
	pid_t x, g;

	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	ck_assert_int_eq(pipe(hold), 0);
	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(rep), 0);
	fflush(NULL);
	x = fork();
	ck_assert_int_ge(x, 0);
	if (x == 0) {
		close(hold[1]);
		close(go[1]);
		close(rep[0]);
		orphan_exporter(hold[0], go[0], rep[1]);
	}
	close(hold[0]);
	close(go[0]);
	close(rep[1]);
	ck_assert_int_eq(read(rep[0], msg, sizeof(msg)), (ssize_t)sizeof(msg));
	close(rep[0]);
	g = (pid_t)msg[1];
	ck_assert_int_eq(set_pids_raw(&msg[0]), EPERM);	/* exporter alive */

	close(go[1]);
	ck_assert_int_eq(waitpid(x, &st, 0), x);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);	/* G still holds the file */
	ck_assert_int_eq(run_as_pid(x, set_pids_raw, &msg[0]), ENOENT);
	ck_assert_int_eq(set_pids_raw(&msg[0]), ENOENT);

	close(hold[1]);
	ck_assert_int_eq(waitpid(g, &st, 0), g);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(set_pids_raw(&msg[0]), ENOENT);
	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
}
END_TEST

START_TEST(recycled_pid_share)
{
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h = NULL;
	struct wl_arg a = { .kind = KIND_SHARE };

	prop = vm_phys_prop(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &prop, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT,
							 &a.share), ACL_SUCCESS);
	recycled_pid_case(&a);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
}
END_TEST

START_TEST(recycled_pid_ipc)
{
	struct wl_arg a = { .kind = KIND_IPC };
	void *p = vm_dev_alloc(64 * KiB);

	ck_assert_int_eq(aclrtIpcMemGetExportKey(p, 64 * KiB, a.ipc, sizeof(a.ipc), 0), ACL_SUCCESS);
	recycled_pid_case(&a);
	ck_assert_int_eq(aclrtIpcMemClose(a.ipc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
}
END_TEST

static Suite *hardening_suite(void)
{
	Suite *s = suite_create("hardening");
	TCase *t = tcase_create("memlock");
	TCase *o = tcase_create("object_cap");
	TCase *w = tcase_create("whitelist");

	tcase_add_checked_fixture(t, vm_mod_setup, NULL);
	tcase_set_timeout(t, VM_TIMEOUT);
	tcase_add_test(t, host_memory_counts_against_memlock);
	tcase_add_test(t, host_import_counts_for_importer);
	tcase_add_test(t, cap_ipc_lock_exempt);
	tcase_add_test(t, kernel_objects_and_host_pages_charged_to_memcg);
	tcase_add_test(t, readonly_registration_leaves_file_clean);
	suite_add_tcase(s, t);

	tcase_add_checked_fixture(o, vm_mod_setup, NULL);
	tcase_set_timeout(o, VM_TIMEOUT);
	tcase_add_test(o, objects_per_context_capped);
	tcase_add_test(o, objects_cap_not_held_by_idle_pages);
	tcase_add_test(o, objects_cap_bad_values);
	tcase_add_test(o, retain_bounded);
	suite_add_tcase(s, o);

	tcase_add_checked_fixture(w, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(w, VM_TIMEOUT);
	tcase_add_test(w, recycled_pid_share);
	tcase_add_test(w, recycled_pid_ipc);
	tcase_add_test(w, set_pids_bound_to_exporter);
	suite_add_tcase(s, w);
	return s;
}

int main(void)
{
	return vm_run_suite(hardening_suite());
}
