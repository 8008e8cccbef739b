/*
 * Unit tests of lib/rules/address.c (locating ranges in the device VA windows)
 * and lib/rules/copy_rules.c (memcpy kind validation and direction planning,
 * docs/design.md 4.2).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include <misc/npu_sim.h>

#include "../../lib/rules/copy_rules.h"

#define GiB (1ULL << 30)
#define W0 ((uintptr_t)0x100000000000ULL)
#define W1 ((uintptr_t)0x200000000000ULL)

/* device 0 and 1 open, device 2 closed, device 3 open */
static const struct npu_rt_window windows[4] = {
	{ W0, GiB }, { W1, GiB }, { 0, 0 }, { (uintptr_t)0x300000000000ULL, 2 * GiB },
};

static const struct npu_rt_loc HOST = { NPU_RT_LOC_HOST, -1 };
static const struct npu_rt_loc DEV0 = { NPU_RT_LOC_DEVICE, 0 };
static const struct npu_rt_loc DEV1 = { NPU_RT_LOC_DEVICE, 1 };
static const struct npu_rt_loc BAD = { NPU_RT_LOC_STRADDLE, -1 };

#define expect_loc(p, len, e_kind, e_dev)                                      \
	do {                                                                   \
		struct npu_rt_loc l_ = npu_rt_locate(windows, 4, (p), (len));  \
		ck_assert_int_eq(l_.kind, (e_kind));                           \
		if ((e_kind) == NPU_RT_LOC_DEVICE)                             \
			ck_assert_int_eq(l_.dev, (e_dev));                     \
	} while (0)

START_TEST(locate_ranges)
{
	expect_loc(0x1000, 10, NPU_RT_LOC_HOST, -1);
	expect_loc(W0, 1, NPU_RT_LOC_DEVICE, 0);
	expect_loc(W0, GiB, NPU_RT_LOC_DEVICE, 0);
	expect_loc(W0 + GiB - 1, 1, NPU_RT_LOC_DEVICE, 0);
	expect_loc(W0 + GiB - 1, 2, NPU_RT_LOC_STRADDLE, -1);	/* runs out of the window */
	expect_loc(W0 + GiB, 1, NPU_RT_LOC_HOST, -1);		/* just after it */
	expect_loc(W0 - 1, 1, NPU_RT_LOC_HOST, -1);		/* just before it */
	expect_loc(W0 - 1, 2, NPU_RT_LOC_STRADDLE, -1);	/* host range into the window */
	expect_loc(W0 - 4096, GiB + 8192, NPU_RT_LOC_STRADDLE, -1);	/* covers it */
	expect_loc(W1 + 12345, 4096, NPU_RT_LOC_DEVICE, 1);
	expect_loc((uintptr_t)0x300000000000ULL + GiB + 5, 4096, NPU_RT_LOC_DEVICE, 3);
	expect_loc(UINTPTR_MAX, 1, NPU_RT_LOC_HOST, -1);
	expect_loc(UINTPTR_MAX, 2, NPU_RT_LOC_STRADDLE, -1);	/* wraps */
	expect_loc(0x1000, 0, NPU_RT_LOC_STRADDLE, -1);	/* empty range is not a range */
}
END_TEST

START_TEST(locate_ignores_closed_devices)
{
	struct npu_rt_window none[2] = { { 0, 0 }, { 0, 0 } };
	struct npu_rt_loc l = npu_rt_locate(none, 2, W0, 64);

	ck_assert_int_eq(l.kind, NPU_RT_LOC_HOST);
	l = npu_rt_locate(windows, 0, W0, 64);
	ck_assert_int_eq(l.kind, NPU_RT_LOC_HOST);
}
END_TEST

START_TEST(span_2d)
{
	ck_assert_uint_eq(npu_rt_span_2d(100, 10, 3), 210);
	ck_assert_uint_eq(npu_rt_span_2d(10, 10, 4), 40);
	ck_assert_uint_eq(npu_rt_span_2d(SIZE_MAX, 7, 1), 7);
	ck_assert_uint_eq(npu_rt_span_2d(SIZE_MAX, 1, 2), 0);	/* overflow */
	ck_assert_uint_eq(npu_rt_span_2d(SIZE_MAX / 2, 2, 3), 0);
	ck_assert_uint_eq(npu_rt_span_2d(SIZE_MAX / 2, 1, 3), SIZE_MAX);
	ck_assert_uint_eq(npu_rt_span_2d(16, 0, 3), 0);
	ck_assert_uint_eq(npu_rt_span_2d(16, 4, 0), 0);
}
END_TEST

