/*
 * Managed (UVM) memory: aclrtMemAllocManaged, aclrtMemManagedAdvise,
 * aclrtMemManagedPrefetchAsync, aclrtMemManagedGetAttr(s) and, at the end,
 * aclrtMemManagedPrefetchBatchAsync (docs/design.md 4.6, seed page
 * aclrtMemManagedAdviseType).  Freed with aclrtFree (memory_linear.c).
 * The driver keeps the per-block state (MANAGED_* ioctls, OP_PREFETCH).
 *
 * Codes: the CANN ACL layer checks only NULL pointers, size 0 (advise,
 * prefetch, attributes), the alloc flag and the prefetch flags (100000);
 * its runtime answers 107000 for an alloc size 0, an advice or attribute
 * out of range and a DEVICE location id that is not a device; the rest
 * (sizes not multiples of 2 MiB, ranges that are not managed memory, a
 * location the advice cannot take) is the driver's: 107000 here too.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "acl_internal.h"
#include "races.h"
#include "batch_index.h"
#include "err_msg.h"

/* Advice and prefetch sizes: 2 MiB aligned and in (0, 3 TB]. */
static int managed_size_ok(uint64_t size)
{
	return size != 0 && size <= NPU_SIM_MANAGED_MAX && (size & (NPU_SIM_MANAGED_ALIGN - 1)) == 0;
}

/* A DEVICE location must name a device (the runtime's check): 107000. */
static aclError location_check(aclrtMemManagedLocation l)
{
	aclError err;

	if (l.type != ACL_MEM_LOCATIONTYPE_DEVICE)
		return ACL_SUCCESS;
	err = npu_rt_device_id_check(l.id, "location.id");
	return err == ACL_ERROR_RT_INVALID_DEVICEID ? ACL_ERROR_RT_PARAM_INVALID : err;
}

