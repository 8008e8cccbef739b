// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation objects and capacity accounting: physical memory objects
 * (npu_phys), their mappings into a context's VA window (npu_map), and the
 * MEM_ALLOC / MEM_FREE / MEM_INFO ioctls.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

/* Internal reasons an allocation fails; all are -ENOMEM to user space. */
#define NPU_ERR_CAPACITY	(-EDQUOT)
#define NPU_ERR_POOL		(-ENOSPC)

static unsigned int npu_kind_shift(enum npu_sim_page_kind kind)
{
	switch (kind) {
	case NPU_SIM_PAGE_HUGE_2M:
		return PMD_SHIFT;
	case NPU_SIM_PAGE_HUGE_1G:
		return PUD_SHIFT;
	default:
		return PAGE_SHIFT;
	}
}

/* ---- capacity ---------------------------------------------------------- */

static int npu_charge(struct npu_dev *ndev, struct npu_phys *phys)
{
	int ret = 0;

	if (phys->flags & NPU_PHYS_HOST)
		return 0;
	spin_lock(&ndev->cap_lock);
	if (phys->size > ndev->capacity - ndev->used) {
		ret = NPU_ERR_CAPACITY;
	} else {
		ndev->used += phys->size;
		ndev->used_kind[phys->kind] += phys->size;
		if (phys->flags & NPU_SIM_ALLOC_P2P)
			ndev->used_p2p += phys->size;
	}
	spin_unlock(&ndev->cap_lock);
	return ret;
}

static void npu_uncharge(struct npu_dev *ndev, struct npu_phys *phys)
{
	if (phys->flags & NPU_PHYS_HOST)
		return;
	spin_lock(&ndev->cap_lock);
	ndev->used -= phys->size;
	ndev->used_kind[phys->kind] -= phys->size;
	if (phys->flags & NPU_SIM_ALLOC_P2P)
		ndev->used_p2p -= phys->size;
	spin_unlock(&ndev->cap_lock);
}

static void npu_count_allocs(struct npu_dev *ndev, long delta)
{
	spin_lock(&ndev->cap_lock);
	ndev->nr_allocs += delta;
	spin_unlock(&ndev->cap_lock);
}

/* ---- physical memory objects ------------------------------------------- */

struct page *npu_phys_page(struct npu_phys *phys, u64 off)
{
	struct page *head = phys->pages[off >> phys->shift];

	return nth_page(head, (off & ((1ULL << phys->shift) - 1)) >> PAGE_SHIFT);
}

static void npu_phys_free_array(struct npu_phys *phys)
{
	if (phys->pages != &phys->page0)
		kvfree(phys->pages);
}

static void npu_phys_release(struct kref *ref)
{
	struct npu_phys *phys = container_of(ref, struct npu_phys, ref);

	if (phys->kind == NPU_SIM_PAGE_NORMAL)
		npu_pages_release(phys);
	else
		npu_hugetlbfs_release(phys);
	npu_uncharge(phys->ndev, phys);
	npu_phys_free_array(phys);
	kfree(phys);
}

void npu_phys_put(struct npu_phys *phys)
{
	kref_put(&phys->ref, npu_phys_release);
}

/*
 * Create a physical memory object of @footprint bytes rounded up to the page
 * size of @kind.  The capacity is charged before any page is taken; on
 * failure nothing stays charged or held.  NPU_PHYS_HOST in @flags makes
 * host memory, which is not charged.
 */
int npu_phys_create(struct npu_dev *ndev, enum npu_sim_page_kind kind,
			   u64 footprint, u32 flags, struct npu_phys **out)
{
	unsigned int shift = npu_kind_shift(kind);
	struct npu_phys *phys;
	int ret;

	/* footprint <= capacity <= 1 TiB: the rounding cannot overflow. */
	if (!(flags & NPU_PHYS_HOST) && footprint > ndev->capacity)
		return NPU_ERR_CAPACITY;
	if (footprint > (1ULL << 50))
		return -ENOMEM;

	phys = kzalloc(sizeof(*phys), GFP_KERNEL);
	if (!phys)
		return -ENOMEM;
	kref_init(&phys->ref);
	phys->ndev = ndev;
	phys->kind = kind;
	phys->shift = shift;
	phys->flags = flags & (NPU_SIM_ALLOC_P2P | NPU_PHYS_HOST);
	phys->size = round_up(footprint, 1ULL << shift);
	phys->nr_pages = phys->size >> shift;

	ret = npu_charge(ndev, phys);
	if (ret)
		goto err_free;

	if (phys->nr_pages == 1) {
		phys->pages = &phys->page0;
	} else {
		phys->pages = kvcalloc(phys->nr_pages, sizeof(*phys->pages),
				       GFP_KERNEL | __GFP_NOWARN);
		if (!phys->pages) {
			ret = -ENOMEM;
			goto err_uncharge;
		}
	}

	if (kind == NPU_SIM_PAGE_NORMAL)
		ret = npu_pages_fill(phys);
	else
		ret = npu_hugetlbfs_fill(phys);
	if (ret)
		goto err_array;

	*out = phys;
	return 0;

err_array:
	npu_phys_free_array(phys);
err_uncharge:
	npu_uncharge(ndev, phys);
err_free:
	kfree(phys);
	return ret;
}

