/*
 * The task-group state of streams (model_ri_taskgrp.h): which stream is
 * grouping into a capture or updating a group, and the refusal of the
 * tasks queued there, which the capture path asks for.  The calls that
 * change the state are in model_ri_taskgrp.c.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "model_ri.h"
#include "model_ri_taskgrp.h"

static struct grp_stream *grp_streams;
static atomic_int n_grp_streams;

int npu_rt_taskgrp_active(void)
{
	return atomic_load(&n_grp_streams) != 0;
}

struct grp_stream *npu_rt_taskgrp_find(int dev, uint32_t kid)
{
	uint64_t epoch = npu_rt_device_epoch_locked(dev);

	for (struct grp_stream *e = grp_streams; e != NULL; e = e->next)
		if (e->dev == dev && e->kid == kid && e->epoch == epoch)
			return e;
	return NULL;
}

void npu_rt_taskgrp_link(struct grp_stream *e)
{
	e->next = grp_streams;
	grp_streams = e;
	atomic_fetch_add(&n_grp_streams, 1);
}

void npu_rt_taskgrp_drop(struct grp_stream *e)
{
	for (struct grp_stream **p = &grp_streams; *p != NULL; p = &(*p)->next) {
		if (*p == e) {
			*p = e->next;
			atomic_fetch_sub(&n_grp_streams, 1);
			if (e->grp != NULL)
				e->grp->updating = 0;
			free(e);
			return;
		}
	}
}

int npu_rt_taskgrp_refuse(int dev, uint32_t kid, struct npu_rt_graph *g, uint32_t op, aclError *err)
{
	struct grp_stream *e;

	if (atomic_load(&n_grp_streams) == 0)
		return 0;
	e = npu_rt_taskgrp_find(dev, kid);
	if (e == NULL)
		return 0;
	if (e->state == GRP_UPDATE && op == NPU_SIM_OP_RECORD)
		return 0;	/* the runtime skips it: queued as usual */
	if (e->state == GRP_SAMPLE && g != NULL && g == e->g)
		g->grp_err = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT;
	npu_rt_msg_detail("the stream is %s a task group: only kernel-launch tasks (AI Core, vector core) can be %s",
			  e->state == GRP_SAMPLE ? "capturing into" : "updating",
			  e->state == GRP_SAMPLE ? "added to a task group" : "updated");
	*err = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT;
	return 1;
}

void npu_rt_taskgrp_forget(struct npu_rt_graph *g)
{
	struct grp_stream *e = grp_streams, *next;

	for (; e != NULL; e = next) {
		next = e->next;
		if (e->g == g || (e->grp != NULL && e->grp->g == g))
			npu_rt_taskgrp_drop(e);
	}
	g->open_grps = 0;
}
