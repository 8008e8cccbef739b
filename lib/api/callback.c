/*
 * Host callbacks: aclrtSubscribeReport / aclrtLaunchCallback /
 * aclrtProcessReport / aclrtUnSubscribeReport, and aclrtLaunchHostFunc with
 * aclrtSubscribeHostFunc / aclrtProcessHostFunc / aclrtUnSubscribeHostFunc.
 *
 * A callback is a stream operation (OP_CALLBACK): when the stream reaches
 * it, the driver posts a report to the thread the stream is subscribed to
 * (the channel is the thread's pthread_t, the id aclrtSubscribeReport
 * takes); that thread runs the function inside aclrtProcessReport and
 * tells the driver it returned (CB_DONE).  ACL_CALLBACK_BLOCK holds the
 * stream until then; NO_BLOCK lets it go on once the report is posted.
 * The driver sees only a cookie: the function and its argument wait here,
 * in the pending list, until the report comes back.
 *
 * A host function (aclrtLaunchHostFunc) always blocks its stream.  It runs
 * in the thread of aclrtSubscribeHostFunc when the stream has one;
 * otherwise, as in the runtime, in a thread of the library (one per
 * opened device, started by the first such launch and ended when no
 * stream of the device is subscribed to it any more).
 *
 * Locks: cb_lock guards the lists below; it is taken alone or inside the
 * device table lock, and nothing is taken inside it.  No lock is held
 * while a thread waits for a report or runs a callback.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "races.h"
#include "err_msg.h"
#include "model_ri.h"

enum { KIND_REPORT, KIND_HOSTFUNC };

/* The runtime's limit of threads that process reports (RT_THREAD_GROUP_ID_MAX). */
#define MAX_REPORT_THREADS 128
/* The library's host function thread looks at its device this often (ms). */
#define RUNTIME_WAIT_MS 200U
/* Pending callbacks of destroyed streams are looked for past this count. */
#define SWEEP_MIN 64U

/* A launched callback whose report has not come back. */
struct pending {
	struct pending *next;
	uint64_t cookie;
	void (*fn)(void *);
	void *data;
	int dev;
	uint64_t epoch;
	uint32_t kid;		/* its stream */
	int kind;
};

/* A thread that processes callbacks of one kind for streams of one device. */
struct cb_thread {
	struct cb_thread *next;
	uint64_t id;		/* the pthread_t, the driver's channel */
	int kind;
	int dev;
	uint64_t epoch;
	int runtime;		/* the library's host function thread */
};

static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *pendings;
static size_t n_pending, sweep_at = SWEEP_MIN;
static uint64_t last_cookie;
static struct cb_thread *threads;

static const char *const kind_call[] = { "aclrtSubscribeReport", "aclrtSubscribeHostFunc" };

static uint32_t kind_flags(int kind)
{
	return kind == KIND_HOSTFUNC ? NPU_SIM_CB_HOSTFUNC : 0;
}

void npu_rt_callback_atfork_prepare(void)
{
	pthread_mutex_lock(&cb_lock);
}

void npu_rt_callback_atfork_parent(void)
{
	pthread_mutex_unlock(&cb_lock);
}

/* The child's devices are new openings: what the lists hold is stale. */
void npu_rt_callback_atfork_child(void)
{
	pthread_mutex_init(&cb_lock, NULL);
}

/* ---- the thread list (cb_lock held) ------------------------------------ */

static struct cb_thread **thread_slot(uint64_t id, int kind)
{
	struct cb_thread **t;

	for (t = &threads; *t != NULL; t = &(*t)->next)
		if ((*t)->id == id && (*t)->kind == kind)
			return t;
	return NULL;
}

static void thread_remove(struct cb_thread **slot)
{
	struct cb_thread *t = *slot;

	*slot = t->next;
	free(t);
}

/* Streams subscribed to channel id for kind on device file fd, or -1. */
static int streams_of(int fd, uint64_t id, int kind)
{
	struct npu_sim_cb_query q = { .channel = id, .flags = kind_flags(kind) };

	return npu_rt_ioctl(fd, NPU_SIM_IOCTL_CB_QUERY, &q) == 0 ? (int)q.streams : -1;
}

