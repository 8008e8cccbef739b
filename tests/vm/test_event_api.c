// SPDX-License-Identifier: GPL-2.0
/*
 * The event calls of issue 23: create with flags (every valid and invalid
 * flag of both creates), record/wait flags and their consistency rule,
 * reset, query and wait status states, synchronize with a timeout (the
 * real timeout code), timestamps against aclrtEventElapsedTime, waits with
 * a timeout failing their stream, ids and the available count, and IPC
 * events between real processes: a record queued in one process orders a
 * copy queued in another (also across two devices), host synchronize
 * across processes, the exporter or a waiter dying, and every bad handle.
 */
#include "vmtest.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define SENTINEL ((void *)0x5a5a)
#define EVENTS_PATH "/sys/kernel/debug/npu_sim/npu_sim0/events"
#define SHARED_PATH "/sys/kernel/debug/npu_sim/npu_sim0/shared"
#define SZ 4096

static aclrtEvent mk(uint32_t flag, int ex)
{
	aclrtEvent ev = NULL;

	ck_assert_int_eq(ex ? aclrtCreateEventExWithFlag(&ev, flag) : aclrtCreateEventWithFlag(&ev, flag),
			 ACL_SUCCESS);
	ck_assert_ptr_nonnull(ev);
	return ev;
}

static aclrtStream mkstream(void)
{
	aclrtStream s = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	return s;
}

/* Lines of debugfs file path whose first field is pid and that contain word. */
static int dbg_rows(const char *path, pid_t pid, const char *word)
{
	char line[256];
	FILE *f = fopen(path, "r");
	int n = 0, p;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d", &p) == 1 && (pid == 0 || p == pid) && (!word || strstr(line, word)))
			n++;
	fclose(f);
	return n;
}

/* Event keys of exporter pid in debugfs "shared" (owner_pid is field 2). */
static int shared_event_rows(pid_t pid)
{
	char line[256], kind[32];
	FILE *f = fopen(SHARED_PATH, "r");
	int n = 0, p;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*u %d %*u %*u %31s", &p, kind) == 2 && p == pid && strcmp(kind, "event") == 0)
			n++;
	fclose(f);
	return n;
}

START_TEST(test_create_flags)
{
	static const uint32_t good[] = { 0x1, 0x2, 0x4, 0x8, 0xF, 0x9, 0x10, 0x20 };
	static const uint32_t bad[] = { 0x0, 0x40, 0x11, 0x21, 0x30, 0x80, 0x41, 0xFFFFFFFF };
	static const uint32_t good_ex[] = { 0x1, 0x2, 0x4, 0x8, 0xF, 0x40 };
	static const uint32_t bad_ex[] = { 0x0, 0x10, 0x20, 0x41, 0x48, 0x80, 0x11, 0xFFFFFFFF };
	aclrtEvent ev;
	size_t i;

	ck_assert_int_eq(aclrtCreateEventWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateEventExWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ev = mk(good[i], 0);
		ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	}
	for (i = 0; i < sizeof(good_ex) / sizeof(good_ex[0]); i++) {
		ev = mk(good_ex[i], 1);
		ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ev = SENTINEL;
		ck_assert_int_eq(aclrtCreateEventWithFlag(&ev, bad[i]), ACL_ERROR_RT_PARAM_INVALID);
		ck_assert_ptr_eq(ev, SENTINEL);
	}
	for (i = 0; i < sizeof(bad_ex) / sizeof(bad_ex[0]); i++) {
		ev = SENTINEL;
		ck_assert_int_eq(aclrtCreateEventExWithFlag(&ev, bad_ex[i]), ACL_ERROR_RT_PARAM_INVALID);
		ck_assert_ptr_eq(ev, SENTINEL);
	}
	/* Nothing of the refused creates is left in the driver. */
	ck_assert_int_eq(dbg_rows(EVENTS_PATH, getpid(), NULL), 0);
	/* an IPC event shows as such in debugfs */
	ev = mk(ACL_EVENT_IPC, 1);
	ck_assert_int_eq(dbg_rows(EVENTS_PATH, getpid(), " ipc"), 1);
	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
}
END_TEST

