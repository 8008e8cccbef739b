/*
 * Streams: aclrtCreateStream / aclrtCreateStreamWithConfig /
 * aclrtDestroyStream / aclrtSynchronizeStream /
 * aclrtSynchronizeStreamWithTimeout / aclrtStreamQuery, and
 * aclrtSynchronizeDevice(WithTimeout).  Failure modes, queries and control
 * are in stream_ctl.c, resource limits in stream_res.c.
 *
 * A stream is a kernel queue (STREAM_* ioctls) executed by the driver in
 * order; NULL means the current context's default stream.  The first error
 * of a stream's asynchronous work is returned (and cleared) by its next
 * synchronize, or by aclrtSynchronizeDevice.
 */
#include <errno.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "model_ri.h"
#include "profile.h"
#include "races.h"

/* Priorities 0 (highest) .. 7, as the runtime's range. */
#define STREAM_PRIORITY_MAX ((uint32_t)NPU_SIM_STREAM_PRIORITY_MAX)

aclError npu_rt_async_error(int err)
{
	switch (err) {
	case 0:
		return ACL_SUCCESS;
	case -EFAULT:	/* the host memory of a queued copy was gone when it ran */
		return ACL_ERROR_RT_COPY_DATA;
	case -ETIMEDOUT:	/* an event wait with a timeout was not met */
		return ACL_ERROR_RT_WAIT_TIMEOUT;
	case -ESRCH:	/* the process was exiting */
	case -ECANCELED:
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	case -ETIME:	/* a notify wait timed out on the device */
		return ACL_ERROR_RT_TASK_TIMEOUT;
	case -ECONNABORTED:	/* aclrtStreamAbort released the synchronize */
		return ACL_ERROR_RT_STREAM_ABORT;
	default:
		return npu_rt_errno_to_acl(-err);
	}
}

/*
 * The driver's ENOENT for a stream or event whose handle passed the
 * library's check: another thread destroyed it in between.  The runtime's
 * handle guard answers a dead handle 107017, before or during the call.
 */
aclError npu_rt_obj_errno(int rc)
{
	return rc == -ENOENT ? ACL_ERROR_RT_INVALID_HANDLE : npu_rt_errno_to_acl(-rc);
}

/* Set before the first STOP mode of the process: until then no context
 * can keep a failure, and synchronizes ask nothing more. */
static bool stop_seen;

void npu_rt_ctx_stop_seen(void)
{
	__atomic_store_n(&stop_seen, true, __ATOMIC_RELEASE);
}

bool npu_rt_ctx_stop_ever(void)
{
	return __atomic_load_n(&stop_seen, __ATOMIC_ACQUIRE);
}

static aclError ctx_failure_ask(const struct npu_rt_ref *ref)
{
	struct npu_sim_stream_ctl req = { .id = ref->ctx_id, .op = NPU_SIM_STREAM_CTL_CTX_FAILURE };
	int rc = npu_rt_ioctl(ref->fd, NPU_SIM_IOCTL_STREAM_CTL, &req);

	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	if (req.value == 0)
		return ACL_SUCCESS;
	npu_rt_msg_detail("a task of this ACL_STOP_ON_FAILURE context failed: its streams take no more work "
			  "until the device is reset");
	return npu_rt_async_error(-(int)req.value);
}

/*
 * A failed task of a STOP-mode context makes the runtime answer its code
 * to every later submit, synchronize and query of the context
 * (Context::CheckTaskSend, CheckStatus) until the device is reset; the
 * synchronizes and queries answer it before any wait.
 */
aclError npu_rt_ctx_failure_refused(const struct npu_rt_ref *ref)
{
	aclError err;

	if (!__atomic_load_n(&stop_seen, __ATOMIC_ACQUIRE))
		return ACL_SUCCESS;
	err = ctx_failure_ask(ref);
	if (err != ACL_SUCCESS)
		npu_rt_devices_unlock();
	return err;
}

aclError npu_rt_stream_errno(const struct npu_rt_ref *ref, int rc)
{
	aclError err;

	if (rc != -EPIPE)
		return npu_rt_obj_errno(rc);
	err = ctx_failure_ask(ref);
	return err != ACL_SUCCESS ? err : ACL_ERROR_RT_INTERNAL_ERROR;
}

/*
 * With the table lock held: release it and STREAM_SYNC ref's stream (id 0
 * with NPU_SIM_SYNC_ALL: every stream); *complete set from the status.  A
 * wait goes through a hold, without the lock, as it may last as long as
 * the work.  Returns 0 or -errno.
 */
