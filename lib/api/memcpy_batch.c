/*
 * Batch copies beyond aclrtMemcpyBatch (copy.c): aclrtMemcpyBatchV2 (the
 * same without failIndex) and the stream forms aclrtMemcpyBatchAsync and
 * aclrtMemcpyBatchAsyncV2.  The asynchronous forms check in the order of
 * the CANN ACL layer (NULL arrays, sizes against destMaxs, reserved bytes:
 * ACL_ERROR_INVALID_PARAM) and then of the runtime (the stream, the
 * attribute indexes: ACL_ERROR_RT_PARAM_INVALID), and then, as the
 * runtime's loop does, check and queue one copy after the other: a copy
 * refused leaves the ones before it queued and names itself in failIndex.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "profile.h"

ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
						size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
						size_t numAttrs)
{
	size_t fail;

	return aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, &fail);
}

static bool all_zero(const size_t *sizes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (sizes[i] != 0)
			return false;
	return true;
}

/* The ACL layer's checks (ValidateMemcpyBatchParams), after sizes and n. */
aclError npu_rt_batch_acl_checks(void **dsts, const size_t *destMaxs, void **srcs, const size_t *sizes, size_t n,
			   const aclrtMemcpyBatchAttr *attrs, const size_t *idx, size_t numAttrs)
{
	static const uint8_t zero[sizeof(attrs->rsv)];

	if (dsts == NULL || destMaxs == NULL || srcs == NULL || attrs == NULL || idx == NULL) {
		npu_rt_msg_detail("%s is NULL", dsts == NULL ? "dsts" : destMaxs == NULL ? "destMaxs" :
				  srcs == NULL ? "srcs" : attrs == NULL ? "attrs" : "attrsIndexes");
		return ACL_ERROR_INVALID_PARAM;
	}
	for (size_t i = 0; i < n; i++) {
		if (destMaxs[i] < sizes[i]) {
			npu_rt_msg_detail("copy %zu: size %zu is more than destMaxs %zu", i, sizes[i], destMaxs[i]);
			return ACL_ERROR_INVALID_PARAM;
		}
	}
	for (size_t k = 0; k < numAttrs; k++) {
		if (memcmp(attrs[k].rsv, zero, sizeof(zero)) != 0) {
			npu_rt_msg_detail("attrs[%zu].rsv is not 0", k);
			return ACL_ERROR_INVALID_PARAM;
		}
	}
	return ACL_SUCCESS;
}

/* The runtime's first check: the chip's RT_FEATURE_TASK_MEMORY_BATCH_COPY. */
aclError npu_rt_batch_feature_check(void)
{
	const char *product = NULL;

	if (npu_rt_product_has(NPU_SIM_PROFILE_BATCH_COPY, &product))
		return ACL_SUCCESS;
	npu_rt_msg_detail("%s has no batch copies", product);
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

/* The runtime's checks of the attribute indexes. */
aclError npu_rt_batch_rt_checks(size_t n, const size_t *idx, size_t numAttrs)
{
	if (numAttrs == 0 || numAttrs > n || idx[0] != 0) {
		npu_rt_msg_detail("numAttrs %zu must be in 1..numBatches (%zu) and attrsIndexes[0] 0", numAttrs, n);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	for (size_t k = 1; k < numAttrs; k++) {
		if (idx[k] <= idx[k - 1] || idx[k] >= n) {
			npu_rt_msg_detail("attrsIndexes[%zu] %zu must be above the one before and below numBatches %zu", k,
					  idx[k], n);
			return ACL_ERROR_RT_PARAM_INVALID;
		}
	}
	return ACL_SUCCESS;
}

/* Whether location l says where [p, p + len) is (table lock held). */
static bool loc_says(const aclrtMemLocation *l, const void *p, size_t len)
{
	struct npu_rt_loc w = npu_rt_locate_locked(p, len);

	if (w.kind == NPU_RT_LOC_HOST)
		return l->type == ACL_MEM_LOCATION_TYPE_HOST;
	return w.kind == NPU_RT_LOC_DEVICE && l->type == ACL_MEM_LOCATION_TYPE_DEVICE && l->id == (uint32_t)w.dev;
}

/* Copy i against attribute a, where the stream's table lock is taken. */
static aclError copy_matches(aclrtStream stream, size_t i, void *dst, const void *src, size_t size,
			     const aclrtMemcpyBatchAttr *a)
{
	struct npu_rt_ref ref;
	aclError err;
	bool ok;

	if (dst == NULL || src == NULL) {
		npu_rt_msg_detail("copy %zu: %s is NULL", i, dst == NULL ? "dst" : "src");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	ok = loc_says(&a->dstLoc, dst, size) && loc_says(&a->srcLoc, src, size);
	npu_rt_devices_unlock();
	if (!ok) {
		npu_rt_msg_detail("copy %zu: its attribute's dstLoc/srcLoc do not say where dst/src are", i);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

static aclError batch_async(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t n,
			    aclrtMemcpyBatchAttr *attrs, size_t *idx, size_t numAttrs, size_t *failIndex,
			    aclrtStream stream)
{
	struct npu_rt_ref ref;
	aclError err;
	size_t k = 0;

	if (failIndex != NULL)
		*failIndex = SIZE_MAX;
	if (sizes == NULL || n == 0) {
		npu_rt_msg_detail(sizes == NULL ? "sizes is NULL" : "numBatches is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (all_zero(sizes, n))
		return ACL_SUCCESS;
	err = npu_rt_batch_acl_checks(dsts, destMaxs, srcs, sizes, n, attrs, idx, numAttrs);
	if (err == ACL_SUCCESS)
		err = npu_rt_batch_feature_check();	/* rtsMemcpyBatchAsync */
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_stream_enter(stream, &ref);	/* the stream is checked first */
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	err = npu_rt_batch_rt_checks(n, idx, numAttrs);
	for (size_t i = 0; i < n && err == ACL_SUCCESS; i++) {
		if (k + 1 < numAttrs && i >= idx[k + 1])
			k++;
		err = copy_matches(stream, i, dsts[i], srcs[i], sizes[i], &attrs[k]);
		if (err == ACL_SUCCESS && sizes[i] != 0)
			err = aclrtMemcpyAsync(dsts[i], destMaxs[i], srcs[i], sizes[i], ACL_MEMCPY_DEFAULT, stream);
		if (err != ACL_SUCCESS && failIndex != NULL)
			*failIndex = i;
	}
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
						   size_t numBatches, aclrtMemcpyBatchAttr *attrs,
						   size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
						   aclrtStream stream)
{
	if (failIndex == NULL) {
		npu_rt_msg_detail("failIndex is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	return batch_async(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
						     size_t numBatches, aclrtMemcpyBatchAttr *attrs,
						     size_t *attrsIndexes, size_t numAttrs, aclrtStream stream)
{
	return batch_async(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, NULL, stream);
}
