/*
 * Unit tests of lib/rules/policy.c: policy validation, backing, flags and
 * footprint arithmetic of the aclrtMalloc family (docs/design.md 4.1).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include <misc/npu_sim.h>

#include "../../lib/rules/policy.h"

#define MiB (1024ULL * 1024)
#define LOW ACL_MEM_TYPE_LOW_BAND_WIDTH
#define HIGH ACL_MEM_TYPE_HIGH_BAND_WIDTH
#define RO ACL_MEM_ACCESS_USER_SPACE_READONLY
#define P2P NPU_SIM_ALLOC_P2P
#define RDONLY NPU_SIM_ALLOC_READONLY

enum { MALLOC = NPU_SIM_API_MALLOC, ALIGN32 = NPU_SIM_API_MALLOC_ALIGN32,
       CACHED = NPU_SIM_API_MALLOC_CACHED, WITHCFG = NPU_SIM_API_MALLOC_WITH_CFG };
enum { B_NORMAL = NPU_SIM_BACKING_NORMAL, B_HFIRST = NPU_SIM_BACKING_HUGE_FIRST,
       B_HONLY = NPU_SIM_BACKING_HUGE_ONLY, B_1G = NPU_SIM_BACKING_HUGE1G_ONLY };

/* Expect a successful plan with exactly these fields. */
#define expect_plan(api, size, policy, e_backing, e_flags, e_footprint)                         \
	do {                                                                                    \
		struct npu_rt_alloc_plan p_ = { 0, 0, 0 };                                      \
		ck_assert_int_eq(npu_rt_plan_alloc((api), (size), (policy), &p_), ACL_SUCCESS); \
		ck_assert_uint_eq(p_.backing, (e_backing));                                     \
		ck_assert_uint_eq(p_.flags, (e_flags));                                         \
		ck_assert_uint_eq(p_.footprint, (e_footprint));                                 \
	} while (0)

/* Expect 100000 and the plan untouched. */
#define expect_reject(api, size, policy)                                                           \
	do {                                                                                       \
		struct npu_rt_alloc_plan p_ = { 0xAA, 0xBB, 0xCC };                                \
		ck_assert_int_eq(npu_rt_plan_alloc((api), (size), (policy), &p_), ACL_ERROR_INVALID_PARAM); \
		ck_assert_uint_eq(p_.footprint, 0xAA);                                             \
		ck_assert_uint_eq(p_.backing, 0xBB);                                               \
		ck_assert_uint_eq(p_.flags, 0xCC);                                                 \
	} while (0)

