// SPDX-License-Identifier: GPL-2.0
/*
 * Product profiles (module parameter profile=): the module is loaded once
 * per profile and the per-product rules are checked against the vendor
 * support lists (seeds aclrtMemMallocPolicy, aclrtMallocAlign32,
 * aclrtMallocPhysical, pyACL acl.rt.malloc; docs/cann-api-notes.md).  The
 * expected values below are written out from those lists, not read from
 * include/uapi/misc/npu_sim_profiles.h, so a wrong table row fails here.
 * Policies and 1 GiB attributes are probed with a size above the capacity:
 * a supported one fails with 207001 (capacity), an unsupported one with
 * 207000 before anything is charged, so no 1 GiB page is ever zeroed.
 */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define NS	ACL_ERROR_RT_FEATURE_NOT_SUPPORT	/* 207000 */
#define CAP	ACL_ERROR_RT_MEMORY_ALLOCATION		/* 207001 */
#define OK	ACL_SUCCESS

struct prof_case {
	const char *id;
	const char *product;	/* named by aclGetRecentErrMsg */
	const char *soc;
	const char *kind;	/* sysfs memory_kind */
	unsigned index;		/* GET_PARAM NPU_SIM_PARAM_PROFILE */
	unsigned long long cap_mib;
	unsigned pad;		/* aclrtMalloc bytes after ALIGN_UP(len, 32) */
	int policy_rc[8];	/* aclrtMalloc of capacity + 1 bytes, items 0..7 */
	int ddr;		/* ACL_DDR_MEM is the device memory */
	int has_1g, has_p2p;	/* GetMemInfo of 1 GiB / P2P classes not 0 */
	/* aclrtMallocPhysical: ACL_MEM_NORMAL (2 MiB), then 1 GiB attributes
	 * HBM_MEM_HUGE1G, MEM_HUGE1G, MEM_P2P_HUGE1G above the capacity */
	int phys_normal, phys_hbm1g, phys_mem1g, phys_p2p1g;
};

static const struct prof_case cases[] = {
	{ "ascend950", "Ascend 950PR/Ascend 950DT", "Ascend950PR_9599", "HBM", 1, 4096, 0,
	  { CAP, CAP, CAP, CAP, CAP, CAP, CAP, CAP }, 0, 1, 1, OK, CAP, NS, NS },
	{ "atlas-a3", "Atlas A3 training/inference", "Ascend910_9391", "HBM", 2, 2048, 32,
	  { CAP, CAP, CAP, CAP, CAP, CAP, CAP, CAP }, 0, 1, 1, OK, CAP, CAP, CAP },
	{ "atlas-a2", "Atlas A2 training/inference", "Ascend910B1", "HBM", 3, 2048, 32,
	  { CAP, CAP, CAP, CAP, CAP, CAP, CAP, CAP }, 0, 1, 1, OK, CAP, CAP, NS },
	{ "atlas-200i-500-a2", "Atlas 200I/500 A2 inference", "Ascend310B1", "DDR", 4, 384, 32,
	  { CAP, CAP, CAP, NS, NS, NS, NS, NS }, 1, 0, 0, NS, NS, NS, NS },
	{ "atlas-inference", "Atlas inference products", "Ascend310P3", "DDR", 5, 768, 32,
	  { CAP, CAP, CAP, CAP, CAP, CAP, NS, NS }, 1, 0, 1, OK, NS, NS, NS },
	{ "atlas-training", "Atlas training products", "Ascend910A", "HBM", 6, 1024, 32,
	  { CAP, CAP, CAP, CAP, CAP, CAP, NS, NS }, 0, 0, 1, OK, NS, NS, NS },
};

static const struct prof_case *load(int i)
{
	char params[64];

	snprintf(params, sizeof(params), "profile=%s", cases[i].id);
	vm_mod_reload(params);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	(void)aclGetRecentErrMsg();
	return &cases[i];
}

static void unload(void)
{
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}

/* The message of a 207000 names the product. */
static void assert_msg_names(const struct prof_case *c)
{
	const char *m = aclGetRecentErrMsg();

	ck_assert_ptr_nonnull(m);
	ck_assert_msg(strstr(m, c->product) != NULL, "'%s' does not name '%s'", m, c->product);
	ck_assert_msg(strstr(m, "207000") != NULL, "'%s' has no code", m);
}

static uint64_t get_param(int fd, uint32_t param)
{
	struct npu_sim_get_param gp = { .param = param };

	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp), 0);
	return gp.value;
}

