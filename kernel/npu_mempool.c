// SPDX-License-Identifier: GPL-2.0
/*
 * Stream-ordered memory pools (aclrtMemPoolCreate ... aclrtMemPoolTrimTo,
 * aclrtMemPoolMallocAsync, aclrtMemPoolFreeAsync): the MEMPOOL_* ioctls and
 * the state OP_POOL_FREE works on.
 *
 * A pool of a context holds blocks, each an ordinary linear allocation of
 * the context (an NPU_MAP_LINEAR map, charged like MEM_ALLOC), found here
 * by its address.  A block is in use, pending (an OP_POOL_FREE of it is
 * queued on @stream) or free (that op ran).  A block freed on stream S may
 * be given out again at once for S: the stream runs in order, so the new
 * user's work comes after the free.  Another stream gets it only once the
 * free has run, and only when the pool allows opportunistic or internal
 * reuse (the runtime's default allows neither).  Each free bumps the
 * block's @gen, so the op of an earlier free finds nothing to do once the
 * block was given out again.
 *
 * Everything is under npu_ctx.pool_lock, which is taken outside
 * npu_ctx.lock (npu_map_publish and npu_map_unlink_at take that).
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

enum npu_block_state {
	NPU_BLOCK_USED,
	NPU_BLOCK_PENDING,
	NPU_BLOCK_FREE,
	NPU_BLOCK_GRAPH,		/* a graph's until it dies (1.11) */
};

struct npu_pool_block {
	struct list_head node;		/* npu_mempool.blocks */
	u64 va;
	u64 size;
	enum npu_block_state state;
	u32 stream;			/* allocating, then freeing stream */
	u64 gen;			/* bumped by each free */
	u32 graph;			/* GRAPH: the owning graph's id */
	u32 from;			/* and the one it took it from, or 0 */
};

struct npu_mempool {
	struct list_head node;		/* npu_ctx.pools */
	u64 id;
	u64 size;			/* bytes it may reserve */
	u64 threshold;			/* release threshold, bytes */
	u32 reuse[3];			/* REUSE_EVENT .. REUSE_INTERNAL */
	u64 reserved, reserved_high;
	u64 used, used_high;
	struct list_head blocks;	/* npu_pool_block.node */
};

void npu_mempool_ctx_init(struct npu_ctx *ctx)
{
	mutex_init(&ctx->pool_lock);
	INIT_LIST_HEAD(&ctx->pools);
}

static struct npu_mempool *npu_pool_find(struct npu_ctx *ctx, u64 id)
{
	struct npu_mempool *p;

	list_for_each_entry(p, &ctx->pools, node)
		if (p->id == id)
			return p;
	return NULL;
}

/* The block of any pool containing @va; *@pool set to its pool. */
static struct npu_pool_block *npu_block_find(struct npu_ctx *ctx, u64 va,
					     struct npu_mempool **pool)
{
	struct npu_pool_block *b;
	struct npu_mempool *p;

	list_for_each_entry(p, &ctx->pools, node)
		list_for_each_entry(b, &p->blocks, node)
			if (va >= b->va && va - b->va < b->size) {
				*pool = p;
				return b;
			}
	return NULL;
}

/* Give block @b back to the device and forget it.  pool_lock held. */
static void npu_block_release(struct npu_ctx *ctx, struct npu_mempool *p,
			      struct npu_pool_block *b)
{
	struct npu_map *map;

	map = npu_map_unlink_at(ctx, b->va, BIT(NPU_MAP_LINEAR), false);
	if (map)
		npu_map_put(map);
	p->reserved -= b->size;
	if (b->state == NPU_BLOCK_USED || b->state == NPU_BLOCK_GRAPH)
		p->used -= b->size;
	list_del(&b->node);
	kfree(b);
}

