/*
 * Contexts: aclrtCreateContext / aclrtDestroyContext / aclrtSetCurrentContext
 * / aclrtGetCurrentContext, and creating and destroying the kernel objects
 * behind stream and event handles of a context.  The handles live in the registry
 * (handles.c).
 *
 * A context belongs to one device.  aclrtSetDevice creates the device's
 * default context (once per opening of the device) and makes it the calling
 * thread's context; aclrtCreateContext takes a device reference (as
 * aclrtSetDevice) and makes the new context current; aclrtDestroyContext
 * destroys the context's streams and events (kernel objects: queued work is
 * finished first) and drops the device reference.  The current context is
 * per thread; a thread that never chose one uses the default context of its
 * current device.
 */
#include <errno.h>
#include <stdlib.h>

#include "acl_internal.h"
#include "model_ri.h"
#include "check.h"
#include "races.h"
#include "err_msg.h"

uint32_t npu_rt_current_ctx_id_locked(int dev)
{
	uint32_t id;

	(void)npu_rt_ctx_current(dev, npu_rt_device_epoch_locked(dev), &id);
	return id;
}

aclError npu_rt_stream_ctx_check_locked(const struct npu_rt_ref *ref)
{
	int dev = npu_rt_current_dev_locked();
	uint32_t cur;

	if (dev < 0) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the calling thread has no current context (aclrtSetDevice)");
		return ACL_ERROR_RT_CONTEXT_NULL;
	}
	cur = npu_rt_current_ctx_id_locked(dev);
	if (dev == ref->dev && cur == ref->ctx_id)
		return ACL_SUCCESS;
	npu_rt_devices_unlock();
	if (dev != ref->dev)
		npu_rt_msg_detail("the stream is on device %d, the current context on device %d: "
				  "make the stream's context current first", ref->dev, dev);
	else
		npu_rt_msg_detail("the stream belongs to another context of device %d than the current one "
				  "(aclrtSetCurrentContext)", dev);
	return ACL_ERROR_RT_STREAM_CONTEXT;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
	struct npu_rt_obj *c;
	aclError err;

	if (context == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = aclrtSetDevice(deviceId);	/* the context holds a device reference */
	if (err != ACL_SUCCESS)
		return err;

	npu_rt_devices_read_lock();
	c = npu_rt_ctx_create(deviceId, npu_rt_device_epoch_locked(deviceId));
	npu_rt_devices_unlock();
	if (c == NULL) {
		aclrtResetDevice(deviceId);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	*context = c;
	return ACL_SUCCESS;
}

/* Destroy kernel stream or event id of the device file fd (flags: stream
 * destroy flags): 0 or -errno. */
static int destroy_kernel_obj(int fd, enum npu_rt_obj_type type, uint32_t id, uint32_t flags)
{
	if (type == NPU_RT_OBJ_EVENT) {
		struct npu_sim_event_destroy req = { .id = id };

		return npu_rt_ioctl(fd, NPU_SIM_IOCTL_EVENT_DESTROY, &req);
	} else {
		struct npu_sim_stream_destroy req = { .id = id, .flags = flags };

		return npu_rt_ioctl(fd, NPU_SIM_IOCTL_STREAM_DESTROY, &req);
	}
}

aclError npu_rt_create_error(enum npu_rt_obj_type type, int rc)
{
	if (rc == -ENOSPC)
		return type == NPU_RT_OBJ_EVENT ? ACL_ERROR_RT_NO_EVENT_RESOURCE : ACL_ERROR_RT_NO_STREAM_RESOURCE;
	return npu_rt_errno_to_acl(-rc);
}

static enum npu_rt_check_kind check_kind(enum npu_rt_obj_type type)
{
	return type == NPU_RT_OBJ_EVENT ? NPU_RT_CK_EVENT : NPU_RT_CK_STREAM;
}

static aclError obj_create(enum npu_rt_obj_type type, uint32_t priority, uint32_t flags, void **handle)
{
	struct npu_rt_obj *o;
	uint32_t ctx_id, kid = 0;
	int dev, fd, rc;

	if (handle == NULL)
		return ACL_ERROR_INVALID_PARAM;
	if (npu_rt_enter_current(&dev) != ACL_SUCCESS)
		return ACL_ERROR_RT_CONTEXT_NULL;
	fd = npu_rt_device_fd_locked(dev);
	ctx_id = npu_rt_current_ctx_id_locked(dev);
	if (type == NPU_RT_OBJ_EVENT) {
		struct npu_sim_event_create req = { .ctx_id = ctx_id, .flags = priority };

		rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_EVENT_CREATE, &req);
		kid = req.id;
	} else {
		rc = npu_rt_stream_create_kernel(fd, ctx_id, priority, flags, &kid);
	}
	if (rc != 0) {
		npu_rt_devices_unlock();
		return npu_rt_create_error(type, rc);
	}
	o = npu_rt_obj_add(type, dev, npu_rt_device_epoch_locked(dev), ctx_id, kid);
	if (o == NULL)	/* a failing call changes nothing */
		(void)destroy_kernel_obj(fd, type, kid, 0);
	npu_rt_devices_unlock();
	if (o == NULL)
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	npu_rt_check_created(check_kind(type), dev, (uintptr_t)o, 0);
	*handle = o;
	if (type == NPU_RT_OBJ_STREAM)
		npu_rt_stream_state_notify(o, ACL_RT_STREAM_STATE_CREATE_POST);
	return ACL_SUCCESS;
}

