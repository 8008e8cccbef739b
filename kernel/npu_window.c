// SPDX-License-Identifier: GPL-2.0
/*
 * The device VA window of a context: the VMA user space maps once per open
 * file.  Device pointers are addresses inside it.  It is a VM_PFNMAP
 * mapping with no PTE until the host touches it: in strict mode every
 * touch is refused with SIGSEGV (and counted), in host-access mode the
 * fault handler maps the backing 4 KiB page; a map role with its own host
 * rule (managed memory) gets the fault through its npu_map_ops.  One VMA
 * serves any number of allocations (npu_va.c hands out the ranges).
 *
 * Each context's window lives at its own file offset range (vm_pgoff =
 * ctx->pgoff_base), so unmap_mapping_range() on the shared device inode
 * zaps only that context's PTEs.
 *
 * The vm_operations table is npu_ctx.c's: closing the window is the end of
 * the owner's use of the context, which that file handles.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pgtable.h>
#include <linux/sched/mm.h>

#include "npu_sim.h"
#include "npu_trace.h"

/* Bytes of every context's window (module parameter va_window_gib). */
unsigned long npu_window_size;

/*
 * Zap host PTEs of [start, start + len) in the window.  Callers hold the
 * backing referenced; a fault racing with this runs under ctx->lock too.
 */
void npu_window_zap(struct npu_ctx *ctx, unsigned long start, u64 len)
{
	loff_t off;

	lockdep_assert_held_write(&ctx->lock);
	/* No fault ever ran (strict mode, no managed memory): no PTE to zap. */
	if (ctx->win_state != NPU_WIN_MAPPED || !ctx->win_ptes)
		return;
	off = ((loff_t)ctx->pgoff_base << PAGE_SHIFT) + (start - ctx->win_start);
	unmap_mapping_range(ctx->mapping, off, len, 1);
}

vm_fault_t npu_window_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct npu_ctx *ctx = vma->vm_private_data;
	vm_flags_t flags = vma->vm_flags;
	vm_fault_t ret = VM_FAULT_SIGSEGV;
	struct npu_map *map;
	struct page *page;

	down_write(&ctx->lock);
	ctx->win_ptes = true;	/* from now on npu_window_zap() has work */
	map = npu_va_lookup(ctx, vmf->address);
	/* A role with its own rule (managed memory: strict mode too). */
	if (map && map->ops && map->ops->fault) {
		ret = map->ops->fault(ctx, map, vmf);
		goto out;
	}
	if (!READ_ONCE(ctx->ndev->host_access)) {
		npu_stat_inc(ctx->ndev, NPU_STAT_HOST_ACCESS_FAULTS);
		npu_check_host_fault(ctx, map, vmf->real_address);
		goto out;
	}
	/* Host PTEs map whole pages: none for (an import of) a slot. */
	if (!map || !npu_map_accessible(map, false) ||
	    !PAGE_ALIGNED(map->phys_off | map->len))
		goto out;
	if (map->flags & NPU_SIM_ALLOC_READONLY) {
		if (vmf->flags & FAULT_FLAG_WRITE)
			goto out;
		flags &= ~VM_WRITE;
	}
	if (map->role == NPU_MAP_VMM)
		map->u.vmm.host_ptes = true;	/* its unmap must zap */
	page = npu_phys_page(map->phys,
			     map->phys_off + (vmf->address - map->va));
	ret = vmf_insert_pfn_prot(vma, vmf->address, page_to_pfn(page),
				  vm_get_page_prot(flags));
out:
	up_write(&ctx->lock);
	trace_npu_sim_host_fault(ctx->ndev->index, ctx->pid, vmf->address,
				 vmf->flags & FAULT_FLAG_WRITE,
				 (__force u32)ret);
	return ret;
}

/*
 * A write to a read-only PTE of a shared PFN mapping would otherwise be
 * made writable by the mm core: refuse it for read-only memory.  Having
 * this hook also keeps mprotect() from upgrading PTEs behind our back.
 */
vm_fault_t npu_window_pfn_mkwrite(struct vm_fault *vmf)
{
	struct npu_ctx *ctx = vmf->vma->vm_private_data;
	vm_fault_t ret = VM_FAULT_SIGSEGV;
	struct npu_map *map;

	down_write(&ctx->lock);
	map = npu_va_lookup(ctx, vmf->address);
	if (map && map->ops && map->ops->mkwrite)
		ret = map->ops->mkwrite(ctx, map, vmf);
	else if (map && !(map->flags & NPU_SIM_ALLOC_READONLY) &&
		 READ_ONCE(ctx->ndev->host_access))
		ret = 0;
	up_write(&ctx->lock);
	return ret;
}

