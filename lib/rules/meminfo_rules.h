/*
 * aclrtGetMemInfo figures per aclrtMemAttr from the driver's counters
 * (pure; unit-tested in tests/unit/test_meminfo_rules.c).  The per-class
 * definitions are documented at aclrtGetMemInfo in include/acl/acl_rt.h.
 */
#ifndef NPU_RT_MEMINFO_RULES_H
#define NPU_RT_MEMINFO_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include <misc/npu_sim.h>
#include <misc/npu_sim_profiles.h>

#include "acl/acl_rt.h"

/*
 * Returns ACL_SUCCESS and sets *free_bytes and *total_bytes, or
 * ACL_ERROR_RT_INVALID_MEMORY_TYPE (107016) for an attr outside
 * aclrtMemAttr (outputs untouched).
 */
aclError npu_rt_mem_info_figures(int attr, const struct npu_sim_mem_info *mi, size_t *free_bytes,
				 size_t *total_bytes);

/*
 * The same on product p (NULL: as npu_rt_mem_info_figures, which is the
 * Atlas A2 answer).  A 1 GiB class on a product without 1 GiB pages is
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000, outputs untouched); a P2P class
 * on a product without P2P answers 0 and 0; on a product whose
 * device memory is DDR the ACL_DDR_MEM* classes are the device memory
 * (and the ACL_HBM_MEM* ones are served as their DDR equivalent, the same
 * device figures), on an HBM product they are host RAM.
 */
aclError npu_rt_mem_info_figures_profile(int attr, const struct npu_sim_mem_info *mi,
					 const struct npu_sim_profile *p, size_t *free_bytes,
					 size_t *total_bytes);
/* How aclrtGetMemInfo answers attr on product p (NULL: Atlas A2). */
struct npu_rt_mem_info_how {
	aclError err;		/* as npu_rt_mem_info_figures_profile */
	int cls;		/* the figures it reads (meminfo_rules.c) */
	bool none;		/* a P2P class the product lacks: 0 and 0 */
	bool device_only;	/* MEM_INFO with NPU_SIM_MEM_INFO_DEVICE_ONLY answers it:
				 * the device's capacity and use alone, not the
				 * hugetlb pools or host memory */
	bool is_device;		/* a class of device memory: the HBM/MEM classes,
				 * and the DDR ones where the device memory is DDR */
};
struct npu_rt_mem_info_how npu_rt_mem_info_how(int attr, const struct npu_sim_profile *p);
/* The figures of h (err ACL_SUCCESS) from the driver's counters mi. */
void npu_rt_mem_info_read(const struct npu_rt_mem_info_how *h, const struct npu_sim_mem_info *mi,
			  size_t *free_bytes, size_t *total_bytes);

#endif /* NPU_RT_MEMINFO_RULES_H */
