/*
 * aclrtGetMemInfo figures per aclrtMemAttr from the driver's counters
 * (pure; unit-tested in tests/unit/test_meminfo_rules.c).  The per-class
 * definitions are documented at aclrtGetMemInfo in include/acl/acl_rt.h.
 */
#ifndef NPU_RT_MEMINFO_RULES_H
#define NPU_RT_MEMINFO_RULES_H

#include <stddef.h>

#include <misc/npu_sim.h>

#include "acl/acl_rt.h"

/*
 * Returns ACL_SUCCESS and sets *free_bytes and *total_bytes, or
 * ACL_ERROR_INVALID_PARAM for an attr outside aclrtMemAttr (outputs
 * untouched).
 */
aclError npu_rt_mem_info_figures(int attr, const struct npu_sim_mem_info *mi, size_t *free_bytes,
				 size_t *total_bytes);

/* Whether attr is a device memory class (HBM/MEM), not host DDR. */
int npu_rt_mem_attr_is_device(int attr);

#endif /* NPU_RT_MEMINFO_RULES_H */
