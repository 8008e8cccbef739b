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

struct npu_rt_graph {
	struct npu_rt_graph *next;
	uint32_t id;			/* aclmdlRIGetId */
	int dev;
	uint64_t epoch;
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
	struct npu_rt_flow *flow;	/* control flow, NULL if none (model_ri_flow.h) */
};

/* ri_lock: the graphs and captures. */
void npu_rt_ri_lock(void);
void npu_rt_ri_unlock(void);
/* ri_lock held: the live graph handle is, or NULL. */
struct npu_rt_graph *npu_rt_ri_find(const void *handle);
/* ri_lock held: the newest live graph (the list goes on through ->next). */
struct npu_rt_graph *npu_rt_ri_first(void);
/* ri_lock held: the task of a live graph handle is, or NULL. */
struct npu_rt_ri_task *npu_rt_ri_find_task(const void *handle);
/* ri_lock held: link a new graph of (dev, epoch); NULL on no memory. */
struct npu_rt_graph *npu_rt_ri_new(int dev, uint64_t epoch);
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
/* Table lock held: ACL_SUCCESS, or 107030 when the calling thread may not
 * make a synchronous copy or set on dev now (aclmdlRICaptureThreadExchangeMode). */
aclError npu_rt_capture_mode_check(int dev);
/* A callback of a replayed graph: 1 and its function and data, or 0. */
int npu_rt_capture_callback(uint64_t cookie, void (**fn)(void *), void **data);

#endif /* NPU_RT_MODEL_RI_H */
