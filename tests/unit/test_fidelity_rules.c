/*
 * Unit tests of the pure rules whose codes follow the CANN runtime's source
 * (issue 25, docs/cann-api-notes.md "Checks and codes"): each row the rules
 * decide, asserted to the exact code.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>

#include <misc/npu_sim.h>
#include <misc/npu_sim_profiles.h>

#include "../../lib/rules/copy_rules.h"
#include "../../lib/rules/errmap.h"
#include "../../lib/rules/meminfo_rules.h"
#include "../../lib/rules/policy.h"
#include "../../lib/rules/vmm_rules.h"

#include "unit_run.h"

#define MiB (1024ULL * 1024)

/* aclrtMallocCached: a policy it does not list is the default memory, padded. */
START_TEST(cached_other_policy_is_default)
{
	struct npu_rt_alloc_plan p = { 0, 0, 0 };

	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC_CACHED, 4 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY_P2P, &p),
			 ACL_SUCCESS);
	ck_assert_uint_eq(p.backing, NPU_SIM_BACKING_HUGE_FIRST);	/* default: huge from 2 MiB up */
	ck_assert_uint_eq(p.flags, 0);
	ck_assert_uint_eq(p.footprint, 4 * MiB + 32);
	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC_CACHED, 100, 0x12345, &p), ACL_SUCCESS);
	ck_assert_uint_eq(p.backing, NPU_SIM_BACKING_NORMAL);
	ck_assert_uint_eq(p.footprint, 160);
}
END_TEST

/* aclrtMallocCached: a padded size above 2^50 is the runtime's 107000. */
START_TEST(cached_size_cap)
{
	struct npu_rt_alloc_plan p = { 0, 0, 0 };

	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC_CACHED, (1ULL << 50) - 64, 0, &p), ACL_SUCCESS);
	ck_assert_uint_eq(p.footprint, (1ULL << 50) - 32);
	ck_assert_int_eq(npu_rt_alloc_runtime_check(NPU_SIM_API_MALLOC_CACHED, &p), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC_CACHED, (1ULL << 50) - 32, 0, &p), ACL_SUCCESS);
	ck_assert_uint_eq(p.footprint, 1ULL << 50);
	ck_assert_int_eq(npu_rt_alloc_runtime_check(NPU_SIM_API_MALLOC_CACHED, &p), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC_CACHED, (1ULL << 50) - 31, 0, &p), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_alloc_runtime_check(NPU_SIM_API_MALLOC_CACHED, &p), ACL_ERROR_RT_PARAM_INVALID);
	/* the other calls have no such cap in the runtime */
	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC, 1ULL << 51, 0, &p), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_alloc_runtime_check(NPU_SIM_API_MALLOC, &p), ACL_SUCCESS);
}
END_TEST

/* aclrtMallocWithCfg rounds to 32 bytes and adds no pad. */
START_TEST(with_cfg_unpadded)
{
	struct npu_rt_alloc_plan p = { 0, 0, 0 };

	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC_WITH_CFG, 1, ACL_MEM_MALLOC_HUGE_FIRST, &p),
			 ACL_SUCCESS);
	ck_assert_uint_eq(p.footprint, 32);
	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC_WITH_CFG, 2 * MiB, ACL_MEM_MALLOC_HUGE_ONLY, &p),
			 ACL_SUCCESS);
	ck_assert_uint_eq(p.footprint, 2 * MiB);
	ck_assert_int_eq(npu_rt_plan_alloc(NPU_SIM_API_MALLOC, 2 * MiB, ACL_MEM_MALLOC_HUGE_ONLY, &p), ACL_SUCCESS);
	ck_assert_uint_eq(p.footprint, 2 * MiB + 32);	/* aclrtMalloc still pads */
}
END_TEST