/* Table lock held: whether t still has a subscribed stream. */
static int thread_live_locked(const struct cb_thread *t)
{
	if (npu_rt_device_epoch_locked(t->dev) != t->epoch)
		return 0;
	return streams_of(npu_rt_device_fd_locked(t->dev), t->id, t->kind) > 0;
}

/* Table lock held: drop the threads of kind with no stream left; how many remain. */
static int threads_prune_locked(int kind)
{
	struct cb_thread **t = &threads;
	int n = 0;

	while (*t != NULL) {
		if ((*t)->kind != kind || (*t)->runtime) {
			t = &(*t)->next;
		} else if (!thread_live_locked(*t)) {
			thread_remove(t);
		} else {
			n++;
			t = &(*t)->next;
		}
	}
	return n;
}

/* Forget thread id of kind when no stream is subscribed to it any more. */
static void thread_forget_if_idle(uint64_t id, int kind)
{
	struct cb_thread **t;

	npu_rt_devices_read_lock();
	pthread_mutex_lock(&cb_lock);
	t = thread_slot(id, kind);
	if (t != NULL && !thread_live_locked(*t))
		thread_remove(t);
	pthread_mutex_unlock(&cb_lock);
	npu_rt_devices_unlock();
}

/* ---- pending callbacks (cb_lock held) ---------------------------------- */

static struct pending *pending_take(uint64_t cookie)
{
	struct pending **p, *found;

	for (p = &pendings; *p != NULL; p = &(*p)->next) {
		if ((*p)->cookie == cookie) {
			found = *p;
			*p = found->next;
			n_pending--;
			return found;
		}
	}
	return NULL;
}

/* Drop the callbacks the driver dropped: kind (-1 any) of stream kid. */
static void pending_drop(int dev, uint64_t epoch, uint32_t kid, int kind)
{
	struct pending **p = &pendings, *gone;

	while (*p != NULL) {
		if ((*p)->dev == dev && (*p)->epoch == epoch && (*p)->kid == kid &&
		    (kind < 0 || (*p)->kind == kind)) {
			gone = *p;
			*p = gone->next;
			n_pending--;
			free(gone);
		} else {
			p = &(*p)->next;
		}
	}
}

/*
 * Table lock held: drop the callbacks of streams destroyed with callbacks
 * pending (the driver dropped them) or of devices reset.  Run when the
 * list has doubled since the last time, so its cost is spread.
 */
static void pending_sweep_locked(void)
{
	struct pending *p;
	int again = 1;

	while (again) {
		again = 0;
		for (p = pendings; p != NULL; p = p->next) {
			struct npu_sim_stream_sync q = { .id = p->kid, .flags = NPU_SIM_SYNC_QUERY };

			if (npu_rt_device_epoch_locked(p->dev) == p->epoch &&
			    npu_rt_ioctl(npu_rt_device_fd_locked(p->dev), NPU_SIM_IOCTL_STREAM_SYNC,
					 &q) != -ENOENT)
				continue;
			pending_drop(p->dev, p->epoch, p->kid, -1);
			again = 1;
			break;
		}
	}
	sweep_at = n_pending * 2 > SWEEP_MIN ? n_pending * 2 : SWEEP_MIN;
}

/* ---- running a report -------------------------------------------------- */

/* Run the callback of report w taken on device (dev, epoch), then tell the driver. */
static void run_report(int dev, uint64_t epoch, const struct npu_sim_cb_wait *w)
{
	struct npu_sim_cb_done done = { .report = w->report };
	struct pending *p;

	pthread_mutex_lock(&cb_lock);
	p = pending_take(w->cookie);
	pthread_mutex_unlock(&cb_lock);
	if (p != NULL) {
		npu_rt_races_callback_run(p->cookie);	/* after its stream's work */
		p->fn(p->data);
		npu_rt_races_callback_done();
		free(p);
	} else {
		void (*fn)(void *);
		void *data;

		/* A callback task of a replayed graph (model_ri_capture.c). */
		if (npu_rt_capture_callback(w->cookie, &fn, &data))
			fn(data);
	}
	npu_rt_devices_read_lock();
	/* -ENOENT: the stream was destroyed or unsubscribed meanwhile. */
	if (npu_rt_device_epoch_locked(dev) == epoch)
		(void)npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_CB_DONE, &done);
	npu_rt_devices_unlock();
}

