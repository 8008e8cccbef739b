// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual memory management (docs/design.md 4.3): VA reservations, physical
 * handles and the mappings of handles into reservations.
 *
 * A reservation is an npu_map of type NPU_MAP_RESERVATION with no backing,
 * stored in the context's VA tree over its whole range (plus a guard page).
 * A VMM mapping is an npu_map of type NPU_MAP_VMM entered in its
 * reservation's granule table (npu_va.c), which a lookup by address reads
 * after the tree: lookups stay O(log n), map and unmap store nothing in the
 * tree, back-to-back mappings are found one after the other (the copy
 * engine walks them like any run of allocations) and a hole of a
 * reservation is "not device memory" to copies and faults.
 *
 * Handles (npu_handle.c) name the physical objects.  A published mapping
 * (on ctx->vmaps) borrows its handle's npu_phys reference: the handle lives
 * while it has mappings (nr_maps).  A mapping that leaves the list while
 * someone else holds it (a running copy) takes a reference of its own
 * then, so the memory goes when the last mapping, handle, share or running
 * copy lets go of it.
 */
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "npu_sim.h"
#include "npu_trace.h"

void npu_vmm_ctx_init(struct npu_ctx *ctx)
{
	npu_handle_ctx_init(ctx);
	INIT_LIST_HEAD(&ctx->resvs);
	INIT_LIST_HEAD(&ctx->vmaps);
}

