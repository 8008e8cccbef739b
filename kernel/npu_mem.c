// SPDX-License-Identifier: GPL-2.0
/*
 * Linear device memory (aclrtMalloc and friends, aclrtFree, aclrtGetMemInfo,
 * aclrtGetMemUsageInfo): the MEM_ALLOC, MEM_FREE, MEM_INFO and MEM_PEAKS
 * ioctls.  An allocation is a
 * physical memory object and one NPU_MAP_LINEAR map of all of it, or, for
 * a footprint of at most 2 KiB, a slot of a shared page (npu_mem_small.c).
 */
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

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
static int npu_alloc_backing(struct npu_ctx *ctx,
			     const struct npu_sim_mem_alloc *args,
			     struct npu_phys **out)
{
	struct npu_dev *ndev = ctx->ndev;
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

	ret = npu_phys_create(ndev, ctx->proc, kind, args->footprint,
			      args->flags, out);
	/* -ENOSPC: the hugetlb pool is short. */
	if (ret == -ENOSPC && args->backing == NPU_SIM_BACKING_HUGE_FIRST) {
		ret = npu_phys_create(ndev, ctx->proc, NPU_SIM_PAGE_NORMAL,
				      args->footprint, args->flags, out);
		if (!ret)
			npu_stat_inc(ndev, NPU_STAT_FALLBACK_NORMAL);
	}
	return npu_phys_errno(ndev, ret);
}

/* MEM_ALLOC's out fields, @va to the end. */
#define NPU_MEM_ALLOC_OUT_SIZE						\
	(sizeof(struct npu_sim_mem_alloc) -				\
	 offsetof(struct npu_sim_mem_alloc, va))

/*
 * The record, field by field in one user access section: no out-of-line
 * copy, no object-size check (TCG pays for every block of those).
 */
static __always_inline bool npu_alloc_args(struct npu_sim_mem_alloc *a,
					   const void __user *uarg)
{
	const struct npu_sim_mem_alloc __user *u = uarg;

	if (!user_read_access_begin(u, sizeof(*u)))
		return false;
	unsafe_get_user(a->size, &u->size, efault);
	unsafe_get_user(a->footprint, &u->footprint, efault);
	unsafe_get_user(a->backing, &u->backing, efault);
	unsafe_get_user(a->flags, &u->flags, efault);
	unsafe_get_user(a->policy, &u->policy, efault);
	unsafe_get_user(a->api, &u->api, efault);
	unsafe_get_user(a->va, &u->va, efault);
	unsafe_get_user(a->id, &u->id, efault);
	unsafe_get_user(a->charged, &u->charged, efault);
	unsafe_get_user(a->page_kind, &u->page_kind, efault);
	unsafe_get_user(a->pad, &u->pad, efault);
	user_read_access_end();
	return true;
efault:
	user_read_access_end();
	return false;
}
static_assert(sizeof(struct npu_sim_mem_alloc) == 64);

/* The out fields of @a (@va to the end) to user @uarg; false on a fault. */
static __always_inline bool npu_alloc_reply(void __user *uarg,
					    const struct npu_sim_mem_alloc *a)
{
	struct npu_sim_mem_alloc __user *u = uarg;

	if (!user_write_access_begin(&u->va, NPU_MEM_ALLOC_OUT_SIZE))
		return false;
	unsafe_put_user(a->va, &u->va, efault);
	unsafe_put_user(a->id, &u->id, efault);
	unsafe_put_user(a->charged, &u->charged, efault);
	unsafe_put_user(a->page_kind, &u->page_kind, efault);
	unsafe_put_user(a->pad, &u->pad, efault);
	user_write_access_end();
	return true;
efault:
	user_write_access_end();
	return false;
}

