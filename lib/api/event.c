/*
 * Events: aclrtCreateEvent(WithFlag, ExWithFlag) / aclrtDestroyEvent /
 * aclrtRecordEvent(WithFlag) / aclrtResetEvent / aclrtSynchronizeEvent
 * (WithTimeout) / aclrtQueryEvent(Status, WaitStatus) /
 * aclrtStreamWaitEvent(WithFlag, WithTimeout) / aclrtEventElapsedTime /
 * aclrtEventGetTimestamp / aclrtGetEventId / aclrtGetEventAvailNum, and
 * IPC events: aclrtIpcGetEventHandle / aclrtIpcOpenEventHandle.
 *
 * An event is a kernel object of the device file (EVENT_* ioctls).  A
 * record is an operation queued on a stream; the driver timestamps it
 * (CLOCK_MONOTONIC) when the stream reaches it, which is what
 * aclrtEventElapsedTime measures.  The ACL_EVENT_* flags an event was made
 * with live in its handle (ev_flags): they decide which calls serve it, as
 * the runtime's checks do.  An IPC event's record counters are shared by
 * the kernel between the exporting and the opening processes' files.
 */
#include <errno.h>
#include <string.h>

#include "acl_internal.h"
#include "check.h"
#include "races.h"
#include "err_msg.h"
#include "model_ri.h"

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

/* Create an event with ACL flags flags (ev_flags) and kernel flags kflags. */
static aclError create_flagged(aclrtEvent *event, uint32_t flags, uint32_t kflags)
{
	aclrtEvent ev;
	aclError err = npu_rt_obj_create(NPU_RT_OBJ_EVENT, kflags, &ev);

	if (err != ACL_SUCCESS)
		return err;
	npu_rt_obj_set_ev_flags(ev, flags);
	*event = ev;
	return ACL_SUCCESS;
}

/* Whether flag sets a bit of solo together with another bit. */
static int not_alone(uint32_t flag, uint32_t solo)
{
	return (flag & solo) != 0 && (flag & ~solo) != 0;
}

