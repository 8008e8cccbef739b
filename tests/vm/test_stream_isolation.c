// SPDX-License-Identifier: GPL-2.0
/*
 * Streams no user can stall, leak or make unkillable (issue 22, items 2-3),
 * and the context lifecycle (issue 21): raw driver ioctls, no library.
 *
 * - The reference cycle: one process, two files (one device twice, or two
 *   devices with peer access), on each a never-met VALUE_WAIT followed by a
 *   D2D copy into the other file's window; at exit (or SIGKILL) used_bytes
 *   and the context count go back to their starting values and rmmod works.
 * - The owner gone: a forked child keeps the file open after its owner
 *   exits; the owner's queued work is cancelled and its memory freed while
 *   the child lives (also when the window was never mapped: a physical
 *   handle), the context goes when the child closes it.
 * - Isolation: 300 streams of user nobody blocked in VALUE_WAIT do not keep
 *   another user's copy from completing, and a SIGKILLed process of another
 *   user waiting in a stream destroy is reaped.
 *
 * State is polled (debugfs counters, /proc) with a generous bound; nothing
 * asserts a duration.
 */
#include "vmtest.h"
#include "../npu_raw_stream.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <misc/npu_sim.h>

#define STREAMS_PATH	"/sys/kernel/debug/npu_sim/npu_sim0/streams"
#define NOBODY		65534
#define BLOCKED		300
/* Polling bound for state changes: 60 s in 10 ms steps (TCG is slow). */
#define POLL_STEPS	6000

/* ---- raw helpers usable in children (no ck_assert) --------------------- */

/* Opens /dev/npu_sim<dev> and maps its window: the fd or -1. */
static int raw_open(int dev)
{
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	char path[64];
	int fd;

	snprintf(path, sizeof(path), NPU_SIM_DEV_PREFIX "%d", dev);
	fd = open(path, O_RDWR);
	if (fd < 0 || ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp) ||
	    mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) ==
	    MAP_FAILED)
		return -1;
	return fd;
}

/* ---- parent-side polling ------------------------------------------------ */

/* Polls until device @dev's used_bytes and contexts are @used and @nctx. */
static void wait_dev_state(int dev, long long used, long long nctx)
{
	long long u = -1, c = -1;

	for (int i = 0; i < POLL_STEPS; i++) {
		u = vm_dbg_info(dev, "used_bytes");
		c = vm_dbg_info(dev, "contexts");
		if (u == used && c == nctx)
			break;
		usleep(10000);
	}
	ck_assert_int_eq(u, used);
	ck_assert_int_eq(c, nctx);
}

/* Polls until @pid (not our child) is gone. */
static void wait_gone(pid_t pid)
{
	int i;

	for (i = 0; i < POLL_STEPS && kill(pid, 0) == 0; i++)
		usleep(10000);
	ck_assert_int_eq(kill(pid, 0), -1);
}

/* Waits for our child @pid to die; returns its status (asserted reaped). */
static int reap(pid_t pid)
{
	pid_t r = 0;
	int st = 0;

	for (int i = 0; i < POLL_STEPS && r == 0; i++) {
		r = waitpid(pid, &st, WNOHANG);
		if (r == 0)
			usleep(10000);
	}
	ck_assert_int_eq(r, pid);
	return st;
}

/* Polls until @pid sleeps (state S, or D: killable, in /proc/PID/stat). */
static void wait_sleeping(pid_t pid)
{
	char path[64], buf[256], *p = NULL;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < POLL_STEPS; i++) {
		FILE *f = fopen(path, "r");

		p = NULL;
		if (f && fgets(buf, sizeof(buf), f))
			p = strrchr(buf, ')');
		if (f)
			fclose(f);
		if (p && p[1] == ' ' && (p[2] == 'S' || p[2] == 'D'))
			break;
		usleep(10000);
	}
	ck_assert_msg(p && (p[2] == 'S' || p[2] == 'D'), "pid %d never slept", (int)pid);
}

/*
 * Streams of @pid in debugfs streams, and how many of them have exactly
 * @queued ops queued (-1: any).
 */
static int streams_of(pid_t pid, long long queued)
{
	char line[256];
	int n = 0;
	FILE *f = fopen(STREAMS_PATH, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));	/* header */
	while (fgets(line, sizeof(line), f)) {
		int p;
		unsigned int cid, sid, prio;
		unsigned long long sub, done, q;

		ck_assert_int_eq(sscanf(line, "%d %u %u %u %llu %llu %llu", &p,
					&cid, &sid, &prio, &sub, &done, &q), 7);
		if (p == pid && (queued < 0 || q == (unsigned long long)queued))
			n++;
	}
	fclose(f);
	return n;
}

