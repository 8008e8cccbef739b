// SPDX-License-Identifier: GPL-2.0
/*
 * Stream values (issue 9): aclrtValueWrite / aclrtValueWait performed in
 * stream order by the driver's stream workers.  Two streams ordered by a
 * value: stream B waits for the value stream A writes after a held copy,
 * and B's later copy sees A's data.  Each wait condition (GEQ with
 * wrap-around, EQ, AND, NOR) met and not met; a forced destroy ends a
 * wait that is never met.  Bad arguments with exact codes and messages.
 */
#include "vmtest.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <acl/acl.h>

#define BUF (4 * MiB)

/* Device memory of n bytes, zeroed. */
static void *dev_alloc(size_t n)
{
	void *p = vm_dev_alloc(n);

	ck_assert_int_eq(aclrtMemset(p, n, 0, n), ACL_SUCCESS);
	return p;
}

/*
 * Waits until the 8 bytes at @dev read @v: a stream has run the op that
 * writes them (and, in order, has moved on to the next one).  Bounded at
 * 60 s so that a stream that never gets there fails instead of hanging.
 */
static void await_u64(const void *dev, uint64_t v)
{
	double end = vm_now() + 60;

	while (vm_dev_get_u64(dev) != v) {
		ck_assert_msg(vm_now() < end, "value at %p never became %llu", dev,
			      (unsigned long long)v);
		usleep(1000);
	}
}

static aclrtStreamStatus query(aclrtStream s)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;

	ck_assert_int_eq(aclrtStreamQuery(s, &st), ACL_SUCCESS);
	return st;
}

/*
 * A: (held) copy S -> M, then write 1 to the flag.  B: wait for flag >= 1,
 * then copy M -> D.  A also first waits for a gate the test opens, so B is
 * seen waiting after the hold is released.  Each stream first writes a
 * marker: once it reads 1, that stream has reached its wait (ops run in
 * order), so what is checked then is the wait's doing, not a slow worker.
 */