/* Block @va of pool @pool, or NULL; *@pp set to the pool. */
static struct npu_pool_block *npu_pool_block_at(struct npu_ctx *ctx, u64 pool,
						u64 va, struct npu_mempool **pp)
{
	struct npu_pool_block *b;

	*pp = npu_pool_find(ctx, pool);
	if (*pp)
		list_for_each_entry(b, &(*pp)->blocks, node)
			if (b->va == va)
				return b;
	return NULL;
}

static void npu_pool_free(struct npu_ctx *ctx, struct npu_mempool *p)
{
	struct npu_pool_block *b, *tmp;

	list_for_each_entry_safe(b, tmp, &p->blocks, node)
		npu_block_release(ctx, p, b);
	list_del(&p->node);
	kfree(p);
}

/*
 * Release free blocks, smallest first, each only if the reserved bytes
 * stay at or above @keep.  pool_lock held.
 */
static void npu_pool_trim(struct npu_ctx *ctx, struct npu_mempool *p, u64 keep)
{
	struct npu_pool_block *b, *best;

	while (p->reserved > keep) {
		best = NULL;
		list_for_each_entry(b, &p->blocks, node) {
			if (b->state != NPU_BLOCK_FREE ||
			    p->reserved - b->size < keep)
				continue;
			if (!best || b->size < best->size ||
			    (b->size == best->size && b->va < best->va))
				best = b;
		}
		if (!best)
			break;
		npu_block_release(ctx, p, best);
	}
}

void npu_mempool_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_mempool *p, *tmp;

	mutex_lock(&ctx->pool_lock);
	list_for_each_entry_safe(p, tmp, &ctx->pools, node)
		npu_pool_free(ctx, p);
	mutex_unlock(&ctx->pool_lock);
}

int npu_ioctl_mempool_create(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_mempool_create a;
	u64 cap = ctx->ndev->capacity;
	struct npu_mempool *p;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	if (a.id || a.size)
		return -EINVAL;
	if (a.max_size > cap)
		return -EINVAL;
	if (!a.max_size)
		a.size = round_down(cap, NPU_SIM_MEMPOOL_BLOCK);
	else
		a.size = round_up(a.max_size, NPU_SIM_MEMPOOL_BLOCK);
	if (a.size > cap)
		return -EINVAL;

	p = kzalloc(sizeof(*p), GFP_KERNEL_ACCOUNT);
	if (!p)
		return -ENOMEM;
	INIT_LIST_HEAD(&p->blocks);
	p->size = a.size;
	p->id = atomic64_inc_return(&ctx->ndev->next_id);
	a.id = p->id;
	/* Out first: nobody else knows the pool before it is added. */
	if (copy_to_user(uarg, &a, sizeof(a))) {
		kfree(p);
		return -EFAULT;
	}
	mutex_lock(&ctx->pool_lock);
	list_add_tail(&p->node, &ctx->pools);
	mutex_unlock(&ctx->pool_lock);
	return 0;
}

int npu_ioctl_mempool_destroy(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_mempool_destroy a;
	struct npu_mempool *p;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	mutex_lock(&ctx->pool_lock);
	p = npu_pool_find(ctx, a.id);
	if (p)
		npu_pool_free(ctx, p);
	mutex_unlock(&ctx->pool_lock);
	return p ? 0 : -ENOENT;
}

static int npu_pool_get(struct npu_mempool *p, u32 attr, u64 *v)
{
	switch (attr) {
	case NPU_SIM_MEMPOOL_REUSE_EVENT:
	case NPU_SIM_MEMPOOL_REUSE_OPPORTUNISTIC:
	case NPU_SIM_MEMPOOL_REUSE_INTERNAL:
		*v = p->reuse[attr - NPU_SIM_MEMPOOL_REUSE_EVENT];
		return 0;
	case NPU_SIM_MEMPOOL_RELEASE_THRESHOLD:
		*v = p->threshold;
		return 0;
	case NPU_SIM_MEMPOOL_RESERVED_CURRENT:
		*v = p->reserved;
		return 0;
	case NPU_SIM_MEMPOOL_RESERVED_HIGH:
		*v = p->reserved_high;
		return 0;
	case NPU_SIM_MEMPOOL_USED_CURRENT:
		*v = p->used;
		return 0;
	case NPU_SIM_MEMPOOL_USED_HIGH:
		*v = p->used_high;
		return 0;
	}
	return -EINVAL;
}

