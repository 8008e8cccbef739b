// SPDX-License-Identifier: GPL-2.0
/*
 * The stream-ordered memory pool of acl_rt_memory_soma.h (issue 24):
 * aclrtMemPoolCreate/Destroy/SetAttr/GetAttr/TrimTo/MallocAsync/FreeAsync.
 *
 * Exact attributes (reserved and used, current and high, in 2 MiB
 * blocks); a block freed on a stream is given out again on that stream at
 * once (the stream's worker held: the free has not run); another stream
 * gets it only after the free ran (a VALUE_WAIT holds the freeing stream)
 * and only when the pool allows it; trims and the threshold at a
 * synchronize give back exactly the blocks' bytes (debugfs used_bytes);
 * bytes copied into pool memory; every bad input with its code; a killed
 * process's pools leave nothing; a FreeAsync of aclrtMalloc memory frees
 * it when the stream gets there.  Also the copies described in device
 * memory (aclrtGetMemcpyDescSize, aclrtSetMemcpyDesc,
 * aclrtMemcpyAsyncWithDesc, aclrtMemcpyAsyncWithOffset): the descriptor's
 * bytes, the bytes copied, every code.
 */
#include "vmtest.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <acl/acl_rt_memory_soma.h>
#include <misc/npu_sim.h>

#include "../npu_raw_stream.h"

#define MEMPOOLS "/sys/kernel/debug/npu_sim/npu_sim0/mempools"
#define BLK (2 * MiB)

/* One line of debugfs "mempools". */
struct prow {
	unsigned long long id, size, reserved, reserved_high, used, used_high, threshold;
	int pid;
	unsigned int dev, bfree, bpending, bused;
	char reuse[8];
};

static int prow_parse(const char *line, struct prow *r)
{
	return sscanf(line, "%llu %d %u %llu %llu %llu %llu %llu %llu %7s %u %u %u", &r->id, &r->pid, &r->dev,
		      &r->size, &r->reserved, &r->reserved_high, &r->used, &r->used_high, &r->threshold, r->reuse,
		      &r->bfree, &r->bpending, &r->bused) == 13;
}

/* Lines of mempools owned by pid (all when pid is 0); *last gets the last. */
static int prows_of(int pid, struct prow *last)
{
	FILE *f = fopen(MEMPOOLS, "r");
	char line[512];
	struct prow r;
	int n = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert(strncmp(line, "pool owner_pid device size reserved ", 36) == 0);
	while (fgets(line, sizeof(line), f)) {
		ck_assert_msg(prow_parse(line, &r), "bad mempools line: %s", line);
		if (pid && r.pid != pid)
			continue;
		n++;
		if (last)
			*last = r;
	}
	fclose(f);
	return n;
}

static aclrtMemPoolProps props(size_t max)
{
	aclrtMemPoolProps p;

	memset(&p, 0, sizeof(p));
	p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	p.maxSize = max;
	return p;
}

static aclrtMemPool new_pool(size_t max)
{
	aclrtMemPoolProps p = props(max);
	aclrtMemPool pool = NULL;

	ck_assert_int_eq(aclrtMemPoolCreate(&pool, &p), ACL_SUCCESS);
	ck_assert_ptr_nonnull(pool);
	return pool;
}

static aclrtStream new_stream(void)
{
	aclrtStream s = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	return s;
}

static uint64_t attr64(aclrtMemPool pool, aclrtMemPoolAttr a)
{
	uint64_t v = 0xdeadbeef;

	ck_assert_int_eq(aclrtMemPoolGetAttr(pool, a, &v), ACL_SUCCESS);
	return v;
}

static uint32_t attr32(aclrtMemPool pool, aclrtMemPoolAttr a)
{
	uint32_t v = 0xdead;

	ck_assert_int_eq(aclrtMemPoolGetAttr(pool, a, &v), ACL_SUCCESS);
	return v;
}

static void set64(aclrtMemPool pool, aclrtMemPoolAttr a, uint64_t v)
{
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, a, &v), ACL_SUCCESS);
}

static void set32(aclrtMemPool pool, aclrtMemPoolAttr a, uint32_t v)
{
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, a, &v), ACL_SUCCESS);
}

/* reserved, used now; and the high marks */
static void assert_figures(aclrtMemPool pool, uint64_t res, uint64_t used, uint64_t res_hi, uint64_t used_hi)
{
	ck_assert_uint_eq(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), res);
	ck_assert_uint_eq(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), used);
	ck_assert_uint_eq(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), res_hi);
	ck_assert_uint_eq(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), used_hi);
}

static void *pmalloc(aclrtMemPool pool, size_t n, aclrtStream s)
{
	void *p = NULL;

	ck_assert_int_eq(aclrtMemPoolMallocAsync(&p, n, pool, s), ACL_SUCCESS);
	ck_assert_ptr_nonnull(p);
	return p;
}

