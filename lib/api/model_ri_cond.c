/*
 * Condition tasks of captured graphs (aclmdlRICondHandleCreate,
 * aclmdlRICondHandleGetCondPtr, aclmdlRIAddCondTask) and the capture of a
 * stream into a given graph (aclmdlRICaptureToModelRIBegin), as the
 * runtime has them: a condition handle belongs to a graph being captured
 * and owns 8 bytes of device memory (zeroed; with
 * ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT set to its default value when a
 * replay starts); aclmdlRIAddCondTask on a stream capturing into that
 * graph records the task and makes its sub graphs (1 or 2 for IF, 1 for
 * WHILE, any for SWITCH), which are then captured with
 * aclmdlRICaptureToModelRIBegin.  When a replay reaches the task the
 * driver reads the uint64 at the handle and runs: IF, sub graph 0 when it
 * is not 0, else sub graph 1 (if any); WHILE, sub graph 0 as long as it is
 * not 0 (read again before every round); SWITCH, sub graph [value] when
 * the value is below size, else none.  Sub graphs are compiled into the
 * parent's program when the parent's capture ends (model_ri_build.c), and
 * are destroyed with it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "model_ri.h"
#include "model_ri_flow.h"

static aclError null_param(const char *what)
{
	npu_rt_msg_detail("%s is NULL", what);
	return ACL_ERROR_INVALID_PARAM;
}

/* Zero the 8 bytes at mem (device memory of the current device). */
static aclError zero(void *mem)
{
	struct npu_sim_memset req = { .dst = (uintptr_t)mem, .count = sizeof(uint64_t) };
	aclError err;
	int dev, rc;

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_MEMSET, &req);
	npu_rt_devices_unlock();
	return rc == 0 ? ACL_SUCCESS : npu_rt_errno_to_acl(-rc);
}

ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
						      aclmdlRICondHandleFlag flag, aclmdlRICondHandle *handle)
{
	struct npu_rt_graph *g;
	struct npu_rt_cond *c;
	struct npu_rt_flow *f;
	void *mem = NULL;
	aclError err;
	int dev;

	if (modelRI == NULL || handle == NULL)
		return null_param(modelRI == NULL ? "modelRI" : "handle");
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL || !g->capturing) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("modelRI %p is not a model runtime instance in its capture stage", modelRI);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (g->dev != dev) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the model is of device %d, the current context of device %d", g->dev, dev);
		return ACL_ERROR_RT_MODEL_CONTEXT;
	}
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	/* The handle's value: 8 bytes of device memory, zeroed by the driver
	 * (not aclrtMemset: the capture under way may forbid it). */
	err = aclrtMalloc(&mem, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST);
	if (err == ACL_SUCCESS)
		err = zero(mem);
	c = err == ACL_SUCCESS ? calloc(1, sizeof(*c)) : NULL;
	if (err == ACL_SUCCESS && c == NULL)
		err = ACL_ERROR_RT_MEMORY_ALLOCATION;
	if (err != ACL_SUCCESS) {
		if (mem != NULL)
			(void)aclrtFree(mem);
		return err;
	}
	c->ptr = mem;
	c->def = defaultLaunchValue;
	c->flag = (uint32_t)flag;
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);	/* again: the lock was dropped */
	f = g != NULL && g->capturing ? npu_rt_flow_of(g) : NULL;
	if (f == NULL || npu_rt_flow_add_cond(f, c) != 0) {
		npu_rt_ri_unlock();
		(void)aclrtFree(mem);
		free(c);
		if (g == NULL || !g->capturing)
			return ACL_ERROR_RT_PARAM_INVALID;
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	c->g = g;
	npu_rt_cond_link(c);
	*handle = c;
	npu_rt_ri_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr)
{
	struct npu_rt_cond *c;

	if (handle == NULL || ptr == NULL)
		return null_param(handle == NULL ? "handle" : "ptr");
	npu_rt_ri_lock();
	c = npu_rt_cond_find(handle);
	if (c != NULL)
		*ptr = c->ptr;
	npu_rt_ri_unlock();
	if (c != NULL)
		return ACL_SUCCESS;
	npu_rt_msg_detail("handle %p is not a live condition handle", handle);
	return ACL_ERROR_RT_PARAM_INVALID;
}

