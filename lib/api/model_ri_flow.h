/*
 * Control flow of graphs inside the library: built models
 * (model_ri_build.c), labels (label.c), condition tasks (model_ri_cond.c),
 * and the compilation of a graph's tasks into the driver's program
 * (include/uapi/misc/npu_sim.h "Graph control flow").
 *
 * A control task is an npu_rt_ri_task of the graph like any other, in the
 * order of the calls, with req.op one of NPU_RT_FLOW_* (never handed to
 * the driver as such) and its parameters in t->data (owned by the graph's
 * struct npu_rt_flow).  Locks: ri_lock guards all of it, as the graphs.
 */
#ifndef NPU_RT_MODEL_RI_FLOW_H
#define NPU_RT_MODEL_RI_FLOW_H

#include <stdint.h>

#include "model_ri.h"

/* req.op of the control tasks (above every driver op). */
enum {
	NPU_RT_FLOW_LABEL = 0x100,	/* aclrtSetLabel: a position */
	NPU_RT_FLOW_SWITCH_LABEL,	/* aclrtSwitchLabelByIndex */
	NPU_RT_FLOW_ACTIVE,		/* aclrtActiveStream */
	NPU_RT_FLOW_SWITCH_STREAM,	/* aclrtSwitchStream */
	NPU_RT_FLOW_END,		/* aclmdlRIEndTask */
	NPU_RT_FLOW_COND,		/* aclmdlRIAddCondTask */
};

/* Parameters of a control task (t->data). */
struct npu_rt_flow_task {
	uint32_t label;			/* LABEL: the label's id */
	uint32_t nlabels;		/* SWITCH_LABEL: maxValue, then the ids */
	uint32_t *labels;
	uint64_t value, right;		/* SWITCH_*: index / left, right value */
	uint32_t cond, width;		/* SWITCH_STREAM: aclrtCondition, 4 or 8 */
	uint32_t target;		/* ACTIVE, SWITCH_STREAM: kernel stream */
	struct npu_rt_cond *ch;		/* COND: the handle */
};

/* A condition handle (aclmdlRICondHandle). */
struct npu_rt_cond {
	struct npu_rt_cond *next;	/* all handles */
	struct npu_rt_graph *g;		/* its model */
	uint64_t *ptr;			/* 8 bytes of device memory */
	uint32_t def, flag;
	int used;			/* given to aclmdlRIAddCondTask */
	uint32_t type, size;
	struct npu_rt_graph **subs;	/* size sub graphs */
};

/* A model stream of a built graph. */
struct npu_rt_flow_stream {
	uint32_t kid;
	void *handle;
	int head;			/* ACL_MODEL_STREAM_FLAG_HEAD */
	int bound;			/* not unbound since */
};

/* What a graph has of control flow (g->flow). */
struct npu_rt_flow {
	int built;			/* made by aclmdlRIBuildBegin */
	int loaded;			/* aclmdlRIBuildEnd done */
	int ended;			/* aclmdlRIEndTask given */
	int sub;			/* a sub graph of a condition task */
	struct npu_rt_flow_stream *streams;
	uint32_t nstreams;
	struct npu_rt_flow_task **params;
	uint32_t nparams;
	struct npu_rt_graph **subs;	/* sub graphs made by its cond tasks */
	uint32_t nsubs;
	struct npu_rt_cond **conds;	/* its condition handles */
	uint32_t nconds;
};

/* ri_lock held: g's flow state, made (and its cleanup registered) when
 * missing; NULL out of memory. */
struct npu_rt_flow *npu_rt_flow_of(struct npu_rt_graph *g);
/* ri_lock held: f owns condition handle c / sub graph sub from now on:
 * 0 or -ENOMEM. */
int npu_rt_flow_add_cond(struct npu_rt_flow *f, struct npu_rt_cond *c);
int npu_rt_flow_add_sub(struct npu_rt_flow *f, struct npu_rt_graph *sub);
/* ri_lock held: append control task op with params p (owned by g from
 * then on) on stream (kid, handle): 0 or -ENOMEM (p freed). */
int npu_rt_flow_add_task(struct npu_rt_graph *g, uint32_t kid, void *handle, uint32_t op,
			 struct npu_rt_flow_task *p);
/* ri_lock and table lock held: the built graph stream (dev, kid) is bound
 * to, and its entry; NULL if none. */
struct npu_rt_graph *npu_rt_flow_bound(int dev, uint32_t kid, struct npu_rt_flow_stream **st);
/*
 * ri_lock held: the driver program of g's enabled tasks in *ops (malloc'ed,
 * the caller frees it), *n entries, *flags the GRAPH_CREATE flags:
 * ACL_SUCCESS; ACL_ERROR_RT_FEATURE_NOT_SUPPORT a control-flow graph holds a
 * task the driver's programs cannot run; ACL_ERROR_RT_INTERNAL_ERROR a
 * switch names a label not set in g; ACL_ERROR_RT_MEMORY_ALLOCATION.
 */
aclError npu_rt_flow_compile(struct npu_rt_graph *g, struct npu_sim_stream_submit **ops, uint32_t *n,
			     uint32_t *flags);
/* Table lock held: the recording of work queued on a model stream (the
 * recorder of model_ri.h, set by aclmdlRIBuildBegin). */
int npu_rt_build_submit(const struct npu_rt_ref *ref, struct npu_sim_stream_submit *req, int cb_kind,
			aclError *err);
/* ri_lock held: whether g is a built graph whose build has not ended. */
int npu_rt_flow_unloaded(const struct npu_rt_graph *g);
/* No lock held: run and free a destroyed graph's destroy callbacks, in
 * registration order (aclmdlRIDestroy). */
void npu_rt_ri_run_dtors(struct npu_rt_ri_dtor *dtors);
/* ri_lock held: a live condition handle, or NULL; link a new one. */
struct npu_rt_cond *npu_rt_cond_find(const void *handle);
void npu_rt_cond_link(struct npu_rt_cond *c);

#endif /* NPU_RT_MODEL_RI_FLOW_H */
