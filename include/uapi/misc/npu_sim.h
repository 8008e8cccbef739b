/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * npu_sim user-space ABI: the ioctls of /dev/npu_simN, shared by the kernel
 * module (kernel/) and the runtime library (lib/libacl_rt).
 *
 * Rules that keep this ABI stable:
 * - only fixed-width types; every 64-bit field is 8-byte aligned; every struct
 *   is a multiple of 8 bytes and has no implicit padding (sizes and offsets
 *   are pinned by misc/npu_sim_layout.h, compiled into the module and the
 *   library alike);
 * - every "pad"/"reserved" field, every flag bit outside its *_MASK and
 *   every "out" field must be zero on input, otherwise the ioctl fails with
 *   -EINVAL (so a field can later become an input without ambiguity);
 * - enums start at 1: 0 is never valid, so an unset field is caught;
 * - command numbers are grouped by feature (0x00 core, 0x10 VMM and sharing,
 *   0x30 streams and events, 0x50 managed memory, 0x60 several devices,
 *   0x80 checks, 0x90 limits and fault injection) and never renumbered;
 *   new features come as new commands, new GET_PARAM params or new
 *   capability bits.
 *
 * All sizes are in bytes, all addresses are user virtual addresses of the
 * calling process.  Every ioctl but GET_PARAM is only accepted from the
 * process (mm) that opened the file; any other caller gets -EACCES.
 * GET_PARAM reads device parameters and is answered for any caller.
 */
#ifndef _UAPI_MISC_NPU_SIM_H
#define _UAPI_MISC_NPU_SIM_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define NPU_SIM_API_VERSION_MAJOR	1
#define NPU_SIM_API_VERSION_MINOR	12

/* Device nodes are /dev/npu_sim0 .. /dev/npu_sim<N-1>. */
#define NPU_SIM_DEV_PREFIX	"/dev/npu_sim"

#define NPU_SIM_IOC_MAGIC	0xB8

/* ---- NPU_SIM_IOCTL_GET_PARAM ------------------------------------------ */

enum npu_sim_param {
	/* (MAJOR << 16) | MINOR of this header the module was built with. */
	NPU_SIM_PARAM_API_VERSION = 1,
	/* Number of devices the module created. */
	NPU_SIM_PARAM_NUM_DEVICES = 2,
	/* Index N of this /dev/npu_simN. */
	NPU_SIM_PARAM_DEVICE_INDEX = 3,
	/* Device memory capacity in bytes. */
	NPU_SIM_PARAM_CAPACITY = 4,
	/*
	 * Size in bytes of the device VA window.  The caller maps it once with
	 * mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0); device
	 * pointers of this context are handed out inside that mapping.
	 */
	NPU_SIM_PARAM_VA_WINDOW_SIZE = 5,
	/* Start address of this context's window, 0 while it is not mapped. */
	NPU_SIM_PARAM_VA_WINDOW_START = 6,
	/* Bit mask of NPU_SIM_CAP_*. */
	NPU_SIM_PARAM_CAPABILITIES = 7,
	/* 1 when the host may dereference device memory, 0 in strict mode. */
	NPU_SIM_PARAM_HOST_ACCESS = 8,
	/* Bit mask of backing page sizes the device can use (bit n = 2^n). */
	NPU_SIM_PARAM_PAGE_SIZES = 9,
	/* 1.5: the caller's process id in the initial pid namespace. */
	NPU_SIM_PARAM_BARE_TGID = 10,
	/*
	 * 1.6: the product profile of the module (module parameter profile=):
	 * an enum npu_sim_profile_index of misc/npu_sim_profiles.h.
	 */
	NPU_SIM_PARAM_PROFILE = 11,
};

#define NPU_SIM_CAP_HUGE_2M	(1ULL << 0)	/* 2 MiB hugetlb pool usable */
#define NPU_SIM_CAP_HUGE_1G	(1ULL << 1)	/* 1 GiB hugetlb pool usable */
#define NPU_SIM_CAP_VMM		(1ULL << 2)	/* VMM_* and PHYS_* ioctls (1.1) */
#define NPU_SIM_CAP_IPC		(1ULL << 3)	/* SHARE_* ioctls (1.1) */
#define NPU_SIM_CAP_STREAMS	(1ULL << 4)	/* STREAM_* and EVENT_* ioctls (1.2) */
#define NPU_SIM_CAP_MANAGED	(1ULL << 5)	/* MANAGED_* ioctls, OP_PREFETCH (1.3) */
/*
 * Test-only ioctls (MANAGED_TOUCH) are accepted: the module was loaded with
 * test_hooks=1.  Without this bit they fail with -ENOTTY.  (1.4)
 */
#define NPU_SIM_CAP_TEST_HOOKS	(1ULL << 6)
/* PEER_ACCESS, cross-device D2D copies and imports (1.5) */
#define NPU_SIM_CAP_PEER	(1ULL << 7)
/* CHECK_SITE ioctl, debugfs sites and reports (1.6) */
#define NPU_SIM_CAP_CHECK	(1ULL << 8)
/* MEM_LIMIT: per-process device memory limits (1.6) */
#define NPU_SIM_CAP_MEM_LIMIT	(1ULL << 9)
/* FAULT_INJECT: seeded failures of chosen operations (1.6) */
#define NPU_SIM_CAP_FAULT_INJECT	(1ULL << 10)
/*
 * MEM_PEAKS, MEM_INFO flag NPU_SIM_MEM_INFO_DEVICE_ONLY, and allocations of
 * at most 2 KiB in slots of shared pages (1.7)
 */
#define NPU_SIM_CAP_MEM_PEAKS	(1ULL << 11)
/* STREAM_CTL, stream failure modes, STREAM_CREATE flags (1.9) */
#define NPU_SIM_CAP_STREAM_CTL	(1ULL << 12)
/*
 * EVENT_EXPORT / EVENT_IMPORT / EVENT_INFO, OP_RESET, the event create flag
 * NPU_SIM_EVENT_IPC and the WAIT flag NPU_SIM_WAIT_EVENT_TIMEOUT (1.9)
 */
#define NPU_SIM_CAP_EVENT_EXT	(1ULL << 13)
#define NPU_SIM_CAP_NOTIFY	(1ULL << 14)	/* NOTIFY_* ioctls, ops 8, 9 (1.9) */
/* OP_CALLBACK and the CB_* ioctls: host callbacks (1.9) */
#define NPU_SIM_CAP_CALLBACK	(1ULL << 15)
/* STREAM_SUBMIT OP_SET with NPU_SIM_SET_32, OP_REDUCE, OP_CMO (1.9) */
#define NPU_SIM_CAP_MEM_OPS	(1ULL << 16)
/* MEMPOOL_* ioctls and OP_POOL_FREE: stream-ordered memory pools (1.10) */
#define NPU_SIM_CAP_MEMPOOL	(1ULL << 17)
/* GRAPH_CREATE / GRAPH_DESTROY / GRAPH_LAUNCH / GRAPH_INFO: captured graphs */
#define NPU_SIM_CAP_GRAPH	(1ULL << 18)
/* GRAPH_CREATE with NPU_SIM_GRAPH_FLOW, ops 17..19: control flow (1.11) */
#define NPU_SIM_CAP_GRAPH_FLOW	(1ULL << 19)
/* Graph memory, GRAPH_LAUNCH @tag, GRAPH_ABORT (1.11) */
#define NPU_SIM_CAP_GRAPH_POOL	(1ULL << 20)
/*
 * A STOP context's failure is kept until the file is closed (1.12): its
 * streams refuse submits with -EPIPE, STREAM_CTL CTX_FAILURE tells the error
 */
#define NPU_SIM_CAP_CTX_FAILURE	(1ULL << 21)
/*
 * The runtime's decisions (1.11): SET_MODE STOP makes the stream's context
 * (@ctx_id) STOP, so a failure stops every stream of it; EVENT_SYNC
 * answers -ECONNABORTED when an ABORT drops the record it waits for;
 * STREAM_CTL QUERY reports subscriptions (NPU_SIM_STREAM_CB_* state bits)
 */
#define NPU_SIM_CAP_RT_DECIDES	(1ULL << 22)

/**
 * struct npu_sim_get_param - query a device or driver parameter
 * @param: in, enum npu_sim_param
 * @index: in, must be 0 (reserved for indexed params)
 * @value: out
 *
 * Errors: -EINVAL unknown param or index != 0.
 */
struct npu_sim_get_param {
	__u32 param;
	__u32 index;
	__u64 value;
};

/* ---- NPU_SIM_IOCTL_MEM_ALLOC / MEM_FREE --------------------------------- */

/* How the backing of an allocation is chosen (docs/design.md 4.1). */
enum npu_sim_backing {
	/* normal (4 KiB) pages only */
	NPU_SIM_BACKING_NORMAL = 1,
	/*
	 * footprint <= 1 MiB: normal pages; larger: rounded up to 2 MiB and
	 * backed by 2 MiB hugetlb pages, normal pages if the pool is short
	 */
	NPU_SIM_BACKING_HUGE_FIRST = 2,
	/* 2 MiB hugetlb pages or -ENOMEM */
	NPU_SIM_BACKING_HUGE_ONLY = 3,
	/* 1 GiB hugetlb pages or -ENOMEM */
	NPU_SIM_BACKING_HUGE1G_ONLY = 4,
};

/* Page kind an allocation ended up with (out). */
enum npu_sim_page_kind {
	NPU_SIM_PAGE_NORMAL = 1,	/* 4 KiB pages */
	NPU_SIM_PAGE_HUGE_2M = 2,	/* 2 MiB hugetlb pages */
	NPU_SIM_PAGE_HUGE_1G = 3,	/* 1 GiB hugetlb pages */
};

/* Which runtime call made the allocation (recorded for debugfs). */
enum npu_sim_alloc_api {
	NPU_SIM_API_MALLOC = 1,		/* aclrtMalloc */
	NPU_SIM_API_MALLOC_ALIGN32 = 2,	/* aclrtMallocAlign32 */
	NPU_SIM_API_MALLOC_CACHED = 3,	/* aclrtMallocCached */
	NPU_SIM_API_MALLOC_WITH_CFG = 4,	/* aclrtMallocWithCfg */
};

#define NPU_SIM_ALLOC_P2P	(1U << 0)	/* P2P-capable memory */
#define NPU_SIM_ALLOC_READONLY	(1U << 1)	/* read-only to user space */
#define NPU_SIM_ALLOC_FLAGS_MASK	(NPU_SIM_ALLOC_P2P | NPU_SIM_ALLOC_READONLY)

/**
 * struct npu_sim_mem_alloc - allocate device memory and give it a device VA
 * @size: in, bytes the caller asked for (> 0, <= @footprint); shown in debugfs
 * @footprint: in, bytes to back (the runtime's padded/aligned size); the
 *	driver rounds it up to the backing page size and charges that much
 *	against the device capacity.  At most 2 KiB on normal pages (NORMAL
 *	or HUGE_FIRST backing, @flags 0, no host access): a slot of
 *	ALIGN_UP(@footprint, 64) bytes in a 4 KiB page shared with the
 *	context's other slots of that size; the page is charged once, while
 *	any of its slots lives
 * @backing: in, enum npu_sim_backing
 * @flags: in, NPU_SIM_ALLOC_*
 * @policy: in, the aclrtMemMallocPolicy value as the caller gave it (shown)
 * @api: in, enum npu_sim_alloc_api
 * @va: out, device VA, aligned to the backing page size (>= 4 KiB), or
 *	to 64 bytes for a slot
 * @id: out, allocation id (unique per device, never reused while loaded)
 * @charged: out, bytes charged against the capacity; for a slot, the
 *	slot's size
 * @page_kind: out, enum npu_sim_page_kind
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field, or @footprint within 1 GiB of 2^64 (its rounding
 * up to a backing page would wrap); -ENXIO VA window not mapped; -ENOMEM device
 * capacity exceeded, hugetlb pool short (HUGE_ONLY, HUGE1G_ONLY), host out of
 * memory, VA window full, or an injected failure.
 */
struct npu_sim_mem_alloc {
	__u64 size;
	__u64 footprint;
	__u32 backing;
	__u32 flags;
	__u32 policy;
	__u32 api;
	__u64 va;
	__u64 id;
	__u64 charged;
	__u32 page_kind;
	__u32 pad;
};

/**
 * struct npu_sim_mem_free - free an allocation by its start address
 * @va: in, the @va returned by MEM_ALLOC
 * @flags: in, must be 0
 * @pad: must be 0
 *
 * Errors: -EINVAL flags/pad; -ENOENT no allocation starts at @va (never
 * allocated, interior pointer, already freed).
 */
struct npu_sim_mem_free {
	__u64 va;
	__u32 flags;
	__u32 pad;
};

/* ---- NPU_SIM_IOCTL_MEMCPY / MEMCPY2D / MEMSET --------------------------- */

/* Direction of a copy; checked against where the addresses really are. */
enum npu_sim_copy_dir {
	NPU_SIM_COPY_H2D = 1,
	NPU_SIM_COPY_D2H = 2,
	NPU_SIM_COPY_D2D = 3,
};

/**
 * struct npu_sim_memcpy - copy @count bytes, done by the driver
 * @dst: in, destination address
 * @src: in, source address
 * @count: in, bytes (> 0)
 * @dir: in, enum npu_sim_copy_dir: which of @dst/@src are device addresses
 * @src_fd: in, must be -1 (other values are reserved: -EOPNOTSUPP)
 * @flags: in, must be 0
 * @pad: must be 0
 *
 * A device address of H2D/D2H lies in this file's window.  Each device
 * address of D2D lies in this file's window or (1.5) in the window of
 * another device opened by the same process: a cross-device copy, allowed
 * when this file's device has peer access to that device (PEER_ACCESS),
 * done by the driver in one copy and counted per device pair in debugfs
 * "peer_copies".
 *
 * Every device byte of the copy must lie in live device memory (a run of
 * allocations with no hole between them); this is checked before any byte is
 * written.  Errors: -EINVAL bad field or overflow, or an address that is not
 * where @dir says; -ENXIO a device range touches memory that is not
 * allocated; -EFAULT a host range is not accessible; -EPERM cross-device
 * without peer access; -EOPNOTSUPP @src_fd != -1.
 */
struct npu_sim_memcpy {
	__u64 dst;
	__u64 src;
	__u64 count;
	__u32 dir;
	__s32 src_fd;
	__u32 flags;
	__u32 pad;
};

/**
 * struct npu_sim_memcpy2d - copy @height rows of @width bytes
 * @dst: in, destination address
 * @dpitch: in, destination row pitch (bytes, >= @width)
 * @src: in, source address
 * @spitch: in, source row pitch (bytes, >= @width)
 * @width: in, bytes per row, > 0
 * @height: in, rows, > 0
 * @dir: in, as in struct npu_sim_memcpy
 * @src_fd: in, as in struct npu_sim_memcpy
 * @flags: in, must be 0
 * @pad: must be 0
 *
 * All rows are checked before any byte is written.  Errors as MEMCPY.
 */
