// SPDX-License-Identifier: GPL-2.0
/*
 * Stream memory operations and the allocator registry (issue 24):
 * aclrtMemsetD32Async (OP_SET with a 32-bit pattern), aclrtReduceAsync
 * (OP_REDUCE: integers and binary32/binary16/bfloat16 floats, exact bits
 * of the rounding), the cache maintenance calls (OP_CMO), aclrtDeviceL2CacheFlush,
 * aclrtMemcpyAsyncWithCondition, aclrtMemcpyBatchV2, aclrtMemcpyBatchAsync(V2),
 * aclrtDevicePeerAccessStatus and the calls of acl_rt_allocator.h.
 *
 * Exact bytes after each operation (neighbours untouched); stream order
 * (with the stream worker held, nothing has run; released, a later op of
 * the same stream sees the earlier one's result); every bad input with
 * its exact code and nothing changed; the driver's field checks of the new
 * STREAM_SUBMIT operations.
 */
#include "vmtest.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <acl/acl_rt_allocator.h>
#include <misc/npu_sim.h>

#define PAGE 4096

/* Device memory of n bytes, every byte v. */
static void *dev_alloc_set(size_t n, int v)
{
	void *p = vm_dev_alloc(n);

	ck_assert_int_eq(aclrtMemset(p, n, v, n), ACL_SUCCESS);
	return p;
}

static void dev_read(void *host, const void *dev, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

static void dev_write(void *dev, const void *host, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static aclrtStreamStatus query(aclrtStream s)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;

	ck_assert_int_eq(aclrtStreamQuery(s, &st), ACL_SUCCESS);
	return st;
}

/* A device's worth of bytes equal to v in [p, p + n). */
static void assert_bytes(const unsigned char *p, size_t n, unsigned char v)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(p[i] == v, "byte %zu is 0x%02x, want 0x%02x", i, p[i], v);
}

/* ---- aclrtMemsetD32Async ------------------------------------------------ */

