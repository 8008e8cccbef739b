// SPDX-License-Identifier: GPL-2.0
/*
 * The VA allocator of a context: a gap-tracking maple tree (under
 * npu_ctx.lock) over the context's window hands out VA ranges and answers
 * "which mapping contains address X" in O(log n).  It only keeps the tree;
 * host PTEs are the window's business (npu_window.c).
 */
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "npu_sim.h"

/*
 * A small page (npu_mem_small.c) is stored with bit 0 set, a tag no
 * kmalloc'd map has (the maple tree keeps such entries as they are), so
 * that a walk that lands on it reads the page object and nothing else.
 */
#define NPU_VA_SMALL_TAG	1UL

static void *npu_va_small_tag(struct npu_small_page *sp)
{
	return (void *)((unsigned long)sp | NPU_VA_SMALL_TAG);
}

/*
 * Small pages are also kept by VA page in a direct-mapped table tried
 * before the tree: with a million slots a call on one reads a line of the
 * table and the page object instead of the tree's levels (several calls
 * under TCG, a cold leaf).  It is a cache: entry VA page & mask (not
 * relative to the window, whose start goes to 0 when it closes), filled
 * at insert and after a walk, cleared when its page leaves the tree; a
 * collision or a failed growth only sends calls to the tree.
 * It has twice as many entries as there are small pages (at least
 * NPU_VA_SMALL_TAB_MIN), grown by doubling, empty after a growth.
 */
#define NPU_VA_SMALL_TAB_MIN	512UL

static struct npu_small_page **npu_va_small_ent(struct npu_ctx *ctx,
						unsigned long addr)
{
	return &ctx->va_small_tab[(addr >> PAGE_SHIFT) & ctx->va_small_mask];
}

/* Make room in the table for one more small page; a failure keeps it. */
static void npu_va_small_grow(struct npu_ctx *ctx)
{
	unsigned long n = ctx->va_small_tab ? ctx->va_small_mask + 1 : 0;
	struct npu_small_page **tab;

	if (2 * (ctx->nr_small + 1) <= n)
		return;
	n = max(NPU_VA_SMALL_TAB_MIN, 2 * n);
	tab = kvcalloc(n, sizeof(*tab), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!tab)
		return;
	kvfree(ctx->va_small_tab);
	ctx->va_small_tab = tab;
	ctx->va_small_mask = n - 1;
}

/* The small page tree entry @e is, or NULL when it is a map. */
static struct npu_small_page *npu_va_small_of(void *e)
{
	unsigned long v = (unsigned long)e;

	return v & NPU_VA_SMALL_TAG ? (void *)(v & ~NPU_VA_SMALL_TAG) : NULL;
}

/*
 * Live objects one context may have of each kind (VA tree entries,
 * handles, IPC keys, streams, events): bounds the kernel memory a process
 * can pin through its file (module parameter max_objects_per_ctx).
 */
unsigned int npu_max_objects = 1U << 20;

/* Whether @ctx has npu_max_objects VA objects: entries and slots. */
static bool npu_va_full(struct npu_ctx *ctx)
{
	return ctx->nr_va + atomic_long_read(&ctx->nr_slots) >=
	       npu_max_objects;
}

void npu_va_ctx_init(struct npu_ctx *ctx)
{
	mt_init_flags(&ctx->va_mt, MT_FLAGS_ALLOC_RANGE | MT_FLAGS_LOCK_EXTERN);
	mt_set_external_lock(&ctx->va_mt, &ctx->lock);
}

void npu_va_ctx_destroy(struct npu_ctx *ctx)
{
	lockdep_assert_held_write(&ctx->lock);
	__mt_destroy(&ctx->va_mt);
	ctx->nr_va = 0;
	ctx->va_resv_hint = NULL;
	ctx->va_small_hint = NULL;
	kvfree(ctx->va_small_tab);
	ctx->va_small_tab = NULL;
	ctx->va_small_mask = 0;
	ctx->nr_small = 0;
}

