// SPDX-License-Identifier: GPL-2.0
/*
 * Product profiles (module parameter profile=): the module is loaded once
 * per profile and every per-product rule is checked.  The expected values
 * are not read from include/uapi/misc/npu_sim_profiles.h: each column below
 * says where it comes from, and the aclError of each call is derived from
 * those facts, so a wrong table row fails here.
 *
 *   [pol]  seed aclrtMemMallocPolicy: which products support the *_P2P and
 *          HUGE1G_ONLY(_P2P) items (HUGE_FIRST/HUGE_ONLY/NORMAL_ONLY carry
 *          no restriction).  "Atlas 350 Accelerator Card" there is the
 *          Ascend 950PR/950DT product.
 *   [a32]  seed aclrtMallocAlign32: aclrtMalloc adds 32 bytes after
 *          ALIGN_UP(len, 32) on every product but the Ascend 950PR/950DT.
 *   [phys] seed aclrtMallocPhysical: ACL_MEM_HUGE1G only on A3 and A2,
 *          ACL_HBM_MEM_HUGE1G on Atlas 350, A3 and A2, ACL_MEM_P2P_HUGE1G
 *          only on (some) A3; Atlas 200I/500 A2 in the Ascend RC form does
 *          not support the call.  (aclrtMalloc's HUGE1G items and these
 *          attributes are different rows: the 950 has the first, not
 *          ACL_MEM_HUGE1G.)
 *   [soc]  the SoC's platform config in hicann/runtime
 *          (src/platform/platform_config/.../<soc>.ini).
 *   [rt]   the chip's optional features in hicann/runtime
 *          (src/runtime/config/<chip>/dev_info_reg.cc): STREAM_HUGE_DEPTH
 *          (ACL_STREAM_HUGE streams) on every chip but the 310P (CHIP_DC) (DEVICE_P2P,
 *          which aclrtDeviceCanAccessPeer checks, is on all six).
 *   [feat] the same tables (dev_info_reg.cc of 910_B_93 = A2/A3, 950 = Ascend
 *          950, mini_v3 = 200I/500 A2, dc = inference, cloud = training):
 *          isStars (aclrtStreamStop), RT_FEATURE_TASK_CMO (aclrtCmoAsync, the
 *          descriptor calls), RT_FEATURE_TASK_ASYNC_CMO (aclrtCmoAsyncWithBarrier),
 *          RT_FEATURE_DFX_FAST_RECOVER (UCE calls), RT_FEATURE_DFX_ERR_GET_AND_REPAIR
 *          (aclrtGetErrorVerbose, aclrtRepairError), sdmaReduceKind of the
 *          non-STARS chips (dc: SUM only), RT_FEATURE_STREAM_ATTR_OVERFLOW_CHECK
 *          and _USER_CUSTOM_TAG (910_B_93, 950); the reduce types per product are
 *          those of the API reference of aclrtReduceAsync (CANN 8.5.0).
 *   [uapi] enum npu_sim_profile_index of the UAPI (the GET_PARAM ABI).
 *   [sim]  npu_sim choices no vendor page gives: the emulated form (RC for
 *          200I/500 A2, the A3 interconnect with P2P_HUGE1G), device memory
 *          kind, and the default capacity, 1/32 of the device memory given.
 *
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
#include <misc/npu_sim_profiles.h>

#define NS	ACL_ERROR_RT_FEATURE_NOT_SUPPORT	/* 207000 */
#define CAP	ACL_ERROR_RT_MEMORY_ALLOCATION		/* 207001 */
#define OK	ACL_SUCCESS

struct prof_case {
	const char *id;
	const char *product;	/* named by aclGetRecentErrMsg: the seeds' product line */
	const char *soc;	/* [soc] */
	unsigned index;		/* [uapi] */
	const char *kind;	/* [sim] sysfs memory_kind */
	unsigned dev_gib;	/* [soc] memory_size, else [sim]: capacity = 1/32 */
	unsigned pad;		/* [a32] */
	int p2p, g1;		/* [pol] *_P2P items, HUGE1G_ONLY(_P2P) items */
	int phys;		/* [phys] + [sim]: aclrtMallocPhysical supported */
	int mem1g, hbm1g, p2p1g; /* [phys] + [sim]: the three 1 GiB attributes */
	int huge_stream;	/* [rt] */
};

