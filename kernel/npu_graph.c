// SPDX-License-Identifier: GPL-2.0
/*
 * npu_sim: graphs - lists of stream operations kept by the driver and
 * queued on a stream as a whole (GRAPH_* ioctls, the library's aclmdlRI).
 *
 * A graph holds checked struct npu_sim_stream_submit entries, nothing
 * else: no memory, event or stream references.  GRAPH_LAUNCH hands the
 * entries to the stream engine (npu_stream_submit_batch), which checks and
 * references each entry's objects as STREAM_SUBMIT does and queues all of
 * them or none.  So the queued work of a launch owns what it uses, and a
 * graph may be destroyed, or the memory it names freed, at any time.
 *
 * Graphs live in npu_ctx.graphs (an allocating xarray whose xa_lock is a
 * leaf) and are kref'd: a launch or GRAPH_INFO holds a reference while it
 * reads the entries, so a concurrent GRAPH_DESTROY only drops the table's.
 */
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "npu_sim.h"

struct npu_graph {
	struct kref ref;
	u32 id;
	u32 count;
	u32 flags;			/* GRAPH_CREATE flags */
	u64 bytes;
	atomic64_t launches;
	struct npu_sim_stream_submit *ops;	/* kvmalloc'ed, @count */
};

static void npu_graph_release(struct kref *ref)
{
	struct npu_graph *g = container_of(ref, struct npu_graph, ref);

	kvfree(g->ops);
	kfree(g);
}

static void npu_graph_put(struct npu_graph *g)
{
	kref_put(&g->ref, npu_graph_release);
}

static struct npu_graph *npu_graph_get(struct npu_ctx *ctx, u32 id)
{
	struct npu_graph *g;

	xa_lock(&ctx->graphs);
	g = xa_load(&ctx->graphs, id);
	if (g)
		kref_get(&g->ref);
	xa_unlock(&ctx->graphs);
	return g;
}

/* Device bytes an entry names (GRAPH_CREATE @bytes). */
static u64 npu_graph_op_bytes(const struct npu_sim_stream_submit *a)
{
	u64 rows;

	switch (a->op) {
	case NPU_SIM_OP_COPY:
		if (check_mul_overflow(a->width, a->height, &rows))
			return 0;
		if (a->dir == NPU_SIM_COPY_D2D)
			return rows * 2;
		return rows;
	case NPU_SIM_OP_SET:
		if (check_mul_overflow(a->width, a->height, &rows))
			return 0;
		return rows;
	case NPU_SIM_OP_VALUE_WRITE:
	case NPU_SIM_OP_VALUE_WAIT:
		return sizeof(u64);
	default:
		return 0;
	}
}

void npu_graph_ctx_init(struct npu_ctx *ctx)
{
	xa_init_flags(&ctx->graphs, XA_FLAGS_ALLOC1);
	atomic_set(&ctx->nr_graphs, 0);
}

void npu_graph_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_graph *g;
	unsigned long id;

	xa_for_each(&ctx->graphs, id, g) {
		xa_erase(&ctx->graphs, id);
		npu_graph_put(g);
	}
	xa_destroy(&ctx->graphs);
	atomic_set(&ctx->nr_graphs, 0);
}

