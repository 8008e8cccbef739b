/*
 * aclrtMemManagedPrefetchBatchAsync: count prefetches queued on one
 * stream, in order.  prefetchLocs[k] is where the ranges
 * prefetchLocIdxs[k] .. prefetchLocIdxs[k + 1] - 1 (the last entry: up to
 * count - 1) go.  Every range and location is checked before the first
 * prefetch is queued, so a refused call queues nothing.
 */
#include "acl_internal.h"
#include "batch_index.h"
#include "err_msg.h"

#define MANAGED_MAX (3ULL << 40)
#define MANAGED_ALIGN (2ULL << 20)

/* Range i is managed memory and location l can receive it. */
static aclError check_one(size_t i, const void *ptr, size_t size, aclrtMemManagedLocation l)
{
	aclrtPtrAttributes attr;
	int32_t read_mostly;
	aclError err;

	if (ptr == NULL || size == 0 || size > MANAGED_MAX || size % MANAGED_ALIGN != 0) {
		npu_rt_msg_detail("range %zu: ptr NULL, or size %zu not a multiple of 2 MiB in (0, 3 TB]", i, size);
		return ACL_ERROR_INVALID_PARAM;
	}
	/* the range is inside one managed allocation (107000 otherwise) */
	err = aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ptr, size, &read_mostly,
				     sizeof(read_mostly));
	if (err == ACL_SUCCESS)
		err = aclrtPointerGetAttributes(ptr, &attr);
	if (err != ACL_SUCCESS) {
		npu_rt_msg_detail("range %zu is not inside one managed allocation", i);
		return err;
	}
	if (l.type != ACL_MEM_LOCATIONTYPE_HOST &&
	    !(l.type == ACL_MEM_LOCATIONTYPE_DEVICE && l.id >= 0 && (uint32_t)l.id == attr.location.id)) {
		npu_rt_msg_detail("range %zu: location type %d id %d is neither HOST nor the device of the memory (%u)",
				  i, (int)l.type, l.id, attr.location.id);
		return ACL_ERROR_INVALID_PARAM;
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
							       aclrtMemManagedLocation *prefetchLocs,
							       size_t *prefetchLocIdxs, size_t numPrefetchLocs,
							       uint64_t flags, aclrtStream stream)
{
	aclError err = ACL_SUCCESS;
	size_t i, k = 0;

	if (ptrs == NULL || sizes == NULL || prefetchLocs == NULL || prefetchLocIdxs == NULL || count == 0 ||
	    flags != 0 || !npu_rt_batch_indexes_ok(prefetchLocIdxs, numPrefetchLocs, count)) {
		npu_rt_msg_detail("NULL array, count 0, flags 0x%llx != 0, or prefetchLocIdxs not 0, increasing, "
				  "below count (numPrefetchLocs %zu, count %zu)",
				  (unsigned long long)flags, numPrefetchLocs, count);
		return ACL_ERROR_INVALID_PARAM;
	}
	for (i = 0; i < count && err == ACL_SUCCESS; i++) {
		if (k + 1 < numPrefetchLocs && i == prefetchLocIdxs[k + 1])
			k++;
		err = check_one(i, ptrs[i], sizes[i], prefetchLocs[k]);
	}
	for (i = 0, k = 0; i < count && err == ACL_SUCCESS; i++) {
		if (k + 1 < numPrefetchLocs && i == prefetchLocIdxs[k + 1])
			k++;
		err = aclrtMemManagedPrefetchAsync(ptrs[i], sizes[i], prefetchLocs[k], 0, stream);
	}
	return err;
}
