/*
 * Virtual memory management (CANN 11-04; docs/design.md 4.3): granularity,
 * reservations, physical handles, map/unmap, access, handle retain and
 * properties, pointer attributes and address ranges, the links of a
 * mapping (aclrtMemMapSelectedLink / SetLink), and at the end
 * aclrtReserveMemAddressNoUCMemory.  The ACL-layer rules are in the pure
 * vmm_rules.c; this file adds the device routing and the VMM_* / PHYS_*
 * ioctls.
 *
 * Error codes (docs/cann-api-notes.md, table "Checks and codes"):
 *   ACL_ERROR_INVALID_PARAM (100000)  only the CANN ACL layer's checks: NULL
 *       pointers, zero sizes, flags, prop (vmm_rules.h).
 *   ACL_ERROR_RT_INVALID_DEVICEID (107001)  a DEVICE location id that is
 *       not a device (the runtime checks it).
 *   ACL_ERROR_RT_CONTEXT_NULL (107002)  no current device / the device a
 *       handle or location names is not open in this process.
 *   ACL_ERROR_RT_PARAM_INVALID (107000)  what the real stack leaves to the
 *       driver (npu_sim's choice of the driver's "invalid value"): sizes
 *       and addresses not multiples of the granularity, an address outside
 *       every device window, no reservation/mapping starts at the address,
 *       mapping over a live mapping, release of a reservation with
 *       mappings, map size != handle size, map range outside one
 *       reservation, map offset != 0, a handle of another device.
 *   ACL_ERROR_RT_INVALID_HANDLE (107017)  a handle that is not live in this
 *       process (freed, forged, of another process).
 *   ACL_ERROR_RT_MEMORY_ALLOCATION (207001)  device capacity, hugetlb pool
 *       or host memory exhausted; no room in the VA window; expectPtr
 *       occupied or outside the window (gitcode aclrtReserveMemAddress doc).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "acl_internal.h"
#include "alloc_diag.h"
#include "check.h"
#include "err_msg.h"
#include "profile.h"
#include "vmm_rules.h"

/* Lock the table and find the device whose window holds p: lock HELD. */
static aclError enter_addr(const void *p, int *dev, int *fd)
{
	if (npu_rt_enter_addr(p, 1, dev) != 0) {
		npu_rt_msg_detail("the address is outside every device window of this process");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	*fd = npu_rt_device_fd_locked(*dev);
	return ACL_SUCCESS;
}

/*
 * Ask the driver to drop what starts at virPtr: the reservation
 * (VMM_RELEASE) or the mapping (VMM_UNMAP); both take just the address.
 */
static aclError drop_at(void *virPtr, unsigned long request)
{
	struct npu_sim_vmm_unmap req;
	aclError err;
	int dev, fd, rc;

	_Static_assert(sizeof(struct npu_sim_vmm_release) == sizeof(req) &&
			       offsetof(struct npu_sim_vmm_release, va) == offsetof(struct npu_sim_vmm_unmap, va),
		       "VMM_RELEASE and VMM_UNMAP take the same argument");
	if (virPtr == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = enter_addr(virPtr, &dev, &fd);
	if (err != ACL_SUCCESS)
		return err;
	memset(&req, 0, sizeof(req));
	req.va = (uintptr_t)virPtr;
	rc = npu_rt_ioctl(fd, request, &req);
	npu_rt_devices_unlock();
	if (rc == 0 && request == NPU_SIM_IOCTL_VMM_RELEASE)
		npu_rt_check_destroyed(NPU_RT_CK_RESERVATION, (uintptr_t)virPtr);
	return rc != 0 ? npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_ADDR) : ACL_SUCCESS;
}

/* Lock the table for open device dev and give its fd: lock HELD. */
static aclError enter_device(int dev, int *fd)
{
	aclError err = npu_rt_enter_device(dev);

	if (err == ACL_SUCCESS)
		*fd = npu_rt_device_fd_locked(dev);
	return err;
}

aclError npu_rt_enter_handle(aclrtDrvMemHandle handle, int *dev, int *fd, uint32_t *id)
{
	if (handle == NULL)
		return ACL_ERROR_INVALID_PARAM;
	if (npu_rt_handle_decode(handle, NPU_RT_MAX_DEVICES, dev, id) != 0) {
		npu_rt_msg_detail("the handle was not made by aclrtMallocPhysical or an import of this process");
		return ACL_ERROR_RT_INVALID_HANDLE;
	}
	return enter_device(*dev, fd);
}

/*
 * aclrtMemGetAllocationGranularity - 2 MiB, or 1 GiB for the HUGE1G
 * attributes, for either option (the option, handleType and allocationType
 * are not checked, as in the CANN runtime).  Errors: 100000 NULL
 * prop/granularity, memAttr refused, DDR attribute at a DEVICE location;
 * 107001 DEVICE id not a device; 107000 a location the driver refuses.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
							      aclrtMemGranularityOptions option,
							      size_t *granularity)
{
	struct npu_rt_phys_plan plan;
	aclError err;

	(void)option;
	if (granularity == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = npu_rt_plan_phys_attr(prop, NPU_RT_MAX_DEVICES, false, &plan);
	if (err == ACL_SUCCESS && plan.location == NPU_SIM_LOC_DEVICE)
		err = npu_rt_device_id_check((int32_t)plan.location_id, "prop->location.id");
	if (err != ACL_SUCCESS)
		return err;
	*granularity = plan.granularity;
	return ACL_SUCCESS;
}

/*
 * aclrtReserveMemAddress - reserve size bytes of VA on the current device.
 * alignment is not checked (CANN passes it on); the driver aligns to 1 GiB
 * when size >= 1 GiB, else 2 MiB.  expectPtr: NULL, or a 2 MiB aligned
 * address that must be free in the device window (else 207001).
 * Errors: 100000 NULL virPtr, size 0, flags not 0/1; 107000 size not a
 * multiple of 2 MiB or expectPtr not 2 MiB aligned (the driver's checks);
 * 107002 no current device; 207001 no room / expectPtr refused.
 */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment,
						    void *expectPtr, uint64_t flags)
{
	struct npu_sim_vmm_reserve req = { .size = size, .addr = (uintptr_t)expectPtr };
	aclError err;
	int rc;

	(void)alignment;
	if (virPtr == NULL || size == 0 || flags > 1)
		return ACL_ERROR_INVALID_PARAM;
	if (size % NPU_SIM_VMM_GRANULE != 0 || (uintptr_t)expectPtr % NPU_SIM_VMM_GRANULE != 0) {
		npu_rt_msg_detail("size %zu and expectPtr must be multiples of 2 MiB", size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_ioctl_current(NPU_SIM_IOCTL_VMM_RESERVE, &req, &rc);
	if (err != ACL_SUCCESS)
		return err;
	if (rc == -EBUSY || rc == -EINVAL)
		return ACL_ERROR_RT_MEMORY_ALLOCATION;	/* size > window, or expectPtr taken */
	if (rc != 0)
		return npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_ADDR);
	*virPtr = (void *)(uintptr_t)req.va;
	if (npu_rt_check_flags) {
		int32_t dev = -1;

		struct npu_sim_check_site tag = { .va = req.va, .site = (uintptr_t)npu_rt_check_site(),
						  .op = NPU_SIM_CHECK_SET_SITE };

		(void)aclrtGetDevice(&dev);
		npu_rt_check_created(NPU_RT_CK_RESERVATION, dev, (uintptr_t)req.va, size);
		(void)npu_rt_ioctl_current(NPU_SIM_IOCTL_CHECK_SITE, &tag, &rc);
	}
	return ACL_SUCCESS;
}

/*
 * aclrtReleaseMemAddress - release a reservation by its start.  Errors:
 * 100000 NULL; 107000 not in a device window, not the start of a
 * reservation, or something is still mapped in it.
 */
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr)
{
	return drop_at(virPtr, NPU_SIM_IOCTL_VMM_RELEASE);
}

