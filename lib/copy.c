/*
 * Copy and set: aclrtMemcpy, aclrtMemcpy2d, aclrtMemset.
 * Argument order of the checks follows the CANN ACL layer (docs/cann-api-notes.md
 * 6.1-6.4); where pointers are and how a copy is carried out is decided by
 * the pure copy_rules.c; device bytes are moved by the driver (MEMCPY,
 * MEMCPY2D, MEMSET ioctls), host-only copies and sets in user space.
 */
#include <string.h>

#include "acl_internal.h"

static struct npu_rt_loc locate_locked(const void *p, size_t len)
{
	return npu_rt_locate(npu_rt_windows_locked(), NPU_RT_MAX_DEVICES, (uintptr_t)p, len);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
					 aclrtMemcpyKind kind)
{
	struct npu_rt_copy_route_plan plan;
	struct npu_sim_memcpy req;
	aclError err;
	int dev, rc;

	if (count == 0)
		return ACL_SUCCESS;
	err = npu_rt_memcpy_args_check(dst, destMax, src, count, (int)kind);
	if (err != ACL_SUCCESS)
		return err;

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_plan_copy((int)kind, locate_locked(dst, count), locate_locked(src, count), &plan);
	if (err != ACL_SUCCESS || dst == src) {	/* same address: nothing to move */
		npu_rt_devices_unlock();
		return err;
	}

	if (plan.route == NPU_RT_ROUTE_USER) {
		memmove(dst, src, count);
		npu_rt_devices_unlock();
		return ACL_SUCCESS;
	}

	memset(&req, 0, sizeof(req));
	req.dst = (uintptr_t)dst;
	req.src = (uintptr_t)src;
	req.count = count;
	req.dir = plan.dir;
	req.src_fd = -1;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(plan.dev), NPU_SIM_IOCTL_MEMCPY, &req);
	npu_rt_devices_unlock();
	return rc != 0 ? npu_rt_errno_to_acl(-rc) : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
					   size_t width, size_t height, aclrtMemcpyKind kind)
{
	struct npu_rt_copy_route_plan plan;
	struct npu_sim_memcpy2d req;
	size_t dspan, sspan;
	aclError err;
	int dev, rc;

	if (width == 0 || height == 0)
		return ACL_SUCCESS;
	err = npu_rt_memcpy2d_args_check(dst, dpitch, src, spitch, width, height, (int)kind, &dspan,
					 &sspan);
	if (err != ACL_SUCCESS)
		return err;

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_plan_copy((int)kind, locate_locked(dst, dspan), locate_locked(src, sspan), &plan);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}

	if (plan.route == NPU_RT_ROUTE_USER) {	/* DEFAULT between host buffers */
		for (size_t row = 0; row < height; row++)
			memmove((char *)dst + row * dpitch, (const char *)src + row * spitch, width);
		npu_rt_devices_unlock();
		return ACL_SUCCESS;
	}

	memset(&req, 0, sizeof(req));
	req.dst = (uintptr_t)dst;
	req.dpitch = dpitch;
	req.src = (uintptr_t)src;
	req.spitch = spitch;
	req.width = width;
	req.height = height;
	req.dir = plan.dir;
	req.src_fd = -1;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(plan.dev), NPU_SIM_IOCTL_MEMCPY2D, &req);
	npu_rt_devices_unlock();
	return rc != 0 ? npu_rt_errno_to_acl(-rc) : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
	struct npu_sim_memset req;
	struct npu_rt_loc loc;
	aclError err;
	int dev, rc;

	if (count == 0)
		return ACL_SUCCESS;
	if (devPtr == NULL)
		return ACL_ERROR_INVALID_PARAM;
	if (count > maxCount)
		return ACL_ERROR_RT_PARAM_INVALID;

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	loc = locate_locked(devPtr, count);
	switch (loc.kind) {
	case NPU_RT_LOC_HOST:
		memset(devPtr, value & 0xff, count);
		npu_rt_devices_unlock();
		return ACL_SUCCESS;
	case NPU_RT_LOC_DEVICE:
		memset(&req, 0, sizeof(req));
		req.dst = (uintptr_t)devPtr;
		req.count = count;
		req.value = (uint32_t)value & 0xffU;
		rc = npu_rt_ioctl(npu_rt_device_fd_locked(loc.dev), NPU_SIM_IOCTL_MEMSET, &req);
		npu_rt_devices_unlock();
		return rc != 0 ? npu_rt_errno_to_acl(-rc) : ACL_SUCCESS;
	case NPU_RT_LOC_STRADDLE:
	default:
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_PARAM_INVALID;
	}
}
