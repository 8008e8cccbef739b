// SPDX-License-Identifier: GPL-2.0
/*
 * Managed (UVM) memory: ranges in the context's window that both the host
 * and the "device" access, migrated or duplicated per 2 MiB block by the
 * rules of npu_managed_state.c.  Such a range is an npu_map of role
 * NPU_MAP_MANAGED whose npu_map_ops give the host fault rules.
 *
 * Backing: the range's npu_phys (host memory, normal pages, not charged)
 * holds the bytes.  A block whose state has a device copy also owns a
 * 2 MiB npu_phys on the device, charged against the capacity until the
 * copy is dropped: a view of the block's host pages (npu_phys_create_view),
 * not pages of its own.  Device memory is host memory here, so the host
 * copy and the device copy are the same bytes and a migration moves none:
 * what it changes is the state, the host mappings (zapped when the host
 * copy is dropped, so the host faults as it would on hardware) and the
 * charge.  A race-free program cannot tell; a host access racing a device
 * access of the same block sees one value, where hardware could lose one
 * side's write (no defined result either way).
 *
 * Host access: the window fault handler calls npu_managed_fault() for managed
 * ranges in strict and host-access mode alike; it maps the whole block
 * (read-only while READ_MOSTLY).  A write to a read-only PTE comes through
 * npu_managed_mkwrite().  All state is under npu_ctx.lock.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/seq_file.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"
#include "npu_managed_state.h"
#include "npu_trace.h"

struct npu_managed {
	u64 nr_blocks;
	struct npu_managed_block *blocks;
	struct npu_phys **dev;		/* device copy of each block, or NULL */
};

static void npu_managed_free(struct npu_managed *u)
{
	u64 i;

	/* also a half-built state whose arrays failed to allocate */
	for (i = 0; u->dev && i < u->nr_blocks; i++)
		if (u->dev[i])
			npu_phys_put(u->dev[i]);
	kvfree(u->dev);
	kvfree(u->blocks);
	kfree(u);
}

static void npu_managed_destroy(struct npu_map *map)
{
	if (map->u.managed)
		npu_managed_free(map->u.managed);
}

/* Block @blk's device copy, charged to the process's account. */
static int npu_managed_dev_alloc(struct npu_ctx *ctx, struct npu_map *map,
				 u64 blk, struct npu_phys **out)
{
	struct npu_dev *ndev = ctx->ndev;
	int ret;

	ret = npu_phys_create_view(ndev, ctx->proc, map->phys,
				   map->phys_off + (blk << NPU_MANAGED_BLOCK_SHIFT),
				   NPU_MANAGED_BLOCK_SIZE, out);
	return npu_phys_errno(ndev, ret);
}

struct npu_managed_fill {
	struct mm_struct *mm;
	struct npu_map *map;
	pgprot_t prot;
};

static int npu_managed_fill_pte(pte_t *pte, unsigned long addr, void *data)
{
	struct npu_managed_fill *f = data;
	struct page *page;

	/* Present already (a read-only PTE stays so: pfn_mkwrite upgrades). */
	if (!pte_none(ptep_get(pte)))
		return 0;
	page = npu_phys_page(f->map->phys, f->map->phys_off + (addr - f->map->va));
	set_pte_at(f->mm, addr, pte, pte_mkspecial(pfn_pte(page_to_pfn(page),
							   f->prot)));
	return 0;
}

/*
 * Map [start, end) of @map's host pages into @vma with @flags' protection:
 * what vmf_insert_pfn_prot() does page by page (special PTEs, a present
 * one left alone), with one page-table walk and one PTE lock per block.
 * Its PAT lookup is not needed: the pages are RAM this driver allocated
 * and never changed the memtype of, so it would answer WB, which
 * vm_get_page_prot() already carries.  0 or -ENOMEM (no page table).
 */
static int npu_managed_fill(struct vm_area_struct *vma, struct npu_map *map,
			    unsigned long start, unsigned long end,
			    vm_flags_t flags)
{
	struct npu_managed_fill f = {
		.mm = vma->vm_mm,
		.map = map,
		.prot = vm_get_page_prot(flags),
	};

	start = max(start, vma->vm_start);
	end = min(end, vma->vm_end);
	if (start >= end)
		return 0;
	return apply_to_page_range(vma->vm_mm, start, end - start,
				   npu_managed_fill_pte, &f);
}

