/*
 * The registry of context, stream and event handles (acl_internal.h), and
 * each thread's current context.
 *
 * A handle is only dereferenced after it was found in the registry (under
 * obj_lock, the innermost lock), so a destroyed or made-up handle is an
 * error, never a crash.  Callers get copies, not pointers they could keep
 * past the lock.  The registry knows devices only by the (dev, epoch)
 * pairs it is given; the device table (device.c) tells it when a device
 * is opened or closed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "acl_internal.h"

static pthread_mutex_t obj_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npu_rt_obj objs = { .next = &objs, .prev = &objs };
static uint32_t last_ctx_id;

static __thread struct npu_rt_obj *cur_ctx;	/* validated before use */

/* ---- the list (obj_lock held) ---------------------------------------- */

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

/* The default context of (dev, epoch), made when missing. */
static struct npu_rt_obj *default_ctx(int dev, uint64_t epoch)
{
	struct npu_rt_obj *c = find_default(dev, epoch);

	if (c == NULL) {
		c = new_obj(NPU_RT_OBJ_CTX, dev, epoch, ++last_ctx_id, 0);
		if (c != NULL)
			c->is_default = 1;
	}
	return c;
}

/* The thread's context on (dev, epoch): its own, else the default. */
static struct npu_rt_obj *current_ctx(int dev, uint64_t epoch)
{
	struct npu_rt_obj *c = cur_ctx;

	if (c != NULL && find_obj(c, NPU_RT_OBJ_CTX) != NULL && c->dev == dev && c->epoch == epoch)
		return c;
	return default_ctx(dev, epoch);	/* e.g. allocation failed in aclrtSetDevice */
}

/* ---- objects --------------------------------------------------------- */

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

void npu_rt_obj_set_ev_flags(struct npu_rt_obj *o, uint32_t flags)
{
	pthread_mutex_lock(&obj_lock);
	o->ev_flags = flags;
	pthread_mutex_unlock(&obj_lock);
}

int npu_rt_event_op_flag(const void *handle, int op, uint32_t flag)
{
	struct npu_rt_obj *o;
	int ret = -2;

	pthread_mutex_lock(&obj_lock);
	o = find_obj(handle, NPU_RT_OBJ_EVENT);
	if (o != NULL) {
		ret = o->ev_op_flag[op] != 0 && o->ev_op_flag[op] != flag + 1 ? -1 : 0;
		if (ret == 0)
			o->ev_op_flag[op] = flag + 1;
	}
	pthread_mutex_unlock(&obj_lock);
	return ret;
}

int npu_rt_obj_get(const void *handle, enum npu_rt_obj_type type, struct npu_rt_obj *copy)
{
	struct npu_rt_obj *o;

	pthread_mutex_lock(&obj_lock);
	o = find_obj(handle, type);
	if (o != NULL)
		*copy = *o;
	pthread_mutex_unlock(&obj_lock);
	return o != NULL ? 0 : -1;
}

int npu_rt_obj_died(const void *handle, enum npu_rt_obj_type type, int dev, uint32_t kid)
{
	struct npu_rt_obj o;

	/* a handle made again at the same address names another kernel object */
	return handle != NULL && (npu_rt_obj_get(handle, type, &o) != 0 || o.dev != dev || o.kid != kid);
}

void *npu_rt_obj_handle_of(enum npu_rt_obj_type type, int dev, uint64_t epoch, uint32_t kid)
{
	void *h = NULL;

	pthread_mutex_lock(&obj_lock);
	for (struct npu_rt_obj *o = objs.next; o != &objs; o = o->next)
		if (o->type == type && o->dev == dev && o->epoch == epoch && o->kid == kid) {
			h = o;
			break;
		}
	pthread_mutex_unlock(&obj_lock);
	return h;
}

/* ---- contexts -------------------------------------------------------- */

struct npu_rt_obj *npu_rt_ctx_create(int dev, uint64_t epoch)
{
	struct npu_rt_obj *c;

	pthread_mutex_lock(&obj_lock);
	c = new_obj(NPU_RT_OBJ_CTX, dev, epoch, ++last_ctx_id, 0);
	if (c != NULL)
		cur_ctx = c;
	pthread_mutex_unlock(&obj_lock);
	return c;
}

struct npu_rt_obj *npu_rt_ctx_take(void *handle, uint64_t epoch, struct npu_rt_obj **gone)
{
	struct npu_rt_obj *c;

