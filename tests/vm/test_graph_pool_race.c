// SPDX-License-Identifier: GPL-2.0
/*
 * The stream-ordered memory pool and graph mode raced against the rest of
 * the runtime:
 *
 * - threads: pool calls, captures with pool blocks, replays and destroys in
 *   one thread while others set/reset the device, create/destroy streams
 *   and contexts in loops; some calls (replays, captures, pool calls) go to
 *   a stream another thread may be destroying, and get success or 107017,
 *   the code of a dead stream handle, whether it died before or during the
 *   call.  Every code is asserted, every replay's bytes and the pools'
 *   figures, and at the end nothing is left.
 * - a child SIGKILLed with a long replay running, another queued and
 *   parked on a value wait, graph-owned and ordinary pool blocks: nothing
 *   of it left in debugfs (mempools, graphs, allocations, used_bytes,
 *   contexts), HugePages_Free back where it was.
 * - another process parked on a value wait (its main thread asleep in the
 *   synchronize): this process's captures, replays and pool calls all
 *   complete meanwhile; its helper thread opens the gate (aclrtValueWrite
 *   on a second stream, or aclrtMemcpy), and its work completes.  The
 *   other process forked from this one or started afresh (exec).  A helper
 *   thread that never set a context gets 107002 and opens nothing: the
 *   process stays parked, killable, and leaves nothing behind.
 *
 * Nothing asserts a duration: waits for another process are polled with a
 * generous bound, as in test_stream_isolation.
 */
#include "vmtest.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <acl/acl_rt_memory_soma.h>
#include <misc/npu_sim.h>

#define N		4096U		/* bytes of the buffers a replay checks */
#define BLK		(2U << 20)	/* pool block */
#define ROUNDS		200		/* racer loop iterations */
#define GRAPH_ROUNDS	10		/* capture / replay / destroy cycles */
#define LONG_COPIES	64		/* copies in the killed child's long graph */
#define LONG_BYTES	(256U << 10)	/* bytes of each of them */
#define POLL_STEPS	6000		/* 60 s in 10 ms steps: a bound, not a time */
#define DBG		"/sys/kernel/debug/npu_sim/npu_sim0/"

/* ---- debugfs ------------------------------------------------------------ */

/* Lines of debugfs @file (after its header) whose second column is @pid. */
static int dbg_lines_of(const char *file, pid_t pid)
{
	char line[512];
	int n = 0, p;
	FILE *f = fopen(file, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f) != NULL) {
		ck_assert_int_eq(sscanf(line, "%*u %d", &p), 1);
		n += p == pid;
	}
	fclose(f);
	return n;
}

static int graphs_of(pid_t pid)
{
	return dbg_lines_of(DBG "graphs", pid);
}

static int pools_of(pid_t pid)
{
	return dbg_lines_of(DBG "mempools", pid);
}

/* reserved and used bytes of pid's one pool in debugfs mempools */
static void pool_line_of(pid_t pid, unsigned long long *reserved, unsigned long long *used)
{
	unsigned long long id, size, rh;
	unsigned int dev;
	char line[512];
	int p, n = 0;
	FILE *f = fopen(DBG "mempools", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f) != NULL) {
		ck_assert_int_eq(sscanf(line, "%llu %d %u %llu %llu %llu %llu", &id, &p, &dev, &size, reserved, &rh,
					used), 7);
		if (p == pid) {
			n++;
			break;
		}
	}
	fclose(f);
	ck_assert_int_eq(n, 1);
}

/* Sum of pool_bytes of pid's graphs in debugfs graphs. */
static unsigned long long graph_pool_bytes_of(pid_t pid)
{
	unsigned long long sum = 0, bytes, pb;
	unsigned int id, dev, tasks;
	long long replays;
	char line[256];
	int p;
	FILE *f = fopen(DBG "graphs", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f) != NULL) {
		ck_assert_int_eq(sscanf(line, "%u %d %u %u %llu %lld %llu", &id, &p, &dev, &tasks, &bytes, &replays,
					&pb), 7);
		if (p == pid)
			sum += pb;
	}
	fclose(f);
	return sum;
}

/* ---- pool and graph helpers (checked: test process only) ---------------- */

static aclrtMemPoolProps pool_props(void)
{
	aclrtMemPoolProps p;

	memset(&p, 0, sizeof(p));
	p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	p.maxSize = 32ULL * BLK;
	return p;
}