/* Map block @blk of @map into the host now (ctx->lock, mmap_lock held). */
static void npu_managed_map_host(struct npu_ctx *ctx, struct npu_map *map,
				 u64 blk)
{
	unsigned long start = map->va + (blk << NPU_MANAGED_BLOCK_SHIFT);
	struct vm_area_struct *vma = npu_window_vma(ctx, start);

	if (!vma)
		return;
	ctx->win_ptes = true;	/* npu_window_zap() must look from now on */
	npu_managed_fill(vma, map, start, start + NPU_MANAGED_BLOCK_SIZE,
			 vma->vm_flags);
}

/*
 * Run transition @fn's result: take a device copy first (the only step that
 * can fail, before anything changes), then commit @nb and do the rest.
 * Bytes: none move, the two copies being the same pages (see the top of
 * this file); a block never touched reads as the zeroed host pages.
 */
static int npu_managed_commit(struct npu_ctx *ctx, struct npu_map *map, u64 blk,
			      struct npu_managed_block *nb, unsigned int act)
{
	struct npu_managed *u = map->u.managed;
	u8 old = u->blocks[blk].valid;
	int ret;

	lockdep_assert_held_write(&ctx->lock);
	if ((act & NPU_MANAGED_ACT_ALLOC_DEV) && !u->dev[blk]) {
		ret = npu_managed_dev_alloc(ctx, map, blk, &u->dev[blk]);
		if (ret)
			return ret;
	}
	u->blocks[blk] = *nb;
	if (act & NPU_MANAGED_ACT_ZAP_HOST)
		npu_window_zap(ctx, map->va + (blk << NPU_MANAGED_BLOCK_SHIFT),
			       NPU_MANAGED_BLOCK_SIZE);
	if ((nb->valid & NPU_MANAGED_DEV) && !(old & NPU_MANAGED_DEV))
		trace_npu_sim_migrate(ctx->ndev->index, ctx->pid,
				      map->va + (blk << NPU_MANAGED_BLOCK_SHIFT),
				      NPU_MANAGED_BLOCK_SIZE, true);
	else if ((nb->valid & NPU_MANAGED_HOST) &&
		 !(old & NPU_MANAGED_HOST) && (old & NPU_MANAGED_DEV))
		trace_npu_sim_migrate(ctx->ndev->index, ctx->pid,
				      map->va + (blk << NPU_MANAGED_BLOCK_SHIFT),
				      NPU_MANAGED_BLOCK_SIZE, false);
	if ((act & NPU_MANAGED_ACT_FREE_DEV) && u->dev[blk]) {
		npu_phys_put(u->dev[blk]);
		u->dev[blk] = NULL;
	}
	if (act & NPU_MANAGED_ACT_MAP_HOST)
		npu_managed_map_host(ctx, map, blk);
	return 0;
}

/* ---- host side ---------------------------------------------------------- */

static vm_fault_t npu_managed_fault(struct npu_ctx *ctx, struct npu_map *map,
				    struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	u64 blk = (vmf->address - map->va) >> NPU_MANAGED_BLOCK_SHIFT;
	struct npu_managed_block nb = map->u.managed->blocks[blk];
	unsigned long start = map->va + (blk << NPU_MANAGED_BLOCK_SHIFT);
	vm_flags_t flags = vma->vm_flags;
	unsigned int act;

	lockdep_assert_held_write(&ctx->lock);
	if (write && !(flags & VM_WRITE))
		return VM_FAULT_SIGSEGV;
	if (nb.host_map == NPU_MANAGED_MAP_NONE ||
	    (write && nb.host_map == NPU_MANAGED_MAP_RO)) {
		act = npu_managed_host_access(&nb, write);
		if (npu_managed_commit(ctx, map, blk, &nb, act))
			return VM_FAULT_OOM;
	}
	if (map->u.managed->blocks[blk].host_map != NPU_MANAGED_MAP_RW)
		flags &= ~VM_WRITE;
	/* The whole block, so one fault per block and transition. */
	if (npu_managed_fill(vma, map, start, start + NPU_MANAGED_BLOCK_SIZE,
			     flags))
		return VM_FAULT_OOM;
	return VM_FAULT_NOPAGE;
}

static vm_fault_t npu_managed_mkwrite(struct npu_ctx *ctx, struct npu_map *map,
				      struct vm_fault *vmf)
{
	u64 blk = (vmf->address - map->va) >> NPU_MANAGED_BLOCK_SHIFT;
	struct npu_managed_block nb = map->u.managed->blocks[blk];
	unsigned int act;