static int npu_pool_set(struct npu_mempool *p, u32 attr, u64 v)
{
	switch (attr) {
	case NPU_SIM_MEMPOOL_REUSE_EVENT:
	case NPU_SIM_MEMPOOL_REUSE_OPPORTUNISTIC:
	case NPU_SIM_MEMPOOL_REUSE_INTERNAL:
		p->reuse[attr - NPU_SIM_MEMPOOL_REUSE_EVENT] = !!v;
		return 0;
	case NPU_SIM_MEMPOOL_RELEASE_THRESHOLD:
		if (v > p->size)
			return -EINVAL;
		p->threshold = v;
		return 0;
	case NPU_SIM_MEMPOOL_RESERVED_CURRENT:
	case NPU_SIM_MEMPOOL_USED_CURRENT:
		return -EPERM;
	case NPU_SIM_MEMPOOL_RESERVED_HIGH:
		if (v)
			return -EINVAL;
		p->reserved_high = 0;
		return 0;
	case NPU_SIM_MEMPOOL_USED_HIGH:
		if (v)
			return -EINVAL;
		p->used_high = 0;
		return 0;
	}
	return -EINVAL;
}

int npu_ioctl_mempool_ctl(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_mempool_ctl a;
	struct npu_mempool *p;
	int ret = 0;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	if (a.op < NPU_SIM_MEMPOOL_GET_ATTR || a.op > NPU_SIM_MEMPOOL_TRIM ||
	    (a.op == NPU_SIM_MEMPOOL_GET_ATTR && a.value) ||
	    (a.op == NPU_SIM_MEMPOOL_TRIM && a.attr))
		return -EINVAL;
	mutex_lock(&ctx->pool_lock);
	p = npu_pool_find(ctx, a.id);
	if (!p)
		ret = -ENOENT;
	else if (a.op == NPU_SIM_MEMPOOL_GET_ATTR)
		ret = npu_pool_get(p, a.attr, &a.value);
	else if (a.op == NPU_SIM_MEMPOOL_SET_ATTR)
		ret = npu_pool_set(p, a.attr, a.value);
	else if (a.value > p->size ||
		 (a.value < p->reserved && a.value < p->used))
		ret = -EINVAL;
	else
		npu_pool_trim(ctx, p, a.value);
	mutex_unlock(&ctx->pool_lock);
	if (!ret && a.op == NPU_SIM_MEMPOOL_GET_ATTR &&
	    copy_to_user(uarg, &a, sizeof(a)))
		ret = -EFAULT;
	return ret;
}

/*
 * A block from the pool for @stream: the smallest fit freed on @stream
 * (its free may not have run: the stream runs in order), else, when the
 * pool allows reuse across streams, the smallest fit whose free has run;
 * ties to the lower address.  NULL: none.
 */
static struct npu_pool_block *npu_pool_reuse(struct npu_mempool *p,
					     u32 stream, u64 size)
{
	bool others = p->reuse[NPU_SIM_MEMPOOL_REUSE_OPPORTUNISTIC - 1] ||
		      p->reuse[NPU_SIM_MEMPOOL_REUSE_INTERNAL - 1];
	struct npu_pool_block *b, *best = NULL;
	int pass;

	for (pass = 0; pass < 2 && !best; pass++) {
		list_for_each_entry(b, &p->blocks, node) {
			if (b->state == NPU_BLOCK_USED || b->size < size)
				continue;
			if (pass == 0 ? b->stream != stream :
			    !others || b->state != NPU_BLOCK_FREE)
				continue;
			if (!best || b->size < best->size ||
			    (b->size == best->size && b->va < best->va))
				best = b;
		}
	}
	return best;
}

