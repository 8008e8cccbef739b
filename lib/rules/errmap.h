/*
 * Kernel errno -> aclError (no I/O; the only state touched is the calling
 * thread's message detail, err_msg.h; unit-tested in tests/unit/test_errmap.c).
 */
#ifndef NPU_RT_ERRMAP_H
#define NPU_RT_ERRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

/*
 * err is a positive errno from an npu_sim ioctl, open or mmap.
 *   0                      -> ACL_SUCCESS
 *   ENOMEM, ENOSPC         -> ACL_ERROR_RT_MEMORY_ALLOCATION (207001)
 *   EINVAL, ENXIO, EFAULT,
 *   EOVERFLOW, ENOENT      -> ACL_ERROR_RT_PARAM_INVALID (107000)
 *   EACCES, EPERM          -> ACL_ERROR_RT_NO_PERMISSION (207006)
 *   EOPNOTSUPP             -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)
 *   ENODEV                 -> ACL_ERROR_RT_NO_DEVICE (207004)
 *   anything else          -> ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899)
 */
aclError npu_rt_errno_to_acl(int err);

/*
 * The same for a failed copy or set of the driver, leaving a detail
 * (err_msg.h) that names the refused range: ENXIO the device range not in
 * live device memory, EFAULT the host range not accessible, EACCES/EPERM
 * the device range read-only or mapped without access.  dir is
 * NPU_SIM_COPY_H2D, _D2H or _D2D, or 0 for a set of [dst, dst + dlen).
 */
aclError npu_rt_copy_errno(int err, uint32_t dir, uintptr_t dst, size_t dlen, uintptr_t src, size_t slen);

#endif /* NPU_RT_ERRMAP_H */