struct npu_sim_memcpy2d {
	__u64 dst;
	__u64 dpitch;
	__u64 src;
	__u64 spitch;
	__u64 width;
	__u64 height;
	__u32 dir;
	__s32 src_fd;
	__u32 flags;
	__u32 pad;
};

/**
 * struct npu_sim_memset - set @count bytes of device memory to @value
 * @dst: in, device address of this context
 * @count: in, bytes (> 0)
 * @value: in, only the low 8 bits are used; the other bits must be 0
 * @flags: in, must be 0
 *
 * Errors: -EINVAL bad field or @dst not in this context's window; -ENXIO
 * range not in live device memory.
 */
struct npu_sim_memset {
	__u64 dst;
	__u64 count;
	__u32 value;
	__u32 flags;
};

/* ---- NPU_SIM_IOCTL_MEM_INFO -------------------------------------------- */

/* MEM_INFO flags (1.7) */
/* Leave the pool and host figures (@huge_* and @host_*) zero: cheaper. */
#define NPU_SIM_MEM_INFO_DEVICE_ONLY	(1U << 0)
#define NPU_SIM_MEM_INFO_FLAGS_MASK	NPU_SIM_MEM_INFO_DEVICE_ONLY

/**
 * struct npu_sim_mem_info - device-wide memory counters (all processes)
 * @flags: in, NPU_SIM_MEM_INFO_* (1.7; 0 before)
 * @pad: must be 0
 * @capacity: out, device memory capacity (bytes)
 * @used: out, bytes charged by all live allocations of all processes
 * @used_normal: out, bytes of @used backed by normal 4 KiB pages
 * @used_huge_2m: out, bytes of @used backed by 2 MiB hugetlb pages
 * @used_huge_1g: out, bytes of @used backed by 1 GiB hugetlb pages
 * @used_p2p: out, bytes of @used that are P2P memory
 * @context_used: out, bytes charged by the calling context
 * @huge_2m_free: out, 2 MiB pages free in the host pool
 * @huge_2m_total: out, 2 MiB pages in the host pool
 * @huge_1g_free: out, 1 GiB pages free in the host pool
 * @huge_1g_total: out, 1 GiB pages in the host pool
 * @host_total: out, host RAM in bytes (/proc/meminfo MemTotal)
 * @host_free: out, available host RAM in bytes (/proc/meminfo MemAvailable)
 * @allocations: out, live allocations on the device (all processes)
 * @limit_effective: out (1.10), the calling process's device memory limit
 *	(MEM_LIMIT @effective: the lower of its own and the admin limit),
 *	bytes; 0 none
 * @limit_used: out (1.10), bytes charged to that limit (MEM_LIMIT @used)
 * @reserved: out, zero
 */
struct npu_sim_mem_info {
	__u32 flags;
	__u32 pad;
	__u64 capacity;
	__u64 used;
	__u64 used_normal;
	__u64 used_huge_2m;
	__u64 used_huge_1g;
	__u64 used_p2p;
	__u64 context_used;
	__u64 huge_2m_free;
	__u64 huge_2m_total;
	__u64 huge_1g_free;
	__u64 huge_1g_total;
	__u64 host_total;
	__u64 host_free;
	__u64 allocations;
	__u64 limit_effective;
	__u64 limit_used;
	__u64 reserved[2];
};

/* ---- NPU_SIM_IOCTL_MEM_PEAKS (API 1.7, NPU_SIM_CAP_MEM_PEAKS) ----------- */

/**
 * struct npu_sim_mem_peaks - highest usage seen by the calling context
 * @flags: in, must be 0
 * @pad: must be 0
 * @context_used: out, peak of MEM_INFO @context_used since the file was
 *	opened (exact: sampled before every release of device memory)
 * @used: out, peak of MEM_INFO @used, sampled when this context released
 *	device memory (MEM_FREE, PHYS_FREE, VMM_UNMAP, VMM_RELEASE) and at
 *	this call; changes by other processes in between are not seen
 * @used_normal: out, the same for MEM_INFO @used_normal
 * @used_huge_2m: out, the same for MEM_INFO @used_huge_2m
 * @used_huge_1g: out, the same for MEM_INFO @used_huge_1g
 * @used_p2p: out, the same for MEM_INFO @used_p2p
 * @reserved: out, zero
 *
 * All out fields must be zero on input.  Bytes.  Errors: -EINVAL flags,
 * pad or an out field set.
 */
struct npu_sim_mem_peaks {
	__u32 flags;
	__u32 pad;
	__u64 context_used;
	__u64 used;
	__u64 used_normal;
	__u64 used_huge_2m;
	__u64 used_huge_1g;
	__u64 used_p2p;
	__u64 reserved[2];
};

#define NPU_SIM_IOCTL_GET_PARAM	_IOWR(NPU_SIM_IOC_MAGIC, 0x00, struct npu_sim_get_param)
#define NPU_SIM_IOCTL_MEM_ALLOC	_IOWR(NPU_SIM_IOC_MAGIC, 0x01, struct npu_sim_mem_alloc)
#define NPU_SIM_IOCTL_MEM_FREE	_IOW(NPU_SIM_IOC_MAGIC, 0x02, struct npu_sim_mem_free)
#define NPU_SIM_IOCTL_MEMCPY	_IOW(NPU_SIM_IOC_MAGIC, 0x03, struct npu_sim_memcpy)
#define NPU_SIM_IOCTL_MEMCPY2D	_IOW(NPU_SIM_IOC_MAGIC, 0x04, struct npu_sim_memcpy2d)
#define NPU_SIM_IOCTL_MEMSET	_IOW(NPU_SIM_IOC_MAGIC, 0x05, struct npu_sim_memset)
#define NPU_SIM_IOCTL_MEM_INFO	_IOWR(NPU_SIM_IOC_MAGIC, 0x06, struct npu_sim_mem_info)
#define NPU_SIM_IOCTL_MEM_PEAKS	_IOWR(NPU_SIM_IOC_MAGIC, 0x09, struct npu_sim_mem_peaks)

/* ---- Registered host memory (API 1.5) ------------------------------------ */

#define NPU_SIM_HOSTREG_READONLY	(1U << 0)	/* the device only reads */
#define NPU_SIM_HOSTREG_FLAGS_MASK	NPU_SIM_HOSTREG_READONLY

/**
 * struct npu_sim_host_register - make host memory reachable by the device
 * @addr: in, start of host memory of the calling process (any alignment)
 * @size: in, bytes (> 0)
 * @flags: in, NPU_SIM_HOSTREG_FLAGS_MASK bits
 * @pad: must be 0
 * @va: out, device address of @addr in this file's window
 *
 * The host pages covering [@addr, @addr + @size) are pinned (counted
 * against RLIMIT_MEMLOCK) and mapped into the window: copies and sets
 * through @va read and write them.  Not charged to the device.  Errors:
 * -EINVAL bad field; -EFAULT the range is not mapped (writable, without
 * READONLY); -ENOMEM over RLIMIT_MEMLOCK or out of memory; -ENXIO window
 * not mapped.
 */
struct npu_sim_host_register {
	__u64 addr;
	__u64 size;
	__u32 flags;
	__u32 pad;
	__u64 va;
};

/**
 * struct npu_sim_host_unregister - undo one HOST_REGISTER
 * @va: in, the @va HOST_REGISTER returned
 * @flags: in, must be 0
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field; -ENOENT no registration at @va.
 */
struct npu_sim_host_unregister {
	__u64 va;
	__u32 flags;
	__u32 pad;
};

#define NPU_SIM_IOCTL_HOST_REGISTER	_IOWR(NPU_SIM_IOC_MAGIC, 0x07, struct npu_sim_host_register)
#define NPU_SIM_IOCTL_HOST_UNREGISTER \
	_IOW(NPU_SIM_IOC_MAGIC, 0x08, struct npu_sim_host_unregister)

/* ---- Virtual memory management (API 1.1, NPU_SIM_CAP_VMM) --------------- */

/*
 * Granularity of VMM objects: reservation sizes and addresses, physical
 * object sizes and map addresses are multiples of NPU_SIM_VMM_GRANULE; a
 * physical object of 1 GiB pages needs 1 GiB multiples and 1 GiB aligned
 * map addresses.
 */
#define NPU_SIM_VMM_GRANULE	(2ULL << 20)

/**
 * struct npu_sim_vmm_reserve - reserve a VA range with no backing
 * @size: in, bytes, > 0, multiple of NPU_SIM_VMM_GRANULE; may exceed the
 *	device capacity (only window space is used)
 * @addr: in, 0 (the driver picks: 1 GiB aligned when @size >= 1 GiB, else
 *	2 MiB aligned) or the exact start wanted (NPU_SIM_VMM_GRANULE aligned)
 * @va: out, start of the reservation
 * @flags: in, must be 0
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field; -ENXIO window not mapped; -ENOMEM no room in
 * the window; -EBUSY @addr given and [addr, addr + size) not free or not
 * inside the window.
 */
struct npu_sim_vmm_reserve {
	__u64 size;
	__u64 addr;
	__u64 va;
	__u32 flags;
	__u32 pad;
};

/**
 * struct npu_sim_vmm_release - release a reservation by its start
 * @va: in, the @va of VMM_RESERVE
 * @flags: in, must be 0
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field; -ENOENT no reservation starts at @va; -EBUSY
 * something is still mapped in it.
 */
struct npu_sim_vmm_release {
	__u64 va;
	__u32 flags;
	__u32 pad;
};

/* Where a physical memory object lives. */
enum npu_sim_location {
	NPU_SIM_LOC_DEVICE = 1,		/* this device: charged to its capacity */
	NPU_SIM_LOC_HOST = 2,		/* host RAM: not charged */
	NPU_SIM_LOC_HOST_NUMA = 3,	/* host RAM of NUMA node @location_id */
};

#define NPU_SIM_PHYS_P2P	(1U << 0)	/* P2P-capable memory */
#define NPU_SIM_PHYS_FLAGS_MASK	NPU_SIM_PHYS_P2P

/**
 * struct npu_sim_phys_alloc - create a physical memory object (a handle)
 * @size: in, bytes, > 0, multiple of NPU_SIM_VMM_GRANULE (of 1 GiB for
 *	NPU_SIM_PAGE_HUGE_1G)
 * @page_kind: in, enum npu_sim_page_kind; no fallback between kinds
 * @location: in, enum npu_sim_location (HUGE_1G: DEVICE only)
 * @location_id: in, DEVICE: index of this device; HOST: 0; HOST_NUMA: an
 *	online NUMA node
 * @flags: in, NPU_SIM_PHYS_*
 * @mem_attr: in, the aclrtMemAttr the caller gave (recorded, shown, and
 *	returned by PHYS_INFO; not interpreted)
 * @handle: out, handle id, > 0, valid in this context only
 * @charged: out, bytes charged against the device capacity (0 for host)
 *
 * Errors: -EINVAL bad field; -ENOMEM device capacity exceeded, hugetlb pool
 * short, host out of memory or an injected failure (fail_alloc).
 */
struct npu_sim_phys_alloc {
	__u64 size;
	__u32 page_kind;
	__u32 location;
	__u32 location_id;
	__u32 flags;
	__u32 mem_attr;
	__u32 handle;
	__u64 charged;
};

/**
 * struct npu_sim_phys_free - drop one reference of a handle
 * @handle: in, a live handle of this context
 * @flags: in, must be 0
 *
 * MallocPhysical, Import and each VMM_QUERY with NPU_SIM_QUERY_RETAIN give
 * a reference.  When the last one goes the handle id dies; the memory goes
 * when no mapping, importer or exporter holds it any more.
 * Errors: -EINVAL flags; -ENOENT no such live handle.
 */
struct npu_sim_phys_free {
	__u32 handle;
	__u32 flags;
};

/* VMM_MAP flags */
#define NPU_SIM_MAP_NO_ACCESS	(1U << 0)	/* no access until SET_ACCESS (1.5) */

/**
 * struct npu_sim_vmm_map - map a whole physical object into a reservation
 * @va: in, start, inside a reservation, aligned to the granularity of the
 *	handle (2 MiB; 1 GiB for 1 GiB pages)
 * @size: in, must equal the size of the physical object
 * @offset: in, offset in the physical object, must be 0
 * @handle: in, a live handle of this context
 * @flags: in, NPU_SIM_MAP_NO_ACCESS or 0
 *
 * With NPU_SIM_MAP_NO_ACCESS (1.5) the mapping exists but copies, sets and
 * host faults on it are refused (-EACCES, SIGSEGV) until VMM_SET_ACCESS
 * grants READWRITE.  Errors: -EINVAL bad field, misaligned, size mismatch,
 * range not inside one reservation; -ENOENT no such handle; -EBUSY part of
 * the range is already mapped (nothing changes); -ENOMEM out of memory.
 */
struct npu_sim_vmm_map {
	__u64 va;
	__u64 size;
	__u64 offset;
	__u32 handle;
	__u32 flags;
};

/**
 * struct npu_sim_vmm_unmap - undo one VMM_MAP by its start address
 * @va: in, the @va of a VMM_MAP
 * @flags: in, must be 0
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field; -ENOENT no mapping starts at @va.
 */
struct npu_sim_vmm_unmap {
	__u64 va;
	__u32 flags;
	__u32 pad;
};

/* Access flags of a mapping (aclrtMemAccessFlags values). */
#define NPU_SIM_ACCESS_READWRITE	0x3U

/**
 * struct npu_sim_vmm_set_access - record the access of a mapping
 * @va: in, start of one VMM_MAP
 * @size: in, bytes, exactly the size of that mapping
 * @access: in, NPU_SIM_ACCESS_READWRITE (the only value accepted)
 * @location: in, NPU_SIM_LOC_DEVICE or NPU_SIM_LOC_HOST
 * @location_id: in, device index for DEVICE, 0 for HOST
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field; -ENOENT no mapping is exactly [va, va + size).
 */
struct npu_sim_vmm_set_access {
	__u64 va;
	__u64 size;
	__u32 access;
	__u32 location;
	__u32 location_id;
	__u32 pad;
};

/* What VMM_QUERY found at an address. */
enum npu_sim_query_type {
	NPU_SIM_QUERY_ALLOC = 1,	/* a MEM_ALLOC allocation */
	NPU_SIM_QUERY_MAP = 2,		/* a VMM_MAP mapping */
	NPU_SIM_QUERY_RESERVED = 3,	/* a reservation hole (nothing mapped) */
};

#define NPU_SIM_QUERY_RETAIN	(1U << 0)	/* MAP: take a handle reference */
#define NPU_SIM_QUERY_FLAGS_MASK	NPU_SIM_QUERY_RETAIN

