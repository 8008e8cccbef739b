// SPDX-License-Identifier: GPL-2.0
/*
 * Host callback reports: what a stream's CALLBACK op (1.9) posts for a host
 * thread, and the subscriptions that say which thread.
 *
 * A subscription binds one stream and one kind (report, host function) to
 * a channel: an opaque 64-bit name of the host thread that takes the
 * reports (libacl_rt uses the pthread_t).  Every CALLBACK op owns an
 * npu_report from submit on; it sits in the context's report list while it
 * is pending:
 *
 *   QUEUED  submitted, the stream has not reached it
 *   POSTED  reached: waiting for its channel's thread (CB_WAIT)
 *   TAKEN   the thread runs the callback; CB_DONE ends it
 *   DONE    acknowledged or dropped (off the list)
 *
 * A BLOCK op holds its stream while POSTED or TAKEN (its worker parks);
 * a NO_BLOCK op completes once POSTED, and its report outlives it
 * (@op_gone) until the thread is done with it or it is dropped.
 * Everything here is under npu_ctx.sq_lock.  This file calls nothing of
 * the stream engine: who must kick a stream gets the stream back.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "npu_sim.h"

enum npu_report_state {
	NPU_REPORT_QUEUED,
	NPU_REPORT_POSTED,
	NPU_REPORT_TAKEN,
	NPU_REPORT_DONE,
};

struct npu_report {
	struct list_head node;		/* npu_ctx.cb_reports, or empty */
	struct npu_ctx *ctx;
	struct npu_stream *s;		/* BLOCK, POSTED/TAKEN: to kick */
	u64 id;				/* given when posted */
	u64 channel;			/* the thread it was posted to */
	u64 cookie;			/* the library's, opaque */
	u32 stream;
	u32 flags;			/* NPU_SIM_CB_BLOCK, _HOSTFUNC */
	enum npu_report_state state;
	bool op_gone;			/* its op is freed: free when done */
};

/* The subscriptions of one stream; freed when it has none left. */
struct npu_cb_bind {
	struct list_head node;		/* npu_ctx.cb_binds */
	u32 stream;
	bool runtime;			/* chan[1] is a RUNTIME channel */
	u64 chan[2];			/* [0] report, [1] host function */
};

static unsigned int npu_cb_kind(u32 flags)
{
	return flags & NPU_SIM_CB_HOSTFUNC ? 1 : 0;
}

static struct npu_cb_bind *npu_cb_bind_find(struct npu_ctx *ctx, u32 stream)
{
	struct npu_cb_bind *b;

	list_for_each_entry(b, &ctx->cb_binds, node)
		if (b->stream == stream)
			return b;
	return NULL;
}

void npu_report_ctx_init(struct npu_ctx *ctx)
{
	INIT_LIST_HEAD(&ctx->cb_reports);
	INIT_LIST_HEAD(&ctx->cb_binds);
	init_waitqueue_head(&ctx->cb_wq);
}

/* After every stream is gone: only reports of freed NO_BLOCK ops remain. */
void npu_report_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_report *r, *rn;
	struct npu_cb_bind *b, *bn;

	spin_lock(&ctx->sq_lock);
	list_for_each_entry_safe(r, rn, &ctx->cb_reports, node) {
		list_del_init(&r->node);
		if (r->op_gone)
			kfree(r);
	}
	list_for_each_entry_safe(b, bn, &ctx->cb_binds, node) {
		list_del(&b->node);
		kfree(b);
	}
	spin_unlock(&ctx->sq_lock);
	wake_up_all(&ctx->cb_wq);
}

/**
 * npu_report_new() - the report of a CALLBACK op being submitted
 * @ctx: the context
 * @stream: the stream's id
 * @flags: the op's NPU_SIM_CB_BLOCK / NPU_SIM_CB_HOSTFUNC
 * @cookie: the op's operand
 *
 * Return: the report, QUEUED; ERR_PTR -ENOTCONN (the stream has no
 * subscription of the kind), -EBUSY (see the UAPI) or -ENOMEM.
 */
