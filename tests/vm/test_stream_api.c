// SPDX-License-Identifier: GPL-2.0
/*
 * Stream failure mode, queries and control (issue 23).  A task made to
 * fail for real (a queued D2H copy whose aclrtMallocHost memory is freed,
 * so unmapped, before it runs: 507052) under ACL_STOP_ON_FAILURE: the
 * tasks after it do not run (their copies and value writes are absent),
 * and the context keeps the error until the device is reset: every
 * submit is refused with it and every synchronize reports it (issue 25);
 * under ACL_CONTINUE_ON_FAILURE they run.  Abort drops queued work and
 * keeps the stream usable; stop holds it until abort.  Every query's exact
 * value, the attributes, resource limits (per stream and per thread, in
 * real threads), state callbacks, the V2 create, and each call's bad
 * inputs with their exact codes.
 */
#include "vmtest.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <acl/acl.h>
#include <acl/acl_rt_memory_soma.h>
#include <misc/npu_sim.h>

#define N (1 * MiB)

#define STREAMS_PATH "/sys/kernel/debug/npu_sim/npu_sim0/streams"

/* The debugfs line of stream s of this process. */
struct dbg_stream {
	long long queued, failed, dropped;
	char mode[16], state[16];
};

static void dbg_stream(aclrtStream s, struct dbg_stream *out)
{
	char line[256], mode[16], state[16];
	int32_t sid = 0;
	int found = 0;
	FILE *f;

	ck_assert_int_eq(aclrtStreamGetId(s, &sid), ACL_SUCCESS);
	f = fopen(STREAMS_PATH, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "pid ctx stream priority submitted completed queued failed error mode state dropped\n");
	while (fgets(line, sizeof(line), f)) {
		long long sub, comp, q, failed, dropped;
		unsigned int ctx, id, prio;
		int pid, err;

		ck_assert_int_eq(sscanf(line, "%d %u %u %u %lld %lld %lld %lld %d %15s %15s %lld", &pid, &ctx, &id,
					&prio, &sub, &comp, &q, &failed, &err, mode, state, &dropped), 12);
		if (pid == getpid() && id == (unsigned int)sid) {
			out->failed = failed;
			out->dropped = dropped;
			out->queued = q;
			strcpy(out->mode, mode);
			strcpy(out->state, state);
			found = 1;
		}
	}
	fclose(f);
	ck_assert(found);
}

static void *dev_zeroed(size_t n)
{
	void *p = vm_dev_alloc(n);

	ck_assert_int_eq(aclrtMemset(p, n, 0, n), ACL_SUCCESS);
	return p;
}

static void *host_alloc(size_t n)
{
	void *p = NULL;

	ck_assert_int_eq(aclrtMallocHost(&p, n), ACL_SUCCESS);
	return p;
}

static aclrtStreamStatus squery(aclrtStream s)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;

	ck_assert_int_eq(aclrtStreamQuery(s, &st), ACL_SUCCESS);
	return st;
}

/*
 * Polls until every task queued on s completed (ran or was dropped), in
 * the driver's view: a query of a failed STOP context answers the failure.
 */
static void await_complete(aclrtStream s)
{
	double end = vm_now() + 60;
	struct dbg_stream d;

	for (dbg_stream(s, &d); d.queued != 0; dbg_stream(s, &d)) {
		ck_assert_msg(vm_now() < end, "stream never completed");
		usleep(1000);
	}
}

/*
 * With the streams held: queue on s a D2H copy from d into pinned host
 * memory, then free that memory (unmapped): the copy fails with
 * ACL_ERROR_RT_COPY_DATA when it runs.
 */