static void setup(void)
{
	vm_mod_ensure_default();
	ck_assert_int_eq(vm_write_str("/sys/kernel/debug/npu_sim/npu_sim0/stream_hold",
				      "0"), 0);
}

/* ---- the reference cycle ------------------------------------------------ */

/*
 * Two files (devices 0 and @arg's device), 1 MiB each; on each a VALUE_WAIT
 * that is never met, then a D2D copy into the other file's window.
 */
static int cycle_child(void *arg, int cmd, int rep)
{
	int dev_b = *(int *)arg;
	struct npu_sim_peer_access pa = { .op = NPU_SIM_PEER_ENABLE };
	struct npu_sim_peer_access pb = { .op = NPU_SIM_PEER_ENABLE };
	uint64_t va[2], c;
	uint32_t sid[2];
	int fd[2];

	fd[0] = raw_open(0);
	fd[1] = raw_open(dev_b);
	if (fd[0] < 0 || fd[1] < 0)
		return 1;
	if (dev_b) {
		pa.peer = dev_b;
		if (ioctl(fd[0], NPU_SIM_IOCTL_PEER_ACCESS, &pa))
			return 2;
		if (ioctl(fd[1], NPU_SIM_IOCTL_PEER_ACCESS, &pb))
			return 3;
	}
	for (int i = 0; i < 2; i++)
		if (raw_alloc(fd[i], MiB, &va[i]) || raw_stream(fd[i], &sid[i]))
			return 4;
	for (int i = 0; i < 2; i++)
		if (raw_value_wait(fd[i], sid[i], va[i], 1) ||
		    raw_copy(fd[i], sid[i], NPU_SIM_COPY_D2D, va[!i], va[i],
			     4096))
			return 5;
	if (vm_put(rep, 1) || vm_get(cmd, &c))
		return 6;
	_exit(0);	/* no close, no destroy: exit does it */
}

START_TEST(test_reference_cycle)
{
	/* _i: 0 one device twice, 1 exit, 2 two devices with peer access. */
	int dev_b = _i == 2 ? 1 : 0, kill9 = _i == 1;
	long long used0 = vm_dbg_info(0, "used_bytes");
	long long used1 = vm_dbg_info(1, "used_bytes");
	long long ctx0 = vm_dbg_info(0, "contexts");
	long long ctx1 = vm_dbg_info(1, "contexts");
	struct vm_child c;
	int st;

	vm_child_start(&c, cycle_child, &dev_b);
	ck_assert_uint_eq(vm_child_get(&c), 1);
	if (dev_b) {
		ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + MiB);
		ck_assert_int_eq(vm_dbg_info(1, "used_bytes"), used1 + MiB);
		ck_assert_int_eq(vm_dbg_info(1, "contexts"), ctx1 + 1);
	} else {
		ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + 2 * MiB);
		ck_assert_int_eq(vm_dbg_info(0, "contexts"), ctx0 + 2);
	}
	if (kill9) {
		ck_assert_int_eq(kill(c.pid, SIGKILL), 0);
		st = reap(c.pid);
		ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
		close(c.cmd);
		close(c.rep);
	} else {
		vm_child_put(&c, 1);
		vm_child_wait_ok(&c);
	}
	wait_dev_state(0, used0, ctx0);
	wait_dev_state(1, used1, ctx1);
	ck_assert_int_eq(streams_of(c.pid, -1), 0);
	/* Nothing pins the module. */
	ck_assert_int_eq(vm_mod_try_unload(), 0);
	vm_mod_load("");
}
END_TEST

/* ---- the owner gone, a forked child holding the file ------------------- */

/*
 * The owner: with its window mapped (*@arg), 1 MiB, a never-met VALUE_WAIT
 * and a copy behind it queued; without, a 2 MiB physical handle.  A forked
 * child keeps the file and waits for the test's word on @cmd; the owner
 * reports the child's pid and exits.
 */
