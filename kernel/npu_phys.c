// SPDX-License-Identifier: GPL-2.0
/*
 * Physical memory objects (npu_phys): a run of backing pages of one kind,
 * charged against the capacity of its device from creation until the last
 * reference is gone, and the device's usage counters.
 */
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "npu_sim.h"
#include "npu_trace.h"

/* Internal reasons an allocation fails; all are -ENOMEM to user space. */
#define NPU_ERR_CAPACITY	(-EDQUOT)
#define NPU_ERR_POOL		(-ENOSPC)
#define NPU_ERR_LIMIT		(-EUSERS)	/* npu_limit_charge() */

const char *npu_kind_name(enum npu_sim_page_kind kind)
{
	switch (kind) {
	case NPU_SIM_PAGE_NORMAL:
		return "normal";
	case NPU_SIM_PAGE_HUGE_2M:
		return "huge_2m";
	case NPU_SIM_PAGE_HUGE_1G:
		return "huge_1g";
	}
	return "?";
}

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

/*
 * Charge @phys to its device and to @proc's account (NULL: none), in one
 * cap_lock round (it guards both): 0, NPU_ERR_LIMIT or NPU_ERR_CAPACITY,
 * nothing charged then.
 */
static int npu_charge(struct npu_dev *ndev, struct npu_phys *phys,
		      struct npu_proc *proc)
{
	int ret = 0;

	if (npu_phys_is_host(phys))
		return 0;
	spin_lock(&ndev->cap_lock);
	if (proc && npu_limit_over_locked(proc, phys->size)) {
		ret = NPU_ERR_LIMIT;
	} else if (phys->size > ndev->capacity - ndev->used) {
		ret = NPU_ERR_CAPACITY;
	} else {
		write_seqcount_begin(&ndev->cap_seq);
		ndev->used += phys->size;
		ndev->used_kind[phys->kind] += phys->size;
		if (phys->flags & NPU_SIM_ALLOC_P2P)
			ndev->used_p2p += phys->size;
		write_seqcount_end(&ndev->cap_seq);
		if (proc)
			npu_limit_add_locked(proc, phys->size);
	}
	spin_unlock(&ndev->cap_lock);
	return ret;
}

/*
 * Fold the device's usage and @ctx's into @ctx's peaks (cap_lock held):
 * done before every release of device memory, so the context's own peak
 * is exact.
 */
void npu_dev_peaks_fold(struct npu_ctx *ctx)
{
	struct npu_sim_mem_peaks *p = &ctx->peaks;
	struct npu_dev *ndev = ctx->ndev;

	lockdep_assert_held(&ndev->cap_lock);
	p->context_used = max_t(u64, p->context_used, npu_ctx_used(ctx));
	p->used = max(p->used, ndev->used);
	p->used_normal = max(p->used_normal,
			     ndev->used_kind[NPU_SIM_PAGE_NORMAL]);
	p->used_huge_2m = max(p->used_huge_2m,
			      ndev->used_kind[NPU_SIM_PAGE_HUGE_2M]);
	p->used_huge_1g = max(p->used_huge_1g,
			      ndev->used_kind[NPU_SIM_PAGE_HUGE_1G]);
	p->used_p2p = max(p->used_p2p, ndev->used_p2p);
}

/*
 * Give back what npu_charge() took, device and account, in one round.
 * @peaks: the context whose peaks to fold first, in the same lock round.
 */
static void npu_uncharge(struct npu_dev *ndev, struct npu_phys *phys,
			 struct npu_proc *proc, struct npu_ctx *peaks)
{
	if (npu_phys_is_host(phys))
		return;
	spin_lock(&ndev->cap_lock);
	if (peaks)
		npu_dev_peaks_fold(peaks);
	write_seqcount_begin(&ndev->cap_seq);
	ndev->used -= phys->size;
	ndev->used_kind[phys->kind] -= phys->size;
	if (phys->flags & NPU_SIM_ALLOC_P2P)
		ndev->used_p2p -= phys->size;
	write_seqcount_end(&ndev->cap_seq);
	if (proc)
		npu_limit_add_locked(proc, -(s64)phys->size);
	spin_unlock(&ndev->cap_lock);
}

/*
 * Give back the charges (device capacity, the process's limit) of @phys
 * while it is idle, its pages kept for reuse (an empty small page), and
 * take them again: npu_phys_recharge() gives 0 or an npu_phys_create()
 * error for npu_phys_errno().  The caller serializes the two (its small
 * page's shard, npu_mem_small.c).  The discharge folds @ctx's peaks first
 * (the release's sample).  Each is one cap_lock round and may run under a
 * spinlock.
 */
void npu_phys_discharge(struct npu_phys *phys, struct npu_ctx *ctx)
{
	npu_uncharge(phys->ndev, phys, phys->proc, ctx);
	phys->idle = true;
}

int npu_phys_recharge(struct npu_phys *phys)
{
	int ret = npu_charge(phys->ndev, phys, phys->proc);

	if (ret)
		return ret;
	phys->idle = false;
	return 0;
}

