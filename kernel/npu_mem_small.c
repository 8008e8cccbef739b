// SPDX-License-Identifier: GPL-2.0
/*
 * Sub-page linear allocations: MEM_ALLOC requests of at most NPU_SMALL_MAX
 * bytes of footprint on normal pages share 4 KiB "small pages" of their
 * context, as the real runtime's allocator packs small blocks, so that a
 * million 64 B allocations fit a device.
 *
 * A small page is one npu_phys of one page, charged to the device (and the
 * process's limit) once, from its first slot to the free of its last.  One
 * empty page per slot size and shard (below) is then kept idle, its
 * charges given back, so that an allocate/free loop does not make and
 * free a page each time.  It is cut into slots of one size (a multiple of
 * NPU_SMALL_ALIGN, the alignment aclrtMalloc promises); each live slot is
 * an ordinary linear npu_map with phys_off/len naming the slot, so
 * copies, lookups, check tags, IPC export and debugfs see exact bounds.
 * The page's VA (and its guard page) stay in the VA tree as long as the
 * page lives, as one entry; a lookup that lands on it reads the live slot
 * from the page's @used bitmap and @slots table (npu_small_slot_at()), so
 * a slot's allocation and free change no tree node: they allocate nothing
 * under ctx->lock.
 *
 * Threads meet on no lock when they use different slots: a context's
 * pages are split into shards by thread (npu_small_shard_of()), each with
 * its own lists, idle pages and spinlock, and a slot's allocation, free,
 * small copy and VMM_QUERY hold ctx->lock only shared, with its page's
 * shard lock.
 * What changes the VA tree (a new page, a page retired) or anything else
 * of the context runs under ctx->lock held for write, where the shard
 * locks are not needed (no shared holder runs): npu_small_publish() and
 * npu_small_free() fall back to that when a shard cannot do it alone.
 *
 * Isolation: a page holds one context's data only; a reused slot is zeroed
 * before it is handed out, and slots of a page with an IPC-exported slot
 * are not reused at all; copies cannot run from one slot into the next
 * (npu_copy.c); a sub-page map is never mapped into host page tables
 * (npu_window.c), and small pages are not used while the device has host
 * access on.
 */
#include <linux/bitops.h>
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/slab.h>

#include "npu_sim.h"


/* Each class has its bit in npu_small_shard.idle. */
static_assert(NPU_SMALL_CLASSES <= 32);
static_assert(NPU_SMALL_SHARDS <= U8_MAX);

void npu_small_ctx_init(struct npu_ctx *ctx)
{
	struct npu_small_shard *shard;
	unsigned int i;

	for (shard = ctx->small; shard < ctx->small + NPU_SMALL_SHARDS;
	     shard++) {
		spin_lock_init(&shard->lock);
		INIT_LIST_HEAD(&shard->maps);
		for (i = 0; i < NPU_SMALL_CLASSES; i++)
			INIT_HLIST_HEAD(&shard->partial[i]);
	}
}

/*
 * The calling thread's shard: by thread id, so that a thread keeps to its
 * pages (an allocate/free loop reuses one slot) wherever it runs, and
 * threads of consecutive ids do not share one.
 */
static struct npu_small_shard *npu_small_shard_of(struct npu_ctx *ctx)
{
	return &ctx->small[(unsigned int)current->pid % NPU_SMALL_SHARDS];
}

/*
 * Whether a MEM_ALLOC request goes to a slot: small, backed by normal
 * pages (HUGE_FIRST picks them for this size), no attribute that belongs
 * to a page (P2P, read-only), and no host access on the device (it maps
 * whole pages).
 */
bool npu_small_eligible(struct npu_ctx *ctx, u64 footprint, u32 backing,
			u32 flags)
{
	return footprint <= NPU_SMALL_MAX && !flags &&
	       (backing == NPU_SIM_BACKING_NORMAL ||
		backing == NPU_SIM_BACKING_HUGE_FIRST) &&
	       !READ_ONCE(ctx->ndev->host_access);
}

