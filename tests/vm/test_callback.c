// SPDX-License-Identifier: GPL-2.0
/*
 * Host callbacks (issue 23): aclrtLaunchCallback with aclrtSubscribeReport /
 * aclrtProcessReport / aclrtUnSubscribeReport, and aclrtLaunchHostFunc with
 * and without aclrtSubscribeHostFunc / aclrtProcessHostFunc /
 * aclrtUnSubscribeHostFunc, with real threads and processes.
 *
 * A blocking callback holds its stream: the copy queued after it has not
 * happened while the callback is inside its function (held on a gate the
 * test opens); a non-blocking one does not: the copy after it completes
 * while the function still waits.  Callbacks run in the subscribed thread;
 * ProcessReport's timeout and bad timeouts; unsubscribing with a callback
 * pending releases the stream; a process killed while a blocking callback
 * holds its stream leaves nothing behind; bad inputs with exact codes.
 */
#include "vmtest.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define BUF (1 * MiB)
#define CALLBACKS_FILE "/sys/kernel/debug/npu_sim/npu_sim0/callbacks"

/* ---- a callback the test controls --------------------------------------- */

struct ctl {
	pthread_mutex_t m;
	pthread_cond_t c;
	int calls;		/* times the function was entered */
	int open;		/* the gate: the function returns once it is 1 */
	pthread_t ran_in;	/* the thread it last ran in */
};

static void ctl_init(struct ctl *k, int open)
{
	memset(k, 0, sizeof(*k));
	pthread_mutex_init(&k->m, NULL);
	pthread_cond_init(&k->c, NULL);
	k->open = open;
}

/* The callback: note the thread, then wait for the gate. */
static void gated_fn(void *arg)
{
	struct ctl *k = arg;

	pthread_mutex_lock(&k->m);
	k->ran_in = pthread_self();
	k->calls++;
	pthread_cond_broadcast(&k->c);
	while (!k->open)
		pthread_cond_wait(&k->c, &k->m);
	pthread_mutex_unlock(&k->m);
}

/* Waits until the function was entered n times (failing after 60 s). */
static void ctl_await_calls(struct ctl *k, int n)
{
	struct timespec end;
	int rc = 0;

	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += 60;
	pthread_mutex_lock(&k->m);
	while (k->calls < n && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&k->c, &k->m, &end);
	pthread_mutex_unlock(&k->m);
	ck_assert_int_ge(k->calls, n);
}

static void ctl_open(struct ctl *k)
{
	pthread_mutex_lock(&k->m);
	k->open = 1;
	pthread_cond_broadcast(&k->c);
	pthread_mutex_unlock(&k->m);
}

static int ctl_calls(struct ctl *k)
{
	int n;

	pthread_mutex_lock(&k->m);
	n = k->calls;
	pthread_mutex_unlock(&k->m);
	return n;
}

/* ---- a thread that processes callbacks until told to stop ---------------- */

/* It starts processing once proc_go() says it is subscribed. */
struct proc {
	pthread_t t;
	sem_t go;
	int hostfunc;		/* ProcessHostFunc, else ProcessReport */
	volatile int stop;
	int ran;		/* callbacks run (calls that returned 0) */
	int bad;		/* a code other than 0 / 507012, or 0 */
};

