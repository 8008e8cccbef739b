// SPDX-License-Identifier: GPL-2.0
/*
 * The npu_map object: one constructor for every role, publication in the
 * context (VA, list, counters), unlinking and release.  Role-specific state
 * lives in npu_map.u and is freed through npu_map_ops.destroy.
 */
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"
#include "npu_trace.h"

/*
 * A new map of @role over @phys (whose reference it takes over on success;
 * NULL for a reservation), @len device-accessible bytes, @size as asked.
 * NULL when out of memory: the caller still owns @phys then.
 */
struct npu_map *npu_map_create(enum npu_map_role role,
			       const struct npu_map_ops *ops,
			       struct npu_phys *phys, u64 len, u64 size)
{
	struct npu_map *map = kmalloc(sizeof(*map), GFP_KERNEL_ACCOUNT);

	if (map)
		npu_map_init(map, role, ops, phys, len, size);
	return map;
}

/*
 * (Re)make @map as npu_map_create() does, in storage the caller has: a
 * fresh object, or one kept for reuse that nobody else holds any more.
 */
void npu_map_init(struct npu_map *map, enum npu_map_role role,
		  const struct npu_map_ops *ops, struct npu_phys *phys,
		  u64 len, u64 size)
{
	/* Field by field, not a memset of it all: each is set once. */
	kref_init(&map->ref);
	map->role = role;
	map->ops = ops;
	map->phys = phys;
	map->phys_off = 0;
	map->va = 0;
	map->len = len;
	map->flags = 0;
	map->id = 0;
	map->pid = task_tgid_nr(current);
	map->size = size;
	map->footprint = len;
	INIT_LIST_HEAD(&map->node);
	atomic_set(&map->nr_queued, 0);
	map->site = 0;
	memset(&map->u, 0, sizeof(map->u));
}
/* A new field of struct npu_map is set in npu_map_init() too. */
static_assert(sizeof(struct npu_map) == 152);

/*
 * Keep just-unlinked @map in *@spare (ctx->lock held for write) if nobody
 * else holds it (npu_map_held()).
 * Its phys reference moves to *@phys, for the caller to put after
 * unlocking; @phys NULL: the map only borrowed its phys (a VMM mapping's
 * is its handle's), nothing to put.  False (someone holds it, or a spare
 * is kept already): the caller puts @map as usual.
 */
bool npu_map_keep_spare(struct npu_map **spare, struct npu_map *map,
			struct npu_phys **phys)
{
	if (npu_map_held(map) || READ_ONCE(*spare))
		return false;
	if (phys)
		*phys = map->phys;
	map->phys = NULL;
	WRITE_ONCE(*spare, map);
	return true;
}

static void npu_map_release(struct kref *ref)
{
	struct npu_map *map = container_of(ref, struct npu_map, ref);

	if (map->ops && map->ops->destroy)
		map->ops->destroy(map);
	if (map->phys)
		npu_phys_put(map->phys);
	kfree(map);
}

void npu_map_put(struct npu_map *map)
{
	kref_put(&map->ref, npu_map_release);
}

/* Allocations of this context (the others are mappings of its memory). */
static bool npu_map_is_alloc(const struct npu_map *map)
{
	return map->role == NPU_MAP_LINEAR || map->role == NPU_MAP_MANAGED;
}

/*
 * Only linear memory counts as the context's device memory; a sub-page
 * allocation's page is counted by npu_mem_small.c, once.
 */
static u64 npu_map_ctx_bytes(const struct npu_map *map)
{
	return map->role == NPU_MAP_LINEAR && !map->u.linear.small ?
	       map->len : 0;
}

/* Maps counted in npu_ctx.nr_maps: allocations but slots (nr_slots). */
static bool npu_map_counted(const struct npu_map *map)
{
	return npu_map_is_alloc(map) && !npu_map_is_slot(map);
}

/*
 * Give @map (LINEAR, MANAGED or IMPORTED) a VA aligned to @align and an
 * id, and add it to the context.  On success the context holds one
 * reference and the caller keeps its own (another thread may free the map
 * as soon as ctx->lock is dropped).  -ENXIO window not mapped, -ENOMEM
 * window full (counted as fail_nomem).
 */
int npu_map_publish(struct npu_ctx *ctx, struct npu_map *map, u64 align)
{
	int ret;

	down_write(&ctx->lock);
	if (ctx->win_state != NPU_WIN_MAPPED) {
		up_write(&ctx->lock);
		return -ENXIO;
	}
	ret = npu_va_insert(ctx, map, align);
	if (ret) {
		up_write(&ctx->lock);
		npu_stat_inc(ctx->ndev, NPU_STAT_FAIL_NOMEM);
		return -ENOMEM;
	}
	npu_map_link(ctx, map);
	up_write(&ctx->lock);
	return 0;
}

/*
 * The part of publication after @map got its VA in the tree (ctx->lock):
 * an id, the context's lists and counters, and the context's reference.
 */
void npu_map_link(struct npu_ctx *ctx, struct npu_map *map)
{
	npu_map_link_owned(ctx, map);
	npu_map_get(map);
}

/*
 * npu_map_link() whose caller hands its own reference to the context:
 * @map may be freed as soon as ctx->lock is dropped, so the caller reads
 * what it replies under the lock, and on a failed reply undoes it with
 * npu_map_reply_at_failed().
 */
void npu_map_link_owned(struct npu_ctx *ctx, struct npu_map *map)
{
	u64 bytes = npu_map_ctx_bytes(map);

	lockdep_assert_held_write(&ctx->lock);
	npu_map_link_to(ctx, map, npu_map_is_alloc(map) ? &ctx->maps :
							  &ctx->imports);
	if (npu_map_counted(map))
		WRITE_ONCE(ctx->nr_maps, ctx->nr_maps + 1);
	if (bytes)
		atomic64_add(bytes, &ctx->used);
}