/**
 * struct npu_sim_vmm_query - what lives at a device address
 * @addr: in, any address
 * @flags: in, NPU_SIM_QUERY_*; RETAIN is only valid on a mapping
 * @type: out, enum npu_sim_query_type
 * @base: out, start of the allocation, mapping or reservation holding @addr
 * @size: out, its length in bytes (ALLOC: the size asked for)
 * @page_kind: out, enum npu_sim_page_kind (0 for RESERVED)
 * @location: out, enum npu_sim_location of the memory (0 for RESERVED)
 * @location_id: out, device index or NUMA node (0 for RESERVED)
 * @handle: out, MAP: the handle id, revived with a reference if RETAIN
 * @access: out, MAP: as recorded by VMM_SET_ACCESS (READWRITE after VMM_MAP)
 * @access_location: out, MAP: as recorded (DEVICE after VMM_MAP)
 * @access_location_id: out, MAP: as recorded (this device after VMM_MAP)
 * @mem_attr: out, MAP: the aclrtMemAttr of the physical object
 *
 * Errors: -EINVAL bad field; -ENXIO nothing at @addr (or RETAIN on a
 * non-mapping); -EOVERFLOW RETAIN on a handle that has as many references
 * as a file may have objects of a kind (module parameter
 * max_objects_per_ctx), nothing changed.
 */
struct npu_sim_vmm_query {
	__u64 addr;
	__u32 flags;
	__u32 type;
	__u64 base;
	__u64 size;
	__u32 page_kind;
	__u32 location;
	__u32 location_id;
	__u32 handle;
	__u32 access;
	__u32 access_location;
	__u32 access_location_id;
	__u32 mem_attr;
};

#define NPU_SIM_PHYS_INFO_IMPORTED	(1U << 0)	/* came from SHARE_IMPORT */
#define NPU_SIM_PHYS_INFO_EXPORTED	(1U << 1)	/* SHARE_EXPORT was done */
#define NPU_SIM_PHYS_INFO_P2P		(1U << 2)

/**
 * struct npu_sim_phys_info - properties of a handle
 * @handle: in, a live handle of this context
 * @flags: in, must be 0; out, NPU_SIM_PHYS_INFO_*
 * @size: out, bytes
 * @page_kind: out, enum npu_sim_page_kind, as created
 * @location: out, enum npu_sim_location, as created
 * @location_id: out, as created
 * @mem_attr: out, as created
 * @mappings: out, live mappings of this handle in this context
 * @pad: out, 0
 *
 * Errors: -EINVAL flags; -ENOENT no such live handle.
 */
struct npu_sim_phys_info {
	__u32 handle;
	__u32 flags;
	__u64 size;
	__u32 page_kind;
	__u32 location;
	__u32 location_id;
	__u32 mem_attr;
	__u32 mappings;
	__u32 pad;
};

/* ---- Sharing between processes (API 1.1, NPU_SIM_CAP_IPC) -------------- */

/* Import from any process, no whitelist. */
#define NPU_SIM_SHARE_NO_PID_CHECK	(1U << 0)
#define NPU_SIM_SHARE_FLAGS_MASK	NPU_SIM_SHARE_NO_PID_CHECK

/* Most pids one share can whitelist (all SET_PIDS calls together). */
#define NPU_SIM_SHARE_MAX_PIDS	1024

/**
 * struct npu_sim_share_export - export a handle (once) as a shareable key
 * @handle: in, a live handle of this context, not itself imported
 * @flags: in, NPU_SIM_SHARE_*
 * @key: out, unguessable non-zero 64-bit value naming the memory machine
 *	wide until the exporting handle dies
 *
 * Errors: -EINVAL bad field; -ENOENT no such handle; -EEXIST already
 * exported; -EPERM the handle was imported (re-export is refused).
 */
struct npu_sim_share_export {
	__u32 handle;
	__u32 flags;
	__u64 key;
};

/**
 * struct npu_sim_share_set_pids - add processes to a share's whitelist
 * @key: in, a live key exported by this process (through any of its files)
 * @pids: in, user pointer to @nr __s32 tgids (initial pid namespace), > 0
 * @nr: in, 1..NPU_SIM_SHARE_MAX_PIDS
 * @flags: in, must be 0
 *
 * The right belongs to the process that exported the key (the owner of
 * its file), not to a process number, which a later process may be given.
 * Errors: -EINVAL bad field or pid <= 0; -EFAULT @pids; -ENOENT no such
 * key; -EPERM the key was exported by another process; -ENOSPC whitelist
 * would exceed NPU_SIM_SHARE_MAX_PIDS.
 */
struct npu_sim_share_set_pids {
	__u64 key;
	__u64 pids;
	__u32 nr;
	__u32 flags;
};

/* SHARE_IMPORT flags (1.8) */
#define NPU_SIM_SHARE_IMPORT_ENABLE_PEER	(1U << 0)	/* enable peer access first */
#define NPU_SIM_SHARE_IMPORT_MASK		NPU_SIM_SHARE_IMPORT_ENABLE_PEER

/**
 * struct npu_sim_share_import - import a key as a handle of this context
 * @key: in, a live key
 * @flags: in, NPU_SIM_SHARE_IMPORT_MASK bits (1.8; before: must be 0)
 * @handle: out, new handle id holding the memory
 * @size: out, bytes of the physical object
 *
 * Errors: -EINVAL bad field; -ENOENT no such key (never exported, guessed,
 * or its exporter freed it); -EPERM the caller is the exporting process;
 * -EACCES the caller is not on the whitelist; -EXDEV the memory belongs to
 * another device to which this file's device has no peer access (1.5:
 * with peer access the import succeeds, the memory stays charged to its
 * own device; 1.8: with NPU_SIM_SHARE_IMPORT_ENABLE_PEER this file's
 * device is given peer access to the memory's device when the import
 * succeeds, as IPC_IMPORT's NPU_SIM_IPC_ENABLE_PEER); -ENOMEM out of
 * memory, over the caller's device memory limit (MEM_LIMIT) or, for host
 * memory, over its RLIMIT_MEMLOCK.
 */
struct npu_sim_share_import {
	__u64 key;
	__u32 flags;
	__u32 handle;
	__u64 size;
};

#define NPU_SIM_IOCTL_VMM_RESERVE	_IOWR(NPU_SIM_IOC_MAGIC, 0x10, struct npu_sim_vmm_reserve)
#define NPU_SIM_IOCTL_VMM_RELEASE	_IOW(NPU_SIM_IOC_MAGIC, 0x11, struct npu_sim_vmm_release)
#define NPU_SIM_IOCTL_PHYS_ALLOC	_IOWR(NPU_SIM_IOC_MAGIC, 0x12, struct npu_sim_phys_alloc)
#define NPU_SIM_IOCTL_PHYS_FREE		_IOW(NPU_SIM_IOC_MAGIC, 0x13, struct npu_sim_phys_free)
#define NPU_SIM_IOCTL_VMM_MAP		_IOW(NPU_SIM_IOC_MAGIC, 0x14, struct npu_sim_vmm_map)
#define NPU_SIM_IOCTL_VMM_UNMAP		_IOW(NPU_SIM_IOC_MAGIC, 0x15, struct npu_sim_vmm_unmap)
#define NPU_SIM_IOCTL_VMM_SET_ACCESS	_IOW(NPU_SIM_IOC_MAGIC, 0x16, struct npu_sim_vmm_set_access)
#define NPU_SIM_IOCTL_VMM_QUERY		_IOWR(NPU_SIM_IOC_MAGIC, 0x17, struct npu_sim_vmm_query)
#define NPU_SIM_IOCTL_PHYS_INFO		_IOWR(NPU_SIM_IOC_MAGIC, 0x18, struct npu_sim_phys_info)
#define NPU_SIM_IOCTL_SHARE_EXPORT	_IOWR(NPU_SIM_IOC_MAGIC, 0x19, struct npu_sim_share_export)
#define NPU_SIM_IOCTL_SHARE_SET_PIDS	_IOW(NPU_SIM_IOC_MAGIC, 0x1A, struct npu_sim_share_set_pids)
#define NPU_SIM_IOCTL_SHARE_IMPORT	_IOWR(NPU_SIM_IOC_MAGIC, 0x1B, struct npu_sim_share_import)

/* ---- IPC memory (API 1.5, NPU_SIM_CAP_IPC) -------------------------------
 *
 * A key naming part of a MEM_ALLOC allocation, for other processes to map
 * (aclrtIpcMem*).  Keys live in the same machine-wide table as shareable
 * handles; SHARE_SET_PIDS fills an IPC key's whitelist too.  The memory
 * lives until the exporter's allocation, the key and every import let go.
 */

/* IPC_EXPORT flags */
#define NPU_SIM_IPC_NO_PID_CHECK	(1U << 0)	/* import from any process */
#define NPU_SIM_IPC_EXPORT_MASK		NPU_SIM_IPC_NO_PID_CHECK
/* IPC_IMPORT flags */
#define NPU_SIM_IPC_ENABLE_PEER		(1U << 0)	/* enable peer access first */
#define NPU_SIM_IPC_IMPORT_MASK		NPU_SIM_IPC_ENABLE_PEER

/**
 * struct npu_sim_ipc_export - export part of an allocation as a key
 * @va: in, device address inside one MEM_ALLOC allocation of this file
 * @size: in, bytes (> 0); [@va, @va + @size) inside that allocation
 * @flags: in, NPU_SIM_IPC_EXPORT_MASK bits
 * @pad: must be 0
 * @key: out, unguessable non-zero key, alive until IPC_CLOSE by the
 *	exporting process or the release of this file
 *
 * Errors: -EINVAL bad field or range; -ENOMEM.
 */
struct npu_sim_ipc_export {
	__u64 va;
	__u64 size;
	__u32 flags;
	__u32 pad;
	__u64 key;
};

/**
 * struct npu_sim_ipc_import - map an IPC key into this file's window
 * @key: in, a live IPC key
 * @flags: in, NPU_SIM_IPC_IMPORT_MASK bits
 * @pad: must be 0
 * @va: out, device address of the exported @va in this window
 * @size: out, the exported size in bytes
 *
 * The pages holding the exported range are mapped (device accessible, not
 * charged to this device, counted against this process's limit, read-only
 * to the host if the exporter's allocation is READONLY).  Errors: -EINVAL bad field; -ENOENT no such IPC
 * key; -EPERM the caller exported it; -EACCES the caller is not on the
 * whitelist; -EXDEV the memory belongs to another device to which this
 * file's device has no peer access; -ENXIO window not mapped; -ENOMEM
 * (also over the caller's device memory limit, MEM_LIMIT).
 */
struct npu_sim_ipc_import {
	__u64 key;
	__u32 flags;
	__u32 pad;
	__u64 va;
	__u64 size;
};

/**
 * struct npu_sim_ipc_close - close an IPC key in this process
 * @key: in, the key
 * @flags: in, must be 0
 * @pad: must be 0
 *
 * In a process that imported @key through this file: unmaps the oldest
 * such import.  Otherwise, in the exporting process: the key dies (imports
 * keep their memory).  Errors: -EINVAL bad field; -ENOENT neither.
 */
struct npu_sim_ipc_close {
	__u64 key;
	__u32 flags;
	__u32 pad;
};

#define NPU_SIM_IOCTL_IPC_EXPORT	_IOWR(NPU_SIM_IOC_MAGIC, 0x1C, struct npu_sim_ipc_export)
#define NPU_SIM_IOCTL_IPC_IMPORT	_IOWR(NPU_SIM_IOC_MAGIC, 0x1D, struct npu_sim_ipc_import)
#define NPU_SIM_IOCTL_IPC_CLOSE		_IOW(NPU_SIM_IOC_MAGIC, 0x1E, struct npu_sim_ipc_close)

/* ---- Streams and events (API 1.2, NPU_SIM_CAP_STREAMS) ------------------
 *
 * A stream is an in-order queue of device work owned by one open file.  The
 * driver executes queued work itself, in order per stream, on a kernel
 * worker; work of different streams may overlap.  Every device range of a
 * submitted operation is checked and referenced at submit time exactly as by
 * the synchronous MEMCPY/MEMCPY2D/MEMSET, so freeing memory that queued work
 * still uses is safe (the pages stay until the work is done; debugfs
 * "stats" counts it as free_while_queued).  Host memory is accessed when the
 * work runs, through the opener's address space; an operation whose host
 * memory is gone by then fails with -EFAULT, recorded as the stream's error.
 *
 * The first error of a stream's asynchronous work is kept and reported (and
 * cleared) by the next STREAM_SYNC of that stream, or of all streams.
 * Releasing the file cancels queued work that has not started, finishes or
 * aborts the running operation and frees everything.
 *
 * Limits per open file: NPU_SIM_MAX_STREAMS streams, NPU_SIM_MAX_EVENTS
 * events, NPU_SIM_MAX_QUEUED operations queued over all streams.
 */
#define NPU_SIM_MAX_STREAMS	1024
/*
 * VALUE_WRITE / VALUE_WAIT (1.5): @dst is an 8-byte aligned device address
 * of this file's window, @width 8, all other fields but @operand (and
 * @flags for VALUE_WAIT) 0.  The 8 bytes are a native-endian __u64.  A
 * VALUE_WAIT blocks its stream until the condition holds (re-checked when
 * any operation of the file completes and at least every millisecond); a
 * forced destroy or the release of the file cancels it.
 */
#define NPU_SIM_MAX_EVENTS	65536
#define NPU_SIM_MAX_QUEUED	65536

/**
 * struct npu_sim_stream_create - create a stream
 * @ctx_id: in, a context id chosen by the caller (the library's context);
 *	only shown in debugfs
 * @flags: in, NPU_SIM_STREAM_FLAGS_MASK bits (1.9; before: must be 0):
 *	recorded, reported by STREAM_CTL QUERY; no effect on execution
 * @priority: in, recorded and shown in debugfs; no effect on execution
 * @id: out, stream id (> 0), unique in the file while the stream lives and
 *	not reused soon after it is destroyed
 *
 * Errors: -EINVAL bad @flags; -ENOSPC NPU_SIM_MAX_STREAMS reached;
 * -ENOMEM.
 */
struct npu_sim_stream_create {
	__u32 ctx_id;
	__u32 flags;
	__u32 priority;
	__u32 id;
};

/* STREAM_DESTROY flags */
#define NPU_SIM_DESTROY_FORCE	(1U << 0)	/* drop queued work (1.5) */

/**
 * struct npu_sim_stream_destroy - destroy a stream
 * @id: in, stream id
 * @flags: in, NPU_SIM_DESTROY_FORCE or 0
 *
 * The stream takes no more work.  Without FORCE the call waits until the
 * work already queued on it has finished; a fatal signal ends that wait
 * and cancels the rest.  With FORCE (1.5) queued work that has not started
 * is dropped and a running operation stops at its next piece.  Then the
 * stream is freed (its error, if any, is dropped).
 * Errors: -EINVAL bad @flags; -ENOENT no such stream.
 */
