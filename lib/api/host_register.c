/*
 * Registered host memory: aclrtHostRegister, aclrtHostRegisterV2,
 * aclrtHostGetDevicePointer, aclrtHostUnregister over HOST_REGISTER /
 * HOST_UNREGISTER, and aclrtHostMemMapCapabilities.  The driver pins the
 * host pages (against RLIMIT_MEMLOCK) and maps them into the current
 * device's window; copies and sets through the device address read and
 * write the host memory.
 *
 * The library keeps the table host range -> device address (one entry per
 * registration, on the device and opening it was made on), so that
 * aclrtHostGetDevicePointer answers for interior pointers and
 * aclrtHostUnregister finds the device.  Entries of a device that was
 * reset since are dropped (the driver dropped the registration with the
 * device file).  Table lock: inside the device table lock (acl_internal.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "races.h"
#include "err_msg.h"

struct host_reg {
	struct host_reg *next;
	uintptr_t host;
	uint64_t size;
	uintptr_t dev_va;
	int dev;
	uint64_t epoch;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct host_reg *regs;

/* Drop entries of closed or reopened devices (both locks held). */
static void prune_locked(void)
{
	for (struct host_reg **pp = &regs, *r; (r = *pp) != NULL;) {
		if (npu_rt_device_epoch_locked(r->dev) != r->epoch) {
			*pp = r->next;
			free(r);
		} else {
			pp = &r->next;
		}
	}
}

/* The live entry whose host range holds [p, p + len) / overlaps it. */
static struct host_reg *find_locked(uintptr_t p, uint64_t len, int overlap)
{
	for (struct host_reg *r = regs; r != NULL; r = r->next) {
		if (overlap ? p < r->host + r->size && r->host < p + len :
			      p >= r->host && p - r->host < r->size)
			return r;
	}
	return NULL;
}