/*
 * aclrtMallocPhysical - create a physical memory object.  DEVICE memory
 * goes to device location.id (which must be open in this process) and is
 * charged to it; HOST / HOST_NUMA memory is host RAM created through the
 * current device and not charged.  Errors: 100000 NULL handle/prop,
 * flags != 0, size 0, prop refused by the ACL layer (vmm_rules.h); 107001
 * DEVICE id not a device; 107002 no current device (HOST locations) or the
 * DEVICE not set in this process; 107000 size not a multiple of the
 * granularity, HOST_NUMA id not an online node, a location the driver
 * refuses (vmm_rules.h); 207000
 * memAttr not supported on the product of the device (profile), or the
 * call not at all (Atlas 200I/500 A2); 207001 capacity, hugetlb pool or
 * host memory exhausted.
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
						 const aclrtPhysicalMemProp *prop, uint64_t flags)
{
	const struct npu_sim_profile *prof;
	struct npu_rt_phys_plan plan;
	struct npu_sim_phys_alloc req;
	aclError err;
	int dev, fd, rc;

	if (handle == NULL || flags != 0 || size == 0)
		return ACL_ERROR_INVALID_PARAM;
	err = npu_rt_plan_phys(prop, NPU_RT_MAX_DEVICES, &plan);
	if (err == ACL_SUCCESS && plan.location == NPU_SIM_LOC_DEVICE)
		err = npu_rt_device_id_check((int32_t)plan.location_id, "prop->location.id");
	if (err != ACL_SUCCESS)
		return err;

	if (plan.location == NPU_SIM_LOC_DEVICE) {
		dev = (int)plan.location_id;
		err = enter_device(dev, &fd);	/* 107002: not set in this process */
	} else {
		err = npu_rt_enter_current(&dev);
		fd = err == ACL_SUCCESS ? npu_rt_device_fd_locked(dev) : -1;
	}
	if (err != ACL_SUCCESS)
		return err;
	prof = npu_rt_device_profile_locked(dev);
	if (!npu_rt_profile_phys_ok(prof, (int)prop->memAttr, plan.page_kind)) {
		npu_rt_devices_unlock();
		if (prof->phys_attrs == 0)
			npu_rt_msg_detail("aclrtMallocPhysical is not supported on %s (profile %s, SoC %s)",
					  prof->product, prof->id, prof->soc_name);
		else
			npu_rt_msg_detail("memAttr %d is not supported on %s (profile %s, SoC %s)",
					  (int)prop->memAttr, prof->product, prof->id, prof->soc_name);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (size % plan.granularity != 0) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("size %zu is not a multiple of the granularity %llu", size,
				  (unsigned long long)plan.granularity);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	memset(&req, 0, sizeof(req));
	req.size = size;
	req.page_kind = plan.page_kind;
	req.location = plan.location;
	req.location_id = plan.location_id;
	req.flags = plan.flags;
	req.mem_attr = (uint32_t)prop->memAttr;
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &req);
	if ((rc == -ENOMEM || rc == -ENOSPC) && plan.location == NPU_SIM_LOC_DEVICE)	/* say which limit */
		npu_rt_alloc_diagnose(fd, size, plan.page_kind == NPU_SIM_PAGE_HUGE_1G ? NPU_SIM_BACKING_HUGE1G_ONLY :
					  plan.page_kind == NPU_SIM_PAGE_HUGE_2M ? NPU_SIM_BACKING_HUGE_ONLY :
					  NPU_SIM_BACKING_NORMAL);
	npu_rt_devices_unlock();
	if (rc != 0)	/* EINVAL (e.g. NUMA node not online): 107000 */
		return npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE);
	*handle = npu_rt_handle_encode(dev, req.handle);
	npu_rt_check_created(NPU_RT_CK_PHYS, dev, (uintptr_t)*handle, size);
	return ACL_SUCCESS;
}

