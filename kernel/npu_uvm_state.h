/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-block state machine of managed (UVM) memory: pure logic, no mm calls,
 * so it also builds in user space (tests/unit/test_uvm_state.c, with
 * tests/unit/shim/linux/types.h).  One block is 2 MiB of a managed range.
 *
 * A transition works on a copy of the block and returns the actions the
 * caller must carry out (allocate/free the device copy, zap or map the host
 * PTEs); the caller commits the copy only when every action succeeded.
 * Invariant: valid == HOST|DEV only while READ_MOSTLY is set; under
 * READ_MOSTLY host PTEs are read-only.
 */
#ifndef NPU_UVM_STATE_H
#define NPU_UVM_STATE_H

#include <linux/types.h>

#define NPU_UVM_BLOCK_SHIFT	21
#define NPU_UVM_BLOCK_SIZE	(1ULL << NPU_UVM_BLOCK_SHIFT)

/* Where valid copies live (npu_uvm_block.valid). */
#define NPU_UVM_HOST		0x1
#define NPU_UVM_DEV		0x2

/* Page-table mapping of one side. */
enum npu_uvm_map {
	NPU_UVM_MAP_NONE = 0,
	NPU_UVM_MAP_RO,
	NPU_UVM_MAP_RW,
};

/* Attributes (npu_uvm_block.attr). */
#define NPU_UVM_READ_MOSTLY	0x01
#define NPU_UVM_PREF_HOST	0x02
#define NPU_UVM_PREF_DEV	0x04
#define NPU_UVM_ACC_HOST	0x08
#define NPU_UVM_ACC_DEV		0x10

/* Locations of advice and prefetch (same values as the UAPI). */
enum npu_uvm_loc {
	NPU_UVM_LOC_NONE = 0,	/* invalid location (UNSET_READ_MOSTLY: host) */
	NPU_UVM_LOC_DEV = 1,
	NPU_UVM_LOC_HOST = 2,
};

/* Advice (same values as the UAPI, enum npu_sim_advise). */
enum npu_uvm_advise {
	NPU_UVM_SET_READ_MOSTLY = 1,
	NPU_UVM_UNSET_READ_MOSTLY,
	NPU_UVM_SET_PREFERRED,
	NPU_UVM_UNSET_PREFERRED,
	NPU_UVM_SET_ACCESSED_BY,
	NPU_UVM_UNSET_ACCESSED_BY,
};

/* Actions returned by the transitions. */
#define NPU_UVM_ACT_ALLOC_DEV	0x1	/* give the block a device copy */
#define NPU_UVM_ACT_FREE_DEV	0x2	/* drop the device copy */
#define NPU_UVM_ACT_ZAP_HOST	0x4	/* remove host PTEs of the block */
#define NPU_UVM_ACT_MAP_HOST	0x8	/* map the block into the host now */

struct npu_uvm_block {
	u8 valid;			/* NPU_UVM_HOST | NPU_UVM_DEV */
	u8 host_map;			/* enum npu_uvm_map */
	u8 dev_map;			/* enum npu_uvm_map */
	u8 attr;			/* NPU_UVM_READ_MOSTLY ... */
	u8 last_prefetch;		/* enum npu_uvm_loc */
	u32 cpu_faults;
	u32 dev_faults;
	u32 h2d;
	u32 d2h;
	u32 dup_creates;
	u32 dup_invalidations;
};

unsigned int npu_uvm_host_access(struct npu_uvm_block *b, bool write);
unsigned int npu_uvm_dev_access(struct npu_uvm_block *b, bool write);
int npu_uvm_advise_check(const struct npu_uvm_block *b,
			 enum npu_uvm_advise advise, enum npu_uvm_loc loc);
unsigned int npu_uvm_advise(struct npu_uvm_block *b,
			    enum npu_uvm_advise advise, enum npu_uvm_loc loc);
unsigned int npu_uvm_prefetch(struct npu_uvm_block *b, enum npu_uvm_loc loc);

#endif /* NPU_UVM_STATE_H */
