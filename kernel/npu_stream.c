// SPDX-License-Identifier: GPL-2.0
/*
 * Streams, events and asynchronous work: STREAM_CREATE / DESTROY / SUBMIT /
 * SYNC and EVENT_CREATE / DESTROY / SYNC, and the engine that runs them.
 *
 * A stream is an in-order list of npu_ops.  COPY and SET ops are checked
 * and their device memory referenced at submit time by npu_xfer_prepare(),
 * exactly as the synchronous ioctls do; a worker then moves the data inside
 * the owner's address space (kthread_use_mm) when it reaches the op.
 * RECORD marks an event reached (with a CLOCK_MONOTONIC timestamp); WAIT
 * holds the stream until an event's record submitted before it has been
 * reached.  VALUE_WRITE stores 8 bytes of device memory; VALUE_WAIT holds
 * its stream until those 8 bytes meet a condition (aclrtValueWrite/Wait).
 *
 * The engine isolates users.  A stream with work holds a slot of its
 * opener's user (npu_stream_user) while a thread of its context runs it
 * (kthread workers that joined the cgroups of the stream's creator, so the
 * CPU time of the work is charged where the work came from); at most npu_stream_slots streams of one user hold
 * one, the others wait in the user's ready list, and a stream passes its
 * slot on after each op when others wait.  A wait op whose condition is
 * not met does not keep its worker: the stream parks, giving its slot up,
 * and is kicked again by what may meet it: the RECORD of the event (under
 * sq_lock, so no record is missed), or for VALUE_WAIT any write of a
 * stream op or a copy ioctl, and a poll with backoff for host writes
 * through the window and imports of other processes.  Workers charge what
 * they allocate to the memory cgroup of the context's opener.
 *
 * Cancelling (a forced destroy, the owner gone, release) takes every op
 * that is not running off the stream and completes it at once with
 * -ECANCELED (a cancelled RECORD still counts as reached, so nothing waits
 * on it forever); the op running stops at its next chunk.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/overflow.h>
#include <linux/refcount.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "npu_sim.h"
#include "npu_trace.h"

/* Streams of one user that may run at the same time (module parameter). */
unsigned int npu_stream_slots = 4;

/* Runs the polls of parked VALUE_WAITs (they only kick their stream). */
static struct workqueue_struct *npu_stream_wq;

/*
 * npu_dev.stream_hold: 0 (nothing held), NPU_HOLD_ALL (every stream of the
 * device) or the key of one stream: owner tgid in the high 32 bits, stream
 * id (1..INT_MAX) in the low ones, so never 0 or NPU_HOLD_ALL.
 */
#define NPU_HOLD_ALL	U64_MAX

/* Longest poll interval of a parked VALUE_WAIT (host writes, imports). */
#define NPU_VALUE_POLL_MAX_MS	16

static u64 npu_stream_hold_key(pid_t pid, u32 id)
{
	return (u64)(u32)pid << 32 | id;
}

/* The running slots of one user (uid), shared by all its contexts. */
struct npu_stream_user {
	struct hlist_node node;		/* npu_stream_users */
	kuid_t uid;
	unsigned int refs;		/* contexts; npu_stream_users_lock */
	spinlock_t lock;		/* below, npu_stream.run/kicked/ready_node */
	unsigned int running;		/* streams holding a slot */
	struct list_head ready;		/* npu_stream.ready_node: want a slot */
};

static DEFINE_MUTEX(npu_stream_users_lock);
static HLIST_HEAD(npu_stream_users);

/* Streams whose head op is a VALUE_WAIT being watched. */
static DEFINE_SPINLOCK(npu_value_lock);
static LIST_HEAD(npu_value_waiters);

struct npu_event {
	struct kref ref;
	u32 id;
	u32 ctx_id;
	u64 recorded;			/* RECORD ops submitted (sq_lock) */
	u64 completed;			/* newest RECORD reached (sq_lock) */
	u64 timestamp_ns;		/* when @completed was reached */
	/* 1.9, sq_lock: */
	u64 waits;			/* WAIT ops queued, not done */
	bool reset;			/* RESET submitted after the last RECORD */
	bool cleared;			/* RESET reached after the last RECORD */
	u64 abort_dropped;		/* newest RECORD an ABORT dropped */
	/* IPC events: the counters above are unused, @ipc has them. */
	struct npu_event_ipc *ipc;	/* referenced, or NULL */
	bool imported;
	struct npu_key *key;		/* exported: its key (ctx->lock) */
	u64 import_key;			/* imported: the key it came from */
};

struct npu_op {
	struct list_head node;		/* in npu_stream.ops */
	u32 type;			/* enum npu_sim_op */
	u64 seq;
	bool cancel;			/* stop (sq_lock; READ_ONCE outside) */
	bool started;			/* its start was traced */
	bool last;			/* last of its submit: a sync target */
	struct npu_xfer *xfer;		/* COPY / SET */
	struct npu_event *event;	/* RECORD / WAIT, referenced */
	u64 target;			/* RECORD: its number; WAIT: awaited */
	struct npu_map *map;		/* PREFETCH: managed range, referenced */
	u64 va, len;			/* PREFETCH */
	u32 loc;			/* PREFETCH: enum npu_sim_managed_loc */
	u64 operand;			/* VALUE_WRITE / VALUE_WAIT */
	u32 cond;			/* VALUE_WAIT: enum npu_sim_wait_cond */
	struct npu_notify *notify;	/* NOTIFY_*, referenced (1.9) */
	struct npu_notify_wait nwait;	/* NOTIFY_*: its state */
	int inject;			/* injected failure to run as, or 0 */
	struct npu_event_ipc_waiter ipcw; /* WAIT of an IPC event, parked */
	unsigned long deadline;		/* WAIT with timeout: jiffies, or 0 */
	struct npu_report *cb;		/* CALLBACK (npu_report.c) */
	/* POOL_FREE of a pool block: its context, pool (@va, gen @operand) */
	struct npu_ctx *pool_ctx;
	u64 pool;
	u32 tag;			/* GRAPH_LAUNCH @tag, or 0 (1.11) */
	struct npu_flow_run *flow;	/* GRAPH: a program's run (1.11) */
	struct npu_op_block *block;	/* its storage, or NULL: kmalloc'ed */
};

/*
 * The ops of one GRAPH_LAUNCH in one allocation instead of one each: the
 * block goes when the last of them is freed.
 */
struct npu_op_block {
	refcount_t refs;		/* ops not freed yet */
	struct npu_op ops[];
};

enum npu_run {
	NPU_RUN_IDLE,			/* no slot: nothing to do, or parked */
	NPU_RUN_READY,			/* in its user's ready list */
	NPU_RUN_QUEUED,			/* holds a slot; work queued or running */
};

struct npu_stream {
	struct kref ref;
	struct npu_ctx *ctx;
	u32 id;
	u32 ctx_id;
	u32 priority;
	struct kthread_worker *worker;	/* one of npu_ctx.sq_workers */
	struct kthread_work work;
	struct delayed_work poll;	/* kicks a parked VALUE_WAIT */
	/* npu_value_lock: */
	struct list_head value_node;	/* in npu_value_waiters, or empty */
	unsigned int poll_ms;		/* next poll interval */
	/* npu_stream_user.lock: */
	enum npu_run run;
	bool kicked;			/* kicked while queued (and sq_lock) */
	struct list_head ready_node;	/* in npu_stream_user.ready */
	/* sq_lock: */
	struct list_head ops;		/* npu_op.node, oldest first */
	struct list_head park_node;	/* in npu_ctx.sq_parked, or empty */
	struct list_head ctx_node;	/* in npu_ctx.sq_streams, or empty */
	struct npu_op *cur;		/* the op a worker executes */
	u64 submitted;
	u64 completed;
	u64 failed;
	int error;			/* first error not yet reported */
	bool dead;			/* destroyed: no more submits */
	/* sq_lock (STREAM_CTL, 1.9): */
	u32 mode;			/* enum npu_sim_failure_mode */
	u32 flags;			/* STREAM_CREATE flags */
	bool failed_stop;		/* STOP mode failed: skip until sync */
	bool held;			/* STREAM_CTL STOP: run nothing */
	u64 dropped;			/* ops completed without running */
	u64 aborts;			/* STREAM_CTL ABORTs of this stream */
};

static void npu_event_release(struct kref *ref)
{
	struct npu_event *ev = container_of(ref, struct npu_event, ref);

	if (ev->ipc)
		npu_event_ipc_put(ev->ipc);
	kfree(ev);
}

static void npu_event_put(struct npu_event *ev)
{
	kref_put(&ev->ref, npu_event_release);
}

static void npu_stream_release(struct kref *ref)
{
	kfree(container_of(ref, struct npu_stream, ref));
}

static void npu_stream_put(struct npu_stream *s)
{
	kref_put(&s->ref, npu_stream_release);
}

static struct npu_stream *npu_stream_get(struct npu_ctx *ctx, u32 id)
{
	struct npu_stream *s;

	xa_lock(&ctx->streams);
	s = xa_load(&ctx->streams, id);
	if (s)
		kref_get(&s->ref);
	xa_unlock(&ctx->streams);
	return s;
}

static struct npu_event *npu_event_get(struct npu_ctx *ctx, u32 id)
{
	struct npu_event *ev;

	xa_lock(&ctx->events);
	ev = xa_load(&ctx->events, id);
	if (ev)
		kref_get(&ev->ref);
	xa_unlock(&ctx->events);
	return ev;
}

/* Drop the device memory an op references (idempotent). */
static void npu_op_put_memory(struct npu_op *op)
{
	if (op->xfer) {
		npu_xfer_mark_queued(op->xfer, -1);
		npu_xfer_free(op->xfer);
		op->xfer = NULL;
	}
	if (op->map) {
		atomic_dec(&op->map->nr_queued);
		npu_map_put(op->map);
		op->map = NULL;
	}
	if (op->pool_ctx) {	/* reached or cancelled: the block is free */
		npu_mempool_free_done(op->pool_ctx, op->pool, op->va,
				      op->operand);
		op->pool_ctx = NULL;
	}
	if (op->flow) {		/* its entries' memory goes with it */
		npu_flow_run_free(op->flow);
		op->flow = NULL;
	}
}

