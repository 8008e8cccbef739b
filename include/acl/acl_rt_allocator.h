/*
 * npu_sim: the user-allocator chapter of AscendCL (CANN header
 * acl/acl_rt_allocator.h): a description of a user allocator (its object
 * and callbacks) and its registration per stream.  The handle types
 * (aclrtAllocatorDesc, aclrtAllocator, ...) are in acl_base_rt.h.
 *
 * The registry is the CANN ACL layer's: a map from stream handle to a copy
 * of the description, for the layers above the runtime (graph and
 * operator libraries) to allocate a stream's workspace from.  The runtime
 * itself calls no allocator, and no npu_sim call allocates stream
 * workspace, so libacl_rt never calls the callbacks; aclrtAllocatorGetByStream
 * hands them back.  As in CANN the stream handle is a key only: it is not
 * checked to be a live stream, and destroying a stream does not unregister
 * it.  A description is host memory of the library until
 * aclrtAllocatorDestroyDesc; the registry keeps its own copy, so changing
 * or destroying the description later does not change a registration.
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

/*
 * aclrtAllocatorCreateDesc - a new, empty description (no object, no
 * callbacks).  Returns it, or NULL when no host memory is left.
 */
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);

/*
 * aclrtAllocatorDestroyDesc - free allocatorDesc.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) NULL, or not a live description of
 * this library (destroyed already).
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);

/*
 * aclrtAllocatorSetObjToDesc, aclrtAllocatorSet...FuncToDesc - set the
 * allocator object or one callback of allocatorDesc.  Return ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) allocatorDesc NULL or not a live
 * description, or the object / function NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
							      aclrtAllocatorAllocFunc func);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
							     aclrtAllocatorFreeFunc func);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
								    aclrtAllocatorAllocAdviseFunc func);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
									 aclrtAllocatorGetAddrFromBlockFunc func);

/*
 * aclrtAllocatorRegister - register (a copy of) allocatorDesc for stream,
 * replacing an earlier registration of that stream.  Checks, in order:
 * stream NULL, allocatorDesc NULL or not a live description, its object,
 * alloc, free or get-address callback not set -> ACL_ERROR_INVALID_PARAM
 * (100000).  The alloc-advise callback is optional.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);

/*
 * aclrtAllocatorGetByStream - the registration of stream: *allocatorDesc
 * the description it was made from (the handle, which may since have been
 * destroyed), and through each other pointer that is not NULL the object
 * and callbacks as registered (an unset alloc-advise callback is NULL).
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) allocatorDesc or
 * stream NULL, or stream not registered (nothing written).
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
						       aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
						       aclrtAllocatorFreeFunc *freeFunc,
						       aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
						       aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc);

/*
 * aclrtAllocatorUnregister - drop the registration of stream (none: no
 * effect).  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) stream
 * NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_RT_ALLOCATOR_H */