/*
 * aclrtFreePhysical - drop one reference of handle; the memory is released
 * when it is also unmapped everywhere and no importer/exporter holds it.
 * Errors: 100000 NULL; 107002 its device is closed; 107017 not live
 * (freed twice, forged, not a handle of this library).
 */
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle)
{
	struct npu_sim_phys_free req;
	aclError err;
	uint32_t id;
	int dev, fd, rc;

	err = npu_rt_enter_handle(handle, &dev, &fd, &id);
	if (err != ACL_SUCCESS)
		return err;
	req = (struct npu_sim_phys_free){ .handle = id };
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_PHYS_FREE, &req);
	npu_rt_devices_unlock();
	if (rc == 0)
		npu_rt_check_destroyed(NPU_RT_CK_PHYS, (uintptr_t)handle);
	return rc != 0 ? npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE) : ACL_SUCCESS;
}

/* aclrtMapMem and aclrtMemMapNoAccess: VMM_MAP with drv_flags. */
static aclError map_mem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags,
			uint32_t drv_flags)
{
	struct npu_sim_vmm_map req;
	aclError err;
	uint32_t id;
	int dev, hdev, fd, rc;

	if (virPtr == NULL || size == 0 || flags != 0 || handle == NULL)
		return ACL_ERROR_INVALID_PARAM;
	/* The rest is the driver's: 107000, a forged handle 107017. */
	if (offset != 0 || (uintptr_t)virPtr % NPU_SIM_VMM_GRANULE != 0) {
		npu_rt_msg_detail(offset != 0 ? "offset %zu: only 0 is supported" :
				  "virPtr is not 2 MiB aligned (offset %zu)", offset);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (npu_rt_handle_decode(handle, NPU_RT_MAX_DEVICES, &hdev, &id) != 0) {
		npu_rt_msg_detail("the handle was not made by aclrtMallocPhysical or an import of this process");
		return ACL_ERROR_RT_INVALID_HANDLE;
	}
	err = enter_addr(virPtr, &dev, &fd);
	if (err != ACL_SUCCESS)
		return err;
	if (dev != hdev) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the handle is memory of device %d, virPtr a reservation of device %d", hdev, dev);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	memset(&req, 0, sizeof(req));
	req.va = (uintptr_t)virPtr;
	req.size = size;
	req.handle = id;
	req.flags = drv_flags;
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_VMM_MAP, &req);
	npu_rt_devices_unlock();
	return rc != 0 ? npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE) : ACL_SUCCESS;
}