static void npu_op_free(struct npu_op *op)
{
	npu_op_put_memory(op);
	if (op->event && op->event->ipc)
		npu_event_ipc_unpark(op->event->ipc, &op->ipcw);
	if (op->event)
		npu_event_put(op->event);
	if (op->cb)
		npu_report_put(op->cb);
	if (op->notify) {
		npu_notify_wait_end(op->notify, &op->nwait);
		npu_notify_put(op->notify);
	}
	if (!op->block)
		kfree(op);
	else if (refcount_dec_and_test(&op->block->refs))
		kvfree(op->block);
}

/* Whether counter @done (under sq_lock) has reached @target. */
static bool npu_sq_reached(struct npu_ctx *ctx, const u64 *done, u64 target)
{
	bool reached;

	spin_lock(&ctx->sq_lock);
	reached = *done >= target;
	spin_unlock(&ctx->sq_lock);
	return reached;
}

static bool npu_event_reached(struct npu_ctx *ctx, struct npu_event *ev,
			      u64 target)
{
	if (ev->ipc)
		return npu_event_ipc_reached(ev->ipc, target);
	return npu_sq_reached(ctx, &ev->completed, target);
}

static bool npu_stream_held(struct npu_stream *s)
{
	u64 hold = READ_ONCE(s->ctx->ndev->stream_hold);

	return hold == NPU_HOLD_ALL ||
	       (hold && hold == npu_stream_hold_key(s->ctx->pid, s->id));
}

static bool npu_value_met(u32 cond, u64 v, u64 operand)
{
	switch (cond) {
	case NPU_SIM_WAIT_GEQ:
		return (s64)(v - operand) >= 0;
	case NPU_SIM_WAIT_EQ:
		return v == operand;
	case NPU_SIM_WAIT_AND:
		return v & operand;
	default:		/* NPU_SIM_WAIT_NOR */
		return ~(v | operand);
	}
}

/* ---- slots: at most npu_stream_slots running streams per user ---------- */

/* @s has work: give it a slot, or queue it for one.  @u->lock held. */
static void npu_run_start(struct npu_stream_user *u, struct npu_stream *s)
{
	if (u->running < npu_stream_slots) {
		u->running++;
		s->run = NPU_RUN_QUEUED;
		kthread_queue_work(s->worker, &s->work);
	} else {
		s->run = NPU_RUN_READY;
		list_add_tail(&s->ready_node, &u->ready);
	}
}

/* Hand a slot to the first ready stream: false if none.  @u->lock held. */
static bool npu_run_next(struct npu_stream_user *u)
{
	struct npu_stream *next;

	next = list_first_entry_or_null(&u->ready, struct npu_stream,
					ready_node);
	if (!next)
		return false;
	list_del_init(&next->ready_node);
	next->run = NPU_RUN_QUEUED;
	kthread_queue_work(next->worker, &next->work);
	return true;
}

/* @s gives its slot up: to the first ready stream if any.  @u->lock held. */
static void npu_run_pass(struct npu_stream_user *u, struct npu_stream *s)
{
	s->run = NPU_RUN_IDLE;
	if (!npu_run_next(u))
		u->running--;
}

/*
 * Something @s may be waiting for happened (or it got work): run it, or
 * make its worker look again before it parks.  sq_lock held.
 */
static void npu_stream_kick(struct npu_stream *s)
{
	struct npu_stream_user *u = s->ctx->suser;

	list_del_init(&s->park_node);
	if (list_empty(&s->ops))
		return;
	spin_lock(&u->lock);
	if (s->run == NPU_RUN_IDLE)
		npu_run_start(u, s);
	else
		s->kicked = true;
	spin_unlock(&u->lock);
}

/*
 * After an op: when other streams of the user want a slot, pass ours on
 * and queue @s behind them.  True when the worker must stop.
 */
static bool npu_run_yield(struct npu_stream *s)
{
	struct npu_stream_user *u = s->ctx->suser;
	bool yield;

	/* Most often no stream waits for a slot: then no lock per op. */
	if (list_empty(&u->ready))
		return false;
	spin_lock(&u->lock);
	yield = npu_run_next(u);
	if (yield) {
		s->run = NPU_RUN_READY;
		list_add_tail(&s->ready_node, &u->ready);
	}
	spin_unlock(&u->lock);
	return yield;
}

/* ---- VALUE_WAIT watch list --------------------------------------------- */

static void npu_value_watch(struct npu_stream *s)
{
	spin_lock(&npu_value_lock);
	if (list_empty(&s->value_node))
		list_add_tail(&s->value_node, &npu_value_waiters);
	spin_unlock(&npu_value_lock);
	/* Pairs with npu_stream_values_changed(): list, then the look. */
	smp_mb();
}

static void npu_value_unwatch(struct npu_stream *s)
{
	spin_lock(&npu_value_lock);
	list_del_init(&s->value_node);
	s->poll_ms = 1;
	spin_unlock(&npu_value_lock);
}

/* A parked VALUE_WAIT looks again later, less often each time. */
static void npu_value_poll_later(struct npu_stream *s)
{
	spin_lock(&npu_value_lock);
	queue_delayed_work(npu_stream_wq, &s->poll,
			   msecs_to_jiffies(s->poll_ms));
	s->poll_ms = min(s->poll_ms * 2, NPU_VALUE_POLL_MAX_MS);
	spin_unlock(&npu_value_lock);
}

/**
 * npu_stream_values_changed() - device memory was written
 *
 * Every watched VALUE_WAIT looks at its value again now.
 */
void npu_stream_values_changed(void)
{
	struct npu_stream *s;

	/*
	 * Most writes have no watcher: skip the machine-wide lock then.  The
	 * write before us and npu_value_watch()'s look after its list_add
	 * are ordered by this barrier and the one there.
	 */
	smp_mb();
	if (list_empty(&npu_value_waiters))
		return;
	spin_lock(&npu_value_lock);
	list_for_each_entry(s, &npu_value_waiters, value_node) {
		s->poll_ms = 1;
		mod_delayed_work(npu_stream_wq, &s->poll, 0);
	}
	spin_unlock(&npu_value_lock);
}

/*
 * A parked NOTIFY_WAIT is kicked by records (it stays watched); one with a
 * timeout also looks again at its deadline.
 */
static void npu_notify_wait_timer(struct npu_stream *s, struct npu_op *op)
{
	unsigned long left = npu_notify_wait_left(&op->nwait);

	if (!left)
		return;
	spin_lock(&npu_value_lock);
	queue_delayed_work(npu_stream_wq, &s->poll, left);
	spin_unlock(&npu_value_lock);
}

static void npu_stream_poll(struct work_struct *work)
{
	struct npu_stream *s = container_of(to_delayed_work(work),
					    struct npu_stream, poll);

	spin_lock(&s->ctx->sq_lock);
	npu_stream_kick(s);
	spin_unlock(&s->ctx->sq_lock);
}

/* ---- execution ---------------------------------------------------------- */

/* @ev reached record @target: wake the streams parked on it.  sq_lock. */
static void npu_event_reach(struct npu_ctx *ctx, struct npu_event *ev,
			    u64 target)
{
	struct npu_stream *s, *tmp;
	struct npu_op *w;

	if (ev->ipc) {
		ev->cleared = false;
		npu_event_ipc_reach(ev->ipc, target);
		return;
	}
	if (target <= ev->completed)
		return;
	ev->cleared = false;
	ev->completed = target;
	ev->timestamp_ns = ktime_get_ns();
	list_for_each_entry_safe(s, tmp, &ctx->sq_parked, park_node) {
		w = list_first_entry_or_null(&s->ops, struct npu_op, node);
		if (!w || (w->event == ev && target >= w->target))
			npu_stream_kick(s);
	}
}

/* ---- event extensions (1.9): RESET, WAIT timeouts, IPC events --------- */

/* RESET, or WAIT with @flags / @operand. */
static int npu_event_submit_check(const struct npu_sim_stream_submit *a)
{
	if (a->seq || !a->event || a->dst || a->dpitch || a->src ||
	    a->spitch || a->width || a->height || a->dir || a->value ||
	    a->location || a->location_id)
		return -EINVAL;
	if (a->op == NPU_SIM_OP_RESET)
		return a->flags || a->operand ? -EINVAL : 0;
	if (a->flags != NPU_SIM_WAIT_EVENT_TIMEOUT || !a->operand ||
	    a->operand > INT_MAX)
		return -EINVAL;
	return 0;
}

/* Count RECORD/WAIT/RESET @op, queued now, on its event.  sq_lock held. */
static void npu_event_op_submit(struct npu_op *op)
{
	struct npu_event *ev = op->event;

	switch (op->type) {
	case NPU_SIM_OP_RECORD:
		ev->reset = false;
		if (ev->ipc)
			op->target = npu_event_ipc_submit(ev->ipc, true);
		else
			op->target = ++ev->recorded;
		break;
	case NPU_SIM_OP_WAIT:
		ev->waits++;
		if (ev->ipc)
			op->target = npu_event_ipc_submit(ev->ipc, false);
		else	/* after a RESET: the next record */
			op->target = ev->recorded + ev->reset;
		break;
	case NPU_SIM_OP_RESET:
		ev->reset = true;
		break;
	}
}

/* Event op @op is done (@ret) or cancelled (-ECANCELED).  sq_lock held. */
static void npu_event_op_done(struct npu_ctx *ctx, struct npu_op *op,
			      int ret)
{
	struct npu_event *ev = op->event;

	switch (op->type) {
	case NPU_SIM_OP_RECORD:		/* even cancelled: nobody waits on */
		npu_event_reach(ctx, ev, op->target);
		break;
	case NPU_SIM_OP_WAIT:
		ev->waits--;
		break;
	case NPU_SIM_OP_RESET:
		if (!ret)
			ev->cleared = true;
		break;
	}
}

/* Whether WAIT @op of @s is met; else an IPC wait is listed.  sq_lock. */
static bool npu_event_wait_met(struct npu_stream *s, struct npu_op *op)
{
	struct npu_event *ev = op->event;

	if (ev->ipc)
		return !npu_event_ipc_park(ev->ipc, &op->ipcw, op->target,
					   npu_stream_wq, &s->poll);
	return ev->completed >= op->target;
}