static aclError managed_errno(int rc)
{
	if (rc == -EBUSY)
		return ACL_ERROR_RT_PARAM_INVALID;	/* conflicting mapping */
	return npu_rt_errno_to_acl(-rc);
}

ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag)
{
	struct npu_sim_managed_alloc req = { .size = size };
	aclError err;
	int rc;

	if (ptr == NULL || flag != ACL_RT_MEM_ATTACH_GLOBAL)
		return ACL_ERROR_INVALID_PARAM;
	if (size == 0 || size > NPU_SIM_MANAGED_MAX) {
		npu_rt_msg_detail("size %llu is not in (0, 3 TB]", (unsigned long long)size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_ioctl_current(NPU_SIM_IOCTL_MANAGED_ALLOC, &req, &rc);
	if (err != ACL_SUCCESS)
		return err;
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	*ptr = (void *)(uintptr_t)req.va;
	return ACL_SUCCESS;
}

/*
 * The driver's name (NPU_SIM_MLOC_*, id) for an ACL location on device dev:
 * 0 when it names nothing there (another device, a NUMA node, INVALID).
 */
static uint32_t driver_loc(aclrtMemManagedLocation location, int dev, uint32_t *loc_id)
{
	*loc_id = 0;
	if (location.type == ACL_MEM_LOCATIONTYPE_DEVICE && location.id == dev) {
		*loc_id = (uint32_t)dev;
		return NPU_SIM_MLOC_DEVICE;
	}
	return location.type == ACL_MEM_LOCATIONTYPE_HOST ? NPU_SIM_MLOC_HOST : 0;
}

/* Whether [va, va + size) lies in one managed range (MANAGED_QUERY). */
static int managed_range(int fd, uint64_t va, uint64_t size)
{
	struct npu_sim_managed_query q = { .va = va, .size = size };

	return npu_rt_ioctl(fd, NPU_SIM_IOCTL_MANAGED_QUERY, &q) == 0;
}

/*
 * Which advice ignores the location, or takes a missing one as the host,
 * is the driver's rule (MANAGED_ADVISE): the location goes as given.  The
 * driver's -EINVAL (a location the advice cannot take, a range that is not
 * managed memory) is 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size,
						   aclrtMemManagedAdviseType advise,
						   aclrtMemManagedLocation location)
{
	struct npu_sim_managed_advise req;
	aclError err;
	int dev, fd, rc;

	if (ptr == NULL || size == 0)
		return ACL_ERROR_INVALID_PARAM;
	if ((uint16_t)advise > ACL_MEM_ADVISE_UNSET_ACCESSED_BY) {
		npu_rt_msg_detail("advise %d is not in 0..%d", (int)advise, ACL_MEM_ADVISE_UNSET_ACCESSED_BY);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = location_check(location);
	if (err != ACL_SUCCESS)
		return err;
	if (!managed_size_ok(size) || npu_rt_enter_addr(ptr, size, &dev) != 0) {
		npu_rt_msg_detail("size %llu is not a multiple of 2 MiB, or the range is not device memory",
				  (unsigned long long)size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	fd = npu_rt_device_fd_locked(dev);
	memset(&req, 0, sizeof(req));
	req.va = (uintptr_t)ptr;
	req.size = size;
	req.advise = (uint32_t)advise + 1;
	req.loc = driver_loc(location, dev, &req.loc_id);
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_MANAGED_ADVISE, &req);
	if (rc == -EINVAL && req.loc == 0 && managed_range(fd, (uintptr_t)ptr, size))
		npu_rt_msg_detail("advise %d needs a location: HOST or the memory's device", (int)advise);
	err = rc != 0 ? managed_errno(rc) : ACL_SUCCESS;
	npu_rt_devices_unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size,
							  aclrtMemManagedLocation location, uint32_t flags,
							  aclrtStream stream)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	struct npu_rt_loc where;
	uint32_t loc, loc_id;
	aclError err = ACL_SUCCESS;
	int rc;

	if (ptr == NULL || size == 0 || flags != 0)
		return ACL_ERROR_INVALID_PARAM;
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	err = location_check(location);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	where = npu_rt_locate_locked(ptr, size);
	if (!managed_size_ok(size) || where.kind != NPU_RT_LOC_DEVICE ||
	    (loc = driver_loc(location, where.dev, &loc_id)) == 0) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("size %zu not a multiple of 2 MiB, the range not device memory, or the location "
				  "neither HOST nor the memory's device", size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (where.dev != ref.dev) {
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_STREAM_CONTEXT;
	}
	memset(&req, 0, sizeof(req));
	req.stream = ref.kid;
	req.op = NPU_SIM_OP_PREFETCH;
	req.dst = (uintptr_t)ptr;
	req.width = size;
	req.location = loc;
	req.location_id = loc_id;
	rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &req);
	if (rc == 0)
		npu_rt_races_submit(&ref, &req);
	if (rc == -EAGAIN)
		err = ACL_ERROR_RT_STREAM_TASK_FULL;
	else if (rc == -EPIPE)	/* asked while the device is held */
		err = npu_rt_stream_errno(&ref, rc);
	else if (rc != 0)
		err = managed_errno(rc);
	npu_rt_devices_unlock();
	return err;
}

/* ACL location of a driver one (id: the device for DEVICE, else 0). */
static aclrtMemManagedLocation acl_loc(uint32_t loc, int dev)
{
	aclrtMemManagedLocation l = { ACL_MEM_LOCATIONTYPE_INVALID, 0 };

	if (loc == NPU_SIM_MLOC_DEVICE) {
		l.type = ACL_MEM_LOCATIONTYPE_DEVICE;
		l.id = dev;
	} else if (loc == NPU_SIM_MLOC_HOST) {
		l.type = ACL_MEM_LOCATIONTYPE_HOST;
	}
	return l;
}

/* The preferred or the last prefetch location, as attribute asks. */
static uint32_t range_loc(aclrtMemManagedRangeAttribute attribute, const struct npu_sim_managed_query *q)
{
	switch (attribute) {
	case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
	case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
	case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
		return q->preferred;
	default:
		return q->last_prefetch;
	}
}

/* Copy the n bytes of v into the caller's buffer of dataSize bytes. */
static aclError put(void *data, size_t dataSize, const void *v, size_t n)
{
	if (dataSize < n) {
		npu_rt_msg_detail("dataSize %zu is less than the %zu bytes of the attribute", dataSize, n);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	memcpy(data, v, n);
	return ACL_SUCCESS;
}

static aclError put_i32(void *data, size_t dataSize, int32_t v)
{
	return put(data, dataSize, &v, sizeof(v));
}

static aclError put_loc(void *data, size_t dataSize, aclrtMemManagedLocation l)
{
	return put(data, dataSize, &l, sizeof(l));
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr,
						    size_t size, void *data, size_t dataSize)
{
	struct npu_sim_managed_query q;
	aclrtMemManagedLocation l;
	int dev, rc;

	if (ptr == NULL || data == NULL || size == 0)
		return ACL_ERROR_INVALID_PARAM;
	if ((int)attribute < ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY ||
	    (int)attribute > ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID) {
		npu_rt_msg_detail("attribute %d is outside aclrtMemManagedRangeAttribute", (int)attribute);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (npu_rt_enter_addr(ptr, size, &dev) != 0) {
		npu_rt_msg_detail("[ptr, +%zu) is not device memory", size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	memset(&q, 0, sizeof(q));
	q.va = (uintptr_t)ptr;
	q.size = size;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MANAGED_QUERY, &q);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);

	switch (attribute) {
	case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
		return put_i32(data, dataSize, (int32_t)q.read_mostly);
	case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
	case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
		return put_loc(data, dataSize, acl_loc(range_loc(attribute, &q), dev));
	case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
	case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
		return put_i32(data, dataSize, acl_loc(range_loc(attribute, &q), dev).type);
	case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
	case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
		return put_i32(data, dataSize, acl_loc(range_loc(attribute, &q), dev).id);
	case ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
		size_t n = dataSize / sizeof(l), i = 0;

		if (n == 0 || dataSize % sizeof(l) != 0) {
			npu_rt_msg_detail("dataSize %zu is not a multiple of aclrtMemManagedLocation", dataSize);
			return ACL_ERROR_RT_PARAM_INVALID;
		}
		if (q.accessed_by & (1U << NPU_SIM_MLOC_DEVICE)) {
			l = acl_loc(NPU_SIM_MLOC_DEVICE, dev);
			memcpy((char *)data + i++ * sizeof(l), &l, sizeof(l));
		}
		if (i < n && (q.accessed_by & (1U << NPU_SIM_MLOC_HOST))) {
			l = acl_loc(NPU_SIM_MLOC_HOST, dev);
			memcpy((char *)data + i++ * sizeof(l), &l, sizeof(l));
		}
		l = acl_loc(0, dev);
		for (; i < n; i++)
			memcpy((char *)data + i * sizeof(l), &l, sizeof(l));
		return ACL_SUCCESS;
	}
	}
	return ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes,
						     size_t numAttributes, const void *ptr, size_t size,
						     void **data, size_t *dataSizes)
{
	aclError err;

	if (attributes == NULL || data == NULL || dataSizes == NULL || numAttributes == 0)
		return ACL_ERROR_INVALID_PARAM;
	for (size_t i = 0; i < numAttributes; i++) {
		err = aclrtMemManagedGetAttr(attributes[i], ptr, size, data[i], dataSizes[i]);
		if (err != ACL_SUCCESS)
			return err;
	}
	return ACL_SUCCESS;
}

/*
 * aclrtMemManagedPrefetchBatchAsync: count prefetches queued on one
 * stream, in order.  prefetchLocs[k] is where the ranges
 * prefetchLocIdxs[k] .. prefetchLocIdxs[k + 1] - 1 (the last entry: up to
 * count - 1) go.  Every range and location is checked before the first
 * prefetch is queued, so a refused call queues nothing.
 */

#define MANAGED_MAX (3ULL << 40)
#define MANAGED_ALIGN (2ULL << 20)

/* Range i is managed memory and location l can receive it. */
static aclError check_one(size_t i, const void *ptr, size_t size, aclrtMemManagedLocation l)
{
	aclrtPtrAttributes attr;
	int32_t read_mostly;
	aclError err;

	if (ptr == NULL || size == 0 || size > MANAGED_MAX || size % MANAGED_ALIGN != 0) {
		npu_rt_msg_detail("range %zu: ptr NULL, or size %zu not a multiple of 2 MiB in (0, 3 TB]", i, size);
		return ACL_ERROR_INVALID_PARAM;
	}
	/* the range is inside one managed allocation (107000 otherwise) */
	err = aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ptr, size, &read_mostly,
				     sizeof(read_mostly));
	if (err == ACL_SUCCESS)
		err = aclrtPointerGetAttributes(ptr, &attr);
	if (err != ACL_SUCCESS) {
		npu_rt_msg_detail("range %zu is not inside one managed allocation", i);
		return err;
	}
	if (l.type != ACL_MEM_LOCATIONTYPE_HOST &&
	    !(l.type == ACL_MEM_LOCATIONTYPE_DEVICE && l.id >= 0 && (uint32_t)l.id == attr.location.id)) {
		npu_rt_msg_detail("range %zu: location type %d id %d is neither HOST nor the device of the memory (%u)",
				  i, (int)l.type, l.id, attr.location.id);
		return ACL_ERROR_INVALID_PARAM;
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
							       aclrtMemManagedLocation *prefetchLocs,
							       size_t *prefetchLocIdxs, size_t numPrefetchLocs,
							       uint64_t flags, aclrtStream stream)
{
	aclError err = ACL_SUCCESS;
	size_t i, k = 0;

	if (ptrs == NULL || sizes == NULL || prefetchLocs == NULL || prefetchLocIdxs == NULL || count == 0 ||
	    flags != 0 || !npu_rt_batch_indexes_ok(prefetchLocIdxs, numPrefetchLocs, count)) {
		npu_rt_msg_detail("NULL array, count 0, flags 0x%llx != 0, or prefetchLocIdxs not 0, increasing, "
				  "below count (numPrefetchLocs %zu, count %zu)",
				  (unsigned long long)flags, numPrefetchLocs, count);
		return ACL_ERROR_INVALID_PARAM;
	}
	for (i = 0; i < count && err == ACL_SUCCESS; i++) {
		if (k + 1 < numPrefetchLocs && i == prefetchLocIdxs[k + 1])
			k++;
		err = check_one(i, ptrs[i], sizes[i], prefetchLocs[k]);
	}
	for (i = 0, k = 0; i < count && err == ACL_SUCCESS; i++) {
		if (k + 1 < numPrefetchLocs && i == prefetchLocIdxs[k + 1])
			k++;
		err = aclrtMemManagedPrefetchAsync(ptrs[i], sizes[i], prefetchLocs[k], 0, stream);
	}
	return err;
}
