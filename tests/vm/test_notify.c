// SPDX-License-Identifier: GPL-2.0
/*
 * Notifies (issue 23): aclrtCreateNotify / RecordNotify / WaitAndResetNotify
 * in one process and across processes (export key, whitelist, import), the
 * counting notifies' record and wait modes, aclrtNotifyBatchReset, a wait
 * that times out, a destroy while a stream waits, SIGKILL of an importer
 * and of an exporter (debugfs "notifies" and "shared" back at their start),
 * and the bad-input paths with the codes of docs/cann-api-notes.md 8.
 * State is read from debugfs "notifies" (id owner kind value holders export
 * state waiters streams) and polled, never slept on.
 */
#include "vmtest.h"

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define NOTIFIES "/sys/kernel/debug/npu_sim/npu_sim0/notifies"
#define SHARED "/sys/kernel/debug/npu_sim/npu_sim0/shared"
#define KEYLEN 65

enum { CMD_GO = 1, CMD_EXIT = 2 };

/* One line of debugfs "notifies". */
struct nrow {
	unsigned int id, value, holders, waiters;
	int owner;
	char kind[16], state[16];
};

/* The line of notify @id: 1 found, 0 not. */
static int nrow_get(unsigned int id, struct nrow *r)
{
	FILE *f = fopen(NOTIFIES, "r");
	char line[512], exp[32], streams[256];
	int found = 0;

	ck_assert_ptr_nonnull(f);
	if (!fgets(line, sizeof(line), f))	/* header */
		ck_abort_msg("no header in " NOTIFIES);
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %d %15s %u %u %31s %15s %u %255s", &r->id, &r->owner, r->kind, &r->value,
			   &r->holders, exp, r->state, &r->waiters, streams) == 9 && r->id == id)
			found = 1;
	}
	fclose(f);
	return found;
}

