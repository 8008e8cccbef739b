/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Pinned layout of the npu_sim UAPI (misc/npu_sim.h): sizes and offsets
 * that user space built against an older or newer copy must see the same.
 * Included once by the kernel module and once by the runtime library, so a
 * layout change breaks both builds.  Not an API: nothing to include in
 * programs.
 */
#ifndef _UAPI_MISC_NPU_SIM_LAYOUT_H
#define _UAPI_MISC_NPU_SIM_LAYOUT_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/stddef.h>
#else
#include <assert.h>
#include <stddef.h>
#endif

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
static_assert(offsetof(struct npu_sim_mem_info, limit_effective) == 120);
static_assert(offsetof(struct npu_sim_mem_info, limit_used) == 128);
static_assert(offsetof(struct npu_sim_mem_info, reserved) == 136);
static_assert(sizeof(struct npu_sim_mem_peaks) == 72);
static_assert(offsetof(struct npu_sim_mem_peaks, used_p2p) == 48);
static_assert(offsetof(struct npu_sim_mem_peaks, reserved) == 56);

static_assert(sizeof(struct npu_sim_vmm_reserve) == 32);
static_assert(offsetof(struct npu_sim_vmm_reserve, flags) == 24);
static_assert(sizeof(struct npu_sim_vmm_release) == 16);
static_assert(sizeof(struct npu_sim_phys_alloc) == 40);
static_assert(offsetof(struct npu_sim_phys_alloc, handle) == 28);
static_assert(offsetof(struct npu_sim_phys_alloc, charged) == 32);
static_assert(sizeof(struct npu_sim_phys_free) == 8);
static_assert(sizeof(struct npu_sim_vmm_map) == 32);
static_assert(offsetof(struct npu_sim_vmm_map, handle) == 24);
static_assert(sizeof(struct npu_sim_vmm_unmap) == 16);
static_assert(sizeof(struct npu_sim_vmm_set_access) == 32);
static_assert(offsetof(struct npu_sim_vmm_set_access, access) == 16);
static_assert(sizeof(struct npu_sim_vmm_query) == 64);
static_assert(offsetof(struct npu_sim_vmm_query, base) == 16);
static_assert(offsetof(struct npu_sim_vmm_query, page_kind) == 32);
static_assert(offsetof(struct npu_sim_vmm_query, mem_attr) == 60);
static_assert(sizeof(struct npu_sim_phys_info) == 40);
static_assert(offsetof(struct npu_sim_phys_info, size) == 8);
static_assert(offsetof(struct npu_sim_phys_info, mappings) == 32);
static_assert(sizeof(struct npu_sim_share_export) == 16);
static_assert(offsetof(struct npu_sim_share_export, key) == 8);
static_assert(sizeof(struct npu_sim_share_set_pids) == 24);
static_assert(sizeof(struct npu_sim_share_import) == 24);
static_assert(offsetof(struct npu_sim_share_import, size) == 16);

static_assert(sizeof(struct npu_sim_stream_create) == 16);
static_assert(offsetof(struct npu_sim_stream_create, id) == 12);
static_assert(sizeof(struct npu_sim_stream_destroy) == 8);
static_assert(sizeof(struct npu_sim_stream_submit) == 96);
static_assert(offsetof(struct npu_sim_stream_submit, dst) == 8);
static_assert(offsetof(struct npu_sim_stream_submit, dir) == 56);
static_assert(offsetof(struct npu_sim_stream_submit, seq) == 72);
static_assert(offsetof(struct npu_sim_stream_submit, location) == 80);
static_assert(offsetof(struct npu_sim_stream_submit, location_id) == 84);
static_assert(offsetof(struct npu_sim_stream_submit, operand) == 88);
static_assert(sizeof(struct npu_sim_stream_sync) == 40);
static_assert(offsetof(struct npu_sim_stream_sync, error) == 16);
static_assert(offsetof(struct npu_sim_stream_sync, submitted) == 24);
static_assert(sizeof(struct npu_sim_event_create) == 16);
static_assert(sizeof(struct npu_sim_event_destroy) == 8);
static_assert(sizeof(struct npu_sim_event_sync) == 40);
static_assert(offsetof(struct npu_sim_event_sync, recorded) == 16);
static_assert(offsetof(struct npu_sim_event_sync, timestamp_ns) == 32);