static void *proc_main(void *arg)
{
	struct proc *p = arg;

	while (sem_wait(&p->go) != 0)
		;
	while (!p->stop) {
		aclError rc = p->hostfunc ? aclrtProcessHostFunc(50) : aclrtProcessReport(50);

		if (rc == ACL_SUCCESS)
			p->ran++;
		else if (rc != ACL_ERROR_RT_REPORT_TIMEOUT && !p->bad)
			__atomic_store_n(&p->bad, rc, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void proc_start(struct proc *p, int hostfunc)
{
	memset(p, 0, sizeof(*p));
	p->hostfunc = hostfunc;
	ck_assert_int_eq(sem_init(&p->go, 0, 0), 0);
	ck_assert_int_eq(pthread_create(&p->t, NULL, proc_main, p), 0);
}

static void proc_go(struct proc *p)
{
	ck_assert_int_eq(sem_post(&p->go), 0);
}

static void proc_stop(struct proc *p)
{
	p->stop = 1;
	ck_assert_int_eq(pthread_join(p->t, NULL), 0);
}

/* ---- helpers ------------------------------------------------------------- */

/* Sums of debugfs "callbacks" over the lines of pid: queued, posted, running. */
struct cb_counts {
	long lines, queued, posted, running;
};

static struct cb_counts dbg_callbacks_of(pid_t pid)
{
	struct cb_counts n = { 0 };
	char line[256];
	FILE *f = fopen(CALLBACKS_FILE, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "pid stream report_channel hostfunc_channel runtime queued posted running\n");
	while (fgets(line, sizeof(line), f)) {
		int p, rt;
		unsigned int sid, q, po, ru;
		unsigned long long c1, c2;

		ck_assert_int_eq(sscanf(line, "%d %u %llx %llx %d %u %u %u", &p, &sid, &c1, &c2, &rt, &q, &po,
					&ru), 8);
		if (p != pid)
			continue;
		n.lines++;
		n.queued += q;
		n.posted += po;
		n.running += ru;
	}
	fclose(f);
	return n;
}

/* Waits until debugfs shows pid's posted and running counts (60 s bound). */
static void await_dbg(pid_t pid, long posted, long running)
{
	double end = vm_now() + 60;
	struct cb_counts n;

	for (;;) {
		n = dbg_callbacks_of(pid);
		if (n.posted == posted && n.running == running)
			return;
		ck_assert_msg(vm_now() < end, "callbacks of %d: posted %ld running %ld, want %ld %ld",
			      (int)pid, n.posted, n.running, posted, running);
		usleep(1000);
	}
}

struct bufs {
	unsigned char *want, *got;
	void *src, *dst;
};

static void bufs_init(struct bufs *b)
{
	b->want = malloc(BUF);
	b->got = malloc(BUF);
	ck_assert_ptr_nonnull(b->want);
	ck_assert_ptr_nonnull(b->got);
	vm_fill(b->want, BUF, 0xca11);
	b->src = vm_dev_alloc(BUF);
	b->dst = vm_dev_alloc(BUF);
	ck_assert_int_eq(aclrtMemcpy(b->src, BUF, b->want, BUF, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(b->dst, BUF, 0, BUF), ACL_SUCCESS);
}

/* Whether dst holds the copy (1), is untouched (0); asserts one of them. */
static int bufs_copied(struct bufs *b)
{
	ck_assert_int_eq(aclrtMemcpy(b->got, BUF, b->dst, BUF, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	if (memcmp(b->got, b->want, BUF) == 0)
		return 1;
	ck_assert_msg(vm_all_bytes(b->got, BUF, 0), "dst is neither untouched nor the copy");
	return 0;
}

static void bufs_free(struct bufs *b)
{
	ck_assert_int_eq(aclrtFree(b->src), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b->dst), ACL_SUCCESS);
	free(b->want);
	free(b->got);
}

static aclrtStreamStatus query(aclrtStream s)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;

	ck_assert_int_eq(aclrtStreamQuery(s, &st), ACL_SUCCESS);
	return st;
}

/* ---- tests ----------------------------------------------------------------- */

/* BLOCK: the copy queued after the callback waits until its function returns. */
START_TEST(block_holds_stream)
{
	struct bufs b;
	struct proc p;
	struct ctl k;
	aclrtStream s;

	bufs_init(&b);
	ctl_init(&k, 0);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	proc_start(&p, 0);
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)p.t, s), ACL_SUCCESS);
	proc_go(&p);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b.dst, BUF, b.src, BUF, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);

	ctl_await_calls(&k, 1);
	/* inside the function: the stream holds, the copy has not happened */
	await_dbg(getpid(), 0, 1);
	ck_assert_int_eq(query(s), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(bufs_copied(&b), 0);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	ck_assert_int_eq(bufs_copied(&b), 0);

	ctl_open(&k);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(bufs_copied(&b), 1);
	ck_assert(pthread_equal(k.ran_in, p.t));
	await_dbg(getpid(), 0, 0);

	proc_stop(&p);
	ck_assert_int_eq(p.bad, 0);
	ck_assert_int_eq(p.ran, 1);
	ck_assert_int_eq(aclrtUnSubscribeReport((uint64_t)p.t, s), ACL_SUCCESS);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).lines, 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	bufs_free(&b);
}
END_TEST

