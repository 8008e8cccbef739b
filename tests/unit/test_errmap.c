/*
 * Unit tests of lib/rules/errmap.c: kernel errno -> aclError.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "../../lib/rules/errmap.h"

START_TEST(each_errno)
{
	ck_assert_int_eq(npu_rt_errno_to_acl(0), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_errno_to_acl(ENOMEM), 207001);
	ck_assert_int_eq(npu_rt_errno_to_acl(ENOSPC), 207001);
	ck_assert_int_eq(npu_rt_errno_to_acl(EINVAL), 107000);
	ck_assert_int_eq(npu_rt_errno_to_acl(ENXIO), 107000);
	ck_assert_int_eq(npu_rt_errno_to_acl(EFAULT), 107000);
	ck_assert_int_eq(npu_rt_errno_to_acl(EOVERFLOW), 107000);
	ck_assert_int_eq(npu_rt_errno_to_acl(ENOENT), 107000);
	ck_assert_int_eq(npu_rt_errno_to_acl(EACCES), 207006);
	ck_assert_int_eq(npu_rt_errno_to_acl(EPERM), 207006);
	ck_assert_int_eq(npu_rt_errno_to_acl(EOPNOTSUPP), 207000);
	ck_assert_int_eq(npu_rt_errno_to_acl(ENODEV), 207004);
}
END_TEST

START_TEST(everything_else_is_driver_internal)
{
	ck_assert_int_eq(npu_rt_errno_to_acl(EIO), 507899);
	ck_assert_int_eq(npu_rt_errno_to_acl(ENOTTY), 507899);
	ck_assert_int_eq(npu_rt_errno_to_acl(EBADF), 507899);
	ck_assert_int_eq(npu_rt_errno_to_acl(EBUSY), 507899);
	ck_assert_int_eq(npu_rt_errno_to_acl(EPROTO), 507899);
	ck_assert_int_eq(npu_rt_errno_to_acl(12345), 507899);
	ck_assert_int_eq(npu_rt_errno_to_acl(-1), 507899);
}
END_TEST

START_TEST(names_match_values)
{
	ck_assert_int_eq(npu_rt_errno_to_acl(ENOMEM), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_int_eq(npu_rt_errno_to_acl(EINVAL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_errno_to_acl(ENOENT), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_errno_to_acl(EPERM), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_int_eq(npu_rt_errno_to_acl(EOPNOTSUPP), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(npu_rt_errno_to_acl(EIO), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
}
END_TEST

static Suite *errmap_suite(void)
{
	Suite *s = suite_create("errmap");
	TCase *t = tcase_create("core");

	tcase_add_test(t, each_errno);
	tcase_add_test(t, everything_else_is_driver_internal);
	tcase_add_test(t, names_match_values);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(errmap_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