/*
 * The window VMA goes (munmap, exec or exit of the owner): true when it
 * was the context's window, which can then never be mapped again.
 */
bool npu_window_close(struct vm_area_struct *vma)
{
	struct npu_ctx *ctx = vma->vm_private_data;
	bool closed = false;

	down_write(&ctx->lock);
	/* A failed mremap() closes a temporary copy at another address. */
	if (ctx->win_state == NPU_WIN_MAPPED && vma->vm_start == ctx->win_start) {
		ctx->win_state = NPU_WIN_CLOSED;
		ctx->win_start = 0;
		ctx->win_end = 0;
		closed = true;
	}
	up_write(&ctx->lock);
	return closed;
}

/* Device pointers are addresses: the window can be neither split nor moved. */
int npu_window_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

int npu_window_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

/*
 * mprotect(PROT_WRITE) over any read-only allocation is refused with
 * -EACCES (checked before the mm core tries to split the window, which
 * npu_window_may_split refuses with -EINVAL for any sub-range).
 */
int npu_window_mprotect(struct vm_area_struct *vma, unsigned long start,
			       unsigned long end, unsigned long newflags)
{
	struct npu_ctx *ctx = vma->vm_private_data;
	bool ro;

	if (!(newflags & VM_WRITE))
		return 0;
	down_write(&ctx->lock);
	ro = npu_va_any_readonly(ctx, start, end);
	up_write(&ctx->lock);
	return ro ? -EACCES : 0;
}

/* Whether @vma is a window of some context (its fault handler is ours). */
static bool npu_window_is(struct vm_area_struct *vma)
{
	return vma->vm_ops && vma->vm_ops->fault == npu_window_fault;
}

/*
 * The window VMA of @ctx covering @addr in the current mm, or NULL (a
 * caller outside the owner, or the window is gone).  mmap_lock held.
 */
struct vm_area_struct *npu_window_vma(struct npu_ctx *ctx, unsigned long addr)
{
	struct vm_area_struct *vma;

	if (current->mm != ctx->mm || ctx->win_state != NPU_WIN_MAPPED)
		return NULL;
	vma = find_vma(ctx->mm, addr);
	if (!vma || !npu_window_is(vma) ||
	    vma->vm_private_data != ctx || vma->vm_start > addr)
		return NULL;
	return vma;
}

/*
 * The context whose window holds @addr in the current process, referenced
 * (npu_ctx_put); NULL when @addr is in no window.  Only the context, not
 * its file: queued work holding it never keeps a file from its release.
 */
struct npu_ctx *npu_window_owner(unsigned long addr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct npu_ctx *owner = NULL;

	if (!mm)
		return NULL;
	mmap_read_lock(mm);
	vma = vma_lookup(mm, addr);
	/* The VMA's file holds a reference: ours is taken under mmap_lock. */
	if (vma && npu_window_is(vma)) {
		owner = vma->vm_private_data;
		npu_ctx_get(owner);
	}
	mmap_read_unlock(mm);
	return owner;
}

/*
 * Place the window on a 1 GiB boundary so allocations of every page size
 * can be aligned without waste, in the style of dax_get_unmapped_area().
 */
unsigned long npu_window_get_unmapped_area(struct file *filp,
					   unsigned long addr,
					   unsigned long len,
					   unsigned long pgoff,
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

int npu_window_mmap(struct file *filp, struct vm_area_struct *vma,
		    const struct vm_operations_struct *ops)
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

	down_write(&ctx->lock);
	if (ctx->win_state != NPU_WIN_NONE) {
		ret = -EBUSY;
		goto out;
	}
	/* VM_IO also keeps madvise(MADV_DOFORK) from undoing VM_DONTCOPY. */
	vma->vm_flags |= VM_PFNMAP | VM_IO | VM_DONTEXPAND | VM_DONTDUMP |
			 VM_DONTCOPY;
	vma->vm_flags &= ~VM_MAYEXEC;
	vma->vm_pgoff = ctx->pgoff_base;
	vma->vm_ops = ops;
	vma->vm_private_data = ctx;

	ctx->win_start = vma->vm_start;
	ctx->win_end = vma->vm_end;
	ctx->win_state = NPU_WIN_MAPPED;
out:
	up_write(&ctx->lock);
	return ret;
}
