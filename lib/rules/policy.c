/*
 * Malloc policy validation and footprint arithmetic.  Pure: see policy.h.
 */
#include "policy.h"

#include <misc/npu_sim.h>

/* The eleven items of aclrtMemMallocPolicy. */
bool npu_rt_policy_is_single_item(uint32_t policy)
{
	return policy <= ACL_MEM_MALLOC_HUGE1G_ONLY_P2P || policy == NPU_RT_POLICY_LOW_BW ||
	       policy == NPU_RT_POLICY_HIGH_BW || policy == NPU_RT_POLICY_READONLY;
}

/*
 * Count the items a value is made of.  HUGE_FIRST is 0, so it cannot be
 * seen in an OR: HUGE_FIRST|LOW_BW reads as LOW_BW alone (same meaning).
 */
bool npu_rt_policy_is_or_of_items(uint32_t policy)
{
	unsigned items = 0;

	if (policy & ~NPU_RT_POLICY_ENUM_BITS)
		return false;	/* not made of enum items: out of range */
	items += (policy & NPU_RT_POLICY_BASE_MASK) != 0;
	items += (policy & NPU_RT_POLICY_LOW_BW) != 0;
	items += (policy & NPU_RT_POLICY_HIGH_BW) != 0;
	items += (policy & NPU_RT_POLICY_READONLY) != 0;
	return items >= 2;
}

/*
 * One base item, at most one bandwidth bit (and then the base must be
 * HUGE_FIRST, HUGE_ONLY or NORMAL_ONLY), optionally READONLY.
 */
bool npu_rt_policy_is_valid_combination(uint32_t policy)
{
	uint32_t base = policy & NPU_RT_POLICY_BASE_MASK;
	uint32_t bw = policy & (NPU_RT_POLICY_LOW_BW | NPU_RT_POLICY_HIGH_BW);

	if (policy & ~NPU_RT_POLICY_ENUM_BITS)
		return false;
	if (bw == (NPU_RT_POLICY_LOW_BW | NPU_RT_POLICY_HIGH_BW))
		return false;
	if (bw && base > ACL_MEM_MALLOC_NORMAL_ONLY)
		return false;
	return true;
}

aclError npu_rt_footprint(size_t size, bool pad, uint64_t *out)
{
	return npu_rt_footprint_pad(size, pad ? 32 : 0, out);
}

aclError npu_rt_footprint_pad(size_t size, uint32_t pad_bytes, uint64_t *out)
{
	const uint64_t align = 32;
	const uint64_t append = align + pad_bytes;	/* alignment slack + pad */

	if ((uint64_t)size > UINT64_MAX - append)
		return ACL_ERROR_INVALID_PARAM;
	*out = ((uint64_t)size + append - 1) / align * align;
	return ACL_SUCCESS;
}

