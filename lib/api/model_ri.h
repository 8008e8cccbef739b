/*
 * Graphs (aclmdlRI) inside the library: the capture state that the submit
 * paths consult (model_ri_capture.c) and the graph objects the aclmdlRI
 * calls work on (model_ri.c).
 *
 * Locks: ri_lock (model_ri_capture.c) guards every graph and capture; it
 * is taken alone or inside the device table lock, and the callback lock
 * (callback.c) is never held with it.
 */
#ifndef NPU_RT_MODEL_RI_H
#define NPU_RT_MODEL_RI_H

#include <stdatomic.h>
#include <stdint.h>

#include "acl_internal.h"

enum { NPU_RT_CB_REPORT = 0, NPU_RT_CB_HOSTFUNC = 1 };
/* Update state of a graph (aclmdlRITaskSetParams / TaskDisable / Update). */
enum { NPU_RT_RI_READY = 0, NPU_RT_RI_UPDATING, NPU_RT_RI_FAULT };

/* One recorded task; its address is the aclmdlRITask handle. */
struct npu_rt_ri_task {
	struct npu_rt_graph *g;
	uint32_t seq;			/* index in the graph */
	uint32_t kid;			/* kernel id of the stream it was captured on */
	void *stream;			/* that stream's handle, NULL if unknown */
	struct npu_sim_stream_submit req;	/* stream 0, seq 0 */
	void *event;			/* event tasks: the event's handle */
	uint32_t ev_flags;		/* and its creation flags */
	void (*fn)(void *);		/* callbacks: the function, its data */
	void *data;
	int cb_kind;			/* NPU_RT_CB_* */
	int disabled;
};

struct npu_rt_ri_stream {
	uint32_t kid;
	void *handle;
	int active;			/* still capturing into this graph */
};

struct npu_rt_ri_dtor {
	struct npu_rt_ri_dtor *next;
	void (*fn)(void *);
	void *data;
};

/* A task group of a capture (aclmdlRICaptureTaskGrpEnd's handle); it
 * lives as long as its graph.  Only kernel-launch tasks can be grouped,
 * so in npu_sim a group is always empty (model_ri_taskgrp.c). */
struct npu_rt_ri_taskgrp {
	struct npu_rt_ri_taskgrp *next;
	struct npu_rt_graph *g;
	uint32_t ntasks;
	int updating;			/* a stream updates it */
};

struct npu_rt_graph {
	struct npu_rt_graph *next;
	uint32_t id;			/* aclmdlRIGetId */
	int dev;
	uint64_t epoch;
	uint32_t ctx_id;		/* the context it was made in */
	uint32_t kgraph;		/* driver graph id, 0 before the end */
	uint32_t exec_sid;		/* aclmdlRIExecute's stream, 0 if none */
	char name[128];
	struct npu_rt_ri_task **tasks;
	uint32_t ntasks, cap_tasks;
	struct npu_rt_ri_stream *streams;
	uint32_t nstreams, cap_streams;
	uint32_t *events;		/* kernel ids of events recorded in capture */
	uint32_t nevents, cap_events;
	struct npu_rt_ri_dtor *dtors;
	/* capture */
	int capturing;			/* capture not ended */
	int invalid;			/* a capture call failed */
	int mode;			/* aclmdlRICaptureMode */
	int ustate;			/* NPU_RT_RI_READY / _UPDATING / _FAULT */
	uint64_t thread;		/* pthread_self of CaptureBegin */
	/* task groups (model_ri_taskgrp.c) */
	struct npu_rt_ri_taskgrp *grps;	/* ended groups */
	int open_grps;			/* streams grouping into this capture */
	aclError grp_err;		/* a task refused in a group, or 0 */
	int captured;			/* a capture into it began once */
	int tagged;			/* replays carry a tag (NPU_SIM_CAP_GRAPH_POOL) */
	struct npu_rt_flow *flow;	/* control flow, NULL if none (model_ri_flow.h) */
};

/* ri_lock: the graphs and captures. */
void npu_rt_ri_lock(void);
void npu_rt_ri_unlock(void);
/* ri_lock held: whether g is a sub graph of a condition task
 * (aclmdlRIAddCondTask, model_ri_cond.c): the one kind
 * aclmdlRICaptureToModelRIBegin captures into; it cannot be destroyed,
 * executed or aborted on its own. */
int npu_rt_ri_is_sub(const struct npu_rt_graph *g);
/* ri_lock held: the live graph handle is, or NULL. */
struct npu_rt_graph *npu_rt_ri_find(const void *handle);
/* ri_lock held: the live graph after g (NULL: the first), or NULL. */
struct npu_rt_graph *npu_rt_ri_next(struct npu_rt_graph *g);
/* ri_lock held: the task of a live graph handle is, or NULL. */
struct npu_rt_ri_task *npu_rt_ri_find_task(const void *handle);
/* ri_lock held: append a task of stream (kid, its handle) doing req (its
 * stream and seq cleared) to g; the task, or NULL on no memory. */
struct npu_rt_ri_task *npu_rt_ri_add_task(struct npu_rt_graph *g, uint32_t kid, void *stream,
					  const struct npu_sim_stream_submit *req);
/* ri_lock held: link a new graph of (dev, epoch) made in context ctx_id;
 * NULL on no memory. */