/*
 * aclrtMapMem - map all of handle at virPtr, inside a reservation.
 * Errors: 100000 NULL virPtr or handle, size 0, flags != 0; 107017 handle
 * not live (or not of this library); 107000 offset != 0, virPtr not in a
 * device window or not 2 MiB aligned, handle of another device than
 * virPtr, size is not the handle's size, 1 GiB handle at a VA not 1 GiB
 * aligned, range not inside one reservation, or overlapping a live mapping
 * (nothing changes).
 */
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
					 uint64_t flags)
{
	return map_mem(virPtr, size, offset, handle, flags, 0);
}

/*
 * aclrtMemMapNoAccess - as aclrtMapMem, but the mapping has no access:
 * copies and sets touching it fail with 207006 until aclrtMemSetAccess
 * grants READWRITE.  Same arguments and errors as aclrtMapMem.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset,
						 aclrtDrvMemHandle handle, uint64_t flags)
{
	return map_mem(virPtr, size, offset, handle, flags, NPU_SIM_MAP_NO_ACCESS);
}

/*
 * aclrtUnmapMem - undo the aclrtMapMem that started at virPtr.  Errors:
 * 100000 NULL; 107000 not in a device window, no mapping starts there.
 */
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr)
{
	return drop_at(virPtr, NPU_SIM_IOCTL_VMM_UNMAP);
}

