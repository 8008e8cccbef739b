/*
 * Product profiles: lookups in the shared table.  Pure: see profile.h.
 */
#include "profile.h"

#include <misc/npu_sim.h>

const struct npu_sim_profile *npu_rt_profile_get(uint64_t index)
{
	if (index == 0 || index >= NPU_SIM_PROFILE_NR)
		index = NPU_SIM_PROFILE_DEFAULT;
	return &npu_sim_profiles[index];
}

int npu_rt_profile_policy_item(uint32_t backing, uint32_t flags)
{
	int item;

	switch (backing) {
	case NPU_SIM_BACKING_HUGE_FIRST:
		item = 0;
		break;
	case NPU_SIM_BACKING_HUGE_ONLY:
		item = 1;
		break;
	case NPU_SIM_BACKING_NORMAL:
		item = 2;
		break;
	case NPU_SIM_BACKING_HUGE1G_ONLY:
		item = 6;
		break;
	default:
		return -1;
	}
	if (flags & NPU_SIM_ALLOC_P2P)
		item = item == 6 ? 7 : item + 3;
	return item;
}

bool npu_rt_profile_alloc_ok(const struct npu_sim_profile *p, uint32_t backing, uint32_t flags)
{
	int item = npu_rt_profile_policy_item(backing, flags);

	return item >= 0 && (p->policies & (1U << item)) != 0;
}

bool npu_rt_profile_phys_ok(const struct npu_sim_profile *p, int mem_attr, uint32_t page_kind)
{
	if (p->phys_attrs == 0)
		return false;
	if (mem_attr >= 0 && mem_attr < 32 && (NPU_SIM_PHYS_ATTRS_ALL & (1U << mem_attr)) &&
	    !(p->phys_attrs & (1U << mem_attr)))
		return false;
	return page_kind != NPU_SIM_PAGE_HUGE_1G || (p->flags & NPU_SIM_PROFILE_HUGE1G) != 0;
}
