// SPDX-License-Identifier: GPL-2.0
/*
 * Contexts (issue 5): the default context of aclrtSetDevice, explicit
 * contexts, the per-thread current context, destroying a context destroys
 * its streams and events, stale handles after destroy / reset are errors.
 */
#include "vmtest.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <acl/acl.h>

#define STREAMS_PATH "/sys/kernel/debug/npu_sim/npu_sim0/streams"
#define EVENTS_PATH "/sys/kernel/debug/npu_sim/npu_sim0/events"

static long streams_of_ctx(pid_t pid, long *nctx)
{
	unsigned int ctxs[64];
	char line[256];
	long n = 0, k = 0;
	FILE *f = fopen(STREAMS_PATH, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		int p;
		unsigned int ctx;
		long i;

		if (sscanf(line, "%d %u", &p, &ctx) != 2 || p != pid)
			continue;
		n++;
		for (i = 0; i < k && ctxs[i] != ctx; i++)
			;
		if (i == k && k < 64)
			ctxs[k++] = ctx;
	}
	fclose(f);
	*nctx = k;
	return n;
}

/* Kernel events of @pid on device 0 (debugfs events, one line each). */
static long events_of(pid_t pid)
{
	char line[256];
	long n = 0;
	FILE *f = fopen(EVENTS_PATH, "r");
	int p;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "pid ctx event recorded completed pending timestamp_ns ipc\n");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d", &p) == 1 && p == pid)
			n++;
	fclose(f);
	return n;
}

START_TEST(test_default_and_explicit)
{
	aclrtContext def = NULL, c = NULL, cur = NULL;
	int32_t dev = -1;

	ck_assert_int_eq(aclrtGetCurrentContext(&def), ACL_SUCCESS);
	ck_assert_ptr_nonnull(def);
	ck_assert_int_eq(aclrtCreateContext(&c, 0), ACL_SUCCESS);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_ne(c, def);
	ck_assert_int_eq(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
	ck_assert_ptr_eq(cur, c);
	ck_assert_int_eq(aclrtSetCurrentContext(def), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
	ck_assert_ptr_eq(cur, def);
	ck_assert_int_eq(aclrtSetCurrentContext(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetDevice(&dev), ACL_SUCCESS);
	ck_assert_int_eq(dev, 0);

	ck_assert_int_eq(aclrtDestroyContext(c), ACL_SUCCESS);
	/* the thread falls back to the device's default context */
	ck_assert_int_eq(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
	ck_assert_ptr_eq(cur, def);
	ck_assert_int_eq(aclrtDestroyContext(c), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSetCurrentContext(c), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDestroyContext(def), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateContext(&c, 99), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtCreateContext(&c, -1), ACL_ERROR_RT_INVALID_DEVICEID);
}
END_TEST

struct thr {
	aclrtContext ctx;
	aclError before, set, after, dev_ret;
	aclrtContext got;
	int32_t dev;
};

static void *thread_fn(void *p)
{
	struct thr *t = p;
	aclrtContext c = NULL;

	t->before = aclrtGetCurrentContext(&c);
	t->set = aclrtSetCurrentContext(t->ctx);
	t->after = aclrtGetCurrentContext(&t->got);
	t->dev_ret = aclrtGetDevice(&t->dev);
	return NULL;
}

/* The current context is per thread; setting one selects its device. */
START_TEST(test_per_thread)
{
	struct thr t = { 0 };
	aclrtContext c = NULL, cur = NULL;
	pthread_t th;

	ck_assert_int_eq(aclrtCreateContext(&c, 1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);	/* this thread: back to device 0 */
	t.ctx = c;
	ck_assert_int_eq(pthread_create(&th, NULL, thread_fn, &t), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_eq(t.before, ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(t.set, ACL_SUCCESS);
	ck_assert_int_eq(t.after, ACL_SUCCESS);
	ck_assert_ptr_eq(t.got, c);
	ck_assert_int_eq(t.dev_ret, ACL_SUCCESS);
	ck_assert_int_eq(t.dev, 1);
	ck_assert_int_eq(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
	ck_assert_ptr_ne(cur, c);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(c), ACL_SUCCESS);
}
END_TEST

/* Destroying a context destroys its streams and events (kernel objects). */
START_TEST(test_destroy_releases)
{
	aclrtContext c = NULL, def = NULL;
	aclrtStream s1 = NULL, s2 = NULL, sd = NULL;
	aclrtEvent e = NULL;
	void *d = NULL, *d1 = NULL;
	long nctx = 0;

	ck_assert_int_eq(aclrtGetCurrentContext(&def), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&sd), ACL_SUCCESS);	/* in the default context */
	ck_assert_int_eq(aclrtCreateContext(&c, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(d, 4096, 7, 4096, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(d, 4096, 8, 4096, NULL), ACL_SUCCESS);	/* c's default stream */
	ck_assert_int_eq(aclrtRecordEvent(e, s2), ACL_SUCCESS);
	ck_assert_int_eq(streams_of_ctx(getpid(), &nctx), 4);
	ck_assert_int_eq(nctx, 2);
	ck_assert_int_eq(events_of(getpid()), 1);

	ck_assert_int_eq(aclrtDestroyContext(c), ACL_SUCCESS);
	ck_assert_int_eq(streams_of_ctx(getpid(), &nctx), 1);
	ck_assert_int_eq(nctx, 1);
	ck_assert_int_eq(events_of(getpid()), 0);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSynchronizeEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
	/* memory belongs to the process's device, not the context */
	ck_assert_int_eq(aclrtSynchronizeStream(sd), ACL_SUCCESS);

	/* stream on device 0, memory on device 1: 107003 */
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&d1, 4096, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(d1, 4096, 1, 4096, sd), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);	/* on device 1 */
	ck_assert_int_eq(aclrtRecordEvent(e, sd), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetCurrentContext(def), ACL_SUCCESS);

	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(sd), ACL_SUCCESS);
}
END_TEST

/* Resetting the device ends its contexts, streams and events. */
START_TEST(test_reset_invalidates)
{
	aclrtStream s = NULL;
	aclrtEvent e = NULL;
	aclrtContext c = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetCurrentContext(&c), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);	/* a new opening */
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
}
END_TEST

static Suite *context_suite(void)
{
	Suite *s = suite_create("context");
	TCase *tc = tcase_create("context");

	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_add_test(tc, test_default_and_explicit);
	tcase_add_test(tc, test_per_thread);
	tcase_add_test(tc, test_destroy_releases);
	tcase_add_test(tc, test_reset_invalidates);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(context_suite());
}
