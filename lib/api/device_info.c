/*
 * Device information: aclrtGetDeviceInfo, aclrtGetDeviceCapability,
 * aclGetDeviceCapability, aclrtQueryDeviceStatus,
 * aclrtGetDeviceUtilizationRate, aclrtDeviceGetUuid, the PCI bus id
 * calls, the logic / physical / user device-id mappings,
 * aclrtGetDevicesTopo, the atomic capabilities, aclrtCheckArchCompatibility
 * and aclrtGetPrimaryCtxState.
 *
 * Memory figures come from the driver (GET_PARAM, MEM_INFO); the compute
 * figures are the platform specification of the SoC the driver poses as
 * (rules/platform_spec.c), the same source the CANN runtime reads them
 * from.  A device need not be set to be asked about: a device this process
 * has not opened is opened just for the question.  Checks and their codes
 * follow docs/cann-api-notes.md section 8.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_internal.h"
#include "device_info.h"
#include "device_rules.h"
#include "err_msg.h"
#include "platform_spec.h"
#include "profile.h"

/* GET_PARAM param of device dev, open in this process or not: 0 or a
 * negative errno. */
static int device_param(int32_t dev, uint32_t param, uint64_t *v)
{
	int rc, fd;

	if (npu_rt_enter_device(dev) == ACL_SUCCESS) {
		rc = npu_rt_get_param(npu_rt_device_fd_locked(dev), param, v);
		npu_rt_devices_unlock();
		return rc;
	}
	rc = npu_rt_open_device(dev, &fd);
	if (rc != 0)
		return rc;
	rc = npu_rt_check_api_version(fd);
	if (rc == 0)
		rc = npu_rt_get_param(fd, param, v);
	close(fd);
	return rc;
}

static aclError param_error(int rc)
{
	if (rc == -ENOENT || rc == -ENODEV || rc == -ENXIO)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	if (rc == -EPROTO)
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	return npu_rt_errno_to_acl(-rc);
}

/* The SoC name the driver of device dev poses as. */
static const char *device_soc(int32_t dev)
{
	uint64_t index = 0;

	if (device_param(dev, NPU_SIM_PARAM_PROFILE, &index) != 0)
		index = 0;	/* a driver before 1.6: the default product */
	return npu_rt_profile_get(index)->soc_name;
}

const struct npu_rt_platform_spec *npu_rt_device_spec(int32_t dev)
{
	return npu_rt_platform_spec(device_soc(dev));
}

/* 0 when dev is a device of the module; else the message and -1. */
static int in_range(int64_t dev, const char *what)
{
	uint32_t n = 0;

	if (dev < 0 || dev > INT32_MAX || aclrtGetDeviceCount(&n) != ACL_SUCCESS || dev >= n) {
		npu_rt_msg_begin();
		npu_rt_msg_detail("%s %lld is out of range: the module has %u devices", what, (long long)dev, n);
		return -1;
	}
	return 0;
}

