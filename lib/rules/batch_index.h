/*
 * The index arrays of the batch calls (aclrtMemcpyBatch attrsIndexes,
 * aclrtMemManagedPrefetchBatchAsync prefetchLocIdxs): entry k applies to
 * items idx[k] .. idx[k + 1] - 1, the last one to the end of the batch.
 */
#ifndef NPU_RT_BATCH_INDEX_H
#define NPU_RT_BATCH_INDEX_H

#include <stdbool.h>
#include <stddef.h>

/* n entries, 1 <= n <= count, starting at 0, increasing, below count. */
static inline bool npu_rt_batch_indexes_ok(const size_t *idx, size_t n, size_t count)
{
	if (n == 0 || n > count || idx[0] != 0 || idx[n - 1] >= count)
		return false;
	for (size_t k = 1; k < n; k++)
		if (idx[k] <= idx[k - 1])
			return false;
	return true;
}

#endif /* NPU_RT_BATCH_INDEX_H */
