/*
 * Asynchronous copy and set: aclrtMemcpyAsync (and its deprecated form
 * aclrtMemcpyAsyncWithCondition), aclrtMemcpy2dAsync, aclrtMemsetAsync,
 * aclrtMemsetD32Async.  The arguments are checked at the call exactly as for
 * the synchronous calls (copy.c), then the operation is queued on the
 * stream (STREAM_SUBMIT): the driver checks and references the device
 * memory at once and moves the data when the stream reaches it.
 *
 * Pinned vs pageable host memory, as the CANN runtime documents
 * (docs/cann-api-notes.md 6.3): with aclrtMallocHost memory the call returns at
 * once; with any other host memory it returns after the copy is done.
 */
#include <string.h>

#include "acl_internal.h"
#include "check.h"
#include "err_msg.h"

/* The memory of device mem_dev and a stream of device stream_dev must agree. */
static aclError same_device(int mem_dev, int stream_dev)
{
	if (mem_dev == stream_dev)
		return ACL_SUCCESS;
	npu_rt_msg_detail("the device memory is on device %d, the stream on device %d", mem_dev, stream_dev);
	return ACL_ERROR_RT_STREAM_CONTEXT;
}

/* Common part of the two copies once the plan is known. */
static aclError plan_check(const struct npu_rt_ref *ref, const struct npu_rt_copy_route_plan *plan)
{
	if (plan->route == NPU_RT_ROUTE_USER) {
		npu_rt_msg_detail("dst and src are both host memory: a host to host copy is not queued on a stream");
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (plan->route == NPU_RT_ROUTE_PEER)	/* issued on the stream's device */
		return npu_rt_peer_check_locked(ref->dev, plan);
	return same_device(plan->dev, ref->dev);
}

static int host_side_pinned(const struct npu_rt_copy_route_plan *plan, const struct npu_rt_copy *c)
{
	if (plan->dir == NPU_SIM_COPY_H2D)
		return npu_rt_host_pinned((const void *)c->src, c->sspan);
	if (plan->dir == NPU_SIM_COPY_D2H)
		return npu_rt_host_pinned((const void *)c->dst, c->dspan);
	return 1;	/* device to device: no host memory */
}

/* Queue copy c on stream, after the ACL-layer checks passed. */
static aclError queue_copy(const struct npu_rt_copy *c, aclrtMemcpyKind kind, aclrtStream stream, bool flat)
{
	struct npu_rt_copy_route_plan plan;
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	aclError err;

	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_copy_plan_locked(c, kind, true, &plan);
	if (err == ACL_SUCCESS && !flat)	/* 2D host to host: 107000, not 207000 */
		err = npu_rt_memcpy2d_route_check(false, &plan);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	err = npu_rt_stream_ctx_check_locked(&ref);	/* ApiImpl::MemcpyAsync, MemCopy2DAsync */
	if (err != ACL_SUCCESS)
		return err;
	err = plan_check(&ref, &plan);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	memset(&req, 0, sizeof(req));
	req.op = NPU_SIM_OP_COPY;
	NPU_RT_SET_COPY_FIELDS(&req, c, plan.dir);
	err = npu_rt_stream_submit(&ref, &req, !host_side_pinned(&plan, c));
	if (err == ACL_SUCCESS)
		npu_rt_check_copy(c, plan.dir);	/* at submit: order of queued work not modelled */
	else
		npu_rt_check_bad_copy(c->dst, c->dspan, c->src, c->sspan);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
					      aclrtMemcpyKind kind, aclrtStream stream)
{
	struct npu_rt_copy c;
	aclError err = npu_rt_memcpy_args(dst, destMax, src, count, (int)kind, &c);

	return err != ACL_SUCCESS || c.width == 0 ? err : queue_copy(&c, kind, stream, true);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
						size_t width, size_t height, aclrtMemcpyKind kind,
						aclrtStream stream)
{
	struct npu_rt_copy c;
	aclError err = npu_rt_memcpy2d_args(dst, dpitch, src, spitch, width, height, (int)kind, &c);

	return err != ACL_SUCCESS || c.width == 0 ? err : queue_copy(&c, kind, stream, false);
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
					      aclrtStream stream)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	struct npu_rt_loc loc;
	aclError err;

	if (count == 0)
		return ACL_SUCCESS;
	err = npu_rt_memset_args_check(devPtr, maxCount, count);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	loc = npu_rt_locate_locked(devPtr, count);
	if (loc.kind != NPU_RT_LOC_DEVICE) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail(loc.kind == NPU_RT_LOC_HOST ? "[%p, +%zu) is host memory: only device memory is set on a stream" :
				  "[%p, +%zu) straddles host and device addresses", devPtr, count);
		return loc.kind == NPU_RT_LOC_HOST ? ACL_ERROR_RT_FEATURE_NOT_SUPPORT : ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_stream_ctx_check_locked(&ref);	/* ApiImpl::MemsetAsync */
	if (err != ACL_SUCCESS)
		return err;
	err = same_device(loc.dev, ref.dev);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	memset(&req, 0, sizeof(req));
	req.op = NPU_SIM_OP_SET;
	req.dst = (uintptr_t)devPtr;
	req.dpitch = count;
	req.width = count;
	req.height = 1;
	req.value = (uint32_t)value & 0xffU;
	err = npu_rt_stream_submit(&ref, &req, 0);
	if (err == ACL_SUCCESS)
		npu_rt_check_wrote((uintptr_t)devPtr, count);
	return err;
}