static long long dev_used(void)
{
	return vm_dbg_info(0, "used_bytes");
}

START_TEST(test_create_attrs)
{
	long long cap = vm_dbg_info(0, "capacity_bytes");
	aclrtMemPool a = new_pool(0), b = new_pool(3 * MiB);
	int mine0;
	struct prow r;

	mine0 = prows_of(getpid(), &r);
	ck_assert_int_eq(mine0, 2);
	ck_assert_uint_eq(r.size, 4 * MiB);	/* 3 MiB rounded up to 2 MiB */
	ck_assert_uint_eq(r.reserved, 0);
	ck_assert_uint_eq(r.dev, 0);
	ck_assert_str_eq(r.reuse, "000");
	ck_assert_uint_eq(r.bfree + r.bpending + r.bused, 0);

	ck_assert_uint_eq(attr32(a, ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES), 0);
	ck_assert_uint_eq(attr32(a, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC), 0);
	ck_assert_uint_eq(attr32(a, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES), 0);
	ck_assert_uint_eq(attr64(a, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), 0);
	assert_figures(a, 0, 0, 0, 0);

	/* the default size is the device's memory: a threshold of it is fine */
	set64(a, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, (uint64_t)cap / BLK * BLK);
	ck_assert_uint_eq(attr64(a, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), (uint64_t)cap / BLK * BLK);
	set32(a, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 7);
	ck_assert_uint_eq(attr32(a, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC), 1);
	set32(a, ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, 1);
	set32(a, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 1);
	set32(a, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0);
	ck_assert_uint_eq(attr32(a, ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES), 1);
	ck_assert_uint_eq(attr32(a, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES), 0);

	/* b is 4 MiB: a threshold of 4 MiB is its size, one byte more is not */
	set64(b, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 4 * MiB);
	{
		uint64_t v = 4 * MiB + 1;

		ck_assert_int_eq(aclrtMemPoolSetAttr(b, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v),
				 ACL_ERROR_RT_INTERNAL_ERROR);
		ck_assert_uint_eq(attr64(b, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), 4 * MiB);
	}
	ck_assert_int_eq(aclrtMemPoolDestroy(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(b), ACL_SUCCESS);
	ck_assert_int_eq(prows_of(getpid(), NULL), 0);
}
END_TEST

/* A block freed on s is s's again at once, before the free has run. */
START_TEST(test_same_stream_reuse)
{
	long long used0 = dev_used();
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream s = new_stream();
	void *p, *q;
	struct prow r;

	p = pmalloc(pool, 1 * MiB, s);
	assert_figures(pool, BLK, BLK, BLK, BLK);
	ck_assert_int_eq(dev_used(), used0 + (long long)BLK);

	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	assert_figures(pool, BLK, 0, BLK, BLK);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bpending, 1);
	q = pmalloc(pool, BLK, s);
	ck_assert_ptr_eq(q, p);
	assert_figures(pool, BLK, BLK, BLK, BLK);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bused, 1);
	/* a second block while the first is used: 4 MiB reserved */
	q = pmalloc(pool, 3 * MiB, s);
	ck_assert_ptr_ne(q, p);
	assert_figures(pool, 3 * BLK, 3 * BLK, 3 * BLK, 3 * BLK);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	/* the free that ran belonged to a reuse: the block stays used */
	assert_figures(pool, 3 * BLK, 3 * BLK, 3 * BLK, 3 * BLK);

	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(dev_used(), used0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/*
 * Another stream: never while the free waits behind a VALUE_WAIT on a;
 * after it ran only with ALLOW_OPPORTUNISTIC (default: a new block).
 */
START_TEST(test_cross_stream_reuse)
{
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream a = new_stream(), b = new_stream();
	void *gate = vm_dev_alloc(4096);
	void *p, *q, *x;
	struct prow r;

	/* keep free blocks over synchronizes */
	set64(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 64 * MiB);
	vm_dev_put_u64(gate, 0);

	/* default reuse: b never gets a's block, even after the free ran */
	p = pmalloc(pool, BLK, a);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(a), ACL_SUCCESS);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bfree, 1);
	q = pmalloc(pool, BLK, b);
	ck_assert_ptr_ne(q, p);
	assert_figures(pool, 2 * BLK, BLK, 2 * BLK, BLK);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(b), ACL_SUCCESS);

	/* opportunistic: only once the free has run */
	set32(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 1);
	x = pmalloc(pool, BLK, a);		/* a's own: p */
	ck_assert_ptr_eq(x, p);
	ck_assert_int_eq(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, a), ACL_SUCCESS);
	/* q (freed on b, run) is b's and free: a 2 MiB request on b takes q */
	x = pmalloc(pool, BLK, b);
	ck_assert_ptr_eq(x, q);
	/* now only p is left, pending on a: b must get a new block */
	x = pmalloc(pool, BLK, b);
	ck_assert_ptr_ne(x, p);
	ck_assert_ptr_ne(x, q);
	assert_figures(pool, 3 * BLK, 2 * BLK, 3 * BLK, 2 * BLK);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bpending, 1);
	ck_assert_uint_eq(r.bused, 2);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(x, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(b), ACL_SUCCESS);
	/* release a: its free runs; then b gets p (smallest fit, lowest address
	 * among the free ones of b and a: ask for all three) */
	ck_assert_int_eq(aclrtValueWrite(gate, 1, 0, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(a), ACL_SUCCESS);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bfree, 3);
	{
		void *g[3];
		int seen_p = 0;

		for (int i = 0; i < 3; i++) {
			g[i] = pmalloc(pool, BLK, b);
			seen_p |= g[i] == p;
		}
		ck_assert_int_eq(seen_p, 1);
		assert_figures(pool, 3 * BLK, 3 * BLK, 3 * BLK, 3 * BLK);
	}
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gate), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
}
END_TEST

