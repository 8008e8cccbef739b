/*
 * aclrtGetVersion: the version of the AscendCL API these headers and this
 * library implement (ACL_MAJOR/MINOR/PATCH_VERSION of acl.h).
 */
#include "acl_internal.h"
#include "err_msg.h"

ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion,
					     int32_t *patchVersion)
{
	if (majorVersion == NULL || minorVersion == NULL || patchVersion == NULL) {
		npu_rt_msg_detail("%s is NULL", majorVersion == NULL ? "majorVersion" :
						minorVersion == NULL ? "minorVersion" : "patchVersion");
		return ACL_ERROR_INVALID_PARAM;
	}
	*majorVersion = ACL_MAJOR_VERSION;
	*minorVersion = ACL_MINOR_VERSION;
	*patchVersion = ACL_PATCH_VERSION;
	return ACL_SUCCESS;
}