struct npu_sim_stream_destroy {
	__u32 id;
	__u32 flags;
};

/* Operations of STREAM_SUBMIT. */
enum npu_sim_op {
	NPU_SIM_OP_COPY = 1,	/* 2D copy; a 1D copy is one row */
	NPU_SIM_OP_SET = 2,	/* 2D set of device memory */
	NPU_SIM_OP_RECORD = 3,	/* record @event: completes when reached */
	NPU_SIM_OP_WAIT = 4,	/* wait for the last record of @event */
	NPU_SIM_OP_PREFETCH = 5, /* 1.3: migrate managed memory, see below */
	NPU_SIM_OP_VALUE_WRITE = 6, /* 1.5: write @operand to 8 bytes at @dst */
	NPU_SIM_OP_VALUE_WAIT = 7,  /* 1.5: wait until 8 bytes at @dst match */
	NPU_SIM_OP_CALLBACK = 12,   /* 1.9: report to a host thread, below */
};

/* VALUE_WAIT conditions in @flags (aclrtValueWait flag values). */
enum npu_sim_wait_cond {
	NPU_SIM_WAIT_GEQ = 0,	/* (s64)(*dst - operand) >= 0 */
	NPU_SIM_WAIT_EQ = 1,	/* *dst == operand */
	NPU_SIM_WAIT_AND = 2,	/* (*dst & operand) != 0 */
	NPU_SIM_WAIT_NOR = 3,	/* ~(*dst | operand) != 0 */
};

/**
 * struct npu_sim_stream_submit - queue one operation on a stream
 * @stream: in, stream id
 * @op: in, enum npu_sim_op
 * @dst: in, COPY/SET: destination; PREFETCH: start of the range;
 *	RECORD, WAIT: must be 0
 * @dpitch: in, COPY/SET: destination row pitch (>= @width); others: 0
 * @src: in, COPY: source; others: must be 0
 * @spitch: in, COPY: source row pitch (>= @width); others: must be 0
 * @width: in, COPY/SET: row length (> 0); PREFETCH: bytes (> 0);
 *	RECORD, WAIT: must be 0
 * @height: in, COPY/SET: number of rows (> 0); others: must be 0
 * @dir: in, COPY: enum npu_sim_copy_dir; others: must be 0
 * @value: in, SET: the byte (bits above 7 must be 0); others: must be 0
 * @event: in, RECORD/WAIT (and RESET, 1.9): event id; others: must be 0
 * @flags: in, VALUE_WAIT: enum npu_sim_wait_cond; WAIT (1.9):
 *	NPU_SIM_WAIT_EVENT_TIMEOUT or 0; CALLBACK: NPU_SIM_CB_BLOCK and
 *	NPU_SIM_CB_HOSTFUNC bits (1.9); others: must be 0
 * @seq: out, the operation's sequence number in its stream (1, 2, ...)
 * @location: in, PREFETCH: enum npu_sim_managed_loc; others: must be 0 (1.4)
 * @location_id: in, PREFETCH to NPU_SIM_MLOC_DEVICE: this device's index;
 *	others: must be 0 (1.4)
 * @operand: in, VALUE_WRITE: the value written; VALUE_WAIT: the value
 *	compared; WAIT with NPU_SIM_WAIT_EVENT_TIMEOUT (1.9): the timeout in
 *	milliseconds (1..INT_MAX); CALLBACK: the cookie reported (1.9);
 *	others: must be 0 (1.5; was a reserved field)
 *
 * A WAIT orders the stream after the most recent RECORD of the event
 * submitted before it (of any stream of the file); an event never recorded
 * is no wait.  Errors: -EINVAL bad field; -ENOENT no such stream or event;
 * -ENXIO, -EFAULT, -EOPNOTSUPP as MEMCPY (checked at submit time);
 * -EAGAIN NPU_SIM_MAX_QUEUED operations are queued; -EPIPE the stream's
 * context failed in STOP mode (1.12, see STREAM_CTL); -ENOMEM.
 */
struct npu_sim_stream_submit {
	__u32 stream;
	__u32 op;
	__u64 dst;
	__u64 dpitch;
	__u64 src;
	__u64 spitch;
	__u64 width;
	__u64 height;
	__u32 dir;
	__u32 value;
	__u32 event;
	__u32 flags;
	__u64 seq;
	__u32 location;
	__u32 location_id;
	__u64 operand;
};

/* STREAM_SYNC / EVENT_SYNC flags */
#define NPU_SIM_SYNC_QUERY	(1U << 0)	/* do not wait; errors are kept */
#define NPU_SIM_SYNC_TIMEOUT	(1U << 1)	/* wait at most @timeout_ms */
#define NPU_SIM_SYNC_ALL	(1U << 2)	/* STREAM_SYNC: every stream */
#define NPU_SIM_SYNC_KEEP	(1U << 3)	/* STREAM_SYNC: keep the error */
#define NPU_SIM_STREAM_SYNC_MASK \
	(NPU_SIM_SYNC_QUERY | NPU_SIM_SYNC_TIMEOUT | NPU_SIM_SYNC_ALL | \
	 NPU_SIM_SYNC_KEEP)
#define NPU_SIM_EVENT_SYNC_MASK	(NPU_SIM_SYNC_QUERY | NPU_SIM_SYNC_TIMEOUT)

/* Status reported by STREAM_SYNC / EVENT_SYNC. */
enum npu_sim_status {
	NPU_SIM_STATUS_COMPLETE = 1,	/* everything waited for is done */
	NPU_SIM_STATUS_NOT_READY = 2,	/* queued work remains (query/timeout) */
};

/**
 * struct npu_sim_stream_sync - wait for (or query) a stream or all streams
 * @id: in, stream id; must be 0 with NPU_SIM_SYNC_ALL
 * @flags: in, NPU_SIM_STREAM_SYNC_MASK bits; QUERY and TIMEOUT exclude
 *	each other
 * @timeout_ms: in, with NPU_SIM_SYNC_TIMEOUT: the longest wait (> 0);
 *	otherwise must be 0
 * @status: out, enum npu_sim_status: COMPLETE when all work submitted
 *	before the call is done
 * @error: out, 0 or the negative errno of the first failed operation since
 *	the last sync that reported it; reported only with @status COMPLETE
 *	and without QUERY, and then cleared unless NPU_SIM_SYNC_KEEP is set;
 *	-ECONNABORTED when a STREAM_CTL ABORT of the stream (with ALL: of any
 *	stream) came while the call waited (the dropped work is not done);
 *	with ALL, streams of a context that keeps a STOP failure (1.12) are
 *	left out: STREAM_CTL CTX_FAILURE tells theirs
 * @pad: must be 0
 * @submitted: out, operations submitted to the stream (the sum over all
 *	streams with NPU_SIM_SYNC_ALL)
 * @completed: out, operations completed by the stream (likewise)
 *
 * The wait is interruptible (-EINTR / restart).  A timeout is not an error:
 * it returns 0 with @status NOT_READY.  Errors: -EINVAL bad field;
 * -ENOENT no such stream.
 */
struct npu_sim_stream_sync {
	__u32 id;
	__u32 flags;
	__u32 timeout_ms;
	__u32 status;
	__s32 error;
	__u32 pad;
	__u64 submitted;
	__u64 completed;
};

/**
 * struct npu_sim_event_create - create an event
 * @ctx_id: in, the caller's context id (debugfs only)
 * @flags: in, NPU_SIM_EVENT_CREATE_MASK bits (1.9; must be 0 before)
 * @id: out, event id (> 0)
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field; -ENOSPC NPU_SIM_MAX_EVENTS reached; -ENOMEM.
 */
struct npu_sim_event_create {
	__u32 ctx_id;
	__u32 flags;
	__u32 id;
	__u32 pad;
};

/**
 * struct npu_sim_event_destroy - destroy an event
 * @id: in, event id
 * @flags: in, must be 0
 *
 * Queued RECORD/WAIT operations of the event still complete normally.
 * Errors: -EINVAL @flags != 0; -ENOENT no such event.
 */
struct npu_sim_event_destroy {
	__u32 id;
	__u32 flags;
};

/**
 * struct npu_sim_event_sync - wait for (or query) an event's last record
 * @id: in, event id
 * @flags: in, NPU_SIM_EVENT_SYNC_MASK bits (not both)
 * @timeout_ms: in, as in struct npu_sim_stream_sync
 * @status: out, enum npu_sim_status: COMPLETE when the last RECORD
 *	submitted before the call has been reached (or there was none)
 * @recorded: out, number of RECORD operations submitted for the event
 * @completed: out, sequence number (1-based count) of the newest RECORD
 *	reached
 * @timestamp_ns: out, CLOCK_MONOTONIC time at which RECORD @completed was
 *	reached, 0 if none
 *
 * Errors: -EINVAL bad field; -ENOENT no such event; -EINTR;
 * -ECONNABORTED (1.11, not with NPU_SIM_SYNC_QUERY) the call waited for a
 * RECORD that a STREAM_CTL ABORT dropped meanwhile (a call made after the
 * ABORT succeeds).
 */
struct npu_sim_event_sync {
	__u32 id;
	__u32 flags;
	__u32 timeout_ms;
	__u32 status;
	__u64 recorded;
	__u64 completed;
	__u64 timestamp_ns;
};

#define NPU_SIM_IOCTL_STREAM_CREATE	_IOWR(NPU_SIM_IOC_MAGIC, 0x30, struct npu_sim_stream_create)
#define NPU_SIM_IOCTL_STREAM_DESTROY	_IOW(NPU_SIM_IOC_MAGIC, 0x31, struct npu_sim_stream_destroy)
#define NPU_SIM_IOCTL_STREAM_SUBMIT	_IOWR(NPU_SIM_IOC_MAGIC, 0x32, struct npu_sim_stream_submit)
#define NPU_SIM_IOCTL_STREAM_SYNC	_IOWR(NPU_SIM_IOC_MAGIC, 0x33, struct npu_sim_stream_sync)
#define NPU_SIM_IOCTL_EVENT_CREATE	_IOWR(NPU_SIM_IOC_MAGIC, 0x34, struct npu_sim_event_create)
#define NPU_SIM_IOCTL_EVENT_DESTROY	_IOW(NPU_SIM_IOC_MAGIC, 0x35, struct npu_sim_event_destroy)
#define NPU_SIM_IOCTL_EVENT_SYNC	_IOWR(NPU_SIM_IOC_MAGIC, 0x36, struct npu_sim_event_sync)

/* ---- Event extensions (API 1.9, NPU_SIM_CAP_EVENT_EXT) ------------------
 *
 * An event created with NPU_SIM_EVENT_IPC keeps its record counters in a
 * state shared with the processes that import it: EVENT_EXPORT gives a key
 * of the machine-wide key table (the same table as SHARE_EXPORT and
 * IPC_EXPORT keys; any process but the exporter's may import it, as the
 * runtime turns the pid check of an IPC event off), EVENT_IMPORT makes an
 * event of the importing file that names the same state.  A RECORD of the
 * event in any of these files counts for all of them: a WAIT (or
 * EVENT_SYNC) in one orders after the most recent RECORD submitted before
 * it in any.  The key lives until the exporting event is destroyed or its
 * file released; imports made before stay usable, and a RECORD queued by a
 * file that goes away counts as reached, so nothing waits on it forever.
 *
 * OP_RESET (op 10): when the stream reaches it the event is cleared (its
 * last record no longer counts as reached for EVENT_INFO's
 * NPU_SIM_EVENT_INFO_CLEARED), and a WAIT submitted after the RESET and
 * before the next RECORD waits for that next RECORD.  Fields as RECORD.
 * Not for IPC events (-EINVAL).
 *
 * WAIT with NPU_SIM_WAIT_EVENT_TIMEOUT in @flags: @operand is the longest
 * wait in milliseconds (> 0); a WAIT not met by then completes with
 * -ETIMEDOUT, the stream's error.
 */
#define NPU_SIM_OP_RESET		10	/* enum npu_sim_op (1.9) */
#define NPU_SIM_WAIT_EVENT_TIMEOUT	(1U << 0)	/* WAIT @flags (1.9) */
#define NPU_SIM_EVENT_IPC		(1U << 0)	/* EVENT_CREATE @flags */
#define NPU_SIM_EVENT_CREATE_MASK	NPU_SIM_EVENT_IPC

/* EVENT_IMPORT flags */
#define NPU_SIM_EVENT_IMPORT_ENABLE_PEER (1U << 0) /* as NPU_SIM_IPC_ENABLE_PEER */
#define NPU_SIM_EVENT_IMPORT_MASK	NPU_SIM_EVENT_IMPORT_ENABLE_PEER

/**
 * struct npu_sim_event_export - key of an IPC event, for other processes
 * @id: in, event id, created with NPU_SIM_EVENT_IPC (or imported)
 * @flags: in, must be 0
 * @key: out, non-zero; the same key for every call on one event (an
 *	imported event gives the key it was imported with)
 *
 * Errors: -EINVAL bad field or not an IPC event; -ENOENT no such event;
 * -ENOMEM.
 */
struct npu_sim_event_export {
	__u32 id;
	__u32 flags;
	__u64 key;
};

/**
 * struct npu_sim_event_import - open an IPC event of another process
 * @key: in, a key of EVENT_EXPORT
 * @ctx_id: in, the caller's context id (debugfs only)
 * @flags: in, NPU_SIM_EVENT_IMPORT_MASK bits: ENABLE_PEER grants this file
 *	access to the exporter's device if the import succeeds
 * @id: out, the new event id of this file
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field; -ENOENT no such key (or its event is gone);
 * -EPERM the key is the caller's own process's; -EXDEV the exporter's
 * device is another one this file has no peer access to (and no
 * ENABLE_PEER); -ENOSPC NPU_SIM_MAX_EVENTS reached; -ENOMEM.
 */
struct npu_sim_event_import {
	__u64 key;
	__u32 ctx_id;
	__u32 flags;
	__u32 id;
	__u32 pad;
};

/* EVENT_INFO @state bits */
#define NPU_SIM_EVENT_INFO_IPC		(1U << 0) /* created with EVENT_IPC */
#define NPU_SIM_EVENT_INFO_IMPORTED	(1U << 1) /* made by EVENT_IMPORT */
#define NPU_SIM_EVENT_INFO_EXPORTED	(1U << 2) /* has a key */
#define NPU_SIM_EVENT_INFO_CLEARED	(1U << 3) /* a RESET was reached after
						   * the last RECORD reached
						   */

