// SPDX-License-Identifier: GPL-2.0
/*
 * Physical handles of a context, used by VMM and by sharing alike: an id in
 * npu_ctx.handles naming a referenced npu_phys.  A handle has user
 * references (holds: MallocPhysical, Import, Retain) and live mappings
 * (nr_maps); the id dies when both are zero, and with it the handle's
 * share key (npu_key.c), if it was exported.
 */
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "npu_sim.h"

void npu_handle_ctx_init(struct npu_ctx *ctx)
{
	xa_init_flags(&ctx->handles, XA_FLAGS_ALLOC1);
	ctx->handle_hint = NULL;
}

/*
 * A handle the user still holds, or NULL.  The handle found last is tried
 * before the xarray (map calls come in runs on one handle, and xa_load is
 * several calls under TCG); it is forgotten when its id dies.
 */
struct npu_handle *npu_handle_lookup(struct npu_ctx *ctx, u32 id)
{
	struct npu_handle *h = ctx->handle_hint;

	lockdep_assert_held_write(&ctx->lock);
	if (!h || h->id != id) {
		h = xa_load(&ctx->handles, id);
		if (!h)
			return NULL;
		ctx->handle_hint = h;
	}
	return h->holds ? h : NULL;
}

/* Device memory a handle charges to its context (not imported, not host). */
static u64 npu_handle_ctx_bytes(const struct npu_handle *h)
{
	return h->imported || npu_phys_is_host(h->phys) ? 0 : h->phys->size;
}

/*
 * An import counts for the importing process as its own memory would: host
 * memory in its pinned_vm against RLIMIT_MEMLOCK (-ENOMEM), device memory
 * against its device limit (-ENOMEM, counted as fail_limit), until the
 * handle goes; so memory another process (a child that exits, say)
 * exported stays counted on the live process holding it.
 */
static int npu_handle_charge_import(struct npu_ctx *ctx, struct npu_handle *h)
{
	struct mm_struct *mm;

	if (npu_phys_is_host(h->phys)) {
		mm = npu_pages_lock_bytes(h->phys->size);
		if (IS_ERR(mm))
			return PTR_ERR(mm);
		h->pin_mm = mm;
		return 0;
	}
	if (npu_limit_charge(ctx->proc, h->phys->size)) {
		npu_stat_inc(ctx->ndev, NPU_STAT_FAIL_LIMIT);
		return -ENOMEM;
	}
	h->limit_bytes = h->phys->size;
	return 0;
}

static void npu_handle_uncharge_import(struct npu_ctx *ctx,
				       struct npu_handle *h)
{
	if (h->pin_mm)
		npu_pages_unlock_bytes(h->pin_mm, h->phys->size);
	if (h->limit_bytes)
		npu_limit_uncharge(ctx->proc, h->limit_bytes);
}

/* New handle with one hold on @phys (whose reference it takes over). */
int npu_handle_add(struct npu_ctx *ctx, struct npu_phys *phys, bool imported,
		   u32 *id)
{
	struct npu_handle *h;
	int ret;

	lockdep_assert_held_write(&ctx->lock);
	if (ctx->nr_handles >= npu_max_objects)
		return -ENOMEM;
	h = kzalloc(sizeof(*h), GFP_KERNEL_ACCOUNT);
	if (!h)
		return -ENOMEM;
	h->holds = 1;
	h->imported = imported;
	h->phys = phys;
	ret = imported ? npu_handle_charge_import(ctx, h) : 0;
	if (ret) {
		kfree(h);
		return ret;
	}
	ret = xa_alloc_cyclic(&ctx->handles, &h->id, h, XA_LIMIT(1, INT_MAX),
			      &ctx->next_handle, GFP_KERNEL);
	if (ret < 0) {
		npu_handle_uncharge_import(ctx, h);
		kfree(h);
		return -ENOMEM;
	}
	ctx->nr_handles++;
	atomic64_add(npu_handle_ctx_bytes(h), &ctx->used);
	*id = h->id;
	return 0;
}

/* Forget @h: its id, its key, its charges. */
static struct npu_phys *npu_handle_destroy(struct npu_ctx *ctx,
					   struct npu_handle *h)
{
	struct npu_phys *phys = h->phys;

	xa_erase(&ctx->handles, h->id);
	if (ctx->handle_hint == h)
		ctx->handle_hint = NULL;
	npu_handle_unexport(h);
	npu_handle_uncharge_import(ctx, h);
	ctx->nr_handles--;
	atomic64_sub(npu_handle_ctx_bytes(h), &ctx->used);
	kfree(h);
	return phys;
}

/*
 * Drop the handle's id if nobody holds or maps it any more; returns the
 * npu_phys reference the caller must put after unlocking, or NULL.
 */
struct npu_phys *npu_handle_maybe_destroy(struct npu_ctx *ctx,
					  struct npu_handle *h)
{
	lockdep_assert_held_write(&ctx->lock);
	if (h->holds || h->nr_maps)
		return NULL;
	return npu_handle_destroy(ctx, h);
}

/*
 * The rule for a failed copy-out of a new handle @id of @phys: nobody
 * learnt the id, so drop it again unless another thread already used it.
 */
void npu_handle_unpublish(struct npu_ctx *ctx, u32 id, struct npu_phys *phys)
{
	struct npu_phys *dead = NULL;
	struct npu_handle *h;

	down_write(&ctx->lock);
	h = npu_handle_lookup(ctx, id);
	if (h && h->phys == phys && h->holds == 1) {
		h->holds = 0;
		dead = npu_handle_maybe_destroy(ctx, h);
	}
	up_write(&ctx->lock);
	if (dead)
		npu_phys_put(dead);
}

/* Release of the file: every handle goes (its mappings are gone already). */
void npu_handle_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_handle *h;
	unsigned long id;

	down_write(&ctx->lock);
	xa_for_each(&ctx->handles, id, h) {
		struct npu_phys *phys = npu_handle_destroy(ctx, h);

		up_write(&ctx->lock);
		npu_phys_put(phys);
		cond_resched();
		down_write(&ctx->lock);
	}
	up_write(&ctx->lock);
	xa_destroy(&ctx->handles);
}

/* Drop the share key of @h (ctx->lock held), if it was exported. */
void npu_handle_unexport(struct npu_handle *h)
{
	struct npu_share *sh = h->share;

	if (!sh)
		return;
	WRITE_ONCE(h->share, NULL);
	npu_key_drop(&sh->key);
}
