// SPDX-License-Identifier: GPL-2.0
/*
 * Data paths against the real module: H2D / D2H / D2D / DEFAULT round trips
 * on normal and huge backing, aclrtMemcpy2d, aclrtMemset, argument rules
 * (count 0, NULL, count > destMax, kinds), kind checked against where the
 * pointers really are, copies touching holes (fail before writing), and
 * the slots small allocations take in shared pages (bounds, reuse).
 */
#include "vmtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <acl/acl.h>

#define KIND(x) ((aclrtMemcpyKind)(x))

/*
 * Code for a copy/set whose device range is not inside live memory (the
 * driver's -ENXIO): an invalid-value error of the runtime layer.
 */
#define RANGE_ERR ACL_ERROR_RT_PARAM_INVALID

static void *dev_alloc(size_t size, aclrtMemMallocPolicy pol)
{
	void *p = NULL;

	ck_assert_int_eq(aclrtMalloc(&p, size, pol), ACL_SUCCESS);
	ck_assert_ptr_nonnull(p);
	return p;
}

static void h2d(void *dst, const void *src, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void d2h(void *dst, const void *src, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

/* Asserts that @n device bytes at @dev equal @expect. */
static void dev_expect(const void *dev, const void *expect, size_t n)
{
	unsigned char *back = malloc(n);

	ck_assert_ptr_nonnull(back);
	memset(back, 0xC3, n);
	d2h(back, dev, n);
	ck_assert_mem_eq(back, expect, n);
	free(back);
}

/* Asserts that @n device bytes at @dev all equal @byte. */
static void dev_expect_byte(const void *dev, unsigned char byte, size_t n)
{
	unsigned char *want = malloc(n);

	ck_assert_ptr_nonnull(want);
	memset(want, byte, n);
	dev_expect(dev, want, n);
	free(want);
}

START_TEST(test_roundtrip)
{
	static const size_t sizes[] = { 1, 31, 64, 4097, 3 * MiB + 5 };
	static const aclrtMemMallocPolicy pols[] = {
		ACL_MEM_MALLOC_NORMAL_ONLY, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_HUGE_FIRST,
	};
	size_t i, j;

	vm_set_hp2m_pool(8);
	for (i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			size_t n = sizes[j];
			unsigned char *src = malloc(n), *back = malloc(n);
			void *d = dev_alloc(n, pols[i]);

			ck_assert(src && back);
			vm_fill(src, n, (uint32_t)(i * 100 + j));
			h2d(d, src, n);
			memset(back, 0, n);
			d2h(back, d, n);
			ck_assert_mem_eq(back, src, n);

			/* ACL_MEMCPY_DEFAULT infers the direction from the addresses */
			vm_fill(src, n, (uint32_t)(i * 100 + j + 7));
			ck_assert_int_eq(aclrtMemcpy(d, n, src, n, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
			memset(back, 0, n);
			ck_assert_int_eq(aclrtMemcpy(back, n, d, n, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
			ck_assert_mem_eq(back, src, n);

			/* HOST_TO_BUF_TO_DEVICE is a host-to-device copy */
			vm_fill(src, n, (uint32_t)(i * 100 + j + 13));
			ck_assert_int_eq(aclrtMemcpy(d, n, src, n, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE),
					 ACL_SUCCESS);
			dev_expect(d, src, n);

			ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
			free(src);
			free(back);
		}
	}
	ck_assert_int_eq(vm_hp2m_free(), 8);
}
END_TEST

/* Bytes at unaligned offsets inside a larger buffer; neighbours untouched. */
START_TEST(test_partial)
{
	const size_t n = 3 * MiB;
	unsigned char *img = malloc(n), *chunk = malloc(70000);
	char *d;

	ck_assert(img && chunk);
	vm_set_hp2m_pool(4);
	d = dev_alloc(n, ACL_MEM_MALLOC_HUGE_FIRST);
	memset(img, 0x5A, n);
	ck_assert_int_eq(aclrtMemset(d, n, 0x5A, n), ACL_SUCCESS);
	/* straddles the 2 MiB page boundary */
	vm_fill(chunk, 70000, 3);
	h2d(d + 2 * MiB - 33333, chunk, 70000);
	memcpy(img + 2 * MiB - 33333, chunk, 70000);
	vm_fill(chunk, 3, 4);
	h2d(d + 1, chunk, 3);
	memcpy(img + 1, chunk, 3);
	dev_expect(d, img, n);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	free(img);
	free(chunk);
}
END_TEST

START_TEST(test_d2d)
{
	const size_t n = 3 * MiB;
	unsigned char *src = malloc(n), *img = malloc(n);
	char *a, *b, *c;

	ck_assert(src && img);
	vm_set_hp2m_pool(8);
	a = dev_alloc(n, ACL_MEM_MALLOC_HUGE_ONLY);
	b = dev_alloc(n, ACL_MEM_MALLOC_NORMAL_ONLY);
	c = dev_alloc(n, ACL_MEM_MALLOC_HUGE_FIRST_P2P);
	vm_fill(src, n, 42);
	h2d(a, src, n);
	ck_assert_int_eq(aclrtMemset(b, n, 0x11, n), ACL_SUCCESS);

	/* huge -> normal, at odd offsets */
	ck_assert_int_eq(aclrtMemcpy(b + 100, n - 100, a + 7, MiB + 3, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_SUCCESS);
	memset(img, 0x11, n);
	memcpy(img + 100, src + 7, MiB + 3);
	dev_expect(b, img, n);

	/* normal -> p2p, whole, with DEFAULT */
	ck_assert_int_eq(aclrtMemcpy(c, n, b, n, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
	dev_expect(c, img, n);

	/* within one allocation, non-overlapping */
	ck_assert_int_eq(aclrtMemcpy(a + 2 * MiB, MiB, a, MiB, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_SUCCESS);
	memcpy(src + 2 * MiB, src, MiB);
	dev_expect(a, src, n);

	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(c), ACL_SUCCESS);
	free(src);
	free(img);
}
END_TEST

START_TEST(test_memset)
{
	const size_t n = 3 * MiB;
	unsigned char *img = malloc(n);
	char *d;

	ck_assert_ptr_nonnull(img);
	vm_set_hp2m_pool(4);
	d = dev_alloc(n, ACL_MEM_MALLOC_HUGE_FIRST);
	/* only the low byte of value counts */
	ck_assert_int_eq(aclrtMemset(d, n, 0x1AB, n), ACL_SUCCESS);
	dev_expect_byte(d, 0xAB, n);
	ck_assert_int_eq(aclrtMemset(d + 5, 1000, 0x100, 999), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(d + 2 * MiB - 1, 2, -1, 2), ACL_SUCCESS);
	memset(img, 0xAB, n);
	memset(img + 5, 0x00, 999);
	memset(img + 2 * MiB - 1, 0xFF, 2);
	dev_expect(d, img, n);

	/* count > maxCount: an error and nothing written */
	ck_assert_int_eq(aclrtMemset(d, 16, 0x77, 17), ACL_ERROR_RT_PARAM_INVALID);
	dev_expect(d, img, n);
	/* count 0: success at once, even with NULL */
	ck_assert_int_eq(aclrtMemset(NULL, 0, 0x77, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(d, 0, 0x77, 0), ACL_SUCCESS);
	/* NULL with count > 0 */
	ck_assert_int_eq(aclrtMemset(NULL, 16, 0x77, 16), ACL_ERROR_INVALID_PARAM);
	dev_expect(d, img, n);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	free(img);
}
END_TEST

START_TEST(test_memcpy2d)
{
	enum { W = 60, H = 10, SP = 100, DP = 64 };
	unsigned char host[SP * H], back[DP * H], img[DP * H], out[W * H], want[W * H];
	char *d;
	int r;

	d = dev_alloc(DP * H, ACL_MEM_MALLOC_NORMAL_ONLY);
	ck_assert_int_eq(aclrtMemset(d, DP * H, 0xEE, DP * H), ACL_SUCCESS);
	vm_fill(host, sizeof(host), 77);
	ck_assert_int_eq(aclrtMemcpy2d(d, DP, host, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_SUCCESS);
	memset(img, 0xEE, sizeof(img));
	for (r = 0; r < H; r++)
		memcpy(img + r * DP, host + r * SP, W);
	memset(back, 0, sizeof(back));
	d2h(back, d, sizeof(back));
	ck_assert_mem_eq(back, img, sizeof(img));

	/* D2H into a packed host buffer */
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(aclrtMemcpy2d(out, W, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	for (r = 0; r < H; r++)
		memcpy(want + r * W, host + r * SP, W);
	ck_assert_mem_eq(out, want, sizeof(want));

	/* D2D within the allocation: rows 0..4 of column 0..29 -> column 30..
	 * (aclrtMemcpy2d refuses D2D as the runtime does: the async call copies) */
	ck_assert_int_eq(aclrtMemcpy2d(d + 30, DP, d, DP, 30, 5, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemcpy2dAsync(d + 30, DP, d, DP, 30, 5, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	for (r = 0; r < 5; r++)
		memmove(img + r * DP + 30, img + r * DP, 30);
	dev_expect(d, img, sizeof(img));

	/* width or height 0: success at once, even with NULL */
	ck_assert_int_eq(aclrtMemcpy2d(NULL, 0, NULL, 0, 0, 5, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy2d(NULL, 64, NULL, 64, 5, 0, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_SUCCESS);
	/* kinds outside 1..4 */
	ck_assert_int_eq(aclrtMemcpy2d(d, DP, host, SP, W, H, KIND(7)), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(d, DP, host, SP, W, H, KIND(99)), ACL_ERROR_INVALID_PARAM);
	/* NULL with a non-empty copy */
	ck_assert_int_eq(aclrtMemcpy2d(NULL, DP, host, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(d, DP, NULL, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_INVALID_PARAM);
	dev_expect(d, img, sizeof(img));
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

/* count 0 succeeds at once even with NULL pointers. */
START_TEST(test_count_zero)
{
	int k;
	char host[16];
	void *d = dev_alloc(16, ACL_MEM_MALLOC_NORMAL_ONLY);

	for (k = 0; k <= 5; k++) {
		ck_assert_int_eq(aclrtMemcpy(NULL, 0, NULL, 0, KIND(k)), ACL_SUCCESS);
		ck_assert_int_eq(aclrtMemcpy(NULL, 16, NULL, 0, KIND(k)), ACL_SUCCESS);
	}
	ck_assert_int_eq(aclrtMemcpy(d, 16, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(host, 0, d, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

START_TEST(test_null_with_count)
{
	unsigned char host[64], dv[64];
	void *d = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);

	ck_assert_int_eq(aclrtMemset(d, 64, 0x31, 64), ACL_SUCCESS);
	memset(dv, 0x31, 64);
	memset(host, 0x22, 64);
	ck_assert_int_eq(aclrtMemcpy(NULL, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(d, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(NULL, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(host, 64, NULL, 64, ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(d, 64, NULL, 64, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_INVALID_PARAM);
	dev_expect(d, dv, 64);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

/* count > destMax is 107000 and nothing is written. */
START_TEST(test_count_gt_destmax)
{
	unsigned char host[64], want[64], dv[64];
	void *d = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	void *e = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);

	ck_assert_int_eq(aclrtMemset(d, 64, 0x31, 64), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(e, 64, 0x32, 64), ACL_SUCCESS);
	memset(host, 0x22, 64);
	ck_assert_int_eq(aclrtMemcpy(d, 32, host, 33, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy(host, 8, d, 64, ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy(e, 1, d, 2, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy(d, 0, host, 1, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
	memset(want, 0x22, 64);
	ck_assert_mem_eq(host, want, 64);
	memset(dv, 0x31, 64);
	dev_expect(d, dv, 64);
	memset(dv, 0x32, 64);
	dev_expect(e, dv, 64);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(e), ACL_SUCCESS);
}
END_TEST

/* Kinds outside 0..5 are rejected. */
START_TEST(test_bad_kind)
{
	static const int kinds[] = { 6, 7, 8, -1, 0x7fffffff };
	unsigned char host[64], dv[64];
	void *d = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	size_t i;

	ck_assert_int_eq(aclrtMemset(d, 64, 0x31, 64), ACL_SUCCESS);
	memset(host, 0x22, 64);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		ck_assert_int_eq(aclrtMemcpy(d, 64, host, 64, KIND(kinds[i])), ACL_ERROR_INVALID_PARAM);
		ck_assert_int_eq(aclrtMemcpy(host, 64, d, 64, KIND(kinds[i])), ACL_ERROR_INVALID_PARAM);
	}
	memset(dv, 0x31, 64);
	dev_expect(d, dv, 64);
	memset(dv, 0x22, 64);
	ck_assert_mem_eq(host, dv, 64);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

/* The kind is checked against where the pointers really are: 107000. */
START_TEST(test_kind_mismatch)
{
	unsigned char h1[64], h2[64], want[64];
	void *d1 = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	void *d2 = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	const struct { void *dst; const void *src; int kind; } c[] = {
		{ h1, h2, ACL_MEMCPY_HOST_TO_DEVICE },
		{ d1, d2, ACL_MEMCPY_HOST_TO_DEVICE },
		{ h1, d2, ACL_MEMCPY_HOST_TO_DEVICE },
		{ d1, h2, ACL_MEMCPY_DEVICE_TO_HOST },
		{ d1, d2, ACL_MEMCPY_DEVICE_TO_HOST },
		{ h1, h2, ACL_MEMCPY_DEVICE_TO_HOST },
		{ h1, d2, ACL_MEMCPY_DEVICE_TO_DEVICE },
		{ d1, h2, ACL_MEMCPY_DEVICE_TO_DEVICE },
		{ h1, h2, ACL_MEMCPY_DEVICE_TO_DEVICE },
		{ d1, h2, ACL_MEMCPY_HOST_TO_HOST },
		{ h1, d2, ACL_MEMCPY_HOST_TO_HOST },
		{ d1, d2, ACL_MEMCPY_HOST_TO_HOST },
		{ h1, d2, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE },
	};
	size_t i;

	ck_assert_int_eq(aclrtMemset(d1, 64, 0x41, 64), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(d2, 64, 0x42, 64), ACL_SUCCESS);
	memset(h1, 0x51, 64);
	memset(h2, 0x52, 64);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_msg(aclrtMemcpy(c[i].dst, 64, c[i].src, 64, KIND(c[i].kind)) ==
			      ACL_ERROR_RT_PARAM_INVALID, "case %zu (kind %d) not refused with 107000",
			      i, c[i].kind);
	memset(want, 0x41, 64);
	dev_expect(d1, want, 64);
	memset(want, 0x42, 64);
	dev_expect(d2, want, 64);
	memset(want, 0x51, 64);
	ck_assert_mem_eq(h1, want, 64);
	memset(want, 0x52, 64);
	ck_assert_mem_eq(h2, want, 64);

	/* the matching kinds work; HOST_TO_HOST copies host memory */
	ck_assert_int_eq(aclrtMemcpy(h1, 64, h2, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(h1, want, 64);
	ck_assert_int_eq(aclrtFree(d1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d2), ACL_SUCCESS);
}
END_TEST

/* API copies and sets write read-only (to user space) memory. */
START_TEST(test_readonly_memory)
{
	unsigned char src[8192];
	void *p = NULL;
	struct vm_alloc al;

	ck_assert_int_eq(aclrtMalloc(&p, 8192,
				     (aclrtMemMallocPolicy)(ACL_MEM_MALLOC_NORMAL_ONLY |
							    ACL_MEM_ACCESS_USER_SPACE_READONLY)),
			 ACL_SUCCESS);
	ck_assert(vm_dbg_alloc_find(0, (uintptr_t)p, &al));
	ck_assert_str_eq(al.flags, "ro");
	vm_fill(src, sizeof(src), 5);
	h2d(p, src, sizeof(src));
	dev_expect(p, src, sizeof(src));
	ck_assert_int_eq(aclrtMemset(p, 8192, 0x66, 100), ACL_SUCCESS);
	memset(src, 0x66, 100);
	dev_expect(p, src, sizeof(src));
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

/*
 * Allocates A (its debugfs record in *a) followed by a hole: A's neighbour B
 * is allocated and freed again, and no live allocation may cover the first
 * 64 KiB after A's charged end.
 */
static char *alloc_with_hole_after(struct vm_alloc *a, aclrtMemMallocPolicy pol, size_t size)
{
	struct vm_alloc *all;
	void *p = NULL, *q = NULL;
	long n, i;
	uint64_t end;

	ck_assert_int_eq(aclrtMalloc(&p, size, pol), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&q, size, pol), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(q), ACL_SUCCESS);
	ck_assert(vm_dbg_alloc_find(0, (uintptr_t)p, a));
	end = a->va + a->charged;
	n = vm_dbg_allocs(0, &all);
	for (i = 0; i < n; i++)
		ck_assert_msg(all[i].va + all[i].charged <= end || all[i].va >= end + 64 * KiB,
			      "allocation at 0x%llx is not followed by a hole", a->va);
	free(all);
	return p;
}

/* A copy touching a hole fails before writing any byte. */
START_TEST(test_hole_memcpy)
{
	struct vm_alloc a;
	unsigned char src[256], img[8192], zero[256];
	char *p, *other, *end;
	long long range0;

	other = dev_alloc(256, ACL_MEM_MALLOC_NORMAL_ONLY);
	p = alloc_with_hole_after(&a, ACL_MEM_MALLOC_NORMAL_ONLY, 4096);
	ck_assert_uint_eq(a.charged, 8192);
	end = p + a.charged;
	vm_fill(img, sizeof(img), 11);
	h2d(p, img, sizeof(img));
	ck_assert_int_eq(aclrtMemset(other, 256, 0x77, 256), ACL_SUCCESS);
	memset(src, 0xF0, sizeof(src));
	memset(zero, 0, sizeof(zero));
	range0 = vm_dbg_stat(0, "fail_range");

	/* H2D running from the end of A into the hole */
	ck_assert_int_eq(aclrtMemcpy(end - 16, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE), RANGE_ERR);
	/* H2D entirely inside the hole */
	ck_assert_int_eq(aclrtMemcpy(end + 4096, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE), RANGE_ERR);
	/* D2D whose destination spans into the hole */
	ck_assert_int_eq(aclrtMemcpy(end - 128, 256, other, 256, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 RANGE_ERR);
	/* D2D whose source spans into the hole: the destination stays */
	ck_assert_int_eq(aclrtMemcpy(other, 256, end - 128, 256, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 RANGE_ERR);
	/* D2H from the hole: the host buffer stays */
	ck_assert_int_eq(aclrtMemcpy(src, 256, end - 8, 256, ACL_MEMCPY_DEVICE_TO_HOST), RANGE_ERR);
	{
		unsigned char w[256];

		memset(w, 0xF0, sizeof(w));
		ck_assert_mem_eq(src, w, sizeof(w));
	}
	/* memset over the end */
	ck_assert_int_eq(aclrtMemset(end - 1, 2, 0, 2), RANGE_ERR);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_range"), range0 + 6);

	dev_expect(p, img, sizeof(img));
	dev_expect_byte(other, 0x77, 256);

	/* memcpy2d whose last row reaches the hole: no row is written */
	ck_assert_int_eq(aclrtMemcpy2d(end - 4 * 1024, 1024, zero, 16, 16, 5,
				       ACL_MEMCPY_HOST_TO_DEVICE), RANGE_ERR);
	dev_expect(p, img, sizeof(img));

	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(other), ACL_SUCCESS);
}
END_TEST

/* A freed allocation is a hole: copies to it fail, data elsewhere intact. */
START_TEST(test_hole_after_free)
{
	unsigned char src[4096];
	void *p = dev_alloc(4096, ACL_MEM_MALLOC_NORMAL_ONLY);
	void *q = dev_alloc(4096, ACL_MEM_MALLOC_NORMAL_ONLY);

	vm_fill(src, sizeof(src), 21);
	h2d(q, src, sizeof(src));
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(p, 4096, src, 4096, ACL_MEMCPY_HOST_TO_DEVICE), RANGE_ERR);
	ck_assert_int_eq(aclrtMemcpy(src, 4096, p, 4096, ACL_MEMCPY_DEVICE_TO_HOST), RANGE_ERR);
	ck_assert_int_eq(aclrtMemset(p, 4096, 1, 4096), RANGE_ERR);
	dev_expect(q, src, sizeof(src));
	ck_assert_int_eq(aclrtFree(q), ACL_SUCCESS);
}
END_TEST

/*
 * Copies of 4 KiB and more whose two sides may share an entry of TCG's TLB
 * (kernel/npu_copy_remap.c) go through a second kernel mapping of the
 * device pages, in windows of up to 32 pages.  The host side is placed at
 * each of 64 consecutive page offsets, so that some placements take that
 * path whatever the device pages' addresses: a host page not present yet
 * is faulted in, a read-only one still fails the copy, and overlapping D2D
 * ranges (one huge page, so the two sides are close) keep memmove's result
 * in both directions.
 */
#define BULK_PLACES 64

/* Fresh pages (never touched) at page @j of the reserve @base, in it. */
static unsigned char *bulk_fresh(unsigned char *base, int j, size_t len, int prot)
{
	void *p = mmap(base + (size_t)j * 4096, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		       -1, 0);

	ck_assert(p != MAP_FAILED);
	return p;
}

/*
 * Device to untouched host pages and back, @n bytes of device memory of
 * @policy, the host side at each of the 64 page offsets; then a host
 * destination whose last page is read-only.
 */
static void bulk_places(aclrtMemMallocPolicy policy, size_t n)
{
	unsigned char *img = malloc(n), *back = malloc(n), *zero = calloc(1, n), *base, *h;
	char *d = dev_alloc(n, policy);
	size_t i;
	int j;

	ck_assert(img && back && zero);
	base = mmap(NULL, BULK_PLACES * 4096 + 2 * n, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ck_assert(base != MAP_FAILED);
	vm_fill(img, n, 41);
	h2d(d, img, n);
	for (j = 0; j < BULK_PLACES; j++) {
		/* device to untouched host pages, and back from untouched ones */
		h = bulk_fresh(base, j, 2 * n, PROT_READ | PROT_WRITE);
		d2h(h, d, n);
		ck_assert_msg(memcmp(h, img, n) == 0, "place %d: D2H of %zu bytes", j, n);
		h2d(d + 512, h + n, n - 512);
		memset(back, 0xC3, n);
		d2h(back, d, n);
		ck_assert_msg(memcmp(back, img, 512) == 0, "place %d: bytes before the copy", j);
		for (i = 512; i < n && memcmp(back + 512, zero, n - 512) != 0; i++)
			ck_assert_msg(back[i] == 0, "place %d: byte %zu is %#x", j, i, back[i]);
		h2d(d, img, n);

		/* the last host page is read-only: the copy fails, it is unchanged */
		h = bulk_fresh(base, j, n, PROT_READ | PROT_WRITE);
		memset(h, 0x44, n);
		ck_assert_int_eq(mprotect(h + n - 4096, 4096, PROT_READ), 0);
		ck_assert_int_eq(aclrtMemcpy(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST), RANGE_ERR);
		memset(back, 0x44, 4096);
		ck_assert_mem_eq(h + n - 4096, back, 4096);
	}
	ck_assert_int_eq(munmap(base, BULK_PLACES * 4096 + 2 * n), 0);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	free(img);
	free(back);
	free(zero);
}

START_TEST(test_bulk_copies)
{
	const size_t n = 16 * 1024;
	static const long shifts[] = { -300, -100, -1, 1, 100, 300 };
	unsigned char *img = malloc(n + 1024), *back = malloc(n);
	char *d;
	size_t i;

	ck_assert(img && back);
	vm_set_hp2m_pool(1);
	/* 4 pages in one window; 72 pages in three; 4 KiB pages one at a time */
	bulk_places(ACL_MEM_MALLOC_HUGE_ONLY, n);
	bulk_places(ACL_MEM_MALLOC_HUGE_ONLY, 72 * 4096);
	bulk_places(ACL_MEM_MALLOC_NORMAL_ONLY, n);
	ck_assert_int_eq(vm_hp2m_free(), 1);

	/* overlapping D2D, source 512 bytes in, destination moved by shifts[i] */
	d = dev_alloc(n + 1024, ACL_MEM_MALLOC_HUGE_ONLY);
	for (i = 0; i < sizeof(shifts) / sizeof(shifts[0]); i++) {
		vm_fill(img, n + 1024, (uint32_t)(50 + i));
		h2d(d, img, n + 1024);
		ck_assert_int_eq(aclrtMemcpy(d + 512 + shifts[i], n, d + 512, n,
					     ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
		memmove(img + 512 + shifts[i], img + 512, n);
		d2h(back, d, n);
		ck_assert_msg(memcmp(back, img, n) == 0, "shift %ld", shifts[i]);
	}
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), 1);
	free(img);
	free(back);
}
END_TEST

/*
 * A host buffer that is only partly accessible: the copy fails and writes
 * no byte, neither to the device nor to the host.
 */
START_TEST(test_bad_host_buffer)
{
	unsigned char img[4096];
	unsigned char *h;
	void *d = dev_alloc(4096, ACL_MEM_MALLOC_NORMAL_ONLY);

	h = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(h != MAP_FAILED);
	memset(h, 0x44, 3 * 4096);
	ck_assert_int_eq(mprotect(h + 4096, 4096, PROT_NONE), 0);
	ck_assert_int_eq(mprotect(h + 2 * 4096, 4096, PROT_READ), 0);
	vm_fill(img, sizeof(img), 31);
	h2d(d, img, sizeof(img));

	/* source runs from a readable page into an unreadable one */
	ck_assert_int_eq(aclrtMemcpy(d, 4096, h + 4096 - 256, 512, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_RT_PARAM_INVALID);
	dev_expect(d, img, sizeof(img));
	/* source wholly unreadable */
	ck_assert_int_eq(aclrtMemcpy(d, 4096, h + 4096, 64, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_RT_PARAM_INVALID);
	dev_expect(d, img, sizeof(img));
	/* destination read-only to the process */
	ck_assert_int_eq(aclrtMemcpy(h + 2 * 4096, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_ERROR_RT_PARAM_INVALID);
	{
		unsigned char want[64];

		memset(want, 0x44, sizeof(want));
		ck_assert_mem_eq(h + 2 * 4096, want, 64);
		ck_assert_mem_eq(h + 4096 - 64, want, 64);
	}
	ck_assert_int_eq(munmap(h, 3 * 4096), 0);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

/* Pinned host memory from aclrtMallocHost is a host operand of copies. */
START_TEST(test_malloc_host)
{
	const size_t n = 3 * MiB + 100;
	void *h = (void *)0x5a5a5a5a5a5a5a40ULL, *h2 = NULL;
	unsigned char *img = malloc(n);
	void *d;

	ck_assert_ptr_nonnull(img);
	ck_assert_int_eq(aclrtMallocHost(&h, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_eq(h, (void *)0x5a5a5a5a5a5a5a40ULL);
	ck_assert_int_eq(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);

	ck_assert_int_eq(aclrtMallocHost(&h, n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost(&h2, n), ACL_SUCCESS);
	ck_assert_uint_eq((uintptr_t)h & 63, 0);
	ck_assert_uint_eq((uintptr_t)h2 & 63, 0);
	/* host memory: no device charge */
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	vm_fill(h, n, 55);		/* host accessible */
	memcpy(img, h, n);
	d = dev_alloc(n, ACL_MEM_MALLOC_HUGE_FIRST);
	h2d(d, h, n);
	memset(h2, 0, n);
	d2h(h2, d, n);
	ck_assert_mem_eq(h2, img, n);
	ck_assert_int_eq(aclrtMemcpy(h2, n, h, n, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(h2, n, d, n, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h2), ACL_SUCCESS);
	free(img);
}
END_TEST

/*
 * Allocations of at most 2 KiB of footprint are slots of shared 4 KiB
 * pages: a 64 B aclrtMalloc (footprint 96) takes a 128-byte slot, 32 to a
 * page, a 1000 B one (footprint 1056) an 1088-byte slot, 3 to a page.
 */
START_TEST(test_slots_share_a_page)
{
	long long used0 = vm_dbg_info(0, "used_bytes");
	char *p[33], *q, *big, *hf;
	size_t f0, t0, f, t;
	int i;

	vm_hbm_info(&f0, &t0);
	for (i = 0; i < 32; i++)
		p[i] = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	ck_assert_uint_eq((uintptr_t)p[0] % 4096, 0);
	for (i = 1; i < 32; i++)
		ck_assert_ptr_eq(p[i], p[0] + i * 128);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + 4096);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0 - 4096);

	/* a full page: the next slot starts a page, after a guard page */
	p[32] = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	ck_assert_uint_eq((uintptr_t)p[32] % 4096, 0);
	ck_assert(p[32] >= p[0] + 8192 || p[32] + 8192 <= p[0]);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + 8192);

	/* a freed slot of a page is the next one handed out */
	ck_assert_int_eq(aclrtFree(p[5]), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + 8192);
	p[5] = NULL;
	q = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	ck_assert_ptr_eq(q, p[0] + 5 * 128);
	p[5] = q;

	/* another size class, another page; HUGE_FIRST picks the same slots */
	big = dev_alloc(1000, ACL_MEM_MALLOC_NORMAL_ONLY);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + 3 * 4096);
	hf = dev_alloc(64, ACL_MEM_MALLOC_HUGE_FIRST);
	ck_assert_ptr_eq(hf, p[32] + 128);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + 3 * 4096);
	ck_assert_int_eq(vm_dbg_info(0, "used_normal_bytes"), used0 + 3 * 4096);

	for (i = 0; i < 33; i++)
		ck_assert_int_eq(aclrtFree(p[i]), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + 2 * 4096);
	ck_assert_int_eq(aclrtFree(big), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(hf), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0);

	/* an empty page is kept idle (uncharged) for the next allocation */
	q = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	ck_assert_ptr_eq(q, p[0]);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + 4096);
	ck_assert_int_eq(aclrtFree(q), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
}
END_TEST

/* A copy cannot run from one slot into its neighbour: each is an allocation. */
START_TEST(test_slot_bounds)
{
	unsigned char src[256], host[256], keep[256], b_img[64];
	char *a = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	char *b = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	long long range0 = vm_dbg_stat(0, "fail_range");

	ck_assert_ptr_eq(b, a + 128);
	memset(b_img, 0x77, sizeof(b_img));
	ck_assert_int_eq(aclrtMemset(b, 64, 0x77, 64), ACL_SUCCESS);
	memset(src, 0xF0, sizeof(src));

	ck_assert_int_eq(aclrtMemcpy(a, 200, src, 200, ACL_MEMCPY_HOST_TO_DEVICE), RANGE_ERR);
	ck_assert_int_eq(aclrtMemcpy(a + 100, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE), RANGE_ERR);
	ck_assert_int_eq(aclrtMemset(a, 256, 0x11, 256), RANGE_ERR);
	ck_assert_int_eq(aclrtMemcpy(a, 192, b - 64, 192, ACL_MEMCPY_DEVICE_TO_DEVICE), RANGE_ERR);
	memcpy(keep, src, sizeof(keep));
	memcpy(host, src, sizeof(host));
	ck_assert_int_eq(aclrtMemcpy(host, 256, a, 256, ACL_MEMCPY_DEVICE_TO_HOST), RANGE_ERR);
	ck_assert_mem_eq(host, keep, sizeof(host));
	ck_assert_int_eq(vm_dbg_stat(0, "fail_range"), range0 + 5);
	dev_expect(b, b_img, sizeof(b_img));

	/* inside its own slot everything works */
	h2d(a, src, 64);
	dev_expect(a, src, 64);
	dev_expect(b, b_img, sizeof(b_img));
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b), ACL_SUCCESS);
}
END_TEST

/* A slot handed out again holds zeros, not the data of the freed allocation. */
START_TEST(test_slot_reuse_zeroed)
{
	unsigned char zero[128] = { 0 };
	char *keep = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	char *a = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	char *b;

	ck_assert_int_eq(aclrtMemset(a, 64, 0xAB, 64), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	b = dev_alloc(64, ACL_MEM_MALLOC_NORMAL_ONLY);
	ck_assert_ptr_eq(b, a);
	dev_expect(b, zero, 64);
	ck_assert_int_eq(aclrtFree(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(keep), ACL_SUCCESS);
}
END_TEST

static Suite *copy_suite(void)
{
	Suite *s = suite_create("copy");
	TCase *tc;

	tc = tcase_create("data");
	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_partial);
	tcase_add_test(tc, test_d2d);
	tcase_add_test(tc, test_memset);
	tcase_add_test(tc, test_memcpy2d);
	tcase_add_test(tc, test_readonly_memory);
	tcase_add_test(tc, test_malloc_host);
	suite_add_tcase(s, tc);

	tc = tcase_create("args");
	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_count_zero);
	tcase_add_test(tc, test_null_with_count);
	tcase_add_test(tc, test_count_gt_destmax);
	tcase_add_test(tc, test_bad_kind);
	tcase_add_test(tc, test_kind_mismatch);
	suite_add_tcase(s, tc);

	tc = tcase_create("holes");
	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_hole_memcpy);
	tcase_add_test(tc, test_hole_after_free);
	tcase_add_test(tc, test_bad_host_buffer);
	tcase_add_test(tc, test_bulk_copies);
	suite_add_tcase(s, tc);

	tc = tcase_create("slots");
	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_slots_share_a_page);
	tcase_add_test(tc, test_slot_bounds);
	tcase_add_test(tc, test_slot_reuse_zeroed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(copy_suite());
}