/*
 * aclrtMemSetAccess - record the access of the mapping [virPtr, +size) (the
 * last of the count descriptors wins).  The CANN ACL layer checks nothing
 * here: every refusal is 107000 (NULL virPtr/desc in the runtime; the rest
 * the driver's): size 0, count 0, flags other than READWRITE, location type
 * other than HOST/DEVICE, rsv not 0, virPtr not in a device window, not
 * exactly one mapping, or a DEVICE id the driver does not have.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc,
					       size_t count)
{
	struct npu_sim_vmm_set_access req;
	aclError err;
	int dev, fd, rc = 0;

	if (virPtr == NULL || size == 0 || desc == NULL || count == 0) {
		npu_rt_msg_detail("virPtr or desc is NULL, or size or count is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	for (size_t i = 0; i < count; i++) {
		static const uint8_t zero[sizeof(desc[i].rsv)];

		if (desc[i].flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE ||
		    (desc[i].location.type != ACL_MEM_LOCATION_TYPE_HOST &&
		     desc[i].location.type != ACL_MEM_LOCATION_TYPE_DEVICE) ||
		    memcmp(desc[i].rsv, zero, sizeof(zero)) != 0) {
			npu_rt_msg_detail("desc[%zu]: flags not READWRITE, location not HOST/DEVICE or rsv not 0", i);
			return ACL_ERROR_RT_PARAM_INVALID;
		}
	}
	err = enter_addr(virPtr, &dev, &fd);
	if (err != ACL_SUCCESS)
		return err;
	for (size_t i = 0; i < count && rc == 0; i++) {
		memset(&req, 0, sizeof(req));
		req.va = (uintptr_t)virPtr;
		req.size = size;
		req.access = NPU_SIM_ACCESS_READWRITE;
		if (desc[i].location.type == ACL_MEM_LOCATION_TYPE_DEVICE) {
			req.location = NPU_SIM_LOC_DEVICE;
			req.location_id = desc[i].location.id;
		} else {
			req.location = NPU_SIM_LOC_HOST;
		}
		rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_VMM_SET_ACCESS, &req);
	}
	npu_rt_devices_unlock();
	return rc != 0 ? npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_ADDR) : ACL_SUCCESS;
}

/* VMM_QUERY of a device address: 0 or a negative errno; -EFAULT = not device. */
static int query_addr(const void *p, uint32_t flags, int *dev, struct npu_sim_vmm_query *q)
{
	int fd, rc;

	if (npu_rt_enter_addr(p, 1, dev) != 0)
		return -EFAULT;
	fd = npu_rt_device_fd_locked(*dev);
	memset(q, 0, sizeof(*q));
	q->addr = (uintptr_t)p;
	q->flags = flags;
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_VMM_QUERY, q);
	npu_rt_devices_unlock();
	return rc;
}

