/*
 * Kernel errno -> aclError.  The table follows how the CANN runtime maps
 * driver failures (docs/cann-api-notes.md 1.2: out of memory 207001, invalid value
 * 107000, free failure 207002, not permitted 207006, not supported 207000,
 * no device 207004, anything else 507899).
 */
#include "errmap.h"

#include <errno.h>

#include "acl/acl_rt.h"

aclError npu_rt_errno_to_acl(int err)
{
	switch (err) {
	case 0:
		return ACL_SUCCESS;
	case ENOMEM:
	case ENOSPC:
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	case EINVAL:
	case ENXIO:	/* range not in live device memory */
	case EFAULT:	/* host range not accessible */
	case EOVERFLOW:
		return ACL_ERROR_RT_PARAM_INVALID;
	case ENOENT:	/* free: not an allocation start, or freed twice */
		return ACL_ERROR_RT_MEMORY_FREE;
	case EACCES:
	case EPERM:
		return ACL_ERROR_RT_NO_PERMISSION;
	case EOPNOTSUPP:
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	case ENODEV:
		return ACL_ERROR_RT_NO_DEVICE;
	default:
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
}
