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
#include "range_check.h"

/* The ACL layer's checks (ValidateMemcpyBatchParams), after sizes and n. */
static aclError npu_rt_batch_acl_checks(void **dsts, const size_t *destMaxs, void **srcs, const size_t *sizes,
				       size_t n, const aclrtMemcpyBatchAttr *attrs, const size_t *idx, size_t numAttrs)
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
static aclError npu_rt_batch_feature_check(void)
{
	const char *product = NULL;

	if (npu_rt_product_has(NPU_SIM_PROFILE_BATCH_COPY, &product))
		return ACL_SUCCESS;
	npu_rt_msg_detail("%s has no batch copies", product);
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

/* The runtime's checks of the attribute indexes. */
static aclError npu_rt_batch_rt_checks(size_t n, const size_t *idx, size_t numAttrs)
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

/*
 * aclrtMemcpyBatch: numBatches synchronous copies in one call, all host to
 * device or all device to host.  attrs[k] describes where the copies
 * attrsIndexes[k] .. attrsIndexes[k + 1] - 1 (the last entry: up to
 * numBatches - 1) have their destination and source; each copy is checked
 * against its attribute, its direction and, on the device side, against
 * live memory before any byte moves.  *failIndex names the refused copy,
 * or is SIZE_MAX when the error is not about one copy.
 */

/* An ACL location matches where p really is (host, or device dev). */
static int loc_matches(const aclrtMemLocation *l, struct npu_rt_loc where)
{
	if (where.kind == NPU_RT_LOC_HOST)
		return l->type == ACL_MEM_LOCATION_TYPE_HOST;
	return where.kind == NPU_RT_LOC_DEVICE && l->type == ACL_MEM_LOCATION_TYPE_DEVICE &&
	       l->id == (uint32_t)where.dev;
}

/*
 * Checks copy i (attribute a) with the table lock held; sets *h2d on the
 * first copy.  The runtime's per-copy checks (ApiImpl::MemcpyBatch,
 * CheckMemCpyAttr): the attribute against where the memory is, H2D or D2H
 * only; one direction per batch and a NULL pointer are the driver's (npu_sim
 * choice).  All 107000.
 */
static aclError check_copy(size_t i, void *dst, const void *src, size_t size,
			   const aclrtMemcpyBatchAttr *a, int *h2d)
{
	struct npu_rt_loc d, s;
	int this_h2d;

	if (dst == NULL || src == NULL) {
		npu_rt_msg_detail("copy %zu: %s is NULL", i, dst == NULL ? "dst" : "src");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	d = npu_rt_locate_locked(dst, size);
	s = npu_rt_locate_locked(src, size);
	if (!loc_matches(&a->dstLoc, d) || !loc_matches(&a->srcLoc, s)) {
		npu_rt_msg_detail("copy %zu: its attribute's dstLoc/srcLoc do not say where dst/src are", i);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	this_h2d = s.kind == NPU_RT_LOC_HOST && d.kind == NPU_RT_LOC_DEVICE;
	if (!this_h2d && !(s.kind == NPU_RT_LOC_DEVICE && d.kind == NPU_RT_LOC_HOST)) {
		npu_rt_msg_detail("copy %zu is neither host to device nor device to host", i);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (*h2d >= 0 && this_h2d != *h2d) {
		npu_rt_msg_detail("copy %zu goes the other way than copy 0 (one direction per batch)", i);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	*h2d = this_h2d;
	return this_h2d ? npu_rt_check_live_range_locked(d.dev, (uintptr_t)dst, size, "dst") :
			  npu_rt_check_live_range_locked(s.dev, (uintptr_t)src, size, "src");
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void **dsts, size_t *destMax, void **srcs, size_t *sizes,
					      size_t numBatches, aclrtMemcpyBatchAttr *attrs,
					      size_t *attrsIndexes, size_t numAttrs, size_t *failIndex)
{
	aclError err;
	int h2d = -1, dev;
	size_t i, k = 0;

	if (failIndex == NULL || sizes == NULL || numBatches == 0) {
		npu_rt_msg_detail(failIndex == NULL ? "failIndex is NULL" :
				  sizes == NULL ? "sizes is NULL" : "numBatches is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	for (i = 0; i < numBatches && sizes[i] == 0; i++)
		;
	if (i == numBatches) {	/* all sizes 0: nothing to do */
		*failIndex = SIZE_MAX;
		return ACL_SUCCESS;
	}
	/* The ACL layer's checks (failIndex untouched), then the runtime's. */
	err = npu_rt_batch_acl_checks(dsts, destMax, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs);
	if (err == ACL_SUCCESS)
		err = npu_rt_batch_feature_check();	/* rtsMemcpyBatch */
	if (err != ACL_SUCCESS)
		return err;
	*failIndex = SIZE_MAX;	/* ApiErrorDecorator::MemcpyBatch, first */
	err = npu_rt_batch_rt_checks(numBatches, attrsIndexes, numAttrs);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	for (i = 0; i < numBatches && err == ACL_SUCCESS; i++) {
		if (k + 1 < numAttrs && i == attrsIndexes[k + 1])
			k++;
		if (sizes[i] != 0)
			err = check_copy(i, dsts[i], srcs[i], sizes[i], &attrs[k], &h2d);
	}
	npu_rt_devices_unlock();
	if (err != ACL_SUCCESS) {
		*failIndex = i - 1;
		return err;
	}
	for (i = 0; i < numBatches && err == ACL_SUCCESS; i++)
		err = aclrtMemcpy(dsts[i], destMax[i], srcs[i], sizes[i], ACL_MEMCPY_DEFAULT);
	if (err != ACL_SUCCESS)
		*failIndex = i - 1;	/* host memory gone under a checked copy */
	return err;
}

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