/* ---- the library's host function thread -------------------------------- */

struct runtime_arg {
	int dev;
	uint64_t epoch;
};

static void *runtime_main(void *arg)
{
	struct runtime_arg a = *(struct runtime_arg *)arg;
	uint64_t self = (uint64_t)pthread_self();
	struct cb_thread **t;
	int rc, stop = 0;

	free(arg);
	while (!stop) {
		struct npu_sim_cb_wait w = { .channel = self, .flags = NPU_SIM_CB_HOSTFUNC,
					     .timeout_ms = RUNTIME_WAIT_MS };

		npu_rt_devices_read_lock();
		if (npu_rt_device_epoch_locked(a.dev) != a.epoch) {
			npu_rt_devices_unlock();
			break;	/* the device was reset */
		}
		rc = npu_rt_ioctl_unlock(npu_rt_device_fd_locked(a.dev), NPU_SIM_IOCTL_CB_WAIT, &w);
		if (rc == 0) {
			run_report(a.dev, a.epoch, &w);
			continue;
		}
		if (rc == -ETIMEDOUT)
			continue;
		/* No stream left (or the device is gone): end, unless a launch
		 * subscribed one meanwhile; it does so under cb_lock. */
		npu_rt_devices_read_lock();
		pthread_mutex_lock(&cb_lock);
		t = thread_slot(self, KIND_HOSTFUNC);
		if (t != NULL && !thread_live_locked(*t)) {
			thread_remove(t);
			stop = 1;
		}
		pthread_mutex_unlock(&cb_lock);
		npu_rt_devices_unlock();
	}
	return NULL;
}

/*
 * Table lock held: subscribe ref's stream to the library's host function
 * thread of its device, started when there is none.  0 or a negative errno
 * of CB_SUBSCRIBE (-EBUSY: the stream has a subscription already).
 */
int npu_rt_callback_runtime_subscribe_locked(const struct npu_rt_ref *ref)
{
	uint64_t epoch = npu_rt_device_epoch_locked(ref->dev);
	struct npu_sim_cb_subscribe req = { .stream = ref->kid,
					    .flags = NPU_SIM_CB_HOSTFUNC | NPU_SIM_CB_RUNTIME };
	struct runtime_arg *arg;
	struct cb_thread *t;
	pthread_attr_t attr;
	pthread_t tid;
	int rc;

	pthread_mutex_lock(&cb_lock);
	for (t = threads; t != NULL; t = t->next)
		if (t->runtime && t->dev == ref->dev && t->epoch == epoch)
			break;
	if (t == NULL) {
		t = calloc(1, sizeof(*t));
		arg = malloc(sizeof(*arg));
		rc = t == NULL || arg == NULL ? -ENOMEM : 0;
		if (rc == 0) {
			*arg = (struct runtime_arg){ .dev = ref->dev, .epoch = epoch };
			pthread_attr_init(&attr);
			pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
			rc = -pthread_create(&tid, &attr, runtime_main, arg);
			pthread_attr_destroy(&attr);
		}
		if (rc != 0) {
			pthread_mutex_unlock(&cb_lock);
			free(t);
			free(arg);
			npu_rt_msg_detail("cannot start the thread that runs host functions");
			return -ENOMEM;
		}
		*t = (struct cb_thread){ .next = threads, .id = (uint64_t)tid, .kind = KIND_HOSTFUNC,
					 .dev = ref->dev, .epoch = epoch, .runtime = 1 };
		threads = t;
	}
	req.channel = t->id;
	rc = npu_rt_ioctl(ref->fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &req);
	pthread_mutex_unlock(&cb_lock);
	return rc;
}

/* ---- the calls --------------------------------------------------------- */

