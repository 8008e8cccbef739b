/*
 * npu_sim: the stream-ordered memory pool chapter of AscendCL (CANN header
 * acl/acl_rt_memory_soma.h): the pool handle, its attributes and its
 * properties.
 *
 * A pool hands out device memory in the order of a stream: memory given
 * back with aclrtMemPoolFreeAsync on stream S may be handed out again at
 * once by aclrtMemPoolMallocAsync on S (the stream runs in order), and to
 * another stream only once the free has run on S and the pool allows it
 * (ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC or ..._INTERNAL_DEPENDENCIES
 * set; the runtime's default allows neither).  The pool's memory comes in
 * blocks of multiples of 2 MiB, each an ordinary device allocation charged
 * to the device like aclrtMalloc and freed when the process exits or is
 * killed; the blocks and the pool's figures are in debugfs
 * /sys/kernel/debug/npu_sim/npu_simN/mempools.  Codes: 100000 for the ACL
 * layer's checks, 107000 (ACL_ERROR_RT_PARAM_INVALID) and 507000
 * (ACL_ERROR_RT_INTERNAL_ERROR: the runtime's pool errors have no public
 * code) for the runtime's, as listed per call.
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

/*
 * aclrtMemPoolCreate - create a pool on device poolProps->location.id (a
 * device this process has set with aclrtSetDevice), reserving nothing
 * yet.  poolProps->maxSize: the most bytes it may reserve; 0 means the
 * device's memory rounded down to 2 MiB, else it is rounded up to 2 MiB.
 * *memPool is set to the handle.  handleType is not checked.
 * Errors: 100000 memPool or poolProps NULL, allocType not
 * ACL_MEM_ALLOCATION_TYPE_PINNED, location.type not
 * ACL_MEM_LOCATION_TYPE_DEVICE, reserved not all zero (in that order);
 * 107001 location.id is no device; 107002 that device is not set in this
 * process; 107000 maxSize rounded up is above the device's memory.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps);

/*
 * aclrtMemPoolDestroy - destroy a pool: every block goes back to the
 * device, given out or not (the runtime does not check; pointers into it
 * are invalid from then on; queued stream work using one finishes on its
 * pages first).  Errors: 100000 memPool NULL; 507000 not a live pool.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool);

/*
 * aclrtMemPoolSetAttr - set attribute attr from *value: a uint32_t for the
 * three REUSE attributes (non-zero is 1); a uint64_t number of bytes for
 * RELEASE_THRESHOLD (at most the pool's size: after a stream, event or
 * device synchronize the pool releases free blocks, smallest first, while
 * it reserves more than the threshold and what it keeps stays at or above
 * it); a uint64_t 0 for RESERVED_MEM_HIGH and USED_MEM_HIGH (resets the
 * high mark).  ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES is kept and
 * read back; npu_sim does not track event edges, so it never makes a block
 * reusable on its own (the conservative choice).
 * Errors: 100000 memPool NULL; 107000 value NULL, not a live pool, attr
 * RESERVED_MEM_CURRENT or USED_MEM_CURRENT (read only); 507000 attr not an
 * aclrtMemPoolAttr, a threshold above the pool's size, a non-zero HIGH.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);

/*
 * aclrtMemPoolGetAttr - read attribute attr into *value (uint32_t for the
 * REUSE attributes, else uint64_t bytes).  RESERVED_MEM_CURRENT: bytes of
 * all blocks; USED_MEM_CURRENT: bytes of the blocks given out and not
 * freed (a block counts whole, from aclrtMemPoolMallocAsync to
 * aclrtMemPoolFreeAsync); the HIGH ones: their largest value since the
 * pool was made or the mark was reset.
 * Errors: 100000 memPool NULL; 107000 value NULL, not a live pool; 507000
 * attr not an aclrtMemPoolAttr.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);

/*
 * aclrtMemPoolMallocAsync - take size bytes (rounded up to 2 MiB) from the
 * pool for use on stream and set *ptr.  The block given is the smallest
 * fit among those freed on stream (even if that free has not run yet),
 * or, when the pool allows reuse across streams, those whose free has run
 * on any stream; else a new block is reserved.  size 0: ACL_SUCCESS and
 * *ptr untouched (as the ACL layer does).
 * Errors: 100000 ptr, memPool or stream NULL; 107017 stream not a live
 * stream (also when another thread destroys it during the call); 107000
 * size too large to round up; 507000 not a live pool (or a pool
 * of another device than stream's), the pool would exceed its maxSize, or
 * the device's memory is short.
 * On a capturing stream the block is taken at once (its address is fixed
 * for every replay) and the allocation is recorded in the graph, which
 * owns the block from aclmdlRICaptureEnd until aclmdlRIDestroy (then it
 * goes back to the device); aclrtFree and aclrtMemPoolFreeAsync outside
 * the graph cannot free it, and it counts as used.  A capture that makes
 * no graph gives it back.  More errors then: 507903 the capture was
 * invalidated; 507009 the stream is in a task group; 207000 the module
 * cannot give graphs memory (the capture is invalidated).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, aclrtMemPool memPool, aclrtStream stream);

/*
 * aclrtMemPoolFreeAsync - give ptr back to its pool in the order of stream
 * (NULL: the default stream): it stops counting as used at once and is
 * free for other streams when the stream reaches the free.  ptr not in
 * any pool (memory of aclrtMalloc): freed as aclrtFree does when the
 * stream reaches it; failures then are not reported (as the runtime's
 * host function).  aclrtFree of a pool block given out frees it at once
 * (it leaves its pool: used and reserved drop by its size); of a block
 * already freed it fails with 107000.
 * Errors: 100000 ptr NULL; 107017 stream not a live stream (also when
 * another thread destroys it during the call); 507000 ptr in
 * a pool block that is not given out (freed twice) or not its start.
 * On a capturing stream the free is recorded, not run: ptr must be a block
 * aclrtMemPoolMallocAsync gave in the same capture and not freed in it
 * (its use ends there in each replay; the block stays the graph's).
 * Otherwise 207000 (a graph cannot own memory allocated outside it) and
 * the capture is invalidated; 507903 an invalidated capture; 507009 the
 * stream is in a task group.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream);

/*
 * aclrtMemPoolTrimTo - release free blocks (those whose free has run),
 * smallest first, while the pool reserves more than minBytesToKeep bytes,
 * each only if what it keeps stays at or above minBytesToKeep; a value at
 * or above the reserved bytes does nothing.
 * Errors: 100000 memPool NULL; 507000 not a live pool, minBytesToKeep
 * above the pool's size or below its used bytes.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_RT_MEMORY_SOMA_H */
