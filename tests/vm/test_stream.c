// SPDX-License-Identifier: GPL-2.0
/*
 * Streams, events and asynchronous copies (issue 5): in-order execution,
 * event ordering across streams, synchronize / query semantics, pinned vs
 * pageable host memory, errors of queued work surfacing at the next
 * synchronize, aclrtFree vs aclrtFreeWithDevSync with queued work, destroyed
 * handles, debugfs stream counts, and a process exiting with queued work.
 *
 * "Not ready while queued" is made deterministic with the test-only debugfs
 * knob npu_sim0/stream_hold: while it is 1 the driver's stream workers do
 * not start any operation; while it is "PID:STREAM" only that stream is
 * held, which proves other streams overlap it.  No assertion depends on
 * timing.  The debugfs events table is checked value by value.
 */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
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

#define HOLD_PATH "/sys/kernel/debug/npu_sim/npu_sim0/stream_hold"
#define STREAMS_PATH "/sys/kernel/debug/npu_sim/npu_sim0/streams"
#define EVENTS_PATH "/sys/kernel/debug/npu_sim/npu_sim0/events"

static void hold(int on)
{
	ck_assert_int_eq(vm_write_str(HOLD_PATH, on ? "1" : "0"), 0);
}

/* Holds only driver stream @sid of this process (0 releases everything). */
static void hold_stream(unsigned int sid)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%d:%u\n", (int)getpid(), sid);
	ck_assert_int_eq(vm_write_str(HOLD_PATH, buf), 0);
}

/* The whole content of a small file. */
static void read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void setup(void)
{
	vm_acl_setup();
	hold(0);
}

static void teardown(void)
{
	hold(0);
	vm_acl_teardown();
}

static void *dev_alloc(size_t n)
{
	void *p = NULL;

	ck_assert_int_eq(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
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

static aclrtEventRecordedStatus equery(aclrtEvent e)
{
	aclrtEventRecordedStatus st = (aclrtEventRecordedStatus)-1;

	ck_assert_int_eq(aclrtQueryEventStatus(e, &st), ACL_SUCCESS);
	return st;
}

/* Values of our pid's line for stream column "stream" == sid (by order). */
static int dbg_stream_line(pid_t pid, long nth, long long *submitted, long long *completed,
			   long long *queued)
{
	char line[256];
	long seen = 0;
	FILE *f = fopen(STREAMS_PATH, "r");
	int found = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "pid ctx stream priority submitted completed queued failed error mode state "
			 "dropped\n");
	while (fgets(line, sizeof(line), f)) {
		int p;
		unsigned int ctx, sid, prio;
		long long sub, comp, q, failed;
		int err;

		ck_assert_int_eq(sscanf(line, "%d %u %u %u %lld %lld %lld %lld %d", &p, &ctx, &sid, &prio,
					&sub, &comp, &q, &failed, &err), 9);
		if (p == pid && seen++ == nth) {
			*submitted = sub;
			*completed = comp;
			*queued = q;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Counters of driver stream @sid of @pid in the streams table; 1 if listed. */
static int dbg_stream_by_id(pid_t pid, unsigned int want, unsigned int *ctx_out,
			    long long *submitted, long long *completed, long long *queued)
{
	char line[256];
	FILE *f = fopen(STREAMS_PATH, "r");
	int found = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		int p, err;
		unsigned int ctx, sid, prio;
		long long sub, comp, q, failed;

		ck_assert_int_eq(sscanf(line, "%d %u %u %u %lld %lld %lld %lld %d", &p, &ctx, &sid, &prio,
					&sub, &comp, &q, &failed, &err), 9);
		if (p == pid && sid == want) {
			*ctx_out = ctx;
			*submitted = sub;
			*completed = comp;
			*queued = q;
			found++;
		}
	}
	fclose(f);
	return found;
}

/*
 * The driver id of the newest stream (events: @path EVENTS_PATH) of @pid:
 * ids of one file are handed out upwards from 1, so it is the largest.
 */
static unsigned int dbg_newest_id(const char *path, pid_t pid)
{
	char line[256];
	unsigned int best = 0;
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		int p;
		unsigned int ctx, id;

		ck_assert_int_eq(sscanf(line, "%d %u %u", &p, &ctx, &id), 3);
		if (p == pid && id > best)
			best = id;
	}
	fclose(f);
	ck_assert_uint_gt(best, 0);
	return best;
}

struct ev_row {
	unsigned int ctx;
	long long recorded, completed, pending;
	unsigned long long ts;
};

/* Row of driver event @eid of @pid in the events table; 1 if listed. */
static int dbg_event(pid_t pid, unsigned int eid, struct ev_row *r)
{
	char line[256];
	FILE *f = fopen(EVENTS_PATH, "r");
	int found = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "pid ctx event recorded completed pending timestamp_ns ipc\n");
	while (fgets(line, sizeof(line), f)) {
		struct ev_row x;
		unsigned int id;
		int p;

		ck_assert_int_eq(sscanf(line, "%d %u %u %lld %lld %lld %llu", &p, &x.ctx, &id, &x.recorded,
					&x.completed, &x.pending, &x.ts), 7);
		if (p == pid && id == eid) {
			*r = x;
			found++;
		}
	}
	fclose(f);
	return found;
}

/* Rows of debugfs table @path (after its header) that belong to @pid. */
static long dbg_rows_of(const char *path, pid_t pid)
{
	char line[256];
	long n = 0;
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		int p;

		if (sscanf(line, "%d", &p) == 1 && p == pid)
			n++;
	}
	fclose(f);
	return n;
}

