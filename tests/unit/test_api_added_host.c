/*
 * Unit tests of the calls added for issue 9 that need no npu_sim module:
 * aclrtGetVersion, aclFinalizeReference, and the argument checks of the
 * Force calls, aclrtMemsetD32, aclrtMemcpyBatch, aclrtCheckMemType,
 * aclrtMemFlush/Invalidate, the host-memory variants, the V2 share calls,
 * aclrtReserveMemAddressNoUCMemory and aclrtMemManagedPrefetchBatchAsync.
 * Exact codes; out-parameters untouched on failure.  Checks whose result
 * depends on a loaded module are skipped when /dev/npu_sim0 exists.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "unit_run.h"

#define SENTINEL ((void *)0x5a5a5a5a)

static int module_present(void)
{
	return access("/dev/npu_sim0", F_OK) == 0;
}

START_TEST(version)
{
	int32_t ma = -1, mi = -1, pa = -1;

	ck_assert_int_eq(aclrtGetVersion(NULL, &mi, &pa), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetVersion(&ma, NULL, &pa), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetVersion(&ma, &mi, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(ma, -1);
	ck_assert_int_eq(aclrtGetVersion(&ma, &mi, &pa), ACL_SUCCESS);
	ck_assert_int_eq(ma, 1);
	ck_assert_int_eq(mi, 17);
	ck_assert_int_eq(pa, 0);
	ck_assert_str_eq(aclGetRecentErrMsg(), "aclrtGetVersion: patchVersion is NULL (error 100000 "
					       "ACL_ERROR_INVALID_PARAM)\naclrtGetVersion: minorVersion is NULL "
					       "(error 100000 ACL_ERROR_INVALID_PARAM)\naclrtGetVersion: "
					       "majorVersion is NULL (error 100000 ACL_ERROR_INVALID_PARAM)");
}
END_TEST

START_TEST(finalize_reference)
{
	uint64_t refs = 99;

	ck_assert_int_eq(aclFinalizeReference(&refs), ACL_ERROR_REPEAT_FINALIZE);
	ck_assert_uint_eq(refs, 99);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
	ck_assert_int_eq(aclInit("/nonexistent"), ACL_ERROR_REPEAT_INITIALIZE);
	ck_assert_int_eq(aclFinalizeReference(&refs), ACL_SUCCESS);
	ck_assert_uint_eq(refs, 2);
	ck_assert_int_eq(aclFinalizeReference(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);	/* still initialized */
	ck_assert_int_eq(aclFinalizeReference(&refs), ACL_SUCCESS);
	ck_assert_uint_eq(refs, 1);
	ck_assert_int_eq(aclFinalizeReference(&refs), ACL_SUCCESS);
	ck_assert_uint_eq(refs, 0);
	ck_assert_int_eq(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);	/* finalized */
	ck_assert_int_eq(aclFinalizeReference(&refs), ACL_ERROR_REPEAT_FINALIZE);
	/* aclFinalize drops every reference at once */
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalizeReference(&refs), ACL_ERROR_REPEAT_FINALIZE);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalizeReference(&refs), ACL_SUCCESS);
	ck_assert_uint_eq(refs, 0);
}
END_TEST

