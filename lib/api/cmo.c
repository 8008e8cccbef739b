/*
 * Cache maintenance: aclrtCmoAsync, aclrtCmoAsyncWithBarrier,
 * aclrtCmoWaitBarrier, aclrtCmoGetDescSize, aclrtCmoSetDesc,
 * aclrtCmoAsyncWithDesc and aclrtDeviceL2CacheFlush.
 *
 * The emulated device has no cache between its DMA engine and its memory,
 * so there is nothing to prefetch, write back or drop: a CMO is an OP_CMO
 * queued on its stream, which checks and holds its range and completes in
 * stream order.  The checks and their codes are the CANN ACL layer's and
 * runtime's (docs/cann-api-notes.md section 8), with the range of a
 * Atlas A2-class chip's descriptor (rtCmoAddrInfo, 32 bytes).
 */
#include <stddef.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "profile.h"

/* The device-memory descriptor aclrtCmoSetDesc writes (rtCmoAddrInfo). */
struct cmo_desc {
	uint32_t resv0;
	uint32_t resv1;
	uint16_t num_outer;
	uint16_t num_inner;
	uint32_t len_inner;
	uint64_t src;
	uint32_t stride_outer;
	uint32_t stride_inner;
} __attribute__((packed));

_Static_assert(sizeof(struct cmo_desc) == 32, "cmo descriptor size");

