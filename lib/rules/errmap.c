/*
 * Kernel errno -> aclError.  The table follows how the CANN runtime maps
 * driver failures (src/runtime/core/src/common/errcode_manage.cc,
 * InitDrvErrCodeMap: out of memory 207001, invalid value 107000, not
 * permitted 207006, not supported 207000, no device 207004, anything else
 * 507899).  No driver failure becomes 207002 there: a refused free (not an
 * allocation start, freed twice) is an invalid value, 107000.
 */
#include "errmap.h"

#include <errno.h>
#include <misc/npu_sim.h>

#include "acl/acl_rt.h"
#include "err_msg.h"

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
	case ENOENT:	/* free: not an allocation start, or freed twice */
		return ACL_ERROR_RT_PARAM_INVALID;
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

/*
 * The detail of a failed MEMCPY, MEMCPY2D or MEMSET: which range the
 * driver refused.  H2D writes device dst from host src, D2H the other way,
 * D2D device to device, dir 0 a set of device dst.
 */
static void copy_detail(int err, uint32_t dir, uintptr_t dst, size_t dlen, uintptr_t src, size_t slen)
{
	int dst_dev = dir != NPU_SIM_COPY_D2H, src_dev = dir == NPU_SIM_COPY_D2H || dir == NPU_SIM_COPY_D2D;

	switch (err) {
	case ENXIO:
		if (dst_dev && src_dev)
			npu_rt_msg_detail("the device range [%p, +%zu) (dst) or [%p, +%zu) (src) is not inside "
					  "live device memory (freed, or past the end of its allocation)",
					  (void *)dst, dlen, (void *)src, slen);
		else
			npu_rt_msg_detail("the device range [%p, +%zu) (%s) is not inside live device memory "
					  "(freed, or past the end of its allocation)",
					  dst_dev ? (void *)dst : (void *)src, dst_dev ? dlen : slen,
					  dst_dev ? "dst" : "src");
		break;
	case EFAULT:
		if (dir == NPU_SIM_COPY_H2D)
			npu_rt_msg_detail("the host range [%p, +%zu) (src) is not readable memory of this process",
					  (void *)src, slen);
		else if (dir == NPU_SIM_COPY_D2H)
			npu_rt_msg_detail("the host range [%p, +%zu) (dst) is not writable memory of this process "
					  "(read-only or not mapped)", (void *)dst, dlen);
		break;
	case EACCES:
	case EPERM:
		if (dst_dev && src_dev)
			npu_rt_msg_detail("the device range [%p, +%zu) (dst) is read-only (registered READONLY) "
					  "or mapped without access, or [%p, +%zu) (src) is mapped without access",
					  (void *)dst, dlen, (void *)src, slen);
		else if (dst_dev)
			npu_rt_msg_detail("the device range [%p, +%zu) (dst) is read-only (registered READONLY) "
					  "or mapped without access", (void *)dst, dlen);
		else
			npu_rt_msg_detail("the device range [%p, +%zu) (src) is mapped without access",
					  (void *)src, slen);
		break;
	default:
		break;
	}
}

aclError npu_rt_copy_errno(int err, uint32_t dir, uintptr_t dst, size_t dlen, uintptr_t src, size_t slen)
{
	copy_detail(err, dir, dst, dlen, src, slen);
	return npu_rt_errno_to_acl(err);
}
