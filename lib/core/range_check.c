/*
 * Live-range check of device memory (range_check.h), through VMM_QUERY.
 */
#include "range_check.h"

#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

aclError npu_rt_check_live_range_locked(int dev, uintptr_t p, size_t len, const char *what)
{
	struct npu_sim_vmm_query q;
	int rc;

	memset(&q, 0, sizeof(q));
	q.addr = p;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_VMM_QUERY, &q);
	if (rc != 0 || (q.type != NPU_SIM_QUERY_ALLOC && q.type != NPU_SIM_QUERY_MAP) ||
	    len > q.base + q.size - p) {
		npu_rt_msg_detail("%s: [%p, +%zu) is not inside one live allocation or mapping of device %d", what,
				  (void *)p, len, dev);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}
