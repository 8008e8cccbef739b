// SPDX-License-Identifier: GPL-2.0
/*
 * npu_sim: control-flow graphs (GRAPH_CREATE with NPU_SIM_GRAPH_FLOW, the
 * library's built models, condition tasks, labels and stream switches).
 *
 * This file sits below the stream engine: the engine hands it its body
 * entry operations (struct npu_flow_ops) and runs it as one of its ops.
 *
 * A program is a graph's entry list.  GRAPH_CREATE checks it
 * (npu_flow_check); each GRAPH_LAUNCH copies it into a run and prepares
 * every entry once (npu_flow_run_new): a body entry becomes an npu_op of
 * the stream engine (memory checked and referenced as by STREAM_SUBMIT), a
 * control entry gets the 4 or 8 bytes it reads referenced.  The run is
 * queued as one op of the stream (type NPU_SIM_OP_GRAPH) and the stream's
 * worker interprets it (npu_flow_exec): a slice of NPU_SIM_FLOW_SLICE
 * entries at a time, so a long loop passes its slot on between slices,
 * and every entry looks at the op's cancel flag first, so a forced
 * destroy, an abort or the file's release stops it at once.
 *
 * Segments: the run starts at entry 0; a JUMP NPU_SIM_FLOW_END (or the
 * end of the list) ends a segment and the run goes on at the oldest
 * activated segment start; a start activated again while it waits is
 * activated once (a bitmap), so the queue never holds more than @count
 * starts.
 */
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "npu_sim.h"

struct npu_flow_step {
	struct npu_op *op;		/* body entry: the stream engine's op */
	struct npu_xfer *rd[2];		/* control entry: value, right operand */
};

struct npu_flow_run {
	const struct npu_flow_ops *fo;	/* the stream engine's */
	u32 count;
	struct npu_sim_stream_submit *ent;	/* the program, copied */
	struct npu_flow_step *steps;
	u32 pc;
	bool in_seg;			/* running a segment */
	u32 *queue;			/* activated starts, ring of @count */
	u32 qhead, qlen;
	unsigned long *queued;		/* bitmap of starts in @queue */
};

static bool npu_flow_control(u32 op)
{
	return op == NPU_SIM_OP_BRANCH || op == NPU_SIM_OP_SWITCH ||
	       op == NPU_SIM_OP_JUMP;
}

/* Body entries a program may hold: memory work that never waits. */
static bool npu_flow_body(const struct npu_sim_stream_submit *a)
{
	return a->op == NPU_SIM_OP_COPY || a->op == NPU_SIM_OP_SET ||
	       a->op == NPU_SIM_OP_VALUE_WRITE || a->op == NPU_SIM_OP_REDUCE ||
	       a->op == NPU_SIM_OP_CMO;
}

/* A value a control entry reads: 4 or 8 bytes, aligned, non-zero address. */
static bool npu_flow_value_ok(u64 addr, u64 width)
{
	return (width == 4 || width == 8) && addr && IS_ALIGNED(addr, width);
}

static int npu_flow_check_control(const struct npu_sim_stream_submit *ops,
				  u32 count, u32 i)
{
	const struct npu_sim_stream_submit *a = &ops[i];
	u32 k;

	if (a->stream || a->seq || a->dpitch || a->spitch || a->dir ||
	    a->event || a->location || a->location_id)
		return -EINVAL;
	switch (a->op) {
	case NPU_SIM_OP_BRANCH:
		if (!npu_flow_value_ok(a->dst, a->width) ||
		    (a->src && !IS_ALIGNED(a->src, a->width)) ||
		    (a->src && a->operand) || a->flags > NPU_SIM_FLOW_LE ||
		    a->value > 1 || a->height >= count)
			return -EINVAL;
		return 0;
	case NPU_SIM_OP_SWITCH:
		if (!npu_flow_value_ok(a->dst, a->width) || a->src ||
		    a->operand || a->value || (a->flags & ~NPU_SIM_SWITCH_CLAMP) ||
		    !a->height || a->height >= count - i)
			return -EINVAL;
		for (k = 1; k <= a->height; k++)
			if (ops[i + k].op != NPU_SIM_OP_JUMP || ops[i + k].flags)
				return -EINVAL;
		return 0;
	default:	/* NPU_SIM_OP_JUMP */
		if (a->dst || a->src || a->width || a->operand || a->value ||
		    a->flags > NPU_SIM_FLOW_END || a->height >= count ||
		    (a->flags == NPU_SIM_FLOW_END && a->height))
			return -EINVAL;
		return 0;
	}
}

