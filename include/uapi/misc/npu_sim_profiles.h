/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * npu_sim product profiles: the one table of the Atlas / Ascend products the
 * emulator can pose as, read by the kernel module (kernel/npu_profile.c) and
 * by the runtime library (lib/rules/profile.c).  The module parameter profile=
 * picks one row per load; GET_PARAM NPU_SIM_PARAM_PROFILE returns its index
 * (enum npu_sim_profile_index) and sysfs "profile" its id.
 *
 * Every rule comes from the vendor pages the product was specified from
 * (aclrtMemMallocPolicy, aclrtMallocAlign32, aclrtMallocPhysical and pyACL
 * acl.rt.malloc support lists; docs/cann-api-notes.md): see README.md
 * "Product profiles".  Not an ioctl structure: nothing here crosses the
 * ioctl boundary but the index.
 */
#ifndef _UAPI_MISC_NPU_SIM_PROFILES_H
#define _UAPI_MISC_NPU_SIM_PROFILES_H

#include <linux/types.h>

/* Row of the table; 0 is never a profile. */
enum npu_sim_profile_index {
	NPU_SIM_PROFILE_ASCEND950 = 1,		/* Ascend 950PR/950DT, Atlas 350 card */
	NPU_SIM_PROFILE_ATLAS_A3 = 2,		/* Atlas A3 training/inference */
	NPU_SIM_PROFILE_ATLAS_A2 = 3,		/* Atlas A2 training/inference */
	NPU_SIM_PROFILE_ATLAS_200I_500_A2 = 4,	/* Atlas 200I/500 A2 inference */
	NPU_SIM_PROFILE_ATLAS_INFERENCE = 5,	/* Atlas inference series */
	NPU_SIM_PROFILE_ATLAS_TRAINING = 6,	/* Atlas training series */
	NPU_SIM_PROFILE_NR
};

#define NPU_SIM_PROFILE_DEFAULT	NPU_SIM_PROFILE_ATLAS_A2

/* The memory the product's device memory is made of. */
enum npu_sim_mem_kind {
	NPU_SIM_MEM_HBM = 1,
	NPU_SIM_MEM_DDR = 2,
};

/*
 * Bit n of npu_sim_profile.policies: base item n of aclrtMemMallocPolicy
 * (0 HUGE_FIRST, 1 HUGE_ONLY, 2 NORMAL_ONLY, 3 HUGE_FIRST_P2P, 4
 * HUGE_ONLY_P2P, 5 NORMAL_ONLY_P2P, 6 HUGE1G_ONLY, 7 HUGE1G_ONLY_P2P).
 */
#define NPU_SIM_POLICY_ALL	0xffU	/* items 0-7 */
#define NPU_SIM_POLICY_NO_1G	0x3fU	/* items 0-5 */
#define NPU_SIM_POLICY_NO_P2P	0x07U	/* items 0-2 (and no 1 GiB) */

/*
 * Bit n of npu_sim_profile.phys_attrs: aclrtMemAttr n is accepted by
 * aclrtMallocPhysical.  NPU_SIM_PHYS_ATTRS_ALL is what the runtime accepts
 * at all (2-7, 10, 12-17); the 1 GiB ones are 10 ACL_HBM_MEM_HUGE1G,
 * 14 ACL_MEM_HUGE1G and 17 ACL_MEM_P2P_HUGE1G.  0: the call is not supported.
 */
#define NPU_SIM_PHYS_ATTRS_ALL		0x3f4fcU
#define NPU_SIM_PHYS_ATTR_HBM_HUGE1G	(1U << 10)
#define NPU_SIM_PHYS_ATTR_MEM_HUGE1G	(1U << 14)
#define NPU_SIM_PHYS_ATTR_P2P_HUGE1G	(1U << 17)

#define NPU_SIM_PROFILE_HUGE1G	(1U << 0)	/* 1 GiB pages (HUGE1G policies) */
#define NPU_SIM_PROFILE_P2P	(1U << 1)	/* *_P2P policies */
/* Streams created with ACL_STREAM_HUGE (the deep task queue of the chip). */
#define NPU_SIM_PROFILE_STREAM_HUGE	(1U << 2)
/*
 * The features below follow the chip feature tables of the CANN runtime
 * (src/runtime/config/<chip>/dev_info_reg.cc); a call needing one the
 * product lacks fails with ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000).
 */