static aclrtMemPool pool_new(void)
{
	aclrtMemPoolProps p = pool_props();
	aclrtMemPool pool = NULL;

	ck_assert_int_eq(aclrtMemPoolCreate(&pool, &p), ACL_SUCCESS);
	return pool;
}

/* s: t = pool alloc; t = in; out = t ^ fill of the second half; free t. */
static aclmdlRI capture_pool(aclrtStream s, aclrtMemPool pool, uint8_t *in, uint8_t *out, uint8_t fill)
{
	aclmdlRI g = NULL;
	void *t = NULL;

	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&t, N, pool, s), ACL_SUCCESS);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(aclrtMemcpyAsync(t, N, in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync((uint8_t *)t + N / 2, N / 2, fill, N / 2, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(out, N, t, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(t, s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &g), ACL_SUCCESS);
	ck_assert_ptr_nonnull(g);
	return g;
}

static void check_out(const uint8_t *out, const uint8_t *pat, uint8_t fill, int round)
{
	static uint8_t got[N];

	ck_assert_int_eq(aclrtMemcpy(got, N, out, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	for (unsigned int k = 0; k < N; k++) {
		uint8_t want = k < N / 2 ? pat[k] : fill;

		ck_assert_msg(got[k] == want, "round %d: out[%u] = %#x, want %#x", round, k, got[k], want);
	}
}

/*
 * One capture / replay / destroy cycle on s (captured) and r (replayed),
 * plus pool calls outside the capture; asserts every byte and figure.
 */
static void graph_round(aclrtMemPool pool, aclrtStream s, aclrtStream r, uint8_t *in, uint8_t *out, int round)
{
	static uint8_t pat[N];
	uint8_t fill = (uint8_t)(0x80 | round);
	void *p = NULL, *q = NULL;
	aclmdlRI g;

	for (unsigned int k = 0; k < N; k++)
		pat[k] = (uint8_t)(k * 3 + round * 17 + (k >> 9));
	ck_assert_int_eq(aclrtMemcpy(in, N, pat, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(out, N, 0, N), ACL_SUCCESS);
	g = capture_pool(s, pool, in, out, fill);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), BLK);
	/* two replays queued, one pool block of the stream's own taken between */
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&p, BLK, pool, r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(p, N, in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, r), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, r), ACL_SUCCESS);
	/* freed on r, not yet run: r's next request gets it again */
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&q, BLK, pool, r), ACL_SUCCESS);
	ck_assert_ptr_eq(q, p);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, r), ACL_SUCCESS);
	/* the graph may go while its replays are queued: they still run */
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(r), ACL_SUCCESS);
	check_out(out, pat, fill, round);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 0), ACL_SUCCESS);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_ERROR_RT_PARAM_INVALID);
}

/* ---- 1. racing threads of the same process ------------------------------ */

enum racer { R_SET_RESET, R_STREAM, R_CONTEXT, R_COUNT };

struct racer_state {
	enum racer kind;
	int calls;		/* calls made and checked */
	aclError bad;		/* first code outside the allowed set */
	const char *bad_call;
};

/* The stream the stream racer publishes for the pool thread (may be dead). */
static _Atomic(aclrtStream) victim;
static atomic_int victim_seen;	/* the pool thread's calls on it are made */
static atomic_int racers_done;

static void expect(struct racer_state *r, const char *call, aclError got, aclError ok1, aclError ok2)
{
	r->calls++;
	if (got != ok1 && got != ok2 && r->bad == ACL_SUCCESS) {
		r->bad = got == ACL_SUCCESS ? -1 : got;
		r->bad_call = call;
	}
}

/* Destroy s, waiting (bounded) while the pool thread's capture on it lasts. */
static aclError destroy_victim(aclrtStream s)
{
	aclError e;
	int k = 0;

	while ((e = aclrtDestroyStream(s)) == ACL_ERROR_RT_STREAM_CAPTURED && k++ < POLL_STEPS * 10)
		usleep(100);
	return e;
}

