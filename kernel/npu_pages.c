// SPDX-License-Identifier: GPL-2.0
/*
 * Normal (4 KiB) backing: order-0 pages kept in the phys object's array.
 * No file per allocation, so 100,000 small allocations stay cheap.
 */
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/capability.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>

#include "npu_sim.h"

/*
 * Zeroed so no stale kernel data leaks to the device user; RETRY_MAYFAIL so
 * a host short of memory fails the allocation instead of invoking the OOM
 * killer; ACCOUNT charges the memory cgroup of the allocating process.
 */
#define NPU_PAGES_GFP	(GFP_HIGHUSER | __GFP_ZERO | __GFP_NOWARN | \
			 __GFP_RETRY_MAYFAIL | __GFP_ACCOUNT)

static void npu_pages_put(struct npu_phys *phys, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		__free_page(phys->pages[i]);
		if ((i & 1023) == 1023)
			cond_resched();
	}
}

int npu_pages_fill(struct npu_phys *phys)
{
	unsigned long i;

	for (i = 0; i < phys->nr_pages; i++) {
		struct page *page = alloc_page(NPU_PAGES_GFP);

		if (!page) {
			npu_pages_put(phys, i);
			return -ENOMEM;
		}
		phys->pages[i] = page;

		if ((i & 511) == 511) {
			cond_resched();
			if (fatal_signal_pending(current)) {
				npu_pages_put(phys, i + 1);
				return -EINTR;
			}
		}
	}
	return 0;
}

void npu_pages_release(struct npu_phys *phys)
{
	if (phys->flags & NPU_PHYS_USER) {
		/*
		 * The device may have written pages pinned for writing: mark
		 * them dirty.  Never the others: a read-only registration may
		 * pin page cache pages of a file nobody may write back.
		 */
		unpin_user_pages_dirty_lock(phys->pages, phys->nr_pages,
					    phys->flags & NPU_PHYS_USER_WRITE);
		return;
	}
	npu_pages_put(phys, phys->nr_pages);
}

/*
 * Count @bytes (whole pages) of host memory held for the caller in its
 * pinned_vm against RLIMIT_MEMLOCK, unless it has CAP_IPC_LOCK, as RDMA
 * does: no mmap_lock needed to undo it, so the undo may come from any
 * context.  Returns the mm counted (grabbed until npu_pages_unlock_bytes()),
 * or ERR_PTR(-ENOMEM) over the limit.
 */
struct mm_struct *npu_pages_lock_bytes(u64 bytes)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	unsigned long nr = bytes >> PAGE_SHIFT;
	struct mm_struct *mm = current->mm;

	if (!mm)
		return ERR_PTR(-ENOMEM);
	if (atomic64_add_return(nr, &mm->pinned_vm) > limit &&
	    !capable(CAP_IPC_LOCK)) {
		atomic64_sub(nr, &mm->pinned_vm);
		return ERR_PTR(-ENOMEM);
	}
	mmgrab(mm);
	return mm;
}

/* Undo npu_pages_lock_bytes() of @bytes that returned @mm. */
void npu_pages_unlock_bytes(struct mm_struct *mm, u64 bytes)
{
	atomic64_sub(bytes >> PAGE_SHIFT, &mm->pinned_vm);
	mmdrop(mm);
}

/*
 * Count the @phys->size bytes of host memory @phys holds (pinned user
 * pages, or host-location and managed memory the driver allocates) for the
 * caller: npu_pages_lock_bytes().  -ENOMEM over the limit.
 */
int npu_pages_account(struct npu_phys *phys)
{
	struct mm_struct *mm = npu_pages_lock_bytes(phys->size);

	if (IS_ERR(mm))
		return PTR_ERR(mm);
	phys->mm = mm;
	return 0;
}

/*
 * Whether @bytes more of host memory could be counted for the caller
 * (npu_pages_account() decides for good): 0 or -ENOMEM.  Lets a request
 * far over the limit fail before its page array is allocated.
 */
int npu_pages_may_lock(u64 bytes)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	u64 nr = DIV_ROUND_UP_ULL(bytes, PAGE_SIZE);

	if (!current->mm)
		return -ENOMEM;
	if (nr + atomic64_read(&current->mm->pinned_vm) > limit &&
	    !capable(CAP_IPC_LOCK))
		return -ENOMEM;
	return 0;
}

/* Undo npu_pages_account(), if it was done. */
void npu_pages_unaccount(struct npu_phys *phys)
{
	if (!phys->mm)
		return;
	npu_pages_unlock_bytes(phys->mm, phys->size);
	phys->mm = NULL;
}

/*
 * Back @phys with the caller's own pages from @start (page aligned) on,
 * pinned for as long as the object lives and counted by
 * npu_pages_account().  -ENOMEM over the limit, -EFAULT a page is not
 * there (or not writable when @write).  Nothing stays held on failure.
 */
int npu_pages_pin(struct npu_phys *phys, unsigned long start, bool write)
{
	unsigned int gup = FOLL_LONGTERM | (write ? FOLL_WRITE : 0);
	unsigned long nr = phys->nr_pages;
	long got;
	int ret;

	ret = npu_pages_account(phys);
	if (ret)
		return ret;
	got = pin_user_pages_fast(start, nr, gup, phys->pages);
	if (got != nr) {
		if (got > 0)
			unpin_user_pages(phys->pages, got);
		npu_pages_unaccount(phys);
		return got < 0 ? (int)got : -EFAULT;
	}
	if (write)
		phys->flags |= NPU_PHYS_USER_WRITE;
	return 0;
}