static void expect_str(const char *attr, const char *want)
{
	char buf[128];

	ck_assert_int_eq(vm_sysfs_str(0, attr, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(vm_sysfs_str(1, attr, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, want);
}

static void check_identity(const struct prof_case *c)
{
	const char *soc = aclrtGetSocName();
	char buf[128];
	int fd;

	expect_str("profile", c->id);
	expect_str("soc_name", c->soc);
	expect_str("memory_kind", c->kind);
	ck_assert_int_eq(vm_sysfs_str(0, "product_name", buf, sizeof(buf)), 0);
	ck_assert_msg(strstr(buf, c->product) != NULL, "product_name '%s'", buf);
	ck_assert_ptr_nonnull(soc);
	ck_assert_str_eq(soc, c->soc);
	ck_assert_int_eq(vm_dbg_info(0, "profile_index"), c->index);
	ck_assert_int_eq(vm_sysfs(0, "capacity_bytes"), c->cap_mib * MiB);
	ck_assert_int_eq(vm_read_ll("/sys/module/npu_sim/parameters/hbm_mib"), c->cap_mib);
	fd = open("/dev/npu_sim1", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_uint_eq(get_param(fd, NPU_SIM_PARAM_PROFILE), c->index);
	close(fd);
}

/* aclrtMalloc / Cached pad, Align32 does not; exact footprints in debugfs. */
static void check_padding(const struct prof_case *c)
{
	static const size_t sizes[] = { 1, 32, 100, 4096 };
	struct vm_alloc a;
	void *p;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t aligned = VM_ALIGN_UP(sizes[k], 32);

		ck_assert_int_eq(aclrtMalloc(&p, sizes[k], ACL_MEM_MALLOC_NORMAL_ONLY), OK);
		ck_assert_int_eq(vm_dbg_alloc_find(0, (uintptr_t)p, &a), 1);
		ck_assert_uint_eq(a.footprint, aligned + c->pad);
		ck_assert_uint_eq(a.size, sizes[k]);
		ck_assert_int_eq(aclrtFree(p), OK);

		ck_assert_int_eq(aclrtMallocCached(&p, sizes[k], ACL_MEM_MALLOC_NORMAL_ONLY), OK);
		ck_assert_int_eq(vm_dbg_alloc_find(0, (uintptr_t)p, &a), 1);
		ck_assert_uint_eq(a.footprint, aligned + c->pad);
		ck_assert_int_eq(aclrtFree(p), OK);

		ck_assert_int_eq(aclrtMallocAlign32(&p, sizes[k], ACL_MEM_MALLOC_NORMAL_ONLY), OK);
		ck_assert_int_eq(vm_dbg_alloc_find(0, (uintptr_t)p, &a), 1);
		ck_assert_uint_eq(a.footprint, aligned);
		ck_assert_int_eq(aclrtFree(p), OK);
	}
}

static void check_policies(const struct prof_case *c)
{
	size_t over = c->cap_mib * MiB + 1;
	struct vm_snap s;
	void *p = (void *)0x40;

	vm_snap_take(0, &s);
	for (int item = 0; item < 8; item++) {
		ck_assert_msg(aclrtMalloc(&p, over, (aclrtMemMallocPolicy)item) == c->policy_rc[item],
			      "%s item %d", c->id, item);
		if (c->policy_rc[item] == NS)
			assert_msg_names(c);
		else
			(void)aclGetRecentErrMsg();
		ck_assert_int_eq(aclrtMallocWithCfg(&p, over, (aclrtMemMallocPolicy)item, NULL),
				 c->policy_rc[item]);
		(void)aclGetRecentErrMsg();
	}
	ck_assert_ptr_eq(p, (void *)0x40);
	vm_snap_assert_same(0, &s);
	/* supported items of the product really allocate */
	for (int item = 0; item < 8; item++) {
		if (item == 1 || item == 4 || item >= 6 || c->policy_rc[item] == NS)
			continue;	/* 2 MiB pool / 1 GiB pages: not needed here */
		ck_assert_int_eq(aclrtMalloc(&p, 4096, (aclrtMemMallocPolicy)item), OK);
		ck_assert_int_eq(aclrtFree(p), OK);
	}
}

static void check_meminfo(const struct prof_case *c)
{
	unsigned long long cap = c->cap_mib * MiB;
	unsigned long long host = (unsigned long long)vm_meminfo("MemTotal") * KiB;
	size_t f, t;

	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), OK);
	ck_assert_uint_eq(t, cap);
	ck_assert_uint_eq(f, cap);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_DDR_MEM, &f, &t), OK);
	ck_assert_uint_eq(t, c->ddr ? cap : host);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_DDR_MEM_NORMAL, &f, &t), OK);
	ck_assert_uint_eq(t, c->ddr ? cap : host);
	/* a 1 GiB class without 1 GiB pages: the runtime's 207000, outputs untouched */
	t = 5;
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM_HUGE1G, &f, &t),
			 c->has_1g ? OK : ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_uint_eq(t, c->has_1g ? cap : 5);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_MEM_HUGE1G, &f, &t), c->has_1g ? OK : ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_uint_eq(t, c->has_1g ? cap : 5);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_MEM_P2P_NORMAL, &f, &t), OK);
	ck_assert_uint_eq(t, c->has_p2p ? cap : 0);
	ck_assert_uint_eq(f, c->has_p2p ? cap : 0);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM_P2P_HUGE, &f, &t), OK);
	ck_assert_uint_eq(t, c->has_p2p ? cap : 0);
}