/**
 * npu_flow_check() - check a program's entries (GRAPH_CREATE)
 * @fo: the stream engine (checks a body entry as STREAM_SUBMIT)
 * @ops: the entries
 * @count: their number
 *
 * Return: 0, or -EINVAL for an entry a program may not hold or a bad field
 * or target.
 */
int npu_flow_check(const struct npu_flow_ops *fo,
		   const struct npu_sim_stream_submit *ops, u32 count)
{
	u32 i;
	int ret;

	for (i = 0; i < count; i++) {
		const struct npu_sim_stream_submit *a = &ops[i];

		if (npu_flow_control(a->op))
			ret = npu_flow_check_control(ops, count, i);
		else if (!npu_flow_body(a) || a->stream || a->seq)
			ret = -EINVAL;
		else
			ret = fo->check(a);
		if (ret)
			return ret;
	}
	return 0;
}

void npu_flow_run_free(struct npu_flow_run *run)
{
	u32 i, k;

	if (!run)
		return;
	for (i = 0; run->steps && i < run->count; i++) {
		struct npu_flow_step *st = &run->steps[i];

		if (st->op)
			run->fo->free(st->op);
		for (k = 0; k < ARRAY_SIZE(st->rd); k++) {
			if (!st->rd[k])
				continue;
			npu_xfer_mark_queued(st->rd[k], -1);
			npu_xfer_free(st->rd[k]);
		}
	}
	kvfree(run->steps);
	kvfree(run->ent);
	kvfree(run->queue);
	bitmap_free(run->queued);
	kfree(run);
}

/* Reference the @width bytes a control entry reads at @addr. */
static int npu_flow_prepare_read(struct npu_ctx *ctx, u64 addr, u64 width,
				 struct npu_xfer **out)
{
	struct npu_xfer *x;

	x = npu_xfer_prepare(ctx, NPU_XFER_SET, addr, width, 0, 0, width, 1, 0);
	if (IS_ERR(x))
		return PTR_ERR(x);
	npu_xfer_mark_queued(x, 1);
	*out = x;
	return 0;
}

static int npu_flow_prepare_step(struct npu_flow_run *run, struct npu_ctx *ctx,
				 u32 sid, const struct npu_sim_stream_submit *a,
				 struct npu_flow_step *st)
{
	int ret;

	if (!npu_flow_control(a->op))
		return run->fo->prepare(ctx, a, sid, &st->op);
	if (a->op == NPU_SIM_OP_JUMP)
		return 0;
	ret = npu_flow_prepare_read(ctx, a->dst, a->width, &st->rd[0]);
	if (!ret && a->op == NPU_SIM_OP_BRANCH && a->src)
		ret = npu_flow_prepare_read(ctx, a->src, a->width, &st->rd[1]);
	return ret;
}

/**
 * npu_flow_run_new() - prepare a launch of a checked program
 * @fo: the stream engine (prepares, runs and frees the body entries)
 * @ctx: the launching file's context
 * @sid: the stream it is queued on
 * @ops: the program's entries
 * @count: their number
 *
 * Return: the run, or an ERR_PTR of STREAM_SUBMIT's errno for the first
 * entry whose memory or objects fail their check (nothing held then), or
 * -EINTR on a fatal signal.
 */
struct npu_flow_run *npu_flow_run_new(const struct npu_flow_ops *fo,
				      struct npu_ctx *ctx, u32 sid,
				      const struct npu_sim_stream_submit *ops,
				      u32 count)
{
	struct npu_flow_run *run;
	u32 i;
	int ret = -ENOMEM;

	run = kzalloc(sizeof(*run), GFP_KERNEL_ACCOUNT);
	if (!run)
		return ERR_PTR(-ENOMEM);
	run->fo = fo;
	run->count = count;
	run->in_seg = true;
	if (!count)
		return run;
	run->ent = kvmalloc_array(count, sizeof(*ops), GFP_KERNEL_ACCOUNT);
	if (run->ent)
		memcpy(run->ent, ops, array_size(count, sizeof(*ops)));
	run->steps = kvcalloc(count, sizeof(*run->steps), GFP_KERNEL_ACCOUNT);
	run->queue = kvcalloc(count, sizeof(*run->queue), GFP_KERNEL_ACCOUNT);
	run->queued = bitmap_zalloc(count, GFP_KERNEL_ACCOUNT);
	if (!run->ent || !run->steps || !run->queue || !run->queued)
		goto err;
	for (i = 0; i < count; i++) {
		ret = npu_flow_prepare_step(run, ctx, sid, &run->ent[i],
					    &run->steps[i]);
		if (ret)
			goto err;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto err;
		}
		cond_resched();
	}
	return run;