/* NO_BLOCK: the copy after the callback completes while its function waits. */
START_TEST(noblock_does_not_hold)
{
	struct bufs b;
	struct proc p;
	struct ctl k;
	aclrtStream s;

	bufs_init(&b);
	ctl_init(&k, 0);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	proc_start(&p, 0);
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)p.t, s), ACL_SUCCESS);
	proc_go(&p);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_NO_BLOCK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b.dst, BUF, b.src, BUF, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);

	ctl_await_calls(&k, 1);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(bufs_copied(&b), 1);
	ck_assert_int_eq(query(s), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(ctl_calls(&k), 1);
	await_dbg(getpid(), 0, 1);	/* still inside the function */

	ctl_open(&k);
	await_dbg(getpid(), 0, 0);
	proc_stop(&p);
	ck_assert_int_eq(p.bad, 0);
	ck_assert_int_eq(p.ran, 1);
	ck_assert(pthread_equal(k.ran_in, p.t));
	ck_assert_int_eq(aclrtUnSubscribeReport((uint64_t)p.t, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	bufs_free(&b);
}
END_TEST

/* Each stream's callbacks run in the thread it is subscribed to, in order. */
START_TEST(runs_in_subscribed_thread)
{
	struct proc p1, p2;
	struct ctl k1, k2;
	aclrtStream s1, s2;

	ctl_init(&k1, 1);
	ctl_init(&k2, 1);
	ck_assert_int_eq(aclrtCreateStream(&s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	proc_start(&p1, 0);
	proc_start(&p2, 0);
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)p1.t, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)p2.t, s2), ACL_SUCCESS);
	proc_go(&p1);
	proc_go(&p2);
	/* one thread per stream: a second subscription of a stream is refused */
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)p2.t, s1), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)p1.t, s1), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k1, ACL_CALLBACK_BLOCK, s1), ACL_SUCCESS);
		ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k2, ACL_CALLBACK_NO_BLOCK, s2), ACL_SUCCESS);
	}
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(ctl_calls(&k1), 3);	/* blocking: all ran before the sync returned */
	ctl_await_calls(&k2, 3);
	ck_assert(pthread_equal(k1.ran_in, p1.t));
	ck_assert(pthread_equal(k2.ran_in, p2.t));
	/* the main thread serves no stream */
	ck_assert_int_eq(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);

	proc_stop(&p1);
	proc_stop(&p2);
	ck_assert_int_eq(p1.bad, 0);
	ck_assert_int_eq(p2.bad, 0);
	ck_assert_int_eq(p1.ran, 3);
	ck_assert_int_eq(p2.ran, 3);
	ck_assert_int_eq(aclrtUnSubscribeReport((uint64_t)p1.t, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnSubscribeReport((uint64_t)p2.t, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
}
END_TEST

/* ProcessReport in the calling thread: its timeout, its bad timeouts. */
START_TEST(process_report_timeout)
{
	uint64_t self = (uint64_t)pthread_self();
	struct ctl k;
	aclrtStream s;

	ctl_init(&k, 1);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(aclrtSubscribeReport(self, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT);
	ck_assert_int_eq(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtProcessReport(INT32_MIN), ACL_ERROR_INVALID_PARAM);

	/* one callback per call, in the calling thread; -1 waits until it comes */
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_NO_BLOCK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_NO_BLOCK, NULL), ACL_ERROR_RT_STREAM_NO_CB_REG);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(ctl_calls(&k), 0);
	ck_assert_int_eq(aclrtProcessReport(-1), ACL_SUCCESS);
	ck_assert_int_eq(ctl_calls(&k), 1);
	ck_assert(pthread_equal(k.ran_in, pthread_self()));
	ck_assert_int_eq(aclrtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT);

	ck_assert_int_eq(aclrtUnSubscribeReport(self, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/*
 * Unsubscribing while a blocking callback waits for its thread drops it:
 * the stream goes on, the function never runs.  Then the codes of a
 * stream with no thread.
 */
START_TEST(unsubscribe_with_pending)
{
	uint64_t self = (uint64_t)pthread_self();
	struct bufs b;
	struct ctl k;
	aclrtStream s;

	bufs_init(&b);
	ctl_init(&k, 1);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSubscribeReport(self, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b.dst, BUF, b.src, BUF, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	await_dbg(getpid(), 1, 0);	/* the first is posted, the second queued */
	ck_assert_int_eq(dbg_callbacks_of(getpid()).queued, 1);
	ck_assert_int_eq(query(s), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(bufs_copied(&b), 0);

	/* the wrong thread first: nothing changes */
	ck_assert_int_eq(aclrtUnSubscribeReport(self + 1, s), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).posted, 1);
	ck_assert_int_eq(aclrtUnSubscribeReport(self, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(bufs_copied(&b), 1);
	ck_assert_int_eq(ctl_calls(&k), 0);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).lines, 0);

	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG);
	ck_assert_int_eq(aclrtUnSubscribeReport(self, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	/* subscribed again, it works again */
	ck_assert_int_eq(aclrtSubscribeReport(self, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_NO_BLOCK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtProcessReport(-1), ACL_SUCCESS);
	ck_assert_int_eq(ctl_calls(&k), 1);
	/* destroying a subscribed stream ends its subscription */
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).lines, 0);
	ck_assert_int_eq(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	bufs_free(&b);
}
END_TEST

/*
 * aclrtDestroyStreamForce while one blocking callback runs and another is
 * queued: the destroy does not wait for the function, the queued one never
 * runs, and the running one returns into a stream that is gone.
 */
START_TEST(force_destroy_with_callbacks)
{
	struct proc p;
	struct ctl k;
	aclrtStream s;

	ctl_init(&k, 0);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	proc_start(&p, 0);
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)p.t, s), ACL_SUCCESS);
	proc_go(&p);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
	ctl_await_calls(&k, 1);
	await_dbg(getpid(), 0, 1);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).queued, 1);

	ck_assert_int_eq(aclrtDestroyStreamForce(s), ACL_SUCCESS);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).queued, 0);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).posted, 0);
	ck_assert_int_eq(ctl_calls(&k), 1);	/* still inside the first */
	ctl_open(&k);
	/* the stream is gone, and with it the thread's subscription: its next
	 * aclrtProcessReport says so */
	for (double end = vm_now() + 60; !__atomic_load_n(&p.bad, __ATOMIC_ACQUIRE); usleep(1000))
		ck_assert_msg(vm_now() < end, "the processing thread never saw its stream gone");
	proc_stop(&p);
	ck_assert_int_eq(p.bad, ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(ctl_calls(&k), 1);
	ck_assert_int_eq(p.ran, 1);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).lines, 0);
	ck_assert_int_eq(aclrtUnSubscribeReport((uint64_t)p.t, s), ACL_ERROR_RT_INVALID_HANDLE);
}
END_TEST