START_TEST(footprint_padded)
{
	uint64_t f = 0;

	ck_assert_int_eq(npu_rt_footprint(1, true, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 64);
	ck_assert_int_eq(npu_rt_footprint(31, true, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 64);
	ck_assert_int_eq(npu_rt_footprint(32, true, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 64);
	ck_assert_int_eq(npu_rt_footprint(33, true, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 96);
	ck_assert_int_eq(npu_rt_footprint(100, true, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 160);
	ck_assert_int_eq(npu_rt_footprint(2 * MiB, true, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 2 * MiB + 32);
	ck_assert_int_eq(npu_rt_footprint(2 * MiB - 32, true, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 2 * MiB);
}
END_TEST

START_TEST(footprint_unpadded)
{
	uint64_t f = 0;

	ck_assert_int_eq(npu_rt_footprint(1, false, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 32);
	ck_assert_int_eq(npu_rt_footprint(32, false, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 32);
	ck_assert_int_eq(npu_rt_footprint(33, false, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 64);
	ck_assert_int_eq(npu_rt_footprint(2 * MiB, false, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 2 * MiB);
	ck_assert_int_eq(npu_rt_footprint(1024 * MiB + 1, false, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, 1024 * MiB + 32);
}
END_TEST

START_TEST(footprint_overflow)
{
	uint64_t f = 7;

	/* padded: size + 64 must not wrap */
	ck_assert_int_eq(npu_rt_footprint(SIZE_MAX - 64, true, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, UINT64_MAX - 31);
	f = 7;
	ck_assert_int_eq(npu_rt_footprint(SIZE_MAX - 63, true, &f), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_footprint(SIZE_MAX - 32, true, &f), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_footprint(SIZE_MAX, true, &f), ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(f, 7);
	/* unpadded: size + 32 must not wrap */
	ck_assert_int_eq(npu_rt_footprint(SIZE_MAX - 32, false, &f), ACL_SUCCESS);
	ck_assert_uint_eq(f, UINT64_MAX - 31);
	f = 7;
	ck_assert_int_eq(npu_rt_footprint(SIZE_MAX - 31, false, &f), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_footprint(SIZE_MAX, false, &f), ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(f, 7);
}
END_TEST

START_TEST(overflow_through_every_api)
{
	expect_reject(MALLOC, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(MALLOC, SIZE_MAX - 63, ACL_MEM_MALLOC_NORMAL_ONLY);
	expect_reject(CACHED, SIZE_MAX, ACL_MEM_MALLOC_HUGE_ONLY);
	expect_reject(WITHCFG, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(ALIGN32, SIZE_MAX - 31, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(MALLOC, SIZE_MAX - 31, ACL_MEM_MALLOC_HUGE1G_ONLY);
	/* a footprint the driver could not round up to a 1 GiB page */
	expect_reject(ALIGN32, SIZE_MAX - 32, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(MALLOC, SIZE_MAX - 64, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(ALIGN32, (size_t)NPU_RT_FOOTPRINT_MAX + 1, ACL_MEM_MALLOC_HUGE1G_ONLY);
	expect_reject(MALLOC, (size_t)NPU_RT_FOOTPRINT_MAX - 31, ACL_MEM_MALLOC_NORMAL_ONLY);
	/* the largest sizes that plan (the driver then refuses the capacity) */
	expect_plan(ALIGN32, (size_t)NPU_RT_FOOTPRINT_MAX, ACL_MEM_MALLOC_HUGE_FIRST, B_HFIRST, 0,
		    NPU_RT_FOOTPRINT_MAX);
	expect_plan(MALLOC, (size_t)NPU_RT_FOOTPRINT_MAX - 32, ACL_MEM_MALLOC_HUGE_FIRST, B_HFIRST, 0,
		    NPU_RT_FOOTPRINT_MAX);
}
END_TEST

START_TEST(size_zero_rejected)
{
	expect_reject(MALLOC, 0, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(ALIGN32, 0, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(CACHED, 0, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(WITHCFG, 0, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(MALLOC, 0, 12345);
}
END_TEST

START_TEST(unknown_api_rejected)
{
	expect_reject(0, 64, ACL_MEM_MALLOC_HUGE_FIRST);
	expect_reject(5, 64, ACL_MEM_MALLOC_HUGE_FIRST);
}
END_TEST

START_TEST(malloc_each_single_item)
{
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_HUGE_FIRST, B_HFIRST, 0, 4128);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_HUGE_ONLY, B_HONLY, 0, 4128);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_NORMAL_ONLY, B_NORMAL, 0, 4128);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_HUGE_FIRST_P2P, B_HFIRST, P2P, 4128);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_HUGE_ONLY_P2P, B_HONLY, P2P, 4128);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_NORMAL_ONLY_P2P, B_NORMAL, P2P, 4128);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY, B_1G, 0, 4096);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, B_1G, P2P, 4096);
	expect_plan(MALLOC, 4096, LOW, B_HFIRST, 0, 4128);
	expect_plan(MALLOC, 4096, HIGH, B_HFIRST, 0, 4128);
	expect_plan(MALLOC, 4096, RO, B_HFIRST, RDONLY, 4128);
}
END_TEST

START_TEST(issue_examples)
{
	/* HUGE_ONLY of exactly 2 MiB via aclrtMalloc: 2 MiB + 32 -> the driver
	 * rounds to 4 MiB of huge pages; via Align32 it is one 2 MiB page. */
	expect_plan(MALLOC, 2 * MiB, ACL_MEM_MALLOC_HUGE_ONLY, B_HONLY, 0, 2 * MiB + 32);
	expect_plan(ALIGN32, 2 * MiB, ACL_MEM_MALLOC_HUGE_ONLY, B_HONLY, 0, 2 * MiB);
	/* 1 GiB pages: no pad, so 1 GiB fits one page */
	expect_plan(MALLOC, 1024 * MiB, ACL_MEM_MALLOC_HUGE1G_ONLY, B_1G, 0, 1024 * MiB);
	expect_plan(CACHED, 1024 * MiB, ACL_MEM_MALLOC_HUGE1G_ONLY, B_1G, 0, 1024 * MiB);
	/* odd sizes */
	expect_plan(MALLOC, 1, ACL_MEM_MALLOC_NORMAL_ONLY, B_NORMAL, 0, 64);
	expect_plan(ALIGN32, 1, ACL_MEM_MALLOC_NORMAL_ONLY, B_NORMAL, 0, 32);
	expect_plan(MALLOC, 1000, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, B_1G, P2P, 1024);
}
END_TEST

START_TEST(out_of_range_uses_size_rule)
{
	/* below 2 MiB of request: normal pages; from 2 MiB: huge (HUGE_FIRST) */
	expect_plan(MALLOC, 4096, 8, B_NORMAL, 0, 4128);
	expect_plan(MALLOC, 2 * MiB - 1, 8, B_NORMAL, 0, 2 * MiB + 32);
	expect_plan(MALLOC, 2 * MiB, 8, B_HFIRST, 0, 2 * MiB + 32);
	expect_plan(MALLOC, 64 * MiB, 0x7fffffff, B_HFIRST, 0, 64 * MiB + 32);
	expect_plan(MALLOC, 100, 0xffffffffU, B_NORMAL, 0, 160);
	expect_plan(MALLOC, 100, 0x200, B_NORMAL, 0, 160);
	expect_plan(MALLOC, 100, 0x80000000U, B_NORMAL, 0, 160);
	/* 8 | HUGE_ONLY is not made of enum items only either */
	expect_plan(MALLOC, 100, 9, B_NORMAL, 0, 160);
	expect_plan(WITHCFG, 4 * MiB, 8, B_HFIRST, 0, 4 * MiB);
	expect_plan(ALIGN32, 4 * MiB, 8, B_HFIRST, 0, 4 * MiB);
	expect_plan(ALIGN32, 100, 0x200, B_NORMAL, 0, 128);
}
END_TEST

START_TEST(malloc_combinations_honoured)
{
	/* docs/design.md 4.1: a base item OR'd with one bandwidth bit and/or READONLY. */
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_HUGE_ONLY | HIGH, B_HONLY, 0, 4128);
	expect_plan(MALLOC, 4 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY | LOW, B_NORMAL, 0, 4 * MiB + 32);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_NORMAL_ONLY | RO, B_NORMAL, RDONLY, 4128);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_HUGE_ONLY_P2P | RO, B_HONLY, P2P | RDONLY, 4128);
	expect_plan(MALLOC, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY | RO, B_1G, RDONLY, 4096);
	/* Not a valid combination: the out-of-range rule (by size). */
	expect_plan(MALLOC, 4096, LOW | HIGH, B_NORMAL, 0, 4128);
	expect_plan(MALLOC, 4 * MiB, ACL_MEM_MALLOC_HUGE1G_ONLY | LOW, B_HFIRST, 0, 4 * MiB + 32);
}
END_TEST

START_TEST(align32_single_items)
{
	expect_plan(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE_FIRST, B_HFIRST, 0, 4096);
	expect_plan(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE_ONLY, B_HONLY, 0, 4096);
	expect_plan(ALIGN32, 4096, ACL_MEM_MALLOC_NORMAL_ONLY, B_NORMAL, 0, 4096);
	expect_plan(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE_FIRST_P2P, B_HFIRST, P2P, 4096);
	expect_plan(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE_ONLY_P2P, B_HONLY, P2P, 4096);
	expect_plan(ALIGN32, 4096, ACL_MEM_MALLOC_NORMAL_ONLY_P2P, B_NORMAL, P2P, 4096);
	expect_plan(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY, B_1G, 0, 4096);
	expect_plan(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, B_1G, P2P, 4096);
	expect_plan(ALIGN32, 4097, LOW, B_HFIRST, 0, 4128);
	expect_plan(ALIGN32, 4097, HIGH, B_HFIRST, 0, 4128);
	expect_plan(ALIGN32, 4097, RO, B_HFIRST, RDONLY, 4128);
}
END_TEST

START_TEST(align32_rejects_combinations)
{
	expect_reject(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE_ONLY | HIGH);
	expect_reject(ALIGN32, 4096, ACL_MEM_MALLOC_NORMAL_ONLY | LOW);
	expect_reject(ALIGN32, 4096, ACL_MEM_MALLOC_NORMAL_ONLY | RO);
	expect_reject(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE_ONLY_P2P | RO);
	expect_reject(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY | RO);
	expect_reject(ALIGN32, 4096, LOW | HIGH);
	expect_reject(ALIGN32, 4096, LOW | RO);
	expect_reject(ALIGN32, 4096, HIGH | RO);
	expect_reject(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE_FIRST_P2P | LOW);
	expect_reject(ALIGN32, 4096, ACL_MEM_MALLOC_HUGE_ONLY | HIGH | RO);
	expect_reject(ALIGN32, 4096, 7 | LOW | HIGH | RO);
}
END_TEST

START_TEST(cached_accepts_four_policies)
{
	expect_plan(CACHED, 100, ACL_MEM_MALLOC_HUGE_FIRST, B_HFIRST, 0, 160);
	expect_plan(CACHED, 100, ACL_MEM_MALLOC_HUGE_ONLY, B_HONLY, 0, 160);
	expect_plan(CACHED, 100, ACL_MEM_MALLOC_NORMAL_ONLY, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, ACL_MEM_MALLOC_HUGE1G_ONLY, B_1G, 0, 128);
	expect_plan(CACHED, 100, ACL_MEM_MALLOC_HUGE_FIRST_P2P, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, ACL_MEM_MALLOC_HUGE_ONLY_P2P, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, ACL_MEM_MALLOC_NORMAL_ONLY_P2P, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, LOW, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, HIGH, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, RO, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, 8, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, ACL_MEM_MALLOC_HUGE_ONLY | HIGH, B_NORMAL, 0, 160);
	expect_plan(CACHED, 100, 0xffffffffU, B_NORMAL, 0, 160);
}
END_TEST

START_TEST(with_cfg_combinations)
{
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE_ONLY | HIGH, B_HONLY, 0, 4096);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE_ONLY | LOW, B_HONLY, 0, 4096);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_NORMAL_ONLY | LOW | RO, B_NORMAL, RDONLY, 4096);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE_FIRST | HIGH | RO, B_HFIRST, RDONLY, 4096);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_NORMAL_ONLY_P2P | RO, B_NORMAL, P2P | RDONLY, 4096);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY | RO, B_1G, RDONLY, 4096);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P | RO, B_1G, P2P | RDONLY, 4096);
	expect_plan(WITHCFG, 4096, RO, B_HFIRST, RDONLY, 4096);
	expect_plan(WITHCFG, 4096, HIGH | RO, B_HFIRST, RDONLY, 4096);
	/* every single item as for aclrtMalloc */
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE_ONLY_P2P, B_HONLY, P2P, 4096);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY, B_1G, 0, 4096);
}
END_TEST

START_TEST(with_cfg_invalid_combinations_are_out_of_range)
{
	/* two bandwidth bits; bandwidth with a P2P or 1G base: not an error */
	expect_plan(WITHCFG, 4096, LOW | HIGH, B_NORMAL, 0, 4096);
	expect_plan(WITHCFG, 4 * MiB, LOW | HIGH | RO, B_HFIRST, 0, 4 * MiB);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE_FIRST_P2P | LOW, B_NORMAL, 0, 4096);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE1G_ONLY | HIGH, B_NORMAL, 0, 4096);
	expect_plan(WITHCFG, 4096, ACL_MEM_MALLOC_HUGE_ONLY | 0x8, B_NORMAL, 0, 4096);
}
END_TEST

START_TEST(classifiers)
{
	for (uint32_t p = 0; p <= 7; p++) {
		ck_assert(npu_rt_policy_is_single_item(p));
		ck_assert(!npu_rt_policy_is_or_of_items(p));
		ck_assert(npu_rt_policy_is_valid_combination(p));
	}
	ck_assert(npu_rt_policy_is_single_item(LOW));
	ck_assert(npu_rt_policy_is_single_item(HIGH));
	ck_assert(npu_rt_policy_is_single_item(RO));
	ck_assert(!npu_rt_policy_is_single_item(8));
	ck_assert(!npu_rt_policy_is_single_item(LOW | HIGH));
	ck_assert(!npu_rt_policy_is_single_item(1 | RO));

	ck_assert(!npu_rt_policy_is_or_of_items(LOW));
	ck_assert(!npu_rt_policy_is_or_of_items(RO));
	ck_assert(!npu_rt_policy_is_or_of_items(8));
	ck_assert(!npu_rt_policy_is_or_of_items(0x200));
	ck_assert(!npu_rt_policy_is_or_of_items(9));
	ck_assert(npu_rt_policy_is_or_of_items(1 | LOW));
	ck_assert(npu_rt_policy_is_or_of_items(LOW | HIGH));
	ck_assert(npu_rt_policy_is_or_of_items(5 | RO));

	ck_assert(npu_rt_policy_is_valid_combination(0 | LOW));
	ck_assert(npu_rt_policy_is_valid_combination(1 | HIGH));
	ck_assert(npu_rt_policy_is_valid_combination(2 | HIGH | RO));
	ck_assert(npu_rt_policy_is_valid_combination(7 | RO));
	ck_assert(!npu_rt_policy_is_valid_combination(3 | LOW));
	ck_assert(!npu_rt_policy_is_valid_combination(6 | HIGH));
	ck_assert(!npu_rt_policy_is_valid_combination(LOW | HIGH));
	ck_assert(!npu_rt_policy_is_valid_combination(8));
	ck_assert(!npu_rt_policy_is_valid_combination(RO | 0x200000));
}
END_TEST

START_TEST(malloc_cfg_checks)
{
	aclrtMallocAttribute attrs[3];
	aclrtMallocConfig cfg = { NULL, 0 };
	int64_t want = 99;

	/* ACL layer: only numAttrs != 0 with attrs NULL (100000). */
	ck_assert_int_eq(npu_rt_check_malloc_cfg(NULL), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_check_malloc_cfg(&cfg), ACL_SUCCESS);
	cfg.numAttrs = 1;
	ck_assert_int_eq(npu_rt_check_malloc_cfg(&cfg), ACL_ERROR_INVALID_PARAM);

	/* Runtime: NULL cfg is fine; a cfg with attrs NULL is 107000 even with numAttrs 0. */
	ck_assert_int_eq(npu_rt_parse_malloc_cfg(NULL, &want), ACL_SUCCESS);
	ck_assert_int_eq(want, -1);
	cfg.numAttrs = 0;
	want = 99;
	ck_assert_int_eq(npu_rt_parse_malloc_cfg(&cfg, &want), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(want, 99);

	attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
	attrs[0].value.moduleId = 33;
	attrs[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
	attrs[1].value.deviceId = 3;
	attrs[2].attr = ACL_RT_MEM_ATTR_RSV;
	cfg.attrs = attrs;
	cfg.numAttrs = 1;
	ck_assert_int_eq(npu_rt_check_malloc_cfg(&cfg), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_parse_malloc_cfg(&cfg, &want), ACL_SUCCESS);
	ck_assert_int_eq(want, -1);
	cfg.numAttrs = 3;
	ck_assert_int_eq(npu_rt_parse_malloc_cfg(&cfg, &want), ACL_SUCCESS);
	ck_assert_int_eq(want, 3);

	/* VA_FLAG is a host attribute: device memory refuses it, as any unknown type. */
	attrs[2].attr = ACL_RT_MEM_ATTR_VA_FLAG;
	want = 99;
	ck_assert_int_eq(npu_rt_parse_malloc_cfg(&cfg, &want), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(want, 99);
	attrs[2].attr = (aclrtMallocAttrType)4;	/* outside aclrtMallocAttrType */
	ck_assert_int_eq(npu_rt_check_malloc_cfg(&cfg), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_parse_malloc_cfg(&cfg, &want), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(want, 99);
}
END_TEST

static Suite *policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *t = tcase_create("core");

	tcase_add_test(t, footprint_padded);
	tcase_add_test(t, footprint_unpadded);
	tcase_add_test(t, footprint_overflow);
	tcase_add_test(t, overflow_through_every_api);
	tcase_add_test(t, size_zero_rejected);
	tcase_add_test(t, unknown_api_rejected);
	tcase_add_test(t, malloc_each_single_item);
	tcase_add_test(t, issue_examples);
	tcase_add_test(t, out_of_range_uses_size_rule);
	tcase_add_test(t, malloc_combinations_honoured);
	tcase_add_test(t, align32_single_items);
	tcase_add_test(t, align32_rejects_combinations);
	tcase_add_test(t, cached_accepts_four_policies);
	tcase_add_test(t, with_cfg_combinations);
	tcase_add_test(t, with_cfg_invalid_combinations_are_out_of_range);
	tcase_add_test(t, classifiers);
	tcase_add_test(t, malloc_cfg_checks);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(policy_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
