/*
 * aclrtMemFlush / aclrtMemInvalidate: cache maintenance of a memory range.
 * npu_sim's host and device share coherent memory (device memory is host
 * pages written by the driver under the kernel's ordering), so there is no
 * cache between them to write back or drop: once the arguments are valid
 * the range is already in the state the call promises.
 */
#include "acl_internal.h"
#include "err_msg.h"

static aclError check_range(const void *devPtr, size_t size)
{
	if (devPtr == NULL) {
		npu_rt_msg_detail("devPtr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (size == 0) {
		npu_rt_msg_detail("size is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	if ((uintptr_t)devPtr + size < (uintptr_t)devPtr) {
		npu_rt_msg_detail("[devPtr, devPtr + %zu) wraps around the address space", size);
		return ACL_ERROR_INVALID_PARAM;
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size)
{
	return check_range(devPtr, size);
}

ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size)
{
	return check_range(devPtr, size);
}