	*gone = NULL;
	pthread_mutex_lock(&obj_lock);
	c = find_obj(handle, NPU_RT_OBJ_CTX);
	if (c == NULL || c->is_default || c->epoch != epoch) {
		pthread_mutex_unlock(&obj_lock);
		return NULL;
	}
	for (struct npu_rt_obj *o = objs.next, *n; o != &objs; o = n) {
		n = o->next;
		if (o != c && o->type != NPU_RT_OBJ_CTX && o->dev == c->dev && o->epoch == c->epoch &&
		    o->ctx_id == c->ctx_id) {
			unlink_obj(o);
			o->next = *gone;
			*gone = o;
		}
	}
	unlink_obj(c);
	if (cur_ctx == c)
		cur_ctx = NULL;
	pthread_mutex_unlock(&obj_lock);
	return c;
}

void npu_rt_ctx_make_current(struct npu_rt_obj *c)
{
	cur_ctx = c;
}

void *npu_rt_ctx_current(int dev, uint64_t epoch, uint32_t *ctx_id)
{
	struct npu_rt_obj *c;

	pthread_mutex_lock(&obj_lock);
	c = current_ctx(dev, epoch);
	*ctx_id = c != NULL ? c->ctx_id : 0;
	pthread_mutex_unlock(&obj_lock);
	return c;
}

int npu_rt_stream_create_kernel(int fd, uint32_t ctx_id, uint32_t priority, uint32_t flags, uint32_t *sid)
{
	struct npu_sim_stream_create req = { .ctx_id = ctx_id, .flags = flags, .priority = priority };
	int rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_STREAM_CREATE, &req);

	if (rc == 0)
		*sid = req.id;
	return rc;
}

int npu_rt_ctx_default_stream(int dev, uint64_t epoch, int fd, uint32_t *sid)
{
	struct npu_rt_obj *c;
	int rc = 0;

	pthread_mutex_lock(&obj_lock);
	c = current_ctx(dev, epoch);
	if (c == NULL)
		rc = -ENOMEM;
	else if (c->kid == 0)	/* the default stream, on first use */
		rc = npu_rt_stream_create_kernel(fd, c->ctx_id, 0, 0, &c->kid);
	if (rc == 0)
		*sid = c->kid;
	pthread_mutex_unlock(&obj_lock);
	return rc;
}

/* ---- stream options, default stream handles -------------------------- */

int npu_rt_stream_opts(const void *stream, int dev, uint64_t epoch,
		       void (*edit)(struct npu_rt_stream_opts *opts, const void *arg), const void *arg,
		       struct npu_rt_stream_opts *out)
{
	struct npu_rt_obj *o;

	pthread_mutex_lock(&obj_lock);
	o = stream != NULL ? find_obj(stream, NPU_RT_OBJ_STREAM) : current_ctx(dev, epoch);
	/* a default stream's handle shares its context's options */
	if (o != NULL && o->is_default && o->type == NPU_RT_OBJ_STREAM) {
		struct npu_rt_obj *c = objs.next;

		while (c != &objs && !(c->type == NPU_RT_OBJ_CTX && c->ctx_id == o->ctx_id))
			c = c->next;
		o = c != &objs ? c : NULL;
	}
	if (o != NULL && edit != NULL)
		edit(&o->opts, arg);
	if (o != NULL)
		*out = o->opts;
	pthread_mutex_unlock(&obj_lock);
	return o != NULL ? 0 : -1;
}

int npu_rt_ctx_default_handle(int dev, uint64_t epoch, uint32_t sid, void **handle)
{
	struct npu_rt_obj *c, *o;

	pthread_mutex_lock(&obj_lock);
	c = current_ctx(dev, epoch);
	o = NULL;
	for (struct npu_rt_obj *it = objs.next; c != NULL && it != &objs; it = it->next)
		if (it->type == NPU_RT_OBJ_STREAM && it->is_default && it->ctx_id == c->ctx_id)
			o = it;
	if (o == NULL && c != NULL) {
		o = new_obj(NPU_RT_OBJ_STREAM, dev, epoch, c->ctx_id, sid);
		if (o != NULL)
			o->is_default = 1;
	}
	pthread_mutex_unlock(&obj_lock);
	if (o == NULL)
		return -ENOMEM;
	*handle = o;
	return 0;
}

/* ---- device table hooks (table lock held for writing) ----------------- */

void npu_rt_handles_device_opened(int dev, uint64_t epoch)
{
	pthread_mutex_lock(&obj_lock);
	cur_ctx = default_ctx(dev, epoch);
	pthread_mutex_unlock(&obj_lock);
}

/* The fd is being closed: the kernel drops its streams and events. */
void npu_rt_handles_device_closed(int dev)
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

void npu_rt_handles_atfork_child(void)
{
	/* the parent's objects name the parent's files: forget them */
	objs.next = objs.prev = &objs;
	cur_ctx = NULL;
	pthread_mutex_init(&obj_lock, NULL);
}