/* aclrtMallocHostWithCfg: attrs NULL, or any attribute but MODULE_ID / VA_FLAG: 107000. */
START_TEST(host_cfg_attributes)
{
	aclrtMallocAttribute a[2] = { { ACL_RT_MEM_ATTR_MODULE_ID, { .moduleId = 3 } },
				      { ACL_RT_MEM_ATTR_VA_FLAG, { .vaFlag = 1 } } };
	aclrtMallocConfig cfg = { NULL, 0 };

	ck_assert_int_eq(npu_rt_parse_host_cfg(NULL), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_parse_host_cfg(&cfg), ACL_ERROR_RT_PARAM_INVALID);
	cfg.numAttrs = 2;
	ck_assert_int_eq(npu_rt_parse_host_cfg(&cfg), ACL_ERROR_RT_PARAM_INVALID);
	cfg.attrs = a;
	ck_assert_int_eq(npu_rt_parse_host_cfg(&cfg), ACL_SUCCESS);
	a[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
	ck_assert_int_eq(npu_rt_parse_host_cfg(&cfg), ACL_ERROR_RT_PARAM_INVALID);
	a[1].attr = ACL_RT_MEM_ATTR_RSV;
	ck_assert_int_eq(npu_rt_parse_host_cfg(&cfg), ACL_ERROR_RT_PARAM_INVALID);
	a[1].attr = (aclrtMallocAttrType)9;
	ck_assert_int_eq(npu_rt_parse_host_cfg(&cfg), ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

/* aclrtGetMemInfo: attr outside the enum 107016; 1 GiB class without 1 GiB pages 207000. */
START_TEST(mem_info_codes)
{
	const struct npu_sim_profile *a2 = &npu_sim_profiles[NPU_SIM_PROFILE_ATLAS_A2];
	const struct npu_sim_profile *p310 = &npu_sim_profiles[NPU_SIM_PROFILE_ATLAS_INFERENCE];
	struct npu_sim_mem_info mi = { .capacity = 1ULL << 31, .huge_1g_free = 1 };
	size_t f = 7, t = 8;

	ck_assert(!(p310->flags & NPU_SIM_PROFILE_HUGE1G));
	ck_assert_int_eq(npu_rt_mem_info_figures(ACL_MEM_P2P_HUGE1G + 1, &mi, &f, &t),
			 ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	ck_assert_int_eq(npu_rt_mem_info_figures(ACL_DDR_MEM - 1, &mi, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	for (int attr = ACL_HBM_MEM_HUGE1G; attr <= ACL_MEM_P2P_HUGE1G; attr++) {
		if (attr != ACL_HBM_MEM_HUGE1G && attr != ACL_HBM_MEM_P2P_HUGE1G && attr != ACL_MEM_HUGE1G &&
		    attr != ACL_MEM_P2P_HUGE1G)
			continue;
		ck_assert_int_eq(npu_rt_mem_info_figures_profile(attr, &mi, p310, &f, &t),
				 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
		ck_assert_uint_eq(f, 7);
		ck_assert_uint_eq(t, 8);
	}
	ck_assert_int_eq(npu_rt_mem_info_figures_profile(ACL_MEM_HUGE1G, &mi, a2, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(f, 1ULL << 30);
}
END_TEST

/*
 * The chip features of the runtime's tables (src/runtime/config/<chip>/
 * dev_info_reg.cc) in the profile rows: 910_B_93 = A2/A3, 950 = Ascend 950,
 * mini_v3 = 200I/500 A2, dc = inference, cloud = training.
 */
START_TEST(profile_chip_features)
{
	static const struct {
		int row;
		int stars, cmo, async_cmo, fast_recover, err_repair;
		uint32_t kinds;
	} rows[] = {
		{ NPU_SIM_PROFILE_ASCEND950, 1, 1, 0, 1, 1, 0x1c00 },
		{ NPU_SIM_PROFILE_ATLAS_A3, 1, 1, 0, 1, 1, 0x1c00 },
		{ NPU_SIM_PROFILE_ATLAS_A2, 1, 1, 0, 1, 1, 0x1c00 },
		{ NPU_SIM_PROFILE_ATLAS_200I_500_A2, 1, 0, 1, 0, 0, 0x1c00 },
		{ NPU_SIM_PROFILE_ATLAS_INFERENCE, 0, 0, 0, 0, 0, 0x0400 },	/* sdmaReduceKind 0x6400 */
		{ NPU_SIM_PROFILE_ATLAS_TRAINING, 0, 0, 0, 0, 0, 0x1c00 },	/* 0x7C00, EQUAL not on HWTS */
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct npu_sim_profile *p = &npu_sim_profiles[rows[i].row];

		ck_assert_int_eq(!!(p->flags & NPU_SIM_PROFILE_STARS), rows[i].stars);
		ck_assert_int_eq(!!(p->flags & NPU_SIM_PROFILE_CMO), rows[i].cmo);
		ck_assert_int_eq(!!(p->flags & NPU_SIM_PROFILE_ASYNC_CMO), rows[i].async_cmo);
		ck_assert_int_eq(!!(p->flags & NPU_SIM_PROFILE_FAST_RECOVER), rows[i].fast_recover);
		ck_assert_int_eq(!!(p->flags & NPU_SIM_PROFILE_ERR_REPAIR), rows[i].err_repair);
		/* STREAM_ATTR_OVERFLOW_CHECK, _USER_CUSTOM_TAG: the same chips as ERR_GET_AND_REPAIR */
		ck_assert_int_eq(!!(p->flags & NPU_SIM_PROFILE_STREAM_ATTR), rows[i].err_repair);
		/* RT_FEATURE_TASK_MEMORY_BATCH_COPY: the same chips again */
		ck_assert_int_eq(!!(p->flags & NPU_SIM_PROFILE_BATCH_COPY), rows[i].err_repair);
		ck_assert_uint_eq(p->reduce_kinds, rows[i].kinds);
		/* FLOAT on every product; no unsigned type on any */
		ck_assert(p->reduce_types & NPU_SIM_REDUCE_BIT(NPU_SIM_REDUCE_FP32));
		ck_assert(!(p->reduce_types & (NPU_SIM_REDUCE_BIT(NPU_SIM_REDUCE_UINT8) |
					       NPU_SIM_REDUCE_BIT(NPU_SIM_REDUCE_UINT16) |
					       NPU_SIM_REDUCE_BIT(NPU_SIM_REDUCE_UINT32))));
	}
	ck_assert_uint_eq(npu_sim_profiles[NPU_SIM_PROFILE_ATLAS_TRAINING].reduce_types,
			  NPU_SIM_REDUCE_BIT(NPU_SIM_REDUCE_FP32));
	ck_assert(!(npu_sim_profiles[NPU_SIM_PROFILE_ATLAS_200I_500_A2].reduce_types &
		    NPU_SIM_REDUCE_BIT(NPU_SIM_REDUCE_BF16)));
}
END_TEST

/* aclrtMemcpy2d: the runtime's caps and the spans are 107000, after the ACL layer's 100000. */
START_TEST(memcpy2d_caps)
{
	static char a[1], b[1];
	size_t ds = 1, ss = 1;
	size_t w = NPU_RT_MEMCPY2D_MAX_WIDTH, h = NPU_RT_MEMCPY2D_MAX_HEIGHT;

	ck_assert_uint_eq(h, 5242880);
	ck_assert_uint_eq(w, 5000000);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, w, b, w, w, 1, ACL_MEMCPY_HOST_TO_DEVICE, &ds, &ss),
			 ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, 8, b, 8, 8, h, ACL_MEMCPY_HOST_TO_DEVICE, &ds, &ss),
			 ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, 8, b, 8, 8, h + 1, ACL_MEMCPY_HOST_TO_DEVICE, &ds, &ss),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, w + 1, b, w + 1, w + 1, 1, ACL_MEMCPY_DEVICE_TO_HOST, &ds,
						    &ss), ACL_ERROR_RT_PARAM_INVALID);
	/* the ACL layer's checks come first */
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, 8, b, 8, 8, h + 1, ACL_MEMCPY_HOST_TO_HOST, &ds, &ss),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, 8, b, 8, 9, h + 1, ACL_MEMCPY_DEVICE_TO_HOST, &ds, &ss),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(npu_rt_memcpy2d_args_check(a, SIZE_MAX / 2, b, 8, 8, 3, ACL_MEMCPY_DEVICE_TO_HOST, &ds,
						    &ss), ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

/* aclrtMemcpy2d: explicit D2D 207000; resolved D2D / H2H 107000; async: H2H only. */
START_TEST(memcpy2d_kinds)
{
	struct npu_rt_copy_route_plan user = { .route = NPU_RT_ROUTE_USER };
	struct npu_rt_copy_route_plan d2d = { .route = NPU_RT_ROUTE_DRIVER, .dir = NPU_SIM_COPY_D2D };
	struct npu_rt_copy_route_plan peer = { .route = NPU_RT_ROUTE_PEER, .dir = NPU_SIM_COPY_D2D };
	struct npu_rt_copy_route_plan h2d = { .route = NPU_RT_ROUTE_DRIVER, .dir = NPU_SIM_COPY_H2D };

	ck_assert_int_eq(npu_rt_memcpy2d_sync_kind_check(ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(npu_rt_memcpy2d_sync_kind_check(ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_memcpy2d_sync_kind_check(ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_memcpy2d_route_check(true, &user), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_memcpy2d_route_check(true, &d2d), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_memcpy2d_route_check(true, &peer), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_memcpy2d_route_check(true, &h2d), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_memcpy2d_route_check(false, &user), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_memcpy2d_route_check(false, &d2d), ACL_SUCCESS);
	ck_assert_int_eq(npu_rt_memcpy2d_route_check(false, &peer), ACL_SUCCESS);
}
END_TEST

/* The runtime's MemcpyKindAutoCorrect: corrected kind, or -1 for 107000. */
static int corrected(enum npu_rt_copy_side dst, enum npu_rt_copy_side src, int kind)
{
	aclError err = npu_rt_memcpy_kind_correct(dst, src, &kind);

	if (err == ACL_SUCCESS)
		return kind;
	ck_assert_int_eq(err, ACL_ERROR_RT_PARAM_INVALID);
	return -1;
}

START_TEST(memcpy_kind_correct)
{
	enum npu_rt_copy_side D = NPU_RT_SIDE_DEVICE, H = NPU_RT_SIDE_PINNED, P = NPU_RT_SIDE_PAGEABLE,
			      X = NPU_RT_SIDE_OTHER;
	int k;

	/* device and pinned host: the locations decide, whatever the kind */
	for (k = ACL_MEMCPY_HOST_TO_HOST; k <= ACL_MEMCPY_DEFAULT; k++) {
		ck_assert_int_eq(corrected(D, H, k), ACL_MEMCPY_HOST_TO_DEVICE);
		ck_assert_int_eq(corrected(H, D, k), ACL_MEMCPY_DEVICE_TO_HOST);
		ck_assert_int_eq(corrected(D, D, k), ACL_MEMCPY_DEVICE_TO_DEVICE);
		ck_assert_int_eq(corrected(H, H, k), ACL_MEMCPY_HOST_TO_HOST);
		ck_assert_int_eq(corrected(X, D, k), k);	/* straddling: unchanged */
	}
	ck_assert_int_eq(corrected(D, H, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE);
	ck_assert_int_eq(corrected(D, H, 9), 9);
	/* a pageable side: DEFAULT resolves as host, an explicit kind from the allowed set */
	ck_assert_int_eq(corrected(D, P, ACL_MEMCPY_DEFAULT), ACL_MEMCPY_HOST_TO_DEVICE);
	ck_assert_int_eq(corrected(D, P, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_MEMCPY_DEVICE_TO_DEVICE);
	ck_assert_int_eq(corrected(D, P, ACL_MEMCPY_DEVICE_TO_HOST), -1);
	ck_assert_int_eq(corrected(D, P, ACL_MEMCPY_HOST_TO_HOST), -1);
	ck_assert_int_eq(corrected(P, D, ACL_MEMCPY_DEFAULT), ACL_MEMCPY_DEVICE_TO_HOST);
	ck_assert_int_eq(corrected(P, D, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_MEMCPY_DEVICE_TO_DEVICE);
	ck_assert_int_eq(corrected(P, D, ACL_MEMCPY_HOST_TO_DEVICE), -1);
	ck_assert_int_eq(corrected(P, H, ACL_MEMCPY_DEFAULT), ACL_MEMCPY_HOST_TO_HOST);
	ck_assert_int_eq(corrected(P, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_MEMCPY_HOST_TO_DEVICE);
	ck_assert_int_eq(corrected(P, H, ACL_MEMCPY_DEVICE_TO_HOST), -1);
	ck_assert_int_eq(corrected(H, P, ACL_MEMCPY_DEVICE_TO_HOST), ACL_MEMCPY_DEVICE_TO_HOST);
	ck_assert_int_eq(corrected(H, P, ACL_MEMCPY_DEVICE_TO_DEVICE), -1);
	for (k = ACL_MEMCPY_HOST_TO_HOST; k <= ACL_MEMCPY_DEVICE_TO_DEVICE; k++)
		ck_assert_int_eq(corrected(P, P, k), k);
	ck_assert_int_eq(corrected(P, P, ACL_MEMCPY_DEFAULT), ACL_MEMCPY_HOST_TO_HOST);
}
END_TEST

static aclrtPhysicalMemProp prop(int attr, int loc, uint32_t id)
{
	aclrtPhysicalMemProp p = { 0 };

	p.handleType = (aclrtMemHandleType)7;	/* granularity does not read these two */
	p.allocationType = (aclrtMemAllocationType)5;
	p.memAttr = (aclrtMemAttr)attr;
	p.location.type = (aclrtMemLocationType)loc;
	p.location.id = id;
	return p;
}

/* aclrtMemGetAllocationGranularity's reading of a prop. */
START_TEST(granularity_prop)
{
	struct npu_rt_phys_plan plan = { .granularity = 99 };
	aclrtPhysicalMemProp p = prop(ACL_MEM_HUGE1G, ACL_MEM_LOCATION_TYPE_DEVICE, 1);

	ck_assert_int_eq(npu_rt_plan_phys_attr(&p, 4, false, &plan), ACL_SUCCESS);
	ck_assert_uint_eq(plan.granularity, 1ULL << 30);
	ck_assert_int_eq(npu_rt_plan_phys(&p, 4, &plan), ACL_ERROR_INVALID_PARAM);	/* handleType */
	p = prop(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0);
	ck_assert_int_eq(npu_rt_plan_phys_attr(&p, 4, false, &plan), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(npu_rt_plan_phys_attr(&p, 4, true, &plan), ACL_ERROR_INVALID_PARAM);
	p = prop(ACL_DDR_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
	ck_assert_int_eq(npu_rt_plan_phys_attr(&p, 4, false, &plan), ACL_ERROR_INVALID_PARAM);
	p = prop(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 4);
	ck_assert_int_eq(npu_rt_plan_phys_attr(&p, 4, false, &plan), ACL_ERROR_RT_INVALID_DEVICEID);
	p = prop(ACL_HBM_MEM_HUGE, ACL_MEM_LOCATION_TYPE_HOST, 0);
	ck_assert_int_eq(npu_rt_plan_phys_attr(&p, 4, false, &plan), ACL_ERROR_RT_PARAM_INVALID);
	p = prop(1000, ACL_MEM_LOCATION_TYPE_HOST, 0);
	ck_assert_int_eq(npu_rt_plan_phys_attr(&p, 4, false, &plan), ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(plan.granularity, 1ULL << 30);
}
END_TEST

/* No driver failure is 207002: a refused free is an invalid value. */
START_TEST(refused_free_is_invalid_value)
{
	ck_assert_int_eq(npu_rt_errno_to_acl(ENOENT), ACL_ERROR_RT_PARAM_INVALID);
	for (int e = 1; e < 200; e++)
		ck_assert_int_ne(npu_rt_errno_to_acl(e), ACL_ERROR_RT_MEMORY_FREE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fidelity_rules");
	TCase *t = tcase_create("core");

	tcase_add_test(t, cached_other_policy_is_default);
	tcase_add_test(t, cached_size_cap);
	tcase_add_test(t, with_cfg_unpadded);
	tcase_add_test(t, host_cfg_attributes);
	tcase_add_test(t, mem_info_codes);
	tcase_add_test(t, profile_chip_features);
	tcase_add_test(t, memcpy2d_caps);
	tcase_add_test(t, memcpy2d_kinds);
	tcase_add_test(t, memcpy_kind_correct);
	tcase_add_test(t, granularity_prop);
	tcase_add_test(t, refused_free_is_invalid_value);
	suite_add_tcase(s, t);
	return unit_run(s);
}