static bool base_is_huge1g(uint32_t base)
{
	return base == ACL_MEM_MALLOC_HUGE1G_ONLY || base == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

/* Backing and P2P flag of base item 0..7. */
static void plan_base(uint32_t base, struct npu_rt_alloc_plan *p)
{
	static const uint32_t backing[] = {
		[ACL_MEM_MALLOC_HUGE_FIRST] = NPU_SIM_BACKING_HUGE_FIRST,
		[ACL_MEM_MALLOC_HUGE_ONLY] = NPU_SIM_BACKING_HUGE_ONLY,
		[ACL_MEM_MALLOC_NORMAL_ONLY] = NPU_SIM_BACKING_NORMAL,
		[ACL_MEM_MALLOC_HUGE_FIRST_P2P] = NPU_SIM_BACKING_HUGE_FIRST,
		[ACL_MEM_MALLOC_HUGE_ONLY_P2P] = NPU_SIM_BACKING_HUGE_ONLY,
		[ACL_MEM_MALLOC_NORMAL_ONLY_P2P] = NPU_SIM_BACKING_NORMAL,
		[ACL_MEM_MALLOC_HUGE1G_ONLY] = NPU_SIM_BACKING_HUGE1G_ONLY,
		[ACL_MEM_MALLOC_HUGE1G_ONLY_P2P] = NPU_SIM_BACKING_HUGE1G_ONLY,
	};

	p->backing = backing[base];
	if (base == ACL_MEM_MALLOC_HUGE_FIRST_P2P || base == ACL_MEM_MALLOC_HUGE_ONLY_P2P ||
	    base == ACL_MEM_MALLOC_NORMAL_ONLY_P2P || base == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
		p->flags |= NPU_SIM_ALLOC_P2P;
}

/* A value outside the enum: huge pages from 2 MiB of request up. */
static uint32_t out_of_range_backing(size_t size)
{
	return (uint64_t)size >= NPU_RT_SIZE_2M ? NPU_SIM_BACKING_HUGE_FIRST : NPU_SIM_BACKING_NORMAL;
}

static bool cached_accepts(uint32_t policy)
{
	return policy == ACL_MEM_MALLOC_HUGE_FIRST || policy == ACL_MEM_MALLOC_HUGE_ONLY ||
	       policy == ACL_MEM_MALLOC_NORMAL_ONLY || policy == ACL_MEM_MALLOC_HUGE1G_ONLY;
}

aclError npu_rt_plan_alloc(uint32_t api, size_t size, uint32_t policy, struct npu_rt_alloc_plan *plan)
{
	return npu_rt_plan_alloc_pad(api, size, policy, 32, plan);
}

aclError npu_rt_plan_alloc_pad(uint32_t api, size_t size, uint32_t policy, uint32_t pad_bytes,
			       struct npu_rt_alloc_plan *plan)
{
	struct npu_rt_alloc_plan p = { 0, 0, 0 };
	bool honoured;	/* policy is read item by item (else out-of-range rule) */
	bool pad;
	aclError err;

	if (size == 0)
		return ACL_ERROR_INVALID_PARAM;

	switch (api) {
	case NPU_SIM_API_MALLOC:
		/* docs/design.md 4.1: a base item may carry a bandwidth bit and READONLY. */
		honoured = npu_rt_policy_is_valid_combination(policy);
		break;
	case NPU_SIM_API_MALLOC_ALIGN32:
		if (npu_rt_policy_is_or_of_items(policy))
			return ACL_ERROR_INVALID_PARAM;
		honoured = npu_rt_policy_is_single_item(policy);
		break;
	case NPU_SIM_API_MALLOC_CACHED:
		/* The runtime serves any other value as its default memory. */
		honoured = cached_accepts(policy);
		break;
	case NPU_SIM_API_MALLOC_WITH_CFG:
		honoured = npu_rt_policy_is_valid_combination(policy);
		break;
	default:
		return ACL_ERROR_INVALID_PARAM;
	}

	if (honoured) {
		uint32_t base = policy & NPU_RT_POLICY_BASE_MASK;

		plan_base(base, &p);	/* bandwidth bits alone leave base 0 */
		if (policy & NPU_RT_POLICY_READONLY)
			p.flags |= NPU_SIM_ALLOC_READONLY;
		pad = !base_is_huge1g(base);
	} else {
		p.backing = out_of_range_backing(size);
		pad = true;
	}
	/* Align32 and WithCfg round to 32 bytes only: the runtime adds no pad. */
	if (api == NPU_SIM_API_MALLOC_ALIGN32 || api == NPU_SIM_API_MALLOC_WITH_CFG)
		pad = false;

	err = npu_rt_footprint_pad(size, pad ? pad_bytes : 0, &p.footprint);
	if (err != ACL_SUCCESS)
		return err;
	if (p.footprint > NPU_RT_FOOTPRINT_MAX)
		return ACL_ERROR_INVALID_PARAM;
	*plan = p;
	return ACL_SUCCESS;
}

aclError npu_rt_alloc_runtime_check(uint32_t api, const struct npu_rt_alloc_plan *plan)
{
	if (api == NPU_SIM_API_MALLOC_CACHED && plan->footprint > NPU_RT_MALLOC_CACHED_MAX)
		return ACL_ERROR_RT_PARAM_INVALID;
	return ACL_SUCCESS;
}

aclError npu_rt_check_malloc_cfg(const aclrtMallocConfig *cfg)
{
	if (cfg != NULL && cfg->numAttrs != 0 && cfg->attrs == NULL)
		return ACL_ERROR_INVALID_PARAM;
	return ACL_SUCCESS;
}

aclError npu_rt_parse_malloc_cfg(const aclrtMallocConfig *cfg, int64_t *want_device)
{
	int64_t want = -1;

	if (cfg != NULL) {
		if (cfg->attrs == NULL)
			return ACL_ERROR_RT_PARAM_INVALID;
		for (size_t i = 0; i < cfg->numAttrs; i++) {
			const aclrtMallocAttribute *a = &cfg->attrs[i];

			switch ((int)a->attr) {
			case ACL_RT_MEM_ATTR_RSV:
			case ACL_RT_MEM_ATTR_MODULE_ID:
				break;	/* accepted, no effect in npu_sim */
			case ACL_RT_MEM_ATTR_DEVICE_ID:
				want = a->value.deviceId;
				break;
			default:	/* VA_FLAG too: device memory takes no VA flag */
				return ACL_ERROR_RT_PARAM_INVALID;
			}
		}
	}
	*want_device = want;
	return ACL_SUCCESS;
}

aclError npu_rt_parse_host_cfg(const aclrtMallocConfig *cfg)
{
	if (cfg == NULL)
		return ACL_SUCCESS;
	if (cfg->attrs == NULL)
		return ACL_ERROR_RT_PARAM_INVALID;
	for (size_t i = 0; i < cfg->numAttrs; i++)
		if (cfg->attrs[i].attr != ACL_RT_MEM_ATTR_MODULE_ID && cfg->attrs[i].attr != ACL_RT_MEM_ATTR_VA_FLAG)
			return ACL_ERROR_RT_PARAM_INVALID;
	return ACL_SUCCESS;
}