	lockdep_assert_held_write(&ctx->lock);
	if (nb.host_map == NPU_MANAGED_MAP_RW)
		return 0;
	act = npu_managed_host_access(&nb, true);
	if (npu_managed_commit(ctx, map, blk, &nb, act))
		return VM_FAULT_OOM;
	return 0;
}

/* ---- device side and advice ---------------------------------------------- */

/* The managed map holding all of [va, va + size), or NULL (ctx->lock). */
static struct npu_map *npu_managed_lookup(struct npu_ctx *ctx, u64 va, u64 size)
{
	struct npu_map *map;

	if (!size || va + size < va)
		return NULL;
	map = npu_va_lookup(ctx, va);
	if (!map || map->role != NPU_MAP_MANAGED ||
	    va + size - map->va > map->len)
		return NULL;
	return map;
}

static void npu_managed_blocks(struct npu_map *map, u64 va, u64 size,
			       u64 *first, u64 *end)
{
	*first = (va - map->va) >> NPU_MANAGED_BLOCK_SHIFT;
	*end = (va + size - map->va + NPU_MANAGED_BLOCK_SIZE - 1) >>
	       NPU_MANAGED_BLOCK_SHIFT;
}

/* Device access of [va, va + size) within @map (copies, TOUCH). */
static int npu_managed_dev_range(struct npu_ctx *ctx, struct npu_map *map,
				 u64 va, u64 size, bool write)
{
	u64 blk, first, end;
	int ret = 0;

	lockdep_assert_held_write(&ctx->lock);
	if (list_empty(&map->node))	/* freed meanwhile */
		return 0;
	npu_managed_blocks(map, va, size, &first, &end);
	for (blk = first; blk < end && !ret; blk++) {
		struct npu_managed_block nb = map->u.managed->blocks[blk];
		unsigned int act = npu_managed_dev_access(&nb, write);

		ret = npu_managed_commit(ctx, map, blk, &nb, act);
	}
	return ret;
}

static int npu_managed_loc_check(struct npu_ctx *ctx, u32 loc, u32 loc_id)
{
	if (loc == NPU_SIM_MLOC_DEVICE && loc_id != ctx->ndev->index)
		return -EINVAL;
	return 0;
}

static const struct npu_map_ops npu_managed_ops = {
	.fault = npu_managed_fault,
	.mkwrite = npu_managed_mkwrite,
	.destroy = npu_managed_destroy,
	.dev_access = npu_managed_dev_range,
};

static struct npu_managed *npu_managed_alloc_state(u64 len)
{
	struct npu_managed *u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);

	if (!u)
		return NULL;
	u->nr_blocks = len >> NPU_MANAGED_BLOCK_SHIFT;
	u->blocks = kvcalloc(u->nr_blocks, sizeof(*u->blocks), GFP_KERNEL_ACCOUNT);
	u->dev = kvcalloc(u->nr_blocks, sizeof(*u->dev), GFP_KERNEL_ACCOUNT);
	if (!u->blocks || !u->dev) {
		npu_managed_free(u);
		return NULL;
	}
	return u;
}

int npu_ioctl_managed_alloc(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_dev *ndev = ctx->ndev;
	struct npu_sim_managed_alloc args;
	struct npu_phys *phys;
	struct npu_map *map;
	u64 len;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad || !args.size ||
	    args.size > NPU_SIM_MANAGED_MAX ||
	    npu_uapi_out_set(&args, va, id))
		return -EINVAL;
	len = ALIGN(args.size, NPU_MANAGED_BLOCK_SIZE);

	ret = npu_fault_check(ctx, NPU_SIM_FAULT_ALLOC);
	if (ret)
		return ret;
	ret = npu_phys_create(ndev, NULL, NPU_SIM_PAGE_NORMAL, len,
			      NPU_PHYS_HOST, &phys);
	ret = npu_phys_errno(ndev, ret);
	if (ret)
		return ret;
	map = npu_map_create(NPU_MAP_MANAGED, &npu_managed_ops, phys, len,
			     args.size);
	if (!map) {
		npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
		npu_phys_put(phys);
		return -ENOMEM;
	}
	map->u.managed = npu_managed_alloc_state(len);
	if (!map->u.managed) {
		npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
		npu_map_put(map);
		return -ENOMEM;
	}
	ret = npu_map_publish(ctx, map, NPU_MANAGED_BLOCK_SIZE);
	if (ret) {
		npu_map_put(map);
		return ret;
	}

	args.va = map->va;
	args.len = len;
	args.id = map->id;
	return npu_map_reply(ctx, map, uarg, &args, sizeof(args));
}

