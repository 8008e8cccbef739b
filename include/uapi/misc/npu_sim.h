/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * npu_sim user-space ABI: the ioctls of /dev/npu_simN, shared by the kernel
 * module (kernel/) and the runtime library (lib/libacl_rt).
 *
 * Rules that keep this ABI stable:
 * - only fixed-width types; every 64-bit field is 8-byte aligned; every struct
 *   is a multiple of 8 bytes and has no implicit padding (sizes are pinned with
 *   static asserts in kernel/npu_uapi_check.c and in lib/);
 * - every "pad"/"reserved" field and every flag bit outside its *_MASK must be
 *   zero, otherwise the ioctl fails with -EINVAL;
 * - enums start at 1: 0 is never valid, so an unset field is caught;
 * - command numbers are dense and never renumbered; new features come as new
 *   commands, new GET_PARAM params or new capability bits.
 *
 * All sizes are in bytes, all addresses are user virtual addresses of the
 * calling process.  Every ioctl is only accepted from the process (mm) that
 * opened the file; any other caller gets -EACCES.
 */
#ifndef _UAPI_MISC_NPU_SIM_H
#define _UAPI_MISC_NPU_SIM_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define NPU_SIM_API_VERSION_MAJOR	1
#define NPU_SIM_API_VERSION_MINOR	0

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
};

#define NPU_SIM_CAP_HUGE_2M	(1ULL << 0)	/* 2 MiB hugetlb pool usable */
#define NPU_SIM_CAP_HUGE_1G	(1ULL << 1)	/* 1 GiB hugetlb pool usable */

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

/* How the backing of an allocation is chosen (DESIGN.md 4.1). */
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
 *	against the device capacity
 * @backing: in, enum npu_sim_backing
 * @flags: in, NPU_SIM_ALLOC_*
 * @policy: in, the aclrtMemMallocPolicy value as the caller gave it (shown)
 * @api: in, enum npu_sim_alloc_api
 * @va: out, device VA, aligned to the backing page size (>= 4 KiB)
 * @id: out, allocation id (unique per device, never reused while loaded)
 * @charged: out, bytes charged against the capacity
 * @page_kind: out, enum npu_sim_page_kind
 * @pad: must be 0
 *
 * Errors: -EINVAL bad field; -ENXIO VA window not mapped; -ENOMEM device
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
 *	of this context
 * @src_fd: in, -1 (source on this device); other values reserved for
 *	cross-device copies and rejected with -EOPNOTSUPP for now
 * @flags: in, must be 0
 * @pad: must be 0
 *
 * Every device byte of the copy must lie in live device memory (a run of
 * allocations with no hole between them); this is checked before any byte is
 * written.  Errors: -EINVAL bad field or overflow; -ENXIO a device range
 * touches memory that is not allocated; -EFAULT a host range is not
 * accessible; -EOPNOTSUPP cross-device.
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
 * @dst, @dpitch: in, destination and its row pitch (bytes, >= @width)
 * @src, @spitch: in, source and its row pitch (bytes, >= @width)
 * @width, @height: in, > 0
 * @dir, @src_fd, @flags, @pad: as in struct npu_sim_memcpy
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
 * Errors: -EINVAL bad field; -ENXIO range not in live device memory.
 */
struct npu_sim_memset {
	__u64 dst;
	__u64 count;
	__u32 value;
	__u32 flags;
};

/* ---- NPU_SIM_IOCTL_MEM_INFO -------------------------------------------- */

/**
 * struct npu_sim_mem_info - device-wide memory counters (all processes)
 * @flags: in, must be 0
 * @pad: must be 0
 * @capacity: out, device memory capacity (bytes)
 * @used: out, bytes charged by all live allocations of all processes
 * @used_normal, @used_huge_2m, @used_huge_1g: out, @used split by page kind
 * @used_p2p: out, bytes of @used that are P2P memory
 * @context_used: out, bytes charged by the calling context
 * @huge_2m_free, @huge_2m_total: out, 2 MiB pages free / in the host pool
 * @huge_1g_free, @huge_1g_total: out, 1 GiB pages free / in the host pool
 * @host_total, @host_free: out, host RAM (bytes) as in /proc/meminfo
 *	MemTotal / MemAvailable
 * @allocations: out, live allocations on the device (all processes)
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
	__u64 reserved[4];
};

#define NPU_SIM_IOCTL_GET_PARAM	_IOWR(NPU_SIM_IOC_MAGIC, 0x00, struct npu_sim_get_param)
#define NPU_SIM_IOCTL_MEM_ALLOC	_IOWR(NPU_SIM_IOC_MAGIC, 0x01, struct npu_sim_mem_alloc)
#define NPU_SIM_IOCTL_MEM_FREE	_IOW(NPU_SIM_IOC_MAGIC, 0x02, struct npu_sim_mem_free)
#define NPU_SIM_IOCTL_MEMCPY	_IOW(NPU_SIM_IOC_MAGIC, 0x03, struct npu_sim_memcpy)
#define NPU_SIM_IOCTL_MEMCPY2D	_IOW(NPU_SIM_IOC_MAGIC, 0x04, struct npu_sim_memcpy2d)
#define NPU_SIM_IOCTL_MEMSET	_IOW(NPU_SIM_IOC_MAGIC, 0x05, struct npu_sim_memset)
#define NPU_SIM_IOCTL_MEM_INFO	_IOWR(NPU_SIM_IOC_MAGIC, 0x06, struct npu_sim_mem_info)

#endif /* _UAPI_MISC_NPU_SIM_H */