static int owner_child(void *arg, int cmd, int rep)
{
	static char host[4096];
	struct npu_sim_phys_alloc pa = {
		.size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL,
		.location = NPU_SIM_LOC_DEVICE,
	};
	uint64_t va, c;
	uint32_t sid;
	pid_t kid;
	int fd;

	if (*(int *)arg) {
		fd = raw_open(0);
		if (fd < 0 || raw_alloc(fd, MiB, &va) || raw_stream(fd, &sid) ||
		    raw_value_wait(fd, sid, va, 1) ||
		    raw_copy(fd, sid, NPU_SIM_COPY_H2D, va, (uint64_t)host,
			     4096))
			return 1;
	} else {
		fd = open(NPU_SIM_DEV_PREFIX "0", O_RDWR);
		if (fd < 0 || ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &pa))
			return 1;
	}
	kid = fork();
	if (kid < 0)
		return 2;
	if (kid == 0) {
		/* The fd stays open here until the word comes. */
		vm_get(cmd, &c);
		_exit(0);
	}
	if (vm_put(rep, (uint64_t)kid))
		return 3;
	_exit(0);
}

START_TEST(test_owner_gone_forked_child)
{
	long long used0 = vm_dbg_info(0, "used_bytes");
	long long ctx0 = vm_dbg_info(0, "contexts");
	int mapped = _i;	/* 0: the window never mapped */
	struct vm_child c;
	pid_t kid;
	int st;

	vm_child_start(&c, owner_child, &mapped);
	kid = (pid_t)vm_child_get(&c);
	st = reap(c.pid);		/* the owner exited; c.cmd stays open */
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(kill(kid, 0), 0);
	/* Its memory is gone, its work cancelled; the file still lives. */
	wait_dev_state(0, used0, ctx0 + 1);
	ck_assert_int_eq(streams_of(c.pid, -1), mapped);
	ck_assert_int_eq(streams_of(c.pid, 0), mapped);
	vm_child_put(&c, 1);
	close(c.cmd);
	close(c.rep);
	wait_gone(kid);
	wait_dev_state(0, used0, ctx0);
	ck_assert_int_eq(streams_of(c.pid, -1), 0);
}
END_TEST

/* ---- isolation of users ------------------------------------------------- */

/* As user nobody: BLOCKED streams, each in a VALUE_WAIT never met. */
static int nobody_child(void *arg, int cmd, int rep)
{
	uint64_t va, c;
	uint32_t sid;
	int fd;

	(void)arg;
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return 1;
	fd = raw_open(0);
	if (fd < 0 || raw_alloc(fd, 4096, &va))
		return 2;
	for (int i = 0; i < BLOCKED; i++)
		if (raw_stream(fd, &sid) || raw_value_wait(fd, sid, va, 1))
			return 3;
	if (vm_put(rep, BLOCKED) || vm_get(cmd, &c))
		return 4;
	return 0;
}

/* As root: a 4 KiB H2D copy on a stream, synchronized with a timeout. */
static int copier_child(void *arg, int cmd, int rep)
{
	static unsigned char host[4096], back[4096];
	struct npu_sim_stream_sync sy = {
		.flags = NPU_SIM_SYNC_TIMEOUT, .timeout_ms = 120000,
	};
	struct npu_sim_memcpy mc = {
		.count = 4096, .dir = NPU_SIM_COPY_D2H, .src_fd = -1,
	};
	uint64_t va;
	uint32_t sid;
	int fd = raw_open(0);

	(void)arg;
	(void)cmd;
	vm_fill(host, sizeof(host), 22);
	if (fd < 0 || raw_alloc(fd, 4096, &va) || raw_stream(fd, &sid) ||
	    raw_copy(fd, sid, NPU_SIM_COPY_H2D, va, (uint64_t)host, 4096))
		return 1;
	sy.id = sid;
	if (ioctl(fd, NPU_SIM_IOCTL_STREAM_SYNC, &sy))
		return 2;
	if (sy.status != NPU_SIM_STATUS_COMPLETE || sy.error || sy.completed != 1)
		return 3;
	mc.dst = (uint64_t)back;
	mc.src = va;
	if (ioctl(fd, NPU_SIM_IOCTL_MEMCPY, &mc) || memcmp(host, back, 4096))
		return 4;
	return vm_put(rep, 1) ? 5 : 0;
}

/* As root: a blocked VALUE_WAIT, then a stream destroy that waits for it. */
static int victim_child(void *arg, int cmd, int rep)
{
	struct npu_sim_stream_destroy sd = { 0 };
	uint64_t va;
	uint32_t sid;
	int fd = raw_open(0);

	(void)arg;
	(void)cmd;
	if (fd < 0 || raw_alloc(fd, MiB, &va) || raw_stream(fd, &sid) ||
	    raw_value_wait(fd, sid, va, 1))
		return 1;
	if (vm_put(rep, 1))
		return 2;
	sd.id = sid;
	ioctl(fd, NPU_SIM_IOCTL_STREAM_DESTROY, &sd);	/* blocks */
	return 3;
}

