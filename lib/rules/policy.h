/*
 * Malloc policy validation and footprint arithmetic (pure: no I/O, no
 * global state; unit-tested on the host in tests/unit/test_policy.c).
 * Rules: docs/design.md 4.1, docs/cann-api-notes.md 2.1 and 6.10.
 */
#ifndef NPU_RT_POLICY_H
#define NPU_RT_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_rt.h"

#define NPU_RT_SIZE_2M (2ULL << 20)
#define NPU_RT_SIZE_1G (1ULL << 30)

/*
 * Largest footprint the driver can round up to any backing page (1 GiB at
 * most) without wrapping; a larger one is an arithmetic overflow too.
 */
#define NPU_RT_FOOTPRINT_MAX (UINT64_MAX - (NPU_RT_SIZE_1G - 1))

/* Bits of aclrtMemMallocPolicy that are not base items (0..7). */
#define NPU_RT_POLICY_BASE_MASK 0x7U
#define NPU_RT_POLICY_LOW_BW 0x0100U
#define NPU_RT_POLICY_HIGH_BW 0x1000U
#define NPU_RT_POLICY_READONLY 0x100000U
#define NPU_RT_POLICY_ENUM_BITS \
	(NPU_RT_POLICY_BASE_MASK | NPU_RT_POLICY_LOW_BW | NPU_RT_POLICY_HIGH_BW | NPU_RT_POLICY_READONLY)

/* What the kernel is asked for (fields of struct npu_sim_mem_alloc). */
struct npu_rt_alloc_plan {
	uint64_t footprint;	/* bytes to back */
	uint32_t backing;	/* enum npu_sim_backing */
	uint32_t flags;		/* NPU_SIM_ALLOC_* */
};

/* True when policy is exactly one aclrtMemMallocPolicy item. */
bool npu_rt_policy_is_single_item(uint32_t policy);

/* True when policy is an OR of two or more enum items (valid or not). */
bool npu_rt_policy_is_or_of_items(uint32_t policy);

/* True when policy is a combination aclrtMallocWithCfg accepts. */
bool npu_rt_policy_is_valid_combination(uint32_t policy);

/*
 * Footprint in bytes: ALIGN_UP(size, 32) + 32 when pad, else
 * ALIGN_UP(size, 32).  Like the CANN ACL layer, a size within 64 (pad) or
 * 32 (no pad) bytes of SIZE_MAX is an overflow -> ACL_ERROR_INVALID_PARAM,
 * *out untouched; a wrapped small allocation is never produced.
 */
aclError npu_rt_footprint(size_t size, bool pad, uint64_t *out);
/* The same with pad_bytes (0 or 32: npu_sim_profile.malloc_pad) for pad. */
aclError npu_rt_footprint_pad(size_t size, uint32_t pad_bytes, uint64_t *out);

/*
 * Everything the ACL layer decides about one malloc-family call: api is an
 * enum npu_sim_alloc_api.  Returns ACL_SUCCESS and fills *plan, or
 * ACL_ERROR_INVALID_PARAM (size 0, footprint overflow or a footprint above
 * NPU_RT_FOOTPRINT_MAX, a policy the api rejects); *plan is untouched on
 * error.
 */
aclError npu_rt_plan_alloc(uint32_t api, size_t size, uint32_t policy, struct npu_rt_alloc_plan *plan);
/*
 * The same for a product whose aclrtMalloc pads pad_bytes (npu_sim_profile.
 * malloc_pad) instead of 32; npu_rt_plan_alloc is pad_bytes 32.  A footprint
 * never grows when pad_bytes shrinks, so a plan valid with 32 is valid here.
 */
aclError npu_rt_plan_alloc_pad(uint32_t api, size_t size, uint32_t policy, uint32_t pad_bytes,
			       struct npu_rt_alloc_plan *plan);

/* The runtime's cap on an aclrtMallocCached footprint (src/runtime MAX_ALLOC_SIZE). */
#define NPU_RT_MALLOC_CACHED_MAX (1ULL << 50)

/*
 * The runtime's check of a planned allocation, before it looks for the
 * current context: an aclrtMallocCached footprint above
 * NPU_RT_MALLOC_CACHED_MAX -> ACL_ERROR_RT_PARAM_INVALID.
 */
aclError npu_rt_alloc_runtime_check(uint32_t api, const struct npu_rt_alloc_plan *plan);

/*
 * The ACL-layer check of an aclrtMallocWithCfg config (may be NULL), made
 * before the size: ACL_ERROR_INVALID_PARAM when numAttrs != 0 with attrs
 * NULL, else ACL_SUCCESS.
 */
aclError npu_rt_check_malloc_cfg(const aclrtMallocConfig *cfg);

/*
 * The runtime's reading of an aclrtMallocWithCfg config (may be NULL), made
 * after the current-context check: ACL_ERROR_RT_PARAM_INVALID when cfg has
 * attrs NULL (even with numAttrs 0) or an attribute other than RSV,
 * MODULE_ID and DEVICE_ID; else ACL_SUCCESS with *want_device set to the
 * last ACL_RT_MEM_ATTR_DEVICE_ID value or -1.
 */
aclError npu_rt_parse_malloc_cfg(const aclrtMallocConfig *cfg, int64_t *want_device);

/*
 * The runtime's reading of an aclrtMallocHostWithCfg config (may be NULL):
 * ACL_ERROR_RT_PARAM_INVALID when attrs is NULL or an attribute is other
 * than MODULE_ID and VA_FLAG, else ACL_SUCCESS.
 */
aclError npu_rt_parse_host_cfg(const aclrtMallocConfig *cfg);

#endif /* NPU_RT_POLICY_H */
