/*
 * Unit tests of lib/rules/meminfo_rules.c: aclrtGetMemInfo figures per memory
 * class from the driver's counters.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../lib/rules/meminfo_rules.h"
#include "../../lib/rules/profile.h"

#define MiB (1024ULL * 1024)
#define GiB (1024ULL * MiB)

static struct npu_sim_mem_info sample(void)
{
	struct npu_sim_mem_info mi = { 0 };

	mi.capacity = 2 * GiB;
	mi.used = 4096 + 4 * MiB;	/* one normal allocation + 2 huge pages */
	mi.huge_2m_free = 100;
	mi.huge_2m_total = 200;
	mi.huge_1g_free = 1;
	mi.huge_1g_total = 2;
	mi.host_total = 8 * GiB;
	mi.host_free = 5 * GiB + 12345;
	return mi;
}

#define expect_figures(attr, mi, e_free, e_total)                                              \
	do {                                                                                   \
		size_t f_ = 1, t_ = 2;                                                         \
		ck_assert_int_eq(npu_rt_mem_info_figures((attr), &(mi), &f_, &t_), ACL_SUCCESS); \
		ck_assert_uint_eq(f_, (e_free));                                               \
		ck_assert_uint_eq(t_, (e_total));                                              \
	} while (0)

START_TEST(device_any_page_classes)
{
	struct npu_sim_mem_info mi = sample();
	const uint64_t free_any = 2 * GiB - 4096 - 4 * MiB;

	expect_figures(ACL_HBM_MEM, mi, free_any, 2 * GiB);
	expect_figures(ACL_HBM_MEM_NORMAL, mi, free_any, 2 * GiB);
	expect_figures(ACL_HBM_MEM_P2P_NORMAL, mi, free_any, 2 * GiB);
	expect_figures(ACL_MEM_NORMAL, mi, free_any, 2 * GiB);
	expect_figures(ACL_MEM_P2P_NORMAL, mi, free_any, 2 * GiB);
}
END_TEST

START_TEST(huge_2m_classes_limited_by_pool)
{
	struct npu_sim_mem_info mi = sample();

	/* pool: 100 pages = 200 MiB < capacity free */
	expect_figures(ACL_HBM_MEM_HUGE, mi, 200 * MiB, 2 * GiB);
	expect_figures(ACL_HBM_MEM_P2P_HUGE, mi, 200 * MiB, 2 * GiB);
	expect_figures(ACL_MEM_HUGE, mi, 200 * MiB, 2 * GiB);
	expect_figures(ACL_MEM_P2P_HUGE, mi, 200 * MiB, 2 * GiB);
}
END_TEST

START_TEST(huge_2m_classes_limited_by_capacity)
{
	struct npu_sim_mem_info mi = sample();

	mi.huge_2m_free = 5000;	/* 10000 MiB in the pool */
	/* capacity free 2 GiB - 4 MiB - 4 KiB rounds down to 2 GiB - 6 MiB */
	expect_figures(ACL_HBM_MEM_HUGE, mi, 2 * GiB - 6 * MiB, 2 * GiB);
	mi.huge_2m_free = 0;
	expect_figures(ACL_MEM_HUGE, mi, 0, 2 * GiB);
}
END_TEST

START_TEST(huge_1g_classes)
{
	struct npu_sim_mem_info mi = sample();

	expect_figures(ACL_HBM_MEM_HUGE1G, mi, GiB, 2 * GiB);	/* capacity: 1 GiB left */
	expect_figures(ACL_HBM_MEM_P2P_HUGE1G, mi, GiB, 2 * GiB);
	expect_figures(ACL_MEM_HUGE1G, mi, GiB, 2 * GiB);
	expect_figures(ACL_MEM_P2P_HUGE1G, mi, GiB, 2 * GiB);
	mi.huge_1g_free = 0;
	expect_figures(ACL_MEM_HUGE1G, mi, 0, 2 * GiB);
	mi.huge_1g_free = 4;
	mi.used = 0;
	expect_figures(ACL_MEM_HUGE1G, mi, 2 * GiB, 2 * GiB);
}
END_TEST

START_TEST(ddr_classes_are_host_ram)
{
	struct npu_sim_mem_info mi = sample();

	expect_figures(ACL_DDR_MEM, mi, 5 * GiB + 12345, 8 * GiB);
	expect_figures(ACL_DDR_MEM_HUGE, mi, 5 * GiB + 12345, 8 * GiB);
	expect_figures(ACL_DDR_MEM_NORMAL, mi, 5 * GiB + 12345, 8 * GiB);
	expect_figures(ACL_DDR_MEM_P2P_HUGE, mi, 5 * GiB + 12345, 8 * GiB);
	expect_figures(ACL_DDR_MEM_P2P_NORMAL, mi, 5 * GiB + 12345, 8 * GiB);
}
END_TEST