static void *racer_thread(void *arg)
{
	struct racer_state *r = arg;
	uint8_t *buf = NULL;
	aclrtContext c;
	aclrtStream s, cs;

	expect(r, "aclrtSetDevice", aclrtSetDevice(0), ACL_SUCCESS, ACL_SUCCESS);
	expect(r, "aclrtMalloc", aclrtMalloc((void **)&buf, N, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS,
	       ACL_SUCCESS);
	for (int i = 0; i < ROUNDS; i++) {
		switch (r->kind) {
		case R_SET_RESET:
			/* the main thread holds a reference: never the last one */
			expect(r, "aclrtSetDevice", aclrtSetDevice(0), ACL_SUCCESS, ACL_SUCCESS);
			expect(r, "aclrtResetDevice", aclrtResetDevice(0), ACL_SUCCESS, ACL_SUCCESS);
			break;
		case R_STREAM:
			expect(r, "aclrtCreateStream", aclrtCreateStream(&s), ACL_SUCCESS, ACL_SUCCESS);
			expect(r, "aclrtMemsetAsync", aclrtMemsetAsync(buf, N, (uint8_t)i, N, s), ACL_SUCCESS,
			       ACL_SUCCESS);
			atomic_store(&victim_seen, 0);
			atomic_store(&victim, s);
			/* even rounds: let the pool thread's calls reach it (bounded);
			 * odd rounds: destroy it under them */
			for (int k = 0; i % 2 == 0 && k < 2000 && !atomic_load(&victim_seen); k++)
				usleep(100);
			atomic_store(&victim, NULL);
			/* the pool thread may have queued work or blocks on it, or
			 * capture on it: refused then (107027), changing nothing */
			expect(r, "aclrtDestroyStream", destroy_victim(s), ACL_SUCCESS, ACL_SUCCESS);
			/* a destroyed stream is 107017, once and again */
			expect(r, "aclrtDestroyStream(dead)", aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE,
			       ACL_ERROR_RT_INVALID_HANDLE);
			break;
		case R_CONTEXT:
			expect(r, "aclrtCreateContext", aclrtCreateContext(&c, 0), ACL_SUCCESS, ACL_SUCCESS);
			expect(r, "aclrtCreateStream(ctx)", aclrtCreateStream(&cs), ACL_SUCCESS, ACL_SUCCESS);
			expect(r, "aclrtMemsetAsync(ctx)", aclrtMemsetAsync(buf, N, 1, N, cs), ACL_SUCCESS,
			       ACL_SUCCESS);
			expect(r, "aclrtDestroyContext", aclrtDestroyContext(c), ACL_SUCCESS, ACL_SUCCESS);
			expect(r, "aclrtDestroyContext(dead)", aclrtDestroyContext(c), ACL_ERROR_RT_CONTEXT_NULL,
			       ACL_ERROR_RT_CONTEXT_NULL);
			/* its stream went with it */
			expect(r, "aclrtDestroyStream(ctx dead)", aclrtDestroyStream(cs),
			       ACL_ERROR_RT_INVALID_HANDLE, ACL_ERROR_RT_INVALID_HANDLE);
			/* back to the device's default context for the next round */
			expect(r, "aclrtSetDevice", aclrtSetDevice(0), ACL_SUCCESS, ACL_SUCCESS);
			expect(r, "aclrtResetDevice", aclrtResetDevice(0), ACL_SUCCESS, ACL_SUCCESS);
			break;
		default:
			break;
		}
	}
	expect(r, "aclrtFree", aclrtFree(buf), ACL_SUCCESS, ACL_SUCCESS);
	expect(r, "aclrtResetDevice", aclrtResetDevice(0), ACL_SUCCESS, ACL_SUCCESS);
	atomic_fetch_add(&racers_done, 1);
	return NULL;
}

/*
 * Capture, pool and graph calls on the racer's stream, which it may
 * destroy at any moment: success, or 107017 for a stream no longer live,
 * whether it died before the call (the library's handle check) or during
 * it (the driver's ENOENT, npu_rt_obj_errno): the runtime's handle guard.
 * A capture begun holds the destroy off (107027) until it ends.  A pool of
 * their own: their frees run when that stream gets there, unordered with
 * the main pool's trims.  Returns the number of calls that succeeded; any
 * other code fails the test.
 */
static int victim_calls(aclrtMemPool pool, aclmdlRI g, uint8_t *vout)
{
	aclrtStream s = atomic_load(&victim);
	aclmdlRI cg = NULL;
	void *p = NULL;
	aclError e;
	int ok = 0;

	if (s == NULL)
		return 0;
	e = aclmdlRIExecuteAsync(g, s);
	atomic_store(&victim_seen, 1);
	ck_assert_msg(e == ACL_SUCCESS || e == ACL_ERROR_RT_INVALID_HANDLE, "ExecuteAsync(victim) = %d: %s", e,
		      aclGetRecentErrMsg());
	ok += e == ACL_SUCCESS;
	e = aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
	ck_assert_msg(e == ACL_SUCCESS || e == ACL_ERROR_RT_INVALID_HANDLE, "CaptureBegin(victim) = %d", e);
	if (e == ACL_SUCCESS) {
		/* capturing: the stream cannot go until the capture ends */
		ck_assert_int_eq(aclrtMemsetAsync(vout, N, 0x5A, N, s), ACL_SUCCESS);
		ck_assert_int_eq(aclmdlRICaptureEnd(s, &cg), ACL_SUCCESS);
		e = aclmdlRIExecuteAsync(cg, s);
		ck_assert_msg(e == ACL_SUCCESS || e == ACL_ERROR_RT_INVALID_HANDLE,
			      "ExecuteAsync(victim capture) = %d: %s", e, aclGetRecentErrMsg());
		ck_assert_int_eq(aclmdlRIDestroy(cg), ACL_SUCCESS);
		ok += 2 + (e == ACL_SUCCESS);
	}
	e = aclrtMemPoolMallocAsync(&p, BLK, pool, s);
	ck_assert_msg(e == ACL_SUCCESS || e == ACL_ERROR_RT_INVALID_HANDLE, "MallocAsync(victim) = %d: %s", e,
		      aclGetRecentErrMsg());
	if (e != ACL_SUCCESS)
		return ok;
	ok++;
	e = aclrtMemPoolFreeAsync(p, s);
	ck_assert_msg(e == ACL_SUCCESS || e == ACL_ERROR_RT_INVALID_HANDLE, "FreeAsync(victim) = %d: %s", e,
		      aclGetRecentErrMsg());
	if (e == ACL_SUCCESS)
		return ok + 1;
	/* the stream died between: the block is still given out; free it now */
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	return ok;
}

START_TEST(threads_race_pool_and_graphs)
{
	struct racer_state rs[R_COUNT];
	pthread_t t[R_COUNT];
	long long used0 = vm_dbg_info(0, "used_bytes");
	aclrtMemPool pool = pool_new(), vpool = pool_new();
	uint8_t *in = vm_dev_alloc(N), *out = vm_dev_alloc(N), *vout = vm_dev_alloc(N);
	aclrtStream s, r;
	aclmdlRI vg;
	int round = 0, victim_ok = 0;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&r), ACL_SUCCESS);
	/* the graph replayed on the racer's streams: one copy */
	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(vout, N, in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &vg), ACL_SUCCESS);

	atomic_store(&victim, NULL);
	atomic_store(&racers_done, 0);
	memset(rs, 0, sizeof(rs));
	for (int k = 0; k < R_COUNT; k++) {
		rs[k].kind = (enum racer)k;
		ck_assert_int_eq(pthread_create(&t[k], NULL, racer_thread, &rs[k]), 0);
	}
	/* at least GRAPH_ROUNDS rounds, and on until every racer is done */
	while (round < GRAPH_ROUNDS || atomic_load(&racers_done) < R_COUNT) {
		graph_round(pool, s, r, in, out, round);
		for (int k = 0; k < 4; k++)
			victim_ok += victim_calls(vpool, vg, vout);
		round++;
	}
	for (int k = 0; k < R_COUNT; k++) {
		ck_assert_int_eq(pthread_join(t[k], NULL), 0);
		ck_assert_msg(rs[k].bad == ACL_SUCCESS, "racer %d: %s returned %d", k, rs[k].bad_call, rs[k].bad);
	}
	ck_assert_int_eq(rs[R_SET_RESET].calls, 2 * ROUNDS + 4);
	ck_assert_int_eq(rs[R_STREAM].calls, 4 * ROUNDS + 4);
	ck_assert_int_eq(rs[R_CONTEXT].calls, 8 * ROUNDS + 4);
	printf("threads_race: %d graph rounds, %d calls on the racer's streams succeeded\n", round, victim_ok);
	fflush(stdout);

	/* every block back: whatever the victim streams got was freed */
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 0), ACL_SUCCESS);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
	ck_assert_uint_eq(vm_pool_attr(vpool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	ck_assert_int_eq(aclrtMemPoolTrimTo(vpool, 0), ACL_SUCCESS);
	ck_assert_uint_eq(vm_pool_attr(vpool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
	ck_assert_int_eq(aclmdlRIDestroy(vg), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(vpool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(in), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(out), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vout), ACL_SUCCESS);
	ck_assert_int_eq(graphs_of(getpid()), 0);
	ck_assert_int_eq(pools_of(getpid()), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
	ck_assert_int_eq(vm_dbg_contexts(0), 1);
}
END_TEST

/* ---- 2. a child killed mid-replay with pool blocks ---------------------- */

/*
 * Child: a pool with a block given out, one freed; graph A owns a pool
 * block and makes LONG_COPIES copies of LONG_BYTES; graph B waits for a
 * value nobody writes.  A replayed on s1 (running), B then A on s2 (B
 * parked, A queued behind it).  Reports 1 and waits to be killed.
 */
static int doomed_child(void *arg, int cmd, int rep)
{
	aclrtMemPoolProps pp = pool_props();
	aclrtMemPool pool = NULL;
	aclrtStream s1 = NULL, s2 = NULL, cs = NULL;
	uint8_t *src = NULL, *dst = NULL;
	uint64_t *flag = NULL, x;
	void *t = NULL, *a = NULL, *b = NULL;
	aclmdlRI ga = NULL, gb = NULL;

	(void)arg;
	if (aclrtSetDevice(0) || aclrtCreateStream(&s1) || aclrtCreateStream(&s2) || aclrtCreateStream(&cs))
		return 2;
	if (aclrtMemPoolCreate(&pool, &pp) || aclrtMalloc((void **)&src, LONG_BYTES, ACL_MEM_MALLOC_NORMAL_ONLY) ||
	    aclrtMalloc((void **)&dst, LONG_BYTES, ACL_MEM_MALLOC_NORMAL_ONLY) ||
	    aclrtMalloc((void **)&flag, 8, ACL_MEM_MALLOC_NORMAL_ONLY))
		return 3;
	if (aclrtMemset(flag, 8, 0, 8) || aclrtMemset(src, LONG_BYTES, 0x3C, LONG_BYTES))
		return 4;
	/* ordinary pool blocks: one given out, one freed */
	if (aclrtMemPoolMallocAsync(&a, BLK, pool, s1) || aclrtMemPoolMallocAsync(&b, BLK, pool, s1) ||
	    aclrtMemPoolFreeAsync(b, s1))
		return 5;
	if (aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL) ||
	    aclrtMemPoolMallocAsync(&t, LONG_BYTES, pool, cs))
		return 6;
	for (int i = 0; i < LONG_COPIES; i++) {
		void *d = i % 2 ? (void *)dst : t;

		if (aclrtMemcpyAsync(d, LONG_BYTES, src, LONG_BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, cs))
			return 7;
	}
	if (aclrtMemPoolFreeAsync(t, cs) || aclmdlRICaptureEnd(cs, &ga))
		return 8;
	if (aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL) ||
	    aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_EQ, cs) ||
	    aclrtMemcpyAsync(dst, LONG_BYTES, src, LONG_BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, cs) ||
	    aclmdlRICaptureEnd(cs, &gb))
		return 9;
	if (aclmdlRIExecuteAsync(ga, s1) || aclmdlRIExecuteAsync(ga, s1) || aclmdlRIExecuteAsync(gb, s2) ||
	    aclmdlRIExecuteAsync(ga, s2))
		return 10;
	if (vm_put(rep, 1))
		return 11;
	(void)vm_get(cmd, &x);	/* killed here */
	return 12;
}

/* Polls until nothing of pid is left in debugfs and the counters are back. */
static void wait_nothing_left(pid_t pid, long long used0, long long ctx0, long long hp0)
{
	long long used = -1, ctx = -1, hp = -1;
	int graphs = -1, pools = -1;
	long allocs = -1;

	for (int i = 0; i < POLL_STEPS; i++) {
		graphs = graphs_of(pid);
		pools = pools_of(pid);
		allocs = vm_dbg_allocs_of(0, pid);
		used = vm_dbg_info(0, "used_bytes");
		ctx = vm_dbg_contexts(0);
		hp = vm_meminfo("HugePages_Free");
		if (!graphs && !pools && !allocs && used == used0 && ctx == ctx0 && hp == hp0)
			break;
		usleep(10000);
	}
	ck_assert_int_eq(graphs, 0);
	ck_assert_int_eq(pools, 0);
	ck_assert_int_eq(allocs, 0);
	ck_assert_int_eq(used, used0);
	ck_assert_int_eq(ctx, ctx0);
	ck_assert_int_eq(hp, hp0);
}

START_TEST(killed_mid_replay_with_pool_blocks)
{
	long long used0 = vm_dbg_info(0, "used_bytes");
	long long ctx0 = vm_dbg_contexts(0);
	long long hp0 = vm_meminfo("HugePages_Free");
	struct vm_child c;
	int status;

	ck_assert_int_ge(hp0, 0);
	for (int round = 0; round < 2; round++) {
		unsigned long long reserved, used;

		vm_child_start(&c, doomed_child, NULL);
		ck_assert_uint_eq(vm_child_get(&c), 1);
		printf("killed: child %d ready\n", (int)c.pid);
		fflush(stdout);
		/* a line per graph and its pool; its blocks: a, b (freed), graph A's */
		ck_assert_int_eq(graphs_of(c.pid), 2);
		ck_assert_int_eq(pools_of(c.pid), 1);
		pool_line_of(c.pid, &reserved, &used);
		ck_assert_uint_eq(reserved, 3 * BLK);
		ck_assert_uint_eq(used, 2 * BLK);
		ck_assert_uint_eq(graph_pool_bytes_of(c.pid), BLK);
		kill(c.pid, SIGKILL);
		status = vm_child_wait(&c);
		ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		wait_nothing_left(c.pid, used0, ctx0, hp0);
	}
}
END_TEST

/* ---- 3. another process blocked does not delay this one ----------------- */

/* How the parked process's helper thread opens the gate. */
enum opener_mode {
	OPEN_VALUE_WRITE,	/* aclrtValueWrite on a second stream */
	OPEN_MEMCPY,		/* aclrtMemcpy host to device */
	OPEN_NO_CONTEXT,	/* aclrtValueWrite from a thread with no current context */
};

struct parked {
	enum opener_mode mode;
	aclrtContext ctx;
	uint64_t *gate;
	aclrtStream s2;
	int cmd, rep;
};

/*
 * The parked process's helper thread: on command, opens the gate and
 * reports the call's code (then the code of its stream's synchronize).
 * A thread of its own has no current context until it sets one: the
 * stream calls then refuse with 107002 and the gate stays shut.
 */
static void *opener(void *arg)
{
	struct parked *p = arg;
	uint64_t one = 1, x;
	aclError e;

	if (vm_get(p->cmd, &x) != 0)
		return NULL;
	if (p->mode != OPEN_NO_CONTEXT && aclrtSetCurrentContext(p->ctx) != ACL_SUCCESS) {
		(void)vm_put(p->rep, 1000);
		return NULL;
	}
	if (p->mode == OPEN_MEMCPY)
		e = aclrtMemcpy(p->gate, 8, &one, 8, ACL_MEMCPY_HOST_TO_DEVICE);
	else
		e = aclrtValueWrite(p->gate, 1, 0, p->s2);
	(void)vm_put(p->rep, (uint64_t)e);
	if (e == ACL_SUCCESS && p->mode != OPEN_MEMCPY)
		e = aclrtSynchronizeStream(p->s2);
	(void)vm_put(p->rep, (uint64_t)e);
	return NULL;
}

/*
 * The other process: stream s parked on a value wait, a memset behind it;
 * its main thread asleep in aclrtSynchronizeStream(s) while its helper
 * thread waits for the word to open the gate.  Reports 1 before it blocks;
 * then (helper) the opening call's code and its synchronize's, then the
 * memset's first word once s is done.
 */
static int parked_run(enum opener_mode mode, int cmd, int rep)
{
	struct parked p = { .mode = mode, .cmd = cmd, .rep = rep };
	aclrtStream s = NULL;
	uint8_t *buf = NULL;
	pthread_t t;
	uint64_t w = 0;
	aclError e;

	if (aclrtSetDevice(0) || aclrtGetCurrentContext(&p.ctx) || aclrtCreateStream(&s) ||
	    aclrtCreateStream(&p.s2))
		return 2;
	if (aclrtMalloc((void **)&p.gate, 8, ACL_MEM_MALLOC_NORMAL_ONLY) ||
	    aclrtMalloc((void **)&buf, N, ACL_MEM_MALLOC_NORMAL_ONLY) || aclrtMemset(p.gate, 8, 0, 8) ||
	    aclrtMemset(buf, N, 0, N))
		return 3;
	if (aclrtValueWait(p.gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s) || aclrtMemsetAsync(buf, N, 0x6B, N, s))
		return 4;
	if (pthread_create(&t, NULL, opener, &p))
		return 5;
	if (vm_put(rep, 1))
		return 6;
	e = aclrtSynchronizeStream(s);
	if (pthread_join(t, NULL) || e)
		return 7;
	if (aclrtMemcpy(&w, 8, buf, 8, ACL_MEMCPY_DEVICE_TO_HOST))
		return 8;
	if (vm_put(rep, w))
		return 9;
	if (aclrtFree(buf) || aclrtFree(p.gate) || aclrtDestroyStream(s) || aclrtDestroyStream(p.s2) ||
	    aclrtResetDevice(0))
		return 10;
	return 0;
}

static int parked_child(void *arg, int cmd, int rep)
{
	return parked_run(*(enum opener_mode *)arg, cmd, rep);
}

static char *self_exe;	/* argv[0]: the parked process started afresh */

/*
 * As vm_child_start, but the child execs this program (parked_run in a
 * process not forked from one with the library initialised).
 */
static void parked_exec_start(struct vm_child *c, enum opener_mode mode)
{
	int cmd[2], rep[2];
	char a1[16], a2[16], a3[16];

	ck_assert(pipe(cmd) == 0);
	ck_assert(pipe(rep) == 0);
	snprintf(a1, sizeof(a1), "%d", (int)mode);
	snprintf(a2, sizeof(a2), "%d", cmd[0]);
	snprintf(a3, sizeof(a3), "%d", rep[1]);
	fflush(NULL);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (c->pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		execl("/proc/self/exe", self_exe, "--parked", a1, a2, a3, (char *)NULL);
		_exit(127);
	}
	close(cmd[0]);
	close(rep[1]);
	ck_assert(fcntl(cmd[1], F_SETFD, FD_CLOEXEC) == 0);
	ck_assert(fcntl(rep[0], F_SETFD, FD_CLOEXEC) == 0);
	c->cmd = cmd[1];
	c->rep = rep[0];
}

/* The child's next word, polled with a generous bound (not a time asserted). */
static int child_get_bounded(struct vm_child *c, uint64_t *v)
{
	struct pollfd pfd = { .fd = c->rep, .events = POLLIN };

	for (int i = 0; i < POLL_STEPS; i++) {
		if (poll(&pfd, 1, 10) == 1)
			return vm_get(c->rep, v);
	}
	return -2;
}

/* What a child that did not answer is doing: its streams and its threads' kernel stacks. */
static void child_dump(pid_t pid)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "cat %sstreams; for t in /proc/%d/task/*; do echo \"== $t $(cat $t/wchan)\"; "
		 "cat $t/stack 2>/dev/null; cat $t/syscall; done", DBG, (int)pid);
	fflush(stdout);
	if (system(cmd) != 0)
		printf("child_dump: %s failed\n", cmd);
	fflush(stdout);
}