/* A parked WAIT with a timeout looks again at its deadline.  sq_lock. */
static void npu_event_wait_arm(struct npu_stream *s, struct npu_op *op)
{
	long left = (long)(op->deadline - jiffies);

	mod_delayed_work(npu_stream_wq, &s->poll, max(left, 0L));
	/* A record of another file may have queued its kick just before. */
	if (op->event->ipc && npu_event_ipc_reached(op->event->ipc, op->target))
		mod_delayed_work(npu_stream_wq, &s->poll, 0);
}

/* Run WAIT @op: 0 met, -ETIMEDOUT past its deadline, else -EAGAIN. */
static int npu_event_wait_exec(struct npu_ctx *ctx, struct npu_op *op)
{
	if (npu_event_reached(ctx, op->event, op->target))
		return 0;
	if (!op->operand)
		return -EAGAIN;
	/* The timeout runs from when the stream reaches the wait. */
	if (!op->deadline)
		op->deadline = jiffies + msecs_to_jiffies(op->operand) ?: 1;
	return time_after_eq(jiffies, op->deadline) ? -ETIMEDOUT : -EAGAIN;
}

/* Take event @id out of @ctx, and its key out of the table.  Or NULL. */
static struct npu_event *npu_event_remove(struct npu_ctx *ctx, u32 id)
{
	struct npu_event *ev;

	/* ctx->lock: an EVENT_EXPORT in flight sees the event gone. */
	down_write(&ctx->lock);
	ev = xa_erase(&ctx->events, id);
	if (ev && ev->key) {
		npu_event_ipc_unexport(ev->key);
		ev->key = NULL;
	}
	up_write(&ctx->lock);
	return ev;
}

/* EVENT_SYNC of an IPC event: its counters are shared (@args checked). */
static int npu_event_ipc_sync(struct npu_event *ev,
			      struct npu_sim_event_sync *args)
{
	u64 target, done;
	int ret;

	npu_event_ipc_read(ev->ipc, &target, &done, &args->timestamp_ns);
	ret = npu_event_ipc_wait(ev->ipc, args->flags, args->timeout_ms,
				 target);
	if (ret)
		return ret;
	npu_event_ipc_read(ev->ipc, &args->recorded, &args->completed,
			   &args->timestamp_ns);
	args->status = args->completed >= target ? NPU_SIM_STATUS_COMPLETE :
						  NPU_SIM_STATUS_NOT_READY;
	return 0;
}

/* Ops before the first one still queued are done or cancelled.  sq_lock. */
static void npu_stream_settle(struct npu_stream *s)
{
	struct npu_op *first = list_first_entry_or_null(&s->ops, struct npu_op,
							node);

	s->completed = first ? first->seq - 1 : s->submitted;
}

/*
 * Park @s on its head op @op, a wait not met, unless something kicked it
 * meanwhile: false then, look again.  sq_lock held.
 */
static bool npu_stream_park(struct npu_stream *s, struct npu_op *op)
{
	struct npu_stream_user *u = s->ctx->suser;
	bool parked;

	/* A RECORD completes under sq_lock: this look misses none. */
	if (op->type == NPU_SIM_OP_WAIT && npu_event_wait_met(s, op))
		return false;
	spin_lock(&u->lock);
	parked = !s->kicked;
	if (parked)
		npu_run_pass(u, s);
	spin_unlock(&u->lock);
	if (!parked)
		return false;
	s->cur = NULL;
	if (op->type == NPU_SIM_OP_WAIT)
		list_add_tail(&s->park_node, &s->ctx->sq_parked);
	else if (op->type == NPU_SIM_OP_NOTIFY_WAIT)
		npu_notify_wait_timer(s, op);
	else if (op->type == NPU_SIM_OP_VALUE_WAIT)
		npu_value_poll_later(s);
	if (op->deadline)
		npu_event_wait_arm(s, op);
	/* A CALLBACK is kicked by npu_stream_callback_done(). */
	return true;
}

/*
 * 0 or an error when done, -EAGAIN when a wait is not met yet,
 * -EINPROGRESS when a program ran a slice.  @cancel stops it: the op's
 * own flag, or for an entry of a program the program op's.
 */
static int npu_op_exec_c(struct npu_stream *s, struct npu_op *op,
			 const bool *cancel)
{
	struct npu_ctx *ctx = s->ctx;
	struct npu_dev *ndev = ctx->ndev;
	u64 v;
	int ret;

	wait_event_idle(ndev->hold_wq, !npu_stream_held(s) ||
			READ_ONCE(*cancel));
	if (READ_ONCE(*cancel))
		return -ECANCELED;
	if (op->inject)
		return op->inject;

	switch (op->type) {
	case NPU_SIM_OP_COPY:
	case NPU_SIM_OP_SET:
		if (!npu_xfer_uses_host(op->xfer))
			return npu_xfer_exec(op->xfer, cancel);
		/* The owner is exiting: its host memory is gone. */
		if (!mmget_not_zero(ctx->mm))
			return -ESRCH;
		kthread_use_mm(ctx->mm);
		ret = npu_xfer_exec(op->xfer, cancel);
		kthread_unuse_mm(ctx->mm);
		mmput(ctx->mm);
		return ret;
	case NPU_SIM_OP_GRAPH:
		return npu_flow_exec(op->flow, s, cancel);
	case NPU_SIM_OP_PREFETCH:
		return npu_managed_prefetch_exec(ctx, op->map, op->va, op->len,
					     op->loc);
	case NPU_SIM_OP_WAIT:
		return npu_event_wait_exec(ctx, op);
	case NPU_SIM_OP_VALUE_WRITE:
		return npu_xfer_value(op->xfer, &op->operand, true);
	case NPU_SIM_OP_REDUCE:
	case NPU_SIM_OP_CMO:
		return npu_xfer_exec(op->xfer, cancel);
	case NPU_SIM_OP_VALUE_WAIT:
		/* Watched before the look: a write after it kicks us. */
		npu_value_watch(s);
		ret = npu_xfer_value(op->xfer, &v, false);
		if (ret || npu_value_met(op->cond, v, op->operand))
			return ret;
		return -EAGAIN;
	case NPU_SIM_OP_CALLBACK:
		return npu_report_exec(op->cb, s);
	case NPU_SIM_OP_NOTIFY_RECORD:
		return npu_notify_record(op->notify, &op->nwait);
	case NPU_SIM_OP_NOTIFY_WAIT:
		/* Watched before the look: a record after it kicks us. */
		npu_value_watch(s);
		return npu_notify_wait_look(op->notify, &op->nwait);
	case NPU_SIM_OP_POOL_FREE:	/* a pool block: npu_op_put_memory */
		return op->pool ? 0 : npu_mempool_plain_free(ctx, op->va);
	}
	return 0;	/* RECORD: completing it is the work */
}

static int npu_op_exec(struct npu_stream *s, struct npu_op *op)
{
	return npu_op_exec_c(s, op, &op->cancel);
}

static bool npu_op_writes(const struct npu_op *op)
{
	return op->type == NPU_SIM_OP_COPY || op->type == NPU_SIM_OP_SET ||
	       op->type == NPU_SIM_OP_VALUE_WRITE ||
	       op->type == NPU_SIM_OP_REDUCE || op->type == NPU_SIM_OP_GRAPH ||
	       op->type == NPU_SIM_OP_NOTIFY_RECORD;
}

/*
 * A library context in STOP mode (an entry of npu_ctx.stop_ctxs).  The
 * first failure of any of its streams is kept for good, as the runtime's
 * Context::failureError is until the device is cleaned.
 */
struct npu_stop_ctx {
	int failure;		/* sq_lock: a negative errno, 0 none */
};

/* The failure kept for @ctx_id, or 0.  sq_lock held. */
static int npu_ctx_failure(struct npu_ctx *ctx, u32 ctx_id)
{
	struct npu_stop_ctx *sc = xa_load(&ctx->stop_ctxs, ctx_id);

	return sc ? sc->failure : 0;
}

/*
 * A failure in a context whose mode is STOP stops every stream of it, as
 * the runtime's context failure does (Stream::EnterFailureAbort,
 * Context::CheckStatus, CheckTaskSend): each completes its ops unrun, and
 * the context keeps @err: its submits answer -EPIPE from now on.  A
 * parked stream stays parked until what it waits for comes (a RECORD
 * skipped by a stopped stream still counts as reached).  sq_lock held.
 */
static void npu_stream_ctx_stop(struct npu_ctx *ctx, u32 ctx_id, int err)
{
	struct npu_stop_ctx *sc = xa_load(&ctx->stop_ctxs, ctx_id);
	struct npu_stream *it;

	if (!sc)
		return;
	if (!sc->failure)
		sc->failure = err;
	list_for_each_entry(it, &ctx->sq_streams, ctx_node) {
		if (it->ctx_id != ctx_id)
			continue;
		if (!it->error)
			it->error = err;
		it->failed_stop = true;
	}
}

