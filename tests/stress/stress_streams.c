// SPDX-License-Identifier: GPL-2.0
/*
 * Streams no user can stall, leak or make unkillable (issue 22), with raw
 * ioctls and seeded choices:
 *
 * - reference cycles: a process opens two files (one device twice, or two
 *   devices with peer access), queues on each a never-met VALUE_WAIT and a
 *   D2D copy into the other file's window, sometimes forks a child that
 *   keeps the files open a while, and exits or is SIGKILLed; used_bytes and
 *   the context count must come back, and rmmod must work at the end;
 * - blocked users: processes of user nobody each park 300 streams in
 *   VALUE_WAIT while root copies on streams (every copy completes and
 *   round-trips) and root victims blocked in a stream destroy or a
 *   synchronize are SIGKILLed (each is reaped).
 *
 * Sizes: NPU_SIM_STREAM_CYCLES cycles (6; 60 with NPU_SIM_STRESS=1),
 * NPU_SIM_STREAM_NOBODY processes of nobody (1; 3), NPU_SIM_STREAM_COPIES
 * copies (20; 400), NPU_SIM_STREAM_VICTIMS victims (3; 30).  Ends with the
 * after-checks of stress.h.
 */
#include "stress.h"
#include "../npu_raw_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <misc/npu_sim.h>

#define NOBODY		65534
#define BLOCKED		300
/*
 * Hang guard of every wait, 300 s in 10 ms steps: not a speed bound.  On
 * the debug kernel (KASAN, lockdep) 400 copies beside 8 x 300 parked and
 * polled VALUE_WAITs took more than 60 s on a busy 2-core host.
 */
#define POLL_STEPS	30000

/* Polls until every device's used_bytes is its baseline and no context is open. */
static int settled(const struct st_base *b)
{
	for (int i = 0; i < POLL_STEPS; i++) {
		int ok = 1;

		for (int d = 0; d < b->ndev && ok; d++)
			ok = st_sysfs(d, "used_bytes") == b->used[d] &&
			     st_contexts(d) == 0;
		if (ok)
			return 1;
		usleep(10000);
	}
	return 0;
}

/* Waits for child @pid to die; its status, or -1 when it never did. */
static int reap(pid_t pid)
{
	int st;

	for (int i = 0; i < POLL_STEPS; i++) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return st;
		if (r < 0)
			return -1;
		usleep(10000);
	}
	return -1;
}

/* ---- reference cycles --------------------------------------------------- */

/*
 * The cycle of issue 22 item 2; @keep: a forked child keeps the files for
 * a while after this process is gone.  Writes 1 to @wfd when queued.
 */
static int cycle(int two_devs, int keep, int wfd)
{
	struct npu_sim_peer_access pa = { .op = NPU_SIM_PEER_ENABLE, .peer = 1 };
	struct npu_sim_peer_access pb = { .op = NPU_SIM_PEER_ENABLE, .peer = 0 };
	uint64_t win, wlen, va[2];
	uint32_t sid[2];
	int fd[2];
	char c = 1;

	fd[0] = st_open_mapped(0, &win, &wlen);
	fd[1] = st_open_mapped(two_devs, &win, &wlen);
	if (fd[0] < 0 || fd[1] < 0)
		return 1;
	if (two_devs && (ioctl(fd[0], NPU_SIM_IOCTL_PEER_ACCESS, &pa) ||
			 ioctl(fd[1], NPU_SIM_IOCTL_PEER_ACCESS, &pb)))
		return 2;
	for (int i = 0; i < 2; i++)
		if (raw_alloc(fd[i], MiB, &va[i]) || raw_stream(fd[i], &sid[i]))
			return 3;
	for (int i = 0; i < 2; i++)
		if (raw_value_wait(fd[i], sid[i], va[i], 1) ||
		    raw_copy(fd[i], sid[i], NPU_SIM_COPY_D2D, va[!i], va[i],
			       4096))
			return 4;
	if (keep) {
		pid_t kid = fork();

		if (kid == 0) {
			/* The files are not O_CLOEXEC here: they stay open. */
			usleep(100000);
			_exit(0);
		}
	}
	if (write(wfd, &c, 1) != 1)
		return 5;
	pause();
	return 0;
}

static void cycles(struct st_rng *r, struct st_base *b, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		int two = b->ndev > 1 && st_below(r, 2);
		int keep = st_below(r, 3) == 0;
		int kill9 = st_below(r, 2);
		int p[2], st = -1;
		pid_t pid;
		char c = 0;

		if (pipe(p))
			break;
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			_exit(cycle(two, keep, p[1]));
		}
		close(p[1]);
		st_check(read(p[0], &c, 1) == 1 && c == 1,
			 "cycle %lu: the process queued its work", i);
		close(p[0]);
		kill(pid, kill9 ? SIGKILL : SIGTERM);
		st = reap(pid);
		st_check(st != -1 && WIFSIGNALED(st),
			 "cycle %lu: the process was reaped", i);
		st_check(settled(b),
			 "cycle %lu (%s, %s%s): memory and contexts back", i,
			 two ? "two devices" : "one device twice",
			 kill9 ? "SIGKILL" : "SIGTERM",
			 keep ? ", a child keeping the files" : "");
	}
}

/* ---- blocked users ------------------------------------------------------ */

