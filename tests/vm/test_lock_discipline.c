// SPDX-License-Identifier: GPL-2.0
/*
 * The library's lock discipline (issue 22): no library lock is held across
 * a call that blocks on the device (lib/acl_internal.h).  A thread blocked
 * in a synchronize, a stream destroy, a pageable copy or aclrtProcessReport
 * does not stop aclrtSetDevice / aclrtResetDevice / create / destroy / fork
 * in other threads, nor the thread that writes the value it waits for; a
 * fork child keeps no fd of the parent's devices.
 *
 * "Blocked" is observed, not slept for: a thread is blocked once
 * /proc/self/task/<tid>/syscall shows it inside the ioctl that waits
 * (STREAM_SYNC, EVENT_SYNC, STREAM_DESTROY or CB_WAIT), whose condition the
 * test has not yet made true.  A lock held across that ioctl hangs the racing
 * threads, and the case fails by its timeout.
 */
#include "vmtest.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define THREADS 8
#define RACE_ROUNDS 8
#define COPY_BYTES (64 * KiB)

static pid_t my_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Whether thread tid of this process is inside ioctl request req now. */
static int in_ioctl(pid_t tid, unsigned long req)
{
	char path[64], line[256] = "";
	unsigned long fd, r;
	long nr;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	f = fopen(path, "re");
	ck_assert_ptr_nonnull(f);
	if (fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	fclose(f);
	return sscanf(line, "%ld %lx %lx", &nr, &fd, &r) == 3 && nr == SYS_ioctl && r == req;
}

/* ---- the program of issue 22 (1), with 8 pairs of threads ------------- */

struct pair {
	uint64_t *p;		/* the device value A waits for and B writes */
	pid_t a_tid;
	int a_done;
	aclError a_wait, a_sync, b_set, b_write, b_sync;
};

/* A: aclrtValueWait(p, 100, EQ, sA), then aclrtSynchronizeStream(sA). */
static void *waiter(void *arg)
{
	struct pair *t = arg;
	aclrtStream s = NULL;

	__atomic_store_n(&t->a_tid, my_tid(), __ATOMIC_RELEASE);
	if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS) {
		t->a_wait = ACL_ERROR_RT_CONTEXT_NULL;
	} else {
		t->a_wait = aclrtValueWait(t->p, 100, ACL_STREAM_WAIT_VALUE_EQ, s);
		t->a_sync = aclrtSynchronizeStream(s);
		(void)aclrtDestroyStream(s);
		(void)aclrtResetDevice(0);
	}
	__atomic_store_n(&t->a_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* B, once A is blocked: aclrtSetDevice(0), aclrtValueWrite(p, 100, 0, sB). */
static void *writer(void *arg)
{
	struct pair *t = arg;
	aclrtStream s = NULL;

	t->b_set = aclrtSetDevice(0);
	if (t->b_set != ACL_SUCCESS)
		return NULL;
	t->b_write = aclrtCreateStream(&s);
	if (t->b_write == ACL_SUCCESS)
		t->b_write = aclrtValueWrite(t->p, 100, 0, s);
	t->b_sync = aclrtSynchronizeStream(s);
	(void)aclrtDestroyStream(s);
	(void)aclrtResetDevice(0);
	return NULL;
}

START_TEST(value_wait_then_set_device_8_threads)
{
	uint64_t *vals = vm_dev_alloc(THREADS * 8);
	struct pair t[THREADS];
	pthread_t a[THREADS], b[THREADS];

	ck_assert_int_eq(aclrtMemset(vals, THREADS * 8, 0, THREADS * 8), ACL_SUCCESS);
	memset(t, 0, sizeof(t));
	for (int i = 0; i < THREADS; i++) {
		t[i].p = vals + i;
		ck_assert_int_eq(pthread_create(&a[i], NULL, waiter, &t[i]), 0);
	}
	/* every A blocked in its synchronize before any B starts */
	for (int i = 0; i < THREADS; i++) {
		while (__atomic_load_n(&t[i].a_tid, __ATOMIC_ACQUIRE) == 0)
			usleep(1000);
		while (!__atomic_load_n(&t[i].a_done, __ATOMIC_ACQUIRE) &&
		       !in_ioctl(t[i].a_tid, NPU_SIM_IOCTL_STREAM_SYNC))
			usleep(1000);
		ck_assert_msg(!__atomic_load_n(&t[i].a_done, __ATOMIC_ACQUIRE),
			      "A %d returned before B wrote: wait %d sync %d", i, t[i].a_wait, t[i].a_sync);
	}
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&b[i], NULL, writer, &t[i]), 0);
	for (int i = 0; i < THREADS; i++) {
		ck_assert_int_eq(pthread_join(b[i], NULL), 0);
		ck_assert_int_eq(pthread_join(a[i], NULL), 0);
	}
	for (int i = 0; i < THREADS; i++) {
		ck_assert_int_eq(t[i].a_wait, ACL_SUCCESS);
		ck_assert_int_eq(t[i].a_sync, ACL_SUCCESS);
		ck_assert_int_eq(t[i].b_set, ACL_SUCCESS);
		ck_assert_int_eq(t[i].b_write, ACL_SUCCESS);
		ck_assert_int_eq(t[i].b_sync, ACL_SUCCESS);
		ck_assert_uint_eq(vm_dev_get_u64(vals + i), 100);
	}
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
}
END_TEST