int npu_ioctl_mem_alloc(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_dev *ndev = ctx->ndev;
	/* Every field is read from the caller before any use. */
	struct npu_sim_mem_alloc args npu_no_autoinit;
	struct npu_phys *phys;
	struct npu_map *map;
	bool small;
	int ret;

	if (!npu_alloc_args(&args, uarg))
		return -EFAULT;
	ret = npu_alloc_check(&args);
	if (!ret)
		ret = npu_profile_check_alloc(args.backing, args.flags);
	if (ret)
		return ret;

	/* Early refusal, no lock round: npu_map_publish() checks under it. */
	if (READ_ONCE(ctx->win_state) != NPU_WIN_MAPPED)
		return -ENXIO;

	if (atomic_dec_if_positive(&ndev->fail_alloc) >= 0) {
		npu_stat_inc(ndev, NPU_STAT_FAIL_INJECTED);
		return -ENOMEM;
	}
	ret = npu_fault_check(ctx, NPU_SIM_FAULT_ALLOC);
	if (ret)
		return ret;

	small = npu_small_eligible(ctx, args.footprint, args.backing,
				   args.flags);
	if (small) {
		map = npu_small_map_create(ctx, args.footprint, args.size);
	} else {
		ret = npu_alloc_backing(ctx, &args, &phys);
		if (ret)
			return ret;
		map = npu_map_create(NPU_MAP_LINEAR, NULL, phys, phys->size,
				     args.size);
		if (!map)
			npu_phys_put(phys);
	}
	if (!map) {
		npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
		return -ENOMEM;
	}
	map->flags = args.flags;
	map->footprint = args.footprint;
	map->u.linear.policy = args.policy;
	map->u.linear.api = args.api;

	/* Only the out fields: the in fields are the caller's already. */
	if (small) {
		/* No reference of ours to take and drop around the reply. */
		ret = npu_small_publish(ctx, map, &args);
		if (ret) {
			npu_map_put(map);
			return ret;
		}
		if (likely(npu_alloc_reply(uarg, &args)))
			return 0;
		return npu_map_reply_at_failed(ctx, args.va, args.id);
	}
	ret = npu_map_publish(ctx, map, 1ULL << map->phys->shift);
	if (ret) {
		npu_map_put(map);
		return ret;
	}
	args.va = map->va;
	args.id = map->id;
	args.charged = map->len;
	args.page_kind = map->phys->kind;
	if (likely(npu_alloc_reply(uarg, &args))) {
		npu_map_put(map);
		return 0;
	}
	return npu_map_reply_failed(ctx, map);
}

int npu_ioctl_mem_free(struct npu_ctx *ctx, void __user *uarg)
{
	const struct npu_sim_mem_free __user *u = uarg;
	struct npu_map *map;
	bool queued, kept;
	u32 flags, pad;
	int ret;
	u64 va;

	/* Fields in one user access section, as MEM_ALLOC's. */
	if (!user_read_access_begin(u, sizeof(*u)))
		return -EFAULT;
	unsafe_get_user(va, &u->va, efault);
	unsafe_get_user(flags, &u->flags, efault);
	unsafe_get_user(pad, &u->pad, efault);
	user_read_access_end();
	if (flags || pad)
		return -EINVAL;

	/* A pool block in use leaves its pool; a freed one is the pool's. */
	if (npu_mempool_mem_free(ctx, va) < 0)
		return -ENOENT;
	/* A slot, with ctx->lock shared, unless its page is retired. */
	ret = npu_small_free(ctx, va);
	if (ret <= 0)
		return ret;

	down_write(&ctx->lock);
	map = npu_map_find_at(ctx, va, BIT(NPU_MAP_LINEAR) |
			      BIT(NPU_MAP_MANAGED), false);
	if (!map) {
		up_write(&ctx->lock);
		return -ENOENT;
	}
	/* Peaks before a release (a slot's free folds them itself). */
	if (!npu_small_free_sampled(ctx, map))
		npu_mem_peaks_sample(ctx);
	npu_map_unlink(ctx, map);
	/* Misuse: queued stream work still uses it (it keeps the pages). */
	queued = atomic_read(&map->nr_queued);
	kept = npu_small_keep_map(ctx, map);
	up_write(&ctx->lock);

	if (queued)
		npu_stat_inc(ctx->ndev, NPU_STAT_FREE_WHILE_QUEUED);
	/* Pages go back now, or when the last running copy lets go. */
	if (!kept)
		npu_map_put(map);
	return 0;

efault:
	user_read_access_end();
	return -EFAULT;
}

/* MEM_INFO's out fields, @capacity to the end, as an array of words. */
#define NPU_MEM_INFO_OUT_WORDS						\
	((sizeof(struct npu_sim_mem_info) -				\
	  offsetof(struct npu_sim_mem_info, capacity)) / sizeof(u64))

/* The host's memory: its own frame, out of MEM_INFO's (stack zeroing). */
static noinline void npu_mem_info_host(struct npu_sim_mem_info *info)
{
	struct sysinfo si;

	si_meminfo(&si);
	info->host_total = (u64)si.totalram * si.mem_unit;
	info->host_free = (u64)si_mem_available() << PAGE_SHIFT;
}

/*
 * The call of every aclrtGetMemInfo: the record is checked and filled in
 * place (no copy of it through the stack, no lock: the device counters
 * are read under cap_seq, the account without its lock; npu_limit_read).
 */