struct npu_report *npu_report_new(struct npu_ctx *ctx, u32 stream, u32 flags,
				  u64 cookie)
{
	unsigned int kind = npu_cb_kind(flags);
	struct npu_report *r;
	struct npu_cb_bind *b;
	int ret = 0;

	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->ctx = ctx;
	r->stream = stream;
	r->flags = flags;
	r->cookie = cookie;
	r->state = NPU_REPORT_QUEUED;

	spin_lock(&ctx->sq_lock);
	b = npu_cb_bind_find(ctx, stream);
	if (!kind && b && b->runtime && b->chan[1])
		ret = -EBUSY;	/* the runtime's callback thread serves it */
	else if (!b || !b->chan[kind])
		ret = kind && b && b->chan[0] ? -EBUSY : -ENOTCONN;
	else
		list_add_tail(&r->node, &ctx->cb_reports);
	spin_unlock(&ctx->sq_lock);
	if (ret) {
		kfree(r);
		return ERR_PTR(ret);
	}
	return r;
}

/* @r is off the list: free it now if its op is gone.  sq_lock held. */
static void npu_report_finish(struct npu_report *r)
{
	r->state = NPU_REPORT_DONE;
	list_del_init(&r->node);
	if (r->op_gone)
		kfree(r);
}

/**
 * npu_report_put() - the op owning @r is freed
 * @r: the report
 *
 * A NO_BLOCK report a thread has not finished stays pending on its own.
 */
void npu_report_put(struct npu_report *r)
{
	struct npu_ctx *ctx = r->ctx;

	spin_lock(&ctx->sq_lock);
	r->op_gone = true;
	if ((r->flags & NPU_SIM_CB_BLOCK) ||
	    (r->state != NPU_REPORT_POSTED && r->state != NPU_REPORT_TAKEN))
		npu_report_finish(r);
	spin_unlock(&ctx->sq_lock);
}

/**
 * npu_report_exec() - the stream reached the CALLBACK op of @r
 * @r: the report
 * @s: the stream, kicked through npu_stream_callback_done() when a BLOCK
 *	report is done
 *
 * Posts @r to the channel the stream is subscribed to now, or drops it
 * when there is none.  Called again when the stream is kicked.
 *
 * Return: 0 when the op is complete, -EAGAIN while a BLOCK report is
 * posted or taken.
 */
int npu_report_exec(struct npu_report *r, struct npu_stream *s)
{
	struct npu_ctx *ctx = r->ctx;
	struct npu_cb_bind *b;
	bool posted = false;
	int ret = 0;

	spin_lock(&ctx->sq_lock);
	if (r->state == NPU_REPORT_QUEUED) {
		b = npu_cb_bind_find(ctx, r->stream);
		if (b && b->chan[npu_cb_kind(r->flags)]) {
			r->channel = b->chan[npu_cb_kind(r->flags)];
			r->id = ++ctx->cb_next;
			r->s = s;
			r->state = NPU_REPORT_POSTED;
			posted = true;
		} else {
			npu_report_finish(r);	/* unsubscribed meanwhile */
		}
	}
	if ((r->flags & NPU_SIM_CB_BLOCK) && (r->state == NPU_REPORT_POSTED ||
					      r->state == NPU_REPORT_TAKEN))
		ret = -EAGAIN;
	spin_unlock(&ctx->sq_lock);
	if (posted)
		wake_up_all(&ctx->cb_wq);
	return ret;
}

/**
 * npu_report_stream_gone() - a stream is destroyed or cancelled
 * @ctx: the context
 * @stream: its id
 *
 * Drops its subscriptions and the untaken reports of its completed
 * NO_BLOCK ops (its ops drop their own).  sq_lock held.
 */
void npu_report_stream_gone(struct npu_ctx *ctx, u32 stream)
{
	struct npu_report *r, *rn;
	struct npu_cb_bind *b = npu_cb_bind_find(ctx, stream);

	list_for_each_entry_safe(r, rn, &ctx->cb_reports, node)
		if (r->stream == stream && r->op_gone &&
		    r->state == NPU_REPORT_POSTED)
			npu_report_finish(r);
	if (b) {
		list_del(&b->node);
		kfree(b);
	}
	wake_up_all(&ctx->cb_wq);
}

/**
 * npu_report_stream_state() - a stream's subscriptions, for STREAM_CTL QUERY
 * @ctx: the context
 * @stream: its id
 *
 * Return: NPU_SIM_STREAM_CB_REPORT / _CB_HOSTFUNC / _CB_RUNTIME bits (the
 * library decides the runtime's subscription checks before its context
 * check with them).  sq_lock held.
 */