static const struct prof_case cases[] = {
	{ "ascend950", "Ascend 950PR/Ascend 950DT", "Ascend950PR_9599", NPU_SIM_PROFILE_ASCEND950,
	  "HBM", 128, 0, 1, 1, 1, 0, 1, 0, 1 },
	{ "atlas-a3", "Atlas A3 training/inference", "Ascend910_9391", NPU_SIM_PROFILE_ATLAS_A3,
	  "HBM", 64, 32, 1, 1, 1, 1, 1, 1, 1 },
	{ "atlas-a2", "Atlas A2 training/inference", "Ascend910B1", NPU_SIM_PROFILE_ATLAS_A2,
	  "HBM", 64, 32, 1, 1, 1, 1, 1, 0, 1 },
	/* 12 GiB: [sim] (the platform config's memory_size says 32 GiB) */
	{ "atlas-200i-500-a2", "Atlas 200I/500 A2 inference", "Ascend310B1",
	  NPU_SIM_PROFILE_ATLAS_200I_500_A2, "DDR", 12, 32, 0, 0, 0, 0, 0, 0, 1 },
	/* 24 GiB: [sim] (memory_size 24000000000 bytes, 24 GB) */
	{ "atlas-inference", "Atlas inference products", "Ascend310P3", NPU_SIM_PROFILE_ATLAS_INFERENCE,
	  "DDR", 24, 32, 1, 0, 1, 0, 0, 0, 0 },
	/* 32 GiB: [sim] (no memory_size in the platform config) */
	{ "atlas-training", "Atlas training products", "Ascend910A", NPU_SIM_PROFILE_ATLAS_TRAINING,
	  "HBM", 32, 32, 1, 0, 1, 0, 0, 0, 1 },
};

/* [feat], in the order of cases[]. */
struct feat_case {
	int stars, cmo, async_cmo, fast_recover, err_repair, reduce_minmax;
	int bf16, int8, int32;	/* reduce types beyond FLOAT (all), FLOAT16 and INT16 */
	int fp16;		/* FLOAT16 and INT16 */
	int stream_attr;	/* STREAM_ATTR_OVERFLOW_CHECK, _USER_CUSTOM_TAG */
};

static const struct feat_case feats[] = {
	{ 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1 },	/* ascend950 */
	{ 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1 },	/* atlas-a3 */
	{ 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1 },	/* atlas-a2 */
	{ 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0 },	/* atlas-200i-500-a2 */
	{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0 },	/* atlas-inference */
	{ 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0 },	/* atlas-training */
};

static unsigned long long cap_mib(const struct prof_case *c)
{
	return c->dev_gib * 1024ULL / 32;
}

/* aclrtMalloc of more than the capacity with policy item 0..7. */
static int policy_rc(const struct prof_case *c, int item)
{
	if (item >= 6)
		return c->g1 ? CAP : NS;
	if (item >= 3)
		return c->p2p ? CAP : NS;
	return CAP;
}

/* aclrtMallocPhysical of a 1 GiB attribute above the capacity. */
static int phys_1g_rc(int supported)
{
	return supported ? CAP : NS;
}

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
	ck_assert_int_eq(vm_sysfs(0, "capacity_bytes"), cap_mib(c) * MiB);
	ck_assert_int_eq(vm_read_ll("/sys/module/npu_sim/parameters/hbm_mib"), cap_mib(c));
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
	size_t over = cap_mib(c) * MiB + 1;
	struct vm_snap s;
	void *p = (void *)0x40;

	vm_snap_take(0, &s);
	for (int item = 0; item < 8; item++) {
		ck_assert_msg(aclrtMalloc(&p, over, (aclrtMemMallocPolicy)item) == policy_rc(c, item),
			      "%s item %d", c->id, item);
		if (policy_rc(c, item) == NS)
			assert_msg_names(c);
		else
			(void)aclGetRecentErrMsg();
		ck_assert_int_eq(aclrtMallocWithCfg(&p, over, (aclrtMemMallocPolicy)item, NULL),
				 policy_rc(c, item));
		(void)aclGetRecentErrMsg();
	}
	ck_assert_ptr_eq(p, (void *)0x40);
	vm_snap_assert_same(0, &s);
	/* supported items of the product really allocate */
	for (int item = 0; item < 8; item++) {
		if (item == 1 || item == 4 || item >= 6 || policy_rc(c, item) == NS)
			continue;	/* 2 MiB pool / 1 GiB pages: not needed here */
		ck_assert_int_eq(aclrtMalloc(&p, 4096, (aclrtMemMallocPolicy)item), OK);
		ck_assert_int_eq(aclrtFree(p), OK);
	}
}

