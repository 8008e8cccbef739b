/*
 * Graph mode (aclmdlRI): capture begin/end/info, the thread capture mode,
 * replay (aclmdlRIExecuteAsync / aclmdlRIExecute), destroy and the
 * inspection calls.  The capture state and the recording of queued work
 * are in model_ri_capture.c; the replay itself is the driver's
 * (GRAPH_CREATE at the end of a capture, GRAPH_LAUNCH per replay:
 * include/uapi/misc/npu_sim.h "Graphs").
 *
 * Memory-pool allocations in a capture are POOL_ALLOC / POOL_FREE tasks
 * (model_ri_capture.c); the driver keeps their blocks for the graph's life
 * (include/uapi/misc/npu_sim.h "Graph memory and abort").  Task groups are
 * in model_ri_taskgrp.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "check.h"
#include "err_msg.h"
#include "model_ri.h"
#include "model_ri_flow.h"
#include "races.h"

/* ---- helpers ------------------------------------------------------------ */

static aclError null_param(const char *what)
{
	npu_rt_msg_detail("%s is NULL", what);
	return ACL_ERROR_INVALID_PARAM;
}

/* modelRI NULL where the ACL layer does not check it: the runtime's code. */
static aclError rt_null_model(void)
{
	npu_rt_msg_detail("modelRI is NULL");
	return ACL_ERROR_RT_PARAM_INVALID;
}

static aclError not_graph(const void *h)
{
	npu_rt_msg_detail("modelRI %p is not a live model runtime instance of this process", h);
	return ACL_ERROR_RT_PARAM_INVALID;
}