/* ---- every blocking call against racing threads ----------------------- */

/* The calls that block on the device, each behind a value wait on gate. */
enum blocker {
	B_SYNC_STREAM,
	B_SYNC_STREAM_TIMEOUT,
	B_SYNC_DEVICE,
	B_SYNC_EVENT,
	B_DESTROY_STREAM,
	B_PAGEABLE_COPY,
	B_FREE_DEV_SYNC,
	B_DESTROY_CONTEXT,
	B_PROCESS_REPORT,	/* waits for a callback queued behind the gate */
	B_COUNT
};

/* What other threads do meanwhile, each RACE_ROUNDS times. */
enum racer { R_SET_RESET, R_STREAM, R_EVENT, R_CONTEXT, R_FORK, R_COUNT };

/* Open fds of this process on an npu_sim device (safe in a fork child). */
static int device_fds(void)
{
	char path[300], target[64];
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;
	ssize_t len;

	if (dir == NULL)
		return -1;
	while ((d = readdir(dir)) != NULL) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len > 0) {
			target[len] = '\0';
			n += strncmp(target, "/dev/npu_sim", 12) == 0;
		}
	}
	closedir(dir);
	return n;
}

/*
 * A fork: its atfork handlers take the table lock for writing; the child
 * keeps no fd of the parent's devices, the blocked thread's hold included.
 * 0, or an error code for race_note.
 */
static aclError fork_child_clean(void)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0)
		_exit(device_fds() == 0 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return ACL_ERROR_RT_INTERNAL_ERROR;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ACL_SUCCESS : ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
}

struct blocked {
	enum blocker kind;
	uint64_t *gate;		/* 8 bytes of device memory, 0 until released */
	aclrtStream s;		/* main's stream, blocked on gate */
	aclrtEvent e;		/* recorded on s after the wait */
	void *dst;		/* B_PAGEABLE_COPY: device destination */
	unsigned char *src;	/* and its pageable (malloc) source */
	_Atomic pid_t tid;
	_Atomic int done;
	aclError setup, rc;
};

static unsigned long blocking_ioctl(enum blocker k)
{
	if (k == B_SYNC_EVENT)
		return NPU_SIM_IOCTL_EVENT_SYNC;
	if (k == B_DESTROY_STREAM || k == B_DESTROY_CONTEXT)
		return NPU_SIM_IOCTL_STREAM_DESTROY;
	if (k == B_PROCESS_REPORT)
		return NPU_SIM_IOCTL_CB_WAIT;
	return NPU_SIM_IOCTL_STREAM_SYNC;
}

static void noop_callback(void *arg)
{
	(void)arg;
}

