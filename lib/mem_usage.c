/*
 * aclrtGetMemUsageInfo: memory use of a device by component, from the
 * driver's counters (MEM_INFO).  Components, in this order:
 *   "process"  device memory this process holds on the device (all its
 *              allocations, physical handles and managed device copies);
 *   "device"   device memory held by all processes;
 *   "normal", "huge_2m", "huge_1g"  of "device", by backing page size;
 *   "p2p"      of "device", P2P memory.
 * The current sizes are read from the driver at the call.  Peaks are kept
 * by the library per opening of the device (aclrtSetDevice after a reset
 * starts again from zero): every call that can release device memory
 * (aclrtFree, aclrtFreePhysical, aclrtUnmapMem, aclrtReleaseMemAddress)
 * samples the counters first, so the "process" peak is exact for memory
 * this process released through those calls; the device-wide peaks are
 * the highest values this process saw at those samples and at its
 * aclrtGetMemUsageInfo calls (other processes are not watched).
 */
#include <pthread.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

enum { C_PROCESS, C_DEVICE, C_NORMAL, C_HUGE_2M, C_HUGE_1G, C_P2P, C_NR };

static const char *const names[C_NR] = { "process", "device", "normal", "huge_2m", "huge_1g", "p2p" };

struct usage_peaks {
	uint64_t epoch;
	uint64_t peak[C_NR];
};

static pthread_mutex_t usage_lock = PTHREAD_MUTEX_INITIALIZER;
static struct usage_peaks peaks[NPU_RT_MAX_DEVICES];

static void figures(const struct npu_sim_mem_info *mi, uint64_t cur[C_NR])
{
	cur[C_PROCESS] = mi->context_used;
	cur[C_DEVICE] = mi->used;
	cur[C_NORMAL] = mi->used_normal;
	cur[C_HUGE_2M] = mi->used_huge_2m;
	cur[C_HUGE_1G] = mi->used_huge_1g;
	cur[C_P2P] = mi->used_p2p;
}

/* Read the counters of open device dev (table lock held), fold them into
 * its peaks and give the current sizes and peaks: 0 or a negative errno. */
static int sample_locked(int dev, uint64_t cur[C_NR], uint64_t peak[C_NR])
{
	uint64_t epoch = npu_rt_device_epoch_locked(dev);
	struct npu_sim_mem_info mi;
	struct usage_peaks *p = &peaks[dev];
	int rc;

	memset(&mi, 0, sizeof(mi));
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEM_INFO, &mi);
	if (rc != 0)
		return rc;
	figures(&mi, cur);
	pthread_mutex_lock(&usage_lock);
	if (p->epoch != epoch)
		*p = (struct usage_peaks){ .epoch = epoch };
	for (int i = 0; i < C_NR; i++) {
		if (cur[i] > p->peak[i])
			p->peak[i] = cur[i];
		peak[i] = p->peak[i];
	}
	pthread_mutex_unlock(&usage_lock);
	return 0;
}

void npu_rt_usage_sample_locked(int dev)
{
	uint64_t cur[C_NR], peak[C_NR];

	(void)sample_locked(dev, cur, peak);
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

void npu_rt_usage_atfork_prepare(void)
{
	pthread_mutex_lock(&usage_lock);
}

void npu_rt_usage_atfork_parent(void)
{
	pthread_mutex_unlock(&usage_lock);
}

void npu_rt_usage_atfork_child(void)
{
	memset(peaks, 0, sizeof(peaks));
	pthread_mutex_init(&usage_lock, NULL);
}