START_TEST(memcpy_kinds)
{
	for (int k = 0; k <= 5; k++)
		ck_assert_int_eq(npu_rt_memcpy_kind_check(k), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_memcpy_kind_check(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy_kind_check(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy_kind_check(8), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy_kind_check(-1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy_kind_check(0x7fffffff), ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(memcpy2d_kinds)
{
	for (int k = 1; k <= 4; k++)
		ck_assert_int_eq(npu_rt_memcpy2d_kind_check(k), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_memcpy2d_kind_check(ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_kind_check(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_kind_check(6), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_kind_check(7), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_kind_check(-1), ACL_ERROR_INVALID_PARAM);
}
END_TEST

#define expect_route(kind, dst, src, e_route, e_dir, e_dev)                                  \
	do {                                                                                 \
		struct npu_rt_copy_route_plan p_ = { 0, 0, -7, -7 };                         \
		ck_assert_int_eq(npu_rt_plan_copy((kind), (dst), (src), &p_), ACL_SUCCESS);  \
		ck_assert_int_eq(p_.route, (e_route));                                       \
		if ((e_route) == NPU_RT_ROUTE_DRIVER) {                                      \
			ck_assert_uint_eq(p_.dir, (e_dir));                                  \
			ck_assert_int_eq(p_.dev, (e_dev));                                   \
		}                                                                            \
	} while (0)

#define expect_copy_error(kind, dst, src, e_err)                                              \
	do {                                                                                  \
		struct npu_rt_copy_route_plan p_ = { 0, 0, -7, -7 };                          \
		ck_assert_int_eq(npu_rt_plan_copy((kind), (dst), (src), &p_), (e_err));       \
		ck_assert_int_eq(p_.dev, -7);                                                 \
	} while (0)

START_TEST(memcpy_args_in_cann_order)
{
	char a[8] = { 0 }, b[8] = { 0 };

	ck_assert_int_eq(npu_rt_memcpy_args_check(a, 8, b, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	/* NULL before kind before count > destMax */
	ck_assert_int_eq(npu_rt_memcpy_args_check(NULL, 1, b, 8, 9), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy_args_check(a, 1, NULL, 8, 9), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy_args_check(a, 1, b, 8, 6), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy_args_check(a, 7, b, 8, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_memcpy_args_check(a, 8, b, 8, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_SUCCESS);
}
END_TEST

START_TEST(memcpy2d_args_and_spans)
{
	char a[8] = { 0 }, b[8] = { 0 };
	size_t ds = 7, ss = 7;

	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, 64, b, 32, 16, 3, ACL_MEMCPY_DEVICE_TO_HOST, &ds, &ss),
			 ACL_SUCCESS);
	ck_assert_uint_eq(ds, 2 * 64 + 16);
	ck_assert_uint_eq(ss, 2 * 32 + 16);
	ds = ss = 7;
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(NULL, 64, b, 32, 16, 3, 1, &ds, &ss), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, 8, b, 32, 16, 3, 1, &ds, &ss), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, 64, b, 32, 16, 3, 0, &ds, &ss), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, 64, b, 32, 16, 3, 5, &ds, &ss), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, SIZE_MAX / 2, b, 32, 16, 4, 1, &ds, &ss),
			 ACL_ERROR_RT_PARAM_INVALID);	/* runtime stage: driver-decided */
	ck_assert_uint_eq(ds, 7);
	ck_assert_uint_eq(ss, 7);
}
END_TEST

START_TEST(explicit_kinds_matching)
{
	expect_route(ACL_MEMCPY_HOST_TO_HOST, HOST, HOST, NPU_RT_ROUTE_USER, 0, -1);
	expect_route(ACL_MEMCPY_HOST_TO_DEVICE, DEV0, HOST, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_H2D, 0);
	expect_route(ACL_MEMCPY_HOST_TO_DEVICE, DEV1, HOST, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_H2D, 1);
	expect_route(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, DEV1, HOST, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_H2D, 1);
	expect_route(ACL_MEMCPY_DEVICE_TO_HOST, HOST, DEV0, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_D2H, 0);
	expect_route(ACL_MEMCPY_DEVICE_TO_HOST, HOST, DEV1, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_D2H, 1);
	expect_route(ACL_MEMCPY_DEVICE_TO_DEVICE, DEV0, DEV0, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_D2D, 0);
	expect_route(ACL_MEMCPY_DEVICE_TO_DEVICE, DEV1, DEV1, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_D2D, 1);
}
END_TEST

START_TEST(explicit_kinds_mismatching)
{
	expect_copy_error(ACL_MEMCPY_HOST_TO_HOST, DEV0, HOST, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_HOST_TO_HOST, HOST, DEV0, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_HOST_TO_DEVICE, HOST, HOST, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_HOST_TO_DEVICE, DEV0, DEV0, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_HOST_TO_DEVICE, HOST, DEV0, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, HOST, DEV0, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_DEVICE_TO_HOST, DEV0, HOST, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_DEVICE_TO_HOST, HOST, HOST, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_DEVICE_TO_HOST, DEV0, DEV0, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_DEVICE_TO_DEVICE, HOST, DEV0, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_DEVICE_TO_DEVICE, DEV0, HOST, ACL_ERROR_RT_PARAM_INVALID);
	expect_copy_error(ACL_MEMCPY_DEVICE_TO_DEVICE, HOST, HOST, ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

#define expect_peer(kind, dst, src, e_dst, e_src)                                            \
	do {                                                                                 \
		struct npu_rt_copy_route_plan p_ = { 0, 0, -7, -7 };                        \
		ck_assert_int_eq(npu_rt_plan_copy((kind), (dst), (src), &p_), ACL_SUCCESS);  \
		ck_assert_int_eq(p_.route, NPU_RT_ROUTE_PEER);                               \
		ck_assert_uint_eq(p_.dir, NPU_SIM_COPY_D2D);                                 \
		ck_assert_int_eq(p_.dev, (e_dst));                                           \
		ck_assert_int_eq(p_.src_dev, (e_src));                                       \
	} while (0)

START_TEST(cross_device_is_peer_route)
{
	expect_peer(ACL_MEMCPY_DEVICE_TO_DEVICE, DEV0, DEV1, 0, 1);
	expect_peer(ACL_MEMCPY_DEVICE_TO_DEVICE, DEV1, DEV0, 1, 0);
	expect_peer(ACL_MEMCPY_DEFAULT, DEV1, DEV0, 1, 0);
	expect_peer(ACL_MEMCPY_DEFAULT, DEV0, DEV1, 0, 1);
}
END_TEST

START_TEST(default_infers)
{
	expect_route(ACL_MEMCPY_DEFAULT, HOST, HOST, NPU_RT_ROUTE_USER, 0, -1);
	expect_route(ACL_MEMCPY_DEFAULT, DEV1, HOST, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_H2D, 1);
	expect_route(ACL_MEMCPY_DEFAULT, HOST, DEV0, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_D2H, 0);
	expect_route(ACL_MEMCPY_DEFAULT, DEV0, DEV0, NPU_RT_ROUTE_DRIVER, NPU_SIM_COPY_D2D, 0);
}
END_TEST

START_TEST(straddling_ranges_rejected)
{
	for (int k = 0; k <= 5; k++) {
		expect_copy_error(k, BAD, HOST, ACL_ERROR_RT_PARAM_INVALID);
		expect_copy_error(k, HOST, BAD, ACL_ERROR_RT_PARAM_INVALID);
		expect_copy_error(k, DEV0, BAD, ACL_ERROR_RT_PARAM_INVALID);
		expect_copy_error(k, BAD, DEV0, ACL_ERROR_RT_PARAM_INVALID);
	}
}
END_TEST

START_TEST(unknown_kind_rejected_by_planner)
{
	expect_copy_error(6, DEV0, DEV0, ACL_ERROR_INVALID_PARAM);
	expect_copy_error(-1, HOST, HOST, ACL_ERROR_INVALID_PARAM);
}
END_TEST

static Suite *copy_suite(void)
{
	Suite *s = suite_create("copy_rules");
	TCase *t = tcase_create("core");

	tcase_add_test(t, locate_ranges);
	tcase_add_test(t, locate_ignores_closed_devices);
	tcase_add_test(t, span_2d);
	tcase_add_test(t, memcpy_kinds);
	tcase_add_test(t, memcpy2d_kinds);
	tcase_add_test(t, memcpy_args_in_cann_order);
	tcase_add_test(t, memcpy2d_args_and_spans);
	tcase_add_test(t, explicit_kinds_matching);
	tcase_add_test(t, explicit_kinds_mismatching);
	tcase_add_test(t, cross_device_is_peer_route);
	tcase_add_test(t, default_infers);
	tcase_add_test(t, straddling_ranges_rejected);
	tcase_add_test(t, unknown_kind_rejected_by_planner);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(copy_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