START_TEST(test_nobody_cannot_stall_others)
{
	long long used0 = vm_dbg_info(0, "used_bytes");
	long long ctx0 = vm_dbg_info(0, "contexts");
	struct vm_child nb, cp, vi;
	int st;

	vm_child_start(&nb, nobody_child, NULL);
	ck_assert_uint_eq(vm_child_get(&nb), BLOCKED);
	ck_assert_int_eq(streams_of(nb.pid, 1), BLOCKED);

	/* Another user's copy completes while they block. */
	vm_child_start(&cp, copier_child, NULL);
	ck_assert_uint_eq(vm_child_get(&cp), 1);
	vm_child_wait_ok(&cp);

	/* A SIGKILLed process of another user is reaped, its memory freed. */
	vm_child_start(&vi, victim_child, NULL);
	ck_assert_uint_eq(vm_child_get(&vi), 1);
	wait_sleeping(vi.pid);
	ck_assert_int_eq(kill(vi.pid, SIGKILL), 0);
	st = reap(vi.pid);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	close(vi.cmd);
	close(vi.rep);
	wait_dev_state(0, used0 + 4096, ctx0 + 1);

	/* Still blocked, every one of them. */
	ck_assert_int_eq(streams_of(nb.pid, 1), BLOCKED);
	ck_assert_int_eq(kill(nb.pid, SIGKILL), 0);
	st = reap(nb.pid);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	close(nb.cmd);
	close(nb.rep);
	wait_dev_state(0, used0, ctx0);
	ck_assert_int_eq(streams_of(nb.pid, -1), 0);
}
END_TEST

/* ---- one running slot per user ---------------------------------------- */

static int sync_stream(int fd, uint32_t sid, struct npu_sim_stream_sync *sy)
{
	memset(sy, 0, sizeof(*sy));
	sy->id = sid;
	sy->flags = NPU_SIM_SYNC_TIMEOUT;
	sy->timeout_ms = 120000;
	return ioctl(fd, NPU_SIM_IOCTL_STREAM_SYNC, sy) ? -1 : 0;
}

/*
 * With stream_slots_per_user=1 a VALUE_WAIT that is not met parks: another
 * stream of the same user still runs its copy; a MEMCPY writing the value
 * lets the wait complete.  Bad slot counts refuse the load.
 */
START_TEST(test_parked_wait_frees_the_slot)
{
	static unsigned char host[4096];
	const uint64_t one = 1;
	struct npu_sim_memcpy mc = {
		.count = 8, .dir = NPU_SIM_COPY_H2D, .src_fd = -1,
		.src = (uintptr_t)&one,
	};
	struct npu_sim_stream_sync sy;
	uint64_t flag, buf;
	struct npu_sim_stream_sync q = { .flags = NPU_SIM_SYNC_QUERY };
	struct npu_sim_get_param ws = { .param = NPU_SIM_PARAM_VA_WINDOW_START };
	struct npu_sim_get_param wl = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	uint32_t sa, sb;
	int fd;

	ck_assert_int_eq(vm_mod_try_unload(), 0);
	ck_assert_int_eq(vm_mod_try_load("stream_slots_per_user=0"), EINVAL);
	ck_assert_int_eq(vm_mod_try_load("stream_slots_per_user=257"), EINVAL);
	vm_mod_load("stream_slots_per_user=1");
	ck_assert_int_eq(vm_read_ll("/sys/module/npu_sim/parameters/stream_slots_per_user"), 1);

	fd = raw_open(0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(raw_alloc(fd, 4096, &flag), 0);
	ck_assert_int_eq(raw_alloc(fd, 4096, &buf), 0);
	ck_assert_int_eq(raw_stream(fd, &sa), 0);
	ck_assert_int_eq(raw_stream(fd, &sb), 0);
	q.id = sa;
	ck_assert_int_eq(raw_value_wait(fd, sa, flag, 1), 0);
	vm_fill(host, sizeof(host), 7);
	ck_assert_int_eq(raw_copy(fd, sb, NPU_SIM_COPY_H2D, buf,
				  (uintptr_t)host, sizeof(host)), 0);
	ck_assert_int_eq(sync_stream(fd, sb, &sy), 0);
	ck_assert_uint_eq(sy.status, NPU_SIM_STATUS_COMPLETE);
	ck_assert_int_eq(sy.error, 0);
	ck_assert_uint_eq(sy.completed, 1);
	/* The wait is still there, parked. */
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_STREAM_SYNC, &q), 0);
	ck_assert_uint_eq(q.status, NPU_SIM_STATUS_NOT_READY);
	ck_assert_int_eq(streams_of(getpid(), 1), 1);
	/* A synchronous write meets it. */
	mc.dst = flag;
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_MEMCPY, &mc), 0);
	ck_assert_int_eq(sync_stream(fd, sa, &sy), 0);
	ck_assert_uint_eq(sy.status, NPU_SIM_STATUS_COMPLETE);
	ck_assert_int_eq(sy.error, 0);
	ck_assert_uint_eq(sy.completed, 1);
	ck_assert_int_eq(streams_of(getpid(), 0), 2);
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &ws), 0);
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &wl), 0);
	ck_assert_int_eq(munmap((void *)(uintptr_t)ws.value, wl.value), 0);
	close(fd);
	ck_assert_int_eq(vm_mod_try_unload(), 0);
	vm_mod_load("");
}
END_TEST

