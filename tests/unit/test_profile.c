/*
 * Unit tests of lib/rules/profile.c and the profile-aware parts of lib/rules/policy.c
 * and lib/rules/meminfo_rules.c: the policy item a plan asks for, what each
 * product accepts, its padding and its aclrtGetMemInfo answers.  Expected
 * values are written out, not read back from the shared table: supported
 * policy items from the seed aclrtMemMallocPolicy, padding from
 * aclrtMallocAlign32, aclrtMallocPhysical attributes from its seed page,
 * SoC names from hicann/runtime's platform configs; the memory kind, the
 * emulated forms and the index (enum npu_sim_profile_index) are npu_sim's.
 * tests/vm/test_profile.c says the same per column.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/rules/meminfo_rules.h"
#include "../../lib/rules/policy.h"
#include "../../lib/rules/profile.h"

#define MiB (1024ULL * 1024)
#define GiB (1024ULL * MiB)

/* index (UAPI enum), id, SoC, supported items (bit n), pad, DDR, 1G, P2P */
static const struct {
	unsigned index;
	const char *id, *soc;
	unsigned items;
	unsigned pad;
	int ddr, g1, p2p;
	int attr10, attr14, attr17, attr12;	/* aclrtMallocPhysical accepts */
} rows[] = {
	{ NPU_SIM_PROFILE_ASCEND950, "ascend950", "Ascend950PR_9599", 0xff, 0, 0, 1, 1, 1, 0, 0, 1 },
	{ NPU_SIM_PROFILE_ATLAS_A3, "atlas-a3", "Ascend910_9391", 0xff, 32, 0, 1, 1, 1, 1, 1, 1 },
	{ NPU_SIM_PROFILE_ATLAS_A2, "atlas-a2", "Ascend910B1", 0xff, 32, 0, 1, 1, 1, 1, 0, 1 },
	{ NPU_SIM_PROFILE_ATLAS_200I_500_A2, "atlas-200i-500-a2", "Ascend310B1", 0x07, 32, 1, 0, 0, 0, 0, 0, 0 },
	{ NPU_SIM_PROFILE_ATLAS_INFERENCE, "atlas-inference", "Ascend310P3", 0x3f, 32, 1, 0, 1, 0, 0, 0, 1 },
	{ NPU_SIM_PROFILE_ATLAS_TRAINING, "atlas-training", "Ascend910A", 0x3f, 32, 0, 0, 1, 0, 0, 0, 1 },
};

START_TEST(default_row)
{
	ck_assert_str_eq(npu_rt_profile_get(0)->id, "atlas-a2");
	ck_assert_str_eq(npu_rt_profile_get(7)->id, "atlas-a2");
	ck_assert_str_eq(npu_rt_profile_get(UINT64_MAX)->id, "atlas-a2");
	ck_assert_int_eq(NPU_SIM_PROFILE_NR, 7);
}
END_TEST

START_TEST(policy_items)
{
	ck_assert_int_eq(npu_rt_profile_policy_item(NPU_SIM_BACKING_HUGE_FIRST, 0), 0);
	ck_assert_int_eq(npu_rt_profile_policy_item(NPU_SIM_BACKING_HUGE_ONLY, 0), 1);
	ck_assert_int_eq(npu_rt_profile_policy_item(NPU_SIM_BACKING_NORMAL, 0), 2);
	ck_assert_int_eq(npu_rt_profile_policy_item(NPU_SIM_BACKING_HUGE_FIRST, NPU_SIM_ALLOC_P2P), 3);
	ck_assert_int_eq(npu_rt_profile_policy_item(NPU_SIM_BACKING_HUGE_ONLY, NPU_SIM_ALLOC_P2P), 4);
	ck_assert_int_eq(npu_rt_profile_policy_item(NPU_SIM_BACKING_NORMAL, NPU_SIM_ALLOC_P2P), 5);
	ck_assert_int_eq(npu_rt_profile_policy_item(NPU_SIM_BACKING_HUGE1G_ONLY, 0), 6);
	ck_assert_int_eq(npu_rt_profile_policy_item(NPU_SIM_BACKING_HUGE1G_ONLY,
						    NPU_SIM_ALLOC_P2P | NPU_SIM_ALLOC_READONLY), 7);
	ck_assert_int_eq(npu_rt_profile_policy_item(0, 0), -1);
	ck_assert_int_eq(npu_rt_profile_policy_item(5, 0), -1);
}
END_TEST