struct npu_rt_graph *npu_rt_ri_new(int dev, uint64_t epoch, uint32_t ctx_id);
/* ri_lock held: drop g's tasks (a failed capture into a sub-graph). */
void npu_rt_ri_clear_tasks(struct npu_rt_graph *g);
/* ri_lock held: unlink and free g (no ioctl: the caller destroys the driver graph). */
void npu_rt_ri_free(struct npu_rt_graph *g);
/* ri_lock and table lock held: the graph capturing stream (dev, kid) and the stream's entry, or NULL. */
struct npu_rt_graph *npu_rt_ri_capturing(int dev, uint32_t kid, struct npu_rt_ri_stream **st);
/* ri_lock and table lock held: the newest live graph of dev with a stream of kernel id
 * kid (ended captures only), or NULL. */
struct npu_rt_graph *npu_rt_ri_newest_with_stream(int dev, uint32_t kid);
/* ri_lock held: add stream (kid, handle) to g's capture; 0 or -ENOMEM. */
int npu_rt_ri_add_stream(struct npu_rt_graph *g, uint32_t kid, void *handle);
/* ri_lock held: count the capture in or out of the active ones (out: it
 * ends, its streams and events leave it). */
void npu_rt_ri_mode_enter(struct npu_rt_graph *g);
void npu_rt_ri_mode_exit(struct npu_rt_graph *g);
/* The calling thread's exchange mode, swapped. */
int npu_rt_ri_exchange_mode(int mode);

/*
 * Table lock held: if ref's stream captures (or the op, a WAIT on an event
 * recorded in a capture, joins it into one), record req (and, for a
 * callback, fn/data of cb_kind) instead of submitting it: returns 1 and
 * *err (ACL_SUCCESS, or the code of a refused op).  0: submit as usual.
 */
int npu_rt_capture_submit(const struct npu_rt_ref *ref, struct npu_sim_stream_submit *req, void (*fn)(void *),
			  void *data, int cb_kind, aclError *err);
/*
 * The recorder of work queued on a model's streams (model_ri_build.c),
 * called first by npu_rt_capture_submit with the same contract; set once.
 */
typedef int (*npu_rt_build_recorder)(const struct npu_rt_ref *ref, struct npu_sim_stream_submit *req, int cb_kind,
				     aclError *err);
void npu_rt_capture_set_recorder(npu_rt_build_recorder fn);
/* Table lock held: 0 stream (dev, kid) captures nothing, 1 active, 2 invalidated. */
int npu_rt_capture_stream_state(int dev, uint32_t kid);
/* Table lock held: whether event (dev, kid) is recorded in an active capture. */
int npu_rt_capture_event_captured(int dev, uint32_t kid);
/* Table lock held: whether any capture is active on dev. */
int npu_rt_capture_any(int dev);
/* Invalidate the capture of stream (dev, kid), if any. */
void npu_rt_capture_invalidate(int dev, uint32_t kid);
/* Captures begun and not ended, on all devices (model_ri_capture.c). */
extern atomic_int npu_rt_captures_open;
/* Table lock held: ACL_SUCCESS, or 107030 when the calling thread may not
 * make a synchronous copy or set on dev now (aclmdlRICaptureThreadExchangeMode).
 * Inline: without a capture (every copy's case) it is one load. */
aclError npu_rt_capture_mode_check_(int dev);
static inline aclError npu_rt_capture_mode_check(int dev)
{
	if (atomic_load(&npu_rt_captures_open) == 0)
		return ACL_SUCCESS;
	return npu_rt_capture_mode_check_(dev);
}
/*
 * Memory-pool calls on a capturing stream (mem_pool.c): table lock held.
 * pool_alloc: the block [va, +size) of pool pool_id, allocated by the
 * caller, becomes a POOL_ALLOC task of ref's capture; pool_free: a free of
 * ptr becomes a POOL_FREE task.  Both: 0 the stream captures nothing, 1
 * recorded or refused (*err).
 */
int npu_rt_capture_pool_alloc(const struct npu_rt_ref *ref, uint64_t pool_id, uint64_t va, uint64_t size,
			      aclError *err);
int npu_rt_capture_pool_free(const struct npu_rt_ref *ref, uint64_t va, aclError *err);
/* ri_lock held: fd open for g's device: give back the pool blocks g's
 * tasks allocated (a capture that produced no graph). */
void npu_rt_ri_free_pool_blocks(const struct npu_rt_graph *g, int fd);

/* Task groups (model_ri_taskgrp.c).  ri_lock held: 1 and *err when op may
 * not be queued on stream (dev, kid) because of its task-group state
 * (grouping or updating), 0 otherwise.  g: the capture the op goes to, or
 * NULL. */
int npu_rt_taskgrp_refuse(int dev, uint32_t kid, struct npu_rt_graph *g, uint32_t op, aclError *err);
/* ri_lock held: forget the task-group state of g's streams (g ends). */
void npu_rt_taskgrp_forget(struct npu_rt_graph *g);
/* Count of streams with a task-group state (fast path). */
int npu_rt_taskgrp_active(void);

/* A callback of a replayed graph: 1 and its function and data, or 0. */
int npu_rt_capture_callback(uint64_t cookie, void (**fn)(void *), void **data);

#endif /* NPU_RT_MODEL_RI_H */