/*
 * Store @entry over @len bytes of the window aligned to @align (an
 * absolute address), followed by an unmapped guard page, so that a copy
 * running past its end hits a hole; its start goes to *@va.  The guard is
 * part of the tree entry and thus never handed out.  @object: the entry
 * counts against npu_max_objects (a small page does not: its slots do).
 */
static int npu_va_insert_range(struct npu_ctx *ctx, void *entry, u64 len,
			       u64 align, unsigned long *va, bool object)
{
	MA_STATE(mas, &ctx->va_mt, 0, 0);
	unsigned long win_last, need, start, last;

	lockdep_assert_held_write(&ctx->lock);
	if (ctx->win_state != NPU_WIN_MAPPED)
		return -ENXIO;
	if (object && npu_va_full(ctx))
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
	if (object)
		ctx->nr_va++;
	return 0;
}

/* Give @map a VA aligned to @align: npu_va_insert_range() of its len. */
int npu_va_insert(struct npu_ctx *ctx, struct npu_map *map, u64 align)
{
	return npu_va_insert_range(ctx, map, map->len, align, &map->va, true);
}

/* Erase every entry of [@start, @last]; cannot fail. */
static void npu_va_clear(struct npu_ctx *ctx, unsigned long start,
			 unsigned long last)
{
	MA_STATE(mas, &ctx->va_mt, start, last);

	lockdep_assert_held_write(&ctx->lock);
	if (mas_store_gfp(&mas, NULL, GFP_KERNEL_ACCOUNT)) {
		/* Out of memory: erase piece by piece, which cannot fail. */
		mas_set(&mas, start);
		while (mas_find(&mas, last))
			mas_erase(&mas);
	}
}

/*
 * Sub-page allocations share the VA of a page stored whole (with its
 * guard) as one entry (npu_va_small_insert()); the page's own bitmap says
 * which slot is live (npu_mem_small.c), so a slot costs no tree store:
 * only its count against npu_max_objects, kept apart from the entries'
 * (slots come and go with ctx->lock held shared).  -ENOMEM when the
 * context has too many objects.
 */
int npu_va_sub_insert(struct npu_ctx *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (atomic_long_inc_return(&ctx->nr_slots) + ctx->nr_va >
	    npu_max_objects) {
		atomic_long_dec(&ctx->nr_slots);
		return -ENOMEM;
	}
	return 0;
}

/* A slot is given back. */
void npu_va_sub_erase(struct npu_ctx *ctx)
{
	atomic_long_dec(&ctx->nr_slots);
}

/*
 * VMM mappings are no tree entries: a reservation stays one entry over its
 * whole range and keeps the mapping of each 2 MiB granule in a table of
 * page-sized chunks, made at the first map into them and kept until the
 * reservation goes; so map and unmap store nothing in the tree and, after
 * the first map, allocate nothing.
 */
#define NPU_VA_GRAN_SHIFT	21
#define NPU_VA_GRAN_CHUNK	(PAGE_SIZE / sizeof(struct npu_map *))
static_assert(NPU_SIM_VMM_GRANULE == 1ULL << NPU_VA_GRAN_SHIFT);

static unsigned long npu_resv_chunks(const struct npu_map *resv)
{
	return DIV_ROUND_UP(resv->len >> NPU_VA_GRAN_SHIFT, NPU_VA_GRAN_CHUNK);
}

/* The table slot of granule @g of @resv; NULL when its chunk is not made. */
static struct npu_map **npu_resv_slot(struct npu_map *resv, unsigned long g)
{
	struct npu_map **chunk;

	if (!resv->u.resv.gran)
		return NULL;
	chunk = resv->u.resv.gran[g / NPU_VA_GRAN_CHUNK];
	return chunk ? &chunk[g % NPU_VA_GRAN_CHUNK] : NULL;
}

/* The first granule after @g's chunk, or @end if that comes first. */
static unsigned long npu_resv_chunk_end(unsigned long g, unsigned long end)
{
	return min(end, round_down(g, NPU_VA_GRAN_CHUNK) + NPU_VA_GRAN_CHUNK);
}

/*
 * Whether a granule of [@first, @end) of @resv is mapped: one chunk
 * lookup per chunk, not per granule (a 2 MiB mapping is one granule).
 */