/* Each row: identity, every policy item through a real plan, padding. */
START_TEST(rows_match_support_lists)
{
	const struct npu_sim_profile *p = npu_rt_profile_get(rows[_i].index);
	struct npu_rt_alloc_plan plan;

	ck_assert_str_eq(p->id, rows[_i].id);
	ck_assert_str_eq(p->soc_name, rows[_i].soc);
	ck_assert_int_eq(p->mem_kind, rows[_i].ddr ? NPU_SIM_MEM_DDR : NPU_SIM_MEM_HBM);
	for (uint32_t item = 0; item < 8; item++) {
		ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC, 100, item, &plan), ACL_SUCCESS);
		ck_assert_msg(npu_rt_profile_alloc_ok(p, plan.backing, plan.flags) ==
			      ((rows[_i].items >> item) & 1), "%s item %u", p->id, item);
	}
	/* out-of-range policies use HUGE_FIRST / NORMAL: every product has them */
	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC, 100, 0x42, &plan), ACL_SUCCESS);
	ck_assert(npu_rt_profile_alloc_ok(p, plan.backing, plan.flags));

	ck_assert_int_eq(npu_rt_plan_alloc_pad(NPU_SIM_API_MALLOC, 100, 2, p->malloc_pad, &plan),
			 ACL_SUCCESS);
	ck_assert_uint_eq(plan.footprint, 128 + rows[_i].pad);
	ck_assert_int_eq(npu_rt_plan_alloc_pad(NPU_SIM_API_MALLOC_CACHED, 64, 2, p->malloc_pad, &plan),
			 ACL_SUCCESS);
	ck_assert_uint_eq(plan.footprint, 64 + rows[_i].pad);
	ck_assert_int_eq(npu_rt_plan_alloc_pad(NPU_SIM_API_MALLOC_ALIGN32, 100, 2, p->malloc_pad, &plan),
			 ACL_SUCCESS);
	ck_assert_uint_eq(plan.footprint, 128);
	/* HUGE1G never pads */
	ck_assert_int_eq(npu_rt_plan_alloc_pad(NPU_SIM_API_MALLOC, 100, 6, p->malloc_pad, &plan),
			 ACL_SUCCESS);
	ck_assert_uint_eq(plan.footprint, 128);

	ck_assert_int_eq(npu_rt_profile_phys_ok(p, ACL_HBM_MEM_HUGE1G, NPU_SIM_PAGE_HUGE_1G), rows[_i].attr10);
	ck_assert_int_eq(npu_rt_profile_phys_ok(p, ACL_MEM_HUGE1G, NPU_SIM_PAGE_HUGE_1G), rows[_i].attr14);
	ck_assert_int_eq(npu_rt_profile_phys_ok(p, ACL_MEM_P2P_HUGE1G, NPU_SIM_PAGE_HUGE_1G), rows[_i].attr17);
	ck_assert_int_eq(npu_rt_profile_phys_ok(p, ACL_MEM_NORMAL, NPU_SIM_PAGE_NORMAL), rows[_i].attr12);
	ck_assert_int_eq(npu_rt_profile_phys_ok(p, ACL_DDR_MEM_NORMAL, NPU_SIM_PAGE_NORMAL), rows[_i].attr12);
}
END_TEST

START_TEST(meminfo_per_product)
{
	const struct npu_sim_profile *p = npu_rt_profile_get(rows[_i].index);
	struct npu_sim_mem_info mi = { 0 };
	size_t f = 1, t = 2;

	mi.capacity = 2 * GiB;
	mi.used = 4 * MiB;
	mi.huge_2m_free = 10;
	mi.huge_1g_free = 1;
	mi.host_total = 8 * GiB;
	mi.host_free = 5 * GiB;

	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_HBM_MEM, &mi, p, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(t, 2 * GiB);
	ck_assert_uint_eq(f, 2 * GiB - 4 * MiB);
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_DDR_MEM, &mi, p, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(t, rows[_i].ddr ? 2 * GiB : 8 * GiB);
	ck_assert_uint_eq(f, rows[_i].ddr ? 2 * GiB - 4 * MiB : 5 * GiB);
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_DDR_MEM_HUGE, &mi, p, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(f, rows[_i].ddr ? 20 * MiB : 5 * GiB);
	f = 1;
	t = 2;
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_MEM_HUGE1G, &mi, p, &f, &t),
			 rows[_i].g1 ? ACL_SUCCESS : ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_uint_eq(t, rows[_i].g1 ? 2 * GiB : 2);
	ck_assert_uint_eq(f, rows[_i].g1 ? 1 * GiB : 1);
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_MEM_P2P_HUGE, &mi, p, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(t, rows[_i].p2p ? 2 * GiB : 0);
	ck_assert_uint_eq(f, rows[_i].p2p ? 20 * MiB : 0);
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(99, &mi, p, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
}
END_TEST

