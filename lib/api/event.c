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
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

aclError npu_rt_event_enter(aclrtEvent event, struct npu_rt_ref *ref)
{
	if (event == NULL) {
		npu_rt_msg_detail("event is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	return npu_rt_obj_enter(event, NPU_RT_OBJ_EVENT, ref);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event)
{
	return npu_rt_obj_create(NPU_RT_OBJ_EVENT, 0, event);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event)
{
	return npu_rt_obj_destroy(event, NPU_RT_OBJ_EVENT, 0);
}

/* Queue RECORD or WAIT of event on stream. */
static aclError submit_event_op(aclrtEvent event, aclrtStream stream, uint32_t op)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref, ev;
	aclError err;

	/* The runtime guards the stream first for a wait, the event first for a record. */
	if (op == NPU_SIM_OP_WAIT && event != NULL && stream != NULL) {
		err = npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, &ref);
		if (err != ACL_SUCCESS)
			return err;
		npu_rt_devices_unlock();
	}
	err = npu_rt_event_enter(event, &ev);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (ref.dev != ev.dev) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("event %p is on device %d, the stream on device %d", event, ev.dev, ref.dev);
		return ACL_ERROR_RT_STREAM_CONTEXT;
	}
	memset(&req, 0, sizeof(req));
	req.op = op;
	req.event = ev.kid;
	return npu_rt_stream_submit(&ref, &req, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	return submit_event_op(event, stream, NPU_SIM_OP_RECORD);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
	return submit_event_op(event, stream, NPU_SIM_OP_WAIT);
}

/* EVENT_SYNC with flags; fills req and *dev (the event's device). */
static aclError event_sync(aclrtEvent event, uint32_t flags, struct npu_sim_event_sync *req, int *dev)
{
	struct npu_rt_ref ev;
	aclError err = npu_rt_event_enter(event, &ev);
	int rc;

	if (err != ACL_SUCCESS)
		return err;
	*dev = ev.dev;
	*req = (struct npu_sim_event_sync){ .id = ev.kid, .flags = flags };
	if (flags & NPU_SIM_SYNC_QUERY) {
		rc = npu_rt_ioctl(ev.fd, NPU_SIM_IOCTL_EVENT_SYNC, req);
		npu_rt_devices_unlock();
	} else {	/* a wait: without the lock */
		rc = npu_rt_ioctl_unlock(ev.fd, NPU_SIM_IOCTL_EVENT_SYNC, req);
	}
	return rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
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

	if (status == NULL) {
		npu_rt_msg_detail("status is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = event_sync(event, NPU_SIM_SYNC_QUERY, &req, &dev);
	if (err != ACL_SUCCESS)
		return err;
	/* An event never recorded is not ready, as the runtime's events start. */
	*status = req.recorded != 0 && req.status == NPU_SIM_STATUS_COMPLETE ? ACL_EVENT_RECORDED_STATUS_COMPLETE :
									       ACL_EVENT_RECORDED_STATUS_NOT_READY;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
	struct npu_sim_event_sync s, e;
	int sdev, edev;
	aclError err;

	if (ms == NULL || startEvent == NULL || endEvent == NULL) {
		npu_rt_msg_detail("%s is NULL", ms == NULL ? "ms" : startEvent == NULL ? "startEvent" : "endEvent");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = event_sync(startEvent, NPU_SIM_SYNC_QUERY, &s, &sdev);
	if (err == ACL_SUCCESS)
		err = event_sync(endEvent, NPU_SIM_SYNC_QUERY, &e, &edev);
	if (err != ACL_SUCCESS)
		return err;
	if (sdev != edev) {
		npu_rt_msg_detail("startEvent is on device %d, endEvent on device %d", sdev, edev);
		return ACL_ERROR_RT_STREAM_CONTEXT;
	}
	/* The runtime's codes: never recorded 507000, no timestamp yet 107006. */
	if (s.recorded == 0 || e.recorded == 0) {
		npu_rt_msg_detail("%s was never recorded", s.recorded == 0 ? "startEvent" : "endEvent");
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	if (s.status != NPU_SIM_STATUS_COMPLETE || e.status != NPU_SIM_STATUS_COMPLETE) {
		npu_rt_msg_detail("the record of %s has not been reached yet",
				  s.status != NPU_SIM_STATUS_COMPLETE ? "startEvent" : "endEvent");
		return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
	}
	/* A plain difference: an end reached before the start gives a negative time. */
	*ms = (float)((double)(int64_t)(e.timestamp_ns - s.timestamp_ns) / 1e6);
	return ACL_SUCCESS;
}