/*
 * aclrtMemGetAccess - the access recorded for the mapping holding virPtr
 * (READWRITE at DEVICE <its device> right after aclrtMapMem).  Errors:
 * 100000 NULL argument; 107000 not in a device window, not mapped memory.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag)
{
	struct npu_sim_vmm_query q;
	int dev, rc;

	if (virPtr == NULL || location == NULL || flag == NULL)
		return ACL_ERROR_INVALID_PARAM;
	rc = query_addr(virPtr, 0, &dev, &q);
	if (rc != 0 || q.type != NPU_SIM_QUERY_MAP)
		return ACL_ERROR_RT_PARAM_INVALID;
	location->type = q.access_location == NPU_SIM_LOC_HOST ? ACL_MEM_LOCATION_TYPE_HOST :
								 ACL_MEM_LOCATION_TYPE_DEVICE;
	location->id = q.access_location_id;
	*flag = q.access;
	return ACL_SUCCESS;
}

/*
 * aclrtMemRetainAllocationHandle - the handle mapped at virPtr, with one
 * more reference (free it with aclrtFreePhysical; it revives a handle whose
 * owner already freed it while mapped).  Errors: 100000 NULL argument;
 * 107000 not in a device window, not mapped memory.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle)
{
	struct npu_sim_vmm_query q;
	int dev, rc;

	if (virPtr == NULL || handle == NULL)
		return ACL_ERROR_INVALID_PARAM;
	rc = query_addr(virPtr, NPU_SIM_QUERY_RETAIN, &dev, &q);
	if (rc != 0)
		return ACL_ERROR_RT_PARAM_INVALID;
	*handle = npu_rt_handle_encode(dev, q.handle);
	return ACL_SUCCESS;
}

static aclrtMemLocationType loc_type(uint32_t location)
{
	switch (location) {
	case NPU_SIM_LOC_HOST:
		return ACL_MEM_LOCATION_TYPE_HOST;
	case NPU_SIM_LOC_HOST_NUMA:
		return ACL_MEM_LOCATION_TYPE_HOST_NUMA;
	default:
		return ACL_MEM_LOCATION_TYPE_DEVICE;
	}
}

/*
 * aclrtMemGetAllocationPropertiesFromHandle - the prop the handle was made
 * with (imported handles: the exporter's).  Errors: 100000 NULL prop or
 * not a handle of this library; 107002 device closed; 107017 not live.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
								       aclrtPhysicalMemProp *prop)
{
	struct npu_sim_phys_info req;
	aclError err;
	uint32_t id;
	int dev, fd, rc;

	if (prop == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = npu_rt_enter_handle(handle, &dev, &fd, &id);
	if (err != ACL_SUCCESS)
		return err;
	req = (struct npu_sim_phys_info){ .handle = id };
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_PHYS_INFO, &req);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE);
	memset(prop, 0, sizeof(*prop));
	prop->handleType = ACL_MEM_HANDLE_TYPE_NONE;
	prop->allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	prop->memAttr = (aclrtMemAttr)req.mem_attr;
	prop->location.type = loc_type(req.location);
	prop->location.id = req.location_id;
	return ACL_SUCCESS;
}

/*
 * aclrtPointerGetAttributes - where ptr lives: DEVICE <id> (or HOST for
 * host-location VMM memory) with the backing page size for live device
 * memory of this process; HOST with the system page size for
 * aclrtMallocHost memory; UNREGISTERED with pageSize 0 for anything else
 * (other host memory, reservation holes, freed device memory).
 * Errors: 100000 NULL ptr or attributes.
 */
ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes)
{
	struct npu_sim_vmm_query q;
	uintptr_t base;
	size_t len;
	int dev, rc;

	if (ptr == NULL || attributes == NULL)
		return ACL_ERROR_INVALID_PARAM;
	memset(attributes, 0, sizeof(*attributes));
	rc = query_addr(ptr, 0, &dev, &q);
	if (rc == 0 && q.type != NPU_SIM_QUERY_RESERVED) {
		attributes->location.type = loc_type(q.location);
		attributes->location.id = q.location == NPU_SIM_LOC_DEVICE ? (uint32_t)dev : q.location_id;
		attributes->pageSize = npu_rt_page_kind_size(q.page_kind);
	} else if (rc == -EFAULT && npu_rt_host_find((uintptr_t)ptr, &base, &len)) {
		attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
		attributes->pageSize = 4096;
	} else {
		attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
	}
	return ACL_SUCCESS;
}