/* A STARS task scheduler (isStars): aclrtStreamStop. */
#define NPU_SIM_PROFILE_STARS		(1U << 3)
/* RT_FEATURE_TASK_CMO: aclrtCmoAsync, aclrtCmoGetDescSize/SetDesc/AsyncWithDesc. */
#define NPU_SIM_PROFILE_CMO		(1U << 4)
/* RT_FEATURE_TASK_ASYNC_CMO: aclrtCmoAsyncWithBarrier. */
#define NPU_SIM_PROFILE_ASYNC_CMO	(1U << 5)
/* RT_FEATURE_DFX_FAST_RECOVER: aclrtGetMemUceInfo, aclrtMemUceRepair. */
#define NPU_SIM_PROFILE_FAST_RECOVER	(1U << 6)
/* RT_FEATURE_DFX_ERR_GET_AND_REPAIR: aclrtGetErrorVerbose, aclrtRepairError. */
#define NPU_SIM_PROFILE_ERR_REPAIR	(1U << 7)
/*
 * RT_FEATURE_STREAM_ATTR_OVERFLOW_CHECK and _USER_CUSTOM_TAG: without them
 * aclrtSetStreamAttribute of those two (and aclrtGetStreamAttribute of the
 * tag) succeeds doing nothing, as the runtime.
 */
#define NPU_SIM_PROFILE_STREAM_ATTR	(1U << 8)
/* RT_FEATURE_TASK_MEMORY_BATCH_COPY: aclrtMemcpyBatch(Async)(V2). */
#define NPU_SIM_PROFILE_BATCH_COPY	(1U << 9)

/* Bit of an OP_REDUCE kind or element type in @reduce_kinds, @reduce_types. */
#define NPU_SIM_REDUCE_BIT(x)	(1U << (x))

/**
 * struct npu_sim_profile - one product
 * @id: short stable id, the value of the profile= parameter
 * @product: product line name as the vendor documents it
 * @soc_name: what aclrtGetSocName returns on that product
 * @policies: aclrtMemMallocPolicy base items supported (bit n = item n);
 *	another one fails with ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)
 * @phys_attrs: aclrtMemAttr values aclrtMallocPhysical accepts (bit n)
 * @malloc_pad: bytes aclrtMalloc/aclrtMallocCached add after
 *	ALIGN_UP(size, 32) (32, or 0 where aclrtMallocAlign32 == aclrtMalloc)
 * @mem_kind: enum npu_sim_mem_kind
 * @flags: NPU_SIM_PROFILE_*
 * @capacity_mib: default capacity of each device (hbm_mib=0): 1/32 of the
 *	product's device memory
 * @granularity: aclrtMemGetAllocationGranularity of 2 MiB / normal attributes
 * @granularity_1g: of the 1 GiB attributes, 0 where there are none
 * @reduce_kinds: OP_REDUCE kinds the SDMA engine does (NPU_SIM_REDUCE_BIT of
 *	enum npu_sim_reduce_kind); another one is -EOPNOTSUPP (207000)
 * @reduce_types: OP_REDUCE element types it does (NPU_SIM_REDUCE_BIT of enum
 *	npu_sim_reduce_type); another one is -EOPNOTSUPP (207000)
 */
struct npu_sim_profile {
	const char *id;
	const char *product;
	const char *soc_name;
	__u32 policies;
	__u32 phys_attrs;
	__u32 malloc_pad;
	__u32 mem_kind;
	__u32 flags;
	__u32 capacity_mib;
	__u64 granularity;
	__u64 granularity_1g;
	__u32 reduce_kinds;
	__u32 reduce_types;
};

/* Kinds 10 (SUM), 11 (MAX), 12 (MIN); types by their enum values. */
#define NPU_SIM_RK_SUM		NPU_SIM_REDUCE_BIT(10)
#define NPU_SIM_RK_ALL		(NPU_SIM_REDUCE_BIT(10) | NPU_SIM_REDUCE_BIT(11) | \
				 NPU_SIM_REDUCE_BIT(12))