static int stream_sync_unlock(const struct npu_rt_ref *ref, uint32_t flags, uint32_t timeout_ms,
			      int *complete, int *error)
{
	struct npu_sim_stream_sync req = { .id = ref->kid, .flags = flags, .timeout_ms = timeout_ms };
	int rc;

	if (flags & NPU_SIM_SYNC_QUERY) {
		rc = npu_rt_ioctl(ref->fd, NPU_SIM_IOCTL_STREAM_SYNC, &req);
		npu_rt_devices_unlock();
	} else {
		rc = npu_rt_ioctl_unlock(ref->fd, NPU_SIM_IOCTL_STREAM_SYNC, &req);
	}
	if (rc == 0) {
		*complete = req.status == NPU_SIM_STATUS_COMPLETE;
		*error = req.error;
	}
	if (rc == 0 && *complete)
		npu_rt_races_synced(ref->dev, ref->kid);
	return rc;
}

/* With the table lock held: release it and wait until the stream's work is
 * done; ACL_SUCCESS or its first error. */
static aclError stream_wait_unlock(const struct npu_rt_ref *ref)
{
	int complete = 0, error = 0;
	int rc = stream_sync_unlock(ref, 0, 0, &complete, &error);

	if (rc != 0)
		return npu_rt_obj_errno(rc);
	return npu_rt_async_error(error);
}

aclError npu_rt_stream_submit(const struct npu_rt_ref *ref, struct npu_sim_stream_submit *req, int wait)
{
	aclError err = ACL_SUCCESS;
	int rc;

	req->stream = ref->kid;
	/* A copy from pageable memory waits for its stream: no capture takes it. */
	if (wait && npu_rt_capture_stream_state(ref->dev, ref->kid) != 0) {
		npu_rt_capture_invalidate(ref->dev, ref->kid);
		npu_rt_devices_unlock();
		npu_rt_msg_detail("a copy from pageable host memory is synchronous: a capturing stream cannot take it");
		return ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC;
	}
	if (npu_rt_capture_submit(ref, req, NULL, NULL, 0, &err)) {
		npu_rt_devices_unlock();
		return err;
	}
	rc = npu_rt_ioctl(ref->fd, NPU_SIM_IOCTL_STREAM_SUBMIT, req);
	if (rc == 0)
		npu_rt_races_submit(ref, req);
	if (rc == -EAGAIN)
		npu_rt_msg_detail("the stream already holds the most operations the device queues");
	if (rc == -EAGAIN)
		err = ACL_ERROR_RT_STREAM_TASK_FULL;
	else if (rc == -EPIPE)
		err = npu_rt_stream_errno(ref, rc);
	else if (rc != 0 && rc != -ENOENT && (req->op == NPU_SIM_OP_COPY || req->op == NPU_SIM_OP_SET))
		err = npu_rt_copy_errno(-rc, req->op == NPU_SIM_OP_SET ? 0 : req->dir, req->dst,
					npu_rt_span_2d(req->dpitch, req->width, req->height), req->src,
					npu_rt_span_2d(req->spitch, req->width, req->height));
	else if (rc != 0)
		err = npu_rt_obj_errno(rc);
	else if (wait)
		return stream_wait_unlock(ref);
	npu_rt_devices_unlock();
	return err;
}

aclError npu_rt_stream_enter(aclrtStream stream, struct npu_rt_ref *ref)
{
	uint32_t sid;
	aclError err;
	int dev, rc;

	if (stream == NULL) {
		err = npu_rt_enter_current(&dev);
		if (err != ACL_SUCCESS)
			return err;
		rc = npu_rt_ctx_default_stream(dev, npu_rt_device_epoch_locked(dev),
					       npu_rt_device_fd_locked(dev), &sid);
		if (rc != 0) {
			npu_rt_devices_unlock();
			return npu_rt_create_error(NPU_RT_OBJ_STREAM, rc);
		}
		*ref = (struct npu_rt_ref){ .dev = dev, .fd = npu_rt_device_fd_locked(dev), .kid = sid,
					    .ctx_id = npu_rt_current_ctx_id_locked(dev) };
		return ACL_SUCCESS;
	}
	return npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, ref);
}

aclError npu_rt_stream_enter_ctx(aclrtStream stream, struct npu_rt_ref *ref)
{
	aclError err = npu_rt_stream_enter(stream, ref);

	if (err == ACL_SUCCESS)
		err = npu_rt_stream_ctx_check_locked(ref);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream)
{
	return npu_rt_obj_create(NPU_RT_OBJ_STREAM, 0, stream);
}

/*
 * Whether the current device's product has huge (deep) streams; with no
 * current device the creation fails later with the context's code.
 */