/* Run the ops of one stream holding a slot, until it parks or yields. */
static void npu_stream_work(struct kthread_work *work)
{
	struct npu_stream *s = container_of(work, struct npu_stream, work);
	struct npu_ctx *ctx = s->ctx;
	struct npu_stream_user *u = ctx->suser;
	struct mem_cgroup *old = set_active_memcg(ctx->memcg);
	struct npu_op *op;
	bool parked, dead, skip, wake;
	int ret;

	for (;;) {
		spin_lock(&ctx->sq_lock);
		op = list_first_entry_or_null(&s->ops, struct npu_op, node);
		if (s->held)
			op = NULL;	/* STREAM_CTL STOP: queued ops wait */
		skip = op && s->failed_stop;
		/* @kicked is set under sq_lock too: no u->lock per op. */
		if (!op || s->kicked) {
			spin_lock(&u->lock);
			s->kicked = false;
			if (!op)
				npu_run_pass(u, s);
			spin_unlock(&u->lock);
		}
		s->cur = op;
		dead = s->dead;
		spin_unlock(&ctx->sq_lock);
		if (!op) {
			/* A kill waits for this (and then flushes the work). */
			if (dead)
				wake_up_all(&ctx->sq_wq);
			break;
		}

		if (!op->started) {
			op->started = true;
			trace_npu_sim_stream_op_start(ctx->ndev->index, ctx->pid,
						      s->id, op->seq, op->type,
						      0);
		}
		/* STOP mode after a failure: complete it without running it */
		ret = skip ? -ECANCELED : npu_op_exec(s, op);
		if (ret == -EINPROGRESS) {
			/*
			 * A program ran a slice: it stays the head op; others
			 * of the user get the slot first if they wait.
			 */
			spin_lock(&ctx->sq_lock);
			s->cur = NULL;
			ret = op->cancel ? -ECANCELED : -EINPROGRESS;
			spin_unlock(&ctx->sq_lock);
			if (ret == -EINPROGRESS) {
				if (npu_run_yield(s))
					break;
				cond_resched();
				continue;
			}
		}
		if (ret == -EAGAIN) {
			spin_lock(&ctx->sq_lock);
			parked = !op->cancel && npu_stream_park(s, op);
			ret = op->cancel ? -ECANCELED : -EAGAIN;
			spin_unlock(&ctx->sq_lock);
			if (parked)
				break;
			if (ret == -EAGAIN)
				continue;	/* kicked: look again */
		}
		trace_npu_sim_stream_op_end(ctx->ndev->index, ctx->pid, s->id,
					    op->seq, op->type, ret);
		/*
		 * Memory freed while this op was queued goes back before the
		 * op counts as done, so a synchronize sees it released.
		 */
		npu_op_put_memory(op);

		spin_lock(&ctx->sq_lock);
		s->cur = NULL;
		list_del(&op->node);
		ctx->sq_queued--;
		npu_stream_settle(s);
		if (ret && ret != -ECANCELED) {
			s->failed++;
			if (!s->error)
				s->error = ret;
			if (s->mode == NPU_SIM_STOP_ON_FAILURE)
				s->failed_stop = true;
			npu_stream_ctx_stop(ctx, s->ctx_id, ret);
		}
		if (skip)
			s->dropped++;
		if (op->event)
			npu_event_op_done(ctx, op, ret);
		/*
		 * Nobody waits for an op inside a submit (a GRAPH_LAUNCH's):
		 * synchronizes wait for a submit's last op, an event's op or
		 * an empty stream, so a replay wakes them once, not per op.
		 */
		wake = op->last || op->event || list_empty(&s->ops);
		spin_unlock(&ctx->sq_lock);
		if (op->type == NPU_SIM_OP_VALUE_WAIT ||
		    op->type == NPU_SIM_OP_NOTIFY_WAIT)
			npu_value_unwatch(s);
		if (wake)
			wake_up_all(&ctx->sq_wq);
		if (!ret && npu_op_writes(op))
			npu_stream_values_changed();
		npu_op_free(op);
		if (npu_run_yield(s))
			break;
		cond_resched();
	}
	set_active_memcg(old);
}

/*
 * Take every op of @s that is not running off it onto @dead, counted as
 * done; the running one stops at its next chunk.  sq_lock held.
 */
static void npu_stream_cancel_ops(struct npu_ctx *ctx, struct npu_stream *s,
				  struct list_head *dead)
{
	struct npu_stream_user *u = ctx->suser;
	struct npu_op *op, *tmp;

	list_for_each_entry_safe(op, tmp, &s->ops, node) {
		if (op == s->cur) {
			WRITE_ONCE(op->cancel, true);
			continue;
		}
		list_move_tail(&op->node, dead);
		ctx->sq_queued--;
		if (op->event)
			npu_event_op_done(ctx, op, -ECANCELED);
	}
	npu_stream_settle(s);
	npu_report_stream_gone(ctx, s->id);
	list_del_init(&s->park_node);
	spin_lock(&u->lock);
	if (s->run == NPU_RUN_READY && list_empty(&s->ops)) {
		list_del_init(&s->ready_node);
		s->run = NPU_RUN_IDLE;
	}
	spin_unlock(&u->lock);
	if (!s->cur)
		npu_value_unwatch(s);
}

/* Free the ops npu_stream_cancel_ops() took, tell waiters.  No lock held. */
static void npu_stream_reap(struct npu_ctx *ctx, struct list_head *dead)
{
	struct npu_op *op, *tmp;

	wake_up_all(&ctx->ndev->hold_wq);
	wake_up_all(&ctx->sq_wq);
	list_for_each_entry_safe(op, tmp, dead, node) {
		list_del(&op->node);
		npu_op_free(op);
		cond_resched();
	}
}

static bool npu_stream_idle(struct npu_ctx *ctx, struct npu_stream *s)
{
	bool idle;

	spin_lock(&ctx->sq_lock);
	idle = list_empty(&s->ops);
	spin_unlock(&ctx->sq_lock);
	return idle;
}

/* No op left and no slot held: no worker will touch @s again. */
static bool npu_stream_stopped(struct npu_ctx *ctx, struct npu_stream *s)
{
	struct npu_stream_user *u = ctx->suser;
	bool stopped;

	spin_lock(&ctx->sq_lock);
	spin_lock(&u->lock);
	stopped = list_empty(&s->ops) && s->run == NPU_RUN_IDLE;
	spin_unlock(&u->lock);
	spin_unlock(&ctx->sq_lock);
	return stopped;
}

/*
 * Stop new submits, let the queued ops finish (or cancel them: @force, or
 * a fatal signal while waiting), drop the table's reference.  The wait at
 * the end is short: only an op already running is left, and it stops at
 * its next chunk.
 */
static void npu_stream_kill(struct npu_ctx *ctx, struct npu_stream *s,
			    bool force)
{
	LIST_HEAD(dead);

	spin_lock(&ctx->sq_lock);
	s->dead = true;
	force = force || s->held;	/* held work would never finish */
	spin_unlock(&ctx->sq_lock);
	if (!force)
		wait_event_killable(ctx->sq_wq, npu_stream_idle(ctx, s));
	spin_lock(&ctx->sq_lock);
	npu_stream_cancel_ops(ctx, s, &dead);
	spin_unlock(&ctx->sq_lock);
	npu_stream_reap(ctx, &dead);
	wait_event(ctx->sq_wq, npu_stream_stopped(ctx, s));
	spin_lock(&ctx->sq_lock);
	list_del_init(&s->ctx_node);
	spin_unlock(&ctx->sq_lock);
	npu_value_unwatch(s);
	cancel_delayed_work_sync(&s->poll);
	kthread_flush_work(&s->work);
	atomic_dec(&ctx->nr_streams);
	npu_stream_put(s);
}

static struct npu_stream_user *npu_stream_user_get(kuid_t uid)
{
	struct npu_stream_user *u;

	mutex_lock(&npu_stream_users_lock);
	hlist_for_each_entry(u, &npu_stream_users, node) {
		if (uid_eq(u->uid, uid)) {
			u->refs++;
			goto out;
		}
	}
	u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);
	if (u) {
		u->uid = uid;
		u->refs = 1;
		spin_lock_init(&u->lock);
		INIT_LIST_HEAD(&u->ready);
		hlist_add_head(&u->node, &npu_stream_users);
	}
out:
	mutex_unlock(&npu_stream_users_lock);
	return u;
}

static void npu_stream_user_put(struct npu_stream_user *u)
{
	mutex_lock(&npu_stream_users_lock);
	if (!--u->refs) {
		hlist_del(&u->node);
		kfree(u);
	}
	mutex_unlock(&npu_stream_users_lock);
}

int npu_stream_ctx_init(struct npu_ctx *ctx)
{
	ctx->suser = npu_stream_user_get(current_uid());
	if (!ctx->suser)
		return -ENOMEM;
	spin_lock_init(&ctx->sq_lock);
	init_waitqueue_head(&ctx->sq_wq);
	INIT_LIST_HEAD(&ctx->sq_parked);
	INIT_LIST_HEAD(&ctx->sq_streams);
	xa_init(&ctx->stop_ctxs);
	xa_init_flags(&ctx->streams, XA_FLAGS_ALLOC1);
	xa_init_flags(&ctx->events, XA_FLAGS_ALLOC1);
	mutex_init(&ctx->sq_workers_lock);
	npu_report_ctx_init(ctx);
	return 0;
}

/**
 * npu_stream_ctx_cancel() - cancel all queued work of a context
 * @ctx: the context
 *
 * Waits for nothing (it runs under the owner's mmap_lock when the window
 * closes): an op running stops at its next chunk and puts its memory then.
 */
void npu_stream_ctx_cancel(struct npu_ctx *ctx)
{
	struct npu_stream *s;
	unsigned long id;
	LIST_HEAD(dead);

	xa_lock(&ctx->streams);
	spin_lock(&ctx->sq_lock);
	xa_for_each(&ctx->streams, id, s)
		npu_stream_cancel_ops(ctx, s, &dead);
	spin_unlock(&ctx->sq_lock);
	xa_unlock(&ctx->streams);
	npu_stream_reap(ctx, &dead);
}

void npu_stream_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_stop_ctx *sc;
	struct npu_stream *s;
	struct npu_event *ev;
	unsigned long id;
	int i;

	npu_stream_ctx_cancel(ctx);
	xa_for_each(&ctx->streams, id, s) {
		xa_erase(&ctx->streams, id);
		npu_stream_kill(ctx, s, true);
	}
	xa_destroy(&ctx->streams);
	xa_for_each(&ctx->events, id, ev) {
		npu_event_remove(ctx, id);
		atomic_dec(&ctx->nr_events);
		npu_event_put(ev);
	}
	xa_destroy(&ctx->events);
	xa_for_each(&ctx->stop_ctxs, id, sc)
		kfree(sc);
	xa_destroy(&ctx->stop_ctxs);
	for (i = 0; i < NPU_CTX_STREAM_WORKERS; i++)
		if (ctx->sq_workers[i])
			kthread_destroy_worker(ctx->sq_workers[i]);
	npu_report_ctx_teardown(ctx);
	npu_stream_user_put(ctx->suser);
}

/*
 * Write of debugfs stream_hold: "0" releases, "1" holds every stream of the
 * device, "PID:STREAM" holds that one stream only (replacing any hold).
 */
