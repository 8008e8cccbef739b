/*
 * Stream API rows (issue 28): what the stream, event, notify, callback,
 * graph and memory-pool calls cost against the host primitive that does
 * the same job, timed alternately in one run.
 *
 * A cross-stream dependency, a host function and an IPC event are each a
 * hand-off from one agent to another and back, so their primitive is a
 * pipe ping-pong (one byte there, one back) between two threads, or two
 * processes for the IPC event.  A graph replay is compared with queueing
 * the same tasks one by one; the pool's MallocAsync + FreeAsync with
 * aclrtMalloc + aclrtFree of the same size.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pthread.h>

#include <acl/acl_rt_memory_soma.h>

#include "bench.h"

#define ROUNDS 200		/* hand-offs per sample */
#define GRAPH_TASKS 100		/* tasks of the replayed graph */
#define GRAPH_REPLAYS 20
#define POOL_OPS 2000
#define POOL_SYNC_EVERY 100

static void must(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(1);
	}
}

static void put_byte(int fd)
{
	char c = 1;

	must(write(fd, &c, 1) == 1, "bench: pipe write");
}

static void get_byte(int fd)
{
	char c;

	must(read(fd, &c, 1) == 1, "bench: pipe read");
}

/* ---- the primitive: a pipe ping-pong with a thread ---------------------- */

struct pong {
	int to[2], back[2];
	pthread_t th;
	volatile int hits;
};

static void *pong_thread(void *arg)
{
	struct pong *p = arg;
	char c;

	while (read(p->to[0], &c, 1) == 1 && c == 1) {
		p->hits++;	/* the "host function" the primitive runs */
		put_byte(p->back[1]);
	}
	return NULL;
}

static void pong_start(struct pong *p)
{
	memset(p, 0, sizeof(*p));
	must(pipe(p->to) == 0 && pipe(p->back) == 0, "bench: pipe");
	must(pthread_create(&p->th, NULL, pong_thread, p) == 0, "bench: pthread_create");
}

static void pong_stop(struct pong *p)
{
	char c = 0;

	must(write(p->to[1], &c, 1) == 1, "bench: pipe write");
	pthread_join(p->th, NULL);
	close(p->to[0]);
	close(p->to[1]);
	close(p->back[0]);
	close(p->back[1]);
}

static double pong_rounds(struct pong *p, int n)
{
	double t = bench_now();

	for (int i = 0; i < n; i++) {
		put_byte(p->to[1]);
		get_byte(p->back[0]);
	}
	return bench_now() - t;
}

/* ---- events and notifies across two streams ---------------------------- */

static double event_rounds(aclrtStream s1, aclrtStream s2, aclrtEvent ev, int n)
{
	double t = bench_now();

	for (int i = 0; i < n; i++) {
		bench_check(aclrtRecordEvent(ev, s1), "aclrtRecordEvent");
		bench_check(aclrtStreamWaitEvent(s2, ev), "aclrtStreamWaitEvent");
		bench_check(aclrtSynchronizeStream(s2), "aclrtSynchronizeStream");
	}
	return bench_now() - t;
}

static double notify_rounds(aclrtStream s1, aclrtStream s2, aclrtNotify nt, int n)
{
	double t = bench_now();

	for (int i = 0; i < n; i++) {
		bench_check(aclrtRecordNotify(nt, s1), "aclrtRecordNotify");
		bench_check(aclrtWaitAndResetNotify(nt, s2, 0), "aclrtWaitAndResetNotify");
		bench_check(aclrtSynchronizeStream(s2), "aclrtSynchronizeStream");
	}
	return bench_now() - t;
}

static void host_fn(void *arg)
{
	(*(volatile int *)arg)++;
}

static double hostfunc_rounds(aclrtStream s, volatile int *hits, int n)
{
	double t = bench_now();

	for (int i = 0; i < n; i++) {
		bench_check(aclrtLaunchHostFunc(s, host_fn, (void *)hits), "aclrtLaunchHostFunc");
		bench_check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
	}
	return bench_now() - t;
}