/* ---- mappings ---------------------------------------------------------- */

static void npu_map_release(struct kref *ref)
{
	struct npu_map *map = container_of(ref, struct npu_map, ref);

	if (map->uvm)
		npu_uvm_destroy(map->uvm);
	if (map->phys)
		npu_phys_put(map->phys);
	kfree(map);
}

void npu_map_put(struct npu_map *map)
{
	kref_put(&map->ref, npu_map_release);
}

/* Take @map out of its context (VA tree, PTEs, list); the caller puts it. */
static void npu_map_unlink(struct npu_ctx *ctx, struct npu_map *map)
{
	lockdep_assert_held(&ctx->lock);

	npu_va_remove(ctx, map);
	list_del_init(&map->node);
	ctx->nr_maps--;
	if (!map->uvm)		/* managed host copies are not device memory */
		WRITE_ONCE(ctx->used, ctx->used - map->len);
}

/* ---- ioctls ------------------------------------------------------------ */

static int npu_alloc_check(const struct npu_sim_mem_alloc *args)
{
	if (args->pad || (args->flags & ~NPU_SIM_ALLOC_FLAGS_MASK) ||
	    npu_uapi_out_set(args, va, page_kind))
		return -EINVAL;
	if (!args->size || args->size > args->footprint)
		return -EINVAL;
	/* A footprint whose rounding up to a backing page would wrap. */
	if (args->footprint > U64_MAX - (SZ_1G - 1))
		return -EINVAL;
	if (args->backing < NPU_SIM_BACKING_NORMAL ||
	    args->backing > NPU_SIM_BACKING_HUGE1G_ONLY)
		return -EINVAL;
	if (args->api < NPU_SIM_API_MALLOC ||
	    args->api > NPU_SIM_API_MALLOC_WITH_CFG)
		return -EINVAL;
	return 0;
}

/* Pick the backing for @args and create it, falling back as docs/design.md 4.1 says. */
static int npu_alloc_backing(struct npu_dev *ndev,
			     const struct npu_sim_mem_alloc *args,
			     struct npu_phys **out)
{
	enum npu_sim_page_kind kind;
	int ret;

	switch (args->backing) {
	case NPU_SIM_BACKING_HUGE_FIRST:
		kind = args->footprint <= SZ_1M ? NPU_SIM_PAGE_NORMAL :
						  NPU_SIM_PAGE_HUGE_2M;
		break;
	case NPU_SIM_BACKING_HUGE_ONLY:
		kind = NPU_SIM_PAGE_HUGE_2M;
		break;
	case NPU_SIM_BACKING_HUGE1G_ONLY:
		kind = NPU_SIM_PAGE_HUGE_1G;
		break;
	default:
		kind = NPU_SIM_PAGE_NORMAL;
		break;
	}

	ret = npu_phys_create(ndev, kind, args->footprint, args->flags, out);
	if (ret == NPU_ERR_POOL && args->backing == NPU_SIM_BACKING_HUGE_FIRST) {
		ret = npu_phys_create(ndev, NPU_SIM_PAGE_NORMAL, args->footprint,
				      args->flags, out);
		if (!ret)
			npu_stat_inc(ndev, NPU_STAT_FALLBACK_NORMAL);
	}

	switch (ret) {
	case 0:
	case -EINTR:
	case -ERESTARTSYS:
		return ret;
	case NPU_ERR_CAPACITY:
		npu_stat_inc(ndev, NPU_STAT_FAIL_CAPACITY);
		return -ENOMEM;
	case NPU_ERR_POOL:
		npu_stat_inc(ndev, NPU_STAT_FAIL_POOL);
		return -ENOMEM;
	default:
		npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
		return -ENOMEM;
	}
}