static int npu_phys_alloc_check(struct npu_dev *ndev,
				const struct npu_sim_phys_alloc *a)
{
	u64 gran = a->page_kind == NPU_SIM_PAGE_HUGE_1G ? SZ_1G :
							 NPU_SIM_VMM_GRANULE;

	if (a->flags & ~NPU_SIM_PHYS_FLAGS_MASK ||
	    npu_uapi_out_set(a, handle, charged))
		return -EINVAL;
	if (a->page_kind < NPU_SIM_PAGE_NORMAL ||
	    a->page_kind > NPU_SIM_PAGE_HUGE_1G)
		return -EINVAL;
	if (!a->size || a->size & (gran - 1))
		return -EINVAL;
	switch (a->location) {
	case NPU_SIM_LOC_DEVICE:
		if (a->location_id != ndev->index)
			return -EINVAL;
		break;
	case NPU_SIM_LOC_HOST:
		if (a->location_id || a->page_kind == NPU_SIM_PAGE_HUGE_1G)
			return -EINVAL;
		break;
	case NPU_SIM_LOC_HOST_NUMA:
		if (a->location_id >= MAX_NUMNODES ||
		    !node_online(a->location_id) ||
		    a->page_kind == NPU_SIM_PAGE_HUGE_1G)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

int npu_ioctl_phys_alloc(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_dev *ndev = ctx->ndev;
	struct npu_sim_phys_alloc args;
	struct npu_phys *phys;
	u32 flags = 0, id;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	ret = npu_phys_alloc_check(ndev, &args);
	if (!ret)
		ret = npu_profile_check_phys(args.page_kind, args.mem_attr);
	if (ret)
		return ret;

	if (atomic_dec_if_positive(&ndev->fail_alloc) >= 0) {
		npu_stat_inc(ndev, NPU_STAT_FAIL_INJECTED);
		return -ENOMEM;
	}
	ret = npu_fault_check(ctx, NPU_SIM_FAULT_ALLOC);
	if (ret)
		return ret;

	if (args.flags & NPU_SIM_PHYS_P2P)
		flags |= NPU_SIM_ALLOC_P2P;
	if (args.location != NPU_SIM_LOC_DEVICE)
		flags |= NPU_PHYS_HOST;
	ret = npu_phys_create(ndev, ctx->proc, args.page_kind, args.size, flags,
			      &phys);
	ret = npu_phys_errno(ndev, ret);
	if (ret)
		return ret;
	phys->location = args.location;
	phys->location_id = args.location_id;
	phys->mem_attr = args.mem_attr;
	phys->pid = task_tgid_nr(current);

	down_write(&ctx->lock);
	ret = npu_handle_add(ctx, phys, false, &id);
	up_write(&ctx->lock);
	if (ret) {
		npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
		npu_phys_put(phys);
		return ret;
	}

	args.handle = id;
	args.charged = npu_phys_is_host(phys) ? 0 : phys->size;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		npu_handle_unpublish(ctx, id, phys);
		return -EFAULT;
	}
	return 0;
}

int npu_ioctl_phys_free(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_phys_free args;
	struct npu_phys *dead = NULL;
	struct npu_handle *h;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;

	npu_mem_peaks_sample(ctx);
	down_write(&ctx->lock);
	h = npu_handle_lookup(ctx, args.handle);
	if (h) {
		h->holds--;
		dead = npu_handle_maybe_destroy(ctx, h);
	} else {
		ret = -ENOENT;
	}
	up_write(&ctx->lock);
	if (dead)
		npu_phys_put(dead);
	return ret;
}

int npu_ioctl_phys_info(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_phys_info args;
	struct npu_handle *h;
	struct npu_phys *phys;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || npu_uapi_out_set(&args, size, pad))
		return -EINVAL;

	down_write(&ctx->lock);
	h = npu_handle_lookup(ctx, args.handle);
	if (!h) {
		up_write(&ctx->lock);
		return -ENOENT;
	}
	phys = h->phys;
	args.size = phys->size;
	args.page_kind = phys->kind;
	args.location = phys->location;
	args.location_id = phys->location_id;
	args.mem_attr = phys->mem_attr;
	args.mappings = h->nr_maps;
	if (h->imported)
		args.flags |= NPU_SIM_PHYS_INFO_IMPORTED;
	if (READ_ONCE(h->share))
		args.flags |= NPU_SIM_PHYS_INFO_EXPORTED;
	if (phys->flags & NPU_SIM_ALLOC_P2P)
		args.flags |= NPU_SIM_PHYS_INFO_P2P;
	up_write(&ctx->lock);

	if (copy_to_user(uarg, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}

/* ---- reservations ------------------------------------------------------- */

static const struct npu_map_ops npu_resv_ops = {
	.destroy = npu_va_resv_destroy,
};

/* The reservation covering tree entry @e, or NULL if @e is not VMM. */
static struct npu_map *npu_entry_resv(struct npu_map *e)
{
	if (!e)
		return NULL;
	if (e->role == NPU_MAP_RESERVATION)
		return e;
	if (e->role == NPU_MAP_VMM)
		return e->u.vmm.resv;
	return NULL;
}

int npu_ioctl_vmm_reserve(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_vmm_reserve args;
	struct npu_map *resv, *e;
	bool undo = false;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad || args.va)
		return -EINVAL;
	if (!args.size || args.size & (NPU_SIM_VMM_GRANULE - 1) ||
	    args.size > npu_window_size ||
	    args.addr & (NPU_SIM_VMM_GRANULE - 1))
		return -EINVAL;

	resv = npu_map_create(NPU_MAP_RESERVATION, &npu_resv_ops, NULL, args.size,
			      args.size);
	if (!resv)
		return -ENOMEM;

	down_write(&ctx->lock);
	ret = npu_va_reserve(ctx, resv, args.size >= SZ_1G ? SZ_1G :
				 NPU_SIM_VMM_GRANULE, args.addr);
	if (ret) {
		up_write(&ctx->lock);
		npu_map_put(resv);
		return ret;
	}
	list_add_tail(&resv->node, &ctx->resvs);
	up_write(&ctx->lock);

	args.va = resv->va;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		down_write(&ctx->lock);
		e = npu_va_entry(ctx, args.va);
		if (e == resv && !resv->u.resv.nr_mapped) {
			npu_va_release(ctx, resv);
			list_del_init(&resv->node);
			undo = true;
		}
		up_write(&ctx->lock);
		if (undo)
			npu_map_put(resv);
		return -EFAULT;
	}
	return 0;
}

