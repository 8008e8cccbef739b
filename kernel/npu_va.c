// SPDX-License-Identifier: GPL-2.0
/*
 * Device VA window of a context and its VA allocator.
 *
 * User space maps the device file once per context; device pointers are
 * addresses inside that window.  The window is a VM_PFNMAP mapping with no
 * PTE until the host touches it: in strict mode every touch is refused with
 * SIGSEGV (and counted), in host-access mode the fault handler maps the
 * backing 4 KiB page.  One VMA serves any number of allocations; a maple
 * tree (gap-tracking, under npu_ctx.lock) hands out VA ranges and answers
 * "which mapping contains address X" in O(log n).
 *
 * Each context's window lives at its own file offset range (vm_pgoff =
 * ctx->pgoff_base), so unmap_mapping_range() on the shared device inode
 * zaps only that context's PTEs.
 */
#include <linux/fs.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pgtable.h>
#include <linux/sched/mm.h>

#include "npu_sim.h"

void npu_va_ctx_init(struct npu_ctx *ctx)
{
	mt_init_flags(&ctx->va_mt, MT_FLAGS_ALLOC_RANGE | MT_FLAGS_LOCK_EXTERN);
	mt_set_external_lock(&ctx->va_mt, &ctx->lock);
}

void npu_va_ctx_destroy(struct npu_ctx *ctx)
{
	lockdep_assert_held(&ctx->lock);
	__mt_destroy(&ctx->va_mt);
}

/*
 * Give @map a VA in the window, aligned to @align (its backing page size,
 * as an absolute address) and followed by an unmapped guard page, so that
 * a copy running past its end hits a hole.  The guard is part of the tree
 * entry and thus never handed out.
 */
int npu_va_insert(struct npu_ctx *ctx, struct npu_map *map, u64 align)
{
	MA_STATE(mas, &ctx->va_mt, 0, 0);
	unsigned long win_last, need, start, last;

	lockdep_assert_held(&ctx->lock);
	if (ctx->win_state != NPU_WIN_MAPPED)
		return -ENXIO;
	win_last = ctx->win_end - 1;

	/* Room for the range, its guard and the worst-case alignment slack. */
	if (check_add_overflow((unsigned long)map->len,
			       (unsigned long)(NPU_VA_GUARD + align - PAGE_SIZE),
			       &need) ||
	    need > ctx->win_end - ctx->win_start)
		return -ENOMEM;

	if (mas_empty_area(&mas, ctx->win_start, win_last, need))
		return -ENOMEM;

	start = ALIGN(mas.index, align);
	last = start + map->len + NPU_VA_GUARD - 1;
	if (start < mas.index || last > win_last || last > mas.last)
		return -ENOMEM;

	/* mas_store_gfp() overwrites silently: be sure the range is free. */
	mas_set_range(&mas, start, start);
	if (mas_find(&mas, last))
		return -ENOMEM;

	mas_set_range(&mas, start, last);
	if (mas_store_gfp(&mas, map, GFP_KERNEL))
		return -ENOMEM;
	map->va = start;
	return 0;
}

/* The mapping whose device range [va, va + len) contains @addr, or NULL. */
struct npu_map *npu_va_lookup(struct npu_ctx *ctx, unsigned long addr)
{
	MA_STATE(mas, &ctx->va_mt, addr, addr);
	struct npu_map *map;

	lockdep_assert_held(&ctx->lock);
	map = mas_walk(&mas);
	if (!map || !map->phys || addr - map->va >= map->len)
		return NULL;
	return map;
}

/* The tree entry (allocation, mapping or reservation) at @addr, or NULL. */
struct npu_map *npu_va_entry(struct npu_ctx *ctx, unsigned long addr)
{
	MA_STATE(mas, &ctx->va_mt, addr, addr);
	struct npu_map *map;

	lockdep_assert_held(&ctx->lock);
	map = mas_walk(&mas);
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
	if (fixed < ctx->win_start || fixed >= ctx->win_end ||
	    resv->len + NPU_VA_GUARD > ctx->win_end - fixed)
		return -EBUSY;
	last = fixed + resv->len + NPU_VA_GUARD - 1;
	if (mas_find(&mas, last))
		return -EBUSY;
	mas_set_range(&mas, fixed, last);
	if (mas_store_gfp(&mas, resv, GFP_KERNEL))
		return -ENOMEM;
	resv->va = fixed;
	return 0;
}

