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

inline struct npu_rt_mem_info_how npu_rt_mem_info_how(int attr, const struct npu_sim_profile *p)
{
	struct npu_rt_mem_info_how h = { .err = ACL_SUCCESS };
	enum mem_class c;

	if (class_of(attr, &c) != 0) {
		h.err = ACL_ERROR_RT_INVALID_MEMORY_TYPE;
		h.device_only = true;	/* refused before any figure is read */
		return h;
	}
	if (p != NULL) {
		/* The runtime refuses a 1 GiB class where there are no 1 GiB pages. */
		if (c == CLASS_DEVICE_1G && !(p->flags & NPU_SIM_PROFILE_HUGE1G))
			h.err = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
		if (attr_is_p2p(attr) && !(p->flags & NPU_SIM_PROFILE_P2P))
			h.none = true;	/* a class the product lacks */
		if (c == CLASS_HOST && p->mem_kind == NPU_SIM_MEM_DDR)
			c = ddr_device_class(attr);
	}
	h.cls = (int)c;
	h.device_only = c == CLASS_DEVICE_ANY;
	h.is_device = c != CLASS_HOST;
	return h;
}

void npu_rt_mem_info_read(const struct npu_rt_mem_info_how *h, const struct npu_sim_mem_info *mi,
			  size_t *free_bytes, size_t *total_bytes)
{
	uint64_t cap_free = mi->used < mi->capacity ? mi->capacity - mi->used : 0;
	uint64_t f, t;

	if (h->none) {
		*free_bytes = 0;
		*total_bytes = 0;
		return;
	}
	switch ((enum mem_class)h->cls) {
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
}

aclError npu_rt_mem_info_figures_profile(int attr, const struct npu_sim_mem_info *mi,
					 const struct npu_sim_profile *p, size_t *free_bytes,
					 size_t *total_bytes)
{
	struct npu_rt_mem_info_how h = npu_rt_mem_info_how(attr, p);

	if (h.err == ACL_SUCCESS)
		npu_rt_mem_info_read(&h, mi, free_bytes, total_bytes);
	return h.err;
}