START_TEST(force_calls)
{
	char buf[16];

	ck_assert_int_eq(aclrtResetDeviceForce(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtResetDeviceForce(64), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtResetDeviceForce(3), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);	/* not set */
	ck_assert_int_eq(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDestroyStreamForce(buf), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtDestroyStreamForce: stream is not a live stream of this process (destroyed, or its "
			 "device was reset) (error 107017 ACL_ERROR_RT_INVALID_HANDLE)\n"
			 "aclrtDestroyStreamForce: stream is NULL (the default stream goes with its context) "
			 "(error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtResetDeviceForce: device 3 is not set in this process (never set, or already reset) "
			 "(error 507007 ACL_ERROR_RT_CONTEXT_RELEASE_ERROR)\n"
			 "aclrtResetDeviceForce: deviceId 64 is out of range 0..63 "
			 "(error 107001 ACL_ERROR_RT_INVALID_DEVICEID)\n"
			 "aclrtResetDeviceForce: deviceId -1 is out of range 0..63 "
			 "(error 107001 ACL_ERROR_RT_INVALID_DEVICEID)");
}
END_TEST

START_TEST(memset_d32_checks)
{
	uint32_t w[4] = { 7, 7, 7, 7 };

	ck_assert_int_eq(aclrtMemsetD32(NULL, 0, 1, 0), ACL_SUCCESS);	/* N 0 first */
	ck_assert_int_eq(aclrtMemsetD32(NULL, 16, 1, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32(w, SIZE_MAX, 1, SIZE_MAX / 2), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32(w, 15, 0x01020304, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32((char *)w + 2, 16, 0x01020304, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_str_eq(aclGetRecentErrMsg(), "aclrtMemsetD32: ptr is not 4-byte aligned "
					       "(error 100000 ACL_ERROR_INVALID_PARAM)\n"
					       "aclrtMemsetD32: N 4 words are more than memSize 15 bytes "
					       "(error 100000 ACL_ERROR_INVALID_PARAM)\n"
					       "aclrtMemsetD32: N 9223372036854775807 words are more than memSize "
					       "18446744073709551615 bytes (error 100000 ACL_ERROR_INVALID_PARAM)\n"
					       "aclrtMemsetD32: ptr is NULL (error 100000 ACL_ERROR_INVALID_PARAM)");
	if (!module_present()) {
		/* the memory kind (plain memory) before the context */
		ck_assert_int_eq(aclrtMemsetD32(w, 16, 0x01020304, 4), ACL_ERROR_INVALID_PARAM);
		ck_assert_int_eq(aclrtMemsetD32(w, 16, 0x05050505, 4), ACL_ERROR_INVALID_PARAM);
	}
	ck_assert_uint_eq(w[0], 7);
	ck_assert_uint_eq(w[3], 7);
}
END_TEST

START_TEST(memcpy_batch_checks)
{
	char a[8] = "abcdefg", b[8] = { 0 };
	void *dsts[2] = { b, b }, *srcs[2] = { a, a };
	size_t max[2] = { 8, 8 }, sizes[2] = { 8, 8 }, idx[2] = { 0, 1 }, bad_idx[2] = { 1, 1 };
	size_t fail = 77;
	aclrtMemcpyBatchAttr attrs[3];	/* numAttrs 3 below: the ACL layer reads 3 */

	memset(attrs, 0, sizeof(attrs));
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, attrs, idx, 2, NULL), ACL_ERROR_INVALID_PARAM);
	/* the ACL layer's checks leave failIndex alone */
	ck_assert_int_eq(aclrtMemcpyBatch(NULL, max, srcs, sizes, 2, attrs, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(fail, 77);
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 0, attrs, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
	/* the attribute indexes are the runtime's (107000), failIndex SIZE_MAX */
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, attrs, idx, 3, &fail), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, SIZE_MAX);
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, attrs, idx, 0, &fail), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, attrs, bad_idx, 2, &fail),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, SIZE_MAX);
	if (!module_present()) {
		ck_assert_int_eq(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, attrs, idx, 2, &fail),
				 ACL_ERROR_RT_CONTEXT_NULL);
		ck_assert_uint_eq(fail, SIZE_MAX);
	}
	ck_assert_int_eq(b[0], 0);
}
END_TEST