/* The runtime's size rule per type: 0 or the code. */
static aclError size_check(uint32_t type, uint32_t size)
{
	switch (type) {
	case ACL_MODEL_RI_COND_TYPE_IF:
		if (size == 1 || size == 2)
			return ACL_SUCCESS;
		break;
	case ACL_MODEL_RI_COND_TYPE_WHILE:
		if (size == 1)
			return ACL_SUCCESS;
		break;
	case ACL_MODEL_RI_COND_TYPE_SWITCH:
		if (size > 0)
			return ACL_SUCCESS;
		break;
	default:
		npu_rt_msg_detail("condition type %u is outside [0, 2]", type);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_msg_detail("size %u does not fit condition type %u (IF: 1 or 2, WHILE: 1, SWITCH: > 0)", size, type);
	return ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags)
{
	struct npu_rt_ri_stream *st = NULL;
	struct npu_rt_graph *g, **subs;
	struct npu_rt_flow_task *p;
	struct npu_rt_ref ref;
	struct npu_rt_cond *c;
	uint32_t made = 0;
	aclError err;

	(void)flags;	/* reserved; the runtime ignores it */
	if (stream == NULL)
		return null_param("stream");
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	c = npu_rt_cond_find(params.handle);
	if (c == NULL) {
		err = ACL_ERROR_RT_PARAM_INVALID;
		npu_rt_msg_detail("params.handle %p is not a live condition handle", params.handle);
	} else if (c->used) {
		err = ACL_ERROR_RT_PARAM_INVALID;
		npu_rt_msg_detail("the condition handle has its condition task already: create another");
	}
	if (err != ACL_SUCCESS)
		goto out;
	npu_rt_ri_unlock();
	err = npu_rt_stream_ctx_check_locked(&ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	g = npu_rt_ri_capturing(ref.dev, ref.kid, &st);
	if (g == NULL) {
		err = ACL_ERROR_RT_STREAM_NOT_CAPTURED;
		npu_rt_msg_detail("the stream is not capturing (aclmdlRICaptureBegin)");
	} else if (g != c->g) {
		err = ACL_ERROR_RT_PARAM_INVALID;
		npu_rt_msg_detail("the stream captures into another model than the condition handle's");
	} else {
		err = size_check((uint32_t)params.type, params.size);
	}
	if (err == ACL_SUCCESS && params.modelRIArray == NULL)
		err = null_param("params.modelRIArray");
	if (err != ACL_SUCCESS)
		goto out;
	subs = calloc(params.size, sizeof(*subs));
	p = calloc(1, sizeof(*p));
	for (; subs != NULL && p != NULL && made < params.size; made++) {
		subs[made] = npu_rt_ri_new(g->dev, g->epoch, g->ctx_id);
		if (subs[made] == NULL || npu_rt_flow_of(subs[made]) == NULL)
			break;
		subs[made]->flow->sub = 1;
	}
	if (made < params.size || npu_rt_flow_add_task(g, ref.kid, st->handle, NPU_RT_FLOW_COND, p) != 0) {
		for (uint32_t i = 0; subs != NULL && i <= made && i < params.size; i++)
			if (subs[i] != NULL)
				npu_rt_ri_free(subs[i]);
		if (made < params.size)
			free(p);
		free(subs);
		err = ACL_ERROR_RT_MEMORY_ALLOCATION;
		goto out;
	}
	/* The parent owns its subs: they go when it is destroyed. */
	for (uint32_t i = 0; i < params.size; i++) {
		if (npu_rt_flow_add_sub(g->flow, subs[i]) != 0) {
			err = ACL_ERROR_RT_MEMORY_ALLOCATION;
			break;
		}
	}
	p->ch = c;
	c->used = 1;
	c->type = (uint32_t)params.type;
	c->size = params.size;
	c->subs = subs;
	for (uint32_t i = 0; i < params.size; i++)
		params.modelRIArray[i] = subs[i];
out:
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return err;
}