/*
 * Live allocations (MEM_ALLOC and MANAGED_ALLOC ranges) of the device:
 * counted per CPU (no locked instruction per alloc and free; two threads'
 * allocs and frees meet on no lock), summed by the readers.
 */
void npu_dev_count_allocs(struct npu_dev *ndev, long delta)
{
	this_cpu_add(ndev->stats->nr_allocs, delta);
}

/* Exact when no alloc or free runs; else one of the counts around. */
u64 npu_dev_nr_allocs(struct npu_dev *ndev)
{
	s64 sum = 0;
	int cpu;

	/* Not for_each_possible_cpu(): its mask walk is a call per CPU. */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpu_possible(cpu))
			sum += READ_ONCE(per_cpu_ptr(ndev->stats, cpu)->nr_allocs);
	return max_t(s64, sum, 0);
}

/*
 * The one mapping of npu_phys_create() failures to what user space sees:
 * -ENOMEM, with the reason counted; signals pass through.
 */
int npu_phys_errno(struct npu_dev *ndev, int ret)
{
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
	case NPU_ERR_LIMIT:
		npu_stat_inc(ndev, NPU_STAT_FAIL_LIMIT);
		return -ENOMEM;
	default:
		npu_stat_inc(ndev, NPU_STAT_FAIL_NOMEM);
		return -ENOMEM;
	}
}

/* ---- objects ----------------------------------------------------------- */

struct page *npu_phys_page(struct npu_phys *phys, u64 off)
{
	struct page *head = phys->pages[off >> phys->shift];

	return nth_page(head, (off & ((1ULL << phys->shift) - 1)) >> PAGE_SHIFT);
}

/*
 * A new object of @size bytes in pages of 1 << @shift, with its (empty)
 * page array; NULL when out of memory.  Nothing is charged or held yet.
 * The array may be large (8 bytes per page): RETRY_MAYFAIL makes a host
 * short of memory fail it instead of invoking the OOM killer.
 */
static struct npu_phys *npu_phys_alloc(struct npu_dev *ndev,
				       enum npu_sim_page_kind kind,
				       unsigned int shift, u64 size, u32 flags)
{
	struct npu_phys *phys = kzalloc(sizeof(*phys), GFP_KERNEL_ACCOUNT);

	if (!phys)
		return NULL;
	kref_init(&phys->ref);
	phys->ndev = ndev;
	phys->kind = kind;
	phys->shift = shift;
	phys->flags = flags;
	phys->size = size;
	phys->nr_pages = size >> shift;
	if (flags & NPU_PHYS_VIEW)	/* the creator points it into view_of's */
		return phys;
	phys->pages = phys->nr_pages == 1 ? &phys->page0 :
		      kvcalloc(phys->nr_pages, sizeof(*phys->pages),
			       GFP_KERNEL_ACCOUNT | __GFP_NOWARN |
			       __GFP_RETRY_MAYFAIL);
	if (!phys->pages) {
		kfree(phys);
		return NULL;
	}
	return phys;
}

/* Free what npu_phys_alloc() made (its pages are gone already). */
static void npu_phys_free(struct npu_phys *phys)
{
	if (phys->pages != &phys->page0 && !(phys->flags & NPU_PHYS_VIEW))
		kvfree(phys->pages);
	kfree(phys);
}

static void npu_phys_release(struct kref *ref)
{
	struct npu_phys *phys = container_of(ref, struct npu_phys, ref);

	trace_npu_sim_free(phys->ndev->index, phys->pid, phys->kind,
			   phys->size, npu_phys_is_host(phys));
	if (phys->flags & NPU_PHYS_VIEW)
		npu_phys_put(phys->view_of);
	else if (phys->kind == NPU_SIM_PAGE_NORMAL)
		npu_pages_release(phys);
	else
		npu_hugetlbfs_release(phys);
	npu_pages_unaccount(phys);
	if (!phys->idle)
		npu_uncharge(phys->ndev, phys, phys->proc, NULL);
	if (phys->proc)
		npu_proc_put(phys->proc);
	npu_phys_free(phys);
}

void npu_phys_put(struct npu_phys *phys)
{
	kref_put(&phys->ref, npu_phys_release);
}

/*
 * A host object over the caller's own pages [@start, @start + @len), both
 * page aligned: pinned, counted against RLIMIT_MEMLOCK, never charged to
 * the device.  Errors as npu_pages_pin(), or -ENOMEM.
 */
int npu_phys_create_user(struct npu_dev *ndev, unsigned long start,
			 u64 len, bool write, struct npu_phys **out)
{
	struct npu_phys *phys;
	int ret;

	ret = npu_pages_may_lock(len);
	if (ret)
		return ret;
	phys = npu_phys_alloc(ndev, NPU_SIM_PAGE_NORMAL, PAGE_SHIFT, len,
			      NPU_PHYS_HOST | NPU_PHYS_USER);
	if (!phys)
		return -ENOMEM;
	ret = npu_pages_pin(phys, start, write);
	if (ret) {
		npu_phys_free(phys);
		return ret;
	}
	*out = phys;
	return 0;
}