/* A new block of @size bytes, published in @ctx.  pool_lock held. */
static int npu_block_new(struct npu_ctx *ctx, u64 size,
			 struct npu_pool_block **out)
{
	struct npu_dev *ndev = ctx->ndev;
	struct npu_pool_block *b;
	struct npu_phys *phys;
	struct npu_map *map;
	int ret;

	b = kzalloc(sizeof(*b), GFP_KERNEL_ACCOUNT);
	if (!b)
		return -ENOMEM;
	ret = npu_phys_create(ndev, ctx->proc, NPU_SIM_PAGE_HUGE_2M, size, 0,
			      &phys);
	if (ret == -ENOSPC) {
		ret = npu_phys_create(ndev, ctx->proc, NPU_SIM_PAGE_NORMAL,
				      size, 0, &phys);
		if (!ret)
			npu_stat_inc(ndev, NPU_STAT_FALLBACK_NORMAL);
	}
	ret = npu_phys_errno(ndev, ret);
	if (ret)
		goto err;
	map = npu_map_create(NPU_MAP_LINEAR, NULL, phys, phys->size, size);
	if (!map) {
		npu_phys_put(phys);
		ret = -ENOMEM;
		goto err;
	}
	map->footprint = size;
	map->u.linear.api = NPU_SIM_API_MALLOC;
	ret = npu_map_publish(ctx, map, 1ULL << phys->shift);
	if (!ret)
		b->va = map->va;
	npu_map_put(map);	/* the context holds it when published */
	if (ret)
		goto err;
	b->size = size;
	*out = b;
	return 0;
err:
	kfree(b);
	return ret;
}

int npu_ioctl_mempool_alloc(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_mempool_alloc a;
	struct npu_pool_block *b;
	struct npu_mempool *p;
	int ret = 0;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	if (a.pad || a.va || a.block_size || !a.size ||
	    !IS_ALIGNED(a.size, NPU_SIM_MEMPOOL_BLOCK))
		return -EINVAL;
	if (!xa_load(&ctx->streams, a.stream))
		return -ENOENT;

	mutex_lock(&ctx->pool_lock);
	p = npu_pool_find(ctx, a.id);
	if (!p) {
		ret = -ENOENT;
		goto out;
	}
	b = npu_pool_reuse(p, a.stream, a.size);
	if (!b) {
		if (a.size > p->size - p->reserved) {
			ret = -ENOSPC;
			goto out;
		}
		ret = npu_block_new(ctx, a.size, &b);
		if (ret)
			goto out;
		list_add_tail(&b->node, &p->blocks);
		p->reserved += b->size;
		p->reserved_high = max(p->reserved_high, p->reserved);
	}
	b->state = NPU_BLOCK_USED;
	b->stream = a.stream;
	p->used += b->size;
	p->used_high = max(p->used_high, p->used);
	a.va = b->va;
	a.block_size = b->size;
out:
	mutex_unlock(&ctx->pool_lock);
	if (!ret && copy_to_user(uarg, &a, sizeof(a))) {
		/* Nobody learnt of the block: it goes back to the pool. */
		npu_mempool_free_done(ctx, a.id, a.va, U64_MAX);
		ret = -EFAULT;
	}
	return ret;
}

/*
 * MEM_FREE of @va: 0 when it is no pool block (free it as usual), 1 when
 * it was a block in use (now out of its pool: free it), -ENOENT when it
 * is a pending or free block, or not the start of one.
 */
