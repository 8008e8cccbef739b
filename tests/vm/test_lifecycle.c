// SPDX-License-Identifier: GPL-2.0
/*
 * Processes and the module's lifetime: aclrtGetMemInfo is device-wide across
 * two processes, a process killed with SIGKILL (or exiting without freeing)
 * leaves nothing behind, rmmod is refused while a device is open or mapped
 * and works afterwards, and in strict mode a host dereference of device
 * memory gets SIGSEGV and is counted (host_access=1 maps it instead).
 */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define POLICY(x) ((aclrtMemMallocPolicy)(x))

/* Commands to a holder child. */
enum { CMD_FREE = 1, CMD_MEMINFO = 2, CMD_EXIT = 3 };

struct hold_arg {
	size_t size;
	uint32_t policy;
};

/*
 * A second process: its own aclInit/aclrtSetDevice, one allocation, then
 * serves commands.  Exit status = number of the failed step.
 */
static int child_hold(void *argp, int cmd, int rep)
{
	struct hold_arg *a = argp;
	unsigned char buf[256];
	void *p = NULL;
	uint64_t c;

	if (aclInit(NULL) != ACL_SUCCESS)
		return 1;
	if (aclrtSetDevice(0) != ACL_SUCCESS)
		return 2;
	if (aclrtMalloc(&p, a->size, POLICY(a->policy)) != ACL_SUCCESS)
		return 3;
	vm_fill(buf, sizeof(buf), 3);
	if (aclrtMemcpy(p, a->size, buf, sizeof(buf), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
		return 4;
	if (vm_put(rep, (uintptr_t)p))
		return 5;
	for (;;) {
		if (vm_get(cmd, &c))
			return 6;
		if (c == CMD_FREE) {
			if (aclrtFree(p) != ACL_SUCCESS)
				return 7;
			if (vm_put(rep, 0))
				return 8;
		} else if (c == CMD_MEMINFO) {
			size_t f = 0, t = 0;

			if (aclrtGetMemInfo(ACL_HBM_MEM, &f, &t) != ACL_SUCCESS)
				return 9;
			if (vm_put(rep, f) || vm_put(rep, t))
				return 10;
		} else if (c == CMD_EXIT) {
			break;
		} else {
			return 11;
		}
	}
	if (aclrtResetDevice(0) != ACL_SUCCESS)
		return 12;
	if (aclFinalize() != ACL_SUCCESS)
		return 13;
	return 0;
}

/* aclrtGetMemInfo is device-wide: each of two processes sees the other. */
START_TEST(test_meminfo_two_processes)
{
	struct hold_arg arg = { MiB, ACL_MEM_MALLOC_NORMAL_ONLY };
	const uint64_t cc = MiB + 4096;		/* the child's charge */
	const uint64_t pc = 64 * KiB + 4096;	/* ours */
	struct vm_child ch;
	struct vm_alloc al;
	size_t f, t;
	void *p = NULL;
	uint64_t cp, cf, ct;

	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	vm_child_start(&ch, child_hold, &arg);
	cp = vm_child_get(&ch);
	ck_assert(vm_dbg_alloc_find(0, cp, &al));
	ck_assert_int_eq(al.pid, ch.pid);
	ck_assert_uint_eq(al.charged, cc);

	/* this process opens the device only now */
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(t, VM_DEFAULT_HBM_BYTES);
	ck_assert_uint_eq(f, VM_DEFAULT_HBM_BYTES - cc);

	ck_assert_int_eq(aclrtMalloc(&p, 64 * KiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, VM_DEFAULT_HBM_BYTES - cc - pc);
	/* and the child sees ours */
	vm_child_put(&ch, CMD_MEMINFO);
	cf = vm_child_get(&ch);
	ct = vm_child_get(&ch);
	ck_assert_uint_eq(ct, VM_DEFAULT_HBM_BYTES);
	ck_assert_uint_eq(cf, VM_DEFAULT_HBM_BYTES - cc - pc);
	ck_assert_int_eq(vm_dbg_contexts(0), 2);

	/* the other device is not touched */
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, VM_DEFAULT_HBM_BYTES);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);

	/* the child frees: its charge comes back for both */
	vm_child_put(&ch, CMD_FREE);
	ck_assert_uint_eq(vm_child_get(&ch), 0);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, VM_DEFAULT_HBM_BYTES - pc);
	vm_child_put(&ch, CMD_MEMINFO);
	cf = vm_child_get(&ch);
	ct = vm_child_get(&ch);
	ck_assert_uint_eq(cf, VM_DEFAULT_HBM_BYTES - pc);
	vm_child_put(&ch, CMD_EXIT);
	vm_child_wait_ok(&ch);

	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, VM_DEFAULT_HBM_BYTES);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_contexts(0), 0);
}
END_TEST

