/*
 * Variants of the malloc/free calls that npu_sim serves with the plain
 * ones: aclrtMallocForTaskScheduler (device memory like aclrtMallocWithCfg:
 * npu_sim has no separate task-scheduler memory), aclrtMallocHostWithCfg
 * (aclrtMallocHost with the attribute list checked) and
 * aclrtFreeHostWithDevSync (wait for the device, then aclrtFreeHost).
 */
#include "acl_internal.h"
#include "err_msg.h"
#include "policy.h"

ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size,
							 aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg)
{
	return aclrtMallocWithCfg(devPtr, size, policy, cfg);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
	int64_t want_device;

	if (npu_rt_check_malloc_cfg(cfg, &want_device) != ACL_SUCCESS) {
		npu_rt_msg_detail("cfg has numAttrs %zu with attrs NULL or an attribute type outside aclrtMallocAttrType",
				  cfg->numAttrs);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (size > SIZE_MAX) {
		npu_rt_msg_detail("size %llu does not fit in size_t", (unsigned long long)size);
		return ACL_ERROR_INVALID_PARAM;
	}
	return aclrtMallocHost(ptr, (size_t)size);
}

/* Waits for all queued work of the current device (its errors stay for
 * the next synchronize), as aclrtFreeWithDevSync does. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
	if (hostPtr == NULL) {
		npu_rt_msg_detail("hostPtr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	(void)npu_rt_device_sync(NPU_SIM_SYNC_KEEP);
	return aclrtFreeHost(hostPtr);
}