/* A sub graph of a condition task runs only inside its parent (207000). */
static aclError sub_refused(const char *what)
{
	npu_rt_msg_detail("a sub graph of a condition task (aclmdlRIAddCondTask) cannot be %s on its own", what);
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

/*
 * ri_lock and table lock held: drop the driver graph of g; *sid gets the
 * kernel stream of aclmdlRIExecute to destroy (0: none), which the caller
 * does without ri_lock (a destroy may wait for the stream's running op).
 */
static void drop_kernel_graph_locked(struct npu_rt_graph *g, uint32_t *sid)
{
	*sid = 0;
	if (npu_rt_device_epoch_locked(g->dev) == g->epoch) {
		struct npu_sim_graph_destroy d = { .id = g->kgraph };

		if (g->kgraph != 0)
			(void)npu_rt_ioctl(npu_rt_device_fd_locked(g->dev), NPU_SIM_IOCTL_GRAPH_DESTROY, &d);
		*sid = g->exec_sid;
	}
	g->kgraph = 0;
	g->exec_sid = 0;
}

/* ---- capture ------------------------------------------------------------- */

/*
 * aclmdlRICaptureBegin (into == NULL: a new graph) and
 * aclmdlRICaptureToModelRIBegin (into: a sub-graph of a condition task).
 */
static aclError capture_begin(aclrtStream stream, aclmdlRICaptureMode mode, void *into)
{
	struct npu_rt_graph *g, *target = NULL;
	struct npu_rt_ref ref;
	uint64_t caps = 0;
	aclError err;

	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if ((int)mode < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || (int)mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("capture mode %d is not an aclmdlRICaptureMode", (int)mode);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (npu_rt_get_param(ref.fd, NPU_SIM_PARAM_CAPABILITIES, &caps) != 0 || !(caps & NPU_SIM_CAP_GRAPH)) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the npu_sim module has no graphs (NPU_SIM_CAP_GRAPH)");
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	npu_rt_ri_lock();
	if (into != NULL) {
		target = npu_rt_ri_find(into);
		if (target == NULL || !npu_rt_ri_is_sub(target)) {
			npu_rt_ri_unlock();
			npu_rt_devices_unlock();
			if (target == NULL)
				return not_graph(into);
			npu_rt_msg_detail("modelRI is not a sub-graph of a condition task (aclmdlRIAddCondTask)");
			return ACL_ERROR_RT_PARAM_INVALID;
		}
		if (target->dev != ref.dev || target->epoch != npu_rt_device_epoch_locked(ref.dev)) {
			npu_rt_ri_unlock();
			npu_rt_devices_unlock();
			npu_rt_msg_detail("modelRI belongs to device %d, the stream to device %d", target->dev, ref.dev);
			return ACL_ERROR_RT_MODEL_CONTEXT;
		}
		if (target->captured || target->capturing) {
			npu_rt_ri_unlock();
			npu_rt_devices_unlock();
			npu_rt_msg_detail("modelRI was captured already");
			return ACL_ERROR_RT_MODEL_CAPTURED;
		}
	}
	g = npu_rt_ri_capturing(ref.dev, ref.kid, NULL);
	if (g != NULL) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the stream is capturing already (%s)", g->invalid ? "invalidated" : "active");
		return ACL_ERROR_RT_STREAM_CAPTURED;
	}
	if (npu_rt_flow_bound(ref.dev, ref.kid, NULL) != NULL) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the stream is bound to a model being built (aclmdlRIBindStream)");
		return ACL_ERROR_RT_STREAM_CAPTURED;
	}
	g = target != NULL ? target : npu_rt_ri_new(ref.dev, npu_rt_device_epoch_locked(ref.dev), ref.ctx_id);
	if (g == NULL || npu_rt_ri_add_stream(g, ref.kid, stream) != 0) {
		if (g != NULL && target == NULL)
			npu_rt_ri_free(g);
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	g->capturing = 1;
	g->captured = 1;
	g->mode = (int)mode;
	g->thread = (uint64_t)pthread_self();
	npu_rt_ri_mode_enter(g);
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)
{
	if (stream == NULL)
		return null_param("stream (the default stream cannot capture)");
	return capture_begin(stream, mode, NULL);
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
							   aclmdlRICaptureMode mode)
{
	if (stream == NULL)
		return null_param("stream");
	if (modelRI == NULL)
		return null_param("modelRI");
	return capture_begin(stream, mode, modelRI);
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
						    aclmdlRI *modelRI)
{
	struct npu_rt_graph *g;
	struct npu_rt_ref ref;
	aclError err;

	if (stream == NULL)
		return null_param("stream");
	if (status == NULL && modelRI == NULL)
		return null_param("status and modelRI");
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	g = npu_rt_ri_capturing(ref.dev, ref.kid, NULL);
	if (status != NULL)
		*status = g == NULL ? ACL_MODEL_RI_CAPTURE_STATUS_NONE :
			  g->invalid ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
	if (modelRI != NULL)
		*modelRI = g;
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

/* ri_lock held: whether every joined stream of g ends joined back (the
 * runtime's capture validity check). */
static int joined_back(const struct npu_rt_graph *g)
{
	int any_joined = 0, orig_waits = 0;

	for (uint32_t s = 1; s < g->nstreams; s++) {
		const struct npu_rt_ri_task *last = NULL;
		int waited = 0;

		any_joined = 1;
		for (uint32_t i = 0; i < g->ntasks; i++)
			if (g->tasks[i]->kid == g->streams[s].kid)
				last = g->tasks[i];
		if (last == NULL || last->req.op != NPU_SIM_OP_RECORD)
			return 0;
		for (uint32_t i = last->seq + 1; i < g->ntasks; i++) {
			const struct npu_rt_ri_task *t = g->tasks[i];

			if (t->req.op == NPU_SIM_OP_WAIT && t->req.event == last->req.event && t->kid != last->kid) {
				waited = 1;
				if (t->kid == g->streams[0].kid)
					orig_waits = 1;
			}
		}
		if (!waited)
			return 0;
	}
	return !any_joined || orig_waits;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)
{
	struct npu_sim_graph_create gc = { 0 };
	struct npu_sim_stream_submit *ops = NULL;
	struct npu_rt_ri_stream *st;
	struct npu_rt_graph *g;
	struct npu_rt_ref ref;
	uint64_t caps = 0;
	aclError err;
	uint32_t n = 0;
	int rc;

	if (stream == NULL)
		return null_param("stream");
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	g = npu_rt_ri_capturing(ref.dev, ref.kid, &st);
	if (g == NULL) {
		err = ACL_ERROR_RT_STREAM_NOT_CAPTURED;
		npu_rt_msg_detail("the stream is not capturing (aclmdlRICaptureBegin)");
		goto out;
	}
	if (st != &g->streams[0]) {
		err = ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED;
		npu_rt_msg_detail("the capture was begun on another stream; this one was joined into it");
		goto out;
	}
	/* A sub-graph's capture ends into it: modelRI is neither needed nor written. */
	if (modelRI == NULL && !npu_rt_ri_is_sub(g)) {
		err = null_param("modelRI");
		goto out;
	}
	if (!npu_rt_ri_is_sub(g))
		*modelRI = NULL;
	if (g->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && g->thread != (uint64_t)pthread_self()) {
		err = ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD;
		npu_rt_msg_detail("the capture was begun by another thread");
	} else if (g->invalid) {
		err = ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
		npu_rt_msg_detail("a failed call invalidated the capture");
	} else if (g->open_grps != 0) {
		err = ACL_ERROR_STREAM_TASK_GROUP_STATUS;
		npu_rt_msg_detail("a task group of the capture is not ended (aclmdlRICaptureTaskGrpEnd)");
	} else if (!joined_back(g)) {
		err = ACL_ERROR_RT_STREAM_UNJOINED;
		npu_rt_msg_detail("a stream joined into the capture does not end with an event record that the "
				  "stream which began the capture waits for");
	}
	/* The tasks, or the program of a graph with condition tasks. */
	if (err == ACL_SUCCESS)
		err = npu_rt_flow_compile(g, &ops, &n, &gc.flags);
	if (err == ACL_SUCCESS) {
		gc.ops = (uintptr_t)ops;
		gc.count = n;
		rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc);
		if (rc != 0) {
			npu_rt_msg_detail("the driver refused the captured tasks (errno %d)", -rc);
			err = rc == -ENOMEM || rc == -ENOSPC ? ACL_ERROR_RT_MEMORY_ALLOCATION :
			      npu_rt_errno_to_acl(-rc);
		}
		free(ops);
	}
	npu_rt_ri_mode_exit(g);
	if (err != ACL_SUCCESS) {
		npu_rt_ri_free_pool_blocks(g, ref.fd);
		if (npu_rt_ri_is_sub(g))
			npu_rt_ri_clear_tasks(g);	/* the condition task keeps it */
		else
			npu_rt_ri_free(g);	/* the runtime drops a failed capture's model */
		goto out;
	}
	g->kgraph = gc.id;
	g->tagged = npu_rt_get_param(ref.fd, NPU_SIM_PARAM_CAPABILITIES, &caps) == 0 &&
		    (caps & NPU_SIM_CAP_GRAPH_POOL);
	if (modelRI != NULL)	/* a sub graph's capture may leave it NULL */
		*modelRI = g;
	npu_rt_check_created(NPU_RT_CK_GRAPH, g->dev, (uintptr_t)g, 0);
out:
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
	if (mode == NULL)
		return null_param("mode");
	if ((int)*mode < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || (int)*mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
		npu_rt_msg_detail("capture mode %d is not an aclmdlRICaptureMode", (int)*mode);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	*mode = (aclmdlRICaptureMode)npu_rt_ri_exchange_mode((int)*mode);
	return ACL_SUCCESS;
}

/* ---- replay ---------------------------------------------------------------- */

/* ri_lock and table lock held: whether g has a host function task. */
static int has_hostfunc(const struct npu_rt_graph *g)
{
	for (uint32_t i = 0; i < g->ntasks; i++)
		if (!g->tasks[i]->disabled && g->tasks[i]->req.op == NPU_SIM_OP_CALLBACK &&
		    g->tasks[i]->cb_kind == NPU_RT_CB_HOSTFUNC)
			return 1;
	return 0;
}

/* aclError of GRAPH_LAUNCH's negative errno rc on ref's stream, handle stream
 * (NULL: the graph's own). */
static aclError launch_error(int rc, const struct npu_rt_ref *ref, const void *stream)
{
	switch (-rc) {
	case ENOENT:	/* the stream, an event or a pool of a task */
		if (npu_rt_obj_died(stream, NPU_RT_OBJ_STREAM, ref->dev, ref->kid)) {
			npu_rt_msg_detail("the stream was destroyed meanwhile");
			return npu_rt_obj_errno(rc);
		}
		npu_rt_msg_detail("an event or a memory pool a task uses is gone");
		return ACL_ERROR_RT_PARAM_INVALID;
	case EAGAIN:
		npu_rt_msg_detail("the device queue cannot take all the graph's tasks");
		return ACL_ERROR_RT_STREAM_TASK_FULL;
	case ENOTCONN:
		npu_rt_msg_detail("no thread processes the stream's callbacks (aclrtSubscribeReport)");
		return ACL_ERROR_RT_STREAM_NO_CB_REG;
	case ENXIO:
		npu_rt_msg_detail("a task's device memory was freed after the capture");
		return ACL_ERROR_RT_PARAM_INVALID;
	default:
		return npu_rt_errno_to_acl(-rc);
	}
}

/* The GRAPH_LAUNCH tag of g's replays (aclmdlRIAbort finds them by it). */
static uint32_t ri_tag(const struct npu_rt_graph *g)
{
	return g->id + 1;
}

/* The race checker sees a replay as its recorded operations, in order. */
static void races_replay(const struct npu_rt_ref *ref, const void *handle)
{
	struct npu_rt_graph *g;

	npu_rt_ri_lock();
	g = npu_rt_ri_find(handle);
	for (uint32_t i = 0; g != NULL && i < g->ntasks; i++) {
		const struct npu_sim_stream_submit *r = &g->tasks[i]->req;

		if (g->tasks[i]->disabled)
			continue;
		/* Graph memory: its use begins and ends in replay order. */
		if (r->op == NPU_SIM_OP_POOL_ALLOC)
			npu_rt_races_pool_alloc(ref, r->dst, r->width);
		else if (r->op == NPU_SIM_OP_POOL_FREE)
			npu_rt_races_pool_free(ref, (void *)(uintptr_t)r->dst, 0);
		else
			npu_rt_races_submit(ref, r);
	}
	npu_rt_ri_unlock();
}

/* Table lock held: launch graph handle on kernel stream sid of ref's
 * device (stream: its handle, NULL for the graph's own); ri_lock taken here. */
static aclError launch_locked(const struct npu_rt_ref *ref, const void *handle, const void *stream)
{
	struct npu_sim_graph_launch req = { 0 };
	struct npu_rt_graph *g;
	int hostfunc, rc;

	npu_rt_ri_lock();
	g = npu_rt_ri_find(handle);
	if (g != NULL && npu_rt_ri_is_sub(g)) {
		npu_rt_ri_unlock();
		return sub_refused("executed");
	}
	if (g == NULL || g->capturing) {
		npu_rt_ri_unlock();
		if (g != NULL) {
			npu_rt_msg_detail("the model runtime instance is still being captured");
			return ACL_ERROR_RT_MODEL_CAPTURED;
		}
		return not_graph(handle);
	}
	if (npu_rt_flow_unloaded(g)) {
		npu_rt_ri_unlock();
		npu_rt_msg_detail("the model's build has not ended (aclmdlRIBuildEnd)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (g->dev != ref->dev || g->epoch != npu_rt_device_epoch_locked(ref->dev) || g->kgraph == 0) {
		npu_rt_ri_unlock();
		npu_rt_msg_detail("the model runtime instance belongs to device %d, the stream to device %d", g->dev,
				  ref->dev);
		return ACL_ERROR_RT_STREAM_CONTEXT;
	}
	req.id = g->kgraph;
	req.stream = ref->kid;
	req.tag = g->tagged ? ri_tag(g) : 0;
	hostfunc = has_hostfunc(g);
	npu_rt_ri_unlock();
	rc = npu_rt_ioctl(ref->fd, NPU_SIM_IOCTL_GRAPH_LAUNCH, &req);
	if (rc == -ENOTCONN && hostfunc) {
		/* As aclrtLaunchHostFunc: the library's thread takes them. */
		rc = npu_rt_callback_runtime_subscribe_locked(ref);
		if (rc == 0 || rc == -EBUSY) {
			req.seq = 0;
			rc = npu_rt_ioctl(ref->fd, NPU_SIM_IOCTL_GRAPH_LAUNCH, &req);
		}
	}
	if (rc == -EPIPE)
		return npu_rt_stream_errno(ref, rc);
	if (rc != 0)
		return launch_error(rc, ref, stream);
	if (NPU_RT_RACES_ON())
		races_replay(ref, handle);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)
{
	struct npu_rt_ref ref;
	aclError err;

	if (modelRI == NULL)
		return null_param("modelRI");
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (npu_rt_capture_stream_state(ref.dev, ref.kid) != 0) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the stream is capturing: a graph cannot be replayed into a capture here");
		return ACL_ERROR_RT_STREAM_CAPTURED;
	}
	err = launch_locked(&ref, modelRI, stream);
	npu_rt_devices_unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)
{
	struct npu_sim_stream_sync sync = { 0 };
	struct npu_rt_graph *g;
	struct npu_rt_ref ref;
	uint32_t sid = 0;
	aclError err;
	int rc;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (timeout < -1 || timeout == 0) {
		npu_rt_msg_detail("timeout %d ms is neither -1 (wait forever) nor > 0", (int)timeout);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_devices_read_lock();
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g != NULL && npu_rt_ri_is_sub(g)) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		return sub_refused("executed");
	}
	if (g == NULL || g->capturing || npu_rt_device_epoch_locked(g->dev) != g->epoch) {
		int capturing = g != NULL && g->capturing;

		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		if (capturing)
			return ACL_ERROR_RT_MODEL_CAPTURED;
		return not_graph(modelRI);
	}
	/* the model's context: its kept failure refuses the replay too */
	ref = (struct npu_rt_ref){ .dev = g->dev, .fd = npu_rt_device_fd_locked(g->dev), .ctx_id = g->ctx_id };
	if (g->exec_sid == 0) {
		rc = npu_rt_stream_create_kernel(ref.fd, g->ctx_id, 0, 0, &sid);
		if (rc != 0) {
			npu_rt_ri_unlock();
			npu_rt_devices_unlock();
			return npu_rt_create_error(NPU_RT_OBJ_STREAM, rc);
		}
		g->exec_sid = sid;
	}
	ref.kid = g->exec_sid;
	npu_rt_ri_unlock();
	err = launch_locked(&ref, modelRI, NULL);
	if (err != ACL_SUCCESS) {
		npu_rt_devices_unlock();
		return err;
	}
	sync.id = ref.kid;
	if (timeout > 0) {
		sync.flags = NPU_SIM_SYNC_TIMEOUT;
		sync.timeout_ms = (uint32_t)timeout;
	}
	rc = npu_rt_ioctl_unlock(ref.fd, NPU_SIM_IOCTL_STREAM_SYNC, &sync);
	if (rc != 0)
		return npu_rt_obj_errno(rc);
	if (sync.status != NPU_SIM_STATUS_COMPLETE) {
		npu_rt_msg_detail("the model runtime instance was still running after %d ms", (int)timeout);
		return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
	}
	/* The replay's work is done: the race checker orders it before us. */
	npu_rt_races_synced(ref.dev, ref.kid);
	return npu_rt_async_error(sync.error);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI)
{
	struct npu_sim_graph_abort req = { 0 };
	struct npu_rt_graph *g;
	int cur, rc = 0;

	if (modelRI == NULL)
		return rt_null_model();
	npu_rt_devices_read_lock();
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		return not_graph(modelRI);
	}
	if (npu_rt_ri_is_sub(g)) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		return sub_refused("aborted");
	}
	cur = npu_rt_current_dev_locked();
	if (cur < 0) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the calling thread has no current context (aclrtSetDevice)");
		return ACL_ERROR_RT_CONTEXT_NULL;
	}
	if (cur != g->dev || g->epoch != npu_rt_device_epoch_locked(g->dev)) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the model runtime instance belongs to device %d, the current context to device %d",
				  g->dev, cur);
		return ACL_ERROR_RT_MODEL_CONTEXT;
	}
	if (g->kgraph != 0 && !g->tagged) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the npu_sim module cannot abort replays (NPU_SIM_CAP_GRAPH_POOL)");
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	/* Replays of every version of the graph (aclmdlRIUpdate) share the tag. */
	req.tag = ri_tag(g);
	if (g->kgraph != 0)
		rc = npu_rt_ioctl(npu_rt_device_fd_locked(g->dev), NPU_SIM_IOCTL_GRAPH_ABORT, &req);
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return rc != 0 ? npu_rt_errno_to_acl(-rc) : ACL_SUCCESS;
}

