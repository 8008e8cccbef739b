/*
 * Stream capture (graph mode), the part the submit paths consult: which
 * streams capture into which graph, the recording of their work, the
 * thread capture modes, and the graph objects themselves.  The aclmdlRI
 * calls are in model_ri.c.
 *
 * Every queued operation goes through npu_rt_capture_submit() just before
 * its STREAM_SUBMIT (stream.c npu_rt_stream_submit for copies, sets, value
 * and event operations; callback.c and notify.c for theirs).  On a
 * capturing stream the request is appended to the graph instead.  A WAIT
 * on an event recorded in an active capture pulls the waiting stream into
 * that capture (it is "joined"), as the runtime does.  Tasks are kept in
 * the order of the calls, across all streams of the capture: a wait is
 * only ever recorded after the record it waits for, so that order respects
 * every dependency and a replay runs the tasks serially in it.
 *
 * Memory-pool calls on a capturing stream are recorded too (the issue's
 * "recorded, not run"): aclrtMemPoolMallocAsync takes its block at once,
 * as the runtime does, and records a POOL_ALLOC task naming it; the
 * driver hands the block to the graph at GRAPH_CREATE, and it lives as
 * long as the graph.  aclrtMemPoolFreeAsync of such a block records a
 * POOL_FREE task: the end of its use within a replay.  A capture that
 * produces no graph gives its blocks back (npu_rt_ri_free_pool_blocks).
 *
 * A callback task keeps its function and data here, under a cookie with
 * the top bit set (callback.c's own cookies count from 1), so every replay
 * reports the same cookie and callback.c finds the function here.
 *
 * Captures are per device of the process (the runtime counts them per
 * context); a capture of a device that was reset since is over for every
 * check (its epoch is gone).  Mode rules (aclmdlRICaptureThreadExchangeMode)
 * follow the runtime's: the device's mode is the strictest of its active
 * captures, the thread's the strictest of the captures it began.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "model_ri.h"
#include "model_ri_flow.h"

#define RI_COOKIE_BIT (1ULL << 63)
#define MODES 3

static pthread_mutex_t ri_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npu_rt_graph *graphs;
static uint32_t next_id;
static uint64_t next_cookie;
atomic_int npu_rt_captures_open;	/* captures not ended, all devices (model_ri.h) */

static __thread int thread_xmode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

void npu_rt_ri_lock(void)
{
	pthread_mutex_lock(&ri_lock);
}

void npu_rt_ri_unlock(void)
{
	pthread_mutex_unlock(&ri_lock);
}

struct npu_rt_graph *npu_rt_ri_find(const void *handle)
{
	for (struct npu_rt_graph *g = graphs; g != NULL; g = g->next)
		if (g == handle)
			return g;
	return NULL;
}

int npu_rt_ri_is_sub(const struct npu_rt_graph *g)
{
	return g->flow != NULL && g->flow->sub;
}

struct npu_rt_graph *npu_rt_ri_next(struct npu_rt_graph *g)
{
	return g == NULL ? graphs : g->next;
}

struct npu_rt_ri_task *npu_rt_ri_find_task(const void *handle)
{
	if (handle == NULL)
		return NULL;
	for (struct npu_rt_graph *g = graphs; g != NULL; g = g->next)
		for (uint32_t i = 0; i < g->ntasks; i++)
			if (g->tasks[i] == handle)
				return g->tasks[i];
	return NULL;
}

struct npu_rt_graph *npu_rt_ri_new(int dev, uint64_t epoch, uint32_t ctx_id)
{
	struct npu_rt_graph *g = calloc(1, sizeof(*g));

	if (g == NULL)
		return NULL;
	g->id = next_id++;
	g->dev = dev;
	g->epoch = epoch;
	g->ctx_id = ctx_id;
	g->next = graphs;
	graphs = g;
	return g;
}

void npu_rt_ri_clear_tasks(struct npu_rt_graph *g)
{
	for (uint32_t i = 0; i < g->ntasks; i++)
		free(g->tasks[i]);
	g->ntasks = 0;
	g->nstreams = 0;
	g->invalid = 0;
	g->captured = 0;
}

