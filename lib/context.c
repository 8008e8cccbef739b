/*
 * Contexts: aclrtCreateContext / aclrtDestroyContext / aclrtSetCurrentContext
 * / aclrtGetCurrentContext, and the registry of context, stream and event
 * handles (acl_internal.h).
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
#include <pthread.h>
#include <stdlib.h>

#include "acl_internal.h"

static pthread_mutex_t obj_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npu_rt_obj objs = { .next = &objs, .prev = &objs };
static uint32_t last_ctx_id;

static __thread struct npu_rt_obj *cur_ctx;	/* validated before use */

/* ---- registry (obj_lock held) ---------------------------------------- */

static void link_obj(struct npu_rt_obj *o)
{
	o->next = &objs;
	o->prev = objs.prev;
	objs.prev->next = o;
	objs.prev = o;
}

static void unlink_obj(struct npu_rt_obj *o)
{
	o->prev->next = o->next;
	o->next->prev = o->prev;
	o->next = o->prev = NULL;
}

static struct npu_rt_obj *find_obj(const void *handle, enum npu_rt_obj_type type)
{
	for (struct npu_rt_obj *o = objs.next; o != &objs; o = o->next)
		if (o == handle && o->type == type)
			return o;
	return NULL;
}

static struct npu_rt_obj *find_default(int dev, uint64_t epoch)
{
	for (struct npu_rt_obj *o = objs.next; o != &objs; o = o->next)
		if (o->type == NPU_RT_OBJ_CTX && o->is_default && o->dev == dev && o->epoch == epoch)
			return o;
	return NULL;
}

static struct npu_rt_obj *new_obj(enum npu_rt_obj_type type, int dev, uint64_t epoch, uint32_t ctx_id,
				  uint32_t kid)
{
	struct npu_rt_obj *o = calloc(1, sizeof(*o));

	if (o == NULL)
		return NULL;
	o->type = type;
	o->dev = dev;
	o->epoch = epoch;
	o->ctx_id = ctx_id;
	o->kid = kid;
	link_obj(o);
	return o;
}

struct npu_rt_obj *npu_rt_obj_add(enum npu_rt_obj_type type, int dev, uint64_t epoch,
				  uint32_t ctx_id, uint32_t kid)
{
	struct npu_rt_obj *o;

	pthread_mutex_lock(&obj_lock);
	o = new_obj(type, dev, epoch, ctx_id, kid);
	pthread_mutex_unlock(&obj_lock);
	return o;
}

struct npu_rt_obj *npu_rt_obj_take(void *handle, enum npu_rt_obj_type type)
{
	struct npu_rt_obj *o;

	pthread_mutex_lock(&obj_lock);
	o = find_obj(handle, type);
	if (o != NULL)
		unlink_obj(o);
	pthread_mutex_unlock(&obj_lock);
	return o;
}

/* Table lock held, obj_lock held: the thread's context on device dev. */
static struct npu_rt_obj *current_ctx(int dev)
{
	uint64_t epoch = npu_rt_device_epoch_locked(dev);
	struct npu_rt_obj *c = cur_ctx;

	if (c != NULL && find_obj(c, NPU_RT_OBJ_CTX) != NULL && c->dev == dev && c->epoch == epoch)
		return c;
	c = find_default(dev, epoch);
	if (c == NULL) {	/* e.g. allocation failed in aclrtSetDevice */
		c = new_obj(NPU_RT_OBJ_CTX, dev, epoch, ++last_ctx_id, 0);
		if (c != NULL) {
			c->ctx_id = last_ctx_id;
			c->is_default = 1;
		}
	}
	return c;
}

uint32_t npu_rt_current_ctx_id_locked(int dev)
{
	struct npu_rt_obj *c;
	uint32_t id;

	pthread_mutex_lock(&obj_lock);
	c = current_ctx(dev);
	id = c != NULL ? c->ctx_id : 0;
	pthread_mutex_unlock(&obj_lock);
	return id;
}