START_TEST(two_streams_ordered_by_value)
{
	unsigned char *want = malloc(BUF), *got = malloc(BUF), *zero = calloc(1, BUF);
	void *vals = dev_alloc(4096), *src = dev_alloc(BUF), *mid = dev_alloc(BUF), *dst = dev_alloc(BUF);
	char *gate = (char *)vals, *flag = (char *)vals + 8;
	char *mark_a = (char *)vals + 16, *mark_b = (char *)vals + 24;
	aclrtStream a, b;

	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	ck_assert_ptr_nonnull(zero);
	vm_fill(want, BUF, 0x5157);
	ck_assert_int_eq(aclrtMemcpy(src, BUF, want, BUF, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&b), ACL_SUCCESS);

	vm_stream_hold(1);
	ck_assert_int_eq(aclrtValueWrite(mark_a, 1, 0, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(mid, BUF, src, BUF, ACL_MEMCPY_DEVICE_TO_DEVICE, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(flag, 1, 0, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(mark_b, 1, 0, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_GEQ, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(dst, BUF, mid, BUF, ACL_MEMCPY_DEVICE_TO_DEVICE, b), ACL_SUCCESS);
	/* held: not even the markers are written */
	ck_assert_int_eq(query(a), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(query(b), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_uint_eq(vm_dev_get_u64(mark_a), 0);
	ck_assert_uint_eq(vm_dev_get_u64(mark_b), 0);
	vm_stream_hold(0);

	/* released, both at their waits: A waits for the gate, B for A's value */
	await_u64(mark_a, 1);
	await_u64(mark_b, 1);
	ck_assert_int_eq(query(a), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(query(b), ACL_STREAM_STATUS_NOT_READY);
	ck_assert_uint_eq(vm_dev_get_u64(flag), 0);
	ck_assert_int_eq(aclrtMemcpy(got, BUF, dst, BUF, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(memcmp(got, zero, BUF) == 0);	/* B's copy has not run */

	vm_dev_put_u64(gate, 1);	/* a plain copy opens the gate */
	ck_assert_int_eq(aclrtSynchronizeStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(a), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(flag), 1);
	ck_assert_int_eq(aclrtMemcpy(got, BUF, dst, BUF, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(memcmp(got, want, BUF) == 0);

	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(src), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(mid), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
	free(want);
	free(got);
	free(zero);
}
END_TEST

struct cond_case {
	uint32_t flag;
	uint64_t have, value;
	int met;
};

static const struct cond_case cases[] = {
	{ ACL_STREAM_WAIT_VALUE_GEQ, 5, 5, 1 },
	{ ACL_STREAM_WAIT_VALUE_GEQ, 9, 5, 1 },
	{ ACL_STREAM_WAIT_VALUE_GEQ, 4, 5, 0 },
	{ ACL_STREAM_WAIT_VALUE_GEQ, 1, UINT64_MAX, 1 },		/* 1 - (-1) = 2 */
	{ ACL_STREAM_WAIT_VALUE_GEQ, 0x8000000000000000ULL, 1, 1 },	/* wraps: >= 0 */
	{ ACL_STREAM_WAIT_VALUE_GEQ, 0, 1, 0 },
	{ ACL_STREAM_WAIT_VALUE_EQ, 7, 7, 1 },
	{ ACL_STREAM_WAIT_VALUE_EQ, 6, 7, 0 },
	{ ACL_STREAM_WAIT_VALUE_AND, 0xA, 0x2, 1 },
	{ ACL_STREAM_WAIT_VALUE_AND, 0xA, 0x4, 0 },
	{ ACL_STREAM_WAIT_VALUE_NOR, 0, 0, 1 },
	{ ACL_STREAM_WAIT_VALUE_NOR, 0xFFFFFFFF00000000ULL, 0x00000000FFFFFFFFULL, 0 },
	{ ACL_STREAM_WAIT_VALUE_NOR, 0xFFFFFFFF00000000ULL, 0x00000000FFFFFFF0ULL, 1 },
};

/*
 * Each condition: a write of "reached", a wait, then a write of a marker on
 * one stream.  Met: the stream completes and the marker is written.  Not
 * met: once "reached" reads 1 the stream is at its wait; it is not ready,
 * a bounded sync times out and the marker is untouched; a forced destroy
 * (which returns only after the stream's work is flushed) ends the wait,
 * and the marker was never written.
 */
START_TEST(wait_conditions)
{
	const struct cond_case *c = &cases[_i];
	void *vals = dev_alloc(4096);
	char *word = (char *)vals, *marker = (char *)vals + 64, *reached = (char *)vals + 128;
	aclrtStream s;

	vm_dev_put_u64(word, c->have);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(reached, 1, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWait(word, c->value, c->flag, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(marker, 0x1122334455667788ULL, 0, s), ACL_SUCCESS);
	if (c->met) {
		ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 10000), ACL_SUCCESS);
		ck_assert_uint_eq(vm_dev_get_u64(marker), 0x1122334455667788ULL);
		ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	} else {
		await_u64(reached, 1);
		ck_assert_int_eq(query(s), ACL_STREAM_STATUS_NOT_READY);
		ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 200), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
		ck_assert_uint_eq(vm_dev_get_u64(marker), 0);
		ck_assert_int_eq(aclrtDestroyStreamForce(s), ACL_SUCCESS);
		ck_assert_uint_eq(vm_dev_get_u64(marker), 0);
	}
	ck_assert_uint_eq(vm_dev_get_u64(word), c->have);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
}
END_TEST

/* The default stream (NULL) takes values too. */
START_TEST(default_stream)
{
	void *vals = dev_alloc(4096);

	ck_assert_int_eq(aclrtValueWrite(vals, 42, 0, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWait(vals, 42, ACL_STREAM_WAIT_VALUE_EQ, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 42);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
}
END_TEST

static void *no_device_thread(void *arg)
{
	void *dev = arg;
	long r = aclrtValueWrite(dev, 1, 0, NULL);

	return (void *)r;
}

START_TEST(bad_arguments)
{
	void *vals = dev_alloc(4096), *gone = dev_alloc(4096), *ret = NULL;
	uint64_t host_word __attribute__((aligned(8))) = 0;
	aclrtStream s, dead;
	void *other = NULL;
	pthread_t t;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gone), ACL_SUCCESS);

	ck_assert_int_eq(aclrtValueWrite(NULL, 1, 0, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtValueWait(NULL, 1, 0, s), ACL_ERROR_INVALID_PARAM);
	/* after the ACL layer's NULL check, the runtime's (and the driver's) 107000 */
	ck_assert_int_eq(aclrtValueWrite((char *)vals + 4, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWait((char *)vals + 1, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWrite(vals, 1, 1, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWait(vals, 1, 4, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtValueWait: flag is not an ACL_STREAM_WAIT_VALUE_* condition (0..3) "
			 "(error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtValueWrite: flag is reserved and must be 0 (error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtValueWait: devAddr is not 8-byte aligned "
			 "(error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtValueWrite: devAddr is not 8-byte aligned "
			 "(error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtValueWait: devAddr is NULL (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtValueWrite: devAddr is NULL (error 100000 ACL_ERROR_INVALID_PARAM)");
	ck_assert_int_eq(aclrtValueWrite(&host_word, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWrite(gone, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWait(gone, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWrite(vals, 1, 0, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtValueWait(vals, 1, 0, (aclrtStream)&host_word), ACL_ERROR_RT_INVALID_HANDLE);
	{
		const char *m = aclGetRecentErrMsg();

		ck_assert_ptr_nonnull(m);
		ck_assert(strncmp(m, "aclrtValueWait: ", 16) == 0);
		ck_assert_ptr_nonnull(strstr(m, "\naclrtValueWrite: devAddr "));
		ck_assert_ptr_nonnull(strstr(m, "is not device memory (error 107000 ACL_ERROR_RT_PARAM_INVALID)"));
		ck_assert_ptr_nonnull(strstr(m, "the 8 bytes are not in live device memory of this process"));
	}
	ck_assert_uint_eq(host_word, 0);

	/* memory of device 1 on a stream of device 0 */
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&other, 4096, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(other, 1, 0, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtValueWait(other, 1, 0, NULL), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtFree(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);

	/* a thread with no current device and the default stream */
	ck_assert_int_eq(pthread_create(&t, NULL, no_device_thread, vals), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_int_eq((long)ret, ACL_ERROR_RT_CONTEXT_NULL);

	/* nothing was queued or written by the refused calls */
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(vm_dev_get_u64(vals), 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(vals), ACL_SUCCESS);
}
END_TEST

static Suite *value_suite(void)
{
	Suite *s = suite_create("stream_value");
	TCase *t = tcase_create("value");

	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(t, VM_TIMEOUT);
	tcase_add_test(t, two_streams_ordered_by_value);
	tcase_add_loop_test(t, wait_conditions, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(t, default_stream);
	tcase_add_test(t, bad_arguments);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return vm_run_suite(value_suite());
}
