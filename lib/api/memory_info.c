/*
 * The memory queries of the "Linear device memory" chapter:
 * aclrtGetMemInfo, aclrtGetMemUsageInfo and aclrtCheckMemType.
 * (aclrtPointerGetAttributes and aclrtMemGetAddressRange ask VMM_QUERY,
 * which also knows VMM mappings: vmm.c.)
 *
 * aclrtGetMemInfo: the driver's device-wide counters (MEM_INFO ioctl),
 * turned into per-class figures by the pure meminfo_rules.c for the product
 * the device poses as (rules/profile.h), clamped to the process's limit
 * that the same ioctl reports.
 */
#include <string.h>

#include "acl_internal.h"
#include "meminfo_rules.h"
#include "err_msg.h"

/*
 * Device memory: total becomes at most the process's limit (diag/limits.c),
 * free at most the limit minus its charged bytes; MEM_INFO reports both.
 */
static void limit_clamp(const struct npu_sim_mem_info *mi, size_t *free_bytes, size_t *total_bytes)
{
	uint64_t left;

	if (mi->limit_effective == 0)
		return;
	left = mi->limit_used < mi->limit_effective ? mi->limit_effective - mi->limit_used : 0;
	if ((uint64_t)*total_bytes > mi->limit_effective)
		*total_bytes = (size_t)mi->limit_effective;
	if ((uint64_t)*free_bytes > left)
		*free_bytes = (size_t)left;
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)
{
	struct npu_rt_mem_info_how how;
	const struct npu_sim_profile *prof;
	struct npu_sim_mem_info mi;
	size_t f, t;
	aclError err;
	int dev, rc;

	if (free == NULL || total == NULL)
		return ACL_ERROR_INVALID_PARAM;
	how = npu_rt_mem_info_how((int)attr, NULL);
	if (how.err != ACL_SUCCESS) {	/* before the context, as in the runtime */
		npu_rt_msg_detail("attr %d is outside aclrtMemAttr", (int)attr);
		return how.err;
	}

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	prof = npu_rt_device_profile_locked(dev);
	how = npu_rt_mem_info_how((int)attr, prof);
	memset(&mi, 0, sizeof(mi));
	/* One ioctl: the pool and host figures only when the class needs them. */
	if (how.device_only)
		mi.flags = NPU_SIM_MEM_INFO_DEVICE_ONLY;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEM_INFO, &mi);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);

	if (how.err != ACL_SUCCESS) {
		npu_rt_msg_detail("attr %d is a 1 GiB class; %s has no 1 GiB pages", (int)attr, prof->product);
		return how.err;
	}
	npu_rt_mem_info_read(&how, &mi, &f, &t);
	if (how.is_device)
		limit_clamp(&mi, &f, &t);
	*free = f;
	*total = t;
	return ACL_SUCCESS;
}

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

	if (memUsageInfo == NULL || outputNum == NULL) {
		npu_rt_msg_detail("%s is NULL", memUsageInfo == NULL ? "memUsageInfo" : "outputNum");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (inputNum == 0) {	/* a runtime check: *outputNum is set first */
		*outputNum = 0;
		npu_rt_msg_detail("inputNum is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_device_id_check(deviceId, "deviceId");
	if (err != ACL_SUCCESS)
		return err;
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

/*
 * aclrtCheckMemType: whether every address of a list is of one of the
 * memory types in memType.  An address is ACL_RT_MEM_TYPE_DEV when it lies
 * in a live aclrtMalloc-family allocation of this process,
 * ACL_RT_MEM_TYPE_RSVD when it lies in a reservation of
 * aclrtReserveMemAddress (mapped or not), and of no type otherwise.
 * npu_sim has no DVPP memory, so no address is ACL_RT_MEM_TYPE_DVPP.
 */

#define MEM_TYPES (ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD)

/* The ACL_RT_MEM_TYPE_* bit of p, 0 when it is none. */
static uint32_t type_of(const void *p)
{
	struct npu_sim_vmm_query q;
	struct npu_rt_loc loc;
	uint32_t type = 0;

	npu_rt_devices_read_lock();
	loc = npu_rt_locate_locked(p, 1);
	if (loc.kind == NPU_RT_LOC_DEVICE) {
		memset(&q, 0, sizeof(q));
		q.addr = (uintptr_t)p;
		if (npu_rt_ioctl(npu_rt_device_fd_locked(loc.dev), NPU_SIM_IOCTL_VMM_QUERY, &q) != 0)
			q.type = 0;
		if (q.type == NPU_SIM_QUERY_ALLOC)
			type = ACL_RT_MEM_TYPE_DEV;
		else if (q.type == NPU_SIM_QUERY_MAP || q.type == NPU_SIM_QUERY_RESERVED)
			type = ACL_RT_MEM_TYPE_RSVD;
	}
	npu_rt_devices_unlock();
	return type;
}

ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType,
					       uint32_t *checkResult, uint32_t reserve)
{
	uint32_t match = 1;

	if (addrList == NULL || checkResult == NULL) {
		npu_rt_msg_detail("%s is NULL", addrList == NULL ? "addrList" : "checkResult");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (size == 0 || reserve != 0) {
		npu_rt_msg_detail(size == 0 ? "size is 0" : "reserve is %u, must be 0", reserve);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (memType == 0 || (memType & ~MEM_TYPES) != 0) {
		npu_rt_msg_detail("memType 0x%x is not an OR of ACL_RT_MEM_TYPE_DEV, _DVPP, _RSVD", memType);
		return ACL_ERROR_INVALID_PARAM;
	}
	for (uint32_t i = 0; i < size && match; i++)
		match = addrList[i] != NULL && (type_of(addrList[i]) & memType) != 0;
	*checkResult = match;
	return ACL_SUCCESS;
}
