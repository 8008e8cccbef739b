// SPDX-License-Identifier: GPL-2.0
/*
 * The life of a context, one open file of a device, in one place:
 *
 *   open        the context is made and initialised, owned by the opening
 *               process (its mm) and charged to its memory cgroup;
 *   owner gone  the owner can no longer use the context's device pointers:
 *               its window closes (munmap, exec or exit of the owner), or
 *               its mm goes (exit, exec: an mmu notifier, so a context
 *               that never mapped its window counts too).  Its queued
 *               stream work is cancelled and its memory freed now, even
 *               while a forked child keeps the file open;
 *   release     the last file reference goes: streams are drained, the
 *               rest is torn down, and the context's own reference is
 *               dropped (a queued peer copy of another context may still
 *               hold the struct, never the file: npu_ctx_put()).
 *
 * The window's vm_operations live here because their close is "owner gone";
 * the handlers themselves are npu_window.c's.
 */
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "npu_sim.h"

/* Everything the context holds goes back; the context itself stays. */
static void npu_ctx_drop_memory(struct npu_ctx *ctx)
{
	/*
	 * Empty the VA tree first, so that ioctls of other threads racing
	 * with a closing window find nothing by address any more; the
	 * teardowns then take the maps off their lists.
	 */
	down_write(&ctx->lock);
	npu_va_ctx_destroy(ctx);
	npu_va_ctx_init(ctx);
	up_write(&ctx->lock);
	npu_ipc_ctx_teardown(ctx);
	npu_vmm_ctx_teardown(ctx);
	npu_mempool_ctx_teardown(ctx);
	npu_mem_ctx_teardown(ctx);
}

/*
 * The owner's device pointers are gone.  May run under the owner's
 * mmap_lock (from the window's close), or in a stream worker putting the
 * owner's mm last, so it waits for no worker: an op running stops at its
 * next chunk and puts its memory then.
 */
static void npu_ctx_owner_gone(struct npu_ctx *ctx)
{
	mutex_lock(&ctx->life_lock);
	if (!ctx->released) {
		npu_stream_ctx_cancel(ctx);
		npu_ctx_drop_memory(ctx);
	}
	mutex_unlock(&ctx->life_lock);
}

static void npu_ctx_mm_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	npu_ctx_owner_gone(container_of(mn, struct npu_ctx, owner_mn));
}

/* After release and an SRCU grace period: the notifier's reference. */
static void npu_ctx_mn_free(struct mmu_notifier *mn)
{
	npu_ctx_put(container_of(mn, struct npu_ctx, owner_mn));
}

static const struct mmu_notifier_ops npu_ctx_mn_ops = {
	.release = npu_ctx_mm_release,
	.free_notifier = npu_ctx_mn_free,
};

static void npu_ctx_vma_close(struct vm_area_struct *vma)
{
	if (npu_window_close(vma))
		npu_ctx_owner_gone(vma->vm_private_data);
}

static const struct vm_operations_struct npu_ctx_vm_ops = {
	.fault = npu_window_fault,
	.pfn_mkwrite = npu_window_pfn_mkwrite,
	.close = npu_ctx_vma_close,
	.may_split = npu_window_may_split,
	.mremap = npu_window_mremap,
	.mprotect = npu_window_mprotect,
};

int npu_ctx_mmap(struct file *filp, struct vm_area_struct *vma)
{
	return npu_window_mmap(filp, vma, &npu_ctx_vm_ops);
}

/* A small call reads fields of one page of its context (kmalloc-4k). */
static_assert(sizeof(struct npu_ctx) <= PAGE_SIZE);

int npu_ctx_open(struct inode *inode, struct file *filp)
{
	struct npu_dev *ndev = container_of(inode->i_cdev, struct npu_dev, cdev);
	unsigned long win_pages = npu_window_size >> PAGE_SHIFT;
	struct npu_ctx *ctx;
	int index, ret;

	if (!current->mm)
		return -EPERM;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;

	/* Each context gets its own file offset range for its window. */
	index = ida_alloc_max(&ndev->ctx_ida,
			      (LLONG_MAX >> PAGE_SHIFT) / win_pages - 2,
			      GFP_KERNEL);
	if (index < 0) {
		kfree(ctx);
		return index == -ENOSPC ? -EMFILE : index;
	}

	kref_init(&ctx->ref);
	ctx->ndev = ndev;
	ctx->index = index;
	ctx->pgoff_base = (pgoff_t)index * win_pages;
	ctx->mm = current->mm;
	mmgrab(ctx->mm);
	/* Stream workers allocate on behalf of the opener: charge its memcg. */
	ctx->memcg = get_mem_cgroup_from_mm(ctx->mm);
	ctx->pid = task_tgid_nr(current);
	init_rwsem(&ctx->lock);
	mutex_init(&ctx->life_lock);
	ret = npu_limit_ctx_init(ctx);
	if (ret)
		goto err;
	ret = npu_stream_ctx_init(ctx);
	if (ret)
		goto err_limit;
	ctx->mapping = filp->f_mapping;
	INIT_LIST_HEAD(&ctx->maps);
	npu_va_ctx_init(ctx);
	npu_vmm_ctx_init(ctx);
	npu_ipc_ctx_init(ctx);
	npu_mempool_ctx_init(ctx);
	npu_notify_ctx_init(ctx);
	npu_graph_ctx_init(ctx);
	npu_small_ctx_init(ctx);
	npu_fault_ctx_init(ctx);
	/* Last: from here on the owner's exit may call npu_ctx_owner_gone. */
	ctx->owner_mn.ops = &npu_ctx_mn_ops;
	npu_ctx_get(ctx);
	ret = mmu_notifier_register(&ctx->owner_mn, ctx->mm);
	if (ret) {
		npu_ctx_put(ctx);
		npu_stream_ctx_teardown(ctx);
		goto err_limit;
	}
	filp->private_data = ctx;
	npu_dev_add_ctx(ndev, ctx);

	return nonseekable_open(inode, filp);

err_limit:
	npu_limit_ctx_teardown(ctx);
err:
	ida_free(&ndev->ctx_ida, index);
	npu_ctx_put(ctx);
	return ret;
}

int npu_ctx_release(struct inode *inode, struct file *filp)
{
	struct npu_ctx *ctx = filp->private_data;
	struct npu_dev *ndev = ctx->ndev;

	npu_dev_del_ctx(ndev, ctx);

	/*
	 * Queued work references maps: cancel and drain it first, without
	 * life_lock (a worker putting the owner's mm last runs owner gone).
	 */
	npu_stream_ctx_teardown(ctx);
	/* Its notifies die: waits on them in other files end now. */
	npu_notify_ctx_teardown(ctx);
	npu_graph_ctx_teardown(ctx);
	npu_stream_values_changed();
	mutex_lock(&ctx->life_lock);
	ctx->released = true;
	npu_ctx_drop_memory(ctx);
	mutex_unlock(&ctx->life_lock);
	down_write(&ctx->lock);
	npu_va_ctx_destroy(ctx);
	up_write(&ctx->lock);
	npu_limit_ctx_teardown(ctx);
	ida_free(&ndev->ctx_ida, ctx->index);
	/* The notifier's reference goes after an SRCU grace period. */
	mmu_notifier_put(&ctx->owner_mn);
	npu_ctx_put(ctx);
	return 0;
}