/* TrimTo and the threshold at synchronize give back exactly whole blocks. */
START_TEST(test_trim_threshold)
{
	long long used0 = dev_used();
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream s = new_stream();
	void *p[3];
	size_t free0, total;
	size_t free1;

	set64(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 64 * MiB);
	for (int i = 0; i < 3; i++)
		p[i] = pmalloc(pool, BLK, s);
	ck_assert_int_eq(dev_used(), used0 + 3 * (long long)BLK);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(aclrtMemPoolFreeAsync(p[i], s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	assert_figures(pool, 3 * BLK, 0, 3 * BLK, 3 * BLK);
	ck_assert_int_eq(dev_used(), used0 + 3 * (long long)BLK);

	vm_hbm_info(&free0, &total);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 4 * MiB), ACL_SUCCESS);
	assert_figures(pool, 2 * BLK, 0, 3 * BLK, 3 * BLK);
	ck_assert_int_eq(dev_used(), used0 + 2 * (long long)BLK);
	vm_hbm_info(&free1, &total);
	ck_assert_uint_eq(free1, free0 + BLK);
	/* 3 MiB: a block more would go below it */
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 3 * MiB), ACL_SUCCESS);
	assert_figures(pool, 2 * BLK, 0, 3 * BLK, 3 * BLK);
	/* at or above reserved: nothing */
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 60 * MiB), ACL_SUCCESS);
	assert_figures(pool, 2 * BLK, 0, 3 * BLK, 3 * BLK);

	/* threshold 2 MiB at the next synchronize */
	set64(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 2 * MiB);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	assert_figures(pool, BLK, 0, 3 * BLK, 3 * BLK);
	ck_assert_int_eq(dev_used(), used0 + (long long)BLK);
	/* a device synchronize with threshold 0 empties it */
	set64(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 0);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	assert_figures(pool, 0, 0, 3 * BLK, 3 * BLK);
	ck_assert_int_eq(dev_used(), used0);

	/* the high marks reset with 0 only */
	set64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, 0);
	set64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, 0);
	assert_figures(pool, 0, 0, 0, 0);

	/* trims refused: below used, above the size */
	p[0] = pmalloc(pool, BLK, s);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 0), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 64 * MiB + 1), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, BLK), ACL_SUCCESS);
	assert_figures(pool, BLK, BLK, BLK, BLK);
	/* aclrtFree of a block in use: out of the pool at once.  Its allocation
	 * is ordered on s only: the host waits for s before a synchronous free
	 * (without it the race checker rightly reports the free). */
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(p[0]), ACL_SUCCESS);
	assert_figures(pool, 0, 0, BLK, BLK);
	ck_assert_int_eq(dev_used(), used0);

	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* Bytes copied into and out of pool memory on its stream. */