/* ---- stream work charged to the queuing process's memcg ----------------- */

#define CG_ROOT	"/sys/fs/cgroup"
#define CG_TEST	CG_ROOT "/npu_stream_memcg"

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ok = f && fputs(s, f) >= 0;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

/* Prefetch of @len bytes of managed memory to the device; the stream's error. */
static int prefetch_error(int fd, uint32_t sid, uint64_t va, uint64_t len, int *err)
{
	struct npu_sim_stream_submit sb = {
		.stream = sid, .op = NPU_SIM_OP_PREFETCH, .dst = va,
		.width = len, .location = NPU_SIM_MLOC_DEVICE,
	};
	struct npu_sim_stream_sync sy = {
		.id = sid, .flags = NPU_SIM_SYNC_TIMEOUT, .timeout_ms = 120000,
	};

	if (ioctl(fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb) ||
	    ioctl(fd, NPU_SIM_IOCTL_STREAM_SYNC, &sy) ||
	    sy.status != NPU_SIM_STATUS_COMPLETE)
		return -1;
	*err = sy.error;
	return 0;
}

#define MEMCG_BLOCKS 512

/*
 * In cgroup CG_TEST: MEMCG_BLOCKS 2 MiB blocks of managed memory, then a
 * prefetch of them all to the device.  The stream worker makes each
 * block's device copy (a kernel object; it shares the host pages), which
 * must be charged to this memcg, not to the worker's: reports the stream's
 * error and the growth of the memcg's unreclaimable slab across the
 * prefetch.
 */
static int memcg_child(void *arg, int cmd, int rep)
{
	struct npu_sim_managed_alloc ma = { .size = MEMCG_BLOCKS * 2 * MiB };
	long long s0, s1;
	uint64_t w;
	uint32_t sid;
	int fd, err = 1;

	(void)arg;
	if (vm_get(cmd, &w))		/* moved into CG_TEST */
		return 1;
	fd = raw_open(0);
	if (fd < 0 || ioctl(fd, NPU_SIM_IOCTL_MANAGED_ALLOC, &ma) ||
	    raw_stream(fd, &sid))
		return 1;
	s0 = vm_kv_read(CG_TEST "/memory.stat", "slab_unreclaimable");
	if (s0 < 0 || prefetch_error(fd, sid, ma.va, ma.len, &err))
		return 2;
	s1 = vm_kv_read(CG_TEST "/memory.stat", "slab_unreclaimable");
	return vm_put(rep, (uint64_t)(int64_t)err) ||
	       vm_put(rep, (uint64_t)(s1 - s0)) ? 3 : 0;
}

START_TEST(test_worker_charges_the_queuing_memcg)
{
	int mounted = 0;
	struct vm_child c;
	long long grown;
	char pid[32];

	if (!vm_exists(CG_ROOT "/cgroup.controllers")) {
		ck_assert_int_eq(mount("none", CG_ROOT, "cgroup2", 0, NULL), 0);
		mounted = 1;
	}
	ck_assert_int_eq(write_file(CG_ROOT "/cgroup.subtree_control", "+memory"), 0);
	ck_assert(mkdir(CG_TEST, 0755) == 0 || errno == EEXIST);

	vm_child_start(&c, memcg_child, NULL);
	snprintf(pid, sizeof(pid), "%d", (int)c.pid);
	ck_assert_int_eq(write_file(CG_TEST "/cgroup.procs", pid), 0);
	vm_child_put(&c, 1);
	ck_assert_int_eq((int64_t)vm_child_get(&c), 0);
	grown = (long long)vm_child_get(&c);
	vm_child_wait_ok(&c);
	/* one object of at least 128 bytes per block (kmalloc-192 here) */
	ck_assert_msg(grown >= MEMCG_BLOCKS * 128LL,
		      "memcg slab grew %lld bytes for %d device copies", grown, MEMCG_BLOCKS);

	ck_assert_int_eq(rmdir(CG_TEST), 0);
	if (mounted)
		ck_assert_int_eq(umount(CG_ROOT), 0);
}
END_TEST