aclError npu_rt_obj_create(enum npu_rt_obj_type type, uint32_t priority, void **handle)
{
	return obj_create(type, priority, 0, handle);
}

aclError npu_rt_stream_create(uint32_t priority, uint32_t flags, void **handle)
{
	return obj_create(NPU_RT_OBJ_STREAM, priority, flags, handle);
}

static const char *obj_name(enum npu_rt_obj_type type)
{
	return type == NPU_RT_OBJ_EVENT ? "event" : type == NPU_RT_OBJ_STREAM ? "stream" : "context";
}

aclError npu_rt_obj_enter(const void *handle, enum npu_rt_obj_type type, struct npu_rt_ref *ref)
{
	struct npu_rt_obj o;

	npu_rt_devices_read_lock();
	if (npu_rt_obj_get(handle, type, &o) != 0 || npu_rt_device_epoch_locked(o.dev) != o.epoch) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("%s %p is not a live %s of this process (destroyed, or its device was reset)",
				  obj_name(type), handle, obj_name(type));
		return ACL_ERROR_RT_INVALID_HANDLE;	/* the runtime's handle guard */
	}
	*ref = (struct npu_rt_ref){ .dev = o.dev, .fd = npu_rt_device_fd_locked(o.dev), .kid = o.kid,
				    .ev_flags = o.ev_flags, .ctx_id = o.ctx_id };
	return ACL_SUCCESS;
}

/* The runtime refuses to destroy a capturing stream. */
static aclError stream_captured(const void *handle)
{
	npu_rt_msg_detail("stream %p is capturing (aclmdlRICaptureBegin): end the capture first", handle);
	return ACL_ERROR_RT_STREAM_CAPTURED;
}

/*
 * A stream destroy waits for the stream's queued work: the table lock is
 * not held across it, a hold (taken first, so a failing call changes
 * nothing) keeps the device file.
 */
