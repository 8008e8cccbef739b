// SPDX-License-Identifier: GPL-2.0
/*
 * IPC events (aclrtIpcGetEventHandle / aclrtIpcOpenEventHandle): the record
 * counters of an event shared by the files of several processes.
 *
 * An event created with NPU_SIM_EVENT_IPC keeps its counters here instead
 * of under its context's sq_lock, so a RECORD reached in one file and a
 * WAIT parked in another meet.  A parked WAIT leaves a waiter on this
 * object; the RECORD that meets it queues the waiting stream's kick work
 * (its stream takes its own sq_lock there), so no lock of two contexts is
 * ever held together.  Host syncs sleep on @wq.
 *
 * The key (kind NPU_KEY_EVENT of npu_key.c, no pages) references this
 * object and lives until the exporting event goes; every event of every
 * file naming the object references it too, so it goes with the last.
 */
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "npu_sim.h"

struct npu_event_ipc {
	struct kref ref;
	spinlock_t lock;		/* counters and waiters */
	u64 recorded;			/* RECORD ops submitted, all files */
	u64 completed;			/* newest RECORD reached */
	u64 timestamp_ns;		/* when @completed was reached */
	struct list_head waiters;	/* npu_event_ipc_waiter.node */
	wait_queue_head_t wq;		/* host syncs */
};

struct npu_event_ipc *npu_event_ipc_new(void)
{
	struct npu_event_ipc *ei = kzalloc(sizeof(*ei), GFP_KERNEL_ACCOUNT);

	if (!ei)
		return NULL;
	kref_init(&ei->ref);
	spin_lock_init(&ei->lock);
	INIT_LIST_HEAD(&ei->waiters);
	init_waitqueue_head(&ei->wq);
	return ei;
}

static void npu_event_ipc_release(struct kref *ref)
{
	kfree(container_of(ref, struct npu_event_ipc, ref));
}

void npu_event_ipc_put(struct npu_event_ipc *ei)
{
	kref_put(&ei->ref, npu_event_ipc_release);
}

/*
 * The key of @ei for other processes, exported from @ctx (ctx->lock held):
 * any process but the exporter's may claim it, as the runtime turns the
 * pid check of an IPC event off.  The key references @ei.
 */
struct npu_key *npu_event_ipc_export(struct npu_ctx *ctx,
				     struct npu_event_ipc *ei)
{
	struct npu_key *k = kzalloc(sizeof(*k), GFP_KERNEL_ACCOUNT);

	if (!k)
		return NULL;
	k->flags = NPU_SIM_SHARE_NO_PID_CHECK;
	kref_get(&ei->ref);
	k->ref = &ei->ref;
	npu_key_export(k, NPU_KEY_EVENT, ctx, NULL);
	return k;
}

/* Take key @k of npu_event_ipc_export() out of the table, free it. */
void npu_event_ipc_unexport(struct npu_key *k)
{
	struct npu_event_ipc *ei = container_of(k->ref, struct npu_event_ipc,
						ref);

	npu_key_drop(k);	/* after this no claim can reach @ei */
	npu_event_ipc_put(ei);
}

/*
 * Claim event key @key for an import into @ctx (npu_key_claim() decides,
 * with its codes); on success the caller owns a reference of the object,
 * and *@exp_dev is the exporter's device.
 */
struct npu_event_ipc *npu_event_ipc_claim(struct npu_ctx *ctx, u64 key,
					  bool may_grant,
					  struct npu_dev **exp_dev)
{
	struct npu_key k;
	int ret;

	ret = npu_key_claim(ctx, key, NPU_KEY_EVENT, may_grant, &k);
	if (ret)
		return ERR_PTR(ret);
	*exp_dev = k.ndev;
	return container_of(k.ref, struct npu_event_ipc, ref);
}

/* A RECORD (@record) or WAIT is submitted: the record number it names. */
u64 npu_event_ipc_submit(struct npu_event_ipc *ei, bool record)
{
	u64 target;

	spin_lock(&ei->lock);
	if (record)
		ei->recorded++;
	target = ei->recorded;
	spin_unlock(&ei->lock);
	return target;
}

/* RECORD @target was reached (or cancelled): kick the waits it meets. */
void npu_event_ipc_reach(struct npu_event_ipc *ei, u64 target)
{
	struct npu_event_ipc_waiter *w, *tmp;

	spin_lock(&ei->lock);
	if (target > ei->completed) {
		ei->completed = target;
		ei->timestamp_ns = ktime_get_ns();
		list_for_each_entry_safe(w, tmp, &ei->waiters, node) {
			if (w->target > target)
				continue;
			list_del_init(&w->node);
			mod_delayed_work(w->wq, w->kick, 0);
		}
	}
	spin_unlock(&ei->lock);
	wake_up_all(&ei->wq);
}

bool npu_event_ipc_reached(struct npu_event_ipc *ei, u64 target)
{
	bool reached;

	spin_lock(&ei->lock);
	reached = ei->completed >= target;
	spin_unlock(&ei->lock);
	return reached;
}

/*
 * A WAIT for record @target parks: false if it is met already, else @w is
 * on the waiters and the RECORD meeting it queues @kick on @wq.  The look
 * and the listing are one step under the lock: no record is missed.
 */
bool npu_event_ipc_park(struct npu_event_ipc *ei,
			struct npu_event_ipc_waiter *w, u64 target,
			struct workqueue_struct *wq, struct delayed_work *kick)
{
	bool parked;

	spin_lock(&ei->lock);
	parked = ei->completed < target;
	if (parked && list_empty(&w->node)) {
		w->target = target;
		w->wq = wq;
		w->kick = kick;
		list_add_tail(&w->node, &ei->waiters);
	}
	spin_unlock(&ei->lock);
	return parked;
}

/* @w no longer waits (its op is done or cancelled): unlist it. */
void npu_event_ipc_unpark(struct npu_event_ipc *ei,
			  struct npu_event_ipc_waiter *w)
{
	spin_lock(&ei->lock);
	list_del_init(&w->node);
	spin_unlock(&ei->lock);
}

void npu_event_ipc_read(struct npu_event_ipc *ei, u64 *recorded,
			u64 *completed, u64 *timestamp_ns)
{
	spin_lock(&ei->lock);
	*recorded = ei->recorded;
	*completed = ei->completed;
	*timestamp_ns = ei->timestamp_ns;
	spin_unlock(&ei->lock);
}

/*
 * Host wait for record @target per EVENT_SYNC @flags (QUERY: none,
 * TIMEOUT: at most @timeout_ms): 0, or -EINTR on a signal.
 */
int npu_event_ipc_wait(struct npu_event_ipc *ei, u32 flags, u32 timeout_ms,
		       u64 target)
{
	return npu_sync_wait(ei->wq, flags, timeout_ms,
			     npu_event_ipc_reached(ei, target));
}
