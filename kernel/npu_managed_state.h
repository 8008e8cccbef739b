/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-block state machine of managed (UVM) memory: pure logic, no mm calls,
 * so it also builds in user space (tests/unit/test_managed_state.c, with
 * tests/unit/shim/linux/types.h).  One block is 2 MiB of a managed range.
 *
 * A transition works on a copy of the block and returns the actions the
 * caller must carry out (allocate/free the device copy, zap or map the host
 * PTEs); the caller commits the copy only when every action succeeded.
 * Invariant: valid == HOST|DEV only while READ_MOSTLY is set; under
 * READ_MOSTLY host PTEs are read-only.
 */
#ifndef NPU_MANAGED_STATE_H
#define NPU_MANAGED_STATE_H

#include <linux/types.h>

#define NPU_MANAGED_BLOCK_SHIFT	21
#define NPU_MANAGED_BLOCK_SIZE	(1ULL << NPU_MANAGED_BLOCK_SHIFT)

/* Where valid copies live (npu_managed_block.valid). */
#define NPU_MANAGED_HOST		0x1
#define NPU_MANAGED_DEV		0x2

/* Page-table mapping of one side. */
enum npu_managed_map {
	NPU_MANAGED_MAP_NONE = 0,
	NPU_MANAGED_MAP_RO,
	NPU_MANAGED_MAP_RW,
};

/* Attributes (npu_managed_block.attr). */
#define NPU_MANAGED_READ_MOSTLY	0x01
#define NPU_MANAGED_PREF_HOST	0x02
#define NPU_MANAGED_PREF_DEV	0x04
#define NPU_MANAGED_ACC_HOST	0x08
#define NPU_MANAGED_ACC_DEV		0x10

/* Locations of advice and prefetch (same values as the UAPI). */
enum npu_managed_loc {
	NPU_MANAGED_LOC_NONE = 0,	/* invalid location (UNSET_READ_MOSTLY: host) */
	NPU_MANAGED_LOC_DEV = 1,
	NPU_MANAGED_LOC_HOST = 2,
};

/* Advice (same values as the UAPI, enum npu_sim_advise). */
enum npu_managed_advise {
	NPU_MANAGED_SET_READ_MOSTLY = 1,
	NPU_MANAGED_UNSET_READ_MOSTLY,
	NPU_MANAGED_SET_PREFERRED,
	NPU_MANAGED_UNSET_PREFERRED,
	NPU_MANAGED_SET_ACCESSED_BY,
	NPU_MANAGED_UNSET_ACCESSED_BY,
};

/* Actions returned by the transitions. */
#define NPU_MANAGED_ACT_ALLOC_DEV	0x1	/* give the block a device copy */
#define NPU_MANAGED_ACT_FREE_DEV	0x2	/* drop the device copy */
#define NPU_MANAGED_ACT_ZAP_HOST	0x4	/* remove host PTEs of the block */
#define NPU_MANAGED_ACT_MAP_HOST	0x8	/* map the block into the host now */

struct npu_managed_block {
	u8 valid;			/* NPU_MANAGED_HOST | NPU_MANAGED_DEV */
	u8 host_map;			/* enum npu_managed_map */
	u8 dev_map;			/* enum npu_managed_map */
	u8 attr;			/* NPU_MANAGED_READ_MOSTLY ... */
	u8 last_prefetch;		/* enum npu_managed_loc */
	u32 cpu_faults;
	u32 dev_faults;
	u32 h2d;
	u32 d2h;
	u32 dup_creates;
	u32 dup_invalidations;
};

unsigned int npu_managed_host_access(struct npu_managed_block *b, bool write);
unsigned int npu_managed_dev_access(struct npu_managed_block *b, bool write);
int npu_managed_advise_check(const struct npu_managed_block *b,
			     enum npu_managed_advise advise, enum npu_managed_loc loc);
unsigned int npu_managed_advise(struct npu_managed_block *b,
				enum npu_managed_advise advise, enum npu_managed_loc loc);
unsigned int npu_managed_prefetch(struct npu_managed_block *b, enum npu_managed_loc loc);

#endif /* NPU_MANAGED_STATE_H */
