/*
 * npu_sim: C++ conveniences over the runtime API (CANN header
 * acl/acl_rt_api.h).  Empty in C.
 *
 * Overloads and typed templates that forward to the C calls: a timeout
 * argument selects the ...WithTimeout call, priority and flags select
 * aclrtCreateStreamWithConfig, typed pointers need no cast to void *.
 * Only the overloads whose C call libacl_rt defines are here; the CANN
 * header's others (events with flags, op timeouts, the V2 batch copies,
 * symbols, device and event synchronize with a timeout) are left out so
 * that code using one fails to build instead of linking to nothing.
 */
#ifndef NPU_SIM_ACL_RT_API_H
#define NPU_SIM_ACL_RT_API_H

#include "acl_rt.h"

#ifdef __cplusplus

static inline aclError aclrtSynchronizeStream(aclrtStream stream, int32_t timeout)
{
	return ::aclrtSynchronizeStreamWithTimeout(stream, timeout);
}

static inline aclError aclrtCreateStream(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
	return ::aclrtCreateStreamWithConfig(stream, priority, flag);
}

/* Device memory, HUGE_FIRST unless a policy is given. */
template <typename T>
static inline aclError aclrtMalloc(T **devPtr, size_t size, aclrtMallocConfig *cfg = nullptr)
{
	return ::aclrtMallocWithCfg(reinterpret_cast<void **>(devPtr), size, ACL_MEM_MALLOC_HUGE_FIRST, cfg);
}

template <typename T>
static inline aclError aclrtMalloc(T **devPtr, size_t size, aclrtMemMallocPolicy policy,
				   aclrtMallocConfig *cfg = nullptr)
{
	return ::aclrtMallocWithCfg(reinterpret_cast<void **>(devPtr), size, policy, cfg);
}

template <typename T>
static inline aclError aclrtMallocHost(T **hostPtr, size_t size, aclrtMallocConfig *cfg = nullptr)
{
	return ::aclrtMallocHostWithCfg(reinterpret_cast<void **>(hostPtr), static_cast<uint64_t>(size), cfg);
}

template <typename T, typename U>
static inline aclError aclrtMemcpy(T *dst, size_t destMax, const U *src, size_t count, aclrtMemcpyKind kind)
{
	return ::aclrtMemcpy(static_cast<void *>(dst), destMax, static_cast<const void *>(src), count, kind);
}

template <typename T, typename U>
static inline aclError aclrtMemcpyAsync(T *dst, size_t destMax, const U *src, size_t count,
					aclrtMemcpyKind kind, aclrtStream stream)
{
	return ::aclrtMemcpyAsync(static_cast<void *>(dst), destMax, static_cast<const void *>(src), count,
				  kind, stream);
}

template <typename T, typename U>
static inline aclError aclrtMemcpy2d(T *dst, size_t dpitch, const U *src, size_t spitch, size_t width,
				     size_t height, aclrtMemcpyKind kind)
{
	return ::aclrtMemcpy2d(static_cast<void *>(dst), dpitch, static_cast<const void *>(src), spitch,
			       width, height, kind);
}

template <typename T, typename U>
static inline aclError aclrtMemcpy2dAsync(T *dst, size_t dpitch, const U *src, size_t spitch, size_t width,
					  size_t height, aclrtMemcpyKind kind, aclrtStream stream)
{
	return ::aclrtMemcpy2dAsync(static_cast<void *>(dst), dpitch, static_cast<const void *>(src), spitch,
				    width, height, kind, stream);
}

template <typename T>
static inline aclError aclrtPointerGetAttributes(const T *ptr, aclrtPtrAttributes *attributes)
{
	return ::aclrtPointerGetAttributes(static_cast<const void *>(ptr), attributes);
}

template <typename T>
static inline aclError aclrtHostRegister(T *ptr, uint64_t size, aclrtHostRegisterType type, T **devPtr)
{
	return ::aclrtHostRegister(static_cast<void *>(ptr), size, type, reinterpret_cast<void **>(devPtr));
}

/* The flag form is aclrtHostRegisterV2. */
template <typename T>
static inline aclError aclrtHostRegister(T *ptr, uint64_t size, uint32_t flag)
{
	return ::aclrtHostRegisterV2(static_cast<void *>(ptr), size, flag);
}

template <typename T>
static inline aclError aclrtHostGetDevicePointer(T *pHost, T **pDevice, uint32_t flag)
{
	return ::aclrtHostGetDevicePointer(static_cast<void *>(pHost), reinterpret_cast<void **>(pDevice), flag);
}

template <typename T>
static inline aclError aclrtHostUnregister(T *ptr)
{
	return ::aclrtHostUnregister(static_cast<void *>(ptr));
}

template <typename T>
static inline aclError aclrtMemAllocManaged(T **devPtr, size_t size, uint32_t flags = ACL_RT_MEM_ATTACH_GLOBAL)
{
	return ::aclrtMemAllocManaged(reinterpret_cast<void **>(devPtr), static_cast<uint64_t>(size), flags);
}

template <typename T>
static inline aclError aclrtMemManagedPrefetchAsync(const T *ptr, size_t size, aclrtMemManagedLocation location,
						    uint32_t flags, aclrtStream stream)
{
	return ::aclrtMemManagedPrefetchAsync(static_cast<const void *>(ptr), size, location, flags, stream);
}

/* Every range to the one location prefetchLoc. */
template <typename T>
static inline aclError aclrtMemManagedPrefetchBatchAsync(const T **ptrs, size_t *sizes, size_t count,
							 aclrtMemManagedLocation prefetchLoc, uint64_t flags,
							 aclrtStream stream)
{
	aclrtMemManagedLocation locs[1] = { prefetchLoc };
	size_t locIdxs[1] = { 0 };

	return ::aclrtMemManagedPrefetchBatchAsync(reinterpret_cast<const void **>(ptrs), sizes, count, locs,
						   locIdxs, 1, flags, stream);
}

template <typename T>
static inline aclError aclrtMemManagedPrefetchBatchAsync(const T **ptrs, size_t *sizes, size_t count,
							 aclrtMemManagedLocation *prefetchLocs,
							 size_t *prefetchLocIdxs, size_t numPrefetchLocs,
							 uint64_t flags, aclrtStream stream)
{
	return ::aclrtMemManagedPrefetchBatchAsync(reinterpret_cast<const void **>(ptrs), sizes, count,
						   prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, stream);
}

#endif /* __cplusplus */

#endif /* NPU_SIM_ACL_RT_API_H */
