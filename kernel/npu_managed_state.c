// SPDX-License-Identifier: GPL-2.0
/*
 * Managed (UVM) memory: the per-block state machine (see npu_managed_state.h).
 *
 * Counting: cpu_faults counts host page faults that reached the driver for
 * the block (npu_managed_host_access() is only called from the fault path);
 * dev_faults counts device accesses that found no device mapping, or only
 * a read-only one for a write.  h2d/d2h count migrations (the only valid
 * copy moves); dup_creates counts read-only duplicates made under
 * READ_MOSTLY (or by the advice); dup_invalidations counts duplicates
 * dropped because of a write or UNSET_READ_MOSTLY.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif
#include "npu_managed_state.h"

static unsigned int npu_managed_drop_dev(struct npu_managed_block *b)
{
	b->dev_map = NPU_MANAGED_MAP_NONE;
	b->valid &= ~NPU_MANAGED_DEV;
	return NPU_MANAGED_ACT_FREE_DEV;
}

static unsigned int npu_managed_drop_host(struct npu_managed_block *b)
{
	unsigned int act = 0;

	if (b->host_map != NPU_MANAGED_MAP_NONE)
		act = NPU_MANAGED_ACT_ZAP_HOST;
	b->host_map = NPU_MANAGED_MAP_NONE;
	b->valid &= ~NPU_MANAGED_HOST;
	return act;
}

unsigned int npu_managed_host_access(struct npu_managed_block *b, bool write)
{
	bool rm = b->attr & NPU_MANAGED_READ_MOSTLY;
	unsigned int act = 0;

	b->cpu_faults++;
	if (write) {
		if (b->valid & NPU_MANAGED_DEV) {
			if (b->valid & NPU_MANAGED_HOST)
				b->dup_invalidations++;
			else
				b->d2h++;
			act |= npu_managed_drop_dev(b);
		}
		b->valid = NPU_MANAGED_HOST;
		b->host_map = NPU_MANAGED_MAP_RW;
		b->attr &= ~NPU_MANAGED_READ_MOSTLY;
		return act;
	}

	if (!b->valid) {
		b->valid = NPU_MANAGED_HOST;
	} else if (!(b->valid & NPU_MANAGED_HOST)) {
		if (rm) {
			b->valid |= NPU_MANAGED_HOST;
			b->dup_creates++;
		} else {
			b->d2h++;
			act |= npu_managed_drop_dev(b);
			b->valid = NPU_MANAGED_HOST;
		}
	} else if ((b->valid & NPU_MANAGED_DEV) && !rm) {
		act |= npu_managed_drop_dev(b);
	}
	b->host_map = rm ? NPU_MANAGED_MAP_RO : NPU_MANAGED_MAP_RW;
	return act;
}

unsigned int npu_managed_dev_access(struct npu_managed_block *b, bool write)
{
	bool rm = b->attr & NPU_MANAGED_READ_MOSTLY;
	unsigned int act = 0;

	if (b->dev_map == NPU_MANAGED_MAP_NONE ||
	    (write && b->dev_map == NPU_MANAGED_MAP_RO))
		b->dev_faults++;

	if (write) {
		if (b->valid & NPU_MANAGED_HOST) {
			if (b->valid & NPU_MANAGED_DEV)
				b->dup_invalidations++;
			else
				b->h2d++;
			act |= npu_managed_drop_host(b);
		}
		if (!(b->valid & NPU_MANAGED_DEV))
			act |= NPU_MANAGED_ACT_ALLOC_DEV;
		b->valid = NPU_MANAGED_DEV;
		b->dev_map = NPU_MANAGED_MAP_RW;
		b->attr &= ~NPU_MANAGED_READ_MOSTLY;
		return act;
	}

	if (!b->valid) {
		act |= NPU_MANAGED_ACT_ALLOC_DEV;
		b->valid = NPU_MANAGED_DEV;
	} else if (!(b->valid & NPU_MANAGED_DEV)) {
		act |= NPU_MANAGED_ACT_ALLOC_DEV;
		if (rm) {
			b->valid |= NPU_MANAGED_DEV;
			b->dup_creates++;
			if (b->host_map == NPU_MANAGED_MAP_RW) {
				act |= NPU_MANAGED_ACT_ZAP_HOST;
				b->host_map = NPU_MANAGED_MAP_NONE;
			}
		} else {
			b->h2d++;
			act |= npu_managed_drop_host(b);
			b->valid = NPU_MANAGED_DEV;
		}
	} else if ((b->valid & NPU_MANAGED_HOST) && !rm) {
		act |= npu_managed_drop_host(b);
	}
	b->dev_map = rm ? NPU_MANAGED_MAP_RO : NPU_MANAGED_MAP_RW;
	return act;
}

/* Allocate and map at @loc up front (PREFERRED_LOCATION, ACCESSED_BY). */
static unsigned int npu_managed_populate(struct npu_managed_block *b,
					 enum npu_managed_loc loc)
{
	unsigned int act = 0;