static void queue_failing_copy(aclrtStream s, void *d)
{
	void *h = host_alloc(N);

	ck_assert_int_eq(aclrtMemcpyAsync(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
	/*
	 * Keep the freed range inaccessible: a later malloc (dev_equals) could
	 * otherwise get the same addresses before the stream runs the copy,
	 * which would then succeed into that buffer.
	 */
	(void)mmap(h, N, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
}

/* The failing copy, then a copy src -> dst and a value write of 1 to flag. */
static void queue_fail_then_work(aclrtStream s, void *d, void *dst, const void *src, void *flag)
{
	vm_stream_hold(1);
	queue_failing_copy(s, d);
	ck_assert_int_eq(aclrtMemcpyAsync(dst, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(flag, 1, 0, s), ACL_SUCCESS);
	vm_stream_hold(0);
}

static int dev_equals(const void *dev, const void *want)
{
	unsigned char *got = malloc(N);
	int same;

	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(aclrtMemcpy(got, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	same = memcmp(got, want, N) == 0;
	free(got);
	return same;
}

START_TEST(stop_on_failure_skips_the_rest)
{
	unsigned char *src = host_alloc(N), *zero = calloc(1, N);
	void *d = dev_zeroed(N), *dst = dev_zeroed(N), *vals = dev_zeroed(4096);
	char *flag = vals, *flag2 = (char *)vals + 8;
	aclrtStreamAttrValue v = { .failureMode = 7 };
	aclrtEventRecordedStatus rs;
	aclrtEventWaitStatus ws;
	struct dbg_stream dbg;
	aclrtStreamStatus st;
	aclrtEventStatus es;
	aclrtEvent e0, e1;
	aclrtStream s, s2;
	uint64_t ts;
	float ms;

	ck_assert_ptr_nonnull(zero);
	vm_fill(src, N, 23);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.failureMode, ACL_CONTINUE_ON_FAILURE);
	ck_assert_int_eq(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.failureMode, ACL_STOP_ON_FAILURE);

	dbg_stream(s, &dbg);
	ck_assert_str_eq(dbg.mode, "stop");
	ck_assert_str_eq(dbg.state, "run");
	/* two records reached before the failure */
	ck_assert_int_eq(aclrtCreateEvent(&e0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e1, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(e1), ACL_SUCCESS);
	queue_fail_then_work(s, d, dst, src, flag);
	/* the tasks after the failure complete without running */
	await_complete(s);
	ck_assert_uint_eq(vm_dev_get_u64(flag), 0);
	ck_assert(dev_equals(dst, zero));
	dbg_stream(s, &dbg);
	ck_assert_int_eq(dbg.failed, 1);
	ck_assert_int_eq(dbg.dropped, 2);
	ck_assert_str_eq(dbg.state, "stopped");

	/*
	 * The context keeps the failure until the device is reset
	 * (Context::CheckTaskSend, CheckStatus): every submit is refused with
	 * its code, queueing nothing, and every synchronize and query of the
	 * context answers it, again and again.
	 */
	ck_assert_int_eq(aclrtValueWrite(flag2, 1, 0, s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtMemcpyAsync(dst, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtRecordEvent(e1, s), ACL_ERROR_RT_COPY_DATA);
	dbg_stream(s, &dbg);
	ck_assert_int_eq(dbg.dropped, 2);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 60000), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtStreamQuery(s, &st), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeDeviceWithTimeout(60000), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeEvent(e1), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(e1, 1000), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtQueryEvent(e1, &es), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtQueryEventStatus(e1, &rs), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(e1, &ws), ACL_ERROR_RT_COPY_DATA);
	/* the elapsed time and the timestamp have no such check */
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, e0, e1), ACL_SUCCESS);
	ck_assert_float_ge(ms, 0.0f);
	ck_assert_int_eq(aclrtEventGetTimestamp(e1, &ts), ACL_SUCCESS);
	/* a stream made now is the context's too; so is the default stream */
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(flag2, 2, 0, s2), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtValueWrite(flag2, 3, 0, NULL), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_COPY_DATA);
	/* an abort clears the stream's own error only */
	ck_assert_int_eq(aclrtStreamAbort(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_COPY_DATA);
	/* synchronous copies are the driver's, not stream tasks: they work */
	ck_assert_uint_eq(vm_dev_get_u64(flag2), 0);
	ck_assert(dev_equals(dst, zero));

	/* still STOP mode; back to CONTINUE is refused */
	ck_assert_int_eq(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
	v.failureMode = ACL_CONTINUE_ON_FAILURE;
	ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

	ck_assert_int_eq(aclrtDestroyEvent(e0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(e1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(src), ACL_SUCCESS);
	free(zero);

	/* the device reset ends it: the next primary context runs */
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	vals = dev_zeroed(4096);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.failureMode, ACL_CONTINUE_ON_FAILURE);
	ck_assert_int_eq(aclrtValueWrite(vals, 4, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 4);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
}
END_TEST

START_TEST(continue_on_failure_runs_the_rest)
{
	unsigned char *src = host_alloc(N);
	void *d = dev_zeroed(N), *dst = dev_zeroed(N), *vals = dev_zeroed(4096);
	struct dbg_stream dbg;
	aclrtStream s;

	vm_fill(src, N, 24);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_SUCCESS);
	queue_fail_then_work(s, d, dst, src, vals);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 1);
	ck_assert(dev_equals(dst, src));
	dbg_stream(s, &dbg);
	ck_assert_str_eq(dbg.mode, "continue");
	ck_assert_int_eq(dbg.failed, 1);
	ck_assert_int_eq(dbg.dropped, 0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(src), ACL_SUCCESS);
}
END_TEST

/*
 * The mode is the context's, as in the runtime (Stream::SetFailMode sets
 * the context's mode; Context::CheckStatus gives every stream of it the
 * failure): once a stream of a context is STOP, a failure on any stream of
 * it, a CONTINUE one too, stops all its streams, and every synchronize
 * reports the failure's code.  A stream of another context runs on (mode
 * bit 0 only counts).
 */
START_TEST(stop_mode_is_per_context)
{
	unsigned char *src = host_alloc(N), *zero = calloc(1, N);
	void *d = dev_zeroed(N), *dst = dev_zeroed(N), *dst2 = dev_zeroed(N), *vals = dev_zeroed(4096);
	char *flag = vals, *flag2 = (char *)vals + 8, *flag3 = (char *)vals + 16;
	aclrtStreamAttrValue v = { 0 };
	aclrtContext home, other;
	struct dbg_stream dbg;
	aclrtStream a, b, o;
	aclrtEvent ev;

	ck_assert_ptr_nonnull(zero);
	vm_fill(src, N, 25);
	ck_assert_int_eq(aclrtGetCurrentContext(&home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateContext(&other, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&o), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetCurrentContext(home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&ev), ACL_SUCCESS);
	v.failureMode = 3;	/* bit 0: STOP */
	ck_assert_int_eq(aclrtSetStreamAttribute(a, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamAttribute(a, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.failureMode, ACL_STOP_ON_FAILURE);
	ck_assert_int_eq(aclrtGetStreamAttribute(b, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.failureMode, ACL_CONTINUE_ON_FAILURE);

	/*
	 * b (CONTINUE) fails, then records ev and has work; a waits for ev
	 * (so it cannot run past the wait before b's failure) and has work;
	 * o, in the other context, has work.
	 */
	vm_stream_hold(1);
	queue_failing_copy(b, d);
	ck_assert_int_eq(aclrtRecordEvent(ev, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(dst2, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(flag2, 5, 0, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(a, ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(dst, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(flag, 1, 0, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetCurrentContext(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(flag3, 7, 0, o), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetCurrentContext(home), ACL_SUCCESS);
	vm_stream_hold(0);

	await_complete(a);
	await_complete(b);
	ck_assert_uint_eq(vm_dev_get_u64(flag), 0);
	ck_assert_uint_eq(vm_dev_get_u64(flag2), 0);
	ck_assert(dev_equals(dst, zero));
	ck_assert(dev_equals(dst2, zero));
	dbg_stream(a, &dbg);	/* its wait may have run: the work after it did not */
	ck_assert_int_eq(dbg.failed, 0);
	ck_assert_str_eq(dbg.state, "stopped");
	dbg_stream(b, &dbg);
	ck_assert_str_eq(dbg.mode, "continue");
	ck_assert_int_eq(dbg.failed, 1);
	ck_assert_int_eq(dbg.dropped, 3);
	ck_assert_str_eq(dbg.state, "stopped");
	/* the other context ran on */
	ck_assert_int_eq(aclrtSetCurrentContext(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(o), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(flag3), 7);
	ck_assert_int_eq(aclrtSetCurrentContext(home), ACL_SUCCESS);
	/* every stream of the context reports the failure at every
	 * synchronize and takes no more work; a new one neither */
	ck_assert_int_eq(aclrtSynchronizeStream(a), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeStream(b), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeStream(a), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtValueWrite(flag, 9, 0, a), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtValueWrite(flag2, 9, 0, b), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamAttribute(a, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.failureMode, ACL_CONTINUE_ON_FAILURE);
	ck_assert_int_eq(aclrtRecordEvent(ev, a), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(flag, 9, 0, NULL), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_COPY_DATA);
	ck_assert_uint_eq(vm_dev_get_u64(flag), 0);
	ck_assert_uint_eq(vm_dev_get_u64(flag2), 0);

	/* the other context runs on, its device synchronize too (it is the
	 * current context's: the runtime's Context::Synchronize) */
	ck_assert_int_eq(aclrtSetCurrentContext(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(flag3, 8, 0, o), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(flag3), 8);
	/* a stream of home is still refused from here: the failure is its context's */
	ck_assert_int_eq(aclrtSynchronizeStream(b), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSetCurrentContext(home), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetCurrentContext(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(o), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetCurrentContext(home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(src), ACL_SUCCESS);
	free(zero);
}
END_TEST

static void host_fn(void *arg)
{
	__atomic_add_fetch((int *)arg, 1, __ATOMIC_RELAXED);
}

/*
 * A created context in STOP mode fails: each kind of submit (each library
 * path to the driver's queue) is refused with the failure's code and
 * queues nothing; synchronous copies and frees still work; destroying the
 * context ends it, and the next context runs.
 */
START_TEST(failed_context_refuses_every_submit)
{
	aclrtMemManagedLocation devloc = { ACL_MEM_LOCATIONTYPE_DEVICE, 0 };
	void *d = dev_zeroed(N), *vals = dev_zeroed(4096), *blk = NULL, *m = NULL;
	aclrtMemPoolProps pp;
	aclrtContext home, c;
	aclrtMemPool pool;
	aclrtNotify nt;
	aclrtStream s, g;
	aclmdlRI ri;
	int ran = 0;

	ck_assert_int_eq(aclrtGetCurrentContext(&home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateContext(&c, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&g), ACL_SUCCESS);
	/* what the refused calls need, made before the failure */
	memset(&pp, 0, sizeof(pp));
	pp.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	pp.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	pp.maxSize = 4 * MiB;
	ck_assert_int_eq(aclrtMemPoolCreate(&pool, &pp), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&blk, 4096, pool, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateNotify(&nt, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureBegin(g, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(vals, 1, 0, g), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(g, &ri), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_SUCCESS);

	vm_stream_hold(1);
	queue_failing_copy(s, d);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_COPY_DATA);

	ck_assert_int_eq(aclrtMemsetAsync(vals, 4096, 7, 8, s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtLaunchHostFunc(s, host_fn, &ran), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(blk, s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtMemManagedPrefetchAsync(m, 2 * MiB, devloc, 0, s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtRecordNotify(nt, s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclmdlRIExecuteAsync(ri, g), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclmdlRIExecute(ri, -1), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeStream(g), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(ran, 0);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 0);
	/* the home context is not touched */
	ck_assert_int_eq(aclrtSetCurrentContext(home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(vals, 2, 0, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 2);

	/* destroying the context ends it */
	ck_assert_int_eq(aclrtSetCurrentContext(c), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(ri), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(nt), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(m), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(g), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateContext(&c, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(vals, 3, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchHostFunc(s, host_fn, &ran), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	ck_assert_int_eq(ran, 1);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 3);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetCurrentContext(home), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
}
END_TEST

START_TEST(failure_mode_bad_input)
{
	aclrtStream s;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSetStreamFailureMode((aclrtStream)&s, ACL_STOP_ON_FAILURE),
			 ACL_ERROR_RT_INVALID_HANDLE);
}
END_TEST

START_TEST(abort_drops_queued_work)
{
	unsigned char *src = host_alloc(N), *zero = calloc(1, N);
	void *d = dev_zeroed(N), *dst = dev_zeroed(N), *vals = dev_zeroed(4096);
	aclrtStream s;

	ck_assert_ptr_nonnull(zero);
	vm_fill(src, N, 26);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemcpyAsync(dst, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(vals, 1, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtStreamAbort(s), ACL_SUCCESS);	/* the held task stops too */
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_COMPLETE);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 0);
	ck_assert(dev_equals(dst, zero));
	/* usable after */
	ck_assert_int_eq(aclrtMemcpyAsync(dst, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert(dev_equals(dst, src));

	/* a CONTINUE stream's error goes with an abort */
	queue_fail_then_work(s, d, dst, src, vals);
	await_complete(s);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 1);
	ck_assert_int_eq(aclrtStreamAbort(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(vals, 4, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 4);

	/* the default stream; nothing queued */
	ck_assert_int_eq(aclrtStreamAbort(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamAbort(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamAbort(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(src), ACL_SUCCESS);
	free(zero);
}
END_TEST

struct sync_arg {
	aclrtStream s;
	aclError err;
	volatile pid_t tid;
};

static void *sync_thread(void *p)
{
	struct sync_arg *a = p;

	a->tid = (pid_t)syscall(SYS_gettid);
	a->err = aclrtSynchronizeStream(a->s);
	return NULL;
}

START_TEST(stop_holds_until_abort)
{
	void *vals = dev_zeroed(4096);
	char *f1 = vals, *f2 = (char *)vals + 8;
	struct sync_arg a = { .err = -1 };
	struct dbg_stream dbg;
	pthread_t t;
	aclrtStream s;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtValueWrite(f1, 1, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(f2, 1, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamStop(s), ACL_SUCCESS);
	vm_stream_hold(0);
	dbg_stream(s, &dbg);
	ck_assert_str_eq(dbg.state, "held");
	/* held by the stop: nothing runs, a synchronize waits */
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_uint_eq(vm_dev_get_u64(f2), 0);
	/* a synchronize waiting in another thread is released by the abort
	 * with ACL_ERROR_RT_STREAM_ABORT (the runtime's RT_ERROR_STREAM_ABORT) */
	a.s = s;
	ck_assert_int_eq(pthread_create(&t, NULL, sync_thread, &a), 0);
	while (a.tid == 0)
		usleep(1000);
	vm_wait_blocked_in_ioctl(a.tid, NPU_SIM_IOCTL_STREAM_SYNC);
	ck_assert_int_eq(aclrtStreamAbort(s), ACL_SUCCESS);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(a.err, ACL_ERROR_RT_STREAM_ABORT);
	/* the abort is reported to the waiters only: a later synchronize succeeds */
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(f1), 0);
	ck_assert_uint_eq(vm_dev_get_u64(f2), 0);
	dbg_stream(s, &dbg);
	ck_assert_str_eq(dbg.state, "run");
	ck_assert_int_eq(dbg.failed, 0);
	/* runs again */
	ck_assert_int_eq(aclrtValueWrite(f2, 3, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(f2), 3);


	/* a destroy of a stopped stream drops its work (no hang) */
	ck_assert_int_eq(aclrtStreamStop(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(f1, 8, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(f1), 0);

	ck_assert_int_eq(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtStreamStop(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
}
END_TEST

START_TEST(queries_exact_values)
{
	aclrtStreamConfigHandle *cfg;
	aclrtStream a, b, c, d, def, def2;
	int32_t id_a = 0, id_b = 0, id_def = 0, id_null = 0, least = -1, greatest = -1;
	uint32_t prio = 99, flags = 99;
	uint32_t u32;
	size_t sz;

	ck_assert_int_eq(aclrtCreateStream(&a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStreamWithConfig(&b, 3, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_HUGE | 0x100),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStreamWithConfig(&c, 100, ACL_STREAM_CPU_SCHEDULE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamGetPriority(a, &prio), ACL_SUCCESS);
	ck_assert_uint_eq(prio, 0);
	ck_assert_int_eq(aclrtStreamGetFlags(a, &flags), ACL_SUCCESS);
	ck_assert_uint_eq(flags, 0);
	ck_assert_int_eq(aclrtStreamGetPriority(b, &prio), ACL_SUCCESS);
	ck_assert_uint_eq(prio, 3);
	ck_assert_int_eq(aclrtStreamGetFlags(b, &flags), ACL_SUCCESS);
	ck_assert_uint_eq(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_HUGE);
	ck_assert_int_eq(aclrtStreamGetPriority(c, &prio), ACL_SUCCESS);
	ck_assert_uint_eq(prio, 7);
	ck_assert_int_eq(aclrtStreamGetFlags(c, &flags), ACL_SUCCESS);
	ck_assert_uint_eq(flags, ACL_STREAM_CPU_SCHEDULE);

	/* V2 with a configuration */
	cfg = aclrtCreateStreamConfigHandle();
	ck_assert_ptr_nonnull(cfg);
	ck_assert_uint_eq(cfg->priority, 0);
	ck_assert_uint_eq(cfg->flag, 0);
	u32 = 5;
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_PRIORITY, &u32, sizeof(u32)), ACL_SUCCESS);
	sz = ACL_STREAM_FAST_SYNC;
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_FLAG, &sz, sizeof(sz)), ACL_SUCCESS);
	sz = 4096;
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_WORK_SIZE, &sz, sizeof(sz)), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_WORK_ADDR_PTR, &cfg, sizeof(void *)), ACL_SUCCESS);
	ck_assert_uint_eq(cfg->workSize, 4096);
	ck_assert_ptr_eq(cfg->workptr, cfg);
	ck_assert_int_eq(aclrtCreateStreamV2(&d, cfg), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamGetPriority(d, &prio), ACL_SUCCESS);
	ck_assert_uint_eq(prio, 5);
	ck_assert_int_eq(aclrtStreamGetFlags(d, &flags), ACL_SUCCESS);
	ck_assert_uint_eq(flags, ACL_STREAM_FAST_SYNC);
	ck_assert_int_eq(aclrtDestroyStream(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStreamV2(&d, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamGetPriority(d, &prio), ACL_SUCCESS);
	ck_assert_uint_eq(prio, 0);
	ck_assert_int_eq(aclrtStreamGetFlags(d, &flags), ACL_SUCCESS);
	ck_assert_uint_eq(flags, 0);
	ck_assert_int_eq(aclrtDestroyStream(d), ACL_SUCCESS);
	sz = ACL_STREAM_DEVICE_USE_ONLY;
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_FLAG, &sz, sizeof(sz)), ACL_SUCCESS);
	d = NULL;
	ck_assert_int_eq(aclrtCreateStreamV2(&d, cfg), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_ptr_null(d);
	ck_assert_int_eq(aclrtDestroyStreamConfigHandle(cfg), ACL_SUCCESS);

	/* ids: distinct, the default stream's one handle */
	ck_assert_int_eq(aclrtStreamGetId(a, &id_a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamGetId(b, &id_b), ACL_SUCCESS);
	ck_assert_int_gt(id_a, 0);
	ck_assert_int_gt(id_b, 0);
	ck_assert_int_ne(id_a, id_b);
	ck_assert_int_eq(aclrtCtxGetCurrentDefaultStream(&def), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCtxGetCurrentDefaultStream(&def2), ACL_SUCCESS);
	ck_assert_ptr_eq(def, def2);
	ck_assert_ptr_nonnull(def);
	ck_assert_int_eq(aclrtStreamGetId(def, &id_def), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamGetId(NULL, &id_null), ACL_SUCCESS);
	ck_assert_int_eq(id_def, id_null);
	ck_assert_int_ne(id_def, id_a);
	ck_assert_int_eq(aclrtStreamGetPriority(def, &prio), ACL_SUCCESS);
	ck_assert_uint_eq(prio, 0);
	ck_assert_int_eq(aclrtStreamGetFlags(NULL, &flags), ACL_SUCCESS);
	ck_assert_uint_eq(flags, 0);
	ck_assert_int_eq(aclrtDestroyStream(def), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStream(def), ACL_SUCCESS);

	/* priority range; the attribute sets it, clamped as the runtime */
	ck_assert_int_eq(aclrtDeviceGetStreamPriorityRange(&least, &greatest), ACL_SUCCESS);
	ck_assert_int_eq(least, 7);
	ck_assert_int_eq(greatest, 0);
	ck_assert_int_eq(aclrtDeviceGetStreamPriorityRange(NULL, NULL), ACL_SUCCESS);
	{
		aclrtStreamAttrValue v = { .streamPriority = 6 };

		ck_assert_int_eq(aclrtSetStreamAttribute(a, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
		ck_assert_int_eq(aclrtStreamGetPriority(a, &prio), ACL_SUCCESS);
		ck_assert_uint_eq(prio, 6);
		v.streamPriority = UINT32_MAX;	/* -1: the greatest */
		ck_assert_int_eq(aclrtSetStreamAttribute(a, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
		v.streamPriority = 9;
		ck_assert_int_eq(aclrtGetStreamAttribute(a, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
		ck_assert_uint_eq(v.streamPriority, 0);
		v.streamPriority = 9;
		ck_assert_int_eq(aclrtSetStreamAttribute(a, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
		ck_assert_int_eq(aclrtStreamGetPriority(a, &prio), ACL_SUCCESS);
		ck_assert_uint_eq(prio, 7);
	}

	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(c), ACL_SUCCESS);
}
END_TEST

START_TEST(queries_bad_input)
{
	aclrtStreamConfigHandle *cfg = aclrtCreateStreamConfigHandle();
	uint32_t u32 = 0, flags = 0;
	int32_t id = 0;
	size_t sz = 0;
	aclrtStream s, dead;

	ck_assert_ptr_nonnull(cfg);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);

	ck_assert_int_eq(aclrtStreamGetId(s, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtStreamGetFlags(s, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtStreamGetPriority(s, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtStreamGetId(dead, &id), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtStreamGetFlags(dead, &flags), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtStreamGetPriority(dead, &u32), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM);

	ck_assert_int_eq(aclrtDestroyStreamConfigHandle(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_PRIORITY, &u32, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_PRIORITY, NULL, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, (aclrtStreamConfigAttr)4, &sz, 8), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, (aclrtStreamConfigAttr)-1, &sz, 8), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_PRIORITY, &sz, 8), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_FLAG, &u32, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_WORK_SIZE, &u32, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_WORK_ADDR_PTR, &u32, 4), ACL_ERROR_INVALID_PARAM);
	u32 = 8;
	ck_assert_int_eq(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_PRIORITY, &u32, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(cfg->priority, 0);	/* unchanged */
	ck_assert_int_eq(aclrtCreateStreamV2(NULL, cfg), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDestroyStreamConfigHandle(cfg), ACL_SUCCESS);

	ck_assert_int_eq(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtActiveStream(NULL, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtActiveStream(s, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtActiveStream(dead, s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtActiveStream(s, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* Only model-bound streams activate one another: none here. */
START_TEST(active_stream_needs_models)
{
	aclrtStream a, b;

	ck_assert_int_eq(aclrtCreateStream(&a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtActiveStream(a, b), ACL_ERROR_RT_STREAM_MODEL);
	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
}
END_TEST

START_TEST(available_streams)
{
	aclrtStream def, s[3];
	uint32_t n = 0;
	int i;

	ck_assert_int_eq(aclrtCtxGetCurrentDefaultStream(&def), ACL_SUCCESS);	/* creates it */
	ck_assert_int_eq(aclrtGetStreamAvailableNum(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 1024 - 1);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(aclrtCreateStream(&s[i]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamAvailableNum(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 1024 - 4);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(aclrtDestroyStream(s[i]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamAvailableNum(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 1024 - 1);
}
END_TEST

START_TEST(attributes)
{
	aclrtStreamAttrValue v;
	aclrtStream s, dead;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);
	memset(&v, 0xff, sizeof(v));
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.overflowSwitch, 0);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.userCustomTag, 0);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.cacheOpInfoSwitch, 0);

	v.overflowSwitch = 1;
	ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_SUCCESS);
	v.userCustomTag = 0x1234;
	ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
	v.cacheOpInfoSwitch = 1;
	ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v), ACL_SUCCESS);
	v.overflowSwitch = 2;
	ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	v.cacheOpInfoSwitch = 2;
	ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.overflowSwitch, 1);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.userCustomTag, 0x1234);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.cacheOpInfoSwitch, 1);
	/* the default stream has its own */
	ck_assert_int_eq(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v.userCustomTag, 0);
	v.userCustomTag = 77;
	ck_assert_int_eq(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
	{
		aclrtStream def;

		ck_assert_int_eq(aclrtCtxGetCurrentDefaultStream(&def), ACL_SUCCESS);
		v.userCustomTag = 0;
		ck_assert_int_eq(aclrtGetStreamAttribute(def, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
		ck_assert_uint_eq(v.userCustomTag, 77);
	}

	ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamAttribute(s, (aclrtStreamAttr)0, &v), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetStreamAttribute(s, (aclrtStreamAttr)6, &v), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, (aclrtStreamAttr)6, &v), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetStreamAttribute(dead, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v),
			 ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSetStreamAttribute(dead, (aclrtStreamAttr)6, &v), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtGetStreamAttribute(dead, ACL_STREAM_ATTR_FAILURE_MODE, &v),
			 ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtGetStreamAttribute(dead, ACL_STREAM_ATTR_CACHE_OP_INFO, &v),
			 ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(device_sync_with_timeout)
{
	unsigned char *src = host_alloc(N);
	void *d = dev_zeroed(N), *dst = dev_zeroed(N), *vals = dev_zeroed(4096);
	aclrtStream s;

	vm_fill(src, N, 27);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_PARAM_INVALID);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtValueWrite(vals, 1, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeDeviceWithTimeout(50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeDeviceWithTimeout(60000), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 1);
	queue_fail_then_work(s, d, dst, src, vals);
	ck_assert_int_eq(aclrtSynchronizeDeviceWithTimeout(-1), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeDeviceWithTimeout(-1), ACL_SUCCESS);
	ck_assert(dev_equals(dst, src));
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(src), ACL_SUCCESS);
}
END_TEST

/* Calls of a thread that never set a device. */
static void *no_device_thread(void *p)
{
	aclError *e = p;
	uint32_t v = 0;
	aclrtStream s = NULL;

	e[0] = aclrtSynchronizeDeviceWithTimeout(100);
	e[1] = aclrtSynchronizeDeviceWithTimeout(0);
	e[2] = aclrtGetStreamAvailableNum(&v);
	e[3] = aclrtCtxGetCurrentDefaultStream(&s);
	e[4] = aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v);
	e[5] = aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE);
	e[6] = aclrtStreamGetId(NULL, (int32_t *)&v);
	return NULL;
}

START_TEST(no_current_device)
{
	aclError e[7];
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, no_device_thread, e), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(e[0], ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(e[1], ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(e[2], ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(e[3], ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(e[4], ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(e[5], ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(e[6], ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

struct res_arg {
	aclrtStream s;
	uint32_t before, during, after;
	aclError e[4];
};

/* A thread's resource stream is its own: set, read, unset in a thread. */
static void *res_thread(void *p)
{
	struct res_arg *a = p;

	a->e[0] = aclrtSetDevice(0);
	a->e[1] = aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &a->before);
	a->e[2] = aclrtUseStreamResInCurrentThread(a->s);
	a->e[3] = aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &a->during);
	(void)aclrtUnuseStreamResInCurrentThread(a->s);
	(void)aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &a->after);
	(void)aclrtResetDevice(0);
	return NULL;
}

START_TEST(resource_limits)
{
	struct res_arg a = { 0 };
	aclrtStream s, other, dead;
	uint32_t v = 0;
	pthread_t t;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);
	/* the device's numbers (Atlas A2, Ascend910B1: 24 cube, 48 vector) */
	ck_assert_int_eq(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 24);
	ck_assert_int_eq(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 48);
	ck_assert_int_eq(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 10), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 48);
	ck_assert_int_eq(aclrtGetStreamResLimit(other, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 24);
	ck_assert_int_eq(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, 48), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, 49), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 25), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetStreamResLimit(s, (aclrtDevResLimitType)2, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetStreamResLimit(s, (aclrtDevResLimitType)2, &v), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamResLimit(dead, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSetStreamResLimit(dead, (aclrtDevResLimitType)2, 1), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtGetStreamResLimit(dead, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtResetStreamResLimit(dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtUseStreamResInCurrentThread(dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtUnuseStreamResInCurrentThread(dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 10);	/* unchanged by the refused calls */

	/* this thread */
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 24);
	ck_assert_int_eq(aclrtUseStreamResInCurrentThread(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 48);
	ck_assert_int_eq(aclrtUnuseStreamResInCurrentThread(other), ACL_SUCCESS);	/* not its stream */
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(aclrtGetResInCurrentThread((aclrtDevResLimitType)2, &v), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM);

	/* another thread does not see this one's resource stream */
	a.s = s;
	ck_assert_int_eq(pthread_create(&t, NULL, res_thread, &a), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(a.e[0], ACL_SUCCESS);
	ck_assert_int_eq(a.e[1], ACL_SUCCESS);
	ck_assert_int_eq(a.e[2], ACL_SUCCESS);
	ck_assert_int_eq(a.e[3], ACL_SUCCESS);
	ck_assert_uint_eq(a.before, 24);
	ck_assert_uint_eq(a.during, 10);
	ck_assert_uint_eq(a.after, 24);
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 10);

	/* reset: the device's again; unuse: the device's */
	ck_assert_int_eq(aclrtResetStreamResLimit(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 24);
	ck_assert_int_eq(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnuseStreamResInCurrentThread(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 24);
	/* a destroyed resource stream counts as none */
	ck_assert_int_eq(aclrtUseStreamResInCurrentThread(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 24);
	/* the default stream */
	ck_assert_int_eq(aclrtSetStreamResLimit(NULL, ACL_RT_DEV_RES_VECTOR_CORE, 7), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamResLimit(NULL, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(aclrtUseStreamResInCurrentThread(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(aclrtResetStreamResLimit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 48);
	ck_assert_int_eq(aclrtDestroyStream(other), ACL_SUCCESS);
}
END_TEST

#define MAX_SEEN 16
static struct {
	aclrtStream stm;
	aclrtStreamState state;
	void *args;
} seen[MAX_SEEN];
static int nseen;

static void record_state(aclrtStream stm, aclrtStreamState state, void *args)
{
	if (nseen < MAX_SEEN) {
		seen[nseen].stm = stm;
		seen[nseen].state = state;
		seen[nseen].args = args;
	}
	nseen++;
}

START_TEST(state_callbacks)
{
	int token = 0;
	aclrtStream s, s2;
	aclrtContext ctx;

	ck_assert_int_eq(aclrtRegStreamStateCallback(NULL, record_state, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtRegStreamStateCallback("t", record_state, &token), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRegStreamStateCallback("t", record_state, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(nseen, 1);
	ck_assert_ptr_eq(seen[0].stm, s);
	ck_assert_int_eq(seen[0].state, ACL_RT_STREAM_STATE_CREATE_POST);
	ck_assert_ptr_eq(seen[0].args, &token);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(nseen, 2);
	ck_assert_ptr_eq(seen[1].stm, s);
	ck_assert_int_eq(seen[1].state, ACL_RT_STREAM_STATE_DESTROY_PRE);
	/* a failed destroy is no state change: still one before it */
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(nseen, 2);
	/* streams that go with their context */
	ck_assert_int_eq(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(ctx), ACL_SUCCESS);
	ck_assert_int_eq(nseen, 4);
	ck_assert_ptr_eq(seen[3].stm, s2);
	ck_assert_int_eq(seen[3].state, ACL_RT_STREAM_STATE_DESTROY_PRE);
	/* removed: no more calls; removing again is no error */
	ck_assert_int_eq(aclrtRegStreamStateCallback("t", NULL, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRegStreamStateCallback("t", NULL, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(nseen, 4);
	ck_assert_int_eq(aclrtRegStreamStateCallback("t", record_state, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRegStreamStateCallback("t", NULL, NULL), ACL_SUCCESS);
}
END_TEST

/* The driver's STREAM_CTL checks, without the library. */
START_TEST(stream_ctl_ioctl_input)
{
	struct npu_sim_stream_create sc = { .ctx_id = 1, .flags = NPU_SIM_STREAM_FAST_SYNC, .priority = 2 };
	struct npu_sim_stream_ctl c;
	struct vm_raw r;

	vm_raw_open(&r, 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc), 0);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_QUERY };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	ck_assert_uint_eq(c.mode, NPU_SIM_CONTINUE_ON_FAILURE);
	ck_assert_uint_eq(c.priority, 2);
	ck_assert_uint_eq(c.flags, NPU_SIM_STREAM_FAST_SYNC);
	ck_assert_uint_eq(c.state, 0);
	ck_assert_uint_eq(c.dropped, 0);
	/* out fields and reserved must be 0 on input */
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_QUERY, .reserved = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_QUERY, .dropped = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_QUERY, .value = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = 0 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_CTX_FAILURE + 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_SET_MODE, .value = 2 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_SET_PRIORITY,
					 .value = NPU_SIM_STREAM_PRIORITY_MAX + 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_AVAIL };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = sc.id + 1000, .op = NPU_SIM_STREAM_CTL_ABORT };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), ENOENT);
	/* nothing changed by the refused calls */
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_QUERY };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	ck_assert_uint_eq(c.mode, NPU_SIM_CONTINUE_ON_FAILURE);
	ck_assert_uint_eq(c.priority, 2);
	/* set, and the one refused transition */
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_SET_MODE,
					 .value = NPU_SIM_STOP_ON_FAILURE };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_SET_MODE,
					 .value = NPU_SIM_CONTINUE_ON_FAILURE };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EOPNOTSUPP);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_STOP };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_QUERY };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	ck_assert_uint_eq(c.mode, NPU_SIM_STOP_ON_FAILURE);
	ck_assert_uint_eq(c.state, NPU_SIM_STREAM_HELD);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_ABORT };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	c = (struct npu_sim_stream_ctl){ .id = sc.id, .op = NPU_SIM_STREAM_CTL_QUERY };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	ck_assert_uint_eq(c.state, 0);
	c = (struct npu_sim_stream_ctl){ .op = NPU_SIM_STREAM_CTL_AVAIL };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	ck_assert_uint_eq(c.value, NPU_SIM_MAX_STREAMS - 1);
	/* CTX_FAILURE (1.12): @id is a context id; nothing failed: 0 */
	c = (struct npu_sim_stream_ctl){ .id = 77, .op = NPU_SIM_STREAM_CTL_CTX_FAILURE, .value = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = 77, .op = NPU_SIM_STREAM_CTL_CTX_FAILURE, .state = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), EINVAL);
	c = (struct npu_sim_stream_ctl){ .id = 77, .op = NPU_SIM_STREAM_CTL_CTX_FAILURE };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	ck_assert_uint_eq(c.value, 0);
	c = (struct npu_sim_stream_ctl){ .id = sc.ctx_id, .op = NPU_SIM_STREAM_CTL_CTX_FAILURE };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CTL, &c), 0);
	ck_assert_uint_eq(c.value, 0);
	vm_raw_close(&r);
}
END_TEST

struct blocked_arg {
	aclrtStream s;	/* NULL: synchronize the device (with a timeout) */
	aclrtEvent ev;	/* not NULL: synchronize it (timeout_ms: with one) */
	int32_t timeout_ms;
	pid_t tid;
	aclError err;
};

static void *blocked_sync(void *p)
{
	struct blocked_arg *a = p;
	aclError set = aclrtSetDevice(0);	/* a new thread has no device */

	__atomic_store_n(&a->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (a->ev != NULL)
		a->err = a->timeout_ms ? aclrtSynchronizeEventWithTimeout(a->ev, a->timeout_ms) :
					 aclrtSynchronizeEvent(a->ev);
	else
		a->err = a->s != NULL ? aclrtSynchronizeStream(a->s) : aclrtSynchronizeDeviceWithTimeout(60000);
	if (set == ACL_SUCCESS)
		(void)aclrtResetDevice(0);
	else
		a->err = set;
	return NULL;
}

static pid_t await_tid(struct blocked_arg *a)
{
	pid_t tid;

	while ((tid = __atomic_load_n(&a->tid, __ATOMIC_ACQUIRE)) == 0)
		usleep(1000);
	return tid;
}

/*
 * Synchronizes waiting on a stopped stream hold no library lock: other
 * threads' create, destroy, set/reset device and stream control go on; the
 * abort releases both.
 */
START_TEST(waits_hold_no_lock)
{
	struct blocked_arg dev_wait = { 0 }, stream_wait = { 0 };
	void *vals = dev_zeroed(4096);
	aclrtStream s, b;
	pthread_t t1, t2;
	uint32_t n = 0;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamStop(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(vals, 1, 0, s), ACL_SUCCESS);
	stream_wait.s = s;
	ck_assert_int_eq(pthread_create(&t1, NULL, blocked_sync, &dev_wait), 0);
	ck_assert_int_eq(pthread_create(&t2, NULL, blocked_sync, &stream_wait), 0);
	vm_wait_blocked_in_ioctl(await_tid(&dev_wait), NPU_SIM_IOCTL_STREAM_SYNC);
	vm_wait_blocked_in_ioctl(await_tid(&stream_wait), NPU_SIM_IOCTL_STREAM_SYNC);

	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamFailureMode(b, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamAvailableNum(&n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);

	ck_assert_int_eq(aclrtStreamAbort(s), ACL_SUCCESS);
	ck_assert_int_eq(pthread_join(t1, NULL), 0);
	ck_assert_int_eq(pthread_join(t2, NULL), 0);
	/* both released by the abort: ACL_ERROR_RT_STREAM_ABORT (a device-wide
	 * synchronize too: the runtime's RT_ERROR_STREAM_ABORT of the stream) */
	ck_assert_int_eq(dev_wait.err, ACL_ERROR_RT_STREAM_ABORT);
	ck_assert_int_eq(stream_wait.err, ACL_ERROR_RT_STREAM_ABORT);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
}
END_TEST

/*
 * An event synchronize waiting for a record that aclrtStreamAbort drops
 * answers ACL_ERROR_RT_STREAM_ABORT, as the runtime's (Event::ReclaimTask:
 * the record's stream in abort state); one made after the abort succeeds.
 * With and without a timeout.
 */
START_TEST(event_sync_released_by_abort)
{
	void *vals = dev_zeroed(4096);
	struct blocked_arg w[2] = { 0 };
	aclrtEvent ev, ev2;
	pthread_t t[2];
	aclrtStream s;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&ev2), ACL_SUCCESS);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtValueWrite(vals, 1, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(ev, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(ev2, s), ACL_SUCCESS);
	w[0].ev = ev;
	w[1].ev = ev2;
	w[1].timeout_ms = 60000;
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(pthread_create(&t[i], NULL, blocked_sync, &w[i]), 0);
		vm_wait_blocked_in_ioctl(await_tid(&w[i]), NPU_SIM_IOCTL_EVENT_SYNC);
	}
	ck_assert_int_eq(aclrtStreamAbort(s), ACL_SUCCESS);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	vm_stream_hold(0);
	ck_assert_int_eq(w[0].err, ACL_ERROR_RT_STREAM_ABORT);
	ck_assert_int_eq(w[1].err, ACL_ERROR_RT_STREAM_ABORT);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 0);
	/* after the abort: nothing to wait for */
	ck_assert_int_eq(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev2, 1000), ACL_SUCCESS);
	/* recorded again and reached: success */
	ck_assert_int_eq(aclrtRecordEvent(ev, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(ev), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(ev2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
}
END_TEST

static Suite *stream_api_suite(void)
{
	Suite *s = suite_create("stream_api");
	TCase *tc = tcase_create("stream_api");

	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_checked_fixture(tc, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_add_test(tc, stop_on_failure_skips_the_rest);
	tcase_add_test(tc, continue_on_failure_runs_the_rest);
	tcase_add_test(tc, stop_mode_is_per_context);
	tcase_add_test(tc, failed_context_refuses_every_submit);
	tcase_add_test(tc, failure_mode_bad_input);
	tcase_add_test(tc, abort_drops_queued_work);
	tcase_add_test(tc, event_sync_released_by_abort);
	tcase_add_test(tc, stop_holds_until_abort);
	tcase_add_test(tc, queries_exact_values);
	tcase_add_test(tc, queries_bad_input);
	tcase_add_test(tc, active_stream_needs_models);
	tcase_add_test(tc, available_streams);
	tcase_add_test(tc, attributes);
	tcase_add_test(tc, device_sync_with_timeout);
	tcase_add_test(tc, no_current_device);
	tcase_add_test(tc, resource_limits);
	tcase_add_test(tc, state_callbacks);
	tcase_add_test(tc, stream_ctl_ioctl_input);
	tcase_add_test(tc, waits_hold_no_lock);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(stream_api_suite());
}
