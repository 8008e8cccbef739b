/*
 * Unit tests of lib/rules/vmm_rules.c: aclrtPhysicalMemProp acceptance and
 * backing, granularity, aclrtDrvMemHandle encoding, VMM errno mapping.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <misc/npu_sim.h>

#include "../../lib/rules/vmm_rules.h"

static aclrtPhysicalMemProp mk(int attr, int loc, uint32_t id)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.memAttr = (aclrtMemAttr)attr;
	p.location.type = (aclrtMemLocationType)loc;
	p.location.id = id;
	return p;
}

START_TEST(accepted_attrs)
{
	static const struct {
		int attr, loc;
		uint32_t kind, flags;
		uint64_t gran;
	} ok[] = {
		{ 2, 0, NPU_SIM_PAGE_HUGE_2M, 0, 2 << 20 },
		{ 3, 0, NPU_SIM_PAGE_NORMAL, 0, 2 << 20 },
		{ 6, 4, NPU_SIM_PAGE_HUGE_2M, NPU_SIM_PHYS_P2P, 2 << 20 },
		{ 7, 4, NPU_SIM_PAGE_NORMAL, NPU_SIM_PHYS_P2P, 2 << 20 },
		{ 4, 1, NPU_SIM_PAGE_HUGE_2M, 0, 2 << 20 },
		{ 5, 1, NPU_SIM_PAGE_HUGE_2M, 0, 2 << 20 },
		{ 10, 1, NPU_SIM_PAGE_HUGE_1G, 0, 1 << 30 },
		{ 12, 1, NPU_SIM_PAGE_NORMAL, 0, 2 << 20 },
		{ 12, 0, NPU_SIM_PAGE_NORMAL, 0, 2 << 20 },
		{ 13, 1, NPU_SIM_PAGE_HUGE_2M, 0, 2 << 20 },
		{ 14, 1, NPU_SIM_PAGE_HUGE_1G, 0, 1 << 30 },
		{ 15, 1, NPU_SIM_PAGE_NORMAL, NPU_SIM_PHYS_P2P, 2 << 20 },
		{ 16, 4, NPU_SIM_PAGE_HUGE_2M, NPU_SIM_PHYS_P2P, 2 << 20 },
		{ 17, 1, NPU_SIM_PAGE_HUGE_1G, NPU_SIM_PHYS_P2P, 1 << 30 },
	};

	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		aclrtPhysicalMemProp p = mk(ok[i].attr, ok[i].loc, ok[i].loc == 1 ? 3 : 0);
		struct npu_rt_phys_plan plan;

		ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_SUCCESS);
		ck_assert_uint_eq(plan.page_kind, ok[i].kind);
		ck_assert_uint_eq(plan.flags, ok[i].flags);
		ck_assert_uint_eq(plan.granularity, ok[i].gran);
		ck_assert_uint_eq(plan.location, ok[i].loc == 1 ? NPU_SIM_LOC_DEVICE :
					 ok[i].loc == 0 ? NPU_SIM_LOC_HOST : NPU_SIM_LOC_HOST_NUMA);
		ck_assert_uint_eq(plan.location_id, ok[i].loc == 1 ? 3 : 0);
	}
}
END_TEST

START_TEST(rejected_props)
{
	struct npu_rt_phys_plan plan = { .page_kind = 77 };
	aclrtPhysicalMemProp p;
	static const int bad_attr[] = { 0, 1, 8, 9, 11, 18, -1, 1000 };

	for (unsigned i = 0; i < sizeof(bad_attr) / sizeof(bad_attr[0]); i++) {
		p = mk(bad_attr[i], 1, 0);
		ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_INVALID_PARAM);
		p = mk(bad_attr[i], 0, 0);
		ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_INVALID_PARAM);
	}
	/* DDR on a device: the ACL layer's 100000; HBM on the host: the driver's 107000. */
	for (int a = 2; a <= 7; a++) {
		p = mk(a, (a == 4 || a == 5) ? 0 : 1, 0);
		ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan),
				 (a == 4 || a == 5) ? ACL_ERROR_RT_PARAM_INVALID : ACL_ERROR_INVALID_PARAM);
	}
	p = mk(14, 0, 0);
	ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_RT_PARAM_INVALID);
	p = mk(17, 4, 0);
	ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_RT_PARAM_INVALID);
	p = mk(13, 2, 0);	/* UNREGISTERED and MANAGED: the ACL layer refuses them */
	ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_INVALID_PARAM);
	p = mk(13, 3, 0);
	ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_INVALID_PARAM);
	p = mk(13, 5, 0);	/* outside the enum: passed on, the driver refuses it */
	ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_RT_PARAM_INVALID);
	p = mk(13, 1, 16);	/* the runtime's device id check */
	ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_RT_INVALID_DEVICEID);
	p = mk(13, 1, 0);
	p.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
	ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_INVALID_PARAM);
	p = mk(13, 1, 0);
	p.allocationType = (aclrtMemAllocationType)1;
	ck_assert_int_eq(npu_rt_plan_phys(&p, 16, &plan), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_plan_phys(NULL, 16, &plan), ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(plan.page_kind, 77);
}
END_TEST

