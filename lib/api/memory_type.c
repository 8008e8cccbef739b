/*
 * aclrtCheckMemType: whether every address of a list is of one of the
 * memory types in memType.  An address is ACL_RT_MEM_TYPE_DEV when it lies
 * in a live aclrtMalloc-family allocation of this process,
 * ACL_RT_MEM_TYPE_RSVD when it lies in a reservation of
 * aclrtReserveMemAddress (mapped or not), and of no type otherwise.
 * npu_sim has no DVPP memory, so no address is ACL_RT_MEM_TYPE_DVPP.
 */
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

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
