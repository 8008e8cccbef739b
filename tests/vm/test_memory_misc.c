// SPDX-License-Identifier: GPL-2.0
/*
 * The memory odds and ends of issue 24: aclrtIpcMemSetAttr,
 * aclrtIpcMemImportPidInterServer, aclrtNotifySetImportPidInterServer,
 * aclrtHostMemMapCapabilities, aclrtMemMapSetLink / SelectedLink,
 * aclrtGetMemUceInfo / aclrtMemUceRepair, aclrtGetErrorVerbose /
 * aclrtRepairError: their answers on an npu_sim device (no fault, one
 * link, no SuperPod) and every bad-input code of docs/cann-api-notes.md 8,
 * each checked to change nothing.
 */
#include "vmtest.h"

#include <string.h>
#include <unistd.h>

#include <acl/acl.h>

#define KEYLEN 65

/* The device leaves the current thread: no current device after. */
static void drop_device0(void)
{
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
}

START_TEST(test_host_mem_map_capabilities)
{
	aclrtHostMemMapCapability cap;

	for (int t = ACL_RT_HAC_TYPE_STARS; t <= ACL_RT_HAC_TYPE_CCU; t++) {
		cap = (aclrtHostMemMapCapability)7;
		ck_assert_int_eq(aclrtHostMemMapCapabilities(0, (aclrtHacType)t, &cap), ACL_SUCCESS);
		ck_assert_int_eq(cap, t == ACL_RT_HAC_TYPE_SDMA ? ACL_RT_HOST_MEM_MAP_SUPPORTED :
				 ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED);
	}
	ck_assert_int_eq(aclrtHostMemMapCapabilities(1, ACL_RT_HAC_TYPE_SDMA, &cap), ACL_SUCCESS);
	ck_assert_int_eq(cap, ACL_RT_HOST_MEM_MAP_SUPPORTED);

	cap = (aclrtHostMemMapCapability)7;
	ck_assert_int_eq(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_SDMA, NULL), 100000);
	ck_assert_int_eq(aclrtHostMemMapCapabilities(2, ACL_RT_HAC_TYPE_SDMA, &cap), 107001);
	ck_assert_int_eq(aclrtHostMemMapCapabilities(UINT32_MAX, ACL_RT_HAC_TYPE_SDMA, &cap), 107001);
	ck_assert_int_eq(aclrtHostMemMapCapabilities(0, (aclrtHacType)10, &cap), 107000);
	ck_assert_int_eq(aclrtHostMemMapCapabilities(0, (aclrtHacType)-1, &cap), 107000);
	/* the order: the device id before the unit */
	ck_assert_int_eq(aclrtHostMemMapCapabilities(2, (aclrtHacType)10, &cap), 107001);
	ck_assert_int_eq(cap, 7);
	drop_device0();
	ck_assert_int_eq(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_SDMA, &cap), 107002);
	ck_assert_int_eq(cap, 7);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