/* Forget reservation @resv (nothing mapped in it any more) and its guard. */
void npu_va_release(struct npu_ctx *ctx, struct npu_map *resv)
{
	MA_STATE(mas, &ctx->va_mt, resv->va, resv->va + resv->len +
		 NPU_VA_GUARD - 1);

	lockdep_assert_held(&ctx->lock);
	if (mas_store_gfp(&mas, NULL, GFP_KERNEL)) {
		/* Out of memory: erase piece by piece, which cannot fail. */
		mas_set(&mas, resv->va);
		while (mas_find(&mas, resv->va + resv->len + NPU_VA_GUARD - 1))
			mas_erase(&mas);
	}
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
	mas_for_each(&mas, entry, last) {
		if (entry != map->resv)
			return -EBUSY;
	}
	mas_set_range(&mas, map->va, last);
	if (mas_store_gfp(&mas, map, GFP_KERNEL))
		return -ENOMEM;
	return 0;
}

/* Give @map's range back to its reservation and zap its PTEs. */
void npu_va_unmap_in(struct npu_ctx *ctx, struct npu_map *map)
{
	MA_STATE(mas, &ctx->va_mt, map->va, map->va + map->len - 1);

	lockdep_assert_held(&ctx->lock);
	if (mas_store_gfp(&mas, map->resv, GFP_KERNEL)) {
		mas_set(&mas, map->va);
		mas_erase(&mas);
	}
	npu_va_zap(ctx, map->va, map->len);
}

/* Zap host PTEs of [start, start + len) in the window. */
void npu_va_zap(struct npu_ctx *ctx, unsigned long start, u64 len)
{
	loff_t off;

	lockdep_assert_held(&ctx->lock);
	if (ctx->win_state != NPU_WIN_MAPPED)
		return;
	off = ((loff_t)ctx->pgoff_base << PAGE_SHIFT) + (start - ctx->win_start);
	unmap_mapping_range(ctx->mapping, off, len, 1);
}

/*
 * Forget @map's VA and zap its PTEs while the backing is still referenced
 * by the caller; a fault racing with this runs under ctx->lock too.
 */
void npu_va_remove(struct npu_ctx *ctx, struct npu_map *map)
{
	MA_STATE(mas, &ctx->va_mt, map->va, map->va);

	lockdep_assert_held(&ctx->lock);
	mas_erase(&mas);
	npu_va_zap(ctx, map->va, map->len);
}

/* ---- the window VMA ---------------------------------------------------- */

static vm_fault_t npu_va_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct npu_ctx *ctx = vma->vm_private_data;
	vm_flags_t flags = vma->vm_flags;
	vm_fault_t ret = VM_FAULT_SIGSEGV;
	struct npu_map *map;
	struct page *page;

	mutex_lock(&ctx->lock);
	/* Managed memory is host accessible in strict mode too. */
	map = npu_va_lookup(ctx, vmf->address);
	if (map && map->uvm) {
		ret = npu_uvm_fault(ctx, map, vmf);
		goto out;
	}
	if (!READ_ONCE(ctx->ndev->host_access)) {
		npu_stat_inc(ctx->ndev, NPU_STAT_HOST_ACCESS_FAULTS);
		goto out;
	}
	map = npu_va_lookup(ctx, vmf->address);
	if (!map)
		goto out;
	if (map->flags & NPU_SIM_ALLOC_READONLY) {
		if (vmf->flags & FAULT_FLAG_WRITE)
			goto out;
		flags &= ~VM_WRITE;
	}
	page = npu_phys_page(map->phys,
			     map->phys_off + (vmf->address - map->va));
	ret = vmf_insert_pfn_prot(vma, vmf->address, page_to_pfn(page),
				  vm_get_page_prot(flags));
out:
	mutex_unlock(&ctx->lock);
	return ret;
}

/*
 * A write to a read-only PTE of a shared PFN mapping would otherwise be
 * made writable by the mm core: refuse it for read-only memory.  Having
 * this hook also keeps mprotect() from upgrading PTEs behind our back.
 */
