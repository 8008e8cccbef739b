// SPDX-License-Identifier: GPL-2.0
/*
 * Fidelity (issue 25): each check whose code the CANN runtime's source
 * decides, asserted to that exact code through the public API, and each
 * driver-decided refusal that npu_sim answers with a runtime code (never
 * the ACL layer's 100000).  docs/cann-api-notes.md, "Checks and codes",
 * names the basis of every row.  Refused calls change nothing: the memory
 * and handles they were given stay usable.
 */
#include "vmtest.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define M2 (2 * MiB)

/* A call run in a fresh thread, which has no current device. */
typedef aclError (*no_dev_fn)(void *arg);

struct no_dev {
	no_dev_fn fn;
	void *arg;
	aclError ret;
};

static void *no_dev_thread(void *p)
{
	struct no_dev *c = p;

	c->ret = c->fn(c->arg);
	return NULL;
}

static aclError without_device(no_dev_fn fn, void *arg)
{
	struct no_dev c = { fn, arg, 0 };
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, no_dev_thread, &c), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	return c.ret;
}

/* The first line of the newest message, starting with call + ": ". */
static void assert_msg_starts(const char *start)
{
	const char *m = aclGetRecentErrMsg();

	ck_assert_ptr_nonnull(m);
	ck_assert_msg(strncmp(m, start, strlen(start)) == 0, "message \"%s\" does not start with \"%s\"", m, start);
}

/* ---- linear and host memory ------------------------------------------- */