void npu_rt_ri_free(struct npu_rt_graph *g)
{
	for (struct npu_rt_graph **p = &graphs; *p != NULL; p = &(*p)->next) {
		if (*p == g) {
			*p = g->next;
			break;
		}
	}
	if (g->capturing)
		npu_rt_ri_mode_exit(g);
	npu_rt_taskgrp_forget(g);
	for (uint32_t i = 0; i < g->ntasks; i++)
		free(g->tasks[i]);
	while (g->grps != NULL) {
		struct npu_rt_ri_taskgrp *t = g->grps;

		g->grps = t->next;
		free(t);
	}
	while (g->dtors != NULL) {
		struct npu_rt_ri_dtor *d = g->dtors;

		g->dtors = d->next;
		free(d);
	}
	free(g->tasks);
	free(g->streams);
	free(g->events);
	free(g);
}

struct npu_rt_graph *npu_rt_ri_capturing(int dev, uint32_t kid, struct npu_rt_ri_stream **st)
{
	for (struct npu_rt_graph *g = graphs; g != NULL; g = g->next) {
		if (!g->capturing || g->dev != dev || g->epoch != npu_rt_device_epoch_locked(dev))
			continue;
		for (uint32_t i = 0; i < g->nstreams; i++) {
			if (g->streams[i].active && g->streams[i].kid == kid) {
				if (st != NULL)
					*st = &g->streams[i];
				return g;
			}
		}
	}
	return NULL;
}

struct npu_rt_graph *npu_rt_ri_newest_with_stream(int dev, uint32_t kid)
{
	/* The list is newest first. */
	for (struct npu_rt_graph *g = graphs; g != NULL; g = g->next) {
		if (g->capturing || g->dev != dev || g->epoch != npu_rt_device_epoch_locked(dev))
			continue;
		for (uint32_t i = 0; i < g->nstreams; i++)
			if (g->streams[i].kid == kid)
				return g;
	}
	return NULL;
}

/* Grow array *a of *cap elements of size sz to hold n + 1: 0 or -ENOMEM. */
static int grow(void **a, uint32_t *cap, uint32_t n, size_t sz)
{
	uint32_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	p = realloc(*a, (size_t)ncap * sz);
	if (p == NULL)
		return -ENOMEM;
	*a = p;
	*cap = ncap;
	return 0;
}

struct npu_rt_ri_task *npu_rt_ri_add_task(struct npu_rt_graph *g, uint32_t kid, void *stream,
					  const struct npu_sim_stream_submit *req)
{
	struct npu_rt_ri_task *t = calloc(1, sizeof(*t));

	if (t == NULL || grow((void **)&g->tasks, &g->cap_tasks, g->ntasks, sizeof(*g->tasks))) {
		free(t);
		return NULL;
	}
	t->g = g;
	t->seq = g->ntasks;
	t->kid = kid;
	t->stream = stream;
	t->req = *req;
	t->req.stream = 0;
	t->req.seq = 0;
	g->tasks[g->ntasks++] = t;
	return t;
}

int npu_rt_ri_add_stream(struct npu_rt_graph *g, uint32_t kid, void *handle)
{
	if (grow((void **)&g->streams, &g->cap_streams, g->nstreams, sizeof(*g->streams)))
		return -ENOMEM;
	g->streams[g->nstreams++] = (struct npu_rt_ri_stream){ .kid = kid, .handle = handle, .active = 1 };
	return 0;
}

void npu_rt_ri_mode_enter(struct npu_rt_graph *g)
{
	(void)g;
	atomic_fetch_add(&npu_rt_captures_open, 1);
}

void npu_rt_ri_mode_exit(struct npu_rt_graph *g)
{
	atomic_fetch_sub(&npu_rt_captures_open, 1);
	npu_rt_taskgrp_forget(g);
	g->capturing = 0;
	for (uint32_t i = 0; i < g->nstreams; i++)
		g->streams[i].active = 0;
	g->nevents = 0;
}

int npu_rt_ri_exchange_mode(int mode)
{
	int old = thread_xmode;

	thread_xmode = mode;
	return old;
}

