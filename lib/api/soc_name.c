/*
 * aclrtGetSocName: the SoC name of the product the driver poses as (module
 * parameter profile=, GET_PARAM NPU_SIM_PARAM_PROFILE), from the shared
 * profile table.  Not an aclError call: kept out of the wrappers
 * (LIB_UNWRAPPED_SRCS in lib/lib.mk).
 */
#include <errno.h>

#include "acl_internal.h"
#include "profile.h"

ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void)
{
	uint64_t index = 0;
	int rc;

	rc = npu_rt_ask_any_device(NPU_SIM_PARAM_PROFILE, &index);
	if (rc == -EINVAL)
		index = 0;	/* a driver before 1.6: the default product */
	else if (rc != 0)
		return NULL;	/* no device: the runtime returns NULL too */
	return npu_rt_profile_get(index)->soc_name;
}