int npu_mempool_mem_free(struct npu_ctx *ctx, u64 va)
{
	struct npu_pool_block *b;
	struct npu_mempool *p;
	int ret = 0;

	if (list_empty_careful(&ctx->pools))
		return 0;
	mutex_lock(&ctx->pool_lock);
	b = npu_block_find(ctx, va, &p);
	if (b && (b->va != va || b->state != NPU_BLOCK_USED)) {
		ret = -ENOENT;
	} else if (b) {
		p->reserved -= b->size;
		p->used -= b->size;
		list_del(&b->node);
		kfree(b);
		ret = 1;
	}
	mutex_unlock(&ctx->pool_lock);
	return ret;
}

/*
 * STREAM_SUBMIT of OP_POOL_FREE: mark the block at @va pending on @stream,
 * *@pool and *@gen name the free for the op; *@pool 0: @va is no pool
 * block (a deferred plain free).  -EBUSY inside a block but not the start
 * of one in use.
 */
int npu_mempool_free_prepare(struct npu_ctx *ctx, u32 stream, u64 va,
			     u64 *pool, u64 *gen)
{
	struct npu_pool_block *b;
	struct npu_mempool *p;
	int ret = 0;

	*pool = 0;
	*gen = 0;
	mutex_lock(&ctx->pool_lock);
	b = npu_block_find(ctx, va, &p);
	if (b && (b->va != va || b->state != NPU_BLOCK_USED)) {
		ret = -EBUSY;
	} else if (b) {
		b->state = NPU_BLOCK_PENDING;
		b->stream = stream;
		*gen = ++b->gen;
		*pool = p->id;
		p->used -= b->size;
	}
	mutex_unlock(&ctx->pool_lock);
	return ret;
}

/* The op of a prepared free was not queued: the block is in use again. */
void npu_mempool_free_undo(struct npu_ctx *ctx, u64 pool, u64 va, u64 gen)
{
	struct npu_pool_block *b;
	struct npu_mempool *p;

	mutex_lock(&ctx->pool_lock);
	b = npu_pool_block_at(ctx, pool, va, &p);
	if (b && b->gen == gen && b->state == NPU_BLOCK_PENDING) {
		b->state = NPU_BLOCK_USED;
		p->used += b->size;
	}
	mutex_unlock(&ctx->pool_lock);
}

/*
 * The stream reached (or cancelled) the free @gen of the block at @va of
 * pool @pool: the block is free for every stream the pool allows.  @gen
 * U64_MAX: a block in use that nobody learnt of goes back.
 */
void npu_mempool_free_done(struct npu_ctx *ctx, u64 pool, u64 va, u64 gen)
{
	struct npu_pool_block *b;
	struct npu_mempool *p;

	mutex_lock(&ctx->pool_lock);
	b = npu_pool_block_at(ctx, pool, va, &p);
	if (b && gen == U64_MAX && b->state == NPU_BLOCK_USED) {
		b->gen++;
		b->state = NPU_BLOCK_FREE;
		p->used -= b->size;
	} else if (b && b->gen == gen && b->state == NPU_BLOCK_PENDING) {
		b->state = NPU_BLOCK_FREE;
	}
	mutex_unlock(&ctx->pool_lock);
}

/*
 * OP_POOL_FREE of an address that was no pool block at submit: free the
 * linear allocation starting at @va, unless it is a pool block by now.
 * Always 0: like the runtime's host function, a failure is not the
 * stream's.
 */
int npu_mempool_plain_free(struct npu_ctx *ctx, u64 va)
{
	struct npu_pool_block *b;
	struct npu_mempool *p;
	struct npu_map *map = NULL;

	mutex_lock(&ctx->pool_lock);
	b = npu_block_find(ctx, va, &p);
	if (!b)
		map = npu_map_unlink_at(ctx, va, BIT(NPU_MAP_LINEAR), false);
	mutex_unlock(&ctx->pool_lock);
	if (map)
		npu_map_put(map);
	return 0;
}

