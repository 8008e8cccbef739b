/*
 * npu_sim: the stream-ordered memory pool chapter of AscendCL (CANN header
 * acl/acl_rt_memory_soma.h): the pool handle, its attributes and its
 * properties.
 *
 * The pool calls (aclrtMemPoolCreate ... aclrtMemPoolTrimTo) are not
 * declared: libacl_rt does not define them yet, and a program calling one
 * should fail to build rather than get a fake success.
 */
#ifndef NPU_SIM_ACL_RT_MEMORY_SOMA_H
#define NPU_SIM_ACL_RT_MEMORY_SOMA_H

#include <stddef.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtMemPool;

typedef enum aclrtMemPoolAttr {
	ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,
	ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,
	ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3,
	ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4,
	ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT = 0x5,
	ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH = 0x6,
	ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT = 0x7,
	ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH = 0x8,
} aclrtMemPoolAttr;

/* Where a pool's memory lives and how big the pool may grow (maxSize). */
typedef struct {
	aclrtMemAllocationType allocType;
	aclrtMemHandleType handleType;
	aclrtMemLocation location;
	size_t maxSize;
	unsigned char reserved[32];
} aclrtMemPoolProps;

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_RT_MEMORY_SOMA_H */