START_TEST(test_data)
{
	aclrtMemPool pool = new_pool(0);
	aclrtStream s = new_stream();
	size_t n = 3 * MiB + 123;
	unsigned char *in = malloc(n), *out = malloc(n);
	void *p, *q;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	vm_fill(in, n, 24);
	memset(out, 0, n);
	p = pmalloc(pool, n, s);
	q = pmalloc(pool, n, s);
	ck_assert_int_eq(aclrtMemcpyAsync(p, n, in, n, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(q, n, p, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync((char *)q + 7, 5, 0xab, 5, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(out, n, q, n, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	memset(in + 7, 0xab, 5);
	ck_assert_int_eq(memcmp(in, out, n), 0);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	free(in);
	free(out);
}
END_TEST

START_TEST(test_bad_input)
{
	aclrtMemPool pool = new_pool(4 * MiB), dead;
	aclrtMemPoolProps pr = props(0);
	aclrtStream s = new_stream();
	uint64_t v = 0;
	void *p = (void *)0x1234, *q;
	struct vm_snap snap;

	/* create */
	ck_assert_int_eq(aclrtMemPoolCreate(NULL, &pr), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolCreate(&dead, NULL), ACL_ERROR_INVALID_PARAM);
	pr.allocType = (aclrtMemAllocationType)1;
	ck_assert_int_eq(aclrtMemPoolCreate(&dead, &pr), ACL_ERROR_INVALID_PARAM);
	pr = props(0);
	pr.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	ck_assert_int_eq(aclrtMemPoolCreate(&dead, &pr), ACL_ERROR_INVALID_PARAM);
	pr = props(0);
	pr.reserved[31] = 1;
	ck_assert_int_eq(aclrtMemPoolCreate(&dead, &pr), ACL_ERROR_INVALID_PARAM);
	pr = props(0);
	pr.location.id = 99;
	ck_assert_int_eq(aclrtMemPoolCreate(&dead, &pr), ACL_ERROR_RT_INVALID_DEVICEID);
	pr = props((size_t)vm_dbg_info(0, "capacity_bytes") + 1);
	ck_assert_int_eq(aclrtMemPoolCreate(&dead, &pr), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(prows_of(getpid(), NULL), 1);

	/* NULL pool */
	ck_assert_int_eq(aclrtMemPoolDestroy(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolSetAttr(NULL, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolGetAttr(NULL, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolTrimTo(NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&p, BLK, NULL, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(NULL, BLK, pool, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&p, BLK, pool, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(NULL, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_eq(p, (void *)0x1234);

	/* attributes */
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, (aclrtMemPoolAttr)9, &v), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtMemPoolGetAttr(pool, (aclrtMemPoolAttr)0, &v), ACL_ERROR_RT_INTERNAL_ERROR);
	v = 1;
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v),
			 ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, &v),
			 ACL_ERROR_RT_INTERNAL_ERROR);

	/* size 0: success, *ptr untouched, nothing taken */
	vm_snap_take(0, &snap);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&p, 0, pool, s), ACL_SUCCESS);
	ck_assert_ptr_eq(p, (void *)0x1234);
	/* beyond the pool's 4 MiB */
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&p, 4 * MiB + 1, pool, s), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_ptr_eq(p, (void *)0x1234);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&p, SIZE_MAX, pool, s), ACL_ERROR_RT_PARAM_INVALID);
	vm_snap_assert_same(0, &snap);

	/* freed twice; inside a block; aclrtFree of a freed block */
	q = pmalloc(pool, BLK, s);
	ck_assert_int_eq(aclrtMemPoolFreeAsync((char *)q + 4096, s), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, s), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtFree(q), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);	/* threshold 0: released */
	assert_figures(pool, 0, 0, BLK, BLK);

	/* a destroyed pool, and a handle that is none */
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&p, BLK, pool, s), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 0), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemPoolDestroy((aclrtMemPool)&v), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_ptr_eq(p, (void *)0x1234);
	ck_assert_int_eq(prows_of(getpid(), NULL), 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* Destroying a pool with blocks in use gives everything back. */
START_TEST(test_destroy_in_use)
{
	long long used0 = dev_used();
	aclrtMemPool pool = new_pool(0);
	aclrtStream s = new_stream();

	(void)pmalloc(pool, BLK, s);
	(void)pmalloc(pool, 5 * MiB, s);
	ck_assert_int_eq(dev_used(), used0 + 4 * (long long)BLK);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(dev_used(), used0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* FreeAsync of aclrtMalloc memory: freed when the stream gets there. */
START_TEST(test_free_async_plain)
{
	aclrtStream s = new_stream();
	struct vm_alloc a;
	void *p = NULL;

	ck_assert_int_eq(aclrtMalloc(&p, 1 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_alloc_find(0, (uintptr_t)p, &a), 1);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_alloc_find(0, (uintptr_t)p, &a), 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* Child: a pool with blocks in use, pending and free; reports, waits. */
static int child_pools(void *arg, int cmd, int rep)
{
	aclrtMemPoolProps p = props(0);
	aclrtMemPool pool = NULL;
	aclrtStream s = NULL;
	void *a = NULL, *b = NULL, *c = NULL;
	uint32_t one = 1;
	uint64_t th = 64 * MiB, x;

	(void)arg;
	if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&s) || aclrtMemPoolCreate(&pool, &p))
		return 1;
	if (aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &th) ||
	    aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &one))
		return 2;
	if (aclrtMemPoolMallocAsync(&a, BLK, pool, s) || aclrtMemPoolMallocAsync(&b, BLK, pool, s) ||
	    aclrtMemPoolMallocAsync(&c, 3 * BLK, pool, s))
		return 3;
	if (aclrtMemPoolFreeAsync(a, s) || aclrtSynchronizeStream(s) || aclrtMemPoolFreeAsync(b, s))
		return 4;
	if (vm_put(rep, 1))
		return 5;
	(void)vm_get(cmd, &x);
	return 0;
}

START_TEST(test_killed_process)
{
	long long used0 = dev_used();
	struct vm_child ch;
	struct prow r;

	ck_assert_int_eq(prows_of(0, NULL), 0);
	vm_child_start(&ch, child_pools, NULL);
	ck_assert_uint_eq(vm_child_get(&ch), 1);
	ck_assert_int_eq(prows_of(ch.pid, &r), 1);
	ck_assert_uint_eq(r.reserved, 5 * BLK);
	ck_assert_uint_eq(r.used, 3 * BLK);
	ck_assert_uint_eq(r.used_high, 5 * BLK);
	ck_assert_str_eq(r.reuse, "010");
	ck_assert_uint_eq(r.bfree + r.bpending, 2);
	ck_assert_uint_eq(r.bused, 1);
	ck_assert_int_eq(dev_used(), used0 + 5 * (long long)BLK);
	kill(ch.pid, SIGKILL);
	vm_child_wait(&ch);
	ck_assert_int_eq(prows_of(0, NULL), 0);
	ck_assert_int_eq(dev_used(), used0);
}
END_TEST

/* ---- deferred frees (lib/api/mem_pool_defer.c) ------------------------ */

/* Whether frees defer: not under the race checker (tests/races runs this
 * program with NPU_SIM_CHECK=races), which must see each free. */
static int deferring(void)
{
	const char *c = getenv("NPU_SIM_CHECK");

	return c == NULL || (strstr(c, "races") == NULL && strstr(c, "all") == NULL);
}

/*
 * A free of the block just handed out waits in the library: the driver
 * still has the block in use (debugfs) until the next other call, and a
 * same-size alloc on that stream takes it back without a syscall.
 */
START_TEST(test_deferred_reuse)
{
	long long used0 = dev_used();
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream s = new_stream();
	void *p, *q;
	struct prow r;

	p = pmalloc(pool, 64, s);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	/* reading debugfs is no ACL call: the free is not submitted yet */
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bused, deferring() ? 1 : 0);
	ck_assert_uint_eq(r.bpending + r.bfree, deferring() ? 0 : 1);
	ck_assert_uint_eq(r.used, deferring() ? BLK : 0);
	q = pmalloc(pool, 100, s);	/* the same 2 MiB rounded */
	ck_assert_ptr_eq(q, p);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, s), ACL_SUCCESS);
	/* a GetAttr sees it as submitted: exactly the bytes before the alloc */
	ck_assert_uint_eq(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bpending, 1);
	ck_assert_uint_eq(r.bused, 0);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_uint_eq(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	assert_figures(pool, 0, 0, BLK, BLK);	/* threshold 0: released */

	/* another size misses: the free is submitted first; too small for 4 MiB */
	p = pmalloc(pool, BLK, s);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	q = pmalloc(pool, 3 * MiB, s);
	ck_assert_ptr_ne(q, p);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	assert_figures(pool, 0, 0, 3 * BLK, 2 * BLK);

	/* freed twice: the second answers as it did before deferral */
	p = pmalloc(pool, 64, s);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(),
				     "ptr is in a pool block that is not allocated (freed twice?) or not its start"));
	/* and aclrtFree of a block whose free was deferred */
	p = pmalloc(pool, 64, s);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	assert_figures(pool, 0, 0, 3 * BLK, 2 * BLK);

	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(dev_used(), used0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/*
 * Work on the block between its MallocAsync and FreeAsync (copies, a set,
 * an event, a synchronize) leaves the free deferrable; a call that may
 * free or take a block (here aclrtMemPoolTrimTo) does not: the free after
 * it is submitted at once.
 */
START_TEST(test_deferred_after_work)
{
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream s = new_stream();
	aclrtEvent ev;
	unsigned char in[64], out[64];
	void *p, *q;
	struct prow r;

	ck_assert_int_eq(aclrtCreateEvent(&ev), ACL_SUCCESS);
	memset(in, 0x5A, sizeof(in));
	p = pmalloc(pool, 64, s);
	ck_assert_int_eq(aclrtMemsetAsync(p, 64, 0, 64, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(p, 64, in, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(ev, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(out, 64, p, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(out, in, 64);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bused, deferring() ? 1 : 0);
	q = pmalloc(pool, 64, s);
	ck_assert_ptr_eq(q, p);

	/* a trim between: the record is dropped, the free goes to the driver */
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, BLK), ACL_SUCCESS);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, s), ACL_SUCCESS);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bused, 0);
	ck_assert_uint_eq(r.bpending, 1);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	assert_figures(pool, 0, 0, BLK, BLK);

	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* Another stream never gets the deferred block (default reuse). */
START_TEST(test_deferred_other_stream)
{
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream a = new_stream(), b = new_stream();
	void *p, *q;

	p = pmalloc(pool, 64, a);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, a), ACL_SUCCESS);
	q = pmalloc(pool, 64, b);
	ck_assert_ptr_ne(q, p);
	/* the miss submitted a's free: one block in use, two reserved */
	assert_figures(pool, 2 * BLK, BLK, 2 * BLK, BLK);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	assert_figures(pool, 0, 0, 2 * BLK, BLK);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b), ACL_SUCCESS);
}
END_TEST