err:
	npu_flow_run_free(run);
	return ERR_PTR(ret);
}

static int npu_flow_read(struct npu_xfer *x, u64 width, bool sign, u64 *v)
{
	u32 v32;
	int ret;

	if (width == 8)
		return npu_xfer_value(x, v, false);
	ret = npu_xfer_value32(x, &v32);
	*v = sign ? (u64)(s64)(s32)v32 : v32;
	return ret;
}

static bool npu_flow_compare(u32 cond, bool sign, u64 l, u64 r)
{
	int c;

	if (sign)
		c = (s64)l < (s64)r ? -1 : (s64)l > (s64)r;
	else
		c = l < r ? -1 : l > r;
	switch (cond) {
	case NPU_SIM_FLOW_EQ:
		return c == 0;
	case NPU_SIM_FLOW_NE:
		return c != 0;
	case NPU_SIM_FLOW_GT:
		return c > 0;
	case NPU_SIM_FLOW_GE:
		return c >= 0;
	case NPU_SIM_FLOW_LT:
		return c < 0;
	default:	/* NPU_SIM_FLOW_LE */
		return c <= 0;
	}
}

/* Activate the segment starting at @start (once while it waits). */
static void npu_flow_activate(struct npu_flow_run *run, u32 start)
{
	if (test_and_set_bit(start, run->queued))
		return;
	run->queue[(run->qhead + run->qlen) % run->count] = start;
	run->qlen++;
}

/* Run control entry @a at run->pc: the next pc, or an error. */
static int npu_flow_control_step(struct npu_flow_run *run,
				 const struct npu_sim_stream_submit *a,
				 struct npu_flow_step *st)
{
	u64 l, r;
	int ret;

	switch (a->op) {
	case NPU_SIM_OP_BRANCH:
		ret = npu_flow_read(st->rd[0], a->width, a->value, &l);
		r = a->operand;
		if (!ret && st->rd[1])
			ret = npu_flow_read(st->rd[1], a->width, a->value, &r);
		if (ret)
			return ret;
		if (a->width == 4 && !st->rd[1])
			r = a->value ? (u64)(s64)(s32)r : (u32)r;
		run->pc = npu_flow_compare(a->flags, a->value, l, r) ?
			  a->height : run->pc + 1;
		return 0;
	case NPU_SIM_OP_SWITCH:
		ret = npu_flow_read(st->rd[0], a->width, false, &l);
		if (ret)
			return ret;
		if (l >= a->height && !(a->flags & NPU_SIM_SWITCH_CLAMP)) {
			run->pc += 1 + a->height;	/* past the table */
			return 0;
		}
		run->pc += 1 + min_t(u64, l, a->height - 1);
		return 0;
	default:	/* NPU_SIM_OP_JUMP */
		if (a->flags == NPU_SIM_FLOW_END) {
			run->in_seg = false;
		} else if (a->flags == NPU_SIM_FLOW_ACTIVATE) {
			npu_flow_activate(run, a->height);
			run->pc++;
		} else {
			run->pc = a->height;
		}
		return 0;
	}
}

/**
 * npu_flow_exec() - run a slice of a launched program (stream worker)
 * @run: the run
 * @s: its stream
 * @cancel: the op's cancel flag
 *
 * Return: 0 when the run is over, -EINPROGRESS after NPU_SIM_FLOW_SLICE
 * entries, -ECANCELED when cancelled, or the error of the entry that
 * failed (which ends the run).
 */
int npu_flow_exec(struct npu_flow_run *run, struct npu_stream *s,
		  const bool *cancel)
{
	u32 n;
	int ret;

	for (n = 0; n < NPU_SIM_FLOW_SLICE; n++) {
		const struct npu_sim_stream_submit *a;

		if (READ_ONCE(*cancel))
			return -ECANCELED;
		if (!run->in_seg) {
			if (!run->qlen)
				return 0;
			run->pc = run->queue[run->qhead];
			run->qhead = (run->qhead + 1) % run->count;
			run->qlen--;
			clear_bit(run->pc, run->queued);
			run->in_seg = true;
		}
		if (run->pc >= run->count) {
			run->in_seg = false;
			continue;
		}
		a = &run->ent[run->pc];
		if (npu_flow_control(a->op)) {
			ret = npu_flow_control_step(run, a,
						    &run->steps[run->pc]);
		} else {
			ret = run->fo->run(s, run->steps[run->pc].op, cancel);
			run->pc++;
		}
		if (ret)
			return ret;
	}
	return -EINPROGRESS;
}