/* ri_lock held: the active capture that recorded event (dev, kid), or NULL. */
static struct npu_rt_graph *event_capture(int dev, uint32_t kid)
{
	for (struct npu_rt_graph *g = graphs; g != NULL; g = g->next) {
		if (!g->capturing || g->dev != dev || g->epoch != npu_rt_device_epoch_locked(dev))
			continue;
		for (uint32_t i = 0; i < g->nevents; i++)
			if (g->events[i] == kid)
				return g;
	}
	return NULL;
}

static int add_event(struct npu_rt_graph *g, uint32_t kid)
{
	for (uint32_t i = 0; i < g->nevents; i++)
		if (g->events[i] == kid)
			return 0;
	if (grow((void **)&g->events, &g->cap_events, g->nevents, sizeof(*g->events)))
		return -ENOMEM;
	g->events[g->nevents++] = kid;
	return 0;
}

static int is_event_op(uint32_t op)
{
	return op == NPU_SIM_OP_RECORD || op == NPU_SIM_OP_WAIT || op == NPU_SIM_OP_RESET;
}

/* Set once by model_ri_build.c (a layer above): it records work queued on
 * the streams bound to a model being built. */
static npu_rt_build_recorder build_recorder;

void npu_rt_capture_set_recorder(npu_rt_build_recorder fn)
{
	__atomic_store_n(&build_recorder, fn, __ATOMIC_RELEASE);
}

int npu_rt_capture_submit(const struct npu_rt_ref *ref, struct npu_sim_stream_submit *req, void (*fn)(void *),
			  void *data, int cb_kind, aclError *err)
{
	npu_rt_build_recorder recorder;
	struct npu_rt_ri_stream *st = NULL;
	struct npu_rt_graph *g, *ge = NULL;
	struct npu_rt_ri_task *t;
	uint64_t epoch;
	void *sh = NULL, *eh = NULL;
	struct npu_rt_obj ev;

	recorder = __atomic_load_n(&build_recorder, __ATOMIC_ACQUIRE);
	if (recorder != NULL && recorder(ref, req, cb_kind, err))	/* a model stream */
		return 1;
	if (atomic_load(&npu_rt_captures_open) == 0 && !npu_rt_taskgrp_active())
		return 0;
	epoch = npu_rt_device_epoch_locked(ref->dev);
	/* Handles first: the registry lock is never taken inside ri_lock. */
	if (is_event_op(req->op)) {
		eh = npu_rt_obj_handle_of(NPU_RT_OBJ_EVENT, ref->dev, epoch, req->event);
		sh = npu_rt_obj_handle_of(NPU_RT_OBJ_STREAM, ref->dev, epoch, ref->kid);
	}
	memset(&ev, 0, sizeof(ev));
	if (eh != NULL)
		(void)npu_rt_obj_get(eh, NPU_RT_OBJ_EVENT, &ev);

	pthread_mutex_lock(&ri_lock);
	g = npu_rt_ri_capturing(ref->dev, ref->kid, &st);
	if (npu_rt_taskgrp_refuse(ref->dev, ref->kid, g, req->op, err)) {
		pthread_mutex_unlock(&ri_lock);
		return 1;
	}
	if (req->op == NPU_SIM_OP_WAIT)
		ge = event_capture(ref->dev, req->event);
	if (g == NULL && ge == NULL) {
		pthread_mutex_unlock(&ri_lock);
		return 0;
	}
	if (g != NULL && ge != NULL && g != ge) {
		/* Two captures made to depend on each other: both are lost. */
		g->invalid = 1;
		ge->invalid = 1;
		pthread_mutex_unlock(&ri_lock);
		npu_rt_msg_detail("the event was recorded in another capture than the stream's");
		*err = ACL_ERROR_STREAM_CAPTURE_CONFLICT;
		return 1;
	}
	if (g == NULL) {
		/* A wait on an event of capture ge: the stream joins it. */
		g = ge;
		if (g->invalid) {
			pthread_mutex_unlock(&ri_lock);
			*err = ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
			return 1;
		}
		if (npu_rt_ri_add_stream(g, ref->kid, sh) != 0) {
			g->invalid = 1;
			pthread_mutex_unlock(&ri_lock);
			*err = ACL_ERROR_RT_MEMORY_ALLOCATION;
			return 1;
		}
		st = &g->streams[g->nstreams - 1];
	}
	if (g->invalid) {
		pthread_mutex_unlock(&ri_lock);
		npu_rt_msg_detail("the stream's capture was invalidated by an earlier failure");
		*err = ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
		return 1;
	}
	if ((req->op == NPU_SIM_OP_RECORD && add_event(g, req->event)) ||
	    (t = npu_rt_ri_add_task(g, ref->kid, st->handle, req)) == NULL) {
		g->invalid = 1;
		pthread_mutex_unlock(&ri_lock);
		*err = ACL_ERROR_RT_MEMORY_ALLOCATION;
		return 1;
	}
	t->event = eh;
	t->ev_flags = ev.ev_flags;
	if (req->op == NPU_SIM_OP_CALLBACK) {
		t->fn = fn;
		t->data = data;
		t->cb_kind = cb_kind;
		t->req.operand = RI_COOKIE_BIT | ++next_cookie;
	}
	pthread_mutex_unlock(&ri_lock);
	*err = ACL_SUCCESS;
	return 1;
}