static void handoff_rows(void)
{
	struct bench_samples a, b;
	int reps = bench_reps();
	volatile int hits = 0;
	aclrtStream s1, s2;
	aclrtNotify nt;
	aclrtEvent ev;
	struct pong p;

	bench_check(aclrtCreateStream(&s1), "aclrtCreateStream");
	bench_check(aclrtCreateStream(&s2), "aclrtCreateStream");
	pong_start(&p);
	if (bench_selected("event record")) {
		a.n = b.n = 0;
		bench_check(aclrtCreateEvent(&ev), "aclrtCreateEvent");
		for (int r = 0; r < reps; r++) {
			bench_add(&a, event_rounds(s1, s2, ev, ROUNDS));
			bench_add(&b, pong_rounds(&p, ROUNDS));
		}
		bench_check(aclrtDestroyEvent(ev), "aclrtDestroyEvent");
		bench_row(&(struct bench_row){ "event record+wait, 2 streams, +sync", "pipe ping-pong, 2 threads", "",
					       ROUNDS, 0, 0, "" }, &a, &b);
	}
	if (bench_selected("notify record")) {
		a.n = b.n = 0;
		bench_check(aclrtCreateNotify(&nt, 0), "aclrtCreateNotify");
		for (int r = 0; r < reps; r++) {
			bench_add(&a, notify_rounds(s1, s2, nt, ROUNDS));
			bench_add(&b, pong_rounds(&p, ROUNDS));
		}
		bench_check(aclrtDestroyNotify(nt), "aclrtDestroyNotify");
		bench_row(&(struct bench_row){ "notify record+wait, 2 streams, +sync", "pipe ping-pong, 2 threads",
					       "", ROUNDS, 0, 0, "" }, &a, &b);
	}
	if (bench_selected("host func")) {
		a.n = b.n = 0;
		for (int r = 0; r < reps; r++) {
			bench_add(&a, hostfunc_rounds(s1, &hits, ROUNDS));
			bench_add(&b, pong_rounds(&p, ROUNDS));
		}
		if (hits != reps * ROUNDS) {
			fprintf(stderr, "bench: %d host functions ran, %d queued\n", hits, reps * ROUNDS);
			exit(1);
		}
		bench_row(&(struct bench_row){ "aclrtLaunchHostFunc + sync", "pipe ping-pong, 2 threads", "",
					       ROUNDS, 0, 0, "the runtime's thread runs it" }, &a, &b);
	}
	pong_stop(&p);
	bench_check(aclrtDestroyStream(s1), "aclrtDestroyStream");
	bench_check(aclrtDestroyStream(s2), "aclrtDestroyStream");
}

/* ---- an IPC event across processes ------------------------------------- */

/*
 * The child: open the handle, then for every byte from the parent queue a
 * wait for the event on its stream, synchronize, and answer.  With
 * pong_only it only answers (the primitive).
 */
static void ipc_child(int in, int out, const aclrtIpcEventHandle *h)
{
	aclrtStream s = NULL;
	aclrtEvent ev = NULL;
	char c;

	if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS ||
	    aclrtIpcOpenEventHandle(*h, &ev) != ACL_SUCCESS)
		_exit(2);
	put_byte(out);	/* ready */
	while (read(in, &c, 1) == 1 && c != 0) {
		if (c == 2 && (aclrtStreamWaitEvent(s, ev) != ACL_SUCCESS ||
			       aclrtSynchronizeStream(s) != ACL_SUCCESS))
			_exit(3);
		put_byte(out);
	}
	_exit(aclrtDestroyEvent(ev) || aclrtDestroyStream(s) || aclrtResetDevice(0) ? 4 : 0);
}

static double ipc_rounds(int to, int back, aclrtStream s, aclrtEvent ev, int n, int with_event)
{
	char c = with_event ? 2 : 1;
	double t = bench_now();

	for (int i = 0; i < n; i++) {
		if (with_event)
			bench_check(aclrtRecordEvent(ev, s), "aclrtRecordEvent (IPC)");
		must(write(to, &c, 1) == 1, "bench: pipe write");
		get_byte(back);
	}
	return bench_now() - t;
}

static void ipc_row(void)
{
	struct bench_samples a = { 0 }, b = { 0 };
	int reps = bench_reps(), to[2], back[2], status;
	aclrtIpcEventHandle h;
	aclrtStream s;
	aclrtEvent ev;
	pid_t pid;
	char c = 0;

	if (!bench_selected("IPC event"))
		return;
	bench_check(aclrtCreateStream(&s), "aclrtCreateStream");
	bench_check(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC), "aclrtCreateEventExWithFlag(IPC)");
	bench_check(aclrtIpcGetEventHandle(ev, &h), "aclrtIpcGetEventHandle");
	must(pipe(to) == 0 && pipe(back) == 0, "bench: pipe");
	pid = fork();
	must(pid >= 0, "bench: fork");
	if (pid == 0) {
		close(to[1]);
		close(back[0]);
		ipc_child(to[0], back[1], &h);
	}
	close(to[0]);
	close(back[1]);
	get_byte(back[0]);
	for (int r = 0; r < reps; r++) {
		bench_add(&a, ipc_rounds(to[1], back[0], s, ev, ROUNDS, 1));
		bench_add(&b, ipc_rounds(to[1], back[0], s, ev, ROUNDS, 0));
	}
	must(write(to[1], &c, 1) == 1, "bench: pipe write");
	must(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	     "bench: the IPC event child failed");
	close(to[1]);
	close(back[0]);
	bench_check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
	bench_check(aclrtDestroyEvent(ev), "aclrtDestroyEvent");
	bench_check(aclrtDestroyStream(s), "aclrtDestroyStream");
	bench_row(&(struct bench_row){ "IPC event record -> other process waits+sync", "pipe ping-pong, 2 processes",
				       "", ROUNDS, 0, 0, "npu_sim side includes the same ping-pong" }, &a, &b);
}