/**
 * struct npu_sim_event_info - state of an event, and how many more fit
 * @id: in, event id, or 0 for @avail only
 * @flags: in, must be 0
 * @state: out, NPU_SIM_EVENT_INFO_* bits
 * @pad: must be 0
 * @recorded: out, RECORD operations submitted (of every file for an IPC
 *	event)
 * @completed: out, the newest RECORD reached (1-based count)
 * @timestamp_ns: out, CLOCK_MONOTONIC time RECORD @completed was reached
 * @waits: out, WAIT operations of this file on the event not yet done
 * @avail: out, events this file may still create or import
 *
 * All out fields must be 0 on input.  Errors: -EINVAL bad field; -ENOENT
 * no such event.
 */
struct npu_sim_event_info {
	__u32 id;
	__u32 flags;
	__u32 state;
	__u32 pad;
	__u64 recorded;
	__u64 completed;
	__u64 timestamp_ns;
	__u64 waits;
	__u64 avail;
};

#define NPU_SIM_IOCTL_EVENT_EXPORT	_IOWR(NPU_SIM_IOC_MAGIC, 0x3C, struct npu_sim_event_export)
#define NPU_SIM_IOCTL_EVENT_IMPORT	_IOWR(NPU_SIM_IOC_MAGIC, 0x3D, struct npu_sim_event_import)
#define NPU_SIM_IOCTL_EVENT_INFO	_IOWR(NPU_SIM_IOC_MAGIC, 0x3E, struct npu_sim_event_info)

/* ---- Host callbacks (API 1.9, NPU_SIM_CAP_CALLBACK) ----------------------
 *
 * OP_CALLBACK (STREAM_SUBMIT): @flags NPU_SIM_CB_BLOCK / NPU_SIM_CB_HOSTFUNC,
 * @operand an opaque cookie, all other fields 0.  Each stream has at most
 * one subscription per kind (report, host function): a 64-bit channel,
 * the host thread that runs its callbacks (libacl_rt: the pthread_t).
 * When the stream reaches the op it posts a report (the cookie) to the
 * channel the stream is subscribed to of the op's kind, or, when it has
 * none then, drops the op.  A NO_BLOCK op completes once posted; a BLOCK op
 * holds its stream (without holding a worker) until the thread takes the
 * report with CB_WAIT and acknowledges it with CB_DONE.
 *
 * An unsubscribe drops the reports of the stream and kind that no thread
 * has taken yet and its CALLBACK ops not reached yet (a held stream goes
 * on).  Destroying the stream, the owner going and the release of the
 * file drop its reports likewise.  Submit errors of OP_CALLBACK beyond
 * STREAM_SUBMIT's: -ENOTCONN the stream has no subscription of the kind;
 * -EBUSY a report op on a stream whose host functions go to a RUNTIME
 * channel, or a host function op on a stream that has a report
 * subscription and no host function one.  Pending callbacks per stream:
 * debugfs "callbacks".
 */
#define NPU_SIM_CB_BLOCK	(1U << 0)	/* OP_CALLBACK: hold the stream */
#define NPU_SIM_CB_HOSTFUNC	(1U << 1)	/* host function, not report */
#define NPU_SIM_CB_RUNTIME	(1U << 2)	/* CB_SUBSCRIBE: library thread */
#define NPU_SIM_CB_UNSUBSCRIBE	(1U << 3)	/* CB_SUBSCRIBE: undo */

/**
 * struct npu_sim_cb_subscribe - subscribe a stream to a channel, or undo it
 * @stream: in, stream id
 * @flags: in, NPU_SIM_CB_HOSTFUNC (the host function kind, else report),
 *	NPU_SIM_CB_RUNTIME (with HOSTFUNC: a channel of the library's own
 *	thread), NPU_SIM_CB_UNSUBSCRIBE
 * @channel: in, the channel (!= 0; with UNSUBSCRIBE 0 names no channel:
 *	-ENOTCONN or -EXDEV as below, nothing changes)
 *
 * Errors: -EINVAL bad @flags or @channel 0 (subscribe); -ENOENT no such stream;
 * -EBUSY (subscribe) the stream has a subscription of that kind, or
 * (report) its host functions go to a RUNTIME channel; -ENOTCONN
 * (unsubscribe) it has no subscription of that kind; -EXDEV (unsubscribe)
 * it is subscribed to another channel; -ENOMEM.
 */
struct npu_sim_cb_subscribe {
	__u32 stream;
	__u32 flags;
	__u64 channel;
};

/**
 * struct npu_sim_cb_wait - take the oldest report of a channel
 * @channel: in, the channel (!= 0)
 * @flags: in, NPU_SIM_CB_HOSTFUNC for host function reports, else 0
 * @timeout_ms: in, the longest wait in milliseconds; 0 waits until a
 *	report comes
 * @report: out, the report's id for CB_DONE (> 0); must be 0 on input
 * @cookie: out, the op's @operand; must be 0 on input
 * @stream: out, the stream that posted it; must be 0 on input
 * @block: out, 1 for a BLOCK op (its stream waits for CB_DONE), else 0;
 *	must be 0 on input
 *
 * The wait ends at a fatal or other signal.  Errors: -EINVAL bad field;
 * -ENOTCONN no stream of this file is subscribed to @channel for that
 * kind (at the start, or no more while waiting); -ETIMEDOUT no report
 * within @timeout_ms; -EINTR; -EFAULT.
 */
struct npu_sim_cb_wait {
	__u64 channel;
	__u32 flags;
	__u32 timeout_ms;
	__u64 report;
	__u64 cookie;
	__u32 stream;
	__u32 block;
};

/**
 * struct npu_sim_cb_done - the callback of a taken report has returned
 * @report: in, the id CB_WAIT gave
 * @reserved: must be 0
 *
 * A BLOCK op's stream goes on.  Errors: -EINVAL @reserved not 0;
 * -ENOENT no taken report has that id (its stream was destroyed or
 * unsubscribed meanwhile, or it was acknowledged already).
 */
struct npu_sim_cb_done {
	__u64 report;
	__u64 reserved;
};

/**
 * struct npu_sim_cb_query - how many streams are subscribed to a channel
 * @channel: in, the channel (!= 0)
 * @flags: in, NPU_SIM_CB_HOSTFUNC for the host function kind, else 0
 * @streams: out, streams of this file subscribed to @channel for that
 *	kind; must be 0 on input
 *
 * Errors: -EINVAL bad field.
 */
struct npu_sim_cb_query {
	__u64 channel;
	__u32 flags;
	__u32 streams;
};

#define NPU_SIM_IOCTL_CB_SUBSCRIBE	_IOW(NPU_SIM_IOC_MAGIC, 0x4C, struct npu_sim_cb_subscribe)
#define NPU_SIM_IOCTL_CB_WAIT		_IOWR(NPU_SIM_IOC_MAGIC, 0x4D, struct npu_sim_cb_wait)
#define NPU_SIM_IOCTL_CB_DONE		_IOW(NPU_SIM_IOC_MAGIC, 0x4E, struct npu_sim_cb_done)
#define NPU_SIM_IOCTL_CB_QUERY		_IOWR(NPU_SIM_IOC_MAGIC, 0x4F, struct npu_sim_cb_query)


/* ---- Stream memory operations (API 1.9, NPU_SIM_CAP_MEM_OPS) ------------
 *
 * More STREAM_SUBMIT operations on device memory.  Like COPY and SET their
 * device ranges are checked and referenced at submit time (errors as
 * MEMCPY: -EINVAL, -ENXIO, -EFAULT) and they run in stream order.
 *
 * OP_SET with @flags NPU_SIM_SET_32: @value is a 32-bit pattern stored
 * native-endian in every 4-byte word of the rows; @dst, @dpitch and @width
 * must be multiples of 4 (else -EINVAL).  Without the flag @value is a byte
 * as before.
 *
 * OP_REDUCE: element-wise dst[i] = dst[i] <kind> src[i] over @width bytes
 * of device memory (the SDMA reduce): @dst and @src device addresses (@src
 * may be a peer device's, as for a D2D copy; a host address is -EINVAL),
 * @dpitch and @spitch equal to @width, @width bytes (> 0; at most
 * NPU_SIM_REDUCE_MAX_BYTES for a SUM), @height 1, @value an enum
 * npu_sim_reduce_kind, @flags an enum npu_sim_reduce_type; @dst, @src and
 * @width multiples of the element size; all other fields 0.  Integer sums
 * wrap (two's complement); float sums are rounded to nearest, ties to even
 * (subnormals kept, overflow to infinity); a NaN operand, or infinities of
 * both signs, give the positive quiet NaN with an empty payload; MAX and
 * MIN order -0 below +0 and give that NaN when an operand is NaN.
 * Overlapping operands are processed in increasing address order.  Errors:
 * -EINVAL bad field; -EOPNOTSUPP a kind or type this device does not reduce
 * (EQUAL, and those outside the profile's @reduce_kinds / @reduce_types).
 *
 * OP_CMO: cache maintenance of [@dst, @dst + @width) of device memory,
 * @width > 0 (= @dpitch, @height 1), @value an enum npu_sim_cmo_type, @operand a barrier id below
 * 2^32 (0 for none; non-zero only with NPU_SIM_CMO_INVALIDATE), all other
 * fields 0.  The emulated device has no cache: the op checks and holds the
 * range and completes in order.  -EOPNOTSUPP on a product without CMO
 * tasks (npu_sim_profiles.h NPU_SIM_PROFILE_CMO, NPU_SIM_PROFILE_ASYNC_CMO).
 */
enum {
	NPU_SIM_OP_REDUCE = 13,	/* 1.9: dst = dst <kind> src, element-wise */
	NPU_SIM_OP_CMO = 14,	/* 1.9: cache maintenance of a device range */
};

/* OP_SET @flags (1.9) */
#define NPU_SIM_SET_32		(1U << 0)	/* @value is a 32-bit pattern */

/* OP_REDUCE kinds (same values as aclrtReduceKind). */
enum npu_sim_reduce_kind {
	NPU_SIM_REDUCE_SUM = 10,
	NPU_SIM_REDUCE_MAX = 11,
	NPU_SIM_REDUCE_MIN = 12,
};

/* OP_REDUCE element types. */
enum npu_sim_reduce_type {
	NPU_SIM_REDUCE_INT8 = 1,
	NPU_SIM_REDUCE_INT16 = 2,
	NPU_SIM_REDUCE_INT32 = 3,
	NPU_SIM_REDUCE_UINT8 = 4,
	NPU_SIM_REDUCE_UINT16 = 5,
	NPU_SIM_REDUCE_UINT32 = 6,
	NPU_SIM_REDUCE_FP32 = 7,	/* IEEE binary32 */
	NPU_SIM_REDUCE_FP16 = 8,	/* IEEE binary16 */
	NPU_SIM_REDUCE_BF16 = 9,	/* bfloat16 */
};

#define NPU_SIM_REDUCE_MAX_BYTES	(4ULL << 30)	/* bytes per OP_REDUCE SUM */

/* OP_CMO types (same values as aclrtCmoType). */
enum npu_sim_cmo_type {
	NPU_SIM_CMO_PREFETCH = 0,
	NPU_SIM_CMO_WRITEBACK = 1,
	NPU_SIM_CMO_INVALIDATE = 2,
	NPU_SIM_CMO_FLUSH = 3,
};

/* ---- Notifies (API 1.9, NPU_SIM_CAP_NOTIFY) ------------------------------
 *
 * A notify is a sync object of a device (aclrtCreateNotify, aclrtCntNotify*):
 * its id is unique on the machine, and every file holding it (the creator's,
 * and importers' through a key of the key table) names the same object by
 * that id.  A plain notify is set or not; a counting notify holds a __u32
 * count.  It is set by a NOTIFY_RECORD operation of a stream when the stream
 * reaches it; a NOTIFY_WAIT operation holds its stream until the notify
 * meets the wait's condition, then (plain: always, counting: with
 * NPU_SIM_NOTIFY_CLEAR) resets it in the same step, so one record releases
 * one wait.  A parked wait holds no worker.  The notify dies when its
 * creator destroys it or the creator's file goes: waits on it then end
 * without an error (cancelled), importers' ids name nothing that can be
 * queued any more (-ENOENT) until they destroy them.
 */

/* NOTIFY_CREATE flags */
#define NPU_SIM_NOTIFY_COUNTING	(1U << 0)	/* a counting notify (aclrtCntNotify) */

/**
 * struct npu_sim_notify_create - create a notify of this file's device
 * @flags: in, 0 or NPU_SIM_NOTIFY_COUNTING
 * @id: out, must be 0 on input; the notify's id (> 0), unique on the
 *	machine while the notify lives
 *
 * A file holds at most npu_max_objects notifies (created and imported).
 * Errors: -EINVAL bad field; -ENOMEM.
 */
struct npu_sim_notify_create {
	__u32 flags;
	__u32 id;
};

/**
 * struct npu_sim_notify_destroy - let go of a notify this file holds
 * @id: in, notify id
 * @flags: in, must be 0
 *
 * The creator's destroy kills the notify (its key with it) and cancels every
 * wait on it in any file; an importer's destroy drops its hold only.
 * Errors: -EINVAL bad field; -ENOENT the file holds no such notify.
 */
struct npu_sim_notify_destroy {
	__u32 id;
	__u32 flags;
};

/**
 * struct npu_sim_notify_reset - reset a plain notify now (aclrtNotifyBatchReset)
 * @id: in, notify id (a plain notify this file holds)
 * @flags: in, must be 0
 *
 * Errors: -EINVAL bad field or a counting notify; -ENOENT no such notify
 * (or it is dead).
 */
struct npu_sim_notify_reset {
	__u32 id;
	__u32 flags;
};

/* NOTIFY_EXPORT flags */
#define NPU_SIM_NOTIFY_NO_PID_CHECK	(1U << 0)	/* any process may import */

/**
 * struct npu_sim_notify_export - get the key of a notify, for other processes
 * @id: in, notify id, created by this file
 * @flags: in, 0 or NPU_SIM_NOTIFY_NO_PID_CHECK
 * @key: out, must be 0 on input; the key (non-zero) of the machine-wide key
 *	table, alive until the notify dies.  An importer must be on the
 *	key's whitelist (SHARE_SET_PIDS with this key) unless NO_PID_CHECK.
 *
 * Exporting again gives the same key (@flags must then be the same).
 * Errors: -EINVAL bad field, or @flags differ from the first export; -ENOENT
 * no such notify; -EPERM the notify was imported; -ENOMEM.
 */
struct npu_sim_notify_export {
	__u32 id;
	__u32 flags;
	__u64 key;
};

/* NOTIFY_IMPORT flags */
#define NPU_SIM_NOTIFY_IMPORT_ENABLE_PEER	(1U << 0)	/* enable peer access first */