static int lines_of(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int n = -1;		/* the header */

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

static unsigned int id_of(aclrtNotify n)
{
	uint32_t id = 0;

	ck_assert_int_eq(aclrtGetNotifyId(n, &id), ACL_SUCCESS);
	ck_assert_uint_gt(id, 0);
	return id;
}

static unsigned int cnt_id_of(aclrtCntNotify n)
{
	uint32_t id = 0;

	ck_assert_int_eq(aclrtCntNotifyGetId(n, &id), ACL_SUCCESS);
	return id;
}

static unsigned int value_of(unsigned int id)
{
	struct nrow r;

	ck_assert(nrow_get(id, &r));
	return r.value;
}

/* Poll debugfs until notify @id has @n parked waiters (bounded). */
static void wait_waiters(unsigned int id, unsigned int n)
{
	double end = vm_now() + 60;
	struct nrow r;

	for (;;) {
		if (nrow_get(id, &r) && r.waiters == n)
			return;
		ck_assert_msg(vm_now() < end, "notify %u never had %u waiters", id, n);
		sched_yield();
	}
}

static aclrtStream new_stream(void)
{
	aclrtStream s = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	return s;
}

/* A record in one stream releases a wait in another; the wait resets it. */
START_TEST(test_record_releases_wait)
{
	aclrtStream s1 = new_stream(), s2 = new_stream();
	aclrtStreamStatus st;
	aclrtNotify n = NULL;
	unsigned int id;
	struct nrow r;

	ck_assert_int_eq(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
	id = id_of(n);
	ck_assert(nrow_get(id, &r));
	ck_assert_str_eq(r.kind, "plain");
	ck_assert_uint_eq(r.value, 0);
	ck_assert_int_eq(r.owner, getpid());

	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s1, 0), ACL_SUCCESS);
	wait_waiters(id, 1);
	ck_assert_int_eq(aclrtStreamQuery(s1, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtRecordNotify(n, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_uint_eq(value_of(id), 0);	/* the wait reset it */

	/* Set before the wait: it passes at once; two records set it once. */
	ck_assert_int_eq(aclrtRecordNotify(n, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordNotify(n, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_uint_eq(value_of(id), 1);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s1, UINT32_MAX), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_uint_eq(value_of(id), 0);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s1, 0), ACL_SUCCESS);
	wait_waiters(id, 1);
	ck_assert_int_eq(aclrtRecordNotify(n, NULL), ACL_SUCCESS);	/* default stream */
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert(!nrow_get(id, &r));
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
}
END_TEST

/* A wait that is not met within its timeout fails its stream with 107020. */
START_TEST(test_wait_timeout)
{
	aclrtStream s = new_stream();
	aclrtCntNotifyWaitInfo wi = { .mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, .value = 1, .timeout = 20 };
	aclrtCntNotify c = NULL;
	aclrtNotify n = NULL;

	ck_assert_int_eq(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s, 20), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);	/* reported once */
	ck_assert_uint_eq(value_of(id_of(n)), 0);

	ck_assert_int_eq(aclrtCntNotifyCreate(&c, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCntNotifyWaitWithTimeout(c, s, &wi), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCntNotifyDestroy(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

static void cnt_record(aclrtCntNotify c, aclrtStream s, aclrtCntNotifyRecordMode mode, uint32_t v)
{
	aclrtCntNotifyRecordInfo ri = { .mode = mode, .value = v };

	ck_assert_int_eq(aclrtCntNotifyRecord(c, s, &ri), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
}

/* A met counting wait: the stream passes it (isClear: the count becomes 0). */
static void cnt_wait_met(aclrtCntNotify c, aclrtStream s, aclrtCntNotifyWaitMode mode, uint32_t v, int clear)
{
	aclrtCntNotifyWaitInfo wi = { .mode = mode, .value = v, .isClear = (uint8_t)clear };

	ck_assert_int_eq(aclrtCntNotifyWaitWithTimeout(c, s, &wi), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
}

START_TEST(test_counting_modes)
{
	aclrtStream s = new_stream(), s2 = new_stream();
	aclrtCntNotifyWaitInfo wi = { .mode = ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, .value = 10 };
	aclrtCntNotify c = NULL;
	unsigned int id;
	struct nrow r;

	ck_assert_int_eq(aclrtCntNotifyCreate(&c, 0), ACL_SUCCESS);
	id = cnt_id_of(c);
	ck_assert(nrow_get(id, &r));
	ck_assert_str_eq(r.kind, "count");
	ck_assert_uint_eq(r.value, 0);

	cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 5);
	ck_assert_uint_eq(value_of(id), 5);
	cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3);
	ck_assert_uint_eq(value_of(id), 8);
	cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x30);
	ck_assert_uint_eq(value_of(id), 0x38);
	cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x1c);
	ck_assert_uint_eq(value_of(id), 0x18);
	cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, UINT32_MAX);	/* wraps */
	ck_assert_uint_eq(value_of(id), 0x17);
	ck_assert_int_eq(aclrtCntNotifyReset(c, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(value_of(id), 0);

	cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 8);
	cnt_wait_met(c, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 8, 0);
	cnt_wait_met(c, s, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 7, 0);
	cnt_wait_met(c, s, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 8, 0);
	cnt_wait_met(c, s, ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 9, 0);
	cnt_wait_met(c, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x8, 0);
	ck_assert_uint_eq(value_of(id), 8);	/* no isClear: kept */
	cnt_wait_met(c, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 8, 1);
	ck_assert_uint_eq(value_of(id), 0);

	/* Not met: it parks until records on another stream meet it. */
	ck_assert_int_eq(aclrtCntNotifyWaitWithTimeout(c, s, &wi), ACL_SUCCESS);
	wait_waiters(id, 1);
	cnt_record(c, s2, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 6);
	ck_assert(nrow_get(id, &r));
	ck_assert_uint_eq(r.value, 6);
	ck_assert_uint_eq(r.waiters, 1);	/* 6 < 10: still parked */
	cnt_record(c, s2, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 4);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(value_of(id), 10);

	ck_assert_int_eq(aclrtCntNotifyDestroy(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
}
END_TEST

START_TEST(test_batch_reset)
{
	aclrtStream s = new_stream();
	aclrtNotify n[3] = { NULL, NULL, NULL }, gone = NULL, mixed[2];
	aclrtCntNotify c = NULL;

	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(aclrtCreateNotify(&n[i], 0), ACL_SUCCESS);
		ck_assert_int_eq(aclrtRecordNotify(n[i], s), ACL_SUCCESS);
	}
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtNotifyBatchReset(n, 2), ACL_SUCCESS);
	ck_assert_uint_eq(value_of(id_of(n[0])), 0);
	ck_assert_uint_eq(value_of(id_of(n[1])), 0);
	ck_assert_uint_eq(value_of(id_of(n[2])), 1);

	ck_assert_int_eq(aclrtNotifyBatchReset(NULL, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtNotifyBatchReset(n, 0), ACL_ERROR_RT_PARAM_INVALID);
	/* In order, the first failure stops: the ones before it are reset. */
	ck_assert_int_eq(aclrtCreateNotify(&gone, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(gone), ACL_SUCCESS);
	mixed[0] = n[2];
	mixed[1] = gone;
	ck_assert_int_eq(aclrtNotifyBatchReset(mixed, 2), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_uint_eq(value_of(id_of(n[2])), 0);
	mixed[1] = NULL;
	ck_assert_int_eq(aclrtNotifyBatchReset(mixed, 2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCntNotifyCreate(&c, 0), ACL_SUCCESS);
	mixed[1] = c;
	ck_assert_int_eq(aclrtNotifyBatchReset(mixed, 2), ACL_ERROR_RT_INVALID_HANDLE);

	ck_assert_int_eq(aclrtCntNotifyDestroy(c), ACL_SUCCESS);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(aclrtDestroyNotify(n[i]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* The creator's destroy ends the wait on it (cancelled, no error); the
 * stream runs on. */
START_TEST(test_destroy_while_waiting)
{
	aclrtStream s = new_stream();
	aclrtNotify n = NULL, m = NULL;
	unsigned int id;
	int before = lines_of(NOTIFIES);

	ck_assert_int_eq(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateNotify(&m, 0), ACL_SUCCESS);
	id = id_of(n);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordNotify(m, s), ACL_SUCCESS);	/* runs after it */
	wait_waiters(id, 1);
	ck_assert_uint_eq(value_of(id_of(m)), 0);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(value_of(id_of(m)), 1);
	ck_assert_int_eq(aclrtDestroyNotify(m), ACL_SUCCESS);
	ck_assert_int_eq(lines_of(NOTIFIES), before);

	/* A forced stream destroy cancels a parked wait too. */
	ck_assert_int_eq(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
	id = id_of(n);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS);
	wait_waiters(id, 1);
	ck_assert_int_eq(aclrtDestroyStreamForce(s), ACL_SUCCESS);
	wait_waiters(id, 0);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(lines_of(NOTIFIES), before);
}
END_TEST

/* ---- threads ------------------------------------------------------------ */

struct syncer {
	aclrtStream s;
	pid_t tid;		/* set by the thread */
	aclError ret;
};

static void *sync_thread(void *arg)
{
	struct syncer *y = arg;

	__atomic_store_n(&y->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	y->ret = aclrtSynchronizeStream(y->s);
	return NULL;
}

/*
 * A thread synchronizing a stream parked on a notify sleeps in the driver
 * holding no library lock: meanwhile other threads create and destroy
 * notifies and streams, open and reset device 1; the record releases it.
 */
START_TEST(test_thread_blocked_holds_no_lock)
{
	struct syncer y = { .s = new_stream() };
	aclrtNotify n = NULL, m = NULL;
	aclrtStream other = NULL;
	pthread_t t;
	pid_t tid;

	ck_assert_int_eq(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, y.s, 0), ACL_SUCCESS);
	ck_assert_int_eq(pthread_create(&t, NULL, sync_thread, &y), 0);
	while ((tid = __atomic_load_n(&y.tid, __ATOMIC_ACQUIRE)) == 0)
		sched_yield();
	vm_wait_blocked_in_ioctl(tid, NPU_SIM_IOCTL_STREAM_SYNC);

	ck_assert_int_eq(aclrtCreateNotify(&m, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(m), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	vm_wait_blocked_in_ioctl(tid, NPU_SIM_IOCTL_STREAM_SYNC);	/* still waiting */

	ck_assert_int_eq(aclrtRecordNotify(n, NULL), ACL_SUCCESS);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(y.ret, ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(y.s), ACL_SUCCESS);
}
END_TEST

#define PINGS 300

struct pinger {
	aclrtNotify mine, theirs;
	int first;		/* records before it waits */
	aclError ret;
};

/* Queue PINGS rounds of "wait for mine, record theirs" on a stream of its
 * own (the first one records first), then synchronize. */
static void *ping_thread(void *arg)
{
	struct pinger *p = arg;
	aclrtStream s = NULL;
	aclError r;

	/* A new thread has no current device. */
	r = aclrtSetDevice(0);
	if (r == ACL_SUCCESS)
		r = aclrtCreateStream(&s);
	for (int i = 0; i < PINGS && r == ACL_SUCCESS; i++) {
		if (p->first)
			r = aclrtRecordNotify(p->theirs, s);
		if (r == ACL_SUCCESS)
			r = aclrtWaitAndResetNotify(p->mine, s, 0);
		if (r == ACL_SUCCESS && !p->first)
			r = aclrtRecordNotify(p->theirs, s);
	}
	if (r == ACL_SUCCESS)
		r = aclrtSynchronizeStream(s);
	if (s != NULL && aclrtDestroyStream(s) != ACL_SUCCESS && r == ACL_SUCCESS)
		r = ACL_ERROR_RT_INTERNAL_ERROR;
	if (aclrtResetDevice(0) != ACL_SUCCESS && r == ACL_SUCCESS)
		r = ACL_ERROR_RT_INTERNAL_ERROR;
	p->ret = r;
	return NULL;
}

/* Two threads' streams pass the turn PINGS times each way: no record is
 * missed (a miss would leave both parked and the test timed out). */
START_TEST(test_threads_ping_pong)
{
	aclrtNotify a = NULL, b = NULL;
	struct pinger pa, pb;
	pthread_t ta, tb;

	ck_assert_int_eq(aclrtCreateNotify(&a, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateNotify(&b, 0), ACL_SUCCESS);
	pa = (struct pinger){ .mine = a, .theirs = b, .first = 1 };
	pb = (struct pinger){ .mine = b, .theirs = a, .first = 0 };
	ck_assert_int_eq(pthread_create(&ta, NULL, ping_thread, &pa), 0);
	ck_assert_int_eq(pthread_create(&tb, NULL, ping_thread, &pb), 0);
	ck_assert_int_eq(pthread_join(ta, NULL), 0);
	ck_assert_int_eq(pthread_join(tb, NULL), 0);
	ck_assert_int_eq(pa.ret, ACL_SUCCESS);
	ck_assert_int_eq(pb.ret, ACL_SUCCESS);
	ck_assert_uint_eq(value_of(id_of(a)), 0);
	ck_assert_uint_eq(value_of(id_of(b)), 0);
	ck_assert_int_eq(aclrtDestroyNotify(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(b), ACL_SUCCESS);
}
END_TEST

/* ---- between processes -------------------------------------------------- */

struct imp {
	char key[KEYLEN];
	uint64_t flags;
};

/*
 * Importer: reports its tgid, waits for CMD_GO, reports the import's code;
 * if imported, its notify id, queues a wait (reports its code) and reports
 * the synchronize result.  Then waits for CMD_EXIT.
 */
static int child_importer(void *argp, int cmd, int rep)
{
	struct imp *a = argp;
	aclrtNotify n = NULL;
	aclrtStream s = NULL;
	int32_t tgid = 0;
	uint32_t id = 0;
	uint64_t c;
	int ret;

	if (aclInit(NULL) || aclrtSetDevice(0) || aclrtDeviceGetBareTgid(&tgid) || aclrtCreateStream(&s))
		return 1;
	if (vm_put(rep, (uint64_t)tgid) || vm_get(cmd, &c) || c != CMD_GO)
		return 2;
	ret = aclrtNotifyImportByKey(&n, a->key, a->flags);
	if (vm_put(rep, (uint64_t)(int64_t)ret))
		return 3;
	if (ret == ACL_SUCCESS) {
		if (aclrtGetNotifyId(n, &id) || vm_put(rep, id))
			return 4;
		/* A second import of it in this process, and an export of it. */
		{
			aclrtNotify again = NULL;
			char k2[KEYLEN];

			if (aclrtNotifyImportByKey(&again, a->key, a->flags) != ACL_ERROR_RT_PARAM_INVALID ||
			    aclrtNotifyGetExportKey(n, k2, sizeof(k2), 0) != ACL_ERROR_RT_PARAM_INVALID)
				return 5;
		}
		ret = aclrtWaitAndResetNotify(n, s, 0);
		if (vm_put(rep, (uint64_t)(int64_t)ret))
			return 6;
		ret = aclrtSynchronizeStream(s);
		if (vm_put(rep, (uint64_t)(int64_t)ret))
			return 7;
		/* After a wait and a record of ours, it is reset. */
		if (aclrtRecordNotify(n, s) || aclrtWaitAndResetNotify(n, s, 0) || aclrtSynchronizeStream(s))
			return 8;
	}
	if (vm_get(cmd, &c) || c != CMD_EXIT)
		return 9;
	if (n != NULL && aclrtDestroyNotify(n))
		return 10;
	return 0;
}

static aclrtNotify export_new(char *key, uint64_t flags)
{
	aclrtNotify n = NULL;

	ck_assert_int_eq(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtNotifyGetExportKey(n, key, KEYLEN, flags), ACL_SUCCESS);
	ck_assert_uint_eq(strlen(key), 30);
	return n;
}

START_TEST(test_cross_process)
{
	struct imp a = { .flags = ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT };
	aclrtStream s = new_stream();
	int before = lines_of(NOTIFIES), shared0 = lines_of(SHARED);
	struct vm_child ch;
	aclrtNotify n;
	unsigned int id;
	int32_t pid;
	char again[KEYLEN];
	struct nrow r;

	n = export_new(a.key, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT);
	id = id_of(n);
	/* Asked again: the same key; with other flags: refused. */
	ck_assert_int_eq(aclrtNotifyGetExportKey(n, again, sizeof(again), 0), ACL_SUCCESS);
	ck_assert_str_eq(again, a.key);
	ck_assert_int_eq(aclrtNotifyGetExportKey(n, again, sizeof(again),
						 ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(lines_of(SHARED), shared0 + 1);
	/* The creator may not import its own notify. */
	{
		aclrtNotify self = NULL;

		ck_assert_int_eq(aclrtNotifyImportByKey(&self, a.key, 0), ACL_ERROR_RT_NO_PERMISSION);
	}

	vm_child_start(&ch, child_importer, &a);
	pid = (int32_t)vm_child_get(&ch);
	ck_assert_int_eq(aclrtNotifySetImportPid(n, &pid, 1), ACL_SUCCESS);
	vm_child_put(&ch, CMD_GO);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ch), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&ch), id);	/* one object, one id */
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ch), ACL_SUCCESS);	/* wait queued */
	wait_waiters(id, 1);
	ck_assert(nrow_get(id, &r));
	ck_assert_uint_eq(r.holders, 2);
	ck_assert_int_eq(aclrtRecordNotify(n, s), ACL_SUCCESS);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ch), ACL_SUCCESS);	/* released */
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	vm_child_put(&ch, CMD_EXIT);
	vm_child_wait_ok(&ch);
	ck_assert(nrow_get(id, &r));
	ck_assert_uint_eq(r.holders, 1);
	ck_assert_uint_eq(r.value, 0);

	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(lines_of(NOTIFIES), before);
	ck_assert_int_eq(lines_of(SHARED), shared0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* A process not on the whitelist is refused; DISABLE_PID_VALIDATION lets
 * anyone import. */
START_TEST(test_whitelist)
{
	struct imp a = { .flags = 0 }, b = { .flags = ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS };
	struct vm_child ch;
	aclrtNotify n, m;
	int32_t other;

	n = export_new(a.key, 0);
	vm_child_start(&ch, child_importer, &a);
	other = (int32_t)vm_child_get(&ch) + 100000;	/* not the child */
	ck_assert_int_eq(aclrtNotifySetImportPid(n, &other, 1), ACL_SUCCESS);
	vm_child_put(&ch, CMD_GO);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ch), ACL_ERROR_RT_NO_PERMISSION);
	vm_child_put(&ch, CMD_EXIT);
	vm_child_wait_ok(&ch);

	m = export_new(b.key, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
	vm_child_start(&ch, child_importer, &b);
	(void)vm_child_get(&ch);
	vm_child_put(&ch, CMD_GO);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ch), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&ch), id_of(m));
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ch), ACL_SUCCESS);
	wait_waiters(id_of(m), 1);
	ck_assert_int_eq(aclrtRecordNotify(m, NULL), ACL_SUCCESS);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ch), ACL_SUCCESS);
	vm_child_put(&ch, CMD_EXIT);
	vm_child_wait_ok(&ch);

	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(m), ACL_SUCCESS);
}
END_TEST

/* An importer killed while its stream waits: the wait goes, the notify
 * stays the creator's and works; then everything is back at the start. */
START_TEST(test_killed_importer)
{
	struct imp a = { .flags = 0 };
	int before = lines_of(NOTIFIES), shared0 = lines_of(SHARED);
	long long used0 = vm_dbg_info(0, "used_bytes");
	aclrtStream s = new_stream();
	struct vm_child ch;
	aclrtNotify n;
	unsigned int id;
	struct nrow r;

	n = export_new(a.key, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
	id = id_of(n);
	vm_child_start(&ch, child_importer, &a);
	(void)vm_child_get(&ch);
	vm_child_put(&ch, CMD_GO);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ch), ACL_SUCCESS);
	(void)vm_child_get(&ch);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&ch), ACL_SUCCESS);
	wait_waiters(id, 1);
	kill(ch.pid, SIGKILL);
	vm_child_wait(&ch);
	wait_waiters(id, 0);
	ck_assert(nrow_get(id, &r));
	ck_assert_uint_eq(r.holders, 1);
	ck_assert_str_eq(r.state, "live");
	ck_assert_int_eq(aclrtRecordNotify(n, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(lines_of(NOTIFIES), before);
	ck_assert_int_eq(lines_of(SHARED), shared0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* Exporter: creates and exports (no pid check), reports the key's 64-bit
 * value, then sleeps in a read of its command pipe until killed. */
static int child_exporter(void *argp, int cmd, int rep)
{
	aclrtNotify n = NULL;
	char key[KEYLEN];
	uint64_t c, v;

	(void)argp;
	if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateNotify(&n, 0) ||
	    aclrtNotifyGetExportKey(n, key, sizeof(key), ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION))
		return 1;
	if (sscanf(key, "npusim-notify-%16" SCNx64, &v) != 1 || vm_put(rep, v))
		return 2;
	(void)vm_get(cmd, &c);
	return 0;
}

/* The exporter killed while an importer waits: the wait is cancelled, the
 * import stays (dead) until its destroy; then everything is at the start. */
START_TEST(test_killed_exporter)
{
	int before = lines_of(NOTIFIES), shared0 = lines_of(SHARED);
	long long used0 = vm_dbg_info(0, "used_bytes");
	aclrtStream s = new_stream();
	struct vm_child ch;
	aclrtNotify n = NULL;
	char key[KEYLEN];
	unsigned int id;
	struct nrow r;

	vm_child_start(&ch, child_exporter, NULL);
	snprintf(key, sizeof(key), "npusim-notify-%016" PRIx64, vm_child_get(&ch));
	ck_assert_int_eq(aclrtNotifyImportByKey(&n, key, 0), ACL_SUCCESS);
	id = id_of(n);
	ck_assert(nrow_get(id, &r));
	ck_assert_int_eq(r.owner, ch.pid);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS);
	wait_waiters(id, 1);
	kill(ch.pid, SIGKILL);
	vm_child_wait(&ch);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);	/* cancelled */
	ck_assert(nrow_get(id, &r));
	ck_assert_str_eq(r.state, "dead");
	ck_assert_int_eq(lines_of(SHARED), shared0);	/* its key went with it */
	ck_assert_int_eq(aclrtRecordNotify(n, s), ACL_ERROR_RT_INVALID_HANDLE);
	{
		aclrtNotify again = NULL;

		ck_assert_int_eq(aclrtNotifyImportByKey(&again, key, 0), ACL_ERROR_RT_INVALID_HANDLE);
	}
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(lines_of(NOTIFIES), before);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* ---- bad input ------------------------------------------------------------ */

START_TEST(test_bad_input)
{
	aclrtCntNotifyRecordInfo ri = { .mode = ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, .value = 1 };
	aclrtCntNotifyWaitInfo wi = { .mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE };
	aclrtNotify n = NULL, dead = NULL, imp = NULL;
	aclrtCntNotify c = NULL, cdead = NULL;
	aclrtStream s = new_stream();
	int before = lines_of(NOTIFIES);
	char key[KEYLEN];
	int32_t pid = 1;
	uint32_t id;

	ck_assert_int_eq(aclrtCreateNotify(NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateNotify(&n, 2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCntNotifyCreate(&c, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCntNotifyCreate(NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(lines_of(NOTIFIES), before);	/* nothing made */

	ck_assert_int_eq(aclrtCreateNotify(&n, ACL_NOTIFY_DEVICE_USE_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCntNotifyCreate(&c, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateNotify(&dead, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCntNotifyCreate(&cdead, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCntNotifyDestroy(cdead), ACL_SUCCESS);

	/* NULL */
	ck_assert_int_eq(aclrtDestroyNotify(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtRecordNotify(NULL, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtWaitAndResetNotify(NULL, s, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetNotifyId(NULL, &id), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetNotifyId(n, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCntNotifyDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCntNotifyGetId(NULL, &id), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCntNotifyGetId(c, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCntNotifyRecord(c, s, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCntNotifyRecord(NULL, s, &ri), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCntNotifyWaitWithTimeout(c, s, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCntNotifyWaitWithTimeout(NULL, s, &wi), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCntNotifyReset(NULL, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtNotifyGetExportKey(NULL, key, sizeof(key), 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtNotifyGetExportKey(n, NULL, sizeof(key), 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtNotifyImportByKey(NULL, "x", 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtNotifyImportByKey(&imp, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtNotifySetImportPid(NULL, &pid, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtNotifySetImportPid(n, NULL, 1), ACL_ERROR_INVALID_PARAM);

	/* destroyed handles, the other kind, a stream as a notify: 107017 */
	ck_assert_int_eq(aclrtDestroyNotify(dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtRecordNotify(dead, s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtWaitAndResetNotify(dead, s, 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtGetNotifyId(dead, &id), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtNotifyGetExportKey(dead, key, sizeof(key), 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtNotifySetImportPid(dead, &pid, 1), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtCntNotifyDestroy(cdead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtCntNotifyRecord(cdead, s, &ri), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtCntNotifyWaitWithTimeout(cdead, s, &wi), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtCntNotifyReset(cdead, s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtCntNotifyGetId(cdead, &id), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtRecordNotify(c, s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtCntNotifyReset(n, s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtRecordNotify(s, s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtRecordNotify(n, n), ACL_ERROR_RT_INVALID_HANDLE);
	/* the counting guard comes before the mode check */
	ri.mode = 3;
	ck_assert_int_eq(aclrtCntNotifyRecord(cdead, s, &ri), ACL_ERROR_RT_INVALID_HANDLE);

	/* modes and flags */
	ck_assert_int_eq(aclrtCntNotifyRecord(c, s, &ri), ACL_ERROR_RT_PARAM_INVALID);
	ri.mode = 5;
	ck_assert_int_eq(aclrtCntNotifyRecord(c, s, &ri), ACL_ERROR_RT_PARAM_INVALID);
	wi.mode = 5;
	ck_assert_int_eq(aclrtCntNotifyWaitWithTimeout(c, s, &wi), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtNotifyGetExportKey(n, key, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtNotifyGetExportKey(n, key, 30, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtNotifyGetExportKey(n, key, sizeof(key), 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtNotifyImportByKey(&imp, "npusim-notify-0000000000000001", 4),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtNotifyImportByKey(&imp, "npusim-notify-0000000000000001", 0),
			 ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtNotifyImportByKey(&imp, "npusim-ipc-0000000000000001", 0),
			 ACL_ERROR_RT_INVALID_HANDLE);
	/* SetImportPid before an export, num 0, a pid <= 0 */
	ck_assert_int_eq(aclrtNotifySetImportPid(n, &pid, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtNotifyGetExportKey(n, key, sizeof(key), 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtNotifySetImportPid(n, &pid, 0), ACL_ERROR_RT_PARAM_INVALID);
	pid = 0;
	ck_assert_int_eq(aclrtNotifySetImportPid(n, &pid, 1), ACL_ERROR_RT_PARAM_INVALID);
	/* an IPC memory key is not a notify's key */
	ck_assert_int_eq(aclrtIpcMemImportByKey((void **)&imp, key, 0), ACL_ERROR_RT_INVALID_HANDLE);

	/* nothing changed: no record reached the notifies */
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(value_of(id_of(n)), 0);
	ck_assert_uint_eq(value_of(cnt_id_of(c)), 0);
	ck_assert_int_eq(lines_of(NOTIFIES), before + 2);

	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCntNotifyDestroy(c), ACL_SUCCESS);
	ck_assert_int_eq(lines_of(NOTIFIES), before);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* A stream of device 1 and a notify of device 0: 107003. */
START_TEST(test_other_device)
{
	aclrtStream s1 = NULL;
	aclrtNotify n = NULL;

	ck_assert_int_eq(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordNotify(n, s1), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s1, 0), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtRecordNotify(n, NULL), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
}
END_TEST

static Suite *notify_suite(void)
{
	Suite *s = suite_create("notify");
	TCase *tc;

	tc = tcase_create("notify");
	tcase_add_checked_fixture(tc, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_record_releases_wait);
	tcase_add_test(tc, test_wait_timeout);
	tcase_add_test(tc, test_counting_modes);
	tcase_add_test(tc, test_batch_reset);
	tcase_add_test(tc, test_destroy_while_waiting);
	tcase_add_test(tc, test_thread_blocked_holds_no_lock);
	tcase_add_test(tc, test_threads_ping_pong);
	tcase_add_test(tc, test_cross_process);
	tcase_add_test(tc, test_whitelist);
	tcase_add_test(tc, test_killed_importer);
	tcase_add_test(tc, test_killed_exporter);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_other_device);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(notify_suite());
}
