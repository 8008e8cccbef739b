/*
 * aclrtDestroyStreamForce: destroy a stream without waiting for its queued
 * work.  The handle is dead when the call returns.  The driver has no way
 * to cancel queued operations of a live file, so work already queued still
 * runs to the end: a helper thread waits for it and frees the kernel
 * stream, holding the device table for reading meanwhile (so a reset of
 * the device waits for that work, as aclrtResetDeviceForce does anyway).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "acl_internal.h"
#include "err_msg.h"

/* Free the kernel stream of o (if its device is still that opening). */
static void destroy_kernel_stream(struct npu_rt_obj *o)
{
	struct npu_sim_stream_destroy req = { .id = o->kid };

	if (npu_rt_device_epoch_locked(o->dev) == o->epoch)
		(void)npu_rt_ioctl(npu_rt_device_fd_locked(o->dev), NPU_SIM_IOCTL_STREAM_DESTROY, &req);
}

static void *destroy_when_done(void *arg)
{
	struct npu_rt_obj *o = arg;

	npu_rt_devices_read_lock();
	destroy_kernel_stream(o);
	npu_rt_devices_unlock();
	free(o);
	return NULL;
}

/* 1 when nothing is queued on o's kernel stream (or it is gone). */
static int stream_idle(const struct npu_rt_obj *o)
{
	struct npu_sim_stream_sync q = { .id = o->kid, .flags = NPU_SIM_SYNC_QUERY };

	if (npu_rt_device_epoch_locked(o->dev) != o->epoch)
		return 1;
	if (npu_rt_ioctl(npu_rt_device_fd_locked(o->dev), NPU_SIM_IOCTL_STREAM_SYNC, &q) != 0)
		return 1;
	return q.status == NPU_SIM_STATUS_COMPLETE;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream)
{
	struct npu_rt_obj *o;
	pthread_attr_t attr;
	pthread_t t;
	int started = 0;

	if (stream == NULL) {
		npu_rt_msg_detail("stream is NULL (the default stream goes with its context)");
		return ACL_ERROR_INVALID_PARAM;
	}
	npu_rt_devices_read_lock();
	o = npu_rt_obj_take(stream, NPU_RT_OBJ_STREAM);
	if (o == NULL) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("stream is not a live stream of this process (destroyed, or its device was reset)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (!stream_idle(o) && pthread_attr_init(&attr) == 0) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		started = pthread_create(&t, &attr, destroy_when_done, o) == 0;
		pthread_attr_destroy(&attr);
	}
	if (!started) {	/* idle, or no thread to wait with: destroy now */
		destroy_kernel_stream(o);
		free(o);
	}
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}