static void check_meminfo(const struct prof_case *c)
{
	unsigned long long cap = cap_mib(c) * MiB;
	int ddr = strcmp(c->kind, "DDR") == 0;
	unsigned long long host = (unsigned long long)vm_meminfo("MemTotal") * KiB;
	size_t f, t;

	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), OK);
	ck_assert_uint_eq(t, cap);
	ck_assert_uint_eq(f, cap);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_DDR_MEM, &f, &t), OK);
	ck_assert_uint_eq(t, ddr ? cap : host);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_DDR_MEM_NORMAL, &f, &t), OK);
	ck_assert_uint_eq(t, ddr ? cap : host);
	/* a 1 GiB class without 1 GiB pages: the runtime's 207000, outputs untouched */
	t = 5;
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM_HUGE1G, &f, &t),
			 c->g1 ? OK : ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_uint_eq(t, c->g1 ? cap : 5);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_MEM_HUGE1G, &f, &t), c->g1 ? OK : ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_uint_eq(t, c->g1 ? cap : 5);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_MEM_P2P_NORMAL, &f, &t), OK);
	ck_assert_uint_eq(t, c->p2p ? cap : 0);
	ck_assert_uint_eq(f, c->p2p ? cap : 0);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM_P2P_HUGE, &f, &t), OK);
	ck_assert_uint_eq(t, c->p2p ? cap : 0);
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
	size_t over = VM_ALIGN_UP(cap_mib(c) * MiB + 1, GiB);
	struct vm_snap s;

	phys_case(c, ACL_MEM_NORMAL, 2 * MiB, c->phys ? OK : NS);
	vm_snap_take(0, &s);
	phys_case(c, ACL_HBM_MEM_HUGE1G, over, phys_1g_rc(c->hbm1g));
	phys_case(c, ACL_MEM_HUGE1G, over, phys_1g_rc(c->mem1g));
	phys_case(c, ACL_MEM_P2P_HUGE1G, over, phys_1g_rc(c->p2p1g));
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
		ck_assert_msg(rc == (policy_rc(c, item) == NS ? EOPNOTSUPP : ENXIO), "%s item %d: %d",
			      c->id, item, rc);
	}
	{
		struct npu_sim_phys_alloc r = {
			.size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL,
			.location = NPU_SIM_LOC_DEVICE, .mem_attr = ACL_MEM_P2P_HUGE1G,
		};
		int rc = ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &r) ? errno : 0;

		ck_assert_int_eq(rc, c->p2p1g ? 0 : EOPNOTSUPP);
		memset(&r, 0, sizeof(r));
		r.size = 2 * MiB;
		r.page_kind = NPU_SIM_PAGE_NORMAL;
		r.location = NPU_SIM_LOC_DEVICE;
		r.mem_attr = ACL_MEM_NORMAL;
		rc = ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &r) ? errno : 0;
		ck_assert_int_eq(rc, c->phys ? 0 : EOPNOTSUPP);
	}
	close(fd);	/* frees the handles */
	ck_assert_int_eq(vm_sysfs(0, "used_bytes"), 0);
}

/* Chip features the runtime checks before it reaches the driver. */
static void check_streams(const struct prof_case *c)
{
	aclrtStream s = NULL;

	ck_assert_int_eq(aclrtSetDevice(0), OK);
	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_HUGE), c->huge_stream ? OK : NS);
	if (c->huge_stream) {
		ck_assert_ptr_nonnull(s);
		ck_assert_int_eq(aclrtDestroyStream(s), OK);
	} else {
		ck_assert_ptr_null(s);
	}
	/* Other flags are unaffected on every product. */
	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_FAST_LAUNCH), OK);
	ck_assert_int_eq(aclrtDestroyStream(s), OK);
	ck_assert_int_eq(aclrtResetDevice(0), OK);
}

static int ok_or_ns(int supported)
{
	return supported ? OK : NS;
}

