/*
 * The calling thread's last error: aclrtGetLastError, aclrtPeekAtLastError.
 *
 * The exported wrapper of every aclError call (entry/api_wrap.c) notes each
 * failure here, so these two report failures found anywhere in the
 * library.  They are themselves kept out of the wrappers
 * (LIB_UNWRAPPED_SRCS in lib/lib.mk): what they return is an earlier
 * call's code, not a failure of their own.
 */
#include "acl_internal.h"
#include "err_msg.h"

static __thread aclError last_error;

void npu_rt_last_error_note(aclError err)
{
	last_error = err;
}

static aclError read_last(const char *call, aclrtLastErrLevel level, int clear)
{
	aclError err;

	npu_rt_msg_begin();
	if (level != ACL_RT_THREAD_LEVEL) {
		npu_rt_msg_detail("level %d: only ACL_RT_THREAD_LEVEL (0) is kept", (int)level);
		npu_rt_msg_fail(call, ACL_ERROR_INVALID_PARAM);
		return ACL_ERROR_INVALID_PARAM;
	}
	err = last_error;
	if (clear)
		last_error = ACL_SUCCESS;
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level)
{
	return read_last("aclrtGetLastError", level, 1);
}

ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
	return read_last("aclrtPeekAtLastError", level, 0);
}