/* Queue OP_CMO of [src, src + len) on stream. */
static aclError queue_cmo(void *src, uint32_t len, aclrtCmoType type, uint32_t barrier, aclrtStream stream)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	aclError err;

	if (len == 0) {	/* the task's length is 32 bits */
		npu_rt_msg_detail("size is a multiple of 4 GiB: the task's 32-bit length would be 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_stream_enter_ctx(stream, &ref);	/* ApiImpl::CmoTaskLaunch, CmoAddrTaskLaunch */
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_stream_range_locked(&ref, src, len, "src");
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	memset(&req, 0, sizeof(req));
	req.op = NPU_SIM_OP_CMO;
	req.dst = (uintptr_t)src;
	req.dpitch = req.width = len;
	req.height = 1;
	req.value = (uint32_t)type;
	req.operand = barrier;
	return npu_rt_stream_submit(&ref, &req, 0);
}

/*
 * The runtime's chip feature check (api_c_standard_soc.cc, api_c_memory.cc):
 * 207000 when the product lacks feature (NPU_SIM_PROFILE_CMO or _ASYNC_CMO).
 */
static aclError cmo_feature(uint32_t feature)
{
	const char *product = "this product";

	if (npu_rt_product_has(feature, &product))
		return ACL_SUCCESS;
	npu_rt_msg_detail("%s does not support this cache maintenance call", product);
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

static int cmo_type_ok(aclrtCmoType type)
{
	return type >= ACL_RT_CMO_TYPE_PREFETCH && type <= ACL_RT_CMO_TYPE_FLUSH;
}

ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream)
{
	if (src == NULL || size == 0) {
		npu_rt_msg_detail(src == NULL ? "src is NULL" : "size is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (cmo_feature(NPU_SIM_PROFILE_CMO) != ACL_SUCCESS)	/* rtCmoAsync */
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	if (!cmo_type_ok(cmoType)) {
		npu_rt_msg_detail("cmoType %d is not an aclrtCmoType (0..3)", (int)cmoType);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	return queue_cmo(src, (uint32_t)size, cmoType, 0, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithBarrier(void *src, size_t size, aclrtCmoType cmoType,
						      uint32_t barrierId, aclrtStream stream)
{
	if (src == NULL) {
		npu_rt_msg_detail("src is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (cmo_feature(NPU_SIM_PROFILE_ASYNC_CMO) != ACL_SUCCESS)	/* rtsCmoAsyncWithBarrier */
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	if (size == 0) {
		npu_rt_msg_detail("size is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (!cmo_type_ok(cmoType)) {
		npu_rt_msg_detail("cmoType %d is not an aclrtCmoType (0..3)", (int)cmoType);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if ((cmoType == ACL_RT_CMO_TYPE_INVALID) != (barrierId != 0)) {
		npu_rt_msg_detail(barrierId == 0 ? "an invalidate needs a barrierId > 0" :
				  "barrierId %u: only an invalidate (ACL_RT_CMO_TYPE_INVALID) names a barrier",
				  barrierId);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return queue_cmo(src, (uint32_t)size, cmoType, barrierId, stream);
}

/* As the ACL layer: the barrier list is checked; nothing is queued. */
ACL_FUNC_VISIBILITY aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo, aclrtStream stream, uint32_t flag)
{
	(void)stream;
	(void)flag;
	if (taskInfo == NULL) {
		npu_rt_msg_detail("taskInfo is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (taskInfo->barrierNum == 0 || taskInfo->barrierNum > ACL_RT_CMO_MAX_BARRIER_NUM) {
		npu_rt_msg_detail("taskInfo->barrierNum %zu is outside 1..6", taskInfo->barrierNum);
		return ACL_ERROR_INVALID_PARAM;
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCmoGetDescSize(size_t *size)
{
	if (cmo_feature(NPU_SIM_PROFILE_CMO) != ACL_SUCCESS)	/* rtsGetCmoDescSize, first */
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	if (size == NULL) {
		npu_rt_msg_detail("size is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	*size = sizeof(struct cmo_desc);
	return ACL_SUCCESS;
}

/* The descriptor lives in device memory: the runtime copies it there. */
ACL_FUNC_VISIBILITY aclError aclrtCmoSetDesc(void *cmoDesc, void *src, size_t size)
{
	struct cmo_desc d = { 0 };

	if (cmo_feature(NPU_SIM_PROFILE_CMO) != ACL_SUCCESS)	/* rtsSetCmoDesc, first */
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	if (cmoDesc == NULL || src == NULL || size == 0) {
		npu_rt_msg_detail(cmoDesc == NULL ? "cmoDesc is NULL" : src == NULL ? "src is NULL" : "size is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	d.src = (uintptr_t)src;
	d.len_inner = (uint32_t)size;
	return aclrtMemcpy(cmoDesc, sizeof(d), &d, sizeof(d), ACL_MEMCPY_HOST_TO_DEVICE);
}

/*
 * The device reads the descriptor when it runs the task; npu_sim reads it
 * at the call (a descriptor rewritten by work still queued before it is
 * not seen).
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithDesc(void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
						   const void *reserve)
{
	struct cmo_desc d;

	if (reserve != NULL) {
		npu_rt_msg_detail("reserve must be NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	/* rtCmoAddrTaskLaunch: a chip with a CMO descriptor (cmoDDRStructInfoSize) */
	if (cmo_feature(NPU_SIM_PROFILE_CMO) != ACL_SUCCESS)
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	if (cmoDesc == NULL || !cmo_type_ok(cmoType)) {
		npu_rt_msg_detail(cmoDesc == NULL ? "cmoDesc is NULL" : "cmoType %d is not an aclrtCmoType (0..3)",
				  (int)cmoType);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (aclrtMemcpy(&d, sizeof(d), cmoDesc, sizeof(d), ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
		npu_rt_msg_detail("cmoDesc %p is not device memory holding a descriptor", cmoDesc);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (d.src == 0) {
		npu_rt_msg_detail("cmoDesc %p was not filled by aclrtCmoSetDesc", cmoDesc);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return queue_cmo((void *)(uintptr_t)d.src, d.len_inner, cmoType, 0, stream);
}

/* The device has no L2 cache: flushing it is checking the caller has a device. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void *rsv)
{
	int dev;
	aclError err;

	if (rsv != NULL) {
		npu_rt_msg_detail("rsv must be NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_enter_current(&dev);
	if (err == ACL_SUCCESS)
		npu_rt_devices_unlock();
	return err;
}