static aclError subscribe(uint64_t thread, aclrtStream stream, int kind)
{
	struct npu_sim_cb_subscribe req;
	struct cb_thread **slot, *t;
	struct npu_rt_ref ref;
	uint64_t epoch;
	aclError err;
	int rc;

	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (thread == 0) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("threadId 0 is no thread (a pthread_t is never 0)");
		return ACL_ERROR_RT_THREAD_SUBSCRIBE;
	}
	epoch = npu_rt_device_epoch_locked(ref.dev);
	pthread_mutex_lock(&cb_lock);
	slot = thread_slot(thread, kind);
	if (slot != NULL && ((*slot)->dev != ref.dev || (*slot)->epoch != epoch)) {
		if (thread_live_locked(*slot)) {
			npu_rt_msg_detail("thread %#llx processes callbacks of streams of device %d; "
					  "the stream is on device %d",
					  (unsigned long long)thread, (*slot)->dev, ref.dev);
			err = ACL_ERROR_RT_THREAD_SUBSCRIBE;
			goto out;
		}
		thread_remove(slot);
		slot = NULL;
	}
	if (slot == NULL && kind == KIND_REPORT && threads_prune_locked(KIND_REPORT) >= MAX_REPORT_THREADS) {
		npu_rt_msg_detail("%d threads process reports already, the most the runtime allows",
				  MAX_REPORT_THREADS);
		err = ACL_ERROR_RT_INTERNAL_ERROR;
		goto out;
	}
	t = slot != NULL ? NULL : calloc(1, sizeof(*t));
	if (slot == NULL && t == NULL) {
		err = ACL_ERROR_RT_MEMORY_ALLOCATION;
		goto out;
	}
	req = (struct npu_sim_cb_subscribe){ .stream = ref.kid, .flags = kind_flags(kind), .channel = thread };
	rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &req);
	if (rc == -EBUSY) {
		npu_rt_msg_detail("the stream has a %s already (subscribed, or its host functions "
				  "run in the runtime's own thread)",
				  kind == KIND_HOSTFUNC ? "host function thread" : "report thread");
		err = ACL_ERROR_RT_STREAM_SUBSCRIBE;
	} else if (rc != 0) {
		err = npu_rt_obj_errno(rc);
	} else if (t != NULL) {
		*t = (struct cb_thread){ .next = threads, .id = thread, .kind = kind, .dev = ref.dev,
					 .epoch = epoch };
		threads = t;
		t = NULL;
	}
	free(t);
out:
	pthread_mutex_unlock(&cb_lock);
	npu_rt_devices_unlock();
	return err;
}

static aclError unsubscribe(uint64_t thread, aclrtStream stream, int kind)
{
	struct npu_sim_cb_subscribe req;
	struct npu_rt_ref ref;
	struct cb_thread **t;
	uint64_t epoch;
	aclError err;
	int rc;

	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	req = (struct npu_sim_cb_subscribe){ .stream = ref.kid, .channel = thread,
					     .flags = kind_flags(kind) | NPU_SIM_CB_UNSUBSCRIBE };
	/* threadId 0: the driver tells unsubscribed (107011) from subscribed
	 * to a thread (107012), as the runtime's stream map, then thread map */
	rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_CB_SUBSCRIBE, &req);
	if (rc == 0) {
		epoch = npu_rt_device_epoch_locked(ref.dev);
		pthread_mutex_lock(&cb_lock);
		pending_drop(ref.dev, epoch, ref.kid, kind);
		t = thread_slot(thread, kind);
		if (t != NULL && !thread_live_locked(*t))
			thread_remove(t);
		pthread_mutex_unlock(&cb_lock);
	}
	npu_rt_devices_unlock();
	if (rc == -ENOTCONN) {
		npu_rt_msg_detail("the stream has no %s (%s)", kind == KIND_HOSTFUNC ?
				  "host function thread" : "report thread", kind_call[kind]);
		return ACL_ERROR_RT_STREAM_SUBSCRIBE;
	}
	if (rc == -EXDEV) {
		npu_rt_msg_detail("the stream is not subscribed to thread %#llx",
				  (unsigned long long)thread);
		return ACL_ERROR_RT_THREAD_SUBSCRIBE;
	}
	return rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
}

