/*
 * aclrtReduceAsync: the SDMA reduce, dst[i] = dst[i] <kind> src[i], queued
 * on a stream (OP_REDUCE); the driver does the arithmetic when the stream
 * reaches it.  Checks in the order of the CANN ACL layer, then of the
 * runtime (docs/cann-api-notes.md section 8).
 */
#include <string.h>

#include "acl_internal.h"
#include "check.h"
#include "err_msg.h"
#include "profile.h"

#define REDUCE_SUM_MAX (4ULL << 30)	/* the runtime's bound for a SUM */

/*
 * The driver's type for a type the ACL layer passes on (kMapDataType), 0
 * for ACL_INT4 (passed on, never reduced here), -1 for a type the ACL
 * layer refuses.
 */
static int reduce_type(aclDataType type)
{
	switch (type) {
	case ACL_INT8:
		return NPU_SIM_REDUCE_INT8;
	case ACL_INT16:
		return NPU_SIM_REDUCE_INT16;
	case ACL_INT32:
		return NPU_SIM_REDUCE_INT32;
	case ACL_UINT8:
		return NPU_SIM_REDUCE_UINT8;
	case ACL_UINT16:
		return NPU_SIM_REDUCE_UINT16;
	case ACL_UINT32:
		return NPU_SIM_REDUCE_UINT32;
	case ACL_FLOAT:
		return NPU_SIM_REDUCE_FP32;
	case ACL_FLOAT16:
		return NPU_SIM_REDUCE_FP16;
	case ACL_BF16:
		return NPU_SIM_REDUCE_BF16;
	case ACL_INT4:
		return 0;
	default:
		return -1;
	}
}

static size_t elem_size(int t)
{
	return t == NPU_SIM_REDUCE_INT8 || t == NPU_SIM_REDUCE_UINT8 ? 1 :
	       t == NPU_SIM_REDUCE_INT16 || t == NPU_SIM_REDUCE_UINT16 || t == NPU_SIM_REDUCE_FP16 ||
	       t == NPU_SIM_REDUCE_BF16 ? 2 : 4;
}

/* The runtime's checks of count and kind (ApiErrorDecorator::ReduceAsync). */
static aclError reduce_rt_check(uint64_t count, aclrtReduceKind kind)
{
	if (count == 0) {
		npu_rt_msg_detail("count is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (kind < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || kind > ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL) {
		npu_rt_msg_detail("kind %d is not an aclrtReduceKind (10..13)", (int)kind);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM && count > REDUCE_SUM_MAX) {
		npu_rt_msg_detail("count %llu is above 4 GiB, the most one SUM reduces",
				  (unsigned long long)count);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

/* The engine's capability (CheckReduceCapability), after the context check. */
static aclError reduce_cap_check(aclrtReduceKind kind, int t, const struct npu_sim_profile *prof)
{
	if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL) {
		npu_rt_msg_detail("the emulated DMA engine does not do the EQUAL reduce");
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	/* The kinds and types of the product's engine (npu_sim_profiles.h). */
	if (!(prof->reduce_kinds & NPU_SIM_REDUCE_BIT(kind))) {
		npu_rt_msg_detail("the SDMA engine of %s does not do reduce kind %d", prof->product, (int)kind);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (t == 0 || !(prof->reduce_types & NPU_SIM_REDUCE_BIT(t))) {
		npu_rt_msg_detail("the SDMA engine of %s does not reduce this data type", prof->product);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	return ACL_SUCCESS;
}

/* src on another device than the stream's needs peer access to it. */
static aclError src_check(const struct npu_rt_ref *ref, const void *src, size_t len)
{
	struct npu_rt_loc loc = npu_rt_locate_locked(src, len);
	struct npu_rt_copy_route_plan plan = { .dev = ref->dev };

	if (loc.kind != NPU_RT_LOC_DEVICE)
		return npu_rt_stream_range_locked(ref, src, len, "src");
	if (loc.dev == ref->dev)
		return ACL_SUCCESS;
	plan.src_dev = loc.dev;
	return npu_rt_peer_check_locked(ref->dev, &plan);
}

ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
					      aclDataType type, aclrtStream stream, void *reserve)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	int t = reduce_type(type);
	aclError err;

	if (dst == NULL || src == NULL || reserve != NULL || t < 0) {
		npu_rt_msg_detail(dst == NULL ? "dst is NULL" : src == NULL ? "src is NULL" :
				  reserve != NULL ? "reserve must be NULL" :
				  "type %d is not a data type the reduce takes", (int)type);
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	err = reduce_rt_check(count, kind);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	err = npu_rt_stream_ctx_check_locked(&ref);	/* ApiImpl::ReduceAsync */
	if (err != ACL_SUCCESS)
		return err;
	err = reduce_cap_check(kind, t, npu_rt_device_profile_locked(ref.dev));
	if (err == ACL_SUCCESS)
		err = npu_rt_stream_range_locked(&ref, dst, (size_t)count, "dst");
	if (err == ACL_SUCCESS)
		err = src_check(&ref, src, (size_t)count);
	if (err == ACL_SUCCESS && (((uintptr_t)dst | (uintptr_t)src | count) & (elem_size(t) - 1)) != 0) {
		npu_rt_msg_detail("dst, src and count must be multiples of the element size, %zu bytes",
				  elem_size(t));
		err = ACL_ERROR_RT_PARAM_INVALID;
	}
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	memset(&req, 0, sizeof(req));
	req.op = NPU_SIM_OP_REDUCE;
	req.dst = (uintptr_t)dst;
	req.src = (uintptr_t)src;
	req.dpitch = req.spitch = req.width = count;
	req.height = 1;
	req.value = (uint32_t)kind;
	req.flags = (uint32_t)t;
	err = npu_rt_stream_submit(&ref, &req, 0);
	if (err == ACL_SUCCESS)
		npu_rt_check_wrote((uintptr_t)dst, (size_t)count);
	return err;
}
