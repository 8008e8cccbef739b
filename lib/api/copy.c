/*
 * Copy and set: aclrtMemcpy, aclrtMemcpy2d, aclrtMemset.
 * Argument order of the checks follows the CANN ACL layer (docs/cann-api-notes.md
 * 6.1-6.4); where pointers are and how a copy is carried out is decided by
 * the pure copy_rules.c; device bytes are moved by the driver (MEMCPY,
 * MEMCPY2D, MEMSET ioctls), host-only copies and sets in user space.
 */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

#include "acl_internal.h"
#include "check.h"
#include "err_msg.h"

/* "host memory", "device 0 memory" or "partly device memory" into buf. */
static const char *where(struct npu_rt_loc loc, char *buf, size_t len)
{
	if (loc.kind == NPU_RT_LOC_DEVICE)
		snprintf(buf, len, "device %d memory", loc.dev);
	else
		snprintf(buf, len, "%s", loc.kind == NPU_RT_LOC_HOST ? "host memory" :
				   "partly device memory (it straddles a device window)");
	return buf;
}

/* Why the plan refused copy c: where dst and src are against what kind wants. */
static void plan_refused(const struct npu_rt_copy *c, aclrtMemcpyKind kind, struct npu_rt_loc dst,
			 struct npu_rt_loc src)
{
	static const char *const names[] = { "HOST_TO_HOST", "HOST_TO_DEVICE", "DEVICE_TO_HOST",
					     "DEVICE_TO_DEVICE", "DEFAULT", "HOST_TO_BUF_TO_DEVICE" };
	char d[80], s[80];

	npu_rt_msg_detail("kind ACL_MEMCPY_%s does not match the addresses: dst [%p, +%zu) is %s, "
			  "src [%p, +%zu) is %s",
			  (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?",
			  (void *)c->dst, c->dspan, where(dst, d, sizeof(d)), (void *)c->src, c->sspan,
			  where(src, s, sizeof(s)));
}

aclError npu_rt_copy_plan_locked(const struct npu_rt_copy *c, aclrtMemcpyKind kind,
				 struct npu_rt_copy_route_plan *plan)
{
	struct npu_rt_loc dst = npu_rt_locate_locked((const void *)c->dst, c->dspan);
	struct npu_rt_loc src = npu_rt_locate_locked((const void *)c->src, c->sspan);
	aclError err = npu_rt_plan_copy((int)kind, dst, src, plan);

	if (err == ACL_ERROR_RT_PARAM_INVALID) {
		plan_refused(c, kind, dst, src);
		npu_rt_check_bad_copy(c->dst, c->dspan, c->src, c->sspan);
	}
	return err;
}

/*
 * Carry out copy c: rows moved in user space between host buffers, else
 * one driver request (MEMCPY for aclrtMemcpy, flat, else MEMCPY2D) on the
 * device of the memory, or for a copy between two devices on the current
 * device, which needs peer access to the other.
 */
static aclError copy_now(const struct npu_rt_copy *c, aclrtMemcpyKind kind, bool flat)
{
	struct npu_rt_copy_route_plan plan;
	aclError err;
	int dev, rc;

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_copy_plan_locked(c, kind, &plan);
	if (err != ACL_SUCCESS || (flat && c->dst == c->src)) {
		npu_rt_devices_unlock();	/* same address: nothing to move */
		return err;
	}

	if (plan.route == NPU_RT_ROUTE_USER) {
		for (size_t row = 0; row < c->height; row++)
			memmove((char *)c->dst + row * c->dpitch, (const char *)c->src + row * c->spitch,
				c->width);
		npu_rt_devices_unlock();
		return ACL_SUCCESS;
	}

	if (plan.route == NPU_RT_ROUTE_PEER) {	/* issued on the current device */
		err = npu_rt_peer_check_locked(dev, &plan);
		if (err != ACL_SUCCESS) {
			npu_rt_devices_unlock();
			return err;
		}
	} else {
		dev = plan.dev;
	}

	if (flat) {
		struct npu_sim_memcpy req = { .dst = c->dst, .src = c->src, .count = c->width,
					      .dir = plan.dir, .src_fd = -1 };

		rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEMCPY, &req);
	} else {
		struct npu_sim_memcpy2d req = { .src_fd = -1 };

		NPU_RT_SET_COPY_FIELDS(&req, c, plan.dir);
		rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEMCPY2D, &req);
	}
	npu_rt_devices_unlock();
	if (rc == 0)
		npu_rt_check_copy(c, plan.dir);
	else
		npu_rt_check_bad_copy(c->dst, c->dspan, c->src, c->sspan);
	if (rc == -EPERM && plan.route == NPU_RT_ROUTE_PEER) {	/* access disabled meanwhile */
		npu_rt_msg_detail("device %d has no peer access to device %d (disabled during the copy)", dev,
				  dev == plan.dev ? plan.src_dev : plan.dev);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	return rc != 0 ? npu_rt_copy_errno(-rc, plan.dir, c->dst, c->dspan, c->src, c->sspan) : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
					 aclrtMemcpyKind kind)
{
	struct npu_rt_copy c;
	aclError err = npu_rt_memcpy_args(dst, destMax, src, count, (int)kind, &c);

	return err != ACL_SUCCESS || c.width == 0 ? err : copy_now(&c, kind, true);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
					   size_t width, size_t height, aclrtMemcpyKind kind)
{
	struct npu_rt_copy c;
	aclError err = npu_rt_memcpy2d_args(dst, dpitch, src, spitch, width, height, (int)kind, &c);

	return err != ACL_SUCCESS || c.width == 0 ? err : copy_now(&c, kind, false);
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
	struct npu_sim_memset req;
	struct npu_rt_loc loc;
	aclError err;
	int dev, rc;

	if (count == 0)
		return ACL_SUCCESS;
	err = npu_rt_memset_args_check(devPtr, maxCount, count);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	loc = npu_rt_locate_locked(devPtr, count);
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
		if (rc == 0)
			npu_rt_check_wrote((uintptr_t)devPtr, count);
		else
			npu_rt_check_bad_copy((uintptr_t)devPtr, count, 0, 0);
		return rc != 0 ? npu_rt_copy_errno(-rc, 0, (uintptr_t)devPtr, count, 0, 0) : ACL_SUCCESS;
	case NPU_RT_LOC_STRADDLE:
	default:
		npu_rt_devices_unlock();
		npu_rt_msg_detail("[%p, +%zu) straddles host and device addresses", devPtr, count);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
}
