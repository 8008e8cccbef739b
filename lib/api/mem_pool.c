/*
 * The stream-ordered memory pool of acl_rt_memory_soma.h: aclrtMemPoolCreate,
 * aclrtMemPoolDestroy, aclrtMemPoolSetAttr, aclrtMemPoolGetAttr,
 * aclrtMemPoolMallocAsync, aclrtMemPoolFreeAsync, aclrtMemPoolTrimTo.
 *
 * The pool lives in the driver (MEMPOOL_* ioctls, kernel/npu_mempool.c);
 * a free is the stream op OP_POOL_FREE.  The handle names the device and
 * the driver's pool id; the library keeps only deferred frees.  Checks in the
 * order of the CANN ACL layer, then of the runtime; the runtime's pool
 * errors have no public code and reach the caller as
 * ACL_ERROR_RT_INTERNAL_ERROR (docs/cann-api-notes.md section 8).
 *
 * A free of the block the stream's last alloc handed out is deferred in
 * the library, and a same-size alloc on that stream takes it back without
 * a syscall (mem_pool_defer.c); every other call submits it first.
 *
 * On a capturing stream the alloc takes its block at once (the runtime
 * does too) and is recorded in the graph, which owns the block from its
 * capture's end; a free is recorded, not run (model_ri_capture.c).
 */
#include <errno.h>
#include <string.h>

#include "acl/acl_rt_memory_soma.h"
#include "acl_internal.h"
#include "model_ri.h"
#include "races.h"
#include "err_msg.h"

#define POOL_TAG 0xA5ULL		/* top byte of a handle */
#define POOL_BLOCK NPU_SIM_MEMPOOL_BLOCK	/* the runtime's 2 MiB unit */

static aclrtMemPool pool_handle(int dev, uint64_t id)
{
	return (aclrtMemPool)(uintptr_t)((POOL_TAG << 56) | ((uint64_t)dev << 48) | id);
}

/* Device and pool id of handle h: 0, or -1 when h is no pool handle. */
static int pool_decode(const void *h, int *dev, __u64 *id)
{
	uint64_t v = (uint64_t)(uintptr_t)h;

	if (sizeof(void *) < 8 || (v >> 56) != POOL_TAG)
		return -1;
	*dev = (int)((v >> 48) & 0xff);
	*id = v & ((1ULL << 48) - 1);
	return *dev < NPU_RT_MAX_DEVICES && *id != 0 ? 0 : -1;
}

/*
 * Issue request on the device of pool handle h (its id filled in by the
 * caller through *id): 0 or a negative errno; -ENOENT also when h is no
 * pool handle or its device is not open.
 */
static int pool_ioctl(const void *h, unsigned long request, void *arg, __u64 *id)
{
	int dev, rc;

	if (pool_decode(h, &dev, id) != 0 || npu_rt_enter_device(dev) != ACL_SUCCESS)
		return -ENOENT;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), request, arg);
	npu_rt_devices_unlock();
	return rc;
}

static int pool_ctl(const void *h, uint32_t op, uint32_t attr, uint64_t *value)
{
	struct npu_sim_mempool_ctl req;
	int rc;

	memset(&req, 0, sizeof(req));
	req.op = op;
	req.attr = attr;
	if (op != NPU_SIM_MEMPOOL_GET_ATTR)
		req.value = *value;
	rc = pool_ioctl(h, NPU_SIM_IOCTL_MEMPOOL_CTL, &req, &req.id);
	if (rc == 0 && op == NPU_SIM_MEMPOOL_GET_ATTR)
		*value = req.value;
	return rc;
}

