/*
 * aclrtReserveMemAddressNoUCMemory: a reservation as aclrtReserveMemAddress
 * makes, for memory that operators bypassing the L2 cache must not use.
 * npu_sim runs no operators, so only the call's stricter rules differ:
 * size a non-zero multiple of 1 GiB, and expectPtr given by the caller
 * (1 GiB aligned, inside the current device's VA window, free).
 */
#include "acl_internal.h"
#include "err_msg.h"

#define SZ_1G (1ULL << 30)

ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment,
							      void *expectPtr, uint64_t flags)
{
	if (size == 0 || size % SZ_1G != 0) {
		npu_rt_msg_detail("size %zu is not a non-zero multiple of 1 GiB", size);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (expectPtr == NULL || (uintptr_t)expectPtr % SZ_1G != 0) {
		npu_rt_msg_detail("expectPtr %p must be given and 1 GiB aligned (the system does not pick it here)",
				  expectPtr);
		return ACL_ERROR_INVALID_PARAM;
	}
	return aclrtReserveMemAddress(virPtr, size, alignment, expectPtr, flags);
}