int npu_stream_hold_parse(struct npu_dev *ndev, char *buf)
{
	char *colon = strchr(buf, ':');
	u64 hold;
	u32 id;
	int pid;

	if (!colon) {
		if (kstrtou64(buf, 10, &hold) || hold > 1)
			return -EINVAL;
		if (hold)
			hold = NPU_HOLD_ALL;
	} else {
		*colon = '\0';
		if (kstrtoint(buf, 10, &pid) || pid <= 0 ||
		    kstrtou32(colon + 1, 10, &id) || !id || id > INT_MAX)
			return -EINVAL;
		hold = npu_stream_hold_key(pid, id);
	}
	WRITE_ONCE(ndev->stream_hold, hold);
	wake_up_all(&ndev->hold_wq);
	return 0;
}

void npu_stream_hold_print(struct seq_file *m, struct npu_dev *ndev)
{
	u64 hold = READ_ONCE(ndev->stream_hold);

	if (hold == NPU_HOLD_ALL || !hold)
		seq_printf(m, "%d\n", hold ? 1 : 0);
	else
		seq_printf(m, "%u:%u\n", (u32)(hold >> 32), (u32)hold);
}

/**
 * npu_stream_callback_done() - a BLOCK callback of @s ended or was dropped
 * @s: the stream, parked on it (or about to park)
 *
 * sq_lock held.
 */
void npu_stream_callback_done(struct npu_stream *s)
{
	npu_stream_kick(s);
}

/* ---- ioctls ------------------------------------------------------------ */

/*
 * The thread that will run a new stream: the context's next one, made on
 * first use in the cgroups of the calling process.  Streams are spread
 * over the threads in creation order so a long copy on one stream does
 * not hold up the next few.
 */
static struct kthread_worker *npu_stream_worker(struct npu_ctx *ctx)
{
	struct kthread_worker *w;
	unsigned int i;
	int ret;

	mutex_lock(&ctx->sq_workers_lock);
	i = ctx->next_worker++ % NPU_CTX_STREAM_WORKERS;
	w = ctx->sq_workers[i];
	if (!w) {
		w = kthread_create_worker(0, "npu%u/%d:%u", ctx->ndev->index,
					  ctx->pid, i);
		if (IS_ERR(w))
			goto out;
		/* As vhost does: the thread works for this process. */
		ret = cgroup_attach_task_all(current, w->task);
		if (ret) {
			kthread_destroy_worker(w);
			w = ERR_PTR(ret);
			goto out;
		}
		ctx->sq_workers[i] = w;
	}
out:
	mutex_unlock(&ctx->sq_workers_lock);
	return w;
}

int npu_ioctl_stream_create(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_stream_create args;
	struct npu_stream *s;
	u32 id;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if ((args.flags & ~NPU_SIM_STREAM_FLAGS_MASK) || args.id)
		return -EINVAL;

	if (atomic_inc_return(&ctx->nr_streams) > NPU_SIM_MAX_STREAMS) {
		atomic_dec(&ctx->nr_streams);
		return -ENOSPC;
	}
	if (atomic_read(&ctx->nr_streams) > npu_max_objects) {
		atomic_dec(&ctx->nr_streams);
		return -ENOMEM;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s) {
		atomic_dec(&ctx->nr_streams);
		return -ENOMEM;
	}
	kref_init(&s->ref);
	s->ctx = ctx;
	s->ctx_id = args.ctx_id;
	s->priority = args.priority;
	s->flags = args.flags;
	s->worker = npu_stream_worker(ctx);
	if (IS_ERR(s->worker)) {
		ret = PTR_ERR(s->worker);
		atomic_dec(&ctx->nr_streams);
		kfree(s);
		return ret;
	}
	kthread_init_work(&s->work, npu_stream_work);
	INIT_DELAYED_WORK(&s->poll, npu_stream_poll);
	INIT_LIST_HEAD(&s->value_node);
	s->poll_ms = 1;
	INIT_LIST_HEAD(&s->ready_node);
	INIT_LIST_HEAD(&s->ops);
	INIT_LIST_HEAD(&s->park_node);
	INIT_LIST_HEAD(&s->ctx_node);

	ret = xa_alloc_cyclic(&ctx->streams, &id, s, XA_LIMIT(1, INT_MAX),
			      &ctx->next_stream, GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		atomic_dec(&ctx->nr_streams);
		kfree(s);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	s->id = id;
	spin_lock(&ctx->sq_lock);
	list_add_tail(&s->ctx_node, &ctx->sq_streams);
	spin_unlock(&ctx->sq_lock);

	if (put_user(id, &((struct npu_sim_stream_create __user *)uarg)->id)) {
		s = xa_erase(&ctx->streams, id);
		if (s)
			npu_stream_kill(ctx, s, true);
		return -EFAULT;
	}
	return 0;
}

int npu_ioctl_stream_destroy(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_stream_destroy args;
	struct npu_stream *s;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_DESTROY_FORCE)
		return -EINVAL;
	s = xa_erase(&ctx->streams, args.id);
	if (!s)
		return -ENOENT;
	npu_stream_kill(ctx, s, args.flags & NPU_SIM_DESTROY_FORCE);
	return 0;
}