/* ---- a graph replay against the same tasks queued directly -------------- */

static double direct_tasks(aclrtStream s, void *word, int replays)
{
	double t = bench_now();

	for (int r = 0; r < replays; r++) {
		for (int i = 0; i < GRAPH_TASKS; i++)
			bench_check(aclrtValueWrite(word, (uint64_t)i, 0, s), "aclrtValueWrite");
		bench_check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
	}
	return bench_now() - t;
}

static double replays(aclmdlRI ri, aclrtStream s, int n)
{
	double t = bench_now();

	for (int r = 0; r < n; r++) {
		bench_check(aclmdlRIExecuteAsync(ri, s), "aclmdlRIExecuteAsync");
		bench_check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
	}
	return bench_now() - t;
}

static void graph_row(void)
{
	struct bench_samples a = { 0 }, b = { 0 };
	int reps = bench_reps();
	void *word = NULL;
	aclrtStream s;
	aclmdlRI ri;

	if (!bench_selected("graph replay"))
		return;
	bench_check(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
	bench_check(aclrtCreateStream(&s), "aclrtCreateStream");
	bench_check(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), "aclmdlRICaptureBegin");
	for (int i = 0; i < GRAPH_TASKS; i++)
		bench_check(aclrtValueWrite(word, (uint64_t)i, 0, s), "aclrtValueWrite (capture)");
	bench_check(aclmdlRICaptureEnd(s, &ri), "aclmdlRICaptureEnd");
	for (int r = 0; r < reps; r++) {
		bench_add(&a, replays(ri, s, GRAPH_REPLAYS));
		bench_add(&b, direct_tasks(s, word, GRAPH_REPLAYS));
	}
	bench_check(aclmdlRIDestroy(ri), "aclmdlRIDestroy");
	bench_check(aclrtDestroyStream(s), "aclrtDestroyStream");
	bench_check(aclrtFree(word), "aclrtFree");
	bench_row(&(struct bench_row){ "graph replay of 100 value writes, per task", "the 100 queued one by one", "<1",
				       GRAPH_TASKS * GRAPH_REPLAYS, 0, 0, "+ one synchronize per 100 on both sides" },
		  &a, &b);
}

/* ---- the stream-ordered memory pool ------------------------------------- */

static double pool_ops(aclrtMemPool pool, aclrtStream s, int n)
{
	double t = bench_now();
	void *p;

	for (int i = 0; i < n; i++) {
		bench_check(aclrtMemPoolMallocAsync(&p, 64, pool, s), "aclrtMemPoolMallocAsync");
		bench_check(aclrtMemPoolFreeAsync(p, s), "aclrtMemPoolFreeAsync");
		if ((i + 1) % POOL_SYNC_EVERY == 0)
			bench_check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
	}
	bench_check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
	return bench_now() - t;
}

static double malloc_ops(int n)
{
	double t = bench_now();
	void *p;

	for (int i = 0; i < n; i++) {
		bench_check(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
		bench_check(aclrtFree(p), "aclrtFree");
	}
	return bench_now() - t;
}

/*
 * The pool row with release threshold @keep: 0 (the default) gives the
 * free 2 MiB block back at every synchronize, so the next MallocAsync
 * takes (and zeroes) a new one; the pool's size keeps it for reuse.
 */
static void pool_row(uint64_t keep, const char *name, const char *target, const char *note)
{
	struct bench_samples a = { 0 }, b = { 0 };
	int reps = bench_reps();
	aclrtMemPoolProps props;
	aclrtMemPool pool;
	aclrtStream s;

	memset(&props, 0, sizeof(props));
	props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = 0;
	props.maxSize = 64 * MiB;
	bench_check(aclrtMemPoolCreate(&pool, &props), "aclrtMemPoolCreate");
	bench_check(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep),
		    "aclrtMemPoolSetAttr");
	bench_check(aclrtCreateStream(&s), "aclrtCreateStream");
	for (int r = 0; r < reps; r++) {
		bench_add(&a, pool_ops(pool, s, POOL_OPS));
		bench_add(&b, malloc_ops(POOL_OPS));
	}
	bench_check(aclrtDestroyStream(s), "aclrtDestroyStream");
	bench_check(aclrtMemPoolDestroy(pool), "aclrtMemPoolDestroy");
	bench_row(&(struct bench_row){ name, "aclrtMalloc+aclrtFree 64 B", target, POOL_OPS, 0, 0, note }, &a, &b);
}

static void pool_rows(void)
{
	if (!bench_selected("pool"))
		return;
	pool_row(0, "pool MallocAsync+FreeAsync 64 B, threshold 0", "",
		 "same stream; a synchronize per 100 pairs releases the block");
	pool_row(64 * MiB, "pool MallocAsync+FreeAsync 64 B, block kept", "<1",
		 "same stream; a synchronize per 100 pairs; release threshold 64 MiB");
}

void bench_stream(void)
{
	handoff_rows();
	ipc_row();
	graph_row();
	pool_rows();
}