static bool zeros(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps)
{
	struct npu_sim_mempool_create req;
	aclError err;
	int dev, rc;

	if (memPool == NULL || poolProps == NULL) {
		npu_rt_msg_detail(memPool == NULL ? "memPool is NULL" : "poolProps is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (poolProps->allocType != ACL_MEM_ALLOCATION_TYPE_PINNED) {
		npu_rt_msg_detail("poolProps->allocType is %d, must be ACL_MEM_ALLOCATION_TYPE_PINNED (0)",
				  (int)poolProps->allocType);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (poolProps->location.type != ACL_MEM_LOCATION_TYPE_DEVICE) {
		npu_rt_msg_detail("poolProps->location.type is %d, must be ACL_MEM_LOCATION_TYPE_DEVICE (1)",
				  (int)poolProps->location.type);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (!zeros(poolProps->reserved, sizeof(poolProps->reserved))) {
		npu_rt_msg_detail("poolProps->reserved must be all zero");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_device_id_check((int32_t)poolProps->location.id, "poolProps->location.id");
	if (err != ACL_SUCCESS)
		return err;
	dev = (int)poolProps->location.id;
	if (npu_rt_enter_device(dev) != ACL_SUCCESS) {
		npu_rt_msg_detail("device %d is not set in this process (aclrtSetDevice)", dev);
		return ACL_ERROR_RT_CONTEXT_NULL;
	}
	memset(&req, 0, sizeof(req));
	req.max_size = poolProps->maxSize;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEMPOOL_CREATE, &req);
	npu_rt_devices_unlock();
	if (rc == -EINVAL) {
		npu_rt_msg_detail("maxSize %zu rounded up to 2 MiB exceeds the memory of device %d",
				  poolProps->maxSize, dev);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	*memPool = pool_handle(dev, req.id);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool)
{
	struct npu_sim_mempool_destroy req;
	int rc;

	if (memPool == NULL) {
		npu_rt_msg_detail("memPool is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	memset(&req, 0, sizeof(req));
	rc = pool_ioctl(memPool, NPU_SIM_IOCTL_MEMPOOL_DESTROY, &req, &req.id);
	if (rc == -ENOENT) {
		npu_rt_msg_detail("memPool is not a live memory pool (not created or destroyed)");
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	return rc != 0 ? npu_rt_errno_to_acl(-rc) : ACL_SUCCESS;
}

static bool reuse_attr(aclrtMemPoolAttr attr)
{
	return attr == ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES ||
	       attr == ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC ||
	       attr == ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES;
}

/* An attribute value the runtime refuses: its message and code. */
static aclError attr_error(int rc, aclrtMemPoolAttr attr)
{
	if (rc == -ENOENT) {
		npu_rt_msg_detail("memPool is not a live memory pool (not created or destroyed)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (rc == -EPERM) {
		npu_rt_msg_detail("attribute %d is read only", (int)attr);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (rc == -EINVAL) {
		npu_rt_msg_detail(attr < ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES ||
				  attr > ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH ?
				  "attr %d is not an aclrtMemPoolAttr" :
				  attr == ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD ?
				  "attribute %d: the threshold is above the pool's size" :
				  "attribute %d: only 0 (reset) may be set", (int)attr);
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	return npu_rt_errno_to_acl(-rc);
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value)
{
	uint64_t v;
	int rc;

	if (memPool == NULL) {
		npu_rt_msg_detail("memPool is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	v = reuse_attr(attr) ? *(const uint32_t *)value : *(const uint64_t *)value;
	rc = pool_ctl(memPool, NPU_SIM_MEMPOOL_SET_ATTR, (uint32_t)attr, &v);
	return rc != 0 ? attr_error(rc, attr) : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value)
{
	uint64_t v = 0;
	int rc;

	if (memPool == NULL) {
		npu_rt_msg_detail("memPool is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	rc = pool_ctl(memPool, NPU_SIM_MEMPOOL_GET_ATTR, (uint32_t)attr, &v);
	if (rc != 0)
		return attr_error(rc, attr);
	if (reuse_attr(attr))
		*(uint32_t *)value = (uint32_t)v;
	else
		*(uint64_t *)value = v;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, aclrtMemPool memPool, aclrtStream stream)
{
	struct npu_sim_mempool_alloc req;
	struct npu_rt_ref ref;
	uint64_t caps = 0;
	int capturing;
	aclError err;
	int dev, rc;

	if (ptr == NULL || memPool == NULL || stream == NULL) {
		npu_rt_msg_detail(ptr == NULL ? "ptr is NULL" : memPool == NULL ? "memPool is NULL" :
				  "stream is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (size == 0)
		return ACL_SUCCESS;	/* the ACL layer's early return */
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (size > UINT64_MAX - (POOL_BLOCK - 1)) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("size %zu overflows when rounded up to 2 MiB", size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	memset(&req, 0, sizeof(req));
	req.stream = ref.kid;
	req.size = ((uint64_t)size + POOL_BLOCK - 1) & ~(POOL_BLOCK - 1);
	capturing = npu_rt_capture_stream_state(ref.dev, ref.kid) != 0;
	if (capturing && (npu_rt_get_param(ref.fd, NPU_SIM_PARAM_CAPABILITIES, &caps) != 0 ||
			  !(caps & NPU_SIM_CAP_GRAPH_POOL))) {
		npu_rt_capture_invalidate(ref.dev, ref.kid);
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the npu_sim module cannot give graphs memory (NPU_SIM_CAP_GRAPH_POOL)");
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (pool_decode(memPool, &dev, &req.id) != 0 || dev != ref.dev)
		req.id = 0;
	/* The stream's deferred free of a block this size: no syscall. */
	req.va = npu_rt_pool_take_locked(&ref, capturing ? 0 : req.id, req.size);
	if (req.va != 0) {
		npu_rt_devices_unlock();
		*ptr = (void *)(uintptr_t)req.va;
		return ACL_SUCCESS;
	}
	if (req.id == 0)
		rc = -ENOENT;
	else
		rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_MEMPOOL_ALLOC, &req);
	if (rc == 0 && !capturing && npu_rt_pool_defer_ok())
		npu_rt_pool_note_alloc_locked(&ref, req.id, req.va, req.block_size);
	if (rc == 0 && capturing &&
	    npu_rt_capture_pool_alloc(&ref, req.id, req.va, req.block_size, &err) && err != ACL_SUCCESS) {
		struct npu_sim_mem_free mf = { .va = req.va };

		/* Refused in the capture: the block goes back. */
		(void)npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_MEM_FREE, &mf);
		npu_rt_devices_unlock();
		return err;
	}
	npu_rt_devices_unlock();
	/* MEMPOOL_ALLOC's ENOENT names the stream or the pool. */
	if (rc == -ENOENT && npu_rt_obj_died(stream, NPU_RT_OBJ_STREAM, ref.dev, ref.kid)) {
		npu_rt_msg_detail("stream is not a live stream (destroyed meanwhile)");
		return npu_rt_obj_errno(rc);
	}
	if (rc == -ENOENT) {
		npu_rt_msg_detail("memPool is not a live memory pool of the stream's device");
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	if (rc == -ENOSPC || rc == -ENOMEM) {
		npu_rt_msg_detail("cannot allocate %llu bytes from the pool: %s",
				  (unsigned long long)req.size,
				  rc == -ENOSPC ? "its maxSize or the device's memory is exhausted" :
				  "out of memory");
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	if (!capturing)	/* a graph's block is used in its replays */
		npu_rt_races_pool_alloc(&ref, req.va, size);
	*ptr = (void *)(uintptr_t)req.va;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	aclError err;
	int rc;

	if (ptr == NULL) {
		npu_rt_msg_detail("ptr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	/* The block the stream's last alloc handed out: the free waits for
	 * the next call (mem_pool_defer.c); the driver keeps it in use. */
	if (npu_rt_pool_defer_free_locked(&ref, (uintptr_t)ptr, npu_rt_pool_defer_ok() &&
					  npu_rt_capture_stream_state(ref.dev, ref.kid) == 0)) {
		npu_rt_devices_unlock();
		return ACL_SUCCESS;
	}
	if (npu_rt_capture_pool_free(&ref, (uintptr_t)ptr, &err)) {
		npu_rt_devices_unlock();
		return err;
	}
	memset(&req, 0, sizeof(req));
	req.stream = ref.kid;
	req.op = NPU_SIM_OP_POOL_FREE;
	req.dst = (uintptr_t)ptr;
	rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &req);
	err = rc == -EPIPE ? npu_rt_stream_errno(&ref, rc) : ACL_SUCCESS;
	npu_rt_devices_unlock();
	if (rc == -EPIPE)
		return err;
	if (rc == -EBUSY) {
		npu_rt_msg_detail("ptr is in a pool block that is not allocated (freed twice?) or not its start");
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	if (rc != 0)
		return npu_rt_obj_errno(rc);
	npu_rt_races_pool_free(&ref, ptr, 0);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep)
{
	uint64_t v = minBytesToKeep;
	int rc;

	if (memPool == NULL) {
		npu_rt_msg_detail("memPool is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	rc = pool_ctl(memPool, NPU_SIM_MEMPOOL_TRIM, 0, &v);
	if (rc == -ENOENT) {
		npu_rt_msg_detail("memPool is not a live memory pool (not created or destroyed)");
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	if (rc == -EINVAL) {
		npu_rt_msg_detail("minBytesToKeep %zu is above the pool's size or below its used bytes",
				  minBytesToKeep);
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	return rc != 0 ? npu_rt_errno_to_acl(-rc) : ACL_SUCCESS;
}