int npu_rt_capture_pool_alloc(const struct npu_rt_ref *ref, uint64_t pool_id, uint64_t va, uint64_t size,
			      aclError *err)
{
	struct npu_sim_stream_submit req = { .op = NPU_SIM_OP_POOL_ALLOC, .dst = va, .width = size,
					     .operand = pool_id };

	return npu_rt_capture_submit(ref, &req, NULL, NULL, 0, err);
}

/* ri_lock held: whether g's tasks allocated va and did not free it yet. */
static int graph_holds_block(const struct npu_rt_graph *g, uint64_t va)
{
	int held = 0;

	for (uint32_t i = 0; i < g->ntasks; i++) {
		if (g->tasks[i]->req.dst != va)
			continue;
		if (g->tasks[i]->req.op == NPU_SIM_OP_POOL_ALLOC)
			held = 1;
		else if (g->tasks[i]->req.op == NPU_SIM_OP_POOL_FREE)
			held = 0;
	}
	return held;
}

int npu_rt_capture_pool_free(const struct npu_rt_ref *ref, uint64_t va, aclError *err)
{
	struct npu_sim_stream_submit req = { .op = NPU_SIM_OP_POOL_FREE, .dst = va };
	struct npu_rt_graph *g;
	int held;

	if (atomic_load(&npu_rt_captures_open) == 0)
		return 0;
	pthread_mutex_lock(&ri_lock);
	g = npu_rt_ri_capturing(ref->dev, ref->kid, NULL);
	if (g == NULL) {
		pthread_mutex_unlock(&ri_lock);
		return 0;
	}
	held = g->invalid || graph_holds_block(g, va);
	if (!held)
		g->invalid = 1;
	pthread_mutex_unlock(&ri_lock);
	if (!held) {
		/* The graph cannot own a block allocated outside it. */
		npu_rt_msg_detail("ptr was not allocated by aclrtMemPoolMallocAsync in this capture (or was freed in "
				  "it): a graph cannot free memory it does not own");
		*err = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
		return 1;
	}
	return npu_rt_capture_submit(ref, &req, NULL, NULL, 0, err);
}

void npu_rt_ri_free_pool_blocks(const struct npu_rt_graph *g, int fd)
{
	for (uint32_t i = 0; i < g->ntasks; i++) {
		struct npu_sim_mem_free mf = { .va = g->tasks[i]->req.dst };

		if (g->tasks[i]->req.op == NPU_SIM_OP_POOL_ALLOC)
			(void)npu_rt_ioctl(fd, NPU_SIM_IOCTL_MEM_FREE, &mf);
	}
}