static const char *const busy_msg[2] = {
	"the stream's host functions run in the runtime's own thread (aclrtLaunchHostFunc)",
	"the stream has a report thread (aclrtSubscribeReport) and no host function thread",
};

/*
 * With the table lock held: whether the driver's subscriptions of ref's
 * stream refuse a callback of kind (the driver's -EBUSY at submit).  The
 * runtime's error layer decides this (ApiErrorDecorator::CallbackLaunch,
 * LaunchHostFunc) before its context check, so a stream of another
 * context gets 107011, not 107003.  STREAM_CTL QUERY reports them (1.11).
 */
static int subscription_refuses_locked(const struct npu_rt_ref *ref, int kind)
{
	struct npu_sim_stream_ctl q = { .id = ref->kid, .op = NPU_SIM_STREAM_CTL_QUERY };

	if (npu_rt_ioctl(ref->fd, NPU_SIM_IOCTL_STREAM_CTL, &q) != 0)
		return 0;
	if (kind == KIND_REPORT)
		return (q.state & NPU_SIM_STREAM_CB_RUNTIME) != 0;
	return (q.state & NPU_SIM_STREAM_CB_REPORT) &&
	       !(q.state & (NPU_SIM_STREAM_CB_HOSTFUNC | NPU_SIM_STREAM_CB_RUNTIME));
}

/* With the table lock held: ref's stream is of the current context. */
static int stream_is_current_locked(const struct npu_rt_ref *ref)
{
	int dev = npu_rt_current_dev_locked();

	return dev >= 0 && dev == ref->dev && npu_rt_current_ctx_id_locked(dev) == ref->ctx_id;
}

static aclError launch(void (*fn)(void *), void *data, aclrtStream stream, int kind, int block)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref ref;
	struct pending *p;
	uint64_t epoch;
	aclError err;
	int rc;

	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (fn == NULL) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("fn is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	/* The error layer's subscription check (a created stream only), then the context. */
	if (stream != NULL && !stream_is_current_locked(&ref) && subscription_refuses_locked(&ref, kind)) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("%s", busy_msg[kind]);
		return ACL_ERROR_RT_STREAM_SUBSCRIBE;
	}
	err = npu_rt_stream_ctx_check_locked(&ref);	/* ApiImpl::CallbackLaunch, LaunchHostFunc */
	if (err != ACL_SUCCESS)
		return err;
	p = malloc(sizeof(*p));
	if (p == NULL) {
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	epoch = npu_rt_device_epoch_locked(ref.dev);
	pthread_mutex_lock(&cb_lock);
	if (n_pending >= sweep_at)
		pending_sweep_locked();
	*p = (struct pending){ .next = pendings, .cookie = ++last_cookie, .fn = fn, .data = data,
			       .dev = ref.dev, .epoch = epoch, .kid = ref.kid, .kind = kind };
	pendings = p;
	n_pending++;
	pthread_mutex_unlock(&cb_lock);

	memset(&req, 0, sizeof(req));
	req.stream = ref.kid;
	req.op = NPU_SIM_OP_CALLBACK;
	req.flags = kind_flags(kind) | (block ? NPU_SIM_CB_BLOCK : 0);
	req.operand = p->cookie;
	/* A capturing stream records the callback with fn and data. */
	if (npu_rt_capture_submit(&ref, &req, fn, data,
				  kind == KIND_HOSTFUNC ? NPU_RT_CB_HOSTFUNC : NPU_RT_CB_REPORT, &err)) {
		pthread_mutex_lock(&cb_lock);
		free(pending_take(p->cookie));
		pthread_mutex_unlock(&cb_lock);
		npu_rt_devices_unlock();
		return err;
	}
	rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &req);
	/* A host function on a stream nobody subscribed: the runtime's thread. */
	if (rc == -ENOTCONN && kind == KIND_HOSTFUNC) {
		rc = npu_rt_callback_runtime_subscribe_locked(&ref);
		if (rc == 0 || rc == -EBUSY)
			rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &req);
	}
	if (rc == 0)
		npu_rt_races_submit(&ref, &req);
	if (rc != 0) {
		pthread_mutex_lock(&cb_lock);
		free(pending_take(req.operand));
		pthread_mutex_unlock(&cb_lock);
	}
	err = rc == -EPIPE ? npu_rt_stream_errno(&ref, rc) : ACL_SUCCESS;	/* device held */
	npu_rt_devices_unlock();
	switch (rc) {
	case 0:
		return ACL_SUCCESS;
	case -EPIPE:
		return err;
	case -ENOTCONN:
		npu_rt_msg_detail("no thread processes the stream's callbacks (aclrtSubscribeReport)");
		return ACL_ERROR_RT_STREAM_NO_CB_REG;
	case -EBUSY:
		npu_rt_msg_detail("%s", busy_msg[kind]);
		return ACL_ERROR_RT_STREAM_SUBSCRIBE;
	case -EAGAIN:
		npu_rt_msg_detail("the stream already holds the most operations the device queues");
		return ACL_ERROR_RT_STREAM_TASK_FULL;
	default:
		return npu_rt_obj_errno(rc);
	}
}