/**
 * struct npu_sim_notify_import - hold another process's notify by its key
 * @key: in, a key from NOTIFY_EXPORT
 * @flags: in, 0 or NPU_SIM_NOTIFY_IMPORT_ENABLE_PEER
 * @id: out, must be 0 on input; the notify's id (the creator's id)
 *
 * Errors: -EINVAL bad field; -ENOENT no such key (or not a notify's);
 * -EPERM the key was exported by the caller's process; -EACCES the caller
 * is not on the whitelist; -EXDEV the notify is on a device this file has
 * no peer access to (without ENABLE_PEER); -EEXIST this file holds the
 * notify already; -ENOMEM.
 */
struct npu_sim_notify_import {
	__u64 key;
	__u32 flags;
	__u32 id;
};

/**
 * struct npu_sim_notify_query - the state of a notify this file holds
 * @id: in, notify id
 * @flags: out, must be 0 on input; NPU_SIM_NOTIFY_COUNTING for a counting
 *	notify
 * @value: out, must be 0 on input; plain: 1 set, 0 not; counting: the count
 * @waiters: out, must be 0 on input; streams (of any file) parked on it
 * @key: out, must be 0 on input; the creator: its key, 0 if not exported;
 *	an importer: 0
 * @dead: out, must be 0 on input; 1 when the creator has let it go
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field; -ENOENT the file holds no such notify.
 */
struct npu_sim_notify_query {
	__u32 id;
	__u32 flags;
	__u32 value;
	__u32 waiters;
	__u64 key;
	__u32 dead;
	__u32 pad;
};

/*
 * NOTIFY_RECORD (op 8) and NOTIFY_WAIT (op 9) of STREAM_SUBMIT (1.9): @event
 * is the notify id, @dst, @dpitch, @src, @spitch, @width, @height, @dir,
 * @location, @location_id 0.
 * NOTIFY_RECORD: a plain notify: @flags, @operand, @value 0; it sets the
 *	notify.  A counting notify: @flags NPU_SIM_NOTIFY_CNT | a
 *	npu_sim_cnt_record mode, @operand the __u32 value, @value 0.
 * NOTIFY_WAIT: @value the timeout in ms (0: none; the wait fails with
 *	-ETIME, the stream's error, when the notify has not met the
 *	condition that long after the stream reached the wait).  A plain
 *	notify: @flags, @operand 0, the condition is "set".  A counting
 *	notify: @flags NPU_SIM_NOTIFY_CNT | a npu_sim_cnt_wait mode, optionally
 *	| NPU_SIM_NOTIFY_CLEAR, @operand the __u32 value compared.
 *	A wait must be on a stream of the notify's device (else -EXDEV).
 * Submit errors besides those of STREAM_SUBMIT: -ENOENT the file holds no
 * such notify or it is dead; -EINVAL the flags do not fit the notify's kind.
 */
#define NPU_SIM_OP_NOTIFY_RECORD	8
#define NPU_SIM_OP_NOTIFY_WAIT		9

#define NPU_SIM_NOTIFY_CNT	(1U << 8)	/* the op is a counting one */
#define NPU_SIM_NOTIFY_CLEAR	(1U << 9)	/* WAIT: count to 0 once met */
#define NPU_SIM_NOTIFY_MODE	0xffU		/* the mode bits of @flags */

/* Counting record modes (aclrtCntNotifyRecordMode values). */
enum npu_sim_cnt_record {
	NPU_SIM_CNT_SET = 0,		/* count = value */
	NPU_SIM_CNT_ADD = 1,		/* count += value (wraps at 2^32) */
	NPU_SIM_CNT_OR = 2,		/* count |= value */
	NPU_SIM_CNT_AND = 4,		/* count &= value */
};

/* Counting wait modes (aclrtCntNotifyWaitMode values): met when ... */
enum npu_sim_cnt_wait {
	NPU_SIM_CNT_LESS = 0,		/* count < value */
	NPU_SIM_CNT_EQUAL = 1,		/* count == value */
	NPU_SIM_CNT_BIGGER = 2,		/* count > value */
	NPU_SIM_CNT_BIGGER_EQ = 3,	/* count >= value */
	NPU_SIM_CNT_MASK_EQ = 4,	/* (count & value) == value */
};

#define NPU_SIM_IOCTL_NOTIFY_CREATE	_IOWR(NPU_SIM_IOC_MAGIC, 0x44, struct npu_sim_notify_create)
#define NPU_SIM_IOCTL_NOTIFY_DESTROY	_IOW(NPU_SIM_IOC_MAGIC, 0x45, struct npu_sim_notify_destroy)
#define NPU_SIM_IOCTL_NOTIFY_RESET	_IOW(NPU_SIM_IOC_MAGIC, 0x46, struct npu_sim_notify_reset)
#define NPU_SIM_IOCTL_NOTIFY_EXPORT	_IOWR(NPU_SIM_IOC_MAGIC, 0x47, struct npu_sim_notify_export)
#define NPU_SIM_IOCTL_NOTIFY_IMPORT	_IOWR(NPU_SIM_IOC_MAGIC, 0x48, struct npu_sim_notify_import)
#define NPU_SIM_IOCTL_NOTIFY_QUERY	_IOWR(NPU_SIM_IOC_MAGIC, 0x49, struct npu_sim_notify_query)

/* ---- Stream control (API 1.9, NPU_SIM_CAP_STREAM_CTL) -------------------
 *
 * A stream's failure mode decides what follows a failed operation.  With
 * CONTINUE (the default) the next operations run as usual.  With STOP the
 * stream runs nothing more until its error is reported: every operation
 * still queued, and every one submitted meanwhile, completes without
 * running (a RECORD among them still counts as reached, so no wait hangs);
 * the STREAM_SYNC that reports the error (of the stream, or of all
 * streams, without NPU_SIM_SYNC_KEEP) ends that state.
 *
 * Since 1.11 (NPU_SIM_CAP_RT_DECIDES) the mode is the context's, as in the
 * CANN runtime: SET_MODE STOP on any stream makes its STREAM_CREATE
 * @ctx_id STOP for good, and a failed operation on any stream of that
 * context (whatever the stream's own mode) puts every stream of the
 * context in that state, each reporting the error at its next STREAM_SYNC.
 * Streams of other contexts run on.  An operation already running on
 * another stream finishes.
 *
 * Since 1.12 (NPU_SIM_CAP_CTX_FAILURE) that failure is the context's and is
 * kept, as the runtime keeps it until the device is reset: the first
 * failed operation's error stays with the @ctx_id until the file is
 * closed (the library gives every context a new id, so a device reset
 * or a destroyed context ends it).  From then on a submit to any stream
 * of the context (STREAM_SUBMIT, GRAPH_LAUNCH, queued batches) fails with
 * -EPIPE, queueing nothing; STREAM_CTL CTX_FAILURE tells the error (the
 * library answers it to synchronizes and queries of the context too).
 * ABORT clears the stream's own error only.
 *
 * STOP (the op) stops the operation running at its next piece and holds
 * the stream: queued operations stay queued and do not run until ABORT.
 * ABORT drops every queued operation, stops the running one and waits for
 * it, and clears the stream's error and both stopped states; the stream
 * stays usable.  A destroy of a held stream drops its queued work.
 */

/* STREAM_CREATE @flags (1.9): the ACL stream flags, recorded only. */
#define NPU_SIM_STREAM_FAST_LAUNCH	(1U << 0)
#define NPU_SIM_STREAM_FAST_SYNC	(1U << 1)
#define NPU_SIM_STREAM_PERSISTENT	(1U << 2)
#define NPU_SIM_STREAM_HUGE		(1U << 3)
#define NPU_SIM_STREAM_CPU_SCHEDULE	(1U << 4)
#define NPU_SIM_STREAM_FLAGS_MASK	0x1FU

/* Highest (numerically largest, least urgent) SET_PRIORITY value. */
#define NPU_SIM_STREAM_PRIORITY_MAX	7

/* Failure modes (aclrtSetStreamFailureMode values). */
enum npu_sim_failure_mode {
	NPU_SIM_CONTINUE_ON_FAILURE = 0,
	NPU_SIM_STOP_ON_FAILURE = 1,
};

/* Operations of STREAM_CTL. */
enum npu_sim_stream_ctl_op {
	NPU_SIM_STREAM_CTL_QUERY = 1,	 /* the out fields */
	NPU_SIM_STREAM_CTL_SET_MODE = 2, /* @value: enum npu_sim_failure_mode */
	NPU_SIM_STREAM_CTL_SET_PRIORITY = 3, /* @value: a priority */
	NPU_SIM_STREAM_CTL_ABORT = 4,	 /* drop queued work, see above */
	NPU_SIM_STREAM_CTL_STOP = 5,	 /* stop the running op, hold */
	NPU_SIM_STREAM_CTL_AVAIL = 6,	 /* @id 0; out @value */
	NPU_SIM_STREAM_CTL_CTX_FAILURE = 7, /* @id a @ctx_id; out @value (1.12) */
};

/* STREAM_CTL @state bits. */
#define NPU_SIM_STREAM_FAILED	(1U << 0)	/* STOP mode after a failure */
#define NPU_SIM_STREAM_HELD	(1U << 1)	/* STOP op: held until ABORT */
/*
 * Subscriptions (1.11): a report one, a host function one (a thread of
 * the caller's choice, or the library's own: RUNTIME).
 */
#define NPU_SIM_STREAM_CB_REPORT	(1U << 2)
#define NPU_SIM_STREAM_CB_HOSTFUNC	(1U << 3)
#define NPU_SIM_STREAM_CB_RUNTIME	(1U << 4)

/**
 * struct npu_sim_stream_ctl - set, query or control one stream
 * @id: in, stream id (0 for AVAIL)
 * @op: in, enum npu_sim_stream_ctl_op
 * @value: in, SET_MODE: enum npu_sim_failure_mode; SET_PRIORITY:
 *	0..NPU_SIM_STREAM_PRIORITY_MAX;
 *	other ops: must be 0; out, AVAIL: streams this file can still create
 *	(NPU_SIM_MAX_STREAMS and the module's object limit, less the live ones);
 *	out, CTX_FAILURE: the positive errno of the failure kept for the
 *	context @id (a STREAM_CREATE @ctx_id, not a stream), 0 when it has none
 * @mode: out (QUERY), enum npu_sim_failure_mode
 * @priority: out (QUERY), the stream's priority
 * @flags: out (QUERY), its STREAM_CREATE flags
 * @state: out (QUERY), NPU_SIM_STREAM_FAILED / NPU_SIM_STREAM_HELD /
 *	NPU_SIM_STREAM_CB_* bits
 * @dropped: out (QUERY), operations completed without running (STOP mode
 *	after a failure, ABORT, a destroy of a held stream)
 * @reserved: must be 0
 *
 * SET_MODE from STOP back to CONTINUE fails with -EOPNOTSUPP (the mode of a
 * stream can only be made stricter); setting the mode it has is no change.
 * ABORT waits for the running operation to stop; a fatal signal ends that
 * wait (-EINTR), the rest is dropped already.  Every out field must be 0 on
 * input.  Errors: -EINVAL bad field; -ENOENT no such stream; -EOPNOTSUPP;
 * -EINTR.
 */
struct npu_sim_stream_ctl {
	__u32 id;
	__u32 op;
	__u64 value;
	__u32 mode;
	__u32 priority;
	__u32 flags;
	__u32 state;
	__u64 dropped;
	__u64 reserved;
};

#define NPU_SIM_IOCTL_STREAM_CTL	_IOWR(NPU_SIM_IOC_MAGIC, 0x37, struct npu_sim_stream_ctl)

/* ---- Managed (UVM) memory (API 1.3, NPU_SIM_CAP_MANAGED) ----------------
 *
 * A managed range lives in the context's window like an allocation, but the
 * host may always access it (strict mode too): a host access faults into
 * the driver, which migrates or duplicates 2 MiB blocks per the advice.
 * Device accesses are copies/sets touching the range and MANAGED_TOUCH.
 * Device copies are charged against the capacity while they exist.  Free a
 * range with MEM_FREE.  State and counters: debugfs "managed".
 *
 * OP_PREFETCH (STREAM_SUBMIT): @dst = start, @width = bytes (> 0, a multiple
 * of 2 MiB), @location = enum npu_sim_managed_loc, @location_id = device id
 * for NPU_SIM_MLOC_DEVICE (must be this device's index), all other fields 0.
 * The range must lie in one managed range.  It runs in stream order; errors
 * as MANAGED_ADVISE.
 */
#define NPU_SIM_MANAGED_MAX	(3ULL << 40)	/* 3 TiB */
#define NPU_SIM_MANAGED_ALIGN	(2ULL << 20)	/* 2 MiB blocks */

/* Locations (same values as aclrtMemManagedLocationType). */
enum npu_sim_managed_loc {
	NPU_SIM_MLOC_DEVICE = 1,
	NPU_SIM_MLOC_HOST = 2,
};

/* Advice (aclrtMemManagedAdviseType + 1). */
enum npu_sim_advise {
	NPU_SIM_ADVISE_SET_READ_MOSTLY = 1,
	NPU_SIM_ADVISE_UNSET_READ_MOSTLY = 2,
	NPU_SIM_ADVISE_SET_PREFERRED = 3,
	NPU_SIM_ADVISE_UNSET_PREFERRED = 4,
	NPU_SIM_ADVISE_SET_ACCESSED_BY = 5,
	NPU_SIM_ADVISE_UNSET_ACCESSED_BY = 6,
};

/**
 * struct npu_sim_managed_alloc - create a managed range
 * @size: in, bytes, in (0, NPU_SIM_MANAGED_MAX]; rounded up to 2 MiB
 * @flags: in, must be 0
 * @pad: in, must be 0
 * @va: out, start (2 MiB aligned) in the window
 * @len: out, the rounded size
 * @id: out, allocation id (debugfs)
 *
 * No device memory is taken until a device access.  Host memory for the
 * host copy is taken (zeroed) up front and not charged to the device.
 * Errors: -EINVAL bad size/flags/pad; -ENXIO window not mapped; -ENOMEM.
 */
struct npu_sim_managed_alloc {
	__u64 size;
	__u32 flags;
	__u32 pad;
	__u64 va;
	__u64 len;
	__u64 id;
};

/**
 * struct npu_sim_managed_advise - advice for part of a managed range
 * @va: in, start; the 2 MiB blocks covering [@va, @va + @size) are advised
 * @size: in, bytes, a multiple of 2 MiB in (0, NPU_SIM_MANAGED_MAX]
 * @advise: in, enum npu_sim_advise
 * @loc: in, enum npu_sim_managed_loc; SET_READ_MOSTLY ignores it;
 *	UNSET_READ_MOSTLY treats anything but DEVICE as host; the others
 *	need DEVICE or HOST
 * @loc_id: in, DEVICE: must be this device's index; else ignored
 * @flags: in, must be 0
 * @reserved: in, must be 0
 *
 * Semantics of the seed page aclrtMemManagedAdviseType.  Errors: -EINVAL
 * bad field or range not inside one managed range; -EBUSY SET_PREFERRED
 * (or SET_ACCESSED_BY equal to the preferred location) without
 * READ_MOSTLY while a block is mapped at the other location (nothing is
 * changed then); -ENOMEM no capacity for a device copy.
 */