static void phys_case(const struct prof_case *c, int attr, size_t size, int want)
{
	aclrtPhysicalMemProp p = vm_phys_prop(attr, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
	aclrtDrvMemHandle h = NULL;

	ck_assert_msg(aclrtMallocPhysical(&h, size, &p, 0) == want, "%s attr %d", c->id, attr);
	if (want == NS)
		assert_msg_names(c);
	else
		(void)aclGetRecentErrMsg();
	if (want == OK)
		ck_assert_int_eq(aclrtFreePhysical(h), OK);
}

static void check_malloc_physical(const struct prof_case *c)
{
	size_t over = VM_ALIGN_UP(c->cap_mib * MiB + 1, GiB);
	struct vm_snap s;

	phys_case(c, ACL_MEM_NORMAL, 2 * MiB, c->phys_normal);
	vm_snap_take(0, &s);
	phys_case(c, ACL_HBM_MEM_HUGE1G, over, c->phys_hbm1g);
	phys_case(c, ACL_MEM_HUGE1G, over, c->phys_mem1g);
	phys_case(c, ACL_MEM_P2P_HUGE1G, over, c->phys_p2p1g);
	vm_snap_assert_same(0, &s);
}

/* The driver enforces the same rules for a caller that bypasses the library. */
static void check_bypass(const struct prof_case *c)
{
	static const uint32_t backing[] = { NPU_SIM_BACKING_HUGE_FIRST, NPU_SIM_BACKING_HUGE_ONLY,
					    NPU_SIM_BACKING_NORMAL };
	int fd;

	fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	for (int item = 0; item < 8; item++) {
		struct npu_sim_mem_alloc r = {
			.size = 4096, .footprint = 4096, .policy = item, .api = NPU_SIM_API_MALLOC,
			.backing = item >= 6 ? NPU_SIM_BACKING_HUGE1G_ONLY : backing[item % 3],
			.flags = (item >= 3 && item != 6) ? NPU_SIM_ALLOC_P2P : 0,
		};
		int rc = ioctl(fd, NPU_SIM_IOCTL_MEM_ALLOC, &r) ? errno : 0;

		/* no window mapped: a supported item gets as far as ENXIO */
		ck_assert_msg(rc == (c->policy_rc[item] == NS ? EOPNOTSUPP : ENXIO), "%s item %d: %d",
			      c->id, item, rc);
	}
	{
		struct npu_sim_phys_alloc r = {
			.size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL,
			.location = NPU_SIM_LOC_DEVICE, .mem_attr = ACL_MEM_P2P_HUGE1G,
		};
		int rc = ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &r) ? errno : 0;

		ck_assert_int_eq(rc, c->phys_p2p1g == NS ? EOPNOTSUPP : 0);
		memset(&r, 0, sizeof(r));
		r.size = 2 * MiB;
		r.page_kind = NPU_SIM_PAGE_NORMAL;
		r.location = NPU_SIM_LOC_DEVICE;
		r.mem_attr = ACL_MEM_NORMAL;
		rc = ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &r) ? errno : 0;
		ck_assert_int_eq(rc, c->phys_normal == NS ? EOPNOTSUPP : 0);
	}
	close(fd);	/* frees the handles */
	ck_assert_int_eq(vm_sysfs(0, "used_bytes"), 0);
}

/* One load per profile: every rule of the product. */
START_TEST(test_profile)
{
	const struct prof_case *c = load(_i);

	check_identity(c);
	check_padding(c);
	check_policies(c);
	check_meminfo(c);
	check_malloc_physical(c);
	unload();
	check_bypass(c);
}
END_TEST

START_TEST(test_unknown_profile)
{
	static const char *const bad[] = { "profile=atlas-a4", "profile=", "profile=ATLAS-A2" };

	if (vm_mod_loaded())
		ck_assert_int_eq(vm_mod_try_unload(), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(vm_mod_try_load(bad[i]) == EINVAL, "%s loaded", bad[i]);
	ck_assert(!vm_mod_loaded());
	/* hbm_mib given: it wins over the profile's default */
	vm_mod_load("profile=atlas-inference hbm_mib=100");
	ck_assert_int_eq(vm_sysfs(0, "capacity_bytes"), 100 * MiB);
}
END_TEST

static void restore_default(void)
{
	vm_mod_ensure_default();
}

static Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	int n = sizeof(cases) / sizeof(cases[0]);
	TCase *tc;

	tc = tcase_create("profiles");
	tcase_add_unchecked_fixture(tc, NULL, restore_default);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_loop_test(tc, test_profile, 0, n);
	tcase_add_test(tc, test_unknown_profile);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(profile_suite());
}
