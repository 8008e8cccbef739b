/*
 * aclrtDestroyStreamForce: destroy a stream without waiting for its queued
 * work.  The driver's forced STREAM_DESTROY drops the operations that have
 * not started and stops a running one at its next piece (a copy at its
 * next chunk, a value or event wait at once); the handle is dead when the
 * call returns.
 */
#include "acl_internal.h"
#include "err_msg.h"

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream)
{
	if (stream == NULL) {
		npu_rt_msg_detail("stream is NULL (the default stream goes with its context)");
		return ACL_ERROR_INVALID_PARAM;
	}
	return npu_rt_obj_destroy(stream, NPU_RT_OBJ_STREAM, NPU_SIM_DESTROY_FORCE);
}