static int npu_submit_check(const struct npu_sim_stream_submit *a)
{
	if (a->op == NPU_SIM_OP_RESET ||
	    (a->op == NPU_SIM_OP_WAIT && (a->flags || a->operand)))
		return npu_event_submit_check(a);
	if (npu_memop_submit(a))	/* 32-bit SET, REDUCE, CMO (1.9) */
		return npu_memop_check(a);
	if (a->seq)
		return -EINVAL;
	if (npu_notify_op(a->op))
		return npu_notify_submit_check(a);
	if (a->flags && a->op != NPU_SIM_OP_VALUE_WAIT &&
	    a->op != NPU_SIM_OP_CALLBACK)
		return -EINVAL;
	if (a->operand && a->op != NPU_SIM_OP_VALUE_WRITE &&
	    a->op != NPU_SIM_OP_VALUE_WAIT && a->op != NPU_SIM_OP_CALLBACK)
		return -EINVAL;
	if (a->op != NPU_SIM_OP_PREFETCH && (a->location || a->location_id))
		return -EINVAL;
	switch (a->op) {
	case NPU_SIM_OP_COPY:
		if (a->event || a->value || a->dir < NPU_SIM_COPY_H2D ||
		    a->dir > NPU_SIM_COPY_D2D)
			return -EINVAL;
		return 0;
	case NPU_SIM_OP_SET:
		if (a->event || a->dir || a->src || a->spitch || a->value > 0xff)
			return -EINVAL;
		return 0;
	case NPU_SIM_OP_RECORD:
	case NPU_SIM_OP_WAIT:
		if (!a->event || a->dst || a->dpitch || a->src || a->spitch ||
		    a->width || a->height || a->dir || a->value)
			return -EINVAL;
		return 0;
	case NPU_SIM_OP_PREFETCH:
		if (a->event || a->dpitch || a->src || a->spitch || a->height ||
		    a->dir || a->value)
			return -EINVAL;
		return 0;
	case NPU_SIM_OP_VALUE_WRITE:
	case NPU_SIM_OP_VALUE_WAIT:
		if (a->event || a->dpitch || a->src || a->spitch || a->height ||
		    a->dir || a->value || a->width != sizeof(u64) ||
		    !IS_ALIGNED(a->dst, sizeof(u64)) ||
		    a->flags > NPU_SIM_WAIT_NOR)
			return -EINVAL;
		return 0;
	case NPU_SIM_OP_CALLBACK:
		if (a->event || a->dst || a->dpitch || a->src || a->spitch ||
		    a->width || a->height || a->dir || a->value ||
		    (a->flags & ~(NPU_SIM_CB_BLOCK | NPU_SIM_CB_HOSTFUNC)))
			return -EINVAL;
		return 0;
	case NPU_SIM_OP_POOL_FREE:
		if (!a->dst || a->event || a->dpitch || a->src || a->spitch ||
		    a->width || a->height || a->dir || a->value || a->operand)
			return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

/*
 * Make the op of a checked submit @a for stream @sid in zeroed @op: its
 * device ranges checked and referenced, its event, notify or report
 * taken.  0, or a negative errno (nothing held).
 */
static int npu_op_init(struct npu_ctx *ctx,
		       const struct npu_sim_stream_submit *a, u32 sid,
		       struct npu_op *op)
{
	int ret;

	op->type = a->op;

	if (a->op == NPU_SIM_OP_COPY || a->op == NPU_SIM_OP_SET ||
	    a->op == NPU_SIM_OP_VALUE_WRITE || a->op == NPU_SIM_OP_VALUE_WAIT ||
	    npu_memop_submit(a)) {
		struct npu_xfer *x;

		/* A value op's 8 bytes are checked and referenced like a SET's. */
		if (a->op == NPU_SIM_OP_VALUE_WRITE ||
		    a->op == NPU_SIM_OP_VALUE_WAIT)
			x = npu_xfer_prepare(ctx, NPU_XFER_SET, a->dst,
					     sizeof(u64), 0, 0, sizeof(u64), 1,
					     0);
		else if (npu_memop_submit(a))
			x = npu_memop_prepare(ctx, a);
		else
			x = npu_xfer_prepare(ctx, a->op == NPU_SIM_OP_SET ?
					     NPU_XFER_SET :
					     (enum npu_xfer_op)a->dir,
					     a->dst, a->dpitch, a->src, a->spitch,
					     a->width, a->height, a->value);
		if (IS_ERR(x))
			return PTR_ERR(x);
		npu_xfer_mark_queued(x, 1);
		op->xfer = x;
		op->operand = a->operand;
		op->cond = a->flags;
	} else if (a->op == NPU_SIM_OP_PREFETCH) {
		struct npu_map *map;

		map = npu_managed_prefetch_prepare(ctx, a->dst, a->width,
						   a->location,
						   a->location_id);
		if (IS_ERR(map))
			return PTR_ERR(map);
		atomic_inc(&map->nr_queued);
		op->map = map;
		op->va = a->dst;
		op->len = a->width;
		op->loc = a->location;
	} else if (a->op == NPU_SIM_OP_CALLBACK) {
		op->cb = npu_report_new(ctx, sid, a->flags, a->operand);
		if (IS_ERR(op->cb)) {
			ret = PTR_ERR(op->cb);
			op->cb = NULL;
			return ret;
		}
	} else if (npu_notify_op(a->op)) {
		ret = npu_notify_prepare(ctx, a, &op->notify, &op->nwait);
		if (ret)
			return ret;
	} else if (a->op == NPU_SIM_OP_POOL_FREE) {
		ret = npu_mempool_free_prepare(ctx, sid, a->dst, &op->pool,
					       &op->operand);
		if (ret)
			return ret;
		op->va = a->dst;
		if (op->pool)
			op->pool_ctx = ctx;
	} else {
		op->event = npu_event_get(ctx, a->event);
		if (!op->event)
			return -ENOENT;
		INIT_LIST_HEAD(&op->ipcw.node);
		if (a->op == NPU_SIM_OP_WAIT)
			op->operand = a->operand;	/* timeout, ms */
		/* An IPC event's state is shared: no RESET of it. */
		if (a->op == NPU_SIM_OP_RESET && op->event->ipc) {
			npu_event_put(op->event);
			return -EINVAL;
		}
	}

	/* Decided at submit, in call order; the op fails when it runs. */
	if (a->op != NPU_SIM_OP_RECORD && a->op != NPU_SIM_OP_WAIT &&
	    a->op != NPU_SIM_OP_RESET && a->op != NPU_SIM_OP_POOL_FREE)
		op->inject = npu_fault_check(ctx, NPU_SIM_FAULT_STREAM);
	return 0;
}

/* npu_op_init() in a new allocation: 0 and *out, or a negative errno. */
static int npu_op_prepare(struct npu_ctx *ctx,
			  const struct npu_sim_stream_submit *a, u32 sid,
			  struct npu_op **out)
{
	struct npu_op *op;
	int ret;

	op = kzalloc(sizeof(*op), GFP_KERNEL_ACCOUNT);
	if (!op)
		return -ENOMEM;
	ret = npu_op_init(ctx, a, sid, op);
	if (ret) {
		kfree(op);
		return ret;
	}
	*out = op;
	return 0;
}

/*
 * Queue the prepared ops of @ops (npu_op.node) on @s, all or none: 0 and
 * *seq the last one's sequence number (the stream's count when @n is 0),
 * -ENOENT @s destroyed, -EPIPE its context's STOP failure is kept, -EAGAIN
 * the file's queue limit.  On error the ops
 * stay in @ops.
 */
static int npu_ops_queue(struct npu_ctx *ctx, struct npu_stream *s,
			 struct list_head *ops, u64 n, u64 *seq)
{
	struct npu_op *op, *tmp, *last = NULL;
	bool was_empty;
	int ret = 0;

	spin_lock(&ctx->sq_lock);
	if (s->dead) {
		ret = -ENOENT;
	} else if (npu_ctx_failure(ctx, s->ctx_id)) {
		ret = -EPIPE;	/* Context::CheckTaskSend */
	} else if (ctx->sq_queued + n > NPU_SIM_MAX_QUEUED) {
		ret = -EAGAIN;
	} else {
		was_empty = list_empty(&s->ops);
		list_for_each_entry_safe(op, tmp, ops, node) {
			if (op->event)
				npu_event_op_submit(op);
			op->seq = ++s->submitted;
			ctx->sq_queued++;
			list_move_tail(&op->node, &s->ops);
			last = op;
		}
		if (last)
			last->last = true;
		*seq = s->submitted;
		/* A stream with older ops runs or waits for them already. */
		if (was_empty && !list_empty(&s->ops))
			npu_stream_kick(s);
	}
	spin_unlock(&ctx->sq_lock);
	return ret;
}

int npu_ioctl_stream_submit(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_stream_submit a;
	struct npu_stream *s;
	struct npu_op *op;
	LIST_HEAD(ops);
	u64 seq = 0;
	int ret;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	ret = npu_submit_check(&a);
	if (ret)
		return ret;
	/*
	 * A queued op cannot be taken back: make sure @seq can be written
	 * before anything is queued (it is 0 on input, so this changes
	 * nothing).
	 */
	if (put_user(0ULL, &((struct npu_sim_stream_submit __user *)uarg)->seq))
		return -EFAULT;
	s = npu_stream_get(ctx, a.stream);
	if (!s)
		return -ENOENT;
	ret = npu_op_prepare(ctx, &a, a.stream, &op);
	if (ret)
		goto out;
	list_add_tail(&op->node, &ops);
	ret = npu_ops_queue(ctx, s, &ops, 1, &seq);
	if (ret) {
		if (op->pool_ctx) {	/* not queued: the block stays in use */
			npu_mempool_free_undo(ctx, op->pool, op->va,
					      op->operand);
			op->pool_ctx = NULL;
		}
		npu_op_free(op);
		goto out;
	}
	if (put_user(seq, &((struct npu_sim_stream_submit __user *)uarg)->seq))
		ret = -EFAULT;
out:
	npu_stream_put(s);
	return ret;
}

int npu_stream_submit_check(const struct npu_sim_stream_submit *a)
{
	return npu_submit_check(a);
}

static int npu_flow_op_prepare(struct npu_ctx *ctx,
			       const struct npu_sim_stream_submit *a, u32 sid,
			       struct npu_op **out)
{
	return npu_op_prepare(ctx, a, sid, out);
}

const struct npu_flow_ops npu_stream_flow_ops = {
	.check = npu_submit_check,
	.prepare = npu_flow_op_prepare,
	.run = npu_op_exec_c,
	.free = npu_op_free,
};

int npu_stream_submit_flow(struct npu_ctx *ctx, u32 sid,
			   const struct npu_sim_stream_submit *subs, u32 n,
			   u32 tag, u64 *seq)
{
	struct npu_stream *s;
	struct npu_op *op;
	LIST_HEAD(ops);
	int ret;

	s = npu_stream_get(ctx, sid);
	if (!s)
		return -ENOENT;
	op = kzalloc(sizeof(*op), GFP_KERNEL_ACCOUNT);
	if (!op) {
		ret = -ENOMEM;
		goto out;
	}
	op->type = NPU_SIM_OP_GRAPH;
	op->tag = tag;
	op->flow = npu_flow_run_new(&npu_stream_flow_ops, ctx, sid, subs, n);
	if (IS_ERR(op->flow)) {
		ret = PTR_ERR(op->flow);
		op->flow = NULL;
		kfree(op);
		goto out;
	}
	list_add_tail(&op->node, &ops);
	ret = npu_ops_queue(ctx, s, &ops, 1, seq);
	if (ret)
		npu_op_free(op);
out:
	npu_stream_put(s);
	return ret;
}

int npu_stream_submit_batch(struct npu_ctx *ctx, u32 sid,
			    const struct npu_sim_stream_submit *subs, u32 n,
			    u32 tag, u64 *seq)
{
	struct npu_op_block *block = NULL;
	struct npu_op *op, *tmp;
	struct npu_stream *s;
	LIST_HEAD(ops);
	u32 i;
	int ret = 0;

	if (n > NPU_SIM_MAX_QUEUED)
		return -EAGAIN;
	s = npu_stream_get(ctx, sid);
	if (!s)
		return -ENOENT;
	if (n) {
		block = kvzalloc(struct_size(block, ops, n),
				 GFP_KERNEL_ACCOUNT);
		if (!block) {
			npu_stream_put(s);
			return -ENOMEM;
		}
		refcount_set(&block->refs, 1);	/* ours, until the end */
	}
	for (i = 0; i < n; i++) {
		op = &block->ops[i];
		ret = npu_op_init(ctx, &subs[i], sid, op);
		if (ret)
			break;
		op->block = block;
		refcount_inc(&block->refs);
		op->tag = tag;
		list_add_tail(&op->node, &ops);
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	if (!ret)
		ret = npu_ops_queue(ctx, s, &ops, n, seq);
	list_for_each_entry_safe(op, tmp, &ops, node) {
		list_del(&op->node);
		npu_op_free(op);
	}
	if (block && refcount_dec_and_test(&block->refs))
		kvfree(block);
	npu_stream_put(s);
	return ret;
}

/* Validate flags/timeout of a sync request; 0 or -EINVAL. */
static int npu_sync_check(u32 flags, u32 mask, u32 timeout_ms)
{
	if (flags & ~mask)
		return -EINVAL;
	if ((flags & NPU_SIM_SYNC_QUERY) && (flags & NPU_SIM_SYNC_TIMEOUT))
		return -EINVAL;
	if ((flags & NPU_SIM_SYNC_TIMEOUT) ? !timeout_ms : timeout_ms)
		return -EINVAL;
	return 0;
}

static bool npu_stream_done(struct npu_ctx *ctx, struct npu_stream *s,
			    u64 target)
{
	return npu_sq_reached(ctx, &s->completed, target);
}

static bool npu_ctx_idle(struct npu_ctx *ctx)
{
	bool idle;

	spin_lock(&ctx->sq_lock);
	idle = !ctx->sq_queued;
	spin_unlock(&ctx->sq_lock);
	return idle;
}

int npu_ioctl_stream_sync(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_stream_sync args;
	struct npu_stream *s = NULL, *it;
	bool all, done;
	unsigned long id;
	u64 target = 0, aborts;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	ret = npu_sync_check(args.flags, NPU_SIM_STREAM_SYNC_MASK,
			     args.timeout_ms);
	if (ret || args.pad || args.status || args.error ||
	    args.submitted || args.completed)
		return -EINVAL;
	all = args.flags & NPU_SIM_SYNC_ALL;
	if (all != !args.id)
		return -EINVAL;

	if (!all) {
		s = npu_stream_get(ctx, args.id);
		if (!s)
			return -ENOENT;
		spin_lock(&ctx->sq_lock);
		target = s->submitted;
		aborts = s->aborts;
		spin_unlock(&ctx->sq_lock);
		ret = npu_sync_wait(ctx->sq_wq, args.flags, args.timeout_ms,
				    npu_stream_done(ctx, s, target));
	} else {
		spin_lock(&ctx->sq_lock);
		aborts = ctx->sq_aborts;
		spin_unlock(&ctx->sq_lock);
		ret = npu_sync_wait(ctx->sq_wq, args.flags, args.timeout_ms,
				    npu_ctx_idle(ctx));
	}
	if (ret)
		goto out;

	args.error = 0;
	if (!all) {
		spin_lock(&ctx->sq_lock);
		done = s->completed >= target;
		if (done && !(args.flags & NPU_SIM_SYNC_QUERY) &&
		    s->aborts != aborts) {
			/* an ABORT released the wait: its work was dropped */
			args.error = -ECONNABORTED;
		} else if (done && !(args.flags & NPU_SIM_SYNC_QUERY)) {
			args.error = s->error;
			if (!(args.flags & NPU_SIM_SYNC_KEEP)) {
				s->error = 0;
				s->failed_stop = false;	/* reported */
			}
		}
		args.submitted = s->submitted;
		args.completed = s->completed;
		spin_unlock(&ctx->sq_lock);
	} else {
		xa_lock(&ctx->streams);
		spin_lock(&ctx->sq_lock);
		done = !ctx->sq_queued;
		if (done && !(args.flags & NPU_SIM_SYNC_QUERY) &&
		    ctx->sq_aborts != aborts)
			args.error = -ECONNABORTED;
		xa_for_each(&ctx->streams, id, it) {
			/* a kept failure is told by CTX_FAILURE, to its context */
			if (done && !(args.flags & NPU_SIM_SYNC_QUERY) &&
			    !npu_ctx_failure(ctx, it->ctx_id)) {
				if (!args.error)
					args.error = it->error;
				if (!(args.flags & NPU_SIM_SYNC_KEEP)) {
					it->error = 0;
					it->failed_stop = false;
				}
			}
			args.submitted += it->submitted;
			args.completed += it->completed;
		}
		spin_unlock(&ctx->sq_lock);
		xa_unlock(&ctx->streams);
	}
	args.status = done ? NPU_SIM_STATUS_COMPLETE : NPU_SIM_STATUS_NOT_READY;
	/* A synchronize lets the pools go down to their thresholds. */
	if (done && !(args.flags & NPU_SIM_SYNC_QUERY))
		npu_mempool_sync_trim(ctx);
	if (copy_to_user(uarg, &args, sizeof(args)))
		ret = -EFAULT;
out:
	if (s)
		npu_stream_put(s);
	return ret;
}

int npu_ioctl_event_create(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_event_create args;
	struct npu_event *ev;
	u32 id;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_EVENT_CREATE_MASK || args.pad || args.id)
		return -EINVAL;
	if (atomic_inc_return(&ctx->nr_events) > NPU_SIM_MAX_EVENTS) {
		atomic_dec(&ctx->nr_events);
		return -ENOSPC;
	}
	if (atomic_read(&ctx->nr_events) > npu_max_objects) {
		atomic_dec(&ctx->nr_events);
		return -ENOMEM;
	}
	ev = kzalloc(sizeof(*ev), GFP_KERNEL_ACCOUNT);
	if (!ev) {
		atomic_dec(&ctx->nr_events);
		return -ENOMEM;
	}
	kref_init(&ev->ref);
	ev->ctx_id = args.ctx_id;
	if (args.flags & NPU_SIM_EVENT_IPC) {
		ev->ipc = npu_event_ipc_new();
		if (!ev->ipc) {
			atomic_dec(&ctx->nr_events);
			kfree(ev);
			return -ENOMEM;
		}
	}
	ret = xa_alloc_cyclic(&ctx->events, &id, ev, XA_LIMIT(1, INT_MAX),
			      &ctx->next_event, GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		atomic_dec(&ctx->nr_events);
		npu_event_put(ev);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	ev->id = id;
	if (put_user(id, &((struct npu_sim_event_create __user *)uarg)->id)) {
		ev = xa_erase(&ctx->events, id);
		if (ev) {
			atomic_dec(&ctx->nr_events);
			npu_event_put(ev);
		}
		return -EFAULT;
	}
	return 0;
}

int npu_ioctl_event_destroy(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_event_destroy args;
	struct npu_event *ev;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	ev = npu_event_remove(ctx, args.id);
	if (!ev)
		return -ENOENT;
	atomic_dec(&ctx->nr_events);
	npu_event_put(ev);
	return 0;
}

int npu_ioctl_event_sync(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_event_sync args;
	struct npu_event *ev;
	u64 target, dropped;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	ret = npu_sync_check(args.flags, NPU_SIM_EVENT_SYNC_MASK,
			     args.timeout_ms);
	if (ret || args.status || args.recorded || args.completed ||
	    args.timestamp_ns)
		return -EINVAL;
	ev = npu_event_get(ctx, args.id);
	if (!ev)
		return -ENOENT;
	if (ev->ipc) {
		ret = npu_event_ipc_sync(ev, &args);
		if (!ret && copy_to_user(uarg, &args, sizeof(args)))
			ret = -EFAULT;
		npu_event_put(ev);
		return ret;
	}

	spin_lock(&ctx->sq_lock);
	target = ev->recorded;
	dropped = ev->abort_dropped;
	spin_unlock(&ctx->sq_lock);
	ret = npu_sync_wait(ctx->sq_wq, args.flags, args.timeout_ms,
			    npu_event_reached(ctx, ev, target));
	if (!ret) {
		spin_lock(&ctx->sq_lock);
		/* an ABORT dropped the record this call waited for */
		if (!(args.flags & NPU_SIM_SYNC_QUERY) && dropped < target &&
		    ev->abort_dropped >= target)
			ret = -ECONNABORTED;
		args.status = ev->completed >= target ?
			      NPU_SIM_STATUS_COMPLETE : NPU_SIM_STATUS_NOT_READY;
		args.recorded = ev->recorded;
		args.completed = ev->completed;
		args.timestamp_ns = ev->timestamp_ns;
		spin_unlock(&ctx->sq_lock);
		if (!ret && args.status == NPU_SIM_STATUS_COMPLETE &&
		    !(args.flags & NPU_SIM_SYNC_QUERY))
			npu_mempool_sync_trim(ctx);
		if (!ret && copy_to_user(uarg, &args, sizeof(args)))
			ret = -EFAULT;
	}
	npu_event_put(ev);
	return ret;
}

/* ---- event extension ioctls (1.9) -------------------------------------- */

int npu_ioctl_event_export(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_event_export args;
	struct npu_event *ev;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.key)
		return -EINVAL;
	down_write(&ctx->lock);
	ev = xa_load(&ctx->events, args.id);
	if (!ev) {
		ret = -ENOENT;
	} else if (!ev->ipc) {
		ret = -EINVAL;
	} else if (ev->imported) {
		args.key = ev->import_key;
	} else {
		if (!ev->key)
			WRITE_ONCE(ev->key, npu_event_ipc_export(ctx, ev->ipc));
		if (!ev->key)
			ret = -ENOMEM;
		else
			args.key = ev->key->key;
	}
	up_write(&ctx->lock);
	if (!ret && put_user(args.key,
			     &((struct npu_sim_event_export __user *)uarg)->key))
		ret = -EFAULT;
	return ret;
}

int npu_ioctl_event_import(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_event_import args;
	struct npu_event_ipc *ei;
	struct npu_dev *exp_dev;
	struct npu_event *ev;
	u32 id;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_EVENT_IMPORT_MASK || args.pad || args.id ||
	    !args.key)
		return -EINVAL;
	ev = kzalloc(sizeof(*ev), GFP_KERNEL_ACCOUNT);
	if (!ev)
		return -ENOMEM;
	kref_init(&ev->ref);
	ev->ctx_id = args.ctx_id;
	ev->imported = true;
	ev->import_key = args.key;

	if (atomic_inc_return(&ctx->nr_events) > NPU_SIM_MAX_EVENTS ||
	    atomic_read(&ctx->nr_events) > npu_max_objects) {
		ret = atomic_read(&ctx->nr_events) > NPU_SIM_MAX_EVENTS ?
		      -ENOSPC : -ENOMEM;
		goto err_count;
	}
	/* ENABLE_PEER grants access only if the import succeeds. */
	ei = npu_event_ipc_claim(ctx, args.key,
				 args.flags & NPU_SIM_EVENT_IMPORT_ENABLE_PEER,
				 &exp_dev);
	if (IS_ERR(ei)) {
		ret = PTR_ERR(ei);
		goto err_count;
	}
	ev->ipc = ei;
	ret = xa_alloc_cyclic(&ctx->events, &id, ev, XA_LIMIT(1, INT_MAX),
			      &ctx->next_event, GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		ret = ret == -EBUSY ? -ENOSPC : ret;
		goto err_count;
	}
	ev->id = id;
	if (put_user(id, &((struct npu_sim_event_import __user *)uarg)->id)) {
		ev = npu_event_remove(ctx, id);
		ret = -EFAULT;
		goto err_count;
	}
	if (args.flags & NPU_SIM_EVENT_IMPORT_ENABLE_PEER)
		npu_peer_grant(ctx, exp_dev);
	return 0;

err_count:
	atomic_dec(&ctx->nr_events);
	if (ev)
		npu_event_put(ev);
	return ret;
}

int npu_ioctl_event_info(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_event_info args;
	struct npu_event *ev = NULL;
	int max = min_t(int, NPU_SIM_MAX_EVENTS, npu_max_objects);

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.state || args.pad || args.recorded ||
	    args.completed || args.timestamp_ns || args.waits || args.avail)
		return -EINVAL;
	if (args.id) {
		ev = npu_event_get(ctx, args.id);
		if (!ev)
			return -ENOENT;
		spin_lock(&ctx->sq_lock);
		args.recorded = ev->recorded;
		args.completed = ev->completed;
		args.timestamp_ns = ev->timestamp_ns;
		args.waits = ev->waits;
		if (ev->cleared)
			args.state |= NPU_SIM_EVENT_INFO_CLEARED;
		spin_unlock(&ctx->sq_lock);
		if (ev->ipc) {
			npu_event_ipc_read(ev->ipc, &args.recorded,
					   &args.completed, &args.timestamp_ns);
			args.state |= NPU_SIM_EVENT_INFO_IPC;
			if (ev->imported)
				args.state |= NPU_SIM_EVENT_INFO_IMPORTED;
			if (READ_ONCE(ev->key))
				args.state |= NPU_SIM_EVENT_INFO_EXPORTED;
		}
		npu_event_put(ev);
	}
	args.avail = max(max - atomic_read(&ctx->nr_events), 0);
	if (copy_to_user(uarg, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}

/* ---- STREAM_CTL (1.9): failure mode, priority, abort, stop ------------- */

/* Streams this file can still create. */
static u64 npu_stream_avail(struct npu_ctx *ctx)
{
	int limit = min_t(int, NPU_SIM_MAX_STREAMS, npu_max_objects);
	int live = atomic_read(&ctx->nr_streams);

	return live < limit ? limit - live : 0;
}

/*
 * ABORT: drop every queued op, stop the running one and wait for it (a
 * fatal signal ends the wait; the rest is dropped already).  The error and
 * both stopped states go with the work.
 */
static int npu_stream_abort(struct npu_ctx *ctx, struct npu_stream *s)
{
	struct npu_op *op;
	LIST_HEAD(dead);
	u64 target;

	spin_lock(&ctx->sq_lock);
	npu_stream_cancel_ops(ctx, s, &dead);
	list_for_each_entry(op, &dead, node) {
		s->dropped++;
		/* an event synchronize waiting for it answers "aborted" */
		if (op->type == NPU_SIM_OP_RECORD && !op->event->ipc)
			op->event->abort_dropped = max(op->event->abort_dropped,
						       op->target);
	}
	s->held = false;
	s->failed_stop = false;
	s->error = 0;
	s->aborts++;
	ctx->sq_aborts++;
	target = s->submitted;
	spin_unlock(&ctx->sq_lock);
	npu_stream_reap(ctx, &dead);
	if (wait_event_killable(ctx->sq_wq, npu_stream_done(ctx, s, target)))
		return -EINTR;
	return 0;
}

/*
 * GRAPH_ABORT: every op of @ctx's streams carrying @tag completes without
 * running (the worker finds it cancelled; a RECORD still counts as
 * reached); the running one stops at its next piece.  Nothing waits: other
 * work queued before a dropped op keeps its place.  Returns the number of
 * ops dropped.
 */
u64 npu_stream_cancel_tag(struct npu_ctx *ctx, u32 tag)
{
	struct npu_stream *s;
	struct npu_op *op;
	unsigned long id;
	u64 n = 0, mine;

	xa_lock(&ctx->streams);
	xa_for_each(&ctx->streams, id, s) {
		mine = 0;
		spin_lock(&ctx->sq_lock);
		list_for_each_entry(op, &s->ops, node) {
			if (op->tag != tag || READ_ONCE(op->cancel))
				continue;
			WRITE_ONCE(op->cancel, true);
			mine++;
		}
		if (mine) {
			s->dropped += mine;
			/* A parked head op must look again to see it. */
			npu_stream_kick(s);
		}
		spin_unlock(&ctx->sq_lock);
		n += mine;
	}
	xa_unlock(&ctx->streams);
	if (n) {
		wake_up_all(&ctx->ndev->hold_wq);
		wake_up_all(&ctx->sq_wq);
	}
	return n;
}

/* STOP: hold the stream and stop the op running at its next piece. */
static void npu_stream_stop(struct npu_ctx *ctx, struct npu_stream *s)
{
	spin_lock(&ctx->sq_lock);
	s->held = true;
	if (s->cur)
		WRITE_ONCE(s->cur->cancel, true);
	spin_unlock(&ctx->sq_lock);
	wake_up_all(&ctx->ndev->hold_wq);	/* a held op waits there */
}

/* SET_MODE / SET_PRIORITY / QUERY: 0 or -errno.  @a filled for QUERY. */
static int npu_stream_ctl_set(struct npu_ctx *ctx, struct npu_stream *s,
			      struct npu_sim_stream_ctl *a)
{
	int ret = 0;

	/* The runtime keeps the mode per context: STOP is its context's. */
	if (a->op == NPU_SIM_STREAM_CTL_SET_MODE &&
	    a->value == NPU_SIM_STOP_ON_FAILURE &&
	    !xa_load(&ctx->stop_ctxs, s->ctx_id)) {
		struct npu_stop_ctx *sc = kzalloc(sizeof(*sc),
						  GFP_KERNEL_ACCOUNT);

		if (!sc)
			return -ENOMEM;
		/* -EBUSY: another thread's SET_MODE added it meanwhile */
		ret = xa_insert(&ctx->stop_ctxs, s->ctx_id, sc,
				GFP_KERNEL_ACCOUNT);
		if (ret)
			kfree(sc);
		if (ret && ret != -EBUSY)
			return ret;
		ret = 0;
	}
	spin_lock(&ctx->sq_lock);
	switch (a->op) {
	case NPU_SIM_STREAM_CTL_SET_MODE:
		/* A stream's mode can only become stricter. */
		if (s->mode == NPU_SIM_STOP_ON_FAILURE &&
		    a->value == NPU_SIM_CONTINUE_ON_FAILURE)
			ret = -EOPNOTSUPP;
		else
			s->mode = a->value;
		break;
	case NPU_SIM_STREAM_CTL_SET_PRIORITY:
		s->priority = a->value;
		break;
	default:		/* QUERY */
		a->mode = s->mode;
		a->priority = s->priority;
		a->flags = s->flags;
		a->state = (s->failed_stop ? NPU_SIM_STREAM_FAILED : 0) |
			   (s->held ? NPU_SIM_STREAM_HELD : 0) |
			   npu_report_stream_state(ctx, s->id);
		a->dropped = s->dropped;
	}
	spin_unlock(&ctx->sq_lock);
	return ret;
}

static int npu_stream_ctl_check(const struct npu_sim_stream_ctl *a)
{
	if (a->mode || a->priority || a->flags || a->state || a->dropped ||
	    a->reserved)
		return -EINVAL;
	switch (a->op) {
	case NPU_SIM_STREAM_CTL_SET_MODE:
		return a->value > NPU_SIM_STOP_ON_FAILURE ? -EINVAL : 0;
	case NPU_SIM_STREAM_CTL_SET_PRIORITY:
		return a->value > NPU_SIM_STREAM_PRIORITY_MAX ? -EINVAL : 0;
	case NPU_SIM_STREAM_CTL_QUERY:
	case NPU_SIM_STREAM_CTL_ABORT:
	case NPU_SIM_STREAM_CTL_STOP:
		return a->value ? -EINVAL : 0;
	case NPU_SIM_STREAM_CTL_AVAIL:
		return a->value || a->id ? -EINVAL : 0;
	case NPU_SIM_STREAM_CTL_CTX_FAILURE:
		return a->value ? -EINVAL : 0;
	}
	return -EINVAL;
}

int npu_ioctl_stream_ctl(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_stream_ctl a;
	struct npu_stream *s;
	int ret;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	ret = npu_stream_ctl_check(&a);
	if (ret)
		return ret;
	if (a.op == NPU_SIM_STREAM_CTL_AVAIL) {
		a.value = npu_stream_avail(ctx);
		return copy_to_user(uarg, &a, sizeof(a)) ? -EFAULT : 0;
	}
	if (a.op == NPU_SIM_STREAM_CTL_CTX_FAILURE) {	/* @id: a ctx_id */
		spin_lock(&ctx->sq_lock);
		a.value = -npu_ctx_failure(ctx, a.id);
		spin_unlock(&ctx->sq_lock);
		return copy_to_user(uarg, &a, sizeof(a)) ? -EFAULT : 0;
	}
	s = npu_stream_get(ctx, a.id);
	if (!s)
		return -ENOENT;
	if (a.op == NPU_SIM_STREAM_CTL_ABORT) {
		ret = npu_stream_abort(ctx, s);
	} else if (a.op == NPU_SIM_STREAM_CTL_STOP) {
		npu_stream_stop(ctx, s);
	} else {
		ret = npu_stream_ctl_set(ctx, s, &a);
		if (!ret && a.op == NPU_SIM_STREAM_CTL_QUERY &&
		    copy_to_user(uarg, &a, sizeof(a)))
			ret = -EFAULT;
	}
	npu_stream_put(s);
	return ret;
}

/* ---- debugfs, module init --------------------------------------------- */

static void npu_stream_show_ctx(struct npu_ctx *ctx, void *m)
{
	struct npu_stream *s;
	unsigned long id;

	xa_lock(&ctx->streams);
	spin_lock(&ctx->sq_lock);
	xa_for_each(&ctx->streams, id, s)
		seq_printf(m, "%d %u %u %u %llu %llu %llu %llu %d %s %s %llu\n",
			   ctx->pid, s->ctx_id, s->id, s->priority,
			   s->submitted, s->completed,
			   s->submitted - s->completed, s->failed, s->error,
			   s->mode == NPU_SIM_STOP_ON_FAILURE ? "stop" : "continue",
			   s->held ? "held" : s->failed_stop ? "stopped" : "run",
			   s->dropped);
	spin_unlock(&ctx->sq_lock);
	xa_unlock(&ctx->streams);
}

void npu_stream_show(struct seq_file *m, struct npu_dev *ndev)
{
	seq_puts(m, "pid ctx stream priority submitted completed queued failed error mode state dropped\n");
	npu_dev_walk_ctxs(ndev, false, npu_stream_show_ctx, m);
}

static void npu_event_show_ctx(struct npu_ctx *ctx, void *m)
{
	struct npu_event *ev;
	unsigned long id;

	u64 rec, done, ts;

	xa_lock(&ctx->events);
	spin_lock(&ctx->sq_lock);
	xa_for_each(&ctx->events, id, ev) {
		rec = ev->recorded;
		done = ev->completed;
		ts = ev->timestamp_ns;
		if (ev->ipc)
			npu_event_ipc_read(ev->ipc, &rec, &done, &ts);
		seq_printf(m, "%d %u %u %llu %llu %llu %llu %s\n",
			   ctx->pid, ev->ctx_id, ev->id, rec, done, rec - done,
			   ts, !ev->ipc ? "-" : ev->imported ? "imported" :
			   READ_ONCE(ev->key) ? "exported" : "ipc");
	}
	spin_unlock(&ctx->sq_lock);
	xa_unlock(&ctx->events);
}

void npu_event_show(struct seq_file *m, struct npu_dev *ndev)
{
	seq_puts(m, "pid ctx event recorded completed pending timestamp_ns ipc\n");
	npu_dev_walk_ctxs(ndev, false, npu_event_show_ctx, m);
}

int npu_stream_init(void)
{
	npu_stream_wq = alloc_workqueue("npu_sim_stream", WQ_UNBOUND, 0);
	return npu_stream_wq ? 0 : -ENOMEM;
}

void npu_stream_exit(void)
{
	destroy_workqueue(npu_stream_wq);
}