/* ---- destroy and names ------------------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
	struct npu_rt_ri_dtor *dtors;
	struct npu_rt_graph *g;
	uint32_t sid;
	int dev;

	if (modelRI == NULL)
		return null_param("modelRI");
	npu_rt_devices_read_lock();
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g != NULL && npu_rt_ri_is_sub(g)) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		return sub_refused("destroyed (it goes with its parent)");
	}
	if (g == NULL || g->capturing) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		if (g != NULL) {
			npu_rt_msg_detail("the model runtime instance is still being captured");
			return ACL_ERROR_RT_MODEL_CAPTURED;
		}
		return not_graph(modelRI);
	}
	drop_kernel_graph_locked(g, &sid);
	npu_rt_check_destroyed(NPU_RT_CK_GRAPH, (uintptr_t)g);
	dtors = g->dtors;
	g->dtors = NULL;
	dev = g->dev;
	npu_rt_ri_free(g);
	npu_rt_ri_unlock();
	if (sid != 0) {
		struct npu_sim_stream_destroy sd = { .id = sid, .flags = NPU_SIM_DESTROY_FORCE };

		(void)npu_rt_ioctl_unlock(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_STREAM_DESTROY, &sd);
	} else {
		npu_rt_devices_unlock();
	}
	npu_rt_ri_run_dtors(dtors);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData)
{
	struct npu_rt_ri_dtor *d;
	struct npu_rt_graph *g;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (func == NULL)
		return null_param("func");
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL) {
		npu_rt_ri_unlock();
		return not_graph(modelRI);
	}
	for (d = g->dtors; d != NULL; d = d->next) {
		if (d->fn == func) {
			d->data = userData;
			npu_rt_ri_unlock();
			return ACL_SUCCESS;
		}
	}
	d = malloc(sizeof(*d));
	if (d == NULL) {
		npu_rt_ri_unlock();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	*d = (struct npu_rt_ri_dtor){ .next = g->dtors, .fn = func, .data = userData };
	g->dtors = d;
	npu_rt_ri_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func)
{
	struct npu_rt_ri_dtor **p;
	struct npu_rt_graph *g;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (func == NULL)
		return null_param("func");
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL) {
		npu_rt_ri_unlock();
		return not_graph(modelRI);
	}
	for (p = &g->dtors; *p != NULL; p = &(*p)->next) {
		if ((*p)->fn == func) {
			struct npu_rt_ri_dtor *d = *p;

			*p = d->next;
			free(d);
			npu_rt_ri_unlock();
			return ACL_SUCCESS;
		}
	}
	npu_rt_ri_unlock();
	npu_rt_msg_detail("func was not registered for this model runtime instance");
	return ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char *name)
{
	struct npu_rt_graph *g;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (name == NULL)
		return null_param("name");
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL) {
		npu_rt_ri_unlock();
		return not_graph(modelRI);
	}
	snprintf(g->name, sizeof(g->name), "%s", name);
	npu_rt_ri_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name)
{
	struct npu_rt_graph *g;
	size_t len;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (name == NULL)
		return null_param("name");
	if (maxLen == 0) {
		npu_rt_msg_detail("maxLen is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL) {
		npu_rt_ri_unlock();
		return not_graph(modelRI);
	}
	len = strlen(g->name);
	if (len + 1 > maxLen) {
		npu_rt_ri_unlock();
		npu_rt_msg_detail("maxLen %u is shorter than the name and its NUL (%zu)", maxLen, len + 1);
		return ACL_ERROR_INVALID_PARAM;
	}
	memcpy(name, g->name, len + 1);
	npu_rt_ri_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId)
{
	struct npu_rt_graph *g;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (modelRIId == NULL)
		return null_param("modelRIId");
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g != NULL)
		*modelRIId = g->id;
	npu_rt_ri_unlock();
	return g != NULL ? ACL_SUCCESS : not_graph(modelRI);
}

/* ---- inspection ----------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams)
{
	struct npu_rt_graph *g;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (numStreams == NULL)
		return null_param("numStreams");
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL) {
		npu_rt_ri_unlock();
		return not_graph(modelRI);
	}
	if (streams != NULL && *numStreams < g->nstreams) {
		npu_rt_ri_unlock();
		npu_rt_msg_detail("the array holds %u streams, the graph has %u", *numStreams, g->nstreams);
		return ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY;
	}
	if (streams != NULL)
		for (uint32_t i = 0; i < g->nstreams; i++)
			streams[i] = g->streams[i].handle;
	*numStreams = g->nstreams;
	npu_rt_ri_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks)
{
	struct npu_rt_graph *found;
	struct npu_rt_ref ref;
	uint32_t n = 0;
	aclError err;

	if (stream == NULL)
		return null_param("stream");
	if (numTasks == NULL)
		return null_param("numTasks");
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	found = npu_rt_ri_newest_with_stream(ref.dev, ref.kid);
	if (found == NULL) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("no live model runtime instance was captured on the stream");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	for (uint32_t i = 0; i < found->ntasks; i++)
		n += found->tasks[i]->kid == ref.kid;
	if (tasks != NULL && *numTasks < n) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the array holds %u tasks, the stream has %u", *numTasks, n);
		return ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY;
	}
	if (tasks != NULL) {
		uint32_t k = 0;

		for (uint32_t i = 0; i < found->ntasks; i++)
			if (found->tasks[i]->kid == ref.kid)
				tasks[k++] = found->tasks[i];
	}
	*numTasks = n;
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

static aclmdlRITaskType task_type(const struct npu_rt_ri_task *t)
{
	switch (t->req.op) {
	case NPU_SIM_OP_RECORD:
		return ACL_MODEL_RI_TASK_EVENT_RECORD;
	case NPU_SIM_OP_WAIT:
		return ACL_MODEL_RI_TASK_EVENT_WAIT;
	case NPU_SIM_OP_RESET:
		return ACL_MODEL_RI_TASK_EVENT_RESET;
	case NPU_SIM_OP_VALUE_WRITE:
		return ACL_MODEL_RI_TASK_VALUE_WRITE;
	case NPU_SIM_OP_VALUE_WAIT:
		return ACL_MODEL_RI_TASK_VALUE_WAIT;
	default:
		return ACL_MODEL_RI_TASK_DEFAULT;
	}
}

static aclError not_task(const void *h)
{
	npu_rt_msg_detail("task %p is not a task of a live model runtime instance", h);
	return ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type)
{
	struct npu_rt_ri_task *t;

	if (task == NULL)
		return null_param("task");
	if (type == NULL)
		return null_param("type");
	npu_rt_ri_lock();
	t = npu_rt_ri_find_task(task);
	if (t != NULL)
		*type = task_type(t);
	npu_rt_ri_unlock();
	return t != NULL ? ACL_SUCCESS : not_task(task);
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id)
{
	struct npu_rt_ri_task *t;

	if (task == NULL)
		return null_param("task");
	if (id == NULL)
		return null_param("id");
	npu_rt_ri_lock();
	t = npu_rt_ri_find_task(task);
	if (t != NULL)
		*id = t->seq;
	npu_rt_ri_unlock();
	return t != NULL ? ACL_SUCCESS : not_task(task);
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
	struct npu_rt_ri_task *t;
	aclmdlRITaskParams p;

	if (task == NULL)
		return null_param("task");
	if (params == NULL)
		return null_param("params");
	memset(&p, 0, sizeof(p));
	npu_rt_ri_lock();
	t = npu_rt_ri_find_task(task);
	if (t == NULL) {
		npu_rt_ri_unlock();
		return not_task(task);
	}
	p.type = task_type(t);
	switch (p.type) {
	case ACL_MODEL_RI_TASK_EVENT_RECORD:
		p.eventRecordTaskParams.event = t->event;
		p.eventRecordTaskParams.eventFlag = t->ev_flags;
		break;
	case ACL_MODEL_RI_TASK_EVENT_WAIT:
		p.eventWaitTaskParams.event = t->event;
		p.eventWaitTaskParams.eventFlag = t->ev_flags;
		break;
	case ACL_MODEL_RI_TASK_EVENT_RESET:
		p.eventResetTaskParams.event = t->event;
		p.eventResetTaskParams.eventFlag = t->ev_flags;
		break;
	case ACL_MODEL_RI_TASK_VALUE_WRITE:
		p.valueWriteTaskParams.devAddr = (void *)(uintptr_t)t->req.dst;
		p.valueWriteTaskParams.value = t->req.operand;
		break;
	case ACL_MODEL_RI_TASK_VALUE_WAIT:
		p.valueWaitTaskParams.devAddr = (void *)(uintptr_t)t->req.dst;
		p.valueWaitTaskParams.value = t->req.operand;
		p.valueWaitTaskParams.flag = t->req.flags;
		break;
	default:
		break;
	}
	npu_rt_ri_unlock();
	*params = p;
	return ACL_SUCCESS;
}

/* ---- update: parameters, disabled tasks --------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
	struct npu_rt_ri_task *t;
	aclError err = ACL_SUCCESS;
	aclmdlRITaskType type;
	void *addr;

	if (task == NULL)
		return null_param("task");
	if (params == NULL)
		return null_param("params");
	npu_rt_ri_lock();
	t = npu_rt_ri_find_task(task);
	if (t == NULL || t->g->capturing) {
		npu_rt_ri_unlock();
		return not_task(task);
	}
	type = task_type(t);
	t->g->ustate = NPU_RT_RI_UPDATING;
	if (params->type != type ||
	    (type != ACL_MODEL_RI_TASK_VALUE_WRITE && type != ACL_MODEL_RI_TASK_VALUE_WAIT)) {
		npu_rt_msg_detail("params->type %d: only value write (5) and value wait (6) tasks take new parameters, "
				  "of their own type (the task's is %d)", (int)params->type, (int)type);
		err = ACL_ERROR_RT_PARAM_INVALID;
	} else {
		addr = type == ACL_MODEL_RI_TASK_VALUE_WRITE ? params->valueWriteTaskParams.devAddr :
		       params->valueWaitTaskParams.devAddr;
		if (addr == NULL || ((uintptr_t)addr & 7U) != 0 ||
		    (type == ACL_MODEL_RI_TASK_VALUE_WAIT && params->valueWaitTaskParams.flag > ACL_STREAM_WAIT_VALUE_NOR)) {
			npu_rt_msg_detail("devAddr NULL or not 8-byte aligned, or a wait flag above 3");
			err = ACL_ERROR_RT_PARAM_INVALID;
		}
	}
	if (err != ACL_SUCCESS) {
		t->g->ustate = NPU_RT_RI_FAULT;
		npu_rt_ri_unlock();
		return err;
	}
	t->req.dst = (uintptr_t)addr;
	if (type == ACL_MODEL_RI_TASK_VALUE_WRITE) {
		t->req.operand = params->valueWriteTaskParams.value;
	} else {
		t->req.operand = params->valueWaitTaskParams.value;
		t->req.flags = params->valueWaitTaskParams.flag;
	}
	npu_rt_ri_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task)
{
	struct npu_rt_ri_task *t;

	if (task == NULL)
		return null_param("task");
	npu_rt_ri_lock();
	t = npu_rt_ri_find_task(task);
	if (t == NULL || t->g->capturing) {
		npu_rt_ri_unlock();
		return not_task(task);
	}
	if (task_type(t) == ACL_MODEL_RI_TASK_DEFAULT) {
		t->g->ustate = NPU_RT_RI_FAULT;
		npu_rt_ri_unlock();
		npu_rt_msg_detail("a task of type ACL_MODEL_RI_TASK_DEFAULT cannot be disabled");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	t->g->ustate = NPU_RT_RI_UPDATING;
	t->disabled = 1;
	npu_rt_ri_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI)
{
	struct npu_sim_graph_destroy gd = { 0 };
	struct npu_sim_graph_create gc = { 0 };
	struct npu_sim_stream_submit *ops;
	struct npu_rt_graph *g;
	aclError err = ACL_SUCCESS;
	uint32_t n = 0;
	int fd, rc;

	if (modelRI == NULL)
		return rt_null_model();
	npu_rt_devices_read_lock();
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL || g->capturing || npu_rt_device_epoch_locked(g->dev) != g->epoch) {
		err = not_graph(modelRI);
		goto out;
	}
	if (g->ustate == NPU_RT_RI_READY)
		goto out;
	if (g->ustate == NPU_RT_RI_FAULT) {
		npu_rt_msg_detail("a failed aclmdlRITaskSetParams / aclmdlRITaskDisable left the graph not updatable");
		err = ACL_ERROR_RT_MODEL_UPDATE_FAILED;
		goto out;
	}
	err = npu_rt_flow_compile(g, &ops, &n, &gc.flags);
	if (err != ACL_SUCCESS) {
		g->ustate = NPU_RT_RI_FAULT;
		err = ACL_ERROR_RT_MODEL_UPDATE_FAILED;
		goto out;
	}
	gc.ops = (uintptr_t)ops;
	gc.count = n;
	if (g->tagged && !(gc.flags & NPU_SIM_GRAPH_FLOW)) {
		/* The new graph takes over the old one's pool blocks (a
		 * program holds none: the driver refuses them there). */
		gc.flags = NPU_SIM_GRAPH_TAKE_FROM;
		gc.from = g->kgraph;
	}
	fd = npu_rt_device_fd_locked(g->dev);
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc);
	free(ops);
	if (rc != 0) {
		g->ustate = NPU_RT_RI_FAULT;
		npu_rt_msg_detail("the driver refused the updated tasks (errno %d)", -rc);
		err = ACL_ERROR_RT_MODEL_UPDATE_FAILED;
		goto out;
	}
	/* Replays queued before keep their own copies of the old tasks. */
	gd.id = g->kgraph;
	(void)npu_rt_ioctl(fd, NPU_SIM_IOCTL_GRAPH_DESTROY, &gd);
	g->kgraph = gc.id;
	g->ustate = NPU_RT_RI_READY;
