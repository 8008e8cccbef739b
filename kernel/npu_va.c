// SPDX-License-Identifier: GPL-2.0
/*
 * The VA allocator of a context: a gap-tracking maple tree (under
 * npu_ctx.lock) over the context's window hands out VA ranges and answers
 * "which mapping contains address X" in O(log n).  It only keeps the tree;
 * host PTEs are the window's business (npu_window.c).
 */
#include <linux/maple_tree.h>
#include <linux/mm.h>

#include "npu_sim.h"

/* Marks a small page's VA tree entry (npu_mem_small.c). */
const struct npu_map_ops npu_small_hole_ops;

/*
 * Live objects one context may have of each kind (VA tree entries,
 * handles, IPC keys, streams, events): bounds the kernel memory a process
 * can pin through its file (module parameter max_objects_per_ctx).
 */
unsigned int npu_max_objects = 1U << 20;

void npu_va_ctx_init(struct npu_ctx *ctx)
{
	mt_init_flags(&ctx->va_mt, MT_FLAGS_ALLOC_RANGE | MT_FLAGS_LOCK_EXTERN);
	mt_set_external_lock(&ctx->va_mt, &ctx->lock);
}

void npu_va_ctx_destroy(struct npu_ctx *ctx)
{
	lockdep_assert_held(&ctx->lock);
	__mt_destroy(&ctx->va_mt);
	ctx->nr_va = 0;
}

/*
 * Store @entry over @len bytes of the window aligned to @align (an
 * absolute address), followed by an unmapped guard page, so that a copy
 * running past its end hits a hole; its start goes to *@va.  The guard is
 * part of the tree entry and thus never handed out.
 */
int npu_va_insert_range(struct npu_ctx *ctx, void *entry, u64 len, u64 align,
			unsigned long *va)
{
	MA_STATE(mas, &ctx->va_mt, 0, 0);
	unsigned long win_last, need, start, last;

	lockdep_assert_held(&ctx->lock);
	if (ctx->win_state != NPU_WIN_MAPPED)
		return -ENXIO;
	if (ctx->nr_va >= npu_max_objects)
		return -ENOMEM;
	win_last = ctx->win_end - 1;

	/* Room for the range, its guard and the worst-case alignment slack. */
	if (check_add_overflow((unsigned long)len,
			       (unsigned long)(NPU_VA_GUARD + align - PAGE_SIZE),
			       &need) ||
	    need > ctx->win_end - ctx->win_start)
		return -ENOMEM;

	if (mas_empty_area(&mas, ctx->win_start, win_last, need))
		return -ENOMEM;

	start = ALIGN(mas.index, align);
	last = start + len + NPU_VA_GUARD - 1;
	if (start < mas.index || last > win_last || last > mas.last)
		return -ENOMEM;

	/* mas_store_gfp() overwrites silently: be sure the range is free. */
	mas_set_range(&mas, start, start);
	if (mas_find(&mas, last))
		return -ENOMEM;

	mas_set_range(&mas, start, last);
	if (mas_store_gfp(&mas, entry, GFP_KERNEL_ACCOUNT))
		return -ENOMEM;
	*va = start;
	ctx->nr_va++;
	return 0;
}

/* Give @map a VA aligned to @align: npu_va_insert_range() of its len. */
int npu_va_insert(struct npu_ctx *ctx, struct npu_map *map, u64 align)
{
	return npu_va_insert_range(ctx, map, map->len, align, &map->va);
}

/* Erase every entry of [@start, @last]; cannot fail. */
static void npu_va_clear(struct npu_ctx *ctx, unsigned long start,
			 unsigned long last)
{
	MA_STATE(mas, &ctx->va_mt, start, last);

	lockdep_assert_held(&ctx->lock);
	if (mas_store_gfp(&mas, NULL, GFP_KERNEL_ACCOUNT)) {
		/* Out of memory: erase piece by piece, which cannot fail. */
		mas_set(&mas, start);
		while (mas_find(&mas, last))
			mas_erase(&mas);
	}
}

/*
 * Sub-page allocations share the VA of a page stored whole (with its
 * guard) as the page's @hole entry; the page's own slot table says which
 * slot is live (npu_mem_small.c), so a slot costs no tree store: only its
 * count against npu_max_objects.  -ENOMEM when the context has too many
 * entries.
 */
int npu_va_sub_insert(struct npu_ctx *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (ctx->nr_va >= npu_max_objects)
		return -ENOMEM;
	ctx->nr_va++;
	return 0;
}

/*
 * A slot of the page stored as @hole at @va is given back: uncount it,
 * unless a closing window emptied the tree (and the count) first.
 */
void npu_va_sub_erase(struct npu_ctx *ctx, void *hole, unsigned long va)
{
	MA_STATE(mas, &ctx->va_mt, va, va);

	lockdep_assert_held(&ctx->lock);
	if (mas_walk(&mas) == hole)
		ctx->nr_va--;
}

/* A tree entry at @addr, a small page's hole resolved to its live slot. */
static struct npu_map *npu_va_walk(struct npu_ctx *ctx, unsigned long addr)
{
	MA_STATE(mas, &ctx->va_mt, addr, addr);
	struct npu_map *map;

	lockdep_assert_held(&ctx->lock);
	map = mas_walk(&mas);
	if (map && map->ops == &npu_small_hole_ops)
		map = npu_small_slot_at(map, addr);
	return map;
}