static aclError do_register(void *ptr, uint64_t size, uint32_t drv_flags, void **devPtr)
{
	struct npu_sim_host_register req;
	struct host_reg *r;
	aclError err;
	int dev, rc;

	if ((uintptr_t)ptr > UINTPTR_MAX - size) {
		npu_rt_msg_detail("[%p, +%" PRIu64 ") wraps around the address space", ptr, size);
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	if (npu_rt_locate_locked(ptr, size).kind != NPU_RT_LOC_HOST) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("[%p, +%" PRIu64 ") is device memory, not host memory", ptr, size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	pthread_mutex_lock(&reg_lock);
	prune_locked();
	if (find_locked((uintptr_t)ptr, size, 1) != NULL) {
		pthread_mutex_unlock(&reg_lock);
		npu_rt_devices_unlock();
		free(r);
		npu_rt_msg_detail("[%p, +%" PRIu64 ") overlaps host memory registered already", ptr, size);
		return ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	}
	memset(&req, 0, sizeof(req));
	req.addr = (uintptr_t)ptr;
	req.size = size;
	req.flags = drv_flags;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_HOST_REGISTER, &req);
	if (rc == 0) {
		*r = (struct host_reg){ .next = regs, .host = (uintptr_t)ptr, .size = size,
					.dev_va = (uintptr_t)req.va, .dev = dev,
					.epoch = npu_rt_device_epoch_locked(dev) };
		regs = r;
		if (devPtr != NULL)
			*devPtr = (void *)(uintptr_t)req.va;
	}
	pthread_mutex_unlock(&reg_lock);
	npu_rt_devices_unlock();
	if (rc == 0)
		npu_rt_races_registered(ptr, r->dev_va, size, dev);
	if (rc == 0)
		return ACL_SUCCESS;
	free(r);
	if (rc == -ENOMEM) {
		npu_rt_msg_detail("pinning %" PRIu64 " bytes at %p exceeds RLIMIT_MEMLOCK (ulimit -l) or memory",
				  size, ptr);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	if (rc == -EFAULT) {
		npu_rt_msg_detail("[%p, +%" PRIu64 ") is not mapped %shost memory of this process", ptr, size,
				  drv_flags & NPU_SIM_HOSTREG_READONLY ? "" : "writable ");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return npu_rt_errno_to_acl(-rc);
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type,
					       void **devPtr)
{
	if (ptr == NULL || devPtr == NULL || size == 0) {
		npu_rt_msg_detail("%s", ptr == NULL ? "ptr is NULL" : devPtr == NULL ? "devPtr is NULL" : "size is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	/* The runtime takes any OR of IOMEMORY and READONLY (MAPPED is 0). */
	if (((uint32_t)type & ~(uint32_t)(ACL_HOST_REGISTER_IOMEMORY | ACL_HOST_REGISTER_READONLY)) != 0) {
		npu_rt_msg_detail("type 0x%x is not an OR of ACL_HOST_REGISTER_IOMEMORY and _READONLY (or MAPPED, 0)",
				  (unsigned)type);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	return do_register(ptr, size, (uint32_t)type & ACL_HOST_REGISTER_READONLY ? NPU_SIM_HOSTREG_READONLY : 0,
			   devPtr);
}

#define HOST_REG_V2_MASK (ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED)

ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
	if (ptr == NULL || size == 0) {
		npu_rt_msg_detail("%s", ptr == NULL ? "ptr is NULL" : "size is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	if ((flag & HOST_REG_V2_MASK) == 0 || (flag & ~HOST_REG_V2_MASK) != 0) {
		npu_rt_msg_detail("flag 0x%x is not a non-empty OR of ACL_HOST_REG_MAPPED, _IOMEMORY, _READONLY, _PINNED",
				  flag);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return do_register(ptr, size, flag & ACL_HOST_REG_READONLY ? NPU_SIM_HOSTREG_READONLY : 0, NULL);
}

ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
	struct host_reg *r;
	uintptr_t va = 0;
	aclError err;
	int dev;

	if (pHost == NULL || pDevice == NULL || flag != 0) {
		npu_rt_msg_detail("%s", pHost == NULL ? "pHost is NULL" : pDevice == NULL ? "pDevice is NULL" :
				  "flag is reserved and must be 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_enter_current(&dev);	/* the runtime asks the current context */
	if (err != ACL_SUCCESS)
		return err;
	pthread_mutex_lock(&reg_lock);
	prune_locked();
	r = find_locked((uintptr_t)pHost, 1, 0);
	if (r != NULL)
		va = r->dev_va + ((uintptr_t)pHost - r->host);
	pthread_mutex_unlock(&reg_lock);
	npu_rt_devices_unlock();
	if (r == NULL) {
		npu_rt_msg_detail("%p is not in registered host memory", pHost);
		return ACL_ERROR_RT_PARAM_INVALID;	/* the runtime's answer */
	}
	*pDevice = (void *)va;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr)
{
	struct npu_sim_host_unregister req;
	struct host_reg **pp, *r = NULL;
	aclError err;
	int dev, rc = 0;

	if (ptr == NULL) {
		npu_rt_msg_detail("ptr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_enter_current(&dev);	/* the runtime asks the current context */
	if (err != ACL_SUCCESS)
		return err;
	pthread_mutex_lock(&reg_lock);
	prune_locked();
	for (pp = &regs; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->host == (uintptr_t)ptr) {
			r = *pp;
			break;
		}
	}
	if (r != NULL) {
		memset(&req, 0, sizeof(req));
		req.va = r->dev_va;
		rc = npu_rt_ioctl(npu_rt_device_fd_locked(r->dev), NPU_SIM_IOCTL_HOST_UNREGISTER, &req);
		if (rc == 0)
			*pp = r->next;
	}
	pthread_mutex_unlock(&reg_lock);
	npu_rt_devices_unlock();
	if (r == NULL) {
		npu_rt_msg_detail("%p is not the start of a host registration of this process", ptr);
		return ACL_ERROR_HOST_MEMORY_NOT_REGISTERED;
	}
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	npu_rt_races_unregistered(ptr, r->dev_va);	/* unordered queued work: USE-AFTER-FREE */
	free(r);
	return ACL_SUCCESS;
}

/*
 * aclrtHostMemMapCapabilities: which unit of the device reaches registered
 * host memory.  npu_sim's copies and sets through a registered range's
 * device address are made by its copy engine, which stands for the SDMA
 * engine; it has none of the other units (compute, AI CPU, RDMA, DVPP ...)
 * and the stream scheduler does not touch host memory.
 */
ACL_FUNC_VISIBILITY aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
							 aclrtHostMemMapCapability *capabilities)
{
	aclError err;
	int dev;

	if (capabilities == NULL) {
		npu_rt_msg_detail("capabilities is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_device_id_check(deviceId > INT32_MAX ? -1 : (int32_t)deviceId, "deviceId");
	if (err != ACL_SUCCESS)
		return err;
	if ((uint32_t)hacType > (uint32_t)ACL_RT_HAC_TYPE_CCU) {
		npu_rt_msg_detail("hacType %u is not an aclrtHacType (0..%d)", (uint32_t)hacType,
				  (int)ACL_RT_HAC_TYPE_CCU);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	/* the runtime asks the driver through the current context */
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	*capabilities = hacType == ACL_RT_HAC_TYPE_SDMA ? ACL_RT_HOST_MEM_MAP_SUPPORTED :
			ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
	return ACL_SUCCESS;
}

/* ---- fork: the child has no device files, so no registrations -------- */

void npu_rt_hostreg_atfork_prepare(void)
{
	pthread_mutex_lock(&reg_lock);
}

void npu_rt_hostreg_atfork_parent(void)
{
	pthread_mutex_unlock(&reg_lock);
}

void npu_rt_hostreg_atfork_child(void)
{
	while (regs != NULL) {
		struct host_reg *r = regs;

		regs = r->next;
		free(r);
	}
	pthread_mutex_init(&reg_lock, NULL);
}