aclError npu_rt_stream_range_locked(const struct npu_rt_ref *ref, const void *p, size_t len, const char *name)
{
	struct npu_rt_loc loc = npu_rt_locate_locked(p, len);

	if (loc.kind == NPU_RT_LOC_DEVICE)
		return same_device(loc.dev, ref->dev);
	npu_rt_msg_detail(loc.kind == NPU_RT_LOC_HOST ? "%s [%p, +%zu) is host memory, not device memory" :
			  "%s [%p, +%zu) straddles host and device addresses", name, p, len);
	return ACL_ERROR_RT_PARAM_INVALID;
}

/*
 * aclrtMemsetD32Async: the ACL layer's checks of aclrtMemsetD32 (the memory
 * kind included); then, as the runtime, the stream guard and the current
 * context, and aclrtMallocHost memory is set at once by the CPU (the
 * stream's context not looked at) and device memory by a 32-bit SET
 * queued on the stream.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
						 aclrtStream stream)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	struct npu_rt_loc loc;
	size_t bytes = N * 4;
	aclError err;

	if (N == 0)
		return ACL_SUCCESS;
	err = npu_rt_d32_check(ptr, memSize, N, &loc);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	if (loc.kind == NPU_RT_LOC_HOST) {	/* ApiImpl::MemsetD32Async, MemsetD32OnHost */
		if (stream != NULL) {
			err = npu_rt_stream_enter(stream, &ref);
			if (err != ACL_SUCCESS)
				return err;
		} else {
			npu_rt_devices_read_lock();
		}
		err = npu_rt_d32_current_locked();
		if (err != ACL_SUCCESS)
			return err;
		npu_rt_devices_unlock();
		return npu_rt_d32_set_host(ptr, value, N);
	}
	err = npu_rt_stream_enter_ctx(stream, &ref);	/* ApiImpl::MemsetD32Async */
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_stream_range_locked(&ref, ptr, bytes, "ptr");	/* it may have gone meanwhile */
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	memset(&req, 0, sizeof(req));
	req.op = NPU_SIM_OP_SET;
	req.flags = NPU_SIM_SET_32;
	req.dst = (uintptr_t)ptr;
	req.dpitch = bytes;
	req.width = bytes;
	req.height = 1;
	req.value = value;
	err = npu_rt_stream_submit(&ref, &req, 0);
	if (err == ACL_SUCCESS)
		npu_rt_check_wrote((uintptr_t)ptr, bytes);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src, size_t count,
							   aclrtMemcpyKind kind, aclrtStream stream)
{
	return aclrtMemcpyAsync(dst, destMax, src, count, kind, stream);
}