int npu_ioctl_vmm_release(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_vmm_release args;
	struct npu_map *resv;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;

	npu_mem_peaks_sample(ctx);
	down_write(&ctx->lock);
	resv = npu_entry_resv(npu_va_entry(ctx, args.va));
	if (!resv || resv->va != args.va) {
		ret = -ENOENT;
	} else if (resv->u.resv.nr_mapped) {
		ret = -EBUSY;
	} else {
		npu_va_release(ctx, resv);
		list_del_init(&resv->node);
	}
	up_write(&ctx->lock);
	if (!ret)
		npu_map_put(resv);
	return ret;
}

/* ---- mappings ----------------------------------------------------------- */

/*
 * The npu_map of a new mapping (ctx->lock held): the one the last unmap
 * (or failed map) kept, or a fresh one; taken under the lock, so no atomic
 * for the spare.  The spare needs no npu_map_init(): it is a VMM map with
 * one reference, no queued op, no phys and an empty node (the rule of
 * npu_map_keep_spare()), and npu_ioctl_vmm_map() sets every other field
 * a mapping uses but these, which a mapping's life may have changed.
 */
static struct npu_map *npu_vmap_get(struct npu_ctx *ctx)
{
	struct npu_map *spare = ctx->vmap_spare;

	lockdep_assert_held_write(&ctx->lock);
	if (!spare)
		return npu_map_create(NPU_MAP_VMM, NULL, NULL, 0, 0);
	ctx->vmap_spare = NULL;
	spare->pid = task_tgid_nr(current);
	spare->site = 0;
	spare->u.vmm.host_ptes = false;
	return spare;
}

/*
 * Put a VMM map that left ctx->vmaps: one still held elsewhere takes its
 * own reference to the phys it borrowed (ctx->lock held, so the handle,
 * and its reference, is still there).
 */
static void npu_vmap_own_phys(struct npu_map *map)
{
	if (map->phys)
		npu_phys_get(map->phys);
}

/*
 * The VMM_MAP record, field by field in one user access section: the
 * result of copy_from_user() (all or -EFAULT) without its calls out (the
 * object-size check, the copy routine), which TCG charges per call.
 */
static __always_inline bool npu_vmm_map_args(struct npu_sim_vmm_map *a,
					     const void __user *uarg)
{
	const struct npu_sim_vmm_map __user *u = uarg;

	if (!user_read_access_begin(u, sizeof(*u)))
		return false;
	unsafe_get_user(a->va, &u->va, efault);
	unsafe_get_user(a->size, &u->size, efault);
	unsafe_get_user(a->offset, &u->offset, efault);
	unsafe_get_user(a->handle, &u->handle, efault);
	unsafe_get_user(a->flags, &u->flags, efault);
	user_read_access_end();
	return true;
efault:
	user_read_access_end();
	return false;
}

int npu_ioctl_vmm_map(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_dev *ndev = ctx->ndev;
	struct npu_sim_vmm_map args;
	struct npu_map *map, *resv;
	struct npu_handle *h;
	struct npu_phys *phys;
	u64 gran;
	int ret;

	if (!npu_vmm_map_args(&args, uarg))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_MAP_NO_ACCESS || args.offset || !args.size ||
	    args.va & (NPU_SIM_VMM_GRANULE - 1))
		return -EINVAL;

	down_write(&ctx->lock);
	h = npu_handle_lookup(ctx, args.handle);
	if (!h) {
		up_write(&ctx->lock);
		return -ENOENT;
	}
	map = npu_vmap_get(ctx);
	if (!map) {
		up_write(&ctx->lock);
		return -ENOMEM;
	}
	phys = h->phys;
	gran = phys->kind == NPU_SIM_PAGE_HUGE_1G ? SZ_1G : NPU_SIM_VMM_GRANULE;
	if (args.size != phys->size || args.va & (gran - 1)) {
		ret = -EINVAL;
		goto err_unlock;
	}
	resv = npu_va_resv_at(ctx, args.va);
	if (!resv || args.size > resv->va + resv->len - args.va) {
		ret = -EINVAL;
		goto err_unlock;
	}

	map->u.vmm.resv = resv;
	map->u.vmm.handle = h;
	map->va = args.va;
	map->len = phys->size;
	map->size = phys->size;
	map->footprint = phys->size;
	map->flags = phys->flags & NPU_SIM_ALLOC_P2P;
	map->u.vmm.access = args.flags & NPU_SIM_MAP_NO_ACCESS ? 0 :
			    NPU_SIM_ACCESS_READWRITE;
	map->u.vmm.access_loc = NPU_SIM_LOC_DEVICE;
	map->u.vmm.access_loc_id = ndev->index;

	ret = npu_fault_check(ctx, NPU_SIM_FAULT_MAP);
	if (!ret)
		ret = npu_va_map_in(ctx, map);
	if (ret)
		goto err_unlock;
	map->phys = phys;	/* borrowed: see the top of this file */
	h->nr_maps++;
	resv->u.resv.nr_mapped++;
	list_add_tail(&map->node, &ctx->vmaps);
	trace_npu_sim_map(ndev->index, ctx->pid, NPU_MAP_VMM, h->id, map->va,
			  map->len);
	up_write(&ctx->lock);
	return 0;

