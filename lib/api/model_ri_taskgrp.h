/*
 * The task-group state of streams (model_ri_taskgrp_state.c), shared by
 * the capture path (model_ri_capture.c) and the task-group calls
 * (model_ri_taskgrp.c).  Everything here is under ri_lock.
 */
#ifndef NPU_RT_MODEL_RI_TASKGRP_H
#define NPU_RT_MODEL_RI_TASKGRP_H
#include <stdint.h>

#include "model_ri.h"

enum { GRP_NONE = 0, GRP_SAMPLE, GRP_UPDATE };

struct grp_stream {
	struct grp_stream *next;
	int dev;
	uint64_t epoch;
	uint32_t kid;
	int state;			/* GRP_SAMPLE / GRP_UPDATE */
	struct npu_rt_graph *g;		/* SAMPLE: the capture */
	struct npu_rt_ri_taskgrp *grp;	/* UPDATE: the group */
	uint32_t updated;		/* UPDATE: tasks re-recorded so far */
};

/* The state entry of stream (dev, kid) of the live device, or NULL. */
struct grp_stream *npu_rt_taskgrp_find(int dev, uint32_t kid);
/* Link a new entry e (its fields set). */
void npu_rt_taskgrp_link(struct grp_stream *e);
/* Unlink and free e. */
void npu_rt_taskgrp_drop(struct grp_stream *e);
#endif
