/*
 * npu_sim: the user-allocator chapter of AscendCL (CANN header
 * acl/acl_rt_allocator.h): the callback types a user allocator provides.
 *
 * The calls that register such an allocator on a stream
 * (aclrtAllocatorCreateDesc ... aclrtAllocatorUnregister) are not declared:
 * libacl_rt does not define them yet, and a program calling one should fail
 * to build rather than get a fake success.  The handle types
 * (aclrtAllocatorDesc, aclrtAllocator, ...) are in acl_base_rt.h.
 */
#ifndef NPU_SIM_ACL_RT_ALLOCATOR_H
#define NPU_SIM_ACL_RT_ALLOCATOR_H

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Allocate size bytes from allocator; the block it returns, or NULL. */
typedef void *(*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);
/* Give block back to allocator. */
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);
/* As aclrtAllocatorAllocFunc, preferring the address addr. */
typedef void *(*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size,
					       aclrtAllocatorAddr addr);
/* The device address a block stands for. */
typedef void *(*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_RT_ALLOCATOR_H */
