/*
 * aclrtMemcpyBatch: numBatches synchronous copies in one call, all host to
 * device or all device to host.  attrs[k] describes where the copies
 * attrsIndexes[k] .. attrsIndexes[k + 1] - 1 (the last entry: up to
 * numBatches - 1) have their destination and source; each copy is checked
 * against its attribute, its direction and, on the device side, against
 * live memory before any byte moves.  *failIndex names the refused copy,
 * or is SIZE_MAX when the error is not about one copy.
 */
#include <string.h>

#include "acl_internal.h"
#include "batch_index.h"
#include "err_msg.h"
#include "range_check.h"

/* An ACL location matches where p really is (host, or device dev). */
static int loc_matches(const aclrtMemLocation *l, struct npu_rt_loc where)
{
	if (where.kind == NPU_RT_LOC_HOST)
		return l->type == ACL_MEM_LOCATION_TYPE_HOST;
	return where.kind == NPU_RT_LOC_DEVICE && l->type == ACL_MEM_LOCATION_TYPE_DEVICE &&
	       l->id == (uint32_t)where.dev;
}

static int rsv_zero(const aclrtMemcpyBatchAttr *a)
{
	static const uint8_t zero[sizeof(a->rsv)];

	return memcmp(a->rsv, zero, sizeof(zero)) == 0;
}

/* Checks copy i (attribute a) with the table lock held; sets *h2d on the first copy. */
static aclError check_copy(size_t i, void *dst, size_t destMax, const void *src, size_t size,
			   const aclrtMemcpyBatchAttr *a, int *h2d)
{
	struct npu_rt_loc d, s;
	int this_h2d;

	if (dst == NULL || src == NULL) {
		npu_rt_msg_detail("copy %zu: %s is NULL", i, dst == NULL ? "dst" : "src");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (size > destMax) {
		npu_rt_msg_detail("copy %zu: size %zu is more than destMax %zu", i, size, destMax);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	d = npu_rt_locate_locked(dst, size);
	s = npu_rt_locate_locked(src, size);
	this_h2d = s.kind == NPU_RT_LOC_HOST && d.kind == NPU_RT_LOC_DEVICE;
	if (!this_h2d && !(s.kind == NPU_RT_LOC_DEVICE && d.kind == NPU_RT_LOC_HOST)) {
		npu_rt_msg_detail("copy %zu is neither host to device nor device to host", i);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (*h2d >= 0 && this_h2d != *h2d) {
		npu_rt_msg_detail("copy %zu goes the other way than copy 0 (one direction per batch)", i);
		return ACL_ERROR_INVALID_PARAM;
	}
	*h2d = this_h2d;
	if (!loc_matches(&a->dstLoc, d) || !loc_matches(&a->srcLoc, s) || !rsv_zero(a)) {
		npu_rt_msg_detail("copy %zu: its attribute's dstLoc/srcLoc do not say where dst/src are (or rsv is not 0)",
				  i);
		return ACL_ERROR_INVALID_PARAM;
	}
	return this_h2d ? npu_rt_check_live_range_locked(d.dev, (uintptr_t)dst, size, "dst") :
			  npu_rt_check_live_range_locked(s.dev, (uintptr_t)src, size, "src");
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void **dsts, size_t *destMax, void **srcs, size_t *sizes,
					      size_t numBatches, aclrtMemcpyBatchAttr *attrs,
					      size_t *attrsIndexes, size_t numAttrs, size_t *failIndex)
{
	aclError err = ACL_SUCCESS;
	int h2d = -1, dev;
	size_t i, k = 0;

	if (failIndex == NULL) {
		npu_rt_msg_detail("failIndex is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (dsts == NULL || destMax == NULL || srcs == NULL || sizes == NULL || attrs == NULL ||
	    attrsIndexes == NULL || numBatches == 0 || !npu_rt_batch_indexes_ok(attrsIndexes, numAttrs, numBatches)) {
		npu_rt_msg_detail("NULL array, numBatches 0, or attrsIndexes not 0, increasing, below numBatches "
				  "(numAttrs %zu, numBatches %zu)", numAttrs, numBatches);
		*failIndex = SIZE_MAX;
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS) {
		*failIndex = SIZE_MAX;
		return err;
	}
	for (i = 0; i < numBatches && err == ACL_SUCCESS; i++) {
		if (k + 1 < numAttrs && i == attrsIndexes[k + 1])
			k++;
		if (sizes[i] != 0)
			err = check_copy(i, dsts[i], destMax[i], srcs[i], sizes[i], &attrs[k], &h2d);
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