START_TEST(test_mem_uce)
{
	aclrtMemUceInfo info[2];
	size_t n = 99;

	memset(info, 0xa5, sizeof(info));
	ck_assert_int_eq(aclrtGetMemUceInfo(0, info, 2, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(((unsigned char *)info)[0], 0xa5);	/* no record written */
	n = 99;
	ck_assert_int_eq(aclrtGetMemUceInfo(1, info, 0, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 0);

	n = 99;
	ck_assert_int_eq(aclrtGetMemUceInfo(0, NULL, 2, &n), 100000);
	ck_assert_int_eq(aclrtGetMemUceInfo(0, info, 2, NULL), 100000);
	ck_assert_int_eq(aclrtGetMemUceInfo(2, info, 2, &n), 107001);
	ck_assert_int_eq(aclrtGetMemUceInfo(-1, info, 2, &n), 107001);
	ck_assert_uint_eq(n, 99);

	memset(info, 0, sizeof(info));
	info[0].addr = vm_dev_alloc(4096);
	info[0].len = 4096;
	ck_assert_int_eq(aclrtMemUceRepair(0, info, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemUceRepair(0, info, 1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemUceRepair(0, NULL, 1), 100000);
	ck_assert_int_eq(aclrtMemUceRepair(0, info, 129), 100000);
	info[1].reserved[0] = 1;
	ck_assert_int_eq(aclrtMemUceRepair(0, info, 2), 100000);
	ck_assert_int_eq(aclrtMemUceRepair(2, info, 2), 100000);	/* reserved first */
	info[1].reserved[0] = 0;
	/* the ACL layer compares UCE_INFO_RESERVED_SIZE (14) bytes: byte 13 counts, byte 14 does not */
	((unsigned char *)info[1].reserved)[UCE_INFO_RESERVED_SIZE - 1] = 1;
	ck_assert_int_eq(aclrtMemUceRepair(0, info, 2), 100000);
	((unsigned char *)info[1].reserved)[UCE_INFO_RESERVED_SIZE - 1] = 0;
	info[1].reserved[UCE_INFO_RESERVED_SIZE - 1] = 1;
	ck_assert_int_eq(aclrtMemUceRepair(0, info, 2), ACL_SUCCESS);
	info[1].reserved[UCE_INFO_RESERVED_SIZE - 1] = 0;
	ck_assert_int_eq(aclrtMemUceRepair(2, info, 2), 107001);
	ck_assert_int_eq(aclrtFree(info[0].addr), ACL_SUCCESS);

	/* neither asks for a set device */
	drop_device0();
	n = 99;
	ck_assert_int_eq(aclrtGetMemUceInfo(0, info, 2, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(aclrtMemUceRepair(0, info, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

START_TEST(test_error_verbose_and_repair)
{
	aclrtErrorInfo e;

	memset(&e, 0x5a, sizeof(e));
	ck_assert_int_eq(aclrtGetErrorVerbose(0, &e), ACL_SUCCESS);
	ck_assert_uint_eq(e.tryRepair, 0);
	ck_assert_uint_eq(e.hasDetail, 0);
	ck_assert_int_eq(e.errorType, ACL_RT_NO_ERROR);
	ck_assert_int_eq(e.detail.aicoreErrType, ACL_RT_AICORE_ERROR_UNKNOWN);
	ck_assert_uint_eq(e.reserved[0], 0x5a);
	ck_assert_int_eq(aclrtGetErrorVerbose(1, &e), ACL_SUCCESS);
	ck_assert_int_eq(e.errorType, ACL_RT_NO_ERROR);

	memset(&e, 0x5a, sizeof(e));
	ck_assert_int_eq(aclrtGetErrorVerbose(0, NULL), 100000);
	ck_assert_int_eq(aclrtGetErrorVerbose(2, &e), 107001);
	ck_assert_int_eq(aclrtGetErrorVerbose(-1, &e), 107001);
	ck_assert_uint_eq(e.tryRepair, 0x5a);

	memset(&e, 0, sizeof(e));
	e.tryRepair = 1;
	e.errorType = ACL_RT_NO_ERROR;
	ck_assert_int_eq(aclrtRepairError(0, &e), ACL_SUCCESS);
	e.errorType = ACL_RT_ERROR_MEMORY;
	e.hasDetail = 1;
	ck_assert_int_eq(aclrtRepairError(0, &e), ACL_SUCCESS);
	e.errorType = ACL_RT_ERROR_LINK;
	ck_assert_int_eq(aclrtRepairError(0, &e), 107000);
	e.errorType = ACL_RT_ERROR_AICORE;
	ck_assert_int_eq(aclrtRepairError(0, &e), 107000);
	e.errorType = ACL_RT_NO_ERROR;
	ck_assert_int_eq(aclrtRepairError(0, NULL), 100000);
	ck_assert_int_eq(aclrtRepairError(2, &e), 107001);
	/* device 1 is not set in this process */
	ck_assert_int_eq(aclrtRepairError(1, &e), 507033);
	e.tryRepair = 0;
	ck_assert_int_eq(aclrtRepairError(0, &e), 107000);
	ck_assert_int_eq(aclrtRepairError(2, &e), 107000);	/* tryRepair first */

	/* the query needs no set device, the repair does */
	drop_device0();
	ck_assert_int_eq(aclrtGetErrorVerbose(0, &e), ACL_SUCCESS);
	ck_assert_int_eq(e.errorType, ACL_RT_NO_ERROR);
	e.tryRepair = 1;
	ck_assert_int_eq(aclrtRepairError(0, &e), 507033);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

START_TEST(test_ipc_mem_attr_and_inter_server)
{
	char key[KEYLEN];
	int32_t pid = getpid(), pid2 = 1;
	aclrtServerPid sp[2] = { { .sdid = 0, .pid = &pid, .num = 1 }, { .sdid = 0, .pid = &pid2, .num = 1 } };
	void *p = vm_dev_alloc(2 * MiB);

	ck_assert_int_eq(aclrtIpcMemGetExportKey(p, 2 * MiB, key, sizeof(key), 0), ACL_SUCCESS);

	for (uint64_t a = ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO; a <= ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH;
	     a++)
		ck_assert_int_eq(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, a), 207000);
	ck_assert_int_eq(aclrtIpcMemSetAttr(NULL, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0), 107000);
	ck_assert_int_eq(aclrtIpcMemSetAttr(key, (aclrtIpcMemAttrType)1, 0), 107000);
	ck_assert_int_eq(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 4), 107000);

	ck_assert_int_eq(aclrtIpcMemImportPidInterServer(key, sp, 2), 207000);
	ck_assert_int_eq(aclrtIpcMemImportPidInterServer(NULL, sp, 1), 107000);
	ck_assert_int_eq(aclrtIpcMemImportPidInterServer(key, NULL, 1), 107000);
	ck_assert_int_eq(aclrtIpcMemImportPidInterServer(key, sp, 0), 107000);
	sp[1].pid = NULL;	/* entry 0 reaches the driver first */
	ck_assert_int_eq(aclrtIpcMemImportPidInterServer(key, sp, 2), 207000);
	sp[0].pid = NULL;
	ck_assert_int_eq(aclrtIpcMemImportPidInterServer(key, sp, 2), 107000);

	ck_assert_int_eq(aclrtIpcMemClose(key), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);

	drop_device0();
	ck_assert_int_eq(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0), 107002);
	ck_assert_int_eq(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 9), 107000);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

START_TEST(test_notify_inter_server)
{
	aclrtNotify n = NULL, gone = NULL;
	char key[KEYLEN];
	int32_t pid = getpid();
	aclrtServerPid sp[2] = { { .sdid = 0, .pid = &pid, .num = 1 }, { .sdid = 0, .pid = &pid, .num = 1 } };

	ck_assert_int_eq(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtNotifyGetExportKey(n, key, sizeof(key), 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtNotifySetImportPidInterServer(n, sp, 2), 207000);
	ck_assert_int_eq(aclrtNotifySetImportPidInterServer(NULL, sp, 1), 107000);
	ck_assert_int_eq(aclrtNotifySetImportPidInterServer(n, NULL, 1), 107000);
	ck_assert_int_eq(aclrtNotifySetImportPidInterServer(n, sp, 0), 107000);
	sp[0].num = 2;
	ck_assert_int_eq(aclrtNotifySetImportPidInterServer(n, sp, 1), 107000);
	sp[0].num = 1;
	sp[0].pid = NULL;
	ck_assert_int_eq(aclrtNotifySetImportPidInterServer(n, sp, 1), 107000);
	sp[0].pid = &pid;

	ck_assert_int_eq(aclrtCreateNotify(&gone, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(gone), ACL_SUCCESS);
	ck_assert_int_eq(aclrtNotifySetImportPidInterServer(gone, sp, 1), 107017);
	sp[0].pid = NULL;	/* the handle guard before the entries */
	ck_assert_int_eq(aclrtNotifySetImportPidInterServer(gone, sp, 1), 107017);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
}
END_TEST

START_TEST(test_mem_map_links)
{
	aclrtPhysicalMemProp prop = vm_phys_prop(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
	aclrtDrvMemHandle h = NULL;
	void *va = NULL, *dst = NULL, *plain = vm_dev_alloc(4096);

	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &prop, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReserveMemAddress(&va, 4 * MiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(va, 2 * MiB, 0, h, 0), ACL_SUCCESS);
	dst = (char *)va + 2 * MiB;

	for (int l = ACL_RT_MEM_ACCESS_LINK_SIO; l <= ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH; l++)
		ck_assert_int_eq(aclrtMemMapSetLink(h, (aclrtMemLinkType)l), 207000);
	ck_assert_int_eq(aclrtMemMapSetLink(NULL, ACL_RT_MEM_ACCESS_LINK_HCCS), 100000);
	ck_assert_int_eq(aclrtMemMapSetLink(h, (aclrtMemLinkType)4), 107000);

	ck_assert_int_eq(aclrtMemMapSelectedLink(dst, 2 * MiB, va, ACL_RT_MEM_LINK_IDX_0), 207000);
	ck_assert_int_eq(aclrtMemMapSelectedLink(dst, 2 * MiB, va, ACL_RT_MEM_LINK_IDX_1), 207000);
	ck_assert_int_eq(aclrtMemMapSelectedLink(NULL, 2 * MiB, va, 0), 100000);
	ck_assert_int_eq(aclrtMemMapSelectedLink(dst, 2 * MiB, NULL, 0), 100000);
	ck_assert_int_eq(aclrtMemMapSelectedLink(dst, 0, va, 0), 100000);
	ck_assert_int_eq(aclrtMemMapSelectedLink(dst, 2 * MiB, va, 2), 100000);
	ck_assert_int_eq(aclrtMemMapSelectedLink(dst, 2 * MiB, (char *)va + 4096, 0), 107000);
	ck_assert_int_eq(aclrtMemMapSelectedLink(dst, 2 * MiB, dst, 0), 107000);	/* hole */
	ck_assert_int_eq(aclrtMemMapSelectedLink(dst, 4096, plain, 0), 107000);	/* aclrtMalloc */

	/* nothing was mapped at dst */
	ck_assert_int_eq(aclrtMemGetAddressRange(dst, NULL, NULL), 107000);
	ck_assert_int_eq(aclrtUnmapMem(va), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(va), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(plain), ACL_SUCCESS);
}
END_TEST

static Suite *memory_misc_suite(void)
{
	Suite *s = suite_create("memory_misc");
	TCase *tc = tcase_create("memory_misc");

	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_host_mem_map_capabilities);
	tcase_add_test(tc, test_mem_uce);
	tcase_add_test(tc, test_error_verbose_and_repair);
	tcase_add_test(tc, test_ipc_mem_attr_and_inter_server);
	tcase_add_test(tc, test_notify_inter_server);
	tcase_add_test(tc, test_mem_map_links);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(memory_misc_suite());
}