static aclError not_supported(const char *what)
{
	npu_rt_msg_detail("%s: npu_sim has no such unit (a memory device without compute units)", what);
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)
{
	const struct npu_rt_platform_spec *s;
	uint64_t cap = 0;
	int rc;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (in_range(deviceId, "deviceId") != 0)
		return ACL_ERROR_RT_PARAM_INVALID;
	s = npu_rt_device_spec((int32_t)deviceId);
	switch ((int)attr) {
	case ACL_DEV_ATTR_AICORE_CORE_NUM:
		*value = s ? s->ai_cores : 0;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_CUBE_CORE_NUM:
		*value = s ? s->cube_cores : 0;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_VECTOR_CORE_NUM:
		*value = s ? s->vector_cores : 0;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_L2_CACHE_SIZE:
		*value = s ? s->l2_size : 0;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_NPU_ARCH:
		if (s == NULL || s->npu_arch <= 0) {
			npu_rt_msg_detail("no NPU architecture known for SoC %s", device_soc((int32_t)deviceId));
			return ACL_ERROR_RT_PARAM_INVALID;
		}
		*value = s->npu_arch;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
		rc = device_param((int32_t)deviceId, NPU_SIM_PARAM_CAPACITY, &cap);
		if (rc != 0)
			return param_error(rc);
		*value = (int64_t)cap;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_SMP_ID:		/* every device is on this host's OS */
	case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:	/* no custom operators run */
	case ACL_DEV_ATTR_IS_VIRTUAL:		/* no compute power splitting */
		*value = 0;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_PHY_CHIP_ID:		/* one chip per device node */
		*value = deviceId;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_AICPU_CORE_NUM:
		return not_supported("AI CPU");
	case ACL_DEV_ATTR_WARP_SIZE:
	case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
	case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
	case ACL_DEV_ATTR_MAX_GRID_DIM_X:
	case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
	case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
	case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
	case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
	case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
	case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
	case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
		return not_supported("SIMT vector core");
	case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
	case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
	case ACL_DEV_ATTR_SUPER_POD_ID:
		return not_supported("super pod");
	case ACL_DEV_ATTR_MAINBOARD_ID:
	case ACL_DEV_ATTR_HD_CONNECT_TYPE:
	case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
		return not_supported("board (mainboard, host link, form factor)");
	default:
		npu_rt_msg_detail("attr %d is not an aclrtDevAttr", (int)attr);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
}

/* The ACL layer's own check (no runtime call): deviceId against the count. */
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value)
{
	const struct npu_rt_platform_spec *s;
	uint32_t n = 0;
	aclError err;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = aclrtGetDeviceCount(&n);
	if (err != ACL_SUCCESS)
		return err;
	if (deviceId >= n) {
		npu_rt_msg_begin();
		npu_rt_msg_detail("deviceId %u is not below the device count %u", deviceId, n);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (deviceInfo != ACL_DEVICE_INFO_AI_CORE_NUM && deviceInfo != ACL_DEVICE_INFO_VECTOR_CORE_NUM &&
	    deviceInfo != ACL_DEVICE_INFO_L2_SIZE) {
		npu_rt_msg_detail("deviceInfo %d is not AI_CORE_NUM, VECTOR_CORE_NUM or L2_SIZE", (int)deviceInfo);
		return ACL_ERROR_INVALID_PARAM;
	}
	s = npu_rt_device_spec((int32_t)deviceId);
	if (s == NULL)
		*value = 0;
	else
		*value = deviceInfo == ACL_DEVICE_INFO_AI_CORE_NUM ? s->ai_cores :
			 deviceInfo == ACL_DEVICE_INFO_VECTOR_CORE_NUM ? s->vector_cores : s->l2_size;
	return ACL_SUCCESS;
}

/* The runtime's feature ids beyond the two of the header (rtFeatureType). */
#define NPU_RT_FEATURE_AICPU_SCHEDULE_TYPE	10001
#define NPU_RT_FEATURE_SYSTEM_TASKID_BIT_WIDTH	20001

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
						      int32_t *value)
{
	int f = (int)devFeatureType;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (f != ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV && f != ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV &&
	    f != NPU_RT_FEATURE_AICPU_SCHEDULE_TYPE && f != NPU_RT_FEATURE_SYSTEM_TASKID_BIT_WIDTH) {
		npu_rt_msg_detail("devFeatureType %d is not an aclrtDevFeatureType", f);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (in_range(deviceId, "deviceId") != 0)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	/* no task scheduler CPU, AI CPU or message queues: none is there */
	*value = ACL_DEV_FEATURE_NOT_SUPPORT;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus)
{
	uint64_t index = 0;
	int rc;

	if (deviceStatus == NULL) {
		npu_rt_msg_detail("deviceStatus is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (in_range(deviceId, "deviceId") != 0)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	/* the device answers: it is running */
	rc = device_param(deviceId, NPU_SIM_PARAM_DEVICE_INDEX, &index);
	*deviceStatus = rc == 0 && index == (uint64_t)deviceId ? ACL_RT_DEVICE_STATUS_NORMAL :
								 ACL_RT_DEVICE_STATUS_ABNORMAL;
	return ACL_SUCCESS;
}

/* Percent of device dev's memory in use (all processes); -1 unknown. */
static int32_t memory_percent(int32_t dev)
{
	struct npu_sim_mem_info mi = { 0 };
	int rc;

	if (npu_rt_enter_device(dev) != ACL_SUCCESS)
		return -1;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEM_INFO, &mi);
	npu_rt_devices_unlock();
	if (rc != 0 || mi.capacity == 0)
		return -1;
	return (int32_t)(mi.used * 100 / mi.capacity);
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo)
{
	int32_t cur = -1, busy = -1;

	if (utilizationInfo == NULL) {
		npu_rt_msg_detail("utilizationInfo is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (utilizationInfo->utilizationExtend != NULL) {
		npu_rt_msg_detail("utilizationInfo->utilizationExtend is reserved and must be NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	/* the runtime answers only for the calling thread's device, else -1 */
	if (aclrtGetDevice(&cur) == ACL_SUCCESS && cur == deviceId)
		busy = 0;	/* no compute unit ever runs: idle */
	utilizationInfo->cubeUtilization = busy;
	utilizationInfo->vectorUtilization = busy;
	utilizationInfo->aicpuUtilization = busy;
	utilizationInfo->memoryUtilization = busy < 0 ? -1 : memory_percent(deviceId);
	return ACL_SUCCESS;
}

/* The boot id of this host (16 bytes); -1 when unreadable. */
static int boot_id(unsigned char out[16])
{
	char s[64];
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	int n = 0;

	if (f == NULL)
		return -1;
	if (fgets(s, sizeof(s), f) == NULL)
		s[0] = '\0';
	fclose(f);
	for (const char *p = s; *p && n < 32; p++) {
		int v = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (v < 0)
			continue;
		if (n % 2 == 0)
			out[n / 2] = (unsigned char)(v << 4);
		else
			out[n / 2] |= (unsigned char)v;
		n++;
	}
	return n == 32 ? 0 : -1;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid)
{
	unsigned char boot[16], id[16];

	if (uuid == NULL) {
		npu_rt_msg_detail("uuid is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (in_range(deviceId, "deviceId") != 0)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	if (boot_id(boot) != 0) {
		npu_rt_msg_detail("cannot read /proc/sys/kernel/random/boot_id");
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
	npu_rt_device_uuid(boot, deviceId, id);
	memcpy(uuid->bytes, id, sizeof(id));
	return ACL_SUCCESS;
}

/* The PCI address of device dev's node, from sysfs; -1 when it has none. */
static int pci_address(int32_t dev, char *out, size_t outsz)
{
	char link[96], target[4096];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/npu_sim/npu_sim%d/device", (int)dev);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	if (strstr(target, "/pci") == NULL || strlen(base) >= outsz)
		return -1;
	strcpy(out, base);
	return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len)
{
	char addr[64];

	if (pciBusId == NULL) {
		npu_rt_msg_detail("pciBusId is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (in_range(deviceId, "deviceId") != 0)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	if (pci_address(deviceId, addr, sizeof(addr)) != 0) {
		npu_rt_msg_detail("/dev/npu_sim%d is not a PCI device (no PCI bus id)", (int)deviceId);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (len <= 0 || (size_t)len <= strlen(addr)) {
		npu_rt_msg_detail("len %d does not hold \"%s\" and its NUL", (int)len, addr);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	strcpy(pciBusId, addr);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId)
{
	char addr[64];
	uint32_t n = 0;
	bool any = false;

	if (pciBusId == NULL || deviceId == NULL) {
		npu_rt_msg_detail("%s is NULL", pciBusId == NULL ? "pciBusId" : "deviceId");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (aclrtGetDeviceCount(&n) != ACL_SUCCESS)
		n = 0;
	npu_rt_msg_begin();
	for (uint32_t i = 0; i < n; i++) {
		if (pci_address((int32_t)i, addr, sizeof(addr)) != 0)
			continue;
		any = true;
		if (strcasecmp(addr, pciBusId) == 0) {
			*deviceId = (int32_t)i;
			return ACL_SUCCESS;
		}
	}
	if (!any) {
		npu_rt_msg_detail("no npu_sim device is a PCI device (no PCI bus ids)");
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	npu_rt_msg_detail("no device has PCI bus id \"%.32s\"", pciBusId);
	return ACL_ERROR_RT_PARAM_INVALID;
}

/*
 * The id mappings.  npu_sim has no ASCEND_RT_VISIBLE_DEVICES remapping
 * and no virtual devices, so user, logic and physical ids coincide; each
 * call still checks that the id names a device.  A negative id is the
 * runtime's 107000 (rts*), an id past the devices 107001.
 */
static aclError map_id(int32_t from, int32_t *to, const char *what, const char *out)
{
	if (to == NULL) {
		npu_rt_msg_detail("%s is NULL", out);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (from < 0) {
		npu_rt_msg_detail("%s %d is negative", what, (int)from);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (in_range(from, what) != 0)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	*to = from;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId)
{
	return map_id(phyDevId, logicDevId, "phyDevId", "logicDevId");
}

ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId)
{
	return map_id(logicDevId, phyDevId, "logicDevId", "phyDevId");
}

ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId)
{
	return map_id(userDevid, logicDevId, "userDevid", "logicDevId");
}

ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid)
{
	return map_id(logicDevId, userDevid, "logicDevId", "userDevid");
}

ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId)
{
	return map_id(userDevId, phyDevId, "userDevId", "phyDevId");
}

ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId)
{
	return map_id(phyDevId, userDevId, "phyDevId", "userDevId");
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value)
{
	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (in_range(deviceId, "deviceId") != 0 || in_range(otherDeviceId, "otherDeviceId") != 0)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	/* every pair is on one host and one socket: the driver copies
	 * between their pages in host memory */
	*value = deviceId == otherDeviceId ? ACL_RT_DEVS_TOPOLOGY_HCCS : ACL_RT_DEVS_TOPOLOGY_SYS;
	return ACL_SUCCESS;
}

/* The runtime's range of aclrtAtomicOperation values (gaps included). */
static aclError atomic_args(uint32_t *caps, const aclrtAtomicOperation *ops, uint32_t count)
{
	if (caps == NULL || ops == NULL) {
		npu_rt_msg_detail("%s is NULL", caps == NULL ? "capabilities" : "operations");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (count == 0) {
		npu_rt_msg_detail("count is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

static aclError atomic_ops_check(const aclrtAtomicOperation *ops, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		if ((int)ops[i] < ACL_RT_ATOMIC_OPERATION_INTEGER_ADD ||
		    (int)ops[i] > ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH) {
			npu_rt_msg_detail("operations[%u] is %d, not an aclrtAtomicOperation", i, (int)ops[i]);
			return ACL_ERROR_RT_PARAM_INVALID;
		}
	}
	return ACL_SUCCESS;
}

/*
 * Atomics between host and device need a UB host link and between devices
 * an HCCS/SIO/UB one; npu_sim devices reach the host and each other
 * through host memory (topology SYS), so every capability is 0, as the
 * runtime reports for such a link.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t *capabilities,
								  const aclrtAtomicOperation *operations,
								  const uint32_t count, int32_t deviceId)
{
	aclError err = atomic_args(capabilities, operations, count);

	if (err != ACL_SUCCESS)
		return err;
	if (in_range(deviceId, "deviceId") != 0)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	err = atomic_ops_check(operations, count);
	if (err != ACL_SUCCESS)
		return err;
	memset(capabilities, 0, count * sizeof(*capabilities));
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t *capabilities,
								 const aclrtAtomicOperation *operations,
								 const uint32_t count, int32_t srcDeviceId,
								 int32_t dstDeviceId)
{
	aclError err = atomic_args(capabilities, operations, count);

	if (err != ACL_SUCCESS)
		return err;
	if (srcDeviceId == dstDeviceId) {
		npu_rt_msg_detail("srcDeviceId and dstDeviceId are both %d", (int)srcDeviceId);
		return ACL_ERROR_RT_INVALID_DEVICEID;
	}
	if (in_range(srcDeviceId, "srcDeviceId") != 0 || in_range(dstDeviceId, "dstDeviceId") != 0)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	err = atomic_ops_check(operations, count);
	if (err != ACL_SUCCESS)
		return err;
	memset(capabilities, 0, count * sizeof(*capabilities));
	return ACL_SUCCESS;
}

/* Operators built for socVersion run here when its NpuArch is the posed
 * SoC's. */
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible)
{
	const char *here;
	int32_t theirs, ours;

	if (socVersion == NULL || canCompatible == NULL) {
		npu_rt_msg_detail("%s is NULL", socVersion == NULL ? "socVersion" : "canCompatible");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (socVersion[0] == '\0') {
		npu_rt_msg_detail("socVersion is empty");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (npu_rt_platform_npu_arch(socVersion, &theirs) != 0) {
		npu_rt_msg_detail("socVersion \"%.64s\" is not a known SoC version", socVersion);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	here = aclrtGetSocName();
	if (here == NULL || npu_rt_platform_npu_arch(here, &ours) != 0) {
		npu_rt_msg_begin();
		npu_rt_msg_detail("the SoC version of this machine is %s", here ? here : "unknown (no device)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	*canCompatible = theirs == ours ? 1 : 0;
	return ACL_SUCCESS;
}

/* The primary context is the device context aclrtSetDevice opened in this
 * process; flags is reserved (must be NULL), as the ACL layer checks. */
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active)
{
	if (active == NULL) {
		npu_rt_msg_detail("active is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (flags != NULL) {
		npu_rt_msg_detail("flags is reserved and must be NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (in_range(deviceId, "deviceId") != 0)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	if (npu_rt_enter_device(deviceId) == ACL_SUCCESS) {
		npu_rt_devices_unlock();
		*active = 1;
	} else {
		*active = 0;
	}
	return ACL_SUCCESS;
}