/* A process with allocations on both devices; waits to be killed or told. */
static int child_many(void *argp, int cmd, int rep)
{
	void *p;
	uint64_t c;
	int i;

	(void)argp;
	if (aclInit(NULL) != ACL_SUCCESS)
		return 1;
	if (aclrtSetDevice(1) != ACL_SUCCESS)
		return 2;
	if (aclrtMalloc(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
		return 3;
	if (aclrtSetDevice(0) != ACL_SUCCESS)
		return 4;
	if (aclrtMalloc(&p, 3 * MiB, ACL_MEM_MALLOC_HUGE_ONLY) != ACL_SUCCESS)
		return 5;
	if (aclrtMemset(p, 3 * MiB, 0x3c, 3 * MiB) != ACL_SUCCESS)
		return 6;
	for (i = 0; i < 10; i++)
		if (aclrtMalloc(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
			return 7;
	if (aclrtMalloc(&p, 1, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
		return 8;
	if (vm_put(rep, 1))
		return 9;
	/* no free, no finalize: the exit (or SIGKILL) must clean up */
	if (vm_get(cmd, &c))
		return 10;
	return 0;
}

static void assert_device_clean(long long hp2m_base)
{
	int i;

	/* release runs before the parent can reap the child; allow a moment */
	for (i = 0; i < 100 && vm_dbg_info(0, "used_bytes") != 0; i++)
		usleep(20000);
	ck_assert_int_eq(vm_hp2m_free(), hp2m_base);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "hugetlb_2m_pages"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "contexts"), 0);
	ck_assert_int_eq(vm_dbg_allocs(0, NULL), 0);
	ck_assert_int_eq(vm_dbg_contexts(0), 0);
	ck_assert_int_eq(vm_dbg_info(1, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_allocs(1, NULL), 0);
	ck_assert_int_eq(vm_dbg_contexts(1), 0);
	ck_assert_int_eq(vm_sysfs(0, "used_bytes"), 0);
}

static void many_then(int kill_it)
{
	struct vm_child ch;
	int st;

	vm_set_hp2m_pool(8);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	vm_child_start(&ch, child_many, NULL);
	ck_assert_uint_eq(vm_child_get(&ch), 1);

	ck_assert_int_eq(vm_hp2m_free(), 6);
	/* the 100 B allocations share one page (192 B slots), the 1 B one another */
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 4 * MiB + 2 * 4096);
	ck_assert_int_eq(vm_dbg_info(0, "hugetlb_2m_pages"), 2);
	ck_assert_int_eq(vm_dbg_allocs_of(0, ch.pid), 12);
	ck_assert_int_eq(vm_dbg_contexts(0), 1);
	ck_assert_int_eq(vm_dbg_info(1, "used_bytes"), 4096);
	ck_assert_int_eq(vm_dbg_allocs_of(1, ch.pid), 1);

	if (kill_it) {
		ck_assert_int_eq(kill(ch.pid, SIGKILL), 0);
		st = vm_child_wait(&ch);
		ck_assert(WIFSIGNALED(st));
		ck_assert_int_eq(WTERMSIG(st), SIGKILL);
	} else {
		vm_child_put(&ch, CMD_EXIT);
		vm_child_wait_ok(&ch);
	}
	assert_device_clean(8);

	/* no reference is left behind: the module unloads */
	ck_assert_int_eq(vm_mod_try_unload(), 0);
	ck_assert_int_eq(vm_hp2m_free(), 8);
	vm_mod_load("");
}

START_TEST(test_kill9_cleanup)
{
	many_then(1);
}
END_TEST

START_TEST(test_exit_without_free)
{
	many_then(0);
}
END_TEST

/*
 * The owner's memory goes when the owner goes, even while a forked child
 * still holds the file (the child has no window and cannot use it).  The
 * owner: a child of the test that allocates 64 MiB through raw ioctls and
 * forks a grandchild holding the fd, then exits.
 */
static int owner_with_fork(void *arg, int cmd, int rep)
{
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	struct npu_sim_mem_alloc a = {
		.size = 64 * MiB, .footprint = 64 * MiB,
		.backing = NPU_SIM_BACKING_NORMAL, .api = NPU_SIM_API_MALLOC,
	};
	int fd = open("/dev/npu_sim0", O_RDWR);
	pid_t holder;
	uint64_t v;

	(void)arg;
	if (fd < 0 || ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp) ||
	    mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED ||
	    ioctl(fd, NPU_SIM_IOCTL_MEM_ALLOC, &a))
		return 1;
	holder = fork();
	if (holder < 0)
		return 2;
	if (holder == 0) {
		/* Keeps the fd until the test says so; cannot use it. */
		struct npu_sim_mem_free f = { .va = a.va };

		if (ioctl(fd, NPU_SIM_IOCTL_MEM_FREE, &f) == 0 || errno != EACCES)
			_exit(3);
		vm_put(rep, (uint64_t)getpid());
		vm_get(cmd, &v);
		_exit(0);
	}
	return 0;
}

START_TEST(test_owner_exit_with_forked_holder)
{
	long long used0 = vm_dbg_info(0, "used_bytes");
	long long allocs0 = vm_dbg_info(0, "allocations");
	struct vm_child c;
	pid_t holder;
	int st;

	vm_child_start(&c, owner_with_fork, NULL);
	holder = (pid_t)vm_child_get(&c);		/* checked EACCES */
	ck_assert_int_gt(holder, 1);
	/* The owner exited; the pipes stay open so the holder stays. */
	ck_assert_int_eq(waitpid(c.pid, &st, 0), c.pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), allocs0);
	ck_assert_int_eq(vm_dbg_contexts(0), 1);	/* the holder's file */
	close(c.cmd);					/* let the holder go */
	close(c.rep);
	for (int i = 0; i < 500 && vm_dbg_contexts(0) != 0; i++)
		usleep(10000);
	ck_assert_int_eq(vm_dbg_contexts(0), 0);
}
END_TEST

/*
 * munmap of the window while another thread of the process allocates and
 * frees through the same file: its memory goes with the window, nothing is
 * freed twice (the guest's kernel log is checked for warnings), and the
 * device is back at its baseline once the file is closed.
 */
static uint64_t get_param(int fd, uint32_t param);

struct churn {
	int fd;
	volatile int stop;
	volatile long calls;
};

static void *churn_thread(void *arg)
{
	struct churn *c = arg;

	while (!c->stop) {
		struct npu_sim_mem_alloc a = {
			.size = 8192, .footprint = 8192,
			.backing = NPU_SIM_BACKING_NORMAL, .api = NPU_SIM_API_MALLOC,
		};
		struct npu_sim_mem_free f = { 0 };

		if (ioctl(c->fd, NPU_SIM_IOCTL_MEM_ALLOC, &a) == 0) {
			f.va = a.va;
			ioctl(c->fd, NPU_SIM_IOCTL_MEM_FREE, &f);	/* may race the unmap */
		}
		c->calls++;
	}
	return NULL;
}

START_TEST(test_window_close_races_ioctls)
{
	long long used0 = vm_dbg_info(0, "used_bytes");
	long long allocs0 = vm_dbg_info(0, "allocations");

	for (int round = 0; round < 20; round++) {
		struct churn c = { .fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC) };
		uint64_t wsize;
		pthread_t t;
		void *win;

		ck_assert_int_ge(c.fd, 0);
		wsize = get_param(c.fd, NPU_SIM_PARAM_VA_WINDOW_SIZE);
		win = mmap(NULL, wsize, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 0);
		ck_assert(win != MAP_FAILED);
		for (int i = 0; i < 64; i++) {		/* some left live */
			struct npu_sim_mem_alloc a = {
				.size = 4096, .footprint = 4096,
				.backing = NPU_SIM_BACKING_NORMAL, .api = NPU_SIM_API_MALLOC,
			};

			ck_assert_int_eq(ioctl(c.fd, NPU_SIM_IOCTL_MEM_ALLOC, &a), 0);
		}
		ck_assert_int_eq(pthread_create(&t, NULL, churn_thread, &c), 0);
		/* the churn must be under way when the window goes, however
		 * busy the host: wait for its first call, then vary the moment */
		while (__atomic_load_n(&c.calls, __ATOMIC_RELAXED) == 0)
			sched_yield();
		usleep(1000 * (round % 5));
		ck_assert_int_eq(munmap(win, wsize), 0);
		/* The window is gone: the context holds nothing any more. */
		c.stop = 1;
		ck_assert_int_eq(pthread_join(t, NULL), 0);
		ck_assert_int_gt(c.calls, 0);
		ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
		ck_assert_int_eq(vm_dbg_info(0, "allocations"), allocs0);
		close(c.fd);
	}
	ck_assert_int_eq(vm_dbg_contexts(0), 0);
}
END_TEST

/* Exit status of "rmmod npu_sim" run through the shell. */
static int rmmod_cmd(void)
{
	int st = system("rmmod npu_sim 2>/dev/null");

	ck_assert_msg(st != -1 && WIFEXITED(st), "cannot run rmmod");
	return WEXITSTATUS(st);
}

static uint64_t get_param(int fd, uint32_t param)
{
	struct npu_sim_get_param gp = { .param = param };

	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp), 0);
	return gp.value;
}

