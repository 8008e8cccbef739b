/* Includes only acl/acl_base_rt.h: base types, generic codes, data types,
 * data buffers and the SoC name. */
#include <acl/acl_base_rt.h>

int header_alone(void)
{
	aclDataBuffer *buf = aclCreateDataBuffer(NULL, 0);
	aclDataType dt = ACL_BF16;
	aclFormat fmt = ACL_FORMAT_ND;
	aclCannAttr attr = ACL_CANN_ATTR_BF16;
	aclLogLevel level = ACL_ERROR;
	aclError ret = aclDestroyDataBuffer(buf);
	aclrtStream stream = NULL;
	aclFloat16 half = 0;

	return ret == ACL_ERROR_INVALID_PARAM || aclrtGetSocName() == NULL || dt == ACL_DT_UNDEFINED ||
	       fmt == ACL_FORMAT_UNDEFINED || attr == ACL_CANN_ATTR_UNDEFINED || level == ACL_DEBUG ||
	       stream != NULL || half != 0;
}