/* Kill a child that is still parked (nothing of it may stay), and reap it. */
static void child_kill(struct vm_child *c)
{
	int status;

	kill(c->pid, SIGKILL);
	status = vm_child_wait(c);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* The child's next word; one that does not come fails the test, the child dumped and killed. */
static void child_next(struct vm_child *c, uint64_t *v)
{
	if (child_get_bounded(c, v) == 0)
		return;
	child_dump(c->pid);
	child_kill(c);
	ck_abort_msg("child %d: no answer in %d polls", (int)c->pid, POLL_STEPS);
}

/* This process's work, all completed while the other process is parked. */
static void own_work(aclrtMemPool pool, aclrtStream s, aclrtStream r, uint8_t *in, uint8_t *out)
{
	aclmdlRI g;

	for (int round = 0; round < 4; round++)
		graph_round(pool, s, r, in, out, round);
	g = capture_pool(s, pool, in, out, 0x11);
	ck_assert_int_eq(aclmdlRIExecute(g, -1), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 0), ACL_SUCCESS);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
}

/*
 * Variants: the parked process forked from this one or started afresh
 * (exec), its gate opened by aclrtValueWrite on a second stream or by
 * aclrtMemcpy.  The last: the helper thread without a current context
 * gets 107002 and the gate stays shut (the old hang of this test): the
 * process is killed, nothing of it stays.
 */