u32 npu_report_stream_state(struct npu_ctx *ctx, u32 stream)
{
	struct npu_cb_bind *b = npu_cb_bind_find(ctx, stream);
	u32 state = 0;

	if (!b)
		return 0;
	if (b->chan[0])
		state |= NPU_SIM_STREAM_CB_REPORT;
	if (b->chan[1])
		state |= b->runtime ? NPU_SIM_STREAM_CB_RUNTIME :
				      NPU_SIM_STREAM_CB_HOSTFUNC;
	return state;
}

/**
 * npu_report_subscribe() - CB_SUBSCRIBE without NPU_SIM_CB_UNSUBSCRIBE
 * @ctx: the context
 * @stream: stream id
 * @flags: NPU_SIM_CB_HOSTFUNC, NPU_SIM_CB_RUNTIME
 * @channel: != 0
 *
 * Return: 0, -ENOENT, -EBUSY or -ENOMEM as the UAPI says.
 */
int npu_report_subscribe(struct npu_ctx *ctx, u32 stream, u32 flags,
			 u64 channel)
{
	unsigned int kind = npu_cb_kind(flags);
	struct npu_cb_bind *spare, *b;
	int ret = 0;

	spare = kzalloc(sizeof(*spare), GFP_KERNEL_ACCOUNT);
	if (!spare)
		return -ENOMEM;
	/* Under the xa_lock: a destroy erases the id first, then cancels. */
	xa_lock(&ctx->streams);
	spin_lock(&ctx->sq_lock);
	b = npu_cb_bind_find(ctx, stream);
	if (!xa_load(&ctx->streams, stream)) {
		ret = -ENOENT;
	} else if (b && (b->chan[kind] ||
			 (!kind && b->runtime && b->chan[1]))) {
		ret = -EBUSY;
	} else {
		if (!b) {
			b = spare;
			spare = NULL;
			b->stream = stream;
			list_add_tail(&b->node, &ctx->cb_binds);
		}
		b->chan[kind] = channel;
		if (kind)
			b->runtime = flags & NPU_SIM_CB_RUNTIME;
	}
	spin_unlock(&ctx->sq_lock);
	xa_unlock(&ctx->streams);
	kfree(spare);
	return ret;
}

/**
 * npu_report_unsubscribe_locked() - CB_SUBSCRIBE with NPU_SIM_CB_UNSUBSCRIBE
 * @ctx: the context
 * @stream: stream id (the caller made sure it lives)
 * @flags: NPU_SIM_CB_HOSTFUNC or 0
 * @channel: the channel it must be subscribed to
 * @err: out, 0, -ENOTCONN or -EXDEV
 *
 * Drops the stream's untaken reports and unreached ops of the kind.
 * sq_lock held.
 *
 * Return: the stream whose BLOCK report was dropped (kick it), or NULL.
 */
struct npu_stream *npu_report_unsubscribe_locked(struct npu_ctx *ctx,
						 u32 stream, u32 flags,
						 u64 channel, int *err)
{
	unsigned int kind = npu_cb_kind(flags);
	struct npu_cb_bind *b = npu_cb_bind_find(ctx, stream);
	struct npu_stream *kick = NULL;
	struct npu_report *r, *rn;

	*err = 0;
	if (!b || !b->chan[kind]) {
		*err = -ENOTCONN;
		return NULL;
	}
	if (b->chan[kind] != channel) {
		*err = -EXDEV;
		return NULL;
	}
	b->chan[kind] = 0;
	if (kind)
		b->runtime = false;
	if (!b->chan[0] && !b->chan[1]) {
		list_del(&b->node);
		kfree(b);
	}
	list_for_each_entry_safe(r, rn, &ctx->cb_reports, node) {
		if (r->stream != stream || npu_cb_kind(r->flags) != kind ||
		    r->state == NPU_REPORT_TAKEN)
			continue;
		if (r->state == NPU_REPORT_POSTED &&
		    (r->flags & NPU_SIM_CB_BLOCK))
			kick = r->s;
		npu_report_finish(r);
	}
	return kick;
}

/**
 * npu_report_take() - the oldest posted report of a channel, now TAKEN
 * @ctx: the context
 * @w: in: @channel and @flags; out: the report's fields
 *
 * Return: 1 taken, 0 none yet, -ENOTCONN no stream is subscribed to the
 * channel for that kind.
 */