/*
 * Charge new @phys to its device and to @proc's account (none for host
 * memory) and make it @proc's: 0, or npu_charge()'s error with nothing
 * charged or held.
 */
static int npu_phys_charge_new(struct npu_dev *ndev, struct npu_phys *phys,
			       struct npu_proc *proc)
{
	int ret;

	phys->pid = proc ? proc->pid : task_tgid_nr(current);
	if (npu_phys_is_host(phys))
		proc = NULL;
	ret = npu_charge(ndev, phys, proc);
	if (ret)
		return ret;
	if (proc) {
		npu_proc_get(proc);
		phys->proc = proc;
	}
	return 0;
}

/*
 * A device object of @size bytes whose bytes are those of @of (normal
 * pages) from @off (page aligned) on: charged to the device and to @proc's
 * account like npu_phys_create() (same errors, nothing charged on
 * failure), it holds @of instead of pages of its own.  The device copy of
 * a managed block is one (npu_managed.c).
 */
int npu_phys_create_view(struct npu_dev *ndev, struct npu_proc *proc,
			 struct npu_phys *of, u64 off, u64 size,
			 struct npu_phys **out)
{
	struct npu_phys *phys;
	int ret;

	if (WARN_ON_ONCE(of->shift != PAGE_SHIFT || !PAGE_ALIGNED(off) ||
			 off + size > of->size))
		return -EINVAL;
	if (size > ndev->capacity)
		return NPU_ERR_CAPACITY;
	phys = npu_phys_alloc(ndev, NPU_SIM_PAGE_NORMAL, PAGE_SHIFT, size,
			      NPU_PHYS_VIEW);
	if (!phys)
		return -ENOMEM;
	ret = npu_phys_charge_new(ndev, phys, proc);
	if (ret) {
		npu_phys_free(phys);
		return ret;
	}
	npu_phys_get(of);
	phys->view_of = of;
	phys->pages = of->pages + (off >> PAGE_SHIFT);
	trace_npu_sim_alloc(ndev->index, phys->pid, phys->kind, phys->size,
			    false);
	*out = phys;
	return 0;
}

/*
 * Create a physical memory object of @footprint bytes rounded up to the page
 * size of @kind.  The capacity (and the account @proc of the process it is
 * charged to, if any) is charged before any page is taken; on failure
 * nothing stays charged or held.  NPU_PHYS_HOST in @flags makes host
 * memory, which is not charged to the device but to the caller's
 * RLIMIT_MEMLOCK (npu_pages_account(): -ENOMEM over it).  Failures are
 * -EDQUOT (capacity), -EUSERS (the process's limit), -ENOSPC (hugetlb pool
 * short) or -ENOMEM: npu_phys_errno() turns them into what user space sees.
 */
int npu_phys_create(struct npu_dev *ndev, struct npu_proc *proc,
		    enum npu_sim_page_kind kind, u64 footprint, u32 flags,
		    struct npu_phys **out)
{
	unsigned int shift = npu_kind_shift(kind);
	struct npu_phys *phys;
	int ret;

	/* footprint <= capacity <= 1 TiB: the rounding cannot overflow. */
	if (!(flags & NPU_PHYS_HOST) && footprint > ndev->capacity)
		return NPU_ERR_CAPACITY;
	if (footprint > (1ULL << 50))
		return -ENOMEM;
	/* Over the caller's RLIMIT_MEMLOCK: refuse before allocating. */
	if (flags & NPU_PHYS_HOST) {
		ret = npu_pages_may_lock(footprint);
		if (ret)
			return ret;
	}

	phys = npu_phys_alloc(ndev, kind, shift,
			      round_up(footprint, 1ULL << shift),
			      flags & (NPU_SIM_ALLOC_P2P | NPU_PHYS_HOST));
	if (!phys)
		return -ENOMEM;
	ret = npu_phys_charge_new(ndev, phys, proc);
	if (ret)
		goto err_free;
	/*
	 * Host memory (managed, host-location physical) is pinned for the
	 * caller: it counts against its RLIMIT_MEMLOCK like registered host
	 * memory.  Normal pages are charged to its memory cgroup when
	 * allocated (__GFP_ACCOUNT); hugetlb pages cannot be (hugetlb has its
	 * own cgroup controller, which hugetlbfs charges).
	 */
	if (flags & NPU_PHYS_HOST) {
		ret = npu_pages_account(phys);
		if (ret)
			goto err_uncharge;
	}

	if (kind == NPU_SIM_PAGE_NORMAL)
		ret = npu_pages_fill(phys);
	else
		ret = npu_hugetlbfs_fill(phys);
	if (ret)
		goto err_uncharge;

	trace_npu_sim_alloc(ndev->index, phys->pid, kind, phys->size,
			    npu_phys_is_host(phys));
	*out = phys;
	return 0;

err_uncharge:
	npu_pages_unaccount(phys);
	npu_uncharge(ndev, phys, phys->proc, NULL);
	if (phys->proc)
		npu_proc_put(phys->proc);
err_free:
	npu_phys_free(phys);
	return ret;
}