void npu_rt_ctx_device_opened(int dev, uint64_t epoch)
{
	struct npu_rt_obj *c;

	pthread_mutex_lock(&obj_lock);
	c = find_default(dev, epoch);
	if (c == NULL) {
		c = new_obj(NPU_RT_OBJ_CTX, dev, epoch, ++last_ctx_id, 0);
		if (c != NULL)
			c->is_default = 1;
	}
	cur_ctx = c;
	pthread_mutex_unlock(&obj_lock);
}

/* The fd is being closed: the kernel drops its streams and events. */
void npu_rt_ctx_device_closed(int dev)
{
	pthread_mutex_lock(&obj_lock);
	for (struct npu_rt_obj *o = objs.next, *n; o != &objs; o = n) {
		n = o->next;
		if (o->dev == dev) {
			unlink_obj(o);
			free(o);
		}
	}
	pthread_mutex_unlock(&obj_lock);
}

void npu_rt_ctx_atfork_child(void)
{
	/* the parent's objects name the parent's files: forget them */
	objs.next = objs.prev = &objs;
	cur_ctx = NULL;
	pthread_mutex_init(&obj_lock, NULL);
}

/* ---- resolving handles ----------------------------------------------- */

static int stream_create_kernel(int fd, uint32_t ctx_id, uint32_t priority, uint32_t *sid)
{
	struct npu_sim_stream_create req = { .ctx_id = ctx_id, .priority = priority };
	int rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_STREAM_CREATE, &req);

	if (rc == 0)
		*sid = req.id;
	return rc;
}

aclError npu_rt_stream_enter(aclrtStream stream, struct npu_rt_stream_ref *ref)
{
	struct npu_rt_obj *o;
	aclError err = ACL_SUCCESS;
	int dev;

	if (stream == NULL) {
		err = npu_rt_enter_current(&dev);
		if (err != ACL_SUCCESS)
			return err;
		pthread_mutex_lock(&obj_lock);
		o = current_ctx(dev);
		if (o == NULL) {
			err = ACL_ERROR_RT_MEMORY_ALLOCATION;
		} else if (o->kid == 0) {	/* the default stream, on first use */
			int rc = stream_create_kernel(npu_rt_device_fd_locked(dev), o->ctx_id, 0, &o->kid);

			if (rc != 0)
				err = rc == -ENOSPC ? ACL_ERROR_RT_NO_STREAM_RESOURCE : npu_rt_errno_to_acl(-rc);
		}
		if (err == ACL_SUCCESS)
			*ref = (struct npu_rt_stream_ref){ .dev = dev, .fd = npu_rt_device_fd_locked(dev),
							    .sid = o->kid };
		pthread_mutex_unlock(&obj_lock);
		if (err != ACL_SUCCESS)
			npu_rt_devices_unlock();
		return err;
	}

	npu_rt_devices_read_lock();
	pthread_mutex_lock(&obj_lock);
	o = find_obj(stream, NPU_RT_OBJ_STREAM);
	if (o == NULL || npu_rt_device_epoch_locked(o->dev) != o->epoch)
		err = ACL_ERROR_RT_PARAM_INVALID;
	else
		*ref = (struct npu_rt_stream_ref){ .dev = o->dev, .fd = npu_rt_device_fd_locked(o->dev),
						    .sid = o->kid };
	pthread_mutex_unlock(&obj_lock);
	if (err != ACL_SUCCESS)
		npu_rt_devices_unlock();
	return err;
}

aclError npu_rt_event_enter(aclrtEvent event, int *dev, int *fd, uint32_t *eid)
{
	struct npu_rt_obj *o;
	aclError err = ACL_SUCCESS;

	if (event == NULL)
		return ACL_ERROR_INVALID_PARAM;
	npu_rt_devices_read_lock();
	pthread_mutex_lock(&obj_lock);
	o = find_obj(event, NPU_RT_OBJ_EVENT);
	if (o == NULL || npu_rt_device_epoch_locked(o->dev) != o->epoch) {
		err = ACL_ERROR_RT_PARAM_INVALID;
	} else {
		*dev = o->dev;
		*fd = npu_rt_device_fd_locked(o->dev);
		*eid = o->kid;
	}
	pthread_mutex_unlock(&obj_lock);
	if (err != ACL_SUCCESS)
		npu_rt_devices_unlock();
	return err;
}

