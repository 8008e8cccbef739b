/*
 * aclrtGetMemInfo figures per memory class.  Pure: see meminfo_rules.h.
 */
#include "meminfo_rules.h"

#include <stdbool.h>
#include <stdint.h>

#include "policy.h"

enum mem_class { CLASS_HOST, CLASS_DEVICE_ANY, CLASS_DEVICE_2M, CLASS_DEVICE_1G };

static int class_of(int attr, enum mem_class *c)
{
	switch (attr) {
	case ACL_DDR_MEM:
	case ACL_DDR_MEM_HUGE:
	case ACL_DDR_MEM_NORMAL:
	case ACL_DDR_MEM_P2P_HUGE:
	case ACL_DDR_MEM_P2P_NORMAL:
		*c = CLASS_HOST;
		return 0;
	case ACL_HBM_MEM:
	case ACL_HBM_MEM_NORMAL:
	case ACL_HBM_MEM_P2P_NORMAL:
	case ACL_MEM_NORMAL:
	case ACL_MEM_P2P_NORMAL:
		*c = CLASS_DEVICE_ANY;
		return 0;
	case ACL_HBM_MEM_HUGE:
	case ACL_HBM_MEM_P2P_HUGE:
	case ACL_MEM_HUGE:
	case ACL_MEM_P2P_HUGE:
		*c = CLASS_DEVICE_2M;
		return 0;
	case ACL_HBM_MEM_HUGE1G:
	case ACL_HBM_MEM_P2P_HUGE1G:
	case ACL_MEM_HUGE1G:
	case ACL_MEM_P2P_HUGE1G:
		*c = CLASS_DEVICE_1G;
		return 0;
	default:
		return -1;
	}
}

int npu_rt_mem_attr_is_device(int attr, const struct npu_sim_profile *p)
{
	enum mem_class c;

	if (class_of(attr, &c) != 0)
		return 0;
	return c != CLASS_HOST || (p != NULL && p->mem_kind == NPU_SIM_MEM_DDR);
}

/* Forward: the class a DDR attribute takes on a DDR product. */
static enum mem_class ddr_device_class(int attr);

bool npu_rt_mem_attr_device_only(int attr, const struct npu_sim_profile *p)
{
	enum mem_class c;

	if (class_of(attr, &c) != 0)
		return true;	/* refused before any figure is read */
	if (c == CLASS_HOST && p != NULL && p->mem_kind == NPU_SIM_MEM_DDR)
		c = ddr_device_class(attr);
	return c == CLASS_DEVICE_ANY;
}

/* min(capacity free rounded down to page, free pool pages * page). */
static uint64_t huge_free(uint64_t cap_free, uint64_t pool_pages, uint64_t page)
{
	uint64_t by_capacity = cap_free / page * page;
	uint64_t by_pool = pool_pages > UINT64_MAX / page ? UINT64_MAX : pool_pages * page;

	return by_capacity < by_pool ? by_capacity : by_pool;
}

static size_t clamp(uint64_t v)
{
	return v > SIZE_MAX ? SIZE_MAX : (size_t)v;
}

aclError npu_rt_mem_info_figures(int attr, const struct npu_sim_mem_info *mi, size_t *free_bytes,
				 size_t *total_bytes)
{
	return npu_rt_mem_info_figures_profile(attr, mi, NULL, free_bytes, total_bytes);
}

static bool attr_is_p2p(int attr)
{
	return attr == ACL_DDR_MEM_P2P_HUGE || attr == ACL_DDR_MEM_P2P_NORMAL ||
	       attr == ACL_HBM_MEM_P2P_HUGE || attr == ACL_HBM_MEM_P2P_NORMAL ||
	       attr == ACL_HBM_MEM_P2P_HUGE1G || attr == ACL_MEM_P2P_NORMAL ||
	       attr == ACL_MEM_P2P_HUGE || attr == ACL_MEM_P2P_HUGE1G;
}

/* A DDR class on a product whose device memory is DDR: the device's. */
static enum mem_class ddr_device_class(int attr)
{
	return attr == ACL_DDR_MEM_HUGE || attr == ACL_DDR_MEM_P2P_HUGE ? CLASS_DEVICE_2M : CLASS_DEVICE_ANY;
}

aclError npu_rt_mem_info_figures_profile(int attr, const struct npu_sim_mem_info *mi,
					 const struct npu_sim_profile *p, size_t *free_bytes,
					 size_t *total_bytes)
{
	uint64_t cap_free = mi->used < mi->capacity ? mi->capacity - mi->used : 0;
	uint64_t f, t;
	enum mem_class c;

	if (class_of(attr, &c) != 0)
		return ACL_ERROR_RT_INVALID_MEMORY_TYPE;
	if (p != NULL) {
		/* The runtime refuses a 1 GiB class where there are no 1 GiB pages. */
		if (c == CLASS_DEVICE_1G && !(p->flags & NPU_SIM_PROFILE_HUGE1G))
			return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
		if (attr_is_p2p(attr) && !(p->flags & NPU_SIM_PROFILE_P2P)) {
			*free_bytes = 0;	/* a class the product lacks */
			*total_bytes = 0;
			return ACL_SUCCESS;
		}
		if (c == CLASS_HOST && p->mem_kind == NPU_SIM_MEM_DDR)
			c = ddr_device_class(attr);
	}

	switch (c) {
	case CLASS_HOST:
		t = mi->host_total;
		f = mi->host_free;
		break;
	case CLASS_DEVICE_2M:
		t = mi->capacity;
		f = huge_free(cap_free, mi->huge_2m_free, NPU_RT_SIZE_2M);
		break;
	case CLASS_DEVICE_1G:
		t = mi->capacity;
		f = huge_free(cap_free, mi->huge_1g_free, NPU_RT_SIZE_1G);
		break;
	case CLASS_DEVICE_ANY:
	default:
		t = mi->capacity;
		f = cap_free;
		break;
	}
	*free_bytes = clamp(f);
	*total_bytes = clamp(t);
	return ACL_SUCCESS;
}