START_TEST(memset_d32_async_bytes)
{
	const size_t n = 3 * PAGE;
	unsigned char *dev = dev_alloc_set(n, 0xee), *got = malloc(n);
	const size_t off = PAGE - 8, words = PAGE / 4 + 5;	/* crosses a page */
	aclrtStream s;

	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetD32Async(dev + off, n - off, 0x11223344U, words, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	dev_read(got, dev, n);
	assert_bytes(got, off, 0xee);
	for (size_t i = 0; i < words; i++) {
		uint32_t w;

		memcpy(&w, got + off + 4 * i, 4);
		ck_assert_uint_eq(w, 0x11223344U);
	}
	assert_bytes(got + off + 4 * words, n - off - 4 * words, 0xee);

	/* the default stream; a value whose bytes are equal */
	ck_assert_int_eq(aclrtMemsetD32Async(dev, n, 0x7f7f7f7fU, 2, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	dev_read(got, dev, 16);
	assert_bytes(got, 8, 0x7f);
	assert_bytes(got + 8, 8, 0xee);

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dev), ACL_SUCCESS);
	free(got);
}
END_TEST

/* aclrtMallocHost memory is set by the CPU at the call, not on the stream. */
START_TEST(memset_d32_async_pinned_host)
{
	uint32_t *h = NULL;
	aclrtStream s;

	ck_assert_int_eq(aclrtMallocHost((void **)&h, PAGE), ACL_SUCCESS);
	memset(h, 0, PAGE);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemsetD32Async(h + 1, PAGE - 4, 0xa5a5beefU, 3, s), ACL_SUCCESS);
	ck_assert_uint_eq(h[0], 0);
	ck_assert_uint_eq(h[1], 0xa5a5beefU);
	ck_assert_uint_eq(h[3], 0xa5a5beefU);
	ck_assert_uint_eq(h[4], 0);
	ck_assert_int_eq(query(s), ACL_STREAM_STATUS_COMPLETE);	/* nothing queued */
	/* the block's end bounds it (107000, nothing written) */
	ck_assert_int_eq(aclrtMemsetD32Async(h + 1020, 64, 1, 5, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(h[1020], 0);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
}
END_TEST

static void *no_device_d32(void *arg)
{
	return (void *)(long)aclrtMemsetD32Async(arg, 64, 1, 4, NULL);
}

START_TEST(memset_d32_async_bad)
{
	unsigned char *dev = dev_alloc_set(PAGE, 0), *gone = vm_dev_alloc(PAGE), *got = malloc(PAGE);
	uint32_t *plain = malloc(64);
	aclrtStream s, dead;
	void *other = NULL, *ret = NULL;
	pthread_t t;

	ck_assert_ptr_nonnull(got);
	ck_assert_ptr_nonnull(plain);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gone), ACL_SUCCESS);

	ck_assert_int_eq(aclrtMemsetD32Async(NULL, 0, 1, 0, s), ACL_SUCCESS);	/* N 0 first */
	ck_assert_int_eq(aclrtMemsetD32Async(NULL, 64, 1, 4, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32Async(dev + 2, 64, 1, 4, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32Async(dev, 15, 1, 4, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32Async(dev, SIZE_MAX, 1, SIZE_MAX / 2, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32Async(plain, 64, 1, 4, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32Async(dev, 64, 1, 4, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMemsetD32Async(gone, PAGE, 1, 4, s), ACL_ERROR_RT_PARAM_INVALID);

	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&other, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetD32Async(other, 64, 1, 4, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtFree(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);

	ck_assert_int_eq(pthread_create(&t, NULL, no_device_d32, dev), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_int_eq((long)ret, ACL_ERROR_RT_CONTEXT_NULL);

	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	dev_read(got, dev, PAGE);
	assert_bytes(got, PAGE, 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dev), ACL_SUCCESS);
	free(plain);
	free(got);
}
END_TEST

/* ---- stream order ------------------------------------------------------- */

/*
 * With the worker held nothing runs; released, each op sees the one before:
 * a = pattern; b = a (copy); b = b + a (SUM); CMO of b; b = max(b, c).
 */
START_TEST(ops_in_stream_order)
{
	const size_t n = 2 * PAGE, words = n / 4;
	uint32_t *a = dev_alloc_set(n, 0), *b = dev_alloc_set(n, 0), *c = dev_alloc_set(n, 0);
	uint32_t *got = malloc(n), *cv = malloc(n);
	aclrtStream s;

	ck_assert_ptr_nonnull(got);
	ck_assert_ptr_nonnull(cv);
	for (size_t i = 0; i < words; i++)
		cv[i] = (uint32_t)(i * 0x01000193U);
	dev_write(c, cv, n);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemsetD32Async(a, n, 0x90000001U, words, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReduceAsync(b, a, n, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s, NULL),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtCmoAsync(b, n, ACL_RT_CMO_TYPE_WRITEBACK, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReduceAsync(b, c, n, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT32, s, NULL),
			 ACL_SUCCESS);
	ck_assert_int_eq(query(s), ACL_STREAM_STATUS_NOT_READY);
	dev_read(got, a, n);
	for (size_t i = 0; i < words; i++)
		ck_assert_uint_eq(got[i], 0);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	dev_read(got, a, n);
	for (size_t i = 0; i < words; i++)
		ck_assert_uint_eq(got[i], 0x90000001U);
	dev_read(got, b, n);
	for (size_t i = 0; i < words; i++) {
		uint32_t sum = 0x20000002U;	/* 2 * 0x90000001 wraps */

		ck_assert_uint_eq(got[i], (int32_t)cv[i] > (int32_t)sum ? cv[i] : sum);
	}
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(c), ACL_SUCCESS);
	free(got);
	free(cv);
}
END_TEST

/* ---- aclrtReduceAsync --------------------------------------------------- */

struct reduce_case {
	aclDataType type;
	aclrtReduceKind kind;
	size_t size;			/* element bytes */
	uint32_t d, s, want;		/* element bit patterns */
};

static const struct reduce_case reduce_cases[] = {
	{ ACL_INT8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 1, 100, 100, 0xc8 },	/* wraps to -56 */
	{ ACL_INT8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, 1, 0x80, 0x01, 0x01 },	/* -128 < 1 */
	{ ACL_INT8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, 1, 0x80, 0x01, 0x80 },
	{ ACL_INT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, 2, 0xfffe, 0x0003, 0xfffe },	/* -2 */
	{ ACL_INT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0x7fff, 0x0001, 0x8000 },
	{ ACL_INT32, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, 4, 0xffffffffU, 0x00000000U, 0 },	/* -1 < 0 */
	{ ACL_INT32, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 4, 0x7fffffffU, 2, 0x80000001U },
	{ ACL_INT32, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, 4, 7, 9, 7 },
	/* binary32: ties to even, overflow, inf - inf, -0 < +0 */
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 4, 0x3f800000U, 0x33800000U, 0x3f800000U },
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 4, 0x3f800001U, 0x33800000U, 0x3f800002U },
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 4, 0x7f7fffffU, 0x7f7fffffU, 0x7f800000U },
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 4, 0x7f800000U, 0xff800000U, 0x7fc00000U },
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 4, 0x40490fdbU, 0xc0490fdbU, 0 },	/* pi - pi */
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 4, 0x00000001U, 0x807fffffU, 0x807ffffeU },
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, 4, 0x80000000U, 0x00000000U, 0x00000000U },
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, 4, 0x00000000U, 0x80000000U, 0x80000000U },
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, 4, 0xc0000000U, 0x3f800000U, 0xc0000000U },
	{ ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, 4, 0x7fc00001U, 0x3f800000U, 0x7fc00000U },
	/* binary16 */
	{ ACL_FLOAT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0x3c00, 0x1000, 0x3c00 },
	{ ACL_FLOAT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0x3c01, 0x1000, 0x3c02 },
	{ ACL_FLOAT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0x7bff, 0x5000, 0x7c00 },
	{ ACL_FLOAT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0x0001, 0x0001, 0x0002 },
	{ ACL_FLOAT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0x3c00, 0xbc00, 0x0000 },
	{ ACL_FLOAT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, 2, 0xbc00, 0x3c00, 0xbc00 },
	{ ACL_FLOAT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, 2, 0x7e00, 0x3c00, 0x7e00 },
	/* bfloat16 */
	{ ACL_BF16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0x3f80, 0x3b80, 0x3f80 },
	{ ACL_BF16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0x3f81, 0x3b80, 0x3f82 },
	{ ACL_BF16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0x3f80, 0x3f80, 0x4000 },
	{ ACL_BF16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, 2, 0xbf80, 0x3f80, 0x3f80 },
};

