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
 * A graph may own memory-pool blocks (1.11: POOL_ALLOC / POOL_FREE
 * entries, the "graph memory" section below): they are taken out of their
 * pool at create and given back to the device when the graph leaves the
 * table, never by a launch, so every replay finds them mapped.
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
	struct npu_graph_mem *mem;		/* kvmalloc'ed, @nmem (1.11) */
	u32 nmem;
	u64 mem_bytes;
};

/* A pool block the graph owns (a POOL_ALLOC entry). */
struct npu_graph_mem {
	u64 pool;
	u64 va;
	u64 size;
	bool freed;			/* a POOL_FREE entry named it */
};

static int npu_graph_mem_split(struct npu_graph *g);
static int npu_graph_mem_take(struct npu_ctx *ctx, struct npu_graph *g,
			      u32 from);
static void npu_graph_mem_untake(struct npu_ctx *ctx, struct npu_graph *g,
				 u32 n);
static void npu_graph_mem_put(struct npu_ctx *ctx, struct npu_graph *g);

static void npu_graph_release(struct kref *ref)
{
	struct npu_graph *g = container_of(ref, struct npu_graph, ref);

	kvfree(g->ops);
	kvfree(g->mem);
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
		npu_graph_mem_put(ctx, g);
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
	bool flow;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	flow = args.flags & NPU_SIM_GRAPH_FLOW;
	if ((args.flags & ~(NPU_SIM_GRAPH_TAKE_FROM | NPU_SIM_GRAPH_FLOW)) ||
	    /* a program's entry indexes are its jump targets: nothing moves */
	    ((args.flags & NPU_SIM_GRAPH_TAKE_FROM) &&
	     (args.flags & NPU_SIM_GRAPH_FLOW)) ||
	    !(args.flags & NPU_SIM_GRAPH_TAKE_FROM) != !args.from ||
	    args.id || args.bytes ||
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
	/* A program's entries: npu_graph_flow.c; pool entries: split off */
	if (flow)
		ret = npu_flow_check(&npu_stream_flow_ops, g->ops, g->count);
	else
		ret = npu_graph_mem_split(g);
	if (ret)
		goto err;
	for (i = 0; !flow && i < g->count; i++) {
		const struct npu_sim_stream_submit *a = &g->ops[i];

		/* Pool entries were split off (npu_graph_mem_split). */
		if (a->stream || a->seq || a->op == NPU_SIM_OP_GRAPH) {
			ret = -EINVAL;
			goto err;
		}
		ret = npu_stream_submit_check(a);
		if (ret)
			goto err;
		g->bytes += npu_graph_op_bytes(a);
	}
	for (i = 0; flow && i < g->count; i++)
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
	ret = npu_graph_mem_take(ctx, g, args.from);
	if (!ret && copy_to_user(uarg, &args, sizeof(args))) {
		ret = -EFAULT;
		/* Nobody learnt of it: the blocks are their allocator's again. */
		npu_graph_mem_untake(ctx, g, g->nmem);
	}
	if (ret) {
		xa_erase(&ctx->graphs, id);
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
	npu_graph_mem_put(ctx, g);
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
	if (args.flags || args.seq || !args.id || !args.stream)
		return -EINVAL;
	/* As STREAM_SUBMIT: @seq must be writable before anything queues. */
	if (put_user(0ULL, &((struct npu_sim_graph_launch __user *)uarg)->seq))
		return -EFAULT;
	g = npu_graph_get(ctx, args.id);
	if (!g)
		return -ENOENT;
	if (g->flags & NPU_SIM_GRAPH_FLOW)
		ret = npu_stream_submit_flow(ctx, args.stream, g->ops, g->count,
					     args.tag, &seq);
	else
		ret = npu_stream_submit_batch(ctx, args.stream, g->ops,
					      g->count, args.tag, &seq);
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
		seq_printf(m, "%u %d %u %u %llu %lld %llu\n", g->id, ctx->pid,
			   ctx->ndev->index, g->count, g->bytes,
			   (long long)atomic64_read(&g->launches),
			   g->mem_bytes);
	xa_unlock(&ctx->graphs);
}

void npu_graph_show(struct seq_file *m, struct npu_dev *ndev)
{
	seq_puts(m, "id pid device tasks bytes replays pool_bytes\n");
	npu_dev_walk_ctxs(ndev, false, npu_graph_show_ctx, m);
}

/* ---- graph memory and abort (1.11) ---------------------------------------- */

/*
 * Take the POOL_ALLOC / POOL_FREE entries out of @g->ops into @g->mem:
 * they queue nothing.  -EINVAL for a malformed one, a POOL_FREE that names
 * no earlier POOL_ALLOC block of the graph, or names it twice.
 */
static int npu_graph_mem_split(struct npu_graph *g)
{
	struct npu_sim_stream_submit *a;
	u32 i, j, n = 0, nmem = 0;

	for (i = 0; i < g->count; i++)
		nmem += g->ops[i].op == NPU_SIM_OP_POOL_ALLOC;
	if (nmem) {
		g->mem = kvcalloc(nmem, sizeof(*g->mem), GFP_KERNEL_ACCOUNT);
		if (!g->mem)
			return -ENOMEM;
	}
	for (i = 0; i < g->count; i++) {
		a = &g->ops[i];
		if (a->op == NPU_SIM_OP_POOL_ALLOC) {
			if (a->stream || a->seq || a->dpitch || a->src ||
			    a->spitch || a->height || a->dir || a->value ||
			    a->event || a->flags || a->location ||
			    a->location_id || !a->dst || !a->width ||
			    !a->operand)
				return -EINVAL;
			for (j = 0; j < g->nmem; j++)
				if (g->mem[j].va == a->dst)
					return -EINVAL;
			g->mem[g->nmem++] = (struct npu_graph_mem){
				.pool = a->operand, .va = a->dst,
				.size = a->width };
			g->mem_bytes += a->width;
			continue;
		}
		if (a->op == NPU_SIM_OP_POOL_FREE) {
			if (a->stream || a->seq || a->dpitch || a->src ||
			    a->spitch || a->width || a->height || a->dir ||
			    a->value || a->event || a->flags || a->operand ||
			    a->location || a->location_id)
				return -EINVAL;
			for (j = 0; j < g->nmem; j++)
				if (g->mem[j].va == a->dst)
					break;
			if (j == g->nmem || g->mem[j].freed)
				return -EINVAL;
			g->mem[j].freed = true;
			continue;
		}
		g->ops[n++] = *a;
	}
	g->count = n;
	return 0;
}

/*
 * Take @g's blocks out of their pools (or from graph @from, 0: none), all
 * or none: 0 or -EINVAL.
 */
static int npu_graph_mem_take(struct npu_ctx *ctx, struct npu_graph *g,
			      u32 from)
{
	u32 i;
	int ret;

	for (i = 0; i < g->nmem; i++) {
		ret = npu_mempool_graph_take(ctx, g->mem[i].pool, g->mem[i].va,
					     g->mem[i].size, g->id, from);
		if (ret) {
			npu_graph_mem_untake(ctx, g, i);
			return ret;
		}
	}
	return 0;
}

/* Give the first @n taken blocks of @g back to their allocator. */
static void npu_graph_mem_untake(struct npu_ctx *ctx, struct npu_graph *g,
				 u32 n)
{
	while (n--)
		npu_mempool_graph_put(ctx, g->mem[n].pool, g->mem[n].va, g->id,
				      false);
}

/* @g left the table: its blocks go back to the device. */
static void npu_graph_mem_put(struct npu_ctx *ctx, struct npu_graph *g)
{
	u32 i;

	for (i = 0; i < g->nmem; i++)
		npu_mempool_graph_put(ctx, g->mem[i].pool, g->mem[i].va, g->id,
				      true);
	g->nmem = 0;
}

int npu_ioctl_graph_abort(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_graph_abort args;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (!args.tag || args.flags || args.dropped)
		return -EINVAL;
	args.dropped = npu_stream_cancel_tag(ctx, args.tag);
	if (copy_to_user(uarg, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}