#define EVENT_PLAIN_FLAGS (ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | 0x4U | ACL_EVENT_TIME_LINE)

ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
	const uint32_t max = EVENT_PLAIN_FLAGS | ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL;

	if (event == NULL) {
		npu_rt_msg_detail("event is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	/* The runtime's flag checks come before its context lookup. */
	if ((flag & max) == 0 || flag > max || not_alone(flag, ACL_EVENT_DEVICE_USE_ONLY) ||
	    not_alone(flag, ACL_EVENT_EXTERNAL)) {
		npu_rt_msg_detail("flag %#x is not an OR of ACL_EVENT_SYNC, _CAPTURE_STREAM_PROGRESS, 0x4 and "
				  "_TIME_LINE, nor ACL_EVENT_DEVICE_USE_ONLY or _EXTERNAL alone", flag);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return create_flagged(event, flag, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
	const uint32_t max = EVENT_PLAIN_FLAGS | ACL_EVENT_IPC;

	if (event == NULL) {
		npu_rt_msg_detail("event is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (not_alone(flag, ACL_EVENT_DEVICE_USE_ONLY) || not_alone(flag, ACL_EVENT_EXTERNAL) ||
	    not_alone(flag, ACL_EVENT_IPC) || (flag & max) == 0 || flag > max) {
		npu_rt_msg_detail("flag %#x is not an OR of ACL_EVENT_SYNC, _CAPTURE_STREAM_PROGRESS, 0x4 and "
				  "_TIME_LINE, nor ACL_EVENT_IPC alone", flag);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return create_flagged(event, flag | NPU_RT_EV_EX, flag == ACL_EVENT_IPC ? NPU_SIM_EVENT_IPC : 0);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event)
{
	return npu_rt_obj_destroy(event, NPU_RT_OBJ_EVENT, 0);
}

/* An event of the new mode made with exactly ACL_EVENT_SYNC (external record/wait). */
static int ex_sync_only(uint32_t ev_flags)
{
	return ev_flags == (ACL_EVENT_SYNC | NPU_RT_EV_EX);
}

/*
 * Queue RECORD, WAIT or RESET (op) of event on stream, with the record or
 * wait flag aflag and, for a wait, timeout_ms (0: none).  The handles are
 * guarded first (the stream first for a wait), then the runtime's checks
 * of the event's kind and flags.
 */
static aclError submit_event_op(aclrtEvent event, aclrtStream stream, uint32_t op, uint32_t aflag,
				uint32_t timeout_ms)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref, ev;
	aclError err;
	int rc;

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
	if (op != NPU_SIM_OP_WAIT && stream != NULL) {
		err = npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, &ref);
		if (err != ACL_SUCCESS)
			return err;
		npu_rt_devices_unlock();
	}
	if (ev.ev_flags & ACL_EVENT_DEVICE_USE_ONLY) {
		npu_rt_msg_detail("the event was made with ACL_EVENT_DEVICE_USE_ONLY: only the device may use it");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (op == NPU_SIM_OP_RESET && (ev.ev_flags & ACL_EVENT_IPC)) {
		npu_rt_msg_detail("an IPC event cannot be reset");
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (op != NPU_SIM_OP_RESET) {
		if (aflag != 0 && !ex_sync_only(ev.ev_flags)) {
			npu_rt_msg_detail("ACL_EVENT_%s_EXTERNAL needs an event of aclrtCreateEventExWithFlag with "
					  "exactly ACL_EVENT_SYNC", op == NPU_SIM_OP_WAIT ? "WAIT" : "RECORD");
			return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
		}
		rc = npu_rt_event_op_flag(event, op == NPU_SIM_OP_WAIT, aflag);
		if (rc == -1) {
			npu_rt_msg_detail("every %s of an event must use the flag of its first",
					  op == NPU_SIM_OP_WAIT ? "wait" : "record");
			return ACL_ERROR_RT_PARAM_INVALID;
		}
		if (rc == -2) {
			npu_rt_msg_detail("event %p is not a live event of this process", event);
			return ACL_ERROR_RT_INVALID_HANDLE;
		}
	}
	err = npu_rt_stream_enter_ctx(stream, &ref);	/* ApiImpl::EventRecord, EventReset, StreamWaitEvent */
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
	if (timeout_ms != 0) {
		req.flags = NPU_SIM_WAIT_EVENT_TIMEOUT;
		req.operand = timeout_ms;
	}
	return npu_rt_stream_submit(&ref, &req, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	return submit_event_op(event, stream, NPU_SIM_OP_RECORD, ACL_EVENT_RECORD_DEFAULT, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
	if (event == NULL || (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL)) {
		npu_rt_msg_detail(event == NULL ? "event is NULL" :
				  "flag is neither ACL_EVENT_RECORD_DEFAULT nor ACL_EVENT_RECORD_EXTERNAL");
		return ACL_ERROR_INVALID_PARAM;
	}
	return submit_event_op(event, stream, NPU_SIM_OP_RECORD, flag, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
	return submit_event_op(event, stream, NPU_SIM_OP_RESET, 0, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
	return submit_event_op(event, stream, NPU_SIM_OP_WAIT, ACL_EVENT_WAIT_DEFAULT, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
							  uint32_t flag)
{
	if (event == NULL || (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL) ||
	    (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0)) {
		npu_rt_msg_detail(event == NULL ? "event is NULL" :
				  flag > ACL_EVENT_WAIT_EXTERNAL ?
				  "flag is neither ACL_EVENT_WAIT_DEFAULT nor ACL_EVENT_WAIT_EXTERNAL" :
				  "timeout must be 0 with ACL_EVENT_WAIT_EXTERNAL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (timeout > INT32_MAX) {
		npu_rt_msg_detail("timeout %u ms is more than INT32_MAX", timeout);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return submit_event_op(event, stream, NPU_SIM_OP_WAIT, flag, timeout);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout)
{
	if (timeout < 0) {
		npu_rt_msg_detail("timeout %d ms is negative", timeout);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (event == NULL) {	/* no ACL-layer check: the runtime's, after its stream guard */
		struct npu_rt_ref ref;
		aclError err = stream == NULL ? ACL_SUCCESS : npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, &ref);

		if (err != ACL_SUCCESS)
			return err;
		if (stream != NULL)
			npu_rt_devices_unlock();
		npu_rt_msg_detail("event is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return submit_event_op(event, stream, NPU_SIM_OP_WAIT, ACL_EVENT_WAIT_DEFAULT, (uint32_t)timeout);
}

/* 207000 when the event's ACL flags have a bit of refuse (lock released). */
static aclError refuse_kind(const struct npu_rt_ref *ev, uint32_t refuse)
{
	uint32_t bad = ev->ev_flags & refuse;

	if (bad == 0 && npu_rt_capture_event_captured(ev->dev, ev->kid)) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the event is recorded in an active stream capture");
		return ACL_ERROR_RT_EVENT_CAPTURED;
	}
	if (bad == 0)
		return ACL_SUCCESS;
	npu_rt_devices_unlock();
	npu_rt_msg_detail("this call does not serve %s", (bad & ACL_EVENT_IPC) ? "IPC events" :
			  (bad & ACL_EVENT_EXTERNAL) ? "ACL_EVENT_EXTERNAL events" :
			  "events of aclrtCreateEventExWithFlag");
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

/*
 * EVENT_SYNC with flags (timeout_ms with NPU_SIM_SYNC_TIMEOUT) of an event
 * whose flags have no bit of refuse (else 207000); fills req and *dev (the
 * event's device).
 */
static aclError event_sync_timeout(aclrtEvent event, uint32_t flags, uint32_t timeout_ms, uint32_t refuse,
				   struct npu_sim_event_sync *req, int *dev)
{
	struct npu_rt_ref ev;
	aclError err = npu_rt_event_enter(event, &ev);
	int rc;

	if (err != ACL_SUCCESS)
		return err;
	err = refuse_kind(&ev, refuse);
	if (err != ACL_SUCCESS)
		return err;
	/* a synchronize: Context::CheckStatus of the event's context first */
	err = (flags & NPU_SIM_SYNC_QUERY) ? ACL_SUCCESS : npu_rt_ctx_failure_refused(&ev);
	if (err != ACL_SUCCESS)
		return err;
	*dev = ev.dev;
	*req = (struct npu_sim_event_sync){ .id = ev.kid, .flags = flags, .timeout_ms = timeout_ms };
	if (flags & NPU_SIM_SYNC_QUERY) {
		rc = npu_rt_ioctl(ev.fd, NPU_SIM_IOCTL_EVENT_SYNC, req);
		npu_rt_devices_unlock();
	} else {	/* a wait: without the lock */
		rc = npu_rt_ioctl_unlock(ev.fd, NPU_SIM_IOCTL_EVENT_SYNC, req);
	}
	if (rc == 0 && req->status == NPU_SIM_STATUS_COMPLETE)
		npu_rt_races_event_synced(ev.dev, ev.kid);
	if (rc == -ECONNABORTED) {	/* as the runtime's Event::ReclaimTask */
		npu_rt_msg_detail("aclrtStreamAbort dropped the record this synchronize waited for");
		return ACL_ERROR_RT_STREAM_ABORT;
	}
	return rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
}

static aclError event_sync(aclrtEvent event, uint32_t flags, uint32_t refuse, struct npu_sim_event_sync *req,
			   int *dev)
{
	return event_sync_timeout(event, flags, 0, refuse, req, dev);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event)
{
	struct npu_sim_event_sync req;
	int dev;

	return event_sync(event, 0, ACL_EVENT_EXTERNAL, &req, &dev);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
	struct npu_sim_event_sync req;
	struct npu_rt_ref ev;
	aclError err;
	int dev;

	if (timeout < -1) {
		npu_rt_msg_detail("timeout %d ms is below -1", timeout);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (timeout == 0) {	/* the runtime's check, after its handle guard */
		err = npu_rt_event_enter(event, &ev);
		if (err != ACL_SUCCESS)
			return err;
		npu_rt_devices_unlock();
		npu_rt_msg_detail("timeout 0 is not a wait: -1 (forever) or > 0 ms");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = event_sync_timeout(event, timeout < 0 ? 0 : NPU_SIM_SYNC_TIMEOUT, timeout < 0 ? 0 : (uint32_t)timeout,
				 ACL_EVENT_EXTERNAL, &req, &dev);
	if (err == ACL_SUCCESS && req.status != NPU_SIM_STATUS_COMPLETE) {
		npu_rt_msg_detail("the event's last record was not reached within %d ms", timeout);
		return ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
	}
	return err;
}

/* Whose kept failure (npu_rt_ctx_failure_refused) a query answers first. */
enum ctx_check {
	CTX_NONE,
	CTX_EVENT,	/* the event's context (Context::CheckStatus) */
	CTX_CURRENT,	/* the current one (ApiImpl::EventQueryWaitStatus) */
};

/*
 * EVENT_INFO of an event whose ACL flags have no bit of refuse (else
 * 207000), after the kept failure of the context check names; event NULL:
 * the avail count of the current device only.  *ref (if given) is the
 * event's.
 */
static aclError event_info(aclrtEvent event, uint32_t refuse, enum ctx_check check, struct npu_sim_event_info *info,
			   struct npu_rt_ref *ref)
{
	struct npu_rt_ref cref;
	struct npu_rt_ref ev;
	aclError err;
	int rc;

	memset(info, 0, sizeof(*info));
	if (event == NULL) {
		err = npu_rt_ioctl_current(NPU_SIM_IOCTL_EVENT_INFO, info, &rc);
		return err != ACL_SUCCESS ? err : rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
	}
	err = npu_rt_event_enter(event, &ev);
	if (err != ACL_SUCCESS)
		return err;
	err = refuse_kind(&ev, refuse);
	if (err != ACL_SUCCESS)
		return err;
	cref = ev;
	if (check == CTX_CURRENT)
		cref.ctx_id = npu_rt_current_ctx_id_locked(ev.dev);
	err = check == CTX_NONE ? ACL_SUCCESS : npu_rt_ctx_failure_refused(&cref);
	if (err != ACL_SUCCESS)
		return err;
	info->id = ev.kid;
	rc = npu_rt_ioctl(ev.fd, NPU_SIM_IOCTL_EVENT_INFO, info);
	npu_rt_devices_unlock();
	if (ref != NULL)
		*ref = ev;
	return rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
	struct npu_sim_event_info info;
	aclError err;

	if (status == NULL) {
		npu_rt_msg_detail("status is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = event_info(event, ACL_EVENT_EXTERNAL, CTX_EVENT, &info, NULL);
	if (err != ACL_SUCCESS)
		return err;
	/* Never recorded, or reset since: not ready, as the runtime's events start. */
	*status = info.recorded != 0 && info.completed >= info.recorded &&
				  !(info.state & NPU_SIM_EVENT_INFO_CLEARED) ?
			  ACL_EVENT_RECORDED_STATUS_COMPLETE :
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
	err = event_sync(startEvent, NPU_SIM_SYNC_QUERY, ACL_EVENT_EXTERNAL | ACL_EVENT_IPC, &s, &sdev);
	if (err == ACL_SUCCESS)
		err = event_sync(endEvent, NPU_SIM_SYNC_QUERY, ACL_EVENT_EXTERNAL | ACL_EVENT_IPC, &e, &edev);
	if (err != ACL_SUCCESS)
		return err;
	/* Events of two devices: no check (the runtime's Event::ElapsedTime);
	 * every device's timestamps are one host clock here. */
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

/* The driver's state of event for a status query (status: the out pointer). */
static aclError query_info(aclrtEvent event, const void *status, enum ctx_check check,
			   struct npu_sim_event_info *info)
{
	if (event == NULL || status == NULL) {
		npu_rt_msg_detail("%s is NULL", event == NULL ? "event" : "status");
		return ACL_ERROR_INVALID_PARAM;
	}
	return event_info(event, NPU_RT_EV_EX | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC, check, info, NULL);
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
	struct npu_sim_event_info info;
	aclError err = query_info(event, status, CTX_EVENT, &info);

	if (err != ACL_SUCCESS)
		return err;
	*status = info.completed < info.recorded ? ACL_EVENT_STATUS_NOT_READY : ACL_EVENT_STATUS_COMPLETE;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
	struct npu_sim_event_info info;
	aclError err = query_info(event, status, CTX_CURRENT, &info);

	if (err != ACL_SUCCESS)
		return err;
	*status = info.waits != 0 ? ACL_EVENT_WAIT_STATUS_NOT_READY : ACL_EVENT_WAIT_STATUS_COMPLETE;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
	struct npu_sim_event_info info;
	aclError err;

	if (timestamp == NULL || event == NULL) {
		npu_rt_msg_detail("%s is NULL", timestamp == NULL ? "timestamp" : "event");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = event_info(event, ACL_EVENT_EXTERNAL | ACL_EVENT_IPC, CTX_NONE, &info, NULL);
	if (err != ACL_SUCCESS)
		return err;
	/* The runtime's codes, as aclrtEventElapsedTime. */
	if (info.recorded == 0) {
		npu_rt_msg_detail("the event was never recorded");
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	if (info.completed < info.recorded) {
		npu_rt_msg_detail("the event's last record has not been reached yet");
		return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
	}
	*timestamp = info.timestamp_ns / 1000;	/* microseconds, as the runtime gives */
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId)
{
	struct npu_rt_ref ev;
	aclError err;

	if (event == NULL || eventId == NULL) {
		npu_rt_msg_detail("%s is NULL", event == NULL ? "event" : "eventId");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_event_enter(event, &ev);
	if (err != ACL_SUCCESS)
		return err;
	err = refuse_kind(&ev, ACL_EVENT_IPC);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	*eventId = ev.kid;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount)
{
	struct npu_sim_event_info info;
	aclError err;

	if (eventCount == NULL) {
		npu_rt_msg_detail("eventCount is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = event_info(NULL, 0, CTX_NONE, &info, NULL);
	if (err != ACL_SUCCESS)
		return err;
	*eventCount = (uint32_t)info.avail;
	return ACL_SUCCESS;
}

/* ---- IPC events ------------------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle)
{
	struct npu_sim_event_export req;
	struct npu_rt_ref ev;
	aclError err;
	int rc;

	if (handle == NULL || event == NULL) {
		npu_rt_msg_detail("%s is NULL", handle == NULL ? "handle" : "event");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_event_enter(event, &ev);
	if (err != ACL_SUCCESS)
		return err;
	if (!(ev.ev_flags & ACL_EVENT_IPC)) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("only an event of aclrtCreateEventExWithFlag(ACL_EVENT_IPC) has an IPC handle");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	req = (struct npu_sim_event_export){ .id = ev.kid };
	rc = npu_rt_ioctl(ev.fd, NPU_SIM_IOCTL_EVENT_EXPORT, &req);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_obj_errno(rc);
	memset(handle, 0, sizeof(*handle));
	memcpy(handle->reserved, &req.key, sizeof(req.key));
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event)
{
	struct npu_sim_event_import req;
	struct npu_rt_obj *o;
	aclError err;
	int dev, fd, rc;

	if (event == NULL) {
		npu_rt_msg_detail("event is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	fd = npu_rt_device_fd_locked(dev);
	req = (struct npu_sim_event_import){ .ctx_id = npu_rt_current_ctx_id_locked(dev),
					     .flags = NPU_SIM_EVENT_IMPORT_ENABLE_PEER };
	memcpy(&req.key, handle.reserved, sizeof(req.key));
	rc = req.key == 0 ? -ENOENT : npu_rt_ioctl(fd, NPU_SIM_IOCTL_EVENT_IMPORT, &req);
	if (rc != 0) {
		npu_rt_devices_unlock();
		if (rc == -ENOENT || rc == -EINVAL) {
			npu_rt_msg_detail("the handle names no live IPC event (never exported, or its event is gone)");
			return ACL_ERROR_RT_INVALID_HANDLE;
		}
		if (rc == -EPERM)
			npu_rt_msg_detail("the IPC event is this process's own: use the event itself");
		return npu_rt_create_error(NPU_RT_OBJ_EVENT, rc);
	}
	o = npu_rt_obj_add(NPU_RT_OBJ_EVENT, dev, npu_rt_device_epoch_locked(dev), req.ctx_id, req.id);
	if (o == NULL) {	/* a failing call changes nothing */
		struct npu_sim_event_destroy d = { .id = req.id };

		(void)npu_rt_ioctl(fd, NPU_SIM_IOCTL_EVENT_DESTROY, &d);
	} else {
		npu_rt_obj_set_ev_flags(o, ACL_EVENT_IPC | NPU_RT_EV_EX | NPU_RT_EV_IMPORTED);
	}
	npu_rt_devices_unlock();
	if (o == NULL)
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	npu_rt_check_created(NPU_RT_CK_EVENT, dev, (uintptr_t)o, 0);
	*event = o;
	return ACL_SUCCESS;
}