err_unlock:
	/* Unpublished and unreferenced: the spare again, if there is none. */
	if (!ctx->vmap_spare) {
		ctx->vmap_spare = map;
		map = NULL;
	}
	up_write(&ctx->lock);
	if (map)
		npu_map_put(map);
	return ret;
}

int npu_ioctl_vmm_unmap(struct npu_ctx *ctx, void __user *uarg)
{
	const struct npu_sim_vmm_unmap __user *u = uarg;
	struct npu_phys *dead;
	struct npu_handle *h;
	struct npu_map *map;
	u32 flags, pad;
	bool kept;
	u64 va;

	/* The record in one user access section, as npu_vmm_map_args(). */
	if (!user_read_access_begin(u, sizeof(*u)))
		return -EFAULT;
	unsafe_get_user(va, &u->va, efault);
	unsafe_get_user(flags, &u->flags, efault);
	unsafe_get_user(pad, &u->pad, efault);
	user_read_access_end();
	if (flags || pad)
		return -EINVAL;

	down_write(&ctx->lock);
	map = npu_va_unmap_at(ctx, va);
	if (!map) {
		up_write(&ctx->lock);
		return -ENOENT;
	}
	/* No host fault into it: no PTE of it anywhere to zap. */
	if (map->u.vmm.host_ptes)
		npu_window_zap(ctx, map->va, map->len);
	trace_npu_sim_unmap(ctx->ndev->index, ctx->pid, NPU_MAP_VMM,
			    map->u.vmm.handle->id, map->va, map->len);
	list_del_init(&map->node);
	map->u.vmm.resv->u.resv.nr_mapped--;
	h = map->u.vmm.handle;
	map->u.vmm.handle = NULL;
	h->nr_maps--;
	/* Memory is given back only with the handle's last hold and map. */
	if (!h->holds && !h->nr_maps)
		npu_mem_peaks_sample(ctx);
	/* Kept: it drops the borrowed phys; else it owns it from now on. */
	kept = npu_map_keep_spare(&ctx->vmap_spare, map, NULL);
	if (!kept)
		npu_vmap_own_phys(map);
	dead = npu_handle_maybe_destroy(ctx, h);
	up_write(&ctx->lock);

	/* Pages go when the last holder (maybe a running copy) lets go. */
	if (!kept)
		npu_map_put(map);
	if (dead)
		npu_phys_put(dead);
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

int npu_ioctl_vmm_set_access(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_vmm_set_access args;
	struct npu_map *map;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.pad || args.access != NPU_SIM_ACCESS_READWRITE)
		return -EINVAL;
	if (args.location == NPU_SIM_LOC_DEVICE) {
		if (args.location_id >= npu_num_devs)
			return -EINVAL;
	} else if (args.location != NPU_SIM_LOC_HOST || args.location_id) {
		return -EINVAL;
	}

	down_write(&ctx->lock);
	map = npu_va_entry(ctx, args.va);
	if (!map || map->role != NPU_MAP_VMM || map->va != args.va ||
	    map->len != args.size) {
		ret = -ENOENT;
	} else {
		map->u.vmm.access = args.access;
		map->u.vmm.access_loc = args.location;
		map->u.vmm.access_loc_id = args.location_id;
	}
	up_write(&ctx->lock);
	return ret;
}