/* aclrtLaunchHostFunc without a subscription: a library thread runs it, the stream waits. */
START_TEST(host_func_runtime_thread)
{
	aclrtContext home, other;
	aclrtStream s, plain;
	struct bufs b;
	struct ctl k;

	bufs_init(&b);
	ctl_init(&k, 0);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchHostFunc(s, gated_fn, &k), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b.dst, BUF, b.src, BUF, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ctl_await_calls(&k, 1);
	await_dbg(getpid(), 0, 1);
	ck_assert_int_eq(bufs_copied(&b), 0);
	ck_assert_int_eq(query(s), ACL_STREAM_STATUS_NOT_READY);
	ck_assert(!pthread_equal(k.ran_in, pthread_self()));

	/* the runtime's thread serves the stream: no report thread for it */
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)pthread_self(), s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtSubscribeHostFunc((uint64_t)pthread_self(), s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	/*
	 * From another context: the runtime's error layer refuses the callback
	 * (107011) before its context check (107003); a stream with no such
	 * subscription gets the context's code.
	 */
	ck_assert_int_eq(aclrtGetCurrentContext(&home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&plain), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateContext(&other, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, plain), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtLaunchHostFunc(s, gated_fn, &k), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtSetCurrentContext(home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(plain), ACL_SUCCESS);
	ck_assert_int_eq(ctl_calls(&k), 1);

	ctl_open(&k);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(bufs_copied(&b), 1);
	/* a second one reuses the thread; the default stream works too */
	ck_assert_int_eq(aclrtLaunchHostFunc(s, gated_fn, &k), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchHostFunc(NULL, gated_fn, &k), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	ck_assert_int_eq(ctl_calls(&k), 3);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	bufs_free(&b);
}
END_TEST

/* aclrtSubscribeHostFunc: host functions run in that thread, report callbacks in theirs. */
START_TEST(host_func_subscribed)
{
	aclrtContext home, other;
	struct proc hp, rp;
	struct ctl kh, kr;
	aclrtStream s, only_report;

	ctl_init(&kh, 1);
	ctl_init(&kr, 1);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&only_report), ACL_SUCCESS);
	proc_start(&hp, 1);
	proc_start(&rp, 0);
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)rp.t, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSubscribeHostFunc((uint64_t)hp.t, s), ACL_SUCCESS);
	proc_go(&hp);
	proc_go(&rp);
	ck_assert_int_eq(aclrtSubscribeHostFunc((uint64_t)rp.t, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &kr, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchHostFunc(s, gated_fn, &kh), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &kr, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(ctl_calls(&kr), 2);
	ck_assert_int_eq(ctl_calls(&kh), 1);
	ck_assert(pthread_equal(kr.ran_in, rp.t));
	ck_assert(pthread_equal(kh.ran_in, hp.t));

	/* a report thread and no host function thread: refused, as the runtime does */
	ck_assert_int_eq(aclrtSubscribeReport((uint64_t)rp.t, only_report), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchHostFunc(only_report, gated_fn, &kh), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	/* from another context too: the error layer's check comes first */
	ck_assert_int_eq(aclrtGetCurrentContext(&home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateContext(&other, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchHostFunc(only_report, gated_fn, &kh), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtLaunchHostFunc(s, gated_fn, &kh), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &kr, ACL_CALLBACK_BLOCK, only_report),
			 ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtSetCurrentContext(home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(other), ACL_SUCCESS);

	proc_stop(&hp);
	proc_stop(&rp);
	ck_assert_int_eq(hp.bad, 0);
	ck_assert_int_eq(rp.bad, 0);
	ck_assert_int_eq(hp.ran, 1);
	ck_assert_int_eq(rp.ran, 2);
	ck_assert_int_eq(aclrtUnSubscribeHostFunc((uint64_t)rp.t, s), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(aclrtUnSubscribeHostFunc((uint64_t)hp.t, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnSubscribeHostFunc((uint64_t)hp.t, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtUnSubscribeReport((uint64_t)rp.t, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnSubscribeReport((uint64_t)rp.t, only_report), ACL_SUCCESS);
	ck_assert_int_eq(aclrtProcessHostFunc(0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(only_report), ACL_SUCCESS);
}
END_TEST

/*
 * A process killed while a blocking callback holds its stream (its function
 * is running, and more work is queued behind it) leaves nothing behind.
 */
static void forever_fn(void *arg)
{
	int fd = *(int *)arg;

	(void)vm_put(fd, 1);
	for (;;)
		pause();
}

static void *child_processor(void *arg)
{
	(void)arg;
	for (;;)
		(void)aclrtProcessReport(-1);
	return NULL;
}

static int child_block(void *arg, int cmd, int rep)
{
	static int rep_fd;
	pthread_t t;
	aclrtStream s;
	void *d;

	(void)arg;
	(void)cmd;
	rep_fd = rep;
	if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
		return 1;
	if (aclrtMalloc(&d, BUF, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS)
		return 2;
	if (pthread_create(&t, NULL, child_processor, NULL) != 0 ||
	    aclrtSubscribeReport((uint64_t)t, s) != ACL_SUCCESS)
		return 3;
	if (aclrtLaunchCallback(forever_fn, &rep_fd, ACL_CALLBACK_BLOCK, s) != ACL_SUCCESS ||
	    aclrtMemsetAsync(d, BUF, 1, BUF, s) != ACL_SUCCESS ||
	    aclrtLaunchCallback(forever_fn, &rep_fd, ACL_CALLBACK_NO_BLOCK, s) != ACL_SUCCESS)
		return 4;
	for (;;)
		pause();
}

START_TEST(sigkill_with_block_pending)
{
	struct vm_snap snap;
	struct vm_child c;
	struct cb_counts n;
	long contexts = vm_dbg_contexts(0);
	int st;

	vm_snap_take(0, &snap);
	vm_child_start(&c, child_block, NULL);
	ck_assert_uint_eq(vm_child_get(&c), 1);	/* inside the blocking callback */
	/* the child's main thread queues the NO_BLOCK one meanwhile */
	for (int i = 0; i < 5000 && (n = dbg_callbacks_of(c.pid)).queued == 0; i++)
		usleep(1000);
	ck_assert_int_eq(n.lines, 1);
	ck_assert_int_eq(n.running, 1);
	ck_assert_int_eq(n.queued, 1);
	ck_assert_int_eq(kill(c.pid, SIGKILL), 0);
	st = vm_child_wait(&c);
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(dbg_callbacks_of(c.pid).lines, 0);
	ck_assert_int_eq(vm_dbg_contexts(0), contexts);
	vm_snap_assert_same(0, &snap);
}
END_TEST

static void *no_device_thread(void *arg)
{
	struct ctl *k = arg;

	return (void *)(long)aclrtLaunchCallback(gated_fn, k, ACL_CALLBACK_BLOCK, NULL);
}

/* Bad inputs: exact codes, and nothing queued or subscribed by them. */
START_TEST(bad_inputs)
{
	uint64_t self = (uint64_t)pthread_self();
	aclrtStream s, dead, other;
	struct ctl k;
	pthread_t t;
	void *ret;

	ctl_init(&k, 1);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);

	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, (aclrtCallbackBlockType)2, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, (aclrtCallbackBlockType)-1, dead), ACL_ERROR_INVALID_PARAM);
	ck_assert_str_eq(aclGetRecentErrMsg(), "aclrtLaunchCallback: blockType -1 is neither ACL_CALLBACK_NO_BLOCK (0) "
			 "nor ACL_CALLBACK_BLOCK (1) (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtLaunchCallback: blockType 2 is neither ACL_CALLBACK_NO_BLOCK (0) "
			 "nor ACL_CALLBACK_BLOCK (1) (error 100000 ACL_ERROR_INVALID_PARAM)");
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtLaunchCallback(NULL, &k, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG);
	ck_assert_int_eq(aclrtLaunchCallback(gated_fn, &k, ACL_CALLBACK_BLOCK, (aclrtStream)&k),
			 ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtLaunchHostFunc(dead, gated_fn, &k), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtLaunchHostFunc(s, NULL, &k), ACL_ERROR_RT_PARAM_INVALID);

	ck_assert_int_eq(aclrtSubscribeReport(self, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSubscribeReport(0, s), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(aclrtUnSubscribeReport(self, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtUnSubscribeReport(self, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtSubscribeHostFunc(self, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtUnSubscribeHostFunc(self, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSubscribeHostFunc(self, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtProcessReport(-1), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(aclrtProcessHostFunc(-1), ACL_ERROR_RT_THREAD_SUBSCRIBE);

	/* a thread serves the streams of one device */
	ck_assert_int_eq(aclrtSubscribeReport(self, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSubscribeReport(self, other), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(aclrtDestroyStream(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);

	/* a thread with no current device and the default stream */
	ck_assert_int_eq(pthread_create(&t, NULL, no_device_thread, &k), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_int_eq((long)ret, ACL_ERROR_RT_CONTEXT_NULL);

	/* nothing was queued by the refused calls */
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).queued, 0);
	ck_assert_int_eq(dbg_callbacks_of(getpid()).posted, 0);
	ck_assert_int_eq(ctl_calls(&k), 0);
	ck_assert_int_eq(aclrtUnSubscribeReport(self, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* The driver's CB_* ioctls and OP_CALLBACK without the library: every bad field. */
START_TEST(raw_ioctls)
{
	struct npu_sim_stream_create sc = { 0 };
	struct npu_sim_stream_submit sb;
	struct npu_sim_stream_sync ss;
	struct npu_sim_cb_subscribe cs;
	struct npu_sim_cb_wait w;
	struct npu_sim_cb_done d;
	struct npu_sim_cb_query q;
	const uint64_t ch = 0x1234;
	struct vm_raw r;

	vm_raw_open(&r, 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc), 0);

	/* CB_SUBSCRIBE */
	cs = (struct npu_sim_cb_subscribe){ .stream = sc.id, .channel = 0 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), EINVAL);
	cs = (struct npu_sim_cb_subscribe){ .stream = sc.id, .channel = ch, .flags = 1U << 4 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), EINVAL);
	cs.flags = NPU_SIM_CB_RUNTIME;	/* RUNTIME needs HOSTFUNC */
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), EINVAL);
	cs.flags = NPU_SIM_CB_HOSTFUNC | NPU_SIM_CB_RUNTIME | NPU_SIM_CB_UNSUBSCRIBE;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), EINVAL);
	cs = (struct npu_sim_cb_subscribe){ .stream = sc.id + 1, .channel = ch };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), ENOENT);
	cs.flags = NPU_SIM_CB_UNSUBSCRIBE;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), ENOENT);
	cs = (struct npu_sim_cb_subscribe){ .stream = sc.id, .channel = ch, .flags = NPU_SIM_CB_UNSUBSCRIBE };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), ENOTCONN);

	/* OP_CALLBACK: fields, then a stream with no subscription */
	sb = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_CALLBACK,
					     .flags = NPU_SIM_CB_BLOCK, .operand = 77 };
	sb.flags = 1U << 2;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	sb.flags = NPU_SIM_CB_BLOCK;
	sb.dst = 8;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	sb.dst = 0;
	sb.event = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	sb.event = 0;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), ENOTCONN);

	/* subscribed: twice is EBUSY, another channel's unsubscribe EXDEV */
	cs = (struct npu_sim_cb_subscribe){ .stream = sc.id, .channel = ch };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), EBUSY);
	cs.channel = ch + 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), EBUSY);
	cs.flags = NPU_SIM_CB_UNSUBSCRIBE;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs), EXDEV);
	/* a host function op: a report subscription and no host function one */
	sb.flags = NPU_SIM_CB_BLOCK | NPU_SIM_CB_HOSTFUNC;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EBUSY);

	/* STREAM_CTL QUERY reports the subscriptions (1.11) */
	{
		struct npu_sim_stream_ctl c = { .id = sc.id, .op = NPU_SIM_STREAM_CTL_QUERY };
		struct npu_sim_stream_create sc2 = { 0 };
		struct npu_sim_stream_destroy sd2;
		struct npu_sim_cb_subscribe cs2;

		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
		ck_assert_uint_eq(c.state, NPU_SIM_STREAM_CB_REPORT);
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc2), 0);
		c = (struct npu_sim_stream_ctl){ .id = sc2.id, .op = NPU_SIM_STREAM_CTL_QUERY };
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
		ck_assert_uint_eq(c.state, 0);
		cs2 = (struct npu_sim_cb_subscribe){ .stream = sc2.id, .channel = ch + 7,
						     .flags = NPU_SIM_CB_HOSTFUNC | NPU_SIM_CB_RUNTIME };
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs2), 0);
		c = (struct npu_sim_stream_ctl){ .id = sc2.id, .op = NPU_SIM_STREAM_CTL_QUERY };
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
		ck_assert_uint_eq(c.state, NPU_SIM_STREAM_CB_RUNTIME);
		cs2.flags = NPU_SIM_CB_HOSTFUNC | NPU_SIM_CB_UNSUBSCRIBE;
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs2), 0);
		cs2.flags = NPU_SIM_CB_HOSTFUNC;
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &cs2), 0);
		c = (struct npu_sim_stream_ctl){ .id = sc2.id, .op = NPU_SIM_STREAM_CTL_QUERY };
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
		ck_assert_uint_eq(c.state, NPU_SIM_STREAM_CB_HOSTFUNC);
		sd2 = (struct npu_sim_stream_destroy){ .id = sc2.id };
		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_DESTROY, &sd2), 0);
	}

	/* CB_QUERY */
	q = (struct npu_sim_cb_query){ .channel = ch, .streams = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_QUERY, &q), EINVAL);
	q = (struct npu_sim_cb_query){ .channel = ch, .flags = NPU_SIM_CB_BLOCK };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_QUERY, &q), EINVAL);
	q = (struct npu_sim_cb_query){ .channel = 0 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_QUERY, &q), EINVAL);
	q = (struct npu_sim_cb_query){ .channel = ch };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_QUERY, &q), 0);
	ck_assert_uint_eq(q.streams, 1);
	q = (struct npu_sim_cb_query){ .channel = ch, .flags = NPU_SIM_CB_HOSTFUNC };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_QUERY, &q), 0);
	ck_assert_uint_eq(q.streams, 0);

	/* CB_WAIT: fields, no subscription, timeout */
	w = (struct npu_sim_cb_wait){ .channel = ch, .timeout_ms = 10, .report = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_WAIT, &w), EINVAL);
	w = (struct npu_sim_cb_wait){ .channel = ch, .timeout_ms = 10, .block = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_WAIT, &w), EINVAL);
	w = (struct npu_sim_cb_wait){ .channel = ch, .timeout_ms = 10, .flags = NPU_SIM_CB_BLOCK };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_WAIT, &w), EINVAL);
	w = (struct npu_sim_cb_wait){ .channel = 0, .timeout_ms = 10 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_WAIT, &w), EINVAL);
	w = (struct npu_sim_cb_wait){ .channel = ch + 1, .timeout_ms = 10 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_WAIT, &w), ENOTCONN);
	w = (struct npu_sim_cb_wait){ .channel = ch, .timeout_ms = 10, .flags = NPU_SIM_CB_HOSTFUNC };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_WAIT, &w), ENOTCONN);
	w = (struct npu_sim_cb_wait){ .channel = ch, .timeout_ms = 10 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_WAIT, &w), ETIMEDOUT);

	/* a BLOCK callback round trip: the report, then the stream goes on at CB_DONE */
	sb.flags = NPU_SIM_CB_BLOCK;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), 0);
	ck_assert_uint_eq(sb.seq, 1);
	w = (struct npu_sim_cb_wait){ .channel = ch, .timeout_ms = 0 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_WAIT, &w), 0);
	ck_assert_uint_ne(w.report, 0);
	ck_assert_uint_eq(w.cookie, 77);
	ck_assert_uint_eq(w.stream, sc.id);
	ck_assert_uint_eq(w.block, 1);
	ss = (struct npu_sim_stream_sync){ .id = sc.id, .flags = NPU_SIM_SYNC_TIMEOUT, .timeout_ms = 10 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), 0);
	ck_assert_uint_eq(ss.status, NPU_SIM_STATUS_NOT_READY);
	d = (struct npu_sim_cb_done){ .report = w.report, .reserved = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_DONE, &d), EINVAL);
	d = (struct npu_sim_cb_done){ .report = w.report + 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_DONE, &d), ENOENT);
	d = (struct npu_sim_cb_done){ .report = w.report };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_DONE, &d), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_DONE, &d), ENOENT);
	ss = (struct npu_sim_stream_sync){ .id = sc.id };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), 0);
	ck_assert_uint_eq(ss.status, NPU_SIM_STATUS_COMPLETE);
	ck_assert_uint_eq(ss.completed, 1);

	/* destroying the stream ends its subscription */
	{
		struct npu_sim_stream_destroy sd = { .id = sc.id };

		ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_DESTROY, &sd), 0);
	}
	q = (struct npu_sim_cb_query){ .channel = ch };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_CB_QUERY, &q), 0);
	ck_assert_uint_eq(q.streams, 0);
	vm_raw_close(&r);
}
END_TEST

static Suite *callback_suite(void)
{
	Suite *s = suite_create("callback");
	TCase *t = tcase_create("callback");

	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(t, VM_TIMEOUT);
	tcase_add_test(t, block_holds_stream);
	tcase_add_test(t, noblock_does_not_hold);
	tcase_add_test(t, runs_in_subscribed_thread);
	tcase_add_test(t, process_report_timeout);
	tcase_add_test(t, unsubscribe_with_pending);
	tcase_add_test(t, force_destroy_with_callbacks);
	tcase_add_test(t, host_func_runtime_thread);
	tcase_add_test(t, host_func_subscribed);
	tcase_add_test(t, sigkill_with_block_pending);
	tcase_add_test(t, bad_inputs);
	tcase_add_test(t, raw_ioctls);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return vm_run_suite(callback_suite());
}