int npu_rt_capture_stream_state(int dev, uint32_t kid)
{
	struct npu_rt_graph *g;
	int state = 0;

	if (atomic_load(&npu_rt_captures_open) == 0)
		return 0;
	pthread_mutex_lock(&ri_lock);
	g = npu_rt_ri_capturing(dev, kid, NULL);
	if (g != NULL)
		state = g->invalid ? 2 : 1;
	pthread_mutex_unlock(&ri_lock);
	return state;
}

int npu_rt_capture_event_captured(int dev, uint32_t kid)
{
	int yes;

	if (atomic_load(&npu_rt_captures_open) == 0)
		return 0;
	pthread_mutex_lock(&ri_lock);
	yes = event_capture(dev, kid) != NULL;
	pthread_mutex_unlock(&ri_lock);
	return yes;
}

int npu_rt_capture_any(int dev)
{
	int yes = 0;

	if (atomic_load(&npu_rt_captures_open) == 0)
		return 0;
	pthread_mutex_lock(&ri_lock);
	for (struct npu_rt_graph *g = graphs; g != NULL && !yes; g = g->next)
		yes = g->capturing && g->dev == dev && g->epoch == npu_rt_device_epoch_locked(dev);
	pthread_mutex_unlock(&ri_lock);
	return yes;
}

void npu_rt_capture_invalidate(int dev, uint32_t kid)
{
	struct npu_rt_graph *g;

	if (atomic_load(&npu_rt_captures_open) == 0)
		return;
	pthread_mutex_lock(&ri_lock);
	g = npu_rt_ri_capturing(dev, kid, NULL);
	if (g != NULL)
		g->invalid = 1;
	pthread_mutex_unlock(&ri_lock);
}

aclError npu_rt_capture_mode_check_(int dev)
{
	int global = 0, any = 0, mine[MODES] = { 0 };
	int refused = 0;
	uint64_t self;

	if (atomic_load(&npu_rt_captures_open) == 0)
		return ACL_SUCCESS;
	self = (uint64_t)pthread_self();
	pthread_mutex_lock(&ri_lock);
	for (struct npu_rt_graph *g = graphs; g != NULL; g = g->next) {
		if (!g->capturing || g->epoch != npu_rt_device_epoch_locked(g->dev))
			continue;
		if (g->thread == self)
			mine[g->mode] = 1;
		if (g->dev != dev)
			continue;
		any = 1;
		global |= g->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
	}
	if (any && thread_xmode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
		refused = global || mine[ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL];
	else if (any && thread_xmode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL)
		refused = mine[ACL_MODEL_RI_CAPTURE_MODE_GLOBAL] || mine[ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL];
	pthread_mutex_unlock(&ri_lock);
	if (!refused)
		return ACL_SUCCESS;
	npu_rt_msg_detail("a stream capture is active and the thread's capture mode forbids this synchronous "
			  "call (aclmdlRICaptureThreadExchangeMode)");
	return ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT;
}

int npu_rt_capture_callback(uint64_t cookie, void (**fn)(void *), void **data)
{
	int found = 0;

	if (!(cookie & RI_COOKIE_BIT))
		return 0;
	pthread_mutex_lock(&ri_lock);
	for (struct npu_rt_graph *g = graphs; g != NULL && !found; g = g->next) {
		for (uint32_t i = 0; i < g->ntasks; i++) {
			if (g->tasks[i]->req.op == NPU_SIM_OP_CALLBACK && g->tasks[i]->req.operand == cookie) {
				*fn = g->tasks[i]->fn;
				*data = g->tasks[i]->data;
				found = 1;
				break;
			}
		}
	}
	pthread_mutex_unlock(&ri_lock);
	return found;
}

/* ---- fork: the child has none of the parent's devices, so no graphs ---- */

void npu_rt_ri_atfork_prepare(void)
{
	pthread_mutex_lock(&ri_lock);
}

void npu_rt_ri_atfork_parent(void)
{
	pthread_mutex_unlock(&ri_lock);
}

void npu_rt_ri_atfork_child(void)
{
	/* The parent's graph objects are left behind (their memory is the
	 * child's copy; its device files are closed in the child). */
	graphs = NULL;
	atomic_store(&npu_rt_captures_open, 0);
	pthread_mutex_init(&ri_lock, NULL);
}
