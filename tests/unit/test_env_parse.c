/*
 * Unit tests of the parsers of NPU_SIM_MEM_LIMIT (lib/diag/limits.c) and
 * NPU_SIM_FAULTS (lib/diag/faults.c): accepted forms with their exact values,
 * and every malformed form refused.  Linked against libacl_rt.a.
 */
#include <check.h>
#include <stdint.h>

#include <misc/npu_sim.h>

#include "../../lib/diag/faults.h"
#include "../../lib/diag/limits.h"
#include "unit_run.h"

#define ALL_OPS NPU_SIM_FAULT_OPS_MASK
#define OP(x) (1U << NPU_SIM_FAULT_##x)

START_TEST(limit_sizes)
{
	uint64_t b = 0;

	ck_assert_int_eq(npu_rt_limit_parse("67108864", &b), 0);
	ck_assert_uint_eq(b, 67108864ULL);
	ck_assert_int_eq(npu_rt_limit_parse("64M", &b), 0);
	ck_assert_uint_eq(b, 64ULL << 20);
	ck_assert_int_eq(npu_rt_limit_parse("3k", &b), 0);
	ck_assert_uint_eq(b, 3ULL << 10);
	ck_assert_int_eq(npu_rt_limit_parse("2G", &b), 0);
	ck_assert_uint_eq(b, 2ULL << 30);
	ck_assert_int_eq(npu_rt_limit_parse("1t", &b), 0);
	ck_assert_uint_eq(b, 1ULL << 40);
	ck_assert_int_eq(npu_rt_limit_parse("18446744073709551615", &b), 0);
	ck_assert_uint_eq(b, UINT64_MAX);
}
END_TEST

START_TEST(limit_malformed)
{
	static const char *const bad[] = {
		"", "0", "0M", "M", "-1", " 1", "1 ", "64MB", "64MiB", "1.5G", "0x10",
		"18446744073709551616", "17179869184G", "1P",
	};
	uint64_t b = 7;
	unsigned int i;

	ck_assert_int_eq(npu_rt_limit_parse(NULL, &b), -1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(npu_rt_limit_parse(bad[i], &b) == -1, "\"%s\" accepted", bad[i]);
	ck_assert_uint_eq(b, 7);
}
END_TEST

START_TEST(faults_forms)
{
	struct npu_rt_faults f;

	ck_assert_int_eq(npu_rt_faults_parse("42:0.1", &f), 0);
	ck_assert_uint_eq(f.seed, 42);
	ck_assert_uint_eq(f.rate_ppm, 100000);
	ck_assert_uint_eq(f.ops, ALL_OPS);
	ck_assert_int_eq(npu_rt_faults_parse("0x10:25%:alloc+copy", &f), 0);
	ck_assert_uint_eq(f.seed, 16);
	ck_assert_uint_eq(f.rate_ppm, 250000);
	ck_assert_uint_eq(f.ops, OP(ALLOC) | OP(COPY));
	ck_assert_int_eq(npu_rt_faults_parse("18446744073709551615:1:map,import,stream", &f), 0);
	ck_assert_uint_eq(f.seed, UINT64_MAX);
	ck_assert_uint_eq(f.rate_ppm, 1000000);
	ck_assert_uint_eq(f.ops, OP(MAP) | OP(IMPORT) | OP(STREAM));
	ck_assert_int_eq(npu_rt_faults_parse("1:100%:all", &f), 0);
	ck_assert_uint_eq(f.rate_ppm, 1000000);
	ck_assert_uint_eq(f.ops, ALL_OPS);
	/* Tiny rates round to at least one in a million. */
	ck_assert_int_eq(npu_rt_faults_parse("1:0.0000001", &f), 0);
	ck_assert_uint_eq(f.rate_ppm, 1);
	ck_assert_int_eq(npu_rt_faults_parse("1:.5", &f), 0);
	ck_assert_uint_eq(f.rate_ppm, 500000);
}
END_TEST

START_TEST(faults_malformed)
{
	static const char *const bad[] = {
		"", "1", "1:", ":0.1", "x:0.1", "-1:0.1", "1:0", "1:0%", "1:1.01", "1:101%", "1:abc",
		"1:0.1:", "1:0.1:alloc,", "1:0.1:,alloc", "1:0.1:alloc,,copy", "1:0.1:nothing",
		"1:0.1:Alloc", "1:0.1x", "18446744073709551616:0.1", "1:%", "1:-0.1",
	};
	struct npu_rt_faults f = { .seed = 9 };
	unsigned int i;

	ck_assert_int_eq(npu_rt_faults_parse(NULL, &f), -1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(npu_rt_faults_parse(bad[i], &f) == -1, "\"%s\" accepted", bad[i]);
	ck_assert_uint_eq(f.seed, 9);
}
END_TEST

static Suite *env_parse_suite(void)
{
	Suite *s = suite_create("env_parse");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, limit_sizes);
	tcase_add_test(tc, limit_malformed);
	tcase_add_test(tc, faults_forms);
	tcase_add_test(tc, faults_malformed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(env_parse_suite());
}