static long dbg_events_of(pid_t pid)
{
	return dbg_rows_of(EVENTS_PATH, pid);
}

static long dbg_streams_of(pid_t pid)
{
	return dbg_rows_of(STREAMS_PATH, pid);
}

/* The vendor sample's flow: stream, pinned H2D, D2H, synchronize, verify. */
START_TEST(test_async_roundtrip)
{
	const size_t n = 8 * MiB;
	unsigned char *h = host_alloc(n), *back = host_alloc(n);
	void *d = dev_alloc(n);
	aclrtStream s = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_ptr_nonnull(s);
	vm_fill(h, n, 11);
	memset(back, 0, n);
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(back, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(h, back, n), 0);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(back), ACL_SUCCESS);
}
END_TEST

/* Held work is not ready; queries never wait; timeouts report 507046. */
START_TEST(test_not_ready_while_queued)
{
	const size_t n = 1 * MiB;
	unsigned char *h = host_alloc(n);
	void *d = dev_alloc(n);
	aclrtStream s = NULL;
	aclrtEvent e = NULL;
	float ms = -1;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	/* an event never recorded is not ready (a sync returns at once); elapsed time needs records */
	ck_assert_int_eq(equery(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtSynchronizeEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, e, e), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_COMPLETE);

	hold(1);
	memset(h, 0x5a, n);
	/* pinned memory: returns although nothing can run */
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, s), ACL_SUCCESS);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(equery(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, e, e), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_NOT_READY);
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, -1), ACL_SUCCESS);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(equery(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, e, e), ACL_SUCCESS);
	ck_assert(ms == 0.0f);

	memset(h, 0, n);
	ck_assert_int_eq(aclrtMemcpy(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(vm_all_bytes(h, n, 0x5a));

	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, -2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtStreamQuery(s, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtQueryEventStatus(e, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
}
END_TEST

/* One stream runs in order: the last write wins, the read sees it. */
START_TEST(test_in_order)
{
	const size_t n = 4 * MiB;
	unsigned char *h = host_alloc(n), *back = host_alloc(n);
	unsigned char *d = dev_alloc(n), *d2 = dev_alloc(n);
	aclrtStream s = NULL;

	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 3, ACL_STREAM_FAST_LAUNCH), ACL_SUCCESS);
	hold(1);
	memset(h, 0x11, n);
	ck_assert_int_eq(aclrtMemsetAsync(d, n, 0x01, n, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(d + n / 2, n / 2, 0x22, n / 2, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(d2, n, d, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(back, n, d2, n, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert(vm_all_bytes(back, n, 0));	/* aclrtMallocHost memory: zero, untouched */
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert(vm_all_bytes(back, n / 2, 0x11));
	ck_assert(vm_all_bytes(back + n / 2, n / 2, 0x22));

	/* 2D: rows of 100 bytes out of a 256-byte pitch */
	memset(h, 0x33, n);
	ck_assert_int_eq(aclrtMemsetAsync(d, n, 0, n, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy2dAsync(d, 256, h, 100, 100, 16, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(back, n, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	for (int r = 0; r < 16; r++) {
		ck_assert(vm_all_bytes(back + r * 256, 100, 0x33));
		ck_assert(vm_all_bytes(back + r * 256 + 100, 156, 0));
	}
	ck_assert(vm_all_bytes(back + 16 * 256, 4096 - 16 * 256, 0));

	/* argument errors: exact codes, checked at the call */
	ck_assert_int_eq(aclrtMemcpyAsync(d, 10, h, 11, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsync(NULL, 10, h, 10, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsync(d, 10, h, 0, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(d, 10, h, 10, (aclrtMemcpyKind)9, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsync(back, 10, h, 10, ACL_MEMCPY_HOST_TO_HOST, s),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemsetAsync(d, 10, 0, 11, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemsetAsync(h, 10, 0, 10, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* priorities are clamped and unknown flags dropped; DEVICE_USE_ONLY is refused */
	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 8, 0x20), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 0, 0x30), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(back), ACL_SUCCESS);
}
END_TEST

/* An event recorded on A and waited for on B orders B after A. */
START_TEST(test_event_orders_streams)
{
	const size_t big = 64 * MiB, n = 4096;
	unsigned char *hb = host_alloc(big), *back = host_alloc(n);
	unsigned char *db = dev_alloc(big), *d = dev_alloc(n);
	aclrtStream a = NULL, b = NULL;
	aclrtEvent e = NULL, start = NULL;
	float ms = -1;

	ck_assert_int_eq(aclrtCreateStream(&a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&start), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(d, n, 0x01, n), ACL_SUCCESS);

	ck_assert_int_eq(aclrtRecordEvent(start, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(db, big, hb, big, ACL_MEMCPY_HOST_TO_DEVICE, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(d, n, 0x77, n, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(b, e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(back, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(b), ACL_SUCCESS);
	/* B is done, so A reached its record: everything before it ran */
	ck_assert(vm_all_bytes(back, n, 0x77));
	ck_assert_int_eq(equery(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(squery(a), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtSynchronizeEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, start, e), ACL_SUCCESS);
	ck_assert(ms > 0.0f);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, e, start), ACL_SUCCESS);	/* a plain difference */
	ck_assert(ms < 0.0f);
	ck_assert_int_eq(aclrtEventElapsedTime(NULL, start, e), ACL_ERROR_INVALID_PARAM);

	/* SynchronizeDevice waits for every stream */
	hold(1);
	ck_assert_int_eq(aclrtMemsetAsync(d, n, 0x12, n, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(db, big, 0x34, n, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(db + n, big - n, 0x56, n, NULL), ACL_SUCCESS);
	ck_assert_int_eq(squery(a), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(squery(b), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(squery(NULL), ACL_STREAM_STATUS_NOT_READY);
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	ck_assert_int_eq(squery(a), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(squery(b), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(squery(NULL), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtMemcpy(back, n, db, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(vm_all_bytes(back, n, 0x34));
	ck_assert_int_eq(aclrtMemcpy(back, n, db + n, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(vm_all_bytes(back, n, 0x56));

	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(start), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(db), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(hb), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(back), ACL_SUCCESS);
}
END_TEST

/* Pageable host memory: the async call returns with the copy done. */
START_TEST(test_pageable_completes)
{
	const size_t n = 2 * MiB;
	unsigned char *h = malloc(n), *back = malloc(n);
	unsigned char stackbuf[4096];
	void *d = dev_alloc(n);
	aclrtStream s = NULL;

	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	memset(h, 0x42, n);
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_COMPLETE);
	memset(h, 0, n);	/* reusing the buffer at once is safe */
	memset(back, 0, n);
	ck_assert_int_eq(aclrtMemcpyAsync(back, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_COMPLETE);
	ck_assert(vm_all_bytes(back, n, 0x42));
	/* the default stream too, from the stack */
	memset(stackbuf, 0x24, sizeof(stackbuf));
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, stackbuf, sizeof(stackbuf), ACL_MEMCPY_HOST_TO_DEVICE, NULL),
			 ACL_SUCCESS);
	memset(stackbuf, 0, sizeof(stackbuf));
	ck_assert_int_eq(aclrtMemcpy(stackbuf, sizeof(stackbuf), d, sizeof(stackbuf),
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(vm_all_bytes(stackbuf, sizeof(stackbuf), 0x24));
	/* synchronous calls take stack and heap memory where the kind says host */
	ck_assert_int_eq(aclrtMemset(stackbuf, sizeof(stackbuf), 0x99, 100), ACL_SUCCESS);
	ck_assert(vm_all_bytes(stackbuf, 100, 0x99));
	ck_assert_int_eq(aclrtMemset(h, n, 0x98, n), ACL_SUCCESS);
	ck_assert(vm_all_bytes(h, n, 0x98));
	ck_assert_int_eq(aclrtMemcpy(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(stackbuf, sizeof(stackbuf), d, sizeof(stackbuf),
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(vm_all_bytes(stackbuf, sizeof(stackbuf), 0x98));

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	free(h);
	free(back);
}
END_TEST

/* Host memory of a queued copy gone when it runs: 507052 at the next sync. */
START_TEST(test_error_at_next_sync)
{
	const size_t n = 1 * MiB;
	unsigned char *h = host_alloc(n);
	void *d = dev_alloc(n);
	aclrtStream s = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	hold(1);
	ck_assert_int_eq(aclrtMemcpyAsync(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);	/* munmap under the queued copy */
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);	/* reported once */

	/* the same through aclrtSynchronizeDevice */
	h = host_alloc(n);
	hold(1);
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

/* aclrtFree does not wait (and is reported); aclrtFreeWithDevSync does. */
START_TEST(test_free_while_queued)
{
	const size_t n = 4 * MiB;
	unsigned char *h = host_alloc(n);
	unsigned char *d = dev_alloc(n);
	struct vm_snap snap;
	aclrtStream s = NULL;
	long long fwq = vm_dbg_stat(0, "free_while_queued");

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(d, n, 0x6b, n), ACL_SUCCESS);
	hold(1);
	memset(h, 0, n);
	ck_assert_int_eq(aclrtMemcpyAsync(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);	/* returns at once */
	ck_assert_int_eq(vm_dbg_stat(0, "free_while_queued"), fwq + 1);
	ck_assert_int_eq(aclrtFree(d), ACL_ERROR_RT_PARAM_INVALID);	/* gone for the API */
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_NOT_READY);
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert(vm_all_bytes(h, n, 0x6b));	/* the queued copy still had the pages */

	/* FreeWithDevSync waits for the queued work first */
	vm_snap_take(0, &snap);
	d = dev_alloc(n);
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(d, n, 1, n, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeWithDevSync(d), ACL_SUCCESS);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(vm_dbg_stat(0, "free_while_queued"), fwq + 1);
	vm_snap_assert_same(0, &snap);

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
}
END_TEST

/*
 * A 64 B slot freed while queued work reads it: the work still sees its
 * bytes, also when the free retires the slot's page (a first page of the
 * size emptied before is kept idle, so the second page goes), and the
 * page goes back once the work is done.
 */
START_TEST(test_free_slot_while_queued)
{
	enum { SLOTS = 32 };	/* 64 B allocations: 128 B slots of a 4 KiB page */
	unsigned char *h = host_alloc(64);
	long long fwq = vm_dbg_stat(0, "free_while_queued");
	void *p[SLOTS], *a;
	struct vm_snap snap;
	aclrtStream s = NULL;
	int i;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	vm_snap_take(0, &snap);
	for (i = 0; i < SLOTS; i++)
		p[i] = dev_alloc(64);
	a = dev_alloc(64);
	ck_assert_int_eq(aclrtMemset(a, 64, 0x5a, 64), ACL_SUCCESS);
	for (i = 0; i < SLOTS; i++)
		ck_assert_int_eq(aclrtFree(p[i]), ACL_SUCCESS);
	hold(1);
	memset(h, 0, 64);
	ck_assert_int_eq(aclrtMemcpyAsync(h, 64, a, 64, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_stat(0, "free_while_queued"), fwq + 1);
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert(vm_all_bytes(h, 64, 0x5a));
	vm_snap_assert_same(0, &snap);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
}
END_TEST

/* Destroyed handles are errors, never crashes; debugfs counts per stream. */
START_TEST(test_dead_handles_and_debugfs)
{
	const size_t n = 4096;
	unsigned char *h = host_alloc(n);
	void *d = dev_alloc(n);
	aclrtStream s = NULL, s2 = NULL;
	aclrtEvent e = NULL;
	aclrtEventRecordedStatus es;
	aclrtStreamStatus ss;
	long long sub = -1, comp = -1, q = -1;
	float ms;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(dbg_streams_of(getpid()), 2);

	hold(1);
	ck_assert_int_eq(aclrtMemsetAsync(d, n, 3, n, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, s2), ACL_SUCCESS);
	ck_assert(dbg_stream_line(getpid(), 1, &sub, &comp, &q));
	ck_assert_int_eq(sub, 3);
	ck_assert_int_eq(comp, 0);
	ck_assert_int_eq(q, 3);
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert(dbg_stream_line(getpid(), 1, &sub, &comp, &q));
	ck_assert_int_eq(sub, 3);
	ck_assert_int_eq(comp, 3);
	ck_assert_int_eq(q, 0);

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(dbg_streams_of(getpid()), 1);
	/* dead handles, and a host pointer as a handle: the runtime's handle guard */
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 10), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtStreamQuery(s, &ss), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMemsetAsync(d, n, 0, n, s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtRecordEvent(e, s2), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtStreamWaitEvent(s2, e), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSynchronizeEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtQueryEventStatus(e, &es), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, e, e), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtRecordEvent((aclrtEvent)h, s2), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSynchronizeStream((aclrtStream)h), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtRecordEvent(NULL, s2), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);

	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
}
END_TEST

/* The stream_hold knob: exact values accepted, read back as written. */
START_TEST(test_hold_knob)
{
	char buf[64], want[64];

	read_small(HOLD_PATH, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0\n");
	hold(1);
	read_small(HOLD_PATH, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1\n");
	hold_stream(7);
	snprintf(want, sizeof(want), "%d:7\n", (int)getpid());
	read_small(HOLD_PATH, buf, sizeof(buf));
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(vm_write_str(HOLD_PATH, "2"), -EINVAL);
	ck_assert_int_eq(vm_write_str(HOLD_PATH, "x"), -EINVAL);
	ck_assert_int_eq(vm_write_str(HOLD_PATH, "0:1"), -EINVAL);
	ck_assert_int_eq(vm_write_str(HOLD_PATH, "5:0"), -EINVAL);
	ck_assert_int_eq(vm_write_str(HOLD_PATH, "5:"), -EINVAL);
	ck_assert_int_eq(vm_write_str(HOLD_PATH, "5:2147483648"), -EINVAL);
	read_small(HOLD_PATH, buf, sizeof(buf));
	ck_assert_str_eq(buf, want);	/* a refused write changes nothing */
	hold(0);
	read_small(HOLD_PATH, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0\n");
}
END_TEST

/* Stream A held: B's copy and event complete meanwhile; A runs on release. */
START_TEST(test_streams_overlap)
{
	const size_t n = 1 * MiB;
	unsigned char *ha = host_alloc(n), *hb = host_alloc(n), *back = host_alloc(n);
	void *da = dev_alloc(n), *db = dev_alloc(n);
	aclrtStream a = NULL, b = NULL;
	aclrtEvent ea = NULL, eb = NULL;
	unsigned int ida, idb, ctx;
	long long sub = -1, comp = -1, q = -1;

	ck_assert_int_eq(aclrtCreateStream(&a), ACL_SUCCESS);
	ida = dbg_newest_id(STREAMS_PATH, getpid());
	ck_assert_int_eq(aclrtCreateStream(&b), ACL_SUCCESS);
	idb = dbg_newest_id(STREAMS_PATH, getpid());
	ck_assert_uint_ne(ida, idb);
	ck_assert_int_eq(aclrtCreateEvent(&ea), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&eb), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(da, n, 0, n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(db, n, 0, n), ACL_SUCCESS);
	memset(ha, 0xa1, n);
	memset(hb, 0xb2, n);

	hold_stream(ida);
	ck_assert_int_eq(aclrtMemcpyAsync(da, n, ha, n, ACL_MEMCPY_HOST_TO_DEVICE, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(ea, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(db, n, hb, n, ACL_MEMCPY_HOST_TO_DEVICE, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(eb, b), ACL_SUCCESS);

	/* B runs to completion while A cannot start: they overlap */
	ck_assert_int_eq(aclrtSynchronizeStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(eb), ACL_SUCCESS);
	ck_assert_int_eq(squery(b), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(equery(eb), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtMemcpy(back, n, db, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(vm_all_bytes(back, n, 0xb2));

	/* A is still queued, untouched */
	ck_assert_int_eq(squery(a), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(equery(ea), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(a, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	ck_assert_int_eq(squery(a), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtMemcpy(back, n, da, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(vm_all_bytes(back, n, 0));
	ck_assert_int_eq(dbg_stream_by_id(getpid(), ida, &ctx, &sub, &comp, &q), 1);
	ck_assert_int_eq(sub, 2);
	ck_assert_int_eq(comp, 0);
	ck_assert_int_eq(q, 2);
	ck_assert_int_eq(dbg_stream_by_id(getpid(), idb, &ctx, &sub, &comp, &q), 1);
	ck_assert_int_eq(sub, 2);
	ck_assert_int_eq(comp, 2);
	ck_assert_int_eq(q, 0);

	/* synchronous copies and new streams are not held either */
	ck_assert_int_eq(aclrtMemcpyAsync(db, n, ha, n, ACL_MEMCPY_HOST_TO_DEVICE, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(back, n, db, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(vm_all_bytes(back, n, 0xa1));
	ck_assert_int_eq(squery(a), ACL_STREAM_STATUS_NOT_READY);

	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(a), ACL_SUCCESS);
	ck_assert_int_eq(squery(a), ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(equery(ea), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtMemcpy(back, n, da, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(vm_all_bytes(back, n, 0xa1));
	ck_assert_int_eq(dbg_stream_by_id(getpid(), ida, &ctx, &sub, &comp, &q), 1);
	ck_assert_int_eq(sub, 2);
	ck_assert_int_eq(comp, 2);
	ck_assert_int_eq(q, 0);

	ck_assert_int_eq(aclrtDestroyEvent(ea), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(eb), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(da), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(db), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(ha), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(hb), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(back), ACL_SUCCESS);
}
END_TEST

/* B waits for an event recorded on held A: B cannot run until A is released. */
START_TEST(test_held_event_orders_streams)
{
	const size_t n = 64 * KiB;
	unsigned char *back = host_alloc(n);
	void *d = dev_alloc(n);
	aclrtStream a = NULL, b = NULL, c = NULL;
	aclrtEvent e = NULL, eb = NULL, ec = NULL;
	unsigned int ida, idb, ctx;
	long long sub = -1, comp = -1, q = -1;

	ck_assert_int_eq(aclrtCreateStream(&a), ACL_SUCCESS);
	ida = dbg_newest_id(STREAMS_PATH, getpid());
	ck_assert_int_eq(aclrtCreateStream(&b), ACL_SUCCESS);
	idb = dbg_newest_id(STREAMS_PATH, getpid());
	ck_assert_int_eq(aclrtCreateStream(&c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&eb), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&ec), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(d, n, 0x01, n), ACL_SUCCESS);

	hold_stream(ida);
	ck_assert_int_eq(aclrtMemsetAsync(d, n, 0x77, n, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(b, e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(back, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(eb, b), ACL_SUCCESS);
	/* an unrelated stream is not held back */
	ck_assert_int_eq(aclrtRecordEvent(ec, c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(c), ACL_SUCCESS);
	ck_assert_int_eq(equery(ec), ACL_EVENT_RECORDED_STATUS_COMPLETE);

	/* B is blocked in its WAIT: nothing of it after the wait ran */
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(b, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	ck_assert_int_eq(squery(b), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(equery(eb), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_int_eq(squery(a), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(equery(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert(vm_all_bytes(back, n, 0));	/* aclrtMallocHost memory: zero, untouched */
	ck_assert_int_eq(dbg_stream_by_id(getpid(), idb, &ctx, &sub, &comp, &q), 1);
	ck_assert_int_eq(sub, 3);
	ck_assert_int_eq(comp, 0);
	ck_assert_int_eq(q, 3);
	ck_assert_int_eq(dbg_stream_by_id(getpid(), ida, &ctx, &sub, &comp, &q), 1);
	ck_assert_int_eq(sub, 2);
	ck_assert_int_eq(comp, 0);
	ck_assert_int_eq(q, 2);

	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(b), ACL_SUCCESS);
	/* B done, so A reached its record and its memset ran first */
	ck_assert(vm_all_bytes(back, n, 0x77));
	ck_assert_int_eq(equery(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(equery(eb), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(squery(a), ACL_STREAM_STATUS_COMPLETE);

	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(eb), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(ec), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(back), ACL_SUCCESS);
}
END_TEST

/* The debugfs events table, value by value. */
START_TEST(test_events_debugfs)
{
	aclrtStream s = NULL;
	aclrtEvent e1 = NULL, e2 = NULL;
	unsigned int sid, id1, id2, sctx;
	long long sub, comp, q;
	struct ev_row r1, r2;
	float ms = -1;

	ck_assert_int_eq(dbg_events_of(getpid()), 0);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	sid = dbg_newest_id(STREAMS_PATH, getpid());
	ck_assert_int_eq(dbg_stream_by_id(getpid(), sid, &sctx, &sub, &comp, &q), 1);
	ck_assert_int_eq(aclrtCreateEvent(&e1), ACL_SUCCESS);
	id1 = dbg_newest_id(EVENTS_PATH, getpid());
	ck_assert_int_eq(aclrtCreateEvent(&e2), ACL_SUCCESS);
	id2 = dbg_newest_id(EVENTS_PATH, getpid());
	ck_assert_uint_gt(id2, id1);
	ck_assert_int_eq(dbg_events_of(getpid()), 2);

	/* created: nothing recorded */
	ck_assert_int_eq(dbg_event(getpid(), id1, &r1), 1);
	ck_assert_uint_eq(r1.ctx, sctx);
	ck_assert_int_eq(r1.recorded, 0);
	ck_assert_int_eq(r1.completed, 0);
	ck_assert_int_eq(r1.pending, 0);
	ck_assert_uint_eq(r1.ts, 0);

	/* recorded (twice / once) while held: pending, no timestamp */
	hold(1);
	ck_assert_int_eq(aclrtRecordEvent(e1, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e1, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e2, s), ACL_SUCCESS);
	ck_assert_int_eq(dbg_event(getpid(), id1, &r1), 1);
	ck_assert_int_eq(r1.recorded, 2);
	ck_assert_int_eq(r1.completed, 0);
	ck_assert_int_eq(r1.pending, 2);
	ck_assert_uint_eq(r1.ts, 0);
	ck_assert_int_eq(dbg_event(getpid(), id2, &r2), 1);
	ck_assert_uint_eq(r2.ctx, sctx);
	ck_assert_int_eq(r2.recorded, 1);
	ck_assert_int_eq(r2.completed, 0);
	ck_assert_int_eq(r2.pending, 1);
	ck_assert_uint_eq(r2.ts, 0);

	/* synchronized: completed, timestamps as aclrtEventElapsedTime sees them */
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(dbg_event(getpid(), id1, &r1), 1);
	ck_assert_int_eq(r1.recorded, 2);
	ck_assert_int_eq(r1.completed, 2);
	ck_assert_int_eq(r1.pending, 0);
	ck_assert_uint_gt(r1.ts, 0);
	ck_assert_int_eq(dbg_event(getpid(), id2, &r2), 1);
	ck_assert_int_eq(r2.recorded, 1);
	ck_assert_int_eq(r2.completed, 1);
	ck_assert_int_eq(r2.pending, 0);
	ck_assert_uint_ge(r2.ts, r1.ts);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, e1, e2), ACL_SUCCESS);
	ck_assert(ms == (float)((double)(r2.ts - r1.ts) / 1e6));

	/* destroyed: gone at once, even with a record of it still queued */
	ck_assert_int_eq(aclrtDestroyEvent(e1), ACL_SUCCESS);
	ck_assert_int_eq(dbg_event(getpid(), id1, &r1), 0);
	ck_assert_int_eq(dbg_events_of(getpid()), 1);
	hold(1);
	ck_assert_int_eq(aclrtRecordEvent(e2, s), ACL_SUCCESS);
	ck_assert_int_eq(dbg_event(getpid(), id2, &r2), 1);
	ck_assert_int_eq(r2.recorded, 2);
	ck_assert_int_eq(r2.completed, 1);
	ck_assert_int_eq(r2.pending, 1);
	ck_assert_int_eq(aclrtDestroyEvent(e2), ACL_SUCCESS);
	ck_assert_int_eq(dbg_events_of(getpid()), 0);
	ck_assert_int_eq(squery(s), ACL_STREAM_STATUS_NOT_READY);
	hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(dbg_events_of(getpid()), 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* A process that exits (or is killed) with queued work leaks nothing. */
static int child_queue(void *arg, int cmd, int rep)
{
	const size_t n = 8 * MiB;
	void *d = NULL, *h = NULL;
	aclrtStream s = NULL;
	uint64_t c;

	(void)arg;
	if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
		return 1;
	if (aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || aclrtMallocHost(&h, n) != ACL_SUCCESS)
		return 2;
	if (aclrtCreateStream(&s) != ACL_SUCCESS)
		return 3;
	for (int i = 0; i < 8; i++)
		if (aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, s) != ACL_SUCCESS ||
		    aclrtMemsetAsync(d, n, i, n, NULL) != ACL_SUCCESS)
			return 4;
	if (vm_put(rep, 1) || vm_get(cmd, &c))
		return 5;
	_exit(0);	/* no free, no sync, no destroy */
}

START_TEST(test_exit_with_queued_work)
{
	for (int kill9 = 0; kill9 < 2; kill9++) {
		struct vm_snap snap;
		struct vm_child c;
		int st;

		vm_snap_take(0, &snap);
		hold(1);
		vm_child_start(&c, child_queue, NULL);
		ck_assert_uint_eq(vm_child_get(&c), 1);
		ck_assert_int_eq(dbg_streams_of(c.pid), 2);
		if (kill9) {
			kill(c.pid, SIGKILL);
			st = vm_child_wait(&c);
			ck_assert(WIFSIGNALED(st));
		} else {
			vm_child_put(&c, 1);
			vm_child_wait_ok(&c);
		}
		/* still held: exit cancelled the queued work */
		ck_assert_int_eq(dbg_streams_of(c.pid), 0);
		hold(0);
		vm_snap_assert_same(0, &snap);
	}
}
END_TEST

/*
 * A destroy waiting for held work is killable: the child blocks in
 * STREAM_DESTROY, SIGKILL ends it at once and it leaves no stream behind.
 */
static int destroy_blocked(void *arg, int cmd, int rep)
{
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	struct npu_sim_mem_alloc a = {
		.size = 4096, .footprint = 4096,
		.backing = NPU_SIM_BACKING_NORMAL, .api = NPU_SIM_API_MALLOC,
	};
	struct npu_sim_stream_create sc = { 0 };
	struct npu_sim_stream_submit sb = { 0 };
	struct npu_sim_stream_destroy sd = { 0 };
	int fd = open("/dev/npu_sim0", O_RDWR);

	(void)arg;
	(void)cmd;
	if (fd < 0 || ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp) ||
	    mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED ||
	    ioctl(fd, NPU_SIM_IOCTL_MEM_ALLOC, &a) ||
	    ioctl(fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc))
		return 1;
	sb.stream = sc.id;
	sb.op = NPU_SIM_OP_SET;
	sb.dst = a.va;
	sb.dpitch = 4096;
	sb.width = 4096;
	sb.height = 1;
	if (ioctl(fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb))
		return 2;
	vm_put(rep, 1);
	sd.id = sc.id;
	ioctl(fd, NPU_SIM_IOCTL_STREAM_DESTROY, &sd);	/* blocks: held */
	return 3;
}

START_TEST(test_destroy_wait_is_killable)
{
	struct vm_child c;
	int st = 0, i;
	pid_t r = 0;

	hold(1);
	vm_child_start(&c, destroy_blocked, NULL);
	ck_assert_uint_eq(vm_child_get(&c), 1);
	vm_wait_blocked_in_ioctl(c.pid, NPU_SIM_IOCTL_STREAM_DESTROY);
	ck_assert_int_eq(kill(c.pid, SIGKILL), 0);
	for (i = 0; i < 2000 && r == 0; i++) {	/* it must not hang (20 s) */
		r = waitpid(c.pid, &st, WNOHANG);
		if (r == 0)
			usleep(10000);
	}
	hold(0);
	ck_assert_int_eq(r, c.pid);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	close(c.cmd);
	close(c.rep);
	ck_assert_int_eq(dbg_streams_of(c.pid), 0);
}
END_TEST

static Suite *stream_suite(void)
{
	Suite *s = suite_create("stream");
	TCase *tc = tcase_create("stream");

	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_async_roundtrip);
	tcase_add_test(tc, test_not_ready_while_queued);
	tcase_add_test(tc, test_in_order);
	tcase_add_test(tc, test_event_orders_streams);
	tcase_add_test(tc, test_hold_knob);
	tcase_add_test(tc, test_streams_overlap);
	tcase_add_test(tc, test_held_event_orders_streams);
	tcase_add_test(tc, test_events_debugfs);
	tcase_add_test(tc, test_pageable_completes);
	tcase_add_test(tc, test_error_at_next_sync);
	tcase_add_test(tc, test_free_while_queued);
	tcase_add_test(tc, test_free_slot_while_queued);
	tcase_add_test(tc, test_dead_handles_and_debugfs);
	tcase_add_test(tc, test_exit_with_queued_work);
	tcase_add_test(tc, test_destroy_wait_is_killable);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(stream_suite());
}