/*
 * Forget a range of @len bytes at @start stored by npu_va_insert_range()
 * with @entry (and its guard), if @entry is still there.
 */
void npu_va_erase_range(struct npu_ctx *ctx, void *entry, unsigned long start,
			u64 len)
{
	MA_STATE(mas, &ctx->va_mt, start, start);
	bool found = false;
	void *e;

	lockdep_assert_held(&ctx->lock);
	mas_for_each(&mas, e, start + len + NPU_VA_GUARD - 1) {
		if (e == entry) {
			found = true;
			break;
		}
	}
	if (!found)
		return;
	npu_va_clear(ctx, start, start + len + NPU_VA_GUARD - 1);
	ctx->nr_va--;
}

/* The mapping whose device range [va, va + len) contains @addr, or NULL. */
struct npu_map *npu_va_lookup(struct npu_ctx *ctx, unsigned long addr)
{
	struct npu_map *map = npu_va_walk(ctx, addr);

	if (!map || !map->phys || addr - map->va >= map->len)
		return NULL;
	return map;
}

/* The tree entry (allocation, mapping or reservation) at @addr, or NULL. */
struct npu_map *npu_va_entry(struct npu_ctx *ctx, unsigned long addr)
{
	struct npu_map *map = npu_va_walk(ctx, addr);

	if (!map || addr - map->va >= map->len)
		return NULL;
	return map;
}

/*
 * Give reservation @resv (len set) a VA: anywhere (@fixed 0, aligned to
 * @align) or exactly at @fixed.  Like an allocation it is followed by a
 * guard page.  -EBUSY when @fixed is not free or not in the window.
 */
int npu_va_reserve(struct npu_ctx *ctx, struct npu_map *resv, u64 align,
		   unsigned long fixed)
{
	MA_STATE(mas, &ctx->va_mt, fixed, fixed);
	unsigned long last;

	lockdep_assert_held(&ctx->lock);
	if (!fixed)
		return npu_va_insert(ctx, resv, align);
	if (ctx->win_state != NPU_WIN_MAPPED)
		return -ENXIO;
	if (ctx->nr_va >= npu_max_objects)
		return -ENOMEM;
	if (fixed < ctx->win_start || fixed >= ctx->win_end ||
	    resv->len + NPU_VA_GUARD > ctx->win_end - fixed)
		return -EBUSY;
	last = fixed + resv->len + NPU_VA_GUARD - 1;
	if (mas_find(&mas, last))
		return -EBUSY;
	mas_set_range(&mas, fixed, last);
	if (mas_store_gfp(&mas, resv, GFP_KERNEL_ACCOUNT))
		return -ENOMEM;
	resv->va = fixed;
	ctx->nr_va++;
	return 0;
}

/* Forget reservation @resv (nothing mapped in it any more) and its guard. */
void npu_va_release(struct npu_ctx *ctx, struct npu_map *resv)
{
	lockdep_assert_held(&ctx->lock);
	/* Not there when a closing window emptied the tree first. */
	if (npu_va_entry(ctx, resv->va) == resv)
		ctx->nr_va--;
	npu_va_clear(ctx, resv->va, resv->va + resv->len + NPU_VA_GUARD - 1);
}

/*
 * Store VMM mapping @map (va, len, resv set) over its part of the
 * reservation; -EBUSY if any of it is already mapped.
 */
int npu_va_map_in(struct npu_ctx *ctx, struct npu_map *map)
{
	MA_STATE(mas, &ctx->va_mt, map->va, map->va);
	unsigned long last = map->va + map->len - 1;
	struct npu_map *entry;

	lockdep_assert_held(&ctx->lock);
	if (ctx->nr_va >= npu_max_objects)
		return -ENOMEM;
	mas_for_each(&mas, entry, last) {
		if (entry != map->u.vmm.resv)
			return -EBUSY;
	}
	mas_set_range(&mas, map->va, last);
	if (mas_store_gfp(&mas, map, GFP_KERNEL_ACCOUNT))
		return -ENOMEM;
	ctx->nr_va++;
	return 0;
}

/* Give VMM mapping @map's range back to its reservation. */
void npu_va_unmap_in(struct npu_ctx *ctx, struct npu_map *map)
{
	MA_STATE(mas, &ctx->va_mt, map->va, map->va + map->len - 1);

	lockdep_assert_held(&ctx->lock);
	if (npu_va_entry(ctx, map->va) == map)
		ctx->nr_va--;
	mas_set_range(&mas, map->va, map->va + map->len - 1);
	if (mas_store_gfp(&mas, map->u.vmm.resv, GFP_KERNEL_ACCOUNT)) {
		mas_set(&mas, map->va);
		mas_erase(&mas);
	}
}

/* Forget @map's VA (and the guard page stored with it). */
void npu_va_erase(struct npu_ctx *ctx, struct npu_map *map)
{
	MA_STATE(mas, &ctx->va_mt, map->va, map->va);

	lockdep_assert_held(&ctx->lock);
	if (mas_erase(&mas))
		ctx->nr_va--;
}

/* Whether any memory in [start, end) is read-only to user space. */
bool npu_va_any_readonly(struct npu_ctx *ctx, unsigned long start,
			 unsigned long end)
{
	MA_STATE(mas, &ctx->va_mt, start, start);
	struct npu_map *map;

	lockdep_assert_held(&ctx->lock);
	mas_for_each(&mas, map, end - 1) {
		if (map->phys && (map->flags & NPU_SIM_ALLOC_READONLY))
			return true;
	}
	return false;
}
