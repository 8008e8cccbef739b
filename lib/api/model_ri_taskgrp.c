/*
 * Task groups of a capture and their update (aclmdlRICaptureTaskGrpBegin /
 * End, aclmdlRICaptureTaskUpdateBegin / End).
 *
 * A stream is in one task-group state at a time: none, grouping (between
 * TaskGrpBegin and TaskGrpEnd, on a capturing stream) or updating (between
 * TaskUpdateBegin and TaskUpdateEnd, on any stream).  The runtime lets only
 * kernel-launch tasks (AI Core / vector core) into a group or an update;
 * every other task queued on a grouping or updating stream fails with
 * ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT (while updating, an event record is
 * let through and queued as usual), and a refused task in a group makes
 * its TaskGrpEnd fail with that code.  npu_sim has no kernel launches, so
 * a group is always empty and an update of it re-records nothing; the
 * state machine, the checks and the codes are the runtime's.
 *
 * The states live in model_ri_taskgrp_state.c, under ri_lock
 * (model_ri_capture.c), keyed by the stream's device, epoch and kernel id.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "model_ri.h"
#include "model_ri_taskgrp.h"

/* ri_lock held: whether h is a task group of a live graph. */
static struct npu_rt_ri_taskgrp *grp_of_handle(const void *h)
{
	for (struct npu_rt_graph *g = NULL; (g = npu_rt_ri_next(g)) != NULL;)
		for (struct npu_rt_ri_taskgrp *t = g->grps; t != NULL; t = t->next)
			if (t == h)
				return t;
	return NULL;
}

/*
 * The entry of the four calls: stream (and, when the call has one, its
 * handle: need_handle) not NULL, then the stream's guard; ACL_SUCCESS with
 * the table lock and ri_lock held.
 */
static aclError grp_enter(aclrtStream stream, bool need_handle, const void *handle, struct npu_rt_ref *ref)
{
	aclError err;

	if (stream == NULL || (need_handle && handle == NULL)) {
		npu_rt_msg_detail(stream == NULL ? "stream is NULL" : "handle is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_enter(stream, ref);
	if (err == ACL_SUCCESS)
		npu_rt_ri_lock();
	return err;
}

/*
 * ri_lock held: *e, the stream's task-group state, when it is want
 * (GRP_NONE: the stream has none, *e NULL); else 107033.
 */
static aclError grp_state(const struct npu_rt_ref *ref, int want, struct grp_stream **e)
{
	static const char *const why[] = {
		[GRP_NONE] = "the stream is in a task group or a task update already",
		[GRP_SAMPLE] = "the stream has not begun a task group (aclmdlRICaptureTaskGrpBegin)",
		[GRP_UPDATE] = "the stream is not updating a task group (aclmdlRICaptureTaskUpdateBegin)",
	};

	*e = npu_rt_taskgrp_find(ref->dev, ref->kid);
	if (*e == NULL ? want == GRP_NONE : (*e)->state == want)
		return ACL_SUCCESS;
	npu_rt_msg_detail("%s", why[want]);
	return ACL_ERROR_STREAM_TASK_GROUP_STATUS;
}

/* ri_lock held: give ref's stream the state GRP_SAMPLE (into g) or GRP_UPDATE (of t). */
static aclError grp_start(const struct npu_rt_ref *ref, int state, struct npu_rt_graph *g,
			  struct npu_rt_ri_taskgrp *t)
{
	struct grp_stream *e = calloc(1, sizeof(*e));

	if (e == NULL)
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	*e = (struct grp_stream){ .dev = ref->dev, .kid = ref->kid, .state = state, .g = g, .grp = t,
				  .epoch = npu_rt_device_epoch_locked(ref->dev) };
	npu_rt_taskgrp_link(e);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)
{
	struct npu_rt_graph *g;
	struct grp_stream *e;
	struct npu_rt_ref ref;
	aclError err;

	err = grp_enter(stream, false, NULL, &ref);
	if (err != ACL_SUCCESS)
		return err;
	err = grp_state(&ref, GRP_NONE, &e);
	if (err != ACL_SUCCESS)
		goto out;
	g = npu_rt_ri_capturing(ref.dev, ref.kid, NULL);
	if (g == NULL) {
		err = ACL_ERROR_RT_STREAM_NOT_CAPTURED;
		npu_rt_msg_detail("the stream is not capturing (aclmdlRICaptureBegin)");
		goto out;
	}
	err = grp_start(&ref, GRP_SAMPLE, g, NULL);
	if (err == ACL_SUCCESS)
		g->open_grps++;
out:
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle)
{
	struct npu_rt_ri_taskgrp *t;
	struct npu_rt_graph *g;
	struct grp_stream *e;
	struct npu_rt_ref ref;
	aclError err;

	err = grp_enter(stream, true, handle, &ref);
	if (err != ACL_SUCCESS)
		return err;
	*handle = NULL;
	err = grp_state(&ref, GRP_SAMPLE, &e);
	if (err != ACL_SUCCESS)
		goto out;
	g = e->g;
	if (npu_rt_ri_capturing(ref.dev, ref.kid, NULL) != g) {
		err = ACL_ERROR_RT_STREAM_NOT_CAPTURED;
		npu_rt_msg_detail("the stream's capture is over");
		goto out;
	}
	if (g->grp_err != ACL_SUCCESS || g->invalid) {
		err = g->grp_err != ACL_SUCCESS ? g->grp_err : ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
		npu_rt_msg_detail(g->grp_err != ACL_SUCCESS ?
				  "a task queued in the group was refused: handle the earlier call's error first" :
				  "the stream's capture was invalidated");
	} else {
		t = calloc(1, sizeof(*t));
		if (t == NULL) {
			err = ACL_ERROR_RT_MEMORY_ALLOCATION;
		} else {
			t->g = g;
			t->next = g->grps;
			g->grps = t;
			*handle = t;
		}
	}
	g->open_grps--;
	npu_rt_taskgrp_drop(e);
out:
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
	struct npu_rt_ri_taskgrp *t;
	struct grp_stream *e;
	struct npu_rt_ref ref;
	aclError err;

	err = grp_enter(stream, true, handle, &ref);
	if (err != ACL_SUCCESS)
		return err;
	t = grp_of_handle(handle);
	if (t == NULL) {
		err = ACL_ERROR_RT_PARAM_INVALID;
		npu_rt_msg_detail("handle is not a task group of a live model runtime instance");
		goto out;
	}
	err = grp_state(&ref, GRP_NONE, &e);
	if (err != ACL_SUCCESS)
		goto out;
	if (t->updating) {
		err = ACL_ERROR_STREAM_TASK_GROUP_STATUS;
		npu_rt_msg_detail("another stream is updating the task group");
		goto out;
	}
	err = grp_start(&ref, GRP_UPDATE, NULL, t);
	if (err == ACL_SUCCESS)
		t->updating = 1;
out:
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
	struct grp_stream *e;
	struct npu_rt_ref ref;
	aclError err;

	err = grp_enter(stream, false, NULL, &ref);
	if (err != ACL_SUCCESS)
		return err;
	err = grp_state(&ref, GRP_UPDATE, &e);
	if (err == ACL_SUCCESS) {
		if (e->updated != e->grp->ntasks) {
			err = ACL_ERROR_RT_INTERNAL_ERROR;
			npu_rt_msg_detail("the task group has %u tasks, %u were updated", e->grp->ntasks, e->updated);
		}
		npu_rt_taskgrp_drop(e);
	}
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return err;
}