out:
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return err;
}

/* ---- debug output ----------------------------------------------------------- */

static const char *op_name(uint32_t op)
{
	static const char *const names[] = {
		[NPU_SIM_OP_COPY] = "copy", [NPU_SIM_OP_SET] = "set", [NPU_SIM_OP_RECORD] = "event_record",
		[NPU_SIM_OP_WAIT] = "event_wait", [NPU_SIM_OP_PREFETCH] = "prefetch",
		[NPU_SIM_OP_VALUE_WRITE] = "value_write", [NPU_SIM_OP_VALUE_WAIT] = "value_wait",
		[NPU_SIM_OP_NOTIFY_RECORD] = "notify_record", [NPU_SIM_OP_NOTIFY_WAIT] = "notify_wait",
		[NPU_SIM_OP_RESET] = "event_reset", [NPU_SIM_OP_CALLBACK] = "callback",
		[NPU_SIM_OP_REDUCE] = "reduce", [NPU_SIM_OP_CMO] = "cmo",
	};

	return op < sizeof(names) / sizeof(names[0]) && names[op] != NULL ? names[op] : "unknown";
}

static void print_task(FILE *f, const struct npu_rt_ri_task *t, int json, int verbose)
{
	const struct npu_sim_stream_submit *r = &t->req;

	if (!json) {
		fprintf(f, "  task %u stream %p %s%s dst 0x%llx src 0x%llx width %llu height %llu value %u "
			"operand %llu\n", t->seq, t->stream, op_name(r->op), t->disabled ? " (disabled)" : "",
			(unsigned long long)r->dst, (unsigned long long)r->src, (unsigned long long)r->width,
			(unsigned long long)r->height, r->value, (unsigned long long)r->operand);
		return;
	}
	fprintf(f, "{\"seq\": %u, \"stream\": \"%p\", \"type\": \"%s\", \"disabled\": %s", t->seq, t->stream,
		op_name(r->op), t->disabled ? "true" : "false");
	if (verbose)
		fprintf(f, ", \"dst\": %llu, \"dpitch\": %llu, \"src\": %llu, \"spitch\": %llu, \"width\": %llu, "
			"\"height\": %llu, \"dir\": %u, \"value\": %u, \"event\": %u, \"flags\": %u, \"operand\": %llu",
			(unsigned long long)r->dst, (unsigned long long)r->dpitch, (unsigned long long)r->src,
			(unsigned long long)r->spitch, (unsigned long long)r->width, (unsigned long long)r->height,
			r->dir, r->value, r->event, r->flags, (unsigned long long)r->operand);
	fputc('}', f);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI)
{
	struct npu_rt_graph *g;

	if (modelRI == NULL)
		return null_param("modelRI");
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL) {
		npu_rt_ri_unlock();
		return not_graph(modelRI);
	}
	printf("model runtime instance %u \"%s\" device %d: %u streams, %u tasks\n", g->id, g->name, g->dev,
	       g->nstreams, g->ntasks);
	for (uint32_t i = 0; i < g->ntasks; i++)
		print_task(stdout, g->tasks[i], 0, 1);
	fflush(stdout);
	npu_rt_ri_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags)
{
	struct npu_rt_graph *g;
	int bad;
	FILE *f;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (path == NULL)
		return null_param("path");
	if (flags > ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) {
		npu_rt_msg_detail("flags 0x%x is neither SUMMARY (0) nor VERBOSE (1)", flags);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL) {
		npu_rt_ri_unlock();
		return not_graph(modelRI);
	}
	f = fopen(path, "w");
	if (f == NULL) {
		npu_rt_ri_unlock();
		npu_rt_msg_detail("cannot write %s", path);
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
	fprintf(f, "{\"id\": %u, \"device\": %d, \"name\": \"", g->id, g->dev);
	for (const char *c = g->name; *c; c++)
		fprintf(f, (*c == '"' || *c == '\\') ? "\\%c" : ((unsigned char)*c < 0x20 ? "\\u%04x" : "%c"),
			*c);
	fprintf(f, "\", \"streams\": [");
	for (uint32_t i = 0; i < g->nstreams; i++)
		fprintf(f, "%s\"%p\"", i ? ", " : "", g->streams[i].handle);
	fprintf(f, "], \"tasks\": [");
	for (uint32_t i = 0; i < g->ntasks; i++) {
		if (i)
			fputs(", ", f);
		print_task(f, g->tasks[i], 1, flags == ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE);
	}
	fprintf(f, "]}\n");
	bad = ferror(f);
	bad |= fclose(f) != 0;
	npu_rt_ri_unlock();
	if (bad) {
		npu_rt_msg_detail("cannot write %s", path);
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
	return ACL_SUCCESS;
}