int npu_ioctl_mem_info(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_mem_info __user *u = uarg;
	const u64 __user *out = &u->capacity;
	struct npu_dev *ndev = ctx->ndev;
	/*
	 * flags and pad are read first; every other field is set before it
	 * is written out, and the host ones only written when set.
	 */
	struct npu_sim_mem_info info npu_no_autoinit;
	u64 set = 0, word;
	unsigned int seq, i;

	if (!user_read_access_begin(u, sizeof(*u)))
		return -EFAULT;
	unsafe_get_user(info.flags, &u->flags, efault_read);
	unsafe_get_user(info.pad, &u->pad, efault_read);
	/* Unrolled: one block for the check instead of one per word. */
#pragma GCC unroll 32
	for (i = 0; i < NPU_MEM_INFO_OUT_WORDS; i++) {
		unsafe_get_user(word, &out[i], efault_read);
		set |= word;
	}
	user_read_access_end();
	if ((info.flags & ~NPU_SIM_MEM_INFO_FLAGS_MASK) || info.pad || set)
		return -EINVAL;

	do {
		seq = read_seqcount_begin(&ndev->cap_seq);
		info.used = ndev->used;
		info.used_normal = ndev->used_kind[NPU_SIM_PAGE_NORMAL];
		info.used_huge_2m = ndev->used_kind[NPU_SIM_PAGE_HUGE_2M];
		info.used_huge_1g = ndev->used_kind[NPU_SIM_PAGE_HUGE_1G];
		info.used_p2p = ndev->used_p2p;
	} while (read_seqcount_retry(&ndev->cap_seq, seq));
	info.capacity = ndev->capacity;
	info.allocations = npu_dev_nr_allocs(ndev);
	info.context_used = npu_ctx_used(ctx);
	npu_limit_read(ctx->proc, &info.limit_effective, &info.limit_used);
	if (!(info.flags & NPU_SIM_MEM_INFO_DEVICE_ONLY)) {
		npu_hugetlbfs_pool(NPU_SIM_PAGE_HUGE_2M, &info.huge_2m_total,
				   &info.huge_2m_free);
		npu_hugetlbfs_pool(NPU_SIM_PAGE_HUGE_1G, &info.huge_1g_total,
				   &info.huge_1g_free);
		npu_mem_info_host(&info);
	}

	/* Only the out fields: the rest is as checked above (zero). */
	if (!user_write_access_begin(u, sizeof(*u)))
		return -EFAULT;
#define NPU_PUT(field) unsafe_put_user(info.field, &u->field, efault_write)
	NPU_PUT(capacity);
	NPU_PUT(used);
	NPU_PUT(used_normal);
	NPU_PUT(used_huge_2m);
	NPU_PUT(used_huge_1g);
	NPU_PUT(used_p2p);
	NPU_PUT(context_used);
	NPU_PUT(allocations);
	NPU_PUT(limit_effective);
	NPU_PUT(limit_used);
	if (!(info.flags & NPU_SIM_MEM_INFO_DEVICE_ONLY)) {
		NPU_PUT(huge_2m_free);
		NPU_PUT(huge_2m_total);
		NPU_PUT(huge_1g_free);
		NPU_PUT(huge_1g_total);
		NPU_PUT(host_total);
		NPU_PUT(host_free);
	}
#undef NPU_PUT
	user_write_access_end();
	return 0;

efault_read:
	user_read_access_end();
	return -EFAULT;
efault_write:
	user_write_access_end();
	return -EFAULT;
}

/* Fold the current usage into @ctx's peaks: before every release. */
void npu_mem_peaks_sample(struct npu_ctx *ctx)
{
	spin_lock(&ctx->ndev->cap_lock);
	npu_dev_peaks_fold(ctx);
	spin_unlock(&ctx->ndev->cap_lock);
}

int npu_ioctl_mem_peaks(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_mem_peaks args;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad ||
	    npu_uapi_out_set(&args, context_used, reserved))
		return -EINVAL;

	npu_mem_peaks_sample(ctx);
	spin_lock(&ctx->ndev->cap_lock);
	args = ctx->peaks;
	spin_unlock(&ctx->ndev->cap_lock);
	if (copy_to_user(uarg, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}

/* Release of the file: every allocation the context still holds goes back. */
void npu_mem_ctx_teardown(struct npu_ctx *ctx)
{
	unsigned int i;

	npu_map_unlink_all(ctx, &ctx->maps);
	for (i = 0; i < NPU_SMALL_SHARDS; i++)
		npu_map_unlink_all(ctx, &ctx->small[i].maps);
	npu_small_ctx_teardown(ctx);
}