static const struct {
	int exec;
	enum opener_mode mode;
} parked_variants[] = {
	{ 0, OPEN_VALUE_WRITE },
	{ 1, OPEN_VALUE_WRITE },
	{ 0, OPEN_MEMCPY },
	{ 1, OPEN_MEMCPY },
	{ 0, OPEN_NO_CONTEXT },
};

START_TEST(blocked_process_does_not_delay)
{
	enum opener_mode mode = parked_variants[_i].mode;
	long long used0 = vm_dbg_info(0, "used_bytes");
	aclrtMemPool pool = pool_new();
	uint8_t *in = vm_dev_alloc(N), *out = vm_dev_alloc(N);
	long long used1 = vm_dbg_info(0, "used_bytes");	/* with in and out */
	long long ctx0 = vm_dbg_contexts(0);
	long long hp0 = vm_meminfo("HugePages_Free");
	uint64_t v = 0;
	aclrtStream s, r;
	struct vm_child c;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&r), ACL_SUCCESS);
	if (parked_variants[_i].exec)
		parked_exec_start(&c, mode);
	else
		vm_child_start(&c, parked_child, &mode);
	ck_assert_uint_eq(vm_child_get(&c), 1);
	vm_wait_blocked_in_ioctl(c.pid, NPU_SIM_IOCTL_STREAM_SYNC);

	/* all of this completes while the other process waits */
	own_work(pool, s, r, in, out);
	/* the other process still asleep in its synchronize */
	vm_wait_blocked_in_ioctl(c.pid, NPU_SIM_IOCTL_STREAM_SYNC);
	ck_assert_int_eq(waitpid(c.pid, NULL, WNOHANG), 0);

	vm_child_put(&c, 1);
	child_next(&c, &v);
	printf("blocked: variant %d (exec %d mode %d): opening call %llu\n", _i, parked_variants[_i].exec,
	       (int)mode, (unsigned long long)v);
	fflush(stdout);
	if (mode == OPEN_NO_CONTEXT) {
		ck_assert_uint_eq(v, ACL_ERROR_RT_CONTEXT_NULL);
		child_next(&c, &v);
		ck_assert_uint_eq(v, ACL_ERROR_RT_CONTEXT_NULL);
		/* the gate stays shut: still asleep, killable */
		vm_wait_blocked_in_ioctl(c.pid, NPU_SIM_IOCTL_STREAM_SYNC);
		child_kill(&c);
	} else {
		ck_assert_uint_eq(v, ACL_SUCCESS);
		child_next(&c, &v);
		ck_assert_uint_eq(v, ACL_SUCCESS);
		/* released, its work completes */
		child_next(&c, &v);
		ck_assert_uint_eq(v, 0x6B6B6B6B6B6B6B6BULL);
		vm_child_wait_ok(&c);
	}
	wait_nothing_left(c.pid, used1, ctx0, hp0);

	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(in), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(out), ACL_SUCCESS);
	ck_assert_int_eq(pools_of(getpid()), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
}
END_TEST

static Suite *race_suite(void)
{
	Suite *s = suite_create("graph_pool_race");
	TCase *t = tcase_create("threads");
	TCase *k = tcase_create("killed");
	TCase *b = tcase_create("blocked");

	tcase_set_timeout(t, VM_TIMEOUT_LONG);
	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_add_test(t, threads_race_pool_and_graphs);
	suite_add_tcase(s, t);
	tcase_set_timeout(k, VM_TIMEOUT_LONG);
	tcase_add_checked_fixture(k, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_add_test(k, killed_mid_replay_with_pool_blocks);
	suite_add_tcase(s, k);
	tcase_set_timeout(b, VM_TIMEOUT_LONG);
	tcase_add_checked_fixture(b, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_add_loop_test(b, blocked_process_does_not_delay, 0,
			    (int)(sizeof(parked_variants) / sizeof(parked_variants[0])));
	suite_add_tcase(s, b);
	return s;
}

int main(int argc, char **argv)
{
	self_exe = argv[0];
	if (argc == 5 && strcmp(argv[1], "--parked") == 0)
		return parked_run((enum opener_mode)atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	return vm_run_suite(race_suite());
}