int npu_ioctl_managed_advise(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_managed_advise a;
	struct npu_map *map;
	u64 blk, first, end;
	int ret = 0;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	if (a.flags || a.reserved || !a.size || a.size > NPU_SIM_MANAGED_MAX ||
	    (a.size & (NPU_MANAGED_BLOCK_SIZE - 1)) ||
	    a.advise < NPU_SIM_ADVISE_SET_READ_MOSTLY ||
	    a.advise > NPU_SIM_ADVISE_UNSET_ACCESSED_BY)
		return -EINVAL;
	if (a.advise == NPU_SIM_ADVISE_SET_READ_MOSTLY)
		a.loc = 0;
	else if (a.advise == NPU_SIM_ADVISE_UNSET_READ_MOSTLY &&
		 a.loc != NPU_SIM_MLOC_DEVICE)
		a.loc = NPU_SIM_MLOC_HOST;
	if (a.loc > NPU_SIM_MLOC_HOST || npu_managed_loc_check(ctx, a.loc, a.loc_id))
		return -EINVAL;

	/* Lock order: mmap_lock (to map up front), then ctx->lock. */
	mmap_read_lock(ctx->mm);
	down_write(&ctx->lock);
	map = npu_managed_lookup(ctx, a.va, a.size);
	if (!map) {
		ret = -EINVAL;
		goto out;
	}
	npu_managed_blocks(map, a.va, a.size, &first, &end);
	for (blk = first; blk < end && !ret; blk++)
		ret = npu_managed_advise_check(&map->u.managed->blocks[blk], a.advise,
					       a.loc);
	for (blk = first; blk < end && !ret; blk++) {
		struct npu_managed_block nb = map->u.managed->blocks[blk];
		unsigned int act = npu_managed_advise(&nb, a.advise, a.loc);

		ret = npu_managed_commit(ctx, map, blk, &nb, act);
	}
out:
	up_write(&ctx->lock);
	mmap_read_unlock(ctx->mm);
	return ret;
}

int npu_ioctl_managed_touch(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_managed_touch t;
	struct npu_map *map;
	int ret;

	if (copy_from_user(&t, uarg, sizeof(t)))
		return -EFAULT;
	if (t.pad || (t.flags & ~NPU_SIM_TOUCH_FLAGS_MASK))
		return -EINVAL;
	down_write(&ctx->lock);
	map = npu_managed_lookup(ctx, t.va, t.size);
	ret = map ? npu_managed_dev_range(ctx, map, t.va, t.size,
				      t.flags & NPU_SIM_TOUCH_WRITE) : -EINVAL;
	up_write(&ctx->lock);
	return ret;
}

int npu_ioctl_managed_query(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_managed_query q;
	u32 rm = 1, pref = ~0U, acc = ~0U, last = ~0U;
	struct npu_map *map;
	u64 blk, first, end;

	if (copy_from_user(&q, uarg, sizeof(q)))
		return -EFAULT;
	if (q.flags || q.reserved || npu_uapi_out_set(&q, read_mostly, pad))
		return -EINVAL;
	down_write(&ctx->lock);
	map = npu_managed_lookup(ctx, q.va, q.size);
	if (!map) {
		up_write(&ctx->lock);
		return -EINVAL;
	}
	npu_managed_blocks(map, q.va, q.size, &first, &end);
	for (blk = first; blk < end; blk++) {
		const struct npu_managed_block *b = &map->u.managed->blocks[blk];
		u32 p = b->attr & NPU_MANAGED_PREF_DEV ? NPU_SIM_MLOC_DEVICE :
			b->attr & NPU_MANAGED_PREF_HOST ? NPU_SIM_MLOC_HOST : 0;
		u32 a = (b->attr & NPU_MANAGED_ACC_DEV ? 1U << NPU_SIM_MLOC_DEVICE : 0) |
			(b->attr & NPU_MANAGED_ACC_HOST ? 1U << NPU_SIM_MLOC_HOST : 0);

		if (!(b->attr & NPU_MANAGED_READ_MOSTLY))
			rm = 0;
		pref = pref == ~0U || pref == p ? p : 0;
		last = last == ~0U || last == b->last_prefetch ? b->last_prefetch : 0;
		acc &= a;
	}
	up_write(&ctx->lock);
	q.read_mostly = rm;
	q.preferred = pref;
	q.accessed_by = acc;
	q.last_prefetch = last;
	q.pad = 0;
	return copy_to_user(uarg, &q, sizeof(q)) ? -EFAULT : 0;
}