/* 1.9: event extensions */
static_assert(sizeof(struct npu_sim_event_export) == 16);
static_assert(offsetof(struct npu_sim_event_export, key) == 8);
static_assert(sizeof(struct npu_sim_event_import) == 24);
static_assert(offsetof(struct npu_sim_event_import, id) == 16);
static_assert(sizeof(struct npu_sim_event_info) == 56);
static_assert(offsetof(struct npu_sim_event_info, recorded) == 16);
static_assert(offsetof(struct npu_sim_event_info, avail) == 48);
static_assert(sizeof(struct npu_sim_cb_subscribe) == 16);
static_assert(sizeof(struct npu_sim_cb_wait) == 40);
static_assert(offsetof(struct npu_sim_cb_wait, report) == 16);
static_assert(offsetof(struct npu_sim_cb_wait, stream) == 32);
static_assert(sizeof(struct npu_sim_cb_done) == 16);
static_assert(sizeof(struct npu_sim_cb_query) == 16);
static_assert(sizeof(struct npu_sim_stream_ctl) == 48);
static_assert(offsetof(struct npu_sim_stream_ctl, value) == 8);
static_assert(offsetof(struct npu_sim_stream_ctl, dropped) == 32);
static_assert(sizeof(struct npu_sim_managed_alloc) == 40);
static_assert(offsetof(struct npu_sim_managed_alloc, va) == 16);
static_assert(sizeof(struct npu_sim_managed_advise) == 40);
static_assert(offsetof(struct npu_sim_managed_advise, reserved) == 32);
static_assert(sizeof(struct npu_sim_managed_touch) == 24);
static_assert(sizeof(struct npu_sim_managed_query) == 48);
static_assert(offsetof(struct npu_sim_managed_query, reserved) == 40);
static_assert(sizeof(struct npu_sim_host_register) == 32);
static_assert(offsetof(struct npu_sim_host_register, va) == 24);
static_assert(sizeof(struct npu_sim_host_unregister) == 16);
static_assert(sizeof(struct npu_sim_ipc_export) == 32);
static_assert(offsetof(struct npu_sim_ipc_export, key) == 24);
static_assert(sizeof(struct npu_sim_ipc_import) == 32);
static_assert(offsetof(struct npu_sim_ipc_import, va) == 16);
static_assert(sizeof(struct npu_sim_ipc_close) == 16);
static_assert(sizeof(struct npu_sim_peer_access) == 16);
static_assert(offsetof(struct npu_sim_peer_access, enabled) == 12);
static_assert(sizeof(struct npu_sim_graph_create) == 32);
static_assert(offsetof(struct npu_sim_graph_create, bytes) == 24);
static_assert(sizeof(struct npu_sim_graph_destroy) == 8);
static_assert(sizeof(struct npu_sim_graph_launch) == 24);
static_assert(sizeof(struct npu_sim_graph_info) == 32);
static_assert(sizeof(struct npu_sim_mem_limit) == 56);
static_assert(offsetof(struct npu_sim_mem_limit, used) == 40);
static_assert(sizeof(struct npu_sim_fault_inject) == 40);
static_assert(offsetof(struct npu_sim_fault_inject, reserved) == 24);

static_assert(sizeof(struct npu_sim_check_site) == 32);
static_assert(offsetof(struct npu_sim_check_site, op) == 16);
static_assert(offsetof(struct npu_sim_check_site, reserved) == 24);

/* Notifies (1.9) */
static_assert(sizeof(struct npu_sim_notify_create) == 8);
static_assert(sizeof(struct npu_sim_notify_destroy) == 8);
static_assert(sizeof(struct npu_sim_notify_reset) == 8);
static_assert(sizeof(struct npu_sim_notify_export) == 16);
static_assert(offsetof(struct npu_sim_notify_export, key) == 8);
static_assert(sizeof(struct npu_sim_notify_import) == 16);
static_assert(offsetof(struct npu_sim_notify_import, id) == 12);
static_assert(sizeof(struct npu_sim_notify_query) == 32);
static_assert(offsetof(struct npu_sim_notify_query, key) == 16);
static_assert(offsetof(struct npu_sim_notify_query, pad) == 28);

static_assert(sizeof(struct npu_sim_mempool_create) == 24);
static_assert(sizeof(struct npu_sim_mempool_destroy) == 8);
static_assert(sizeof(struct npu_sim_mempool_ctl) == 24);
static_assert(offsetof(struct npu_sim_mempool_ctl, value) == 16);
static_assert(sizeof(struct npu_sim_mempool_alloc) == 40);
static_assert(offsetof(struct npu_sim_mempool_alloc, size) == 16);
static_assert(offsetof(struct npu_sim_mempool_alloc, block_size) == 32);

#endif /* _UAPI_MISC_NPU_SIM_LAYOUT_H */
