/*
 * Product profiles on the library side (pure: no I/O, no global state;
 * unit-tested in tests/unit/test_profile.c).  The table itself is
 * include/uapi/misc/npu_sim_profiles.h, shared with the driver; the driver
 * tells which row it poses as (GET_PARAM NPU_SIM_PARAM_PROFILE).
 */
#ifndef NPU_RT_PROFILE_H
#define NPU_RT_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include <misc/npu_sim_profiles.h>

/* Row index of the table; 0 or out of range (a driver before UAPI 1.6,
 * which knows no profiles) gives the default row, Atlas A2. */
const struct npu_sim_profile *npu_rt_profile_get(uint64_t index);

/*
 * The aclrtMemMallocPolicy base item (0..7) a malloc plan asks for, read
 * back from its backing (enum npu_sim_backing) and NPU_SIM_ALLOC_P2P flag,
 * as the driver does; -1 for an unknown backing.
 */
int npu_rt_profile_policy_item(uint32_t backing, uint32_t flags);

/* True when the product supports that base item. */
bool npu_rt_profile_alloc_ok(const struct npu_sim_profile *p, uint32_t backing, uint32_t flags);

/*
 * True when aclrtMallocPhysical of mem_attr (already accepted by
 * npu_rt_plan_phys) backed by page_kind is supported on the product.
 */
bool npu_rt_profile_phys_ok(const struct npu_sim_profile *p, int mem_attr, uint32_t page_kind);

#endif /* NPU_RT_PROFILE_H */