static void put_elem(unsigned char *p, size_t size, uint32_t v)
{
	if (size == 1) {
		*p = (unsigned char)v;
	} else if (size == 2) {
		uint16_t x = (uint16_t)v;

		memcpy(p, &x, 2);
	} else {
		memcpy(p, &v, 4);
	}
}

static uint32_t get_elem(const unsigned char *p, size_t size)
{
	uint16_t x;
	uint32_t v;

	if (size == 1)
		return *p;
	if (size == 2) {
		memcpy(&x, p, 2);
		return x;
	}
	memcpy(&v, p, 4);
	return v;
}

/* 2 pages + 8 bytes of elements, one pair per case; a guard after each. */
START_TEST(reduce_values)
{
	const struct reduce_case *c = &reduce_cases[_i];
	const size_t n = 2 * PAGE + 8, cnt = n / c->size;
	unsigned char *d = dev_alloc_set(n + PAGE, 0x5a), *s = vm_dev_alloc(n), *h = malloc(n + PAGE);

	ck_assert_ptr_nonnull(h);
	for (size_t i = 0; i < cnt; i++)
		put_elem(h + i * c->size, c->size, c->d);
	dev_write(d, h, n);
	for (size_t i = 0; i < cnt; i++)
		put_elem(h + i * c->size, c->size, c->s);
	dev_write(s, h, n);
	ck_assert_int_eq(aclrtReduceAsync(d, s, n, c->kind, c->type, NULL, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	dev_read(h, d, n + PAGE);
	for (size_t i = 0; i < cnt; i++)
		ck_assert_uint_eq(get_elem(h + i * c->size, c->size), c->want);
	assert_bytes(h + n, PAGE, 0x5a);
	dev_read(h, s, c->size);
	ck_assert_uint_eq(get_elem(h, c->size), c->s);	/* src unchanged */
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(s), ACL_SUCCESS);
	free(h);
}
END_TEST

/* src on device 1, issued on device 0: needs peer access, then works. */
START_TEST(reduce_peer)
{
	int32_t *d = dev_alloc_set(PAGE, 0), got[4];
	const int32_t v[4] = { 1, -2, 3, -4 };
	void *src = NULL;

	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&src, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(src, PAGE, v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReduceAsync(d, src, sizeof(v), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, NULL,
					  NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReduceAsync(d, src, sizeof(v), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, NULL,
					  NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReduceAsync(d, src, sizeof(v), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, NULL,
					  NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	dev_read(got, d, sizeof(got));
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(got[i], 2 * v[i]);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(src), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

START_TEST(reduce_bad)
{
	unsigned char *d = dev_alloc_set(PAGE, 0x11), *s = dev_alloc_set(PAGE, 0x22), *gone = vm_dev_alloc(PAGE);
	unsigned char *h = malloc(PAGE), *pinned = NULL;
	const aclrtReduceKind sum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
	aclrtStream st, dead;
	void *other = NULL;
	int x;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(aclrtMallocHost((void **)&pinned, PAGE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&st), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gone), ACL_SUCCESS);

	/* the ACL layer */
	ck_assert_int_eq(aclrtReduceAsync(NULL, s, 64, sum, ACL_INT32, st, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReduceAsync(d, NULL, 64, sum, ACL_INT32, st, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, sum, ACL_INT32, st, &x), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, sum, ACL_INT64, st, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, sum, ACL_DOUBLE, st, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 0, sum, ACL_INT64, dead, NULL), ACL_ERROR_INVALID_PARAM);
	/* the stream, then the runtime's count and kind */
	ck_assert_int_eq(aclrtReduceAsync(d, s, 0, sum, ACL_INT32, dead, NULL), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 0, sum, ACL_INT32, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, (aclrtReduceKind)9, ACL_INT32, st, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, (aclrtReduceKind)14, ACL_INT32, st, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReduceAsync(d, s, (4ULL << 30) + 4, sum, ACL_INT32, st, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	/* what the engine does not reduce: EQUAL; on an Atlas A2 the unsigned types and INT4 */
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_INT32, st, NULL),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, sum, ACL_UINT8, st, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, sum, ACL_UINT16, st, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, sum, ACL_UINT32, st, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 64, sum, ACL_INT4, st, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* memory */
	ck_assert_int_eq(aclrtReduceAsync(pinned, s, 64, sum, ACL_INT32, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReduceAsync(d, h, 64, sum, ACL_INT32, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReduceAsync(d + 2, s, 64, sum, ACL_INT32, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReduceAsync(d, s + 2, 64, sum, ACL_INT16, st, NULL) == ACL_SUCCESS, 1);
	ck_assert_int_eq(aclrtReduceAsync(d, s + 1, 64, sum, ACL_INT16, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReduceAsync(d, s, 63, sum, ACL_INT16, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReduceAsync(gone, s, 64, sum, ACL_INT32, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReduceAsync(d, gone, 64, sum, ACL_INT32, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&other, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReduceAsync(other, s, 64, sum, ACL_INT32, st, NULL), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtFree(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);

	/* only the one good INT16 reduce ran: 0x1111 + 0x2222 in the first 64 bytes */
	ck_assert_int_eq(aclrtSynchronizeStream(st), ACL_SUCCESS);
	dev_read(h, d, PAGE);
	assert_bytes(h, 64, 0x33);
	assert_bytes(h + 64, PAGE - 64, 0x11);
	ck_assert_int_eq(aclrtDestroyStream(st), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(pinned), ACL_SUCCESS);
	free(h);
}
END_TEST

/* ---- cache maintenance -------------------------------------------------- */

START_TEST(cmo_calls)
{
	unsigned char *d = dev_alloc_set(2 * PAGE, 0x3c), *got = malloc(2 * PAGE);
	aclrtBarrierTaskInfo ti = { 0 };
	aclrtStream s;

	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	vm_stream_hold(1);
	for (int t = ACL_RT_CMO_TYPE_PREFETCH; t <= ACL_RT_CMO_TYPE_FLUSH; t++)
		ck_assert_int_eq(aclrtCmoAsync(d + 1, 2 * PAGE - 1, (aclrtCmoType)t, s), ACL_SUCCESS);
	/* the A2 (default profile) has no RT_FEATURE_TASK_ASYNC_CMO: test_profile runs it on the 200I/500 A2 */
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, PAGE, ACL_RT_CMO_TYPE_INVALID, 3, s),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, PAGE, ACL_RT_CMO_TYPE_FLUSH, 0, s),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemsetAsync(d, 2 * PAGE, 0x7e, 16, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCmoAsync(d, 16, ACL_RT_CMO_TYPE_WRITEBACK, NULL), ACL_SUCCESS);
	ck_assert_int_eq(query(s), ACL_STREAM_STATUS_NOT_READY);
	ti.barrierNum = 1;
	ti.cmoInfo[0] = (aclrtBarrierCmoInfo){ ACL_RT_CMO_TYPE_INVALID, 3 };
	ck_assert_int_eq(aclrtCmoWaitBarrier(&ti, s, 0), ACL_SUCCESS);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	/* a CMO changes no byte */
	dev_read(got, d, 2 * PAGE);
	assert_bytes(got, 16, 0x7e);
	assert_bytes(got + 16, 2 * PAGE - 16, 0x3c);
	ck_assert_int_eq(aclrtDeviceL2CacheFlush(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	free(got);
}
END_TEST

static void *no_device_flush(void *arg)
{
	(void)arg;
	return (void *)(long)aclrtDeviceL2CacheFlush(NULL);
}

START_TEST(cmo_bad)
{
	unsigned char *d = dev_alloc_set(PAGE, 0), *gone = vm_dev_alloc(PAGE), *h = malloc(PAGE);
	aclrtBarrierTaskInfo ti = { 0 };
	aclrtStream s, dead;
	void *other = NULL, *ret = NULL;
	pthread_t t;
	int x;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gone), ACL_SUCCESS);

	ck_assert_int_eq(aclrtCmoAsync(NULL, 64, ACL_RT_CMO_TYPE_FLUSH, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCmoAsync(d, 0, ACL_RT_CMO_TYPE_FLUSH, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCmoAsync(d, 64, (aclrtCmoType)4, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtCmoAsync(d, 64, (aclrtCmoType)4, dead), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtCmoAsync(d, 64, ACL_RT_CMO_TYPE_FLUSH, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtCmoAsync(h, 64, ACL_RT_CMO_TYPE_FLUSH, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoAsync(gone, 64, ACL_RT_CMO_TYPE_FLUSH, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoAsync(d, 1ULL << 32, ACL_RT_CMO_TYPE_FLUSH, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoAsync(d, (1ULL << 32) + 64, ACL_RT_CMO_TYPE_FLUSH, s), ACL_SUCCESS);

	/* src NULL is the ACL layer's; then the chip feature (none on the A2) */
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(NULL, 0, ACL_RT_CMO_TYPE_INVALID, 0, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, 0, (aclrtCmoType)4, 1, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_INVALID, 0, s),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_INVALID, 2, dead),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

	ck_assert_int_eq(aclrtCmoWaitBarrier(NULL, s, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCmoWaitBarrier(&ti, s, 0), ACL_ERROR_INVALID_PARAM);
	ti.barrierNum = ACL_RT_CMO_MAX_BARRIER_NUM + 1;
	ck_assert_int_eq(aclrtCmoWaitBarrier(&ti, s, 0), ACL_ERROR_INVALID_PARAM);
	ti.barrierNum = ACL_RT_CMO_MAX_BARRIER_NUM;
	ck_assert_int_eq(aclrtCmoWaitBarrier(&ti, dead, 7), ACL_SUCCESS);	/* not looked at */

	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&other, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCmoAsync(other, 64, ACL_RT_CMO_TYPE_FLUSH, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtFree(other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDeviceL2CacheFlush(&x), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(pthread_create(&t, NULL, no_device_flush, NULL), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_int_eq((long)ret, ACL_ERROR_RT_CONTEXT_NULL);

	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	free(h);
}
END_TEST

/* The descriptor is 32 bytes of device memory holding src and length. */
START_TEST(cmo_desc)
{
	unsigned char *d = dev_alloc_set(PAGE, 0x44), got[32], zero[32] = { 0 };
	void *desc = NULL, *blank = NULL, *pinned = NULL, *gone = vm_dev_alloc(PAGE);
	uint64_t src;
	uint32_t len;
	size_t size = 0;
	aclrtStream s;
	int x;

	ck_assert_int_eq(aclrtCmoGetDescSize(NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoGetDescSize(&size), ACL_SUCCESS);
	ck_assert_uint_eq(size, 32);
	desc = dev_alloc_set(size, 0xff);
	blank = dev_alloc_set(size, 0);
	ck_assert_int_eq(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);

	ck_assert_int_eq(aclrtCmoSetDesc(NULL, d, 64), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoSetDesc(desc, NULL, 64), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoSetDesc(desc, d, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoSetDesc(pinned, d, 64), ACL_ERROR_RT_PARAM_INVALID);
	dev_read(got, desc, 32);
	assert_bytes(got, 32, 0xff);
	ck_assert_int_eq(aclrtCmoSetDesc(desc, d + 8, 100), ACL_SUCCESS);
	dev_read(got, desc, 32);
	memcpy(&len, got + 12, 4);
	memcpy(&src, got + 16, 8);
	ck_assert_uint_eq(len, 100);
	ck_assert_uint_eq(src, (uintptr_t)(d + 8));
	ck_assert_int_eq(memcmp(got, zero, 12), 0);
	ck_assert_int_eq(memcmp(got + 24, zero, 8), 0);

	ck_assert_int_eq(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_FLUSH, s, &x), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoAsyncWithDesc(NULL, ACL_RT_CMO_TYPE_FLUSH, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoAsyncWithDesc(desc, (aclrtCmoType)4, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoAsyncWithDesc(blank, ACL_RT_CMO_TYPE_FLUSH, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoAsyncWithDesc(pinned, ACL_RT_CMO_TYPE_FLUSH, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	/* a descriptor of a range that is gone by the call: refused */
	ck_assert_int_eq(aclrtCmoSetDesc(desc, gone, 100), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gone), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, NULL), ACL_ERROR_RT_PARAM_INVALID);

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(desc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(blank), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(pinned), ACL_SUCCESS);
}
END_TEST

/* ---- aclrtMemcpyAsyncWithCondition ------------------------------------- */

START_TEST(memcpy_with_condition)
{
	unsigned char *d = dev_alloc_set(PAGE, 0), *pinned = NULL, got[64], pageable[64];
	aclrtStream s;

	ck_assert_int_eq(aclrtMallocHost((void **)&pinned, PAGE), ACL_SUCCESS);
	memset(pinned, 0x61, 64);
	memset(pageable, 0x62, 64);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsyncWithCondition(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsyncWithCondition(NULL, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsyncWithCondition(d, 64, pinned, 64, (aclrtMemcpyKind)7, s),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsyncWithCondition(d, 32, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithCondition(d, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	/* pageable memory: done before the call returns */
	ck_assert_int_eq(aclrtMemcpyAsyncWithCondition(d + 64, 64, pageable, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
			 ACL_SUCCESS);
	dev_read(got, d + 64, 64);
	assert_bytes(got, 64, 0x62);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	dev_read(got, d, 64);
	assert_bytes(got, 64, 0x61);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(pinned), ACL_SUCCESS);
}
END_TEST

/* ---- batch copies on a stream ------------------------------------------- */

START_TEST(memcpy_batch_async)
{
	unsigned char *d = dev_alloc_set(2 * PAGE, 0), *pinned = NULL, got[PAGE];
	aclrtMemcpyBatchAttr at[2];
	void *dsts[3], *srcs[3];
	size_t destMaxs[3] = { 64, 64, 64 }, sizes[3] = { 64, 32, 64 }, idx[2] = { 0, 2 }, fail = 0;
	aclrtStream s, dead;

	ck_assert_int_eq(aclrtMallocHost((void **)&pinned, PAGE), ACL_SUCCESS);
	memset(pinned, 0x31, 64);
	memset(pinned + 64, 0x32, 64);
	memset(at, 0, sizeof(at));
	at[0].dstLoc = (aclrtMemLocation){ .id = 0, .type = ACL_MEM_LOCATION_TYPE_DEVICE };
	at[0].srcLoc = (aclrtMemLocation){ .id = 0, .type = ACL_MEM_LOCATION_TYPE_HOST };
	at[1].dstLoc = at[0].srcLoc;	/* the last copy goes back to the host */
	at[1].srcLoc = at[0].dstLoc;
	dsts[0] = d;
	srcs[0] = pinned;
	dsts[1] = d + 128;
	srcs[1] = pinned + 64;
	dsts[2] = pinned + 256;
	srcs[2] = d;
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);

	/* in order on the stream: copy 2 reads what copy 0 wrote */
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, idx, 2, &fail, s), ACL_SUCCESS);
	ck_assert_uint_eq(fail, SIZE_MAX);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	dev_read(got, d, 256);
	assert_bytes(got, 64, 0x31);
	assert_bytes(got + 64, 64, 0);
	assert_bytes(got + 128, 32, 0x32);
	assert_bytes(got + 160, 96, 0);
	assert_bytes(pinned + 256, 64, 0x31);
	memset(pinned + 256, 0, 64);
	ck_assert_int_eq(aclrtMemcpyBatchAsyncV2(dsts, destMaxs, srcs, sizes, 3, at, idx, 2, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	assert_bytes(pinned + 256, 64, 0x31);

	/* the ACL layer */
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, idx, 2, NULL, s),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, NULL, 3, at, idx, 2, &fail, s),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 0, at, idx, 2, &fail, s),
			 ACL_ERROR_INVALID_PARAM);
	sizes[0] = sizes[1] = sizes[2] = 0;	/* nothing to copy: nothing checked */
	ck_assert_int_eq(aclrtMemcpyBatchAsync(NULL, NULL, NULL, sizes, 3, NULL, NULL, 0, &fail, dead), ACL_SUCCESS);
	ck_assert_uint_eq(fail, SIZE_MAX);
	sizes[0] = 64;
	ck_assert_int_eq(aclrtMemcpyBatchAsync(NULL, destMaxs, srcs, sizes, 3, at, idx, 2, &fail, s),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, NULL, 2, &fail, s),
			 ACL_ERROR_INVALID_PARAM);
	sizes[1] = 65;	/* above destMaxs[1] */
	ck_assert_int_eq(aclrtMemcpyBatchAsyncV2(dsts, destMaxs, srcs, sizes, 3, at, idx, 2, s),
			 ACL_ERROR_INVALID_PARAM);
	sizes[1] = 32;
	at[1].rsv[3] = 1;
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, idx, 2, &fail, s),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(fail, SIZE_MAX);
	at[1].rsv[3] = 0;
	/* the stream, then the runtime's index checks */
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, idx, 0, &fail, dead),
			 ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, idx, 0, &fail, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 1, at, idx, 2, &fail, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	idx[1] = 3;
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, idx, 2, &fail, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	idx[1] = 0;
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, idx, 2, &fail, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, SIZE_MAX);
	idx[1] = 2;
	/* copy by copy: copy 1's attribute is wrong; copy 0 stays queued */
	memset(pinned, 0x41, 64);
	srcs[1] = d + 1024;	/* device to device, attribute says host source */
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, idx, 2, &fail, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 1);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	dev_read(got, d, 64);
	assert_bytes(got, 64, 0x41);
	srcs[1] = NULL;
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, at, idx, 2, &fail, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 1);

	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(pinned), ACL_SUCCESS);
}
END_TEST

/* aclrtMemcpyBatchV2 is aclrtMemcpyBatch without failIndex. */
START_TEST(memcpy_batch_v2)
{
	unsigned char *d = dev_alloc_set(PAGE, 0), host[64], got[64];
	aclrtMemcpyBatchAttr at;
	void *dsts[1] = { d }, *srcs[1] = { host };
	size_t destMaxs[1] = { 64 }, sizes[1] = { 64 }, idx[1] = { 0 };

	memset(&at, 0, sizeof(at));
	at.dstLoc = (aclrtMemLocation){ .id = 0, .type = ACL_MEM_LOCATION_TYPE_DEVICE };
	at.srcLoc = (aclrtMemLocation){ .id = 0, .type = ACL_MEM_LOCATION_TYPE_HOST };
	memset(host, 0x66, sizeof(host));
	ck_assert_int_eq(aclrtMemcpyBatchV2(dsts, destMaxs, srcs, sizes, 1, &at, idx, 1), ACL_SUCCESS);
	dev_read(got, d, 64);
	assert_bytes(got, 64, 0x66);
	ck_assert_int_eq(aclrtMemcpyBatchV2(NULL, destMaxs, srcs, sizes, 1, &at, idx, 1), ACL_ERROR_INVALID_PARAM);
	/* an attribute that does not match the memory: the runtime's check */
	at.srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	ck_assert_int_eq(aclrtMemcpyBatchV2(dsts, destMaxs, srcs, sizes, 1, &at, idx, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

START_TEST(peer_access_status)
{
	int32_t st = -1;

	ck_assert_int_eq(aclrtDevicePeerAccessStatus(0, 1, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(-1, 1, &st), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(7, 1, &st), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(0, -1, &st), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(0, 64, &st), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(0, 7, &st), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(st, -1);
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(0, 1, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, 0);
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(0, 1, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, 1);
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(0, 0, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, 0);
	st = -1;
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(1, 0, &st), ACL_SUCCESS);	/* device 1 not open */
	ck_assert_int_eq(st, 0);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDevicePeerAccessStatus(0, 1, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, 0);
}
END_TEST

/* ---- the allocator registry -------------------------------------------- */

static void *fake_alloc(aclrtAllocator a, size_t n)
{
	(void)a;
	return (void *)(uintptr_t)n;
}

static void fake_free(aclrtAllocator a, aclrtAllocatorBlock b)
{
	(void)a;
	(void)b;
}

static void *fake_advise(aclrtAllocator a, size_t n, aclrtAllocatorAddr addr)
{
	(void)a;
	(void)n;
	return addr;
}

static void *fake_addr(aclrtAllocatorBlock b)
{
	return b;
}

static void *fake_alloc2(aclrtAllocator a, size_t n)
{
	(void)a;
	return (void *)(uintptr_t)(n + 1);
}

/* GetByStream with every out-pointer; asserts success. */
static void get_all(aclrtStream s, aclrtAllocatorDesc *d, aclrtAllocator *o, aclrtAllocatorAllocFunc *a,
		    aclrtAllocatorFreeFunc *f, aclrtAllocatorAllocAdviseFunc *v, aclrtAllocatorGetAddrFromBlockFunc *g)
{
	ck_assert_int_eq(aclrtAllocatorGetByStream(s, d, o, a, f, v, g), ACL_SUCCESS);
}

START_TEST(allocator_registry)
{
	aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc(), d2 = aclrtAllocatorCreateDesc(), got = NULL;
	aclrtAllocatorAllocFunc a = NULL;
	aclrtAllocatorFreeFunc f = NULL;
	aclrtAllocatorAllocAdviseFunc v = (aclrtAllocatorAllocAdviseFunc)fake_advise;
	aclrtAllocatorGetAddrFromBlockFunc g = NULL;
	aclrtAllocator obj = NULL;
	int object, object2;
	aclrtStream s, s2;
	const char *msg;

	ck_assert_ptr_nonnull(desc);
	ck_assert_ptr_nonnull(d2);
	ck_assert_ptr_ne(desc, d2);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);

	/* Register wants obj, alloc, free and get-address, in that order */
	(void)aclGetRecentErrMsg();
	ck_assert_int_eq(aclrtAllocatorRegister(s, desc), ACL_ERROR_INVALID_PARAM);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(strstr(msg, "aclrtAllocatorRegister"));
	ck_assert_ptr_nonnull(strstr(msg, "obj"));
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(desc, &object), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(s, desc), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "allocFunc"));
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(desc, fake_alloc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(s, desc), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "freeFunc"));
	ck_assert_int_eq(aclrtAllocatorSetFreeFuncToDesc(desc, fake_free), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(s, desc), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "getAddrFromBlockFunc"));
	ck_assert_int_eq(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, fake_addr), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(got);
	ck_assert_int_eq(aclrtAllocatorRegister(s, desc), ACL_SUCCESS);	/* advise is optional */

	get_all(s, &got, &obj, &a, &f, &v, &g);
	ck_assert_ptr_eq(got, desc);
	ck_assert_ptr_eq(obj, &object);
	ck_assert_ptr_eq((void *)a, (void *)fake_alloc);
	ck_assert_ptr_eq((void *)f, (void *)fake_free);
	ck_assert_ptr_null((void *)v);
	ck_assert_ptr_eq((void *)g, (void *)fake_addr);
	ck_assert_ptr_eq(a(obj, 40), (void *)40);
	/* NULL out-pointers are skipped */
	got = NULL;
	ck_assert_int_eq(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_SUCCESS);
	ck_assert_ptr_eq(got, desc);

	/* the registry keeps a copy: later edits and the destroy do not reach it */
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(desc, fake_alloc2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, fake_advise), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
	get_all(s, &got, &obj, &a, &f, &v, &g);
	ck_assert_ptr_eq(got, desc);
	ck_assert_ptr_eq((void *)a, (void *)fake_alloc);
	ck_assert_ptr_null((void *)v);

	/* a second description on another stream; re-registering replaces */
	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(d2, &object2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(d2, fake_alloc2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetFreeFuncToDesc(d2, fake_free), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetAllocAdviseFuncToDesc(d2, fake_advise), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d2, fake_addr), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(s2, d2), ACL_SUCCESS);
	get_all(s2, &got, &obj, &a, &f, &v, &g);
	ck_assert_ptr_eq(got, d2);
	ck_assert_ptr_eq(obj, &object2);
	ck_assert_ptr_eq((void *)v, (void *)fake_advise);
	get_all(s, &got, &obj, &a, &f, &v, &g);
	ck_assert_ptr_eq(got, desc);
	ck_assert_int_eq(aclrtAllocatorRegister(s, d2), ACL_SUCCESS);
	get_all(s, &got, &obj, &a, &f, &v, &g);
	ck_assert_ptr_eq(got, d2);
	ck_assert_ptr_eq(obj, &object2);

	/* the stream is a key only: a destroyed one keeps its registration */
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
	get_all(s2, &got, &obj, &a, &f, &v, &g);
	ck_assert_ptr_eq(got, d2);

	ck_assert_int_eq(aclrtAllocatorUnregister(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorUnregister(s), ACL_SUCCESS);	/* none: no effect */
	ck_assert_int_eq(aclrtAllocatorUnregister(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorGetByStream(s2, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(d2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(allocator_bad)
{
	aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc(), gone = aclrtAllocatorCreateDesc(), got = NULL;
	aclrtStream s = (aclrtStream)(uintptr_t)0x1234;	/* a key only */
	int object;

	ck_assert_int_eq(aclrtAllocatorDestroyDesc(gone), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(gone), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(&object), ACL_ERROR_INVALID_PARAM);

	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(NULL, &object), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(desc, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(gone, &object), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(NULL, fake_alloc), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(desc, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(gone, fake_alloc), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetFreeFuncToDesc(NULL, fake_free), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetFreeFuncToDesc(desc, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetAllocAdviseFuncToDesc(NULL, fake_advise), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(NULL, fake_addr), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, NULL), ACL_ERROR_INVALID_PARAM);

	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(desc, &object), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(desc, fake_alloc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetFreeFuncToDesc(desc, fake_free), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, fake_addr), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(NULL, desc), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorRegister(s, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorRegister(s, gone), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorRegister(s, desc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorGetByStream(s, NULL, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorGetByStream(NULL, &got, NULL, NULL, NULL, NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorUnregister(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_SUCCESS);
	ck_assert_ptr_eq(got, desc);
	ck_assert_int_eq(aclrtAllocatorUnregister(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
}
END_TEST

/* A fork child inherits the registry (and its lock is usable there). */
START_TEST(allocator_fork)
{
	aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc(), got = NULL;
	aclrtStream s = (aclrtStream)(uintptr_t)0x5678;
	int object, status;
	pid_t pid;

	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(desc, &object), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(desc, fake_alloc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetFreeFuncToDesc(desc, fake_free), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, fake_addr), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(s, desc), ACL_SUCCESS);
	pid = fork();
	ck_assert_int_ne(pid, -1);
	if (pid == 0) {
		int ok = aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL) == ACL_SUCCESS &&
			 got == desc && aclrtAllocatorUnregister(s) == ACL_SUCCESS &&
			 aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL) == ACL_ERROR_INVALID_PARAM;

		_exit(ok ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
	/* the child's unregister did not touch the parent's registry */
	ck_assert_int_eq(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorUnregister(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
}
END_TEST

/* ---- the driver's field checks ----------------------------------------- */

START_TEST(submit_fields)
{
	struct vm_raw r;
	struct npu_sim_stream_create sc = { 0 };
	struct npu_sim_stream_submit sb;
	struct npu_sim_stream_sync sy = { 0 };
	struct npu_sim_memcpy mc;
	uint64_t va;
	uint32_t buf[4];

	vm_raw_open(&r, 0);
	ck_assert_int_eq(vm_raw_alloc(&r, PAGE, &va), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc), 0);

#define SET32() (sb = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_SET, \
		.flags = NPU_SIM_SET_32, .dst = va, .dpitch = 16, .width = 16, .height = 1, \
		.value = 0xdeadbeefU })
#define REDUCE() (sb = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_REDUCE, \
		.dst = va, .dpitch = 16, .src = va + 64, .spitch = 16, .width = 16, .height = 1, \
		.value = NPU_SIM_REDUCE_SUM, .flags = NPU_SIM_REDUCE_INT32 })	/* a type of the A2 engine */
#define CMO() (sb = (struct npu_sim_stream_submit){ .stream = sc.id, .op = NPU_SIM_OP_CMO, \
		.dst = va, .dpitch = 16, .width = 16, .height = 1, .value = NPU_SIM_CMO_INVALIDATE, \
		.operand = 5 })
	SET32();
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), 0);
	SET32(); sb.dst = va + 64; sb.value = 2;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), 0);
	REDUCE();
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), 0);
	CMO();
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), 0);
	ck_assert_uint_eq(sb.seq, 4);
	sy.id = sc.id;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &sy), 0);
	ck_assert_int_eq(sy.error, 0);
	/* dst: 0xdeadbeef words; plus src's 2 each (a SUM); read by the driver */
	mc = (struct npu_sim_memcpy){ .dst = (uintptr_t)buf, .src = va, .count = 16,
				      .dir = NPU_SIM_COPY_D2H, .src_fd = -1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &mc), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(buf[i], 0xdeadbef1U);

	SET32(); sb.flags = 2;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	SET32(); sb.dst = va + 2;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	SET32(); sb.width = 14; sb.dpitch = 14;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	SET32(); sb.operand = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	SET32(); sb.dst = va + PAGE - 8;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), ENXIO);

	REDUCE(); sb.value = 9;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	REDUCE(); sb.value = 13;	/* EQUAL: a real kind, not done here */
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EOPNOTSUPP);
	REDUCE(); sb.value = 14;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	REDUCE(); sb.flags = 0;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	REDUCE(); sb.flags = 10;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	REDUCE(); sb.src = va + 66;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	REDUCE(); sb.height = 2;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	REDUCE(); sb.spitch = 32;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	REDUCE(); sb.dir = NPU_SIM_COPY_D2D;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	REDUCE(); sb.src = (uintptr_t)buf;	/* not a device address */
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	REDUCE(); sb.width = sb.dpitch = sb.spitch = 2 * PAGE;	/* past the allocation */
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), ENXIO);

	CMO(); sb.value = NPU_SIM_CMO_FLUSH;	/* a barrier only with an invalidate */
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	CMO(); sb.value = 4;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	CMO(); sb.flags = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	CMO(); sb.operand = 1ULL << 32;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	CMO(); sb.width = 0;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	CMO(); sb.src = va;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	CMO(); sb.event = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	CMO(); sb.dst = va + PAGE;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), ENXIO);
	sb.op = 15;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
#undef SET32
#undef REDUCE
#undef CMO
	vm_raw_free(&r, va);
	vm_raw_close(&r);
}
END_TEST

static Suite *memory_ops_suite(void)
{
	Suite *s = suite_create("memory_ops");
	TCase *t = tcase_create("ops");
	TCase *a = tcase_create("allocator");

	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(t, VM_TIMEOUT);
	tcase_add_test(t, memset_d32_async_bytes);
	tcase_add_test(t, memset_d32_async_pinned_host);
	tcase_add_test(t, memset_d32_async_bad);
	tcase_add_test(t, ops_in_stream_order);
	tcase_add_loop_test(t, reduce_values, 0, (int)(sizeof(reduce_cases) / sizeof(reduce_cases[0])));
	tcase_add_test(t, reduce_peer);
	tcase_add_test(t, reduce_bad);
	tcase_add_test(t, cmo_calls);
	tcase_add_test(t, cmo_bad);
	tcase_add_test(t, cmo_desc);
	tcase_add_test(t, memcpy_with_condition);
	tcase_add_test(t, memcpy_batch_async);
	tcase_add_test(t, memcpy_batch_v2);
	tcase_add_test(t, peer_access_status);
	tcase_add_test(t, submit_fields);
	suite_add_tcase(s, t);

	tcase_add_checked_fixture(a, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(a, VM_TIMEOUT);
	tcase_add_test(a, allocator_registry);
	tcase_add_test(a, allocator_bad);
	tcase_add_test(a, allocator_fork);
	suite_add_tcase(s, a);
	return s;
}

int main(void)
{
	return vm_run_suite(memory_ops_suite());
}
