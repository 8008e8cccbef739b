/*
 * Streams: aclrtCreateStream / aclrtCreateStreamWithConfig /
 * aclrtDestroyStream / aclrtSynchronizeStream /
 * aclrtSynchronizeStreamWithTimeout / aclrtStreamQuery, and
 * aclrtSynchronizeDevice.
 *
 * A stream is a kernel queue (STREAM_* ioctls) executed by the driver in
 * order; NULL means the current context's default stream.  The first error
 * of a stream's asynchronous work is returned (and cleared) by its next
 * synchronize, or by aclrtSynchronizeDevice.
 */
#include <errno.h>

#include "acl_internal.h"
#include "err_msg.h"

/* npu_sim choices: priorities 0 (highest) .. 7, the four CANN stream flags. */
#define STREAM_PRIORITY_MAX 7U
#define STREAM_FLAGS_MASK \
	(ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE)

aclError npu_rt_async_error(int err)
{
	switch (err) {
	case 0:
		return ACL_SUCCESS;
	case -EFAULT:	/* the host memory of a queued copy was gone when it ran */
		return ACL_ERROR_RT_COPY_DATA;
	case -ESRCH:	/* the process was exiting */
	case -ECANCELED:
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	default:
		return npu_rt_errno_to_acl(-err);
	}
}

aclError npu_rt_obj_errno(int rc)
{
	return rc == -ENOENT ? ACL_ERROR_RT_PARAM_INVALID : npu_rt_errno_to_acl(-rc);
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
	rc = npu_rt_ioctl(ref->fd, NPU_SIM_IOCTL_STREAM_SUBMIT, req);
	if (rc == -EAGAIN)
		npu_rt_msg_detail("the stream already holds the most operations the device queues");
	if (rc == -EAGAIN)
		err = ACL_ERROR_RT_STREAM_TASK_FULL;
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
		*ref = (struct npu_rt_ref){ .dev = dev, .fd = npu_rt_device_fd_locked(dev), .kid = sid };
		return ACL_SUCCESS;
	}
	return npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, ref);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream)
{
	return npu_rt_obj_create(NPU_RT_OBJ_STREAM, 0, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
	if (priority > STREAM_PRIORITY_MAX || (flag & ~STREAM_FLAGS_MASK) != 0) {
		npu_rt_msg_detail(priority > STREAM_PRIORITY_MAX ? "priority %u is more than %u" :
				  "flag 0x%x has bits outside FAST_LAUNCH | FAST_SYNC | PERSISTENT | HUGE",
				  priority > STREAM_PRIORITY_MAX ? priority : flag, STREAM_PRIORITY_MAX);
		return ACL_ERROR_INVALID_PARAM;
	}
	return npu_rt_obj_create(NPU_RT_OBJ_STREAM, priority, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream)
{
	return npu_rt_obj_destroy(stream, NPU_RT_OBJ_STREAM, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream)
{
	struct npu_rt_ref ref;
	aclError err = npu_rt_stream_enter(stream, &ref);

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
	if (timeout <= 0) {
		npu_rt_msg_detail("timeout %d ms is neither -1 (wait forever) nor > 0", (int)timeout);
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_enter(stream, &ref);
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
	rc = stream_sync_unlock(&ref, NPU_SIM_SYNC_QUERY, 0, &complete, &error);
	if (rc != 0)
		return npu_rt_obj_errno(rc);
	*status = complete ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
	return ACL_SUCCESS;
}

/* Wait for all streams of the current device; flags: 0 or NPU_SIM_SYNC_KEEP. */
aclError npu_rt_device_sync(uint32_t flags)
{
	int complete = 0, error = 0, dev, rc;
	struct npu_rt_ref all;
	aclError err = npu_rt_enter_current(&dev);

	if (err != ACL_SUCCESS)
		return err;
	all = (struct npu_rt_ref){ .dev = dev, .fd = npu_rt_device_fd_locked(dev), .kid = 0 };
	rc = stream_sync_unlock(&all, NPU_SIM_SYNC_ALL | flags, 0, &complete, &error);
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	return npu_rt_async_error(error);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void)
{
	return npu_rt_device_sync(0);
}