	if (b->attr & NPU_MANAGED_READ_MOSTLY) {
		/* Host: nothing to do.  Device: a read-only copy. */
		if (loc != NPU_MANAGED_LOC_DEV || (b->valid & NPU_MANAGED_DEV))
			return 0;
		if (b->valid)
			b->dup_creates++;
		b->valid |= NPU_MANAGED_DEV;
		b->dev_map = NPU_MANAGED_MAP_RO;
		return NPU_MANAGED_ACT_ALLOC_DEV;
	}
	if (loc == NPU_MANAGED_LOC_HOST) {
		if (b->host_map != NPU_MANAGED_MAP_NONE)
			return 0;
		if (b->valid & NPU_MANAGED_DEV) {
			b->d2h++;
			act |= npu_managed_drop_dev(b);
		}
		b->valid = NPU_MANAGED_HOST;
		b->host_map = NPU_MANAGED_MAP_RW;
		return act | NPU_MANAGED_ACT_MAP_HOST;
	}
	if (b->dev_map == NPU_MANAGED_MAP_RW)
		return 0;
	if (b->valid & NPU_MANAGED_HOST) {
		if (!(b->valid & NPU_MANAGED_DEV))
			b->h2d++;
		act |= npu_managed_drop_host(b);
	}
	if (!(b->valid & NPU_MANAGED_DEV))
		act |= NPU_MANAGED_ACT_ALLOC_DEV;
	b->valid = NPU_MANAGED_DEV;
	b->dev_map = NPU_MANAGED_MAP_RW;
	return act;
}

static u8 npu_managed_pref_bit(enum npu_managed_loc loc)
{
	return loc == NPU_MANAGED_LOC_DEV ? NPU_MANAGED_PREF_DEV : NPU_MANAGED_PREF_HOST;
}

static u8 npu_managed_acc_bit(enum npu_managed_loc loc)
{
	return loc == NPU_MANAGED_LOC_DEV ? NPU_MANAGED_ACC_DEV : NPU_MANAGED_ACC_HOST;
}

/*
 * 0, or -EBUSY when the advice would populate @loc while the block is
 * mapped elsewhere (the seed page's "an error is returned" cases), or
 * -EINVAL for a location the advice needs and did not get.
 */
int npu_managed_advise_check(const struct npu_managed_block *b,
			     enum npu_managed_advise advise, enum npu_managed_loc loc)
{
	bool populate;

	switch (advise) {
	case NPU_MANAGED_SET_READ_MOSTLY:
	case NPU_MANAGED_UNSET_READ_MOSTLY:
	case NPU_MANAGED_UNSET_PREFERRED:
		return 0;
	case NPU_MANAGED_SET_PREFERRED:
	case NPU_MANAGED_SET_ACCESSED_BY:
	case NPU_MANAGED_UNSET_ACCESSED_BY:
		if (loc != NPU_MANAGED_LOC_DEV && loc != NPU_MANAGED_LOC_HOST)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (advise == NPU_MANAGED_UNSET_ACCESSED_BY)
		return 0;
	populate = advise == NPU_MANAGED_SET_PREFERRED ||
		   (b->attr & npu_managed_pref_bit(loc));
	if (!populate || (b->attr & NPU_MANAGED_READ_MOSTLY))
		return 0;
	if (loc == NPU_MANAGED_LOC_HOST && b->dev_map != NPU_MANAGED_MAP_NONE)
		return -EBUSY;
	if (loc == NPU_MANAGED_LOC_DEV && b->host_map != NPU_MANAGED_MAP_NONE)
		return -EBUSY;
	return 0;
}

/* Apply advice already accepted by npu_managed_advise_check(). */
unsigned int npu_managed_advise(struct npu_managed_block *b,
				enum npu_managed_advise advise, enum npu_managed_loc loc)
{
	unsigned int act = 0;

