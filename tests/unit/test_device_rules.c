/*
 * Unit tests of the pure rules of the device information and settings
 * calls: lib/rules/platform_spec.c (the SoC figures), lib/rules/
 * device_rules.c (device limits, system parameters, device UUIDs) and the
 * user data range of host buffers (lib/api/host_buf.h).
 */
#include <check.h>
#include <string.h>

#include "../../lib/rules/platform_spec.h"
#include "../../lib/rules/device_rules.h"
#include "../../lib/api/host_buf.h"

START_TEST(platform_figures)
{
	const struct npu_rt_platform_spec *s = npu_rt_platform_spec("Ascend910B1");
	int32_t arch = 0;

	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(s->npu_arch, 2201);
	ck_assert_int_eq(s->ai_cores, 24);
	ck_assert_int_eq(s->cube_cores, 24);
	ck_assert_int_eq(s->vector_cores, 48);
	ck_assert_int_eq(s->l2_size, 201326592);
	s = npu_rt_platform_spec("Ascend310P3");
	ck_assert_int_eq(s->npu_arch, 2002);
	ck_assert_int_eq(s->ai_cores, 8);
	ck_assert_int_eq(s->cube_cores, 0);	/* no cube_core_cnt key */
	ck_assert_int_eq(s->vector_cores, 7);
	/* every SoC a profile poses as has a row */
	ck_assert_ptr_nonnull(npu_rt_platform_spec("Ascend950PR_9599"));
	ck_assert_ptr_nonnull(npu_rt_platform_spec("Ascend910_9391"));
	ck_assert_ptr_nonnull(npu_rt_platform_spec("Ascend310B1"));
	ck_assert_ptr_nonnull(npu_rt_platform_spec("Ascend910A"));
	ck_assert_int_eq(npu_rt_platform_npu_arch("Ascend910A", &arch), 0);
	ck_assert_int_eq(arch, 1001);
	arch = 7;
	ck_assert_int_eq(npu_rt_platform_npu_arch("ascend910a", &arch), -1);
	ck_assert_int_eq(npu_rt_platform_npu_arch(NULL, &arch), -1);
	ck_assert_int_eq(arch, 7);
	ck_assert_ptr_null(npu_rt_platform_spec(""));
}
END_TEST

START_TEST(device_limits)
{
	struct npu_rt_dev_limits l = NPU_RT_DEV_LIMITS_INIT;
	uint32_t v = 0;

	ck_assert_int_eq(npu_rt_dev_limit_set(&l, ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 32768), ACL_SUCCESS);
	ck_assert_uint_eq(l.stack_size, 32768);
	ck_assert_int_eq(npu_rt_dev_limit_set(&l, ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 32769), ACL_SUCCESS);
	ck_assert_uint_eq(l.stack_size, 49152);
	ck_assert_int_eq(npu_rt_dev_limit_set(&l, ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 0), ACL_SUCCESS);
	ck_assert_uint_eq(l.stack_size, 49152);	/* smaller: ignored */
	ck_assert_int_eq(npu_rt_dev_limit_set(&l, ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, UINT32_MAX), ACL_SUCCESS);
	ck_assert_uint_eq(l.stack_size, 0);	/* the runtime's 32-bit round-up wraps */
	ck_assert_int_eq(npu_rt_dev_limit_set(&l, ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1024), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_dev_limit_get(&l, ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 1024);
	ck_assert_int_eq(npu_rt_dev_limit_set(&l, ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 64u << 20),
			 ACL_SUCCESS);
	ck_assert_uint_eq(l.simd_printf_fifo, 64u << 20);
	ck_assert_int_eq(npu_rt_dev_limit_set(&l, ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1023),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(l.simd_printf_fifo, 64u << 20);
	ck_assert_int_eq(npu_rt_dev_limit_set(&l, ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, 1),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(npu_rt_dev_limit_get(&l, ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, &v),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}
END_TEST

START_TEST(sys_params)
{
	ck_assert_int_eq(npu_rt_sys_param_check(ACL_OPT_DETERMINISTIC, 3, true), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_sys_param_check(ACL_OPT_DETERMINISTIC, 4, false), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_sys_param_check(ACL_OPT_ENABLE_DEBUG_KERNEL, 1, true), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_sys_param_check(ACL_OPT_ENABLE_DEBUG_KERNEL, 2, true), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_sys_param_check(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1, false), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_sys_param_check(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1, true), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_sys_param_check((aclSysParamOpt)4, 0, false), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_sys_param_check((aclSysParamOpt)-1, 0, false), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_sys_param_check((aclSysParamOpt)2, -1, true), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_sys_param_opt_check((aclSysParamOpt)3, false), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_sys_param_opt_check((aclSysParamOpt)3, true), ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(uuids)
{
	unsigned char boot[16], boot2[16], a[16], b[16], c[16], d[16];

	memset(boot, 0x11, sizeof(boot));
	memcpy(boot2, boot, sizeof(boot));
	boot2[15] ^= 1;
	npu_rt_device_uuid(boot, 0, a);
	npu_rt_device_uuid(boot, 0, b);
	npu_rt_device_uuid(boot, 1, c);
	npu_rt_device_uuid(boot2, 0, d);
	ck_assert(memcmp(a, b, 16) == 0);
	ck_assert(memcmp(a, c, 16) != 0);
	ck_assert(memcmp(a, d, 16) != 0);
	ck_assert_int_eq(a[6] >> 4, 8);
	ck_assert_int_eq(a[8] >> 6, 2);
}
END_TEST

START_TEST(buf_user_range)
{
	ck_assert(!npu_rt_buf_user_range_bad(96, 0));
	ck_assert(!npu_rt_buf_user_range_bad(0, 96));
	ck_assert(!npu_rt_buf_user_range_bad(10, 86));
	ck_assert(npu_rt_buf_user_range_bad(10, 87));
	ck_assert(npu_rt_buf_user_range_bad(97, 0));
	ck_assert(npu_rt_buf_user_range_bad(SIZE_MAX, 2));	/* no wrap-around */
	ck_assert(npu_rt_buf_user_range_bad(2, SIZE_MAX));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("device_rules");
	TCase *t = tcase_create("rules");
	SRunner *r;
	int failed;

	tcase_add_test(t, platform_figures);
	tcase_add_test(t, device_limits);
	tcase_add_test(t, sys_params);
	tcase_add_test(t, uuids);
	tcase_add_test(t, buf_user_range);
	suite_add_tcase(s, t);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
