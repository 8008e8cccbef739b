/*
 * aclrtGetMemInfo: the driver's device-wide counters (MEM_INFO ioctl),
 * turned into per-class figures by the pure meminfo_rules.c for the product
 * the device poses as (lib/profile.h).
 */
#include <string.h>

#include "acl_internal.h"
#include "limits.h"
#include "meminfo_rules.h"

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)
{
	const struct npu_sim_profile *prof;
	struct npu_sim_mem_info mi;
	size_t f, t;
	aclError err;
	int dev, rc;

	if (free == NULL || total == NULL)
		return ACL_ERROR_INVALID_PARAM;
	memset(&mi, 0, sizeof(mi));
	if (npu_rt_mem_info_figures((int)attr, &mi, &f, &t) != ACL_SUCCESS)
		return ACL_ERROR_INVALID_PARAM;	/* attr outside aclrtMemAttr */

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEM_INFO, &mi);
	prof = npu_rt_device_profile_locked(dev);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);

	npu_rt_mem_info_figures_profile((int)attr, &mi, prof, &f, &t);
	if (npu_rt_mem_attr_is_device((int)attr, prof))
		npu_rt_limit_clamp_current(&f, &t);
	*free = f;
	*total = t;
	return ACL_SUCCESS;
}