START_TEST(test_timestamps)
{
	aclrtStream s = mkstream();
	aclrtEvent a = mk(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE, 0), b = mk(ACL_EVENT_TIME_LINE, 1);
	uint64_t ta = 0, tb = 0, t2 = 0, ts = 77;
	float ms = 0;

	ck_assert_int_eq(aclrtEventGetTimestamp(NULL, &ts), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtEventGetTimestamp(a, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtEventGetTimestamp(a, &ts), ACL_ERROR_RT_INTERNAL_ERROR);	/* never recorded */
	ck_assert_uint_eq(ts, 77);

	ck_assert_int_eq(aclrtRecordEvent(a, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	usleep(3000);	/* time passing between the records, not a synchronization */
	ck_assert_int_eq(aclrtRecordEventWithFlag(b, s, ACL_EVENT_RECORD_DEFAULT), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(b, -1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventGetTimestamp(a, &ta), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventGetTimestamp(b, &tb), ACL_SUCCESS);
	ck_assert_uint_ge(tb - ta, 3000);	/* microseconds */
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
	/* Both from the same nanosecond stamps: they agree to the microsecond. */
	ck_assert_msg(ms * 1000.0 - (double)(tb - ta) > -1.01 && ms * 1000.0 - (double)(tb - ta) < 1.01,
		      "elapsed %f ms vs timestamps %llu us", ms, (unsigned long long)(tb - ta));

	/* a later record of a has a later timestamp */
	ck_assert_int_eq(aclrtRecordEvent(a, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventGetTimestamp(a, &t2), ACL_SUCCESS);
	ck_assert_uint_ge(t2, tb);
	ck_assert_uint_gt(t2, ta);

	/* a record not reached yet has no timestamp */
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtRecordEvent(a, s), ACL_SUCCESS);
	ts = 77;
	ck_assert_int_eq(aclrtEventGetTimestamp(a, &ts), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
	ck_assert_uint_eq(ts, 77);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventGetTimestamp(a, &ts), ACL_SUCCESS);
	ck_assert_uint_ge(ts, t2);

	ck_assert_int_eq(aclrtDestroyEvent(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventGetTimestamp(a, &ts), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyEvent(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(test_query_reset_states)
{
	aclrtStream s1 = mkstream(), s2 = mkstream();
	aclrtEvent ev = mk(ACL_EVENT_SYNC, 0);
	aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
	aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
	aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;

	ck_assert_int_eq(aclrtQueryEvent(NULL, &st), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtQueryEvent(ev, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(NULL, &ws), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(ev, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtResetEvent(NULL, s1), ACL_ERROR_INVALID_PARAM);

	/* never recorded */
	ck_assert_int_eq(aclrtQueryEvent(ev, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_EVENT_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtQueryEventStatus(ev, &rs), ACL_SUCCESS);
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(ev, &ws), ACL_SUCCESS);
	ck_assert_int_eq(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);

	/* recorded, not reached; a wait for it queued */
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtRecordEvent(ev, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(s2, ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtQueryEvent(ev, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_EVENT_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtQueryEventStatus(ev, &rs), ACL_SUCCESS);
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(ev, &ws), ACL_SUCCESS);
	ck_assert_int_eq(ws, ACL_EVENT_WAIT_STATUS_NOT_READY);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtQueryEvent(ev, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_EVENT_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtQueryEventStatus(ev, &rs), ACL_SUCCESS);
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(ev, &ws), ACL_SUCCESS);
	ck_assert_int_eq(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);

	/* reset: not recorded any more, and a wait after it waits for the next record */
	ck_assert_int_eq(aclrtResetEvent(ev, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtQueryEventStatus(ev, &rs), ACL_SUCCESS);
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtQueryEvent(ev, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_EVENT_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtStreamWaitEvent(s2, ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s2, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(ev, &ws), ACL_SUCCESS);
	ck_assert_int_eq(ws, ACL_EVENT_WAIT_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtRecordEvent(ev, NULL), ACL_SUCCESS);	/* the default stream */
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(ev, &ws), ACL_SUCCESS);
	ck_assert_int_eq(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtQueryEventStatus(ev, &rs), ACL_SUCCESS);
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtResetEvent(ev, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetEvent(ev, s1), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtQueryEvent(ev, &st), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(ev, &ws), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
}
END_TEST

/* Which calls serve which kinds of event, with the runtime's codes. */
START_TEST(test_kinds)
{
	aclrtStream s = mkstream();
	aclrtEvent ex = mk(ACL_EVENT_SYNC, 1), ext = mk(ACL_EVENT_EXTERNAL, 0);
	aclrtEvent dev_only = mk(ACL_EVENT_DEVICE_USE_ONLY, 0), ipc = mk(ACL_EVENT_IPC, 1);
	aclrtEvent plain = mk(ACL_EVENT_SYNC, 0);
	aclrtEventRecordedStatus rs;
	aclrtEventWaitStatus ws;
	aclrtEventStatus st;
	uint64_t ts;
	uint32_t id;
	float ms;

	ck_assert_int_eq(aclrtQueryEvent(ex, &st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(ex, &ws), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtQueryEventStatus(ex, &rs), ACL_SUCCESS);

	ck_assert_int_eq(aclrtQueryEvent(ext, &st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtQueryEventStatus(ext, &rs), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtSynchronizeEvent(ext), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ext, 10), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtEventGetTimestamp(ext, &ts), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, plain, ext), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

	ck_assert_int_eq(aclrtRecordEvent(dev_only, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtStreamWaitEvent(s, dev_only), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtResetEvent(dev_only, s), ACL_ERROR_RT_PARAM_INVALID);

	ck_assert_int_eq(aclrtResetEvent(ipc, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtGetEventId(ipc, &id), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtEventGetTimestamp(ipc, &ts), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, ipc, plain), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtQueryEvent(ipc, &st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* an IPC event is recorded, waited for and synchronized like any other */
	ck_assert_int_eq(aclrtRecordEvent(ipc, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(s, ipc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(ipc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtQueryEventStatus(ipc, &rs), ACL_SUCCESS);
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyEvent(ex), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(ext), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(dev_only), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(ipc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(plain), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(test_record_wait_flags)
{
	aclrtStream s = mkstream();
	aclrtEvent plain = mk(ACL_EVENT_SYNC, 0), exs = mk(ACL_EVENT_SYNC, 1), ext = mk(ACL_EVENT_SYNC, 1);
	aclrtEvent exs2 = mk(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE, 1);

	ck_assert_int_eq(aclrtRecordEventWithFlag(NULL, s, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtRecordEventWithFlag(plain, s, 2), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtRecordEventWithFlag(plain, s, ACL_EVENT_RECORD_EXTERNAL),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtRecordEventWithFlag(exs2, s, ACL_EVENT_RECORD_EXTERNAL),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtRecordEventWithFlag(exs, s, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
	/* every record of an event uses the flag of its first */
	ck_assert_int_eq(aclrtRecordEvent(exs, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtRecordEventWithFlag(exs, s, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(plain, s), ACL_SUCCESS);

	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s, NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s, plain, 0, 2), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s, exs, 5, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s, plain, 0, ACL_EVENT_WAIT_EXTERNAL),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s, exs, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(s, exs), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s, plain, 1000, ACL_EVENT_WAIT_DEFAULT), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s, ext, 0, ACL_EVENT_WAIT_DEFAULT), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);

	ck_assert_int_eq(aclrtStreamWaitEventWithTimeout(s, plain, -1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtStreamWaitEventWithTimeout(s, NULL, 10), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtStreamWaitEventWithTimeout(s, plain, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEventWithTimeout(s, plain, 10), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyEvent(exs2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEventWithFlag(exs2, s, 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s, exs2, 0, 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtStreamWaitEventWithTimeout(s, exs2, 1), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	/* the stream is guarded first for a wait */
	ck_assert_int_eq(aclrtStreamWaitEventWithTimeout(s, NULL, 1), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s, plain, 0, 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyEvent(plain), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(exs), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(ext), ACL_SUCCESS);
}
END_TEST

/* A wait with a timeout that nothing meets fails its stream with 107019. */
START_TEST(test_wait_timeout)
{
	aclrtStream s1 = mkstream(), s2 = mkstream();
	aclrtEvent ev = mk(ACL_EVENT_SYNC, 0);
	void *d = vm_dev_alloc(SZ);
	uint64_t v = 0;

	ck_assert_int_eq(aclrtRecordEvent(ev, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetEvent(ev, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	/* after the reset the wait is for a record nobody makes */
	ck_assert_int_eq(aclrtStreamWaitEventWithTimeout(s2, ev, 30), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(d, 5, 0, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_ERROR_RT_WAIT_TIMEOUT);
	/* the error is reported once; the work after the wait ran */
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(&v, 8, d, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_uint_eq(v, 5);

	/* the same wait is met when the record comes in time */
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s2, ev, 60000, ACL_EVENT_WAIT_DEFAULT), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(ev, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);

	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
}
END_TEST

START_TEST(test_sync_timeout)
{
	aclrtStream s = mkstream();
	aclrtEvent ev = mk(ACL_EVENT_SYNC, 0);
	void *d = vm_dev_alloc(SZ);

	vm_dev_put_u64(d, 0);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev, -2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(NULL, -2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(NULL, -1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev, 0), ACL_ERROR_RT_PARAM_INVALID);
	/* never recorded: nothing to wait for */
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev, 10), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev, -1), ACL_SUCCESS);

	/* a record behind a value wait nobody meets yet */
	ck_assert_int_eq(aclrtValueWait(d, 1, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(ev, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev, 30), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
	vm_dev_put_u64(d, 1);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev, 60000), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev, 10), ACL_ERROR_RT_INVALID_HANDLE);
	/* timeout 0 is checked after the handle guard */
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev, 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

struct sync_thread {
	aclrtEvent ev;
	pid_t tid;
	aclError ret;
};

static void *sync_forever(void *p)
{
	struct sync_thread *t = p;

	__atomic_store_n(&t->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	t->ret = aclrtSynchronizeEventWithTimeout(t->ev, -1);
	return NULL;
}

/* A thread waiting for an event holds no library lock: others go on. */
START_TEST(test_sync_thread)
{
	aclrtStream s = mkstream();
	struct sync_thread t = { .ev = mk(ACL_EVENT_SYNC, 0) };
	aclrtEvent other;
	void *d = vm_dev_alloc(SZ);
	pthread_t th;

	vm_dev_put_u64(d, 0);
	ck_assert_int_eq(aclrtValueWait(d, 1, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(t.ev, s), ACL_SUCCESS);
	ck_assert_int_eq(pthread_create(&th, NULL, sync_forever, &t), 0);
	while (__atomic_load_n(&t.tid, __ATOMIC_ACQUIRE) == 0)
		sched_yield();
	vm_wait_blocked_in_ioctl(t.tid, NPU_SIM_IOCTL_EVENT_SYNC);
	other = mk(ACL_EVENT_TIME_LINE, 0);
	ck_assert_int_eq(aclrtDestroyEvent(other), ACL_SUCCESS);
	vm_dev_put_u64(d, 1);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_eq(t.ret, ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(t.ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(test_id_and_avail)
{
	aclrtEvent a = mk(ACL_EVENT_SYNC, 0), b = mk(ACL_EVENT_SYNC, 1);
	uint32_t ia = 0, ib = 0, n0 = 0, n1 = 0, n2 = 0, keep = 9;

	ck_assert_int_eq(aclrtGetEventId(NULL, &ia), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetEventId(a, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetEventId(a, &ia), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetEventId(b, &ib), ACL_SUCCESS);
	ck_assert_uint_gt(ia, 0);
	ck_assert_uint_gt(ib, 0);
	ck_assert_uint_ne(ia, ib);
	ck_assert_int_eq(aclrtGetEventAvailNum(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetEventAvailNum(&n0), ACL_SUCCESS);
	ck_assert_uint_le(n0, 65536 - 2);
	ck_assert_int_eq(aclrtDestroyEvent(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetEventAvailNum(&n1), ACL_SUCCESS);
	ck_assert_uint_eq(n1, n0 + 1);
	a = mk(ACL_EVENT_IPC, 1);
	ck_assert_int_eq(aclrtGetEventAvailNum(&n2), ACL_SUCCESS);
	ck_assert_uint_eq(n2, n0);
	ck_assert_int_eq(aclrtGetEventId(a, &keep), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_uint_eq(keep, 9);
	ck_assert_int_eq(aclrtDestroyEvent(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetEventId(a, &keep), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyEvent(b), ACL_SUCCESS);
	/* without a current device */
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetEventAvailNum(&n1), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

/* ---- IPC events between processes ------------------------------------- */

enum { CMD_GO = 1, CMD_SYNC, CMD_EXIT, CMD_OPEN, CMD_WAIT };

static int put_handle(int fd, const aclrtIpcEventHandle *h)
{
	uint64_t w[ACL_IPC_EVENT_HANDLE_SIZE / 8];

	memcpy(w, h->reserved, sizeof(w));
	for (size_t i = 0; i < sizeof(w) / 8; i++)
		if (vm_put(fd, w[i]))
			return -1;
	return 0;
}

static int get_handle(int fd, aclrtIpcEventHandle *h)
{
	uint64_t w[ACL_IPC_EVENT_HANDLE_SIZE / 8];

	for (size_t i = 0; i < sizeof(w) / 8; i++)
		if (vm_get(fd, &w[i]))
			return -1;
	memcpy(h->reserved, w, sizeof(w));
	return 0;
}

static int put_key(int fd, const char *key)
{
	uint64_t w[8];

	memcpy(w, key, sizeof(w));
	for (int i = 0; i < 8; i++)
		if (vm_put(fd, w[i]))
			return -1;
	return 0;
}

static int get_key(int fd, char *key)
{
	uint64_t w[8];

	for (int i = 0; i < 8; i++)
		if (vm_get(fd, &w[i]))
			return -1;
	memcpy(key, w, sizeof(w));
	key[63] = '\0';
	return 0;
}

struct waiter_arg {
	int dev;
	uint32_t seed;
};

/*
 * Process B: opens the IPC memory and event of A, then on GO queues on its
 * stream a wait for the event and a copy of the memory to host; on SYNC
 * synchronizes the event (blocking until A's record), then its stream, and
 * says whether the copy saw A's data.
 */
static int child_waiter(void *argp, int cmd, int rep)
{
	struct waiter_arg *a = argp;
	unsigned char *host = NULL, want[SZ];
	aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
	aclrtStreamStatus ss = ACL_STREAM_STATUS_COMPLETE;
	aclrtIpcEventHandle h;
	aclrtEvent ev = NULL;
	aclrtStream s = NULL;
	char key[64];
	void *p = NULL;
	uint64_t c;
	int ret;

	if (aclInit(NULL) || aclrtSetDevice(a->dev) || aclrtCreateStream(&s) || aclrtMallocHost((void **)&host, SZ))
		return 1;
	memset(host, 0, SZ);
	if (get_key(cmd, key) || get_handle(cmd, &h))
		return 2;
	ret = aclrtIpcMemImportByKey(&p, key, a->dev ? ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS : 0);
	if (vm_put(rep, (uint64_t)(int64_t)ret) || ret)
		return 3;
	ret = aclrtIpcOpenEventHandle(h, &ev);
	if (vm_put(rep, (uint64_t)(int64_t)ret) || ret)
		return 4;
	if (vm_get(cmd, &c) || c != CMD_GO)
		return 5;
	if (aclrtStreamWaitEvent(s, ev) || aclrtMemcpyAsync(host, SZ, p, SZ, ACL_MEMCPY_DEVICE_TO_HOST, s))
		return 6;
	if (aclrtQueryEventStatus(ev, &rs) || aclrtStreamQuery(s, &ss))
		return 7;
	if (vm_put(rep, rs) || vm_put(rep, ss))
		return 8;
	if (vm_get(cmd, &c) || c != CMD_SYNC)
		return 9;
	ret = aclrtSynchronizeEvent(ev);
	if (vm_put(rep, (uint64_t)(int64_t)ret) || aclrtSynchronizeStream(s))
		return 10;
	vm_fill(want, SZ, a->seed);
	if (vm_put(rep, memcmp(host, want, SZ) != 0))
		return 11;
	if (aclrtQueryEventStatus(ev, &rs) || vm_put(rep, rs))
		return 12;
	if (vm_get(cmd, &c) || c != CMD_EXIT)
		return 13;
	if (aclrtDestroyEvent(ev) || aclrtIpcMemClose(key) || aclrtFreeHost(host) || aclrtDestroyStream(s))
		return 14;
	return aclFinalize() ? 15 : 0;
}

/*
 * A (this process, device 0) writes a pattern into IPC memory with a copy
 * queued behind a value wait, then records its IPC event; B (device
 * waiter_dev), told to queue its wait and copy only after A's record is
 * queued, must see the pattern.
 */
static void ipc_order(int waiter_dev)
{
	struct waiter_arg wa = { .dev = waiter_dev, .seed = 23 + waiter_dev };
	aclrtStream s = mkstream();
	aclrtEvent ev = mk(ACL_EVENT_IPC, 1);
	aclrtIpcEventHandle h, h2;
	unsigned char *src = NULL;
	void *d = vm_dev_alloc(SZ), *gate = vm_dev_alloc(SZ);
	struct vm_child c;
	char key[64] = { 0 };

	ck_assert_int_eq(aclrtMallocHost((void **)&src, SZ), ACL_SUCCESS);
	vm_fill(src, SZ, wa.seed);
	ck_assert_int_eq(aclrtMemset(d, SZ, 0, SZ), ACL_SUCCESS);
	vm_dev_put_u64(gate, 0);
	ck_assert_int_eq(aclrtIpcMemGetExportKey(d, SZ, key, sizeof(key),
						 ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION), ACL_SUCCESS);
	memset(&h, 0x77, sizeof(h));
	ck_assert_int_eq(aclrtIpcGetEventHandle(ev, &h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtIpcGetEventHandle(ev, &h2), ACL_SUCCESS);
	ck_assert_mem_eq(h.reserved, h2.reserved, sizeof(h.reserved));	/* the same handle */
	ck_assert(vm_all_bytes(h.reserved + 8, sizeof(h.reserved) - 8, 0));
	ck_assert_int_eq(dbg_rows(EVENTS_PATH, getpid(), "exported"), 1);

	vm_child_start(&c, child_waiter, &wa);
	ck_assert_int_eq(put_key(c.cmd, key), 0);
	ck_assert_int_eq(put_handle(c.cmd, &h), 0);
	ck_assert_int_eq((int64_t)vm_child_get(&c), ACL_SUCCESS);
	ck_assert_int_eq((int64_t)vm_child_get(&c), ACL_SUCCESS);
	if (waiter_dev == 0)
		ck_assert_int_eq(dbg_rows(EVENTS_PATH, c.pid, "imported"), 1);

	/* A: the data and the record, held back by the gate */
	ck_assert_int_eq(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(d, SZ, src, SZ, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(ev, s), ACL_SUCCESS);
	vm_child_put(&c, CMD_GO);
	ck_assert_uint_eq(vm_child_get(&c), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_uint_eq(vm_child_get(&c), ACL_STREAM_STATUS_NOT_READY);
	vm_child_put(&c, CMD_SYNC);
	/* B's host synchronize sleeps until A's record is reached */
	vm_wait_blocked_in_ioctl(c.pid, NPU_SIM_IOCTL_EVENT_SYNC);
	vm_dev_put_u64(gate, 1);
	ck_assert_int_eq((int64_t)vm_child_get(&c), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&c), 0);		/* B's copy saw A's data */
	ck_assert_uint_eq(vm_child_get(&c), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	vm_child_put(&c, CMD_EXIT);
	vm_child_wait_ok(&c);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(shared_event_rows(getpid()), 0);
	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(src), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gate), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}

START_TEST(test_ipc_orders_copy)
{
	ipc_order(0);
}
END_TEST

START_TEST(test_ipc_two_devices)
{
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	vm_mod_reload("num_devices=2");
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ipc_order(1);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	vm_mod_ensure_default();
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

/*
 * Process A for the exit tests: makes an IPC event, queues a record of it
 * behind a value wait nobody meets, sends the handle, then waits to die.
 */
static int child_exporter(void *arg, int cmd, int rep)
{
	aclrtIpcEventHandle h;
	aclrtEvent ev = NULL;
	aclrtStream s = NULL;
	void *gate = NULL;
	uint64_t c, zero = 0;

	(void)arg;
	if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&s) ||
	    aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC) || aclrtMalloc(&gate, SZ, ACL_MEM_MALLOC_NORMAL_ONLY))
		return 1;
	if (aclrtMemcpy(gate, 8, &zero, 8, ACL_MEMCPY_HOST_TO_DEVICE) ||
	    aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s) || aclrtRecordEvent(ev, s))
		return 2;
	if (aclrtIpcGetEventHandle(ev, &h) || put_handle(rep, &h) || vm_put(rep, (uint64_t)(uintptr_t)ev))
		return 3;
	while (vm_get(cmd, &c) == 0)
		;
	return 0;
}

/* The exporter dies with its record queued: the wait in B ends, nothing is left. */
START_TEST(test_ipc_exporter_exit)
{
	aclrtStream s = mkstream();
	aclrtIpcEventHandle h;
	aclrtEvent ev = NULL, again = SENTINEL, foreign;
	aclrtEventRecordedStatus rs;
	struct vm_child c;
	uint32_t id;

	vm_child_start(&c, child_exporter, NULL);
	ck_assert_int_eq(get_handle(c.rep, &h), 0);
	foreign = (aclrtEvent)(uintptr_t)vm_child_get(&c);
	/* another process's event handle is no handle here */
	ck_assert_int_eq(aclrtQueryEventStatus(foreign, &rs), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtGetEventId(foreign, &id), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtIpcOpenEventHandle(h, &ev), ACL_SUCCESS);
	ck_assert_int_eq(shared_event_rows(c.pid), 1);
	ck_assert_int_eq(aclrtStreamWaitEvent(s, ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(ev, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	ck_assert_int_eq(aclrtQueryEventStatus(ev, &rs), ACL_SUCCESS);
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);

	ck_assert_int_eq(kill(c.pid, SIGKILL), 0);
	ck_assert(WIFSIGNALED(vm_child_wait(&c)));
	/* its cancelled record counts as reached: nothing waits forever */
	ck_assert_int_eq(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(shared_event_rows(c.pid), 0);
	ck_assert_int_eq(dbg_rows(EVENTS_PATH, c.pid, NULL), 0);
	/* the key died with its exporter; the opened event lives on */
	ck_assert_int_eq(aclrtIpcOpenEventHandle(h, &again), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_ptr_eq(again, SENTINEL);
	ck_assert_int_eq(aclrtRecordEvent(ev, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* B: opens the handle and parks a wait on it, then waits to be killed. */
static int child_parked(void *arg, int cmd, int rep)
{
	aclrtIpcEventHandle h;
	aclrtEvent ev = NULL;
	aclrtStream s = NULL;
	uint64_t c;

	(void)arg;
	if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&s) || get_handle(cmd, &h))
		return 1;
	if (aclrtIpcOpenEventHandle(h, &ev) || aclrtStreamWaitEvent(s, ev) || vm_put(rep, 0))
		return 2;
	while (vm_get(cmd, &c) == 0)
		;
	return 0;
}

/* A waiter dies parked on the event: nothing is left, the exporter goes on. */
START_TEST(test_ipc_waiter_exit)
{
	aclrtStream s = mkstream();
	aclrtEvent ev = mk(ACL_EVENT_IPC, 1);
	aclrtIpcEventHandle h;
	void *gate = vm_dev_alloc(SZ);
	struct vm_child c;

	vm_dev_put_u64(gate, 0);
	ck_assert_int_eq(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(ev, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtIpcGetEventHandle(ev, &h), ACL_SUCCESS);
	vm_child_start(&c, child_parked, NULL);
	ck_assert_int_eq(put_handle(c.cmd, &h), 0);
	ck_assert_uint_eq(vm_child_get(&c), 0);
	ck_assert_int_eq(dbg_rows(EVENTS_PATH, c.pid, "imported"), 1);
	ck_assert_int_eq(shared_event_rows(getpid()), 1);
	ck_assert_int_eq(kill(c.pid, SIGKILL), 0);
	ck_assert(WIFSIGNALED(vm_child_wait(&c)));
	ck_assert_int_eq(dbg_rows(EVENTS_PATH, c.pid, NULL), 0);
	vm_dev_put_u64(gate, 1);
	ck_assert_int_eq(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(shared_event_rows(getpid()), 0);
	ck_assert_int_eq(aclrtFree(gate), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* B: tries to open the handle it is sent; reports each code. */
static int child_opener(void *arg, int cmd, int rep)
{
	aclrtIpcEventHandle h;
	aclrtEvent ev = NULL, ev2 = NULL;
	uint64_t c;
	int ret;

	(void)arg;
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	while (vm_get(cmd, &c) == 0 && c == CMD_OPEN) {
		if (get_handle(cmd, &h))
			return 2;
		ret = aclrtIpcOpenEventHandle(h, &ev);
		if (vm_put(rep, (uint64_t)(int64_t)ret))
			return 3;
		if (ret == ACL_SUCCESS) {
			/* twice: two events of one state */
			if (aclrtIpcOpenEventHandle(h, &ev2) || ev2 == ev || aclrtDestroyEvent(ev2) ||
			    aclrtDestroyEvent(ev))
				return 4;
		}
	}
	return 0;
}

START_TEST(test_ipc_bad)
{
	aclrtEvent plain = mk(ACL_EVENT_SYNC, 1), ipc = mk(ACL_EVENT_IPC, 1), ev = SENTINEL;
	aclrtIpcEventHandle h, zero, junk, keep;
	struct vm_child c;

	memset(&zero, 0, sizeof(zero));
	memset(&junk, 0x5c, sizeof(junk));
	memset(&keep, 0x11, sizeof(keep));
	ck_assert_int_eq(aclrtIpcGetEventHandle(NULL, &h), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtIpcGetEventHandle(ipc, NULL), ACL_ERROR_INVALID_PARAM);
	h = keep;
	ck_assert_int_eq(aclrtIpcGetEventHandle(plain, &h), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_mem_eq(h.reserved, keep.reserved, sizeof(h.reserved));
	ck_assert_int_eq(aclrtIpcOpenEventHandle(zero, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtIpcOpenEventHandle(zero, &ev), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtIpcOpenEventHandle(junk, &ev), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtIpcGetEventHandle(ipc, &h), ACL_SUCCESS);
	/* this process's own event */
	ck_assert_int_eq(aclrtIpcOpenEventHandle(h, &ev), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_ptr_eq(ev, SENTINEL);

	vm_child_start(&c, child_opener, NULL);
	vm_child_put(&c, CMD_OPEN);
	ck_assert_int_eq(put_handle(c.cmd, &h), 0);
	ck_assert_int_eq((int64_t)vm_child_get(&c), ACL_SUCCESS);
	vm_child_put(&c, CMD_OPEN);
	ck_assert_int_eq(put_handle(c.cmd, &junk), 0);
	ck_assert_int_eq((int64_t)vm_child_get(&c), ACL_ERROR_RT_INVALID_HANDLE);
	/* a destroyed event's handle opens no more */
	ck_assert_int_eq(aclrtDestroyEvent(ipc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtIpcGetEventHandle(ipc, &h), ACL_ERROR_RT_INVALID_HANDLE);
	vm_child_put(&c, CMD_OPEN);
	ck_assert_int_eq(put_handle(c.cmd, &h), 0);
	ck_assert_int_eq((int64_t)vm_child_get(&c), ACL_ERROR_RT_INVALID_HANDLE);
	vm_child_put(&c, CMD_EXIT);
	vm_child_wait_ok(&c);

	/* no current device */
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtIpcOpenEventHandle(junk, &ev), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_ptr_eq(ev, SENTINEL);
}
END_TEST

/* The 1.9 ioctls and submit fields refuse bad input and change nothing. */
START_TEST(test_raw_input)
{
	struct npu_sim_event_create ec = { 0 }, ei = { .flags = NPU_SIM_EVENT_IPC };
	struct npu_sim_stream_create sc = { 0 };
	struct npu_sim_event_export ex;
	struct npu_sim_event_import im;
	struct npu_sim_event_info in;
	struct npu_sim_stream_submit sub;
	struct vm_raw r;

	vm_raw_open(&r, 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_CREATE, &ec), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_CREATE, &ei), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc), 0);

	ex = (struct npu_sim_event_export){ .id = ec.id };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_EXPORT, &ex), EINVAL);	/* not IPC */
	ex = (struct npu_sim_event_export){ .id = ei.id, .flags = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_EXPORT, &ex), EINVAL);
	ex = (struct npu_sim_event_export){ .id = ei.id, .key = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_EXPORT, &ex), EINVAL);
	ex = (struct npu_sim_event_export){ .id = 999 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_EXPORT, &ex), ENOENT);
	ck_assert_int_eq(shared_event_rows(getpid()), 0);
	ex = (struct npu_sim_event_export){ .id = ei.id };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_EXPORT, &ex), 0);
	ck_assert_uint_ne(ex.key, 0);

	im = (struct npu_sim_event_import){ .key = ex.key, .flags = 2 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_IMPORT, &im), EINVAL);
	im = (struct npu_sim_event_import){ .key = ex.key, .pad = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_IMPORT, &im), EINVAL);
	im = (struct npu_sim_event_import){ .key = ex.key, .id = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_IMPORT, &im), EINVAL);
	im = (struct npu_sim_event_import){ .key = 0 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_IMPORT, &im), EINVAL);
	im = (struct npu_sim_event_import){ .key = ex.key ^ 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_IMPORT, &im), ENOENT);
	im = (struct npu_sim_event_import){ .key = ex.key };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_IMPORT, &im), EPERM);	/* own key */

	in = (struct npu_sim_event_info){ .id = ec.id, .waits = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_INFO, &in), EINVAL);
	in = (struct npu_sim_event_info){ .id = ec.id, .flags = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_INFO, &in), EINVAL);
	in = (struct npu_sim_event_info){ .id = 999 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_INFO, &in), ENOENT);
	in = (struct npu_sim_event_info){ .id = ei.id };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_INFO, &in), 0);
	ck_assert_uint_eq(in.state, NPU_SIM_EVENT_INFO_IPC | NPU_SIM_EVENT_INFO_EXPORTED);
	ck_assert_uint_eq(in.recorded, 0);

	sub = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_RESET, .event = ec.id, .width = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sub), EINVAL);
	sub = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_RESET, .event = ec.id,
					      .flags = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sub), EINVAL);
	sub = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_RESET, .event = ei.id };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sub), EINVAL);	/* IPC */
	sub = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_WAIT, .event = ec.id,
					      .flags = NPU_SIM_WAIT_EVENT_TIMEOUT };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sub), EINVAL);	/* no timeout */
	sub = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_WAIT, .event = ec.id,
					      .operand = 5 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sub), EINVAL);	/* no flag */
	sub = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_WAIT, .event = ec.id,
					      .flags = NPU_SIM_WAIT_EVENT_TIMEOUT, .operand = 1ULL << 31 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sub), EINVAL);
	sub = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_RECORD, .event = ec.id, .flags = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sub), EINVAL);
	in = (struct npu_sim_event_info){ .id = ec.id };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_EVENT_INFO, &in), 0);
	ck_assert_uint_eq(in.recorded, 0);
	ck_assert_uint_eq(in.waits, 0);
	ck_assert_uint_eq(in.state, 0);
	sub = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_RESET, .event = ec.id };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sub), 0);
	ck_assert_uint_eq(sub.seq, 1);
	vm_raw_close(&r);
	ck_assert_int_eq(shared_event_rows(getpid()), 0);	/* the key went with the file */
}
END_TEST

static Suite *event_api_suite(void)
{
	Suite *s = suite_create("event_api");
	TCase *tc = tcase_create("event_api");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_add_test(tc, test_create_flags);
	tcase_add_test(tc, test_timestamps);
	tcase_add_test(tc, test_query_reset_states);
	tcase_add_test(tc, test_kinds);
	tcase_add_test(tc, test_record_wait_flags);
	tcase_add_test(tc, test_wait_timeout);
	tcase_add_test(tc, test_sync_timeout);
	tcase_add_test(tc, test_sync_thread);
	tcase_add_test(tc, test_id_and_avail);
	tcase_add_test(tc, test_ipc_orders_copy);
	tcase_add_test(tc, test_ipc_two_devices);
	tcase_add_test(tc, test_ipc_exporter_exit);
	tcase_add_test(tc, test_ipc_waiter_exit);
	tcase_add_test(tc, test_ipc_bad);
	tcase_add_test(tc, test_raw_input);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(event_api_suite());
}