/* Chip features of the runtime's feature tables: 207000 where the chip lacks one. */
static void check_features(const struct prof_case *c, const struct feat_case *f)
{
	static const struct { aclDataType t; int which; } types[] = {
		{ ACL_FLOAT, 0 }, { ACL_FLOAT16, 1 }, { ACL_INT16, 1 }, { ACL_BF16, 2 },
		{ ACL_INT8, 3 }, { ACL_INT32, 4 }, { ACL_UINT8, 5 }, { ACL_UINT32, 5 },
	};
	aclrtMemUceInfo uce[1];
	aclrtErrorInfo ei;
	size_t n = 7;
	aclrtStream s;
	char *d;

	ck_assert_int_eq(aclrtSetDevice(0), OK);
	ck_assert_int_eq(aclrtCreateStream(&s), OK);
	d = vm_dev_alloc(4096);
	ck_assert_int_eq(aclrtStreamStop(s), ok_or_ns(f->stars));
	ck_assert_int_eq(aclrtStreamAbort(s), OK);	/* lifts a stop */
	ck_assert_int_eq(aclrtCmoAsync(d, 64, ACL_RT_CMO_TYPE_PREFETCH, s), ok_or_ns(f->cmo));
	ck_assert_int_eq(aclrtCmoAsync(NULL, 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_INVALID, 1, s), ok_or_ns(f->async_cmo));
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, 0, ACL_RT_CMO_TYPE_INVALID, 1, s),
			 f->async_cmo ? ACL_ERROR_RT_PARAM_INVALID : NS);
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, 64, (aclrtCmoType)4, 1, s), NS);
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_INVALID, 0, s),
			 f->async_cmo ? ACL_ERROR_RT_PARAM_INVALID : NS);
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_PREFETCH, 2, s),
			 f->async_cmo ? ACL_ERROR_RT_PARAM_INVALID : NS);
	ck_assert_int_eq(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_FLUSH, 0, s), ok_or_ns(f->async_cmo));
	ck_assert_int_eq(aclrtCmoGetDescSize(&n), ok_or_ns(f->cmo));
	ck_assert_uint_eq(n, f->cmo ? 32 : 7);
	ck_assert_int_eq(aclrtCmoGetDescSize(NULL), f->cmo ? ACL_ERROR_RT_PARAM_INVALID : NS);
	ck_assert_int_eq(aclrtCmoSetDesc(NULL, d, 64), f->cmo ? ACL_ERROR_RT_PARAM_INVALID : NS);
	ck_assert_int_eq(aclrtCmoAsyncWithDesc(NULL, ACL_RT_CMO_TYPE_PREFETCH, s, NULL),
			 f->cmo ? ACL_ERROR_RT_PARAM_INVALID : NS);
	ck_assert_int_eq(aclrtCmoAsyncWithDesc(NULL, ACL_RT_CMO_TYPE_PREFETCH, s, d), ACL_ERROR_RT_PARAM_INVALID);

	/* RT_FEATURE_TASK_MEMORY_BATCH_COPY: the chips of ERR_GET_AND_REPAIR (910_B_93, 950) */
	{
		aclrtMemcpyBatchAttr ba;
		size_t sz = 64, mx = 64, ix = 0, fail = 5;
		void *dst = d + 1024, *src = d;

		memset(&ba, 0, sizeof(ba));
		ba.dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;	/* wrong: the runtime's 107000 */
		ba.srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
		ck_assert_int_eq(aclrtMemcpyBatch(&dst, &mx, &src, &sz, 1, &ba, &ix, 1, &fail),
				 f->err_repair ? ACL_ERROR_RT_PARAM_INVALID : NS);
		ck_assert_uint_eq(fail, f->err_repair ? 0 : 5);
		ck_assert_int_eq(aclrtMemcpyBatchAsync(&dst, &mx, &src, &sz, 1, &ba, &ix, 1, &fail, s),
				 f->err_repair ? ACL_ERROR_RT_PARAM_INVALID : NS);
		sz = 0;
		ck_assert_int_eq(aclrtMemcpyBatch(&dst, &mx, &src, &sz, 1, &ba, &ix, 1, &fail), OK);
	}
	ck_assert_int_eq(aclrtGetMemUceInfo(0, uce, 1, &n), ok_or_ns(f->fast_recover));
	ck_assert_int_eq(aclrtGetMemUceInfo(99, uce, 1, &n),
			 f->fast_recover ? ACL_ERROR_RT_INVALID_DEVICEID : NS);
	ck_assert_int_eq(aclrtGetMemUceInfo(0, NULL, 1, &n), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemUceRepair(0, uce, 0), ok_or_ns(f->fast_recover));
	memset(&ei, 0, sizeof(ei));
	ck_assert_int_eq(aclrtGetErrorVerbose(0, &ei), ok_or_ns(f->err_repair));
	ck_assert_int_eq(aclrtGetErrorVerbose(0, NULL), ACL_ERROR_INVALID_PARAM);
	memset(&ei, 0, sizeof(ei));
	ck_assert_int_eq(aclrtRepairError(0, &ei), f->err_repair ? ACL_ERROR_RT_PARAM_INVALID : NS);

	/* reduce kinds and types of the product's SDMA engine */
	ck_assert_int_eq(aclrtReduceAsync(d, d + 1024, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL), OK);
	ck_assert_int_eq(aclrtReduceAsync(d, d + 1024, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_FLOAT, s, NULL),
			 ok_or_ns(f->reduce_minmax));
	ck_assert_int_eq(aclrtReduceAsync(d, d + 1024, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_FLOAT, s, NULL),
			 ok_or_ns(f->reduce_minmax));
	ck_assert_int_eq(aclrtReduceAsync(d, d + 1024, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT, s, NULL), NS);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		int sup = types[i].which == 0 ? 1 : types[i].which == 1 ? f->fp16 : types[i].which == 2 ? f->bf16 :
			  types[i].which == 3 ? f->int8 : types[i].which == 4 ? f->int32 : 0;

		ck_assert_msg(aclrtReduceAsync(d, d + 1024, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, types[i].t, s, NULL) ==
			      ok_or_ns(sup), "%s: type %d", c->id, (int)types[i].t);
	}
	ck_assert_int_eq(aclrtSynchronizeStream(s), OK);

	/* the overflow switch and the tag: without the chip's feature a set
	 * succeeds doing nothing (not even the value's check), a get of the
	 * tag succeeds leaving the value */
	{
		aclrtStreamAttrValue v = { .overflowSwitch = 5 };

		ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v),
				 f->stream_attr ? ACL_ERROR_RT_PARAM_INVALID : OK);
		v.userCustomTag = 77;
		ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), OK);
		v.userCustomTag = 3;
		ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), OK);
		ck_assert_uint_eq(v.userCustomTag, f->stream_attr ? 77 : 3);
		v.overflowSwitch = 1;
		ck_assert_int_eq(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), OK);
		v.overflowSwitch = 9;
		ck_assert_int_eq(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), OK);
		ck_assert_uint_eq(v.overflowSwitch, f->stream_attr ? 1 : 0);
	}
	ck_assert_int_eq(aclrtFree(d), OK);
	ck_assert_int_eq(aclrtDestroyStream(s), OK);
	ck_assert_int_eq(aclrtResetDevice(0), OK);
}

