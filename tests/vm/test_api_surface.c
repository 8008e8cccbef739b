// SPDX-License-Identifier: GPL-2.0
/*
 * The calls added for issue 9 against the real module: aclrtResetDeviceForce,
 * aclrtDestroyStreamForce (returns while the stream's work is held by the
 * debugfs stream_hold knob; that work is dropped), aclrtMemsetD32,
 * aclrtMemcpyBatch, aclrtCheckMemType, aclrtReserveMemAddressNoUCMemory,
 * the V2 share calls between two processes (with and without the pid
 * whitelist, DEFAULT and FABRIC handles), aclrtMemManagedPrefetchBatchAsync,
 * the messages of aclGetRecentErrMsg after driver-side failures (hugetlb
 * pool, capacity, free, copy range), the runtime_sample example,
 * aclrtDeviceGetBareTgid (also from a new pid namespace),
 * aclrtMemMapNoAccess and aclrtGetMemUsageInfo.
 * Exact codes and bytes; a refused call changes nothing.
 */
#include "vmtest.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>


static void d2h(void *host, const void *dev, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

static void h2d(void *dev, const void *host, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

/* A scratch pattern buffer of 4 KiB. */
static unsigned char *want_buf(void)
{
	static unsigned char buf[4096];

	return buf;
}

/* ---- Force ------------------------------------------------------------- */

START_TEST(reset_device_force)
{
	aclrtContext ctx;
	aclrtStream s;
	int32_t d = 9;
	long ctxs;
	void *p;

	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	p = vm_dev_alloc(4 * MiB);
	ck_assert_int_eq(vm_dbg_allocs_of(0, getpid()), 1);
	ctxs = vm_dbg_contexts(0);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);	/* references left */
	ck_assert_int_eq(vm_dbg_allocs_of(0, getpid()), 1);

	ck_assert_int_eq(aclrtResetDeviceForce(0), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_allocs_of(0, getpid()), 0);
	ck_assert_int_eq(vm_dbg_contexts(0), ctxs - 1);
	ck_assert_int_eq(aclrtGetDevice(&d), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(d, 9);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyContext(ctx), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
	(void)aclGetRecentErrMsg();
	ck_assert_int_eq(aclrtResetDeviceForce(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
	ck_assert_str_eq(aclGetRecentErrMsg(), "aclrtResetDeviceForce: device 0 is not set in this process (never "
					       "set, or already reset) (error 507007 ACL_ERROR_RT_CONTEXT_RELEASE_ERROR)");
	ck_assert_int_eq(aclrtResetDeviceForce(1), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
	/* the device opens afresh */
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	p = vm_dev_alloc(4096);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

/* Lines of debugfs streams of device 0 that belong to this process. */
static int my_streams(void)
{
	FILE *f = fopen("/sys/kernel/debug/npu_sim/npu_sim0/streams", "r");
	char line[256], pfx[32];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	snprintf(pfx, sizeof(pfx), "%d ", getpid());
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, pfx, strlen(pfx)) == 0)
			n++;
	fclose(f);
	return n;
}

/*
 * Force does not wait and drops the queued work: the stream's work is held
 * by stream_hold, the call returns anyway, and once the hold is released
 * the queued copy and set never run (the destination keeps its bytes).
 */
START_TEST(destroy_stream_force)
{
	unsigned char *host = malloc(MiB), *pinned = NULL;
	void *dev = vm_dev_alloc(MiB), *dev2 = vm_dev_alloc(MiB);
	aclrtStream s, idle;
	char want[512];
	int streams0;
	double t0;

	ck_assert_ptr_nonnull(host);
	ck_assert_int_eq(aclrtMallocHost((void **)&pinned, MiB), ACL_SUCCESS);
	memset(pinned, 0x77, MiB);
	ck_assert_int_eq(aclrtMemset(dev, MiB, 0x11, MiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(dev2, MiB, 0x22, MiB), ACL_SUCCESS);
	streams0 = my_streams();
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(my_streams(), streams0 + 1);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, MiB, pinned, MiB, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(dev2, MiB, 0x5a, MiB, s), ACL_SUCCESS);
	t0 = vm_now();
	ck_assert_int_eq(aclrtDestroyStreamForce(s), ACL_SUCCESS);
	ck_assert(vm_now() - t0 < 10.0);
	ck_assert_int_eq(my_streams(), streams0);	/* the kernel stream is gone */
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStreamForce(s), ACL_ERROR_RT_INVALID_HANDLE);
	snprintf(want, sizeof(want),
		 "aclrtDestroyStreamForce: stream is not a live stream of this process (destroyed, or its "
		 "device was reset) (error 107017 ACL_ERROR_RT_INVALID_HANDLE)\n"
		 "aclrtDestroyStream: stream is not a live stream of this process (destroyed, or its "
		 "device was reset) (error 107017 ACL_ERROR_RT_INVALID_HANDLE)\n"
		 "aclrtSynchronizeStream: stream %p is not a live stream of this process (destroyed, or its "
		 "device was reset) (error 107017 ACL_ERROR_RT_INVALID_HANDLE)", s);
	ck_assert_str_eq(aclGetRecentErrMsg(), want);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	d2h(host, dev, MiB);
	ck_assert(vm_all_bytes(host, MiB, 0x11));	/* the queued copy was dropped */
	d2h(host, dev2, MiB);
	ck_assert(vm_all_bytes(host, MiB, 0x22));	/* and the queued set */
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 2 * (long long)VM_ALIGN_UP(MiB + 32, 4096));

	ck_assert_int_eq(aclrtCreateStream(&idle), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStreamForce(idle), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamQuery(idle, &(aclrtStreamStatus){ 0 }), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(my_streams(), streams0);
	ck_assert_int_eq(aclrtFree(dev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dev2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(pinned), ACL_SUCCESS);
	free(host);
}
END_TEST

/* ---- variants of existing calls ------------------------------------------ */

START_TEST(variants_on_device)
{
	aclrtMallocAttribute dev1 = { ACL_RT_MEM_ATTR_DEVICE_ID, { .deviceId = 1 } };
	aclrtMallocConfig cfg = { &dev1, 1 };
	unsigned char *host = NULL, back[4096];
	aclrtStream s;
	void *p = NULL;
	uint64_t refs = 9;
	struct vm_alloc a;

	ck_assert_int_eq(aclrtMallocForTaskScheduler(&p, 5000, ACL_MEM_MALLOC_NORMAL_ONLY, NULL), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_alloc_find(0, (uintptr_t)p, &a), 1);
	ck_assert_uint_eq(a.size, 5000);
	ck_assert_uint_eq(a.footprint, 5024);	/* ALIGN_UP(5000, 32): the runtime adds no pad here */
	ck_assert_int_eq(aclrtMemFlush(p, 5000), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemInvalidate(p, 5000), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocForTaskScheduler(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_str_eq(aclGetRecentErrMsg(), "aclrtMallocForTaskScheduler: the ACL_RT_MEM_ATTR_DEVICE_ID attribute "
					       "names device 1, the current device is 0 (error 107000 "
					       "ACL_ERROR_RT_PARAM_INVALID)");

	/* the pinned source of a queued copy is freed only after the copy */
	ck_assert_int_eq(aclrtMallocHostWithCfg((void **)&host, 4096, NULL), ACL_SUCCESS);
	vm_fill(host, 4096, 77);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemcpyAsync(p, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtFreeHostWithDevSync(host), ACL_SUCCESS);
	d2h(back, p, 4096);
	vm_fill(want_buf(), 4096, 77);
	ck_assert_int_eq(memcmp(back, want_buf(), 4096), 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);

	/* the last aclFinalizeReference finalizes: the device context goes */
	p = vm_dev_alloc(4096);
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);	/* count 2 */
	ck_assert_int_eq(aclFinalizeReference(&refs), ACL_SUCCESS);
	ck_assert_uint_eq(refs, 1);
	ck_assert_int_eq(vm_dbg_allocs_of(0, getpid()), 1);
	ck_assert_int_eq(aclFinalizeReference(&refs), ACL_SUCCESS);
	ck_assert_uint_eq(refs, 0);
	ck_assert_int_eq(vm_dbg_allocs_of(0, getpid()), 0);
	/* back to what the fixture's teardown expects */
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

/* ---- aclrtMemsetD32 ------------------------------------------------------ */

START_TEST(memset_d32)
{
	const size_t n = 300000;	/* 1.2 MB: more than one pattern chunk */
	unsigned char *host = malloc(2 * MiB), *want = malloc(2 * MiB);
	unsigned char *dev = vm_dev_alloc(2 * MiB);
	uint32_t *h = NULL, w = 0x01020304;
	const char *msg;

	ck_assert_ptr_nonnull(host);
	ck_assert_ptr_nonnull(want);
	ck_assert_int_eq(aclrtMemset(dev, 2 * MiB, 0xee, 2 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetD32(dev + 4, 2 * MiB - 4, 0x01020304, n), ACL_SUCCESS);
	memset(want, 0xee, 2 * MiB);
	for (size_t i = 0; i < n; i++)
		memcpy(want + 4 + 4 * i, &w, 4);
	d2h(host, dev, 2 * MiB);
	ck_assert_int_eq(memcmp(host, want, 2 * MiB), 0);

	ck_assert_int_eq(aclrtMemsetD32(dev, 16, 0x07070707, 4), ACL_SUCCESS);	/* bytes all equal */
	d2h(host, dev, 20);
	ck_assert(vm_all_bytes(host, 16, 7));
	ck_assert_int_eq(host[16], 0x04);	/* little-endian 0x01020304 from the first call */

	/* past the allocation: refused, nothing written */
	ck_assert_int_eq(aclrtMemsetD32(dev + 2 * MiB - 8, 16, 0xabcdef01, 4), ACL_ERROR_RT_PARAM_INVALID);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(strstr(msg, "aclrtMemsetD32: ptr: ["));
	ck_assert_ptr_nonnull(strstr(msg, "+16) is not inside one live allocation or mapping of device 0 "
					  "(error 107000 ACL_ERROR_RT_PARAM_INVALID)"));
	d2h(host, dev + 2 * MiB - 8, 8);
	ck_assert_int_eq(memcmp(host, want + 2 * MiB - 8, 8), 0);
	ck_assert_int_eq(aclrtMemsetD32(dev, 16, 0xabcdef01, 5), ACL_ERROR_INVALID_PARAM);	/* N * 4 > memSize */

	/* host memory is set by the CPU */
	ck_assert_int_eq(aclrtMallocHost((void **)&h, 64), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetD32(h, 64, 0xdeadbeef, 16), ACL_SUCCESS);
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(h[i], 0xdeadbeef);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dev), ACL_SUCCESS);
	free(host);
	free(want);
}
END_TEST

/* ---- aclrtMemcpyBatch ---------------------------------------------------- */

static aclrtMemcpyBatchAttr batch_attr(aclrtMemLocationType dst, aclrtMemLocationType src)
{
	aclrtMemcpyBatchAttr a;

	memset(&a, 0, sizeof(a));
	a.dstLoc.type = dst;
	a.srcLoc.type = src;
	return a;
}

START_TEST(memcpy_batch)
{
	unsigned char s1[4096], s2[4096], o1[4096], o2[4096];
	unsigned char *a = vm_dev_alloc(4096), *b = vm_dev_alloc(4096);
	aclrtMemcpyBatchAttr h2d_attr = batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST);
	aclrtMemcpyBatchAttr d2h_attr = batch_attr(ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_LOCATION_TYPE_DEVICE);
	aclrtMemcpyBatchAttr mixed[2] = { h2d_attr, d2h_attr };
	size_t sizes[2] = { 4096, 1000 }, max[2] = { 4096, 4096 }, idx[2] = { 0, 1 }, fail = 77;
	void *dsts[2] = { a, b }, *srcs[2] = { s1, s2 };

	vm_fill(s1, sizeof(s1), 1);
	vm_fill(s2, sizeof(s2), 2);
	ck_assert_int_eq(aclrtMemset(b, 4096, 0, 4096), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, &h2d_attr, idx, 1, &fail), ACL_SUCCESS);
	ck_assert_uint_eq(fail, SIZE_MAX);	/* the runtime's error layer sets it first */

	/* device to host, back */
	dsts[0] = o1;
	dsts[1] = o2;
	srcs[0] = a;
	srcs[1] = b;
	memset(o2, 0xcc, sizeof(o2));
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, &d2h_attr, idx, 1, &fail), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(o1, s1, 4096), 0);
	ck_assert_int_eq(memcmp(o2, s2, 1000), 0);
	ck_assert(vm_all_bytes(o2 + 1000, 4096 - 1000, 0xcc));

	/* an attribute that does not say where the memory is: the runtime's check */
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, &h2d_attr, idx, 1, &fail),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 0);
	/* two directions in one batch: copy 1 refused, copy 0 not done either */
	dsts[0] = b;
	srcs[0] = s2;
	dsts[1] = o1;
	srcs[1] = a;
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, mixed, idx, 2, &fail),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 1);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtMemcpyBatch: copy 1 goes the other way than copy 0 (one direction per batch) "
			 "(error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtMemcpyBatch: copy 0: its attribute's dstLoc/srcLoc do not say where dst/src are "
			 "(error 107000 ACL_ERROR_RT_PARAM_INVALID)");
	/* copy 1 runs past its allocation: nothing copied */
	dsts[0] = a;
	srcs[0] = s2;
	dsts[1] = b + 4000;
	srcs[1] = s1;
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, &h2d_attr, idx, 1, &fail),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 1);
	d2h(o1, a, 4096);
	ck_assert_int_eq(memcmp(o1, s1, 4096), 0);
	sizes[1] = 5000;	/* more than destMax: the ACL layer's 100000, failIndex untouched */
	dsts[1] = b;
	fail = 77;
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, &h2d_attr, idx, 1, &fail),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(fail, 77);
	/* the attribute indexes are the runtime's: 107000, failIndex SIZE_MAX */
	sizes[1] = 1000;
	idx[0] = 1;
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, &h2d_attr, idx, 1, &fail),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, SIZE_MAX);
	idx[0] = 0;
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, &h2d_attr, idx, 0, &fail),
			 ACL_ERROR_RT_PARAM_INVALID);
	h2d_attr.rsv[0] = 1;	/* the ACL layer's, before the indexes */
	idx[0] = 1;
	fail = 77;
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, &h2d_attr, idx, 1, &fail),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(fail, 77);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b), ACL_SUCCESS);
}
END_TEST