START_TEST(overcommitted_device_has_nothing_free)
{
	struct npu_sim_mem_info mi = sample();

	mi.used = 3 * GiB;
	expect_figures(ACL_HBM_MEM, mi, 0, 2 * GiB);
	expect_figures(ACL_HBM_MEM_HUGE, mi, 0, 2 * GiB);
	expect_figures(ACL_HBM_MEM_HUGE1G, mi, 0, 2 * GiB);
}
END_TEST

START_TEST(free_follows_allocation_exactly)
{
	struct npu_sim_mem_info mi = sample();
	size_t before, after, total;

	mi.huge_2m_free = 100000;
	ck_assert_int_eq(npu_rt_mem_info_figures(ACL_HBM_MEM, &mi, &before, &total), ACL_SUCCESS);
	mi.used += 4 * MiB;	/* a 2 MiB + 32 aclrtMalloc charged 4 MiB */
	ck_assert_int_eq(npu_rt_mem_info_figures(ACL_HBM_MEM, &mi, &after, &total), ACL_SUCCESS);
	ck_assert_uint_eq(before - after, 4 * MiB);
}
END_TEST

START_TEST(attr_outside_enum)
{
	struct npu_sim_mem_info mi = sample();
	size_t f = 11, t = 22;

	ck_assert_int_eq(npu_rt_mem_info_figures(18, &mi, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	ck_assert_int_eq(npu_rt_mem_info_figures(-1, &mi, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	ck_assert_int_eq(npu_rt_mem_info_figures(1000, &mi, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	ck_assert_uint_eq(f, 11);
	ck_assert_uint_eq(t, 22);
}
END_TEST

/* The classes MEM_INFO answers without the pool and host figures. */
START_TEST(device_only_classes_need_no_pool_figures)
{
	const struct npu_sim_profile *hbm = npu_rt_profile_get(NPU_SIM_PROFILE_ATLAS_A2);
	const struct npu_sim_profile *ddr = npu_rt_profile_get(NPU_SIM_PROFILE_ATLAS_INFERENCE);
	struct npu_sim_mem_info full = sample(), dev_only = sample();
	size_t f1, t1, f2, t2;

	ck_assert(npu_rt_mem_info_how(ACL_HBM_MEM, hbm).device_only);
	ck_assert(npu_rt_mem_info_how(ACL_MEM_NORMAL, hbm).device_only);
	ck_assert(npu_rt_mem_info_how(ACL_HBM_MEM_P2P_NORMAL, NULL).device_only);
	ck_assert(!npu_rt_mem_info_how(ACL_HBM_MEM_HUGE, hbm).device_only);
	ck_assert(!npu_rt_mem_info_how(ACL_MEM_HUGE1G, hbm).device_only);
	ck_assert(!npu_rt_mem_info_how(ACL_DDR_MEM, hbm).device_only);	/* host RAM */
	ck_assert(npu_rt_mem_info_how(ACL_DDR_MEM, ddr).device_only);	/* the device's DDR */
	ck_assert(!npu_rt_mem_info_how(ACL_DDR_MEM_HUGE, ddr).device_only);
	/* Device memory (clamped to the process's limit): DDR only on a DDR product. */
	ck_assert(npu_rt_mem_info_how(ACL_HBM_MEM_HUGE, hbm).is_device);
	ck_assert(!npu_rt_mem_info_how(ACL_DDR_MEM, hbm).is_device);
	ck_assert(npu_rt_mem_info_how(ACL_DDR_MEM, ddr).is_device);
	ck_assert_int_eq(npu_rt_mem_info_how(1000, hbm).err, ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	/* Same figures with the pool and host fields left zero. */
	full.huge_2m_free = 7;
	full.host_total = 64 * GiB;
	full.host_free = 32 * GiB;
	dev_only.huge_2m_free = dev_only.huge_2m_total = dev_only.huge_1g_free = 0;
	dev_only.huge_1g_total = dev_only.host_total = dev_only.host_free = 0;
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_HBM_MEM, &full, hbm, &f1, &t1), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_HBM_MEM, &dev_only, hbm, &f2, &t2), ACL_SUCCESS);
	ck_assert_uint_eq(f1, f2);
	ck_assert_uint_eq(t1, t2);
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_DDR_MEM, &full, ddr, &f1, &t1), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_DDR_MEM, &dev_only, ddr, &f2, &t2), ACL_SUCCESS);
	ck_assert_uint_eq(f1, f2);
	ck_assert_uint_eq(t1, t2);
}
END_TEST

static Suite *meminfo_suite(void)
{
	Suite *s = suite_create("meminfo_rules");
	TCase *t = tcase_create("core");

	tcase_add_test(t, device_any_page_classes);
	tcase_add_test(t, huge_2m_classes_limited_by_pool);
	tcase_add_test(t, huge_2m_classes_limited_by_capacity);
	tcase_add_test(t, huge_1g_classes);
	tcase_add_test(t, ddr_classes_are_host_ram);
	tcase_add_test(t, overcommitted_device_has_nothing_free);
	tcase_add_test(t, free_follows_allocation_exactly);
	tcase_add_test(t, attr_outside_enum);
	tcase_add_test(t, device_only_classes_need_no_pool_figures);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(meminfo_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
