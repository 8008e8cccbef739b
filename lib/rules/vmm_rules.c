/*
 * Virtual memory management rules: see vmm_rules.h.
 */
#include "vmm_rules.h"

#include <errno.h>

#include <misc/npu_sim.h>

#include "errmap.h"

#define HANDLE_MAGIC	0x4E50ULL	/* "NP" in bits 48..63 */

/* Where a memory attribute may live. */
enum attr_place { ANYWHERE = 0, HOST_ONLY, DEVICE_ONLY };

/* The accepted memAttr values; 0, 1, 8, 9, 11 and the rest are refused. */
static const struct mem_attr_rule {
	int attr;
	uint32_t page_kind;
	uint32_t flags;
	enum attr_place place;
} mem_attrs[] = {
	{ ACL_DDR_MEM_HUGE, NPU_SIM_PAGE_HUGE_2M, 0, HOST_ONLY },
	{ ACL_DDR_MEM_NORMAL, NPU_SIM_PAGE_NORMAL, 0, HOST_ONLY },
	{ ACL_DDR_MEM_P2P_HUGE, NPU_SIM_PAGE_HUGE_2M, NPU_SIM_PHYS_P2P, HOST_ONLY },
	{ ACL_DDR_MEM_P2P_NORMAL, NPU_SIM_PAGE_NORMAL, NPU_SIM_PHYS_P2P, HOST_ONLY },
	{ ACL_HBM_MEM_HUGE, NPU_SIM_PAGE_HUGE_2M, 0, DEVICE_ONLY },
	{ ACL_HBM_MEM_NORMAL, NPU_SIM_PAGE_HUGE_2M, 0, DEVICE_ONLY },	/* served as HUGE */
	{ ACL_HBM_MEM_HUGE1G, NPU_SIM_PAGE_HUGE_1G, 0, DEVICE_ONLY },
	{ ACL_MEM_HUGE1G, NPU_SIM_PAGE_HUGE_1G, 0, DEVICE_ONLY },
	{ ACL_MEM_P2P_HUGE1G, NPU_SIM_PAGE_HUGE_1G, NPU_SIM_PHYS_P2P, DEVICE_ONLY },
	{ ACL_MEM_NORMAL, NPU_SIM_PAGE_NORMAL, 0, ANYWHERE },
	{ ACL_MEM_HUGE, NPU_SIM_PAGE_HUGE_2M, 0, ANYWHERE },
	{ ACL_MEM_P2P_NORMAL, NPU_SIM_PAGE_NORMAL, NPU_SIM_PHYS_P2P, ANYWHERE },
	{ ACL_MEM_P2P_HUGE, NPU_SIM_PAGE_HUGE_2M, NPU_SIM_PHYS_P2P, ANYWHERE },
};

aclError npu_rt_plan_phys(const aclrtPhysicalMemProp *prop, int max_dev,
			  struct npu_rt_phys_plan *plan)
{
	struct npu_rt_phys_plan p = { 0 };
	const struct mem_attr_rule *r = NULL;
	int host_only, dev_only;

	if (prop == NULL || plan == NULL)
		return ACL_ERROR_INVALID_PARAM;
	if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE ||
	    prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED)
		return ACL_ERROR_INVALID_PARAM;

	for (size_t i = 0; i < sizeof(mem_attrs) / sizeof(mem_attrs[0]) && r == NULL; i++)
		if (mem_attrs[i].attr == (int)prop->memAttr)
			r = &mem_attrs[i];
	if (r == NULL)
		return ACL_ERROR_INVALID_PARAM;
	p.page_kind = r->page_kind;
	p.flags = r->flags;
	p.granularity = r->page_kind == NPU_SIM_PAGE_HUGE_1G ? NPU_RT_VMM_GRANULE_1G : NPU_SIM_VMM_GRANULE;
	host_only = r->place == HOST_ONLY;
	dev_only = r->place == DEVICE_ONLY;

	switch ((int)prop->location.type) {
	case ACL_MEM_LOCATION_TYPE_DEVICE:
		if (host_only || prop->location.id >= (uint32_t)max_dev)
			return ACL_ERROR_INVALID_PARAM;
		p.location = NPU_SIM_LOC_DEVICE;
		p.location_id = prop->location.id;
		break;
	case ACL_MEM_LOCATION_TYPE_HOST:	/* id ignored (doc: set 0) */
		if (dev_only)
			return ACL_ERROR_INVALID_PARAM;
		p.location = NPU_SIM_LOC_HOST;
		p.location_id = 0;
		break;
	case ACL_MEM_LOCATION_TYPE_HOST_NUMA:
		if (dev_only)
			return ACL_ERROR_INVALID_PARAM;
		p.location = NPU_SIM_LOC_HOST_NUMA;
		p.location_id = prop->location.id;
		break;
	default:	/* UNREGISTERED, MANAGED, outside the enum */
		return ACL_ERROR_INVALID_PARAM;
	}
	*plan = p;
	return ACL_SUCCESS;
}

aclrtDrvMemHandle npu_rt_handle_encode(int dev, uint32_t id)
{
	uint64_t v = (HANDLE_MAGIC << 48) | ((uint64_t)(uint16_t)dev << 32) | id;

	return (aclrtDrvMemHandle)(uintptr_t)v;
}

int npu_rt_handle_decode(aclrtDrvMemHandle h, int max_dev, int *dev, uint32_t *id)
{
	uint64_t v = (uint64_t)(uintptr_t)h;
	uint32_t d = (uint32_t)(v >> 32) & 0xffff;
	uint32_t i = (uint32_t)v;

	if ((v >> 48) != HANDLE_MAGIC || d >= (uint32_t)max_dev || i == 0 ||
	    i > INT32_MAX)
		return -1;
	*dev = (int)d;
	*id = i;
	return 0;
}

aclError npu_rt_vmm_errno_to_acl(int err, enum npu_rt_vmm_obj obj)
{
	switch (err) {
	case ENOENT:
		return obj == NPU_RT_VMM_HANDLE ? ACL_ERROR_RT_INVALID_HANDLE :
						  ACL_ERROR_RT_PARAM_INVALID;
	case EBUSY:
	case EEXIST:
	case EXDEV:
	case EINVAL:
		return ACL_ERROR_RT_PARAM_INVALID;
	case EPERM:
	case EACCES:
		return ACL_ERROR_RT_NO_PERMISSION;
	default:
		return npu_rt_errno_to_acl(err);
	}
}

uint32_t npu_rt_page_kind_size(uint32_t page_kind)
{
	switch (page_kind) {
	case NPU_SIM_PAGE_NORMAL:
		return 4096;
	case NPU_SIM_PAGE_HUGE_2M:
		return 2u << 20;
	case NPU_SIM_PAGE_HUGE_1G:
		return 1u << 30;
	default:
		return 0;
	}
}