/*
 * The id, list entry (on @list), allocation count and trace of a map being
 * published: npu_map_link_owned()'s part that a slot, listed on its
 * shard, shares (npu_mem_small.c).
 */
void npu_map_link_to(struct npu_ctx *ctx, struct npu_map *map,
		     struct list_head *list)
{
	struct npu_dev *ndev = ctx->ndev;

	map->id = atomic64_inc_return(&ndev->next_id);
	list_add_tail(&map->node, list);
	if (npu_map_is_alloc(map))
		npu_dev_count_allocs(ndev, 1);
	trace_npu_sim_map(ndev->index, ctx->pid, map->role, map->id, map->va,
			  map->len);
}

/*
 * Take published @map out of its context (VA tree, host PTEs, list,
 * counters); the caller then puts the context's reference.  ctx->lock is
 * held for write, or, for a slot whose page stays, shared with its shard
 * lock (npu_small_free()).
 */
void npu_map_unlink(struct npu_ctx *ctx, struct npu_map *map)
{
	u64 bytes = npu_map_ctx_bytes(map);

	lockdep_assert_held(&ctx->lock);
	trace_npu_sim_unmap(ctx->ndev->index, ctx->pid, map->role, map->id,
			    map->va, map->len);
	if (map->ops && map->ops->unlink)
		map->ops->unlink(ctx, map);
	else
		npu_va_erase(ctx, map);
	/* A slot is never in host page tables (npu_window.c). */
	if (!npu_map_is_slot(map))
		npu_window_zap(ctx, map->va, map->len);
	list_del_init(&map->node);
	if (npu_map_counted(map))
		WRITE_ONCE(ctx->nr_maps, ctx->nr_maps - 1);
	if (npu_map_is_alloc(map))
		npu_dev_count_allocs(ctx->ndev, -1);
	if (bytes)
		atomic64_sub(bytes, &ctx->used);
}

/*
 * The map at @va whose role is in @roles (a mask of BIT(role)), starting
 * exactly at @va, or (@in_first_page) with @va in its first page; NULL if
 * there is none (ctx->lock held).
 */
struct npu_map *npu_map_find_at(struct npu_ctx *ctx, unsigned long va,
				unsigned long roles, bool in_first_page)
{
	struct npu_map *map = npu_va_lookup(ctx, va);

	if (map && (roles & BIT(map->role)) &&
	    (in_first_page ? va - map->va < PAGE_SIZE : va == map->va))
		return map;
	return NULL;
}

/*
 * Unlink the map npu_map_find_at() finds.  Returns it with the context's
 * reference, for the caller to put, or NULL.
 */
struct npu_map *npu_map_unlink_at(struct npu_ctx *ctx, unsigned long va,
				  unsigned long roles, bool in_first_page)
{
	struct npu_map *map;

	down_write(&ctx->lock);
	map = npu_map_find_at(ctx, va, roles, in_first_page);
	if (map)
		npu_map_unlink(ctx, map);
	up_write(&ctx->lock);
	return map;
}

/*
 * Unlink and put every map of @list, one of @ctx's published lists (maps,
 * imports), one at a time under ctx->lock: other threads of the process
 * may still be in ioctls on the file while its window closes.
 */
void npu_map_unlink_all(struct npu_ctx *ctx, struct list_head *list)
{
	struct npu_map *map;

	for (;;) {
		down_write(&ctx->lock);
		map = list_first_entry_or_null(list, struct npu_map, node);
		if (map)
			npu_map_unlink(ctx, map);
		up_write(&ctx->lock);
		if (!map)
			return;
		npu_map_put(map);
		cond_resched();
	}
}

/* Put every map of @list (taken off a context at release). */
void npu_map_put_list(struct list_head *list)
{
	struct npu_map *map, *tmp;

	list_for_each_entry_safe(map, tmp, list, node) {
		list_del_init(&map->node);
		npu_map_put(map);
		cond_resched();
	}
}

/*
 * Copy the result of the ioctl that published @map out to @uarg and drop
 * the caller's reference.  The rule for a failed copy-out: nobody learnt
 * of @map, so its publication is undone unless another thread already
 * freed it, and the ioctl fails with -EFAULT.
 */
int npu_map_reply(struct npu_ctx *ctx, struct npu_map *map,
		  void __user *uarg, const void *args, size_t size)
{
	if (copy_to_user(uarg, args, size))
		return npu_map_reply_failed(ctx, map);
	npu_map_put(map);
	return 0;
}

/* npu_map_reply() once the copy-out failed (its own writer's): -EFAULT. */
int npu_map_reply_failed(struct npu_ctx *ctx, struct npu_map *map)
{
	bool linked;

	down_write(&ctx->lock);
	linked = !list_empty(&map->node);
	if (linked)
		npu_map_unlink(ctx, map);
	up_write(&ctx->lock);
	if (linked)
		npu_map_put(map);
	npu_map_put(map);
	return -EFAULT;
}

/*
 * The failed reply of a map published by npu_map_link_owned(), named by
 * its @va and @id (ids are never reused): the allocation is freed unless
 * another thread already freed it.  Returns -EFAULT.
 */
int npu_map_reply_at_failed(struct npu_ctx *ctx, u64 va, u64 id)
{
	struct npu_map *map;

	down_write(&ctx->lock);
	map = npu_map_find_at(ctx, va, BIT(NPU_MAP_LINEAR), false);
	if (map && map->id == id)
		npu_map_unlink(ctx, map);
	else
		map = NULL;
	up_write(&ctx->lock);
	if (map)
		npu_map_put(map);
	return -EFAULT;
}
