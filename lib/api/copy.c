/*
 * Copy and set: aclrtMemcpy, aclrtMemcpy2d, aclrtMemset; further down
 * aclrtMemsetD32 (the async forms: copy_async.c; aclrtMemcpyBatch:
 * memcpy_batch.c).
 * Argument order of the checks follows the CANN ACL layer (docs/cann-api-notes.md
 * 6.1-6.4); where pointers are and how a copy is carried out is decided by
 * the pure copy_rules.c; device bytes are moved by the driver (MEMCPY,
 * MEMCPY2D, MEMSET ioctls), host-only copies and sets in user space.
 */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>

#include "acl_internal.h"
#include "model_ri.h"
#include "check.h"
#include "races.h"
#include "err_msg.h"
#include "range_check.h"

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

/* Why the plan refused copy c: where dst and src are against what kind wants
 * (out of line: the planning of every copy stays short). */
static __attribute__((noinline, cold)) void plan_refused(const struct npu_rt_copy *c, aclrtMemcpyKind kind, struct npu_rt_loc dst,
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

bool npu_rt_host_pinned(const void *p, size_t len)
{
	uintptr_t base;
	size_t blen;

	if (!npu_rt_host_find((uintptr_t)p, &base, &blen))
		return false;
	return (uintptr_t)p - base <= blen && len <= blen - ((uintptr_t)p - base);
}

/* One side of a copy for the kind correction. */
static enum npu_rt_copy_side side(struct npu_rt_loc loc, uintptr_t p, size_t len)
{
	if (loc.kind == NPU_RT_LOC_DEVICE)
		return NPU_RT_SIDE_DEVICE;
	if (loc.kind != NPU_RT_LOC_HOST)
		return NPU_RT_SIDE_OTHER;
	return npu_rt_host_pinned((const void *)p, len) ? NPU_RT_SIDE_PINNED : NPU_RT_SIDE_PAGEABLE;
}

/* The plan, inlined into copy_now (a synchronous flat copy skips the kind
 * correction at compile time) and behind npu_rt_copy_plan_locked. */
static inline __attribute__((always_inline)) aclError copy_plan(const struct npu_rt_copy *c, aclrtMemcpyKind kind,
								 bool correct, struct npu_rt_copy_route_plan *plan)
{
	struct npu_rt_loc dst = npu_rt_locate_locked((const void *)c->dst, c->dspan);
	struct npu_rt_loc src = npu_rt_locate_locked((const void *)c->src, c->sspan);
	int k = (int)kind;
	aclError err = ACL_SUCCESS;

	if (correct)
		err = npu_rt_memcpy_kind_correct(side(dst, c->dst, c->dspan), side(src, c->src, c->sspan), &k);
	if (err == ACL_SUCCESS)
		err = npu_rt_plan_copy(k, dst, src, plan);
	kind = (aclrtMemcpyKind)k;

	if (err == ACL_ERROR_RT_PARAM_INVALID) {
		plan_refused(c, kind, dst, src);
		npu_rt_check_bad_copy(c->dst, c->dspan, c->src, c->sspan);
	}
	return err;
}

aclError npu_rt_copy_plan_locked(const struct npu_rt_copy *c, aclrtMemcpyKind kind, bool correct,
				 struct npu_rt_copy_route_plan *plan)
{
	return copy_plan(c, kind, correct, plan);
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
	/* The runtime checks the thread's capture mode first. */
	err = npu_rt_capture_mode_check(dev);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	err = flat ? copy_plan(c, kind, false, &plan) : copy_plan(c, kind, true, &plan);
	if (err == ACL_SUCCESS && !flat)
		err = npu_rt_memcpy2d_route_check(true, &plan);
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

		rc = npu_rt_ioctl_inline(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEMCPY, &req);
	} else {
		struct npu_sim_memcpy2d req = { .src_fd = -1 };

		NPU_RT_SET_COPY_FIELDS(&req, c, plan.dir);
		rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEMCPY2D, &req);
	}
	npu_rt_devices_unlock();
	if (rc == 0)
		npu_rt_races_host_copy(c, plan.dir);
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

	if (err == ACL_SUCCESS && c.width != 0)
		err = npu_rt_memcpy2d_sync_kind_check((int)kind);
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
	err = npu_rt_capture_mode_check(dev);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	loc = npu_rt_locate_locked(devPtr, count);
	switch (loc.kind) {
	case NPU_RT_LOC_HOST:
		memset(devPtr, value & 0xff, count);
		npu_rt_devices_unlock();
		npu_rt_races_host_access(devPtr, count, false, true);
		return ACL_SUCCESS;
	case NPU_RT_LOC_DEVICE:
		memset(&req, 0, sizeof(req));
		req.dst = (uintptr_t)devPtr;
		req.count = count;
		req.value = (uint32_t)value & 0xffU;
		rc = npu_rt_ioctl(npu_rt_device_fd_locked(loc.dev), NPU_SIM_IOCTL_MEMSET, &req);
		npu_rt_devices_unlock();
		if (rc == 0)
			npu_rt_races_host_access(devPtr, count, true, true);
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

/*
 * aclrtMemsetD32: set N 32-bit words at ptr to value.  A value whose four
 * bytes are equal is an ordinary aclrtMemset.  Otherwise host memory is
 * written in user space (as aclrtMemset does for host pointers) and device
 * memory gets the pattern through host-to-device copies of a pattern
 * buffer, after the whole range was checked to lie in one live allocation
 * or mapping, so a refused call writes nothing.
 */

#define PATTERN_CHUNK (1U << 20)	/* bytes of pattern copied per ioctl */

static aclError set_device(void *ptr, size_t memSize, uint32_t value, size_t bytes)
{
	size_t chunk = bytes < PATTERN_CHUNK ? bytes : PATTERN_CHUNK;
	uint32_t *pattern = malloc(chunk);
	aclError err = ACL_SUCCESS;

	if (pattern == NULL) {
		npu_rt_msg_detail("no host memory for a %zu-byte pattern buffer", chunk);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	for (size_t i = 0; i < chunk / 4; i++)
		pattern[i] = value;
	for (size_t off = 0; off < bytes && err == ACL_SUCCESS; off += chunk) {
		size_t n = bytes - off < chunk ? bytes - off : chunk;

		err = aclrtMemcpy((char *)ptr + off, memSize - off, pattern, n, ACL_MEMCPY_HOST_TO_DEVICE);
	}
	free(pattern);
	return err;
}

/*
 * The ACL layer's checks: ptr NULL or not 4-byte aligned, N * 4 above
 * memSize, and memory that is neither aclrtMalloc nor aclrtMallocHost
 * memory: ACL_ERROR_INVALID_PARAM.  Table lock held on ACL_SUCCESS.
 */
aclError npu_rt_d32_check(void *ptr, size_t memSize, size_t N, struct npu_rt_loc *loc)
{
	uintptr_t base;
	size_t len, bytes;

	if (ptr == NULL || ((uintptr_t)ptr & 3) != 0) {
		npu_rt_msg_detail(ptr == NULL ? "ptr is NULL" : "ptr is not 4-byte aligned");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (N > SIZE_MAX / 4 || N * 4 > memSize) {
		npu_rt_msg_detail("N %zu words are more than memSize %zu bytes", N, memSize);
		return ACL_ERROR_INVALID_PARAM;
	}
	bytes = N * 4;
	/*
	 * The memory kind first: the ACL layer asks the driver (no current
	 * device needed); the runtime's context check comes after (the callers).
	 */
	npu_rt_devices_read_lock();
	*loc = npu_rt_locate_locked(ptr, bytes);
	if (loc->kind == NPU_RT_LOC_DEVICE ||
	    (loc->kind == NPU_RT_LOC_HOST && npu_rt_host_find((uintptr_t)ptr, &base, &len)))
		return ACL_SUCCESS;
	npu_rt_devices_unlock();
	npu_rt_msg_detail("ptr is neither device memory nor an aclrtMallocHost block");
	return ACL_ERROR_INVALID_PARAM;
}

aclError npu_rt_d32_current_locked(void)
{
	if (npu_rt_current_dev_locked() >= 0)
		return ACL_SUCCESS;
	npu_rt_devices_unlock();
	npu_rt_msg_detail("the calling thread has no current context (aclrtSetDevice)");
	return ACL_ERROR_RT_CONTEXT_NULL;
}

aclError npu_rt_d32_set_host(void *ptr, uint32_t value, size_t N)
{
	uintptr_t base;
	size_t len, bytes = N * 4;

	if (!npu_rt_host_find((uintptr_t)ptr, &base, &len) || bytes > len - ((uintptr_t)ptr - base)) {
		npu_rt_msg_detail("[ptr, ptr + %zu) runs past its aclrtMallocHost block", bytes);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	for (size_t i = 0; i < N; i++)
		memcpy((char *)ptr + i * 4, &value, 4);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N)
{
	uint8_t b = (uint8_t)value;
	struct npu_rt_loc loc;
	size_t bytes = N * 4;
	aclError err;

	if (N == 0)
		return ACL_SUCCESS;
	err = npu_rt_d32_check(ptr, memSize, N, &loc);
	if (err == ACL_SUCCESS)
		err = npu_rt_d32_current_locked();	/* ApiImpl::MemsetD32 */
	if (err != ACL_SUCCESS)
		return err;
	if (loc.kind == NPU_RT_LOC_HOST) {
		npu_rt_devices_unlock();
		return npu_rt_d32_set_host(ptr, value, N);
	}
	if (value == (uint32_t)b * 0x01010101U) {
		npu_rt_devices_unlock();
		return aclrtMemset(ptr, memSize, b, bytes);
	}
	err = npu_rt_check_live_range_locked(loc.dev, (uintptr_t)ptr, bytes, "ptr");
	npu_rt_devices_unlock();
	return err != ACL_SUCCESS ? err : set_device(ptr, memSize, value, bytes);
}
