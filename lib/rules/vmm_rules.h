/*
 * Virtual memory management rules (pure: no I/O, no global state; unit-
 * tested in tests/unit/test_vmm_rules.c): which aclrtPhysicalMemProp values
 * aclrtMallocPhysical accepts and what they are backed by, the allocation
 * granularity, the encoding of aclrtDrvMemHandle, and how driver errors of
 * the VMM/share ioctls become aclError codes.
 * Rules: docs/design.md 4.3, docs/cann-api-notes.md 2.3-2.9, 3.1-3.5, 6.6-6.8.
 */
#ifndef NPU_RT_VMM_RULES_H
#define NPU_RT_VMM_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_rt.h"

/* Granularity of the HUGE1G attributes (others: NPU_SIM_VMM_GRANULE). */
#define NPU_RT_VMM_GRANULE_1G	(1ULL << 30)

struct npu_rt_phys_plan {
	uint32_t page_kind;	/* enum npu_sim_page_kind */
	uint32_t location;	/* enum npu_sim_location */
	uint32_t location_id;	/* device id (DEVICE), NUMA id, 0 (HOST) */
	uint32_t flags;		/* NPU_SIM_PHYS_* */
	uint64_t granularity;	/* 2 MiB, or 1 GiB for HUGE1G attributes */
};

/*
 * Checks prop as aclrtMallocPhysical does and fills *plan.  The ACL layer's
 * checks answer ACL_ERROR_INVALID_PARAM: NULL prop, handleType not NONE,
 * allocationType not PINNED, location UNREGISTERED or MANAGED, an ACL_DDR_*
 * attribute on a DEVICE location, memAttr outside the accepted set (ACL_MEM_*
 * 12-17, ACL_HBM_MEM_HUGE/NORMAL/HUGE1G, ACL_DDR_MEM_* 2/3/6/7).  Then a
 * DEVICE id >= max_dev is ACL_ERROR_RT_INVALID_DEVICEID (the runtime), and
 * what the driver refuses is ACL_ERROR_RT_PARAM_INVALID: a location type
 * outside the enum, a device-only attribute (HBM, HUGE1G) at a HOST or
 * HOST_NUMA location.  ACL_HBM_MEM_NORMAL is served as 2 MiB pages; ACL_MEM_
 * NORMAL / P2P_NORMAL and ACL_DDR_MEM_NORMAL / P2P_NORMAL get 4 KiB pages.
 */
aclError npu_rt_plan_phys(const aclrtPhysicalMemProp *prop, int max_dev,
			  struct npu_rt_phys_plan *plan);

/*
 * The memAttr and location part of npu_rt_plan_phys (handleType and
 * allocationType unread).  With acl_location false (aclrtMemGetAllocation-
 * Granularity, whose ACL layer does not look at the location type) an
 * UNREGISTERED or MANAGED location is the driver's refusal, 107000.
 */
aclError npu_rt_plan_phys_attr(const aclrtPhysicalMemProp *prop, int max_dev, bool acl_location,
			       struct npu_rt_phys_plan *plan);

/* aclrtDrvMemHandle <-> (device, driver handle id); id 1..INT32_MAX. */
aclrtDrvMemHandle npu_rt_handle_encode(int dev, uint32_t id);
/* 0 and *dev, *id set; -1 for NULL or anything not made by encode. */
int npu_rt_handle_decode(aclrtDrvMemHandle h, int max_dev, int *dev, uint32_t *id);

/* Which object a not-found (ENOENT) from the driver refers to. */
enum npu_rt_vmm_obj {
	NPU_RT_VMM_ADDR = 1,	/* an address: 107000 ACL_ERROR_RT_PARAM_INVALID */
	NPU_RT_VMM_HANDLE = 2,	/* a handle or key: 107017 ACL_ERROR_RT_INVALID_HANDLE */
};

/*
 * Positive errno of a VMM or share ioctl -> aclError:
 *   ENOENT           -> per obj (see above)
 *   EBUSY, EEXIST,
 *   EXDEV, EINVAL    -> 107000 ACL_ERROR_RT_PARAM_INVALID
 *   EPERM, EACCES    -> 207006 ACL_ERROR_RT_NO_PERMISSION
 *   anything else    -> npu_rt_errno_to_acl (ENOMEM 207001, ...)
 */
aclError npu_rt_vmm_errno_to_acl(int err, enum npu_rt_vmm_obj obj);

/* Page size in bytes of an npu_sim_page_kind (0 for an unknown kind). */
uint32_t npu_rt_page_kind_size(uint32_t page_kind);

#endif /* NPU_RT_VMM_RULES_H */
