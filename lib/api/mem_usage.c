/*
 * aclrtGetMemUsageInfo: memory use of a device by component, from the
 * driver's counters (MEM_INFO) and the peaks it keeps for this opening of
 * the device (MEM_PEAKS; aclrtSetDevice after a reset starts again from
 * zero).  Components, in this order:
 *   "process"  device memory this process holds on the device (all its
 *              allocations, physical handles and managed device copies);
 *   "device"   device memory held by all processes;
 *   "normal", "huge_2m", "huge_1g"  of "device", by backing page size;
 *   "p2p"      of "device", P2P memory.
 * The driver samples the counters before every release of device memory
 * (aclrtFree, aclrtFreePhysical, aclrtUnmapMem, aclrtReleaseMemAddress)
 * and at this call, so the "process" peak is exact; the device-wide peaks
 * are the highest values seen at those samples (changes by other processes
 * in between are not seen).
 */
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

enum { C_PROCESS, C_DEVICE, C_NORMAL, C_HUGE_2M, C_HUGE_1G, C_P2P, C_NR };

static const char *const names[C_NR] = { "process", "device", "normal", "huge_2m", "huge_1g", "p2p" };

/* Current sizes and peaks of open device dev (table lock held): 0 or a
 * negative errno. */
static int sample_locked(int dev, uint64_t cur[C_NR], uint64_t peak[C_NR])
{
	struct npu_sim_mem_info mi = { .flags = NPU_SIM_MEM_INFO_DEVICE_ONLY };
	struct npu_sim_mem_peaks mp;
	int fd = npu_rt_device_fd_locked(dev);
	int rc;

	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_MEM_INFO, &mi);
	memset(&mp, 0, sizeof(mp));
	if (rc == 0)
		rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_MEM_PEAKS, &mp);
	if (rc != 0)
		return rc;
	/* MEM_INFO and MEM_PEAKS name the components alike. */
#define COMPONENTS(out, in)                                                              \
	memcpy(out, (uint64_t[C_NR]){ (in).context_used, (in).used, (in).used_normal,  \
				     (in).used_huge_2m, (in).used_huge_1g, (in).used_p2p }, \
	       sizeof(uint64_t) * C_NR)
	COMPONENTS(cur, mi);
	COMPONENTS(peak, mp);
#undef COMPONENTS
	/* The peaks were sampled after the sizes: never below them. */
	for (int i = 0; i < C_NR; i++)
		if (peak[i] < cur[i])
			peak[i] = cur[i];
	return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo,
						  size_t inputNum, size_t *outputNum)
{
	uint64_t cur[C_NR], peak[C_NR];
	size_t n;
	aclError err;
	int rc;

	if (memUsageInfo == NULL || outputNum == NULL || inputNum == 0) {
		npu_rt_msg_detail("%s", memUsageInfo == NULL ? "memUsageInfo is NULL" :
				  outputNum == NULL ? "outputNum is NULL" : "inputNum is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (deviceId < 0 || deviceId >= NPU_RT_MAX_DEVICES) {
		npu_rt_msg_detail("deviceId %d is out of range 0..%d", deviceId, NPU_RT_MAX_DEVICES - 1);
		return ACL_ERROR_RT_INVALID_DEVICEID;
	}
	err = npu_rt_enter_device(deviceId);
	if (err != ACL_SUCCESS) {
		npu_rt_msg_detail("device %d is not set in this process (aclrtSetDevice)", deviceId);
		return err;
	}
	rc = sample_locked(deviceId, cur, peak);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	n = inputNum < C_NR ? inputNum : C_NR;
	for (size_t i = 0; i < n; i++) {
		memset(&memUsageInfo[i], 0, sizeof(memUsageInfo[i]));
		strncpy(memUsageInfo[i].name, names[i], sizeof(memUsageInfo[i].name) - 1);
		memUsageInfo[i].curMemSize = cur[i];
		memUsageInfo[i].memPeakSize = peak[i];
	}
	*outputNum = n;
	return ACL_SUCCESS;
}