static bool npu_resv_busy(struct npu_map *resv, unsigned long first,
			  unsigned long end)
{
	struct npu_map ***gran = resv->u.resv.gran;
	struct npu_map **chunk;
	unsigned long g, stop;

	if (!gran)
		return false;
	for (g = first; g < end; g = stop) {
		stop = npu_resv_chunk_end(g, end);
		chunk = gran[g / NPU_VA_GRAN_CHUNK];
		for (; chunk && g < stop; g++) {
			if (chunk[g % NPU_VA_GRAN_CHUNK])
				return true;
		}
	}
	return false;
}

/* Set granules [@first, @end) of @resv (their chunks made) to @map. */
static void npu_resv_fill(struct npu_map *resv, unsigned long first,
			  unsigned long end, struct npu_map *map)
{
	struct npu_map **chunk;
	unsigned long g, stop;

	for (g = first; g < end; g = stop) {
		stop = npu_resv_chunk_end(g, end);
		chunk = resv->u.resv.gran[g / NPU_VA_GRAN_CHUNK];
		for (; g < stop; g++)
			chunk[g % NPU_VA_GRAN_CHUNK] = map;
	}
}

/* The mapping of @resv at @addr, else @resv (a hole or the guard page). */
static struct npu_map *npu_resv_map_at(struct npu_map *resv,
				       unsigned long addr)
{
	unsigned long off = addr - resv->va;
	struct npu_map **slot;

	if (off >= resv->len)
		return resv;
	slot = npu_resv_slot(resv, off >> NPU_VA_GRAN_SHIFT);
	return slot && *slot ? *slot : resv;
}

/* Free @resv's granule table (npu_map_ops.destroy of a reservation). */
void npu_va_resv_destroy(struct npu_map *resv)
{
	struct npu_map ***gran = resv->u.resv.gran;
	unsigned long c;

	if (!gran)
		return;
	for (c = 0; c < npu_resv_chunks(resv); c++)
		kfree(gran[c]);
	kvfree(gran);
}

/*
 * The tree entry at @addr, a reservation resolved to its mapping there;
 * for a small page NULL, with the page in *@sp (else *@sp is NULL), for
 * callers that answer from the page alone.  The reservation and the small
 * page found last are tried before the tree (VMM calls come in runs on one
 * reservation, small calls on one page, and a walk is several calls under
 * TCG); each is forgotten when it leaves the tree.
 */
struct npu_map *npu_va_find(struct npu_ctx *ctx, unsigned long addr,
			    struct npu_small_page **sp)
{
	MA_STATE(mas, &ctx->va_mt, addr, addr);
	/* Caches: threads holding ctx->lock shared may set them at once. */
	struct npu_map *map = READ_ONCE(ctx->va_resv_hint);
	struct npu_small_page *page = READ_ONCE(ctx->va_small_hint);
	void *e;

	lockdep_assert_held(&ctx->lock);
	*sp = NULL;
	if (map && addr - map->va < map->len + NPU_VA_GUARD)
		return npu_resv_map_at(map, addr);
	if (page && addr - page->va < PAGE_SIZE) {
		*sp = page;
		return NULL;
	}
	page = ctx->va_small_tab ? READ_ONCE(*npu_va_small_ent(ctx, addr)) :
				   NULL;
	if (!page || addr - page->va >= PAGE_SIZE) {
		e = mas_walk(&mas);
		page = npu_va_small_of(e);
		if (!page) {
			map = e;
			if (map && map->role == NPU_MAP_RESERVATION) {
				WRITE_ONCE(ctx->va_resv_hint, map);
				return npu_resv_map_at(map, addr);
			}
			return map;
		}
		if (ctx->va_small_tab)
			WRITE_ONCE(*npu_va_small_ent(ctx, page->va), page);
	}
	WRITE_ONCE(ctx->va_small_hint, page);
	*sp = page;
	return NULL;
}

/* npu_va_find() with a small page resolved to its live slot at @addr. */
static struct npu_map *npu_va_walk(struct npu_ctx *ctx, unsigned long addr)
{
	struct npu_small_page *sp;
	struct npu_map *map = npu_va_find(ctx, addr, &sp);