static unsigned int npu_small_class(u32 slot)
{
	return slot / NPU_SMALL_ALIGN - 1;
}

static struct hlist_head *npu_small_list(struct npu_small_shard *shard,
					 u32 slot)
{
	return &shard->partial[npu_small_class(slot)];
}

/*
 * A new small page of @slot-byte slots of @shard with its VA (ctx->lock
 * held for write): 0 or an errno.
 */
static int npu_small_page_new(struct npu_ctx *ctx,
			      struct npu_small_shard *shard, u32 slot,
			      struct npu_small_page **out)
{
	struct npu_dev *ndev = ctx->ndev;
	unsigned int nr_slots = PAGE_SIZE / slot;
	struct npu_small_page *sp;
	struct npu_phys *phys;
	int ret;

	ret = npu_phys_create(ndev, ctx->proc, NPU_SIM_PAGE_NORMAL, PAGE_SIZE,
			      0, &phys);
	if (ret)
		return npu_phys_errno(ndev, ret);
	sp = kzalloc(struct_size(sp, slots, nr_slots), GFP_KERNEL_ACCOUNT);
	if (!sp)
		goto nomem;
	sp->slot = slot;
	sp->shard = shard - ctx->small;
	if (npu_va_small_insert(ctx, sp)) {
		kfree(sp);
		goto nomem;
	}
	sp->phys = phys;
	sp->page = phys->pages[0];
	sp->used = nr_slots < 64 ? ~0ULL << nr_slots : 0;
	hlist_add_head(&sp->node, npu_small_list(shard, slot));
	atomic64_add(PAGE_SIZE, &ctx->used);
	*out = sp;
	return 0;

nomem:
	npu_phys_put(phys);
	npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
	return -ENOMEM;
}

/*
 * Forget an empty small page (ctx->lock held for write: the VA tree
 * changes).  The put of its page is the last one unless
 * a slot map that outlived its slot took its own (npu_small_unlink()).
 * The last put may run under ctx->lock: freeing a page takes no lock
 * ordered before it, its uncharge takes cap_lock (ordered after ctx->lock,
 * as the charge of a new page here), and the context still holds its
 * process's account (so no npu_limit_lock).
 */
static void npu_small_page_retire(struct npu_ctx *ctx,
				  struct npu_small_page *sp)
{
	lockdep_assert_held_write(&ctx->lock);
	npu_va_small_erase(ctx, sp);
	hlist_del_init(&sp->node);
	if (sp->idle)
		ctx->small[sp->shard].idle &= ~BIT(npu_small_class(sp->slot));
	else
		atomic64_sub(PAGE_SIZE, &ctx->used);
	npu_phys_put(sp->phys);
	kfree(sp);
}

/*
 * Whether @sp, once empty, is forgotten rather than kept idle: a slot was
 * exported, or its shard keeps an idle page of its class already.
 */
static bool npu_small_page_retires(struct npu_ctx *ctx,
				   const struct npu_small_page *sp)
{
	return sp->exported ||
	       (ctx->small[sp->shard].idle & BIT(npu_small_class(sp->slot)));
}

/*
 * @sp has no live slot any more: keep it idle (uncharged, still on its
 * list), or forget it when npu_small_page_retires() says so.
 */
static void npu_small_page_empty(struct npu_ctx *ctx,
				 struct npu_small_page *sp)
{
	if (npu_small_page_retires(ctx, sp)) {
		npu_small_page_retire(ctx, sp);
		return;
	}
	npu_phys_discharge(sp->phys, ctx);
	atomic64_sub(PAGE_SIZE, &ctx->used);
	ctx->small[sp->shard].idle |= BIT(npu_small_class(sp->slot));
	sp->idle = true;
}