START_TEST(check_mem_type_checks)
{
	char x;
	void *list[1] = { &x };
	uint32_t r = 5;

	ck_assert_int_eq(aclrtCheckMemType(NULL, 1, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCheckMemType(list, 0, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &r, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCheckMemType(list, 1, 0, &r, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCheckMemType(list, 1, 0x4, &r, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(r, 5);
	/* host memory is of no device type */
	ck_assert_int_eq(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD,
					   &r, 0), ACL_SUCCESS);
	ck_assert_uint_eq(r, 0);
}
END_TEST

START_TEST(cache_and_host_variants)
{
	char x[64];
	void *p = SENTINEL;
	aclrtMallocConfig bad = { NULL, 2 };
	aclrtMallocAttribute unknown = { (aclrtMallocAttrType)9, { .deviceId = 0 } };
	aclrtMallocConfig bad_type = { &unknown, 1 };
	aclrtMallocAttribute va = { ACL_RT_MEM_ATTR_VA_FLAG, { .vaFlag = 1 } };
	aclrtMallocConfig good = { &va, 1 };

	ck_assert_int_eq(aclrtMemFlush(NULL, 64), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemFlush(x, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemInvalidate((void *)UINTPTR_MAX, 2), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemFlush(x, sizeof(x)), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemInvalidate(x, sizeof(x)), ACL_SUCCESS);

	/* the runtime's cfg checks (107000) come before its context check */
	ck_assert_int_eq(aclrtMallocHostWithCfg(&p, 64, &bad), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMallocHostWithCfg(&p, 64, &bad_type), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMallocHostWithCfg(NULL, 64, &bad), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocHostWithCfg(&p, 0, &bad), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocHostWithCfg(&p, 100, &good), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_ptr_eq(p, SENTINEL);
	ck_assert_int_eq(aclrtFreeHostWithDevSync(NULL), ACL_ERROR_INVALID_PARAM);
	/* no device: the synchronize fails first and nothing is freed */
	ck_assert_int_eq(aclrtFreeHostWithDevSync(x), ACL_ERROR_RT_CONTEXT_NULL);

	ck_assert_int_eq(aclrtMallocForTaskScheduler(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocForTaskScheduler(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocForTaskScheduler(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &bad),
			 ACL_ERROR_INVALID_PARAM);
	if (!module_present())
		ck_assert_int_eq(aclrtMallocForTaskScheduler(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL),
				 ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

START_TEST(share_v2_checks)
{
	uint64_t key = 0x1234;
	aclrtMemFabricHandle fabric;
	aclrtDrvMemHandle h = SENTINEL;
	int32_t pid = getpid();

	memset(&fabric, 0, sizeof(fabric));
	ck_assert_int_eq(aclrtMemExportToShareableHandleV2(SENTINEL, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemExportToShareableHandleV2(SENTINEL, 0, (aclrtMemSharedHandleType)3, &key),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemExportToShareableHandleV2(NULL, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &key),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(key, 0x1234);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandleV2(NULL, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 1),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandleV2(&key, (aclrtMemSharedHandleType)0, &pid, 1),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, NULL, 1),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemSetPidToShareableHandleV2(&fabric, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &pid, 1),
			 ACL_ERROR_RT_PARAM_INVALID);	/* key 0: the driver's refusal */
	ck_assert_int_eq(aclrtMemImportFromShareableHandleV2(NULL, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemImportFromShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemImportFromShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 1, &h),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemImportFromShareableHandleV2(&key, (aclrtMemSharedHandleType)7, 0, &h),
			 ACL_ERROR_INVALID_PARAM);
	fabric.data[100] = 1;	/* not a handle npu_sim made */
	ck_assert_int_eq(aclrtMemImportFromShareableHandleV2(&fabric, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &h),
			 ACL_ERROR_RT_INVALID_HANDLE);
	if (!module_present())
		ck_assert_int_eq(aclrtMemImportFromShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h),
				 ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_ptr_eq(h, SENTINEL);
}
END_TEST

START_TEST(noucmem_and_prefetch_batch_checks)
{
	void *v = SENTINEL;
	const void *ptrs[2] = { (void *)(uintptr_t)(2 << 20), (void *)(uintptr_t)(4 << 20) };
	size_t sizes[2] = { 2 << 20, 2 << 20 }, idx[2] = { 0, 1 }, bad_idx[2] = { 0, 2 };
	aclrtMemManagedLocation locs[2] = { { ACL_MEM_LOCATIONTYPE_HOST, 0 }, { ACL_MEM_LOCATIONTYPE_HOST, 0 } };

	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(&v, 0, 0, (void *)(1ULL << 40), 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(&v, 2 << 20, 0, (void *)(1ULL << 40), 0),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(&v, 1ULL << 30, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(&v, 1ULL << 30, 0, (void *)((1ULL << 40) + 4096), 0),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtReserveMemAddressNoUCMemory(NULL, 1ULL << 30, 0, (void *)(1ULL << 40), 0),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_eq(v, SENTINEL);

	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(NULL, sizes, 2, locs, idx, 2, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 0, locs, idx, 2, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 1, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 3, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, bad_idx, 2, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	/* host addresses are not managed memory (the driver's refusal) */
	ck_assert_int_eq(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("api_added_host");
	TCase *t = tcase_create("core");

	tcase_add_test(t, version);
	tcase_add_test(t, finalize_reference);
	tcase_add_test(t, force_calls);
	tcase_add_test(t, memset_d32_checks);
	tcase_add_test(t, memcpy_batch_checks);
	tcase_add_test(t, check_mem_type_checks);
	tcase_add_test(t, cache_and_host_variants);
	tcase_add_test(t, share_v2_checks);
	tcase_add_test(t, noucmem_and_prefetch_batch_checks);
	suite_add_tcase(s, t);
	if (module_present())	/* the tests leave out their ACL_ERROR_RT_CONTEXT_NULL checks */
		printf("SKIPPED: test_api_added_host no-device checks: /dev/npu_sim0 exists\n");
	return unit_run(s);
}