static aclError block(struct blocked *b)
{
	aclrtContext c = NULL;
	aclrtStream cs = NULL;
	void *x = NULL;
	aclError err;

	switch (b->kind) {
	case B_SYNC_STREAM:
		return aclrtSynchronizeStream(b->s);
	case B_SYNC_STREAM_TIMEOUT:
		return aclrtSynchronizeStreamWithTimeout(b->s, 600 * 1000);
	case B_SYNC_DEVICE:
		return aclrtSynchronizeDevice();
	case B_SYNC_EVENT:
		return aclrtSynchronizeEvent(b->e);
	case B_DESTROY_STREAM:
		return aclrtDestroyStream(b->s);
	case B_PAGEABLE_COPY:
		return aclrtMemcpyAsync(b->dst, COPY_BYTES, b->src, COPY_BYTES, ACL_MEMCPY_HOST_TO_DEVICE, b->s);
	case B_FREE_DEV_SYNC:
		err = aclrtMalloc(&x, 4096, ACL_MEM_MALLOC_NORMAL_ONLY);
		return err != ACL_SUCCESS ? err : aclrtFreeWithDevSync(x);
	case B_DESTROY_CONTEXT:
		/* a context of this thread whose stream waits on the gate */
		err = aclrtCreateContext(&c, 0);
		if (err == ACL_SUCCESS)
			err = aclrtCreateStream(&cs);
		if (err == ACL_SUCCESS)
			err = aclrtValueWait(b->gate, 1, ACL_STREAM_WAIT_VALUE_EQ, cs);
		return err != ACL_SUCCESS ? err : aclrtDestroyContext(c);
	case B_PROCESS_REPORT:
		err = aclrtSubscribeReport((uint64_t)pthread_self(), b->s);
		if (err == ACL_SUCCESS)
			err = aclrtLaunchCallback(noop_callback, NULL, ACL_CALLBACK_BLOCK, b->s);
		if (err == ACL_SUCCESS)
			err = aclrtProcessReport(-1);
		if (err == ACL_SUCCESS)
			err = aclrtUnSubscribeReport((uint64_t)pthread_self(), b->s);
		return err;
	default:
		return ACL_ERROR_INVALID_PARAM;
	}
}

static void *blocker_thread(void *arg)
{
	struct blocked *b = arg;

	b->setup = aclrtSetDevice(0);
	atomic_store(&b->tid, my_tid());
	if (b->setup == ACL_SUCCESS) {
		b->rc = block(b);
		(void)aclrtResetDevice(0);
	}
	atomic_store(&b->done, 1);
	return NULL;
}

struct race {
	enum racer kind;
	aclError first_error;	/* ACL_SUCCESS, or the first call that failed */
};

static void race_note(struct race *r, aclError err)
{
	if (err != ACL_SUCCESS && r->first_error == ACL_SUCCESS)
		r->first_error = err;
}

static void *racer_thread(void *arg)
{
	struct race *r = arg;
	aclrtContext c;
	aclrtStream s;
	aclrtEvent e;

	race_note(r, aclrtSetDevice(0));
	for (int i = 0; i < RACE_ROUNDS && r->first_error == ACL_SUCCESS; i++) {
		switch (r->kind) {
		case R_SET_RESET:	/* the table's write lock, each time */
			race_note(r, aclrtSetDevice(0));
			race_note(r, aclrtResetDevice(0));
			break;
		case R_STREAM:
			race_note(r, aclrtCreateStream(&s));
			race_note(r, aclrtDestroyStream(s));
			break;
		case R_EVENT:
			race_note(r, aclrtCreateEvent(&e));
			race_note(r, aclrtDestroyEvent(e));
			break;
		case R_CONTEXT:
			race_note(r, aclrtCreateContext(&c, 0));
			race_note(r, aclrtDestroyContext(c));
			break;
		case R_FORK:
			race_note(r, fork_child_clean());
			break;
		default:
			break;
		}
	}
	race_note(r, aclrtResetDevice(0));
	return NULL;
}