/* A deferred free, then the stream's destroy: it is submitted and runs. */
START_TEST(test_deferred_stream_destroy)
{
	long long used0 = dev_used();
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream s = new_stream();
	void *p;
	struct prow r;

	set64(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 64 * MiB);
	p = pmalloc(pool, 64, s);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bfree, 1);
	ck_assert_uint_eq(r.bpending + r.bused, 0);
	assert_figures(pool, BLK, 0, BLK, BLK);
	ck_assert_int_eq(dev_used(), used0 + (long long)BLK);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(prows_of(getpid(), NULL), 0);
	ck_assert_int_eq(dev_used(), used0);
}
END_TEST

/* A forked child does not submit the parent's deferred free. */
START_TEST(test_deferred_fork)
{
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream s = new_stream();
	int32_t d = -1;
	void *p, *q;
	struct prow r;
	int st = -1;
	pid_t pid;

	p = pmalloc(pool, 64, s);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)	/* an exported call flushes in a process with frees */
		_exit(aclrtGetDevice(&d) == ACL_ERROR_RT_CONTEXT_NULL ? 0 : 1);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bused, deferring() ? 1 : 0);
	ck_assert_uint_eq(r.bpending + r.bfree, deferring() ? 0 : 1);
	/* still deferred in the parent */
	q = pmalloc(pool, 64, s);
	ck_assert_ptr_eq(q, p);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(q, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	assert_figures(pool, 0, 0, BLK, BLK);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

struct used_arg {
	aclrtMemPool pool;
	uint64_t used;
	aclError err;
};

static void *used_thread(void *arg)
{
	struct used_arg *u = arg;

	u->err = aclrtMemPoolGetAttr(u->pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &u->used);
	return NULL;
}

/* Another thread's call flushes the deferred free first. */
START_TEST(test_deferred_other_thread)
{
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream s = new_stream();
	struct used_arg u = { .used = 0xdead, .err = -1 };
	pthread_t t;
	struct prow r;
	void *p;

	vm_stream_hold(1);
	p = pmalloc(pool, 64, s);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
	u.pool = pool;
	ck_assert_int_eq(pthread_create(&t, NULL, used_thread, &u), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(u.err, ACL_SUCCESS);
	ck_assert_uint_eq(u.used, 0);
	ck_assert_int_eq(prows_of(getpid(), &r), 1);
	ck_assert_uint_eq(r.bpending, 1);
	ck_assert_uint_eq(r.bused, 0);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	assert_figures(pool, 0, 0, BLK, BLK);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/*
 * The file's queue full when the deferred free is submitted: the block
 * leaves its pool and goes back to the device (MEM_FREE), nothing leaks.
 */
START_TEST(test_deferred_queue_full)
{
	aclrtMemPool pool = new_pool(64 * MiB);
	aclrtStream s = new_stream();
	void *d = vm_dev_alloc(64), *p;
	long long used0 = dev_used();
	int n = 0;

	if (deferring()) {
		vm_stream_hold(1);
		while (n < NPU_SIM_MAX_QUEUED && aclrtMemsetAsync(d, 64, 0, 64, s) == ACL_SUCCESS)
			n++;
		ck_assert_int_eq(n, NPU_SIM_MAX_QUEUED);
		ck_assert_int_eq(aclrtMemsetAsync(d, 64, 0, 64, s), ACL_ERROR_RT_STREAM_TASK_FULL);
		p = pmalloc(pool, 64, s);
		ck_assert_int_eq(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
		ck_assert_int_eq(dev_used(), used0 + (long long)BLK);
		/* GetAttr flushes: the submit is refused, the block goes */
		assert_figures(pool, 0, 0, BLK, BLK);
		ck_assert_int_eq(dev_used(), used0);
		ck_assert_int_eq(prows_of(getpid(), NULL), 1);
		vm_stream_hold(0);
		ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	}
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* ---- copies described in device memory ------------------------------- */

struct desc32 {
	uint32_t resv[3];
	uint32_t len;
	uint64_t src;
	uint64_t dst;
};

static void *dev_zero(size_t n)
{
	void *p = vm_dev_alloc(n);

	ck_assert_int_eq(aclrtMemset(p, n, 0, n), ACL_SUCCESS);
	return p;
}

START_TEST(test_memcpy_desc)
{
	aclrtStream s = new_stream();
	unsigned char in[8192], out[8192], want[8192];
	void *desc = dev_zero(4096), *zdesc = dev_zero(4096);
	void *src = vm_dev_alloc(8192), *dst = dev_zero(8192);
	static unsigned char host_desc[128] __attribute__((aligned(64)));
	struct desc32 d;
	size_t sz = 0;

	ck_assert_int_eq(((uintptr_t)desc) % 64, 0);
	vm_fill(in, sizeof(in), 7);
	ck_assert_int_eq(aclrtMemcpy(src, 8192, in, 8192, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);

	/* size: 32 bytes on the default (Atlas A2) profile */
	ck_assert_int_eq(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &sz), ACL_SUCCESS);
	ck_assert_uint_eq(sz, 32);
	ck_assert_int_eq(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetMemcpyDescSize((aclrtMemcpyKind)8, &sz), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &sz), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

	/* the descriptor's bytes */
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, (char *)src + 16,
					    (char *)dst + 32, 5000, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(&d, sizeof(d), desc, sizeof(d), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_uint_eq(d.resv[0] | d.resv[1] | d.resv[2], 0);
	ck_assert_uint_eq(d.len, 5000);
	ck_assert_uint_eq(d.src, (uintptr_t)src + 16);
	ck_assert_uint_eq(d.dst, (uintptr_t)dst + 32);

	/* the copy */
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(out, 8192, dst, 8192, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	memset(want, 0, sizeof(want));
	memcpy(want + 32, in + 16, 5000);
	ck_assert_int_eq(memcmp(out, want, sizeof(want)), 0);

	/* aclrtSetMemcpyDesc: bad input, descriptor unchanged */
	ck_assert_int_eq(aclrtSetMemcpyDesc(NULL, 6, src, dst, 8, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, (aclrtMemcpyKind)9, src, dst, 8, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, 6, NULL, dst, 8, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, 6, src, NULL, 8, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, 6, src, dst, 0, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, 6, src, dst, 8, desc), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, src, dst, 8, NULL),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, 6, src, dst, (4ULL << 30) + 1, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetMemcpyDesc((char *)desc + 8, 6, src, dst, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetMemcpyDesc(host_desc, 6, src, dst, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, 6, in, dst, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetMemcpyDesc(desc, 6, src, out, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy(&d, sizeof(d), desc, sizeof(d), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_uint_eq(d.len, 5000);
	ck_assert_uint_eq(d.src, (uintptr_t)src + 16);

	/* aclrtMemcpyAsyncWithDesc: bad input, nothing copied */
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(NULL, 6, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(desc, (aclrtMemcpyKind)8, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(desc, 6, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc((char *)desc + 8, 6, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(host_desc, 6, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(zdesc, 6, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(out, 8192, dst, 8192, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(out, want, sizeof(want)), 0);

	ck_assert_int_eq(aclrtFree(desc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(zdesc), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(src), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(test_memcpy_offset)
{
	aclrtStream s = new_stream();
	unsigned char in[4096], out[4096], want[4096];
	void *words = dev_zero(4096), *src = vm_dev_alloc(4096), *dst = dev_zero(4096);
	void **dw = (void **)words, **sw = (void **)((char *)words + 8);
	void *host_words[2] = { dst, src };

	vm_fill(in, sizeof(in), 9);
	ck_assert_int_eq(aclrtMemcpy(src, 4096, in, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	vm_dev_put_u64(dw, (uintptr_t)dst);
	vm_dev_put_u64(sw, (uintptr_t)src);

	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(dw, 4096, 100, (const void **)sw, 1000, 50,
						    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	/* count 0: nothing, whatever else */
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(NULL, 0, 0, NULL, 0, 0, (aclrtMemcpyKind)99, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(out, 4096, dst, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	memset(want, 0, sizeof(want));
	memcpy(want + 100, in + 50, 1000);
	ck_assert_int_eq(memcmp(out, want, sizeof(want)), 0);

	/* bad input: nothing copied */
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(dw, 4096, 0, (const void **)sw, 8, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(NULL, 4096, 0, (const void **)sw, 8, 0, 6, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(dw, 4096, 0, NULL, 8, 0, 6, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(dw, 16, 0, (const void **)sw, 17, 0, 6, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(dw, 16, 16, (const void **)sw, 1, 0, 6, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(dw, 16, 8, (const void **)sw, 9, 0, 6, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(dw, 16, 0, (const void **)sw, 8, 1ULL << 48, 6, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(host_words, 4096, 0, (const void **)&host_words[1], 8, 0, 6, s),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(out, 4096, dst, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(out, want, sizeof(want)), 0);

	ck_assert_int_eq(aclrtFree(words), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(src), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* The driver's field checks of the MEMPOOL ioctls and OP_POOL_FREE. */
START_TEST(test_raw_fields)
{
	struct npu_sim_mempool_create c = { .max_size = 4 * MiB };
	struct npu_sim_mempool_destroy d = { 0 };
	struct npu_sim_mempool_ctl t;
	struct npu_sim_mempool_alloc a;
	struct npu_sim_stream_submit sb;
	struct vm_raw r;
	uint32_t sid;

	vm_raw_open(&r, 0);
	ck_assert_int_eq(raw_stream(r.fd, &sid), 0);
	c.id = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CREATE, &c), EINVAL);
	c.id = 0;
	c.max_size = VM_DEFAULT_HBM_BYTES + 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CREATE, &c), EINVAL);
	c.max_size = 3 * MiB;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CREATE, &c), 0);
	ck_assert_uint_eq(c.size, 4 * MiB);
	ck_assert_uint_ne(c.id, 0);

	memset(&t, 0, sizeof(t));
	t.id = c.id;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CTL, &t), EINVAL);	/* op 0 */
	t.op = 4;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CTL, &t), EINVAL);
	t.op = NPU_SIM_MEMPOOL_GET_ATTR;
	t.attr = NPU_SIM_MEMPOOL_USED_CURRENT;
	t.value = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CTL, &t), EINVAL);
	t.op = NPU_SIM_MEMPOOL_TRIM;
	t.value = 0;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CTL, &t), EINVAL);	/* attr set */
	t.attr = 0;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CTL, &t), 0);
	t.op = NPU_SIM_MEMPOOL_SET_ATTR;
	t.attr = NPU_SIM_MEMPOOL_RESERVED_CURRENT;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CTL, &t), EPERM);
	t.id = c.id + 1000;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_CTL, &t), ENOENT);

	memset(&a, 0, sizeof(a));
	a.id = c.id;
	a.stream = sid;
	a.size = MiB;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_ALLOC, &a), EINVAL);	/* not 2 MiB */
	a.size = BLK;
	a.pad = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_ALLOC, &a), EINVAL);
	a.pad = 0;
	a.va = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_ALLOC, &a), EINVAL);
	a.va = 0;
	a.stream = sid + 100;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_ALLOC, &a), ENOENT);
	a.stream = sid;
	a.size = 6 * MiB;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_ALLOC, &a), ENOSPC);
	a.size = BLK;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_ALLOC, &a), 0);
	ck_assert_uint_eq(a.block_size, BLK);

	memset(&sb, 0, sizeof(sb));
	sb.stream = sid;
	sb.op = NPU_SIM_OP_POOL_FREE;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);	/* dst 0 */
	sb.dst = a.va;
	sb.width = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	sb.width = 0;
	sb.operand = 1;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	sb.operand = 0;
	sb.dst = a.va + 64;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EBUSY);
	sb.dst = a.va;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), 0);
	ck_assert_uint_eq(sb.seq, 1);
	sb.seq = 0;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EBUSY);

	d.id = c.id;
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_DESTROY, &d), 0);
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_MEMPOOL_DESTROY, &d), ENOENT);
	vm_raw_close(&r);
	ck_assert_int_eq(prows_of(0, NULL), 0);
}
END_TEST

