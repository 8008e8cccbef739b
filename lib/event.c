/*
 * Events: aclrtCreateEvent / aclrtDestroyEvent / aclrtRecordEvent /
 * aclrtSynchronizeEvent / aclrtQueryEventStatus / aclrtStreamWaitEvent /
 * aclrtEventElapsedTime.
 *
 * An event is a kernel object of the device file (EVENT_* ioctls).  A
 * record is an operation queued on a stream; the driver timestamps it
 * (CLOCK_MONOTONIC) when the stream reaches it, which is what
 * aclrtEventElapsedTime measures.
 */
#include <errno.h>
#include <string.h>

#include "acl_internal.h"

static aclError event_errno(int rc)
{
	return rc == -ENOENT ? ACL_ERROR_RT_PARAM_INVALID : npu_rt_errno_to_acl(-rc);
}

aclError npu_rt_event_enter(aclrtEvent event, int *dev, int *fd, uint32_t *eid)
{
	struct npu_rt_obj o;

	if (event == NULL)
		return ACL_ERROR_INVALID_PARAM;
	npu_rt_devices_read_lock();
	if (npu_rt_obj_get(event, NPU_RT_OBJ_EVENT, &o) != 0 ||
	    npu_rt_device_epoch_locked(o.dev) != o.epoch) {
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	*dev = o.dev;
	*fd = npu_rt_device_fd_locked(o.dev);
	*eid = o.kid;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event)
{
	return npu_rt_obj_create(NPU_RT_OBJ_EVENT, 0, event);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event)
{
	return npu_rt_obj_destroy(event, NPU_RT_OBJ_EVENT);
}

/* Queue RECORD or WAIT of event on stream. */
static aclError submit_event_op(aclrtEvent event, aclrtStream stream, uint32_t op)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_stream_ref ref;
	int edev, efd, rc;
	uint32_t eid;
	aclError err;

	if (event == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = npu_rt_event_enter(event, &edev, &efd, &eid);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (ref.dev != edev) {
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_STREAM_CONTEXT;
	}
	memset(&req, 0, sizeof(req));
	req.stream = ref.sid;
	req.op = op;
	req.event = eid;
	rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &req);
	npu_rt_devices_unlock();
	if (rc == -EAGAIN)
		return ACL_ERROR_RT_STREAM_TASK_FULL;
	return rc == 0 ? ACL_SUCCESS : event_errno(rc);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	return submit_event_op(event, stream, NPU_SIM_OP_RECORD);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
	return submit_event_op(event, stream, NPU_SIM_OP_WAIT);
}

/* EVENT_SYNC with flags; fills req.  0 or a negative errno. */
static aclError event_sync(aclrtEvent event, uint32_t flags, struct npu_sim_event_sync *req, int *dev)
{
	int fd, rc;
	uint32_t eid;
	aclError err = npu_rt_event_enter(event, dev, &fd, &eid);

	if (err != ACL_SUCCESS)
		return err;
	*req = (struct npu_sim_event_sync){ .id = eid, .flags = flags };
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_EVENT_SYNC, req);
	npu_rt_devices_unlock();
	return rc == 0 ? ACL_SUCCESS : event_errno(rc);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event)
{
	struct npu_sim_event_sync req;
	int dev;

	return event_sync(event, 0, &req, &dev);
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
	struct npu_sim_event_sync req;
	aclError err;
	int dev;

	if (status == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = event_sync(event, NPU_SIM_SYNC_QUERY, &req, &dev);
	if (err != ACL_SUCCESS)
		return err;
	*status = req.status == NPU_SIM_STATUS_COMPLETE ? ACL_EVENT_RECORDED_STATUS_COMPLETE :
							  ACL_EVENT_RECORDED_STATUS_NOT_READY;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
	struct npu_sim_event_sync s, e;
	int sdev, edev;
	aclError err;

	if (ms == NULL || startEvent == NULL || endEvent == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = event_sync(startEvent, NPU_SIM_SYNC_QUERY, &s, &sdev);
	if (err == ACL_SUCCESS)
		err = event_sync(endEvent, NPU_SIM_SYNC_QUERY, &e, &edev);
	if (err != ACL_SUCCESS)
		return err;
	if (sdev != edev)
		return ACL_ERROR_RT_STREAM_CONTEXT;
	if (s.recorded == 0 || e.recorded == 0)
		return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
	if (s.status != NPU_SIM_STATUS_COMPLETE || e.status != NPU_SIM_STATUS_COMPLETE)
		return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
	if (e.timestamp_ns < s.timestamp_ns)
		return ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL;
	*ms = (float)((double)(e.timestamp_ns - s.timestamp_ns) / 1e6);
	return ACL_SUCCESS;
}