static aclError process(int32_t timeout, int kind)
{
	uint64_t self = (uint64_t)pthread_self();
	struct npu_sim_cb_wait w = { .channel = self, .flags = kind_flags(kind) };
	struct cb_thread **t;
	uint64_t epoch = 0;
	int dev = -1, rc;

	if (timeout < -1 || timeout == 0) {
		npu_rt_msg_detail("timeout %d ms is neither -1 (wait forever) nor > 0", (int)timeout);
		return ACL_ERROR_INVALID_PARAM;
	}
	w.timeout_ms = timeout == -1 ? 0 : (uint32_t)timeout;
	pthread_mutex_lock(&cb_lock);
	t = thread_slot(self, kind);
	if (t != NULL) {
		dev = (*t)->dev;
		epoch = (*t)->epoch;
	}
	pthread_mutex_unlock(&cb_lock);
	rc = -ENOTCONN;
	if (dev >= 0) {
		/* The wait goes through a hold: no library lock while it lasts. */
		npu_rt_devices_read_lock();
		if (npu_rt_device_epoch_locked(dev) == epoch)
			rc = npu_rt_ioctl_unlock(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_CB_WAIT, &w);
		else
			npu_rt_devices_unlock();
	}
	if (rc == -ENOTCONN) {
		if (dev >= 0)
			thread_forget_if_idle(self, kind);
		npu_rt_msg_detail("no stream is subscribed to the calling thread (%s)", kind_call[kind]);
		return ACL_ERROR_RT_THREAD_SUBSCRIBE;
	}
	if (rc == -ETIMEDOUT) {
		npu_rt_msg_detail("no callback came within %d ms", (int)timeout);
		return ACL_ERROR_RT_REPORT_TIMEOUT;
	}
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	run_report(dev, epoch, &w);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	return subscribe(threadId, stream, KIND_REPORT);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
						 aclrtStream stream)
{
	if (blockType != ACL_CALLBACK_BLOCK && blockType != ACL_CALLBACK_NO_BLOCK) {
		npu_rt_msg_detail("blockType %d is neither ACL_CALLBACK_NO_BLOCK (0) nor ACL_CALLBACK_BLOCK (1)",
				  (int)blockType);
		return ACL_ERROR_INVALID_PARAM;
	}
	return launch(fn, userData, stream, KIND_REPORT, blockType == ACL_CALLBACK_BLOCK);
}

ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout)
{
	return process(timeout, KIND_REPORT);
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	return unsubscribe(threadId, stream, KIND_REPORT);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
	return launch(fn, args, stream, KIND_HOSTFUNC, 1);
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
	if (exeStream == NULL) {
		npu_rt_msg_detail("exeStream is NULL (a host function thread needs a created stream)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return subscribe(hostFuncThreadId, exeStream, KIND_HOSTFUNC);
}

ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout)
{
	return process(timeout, KIND_HOSTFUNC);
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
	if (exeStream == NULL) {
		npu_rt_msg_detail("exeStream is NULL (a host function thread needs a created stream)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return unsubscribe(hostFuncThreadId, exeStream, KIND_HOSTFUNC);
}