int npu_ioctl_mem_alloc(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_dev *ndev = ctx->ndev;
	struct npu_sim_mem_alloc args;
	struct npu_phys *phys;
	struct npu_map *map;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	ret = npu_alloc_check(&args);
	if (ret)
		return ret;

	mutex_lock(&ctx->lock);
	ret = ctx->win_state == NPU_WIN_MAPPED ? 0 : -ENXIO;
	mutex_unlock(&ctx->lock);
	if (ret)
		return ret;

	if (atomic_dec_if_positive(&ndev->fail_alloc) >= 0) {
		npu_stat_inc(ndev, NPU_STAT_FAIL_INJECTED);
		return -ENOMEM;
	}

	ret = npu_alloc_backing(ndev, &args, &phys);
	if (ret)
		return ret;

	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map) {
		npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
		ret = -ENOMEM;
		goto err_phys;
	}
	kref_init(&map->ref);
	map->phys = phys;
	map->len = phys->size;
	map->flags = args.flags;
	map->pid = task_tgid_nr(current);
	map->size = args.size;
	map->footprint = args.footprint;
	map->policy = args.policy;
	map->api = args.api;
	INIT_LIST_HEAD(&map->node);

	mutex_lock(&ctx->lock);
	if (ctx->win_state != NPU_WIN_MAPPED) {
		ret = -ENXIO;
		goto err_unlock;
	}
	ret = npu_va_insert(ctx, map, 1ULL << phys->shift);
	if (ret) {
		npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
		ret = -ENOMEM;
		goto err_unlock;
	}
	map->id = atomic64_inc_return(&ndev->next_id);
	list_add_tail(&map->node, &ctx->maps);
	ctx->nr_maps++;
	WRITE_ONCE(ctx->used, ctx->used + map->len);
	/* Our own reference, in case another thread frees it right away. */
	npu_map_get(map);
	mutex_unlock(&ctx->lock);
	npu_count_allocs(ndev, 1);

	args.va = map->va;
	args.id = map->id;
	args.charged = phys->size;
	args.page_kind = phys->kind;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		/* Nobody learnt about it: undo, unless already freed. */
		bool linked;

		mutex_lock(&ctx->lock);
		linked = !list_empty(&map->node);
		if (linked)
			npu_map_unlink(ctx, map);
		mutex_unlock(&ctx->lock);
		if (linked) {
			npu_count_allocs(ndev, -1);
			npu_map_put(map);
		}
		ret = -EFAULT;
	}
	npu_map_put(map);
	return ret;

err_unlock:
	mutex_unlock(&ctx->lock);
	kfree(map);
err_phys:
	npu_phys_put(phys);
	return ret;
}

int npu_ioctl_mem_free(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_mem_free args;
	struct npu_map *map;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;

	mutex_lock(&ctx->lock);
	map = npu_va_lookup(ctx, args.va);
	if (!map || map->va != args.va || map->type != NPU_MAP_ALLOC) {
		mutex_unlock(&ctx->lock);
		return -ENOENT;
	}
	npu_map_unlink(ctx, map);
	mutex_unlock(&ctx->lock);

	/* Misuse: queued stream work still uses it (it keeps the pages). */
	if (atomic_read(&map->nr_queued))
		npu_stat_inc(ctx->ndev, NPU_STAT_FREE_WHILE_QUEUED);
	npu_count_allocs(ctx->ndev, -1);
	/* Pages go back now, or when the last running copy lets go. */
	npu_map_put(map);
	return 0;
}

int npu_ioctl_mem_info(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_dev *ndev = ctx->ndev;
	struct npu_sim_mem_info info;
	struct sysinfo si;

	if (copy_from_user(&info, uarg, sizeof(info)))
		return -EFAULT;
	if (info.flags || info.pad ||
	    npu_uapi_out_set(&info, capacity, reserved))
		return -EINVAL;

	info.capacity = ndev->capacity;
	spin_lock(&ndev->cap_lock);
	info.used = ndev->used;
	info.used_normal = ndev->used_kind[NPU_SIM_PAGE_NORMAL];
	info.used_huge_2m = ndev->used_kind[NPU_SIM_PAGE_HUGE_2M];
	info.used_huge_1g = ndev->used_kind[NPU_SIM_PAGE_HUGE_1G];
	info.used_p2p = ndev->used_p2p;
	info.allocations = ndev->nr_allocs;
	spin_unlock(&ndev->cap_lock);
	info.context_used = READ_ONCE(ctx->used);

	npu_hugetlbfs_pool(NPU_SIM_PAGE_HUGE_2M, &info.huge_2m_total,
			   &info.huge_2m_free);
	npu_hugetlbfs_pool(NPU_SIM_PAGE_HUGE_1G, &info.huge_1g_total,
			   &info.huge_1g_free);
	si_meminfo(&si);
	info.host_total = (u64)si.totalram * si.mem_unit;
	info.host_free = (u64)si_mem_available() << PAGE_SHIFT;

	if (copy_to_user(uarg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/* Release of the file: everything the context still holds goes back. */
void npu_mem_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_map *map, *tmp;
	LIST_HEAD(dead);
	u64 nr;

	mutex_lock(&ctx->lock);
	/* The window is gone (its VMA held the file), so there is no PTE. */
	npu_va_ctx_destroy(ctx);
	list_splice_init(&ctx->maps, &dead);
	nr = ctx->nr_maps;
	ctx->nr_maps = 0;
	WRITE_ONCE(ctx->used, 0);
	mutex_unlock(&ctx->lock);

	if (nr)
		npu_count_allocs(ctx->ndev, -(long)nr);
	list_for_each_entry_safe(map, tmp, &dead, node) {
		list_del_init(&map->node);
		npu_map_put(map);
		cond_resched();
	}
}