/*
 * NULL profile: the Atlas A2 answers, written out per class for one device
 * state: 2 GiB capacity, 1 GiB used, 3 free 2 MiB pool pages, 1 free 1 GiB
 * page, host 8 GiB total / 1 GiB free.  ACL_DDR_* classes are the host's,
 * the others the device's; a 2 MiB or 1 GiB class can hand out no more than
 * both the free capacity and its free pool pages hold.
 */
START_TEST(meminfo_null_is_a2)
{
	enum { HOST, ANY, H2M, H1G };
	static const int class_of[18] = {
		[ACL_DDR_MEM] = HOST, [ACL_HBM_MEM] = ANY, [ACL_DDR_MEM_HUGE] = HOST,
		[ACL_DDR_MEM_NORMAL] = HOST, [ACL_HBM_MEM_HUGE] = H2M, [ACL_HBM_MEM_NORMAL] = ANY,
		[ACL_DDR_MEM_P2P_HUGE] = HOST, [ACL_DDR_MEM_P2P_NORMAL] = HOST,
		[ACL_HBM_MEM_P2P_HUGE] = H2M, [ACL_HBM_MEM_P2P_NORMAL] = ANY,
		[ACL_HBM_MEM_HUGE1G] = H1G, [ACL_HBM_MEM_P2P_HUGE1G] = H1G, [ACL_MEM_NORMAL] = ANY,
		[ACL_MEM_HUGE] = H2M, [ACL_MEM_HUGE1G] = H1G, [ACL_MEM_P2P_NORMAL] = ANY,
		[ACL_MEM_P2P_HUGE] = H2M, [ACL_MEM_P2P_HUGE1G] = H1G,
	};
	static const size_t want_free[] = { [HOST] = 1 * GiB, [ANY] = 1 * GiB, [H2M] = 6 * MiB,
					    [H1G] = 1 * GiB };
	static const size_t want_total[] = { [HOST] = 8 * GiB, [ANY] = 2 * GiB, [H2M] = 2 * GiB,
					     [H1G] = 2 * GiB };
	struct npu_sim_mem_info mi = { 0 };
	size_t f, t;

	mi.capacity = 2 * GiB;
	mi.used = 1 * GiB;
	mi.huge_2m_free = 3;
	mi.huge_1g_free = 1;
	mi.host_total = 8 * GiB;
	mi.host_free = 1 * GiB;
	for (int attr = 0; attr <= 17; attr++) {
		const struct npu_sim_profile *a2 = npu_rt_profile_get(NPU_SIM_PROFILE_ATLAS_A2);

		f = t = 77;
		ck_assert_int_eq(npu_rt_mem_info_figures(attr, &mi, &f, &t), ACL_SUCCESS);
		ck_assert_msg(f == want_free[class_of[attr]] && t == want_total[class_of[attr]],
			      "attr %d (NULL): %zu / %zu", attr, f, t);
		f = t = 77;
		ck_assert_int_eq(npu_rt_mem_info_figures_profile(attr, &mi, a2, &f, &t), ACL_SUCCESS);
		ck_assert_msg(f == want_free[class_of[attr]] && t == want_total[class_of[attr]],
			      "attr %d (A2): %zu / %zu", attr, f, t);
	}
	ck_assert_int_eq(npu_rt_mem_info_figures(18, &mi, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
}
END_TEST

static Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *t = tcase_create("profile");
	int n = sizeof(rows) / sizeof(rows[0]);

	tcase_add_test(t, default_row);
	tcase_add_test(t, policy_items);
	tcase_add_loop_test(t, rows_match_support_lists, 0, n);
	tcase_add_loop_test(t, meminfo_per_product, 0, n);
	tcase_add_test(t, meminfo_null_is_a2);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(profile_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