/* ---- the API --------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
	struct npu_rt_obj *c = NULL;
	uint64_t epoch;
	aclError err;

	if (context == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = aclrtSetDevice(deviceId);	/* the context holds a device reference */
	if (err != ACL_SUCCESS)
		return err;

	npu_rt_devices_read_lock();
	epoch = npu_rt_device_epoch_locked(deviceId);
	pthread_mutex_lock(&obj_lock);
	c = new_obj(NPU_RT_OBJ_CTX, deviceId, epoch, ++last_ctx_id, 0);
	if (c != NULL)
		cur_ctx = c;
	pthread_mutex_unlock(&obj_lock);
	npu_rt_devices_unlock();
	if (c == NULL) {
		aclrtResetDevice(deviceId);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	*context = c;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context)
{
	struct npu_rt_obj *c, *gone = NULL;
	int dev, fd;

	if (context == NULL)
		return ACL_ERROR_INVALID_PARAM;

	npu_rt_devices_read_lock();
	pthread_mutex_lock(&obj_lock);
	c = find_obj(context, NPU_RT_OBJ_CTX);
	if (c == NULL || c->is_default || npu_rt_device_epoch_locked(c->dev) != c->epoch) {
		pthread_mutex_unlock(&obj_lock);
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	dev = c->dev;
	fd = npu_rt_device_fd_locked(dev);
	/* Take the context and everything of it out of the registry. */
	for (struct npu_rt_obj *o = objs.next, *n; o != &objs; o = n) {
		n = o->next;
		if (o != c && o->type != NPU_RT_OBJ_CTX && o->dev == dev && o->epoch == c->epoch &&
		    o->ctx_id == c->ctx_id) {
			unlink_obj(o);
			o->next = gone;
			gone = o;
		}
	}
	unlink_obj(c);
	if (cur_ctx == c)
		cur_ctx = NULL;
	pthread_mutex_unlock(&obj_lock);

	/* Kernel objects: streams finish their queued work first. */
	while (gone != NULL) {
		struct npu_rt_obj *o = gone;

		gone = o->next;
		if (o->type == NPU_RT_OBJ_STREAM) {
			struct npu_sim_stream_destroy req = { .id = o->kid };

			(void)npu_rt_ioctl(fd, NPU_SIM_IOCTL_STREAM_DESTROY, &req);
		} else {
			struct npu_sim_event_destroy req = { .id = o->kid };

			(void)npu_rt_ioctl(fd, NPU_SIM_IOCTL_EVENT_DESTROY, &req);
		}
		free(o);
	}
	if (c->kid != 0) {	/* its default stream */
		struct npu_sim_stream_destroy req = { .id = c->kid };

		(void)npu_rt_ioctl(fd, NPU_SIM_IOCTL_STREAM_DESTROY, &req);
	}
	free(c);
	npu_rt_devices_unlock();
	return aclrtResetDevice(dev);
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context)
{
	struct npu_rt_obj *c;
	uint64_t epoch = 0;
	aclError err;
	int dev = -1;

	if (context == NULL)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&obj_lock);
	c = find_obj(context, NPU_RT_OBJ_CTX);
	if (c != NULL) {
		dev = c->dev;
		epoch = c->epoch;
	}
	pthread_mutex_unlock(&obj_lock);
	if (c == NULL)
		return ACL_ERROR_RT_PARAM_INVALID;
	err = npu_rt_device_bind_current(dev, epoch);
	if (err == ACL_SUCCESS)
		cur_ctx = c;
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context)
{
	struct npu_rt_obj *c;
	aclError err;
	int dev;

	if (context == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	pthread_mutex_lock(&obj_lock);
	c = current_ctx(dev);
	pthread_mutex_unlock(&obj_lock);
	npu_rt_devices_unlock();
	if (c == NULL)
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	*context = c;
	return ACL_SUCCESS;
}