aclError npu_rt_obj_destroy(void *handle, enum npu_rt_obj_type type, uint32_t flags)
{
	struct npu_rt_obj seen, *o;
	struct npu_rt_hold h = { .fd = -1 };
	int rc = 0;

	if (handle == NULL) {
		npu_rt_msg_detail("%s is NULL", obj_name(type));
		return ACL_ERROR_INVALID_PARAM;
	}
	if (type == NPU_RT_OBJ_STREAM && npu_rt_obj_get(handle, type, &seen) == 0) {
		if (seen.is_default) {
			npu_rt_msg_detail("stream %p is a context's default stream (aclrtCtxGetCurrentDefaultStream): "
					  "it goes with its context", handle);
			return ACL_ERROR_RT_PARAM_INVALID;
		}
		/* The capture check of the API layer, then ApiImpl::StreamDestroy:
		 * only a stream of the current context (one of a reset device
		 * fails the handle guard below) */
		npu_rt_devices_read_lock();
		if (npu_rt_device_epoch_locked(seen.dev) == seen.epoch) {
			struct npu_rt_ref ref = { .dev = seen.dev, .ctx_id = seen.ctx_id };
			aclError err;

			if (npu_rt_capture_stream_state(seen.dev, seen.kid) != 0) {
				npu_rt_devices_unlock();
				return stream_captured(handle);
			}
			err = npu_rt_stream_ctx_check_locked(&ref);
			if (err != ACL_SUCCESS)
				return err;
		}
		npu_rt_devices_unlock();
		npu_rt_stream_state_notify(handle, ACL_RT_STREAM_STATE_DESTROY_PRE);
	}
	/*
	 * A stream: written, so no aclmdlRICaptureBegin (which holds the lock
	 * for reading from its handle check on) begins between the capture
	 * check here and the take; the one above may be stale.
	 */
	if (type == NPU_RT_OBJ_STREAM)
		npu_rt_devices_write_lock();
	else
		npu_rt_devices_read_lock();
	if (npu_rt_obj_get(handle, type, &seen) == 0 && npu_rt_device_epoch_locked(seen.dev) == seen.epoch) {
		if (type == NPU_RT_OBJ_STREAM && npu_rt_capture_stream_state(seen.dev, seen.kid) != 0) {
			npu_rt_devices_unlock();
			return stream_captured(handle);
		}
		rc = npu_rt_hold_locked(npu_rt_device_fd_locked(seen.dev), &h);
	}
	if (rc != 0) {
		npu_rt_devices_unlock();
		return npu_rt_errno_to_acl(-rc);
	}
	o = npu_rt_obj_take(handle, type);
	npu_rt_devices_unlock();
	if (o == NULL) {
		npu_rt_msg_detail("%s is not a live %s of this process (destroyed, or its device was reset)",
				  obj_name(type), obj_name(type));
		rc = -1;
	} else if (h.fd >= 0) {
		rc = destroy_kernel_obj(h.fd, type, o->kid, flags);
		npu_rt_races_destroyed(o->dev, type == NPU_RT_OBJ_EVENT, o->kid);	/* work done or dropped */
	}
	if (h.fd >= 0)
		npu_rt_hold_drop(&h);
	if (o == NULL)
		return ACL_ERROR_RT_INVALID_HANDLE;	/* the runtime's handle guard */
	npu_rt_check_destroyed(check_kind(type), (uintptr_t)o);
	free(o);
	return rc == 0 ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context)
{
	struct npu_rt_obj seen, *c, *gone;
	struct npu_rt_hold h;
	int dev, rc;

	if (context == NULL)
		return ACL_ERROR_INVALID_PARAM;

	npu_rt_devices_read_lock();
	/* Only a context of the device's current opening is taken. */
	if (npu_rt_obj_get(context, NPU_RT_OBJ_CTX, &seen) != 0 ||
	    npu_rt_device_epoch_locked(seen.dev) == 0) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("context is not a live context of this process made by aclrtCreateContext");
		return ACL_ERROR_RT_CONTEXT_NULL;
	}
	/* the streams' destroys wait for their work: a hold, not the lock */
	rc = npu_rt_hold_locked(npu_rt_device_fd_locked(seen.dev), &h);
	if (rc != 0) {
		npu_rt_devices_unlock();
		return npu_rt_errno_to_acl(-rc);
	}
	c = npu_rt_ctx_take(context, npu_rt_device_epoch_locked(seen.dev), &gone);
	npu_rt_devices_unlock();
	if (c == NULL) {	/* destroyed, or a device's default context */
		npu_rt_hold_drop(&h);
		npu_rt_msg_detail("context is not a live context of this process made by aclrtCreateContext");
		return ACL_ERROR_RT_CONTEXT_NULL;
	}
	dev = c->dev;

	/* Kernel objects: streams finish their queued work first. */
	while (gone != NULL) {
		struct npu_rt_obj *o = gone;

		gone = o->next;
		if (o->type == NPU_RT_OBJ_STREAM && !o->is_default)
			npu_rt_stream_state_notify(o, ACL_RT_STREAM_STATE_DESTROY_PRE);
		if (!o->is_default)	/* that one is c->kid, below */
			(void)destroy_kernel_obj(h.fd, o->type, o->kid, 0);
		npu_rt_races_destroyed(o->dev, o->type == NPU_RT_OBJ_EVENT, o->kid);
		npu_rt_check_destroyed(check_kind(o->type), (uintptr_t)o);
		free(o);
	}
	if (c->kid != 0)	/* its default stream */
		(void)destroy_kernel_obj(h.fd, NPU_RT_OBJ_STREAM, c->kid, 0);
	npu_rt_races_destroyed(dev, false, c->kid);
	free(c);
	npu_rt_hold_drop(&h);
	return aclrtResetDevice(dev);
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context)
{
	struct npu_rt_obj c;
	aclError err;

	if (context == NULL)
		return ACL_ERROR_INVALID_PARAM;
	if (npu_rt_obj_get(context, NPU_RT_OBJ_CTX, &c) != 0)
		return ACL_ERROR_RT_PARAM_INVALID;
	err = npu_rt_device_bind_current(c.dev, c.epoch);
	if (err == ACL_SUCCESS)
		npu_rt_ctx_make_current(context);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context)
{
	uint32_t id;
	void *c;
	aclError err;
	int dev;

	if (context == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	c = npu_rt_ctx_current(dev, npu_rt_device_epoch_locked(dev), &id);
	npu_rt_devices_unlock();
	if (c == NULL)
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	*context = c;
	return ACL_SUCCESS;
}