/* The driver refuses the same reduce kinds / types and CMO ops for a caller bypassing the library. */
static void check_bypass_ops(const struct prof_case *c, const struct feat_case *f)
{
	static const uint32_t rtypes[] = { NPU_SIM_REDUCE_INT8, NPU_SIM_REDUCE_INT16, NPU_SIM_REDUCE_INT32,
					   NPU_SIM_REDUCE_UINT8, NPU_SIM_REDUCE_FP32, NPU_SIM_REDUCE_FP16,
					   NPU_SIM_REDUCE_BF16 };
	int fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	/* a stream id that does not exist: a supported op gets as far as ENOENT */
	for (uint32_t kind = NPU_SIM_REDUCE_SUM; kind <= NPU_SIM_REDUCE_MIN; kind++) {
		for (size_t i = 0; i < sizeof(rtypes) / sizeof(rtypes[0]); i++) {
			uint32_t t = rtypes[i];
			int sup = (kind == NPU_SIM_REDUCE_SUM || f->reduce_minmax) &&
				  (t == NPU_SIM_REDUCE_FP32 ||
				   ((t == NPU_SIM_REDUCE_FP16 || t == NPU_SIM_REDUCE_INT16) && f->fp16) ||
				   (t == NPU_SIM_REDUCE_BF16 && f->bf16) || (t == NPU_SIM_REDUCE_INT8 && f->int8) ||
				   (t == NPU_SIM_REDUCE_INT32 && f->int32));
			struct npu_sim_stream_submit r = {
				.stream = 0x7fffffff, .op = NPU_SIM_OP_REDUCE, .dst = 0x10000, .src = 0x20000,
				.dpitch = 64, .spitch = 64, .width = 64, .height = 1, .value = kind, .flags = t,
			};
			int rc = ioctl(fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &r) ? errno : 0;

			ck_assert_msg(rc == (sup ? ENOENT : EOPNOTSUPP), "%s: kind %u type %u: %d", c->id, kind, t, rc);
		}
	}
	{
		struct npu_sim_stream_submit r = {
			.stream = 0x7fffffff, .op = NPU_SIM_OP_CMO, .dst = 0x10000, .dpitch = 64, .width = 64,
			.height = 1, .value = NPU_SIM_CMO_PREFETCH,
		};
		int rc = ioctl(fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &r) ? errno : 0;

		ck_assert_int_eq(rc, f->cmo || f->async_cmo ? ENOENT : EOPNOTSUPP);
	}
	close(fd);
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
	check_streams(c);
	check_features(c, &feats[_i]);
	unload();
	check_bypass(c);
	check_bypass_ops(c, &feats[_i]);
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
