/*
 * Linear device memory: the aclrtMalloc family and aclrtFree; further down
 * aclrtMemFlush / aclrtMemInvalidate and aclrtMallocForTaskScheduler (the
 * chapter's queries: memory_info.c).
 * The ACL-layer decisions (policy, footprint, backing) are made by the pure
 * policy.c; this file adds the current device and the MEM_ALLOC / MEM_FREE
 * ioctls.
 */
#include <errno.h>
#include <string.h>

#include "acl_internal.h"
#include "alloc_diag.h"
#include "check.h"
#include "err_msg.h"
#include "policy.h"
#include "profile.h"

static const char *const policy_item_names[] = {
	"ACL_MEM_MALLOC_HUGE_FIRST", "ACL_MEM_MALLOC_HUGE_ONLY", "ACL_MEM_MALLOC_NORMAL_ONLY",
	"ACL_MEM_MALLOC_HUGE_FIRST_P2P", "ACL_MEM_MALLOC_HUGE_ONLY_P2P", "ACL_MEM_MALLOC_NORMAL_ONLY_P2P",
	"ACL_MEM_MALLOC_HUGE1G_ONLY", "ACL_MEM_MALLOC_HUGE1G_ONLY_P2P",
};

/*
 * With the device lock held: the plan for the device's product (its
 * padding; plan was made with 32) or 207000 for a policy item the product
 * does not support.
 */
static aclError plan_for_product(int dev, uint32_t api, size_t size, uint32_t policy,
				 struct npu_rt_alloc_plan *plan)
{
	const struct npu_sim_profile *prof = npu_rt_device_profile_locked(dev);
	int item;

	if (!npu_rt_profile_alloc_ok(prof, plan->backing, plan->flags)) {
		item = npu_rt_profile_policy_item(plan->backing, plan->flags);
		npu_rt_msg_detail("policy 0x%x (%s) is not supported on %s (profile %s, SoC %s)", policy,
				  item >= 0 ? policy_item_names[item] : "?", prof->product, prof->id,
				  prof->soc_name);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (prof->malloc_pad != 32)
		return npu_rt_plan_alloc_pad(api, size, policy, prof->malloc_pad, plan);
	return ACL_SUCCESS;
}

/*
 * Checks on (check.h): remember the allocation and its call site, and under
 * init checks fill it with the poison byte, so a read of bytes never
 * written shows a recognisable pattern.  Table lock held.
 */
static void check_new(int dev, uint64_t va, size_t size)
{
	struct npu_sim_memset set = { .dst = va, .count = size, .value = NPU_RT_CHECK_POISON };
	struct npu_sim_check_site tag = { .va = va, .site = (uintptr_t)npu_rt_check_site(),
					  .op = NPU_SIM_CHECK_SET_SITE };

	npu_rt_check_created(NPU_RT_CK_ALLOC, dev, (uintptr_t)va, size);
	(void)npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_CHECK_SITE, &tag);
	if (npu_rt_check_flags & NPU_RT_CHECK_INIT)
		(void)npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEMSET, &set);
}

static aclError alloc_device(uint32_t api, void **devPtr, size_t size, uint32_t policy,
			     const aclrtMallocConfig *cfg)
{
	struct npu_rt_alloc_plan plan;
	struct npu_sim_mem_alloc req;
	int64_t want_device;
	aclError err;
	int dev, rc;

	if (devPtr == NULL) {
		npu_rt_msg_detail("devPtr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (npu_rt_check_malloc_cfg(cfg) != ACL_SUCCESS) {
		npu_rt_msg_detail("cfg has numAttrs %zu with attrs NULL", cfg->numAttrs);
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_plan_alloc(api, size, policy, &plan);
	if (err != ACL_SUCCESS) {
		npu_rt_msg_detail("size %zu with policy 0x%x refused (size 0, a footprint that overflows, "
				  "or a policy this call does not accept)", size, policy);
		return err;
	}
	err = npu_rt_alloc_runtime_check(api, &plan);
	if (err != ACL_SUCCESS) {
		npu_rt_msg_detail("aclrtMallocCached of %zu bytes (%llu with the padding) is more than 2^50",
				  size, (unsigned long long)plan.footprint);
		return err;
	}

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	/* The runtime reads the attributes once it has the current context. */
	if (npu_rt_parse_malloc_cfg(cfg, &want_device) != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("cfg has attrs NULL or an attribute other than RSV, MODULE_ID, DEVICE_ID");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (want_device >= 0 && want_device != dev) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the ACL_RT_MEM_ATTR_DEVICE_ID attribute names device %lld, the current device is %d",
				  (long long)want_device, dev);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = plan_for_product(dev, api, size, policy, &plan);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}

	memset(&req, 0, sizeof(req));
	req.size = size;
	req.footprint = plan.footprint;
	req.backing = plan.backing;
	req.flags = plan.flags;
	req.policy = policy;
	req.api = api;
	rc = npu_rt_ioctl_inline(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEM_ALLOC, &req);
	if (rc == -ENOMEM || rc == -ENOSPC)
		npu_rt_alloc_diagnose(npu_rt_device_fd_locked(dev), plan.footprint, plan.backing);
	if (rc == 0 && npu_rt_check_flags)
		check_new(dev, req.va, size);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);

	*devPtr = (void *)(uintptr_t)req.va;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	return alloc_device(NPU_SIM_API_MALLOC, devPtr, size, (uint32_t)policy, NULL);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	return alloc_device(NPU_SIM_API_MALLOC_ALIGN32, devPtr, size, (uint32_t)policy, NULL);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	return alloc_device(NPU_SIM_API_MALLOC_CACHED, devPtr, size, (uint32_t)policy, NULL);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
						aclrtMallocConfig *cfg)
{
	return alloc_device(NPU_SIM_API_MALLOC_WITH_CFG, devPtr, size, (uint32_t)policy, cfg);
}