/* ---- aclrtCheckMemType, aclrtReserveMemAddressNoUCMemory ------------------ */

START_TEST(check_mem_type)
{
	char *p = vm_dev_alloc(8192);
	void *v = NULL, *list[2];
	char host;
	uint32_t r = 9;

	ck_assert_int_eq(aclrtReserveMemAddress(&v, 2 * MiB, 0, NULL, 0), ACL_SUCCESS);
	list[0] = p;
	list[1] = p + 8191;
	ck_assert_int_eq(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_SUCCESS);
	ck_assert_uint_eq(r, 1);
	ck_assert_int_eq(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_RSVD, &r, 0), ACL_SUCCESS);
	ck_assert_uint_eq(r, 0);
	ck_assert_int_eq(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DVPP, &r, 0), ACL_SUCCESS);
	ck_assert_uint_eq(r, 0);
	list[1] = v;
	ck_assert_int_eq(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_SUCCESS);
	ck_assert_uint_eq(r, 0);
	ck_assert_int_eq(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_RSVD, &r, 0), ACL_SUCCESS);
	ck_assert_uint_eq(r, 1);
	list[1] = &host;
	ck_assert_int_eq(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_RSVD, &r, 0), ACL_SUCCESS);
	ck_assert_uint_eq(r, 0);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_SUCCESS);
	ck_assert_uint_eq(r, 0);	/* freed */
	ck_assert_int_eq(aclrtReleaseMemAddress(v), ACL_SUCCESS);
}
END_TEST