START_TEST(handle_encoding)
{
	aclrtDrvMemHandle h = npu_rt_handle_encode(5, 123);
	uint32_t id = 0;
	int dev = -1;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(npu_rt_handle_decode(h, 64, &dev, &id), 0);
	ck_assert_int_eq(dev, 5);
	ck_assert_uint_eq(id, 123);
	ck_assert_int_eq(npu_rt_handle_decode(h, 5, &dev, &id), -1);
	ck_assert_int_eq(npu_rt_handle_decode(NULL, 64, &dev, &id), -1);
	ck_assert_int_eq(npu_rt_handle_decode((aclrtDrvMemHandle)0x1234, 64, &dev, &id), -1);
	ck_assert_int_eq(npu_rt_handle_decode(npu_rt_handle_encode(0, 0), 64, &dev, &id), -1);
	ck_assert_int_eq(npu_rt_handle_decode(npu_rt_handle_encode(0, 0x80000000u), 64, &dev, &id), -1);
}
END_TEST

START_TEST(errno_mapping)
{
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(0, NPU_RT_VMM_ADDR), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(ENOENT, NPU_RT_VMM_ADDR), 107000);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(ENOENT, NPU_RT_VMM_HANDLE), 107017);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(EBUSY, NPU_RT_VMM_ADDR), 107000);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(EEXIST, NPU_RT_VMM_HANDLE), 107000);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(EXDEV, NPU_RT_VMM_HANDLE), 107000);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(EINVAL, NPU_RT_VMM_HANDLE), 107000);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(EPERM, NPU_RT_VMM_HANDLE), 207006);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(EACCES, NPU_RT_VMM_HANDLE), 207006);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(ENOMEM, NPU_RT_VMM_HANDLE), 207001);
	ck_assert_int_eq(npu_rt_vmm_errno_to_acl(EIO, NPU_RT_VMM_ADDR), 507899);
	ck_assert_uint_eq(npu_rt_page_kind_size(NPU_SIM_PAGE_NORMAL), 4096);
	ck_assert_uint_eq(npu_rt_page_kind_size(NPU_SIM_PAGE_HUGE_2M), 2u << 20);
	ck_assert_uint_eq(npu_rt_page_kind_size(NPU_SIM_PAGE_HUGE_1G), 1u << 30);
	ck_assert_uint_eq(npu_rt_page_kind_size(0), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("vmm_rules");
	TCase *tc = tcase_create("rules");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, accepted_attrs);
	tcase_add_test(tc, rejected_props);
	tcase_add_test(tc, handle_encoding);
	tcase_add_test(tc, errno_mapping);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