	return sp ? npu_small_slot_at(sp, addr) : map;
}

/*
 * Store small page @sp (slot set) over a page of VA and its guard; its
 * va goes to sp->va.  Not an object of npu_max_objects: a live page holds
 * a slot, which is one, and idle pages are at most one per slot size and
 * shard (npu_mem_small.c).  0 or -ENOMEM.
 */
int npu_va_small_insert(struct npu_ctx *ctx, struct npu_small_page *sp)
{
	int ret = npu_va_insert_range(ctx, npu_va_small_tag(sp), PAGE_SIZE,
				      PAGE_SIZE, &sp->va, false);

	if (ret)
		return ret;
	npu_va_small_grow(ctx);
	ctx->nr_small++;
	if (ctx->va_small_tab)
		*npu_va_small_ent(ctx, sp->va) = sp;
	return 0;
}

/*
 * Forget a range of @len bytes at @start stored by npu_va_insert_range()
 * with @entry (and its guard) not as an object, if @entry is still there:
 * whether it was.
 */
static bool npu_va_erase_range(struct npu_ctx *ctx, void *entry,
			       unsigned long start, u64 len)
{
	MA_STATE(mas, &ctx->va_mt, start, start);
	bool found = false;
	void *e;

	lockdep_assert_held_write(&ctx->lock);
	mas_for_each(&mas, e, start + len + NPU_VA_GUARD - 1) {
		if (e == entry) {
			found = true;
			break;
		}
	}
	if (!found)
		return false;
	npu_va_clear(ctx, start, start + len + NPU_VA_GUARD - 1);
	return true;
}