	switch (advise) {
	case NPU_MANAGED_SET_READ_MOSTLY:
		b->attr |= NPU_MANAGED_READ_MOSTLY;
		if (b->host_map == NPU_MANAGED_MAP_RW) {
			act |= NPU_MANAGED_ACT_ZAP_HOST;
			b->host_map = NPU_MANAGED_MAP_NONE;
		}
		if (b->dev_map == NPU_MANAGED_MAP_RW)
			b->dev_map = NPU_MANAGED_MAP_RO;
		/* "a read-only copy is created on the host" */
		if (b->valid == NPU_MANAGED_DEV) {
			b->valid |= NPU_MANAGED_HOST;
			b->dup_creates++;
		}
		return act;
	case NPU_MANAGED_UNSET_READ_MOSTLY:
		b->attr &= ~NPU_MANAGED_READ_MOSTLY;
		if (!b->valid)
			return 0;
		if (loc == NPU_MANAGED_LOC_DEV) {
			if (!(b->valid & NPU_MANAGED_DEV)) {
				b->h2d++;
				act |= NPU_MANAGED_ACT_ALLOC_DEV;
				b->dev_map = NPU_MANAGED_MAP_NONE;
			} else if (b->valid & NPU_MANAGED_HOST) {
				b->dup_invalidations++;
			}
			act |= npu_managed_drop_host(b);
			b->valid = NPU_MANAGED_DEV;
		} else {
			/* host, or an invalid location: keep the host copy */
			if (!(b->valid & NPU_MANAGED_HOST))
				b->d2h++;
			else if (b->valid & NPU_MANAGED_DEV)
				b->dup_invalidations++;
			if (b->valid & NPU_MANAGED_DEV)
				act |= npu_managed_drop_dev(b);
			b->valid = NPU_MANAGED_HOST;
		}
		return act;
	case NPU_MANAGED_SET_PREFERRED:
		b->attr &= ~(NPU_MANAGED_PREF_HOST | NPU_MANAGED_PREF_DEV);
		b->attr |= npu_managed_pref_bit(loc);
		return npu_managed_populate(b, loc);
	case NPU_MANAGED_UNSET_PREFERRED:
		b->attr &= ~(NPU_MANAGED_PREF_HOST | NPU_MANAGED_PREF_DEV);
		return 0;
	case NPU_MANAGED_SET_ACCESSED_BY:
		b->attr |= npu_managed_acc_bit(loc);
		if (b->attr & npu_managed_pref_bit(loc))
			return npu_managed_populate(b, loc);
		return 0;
	case NPU_MANAGED_UNSET_ACCESSED_BY:
		b->attr &= ~npu_managed_acc_bit(loc);
		return 0;
	}
	return 0;
}

unsigned int npu_managed_prefetch(struct npu_managed_block *b, enum npu_managed_loc loc)
{
	unsigned int act = 0;

	b->last_prefetch = loc;
	if (b->attr & NPU_MANAGED_READ_MOSTLY) {
		if (loc == NPU_MANAGED_LOC_DEV && !(b->valid & NPU_MANAGED_DEV)) {
			if (b->valid)
				b->dup_creates++;
			b->valid |= NPU_MANAGED_DEV;
			b->dev_map = NPU_MANAGED_MAP_RO;
			act |= NPU_MANAGED_ACT_ALLOC_DEV;
		} else if (loc == NPU_MANAGED_LOC_HOST &&
			   !(b->valid & NPU_MANAGED_HOST)) {
			if (b->valid)
				b->dup_creates++;
			b->valid |= NPU_MANAGED_HOST;
		}
		return act;
	}
	if (loc == NPU_MANAGED_LOC_DEV) {
		if (b->valid & NPU_MANAGED_HOST)
			b->h2d++;
		act |= npu_managed_drop_host(b);
		if (!(b->valid & NPU_MANAGED_DEV))
			act |= NPU_MANAGED_ACT_ALLOC_DEV;
		b->valid = NPU_MANAGED_DEV;
		b->dev_map = NPU_MANAGED_MAP_RW;
	} else {
		if (b->valid & NPU_MANAGED_DEV) {
			b->d2h++;
			act |= npu_managed_drop_dev(b);
		}
		b->valid = NPU_MANAGED_HOST;
	}
	return act;
}