START_TEST(reserve_no_uc_memory)
{
	void *v = NULL, *w = NULL, *list[1];
	uint32_t r = 0;

	/* find a free 1 GiB aligned address of the window */
	ck_assert_int_eq(aclrtReserveMemAddress(&v, 2 * GiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_uint_eq((uintptr_t)v % GiB, 0);
	ck_assert_int_eq(aclrtReleaseMemAddress(v), ACL_SUCCESS);

	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(&w, 2 * GiB, 0, v, 0), ACL_SUCCESS);
	ck_assert_ptr_eq(w, v);
	list[0] = (char *)w + GiB;
	ck_assert_int_eq(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_RSVD, &r, 0), ACL_SUCCESS);
	ck_assert_uint_eq(r, 1);
	/* taken now */
	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(&w, GiB, 0, v, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(w, v);
	ck_assert_int_eq(aclrtReleaseMemAddress(v), ACL_SUCCESS);
	/* outside the device window */
	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(&w, GiB, 0, (void *)GiB, 0),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(&w, GiB + 2 * MiB, 0, v, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(&w, GiB, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_eq(w, v);
}
END_TEST

/* ---- V2 share calls between two processes ------------------------------- */

enum { CMD_IMPORT = 1, CMD_EXIT = 2 };

/*
 * Importer: reports 0 when ready; per CMD_IMPORT (then shareType, key,
 * seed) reports the ImportV2 result and, when it imported, 0 or the step
 * of the map-and-compare that failed.
 */
static int child_v2(void *arg, int cmd, int rep)
{
	unsigned char want[4096], got[4096];
	uint64_t c, type, key, seed;

	(void)arg;
	if (aclInit(NULL) || aclrtSetDevice(0) || vm_put(rep, 0))
		return 1;
	for (;;) {
		aclrtMemFabricHandle fabric;
		aclrtDrvMemHandle h = NULL;
		void *shareable = &key, *r = NULL;
		uint64_t step = 0;
		int ret;

		if (vm_get(cmd, &c))
			return 2;
		if (c == CMD_EXIT)
			return 0;
		if (vm_get(cmd, &type) || vm_get(cmd, &key) || vm_get(cmd, &seed))
			return 3;
		if (type == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
			memset(&fabric, 0, sizeof(fabric));
			memcpy(fabric.data, &key, sizeof(key));
			shareable = &fabric;
		}
		ret = aclrtMemImportFromShareableHandleV2(shareable, (aclrtMemSharedHandleType)type, 0, &h);
		if (vm_put(rep, (uint64_t)(int64_t)ret))
			return 4;
		if (ret != ACL_SUCCESS)
			continue;
		if (aclrtReserveMemAddress(&r, 2 * MiB, 0, NULL, 0))
			step = 10;
		if (!step && aclrtMapMem(r, 2 * MiB, 0, h, 0))
			step = 11;
		if (!step && aclrtMemcpy(got, sizeof(got), r, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST))
			step = 12;
		vm_fill(want, sizeof(want), (uint32_t)seed);
		if (!step && memcmp(want, got, sizeof(got)))
			step = 13;
		if (!step && (aclrtUnmapMem(r) || aclrtReleaseMemAddress(r) || aclrtFreePhysical(h)))
			step = 14;
		if (vm_put(rep, step))
			return 5;
	}
}

/* A 2 MiB physical object of normal pages holding vm_fill(seed), mapped at *r. */
static aclrtDrvMemHandle phys_with(uint32_t seed, void **r)
{
	unsigned char buf[4096];
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h = NULL;

	memset(&prop, 0, sizeof(prop));
	prop.memAttr = ACL_MEM_NORMAL;
	prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &prop, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReserveMemAddress(r, 2 * MiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(*r, 2 * MiB, 0, h, 0), ACL_SUCCESS);
	vm_fill(buf, sizeof(buf), seed);
	h2d(*r, buf, sizeof(buf));
	return h;
}

static void unmap_free(aclrtDrvMemHandle h, void *r)
{
	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
}

static int64_t child_import(struct vm_child *c, uint64_t type, uint64_t key, uint64_t seed)
{
	vm_child_put(c, CMD_IMPORT);
	vm_child_put(c, type);
	vm_child_put(c, key);
	vm_child_put(c, seed);
	return (int64_t)vm_child_get(c);
}

START_TEST(share_v2_two_processes)
{
	aclrtMemFabricHandle fabric, zero;
	aclrtDrvMemHandle h1, h2, mine;
	struct vm_child c;
	uint64_t key = 0, again = 0, fkey;
	int32_t pid;
	void *r1, *r2;

	h1 = phys_with(0x51, &r1);
	h2 = phys_with(0x52, &r2);
	ck_assert_int_eq(aclrtMemExportToShareableHandleV2(h1, ACL_RT_VMM_EXPORT_FLAG_DEFAULT,
							   ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &key), ACL_SUCCESS);
	ck_assert_uint_ne(key, 0);
	ck_assert_int_eq(aclrtMemExportToShareableHandleV2(h1, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &again),
			 ACL_ERROR_RT_PARAM_INVALID);	/* exported once only */
	ck_assert_uint_eq(again, 0);
	ck_assert_int_eq(aclrtMemExportToShareableHandleV2(h2, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
							   ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fabric), ACL_SUCCESS);
	memcpy(&fkey, fabric.data, sizeof(fkey));
	ck_assert_uint_ne(fkey, 0);
	memset(&zero, 0, sizeof(zero));
	ck_assert_int_eq(memcmp(fabric.data + 8, zero.data, sizeof(zero.data) - 8), 0);
	/* the exporting process cannot import */
	ck_assert_int_eq(aclrtMemImportFromShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &mine),
			 ACL_ERROR_RT_NO_PERMISSION);

	vm_child_start(&c, child_v2, NULL);
	ck_assert_uint_eq(vm_child_get(&c), 0);
	/* whitelist enforced: not yet on it */
	ck_assert_int_eq(child_import(&c, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, key, 0x51), ACL_ERROR_RT_NO_PERMISSION);
	pid = c.pid;
	ck_assert_int_eq(aclrtMemSetPidToShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 1),
			 ACL_SUCCESS);
	ck_assert_int_eq(child_import(&c, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, key, 0x51), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&c), 0);
	/* pid validation disabled, fabric handle: anyone imports */
	ck_assert_int_eq(child_import(&c, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, fkey, 0x52), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&c), 0);
	/* a guessed key names nothing */
	ck_assert_int_eq(child_import(&c, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, key ^ 0x5a5a5a5a5a5aULL, 0),
			 ACL_ERROR_RT_INVALID_HANDLE);
	vm_child_put(&c, CMD_EXIT);
	vm_child_wait_ok(&c);
	unmap_free(h1, r1);
	unmap_free(h2, r2);
}
END_TEST

