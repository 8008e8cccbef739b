/* Includes only acl/acl_rt.h: init, version, error message, bool and the
 * codes of every error-code header must all come with it. */
#include <acl/acl_rt.h>

int header_alone(void)
{
	bool ok = ACL_MAJOR_VERSION >= 1 && ACL_MINOR_VERSION >= 0 && ACL_PATCH_VERSION >= 0;
	uint64_t ref = 0;
	void *dev = NULL;
	aclDataType dt = ACL_FLOAT16;
	aclrtAllocatorAllocFunc alloc = NULL;

	ok = ok && aclInit(NULL) == ACL_SUCCESS && aclGetRecentErrMsg() == NULL;
	ok = ok && aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_ERROR_RT_PARAM_INVALID;
	ok = ok && aclFinalizeReference(&ref) != ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT && aclFinalize() == ACL_SUCCESS;
	ok = ok && dt != (aclDataType)ACL_ERROR_GE_PARAM_INVALID && alloc == NULL;
	return ok ? 0 : 1;
}