/* Charge idle @sp again for a new slot: 0 or an npu_phys_errno() errno. */
static int npu_small_page_wake(struct npu_ctx *ctx, struct npu_small_page *sp)
{
	int ret = npu_phys_recharge(sp->phys);

	if (ret)
		return npu_phys_errno(ctx->ndev, ret);
	atomic64_add(PAGE_SIZE, &ctx->used);
	ctx->small[sp->shard].idle &= ~BIT(npu_small_class(sp->slot));
	sp->idle = false;
	return 0;
}

/* Release of the file: idle pages and spare maps go (no slot is left). */
void npu_small_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_small_shard *shard;
	struct npu_small_page *sp;
	struct hlist_node *tmp;
	unsigned int i;

	down_write(&ctx->lock);
	for (shard = ctx->small; shard < ctx->small + NPU_SMALL_SHARDS;
	     shard++) {
		for (i = 0; i < NPU_SMALL_CLASSES; i++)
			hlist_for_each_entry_safe(sp, tmp, &shard->partial[i],
						  node)
				if (sp->idle)
					npu_small_page_retire(ctx, sp);
		kfree(xchg(&shard->spare, NULL));
	}
	up_write(&ctx->lock);
}

/*
 * The map's ops->unlink (ctx->lock held for write, or shared with the
 * page's shard lock when the page is not retired: npu_small_free()): its
 * slot goes back to its page.  A slot's map
 * borrows the page's reference while it is published; one that outlives
 * its slot (npu_map_held(): a copy or queued work holds it) takes its own,
 * and the others drop the pointer (no put: the free touches no npu_phys).
 */
static void npu_small_unlink(struct npu_ctx *ctx, struct npu_map *map)
{
	struct npu_small_page *sp = map->u.linear.small;
	unsigned int i = map->phys_off / sp->slot;
	bool was_full = !~sp->used;

	if (npu_map_held(map))
		npu_phys_get(map->phys);
	else
		map->phys = NULL;
	npu_va_sub_erase(ctx);
	sp->slots[i] = NULL;
	sp->used &= ~BIT_ULL(i);
	if (was_full && !sp->exported)
		hlist_add_head(&sp->node,
			       npu_small_list(&ctx->small[sp->shard], sp->slot));
	if (!--sp->nr_used)
		npu_small_page_empty(ctx, sp);
}

/*
 * A slot of @map's page is being IPC-exported (ctx->lock): the key keeps
 * the page, and a freed slot handed out again would show the importer a
 * later allocation, so the page's free slots are never handed out again;
 * it goes when its last live slot is freed.
 */
void npu_small_exported(struct npu_ctx *ctx, struct npu_map *map)
{
	struct npu_small_page *sp = map->u.linear.small;

	lockdep_assert_held_write(&ctx->lock);
	if (!sp || sp->exported)
		return;
	sp->exported = true;
	hlist_del_init(&sp->node);
}

static const struct npu_map_ops npu_small_ops = {
	.unlink = npu_small_unlink,
};

/*
 * Place @map in a free slot of @shard (ctx->lock held: shared with the
 * shard's lock, or for write, which alone may start a page: @grow).
 * -EAGAIN: the shard has no page with a free slot and may not grow; else
 * as npu_small_publish().
 */