#define NPU_SIM_RT_INT8		NPU_SIM_REDUCE_BIT(1)
#define NPU_SIM_RT_INT16	NPU_SIM_REDUCE_BIT(2)
#define NPU_SIM_RT_INT32	NPU_SIM_REDUCE_BIT(3)
#define NPU_SIM_RT_FP32		NPU_SIM_REDUCE_BIT(7)
#define NPU_SIM_RT_FP16		NPU_SIM_REDUCE_BIT(8)
#define NPU_SIM_RT_BF16		NPU_SIM_REDUCE_BIT(9)
#define NPU_SIM_RT_A2		(NPU_SIM_RT_INT8 | NPU_SIM_RT_INT16 | NPU_SIM_RT_INT32 | \
				 NPU_SIM_RT_FP16 | NPU_SIM_RT_FP32 | NPU_SIM_RT_BF16)

/*
 * The table, indexed by enum npu_sim_profile_index (row 0 is empty).  Marked
 * unused: a file may include this header for the types alone.
 */
static const struct npu_sim_profile npu_sim_profiles[NPU_SIM_PROFILE_NR]
__attribute__((__unused__)) = {
	[NPU_SIM_PROFILE_ASCEND950] = {
		.id = "ascend950",
		.product = "Ascend 950PR/Ascend 950DT (Atlas 350 accelerator card)",
		.soc_name = "Ascend950PR_9599",
		.policies = NPU_SIM_POLICY_ALL,
		.phys_attrs = NPU_SIM_PHYS_ATTRS_ALL & ~(NPU_SIM_PHYS_ATTR_MEM_HUGE1G |
							 NPU_SIM_PHYS_ATTR_P2P_HUGE1G),
		.malloc_pad = 0,
		.mem_kind = NPU_SIM_MEM_HBM,
		.flags = NPU_SIM_PROFILE_HUGE1G | NPU_SIM_PROFILE_P2P |
			 NPU_SIM_PROFILE_STREAM_HUGE |
			 NPU_SIM_PROFILE_STARS | NPU_SIM_PROFILE_CMO |
			 NPU_SIM_PROFILE_FAST_RECOVER | NPU_SIM_PROFILE_ERR_REPAIR |
			 NPU_SIM_PROFILE_STREAM_ATTR | NPU_SIM_PROFILE_BATCH_COPY,
		.capacity_mib = 4096,
		.granularity = 2ULL << 20,
		.granularity_1g = 1ULL << 30,
		.reduce_kinds = NPU_SIM_RK_ALL,
		.reduce_types = NPU_SIM_RT_A2,
	},
	[NPU_SIM_PROFILE_ATLAS_A3] = {
		.id = "atlas-a3",
		.product = "Atlas A3 training/inference products",
		.soc_name = "Ascend910_9391",
		.policies = NPU_SIM_POLICY_ALL,
		.phys_attrs = NPU_SIM_PHYS_ATTRS_ALL,
		.malloc_pad = 32,
		.mem_kind = NPU_SIM_MEM_HBM,
		.flags = NPU_SIM_PROFILE_HUGE1G | NPU_SIM_PROFILE_P2P |
			 NPU_SIM_PROFILE_STREAM_HUGE |
			 NPU_SIM_PROFILE_STARS | NPU_SIM_PROFILE_CMO |
			 NPU_SIM_PROFILE_FAST_RECOVER | NPU_SIM_PROFILE_ERR_REPAIR |
			 NPU_SIM_PROFILE_STREAM_ATTR | NPU_SIM_PROFILE_BATCH_COPY,
		.capacity_mib = 2048,
		.granularity = 2ULL << 20,
		.granularity_1g = 1ULL << 30,
		.reduce_kinds = NPU_SIM_RK_ALL,
		.reduce_types = NPU_SIM_RT_A2,
	},
	[NPU_SIM_PROFILE_ATLAS_A2] = {
		.id = "atlas-a2",
		.product = "Atlas A2 training/inference products",
		.soc_name = "Ascend910B1",
		.policies = NPU_SIM_POLICY_ALL,
		.phys_attrs = NPU_SIM_PHYS_ATTRS_ALL & ~NPU_SIM_PHYS_ATTR_P2P_HUGE1G,
		.malloc_pad = 32,
		.mem_kind = NPU_SIM_MEM_HBM,
		.flags = NPU_SIM_PROFILE_HUGE1G | NPU_SIM_PROFILE_P2P |
			 NPU_SIM_PROFILE_STREAM_HUGE |
			 NPU_SIM_PROFILE_STARS | NPU_SIM_PROFILE_CMO |
			 NPU_SIM_PROFILE_FAST_RECOVER | NPU_SIM_PROFILE_ERR_REPAIR |
			 NPU_SIM_PROFILE_STREAM_ATTR | NPU_SIM_PROFILE_BATCH_COPY,
		.capacity_mib = 2048,
		.granularity = 2ULL << 20,
		.granularity_1g = 1ULL << 30,
		.reduce_kinds = NPU_SIM_RK_ALL,
		.reduce_types = NPU_SIM_RT_A2,
	},
	[NPU_SIM_PROFILE_ATLAS_200I_500_A2] = {
		.id = "atlas-200i-500-a2",
		.product = "Atlas 200I/500 A2 inference products",
		.soc_name = "Ascend310B1",
		.policies = NPU_SIM_POLICY_NO_P2P,
		.phys_attrs = 0,	/* Ascend RC form: aclrtMallocPhysical unsupported */
		.malloc_pad = 32,
		.mem_kind = NPU_SIM_MEM_DDR,
		.flags = NPU_SIM_PROFILE_STREAM_HUGE |
			 NPU_SIM_PROFILE_STARS | NPU_SIM_PROFILE_ASYNC_CMO,
		.capacity_mib = 384,
		.granularity = 2ULL << 20,
		.granularity_1g = 0,
		.reduce_kinds = NPU_SIM_RK_ALL,
		.reduce_types = NPU_SIM_RT_A2 & ~NPU_SIM_RT_BF16,
	},
	[NPU_SIM_PROFILE_ATLAS_INFERENCE] = {
		.id = "atlas-inference",
		.product = "Atlas inference products",
		.soc_name = "Ascend310P3",
		.policies = NPU_SIM_POLICY_NO_1G,
		.phys_attrs = NPU_SIM_PHYS_ATTRS_ALL & ~(NPU_SIM_PHYS_ATTR_HBM_HUGE1G |
							 NPU_SIM_PHYS_ATTR_MEM_HUGE1G |
							 NPU_SIM_PHYS_ATTR_P2P_HUGE1G),
		.malloc_pad = 32,
		.mem_kind = NPU_SIM_MEM_DDR,
		.flags = NPU_SIM_PROFILE_P2P,
		.capacity_mib = 768,
		.granularity = 2ULL << 20,
		.granularity_1g = 0,
		.reduce_kinds = NPU_SIM_RK_SUM,
		.reduce_types = NPU_SIM_RT_FP32 | NPU_SIM_RT_FP16 | NPU_SIM_RT_INT16,
	},
	[NPU_SIM_PROFILE_ATLAS_TRAINING] = {
		.id = "atlas-training",
		.product = "Atlas training products",
		.soc_name = "Ascend910A",
		.policies = NPU_SIM_POLICY_NO_1G,
		.phys_attrs = NPU_SIM_PHYS_ATTRS_ALL & ~(NPU_SIM_PHYS_ATTR_HBM_HUGE1G |
							 NPU_SIM_PHYS_ATTR_MEM_HUGE1G |
							 NPU_SIM_PHYS_ATTR_P2P_HUGE1G),
		.malloc_pad = 32,
		.mem_kind = NPU_SIM_MEM_HBM,
		.flags = NPU_SIM_PROFILE_P2P | NPU_SIM_PROFILE_STREAM_HUGE,
		.capacity_mib = 1024,
		.granularity = 2ULL << 20,
		.granularity_1g = 0,
		.reduce_kinds = NPU_SIM_RK_ALL,
		.reduce_types = NPU_SIM_RT_FP32,
	},
};

#endif /* _UAPI_MISC_NPU_SIM_PROFILES_H */