/* VMM_QUERY's record back to the caller: 0 or -EFAULT. */
static int npu_vmm_query_reply(void __user *uarg,
			       const struct npu_sim_vmm_query *args)
{
	if (copy_to_user(uarg, args, sizeof(*args)))
		return -EFAULT;
	return 0;
}

int npu_ioctl_vmm_query(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_vmm_query args;
	struct npu_small_page *sp;
	struct npu_phys *phys;
	struct npu_map *e;
	bool retain;
	u64 addr;
	u32 flags;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_QUERY_FLAGS_MASK ||
	    npu_uapi_out_set(&args, type, mem_attr))
		return -EINVAL;
	addr = args.addr;
	flags = args.flags;
	memset(&args, 0, sizeof(args));
	args.addr = addr;
	args.flags = flags;
	retain = flags & NPU_SIM_QUERY_RETAIN;

	/* Only a hold changes anything: a plain query holds the lock shared. */
	npu_ctx_lock(ctx, retain);
	e = npu_va_find(ctx, addr, &sp);
	/* A slot is answered from its page: no read of its map nor phys. */
	if (sp) {
		bool found = false;

		if (!retain) {
			spin_lock(npu_small_lock(ctx, sp));
			found = npu_small_query(ctx, sp, addr, &args);
			spin_unlock(npu_small_lock(ctx, sp));
		}
		npu_ctx_unlock(ctx, retain);
		return found ? npu_vmm_query_reply(uarg, &args) : -ENXIO;
	}
	if (e && addr - e->va >= e->len)
		e = NULL;
	if (!e || (retain && e->role != NPU_MAP_VMM)) {
		npu_ctx_unlock(ctx, retain);
		return -ENXIO;
	}
	/* A hold is a user reference: as many as objects of a context. */
	if (retain && e->u.vmm.handle->holds >= npu_max_objects) {
		npu_ctx_unlock(ctx, retain);
		return -EOVERFLOW;
	}
	args.base = e->va;
	args.size = e->len;
	phys = e->phys;
	if (phys) {
		args.page_kind = phys->kind;
		args.location = phys->location ?: NPU_SIM_LOC_DEVICE;
		args.location_id = phys->location ? phys->location_id :
				   ctx->ndev->index;
	}
	switch (e->role) {
	case NPU_MAP_LINEAR:
	case NPU_MAP_MANAGED:
	case NPU_MAP_IMPORTED:
	case NPU_MAP_REGISTERED:
		args.type = NPU_SIM_QUERY_ALLOC;
		args.size = e->size;
		break;
	case NPU_MAP_RESERVATION:
		args.type = NPU_SIM_QUERY_RESERVED;
		break;
	case NPU_MAP_VMM:
		args.type = NPU_SIM_QUERY_MAP;
		args.handle = e->u.vmm.handle->id;
		args.access = e->u.vmm.access;
		args.access_location = e->u.vmm.access_loc;
		args.access_location_id = e->u.vmm.access_loc_id;
		args.mem_attr = phys->mem_attr;
		if (retain)
			e->u.vmm.handle->holds++;
		break;
	}
	npu_ctx_unlock(ctx, retain);
	return npu_vmm_query_reply(uarg, &args);
}

/* ---- release of the file ------------------------------------------------ */

void npu_vmm_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_map *spare, *map;
	LIST_HEAD(dead);

	down_write(&ctx->lock);
	spare = ctx->vmap_spare;
	ctx->vmap_spare = NULL;
	/* Unreachable by address: npu_ctx_drop_memory() emptied the tree. */
	list_for_each_entry(map, &ctx->vmaps, node)
		npu_vmap_own_phys(map);
	list_splice_init(&ctx->vmaps, &dead);
	list_splice_tail_init(&ctx->resvs, &dead);
	up_write(&ctx->lock);

	if (spare)
		npu_map_put(spare);
	npu_map_put_list(&dead);
	npu_handle_ctx_teardown(ctx);
}
