/*
 * The getters of aclrtExceptionInfo: aclrtGetDeviceIdFromExceptionInfo,
 * aclrtGetStreamIdFromExceptionInfo, aclrtGetThreadIdFromExceptionInfo,
 * aclrtGetErrorCodeFromExceptionInfo.  Not aclError calls: kept out of
 * the wrappers (LIB_UNWRAPPED_SRCS in lib/lib.mk); a NULL info is
 * 0xFFFFFFFF, as the ACL layer returns, with its message.
 */
#include <stddef.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "exception_info.h"

static int info_null(const aclrtExceptionInfo *info, const char *call)
{
	npu_rt_msg_begin();
	if (info != NULL)
		return 0;
	npu_rt_msg_detail("info is NULL");
	npu_rt_msg_fail(call, ACL_ERROR_INVALID_PARAM);
	return 1;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
	return info_null(info, __func__) ? NPU_RT_INVALID_EXCEPTION_INFO : info->deviceid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
	return info_null(info, __func__) ? NPU_RT_INVALID_EXCEPTION_INFO : info->streamid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
	return info_null(info, __func__) ? NPU_RT_INVALID_EXCEPTION_INFO : info->tid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info)
{
	return info_null(info, __func__) ? NPU_RT_INVALID_EXCEPTION_INFO : info->retcode;
}