/* Blocking call k in a thread; racers of kind rk in two others; release. */
static void one_race(enum blocker k, enum racer rk)
{
	struct blocked b = { .kind = k };
	struct race r[2] = { { .kind = rk }, { .kind = rk } };
	unsigned char *back = NULL;
	pthread_t bt, rt[2];
	pid_t tid;

	b.gate = vm_dev_alloc(8);
	vm_dev_put_u64(b.gate, 0);
	ck_assert_int_eq(aclrtCreateStream(&b.s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&b.e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWait(b.gate, 1, ACL_STREAM_WAIT_VALUE_EQ, b.s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(b.e, b.s), ACL_SUCCESS);
	if (k == B_PAGEABLE_COPY) {
		b.dst = vm_dev_alloc(COPY_BYTES);
		b.src = malloc(COPY_BYTES);
		back = malloc(COPY_BYTES);
		ck_assert_ptr_nonnull(b.src);
		ck_assert_ptr_nonnull(back);
		vm_fill(b.src, COPY_BYTES, 0x22a + k);
	}

	ck_assert_int_eq(pthread_create(&bt, NULL, blocker_thread, &b), 0);
	while ((tid = atomic_load(&b.tid)) == 0)
		usleep(1000);
	while (!atomic_load(&b.done) && !in_ioctl(tid, blocking_ioctl(k)))
		usleep(1000);
	ck_assert_msg(!atomic_load(&b.done), "blocker %d returned %d before the gate opened", k, b.rc);

	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&rt[i], NULL, racer_thread, &r[i]), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(pthread_join(rt[i], NULL), 0);
		ck_assert_msg(r[i].first_error == ACL_SUCCESS, "blocker %d racer %d: error %d", k, rk,
			      r[i].first_error);
	}
	/* the racers got through while the blocker still waits */
	ck_assert_msg(!atomic_load(&b.done), "blocker %d returned %d with the gate shut", k, b.rc);
	/*
	 * Still inside its ioctl: /proc reads "running" while a wake-up of the
	 * context's wait queue (the racers' streams) has it re-check its
	 * condition, so look until it is seen asleep there again.
	 */
	for (double end = vm_now() + 60; !in_ioctl(tid, blocking_ioctl(k)); usleep(1000))
		ck_assert_msg(vm_now() < end && !atomic_load(&b.done),
			      "blocker %d (racer %d) left its ioctl", k, rk);

	vm_dev_put_u64(b.gate, 1);
	ck_assert_int_eq(pthread_join(bt, NULL), 0);
	ck_assert_int_eq(b.setup, ACL_SUCCESS);
	ck_assert_msg(b.rc == ACL_SUCCESS, "blocker %d (racer %d) returned %d", k, rk, b.rc);

	if (k == B_PAGEABLE_COPY) {
		ck_assert_int_eq(aclrtMemcpy(back, COPY_BYTES, b.dst, COPY_BYTES, ACL_MEMCPY_DEVICE_TO_HOST),
				 ACL_SUCCESS);
		ck_assert_int_eq(memcmp(back, b.src, COPY_BYTES), 0);
		ck_assert_int_eq(aclrtFree(b.dst), ACL_SUCCESS);
		free(b.src);
		free(back);
	}
	if (k != B_DESTROY_STREAM) {
		ck_assert_int_eq(aclrtSynchronizeStream(b.s), ACL_SUCCESS);
		ck_assert_int_eq(aclrtDestroyStream(b.s), ACL_SUCCESS);
	}
	ck_assert_int_eq(aclrtDestroyEvent(b.e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b.gate), ACL_SUCCESS);
}

START_TEST(blocking_call_vs_racers)
{
	/* _i: the blocking call; each against every kind of racer */
	for (int rk = 0; rk < R_COUNT; rk++)
		one_race((enum blocker)_i, (enum racer)rk);
	/* no device file kept open by a hold: this process's one */
	ck_assert_int_eq(vm_dbg_contexts(0), 1);
}
END_TEST

static Suite *lock_suite(void)
{
	Suite *s = suite_create("lock_discipline");
	TCase *tc = tcase_create("value_wait_pattern");
	TCase *race = tcase_create("blocking_vs_racers");

	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_checked_fixture(tc, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_add_test(tc, value_wait_then_set_device_8_threads);
	suite_add_tcase(s, tc);

	tcase_set_timeout(race, VM_TIMEOUT);
	tcase_add_checked_fixture(race, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_add_loop_test(race, blocking_call_vs_racers, 0, B_COUNT);
	suite_add_tcase(s, race);
	return s;
}

int main(void)
{
	return vm_run_suite(lock_suite());
}
