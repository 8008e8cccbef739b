// SPDX-License-Identifier: GPL-2.0
/*
 * Normal (4 KiB) backing: order-0 pages kept in the phys object's array.
 * No file per allocation, so 100,000 small allocations stay cheap.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched.h>
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
	npu_pages_put(phys, phys->nr_pages);
}