/* rmmod is refused while a device is open or its window mapped. */
START_TEST(test_rmmod_busy_raw)
{
	int fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);
	uint64_t wsize;
	void *win;

	ck_assert_msg(fd >= 0, "open /dev/npu_sim0: %s", strerror(errno));
	ck_assert_int_eq(vm_mod_try_unload(), EWOULDBLOCK);
	ck_assert_int_ne(rmmod_cmd(), 0);
	ck_assert(vm_mod_loaded());

	wsize = get_param(fd, NPU_SIM_PARAM_VA_WINDOW_SIZE);
	win = mmap(NULL, wsize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert_msg(win != MAP_FAILED, "mmap window: %s", strerror(errno));
	close(fd);
	/* the mapping alone keeps the device busy */
	ck_assert_int_eq(vm_mod_try_unload(), EWOULDBLOCK);
	ck_assert_int_ne(rmmod_cmd(), 0);
	ck_assert(vm_mod_loaded());
	ck_assert(vm_exists("/dev/npu_sim0"));

	ck_assert_int_eq(munmap(win, wsize), 0);
	ck_assert_int_eq(rmmod_cmd(), 0);
	ck_assert(!vm_mod_loaded());
	ck_assert(!vm_exists("/dev/npu_sim0"));
	ck_assert(!vm_exists("/sys/kernel/debug/npu_sim"));

	/* the second device too */
	vm_mod_load("");
	fd = open("/dev/npu_sim1", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(vm_mod_try_unload(), EWOULDBLOCK);
	close(fd);
	ck_assert_int_eq(vm_mod_try_unload(), 0);
	vm_mod_load("");
	ck_assert_int_eq(vm_dbg_stat(0, "calls_alloc"), 0);
}
END_TEST

/* Through the runtime: busy from aclrtSetDevice until aclFinalize. */
START_TEST(test_rmmod_busy_acl)
{
	void *p = NULL;

	vm_set_hp2m_pool(2);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&p, MiB * 2, ACL_MEM_MALLOC_HUGE_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(vm_mod_try_unload(), EWOULDBLOCK);
	ck_assert_int_ne(rmmod_cmd(), 0);
	ck_assert(vm_mod_loaded());
	ck_assert_int_eq(vm_hp2m_free(), 0);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ck_assert_int_eq(rmmod_cmd(), 0);
	ck_assert(!vm_mod_loaded());
	ck_assert_int_eq(vm_hp2m_free(), 2);
	vm_mod_load("");
}
END_TEST

struct fault_arg {
	uint32_t policy;
	size_t size;
	int write;
	int host_access;	/* expect the access to work */
	int try_mprotect;	/* first try to make the page writable */
};

/*
 * Allocates, fills through the API, reports the pointer, waits for a
 * command, then dereferences the device pointer from the host.
 */
static int child_touch(void *argp, int cmd, int rep)
{
	struct fault_arg *a = argp;
	volatile unsigned char *v;
	unsigned char buf[64];
	void *p = NULL;
	uint64_t c;

	if (aclInit(NULL) != ACL_SUCCESS)
		return 1;
	if (aclrtSetDevice(0) != ACL_SUCCESS)
		return 2;
	if (aclrtMalloc(&p, a->size, POLICY(a->policy)) != ACL_SUCCESS)
		return 3;
	if (aclrtMemset(p, a->size, 0x5a, a->size) != ACL_SUCCESS)
		return 4;
	if (vm_put(rep, (uintptr_t)p))
		return 5;
	if (vm_get(cmd, &c))
		return 6;
	v = p;
	if (a->try_mprotect) {
		uintptr_t pg = (uintptr_t)p & ~(uintptr_t)4095;

		/*
		 * Read-only memory cannot be made writable: whatever mprotect
		 * answers (the window is mapped read-write, so asking for
		 * read-write may be a no-op), the write below must fault.
		 */
		(void)mprotect((void *)pg, 4096, PROT_READ | PROT_WRITE);
	}
	if (a->write) {
		v[a->size - 1] = 0xa5;
		v[0] = 0xa6;
	} else if (v[0] != 0x5a || v[a->size - 1] != 0x5a) {
		return 7;
	}
	if (!a->host_access)
		return 8;	/* strict mode: must not get here */
	if (a->write) {
		/* the driver's copy sees what the host wrote */
		if (aclrtMemcpy(buf, 1, (char *)p + a->size - 1, 1, ACL_MEMCPY_DEVICE_TO_HOST) != 0)
			return 9;
		if (buf[0] != 0xa5)
			return 10;
		if (aclrtMemcpy(buf, 1, p, 1, ACL_MEMCPY_DEVICE_TO_HOST) != 0 || buf[0] != 0xa6)
			return 11;
	}
	/* a second command: touch again (after host access was switched off) */
	if (vm_put(rep, 2))
		return 12;
	if (vm_get(cmd, &c))
		return 13;
	if (c == 1)
		(void)v[1];
	return 0;
}

static void strict_fault(uint32_t policy, size_t size, int write)
{
	struct fault_arg a = { policy, size, write, 0, 0 };
	struct vm_child ch;
	long long f0 = vm_dbg_stat(0, "host_access_faults");
	uint64_t p;
	int st;

	vm_child_start(&ch, child_touch, &a);
	p = vm_child_get(&ch);
	ck_assert(vm_dbg_alloc_find(0, p, NULL));
	ck_assert_int_eq(vm_dbg_stat(0, "host_access_faults"), f0);
	vm_child_put(&ch, 1);
	st = vm_child_wait(&ch);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
		      "host %s of a device pointer: %s %d, expected SIGSEGV",
		      write ? "write" : "read", WIFSIGNALED(st) ? "signal" : "exit status",
		      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	ck_assert_int_eq(vm_dbg_stat(0, "host_access_faults"), f0 + 1);
	assert_device_clean(vm_hp2m_total());
}

START_TEST(test_strict_fault_read)
{
	strict_fault(ACL_MEM_MALLOC_NORMAL_ONLY, 4096, 0);
}
END_TEST

START_TEST(test_strict_fault_write)
{
	strict_fault(ACL_MEM_MALLOC_NORMAL_ONLY, 100, 1);
}
END_TEST

START_TEST(test_strict_fault_huge)
{
	vm_set_hp2m_pool(2);
	strict_fault(ACL_MEM_MALLOC_HUGE_ONLY, 2 * MiB - 32, 0);
}
END_TEST

/* host_access=1: the host reads and writes device memory; RO stays RO. */
START_TEST(test_host_access_mode)
{
	struct fault_arg rw = { ACL_MEM_MALLOC_NORMAL_ONLY, 8192, 1, 1, 0 };
	struct fault_arg huge = { ACL_MEM_MALLOC_HUGE_ONLY, 2 * MiB - 32, 1, 1, 0 };
	/* READONLY alone: a single item, HUGE_FIRST, normal pages at this size */
	struct fault_arg ro_read = { ACL_MEM_ACCESS_USER_SPACE_READONLY, 4096, 0, 1, 0 };
	struct fault_arg ro_write = { ACL_MEM_ACCESS_USER_SPACE_READONLY, 4096, 1, 1, 1 };
	struct fault_arg *ok[] = { &rw, &huge, &ro_read };
	struct vm_child ch;
	long long f0;
	size_t i;
	int st;

	vm_set_hp2m_pool(2);
	ck_assert_int_eq(vm_write_str("/sys/class/npu_sim/npu_sim0/host_access", "1"), 0);
	ck_assert_int_eq(vm_sysfs(0, "host_access"), 1);
	ck_assert_int_eq(vm_dbg_info(0, "host_access"), 1);
	f0 = vm_dbg_stat(0, "host_access_faults");

	for (i = 0; i < 3; i++) {
		vm_child_start(&ch, child_touch, ok[i]);
		vm_child_get(&ch);
		vm_child_put(&ch, 1);
		ck_assert_uint_eq(vm_child_get(&ch), 2);
		vm_child_put(&ch, 0);
		vm_child_wait_ok(&ch);
	}
	ck_assert_int_eq(vm_dbg_stat(0, "host_access_faults"), f0);

	/* read-only memory cannot be made writable nor written by the host */
	vm_child_start(&ch, child_touch, &ro_write);
	vm_child_get(&ch);
	vm_child_put(&ch, 1);
	st = vm_child_wait(&ch);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
		      "host write of read-only memory: %s %d, expected SIGSEGV",
		      WIFSIGNALED(st) ? "signal" : "exit status",
		      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));

	/* switching host access off unmaps what the host had mapped */
	vm_child_start(&ch, child_touch, &rw);
	vm_child_get(&ch);
	vm_child_put(&ch, 1);
	ck_assert_uint_eq(vm_child_get(&ch), 2);
	ck_assert_int_eq(vm_write_str("/sys/class/npu_sim/npu_sim0/host_access", "0"), 0);
	ck_assert_int_eq(vm_sysfs(0, "host_access"), 0);
	f0 = vm_dbg_stat(0, "host_access_faults");
	vm_child_put(&ch, 1);
	st = vm_child_wait(&ch);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
		      "touch after host_access=0: %s %d, expected SIGSEGV",
		      WIFSIGNALED(st) ? "signal" : "exit status",
		      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	ck_assert_int_eq(vm_dbg_stat(0, "host_access_faults"), f0 + 1);
	assert_device_clean(2);
}
END_TEST