struct npu_sim_managed_advise {
	__u64 va;
	__u64 size;
	__u32 advise;
	__u32 loc;
	__u32 loc_id;
	__u32 flags;
	__u64 reserved;
};

#define NPU_SIM_TOUCH_WRITE	(1U << 0)
#define NPU_SIM_TOUCH_FLAGS_MASK	NPU_SIM_TOUCH_WRITE

/**
 * struct npu_sim_managed_touch - TEST ONLY: access a range as the device
 * @va: in, start, inside one managed range
 * @size: in, bytes (> 0); [@va, @va + @size) inside that managed range
 * @flags: in, NPU_SIM_TOUCH_WRITE for a write access, else a read
 * @pad: in, must be 0
 *
 * Runs the device-access rules on every 2 MiB block touched (counts
 * dev_faults, migrates or duplicates); the data is not changed.  Only with
 * NPU_SIM_CAP_TEST_HOOKS.  Errors: -ENOTTY test hooks off; -EINVAL bad
 * field or range; -ENOMEM no capacity for a copy.
 */
struct npu_sim_managed_touch {
	__u64 va;
	__u64 size;
	__u32 flags;
	__u32 pad;
};

/**
 * struct npu_sim_managed_query - attributes of part of a managed range
 * @va: in, start, inside one managed range
 * @size: in, bytes (> 0); the 2 MiB blocks covering [@va, @va + @size)
 *	are queried; they must lie inside that managed range
 * @flags: in, must be 0
 * @read_mostly: out, 1 if every block has the read-mostly attribute, else 0
 * @preferred: out, enum npu_sim_managed_loc preferred by every block, or 0
 *	(none, or the blocks differ)
 * @accessed_by: out, bit (1 << loc) for each location that every block
 *	has as accessed-by
 * @last_prefetch: out, enum npu_sim_managed_loc every block was last
 *	prefetched to, or 0 (never, or the blocks differ)
 * @pad: out, 0
 * @reserved: in, must be 0
 *
 * Errors: -EINVAL bad field or range.
 */
struct npu_sim_managed_query {
	__u64 va;
	__u64 size;
	__u32 flags;
	__u32 read_mostly;
	__u32 preferred;
	__u32 accessed_by;
	__u32 last_prefetch;
	__u32 pad;
	__u64 reserved;
};

#define NPU_SIM_IOCTL_MANAGED_ALLOC	_IOWR(NPU_SIM_IOC_MAGIC, 0x50, struct npu_sim_managed_alloc)
#define NPU_SIM_IOCTL_MANAGED_ADVISE	_IOW(NPU_SIM_IOC_MAGIC, 0x51, struct npu_sim_managed_advise)
#define NPU_SIM_IOCTL_MANAGED_TOUCH	_IOW(NPU_SIM_IOC_MAGIC, 0x52, struct npu_sim_managed_touch)
#define NPU_SIM_IOCTL_MANAGED_QUERY	_IOWR(NPU_SIM_IOC_MAGIC, 0x53, struct npu_sim_managed_query)

/* ---- Several devices (API 1.5, NPU_SIM_CAP_PEER) ------------------------ */

/* Operations of PEER_ACCESS. */
enum npu_sim_peer_op {
	NPU_SIM_PEER_ENABLE = 1,	/* this device may access @peer's memory */
	NPU_SIM_PEER_DISABLE = 2,	/* take that back */
	NPU_SIM_PEER_QUERY = 3,		/* @enabled: whether it is on */
};

/**
 * struct npu_sim_peer_access - peer access of this file's device to another
 * @peer: in, index of the other device (not this one)
 * @op: in, enum npu_sim_peer_op
 * @flags: in, must be 0
 * @enabled: out, 1 if this file's device has access to @peer after the
 *	call, else 0
 *
 * Access is one-directional and belongs to the open file (so to the
 * process): it goes away when the file is released.  It lets D2D copies
 * and share imports reach @peer's memory.  Errors: -EINVAL bad field or
 * @peer is this device; -ENODEV no device @peer; -EEXIST ENABLE while
 * enabled; -ENOENT DISABLE while not enabled.
 */
struct npu_sim_peer_access {
	__u32 peer;
	__u32 op;
	__u32 flags;
	__u32 enabled;
};

#define NPU_SIM_IOCTL_PEER_ACCESS	_IOWR(NPU_SIM_IOC_MAGIC, 0x60, struct npu_sim_peer_access)

/* ---- Graphs (NPU_SIM_CAP_GRAPH) ------------------------------------------
 *
 * A graph is a list of stream operations kept by the driver for one open
 * file (aclmdlRI: a captured or built model runtime instance).  Each entry
 * is a struct npu_sim_stream_submit as STREAM_SUBMIT takes it, with @stream
 * and @seq 0; NPU_SIM_OP_GRAPH (an entry naming another graph) is not
 * accepted.  GRAPH_CREATE checks every entry's fields as STREAM_SUBMIT does
 * (not its memory).  GRAPH_LAUNCH queues all entries, in their order, on one
 * stream: each entry's device ranges, events, notifies and callbacks are
 * checked and referenced then exactly as by STREAM_SUBMIT, so a launch reads
 * and writes the memory as it is at the time it runs; if any entry fails
 * its check (memory freed since, an event destroyed, ...) nothing is queued.
 * Queued work of a launch is ordinary stream work: it holds its own
 * references (a graph destroyed or memory freed after the launch is safe),
 * it is cancelled by a forced stream destroy or the release of the file,
 * and its errors are the stream's.  Graphs are freed with their file.
 */
#define NPU_SIM_MAX_GRAPHS	4096		/* per open file */
#define NPU_SIM_MAX_GRAPH_OPS	NPU_SIM_MAX_QUEUED	/* entries per graph */

/* Reserved operation number of the graph group: not a STREAM_SUBMIT op. */
#define NPU_SIM_OP_GRAPH	16

/**
 * struct npu_sim_graph_create - make a graph from a list of operations
 * @ops: in, user address of @count struct npu_sim_stream_submit entries
 * @count: in, number of entries, 0..NPU_SIM_MAX_GRAPH_OPS
 * @flags: in, 0 or an OR of (1.11) NPU_SIM_GRAPH_TAKE_FROM and
 *	NPU_SIM_GRAPH_FLOW (a control-flow program, below: its entries may be
 *	ops 17..19, and each target entry index must be below @count)
 * @id: out, graph id (> 0), unique in the file while the graph lives
 * @from: in, with NPU_SIM_GRAPH_TAKE_FROM (not 0 then): a graph whose pool
 *	blocks the new graph's POOL_ALLOC entries may take over
 *	(aclmdlRIUpdate); otherwise must be 0
 * @bytes: out, device bytes the entries name (sum of their ranges: a copy's
 *	rows of @width bytes count once for the destination and once for a
 *	device source, a set's rows once, a value op's 8 bytes once)
 *
 * Errors: -EINVAL bad field or entry; -EFAULT @ops unreadable; -ENOSPC
 * NPU_SIM_MAX_GRAPHS graphs live; -ENOMEM.
 */
struct npu_sim_graph_create {
	__u64 ops;
	__u32 count;
	__u32 flags;
	__u32 id;
	__u32 from;
	__u64 bytes;
};

/**
 * struct npu_sim_graph_destroy - destroy a graph
 * @id: in, graph id
 * @flags: in, must be 0
 *
 * Work already queued by GRAPH_LAUNCH is not affected.  Errors: -EINVAL
 * @flags != 0; -ENOENT no such graph.
 */
struct npu_sim_graph_destroy {
	__u32 id;
	__u32 flags;
};

/**
 * struct npu_sim_graph_launch - queue a graph's operations on a stream
 * @id: in, graph id
 * @stream: in, stream id
 * @flags: in, must be 0
 * @tag: in (1.11, NPU_SIM_CAP_GRAPH_POOL; before: must be 0), a number the
 *	queued operations carry for GRAPH_ABORT; 0: none
 * @seq: out, sequence number of the last queued operation in @stream (the
 *	stream's count of submitted operations for an empty graph)
 *
 * Errors: -EINVAL bad field; -ENOENT no such graph, stream or entry's
 * event; -EAGAIN the file's queue cannot take all entries; -EINTR a fatal
 * signal; -EPIPE as STREAM_SUBMIT; other errors of STREAM_SUBMIT for an
 * entry.  Nothing is queued on
 * an error.
 */
struct npu_sim_graph_launch {
	__u32 id;
	__u32 stream;
	__u32 flags;
	__u32 tag;
	__u64 seq;
};

/**
 * struct npu_sim_graph_info - a graph's figures
 * @id: in, graph id
 * @pad: must be 0
 * @count: out, number of entries
 * @flags: out, the GRAPH_CREATE flags (1.11; 0 before)
 * @bytes: out, as GRAPH_CREATE's @bytes
 * @launches: out, successful GRAPH_LAUNCH calls of the graph
 *
 * Errors: -EINVAL bad field; -ENOENT no such graph.
 */
struct npu_sim_graph_info {
	__u32 id;
	__u32 pad;
	__u32 count;
	__u32 flags;
	__u64 bytes;
	__u64 launches;
};

/* ---- Graph control flow (API 1.11, NPU_SIM_CAP_GRAPH_FLOW) --------------
 *
 * A graph created with NPU_SIM_GRAPH_FLOW is a program: GRAPH_LAUNCH queues
 * it as one operation of the stream, and the stream's worker runs its
 * entries from entry 0, reading device memory as it is when each entry
 * runs (aclmdlRI condition tasks, labels, aclrtSwitchStream,
 * aclrtActiveStream).  Entries are COPY, SET (also NPU_SIM_SET_32), REDUCE,
 * CMO, VALUE_WRITE, and the three control entries below; nothing that
 * waits (no RECORD, WAIT, VALUE_WAIT, NOTIFY_*, CALLBACK, PREFETCH,
 * POOL_FREE).  At launch every entry's device ranges are checked and
 * referenced once, as by STREAM_SUBMIT, however often it then runs.
 *
 * A program runs in segments (one per stream of a built model): the run
 * starts at entry 0; a segment ends at a JUMP with NPU_SIM_FLOW_END or past
 * the last entry, and the run then continues at the oldest segment start
 * activated (JUMP with NPU_SIM_FLOW_ACTIVATE) and not yet begun; the
 * launch's operation completes when none is left.  A segment activated
 * again while it waits to begin is activated once.
 *
 * A run is stream work like any other: after every NPU_SIM_FLOW_SLICE
 * entries it passes its worker slot on when other streams of its user
 * wait for one, and it stops at its next entry on a forced stream
 * destroy, STREAM_CTL ABORT, or the release of the file (so a loop whose
 * condition never turns false runs until one of those, as on a device).
 * An entry that fails ends the run with that error (the stream's error).
 */
#define NPU_SIM_GRAPH_FLOW	(1U << 0)	/* GRAPH_CREATE @flags (1.11) */
#define NPU_SIM_FLOW_SLICE	256		/* entries between yields */

/*
 * NPU_SIM_OP_BRANCH: read the value at @dst (@width 4 or 8 bytes, aligned
 * to it) and compare it with the value of the same width at @src (a device
 * address) or, when @src is 0, with @operand; if the comparison @flags
 * (enum npu_sim_flow_cond; @value 1: signed, 0: unsigned) holds, continue
 * at entry @height, else at the next one.  Other fields 0.
 */
#define NPU_SIM_OP_BRANCH	17
/*
 * NPU_SIM_OP_SWITCH: read the index at @dst (@width 4 or 8, unsigned,
 * aligned) and continue at entry (this + 1 + index) of the @height (> 0)
 * entries that follow, which must be JUMPs with @flags 0.  An index >=
 * @height: @flags NPU_SIM_SWITCH_CLAMP takes the last of them; @flags 0
 * continues after them.  Other fields 0.
 */
#define NPU_SIM_OP_SWITCH	18
/*
 * NPU_SIM_OP_JUMP: @flags 0: continue at entry @height; NPU_SIM_FLOW_ACTIVATE:
 * activate the segment starting at entry @height and continue at the next
 * entry; NPU_SIM_FLOW_END: end the segment (@height 0).  Other fields 0.
 */
#define NPU_SIM_OP_JUMP		19

/* BRANCH comparisons (aclrtCondition values). */
enum npu_sim_flow_cond {
	NPU_SIM_FLOW_EQ = 0,
	NPU_SIM_FLOW_NE = 1,
	NPU_SIM_FLOW_GT = 2,
	NPU_SIM_FLOW_GE = 3,
	NPU_SIM_FLOW_LT = 4,
	NPU_SIM_FLOW_LE = 5,
};

#define NPU_SIM_SWITCH_CLAMP	(1U << 0)	/* SWITCH @flags */
#define NPU_SIM_FLOW_ACTIVATE	1		/* JUMP @flags */
#define NPU_SIM_FLOW_END	2		/* JUMP @flags */

#define NPU_SIM_IOCTL_GRAPH_CREATE	_IOWR(NPU_SIM_IOC_MAGIC, 0x64, struct npu_sim_graph_create)
#define NPU_SIM_IOCTL_GRAPH_DESTROY	_IOW(NPU_SIM_IOC_MAGIC, 0x65, struct npu_sim_graph_destroy)
#define NPU_SIM_IOCTL_GRAPH_LAUNCH	_IOWR(NPU_SIM_IOC_MAGIC, 0x66, struct npu_sim_graph_launch)
#define NPU_SIM_IOCTL_GRAPH_INFO	_IOWR(NPU_SIM_IOC_MAGIC, 0x67, struct npu_sim_graph_info)

/* ---- Graph memory and abort (API 1.11, NPU_SIM_CAP_GRAPH_POOL) ----------
 *
 * A graph may own memory-pool blocks (aclrtMemPoolMallocAsync in a
 * capture).  An NPU_SIM_OP_POOL_ALLOC entry names one: @dst its start,
 * @width its size, @operand its pool; every other field 0.  GRAPH_CREATE
 * takes the block, which must be in use (MEMPOOL_ALLOC'ed, not freed, not
 * another graph's), out of its pool's reach: MEM_FREE, a stream's
 * OP_POOL_FREE and TRIM leave it alone, and it counts as used until the
 * graph is destroyed (GRAPH_DESTROY, the release of the file), which gives
 * it back to the device as MEM_FREE does (work still queued keeps its
 * pages).  MEMPOOL_DESTROY frees it with the pool: a later launch then
 * fails -ENXIO.  An NPU_SIM_OP_POOL_FREE entry (@dst only) must name the
 * block of an earlier POOL_ALLOC entry of the same graph, at most once: it
 * ends the block's use within a replay.  Neither entry queues an operation:
 * the block stays mapped for the graph's life, so every replay finds it at
 * the same address.  STREAM_SUBMIT refuses OP_POOL_ALLOC (-EINVAL).
 * With NPU_SIM_GRAPH_TAKE_FROM a block graph @from owns may be taken too:
 * it moves to the new graph (the old one's destroy then leaves it).
 * GRAPH_CREATE errors besides the above: -EINVAL a pool entry whose block
 * is not as described.
 */
