/*
 * Stream values: aclrtValueWrite and aclrtValueWait queue an 8-byte store
 * or a wait on an 8-byte value of device memory on a stream
 * (STREAM_SUBMIT OP_VALUE_WRITE / OP_VALUE_WAIT).  The driver's stream
 * worker performs them in order with the stream's other work; a waiting
 * stream re-checks the value whenever other work of the process completes
 * and at least every millisecond, so a value written by another stream, a
 * copy, or another process through shared memory releases it.
 */
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

static aclError queue_value(void *devAddr, uint64_t value, uint32_t op, uint32_t cond, aclrtStream stream)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	struct npu_rt_loc loc;
	aclError err;

	if (devAddr == NULL) {
		npu_rt_msg_detail("devAddr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if ((uintptr_t)devAddr % sizeof(uint64_t) != 0) {
		npu_rt_msg_detail("devAddr is not 8-byte aligned");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	loc = npu_rt_locate_locked(devAddr, sizeof(uint64_t));
	if (loc.kind != NPU_RT_LOC_DEVICE || loc.dev != ref.dev) {
		npu_rt_devices_unlock();
		if (loc.kind == NPU_RT_LOC_DEVICE) {
			npu_rt_msg_detail("devAddr %p is memory of device %d, the stream is on device %d",
					  devAddr, loc.dev, ref.dev);
			return ACL_ERROR_RT_STREAM_CONTEXT;
		}
		npu_rt_msg_detail("devAddr %p is not device memory", devAddr);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	memset(&req, 0, sizeof(req));
	req.op = op;
	req.dst = (uintptr_t)devAddr;
	req.width = sizeof(uint64_t);
	req.flags = cond;
	req.operand = value;
	err = npu_rt_stream_submit(&ref, &req, 0);
	if (err == ACL_ERROR_RT_PARAM_INVALID)
		npu_rt_msg_detail("devAddr %p: the 8 bytes are not in live device memory of this process, "
				  "or the stream is gone", devAddr);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
	if (flag != 0) {
		npu_rt_msg_detail("flag %u is reserved and must be 0", flag);
		return ACL_ERROR_INVALID_PARAM;
	}
	return queue_value(devAddr, value, NPU_SIM_OP_VALUE_WRITE, 0, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
	if (flag > ACL_STREAM_WAIT_VALUE_NOR) {
		npu_rt_msg_detail("flag %u is not an ACL_STREAM_WAIT_VALUE_* condition (0..3)", flag);
		return ACL_ERROR_INVALID_PARAM;
	}
	return queue_value(devAddr, value, NPU_SIM_OP_VALUE_WAIT, flag, stream);
}
