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

static const struct mem_attr_rule *attr_rule(int attr)
{
	for (size_t i = 0; i < sizeof(mem_attrs) / sizeof(mem_attrs[0]); i++)
		if (mem_attrs[i].attr == attr)
			return &mem_attrs[i];
	return NULL;
}

aclError npu_rt_plan_phys_attr(const aclrtPhysicalMemProp *prop, int max_dev, bool acl_location,
			       struct npu_rt_phys_plan *plan)
{
	struct npu_rt_phys_plan p = { 0 };
	const struct mem_attr_rule *r;
	int type;

	if (prop == NULL || plan == NULL)
		return ACL_ERROR_INVALID_PARAM;
	type = (int)prop->location.type;
	/* The ACL layer's checks (100000). */
	if (acl_location && (type == ACL_MEM_LOCATION_TYPE_UNREGISTERED || type == ACL_MEM_LOCATION_TYPE_MANAGED))
		return ACL_ERROR_INVALID_PARAM;
	r = attr_rule((int)prop->memAttr);
	if (r == NULL || (type == ACL_MEM_LOCATION_TYPE_DEVICE && r->place == HOST_ONLY))
		return ACL_ERROR_INVALID_PARAM;
	p.page_kind = r->page_kind;
	p.flags = r->flags;
	p.granularity = r->page_kind == NPU_SIM_PAGE_HUGE_1G ? NPU_RT_VMM_GRANULE_1G : NPU_SIM_VMM_GRANULE;

	/* The runtime's device id check, then what the driver refuses (107000). */
	switch (type) {
	case ACL_MEM_LOCATION_TYPE_DEVICE:
		if (prop->location.id >= (uint32_t)max_dev)
			return ACL_ERROR_RT_INVALID_DEVICEID;
		p.location = NPU_SIM_LOC_DEVICE;
		p.location_id = prop->location.id;
		break;
	case ACL_MEM_LOCATION_TYPE_HOST:	/* id ignored (doc: set 0) */
	case ACL_MEM_LOCATION_TYPE_HOST_NUMA:
		if (r->place == DEVICE_ONLY)
			return ACL_ERROR_RT_PARAM_INVALID;
		p.location = type == ACL_MEM_LOCATION_TYPE_HOST ? NPU_SIM_LOC_HOST : NPU_SIM_LOC_HOST_NUMA;
		p.location_id = type == ACL_MEM_LOCATION_TYPE_HOST ? 0 : prop->location.id;
		break;
	default:	/* outside the enum (and, for acl_location false, UNREGISTERED/MANAGED) */
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	*plan = p;
	return ACL_SUCCESS;
}

aclError npu_rt_plan_phys(const aclrtPhysicalMemProp *prop, int max_dev,
			  struct npu_rt_phys_plan *plan)
{
	if (prop == NULL || plan == NULL)
		return ACL_ERROR_INVALID_PARAM;
	if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE ||
	    prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED)
		return ACL_ERROR_INVALID_PARAM;
	return npu_rt_plan_phys_attr(prop, max_dev, true, plan);
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