/*
 * Graph memory (1.11): GRAPH_CREATE takes the in-use block @va of @size
 * bytes of pool @pool (or one graph @from owns, @from > 0) for graph
 * @graph, so that neither MEM_FREE, a stream's POOL_FREE nor TRIM touches
 * it.  0, or -EINVAL when there is no such block.  An untake (the create
 * failed) gives a block back to its allocator: @from's, or in use again.
 */
int npu_mempool_graph_take(struct npu_ctx *ctx, u64 pool, u64 va, u64 size,
			   u32 graph, u32 from)
{
	struct npu_pool_block *b;
	struct npu_mempool *p;
	int ret = -EINVAL;

	mutex_lock(&ctx->pool_lock);
	b = npu_pool_block_at(ctx, pool, va, &p);
	if (b && b->size == size && (b->state == NPU_BLOCK_USED ||
	    (from && b->state == NPU_BLOCK_GRAPH && b->graph == from))) {
		b->from = b->state == NPU_BLOCK_GRAPH ? b->graph : 0;
		b->state = NPU_BLOCK_GRAPH;
		b->graph = graph;
		ret = 0;
	}
	mutex_unlock(&ctx->pool_lock);
	return ret;
}

/*
 * The graph @graph that took block @va of pool @pool dies: the block goes
 * back to the device as MEM_FREE would give it (queued work keeps its own
 * reference to the pages).  @release false: its create failed, the block
 * is in use by its allocator again.  A block freed with its pool since is
 * gone already.
 */
void npu_mempool_graph_put(struct npu_ctx *ctx, u64 pool, u64 va, u32 graph,
			   bool release)
{
	struct npu_pool_block *b;
	struct npu_mempool *p;

	mutex_lock(&ctx->pool_lock);
	b = npu_pool_block_at(ctx, pool, va, &p);
	if (b && b->state == NPU_BLOCK_GRAPH && b->graph == graph) {
		if (release)
			npu_block_release(ctx, p, b);
		else if (b->from)
			b->graph = b->from;
		else
			b->state = NPU_BLOCK_USED;
	}
	mutex_unlock(&ctx->pool_lock);
}

/* After a synchronize: every pool gives back what its threshold lets go. */
void npu_mempool_sync_trim(struct npu_ctx *ctx)
{
	struct npu_mempool *p;

	if (list_empty_careful(&ctx->pools))
		return;
	mutex_lock(&ctx->pool_lock);
	list_for_each_entry(p, &ctx->pools, node)
		npu_pool_trim(ctx, p, p->threshold);
	mutex_unlock(&ctx->pool_lock);
}

static void npu_mempool_show_ctx(struct npu_ctx *ctx, void *data)
{
	struct seq_file *m = data;
	struct npu_pool_block *b;
	struct npu_mempool *p;
	u32 n[4];

	mutex_lock(&ctx->pool_lock);
	list_for_each_entry(p, &ctx->pools, node) {
		memset(n, 0, sizeof(n));
		list_for_each_entry(b, &p->blocks, node)
			n[b->state]++;
		n[NPU_BLOCK_USED] += n[NPU_BLOCK_GRAPH];	/* a graph uses it */
		seq_printf(m, "%llu %d %u %llu %llu %llu %llu %llu %llu %u%u%u %u %u %u\n",
			   p->id, ctx->pid, ctx->ndev->index, p->size,
			   p->reserved, p->reserved_high, p->used,
			   p->used_high, p->threshold, p->reuse[0],
			   p->reuse[1], p->reuse[2], n[NPU_BLOCK_FREE],
			   n[NPU_BLOCK_PENDING], n[NPU_BLOCK_USED]);
	}
	mutex_unlock(&ctx->pool_lock);
}

void npu_mempool_show(struct seq_file *m, struct npu_dev *ndev)
{
	seq_puts(m, "pool owner_pid device size reserved reserved_high used used_high threshold reuse_eoi blocks_free blocks_pending blocks_used\n");
	npu_dev_walk_ctxs(ndev, false, npu_mempool_show_ctx, m);
}