static int npu_small_place(struct npu_ctx *ctx, struct npu_small_shard *shard,
			   struct npu_map *map, struct npu_sim_mem_alloc *args,
			   bool grow)
{
	struct npu_small_page *sp;
	bool fresh = false;
	unsigned int bit;
	int ret;

	if (ctx->win_state != NPU_WIN_MAPPED)
		return -ENXIO;
	sp = hlist_entry_safe(npu_small_list(shard, map->len)->first,
			      struct npu_small_page, node);
	if (!sp) {
		if (!grow)
			return -EAGAIN;
		ret = npu_small_page_new(ctx, shard, map->len, &sp);
		if (ret)
			return ret;
		fresh = true;
	} else if (sp->idle) {
		ret = npu_small_page_wake(ctx, sp);
		if (ret)
			return ret;
	}
	bit = __ffs64(~sp->used);
	map->va = sp->va + bit * sp->slot;
	map->phys_off = bit * sp->slot;
	ret = npu_va_sub_insert(ctx);
	if (ret) {
		/* A page woken or made for this slot goes idle (or, made, goes). */
		if (!sp->nr_used)
			npu_small_page_empty(ctx, sp);
		npu_stat_inc(ctx->ndev, NPU_STAT_FAIL_NOMEM);
		return ret;
	}
	/* A fresh page is zeroed; a reused slot may hold a freed one's data. */
	if (!fresh) {
		void *kaddr = kmap_local_page(sp->page);

		memset(kaddr + map->phys_off, 0, sp->slot);
		kunmap_local(kaddr);
	}
	map->phys = sp->phys;		/* borrowed: npu_small_unlink() */
	map->u.linear.small = sp;
	sp->slots[bit] = map;
	sp->size[bit] = map->size;
	sp->used |= BIT_ULL(bit);
	sp->nr_used++;
	if (!~sp->used)
		hlist_del_init(&sp->node);
	npu_map_link_to(ctx, map, &shard->maps);
	args->va = map->va;
	args->id = map->id;
	/* A slot's share; its page is charged to the device once. */
	args->charged = map->len;
	args->page_kind = NPU_SIM_PAGE_NORMAL;
	return 0;
}

/*
 * Publish linear @map (made by npu_small_map_create()) in a free slot of
 * a small page of the calling thread's shard, starting a page if none has
 * one: npu_map_publish() for sub-page allocations, but the caller's
 * reference becomes the context's, so MEM_ALLOC's out fields in @args
 * are filled here, under the lock.  The slot is taken with ctx->lock held
 * shared; only a new page takes it for write.  -ENXIO window not mapped;
 * -ENOSPC/-ENOMEM as npu_phys_errno() says for a new page or an idle one
 * charged again; -ENOMEM out of VA, objects or tree memory (the caller
 * still owns @map then).
 */
int npu_small_publish(struct npu_ctx *ctx, struct npu_map *map,
		      struct npu_sim_mem_alloc *args)
{
	struct npu_small_shard *shard = npu_small_shard_of(ctx);
	int ret;

	down_read(&ctx->lock);
	spin_lock(&shard->lock);
	ret = npu_small_place(ctx, shard, map, args, false);
	spin_unlock(&shard->lock);
	up_read(&ctx->lock);
	if (ret != -EAGAIN)
		return ret;

	down_write(&ctx->lock);
	ret = npu_small_place(ctx, shard, map, args, true);
	up_write(&ctx->lock);
	return ret;
}

/*
 * Keep unlinked slot map @map as @shard's spare for its next slot (the
 * shard's lock or ctx->lock for write held), as npu_map_keep_spare() a
 * VMM mapping: only a map nobody else holds, which its unlink left
 * without its borrowed phys (npu_small_unlink()).  False: the caller
 * puts it.
 */
static bool npu_small_keep(struct npu_small_shard *shard, struct npu_map *map)
{
	if (npu_map_held(map) || READ_ONCE(shard->spare))
		return false;
	WRITE_ONCE(shard->spare, map);
	return true;
}

/*
 * MEM_FREE of the slot at @va, if a small page holds @va, with ctx->lock
 * held shared and the page's shard lock: 0 freed, -ENOENT no live slot
 * starts at @va; 1 @va is in no small page, or the free would retire its
 * page (a VA tree change): the caller frees it under ctx->lock for write.
 */