static vm_fault_t npu_va_pfn_mkwrite(struct vm_fault *vmf)
{
	struct npu_ctx *ctx = vmf->vma->vm_private_data;
	vm_fault_t ret = VM_FAULT_SIGSEGV;
	struct npu_map *map;

	mutex_lock(&ctx->lock);
	map = npu_va_lookup(ctx, vmf->address);
	if (map && map->uvm)
		ret = npu_uvm_mkwrite(ctx, map, vmf);
	else if (map && !(map->flags & NPU_SIM_ALLOC_READONLY) &&
	    READ_ONCE(ctx->ndev->host_access))
		ret = 0;
	mutex_unlock(&ctx->lock);
	return ret;
}

static void npu_va_close(struct vm_area_struct *vma)
{
	struct npu_ctx *ctx = vma->vm_private_data;

	mutex_lock(&ctx->lock);
	/* A failed mremap() closes a temporary copy at another address. */
	if (ctx->win_state == NPU_WIN_MAPPED && vma->vm_start == ctx->win_start) {
		ctx->win_state = NPU_WIN_CLOSED;
		ctx->win_start = 0;
		ctx->win_end = 0;
	}
	mutex_unlock(&ctx->lock);
}

/* Device pointers are addresses: the window can be neither split nor moved. */
static int npu_va_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static int npu_va_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

/*
 * mprotect(PROT_WRITE) over any read-only allocation is refused with
 * -EACCES (checked before the mm core tries to split the window, which
 * npu_va_may_split refuses with -EINVAL for any sub-range).
 */
static int npu_va_mprotect(struct vm_area_struct *vma, unsigned long start,
			   unsigned long end, unsigned long newflags)
{
	struct npu_ctx *ctx = vma->vm_private_data;
	struct npu_map *map;
	int ret = 0;

	MA_STATE(mas, &ctx->va_mt, start, start);
	if (!(newflags & VM_WRITE))
		return 0;
	mutex_lock(&ctx->lock);
	mas_for_each(&mas, map, end - 1) {
		if (map->phys && (map->flags & NPU_SIM_ALLOC_READONLY)) {
			ret = -EACCES;
			break;
		}
	}
	mutex_unlock(&ctx->lock);
	return ret;
}

const struct vm_operations_struct npu_va_vm_ops = {
	.fault = npu_va_fault,
	.pfn_mkwrite = npu_va_pfn_mkwrite,
	.close = npu_va_close,
	.may_split = npu_va_may_split,
	.mremap = npu_va_mremap,
	.mprotect = npu_va_mprotect,
};

/*
 * Place the window on a 1 GiB boundary so allocations of every page size
 * can be aligned without waste, in the style of dax_get_unmapped_area().
 */
unsigned long npu_va_get_unmapped_area(struct file *filp, unsigned long addr,
				       unsigned long len, unsigned long pgoff,
				       unsigned long flags)
{
	unsigned long (*get_area)(struct file *filp, unsigned long addr,
				  unsigned long len, unsigned long pgoff,
				  unsigned long flags);
	unsigned long raw;

	get_area = current->mm->get_unmapped_area;
	if ((flags & MAP_FIXED) || addr || pgoff || len != npu_window_size)
		return get_area(filp, addr, len, pgoff, flags);

	raw = get_area(filp, 0, len + PUD_SIZE, 0, flags);
	if (IS_ERR_VALUE(raw))
		return get_area(filp, addr, len, pgoff, flags);
	return ALIGN(raw, PUD_SIZE);
}

int npu_va_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct npu_ctx *ctx = filp->private_data;
	int ret = 0;

	if (current->mm != ctx->mm || vma->vm_mm != ctx->mm)
		return -EACCES;
	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != npu_window_size)
		return -EINVAL;
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;

	mutex_lock(&ctx->lock);
	if (ctx->win_state != NPU_WIN_NONE) {
		ret = -EBUSY;
		goto out;
	}
	/* VM_IO also keeps madvise(MADV_DOFORK) from undoing VM_DONTCOPY. */
	vma->vm_flags |= VM_PFNMAP | VM_IO | VM_DONTEXPAND | VM_DONTDUMP |
			 VM_DONTCOPY;
	vma->vm_flags &= ~VM_MAYEXEC;
	vma->vm_pgoff = ctx->pgoff_base;
	vma->vm_ops = &npu_va_vm_ops;
	vma->vm_private_data = ctx;

	ctx->win_start = vma->vm_start;
	ctx->win_end = vma->vm_end;
	ctx->win_state = NPU_WIN_MAPPED;
out:
	mutex_unlock(&ctx->lock);
	return ret;
}