/* Routed by address to the device whose window holds devPtr. */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr)
{
	struct npu_sim_check_site q = { .op = NPU_SIM_CHECK_QUERY };
	struct npu_sim_mem_free req;
	int dev, rc;

	if (devPtr == NULL)
		return ACL_ERROR_INVALID_PARAM;
	if (npu_rt_enter_addr(devPtr, 1, &dev) != 0) {
		npu_rt_check_bad_free((uintptr_t)devPtr);
		npu_rt_msg_detail("devPtr is not device memory of this process");
		return ACL_ERROR_RT_PARAM_INVALID;	/* what the driver answers */
	}
	q.va = (uintptr_t)devPtr;
	if ((npu_rt_check_flags & NPU_RT_CHECK_MISUSE) &&
	    npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_CHECK_SITE, &q) != 0)
		q.queued = 0;
	memset(&req, 0, sizeof(req));
	req.va = (uintptr_t)devPtr;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEM_FREE, &req);
	npu_rt_devices_unlock();
	if (rc != 0) {
		npu_rt_check_bad_free((uintptr_t)devPtr);
		if (rc == -ENOENT)
			npu_rt_msg_detail("devPtr is not the start of a live allocation of this process");
	} else {
		if (q.queued > 0)
			npu_rt_check_freed_queued((uintptr_t)devPtr, q.queued);
		npu_rt_check_destroyed(NPU_RT_CK_ALLOC, (uintptr_t)devPtr);
	}
	return rc != 0 ? npu_rt_errno_to_acl(-rc) : ACL_SUCCESS;
}

/*
 * Wait for the device's queued work, then free.  As in the runtime, a failed
 * synchronize (no current device, an error of the queued work) is returned
 * and the memory stays allocated.
 */
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr)
{
	aclError err;

	if (devPtr == NULL) {
		npu_rt_msg_detail("devPtr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_device_sync(0);
	if (err != ACL_SUCCESS)
		return err;
	return aclrtFree(devPtr);
}

/*
 * aclrtMemFlush / aclrtMemInvalidate: cache maintenance of a memory range.
 * npu_sim's host and device share coherent memory (device memory is host
 * pages written by the driver under the kernel's ordering), so there is no
 * cache between them to write back or drop: once the arguments are valid
 * the range is already in the state the call promises.
 */

static aclError check_range(const void *devPtr, size_t size)
{
	if (devPtr == NULL) {
		npu_rt_msg_detail("devPtr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (size == 0) {
		npu_rt_msg_detail("size is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	if ((uintptr_t)devPtr + size < (uintptr_t)devPtr) {
		npu_rt_msg_detail("[devPtr, devPtr + %zu) wraps around the address space", size);
		return ACL_ERROR_INVALID_PARAM;
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size)
{
	return check_range(devPtr, size);
}

ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size)
{
	return check_range(devPtr, size);
}

/*
 * aclrtMallocForTaskScheduler: device memory like aclrtMallocWithCfg (npu_sim
 * has no separate task-scheduler memory).
 */

ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size,
							 aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg)
{
	return aclrtMallocWithCfg(devPtr, size, policy, cfg);
}