static bool stream_huge_ok(void)
{
	bool ok;
	int dev;

	if (npu_rt_enter_current(&dev) != ACL_SUCCESS)
		return true;
	ok = npu_rt_device_profile_locked(dev)->flags & NPU_SIM_PROFILE_STREAM_HUGE;
	npu_rt_devices_unlock();
	return ok;
}

uint32_t npu_rt_stream_priority_clamp(uint32_t priority)
{
	int32_t p = (int32_t)priority;	/* the runtime reads it signed */

	return p < 0 ? 0 : p > (int32_t)STREAM_PRIORITY_MAX ? STREAM_PRIORITY_MAX : (uint32_t)p;
}

aclError npu_rt_stream_create_config(uint32_t priority, uint64_t flag, aclrtStream *stream)
{
	if (stream == NULL)
		return ACL_ERROR_INVALID_PARAM;
	if ((flag & ACL_STREAM_HUGE) && !stream_huge_ok()) {
		npu_rt_msg_detail("flag 0x%llx: this product has no ACL_STREAM_HUGE streams",
				  (unsigned long long)flag);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (flag & ACL_STREAM_DEVICE_USE_ONLY) {
		npu_rt_msg_detail("flag 0x%llx: ACL_STREAM_DEVICE_USE_ONLY streams are not supported",
				  (unsigned long long)flag);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	/* Unknown flag bits are dropped; a priority outside 0..7 is clamped.
	 * The ACL flags are the driver's flag bits. */
	return npu_rt_stream_create(npu_rt_stream_priority_clamp(priority),
				    (uint32_t)flag & NPU_SIM_STREAM_FLAGS_MASK, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
	return npu_rt_stream_create_config(priority, flag, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream)
{
	return npu_rt_obj_destroy(stream, NPU_RT_OBJ_STREAM, 0);
}

/* With the table lock held: 107027 (lock released) when ref's stream
 * captures (the runtime refuses to wait for or query it), else 0. */
static aclError capture_refused(const struct npu_rt_ref *ref)
{
	if (npu_rt_capture_stream_state(ref->dev, ref->kid) == 0)
		return ACL_SUCCESS;
	npu_rt_devices_unlock();
	npu_rt_msg_detail("the stream is capturing (aclmdlRICaptureBegin): it cannot be waited for or queried");
	return ACL_ERROR_RT_STREAM_CAPTURED;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream)
{
	struct npu_rt_ref ref;
	aclError err = npu_rt_stream_enter(stream, &ref);

	if (err != ACL_SUCCESS)
		return err;
	err = capture_refused(&ref);
	if (err == ACL_SUCCESS)
		err = npu_rt_ctx_failure_refused(&ref);	/* Stream::CheckContextStatus */
	if (err != ACL_SUCCESS)
		return err;
	return stream_wait_unlock(&ref);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
	struct npu_rt_ref ref;
	int complete = 0, error = 0, rc;
	aclError err;

	if (timeout == -1)
		return aclrtSynchronizeStream(stream);
	/* The ACL layer refuses < -1, the runtime 0 after its handle guard: both 107000. */
	if (timeout == 0 && stream != NULL) {
		err = npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, &ref);
		if (err != ACL_SUCCESS)
			return err;
		npu_rt_devices_unlock();
	}
	if (timeout <= 0) {
		npu_rt_msg_detail("timeout %d ms is neither -1 (wait forever) nor > 0", (int)timeout);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	err = capture_refused(&ref);
	if (err == ACL_SUCCESS)
		err = npu_rt_ctx_failure_refused(&ref);	/* Stream::CheckContextStatus */
	if (err != ACL_SUCCESS)
		return err;
	rc = stream_sync_unlock(&ref, NPU_SIM_SYNC_TIMEOUT, (uint32_t)timeout, &complete, &error);
	if (rc != 0)
		return npu_rt_obj_errno(rc);
	if (!complete) {
		npu_rt_msg_detail("stream work was still queued after the timeout of %d ms", (int)timeout);
		return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
	}
	return npu_rt_async_error(error);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
	struct npu_rt_ref ref;
	int complete = 0, error = 0, rc;
	aclError err;

	if (status == NULL) {
		npu_rt_msg_detail("status is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	err = capture_refused(&ref);
	if (err == ACL_SUCCESS)
		err = npu_rt_ctx_failure_refused(&ref);	/* Stream::CheckContextStatus */
	if (err != ACL_SUCCESS)
		return err;
	rc = stream_sync_unlock(&ref, NPU_SIM_SYNC_QUERY, 0, &complete, &error);
	if (rc != 0)
		return npu_rt_obj_errno(rc);
	*status = complete ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
	return ACL_SUCCESS;
}

/*
 * Enter a device-wide synchronize: *all the current device and context
 * (table lock held) or the code that refuses it (lock released): a
 * capturing stream, or the current context's kept failure, answered
 * before any wait as the runtime's Context::Synchronize does.
 */
static aclError device_sync_enter(struct npu_rt_ref *all)
{
	aclError err;
	int dev;

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	if (npu_rt_capture_any(dev)) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("a stream of the device is capturing (aclmdlRICaptureBegin)");
		return ACL_ERROR_RT_STREAM_CAPTURED;
	}
	*all = (struct npu_rt_ref){ .dev = dev, .fd = npu_rt_device_fd_locked(dev), .kid = 0,
				    .ctx_id = npu_rt_current_ctx_id_locked(dev) };
	return npu_rt_ctx_failure_refused(all);
}

/* Wait for all streams of the current device; flags: 0 or NPU_SIM_SYNC_KEEP. */
aclError npu_rt_device_sync(uint32_t flags)
{
	int complete = 0, error = 0, rc;
	struct npu_rt_ref all;
	aclError err = device_sync_enter(&all);

	if (err != ACL_SUCCESS)
		return err;
	rc = stream_sync_unlock(&all, NPU_SIM_SYNC_ALL | flags, 0, &complete, &error);
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	return npu_rt_async_error(error);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void)
{
	return npu_rt_device_sync(0);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
	int complete = 0, error = 0, rc;
	struct npu_rt_ref all;
	aclError err;

	if (timeout == -1)
		return npu_rt_device_sync(0);
	/* ACL layer: < -1; runtime, before its context check: 0.  Both 107000. */
	if (timeout <= 0) {
		npu_rt_msg_detail("timeout %d ms is neither -1 (wait forever) nor > 0", (int)timeout);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = device_sync_enter(&all);
	if (err != ACL_SUCCESS)
		return err;
	rc = stream_sync_unlock(&all, NPU_SIM_SYNC_ALL | NPU_SIM_SYNC_TIMEOUT, (uint32_t)timeout, &complete, &error);
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	if (!complete) {
		npu_rt_msg_detail("work was still queued on the device after the timeout of %d ms", (int)timeout);
		return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
	}
	return npu_rt_async_error(error);
}

/*
 * aclrtDestroyStreamForce: destroy a stream without waiting for its queued
 * work.  The driver's forced STREAM_DESTROY drops the operations that have
 * not started and stops a running one at its next piece (a copy at its
 * next chunk, a value or event wait at once); the handle is dead when the
 * call returns.
 */

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream)
{
	if (stream == NULL) {
		npu_rt_msg_detail("stream is NULL (the default stream goes with its context)");
		return ACL_ERROR_INVALID_PARAM;
	}
	return npu_rt_obj_destroy(stream, NPU_RT_OBJ_STREAM, NPU_SIM_DESTROY_FORCE);
}

/*
 * Stream values: aclrtValueWrite and aclrtValueWait queue an 8-byte store
 * or a wait on an 8-byte value of device memory on a stream
 * (STREAM_SUBMIT OP_VALUE_WRITE / OP_VALUE_WAIT).  The driver's stream
 * worker performs them in order with the stream's other work; a waiting
 * stream re-checks the value whenever other work of the process completes
 * and at least every millisecond, so a value written by another stream, a
 * copy, or another process through shared memory releases it.
 */

/* flag_bad: NULL, or why the call's flag is refused (after the handle guard). */
static aclError queue_value(void *devAddr, uint64_t value, uint32_t op, uint32_t cond, const char *flag_bad,
			   aclrtStream stream)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	struct npu_rt_loc loc;
	aclError err;

	if (devAddr == NULL) {
		npu_rt_msg_detail("devAddr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	/* The runtime's checks (107000) follow its handle guard. */
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (flag_bad != NULL || (uintptr_t)devAddr % sizeof(uint64_t) != 0) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("%s", flag_bad != NULL ? flag_bad : "devAddr is not 8-byte aligned");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_stream_ctx_check_locked(&ref);	/* ApiImpl::MemWriteValue, MemWaitValue */
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
	return queue_value(devAddr, value, NPU_SIM_OP_VALUE_WRITE, 0,
			   flag == 0 ? NULL : "flag is reserved and must be 0", stream);
}

ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
	return queue_value(devAddr, value, NPU_SIM_OP_VALUE_WAIT, flag, flag <= ACL_STREAM_WAIT_VALUE_NOR ? NULL :
			   "flag is not an ACL_STREAM_WAIT_VALUE_* condition (0..3)", stream);
}