/* ---- aclrtMemManagedPrefetchBatchAsync ------------------------------------ */

static aclrtMemManagedLocation last_prefetch(const void *p, size_t size)
{
	aclrtMemManagedLocation l = { (aclrtMemManagedLocationType)99, 99 };

	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, size, &l,
						sizeof(l)), ACL_SUCCESS);
	return l;
}

START_TEST(prefetch_batch)
{
	aclrtMemManagedLocation dev0 = { ACL_MEM_LOCATIONTYPE_DEVICE, 0 };
	aclrtMemManagedLocation host = { ACL_MEM_LOCATIONTYPE_HOST, 0 };
	aclrtMemManagedLocation dev1 = { ACL_MEM_LOCATIONTYPE_DEVICE, 1 };
	aclrtMemManagedLocation locs[2];
	const void *ptrs[2];
	size_t sizes[2] = { 4 * MiB, 2 * MiB }, idx[2] = { 0, 1 };
	void *m1 = NULL, *m2 = NULL, *plain = vm_dev_alloc(4 * MiB);

	ck_assert_int_eq(aclrtMemAllocManaged(&m1, 4 * MiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemAllocManaged(&m2, 4 * MiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
	ptrs[0] = m1;
	ptrs[1] = m2;
	locs[0] = dev0;
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 1, 0, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	ck_assert_int_eq(last_prefetch(m1, 4 * MiB).type, ACL_MEM_LOCATIONTYPE_DEVICE);
	ck_assert_int_eq(last_prefetch(m2, 2 * MiB).type, ACL_MEM_LOCATIONTYPE_DEVICE);
	ck_assert_int_eq(last_prefetch(m2, 4 * MiB).type, ACL_MEM_LOCATIONTYPE_INVALID);	/* blocks differ */

	/* two locations: m1 to the host, m2 stays on the device */
	locs[0] = host;
	locs[1] = dev0;
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	ck_assert_int_eq(last_prefetch(m1, 4 * MiB).type, ACL_MEM_LOCATIONTYPE_HOST);
	ck_assert_int_eq(last_prefetch(m2, 2 * MiB).type, ACL_MEM_LOCATIONTYPE_DEVICE);

	/* refused batches queue nothing: m1 stays where the last batch put it */
	locs[0] = dev0;
	locs[1] = dev1;
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ptrs[1] = plain;
	locs[1] = dev0;
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ptrs[1] = m2;
	sizes[1] = MiB;
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
	ck_assert_int_eq(last_prefetch(m1, 4 * MiB).type, ACL_MEM_LOCATIONTYPE_HOST);
	ck_assert_int_eq(aclrtFree(m1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(m2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(plain), ACL_SUCCESS);
}
END_TEST

/* ---- messages after driver-side failures -------------------------------- */

START_TEST(messages_name_the_limit)
{
	char want[512], *big = calloc(1, 16 * MiB);
	size_t free_b, total_b;
	void *p = NULL, *q;

	vm_set_hp2m_pool(0);
	ck_assert_int_eq(aclrtMalloc(&p, 3 * MiB, ACL_MEM_MALLOC_HUGE_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtMalloc: HUGE_ONLY needs 2 pages of 2 MiB, the hugetlb pool has 0 free "
			 "(echo N > /proc/sys/vm/nr_hugepages) (error 207001 ACL_ERROR_RT_MEMORY_ALLOCATION)");

	vm_hbm_info(&free_b, &total_b);
	ck_assert_int_eq(aclrtMalloc(&p, 3 * GiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);
	snprintf(want, sizeof(want),
		 "aclrtMalloc: NORMAL_ONLY needs %llu bytes of device memory, the device has %zu of %zu bytes free "
		 "(error 207001 ACL_ERROR_RT_MEMORY_ALLOCATION)", 3 * GiB + 4096, free_b, total_b);
	ck_assert_str_eq(aclGetRecentErrMsg(), want);
	ck_assert_ptr_null(p);

	q = vm_dev_alloc(4096);
	ck_assert_int_eq(aclrtFree((char *)q + 64), ACL_ERROR_RT_PARAM_INVALID);
	/* well past the pages backing q */
	ck_assert_int_eq(aclrtMemcpy(q, 16 * MiB, big, 16 * MiB, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_RT_PARAM_INVALID);
	snprintf(want, sizeof(want),
		 "aclrtMemcpy: the device range [%p, +16777216) (dst) is not inside live device memory (freed, or "
		 "past the end of its allocation) (error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
		 "aclrtFree: devPtr is not the start of a live allocation of this process "
		 "(error 107000 ACL_ERROR_RT_PARAM_INVALID)", q);
	ck_assert_str_eq(aclGetRecentErrMsg(), want);
	ck_assert_int_eq(aclrtFree(q), ACL_SUCCESS);
	ck_assert_ptr_null(aclGetRecentErrMsg());
	free(big);
}
END_TEST

/* Whether the thread's messages contain every one of the NULL-ended words. */
static void msg_has(const char *first, ...)
{
	const char *m = aclGetRecentErrMsg();
	va_list ap;

	ck_assert_ptr_nonnull(m);
	va_start(ap, first);
	for (const char *w = first; w != NULL; w = va_arg(ap, const char *))
		ck_assert_msg(strstr(m, w) != NULL, "\"%s\" not in \"%s\"", w, m);
	va_end(ap);
}

/* Copies, sets, streams and events refused say which argument and where. */
START_TEST(copy_messages_name_the_range)
{
	unsigned char *host = calloc(1, 16384);
	char want[512];
	void *d = vm_dev_alloc(8192), *ro;
	aclrtStream s;
	aclrtEvent e;

	ck_assert_ptr_nonnull(host);
	ck_assert_int_eq(aclrtMemcpy(d, 8192, host, 12289, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_str_eq(aclGetRecentErrMsg(), "aclrtMemcpy: count 12289 is more than destMax 8192 "
					       "(error 107000 ACL_ERROR_RT_PARAM_INVALID)");

	ck_assert_int_eq(aclrtMemcpy(d, 4096, host, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
	snprintf(want, sizeof(want), "aclrtMemcpy: kind ACL_MEMCPY_DEVICE_TO_HOST does not match the addresses: "
		 "dst [%p, +4096) is device 0 memory, src [%p, +4096) is host memory", d, (void *)host);
	msg_has(want, NULL);

	ck_assert_int_eq(aclrtMemset(d, 16 * MiB, 0, 16 * MiB), ACL_ERROR_RT_PARAM_INVALID);
	snprintf(want, sizeof(want), "aclrtMemset: the device range [%p, +16777216) (dst) is not inside live "
		 "device memory", d);
	msg_has(want, NULL);

	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(ro, MAP_FAILED);
	ck_assert_int_eq(aclrtMemcpy(ro, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
	snprintf(want, sizeof(want), "aclrtMemcpy: the host range [%p, +4096) (dst) is not writable memory", ro);
	msg_has(want, NULL);
	ck_assert_int_eq(munmap(ro, 4096), 0);

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMemcpyAsync(d, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s),
			 ACL_ERROR_RT_INVALID_HANDLE);
	snprintf(want, sizeof(want), "stream %p is not a live stream", s);
	msg_has("aclrtMemcpyAsync: stream 0x", "\naclrtSynchronizeStream: stream 0x", want, NULL);

	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, NULL), ACL_ERROR_RT_INVALID_HANDLE);
	snprintf(want, sizeof(want), "aclrtRecordEvent: event %p is not a live event", e);
	msg_has(want, NULL);

	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	free(host);
}
END_TEST

/* ---- device, VMM and usage calls of UAPI 1.5 ------------------------------ */

START_TEST(bare_tgid)
{
	int32_t pid = 0;
	int fds[2], status;
	pid_t c;

	ck_assert_int_eq(aclrtDeviceGetBareTgid(&pid), ACL_SUCCESS);
	ck_assert_int_eq(pid, getpid());
	ck_assert_int_eq(aclrtDeviceGetBareTgid(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtDeviceGetBareTgid: pid is NULL (error 100000 ACL_ERROR_INVALID_PARAM)");

	/*
	 * In a new pid namespace a process is pid 1 to itself; the device
	 * sees its id in the initial namespace (no aclrtSetDevice needed).
	 */
	ck_assert_int_eq(pipe(fds), 0);
	c = fork();
	ck_assert_int_ge(c, 0);
	if (c == 0) {
		int32_t seen = 0;
		int32_t self = 0;
		pid_t g;
		int gs;

		if (unshare(CLONE_NEWPID) != 0)
			_exit(1);
		g = fork();
		if (g < 0)
			_exit(2);
		if (g == 0) {
			self = getpid();
			if (aclrtDeviceGetBareTgid(&seen) != ACL_SUCCESS)
				_exit(3);
			_exit(self == 1 && write(fds[1], &seen, sizeof(seen)) == sizeof(seen) ? 0 : 4);
		}
		if (waitpid(g, &gs, 0) != g || !WIFEXITED(gs) || WEXITSTATUS(gs) != 0)
			_exit(5);
		if (read(fds[0], &seen, sizeof(seen)) != sizeof(seen))
			_exit(6);
		_exit(seen == g ? 0 : 7);
	}
	ck_assert_int_eq(waitpid(c, &status, 0), c);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

START_TEST(mem_map_no_access)
{
	aclrtPhysicalMemProp prop = { 0 };
	aclrtMemAccessDesc desc = { 0 };
	unsigned char *host = malloc(4096), *got = malloc(4096);
	aclrtMemLocation loc = { 0 };
	aclrtDrvMemHandle h = NULL;
	uint64_t flag = 99;
	char *r = NULL;

	ck_assert_ptr_nonnull(host);
	ck_assert_ptr_nonnull(got);
	prop.memAttr = ACL_MEM_NORMAL;
	prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &prop, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 4 * MiB, 0, NULL, 0), ACL_SUCCESS);

	ck_assert_int_eq(aclrtMemMapNoAccess(NULL, 2 * MiB, 0, h, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemMapNoAccess(r, 0, 0, h, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemMapNoAccess(r, 2 * MiB, 4096, h, 0), ACL_ERROR_RT_PARAM_INVALID);	/* offset */
	ck_assert_int_eq(aclrtMemMapNoAccess(r, 2 * MiB, 0, h, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemMapNoAccess(r, 2 * MiB, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemMapNoAccess(r, 4 * MiB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemMapNoAccess(r, 2 * MiB, 0, h, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemMapNoAccess(r, 2 * MiB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);	/* mapped */
	ck_assert_int_eq(aclrtMemGetAccess(r, &loc, &flag), ACL_SUCCESS);
	ck_assert_uint_eq(flag, ACL_RT_MEM_ACCESS_FLAGS_NONE);
	ck_assert_int_eq(loc.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	ck_assert_uint_eq(loc.id, 0);

	/* no access: copies and sets are refused */
	memset(host, 0x3c, 4096);
	ck_assert_int_eq(aclrtMemcpy(r, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_int_eq(aclrtMemcpy(got, 4096, r, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_int_eq(aclrtMemset(r, 4096, 1, 4096), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_int_eq(aclrtValueWrite(r, 1, 0, NULL), ACL_ERROR_RT_NO_PERMISSION);
	{
		const char *m = aclGetRecentErrMsg();

		ck_assert_ptr_nonnull(m);
		ck_assert(strncmp(m, "aclrtValueWrite: ", 17) == 0);
		ck_assert_ptr_nonnull(strstr(m, "(error 207006 ACL_ERROR_RT_NO_PERMISSION)\naclrtMemset: "));
		ck_assert_ptr_nonnull(strstr(m, "\naclrtMemcpy: "));
		ck_assert_ptr_nonnull(strstr(m, "\naclrtMemMapNoAccess: "));
		ck_assert_ptr_nonnull(strstr(m, "aclrtMemset: the device range ["));
		ck_assert_ptr_nonnull(strstr(m, "(dst) is read-only (registered READONLY) or mapped without access "
						"(error 207006 ACL_ERROR_RT_NO_PERMISSION)\naclrtMemcpy: the device range ["));
		ck_assert_ptr_nonnull(strstr(m, "(src) is mapped without access (error 207006 "));
	}

	/* READWRITE granted: the mapping works */
	desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, &desc, 1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemGetAccess(r, &loc, &flag), ACL_SUCCESS);
	ck_assert_uint_eq(flag, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
	ck_assert_int_eq(aclrtMemcpy(r, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(got, 4096, r, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(got, host, 4096);

	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	free(host);
	free(got);
}
END_TEST

static void usage(int32_t dev, aclrtMemUsageInfo info[6])
{
	size_t n = 0;

	memset(info, 0xa5, 6 * sizeof(info[0]));
	ck_assert_int_eq(aclrtGetMemUsageInfo(dev, info, 6, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 6);
}

START_TEST(mem_usage_info)
{
	static const char *const names[6] = { "process", "device", "normal", "huge_2m", "huge_1g", "p2p" };
	const uint64_t a_sz = 8 * MiB + 4096, b_sz = 4 * MiB + 4096;	/* charged, NORMAL_ONLY */
	aclrtMemUsageInfo info[8];
	size_t n = 99;
	void *a, *b;

	usage(0, info);
	for (int i = 0; i < 6; i++) {
		ck_assert_str_eq(info[i].name, names[i]);
		ck_assert_uint_eq(info[i].curMemSize, 0);
		ck_assert_uint_eq(info[i].memPeakSize, 0);
		for (int k = 0; k < 8; k++)
			ck_assert_uint_eq(info[i].reserved[k], 0);
	}

	ck_assert_int_eq(aclrtMalloc(&a, 8 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&b, 4 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY_P2P), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	usage(0, info);
	ck_assert_uint_eq(info[0].curMemSize, b_sz);
	ck_assert_uint_eq(info[0].memPeakSize, a_sz + b_sz);	/* seen before the free */
	ck_assert_uint_eq(info[1].curMemSize, b_sz);
	ck_assert_uint_eq(info[1].memPeakSize, a_sz + b_sz);
	ck_assert_uint_eq(info[2].curMemSize, b_sz);
	ck_assert_uint_eq(info[2].memPeakSize, a_sz + b_sz);
	ck_assert_uint_eq(info[3].curMemSize, 0);
	ck_assert_uint_eq(info[4].curMemSize, 0);
	ck_assert_uint_eq(info[5].curMemSize, b_sz);
	ck_assert_uint_eq(info[5].memPeakSize, b_sz);
	ck_assert_uint_eq((uint64_t)vm_dbg_info(0, "used_bytes"), b_sz);

	/* inputNum smaller than the components: only that many written */
	memset(info, 0x5a, sizeof(info));
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, info, 2, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(info[1].name, "device");
	ck_assert_uint_eq((unsigned char)info[2].name[0], 0x5a);
	/* larger: 6 */
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, info, 8, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq((unsigned char)info[6].name[0], 0x5a);

	/* bad arguments change nothing */
	n = 99;
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, NULL, 6, &n), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, info, 6, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetMemUsageInfo(-1, info, 6, &n), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetMemUsageInfo(2, info, 6, &n), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetMemUsageInfo(1, info, 6, &n), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_uint_eq(n, 99);
	/* inputNum 0 is the runtime's check: it answers *outputNum 0 */
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, info, 0, &n), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(n, 0);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtGetMemUsageInfo: inputNum is 0 (error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtGetMemUsageInfo: device 1 is not set in this process (aclrtSetDevice) "
			 "(error 107002 ACL_ERROR_RT_CONTEXT_NULL)\n"
			 "aclrtGetMemUsageInfo: deviceId 2 is out of range: the module has devices 0..1 "
			 "(error 107001 ACL_ERROR_RT_INVALID_DEVICEID)\n"
			 "aclrtGetMemUsageInfo: deviceId -1 is out of range: the module has devices 0..1 "
			 "(error 107001 ACL_ERROR_RT_INVALID_DEVICEID)\n"
			 "aclrtGetMemUsageInfo: outputNum is NULL (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtGetMemUsageInfo: memUsageInfo is NULL (error 100000 ACL_ERROR_INVALID_PARAM)");

	/* a reset ends the device's figures; set again, the peaks start anew */
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	usage(0, info);
	ck_assert_uint_eq(info[0].curMemSize, 0);
	ck_assert_uint_eq(info[0].memPeakSize, 0);
	ck_assert_uint_eq(info[1].memPeakSize, 0);
}
END_TEST

/* ---- the example ---------------------------------------------------------- */

START_TEST(runtime_sample_runs)
{
	char line[512];
	int ok = 0, status;
	FILE *f = popen("build/examples/runtime_sample 2>&1", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		fputs(line, stdout);
		ok |= strcmp(line, "[INFO]  runtime sample: ok\n") == 0;
	}
	status = pclose(f);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert(ok);
	ck_assert_int_eq(vm_dbg_allocs_of(0, getpid()), 0);
}
END_TEST

/*
 * The calls that need no device, with one set: the run mode, the API
 * version, and a data buffer naming device memory (the descriptor only
 * records the range; the memory stays the caller's).
 */
START_TEST(host_side_calls_with_a_device)
{
	aclrtRunMode mode = (aclrtRunMode)7;
	int32_t major = -1, minor = -1, patch = -1;
	aclDataBuffer *b;
	void *p = NULL;

	ck_assert_int_eq(aclrtGetRunMode(&mode), ACL_SUCCESS);
	ck_assert_int_eq(mode, ACL_HOST);
	ck_assert_int_eq(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
	ck_assert_int_eq(major, ACL_MAJOR_VERSION);
	ck_assert_int_eq(minor, ACL_MINOR_VERSION);
	ck_assert_int_eq(patch, ACL_PATCH_VERSION);

	ck_assert_int_eq(aclrtMalloc(&p, 8192, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	b = aclCreateDataBuffer(p, 8192);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_eq(aclGetDataBufferAddr(b), p);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	ck_assert_uint_eq(aclGetDataBufferSize(b), 8192);	/* still exported */
#pragma GCC diagnostic pop
	ck_assert_uint_eq(aclGetDataBufferSizeV2(b), 8192);
	ck_assert_int_eq(aclUpdateDataBuffer(b, (char *)p + 4096, 64), ACL_SUCCESS);
	ck_assert_ptr_eq(aclGetDataBufferAddr(b), (char *)p + 4096);
	ck_assert_uint_eq(aclGetDataBufferSizeV2(b), 64);
	ck_assert_int_eq(aclDestroyDataBuffer(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("api_surface");
	TCase *t = tcase_create("core");

	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(t, VM_TIMEOUT);
	tcase_add_test(t, reset_device_force);
	tcase_add_test(t, destroy_stream_force);
	tcase_add_test(t, variants_on_device);
	tcase_add_test(t, memset_d32);
	tcase_add_test(t, memcpy_batch);
	tcase_add_test(t, check_mem_type);
	tcase_add_test(t, reserve_no_uc_memory);
	tcase_add_test(t, share_v2_two_processes);
	tcase_add_test(t, prefetch_batch);
	tcase_add_test(t, messages_name_the_limit);
	tcase_add_test(t, copy_messages_name_the_range);
	tcase_add_test(t, runtime_sample_runs);
	tcase_add_test(t, bare_tgid);
	tcase_add_test(t, mem_map_no_access);
	tcase_add_test(t, mem_usage_info);
	tcase_add_test(t, host_side_calls_with_a_device);
	suite_add_tcase(s, t);
	return vm_run_suite(s);
}
