// SPDX-License-Identifier: GPL-2.0
/*
 * Pin the layout of the npu_sim UAPI: user space built against an older or
 * newer copy of misc/npu_sim.h must see the same sizes and offsets.
 */
#include <linux/build_bug.h>
#include <linux/stddef.h>

#include <misc/npu_sim.h>

static_assert(sizeof(struct npu_sim_get_param) == 16);
static_assert(offsetof(struct npu_sim_get_param, value) == 8);

static_assert(sizeof(struct npu_sim_mem_alloc) == 64);
static_assert(offsetof(struct npu_sim_mem_alloc, backing) == 16);
static_assert(offsetof(struct npu_sim_mem_alloc, va) == 32);
static_assert(offsetof(struct npu_sim_mem_alloc, charged) == 48);
static_assert(offsetof(struct npu_sim_mem_alloc, page_kind) == 56);

static_assert(sizeof(struct npu_sim_mem_free) == 16);

static_assert(sizeof(struct npu_sim_memcpy) == 40);
static_assert(offsetof(struct npu_sim_memcpy, dir) == 24);
static_assert(offsetof(struct npu_sim_memcpy, src_fd) == 28);

static_assert(sizeof(struct npu_sim_memcpy2d) == 64);
static_assert(offsetof(struct npu_sim_memcpy2d, dir) == 48);

static_assert(sizeof(struct npu_sim_memset) == 24);
static_assert(offsetof(struct npu_sim_memset, value) == 16);

static_assert(sizeof(struct npu_sim_mem_info) == 152);
static_assert(offsetof(struct npu_sim_mem_info, capacity) == 8);
static_assert(offsetof(struct npu_sim_mem_info, allocations) == 112);
static_assert(offsetof(struct npu_sim_mem_info, reserved) == 120);