START_TEST(malloc_variants)
{
	aclrtMallocAttribute va = { ACL_RT_MEM_ATTR_VA_FLAG, { .vaFlag = 1 } };
	aclrtMallocAttribute other = { ACL_RT_MEM_ATTR_DEVICE_ID, { .deviceId = 1 } };
	aclrtMallocAttribute mine = { ACL_RT_MEM_ATTR_DEVICE_ID, { .deviceId = 0 } };
	aclrtMallocConfig empty = { NULL, 0 }, cfg_va = { &va, 1 }, cfg_other = { &other, 1 },
			  cfg_mine = { &mine, 1 };
	struct vm_alloc a;
	void *p = NULL;

	/* aclrtMallocCached: an unlisted policy is the default memory */
	ck_assert_int_eq(aclrtMallocCached(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY_P2P), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_alloc_find(0, (uintptr_t)p, &a), 1);
	ck_assert_uint_eq(a.footprint, 160);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	/* a padded size above 2^50: the runtime's cap; at 2^50 the driver's no memory */
	p = NULL;
	ck_assert_int_eq(aclrtMallocCached(&p, (1ULL << 50) - 31, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMallocCached(&p, (1ULL << 50) - 32, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_null(p);

	/* aclrtMallocWithCfg: rounded to 32 bytes, no pad */
	ck_assert_int_eq(aclrtMallocWithCfg(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg_mine), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_alloc_find(0, (uintptr_t)p, &a), 1);
	ck_assert_uint_eq(a.footprint, 128);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocForTaskScheduler(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY, NULL), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_alloc_find(0, (uintptr_t)p, &a), 1);
	ck_assert_uint_eq(a.footprint, 64);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);

	p = NULL;
	ck_assert_int_eq(aclrtMallocWithCfg(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY, &empty), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMallocWithCfg(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg_va), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMallocWithCfg(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg_other),
			 ACL_ERROR_RT_PARAM_INVALID);
	/* the ACL layer's checks stay first */
	ck_assert_int_eq(aclrtMallocWithCfg(&p, 0, ACL_MEM_MALLOC_NORMAL_ONLY, &empty), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(p);
}
END_TEST

static aclError free_with_sync(void *p)
{
	return aclrtFreeWithDevSync(p);
}

static aclError free_host_with_sync(void *p)
{
	return aclrtFreeHostWithDevSync(p);
}

static aclError malloc_host(void *pp)
{
	return aclrtMallocHost(pp, 64);
}

START_TEST(frees)
{
	void *p = vm_dev_alloc(4096), *h = NULL;
	int on_stack = 0;

	/* a refused free is the driver's invalid value, never 207002 */
	ck_assert_int_eq(aclrtFree(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree((char *)p + 64), ACL_ERROR_RT_PARAM_INVALID);
	/* the synchronize fails (no current device): returned, nothing freed */
	ck_assert_int_eq(without_device(free_with_sync, p), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtFreeWithDevSync(p), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);	/* twice */

	ck_assert_int_eq(without_device(malloc_host, &h), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_ptr_null(h);
	ck_assert_int_eq(aclrtMallocHost(&h, 64), ACL_SUCCESS);
	ck_assert_int_eq(without_device(free_host_with_sync, h), ACL_ERROR_RT_CONTEXT_NULL);
	memset(h, 0x5a, 64);	/* still allocated */
	ck_assert_int_eq(aclrtFreeHostWithDevSync(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFreeHost(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

START_TEST(malloc_host_with_cfg)
{
	aclrtMallocAttribute a[2] = { { ACL_RT_MEM_ATTR_MODULE_ID, { .moduleId = 1 } },
				      { ACL_RT_MEM_ATTR_VA_FLAG, { .vaFlag = 0 } } };
	aclrtMallocConfig good = { a, 2 }, none = { NULL, 0 };
	void *h = NULL;

	ck_assert_int_eq(aclrtMallocHostWithCfg(&h, 100, &none), ACL_ERROR_RT_PARAM_INVALID);
	a[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
	ck_assert_int_eq(aclrtMallocHostWithCfg(&h, 100, &good), ACL_ERROR_RT_PARAM_INVALID);
	a[1].attr = ACL_RT_MEM_ATTR_RSV;
	ck_assert_int_eq(aclrtMallocHostWithCfg(&h, 100, &good), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_ptr_null(h);
	a[1].attr = ACL_RT_MEM_ATTR_VA_FLAG;
	ck_assert_int_eq(aclrtMallocHostWithCfg(&h, 100, &good), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
}
END_TEST

START_TEST(mem_info_and_usage)
{
	aclrtMemUsageInfo u[6];
	size_t f = 1, t = 2, out = 9;

	ck_assert_int_eq(aclrtGetMemInfo((aclrtMemAttr)18, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	ck_assert_int_eq(aclrtGetMemInfo((aclrtMemAttr)-1, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	ck_assert_uint_eq(f, 1);
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, u, 0, &out), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(out, 0);
	out = 9;
	ck_assert_int_eq(aclrtGetMemUsageInfo(VM_DEFAULT_NUM_DEVICES, u, 6, &out), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, u, 6, &out), ACL_SUCCESS);
	ck_assert_uint_eq(out, 6);
}
END_TEST

/* A 1 GiB class on a product without 1 GiB pages: 207000. */
START_TEST(mem_info_1g_unsupported)
{
	size_t f = 1, t = 2;

	vm_mod_reload("profile=atlas-inference");
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM_HUGE1G, &f, &t), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_MEM_P2P_HUGE1G, &f, &t), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_uint_eq(f, 1);
	ck_assert_uint_eq(t, 2);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &f, &t), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	vm_mod_reload("");
}
END_TEST

/* ---- copies and sets -------------------------------------------------- */

START_TEST(memcpy2d_codes)
{
	char *d = vm_dev_alloc(M2), *e = vm_dev_alloc(M2), *h = malloc(M2), *h2 = malloc(M2);
	aclrtStream s;

	memset(h, 7, M2);
	ck_assert_int_eq(aclrtMemcpy2d(d, 8, h, 8, 8, 5242881, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy2d(d, 5000001, h, 5000001, 5000001, 1, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy2d(d, SIZE_MAX / 2, h, 8, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy2d(e, 64, d, 64, 64, 4, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemcpy2d(e, 64, d, 64, 64, 4, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy2d(h2, 64, h, 64, 64, 4, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy2d(d, 64, h, 64, 64, 4, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy2dAsync(h2, 64, h, 64, 64, 4, ACL_MEMCPY_DEFAULT, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsync(h2, 64, h, 64, ACL_MEMCPY_DEFAULT, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemcpy2dAsync(e, 64, d, 64, 64, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	memset(h2, 0, M2);
	ck_assert_int_eq(aclrtMemcpy(h2, 256, e, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(h2, h, 256), 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(e), ACL_SUCCESS);
	free(h);
	free(h2);
}
END_TEST

/*
 * The runtime corrects an explicit kind from where dst and src are (device,
 * aclrtMallocHost or pageable host memory) for aclrtMemcpyAsync,
 * aclrtMemcpy2d and aclrtMemcpy2dAsync; aclrtMemcpy keeps its 107000.
 */
START_TEST(memcpy_kind_corrected)
{
	char *d = vm_dev_alloc(M2), *e = vm_dev_alloc(M2), *h = malloc(4096), *back = malloc(4096);
	void *hp, *hp2;
	aclrtStream s;
	int i;

	ck_assert_int_eq(aclrtMallocHost(&hp, 4096), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost(&hp2, 4096), ACL_SUCCESS);
	for (i = 0; i < 4096; i++)
		((char *)hp)[i] = (char)(i * 7 + 1);
	memset(h, 0x5a, 4096);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);

	/* pinned host and device: the wrong kind is corrected, the bytes move */
	ck_assert_int_eq(aclrtMemcpyAsync(d, 256, hp, 256, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(e, 256, d, 256, ACL_MEMCPY_HOST_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(hp2, 256, e, 256, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(hp2, hp, 256), 0);
	/* pinned to pinned becomes HOST_TO_HOST: not on a stream */
	ck_assert_int_eq(aclrtMemcpyAsync(hp2, 256, hp, 256, ACL_MEMCPY_HOST_TO_DEVICE, s),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* pageable host: DEFAULT resolves, a kind outside the allowed set is 107000 */
	ck_assert_int_eq(aclrtMemcpyAsync(d, 256, h, 256, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsync(h, 256, d, 256, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsync(d, 256, h, 256, ACL_MEMCPY_DEFAULT, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(back, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, h, 256), 0);
	/* aclrtMemcpy (sync): the kind goes to the driver unchanged, refused */
	ck_assert_int_eq(aclrtMemcpy(d, 256, hp, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);

	/* aclrtMemcpy2d: corrected, then it must be H2D or D2H */
	ck_assert_int_eq(aclrtMemcpy2d(d, 64, hp, 64, 64, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	memset(hp2, 0, 4096);
	ck_assert_int_eq(aclrtMemcpy2d(hp2, 64, d, 64, 64, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(hp2, hp, 256), 0);
	ck_assert_int_eq(aclrtMemcpy2d(e, 64, d, 64, 64, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy2d(hp2, 64, hp, 64, 64, 4, ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy2d(d, 64, h, 64, 64, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
	/* aclrtMemcpy2dAsync: device to device by location, whatever the kind */
	ck_assert_int_eq(aclrtMemcpy(e, 256, h, 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy2dAsync(e, 64, d, 64, 64, 4, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(back, 256, e, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, hp, 256), 0);

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(hp), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(hp2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(e), ACL_SUCCESS);
	free(h);
	free(back);
}
END_TEST

/* aclrtMemsetD32(Async) in a thread without a current device. */
struct d32_call {
	void *ptr;
	aclrtStream stream;
	int async;
};

static aclError d32_no_dev(void *p)
{
	struct d32_call *c = p;

	return c->async ? aclrtMemsetD32Async(c->ptr, 64, 7, 16, c->stream) : aclrtMemsetD32(c->ptr, 64, 7, 16);
}

/*
 * The ACL layer checks the memory kind (it asks the driver: no current
 * device needed) before the runtime checks its context; the async call's
 * stream guard comes between them, for host memory too.
 */
START_TEST(memset_d32_check_order)
{
	uint32_t *d = vm_dev_alloc(4096), *plain = malloc(64), *pinned = NULL;
	struct d32_call c = { 0 };
	aclrtStream dead;

	ck_assert_int_eq(aclrtMallocHost((void **)&pinned, 64), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);
	plain[0] = 9;
	pinned[0] = 9;
	for (c.async = 0; c.async < 2; c.async++) {
		c.stream = NULL;
		c.ptr = plain;
		ck_assert_int_eq(without_device(d32_no_dev, &c), ACL_ERROR_INVALID_PARAM);
		c.ptr = d;
		ck_assert_int_eq(without_device(d32_no_dev, &c), ACL_ERROR_RT_CONTEXT_NULL);
		c.ptr = pinned;
		ck_assert_int_eq(without_device(d32_no_dev, &c), ACL_ERROR_RT_CONTEXT_NULL);
	}
	c.async = 1;
	c.stream = dead;
	c.ptr = plain;
	ck_assert_int_eq(without_device(d32_no_dev, &c), ACL_ERROR_INVALID_PARAM);
	c.ptr = pinned;
	ck_assert_int_eq(without_device(d32_no_dev, &c), ACL_ERROR_RT_INVALID_HANDLE);
	c.ptr = d;
	ck_assert_int_eq(without_device(d32_no_dev, &c), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMemsetD32Async(pinned, 64, 7, 16, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_uint_eq(plain[0], 9);
	ck_assert_uint_eq(pinned[0], 9);
	/* with a device: pinned memory is set at once, the stream's context not looked at */
	ck_assert_int_eq(aclrtMemsetD32Async(pinned, 64, 7, 16, NULL), ACL_SUCCESS);
	ck_assert_uint_eq(pinned[15], 7);
	ck_assert_int_eq(aclrtFreeHost(pinned), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	free(plain);
}
END_TEST

START_TEST(memset_d32_codes)
{
	uint32_t *d = vm_dev_alloc(4096), *plain = malloc(64), *pinned = NULL, w = 0;

	ck_assert_int_eq(aclrtMallocHost((void **)&pinned, 64), ACL_SUCCESS);
	plain[0] = 9;
	ck_assert_int_eq(aclrtMemsetD32((char *)d + 2, 4094, 0x01020304, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32(d, 15, 0x01020304, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32(plain, 64, 0x01020304, 16), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32(plain, 64, 0x05050505, 16), ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(plain[0], 9);
	ck_assert_int_eq(aclrtMemsetD32(pinned, 64, 0x01020304, 16), ACL_SUCCESS);
	ck_assert_uint_eq(pinned[15], 0x01020304);
	ck_assert_int_eq(aclrtMemsetD32(d, 4096, 0xa1b2c3d4, 1024), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(&w, 4, d + 1023, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_uint_eq(w, 0xa1b2c3d4);
	ck_assert_int_eq(aclrtFreeHost(pinned), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	free(plain);
}
END_TEST

/* ---- virtual memory and sharing --------------------------------------- */

static aclrtPhysicalMemProp dev_prop(uint32_t dev)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.memAttr = ACL_MEM_NORMAL;	/* 4 KiB pages: no hugetlb pool needed */
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = dev;
	return p;
}

START_TEST(vmm_codes)
{
	aclrtPhysicalMemProp p = dev_prop(0);
	aclrtDrvMemHandle h = NULL, forged = (aclrtDrvMemHandle)(uintptr_t)0x1234;
	aclrtMemAccessDesc desc;
	aclrtMemLocation loc;
	uint64_t flag;
	size_t g = 0;
	void *va = NULL, *outside = malloc(64);
	int on_stack;

	ck_assert_int_eq(aclrtReserveMemAddress(&va, M2 + 4096, 0, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReserveMemAddress(&va, M2, 0, (void *)(uintptr_t)4096, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtReserveMemAddress(&va, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReserveMemAddress(&va, 2 * M2, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(&on_stack), ACL_ERROR_RT_PARAM_INVALID);

	/* aclrtMallocPhysical */
	p.location.id = VM_DEFAULT_NUM_DEVICES;
	ck_assert_int_eq(aclrtMallocPhysical(&h, M2, &p, 0), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	p.location.id = 0;
	ck_assert_int_eq(aclrtMallocPhysical(&h, M2 + 4096, &p, 0), ACL_ERROR_RT_PARAM_INVALID);
	p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	p.memAttr = ACL_HBM_MEM_HUGE;
	ck_assert_int_eq(aclrtMallocPhysical(&h, M2, &p, 0), ACL_ERROR_RT_PARAM_INVALID);	/* HBM on the host */
	p.memAttr = ACL_MEM_NORMAL;
	p.location.type = (aclrtMemLocationType)9;
	ck_assert_int_eq(aclrtMallocPhysical(&h, M2, &p, 0), ACL_ERROR_RT_PARAM_INVALID);
	p.location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
	ck_assert_int_eq(aclrtMallocPhysical(&h, M2, &p, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(h);
	/* granularity reads neither handleType nor allocationType */
	p = dev_prop(0);
	p.handleType = (aclrtMemHandleType)5;
	p.allocationType = (aclrtMemAllocationType)3;
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_SUCCESS);
	ck_assert_uint_eq(g, M2);
	ck_assert_int_eq(aclrtMallocPhysical(&h, M2, &p, 0), ACL_ERROR_INVALID_PARAM);
	p = dev_prop(0);
	ck_assert_int_eq(aclrtMallocPhysical(&h, M2, &p, 0), ACL_SUCCESS);

	/* handles and maps */
	ck_assert_int_eq(aclrtFreePhysical(forged), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMapMem(va, M2, 4096, h, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMapMem((char *)va + 4096, M2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMapMem(va, M2, 0, forged, 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMapMem((void *)(uintptr_t)(2 * M2), M2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMapMem(va, M2, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtUnmapMem(outside), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemGetAccess(outside, &loc, &flag), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMapMem(va, M2, 0, h, 0), ACL_SUCCESS);

	memset(&desc, 0, sizeof(desc));
	desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	ck_assert_int_eq(aclrtMemSetAccess(NULL, M2, &desc, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemSetAccess(va, M2, NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemSetAccess(va, 0, &desc, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemSetAccess(va, M2, &desc, 0), ACL_ERROR_RT_PARAM_INVALID);
	desc.flags = 7;
	ck_assert_int_eq(aclrtMemSetAccess(va, M2, &desc, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemGetAccess(va, &loc, &flag), ACL_SUCCESS);
	ck_assert_uint_eq(flag, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);

	ck_assert_int_eq(aclrtUnmapMem(va), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtReleaseMemAddress(va), ACL_SUCCESS);
	free(outside);
}
END_TEST

START_TEST(share_codes)
{
	aclrtPhysicalMemProp p = dev_prop(0);
	aclrtDrvMemHandle h = NULL, got = NULL;
	uint64_t key = 0;
	int32_t pids[2] = { 1, 0 };

	ck_assert_int_eq(aclrtMallocPhysical(&h, M2, &p, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 2, &key),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemExportToShareableHandle(NULL, (aclrtMemHandleType)1, 2, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemExportToShareableHandle((aclrtDrvMemHandle)(uintptr_t)0x99, ACL_MEM_HANDLE_TYPE_NONE,
							 0, &key), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_uint_eq(key, 0);
	ck_assert_int_eq(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &key), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandle(0, pids, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandle(key, pids, 2), ACL_ERROR_RT_PARAM_INVALID);	/* pid 0 */
	ck_assert_int_eq(aclrtMemSetPidToShareableHandle(key, pids, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemImportFromShareableHandle(key, VM_DEFAULT_NUM_DEVICES, &got),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtMemImportFromShareableHandle(0, 0, &got), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_ptr_null(got);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandle(key, pids, 1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
}
END_TEST

/* ---- managed memory, host registration, peers -------------------------- */

START_TEST(managed_codes)
{
	aclrtMemManagedLocation dev9 = { ACL_MEM_LOCATIONTYPE_DEVICE, VM_DEFAULT_NUM_DEVICES };
	aclrtMemManagedLocation host = { ACL_MEM_LOCATIONTYPE_HOST, 0 };
	aclrtStream s;
	int32_t v = 5;
	char small;
	void *m = NULL;

	ck_assert_int_eq(aclrtMemAllocManaged(&m, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemAllocManaged(&m, 0, 7), ACL_ERROR_INVALID_PARAM);	/* flag first */
	ck_assert_int_eq(aclrtMemAllocManaged(&m, 2 * M2, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemManagedAdvise(m, M2, (aclrtMemManagedAdviseType)6, host), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedAdvise(m, M2, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev9),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedAdvise(m, 4096, ACL_MEM_ADVISE_SET_READ_MOSTLY, host),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedAdvise(m, 0, ACL_MEM_ADVISE_SET_READ_MOSTLY, host), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemManagedPrefetchAsync(m, M2, dev9, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedPrefetchAsync(m, 4096, host, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedPrefetchAsync(m, M2, host, 1, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)99, m, M2, &v, sizeof(v)),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, M2, &small, 1),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, &v, 4, &v, sizeof(v)),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, M2, &v, sizeof(v)),
			 ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(m), ACL_SUCCESS);
}
END_TEST

static aclError get_dev_ptr(void *p)
{
	void *d = NULL;

	return aclrtHostGetDevicePointer(p, &d, 0);
}

START_TEST(host_register_codes)
{
	char *buf = aligned_alloc(4096, 8192), *back = malloc(64);
	void *dev = NULL, *d2 = NULL;

	memset(buf, 0x11, 8192);
	ck_assert_int_eq(aclrtHostRegister(buf, 4096, (aclrtHostRegisterType)0x10, &dev),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtHostRegisterV2(buf, 4096, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtHostRegisterV2(buf, 4096, 0x1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf, &d2, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(without_device(get_dev_ptr, buf), ACL_ERROR_RT_CONTEXT_NULL);
	/* IOMEMORY | READONLY is accepted: read-only for the device */
	ck_assert_int_eq(aclrtHostRegister(buf, 4096,
					   (aclrtHostRegisterType)(ACL_HOST_REGISTER_IOMEMORY |
								   ACL_HOST_REGISTER_READONLY), &dev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(back, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(back[63], 0x11);
	ck_assert_int_eq(aclrtMemset(dev, 64, 0, 64), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_int_eq(buf[0], 0x11);
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_SUCCESS);
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	free(buf);
	free(back);
}
END_TEST

START_TEST(peer_and_device_codes)
{
	int32_t can = 7;

	ck_assert_int_eq(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, 64, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, -1, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, 0, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, 0, VM_DEFAULT_NUM_DEVICES), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(can, 7);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_SUCCESS);
	ck_assert_int_eq(can, 1);

	/* a reset of a device this process does not hold: no reference to release */
	ck_assert_int_eq(aclrtResetDevice(1), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
	ck_assert_int_eq(aclrtResetDeviceForce(1), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);	/* the fixture's device stays current */
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
}
END_TEST

START_TEST(context_codes)
{
	aclrtContext def = NULL, c = NULL;

	ck_assert_int_eq(aclrtGetCurrentContext(&def), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(def), ACL_ERROR_RT_CONTEXT_NULL);	/* the default context */
	ck_assert_int_eq(aclrtCreateContext(&c, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyContext(c), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSetCurrentContext(def), ACL_SUCCESS);
}
END_TEST

/* ---- streams, events, values ------------------------------------------ */

START_TEST(handle_guard)
{
	aclrtStream s, dead_s;
	aclrtEvent e, dead_e;
	aclrtStreamStatus st;
	char *d = vm_dev_alloc(4096), h[64] = { 0 };

	ck_assert_int_eq(aclrtCreateStream(&dead_s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead_s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&dead_e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(dead_e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);

	ck_assert_int_eq(aclrtSynchronizeStream(dead_s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtStreamQuery(dead_s, &st), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStream(dead_s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStreamForce(dead_s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMemcpyAsync(d, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, dead_s),
			 ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSynchronizeStream((aclrtStream)e), ACL_ERROR_RT_INVALID_HANDLE);	/* an event */
	ck_assert_int_eq(aclrtDestroyEvent(dead_e), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSynchronizeEvent((aclrtEvent)s), ACL_ERROR_RT_INVALID_HANDLE);	/* a stream */
	ck_assert_int_eq(aclrtRecordEvent(dead_e, s), ACL_ERROR_RT_INVALID_HANDLE);

	/* a wait guards the stream first, a record the event first */
	(void)aclGetRecentErrMsg();
	ck_assert_int_eq(aclrtStreamWaitEvent(dead_s, dead_e), ACL_ERROR_RT_INVALID_HANDLE);
	assert_msg_starts("aclrtStreamWaitEvent: stream ");
	ck_assert_int_eq(aclrtRecordEvent(dead_e, dead_s), ACL_ERROR_RT_INVALID_HANDLE);
	assert_msg_starts("aclrtRecordEvent: event ");
	ck_assert_int_eq(aclrtStreamWaitEvent(dead_s, NULL), ACL_ERROR_INVALID_PARAM);

	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

START_TEST(stream_config_and_timeouts)
{
	aclrtStream s, dead;

	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 100, 0), ACL_SUCCESS);	/* clamped to 7 */
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 0x80000000U, 0x40), ACL_SUCCESS);	/* 0, bit dropped */
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 0, 0x20), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCreateStreamWithConfig(NULL, 0, 0x20), ACL_ERROR_INVALID_PARAM);

	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, -2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(dead, 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(dead, -2), ACL_ERROR_RT_PARAM_INVALID);	/* ACL first */
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s, 1000), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(event_codes)
{
	aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
	aclrtEvent a, b, c;
	aclrtStream s;
	float ms = 1.0f;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtQueryEventStatus(a, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);	/* never recorded */
	ck_assert_int_eq(aclrtSynchronizeEvent(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);

	/* b recorded, a recorded later: a plain negative difference */
	ck_assert_int_eq(aclrtRecordEvent(b, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtRecordEvent(a, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtQueryEventStatus(a, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
	ck_assert(ms <= 0.0f);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, b, a), ACL_SUCCESS);
	ck_assert(ms >= 0.0f);

	/* recorded, not reached: no timestamp yet */
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtRecordEvent(b, s), ACL_SUCCESS);
	ms = 1.0f;
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
	ck_assert(ms == 1.0f);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
	ck_assert(ms >= 0.0f);

	/* events of two devices: no check (Event::ElapsedTime), one clock */
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(c, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, b, c), ACL_SUCCESS);
	ck_assert(ms >= 0.0f);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, c, b), ACL_SUCCESS);
	ck_assert(ms <= 0.0f);
	ck_assert_int_eq(aclrtDestroyEvent(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyEvent(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(value_codes)
{
	char *d = vm_dev_alloc(4096);
	aclrtStream s, dead;
	uint64_t v = 1;

	ck_assert_int_eq(aclrtCreateStream(&dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(dead), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(NULL, 1, 1, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtValueWrite(d, 1, 1, dead), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtValueWrite(d, 1, 1, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWait(d, 1, 4, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWrite(d + 4, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWait(d + 4, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtValueWrite(d, 5, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(&v, 8, d, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

static void noop_fn(void *arg)
{
	(void)arg;
}

/*
 * Every call whose ApiImpl checks "stream is not in current context" answers
 * 107003 for a stream of another context, of the same device or another;
 * the calls without that check (synchronize, query) take it.
 */
START_TEST(stream_context_codes)
{
	char *d = vm_dev_alloc(4096), h[64] = { 0 };
	aclrtStreamAttrValue v = { 0 };
	aclrtContext def = NULL, c2 = NULL;
	aclrtStreamStatus st;
	aclrtStream s, s1;
	aclrtEvent e;

	ck_assert_int_eq(aclrtGetCurrentContext(&def), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateContext(&c2, 0), ACL_SUCCESS);	/* current now */

	ck_assert_int_eq(aclrtRecordEvent(e, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtStreamWaitEvent(s, e), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtResetEvent(e, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtMemcpyAsync(d, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtMemcpy2dAsync(d, 64, h, 64, 64, 1, ACL_MEMCPY_HOST_TO_DEVICE, s),
			 ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtMemsetAsync(d, 64, 0, 64, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtMemsetD32Async(d, 64, 1, 4, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtValueWrite(d, 1, 0, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtValueWait(d, 1, 0, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtReduceAsync(d, d + 64, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL),
			 ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtCmoAsync(d, 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtLaunchHostFunc(s, noop_fn, NULL), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtLaunchCallback(noop_fn, NULL, ACL_CALLBACK_NO_BLOCK, s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtStreamAbort(s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtStreamStop(s), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v),
			 ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CONTEXT);
	/* the value check of the runtime's error layer comes first */
	ck_assert_int_eq(aclrtValueWrite(d, 1, 1, s), ACL_ERROR_RT_PARAM_INVALID);
	/* no context check: these take it */
	ck_assert_int_eq(aclrtStreamQuery(s, &st), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
	/* NULL: the current context's default stream */
	ck_assert_int_eq(aclrtMemsetAsync(d, 64, 0, 64, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_SUCCESS);

	/* back in the stream's context: all of it works */
	ck_assert_int_eq(aclrtSetCurrentContext(def), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(d, 64, 0, 64, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);

	/* a stream of another device */
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(d, 64, 0, 64, s1), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtRecordEvent(e, s1), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_ERROR_RT_STREAM_CONTEXT);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyContext(c2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetCurrentContext(def), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

/* threadId 0: the runtime finds the stream in its stream map first (107011), then not in the thread's (107012). */
START_TEST(unsubscribe_thread_zero)
{
	uint64_t self = (uint64_t)pthread_self();
	aclrtStream s;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnSubscribeReport(0, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtSubscribeReport(self, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnSubscribeReport(0, s), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(aclrtUnSubscribeReport(self, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnSubscribeReport(0, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(ipc_import_flags_first)
{
	void *p = NULL;

	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, "not-a-key", 2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, "not-a-key", 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtIpcMemImportByKey(&p, NULL, 2), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(p);
}
END_TEST

static Suite *fidelity_suite(void)
{
	Suite *s = suite_create("fidelity");
	TCase *t = tcase_create("codes");
	TCase *p = tcase_create("profile");

	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(t, VM_TIMEOUT);
	tcase_add_test(t, malloc_variants);
	tcase_add_test(t, frees);
	tcase_add_test(t, malloc_host_with_cfg);
	tcase_add_test(t, mem_info_and_usage);
	tcase_add_test(t, memcpy2d_codes);
	tcase_add_test(t, memcpy_kind_corrected);
	tcase_add_test(t, memset_d32_codes);
	tcase_add_test(t, memset_d32_check_order);
	tcase_add_test(t, vmm_codes);
	tcase_add_test(t, share_codes);
	tcase_add_test(t, managed_codes);
	tcase_add_test(t, host_register_codes);
	tcase_add_test(t, peer_and_device_codes);
	tcase_add_test(t, context_codes);
	tcase_add_test(t, handle_guard);
	tcase_add_test(t, stream_config_and_timeouts);
	tcase_add_test(t, event_codes);
	tcase_add_test(t, value_codes);
	tcase_add_test(t, ipc_import_flags_first);
	tcase_add_test(t, stream_context_codes);
	tcase_add_test(t, unsubscribe_thread_zero);
	suite_add_tcase(s, t);

	tcase_add_checked_fixture(p, vm_mod_setup, NULL);
	tcase_set_timeout(p, VM_TIMEOUT);
	tcase_add_test(p, mem_info_1g_unsupported);
	suite_add_tcase(s, p);
	return s;
}

int main(void)
{
	return vm_run_suite(fidelity_suite());
}