int npu_small_free(struct npu_ctx *ctx, unsigned long va)
{
	struct npu_small_shard *shard;
	struct npu_small_page *sp;
	struct npu_map *map;
	bool queued, kept;
	int ret = 0;

	down_read(&ctx->lock);
	npu_va_find(ctx, va, &sp);
	if (!sp) {
		up_read(&ctx->lock);
		return 1;
	}
	shard = &ctx->small[sp->shard];
	spin_lock(&shard->lock);
	map = npu_small_slot_at(sp, va);
	if (!map || map->va != va) {
		ret = -ENOENT;
	} else if (sp->nr_used == 1 && npu_small_page_retires(ctx, sp)) {
		ret = 1;
	} else {
		/* A page that keeps a slot, or goes idle, samples the peaks. */
		npu_map_unlink(ctx, map);
		queued = atomic_read(&map->nr_queued);
		kept = npu_small_keep(shard, map);
	}
	spin_unlock(&shard->lock);
	up_read(&ctx->lock);
	if (ret)
		return ret;

	if (queued)
		npu_stat_inc(ctx->ndev, NPU_STAT_FREE_WHILE_QUEUED);
	if (!kept)
		npu_map_put(map);
	return 0;
}

/*
 * VMM_QUERY of @addr in small page @sp (ctx->lock shared, the page's
 * shard lock), from the page alone: a slot is a linear allocation of
 * normal pages of the context's own device (npu_small_page_new()), as
 * npu_ioctl_vmm_query() answers for its map.  False: no live slot holds
 * @addr.
 */
bool npu_small_query(struct npu_ctx *ctx, struct npu_small_page *sp,
		     unsigned long addr, struct npu_sim_vmm_query *args)
{
	int i = npu_small_index(sp, addr);

	if (i < 0)
		return false;
	args->type = NPU_SIM_QUERY_ALLOC;
	args->base = sp->va + i * sp->slot;
	args->size = sp->size[i];
	args->page_kind = NPU_SIM_PAGE_NORMAL;
	args->location = NPU_SIM_LOC_DEVICE;
	args->location_id = ctx->ndev->index;
	return true;
}

/*
 * A linear map for a sub-page allocation of @footprint bytes (@size as
 * asked), not yet in a slot: npu_small_publish() places it.  The thread's
 * shard's spare (a freed slot's map nobody held any more) is
 * remade in place as npu_map_create() would make it (no stale check tag,
 * id or access), so an allocate/free cycle allocates and frees no map.
 * NULL when out of memory.
 */
struct npu_map *npu_small_map_create(struct npu_ctx *ctx, u64 footprint,
				     u64 size)
{
	/* Taken before ctx->lock (MEM_ALLOC makes the map first): xchg. */
	struct npu_map *spare = xchg(&npu_small_shard_of(ctx)->spare, NULL);
	u64 len = ALIGN(footprint, NPU_SMALL_ALIGN);

	if (!spare)
		return npu_map_create(NPU_MAP_LINEAR, &npu_small_ops, NULL,
				      len, size);
	npu_map_init(spare, NPU_MAP_LINEAR, &npu_small_ops, NULL, len, size);
	return spare;
}

/*
 * Whether the free of linear or managed @map (published, ctx->lock) folds
 * the peaks itself: a slot whose page keeps another live slot gives no
 * byte back, and the last slot of a page kept idle folds them in its
 * discharge (npu_small_page_empty()).  False: the caller samples them.
 */
bool npu_small_free_sampled(struct npu_ctx *ctx, const struct npu_map *map)
{
	struct npu_small_page *sp;

	if (!npu_map_is_slot(map))
		return false;
	sp = map->u.linear.small;
	return sp->nr_used > 1 || !npu_small_page_retires(ctx, sp);
}

/*
 * Keep the just-unlinked map @map (ctx->lock held for write), if it was a
 * slot's, as the calling thread's shard's spare: npu_small_keep().
 */
bool npu_small_keep_map(struct npu_ctx *ctx, struct npu_map *map)
{
	lockdep_assert_held_write(&ctx->lock);
	return npu_map_is_slot(map) &&
	       npu_small_keep(npu_small_shard_of(ctx), map);
}
