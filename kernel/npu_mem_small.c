// SPDX-License-Identifier: GPL-2.0
/*
 * Sub-page linear allocations: MEM_ALLOC requests of at most NPU_SMALL_MAX
 * bytes of footprint on normal pages share 4 KiB "small pages" of their
 * context, as the real runtime's allocator packs small blocks, so that a
 * million 64 B allocations fit a device.
 *
 * A small page is one npu_phys of one page, charged to the device (and the
 * process's limit) once, from its first slot to the free of its last.  It
 * is cut into slots of one size (a multiple of NPU_SMALL_ALIGN, the
 * alignment aclrtMalloc promises); each live slot is an ordinary linear
 * npu_map with phys_off/len naming the slot, so copies, lookups, check
 * tags, IPC export and debugfs see exact bounds.  The page's VA (and its
 * guard page) stay in the VA tree as long as the page lives: the free
 * parts point to the page's @hole, an entry with no device range.
 *
 * Isolation: a page holds one context's data only; a reused slot is zeroed
 * before it is handed out; copies cannot run from one slot into the next
 * (npu_copy.c); a sub-page map is never mapped into host page tables
 * (npu_window.c), and small pages are not used while the device has host
 * access on.  Everything here runs under npu_ctx.lock.
 */
#include <linux/bitops.h>
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/slab.h>

#include "npu_sim.h"

struct npu_small_page {
	struct npu_map hole;		/* VA tree entry of the free slots */
	struct list_head node;		/* in small_partial[] while not full */
	struct npu_phys *phys;		/* the page, referenced */
	unsigned long va;		/* of the page */
	u32 slot;			/* slot size in bytes */
	u32 nr_used;			/* live slots */
	u64 used;			/* bit per slot; slots past the page set */
};

void npu_small_ctx_init(struct npu_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < NPU_SMALL_CLASSES; i++)
		INIT_LIST_HEAD(&ctx->small_partial[i]);
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

static struct list_head *npu_small_list(struct npu_ctx *ctx, u32 slot)
{
	return &ctx->small_partial[slot / NPU_SMALL_ALIGN - 1];
}

/* A new small page of @slot-byte slots with its VA: 0 or an errno. */
static int npu_small_page_new(struct npu_ctx *ctx, u32 slot,
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
	sp = kzalloc(sizeof(*sp), GFP_KERNEL_ACCOUNT);
	if (!sp)
		goto nomem;
	if (npu_va_insert_range(ctx, &sp->hole, PAGE_SIZE, PAGE_SIZE,
				&sp->va)) {
		kfree(sp);
		goto nomem;
	}
	sp->hole.va = sp->va;
	sp->phys = phys;
	sp->slot = slot;
	sp->used = nr_slots < 64 ? ~0ULL << nr_slots : 0;
	list_add(&sp->node, npu_small_list(ctx, slot));
	WRITE_ONCE(ctx->used, ctx->used + PAGE_SIZE);
	*out = sp;
	return 0;

nomem:
	npu_phys_put(phys);
	npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
	return -ENOMEM;
}

/*
 * Forget an empty small page.  The put of its page is never the last one
 * here: the slot map being unlinked (or failing) still references it.
 */
static void npu_small_page_retire(struct npu_ctx *ctx,
				  struct npu_small_page *sp)
{
	npu_va_erase_range(ctx, &sp->hole, sp->va, PAGE_SIZE);
	list_del(&sp->node);
	WRITE_ONCE(ctx->used, ctx->used - PAGE_SIZE);
	npu_phys_put(sp->phys);
	kfree(sp);
}

/* The map's ops->unlink: its slot goes back to its page. */
static void npu_small_unlink(struct npu_ctx *ctx, struct npu_map *map)
{
	struct npu_small_page *sp = map->u.linear.small;
	bool was_full = !~sp->used;

	npu_va_sub_erase(ctx, &sp->hole, map);
	sp->used &= ~BIT_ULL(map->phys_off / sp->slot);
	if (!--sp->nr_used)
		npu_small_page_retire(ctx, sp);
	else if (was_full)
		list_add(&sp->node, npu_small_list(ctx, sp->slot));
}

static const struct npu_map_ops npu_small_ops = {
	.unlink = npu_small_unlink,
};

/*
 * Publish linear @map (made by npu_small_map_create()) in a free slot of
 * a small page of @ctx, starting a page if none has one: npu_map_publish()
 * for sub-page allocations.  -ENXIO window not mapped; -ENOSPC/-ENOMEM as
 * npu_phys_errno() says for a new page; -ENOMEM out of VA or tree memory.
 */
int npu_small_publish(struct npu_ctx *ctx, struct npu_map *map)
{
	struct npu_small_page *sp;
	bool fresh = false;
	unsigned int bit;
	int ret;

	mutex_lock(&ctx->lock);
	if (ctx->win_state != NPU_WIN_MAPPED) {
		ret = -ENXIO;
		goto out;
	}
	sp = list_first_entry_or_null(npu_small_list(ctx, map->len),
				      struct npu_small_page, node);
	if (!sp) {
		ret = npu_small_page_new(ctx, map->len, &sp);
		if (ret)
			goto out;
		fresh = true;
	}
	bit = __ffs64(~sp->used);
	map->va = sp->va + bit * sp->slot;
	map->phys_off = bit * sp->slot;
	npu_phys_get(sp->phys);
	map->phys = sp->phys;		/* the caller's put drops it on failure */
	ret = npu_va_sub_insert(ctx, &sp->hole, map);
	if (ret) {
		if (fresh)
			npu_small_page_retire(ctx, sp);
		npu_stat_inc(ctx->ndev, NPU_STAT_FAIL_NOMEM);
		goto out;
	}
	/* A fresh page is zeroed; a reused slot may hold a freed one's data. */
	if (!fresh) {
		void *kaddr = kmap_local_page(sp->phys->pages[0]);

		memset(kaddr + map->phys_off, 0, sp->slot);
		kunmap_local(kaddr);
	}
	map->u.linear.small = sp;
	sp->used |= BIT_ULL(bit);
	sp->nr_used++;
	if (!~sp->used)
		list_del_init(&sp->node);
	npu_map_link(ctx, map);
out:
	mutex_unlock(&ctx->lock);
	return ret;
}

/*
 * A linear map for a sub-page allocation of @footprint bytes (@size as
 * asked), not yet in a slot: npu_small_publish() places it.  NULL when out
 * of memory.
 */
struct npu_map *npu_small_map_create(u64 footprint, u64 size)
{
	return npu_map_create(NPU_MAP_LINEAR, &npu_small_ops, NULL,
			      ALIGN(footprint, NPU_SMALL_ALIGN), size);
}