/* Forget small page @sp's VA, if the tree still has it. */
void npu_va_small_erase(struct npu_ctx *ctx, struct npu_small_page *sp)
{
	if (ctx->va_small_hint == sp)
		ctx->va_small_hint = NULL;
	/* Not there when a closing window emptied the tree and the table. */
	if (!npu_va_erase_range(ctx, npu_va_small_tag(sp), sp->va, PAGE_SIZE))
		return;
	ctx->nr_small--;
	if (ctx->va_small_tab && *npu_va_small_ent(ctx, sp->va) == sp)
		*npu_va_small_ent(ctx, sp->va) = NULL;
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

/* The tree's part of npu_va_resv_at(): a walk, kept out of its fast path. */
static noinline struct npu_map *npu_va_resv_walk(struct npu_ctx *ctx,
						 unsigned long addr)
{
	MA_STATE(mas, &ctx->va_mt, addr, addr);
	void *e = mas_walk(&mas);
	struct npu_map *resv = e;

	if (!e || npu_va_small_of(e) ||
	    resv->role != NPU_MAP_RESERVATION || addr - resv->va >= resv->len)
		return NULL;
	ctx->va_resv_hint = resv;
	return resv;
}

/*
 * The reservation whose range (its guard excluded) holds @addr, or NULL,
 * without a look at its mappings; the reservation found last first, as in
 * npu_va_walk().
 */
struct npu_map *npu_va_resv_at(struct npu_ctx *ctx, unsigned long addr)
{
	struct npu_map *resv = ctx->va_resv_hint;

	lockdep_assert_held_write(&ctx->lock);
	if (resv && addr - resv->va < resv->len)
		return resv;
	return npu_va_resv_walk(ctx, addr);
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

	lockdep_assert_held_write(&ctx->lock);
	if (!fixed)
		return npu_va_insert(ctx, resv, align);
	if (ctx->win_state != NPU_WIN_MAPPED)
		return -ENXIO;
	if (npu_va_full(ctx))
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
	lockdep_assert_held_write(&ctx->lock);
	/* Not there when a closing window emptied the tree first. */
	if (npu_va_entry(ctx, resv->va) == resv)
		ctx->nr_va--;
	if (ctx->va_resv_hint == resv)
		ctx->va_resv_hint = NULL;
	npu_va_clear(ctx, resv->va, resv->va + resv->len + NPU_VA_GUARD - 1);
}

/* npu_va_map_in() of granules [@first, @end), chunk by chunk. */
static int npu_va_map_in_chunks(struct npu_ctx *ctx, struct npu_map *map,
				unsigned long first, unsigned long end)
{
	struct npu_map *resv = map->u.vmm.resv;
	unsigned long c;

	if (npu_resv_busy(resv, first, end))
		return -EBUSY;
	if (!resv->u.resv.gran) {
		resv->u.resv.gran = kvcalloc(npu_resv_chunks(resv),
					     sizeof(*resv->u.resv.gran),
					     GFP_KERNEL_ACCOUNT);
		if (!resv->u.resv.gran)
			return -ENOMEM;
	}
	for (c = first / NPU_VA_GRAN_CHUNK; c <= (end - 1) / NPU_VA_GRAN_CHUNK;
	     c++) {
		if (resv->u.resv.gran[c])
			continue;
		resv->u.resv.gran[c] = kzalloc(PAGE_SIZE, GFP_KERNEL_ACCOUNT);
		if (!resv->u.resv.gran[c])
			return -ENOMEM;
	}
	npu_resv_fill(resv, first, end, map);
	ctx->nr_va++;
	return 0;
}

/*
 * Enter VMM mapping @map (va, len, resv set; inside the reservation) in
 * its reservation's table; -EBUSY if any of it is already mapped.  One
 * granule (2 MiB) whose chunk is made: one slot, looked up once.
 */
int npu_va_map_in(struct npu_ctx *ctx, struct npu_map *map)
{
	struct npu_map *resv = map->u.vmm.resv;
	unsigned long first = (map->va - resv->va) >> NPU_VA_GRAN_SHIFT;
	unsigned long n = map->len >> NPU_VA_GRAN_SHIFT;
	struct npu_map **slot;

	lockdep_assert_held_write(&ctx->lock);
	if (npu_va_full(ctx))
		return -ENOMEM;
	slot = npu_resv_slot(resv, first);
	if (n != 1 || !slot)
		return npu_va_map_in_chunks(ctx, map, first, first + n);
	if (*slot)
		return -EBUSY;
	*slot = map;
	ctx->nr_va++;
	return 0;
}

/*
 * Take the VMM mapping that starts at @addr out of its reservation's
 * table and return it, or NULL if no mapping starts there.
 */
struct npu_map *npu_va_unmap_at(struct npu_ctx *ctx, unsigned long addr)
{
	struct npu_map *resv = npu_va_resv_at(ctx, addr);
	struct npu_map **slot, *map;
	unsigned long g;

	if (!resv)
		return NULL;
	g = (addr - resv->va) >> NPU_VA_GRAN_SHIFT;
	slot = npu_resv_slot(resv, g);
	map = slot ? *slot : NULL;
	if (!map || map->va != addr)
		return NULL;
	if (map->len >> NPU_VA_GRAN_SHIFT == 1)
		*slot = NULL;
	else
		npu_resv_fill(resv, g, g + (map->len >> NPU_VA_GRAN_SHIFT),
			      NULL);
	ctx->nr_va--;
	return map;
}

/* Forget @map's VA (and the guard page stored with it). */
void npu_va_erase(struct npu_ctx *ctx, struct npu_map *map)
{
	MA_STATE(mas, &ctx->va_mt, map->va, map->va);

	lockdep_assert_held_write(&ctx->lock);
	if (mas_erase(&mas))
		ctx->nr_va--;
}

/* Whether any memory in [start, end) is read-only to user space. */
bool npu_va_any_readonly(struct npu_ctx *ctx, unsigned long start,
			 unsigned long end)
{
	MA_STATE(mas, &ctx->va_mt, start, start);
	struct npu_map *map;

	lockdep_assert_held_write(&ctx->lock);
	/* Small pages hold no read-only slot (npu_small_eligible()). */
	mas_for_each(&mas, map, end - 1) {
		if (!npu_va_small_of(map) && map->phys &&
		    (map->flags & NPU_SIM_ALLOC_READONLY))
			return true;
	}
	return false;
}
