/*
 * Copy and set rules.  Pure: see copy_rules.h.
 */
#include "copy_rules.h"

#include <misc/npu_sim.h>

#include "err_msg.h"

size_t npu_rt_span_2d(size_t pitch, size_t width, size_t height)
{
	size_t rows_before_last;

	if (height == 0 || width == 0)
		return 0;
	if (pitch != 0 && height - 1 > (SIZE_MAX - width) / pitch)
		return 0;
	rows_before_last = pitch * (height - 1);
	return rows_before_last + width;
}

aclError npu_rt_memcpy_kind_check(int kind)
{
	if (kind >= ACL_MEMCPY_HOST_TO_HOST && kind <= ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
		return ACL_SUCCESS;
	npu_rt_msg_detail("kind %d is not an aclrtMemcpyKind of 0..5", kind);
	return ACL_ERROR_INVALID_PARAM;
}

aclError npu_rt_memcpy2d_kind_check(int kind)
{
	if (kind >= ACL_MEMCPY_HOST_TO_DEVICE && kind <= ACL_MEMCPY_DEFAULT)
		return ACL_SUCCESS;
	npu_rt_msg_detail("kind %d is not HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE or DEFAULT (1..4)",
			  kind);
	return ACL_ERROR_INVALID_PARAM;
}

/* Detail for a NULL dst or src; ACL_ERROR_INVALID_PARAM. */
static aclError null_ptr(const void *dst)
{
	npu_rt_msg_detail("%s is NULL", dst == NULL ? "dst" : "src");
	return ACL_ERROR_INVALID_PARAM;
}

aclError npu_rt_memcpy_args_check(const void *dst, size_t destMax, const void *src, size_t count,
				  int kind)
{
	aclError err;

	if (dst == NULL || src == NULL)
		return null_ptr(dst);
	err = npu_rt_memcpy_kind_check(kind);
	if (err != ACL_SUCCESS)
		return err;
	if (count > destMax) {
		npu_rt_msg_detail("count %zu is more than destMax %zu", count, destMax);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

aclError npu_rt_memcpy2d_args_check(const void *dst, size_t dpitch, const void *src, size_t spitch,
				    size_t width, size_t height, int kind, size_t *dspan, size_t *sspan)
{
	size_t d, s;
	aclError err;

	if (dst == NULL || src == NULL)
		return null_ptr(dst);
	if (width > dpitch || width > spitch) {
		npu_rt_msg_detail("width %zu is more than %s %zu", width, width > dpitch ? "dpitch" : "spitch",
				  width > dpitch ? dpitch : spitch);
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_memcpy2d_kind_check(kind);
	if (err != ACL_SUCCESS)
		return err;
	/* The runtime's caps, then (npu_sim's driver) the spans. */
	if (height > NPU_RT_MEMCPY2D_MAX_HEIGHT || width > NPU_RT_MEMCPY2D_MAX_WIDTH) {
		npu_rt_msg_detail(height > NPU_RT_MEMCPY2D_MAX_HEIGHT ? "height %zu is more than %u" :
				  "width %zu is more than %u", height > NPU_RT_MEMCPY2D_MAX_HEIGHT ? height : width,
				  height > NPU_RT_MEMCPY2D_MAX_HEIGHT ? NPU_RT_MEMCPY2D_MAX_HEIGHT :
				  NPU_RT_MEMCPY2D_MAX_WIDTH);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	d = npu_rt_span_2d(dpitch, width, height);
	s = npu_rt_span_2d(spitch, width, height);
	if (d == 0 || s == 0) {
		npu_rt_msg_detail("%s %zu * height %zu overflows", d == 0 ? "dpitch" : "spitch",
				  d == 0 ? dpitch : spitch, height);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	*dspan = d;
	*sspan = s;
	return ACL_SUCCESS;
}

aclError npu_rt_memcpy_args(void *dst, size_t destMax, const void *src, size_t count, int kind,
			    struct npu_rt_copy *c)
{
	aclError err = count == 0 ? ACL_SUCCESS : npu_rt_memcpy_args_check(dst, destMax, src, count, kind);

	*c = (struct npu_rt_copy){ 0 };
	if (err == ACL_SUCCESS && count != 0)
		*c = (struct npu_rt_copy){ .dst = (uintptr_t)dst, .src = (uintptr_t)src, .dpitch = count,
					   .spitch = count, .width = count, .height = 1, .dspan = count,
					   .sspan = count };
	return err;
}

aclError npu_rt_memcpy2d_args(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
			      size_t height, int kind, struct npu_rt_copy *c)
{
	size_t dspan = 0, sspan = 0;
	aclError err = ACL_SUCCESS;

	*c = (struct npu_rt_copy){ 0 };
	if (width == 0 || height == 0)
		return ACL_SUCCESS;
	err = npu_rt_memcpy2d_args_check(dst, dpitch, src, spitch, width, height, kind, &dspan, &sspan);
	if (err == ACL_SUCCESS)
		*c = (struct npu_rt_copy){ .dst = (uintptr_t)dst, .src = (uintptr_t)src, .dpitch = dpitch,
					   .spitch = spitch, .width = width, .height = height,
					   .dspan = dspan, .sspan = sspan };
	return err;
}

aclError npu_rt_memcpy2d_sync_kind_check(int kind)
{
	if (kind != ACL_MEMCPY_DEVICE_TO_DEVICE)
		return ACL_SUCCESS;
	npu_rt_msg_detail("aclrtMemcpy2d copies host to device or device to host only (kind DEVICE_TO_DEVICE)");
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

aclError npu_rt_memcpy2d_route_check(bool sync, const struct npu_rt_copy_route_plan *plan)
{
	if (plan->route == NPU_RT_ROUTE_USER) {
		npu_rt_msg_detail("dst and src are both host memory: a 2D copy is host to device, device to host%s",
				  sync ? "" : " or device to device");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (sync && plan->dir == NPU_SIM_COPY_D2D) {
		npu_rt_msg_detail("dst and src are both device memory: aclrtMemcpy2d is host to device or device to host");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

aclError npu_rt_memset_args_check(const void *devPtr, size_t maxCount, size_t count)
{
	if (devPtr == NULL) {
		npu_rt_msg_detail("devPtr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (count > maxCount) {
		npu_rt_msg_detail("count %zu is more than maxCount %zu", count, maxCount);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

/* Kind bit of an aclrtMemcpyKind, for the sets a pageable side allows. */
#define KIND_BIT(k) (1U << (k))
#define SIDE_DEV(s) ((s) == NPU_RT_SIDE_DEVICE)

aclError npu_rt_memcpy_kind_correct(enum npu_rt_copy_side dst, enum npu_rt_copy_side src, int *kind)
{
	unsigned int allowed;
	int by_location;

	if (*kind < ACL_MEMCPY_HOST_TO_HOST || *kind > ACL_MEMCPY_DEFAULT ||
	    dst == NPU_RT_SIDE_OTHER || src == NPU_RT_SIDE_OTHER)
		return ACL_SUCCESS;
	by_location = SIDE_DEV(dst) ? (SIDE_DEV(src) ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_HOST_TO_DEVICE) :
				      (SIDE_DEV(src) ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_HOST);
	if (dst != NPU_RT_SIDE_PAGEABLE && src != NPU_RT_SIDE_PAGEABLE) {
		*kind = by_location;	/* both places known: they decide */
		return ACL_SUCCESS;
	}
	if (*kind == ACL_MEMCPY_DEFAULT) {
		*kind = by_location;	/* pageable counts as host */
		return ACL_SUCCESS;
	}
	/* A pageable side might be either host or device memory. */
	allowed = KIND_BIT(by_location);
	if (src == NPU_RT_SIDE_PAGEABLE)
		allowed |= KIND_BIT(by_location == ACL_MEMCPY_HOST_TO_DEVICE ? ACL_MEMCPY_DEVICE_TO_DEVICE :
				    by_location == ACL_MEMCPY_HOST_TO_HOST ? ACL_MEMCPY_DEVICE_TO_HOST : by_location);
	if (dst == NPU_RT_SIDE_PAGEABLE)
		allowed |= KIND_BIT(by_location == ACL_MEMCPY_DEVICE_TO_HOST ? ACL_MEMCPY_DEVICE_TO_DEVICE :
				    by_location == ACL_MEMCPY_HOST_TO_HOST ? ACL_MEMCPY_HOST_TO_DEVICE : by_location);
	if (src == NPU_RT_SIDE_PAGEABLE && dst == NPU_RT_SIDE_PAGEABLE)
		allowed |= KIND_BIT(ACL_MEMCPY_DEVICE_TO_DEVICE);
	if (allowed & KIND_BIT(*kind))
		return ACL_SUCCESS;
	npu_rt_msg_detail("kind %d does not match the addresses (a side is pageable host memory)", *kind);
	return ACL_ERROR_RT_PARAM_INVALID;
}

static aclError via_driver(uint32_t dir, int dev, struct npu_rt_copy_route_plan *plan)
{
	plan->route = NPU_RT_ROUTE_DRIVER;
	plan->dir = dir;
	plan->dev = dev;
	plan->src_dev = dev;
	return ACL_SUCCESS;
}

inline aclError npu_rt_plan_copy(int kind, struct npu_rt_loc dst, struct npu_rt_loc src,
			  struct npu_rt_copy_route_plan *plan)
{
	bool dst_dev = dst.kind == NPU_RT_LOC_DEVICE, src_dev = src.kind == NPU_RT_LOC_DEVICE;

	if (dst.kind == NPU_RT_LOC_STRADDLE || src.kind == NPU_RT_LOC_STRADDLE)
		return ACL_ERROR_RT_PARAM_INVALID;

	if (kind == ACL_MEMCPY_DEFAULT) {
		if (dst_dev && src_dev)
			kind = ACL_MEMCPY_DEVICE_TO_DEVICE;
		else if (dst_dev)
			kind = ACL_MEMCPY_HOST_TO_DEVICE;
		else if (src_dev)
			kind = ACL_MEMCPY_DEVICE_TO_HOST;
		else
			kind = ACL_MEMCPY_HOST_TO_HOST;
	}

	switch (kind) {
	case ACL_MEMCPY_HOST_TO_HOST:
		if (dst_dev || src_dev)
			return ACL_ERROR_RT_PARAM_INVALID;
		plan->route = NPU_RT_ROUTE_USER;
		plan->dir = 0;
		plan->dev = -1;
		plan->src_dev = -1;
		return ACL_SUCCESS;
	case ACL_MEMCPY_HOST_TO_DEVICE:
	case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
		if (!dst_dev || src_dev)
			return ACL_ERROR_RT_PARAM_INVALID;
		return via_driver(NPU_SIM_COPY_H2D, dst.dev, plan);
	case ACL_MEMCPY_DEVICE_TO_HOST:
		if (dst_dev || !src_dev)
			return ACL_ERROR_RT_PARAM_INVALID;
		return via_driver(NPU_SIM_COPY_D2H, src.dev, plan);
	case ACL_MEMCPY_DEVICE_TO_DEVICE:
		if (!dst_dev || !src_dev)
			return ACL_ERROR_RT_PARAM_INVALID;
		via_driver(NPU_SIM_COPY_D2D, dst.dev, plan);
		if (dst.dev != src.dev) {
			plan->route = NPU_RT_ROUTE_PEER;
			plan->src_dev = src.dev;
		}
		return ACL_SUCCESS;
	default:
		return ACL_ERROR_INVALID_PARAM;
	}
}