static void lifecycle_teardown(void)
{
	/* leave the module as the next test expects it */
	if (vm_mod_loaded())
		vm_write_str("/sys/class/npu_sim/npu_sim0/host_access", "0");
}

static Suite *lifecycle_suite(void)
{
	Suite *s = suite_create("lifecycle");
	TCase *tc;

	tc = tcase_create("processes");
	tcase_add_checked_fixture(tc, vm_mod_setup, NULL);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_meminfo_two_processes);
	tcase_add_test(tc, test_kill9_cleanup);
	tcase_add_test(tc, test_exit_without_free);
	tcase_add_test(tc, test_owner_exit_with_forked_holder);
	tcase_add_test(tc, test_window_close_races_ioctls);
	suite_add_tcase(s, tc);

	tc = tcase_create("rmmod");
	tcase_add_checked_fixture(tc, vm_mod_setup, NULL);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_rmmod_busy_raw);
	tcase_add_test(tc, test_rmmod_busy_acl);
	suite_add_tcase(s, tc);

	tc = tcase_create("host_access");
	tcase_add_checked_fixture(tc, vm_mod_setup, lifecycle_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_strict_fault_read);
	tcase_add_test(tc, test_strict_fault_write);
	tcase_add_test(tc, test_strict_fault_huge);
	tcase_add_test(tc, test_host_access_mode);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(lifecycle_suite());
}