int npu_ioctl_graph_create(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_graph_create args;
	struct npu_graph *g;
	u32 i, id;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if ((args.flags & ~NPU_SIM_GRAPH_FLOW) || args.pad || args.id || args.bytes ||
	    args.count > NPU_SIM_MAX_GRAPH_OPS || (args.count && !args.ops))
		return -EINVAL;
	g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);
	if (!g)
		return -ENOMEM;
	kref_init(&g->ref);
	atomic64_set(&g->launches, 0);
	g->count = args.count;
	g->flags = args.flags;
	if (args.count) {
		g->ops = kvmalloc_array(args.count, sizeof(*g->ops),
					GFP_KERNEL_ACCOUNT);
		if (!g->ops) {
			ret = -ENOMEM;
			goto err;
		}
		if (copy_from_user(g->ops, u64_to_user_ptr(args.ops),
				   array_size(args.count, sizeof(*g->ops)))) {
			ret = -EFAULT;
			goto err;
		}
	}
	/* A program's entries: npu_graph_flow.c */
	ret = g->flags ? npu_flow_check(&npu_stream_flow_ops, g->ops, g->count) : 0;
	if (ret)
		goto err;
	for (i = 0; !g->flags && i < g->count; i++) {
		const struct npu_sim_stream_submit *a = &g->ops[i];

		/* A pool free takes its block back once: not a replayable task. */
		if (a->stream || a->seq || a->op == NPU_SIM_OP_GRAPH ||
		    a->op == NPU_SIM_OP_POOL_FREE) {
			ret = -EINVAL;
			goto err;
		}
		ret = npu_stream_submit_check(a);
		if (ret)
			goto err;
		g->bytes += npu_graph_op_bytes(a);
	}
	for (i = 0; g->flags && i < g->count; i++)
		g->bytes += npu_graph_op_bytes(&g->ops[i]);
	if (atomic_inc_return(&ctx->nr_graphs) > NPU_SIM_MAX_GRAPHS) {
		ret = -ENOSPC;
		goto err_count;
	}
	ret = xa_alloc(&ctx->graphs, &id, g, xa_limit_31b, GFP_KERNEL_ACCOUNT);
	if (ret) {
		ret = ret == -EBUSY ? -ENOSPC : ret;
		goto err_count;
	}
	g->id = id;
	args.id = id;
	args.bytes = g->bytes;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		xa_erase(&ctx->graphs, id);
		ret = -EFAULT;
		goto err_count;
	}
	return 0;

err_count:
	atomic_dec(&ctx->nr_graphs);
err:
	npu_graph_put(g);
	return ret;
}

int npu_ioctl_graph_destroy(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_graph_destroy args;
	struct npu_graph *g;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	g = xa_erase(&ctx->graphs, args.id);
	if (!g)
		return -ENOENT;
	atomic_dec(&ctx->nr_graphs);
	npu_graph_put(g);
	return 0;
}

int npu_ioctl_graph_launch(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_graph_launch args;
	struct npu_graph *g;
	u64 seq = 0;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad || args.seq || !args.id || !args.stream)
		return -EINVAL;
	/* As STREAM_SUBMIT: @seq must be writable before anything queues. */
	if (put_user(0ULL, &((struct npu_sim_graph_launch __user *)uarg)->seq))
		return -EFAULT;
	g = npu_graph_get(ctx, args.id);
	if (!g)
		return -ENOENT;
	if (g->flags)
		ret = npu_stream_submit_flow(ctx, args.stream, g->ops, g->count,
					     &seq);
	else
		ret = npu_stream_submit_batch(ctx, args.stream, g->ops,
					      g->count, &seq);
	if (!ret) {
		atomic64_inc(&g->launches);
		if (put_user(seq, &((struct npu_sim_graph_launch __user *)uarg)->seq))
			ret = -EFAULT;
	}
	npu_graph_put(g);
	return ret;
}

int npu_ioctl_graph_info(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_graph_info args;
	struct npu_graph *g;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.pad || args.count || args.flags || args.bytes ||
	    args.launches)
		return -EINVAL;
	g = npu_graph_get(ctx, args.id);
	if (!g)
		return -ENOENT;
	args.count = g->count;
	args.flags = g->flags;
	args.bytes = g->bytes;
	args.launches = atomic64_read(&g->launches);
	npu_graph_put(g);
	if (copy_to_user(uarg, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}

static void npu_graph_show_ctx(struct npu_ctx *ctx, void *data)
{
	struct seq_file *m = data;
	struct npu_graph *g;
	unsigned long id;

	xa_lock(&ctx->graphs);
	xa_for_each(&ctx->graphs, id, g)
		seq_printf(m, "%u %d %u %u %llu %lld\n", g->id, ctx->pid,
			   ctx->ndev->index, g->count, g->bytes,
			   (long long)atomic64_read(&g->launches));
	xa_unlock(&ctx->graphs);
}

void npu_graph_show(struct seq_file *m, struct npu_dev *ndev)
{
	seq_puts(m, "id pid device tasks bytes replays\n");
	npu_dev_walk_ctxs(ndev, false, npu_graph_show_ctx, m);
}