/* ---- stream threads in the creating process's cgroups ------------------- */

#define CG_CPU	CG_ROOT "/npu_stream_cpu"

/* Creates five streams (two share thread 0), reports, waits, exits. */
static int cpu_child(void *arg, int cmd, int rep)
{
	uint64_t w;
	uint32_t sid;
	int fd, i;

	(void)arg;
	if (vm_get(cmd, &w))		/* moved into CG_CPU */
		return 1;
	fd = raw_open(0);
	if (fd < 0)
		return 1;
	for (i = 0; i < 5; i++)
		if (raw_stream(fd, &sid))
			return 2;
	if (vm_put(rep, 1) || vm_get(cmd, &w))
		return 3;
	return 0;
}

/* Threads named npu0/<pid>:N and the cgroup line of each, counted. */
static int stream_threads(pid_t pid, const char *want_cg, int *in_cg)
{
	char prefix[32], path[300], buf[256];
	struct dirent *de;
	DIR *d = opendir("/proc");
	int n = 0;

	snprintf(prefix, sizeof(prefix), "npu0/%d:", (int)pid);
	*in_cg = 0;
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		FILE *f;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f) || strncmp(buf, prefix, strlen(prefix))) {
			fclose(f);
			continue;
		}
		fclose(f);
		n++;
		snprintf(path, sizeof(path), "/proc/%s/cgroup", de->d_name);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f) && !strcmp(buf, want_cg))
			(*in_cg)++;
		if (f)
			fclose(f);
	}
	closedir(d);
	return n;
}

/*
 * A context's streams run on its own threads, which join the cgroups of the
 * process that created the streams, so the CPU time of stream work is that
 * process's: four threads for five streams, all in its cgroup; after the
 * process exits they are gone and the cgroup can be removed.
 */
START_TEST(test_stream_threads_join_the_creators_cgroup)
{
	int mounted = 0, in_cg;
	struct vm_child c;
	char pid[32];

	if (!vm_exists(CG_ROOT "/cgroup.controllers")) {
		ck_assert_int_eq(mount("none", CG_ROOT, "cgroup2", 0, NULL), 0);
		mounted = 1;
	}
	ck_assert_int_eq(write_file(CG_ROOT "/cgroup.subtree_control", "+cpu"), 0);
	ck_assert(mkdir(CG_CPU, 0755) == 0 || errno == EEXIST);

	vm_child_start(&c, cpu_child, NULL);
	snprintf(pid, sizeof(pid), "%d", (int)c.pid);
	ck_assert_int_eq(write_file(CG_CPU "/cgroup.procs", pid), 0);
	vm_child_put(&c, 1);
	ck_assert_int_eq(vm_child_get(&c), 1);
	ck_assert_int_eq(stream_threads(c.pid, "0::/npu_stream_cpu\n", &in_cg), 4);
	ck_assert_int_eq(in_cg, 4);
	vm_child_put(&c, 1);
	vm_child_wait_ok(&c);
	ck_assert_int_eq(stream_threads(c.pid, "", &in_cg), 0);

	ck_assert_int_eq(rmdir(CG_CPU), 0);
	if (mounted)
		ck_assert_int_eq(umount(CG_ROOT), 0);
}
END_TEST

static Suite *isolation_suite(void)
{
	Suite *s = suite_create("stream_isolation");
	TCase *tc = tcase_create("isolation");

	tcase_set_timeout(tc, VM_TIMEOUT_LONG);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, test_reference_cycle, 0, 3);
	tcase_add_loop_test(tc, test_owner_gone_forked_child, 0, 2);
	tcase_add_test(tc, test_nobody_cannot_stall_others);
	tcase_add_test(tc, test_parked_wait_frees_the_slot);
	tcase_add_test(tc, test_worker_charges_the_queuing_memcg);
	tcase_add_test(tc, test_stream_threads_join_the_creators_cgroup);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(isolation_suite());
}