/* ---- prefetch (stream op) ------------------------------------------------ */

/* Check a PREFETCH submit; returns the referenced managed map. */
struct npu_map *npu_managed_prefetch_prepare(struct npu_ctx *ctx, u64 va,
					     u64 size, u32 loc, u32 loc_id)
{
	struct npu_map *map;

	if (!size || size > NPU_SIM_MANAGED_MAX ||
	    (size & (NPU_MANAGED_BLOCK_SIZE - 1)) ||
	    (loc != NPU_SIM_MLOC_DEVICE && loc != NPU_SIM_MLOC_HOST) ||
	    npu_managed_loc_check(ctx, loc, loc_id))
		return ERR_PTR(-EINVAL);
	down_write(&ctx->lock);
	map = npu_managed_lookup(ctx, va, size);
	if (map)
		npu_map_get(map);
	up_write(&ctx->lock);
	return map ? map : ERR_PTR(-EINVAL);
}

int npu_managed_prefetch_exec(struct npu_ctx *ctx, struct npu_map *map, u64 va,
			      u64 size, u32 loc)
{
	u64 blk, first, end;
	int ret = 0;

	down_write(&ctx->lock);
	if (list_empty(&map->node))	/* freed while queued */
		goto out;
	npu_managed_blocks(map, va, size, &first, &end);
	for (blk = first; blk < end && !ret; blk++) {
		struct npu_managed_block nb = map->u.managed->blocks[blk];
		unsigned int act = npu_managed_prefetch(&nb, loc);

		ret = npu_managed_commit(ctx, map, blk, &nb, act);
	}
out:
	up_write(&ctx->lock);
	return ret;
}

/* ---- debugfs -------------------------------------------------------------- */

static const char *npu_managed_attr_name(u8 attr, u8 host, u8 dev)
{
	if ((attr & host) && (attr & dev))
		return "both";
	if (attr & host)
		return "host";
	if (attr & dev)
		return "dev";
	return "-";
}

static void npu_managed_show_map(struct seq_file *m, struct npu_map *map)
{
	struct npu_managed *u = map->u.managed;
	u64 nh = 0, nd = 0, nb = 0, nrm = 0, dev_bytes = 0, c[6] = { 0 };
	u8 pref = 0, acc = 0;
	u64 i;

	for (i = 0; i < u->nr_blocks; i++) {
		struct npu_managed_block *b = &u->blocks[i];

		if (b->valid == (NPU_MANAGED_HOST | NPU_MANAGED_DEV))
			nb++;
		else if (b->valid == NPU_MANAGED_HOST)
			nh++;
		else if (b->valid == NPU_MANAGED_DEV)
			nd++;
		if (b->attr & NPU_MANAGED_READ_MOSTLY)
			nrm++;
		pref |= b->attr;
		acc |= b->attr;
		if (u->dev[i])
			dev_bytes += u->dev[i]->size;
		c[0] += b->cpu_faults;
		c[1] += b->dev_faults;
		c[2] += b->h2d;
		c[3] += b->d2h;
		c[4] += b->dup_creates;
		c[5] += b->dup_invalidations;
	}
	seq_printf(m, "%llu %d 0x%lx %llu %llu %llu %llu %llu %llu %llu %s %s %llu %llu %llu %llu %llu %llu\n",
		   map->id, map->pid, map->va, map->len, u->nr_blocks,
		   nh, nd, nb, dev_bytes, nrm,
		   npu_managed_attr_name(pref, NPU_MANAGED_PREF_HOST, NPU_MANAGED_PREF_DEV),
		   npu_managed_attr_name(acc, NPU_MANAGED_ACC_HOST, NPU_MANAGED_ACC_DEV),
		   c[0], c[1], c[2], c[3], c[4], c[5]);
}

static void npu_managed_show_ctx(struct npu_ctx *ctx, void *m)
{
	struct npu_map *map;

	list_for_each_entry(map, &ctx->maps, node)
		if (map->role == NPU_MAP_MANAGED)
			npu_managed_show_map(m, map);
}

void npu_managed_show(struct seq_file *m, struct npu_dev *ndev)
{
	seq_puts(m, "id pid va size blocks res_host res_dev res_both dev_bytes read_mostly preferred accessed_by cpu_faults dev_faults h2d d2h dup_creates dup_invalidations\n");
	npu_dev_walk_ctxs(ndev, true, npu_managed_show_ctx, m);
}