/*
 * aclrtMemGetAddressRange - base and size of what holds ptr: an aclrtMalloc
 * allocation (the size asked for), a VMM mapping (the handle size), or an
 * aclrtMallocHost block (page rounded).  pbase / psize may be NULL.
 * Errors: 100000 NULL ptr; 107000 ptr is in no live allocation or mapping.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize)
{
	struct npu_sim_vmm_query q;
	uintptr_t base;
	size_t len;
	int dev, rc;

	if (ptr == NULL)
		return ACL_ERROR_INVALID_PARAM;
	rc = query_addr(ptr, 0, &dev, &q);
	if (rc == 0 && q.type != NPU_SIM_QUERY_RESERVED) {
		base = (uintptr_t)q.base;
		len = (size_t)q.size;
	} else if (rc == -EFAULT && npu_rt_host_find((uintptr_t)ptr, &base, &len)) {
		/* base, len set */
	} else {
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (pbase != NULL)
		*pbase = (void *)base;
	if (psize != NULL)
		*psize = len;
	return ACL_SUCCESS;
}

/*
 * aclrtMemMapSelectedLink, aclrtMemMapSetLink: the link (SIO, HCCS, UB
 * paths) a mapping of a handle goes over.  The runtime keeps no link on
 * the host: it sets the driver's route attribute of the handle
 * (MemHandleSetAttribute, HANDLE_ATTR_MEM_MAP_ROUTE) and answers 207000
 * when the driver has none.  npu_sim's driver has one path between a
 * device and its memory and no route attribute, so after the runtime's
 * checks both calls answer 207000 and map nothing.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSelectedLink(void *virPtrDst, size_t size, void *virPtrSrc, uint32_t linkIdx)
{
	struct npu_sim_vmm_query q;
	int dev, rc;

	if (virPtrDst == NULL || virPtrSrc == NULL || size == 0 || linkIdx > ACL_RT_MEM_LINK_IDX_1) {
		npu_rt_msg_detail("virPtrDst %p, virPtrSrc %p (not NULL), size %zu (> 0) or linkIdx %u (0 or 1) refused",
				  virPtrDst, virPtrSrc, size, linkIdx);
		return ACL_ERROR_INVALID_PARAM;
	}
	/* the runtime takes the handle mapped at the start of virPtrSrc */
	rc = query_addr(virPtrSrc, 0, &dev, &q);
	if (rc != 0 || q.type != NPU_SIM_QUERY_MAP || q.base != (uintptr_t)virPtrSrc) {
		npu_rt_msg_detail("virPtrSrc %p is not the start of a VMM mapping (aclrtMapMem) of this process",
				  virPtrSrc);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_msg_detail("the driver has a single link and no route attribute for a handle");
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

ACL_FUNC_VISIBILITY aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink)
{
	if (handle == NULL) {
		npu_rt_msg_detail("handle is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if ((uint32_t)adviceLink > (uint32_t)ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH) {
		npu_rt_msg_detail("adviceLink %u is not an aclrtMemLinkType (0..3)", (uint32_t)adviceLink);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_msg_detail("the driver has a single link and no route attribute for a handle");
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

/*
 * aclrtReserveMemAddressNoUCMemory: a reservation as aclrtReserveMemAddress
 * makes, for memory that operators bypassing the L2 cache must not use.
 * npu_sim runs no operators, so only the call's stricter rules differ:
 * size a non-zero multiple of 1 GiB, and expectPtr given by the caller
 * (1 GiB aligned, inside the current device's VA window, free).
 */

#define SZ_1G (1ULL << 30)

ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment,
							      void *expectPtr, uint64_t flags)
{
	if (size == 0 || size % SZ_1G != 0) {
		npu_rt_msg_detail("size %zu is not a non-zero multiple of 1 GiB", size);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (expectPtr == NULL || (uintptr_t)expectPtr % SZ_1G != 0) {
		npu_rt_msg_detail("expectPtr %p must be given and 1 GiB aligned (the system does not pick it here)",
				  expectPtr);
		return ACL_ERROR_INVALID_PARAM;
	}
	return aclrtReserveMemAddress(virPtr, size, alignment, expectPtr, flags);
}