/* As nobody: BLOCKED streams parked in VALUE_WAIT; writes 1 to @wfd. */
static int nobody(int wfd)
{
	uint64_t win, wlen, va;
	uint32_t sid;
	char c = 1;
	int fd;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return 1;
	fd = st_open_mapped(0, &win, &wlen);
	if (fd < 0 || raw_alloc(fd, 4096, &va))
		return 2;
	for (int i = 0; i < BLOCKED; i++)
		if (raw_stream(fd, &sid) || raw_value_wait(fd, sid, va, 1))
			return 3;
	if (write(wfd, &c, 1) != 1)
		return 4;
	pause();
	return 0;
}

/* As root: @n copies of up to 64 KiB round-tripped through streams. */
static int copier(uint64_t seed, unsigned long n)
{
	static unsigned char host[65536], back[65536];
	struct st_rng r;
	uint64_t win, wlen, va;
	uint32_t sid[4];
	int fd = st_open_mapped(0, &win, &wlen);

	st_rng_init(&r, seed);
	if (fd < 0 || raw_alloc(fd, sizeof(host), &va))
		return 1;
	for (int i = 0; i < 4; i++)
		if (raw_stream(fd, &sid[i]))
			return 2;
	for (unsigned long i = 0; i < n; i++) {
		struct npu_sim_stream_sync sy = {
			.id = sid[i % 4], .flags = NPU_SIM_SYNC_TIMEOUT,
			.timeout_ms = 120000,
		};
		uint64_t len = 1 + st_below(&r, sizeof(host));

		for (uint64_t k = 0; k < len; k++)
			host[k] = (unsigned char)st_rand(&r);
		if (raw_copy(fd, sy.id, NPU_SIM_COPY_H2D, va,
			       (uintptr_t)host, len) ||
		    raw_copy(fd, sy.id, NPU_SIM_COPY_D2H, (uintptr_t)back,
			       va, len))
			return 3;
		if (ioctl(fd, NPU_SIM_IOCTL_STREAM_SYNC, &sy) ||
		    sy.status != NPU_SIM_STATUS_COMPLETE || sy.error)
			return 4;
		if (memcmp(host, back, len))
			return 5;
	}
	return 0;
}

/* As root: a parked VALUE_WAIT, then (@how) a destroy or a sync on it. */
static int victim(int how, int wfd)
{
	struct npu_sim_stream_destroy sd = { 0 };
	struct npu_sim_stream_sync sy = { 0 };
	uint64_t win, wlen, va;
	uint32_t sid;
	char c = 1;
	int fd = st_open_mapped(0, &win, &wlen);

	if (fd < 0 || raw_alloc(fd, MiB, &va) || raw_stream(fd, &sid) ||
	    raw_value_wait(fd, sid, va, 1) || write(wfd, &c, 1) != 1)
		return 1;
	sd.id = sy.id = sid;
	if (how)
		ioctl(fd, NPU_SIM_IOCTL_STREAM_SYNC, &sy);
	else
		ioctl(fd, NPU_SIM_IOCTL_STREAM_DESTROY, &sd);
	return 2;
}

/* Forks @fn(@arg, pipe) and waits for its one-byte "ready"; the pid or -1. */
static pid_t start(int (*fn)(int, int), int arg)
{
	int p[2];
	pid_t pid;
	char c = 0;

	if (pipe(p))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		_exit(fn(arg, p[1]));
	}
	close(p[1]);
	if (pid > 0 && (read(p[0], &c, 1) != 1 || c != 1)) {
		kill(pid, SIGKILL);
		reap(pid);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

static int nobody_fn(int arg, int wfd)
{
	(void)arg;
	return nobody(wfd);
}

static void blocked_users(struct st_rng *r, unsigned long nobodies,
			  unsigned long copies, unsigned long victims)
{
	pid_t nb[8], pid;
	unsigned long i;
	int st;

	if (nobodies > 8)
		nobodies = 8;
	for (i = 0; i < nobodies; i++) {
		nb[i] = start(nobody_fn, 0);
		st_check(nb[i] > 0, "nobody %lu parked %d streams", i, BLOCKED);
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(copier(st_rand(r), copies));
	st = pid > 0 ? reap(pid) : -1;
	st_check(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		 "%lu copies of root completed while nobody blocks (status %d)",
		 copies, st);
	for (i = 0; i < victims; i++) {
		int how = (int)st_below(r, 2);

		pid = start(victim, how);
		st_check(pid > 0, "victim %lu blocked", i);
		if (pid <= 0)
			continue;
		kill(pid, SIGKILL);
		st = reap(pid);
		st_check(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
			 "victim %lu in a %s was reaped", i,
			 how ? "synchronize" : "destroy");
	}
	for (i = 0; i < nobodies; i++) {
		if (nb[i] <= 0)
			continue;
		kill(nb[i], SIGKILL);
		st_check(reap(nb[i]) != -1, "nobody %lu reaped", i);
	}
}

int main(void)
{
	unsigned long ncycles = st_env("NPU_SIM_STREAM_CYCLES", 6, 60);
	unsigned long nobodies = st_env("NPU_SIM_STREAM_NOBODY", 1, 3);
	unsigned long copies = st_env("NPU_SIM_STREAM_COPIES", 20, 400);
	unsigned long victims = st_env("NPU_SIM_STREAM_VICTIMS", 3, 30);
	struct st_rng r;
	struct st_base b;

	st_rng_init(&r, st_seed("stress_streams"));
	st_base_take(&b);
	cycles(&r, &b, ncycles);
	st_base_check(&b, "after the cycles");
	st_check(st_unload() == 0, "rmmod after the cycles");
	st_check(st_load("") == 0, "insmod again");
	close(b.kmsg);
	st_base_take(&b);
	blocked_users(&r, nobodies, copies, victims);
	st_base_check(&b, "after the blocked users");
	return st_summary("stress_streams");
}