static Suite *mem_pool_suite(void)
{
	Suite *s = suite_create("mem_pool");
	TCase *t = tcase_create("pool");
	TCase *d = tcase_create("memcpy_desc");

	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(t, VM_TIMEOUT);
	tcase_add_test(t, test_create_attrs);
	tcase_add_test(t, test_same_stream_reuse);
	tcase_add_test(t, test_cross_stream_reuse);
	tcase_add_test(t, test_trim_threshold);
	tcase_add_test(t, test_data);
	tcase_add_test(t, test_bad_input);
	tcase_add_test(t, test_destroy_in_use);
	tcase_add_test(t, test_free_async_plain);
	tcase_add_test(t, test_killed_process);
	tcase_add_test(t, test_raw_fields);
	tcase_add_test(t, test_deferred_reuse);
	tcase_add_test(t, test_deferred_after_work);
	tcase_add_test(t, test_deferred_other_stream);
	tcase_add_test(t, test_deferred_stream_destroy);
	tcase_add_test(t, test_deferred_fork);
	tcase_add_test(t, test_deferred_other_thread);
	tcase_add_test(t, test_deferred_queue_full);
	suite_add_tcase(s, t);

	tcase_add_checked_fixture(d, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(d, VM_TIMEOUT);
	tcase_add_test(d, test_memcpy_desc);
	tcase_add_test(d, test_memcpy_offset);
	suite_add_tcase(s, d);
	return s;
}

int main(void)
{
	return vm_run_suite(mem_pool_suite());
}