#define NPU_SIM_OP_POOL_ALLOC	20
/* GRAPH_CREATE @flags: blocks of graph @from may be taken over. */
#define NPU_SIM_GRAPH_TAKE_FROM	(1U << 1)

/**
 * struct npu_sim_graph_abort - drop the queued work of launches with a tag
 * @tag: in, a GRAPH_LAUNCH @tag, > 0
 * @flags: in, must be 0
 * @dropped: out, operations dropped (0 on input)
 *
 * Every operation of the file's streams queued by a GRAPH_LAUNCH with @tag
 * completes without running (a RECORD still counts as reached); one that
 * is running stops at its next piece.  Other work of those streams, and of
 * other files, is not touched; nothing waits.  Errors: -EINVAL bad field.
 */
struct npu_sim_graph_abort {
	__u32 tag;
	__u32 flags;
	__u64 dropped;
};

#define NPU_SIM_IOCTL_GRAPH_ABORT	_IOWR(NPU_SIM_IOC_MAGIC, 0x70, struct npu_sim_graph_abort)

/* ---- Limits and fault injection (API 1.6) -------------------------------
 *
 * A process's device memory on a device is every physical object it makes
 * there and that is charged to the device: linear allocations (MEM_ALLOC),
 * physical handles (PHYS_ALLOC in device location) and the device copies
 * of its managed blocks (2 MiB each while they exist).  A byte stays
 * charged to the process that made it until the object is gone (also after
 * its file is closed, while another process still holds an import).  What
 * a process imports of another's device memory (SHARE_IMPORT, IPC_IMPORT)
 * counts for it too while it holds the import, so it never holds more
 * than its limit however many processes export to it; host memory counts
 * for nobody (an imported host handle counts against the importer's
 * RLIMIT_MEMLOCK instead).  All files of one process (thread group, also
 * across exec) on one device share one account; a forked child has its
 * own.
 */

/* Operations of MEM_LIMIT. */
enum npu_sim_limit_op {
	NPU_SIM_LIMIT_GET = 1,	/* report the figures only */
	NPU_SIM_LIMIT_SET = 2,	/* set the process's own limit to @limit */
};

/**
 * struct npu_sim_mem_limit - the caller's device memory limit on this device
 * @op: in, enum npu_sim_limit_op
 * @flags: in, must be 0
 * @limit: in, SET: the process's own limit in bytes (> 0); GET: must be 0
 * @own_limit: out, the process's own limit after the call, 0 = none
 * @admin_limit: out, the device's per-process limit (sysfs
 *	proc_mem_limit_bytes), 0 = none
 * @effective: out, the limit that applies: the smaller of the two that are
 *	set, 0 = none
 * @used: out, bytes charged to the process on this device
 * @reserved: must be 0
 *
 * An allocation or import that would take @used past @effective fails
 * with -ENOMEM (what capacity exhaustion gives) and counts as fail_limit
 * in debugfs.
 * A process may only lower its own limit: SET above a limit it set before
 * fails with -EPERM.  A limit above the administrator's has no effect
 * (@effective stays the administrator's).  Lowering a limit below @used
 * frees nothing; only new allocations fail.  Errors: -EINVAL bad field,
 * SET with @limit 0; -EPERM raising the own limit.
 */
struct npu_sim_mem_limit {
	__u32 op;
	__u32 flags;
	__u64 limit;
	__u64 own_limit;
	__u64 admin_limit;
	__u64 effective;
	__u64 used;
	__u64 reserved;
};

/* Operation classes fault injection can fail (bit (1 << op) in masks). */
enum npu_sim_fault_op {
	/* MEM_ALLOC, PHYS_ALLOC, MANAGED_ALLOC: -ENOMEM */
	NPU_SIM_FAULT_ALLOC = 1,
	/* VMM_MAP: -ENOMEM */
	NPU_SIM_FAULT_MAP = 2,
	/* SHARE_IMPORT, IPC_IMPORT: -ENOMEM */
	NPU_SIM_FAULT_IMPORT = 3,
	/* MEMCPY, MEMCPY2D, MEMSET: -EIO */
	NPU_SIM_FAULT_COPY = 4,
	/*
	 * STREAM_SUBMIT of COPY, SET, PREFETCH, VALUE_WRITE, VALUE_WAIT: the
	 * submit succeeds, the op fails with -EIO when it runs (the stream's
	 * error, reported by STREAM_SYNC).
	 */
	NPU_SIM_FAULT_STREAM = 5,
};

#define NPU_SIM_FAULT_OPS_MASK	0x3EU	/* bits 1..5 */
#define NPU_SIM_FAULT_RATE_ONE	1000000U	/* rate unit: parts per million */

/**
 * struct npu_sim_fault_inject - fail a seeded fraction of this file's operations
 * @seed: in, PRNG seed (any value)
 * @rate: in, parts per million (0..NPU_SIM_FAULT_RATE_ONE) of the eligible
 *	operations that fail; 0 turns injection off
 * @ops: in, mask of (1 << enum npu_sim_fault_op): the eligible classes;
 *	must be non-zero when @rate is
 * @flags: in, must be 0
 * @pad: must be 0
 * @reserved: must be 0
 *
 * The context's PRNG (splitmix64 seeded with @seed) advances once per
 * eligible operation that passed its own argument checks, in the order the
 * context receives them; the operation fails when the draw modulo
 * NPU_SIM_FAULT_RATE_ONE is below @rate.  The same seed, rate, ops and
 * sequence of calls fail the same calls.  Setting again restarts the
 * sequence.  Errors: -EINVAL bad field.
 */
struct npu_sim_fault_inject {
	__u64 seed;
	__u32 rate;
	__u32 ops;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

#define NPU_SIM_IOCTL_MEM_LIMIT	_IOWR(NPU_SIM_IOC_MAGIC, 0x90, struct npu_sim_mem_limit)
#define NPU_SIM_IOCTL_FAULT_INJECT	_IOW(NPU_SIM_IOC_MAGIC, 0x91, struct npu_sim_fault_inject)

/* ---- Check reports (API 1.6, NPU_SIM_CAP_CHECK) ------------------------- */

/* Operations of CHECK_SITE. */
enum npu_sim_check_op {
	NPU_SIM_CHECK_SET_SITE = 1,	/* tag the object at @va with @site */
	NPU_SIM_CHECK_QUERY = 2,	/* @site and @queued of the object */
};

/**
 * struct npu_sim_check_site - call site of an allocation, for the reports
 * @va: in, start of a linear or managed allocation or of a reservation of
 *	this file
 * @site: in (SET_SITE) / out (QUERY), an opaque 64-bit tag the library
 *	chooses (libacl_rt: the code address of the API call that made it);
 *	shown in debugfs sites and in the host-fault reports
 * @op: in, enum npu_sim_check_op
 * @queued: out (QUERY), stream operations still holding the object (a
 *	free now is a free of memory queued work uses); 0 for SET_SITE
 * @reserved: must be 0
 *
 * Errors: -EINVAL bad @op, @queued or @reserved not 0 on input; -ENOENT
 * no such object starts at @va in this file.
 */
struct npu_sim_check_site {
	__u64 va;
	__u64 site;
	__u32 op;
	__u32 queued;
	__u64 reserved;
};

#define NPU_SIM_IOCTL_CHECK_SITE	_IOWR(NPU_SIM_IOC_MAGIC, 0x80, struct npu_sim_check_site)

/* ---- Stream-ordered memory pools (API 1.10, NPU_SIM_CAP_MEMPOOL) ---------
 *
 * A pool (aclrtMemPoolCreate) belongs to the file that created it.  Its
 * memory comes in blocks, each an ordinary linear allocation of the file
 * (charged to the device and the process like MEM_ALLOC, 2 MiB pages where
 * the hugetlb pool has them), whose size is a multiple of
 * NPU_SIM_MEMPOOL_BLOCK.  A block is in use (MEMPOOL_ALLOC gave it out),
 * pending (an OP_POOL_FREE of it is queued on a stream and has not run) or
 * free (that op ran).  Reserved bytes are the sizes of all blocks, used
 * bytes those of the blocks in use.
 *
 * MEMPOOL_ALLOC on stream S gives out the smallest block of at least the
 * size that is pending or free with S as its freeing stream, or, when the
 * pool's REUSE_ALLOW_OPPORTUNISTIC or REUSE_ALLOW_INTERNAL_DEPENDENCIES
 * attribute is set, the smallest free block of any stream; else a new
 * block.  OP_POOL_FREE: STREAM_SUBMIT with @dst the start of a block in use
 * and every other field 0; the block is pending from the submit and free
 * when the stream reaches the op (or the op is cancelled).  An @dst that is
 * no block of a pool of the file queues a deferred MEM_FREE of the linear
 * allocation starting there, done when the stream reaches the op (nothing
 * happens if there is none by then).  Errors of the submit: -EBUSY @dst
 * lies in a block of a pool and is not the start of one in use.
 *
 * MEM_FREE of a block in use takes it out of its pool (used and reserved
 * drop by its size) and frees it; MEM_FREE of a pending or free block
 * fails with -ENOENT.  After a STREAM_SYNC or EVENT_SYNC that waited and
 * found the work done, every pool of the file releases free blocks
 * (smallest first, each only if the reserved bytes stay at or above the
 * threshold) while its reserved bytes exceed its release threshold.
 */
#define NPU_SIM_MEMPOOL_BLOCK	(2ULL << 20)	/* bytes: block size unit */

/**
 * struct npu_sim_mempool_create - create a pool on this file's device
 * @max_size: in, bytes the pool may reserve: 0 for the device capacity
 *	rounded down to NPU_SIM_MEMPOOL_BLOCK, else rounded up to it; more
 *	than the capacity is -EINVAL
 * @id: out, the pool's id (unique on the device, never 0)
 * @size: out, the pool's size after rounding
 *
 * Errors: -EINVAL @max_size above the capacity, @id or @size not 0;
 * -ENOMEM.
 */
struct npu_sim_mempool_create {
	__u64 max_size;
	__u64 id;
	__u64 size;
};

/**
 * struct npu_sim_mempool_destroy - destroy a pool of this file
 * @id: in, the pool
 *
 * Every block goes back to the device, in use or not (queued stream work
 * that uses one keeps its pages until it is done).  Errors: -ENOENT no
 * such pool.
 */
struct npu_sim_mempool_destroy {
	__u64 id;
};

/* MEMPOOL_CTL operations */
enum npu_sim_mempool_op {
	NPU_SIM_MEMPOOL_GET_ATTR = 1,	/* @value = attribute @attr */
	NPU_SIM_MEMPOOL_SET_ATTR = 2,	/* attribute @attr = @value */
	NPU_SIM_MEMPOOL_TRIM = 3,	/* release free blocks down to @value */
};

/* MEMPOOL_CTL attributes (the values of aclrtMemPoolAttr). */
enum npu_sim_mempool_attr {
	NPU_SIM_MEMPOOL_REUSE_EVENT = 1,	/* 0 or 1, stored */
	NPU_SIM_MEMPOOL_REUSE_OPPORTUNISTIC = 2,	/* 0 or 1 */
	NPU_SIM_MEMPOOL_REUSE_INTERNAL = 3,	/* 0 or 1 */
	NPU_SIM_MEMPOOL_RELEASE_THRESHOLD = 4,	/* bytes, <= size */
	NPU_SIM_MEMPOOL_RESERVED_CURRENT = 5,	/* read only */
	NPU_SIM_MEMPOOL_RESERVED_HIGH = 6,	/* set: 0 only, resets */
	NPU_SIM_MEMPOOL_USED_CURRENT = 7,	/* read only */
	NPU_SIM_MEMPOOL_USED_HIGH = 8,		/* set: 0 only, resets */
};

/**
 * struct npu_sim_mempool_ctl - read or set a pool attribute, or trim it
 * @id: in, the pool
 * @op: in, enum npu_sim_mempool_op
 * @attr: in, GET_ATTR / SET_ATTR: enum npu_sim_mempool_attr; TRIM: 0
 * @value: in, SET_ATTR: the value (the REUSE ones: non-zero is 1); TRIM:
 *	bytes to keep reserved; GET_ATTR: out (0 on input)
 *
 * TRIM releases free blocks, smallest first, each only while the reserved
 * bytes stay at or above @value; a @value at or above the reserved bytes
 * does nothing.  Errors: -ENOENT no such pool; -EPERM SET_ATTR of
 * RESERVED_CURRENT or USED_CURRENT; -EINVAL bad @op or @attr, a threshold
 * above the pool's size, a non-zero HIGH value, a TRIM @value above the
 * pool's size or below its used bytes.
 */
struct npu_sim_mempool_ctl {
	__u64 id;
	__u32 op;
	__u32 attr;
	__u64 value;
};

/**
 * struct npu_sim_mempool_alloc - take memory from a pool, ordered on a stream
 * @id: in, the pool
 * @stream: in, the stream the memory is for
 * @pad: must be 0
 * @size: in, bytes, a non-zero multiple of NPU_SIM_MEMPOOL_BLOCK
 * @va: out, the block's start
 * @block_size: out, the block's size (>= @size), counted as used
 *
 * Errors: -EINVAL bad @size, @pad, out fields not 0; -ENOENT no such pool
 * or stream; -ENOSPC the pool's size would be exceeded, or the device is
 * full; -ENXIO window not mapped; -ENOMEM.
 */
struct npu_sim_mempool_alloc {
	__u64 id;
	__u32 stream;
	__u32 pad;
	__u64 size;
	__u64 va;
	__u64 block_size;
};

enum {
	NPU_SIM_OP_POOL_FREE = 15,	/* free a pool block in stream order */
};

#define NPU_SIM_IOCTL_MEMPOOL_CREATE	_IOWR(NPU_SIM_IOC_MAGIC, 0x54, struct npu_sim_mempool_create)
#define NPU_SIM_IOCTL_MEMPOOL_DESTROY	_IOW(NPU_SIM_IOC_MAGIC, 0x55, struct npu_sim_mempool_destroy)
#define NPU_SIM_IOCTL_MEMPOOL_CTL	_IOWR(NPU_SIM_IOC_MAGIC, 0x56, struct npu_sim_mempool_ctl)
#define NPU_SIM_IOCTL_MEMPOOL_ALLOC	_IOWR(NPU_SIM_IOC_MAGIC, 0x57, struct npu_sim_mempool_alloc)

#endif /* _UAPI_MISC_NPU_SIM_H */
