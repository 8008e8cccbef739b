/*
 * Kernel errno -> aclError (pure; unit-tested in tests/unit/test_errmap.c).
 */
#ifndef NPU_RT_ERRMAP_H
#define NPU_RT_ERRMAP_H

#include "acl/acl_base.h"

/*
 * err is a positive errno from an npu_sim ioctl, open or mmap.
 *   0                      -> ACL_SUCCESS
 *   ENOMEM, ENOSPC         -> ACL_ERROR_RT_MEMORY_ALLOCATION (207001)
 *   EINVAL, ENXIO, EFAULT,
 *   EOVERFLOW              -> ACL_ERROR_RT_PARAM_INVALID (107000)
 *   ENOENT                 -> ACL_ERROR_RT_MEMORY_FREE (207002)
 *   EACCES, EPERM          -> ACL_ERROR_RT_NO_PERMISSION (207006)
 *   EOPNOTSUPP             -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)
 *   ENODEV                 -> ACL_ERROR_RT_NO_DEVICE (207004)
 *   anything else          -> ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899)
 */
aclError npu_rt_errno_to_acl(int err);

#endif /* NPU_RT_ERRMAP_H */