int npu_report_take(struct npu_ctx *ctx, struct npu_sim_cb_wait *w)
{
	unsigned int kind = npu_cb_kind(w->flags);
	struct npu_cb_bind *b;
	struct npu_report *r;
	int ret = -ENOTCONN;

	spin_lock(&ctx->sq_lock);
	list_for_each_entry(b, &ctx->cb_binds, node) {
		if (b->chan[kind] == w->channel) {
			ret = 0;
			break;
		}
	}
	list_for_each_entry(r, &ctx->cb_reports, node) {
		if (ret || r->state != NPU_REPORT_POSTED ||
		    r->channel != w->channel || npu_cb_kind(r->flags) != kind)
			continue;
		r->state = NPU_REPORT_TAKEN;
		w->report = r->id;
		w->cookie = r->cookie;
		w->stream = r->stream;
		w->block = !!(r->flags & NPU_SIM_CB_BLOCK);
		ret = 1;
		break;
	}
	spin_unlock(&ctx->sq_lock);
	return ret;
}

/**
 * npu_report_streams() - streams subscribed to a channel
 * @ctx: the context
 * @channel: the channel
 * @flags: NPU_SIM_CB_HOSTFUNC or 0, the kind
 *
 * Return: how many streams of @ctx are subscribed to @channel.
 */
u32 npu_report_streams(struct npu_ctx *ctx, u64 channel, u32 flags)
{
	unsigned int kind = npu_cb_kind(flags);
	struct npu_cb_bind *b;
	u32 n = 0;

	spin_lock(&ctx->sq_lock);
	list_for_each_entry(b, &ctx->cb_binds, node)
		n += b->chan[kind] == channel;
	spin_unlock(&ctx->sq_lock);
	return n;
}

/**
 * npu_report_done_locked() - CB_DONE of report @id
 * @ctx: the context
 * @id: the report's id
 * @err: out, 0 or -ENOENT (no taken report has that id)
 *
 * sq_lock held.
 *
 * Return: the stream of a BLOCK report (kick it), or NULL.
 */
struct npu_stream *npu_report_done_locked(struct npu_ctx *ctx, u64 id,
					  int *err)
{
	struct npu_stream *kick;
	struct npu_report *r;

	list_for_each_entry(r, &ctx->cb_reports, node) {
		if (r->id != id || r->state != NPU_REPORT_TAKEN)
			continue;
		*err = 0;
		kick = r->flags & NPU_SIM_CB_BLOCK ? r->s : NULL;
		npu_report_finish(r);
		return kick;
	}
	*err = -ENOENT;
	return NULL;
}

/* One debugfs line: @stream's subscriptions and pending reports. */
static void npu_report_show_stream(struct seq_file *m, struct npu_ctx *ctx,
				   u32 stream, struct npu_cb_bind *b)
{
	unsigned int n[NPU_REPORT_DONE] = { 0 };
	struct npu_report *r;

	list_for_each_entry(r, &ctx->cb_reports, node)
		if (r->stream == stream)
			n[r->state]++;
	seq_printf(m, "%d %u %llx %llx %d %u %u %u\n", ctx->pid, stream,
		   b ? b->chan[0] : 0, b ? b->chan[1] : 0,
		   b ? b->runtime : 0, n[NPU_REPORT_QUEUED],
		   n[NPU_REPORT_POSTED], n[NPU_REPORT_TAKEN]);
}

static void npu_report_show_ctx(struct npu_ctx *ctx, void *m)
{
	struct npu_report *r, *first;
	struct npu_cb_bind *b;

	spin_lock(&ctx->sq_lock);
	list_for_each_entry(b, &ctx->cb_binds, node)
		npu_report_show_stream(m, ctx, b->stream, b);
	/* Streams with pending reports and no subscription, once each. */
	list_for_each_entry(r, &ctx->cb_reports, node) {
		if (npu_cb_bind_find(ctx, r->stream))
			continue;
		list_for_each_entry(first, &ctx->cb_reports, node)
			if (first->stream == r->stream)
				break;
		if (first == r)
			npu_report_show_stream(m, ctx, r->stream, NULL);
	}
	spin_unlock(&ctx->sq_lock);
}

/**
 * npu_report_show() - debugfs "callbacks"
 * @m: the seq_file
 * @ndev: the device
 *
 * One line per stream with a subscription or a pending callback:
 * channels in hex (0: none), runtime 1 when the host function channel is
 * the library's own thread, then its callbacks queued (not reached),
 * posted (waiting for the thread) and running (taken by it).
 */
void npu_report_show(struct seq_file *m, struct npu_dev *ndev)
{
	seq_puts(m, "pid stream report_channel hostfunc_channel runtime queued posted running\n");
	npu_dev_walk_ctxs(ndev, false, npu_report_show_ctx, m);
}
