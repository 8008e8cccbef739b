/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npu_sim: emulated Ascend-style NPU memory device - core definitions.
 *
 * Objects
 *   npu_dev   one /dev/npu_simN: capacity, usage counters, open contexts.
 *   npu_ctx   one open file: owner mm, VA window, maple tree of mappings.
 *   npu_phys  a physical memory object: a run of backing pages of one kind
 *             (normal / 2M / 1G hugetlb), charged against the capacity of
 *             its device from creation until its last reference is gone.
 *   npu_map   a VA range of one context backed by (part of) a npu_phys.
 *             MEM_ALLOC creates a phys object and one map of all of it.
 *   npu_handle a VMM physical handle of one context (npu_vmm.c): an id in
 *             npu_ctx.handles naming a referenced npu_phys.
 *   npu_share  an exported npu_phys, found by its random key (npu_ipc.c).
 *   npu_stream an in-order queue of npu_ops of one context, run by a kernel
 *             worker (npu_stream.c); npu_event a recordable marker.  Both
 *             kref'd, found by id in npu_ctx.streams / npu_ctx.events.
 *
 * The VA tree holds three kinds of npu_map (npu_map.type): allocations,
 * reservations (phys == NULL, covering the holes of a reserved range) and
 * VMM mappings (stored over the part of their reservation they cover).
 *
 * Lifetime: npu_map and npu_phys are kref'd.  The context's maple tree and
 * map list own one reference to each map; a copy takes its own references
 * on the maps it touches (under npu_ctx.lock), so MEM_FREE or release may
 * drop the tree's reference while a copy is running; the pages then go
 * away when the copy puts its reference.  A map owns one reference to its
 * phys object.
 *
 * Lock order (outermost first):
 *   mm->mmap_lock          (held by the mm core around ->mmap, ->fault, ->close)
 *   npu_dev.ctx_lock       (mutex: the device's context list)
 *   npu_ctx.lock           (mutex: VA window, maple tree, map list, ctx usage,
 *                           VMM handles, reservations)
 *   npu_share_lock         (mutex, npu_ipc.c: the global share table)
 *   i_mmap_rwsem, PTLs     (inside unmap_mapping_range / vmf_insert_pfn_prot)
 *   npu_dev.cap_lock       (spinlock: capacity and usage counters)
 *   npu_ctx.sq_lock        (spinlock, npu_stream.c: op lists, stream and
 *                           event counters; nests inside nothing above
 *                           and takes nothing but xarray locks inside it)
 * Stream workers hold no lock while they execute an op; submit prepares an
 * op (taking npu_ctx.lock) before it takes npu_ctx.sq_lock to queue it.
 * npu_ctx.lock is never held across copy_{to,from}_user(): a user access may
 * fault on a window and the fault handler takes npu_ctx.lock.
 */
#ifndef NPU_SIM_H
#define NPU_SIM_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/maple_tree.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include <misc/npu_sim.h>

#define NPU_SIM_NAME		"npu_sim"
#define NPU_SIM_MAX_DEVICES	16

/* Unmapped bytes kept after every allocation so ranges are never adjacent. */
#define NPU_VA_GUARD		PAGE_SIZE

/* Bytes copied between two checks for rescheduling and fatal signals. */
#define NPU_COPY_CHUNK		SZ_1M

/* Page kinds are enum npu_sim_page_kind; index arrays with it directly. */
#define NPU_KIND_NR		(NPU_SIM_PAGE_HUGE_1G + 1)

enum npu_stat {
	NPU_STAT_CALLS_ALLOC,
	NPU_STAT_CALLS_FREE,
	NPU_STAT_CALLS_MEMCPY,
	NPU_STAT_CALLS_MEMCPY2D,
	NPU_STAT_CALLS_MEMSET,
	NPU_STAT_CALLS_MEM_INFO,
	NPU_STAT_FAIL_INVALID,
	NPU_STAT_FAIL_CAPACITY,
	NPU_STAT_FAIL_POOL,
	NPU_STAT_FAIL_NOMEM,
	NPU_STAT_FAIL_INJECTED,
	NPU_STAT_FAIL_NO_ENTRY,
	NPU_STAT_FAIL_RANGE,
	NPU_STAT_FAIL_FAULT,
	NPU_STAT_FALLBACK_NORMAL,
	NPU_STAT_HOST_ACCESS_FAULTS,
	NPU_STAT_CALLS_VMM,
	NPU_STAT_CALLS_SHARE,
	NPU_STAT_CALLS_STREAM,
	NPU_STAT_FREE_WHILE_QUEUED,
	NPU_STAT_NR,
};

struct npu_dev {
	struct device dev;
	struct cdev cdev;
	unsigned int index;
	u64 capacity;
	bool host_access;		/* READ_ONCE/WRITE_ONCE */

	struct mutex ctx_lock;		/* ctx_list, nr_ctx */
	struct list_head ctx_list;	/* npu_ctx.node */
	unsigned int nr_ctx;
	struct ida ctx_ida;		/* context index -> window pgoff */

	spinlock_t cap_lock;		/* the usage counters below */
	u64 used;			/* all charged bytes */
	u64 used_kind[NPU_KIND_NR];
	u64 used_p2p;
	u64 nr_allocs;			/* live allocations */

	atomic64_t next_id;
	atomic64_t stats[NPU_STAT_NR];
	atomic_t fail_alloc;		/* injected failures still pending */
	struct dentry *dbg_dir;

	/*
	 * Test knob (debugfs stream_hold): 0, NPU_HOLD_ALL, or one stream's
	 * npu_stream_hold_key(); held stream workers wait before each op.
	 */
	u64 stream_hold;		/* READ_ONCE/WRITE_ONCE */
	wait_queue_head_t hold_wq;
};

enum npu_win_state {
	NPU_WIN_NONE,		/* never mapped */
	NPU_WIN_MAPPED,
	NPU_WIN_CLOSED,		/* was mapped and unmapped: never again */
};

struct npu_ctx {
	struct npu_dev *ndev;
	struct mm_struct *mm;		/* mmgrab'ed owner */
	pid_t pid;			/* owner tgid, initial pid namespace */
	struct address_space *mapping;	/* f_mapping the window lives in */
	unsigned int index;
	pgoff_t pgoff_base;		/* vm_pgoff of the window */
	struct list_head node;		/* in npu_dev.ctx_list */

	struct mutex lock;		/* everything below */
	enum npu_win_state win_state;
	unsigned long win_start;	/* valid while NPU_WIN_MAPPED */
	unsigned long win_end;
	struct maple_tree va_mt;	/* VA -> npu_map, external lock */
	struct list_head maps;		/* npu_map.node, oldest first */
	u64 nr_maps;
	u64 used;			/* bytes charged by this context */
	struct xarray handles;		/* id -> npu_handle */
	struct list_head resvs;		/* npu_map.node of reservations */
	struct list_head vmaps;		/* npu_map.node of VMM mappings */
	u64 nr_handles;
	u32 next_handle;		/* xa_alloc_cyclic cursor */

	/* Streams and events (npu_stream.c) */
	spinlock_t sq_lock;		/* op lists and counters below */
	wait_queue_head_t sq_wq;	/* an op completed / cancel */
	struct xarray streams;		/* id -> npu_stream (own xa_lock) */
	struct xarray events;		/* id -> npu_event (own xa_lock) */
	u32 next_stream, next_event;	/* xa_alloc_cyclic cursors */
	atomic_t nr_streams, nr_events;
	u64 sq_queued;			/* ops queued and not completed */
	bool cancel;			/* release: drop queued work */
};

struct npu_phys {
	struct kref ref;
	struct npu_dev *ndev;
	enum npu_sim_page_kind kind;
	unsigned int shift;		/* backing page size = 1 << shift */
	u32 flags;			/* NPU_SIM_ALLOC_P2P */
	u64 size;			/* bytes, multiple of the page size */
	unsigned long nr_pages;		/* backing pages of 1 << shift */
	struct page **pages;		/* head page of each backing page */
	struct page *page0;		/* storage for pages when nr_pages == 1 */
	struct file *file;		/* hugetlbfs tmpfile, NULL for normal */
	/* VMM objects (MallocPhysical); zero for MEM_ALLOC */
	u32 location;			/* enum npu_sim_location */
	u32 location_id;
	u32 mem_attr;
	pid_t pid;			/* creator tgid */
};

/* Internal npu_phys.flags bit: host memory, not charged to the device. */
#define NPU_PHYS_HOST		(1U << 31)

enum npu_map_type {
	NPU_MAP_ALLOC = 0,		/* MEM_ALLOC (zeroed by kzalloc) */
	NPU_MAP_RESV,			/* reservation: phys == NULL */
	NPU_MAP_VMM,			/* VMM_MAP inside a reservation */
};

struct npu_share;
struct seq_file;

struct npu_handle {
	u32 id;
	u32 holds;			/* user references (PHYS_FREE drops) */
	u32 nr_maps;			/* live VMM mappings of it */
	bool imported;
	struct npu_phys *phys;		/* referenced */
	struct npu_share *share;	/* exported as (under npu_share_lock) */
};

struct npu_map {
	struct kref ref;
	struct npu_phys *phys;
	u64 phys_off;			/* byte offset of va in phys */
	unsigned long va;
	u64 len;			/* bytes mapped: device accessible */
	u32 flags;			/* NPU_SIM_ALLOC_* */

	/* What the malloc family recorded (debugfs). */
	u64 id;
	pid_t pid;
	u64 size;
	u64 footprint;
	u32 policy;
	u32 api;
	struct list_head node;		/* in npu_ctx.maps / resvs / vmaps */

	/* VMM */
	enum npu_map_type type;
	struct npu_map *resv;		/* VMM: its reservation */
	struct npu_handle *handle;	/* VMM: its handle (ctx->lock) */
	u64 nr_mapped;			/* RESV: VMM mappings inside */
	u32 access;			/* VMM: NPU_SIM_ACCESS_* */
	u32 access_loc;
	u32 access_loc_id;

	atomic_t nr_queued;		/* stream ops still holding this map */

	struct npu_uvm *uvm;		/* managed range (npu_uvm.c), or NULL */
};

/* npu_drv.c */
extern unsigned long npu_window_size;
extern struct npu_dev *npu_devs[NPU_SIM_MAX_DEVICES];
extern unsigned int npu_num_devs;

/*
 * UAPI rule: "out" fields must be zero on input.  True when any byte of
 * the fields @first..@last (in declaration order) of *@args is set.
 */
#define npu_uapi_out_set(args, first, last)				\
	(memchr_inv((const u8 *)(args) + offsetof(typeof(*(args)), first), 0, \
		    offsetofend(typeof(*(args)), last) -		\
		    offsetof(typeof(*(args)), first)) != NULL)

static inline void npu_stat_inc(struct npu_dev *ndev, enum npu_stat s)
{
	atomic64_inc(&ndev->stats[s]);
}

void npu_dev_set_host_access(struct npu_dev *ndev, bool on);

/* npu_mem.c: allocation objects and capacity accounting */
int npu_ioctl_mem_alloc(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_mem_free(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_mem_info(struct npu_ctx *ctx, void __user *uarg);
void npu_mem_ctx_teardown(struct npu_ctx *ctx);
void npu_map_put(struct npu_map *map);

static inline void npu_map_get(struct npu_map *map)
{
	kref_get(&map->ref);
}

struct page *npu_phys_page(struct npu_phys *phys, u64 off);

/* npu_hugetlbfs.c: 2 MiB / 1 GiB backing from the hugetlb pools */
int npu_hugetlbfs_init(void);
void npu_hugetlbfs_exit(void);
bool npu_hugetlbfs_available(enum npu_sim_page_kind kind);
int npu_hugetlbfs_fill(struct npu_phys *phys);
void npu_hugetlbfs_release(struct npu_phys *phys);
void npu_hugetlbfs_pool(enum npu_sim_page_kind kind, u64 *total, u64 *free);

/* npu_pages.c: normal 4 KiB backing */
int npu_pages_fill(struct npu_phys *phys);
void npu_pages_release(struct npu_phys *phys);

/* npu_va.c: VA window and the per-context VA allocator */
extern const struct vm_operations_struct npu_va_vm_ops;
int npu_va_mmap(struct file *filp, struct vm_area_struct *vma);
unsigned long npu_va_get_unmapped_area(struct file *filp, unsigned long addr,
				       unsigned long len, unsigned long pgoff,
				       unsigned long flags);
void npu_va_ctx_init(struct npu_ctx *ctx);
void npu_va_ctx_destroy(struct npu_ctx *ctx);
int npu_va_insert(struct npu_ctx *ctx, struct npu_map *map, u64 align);
void npu_va_remove(struct npu_ctx *ctx, struct npu_map *map);
struct npu_map *npu_va_lookup(struct npu_ctx *ctx, unsigned long addr);
void npu_va_zap(struct npu_ctx *ctx, unsigned long start, u64 len);

int npu_va_reserve(struct npu_ctx *ctx, struct npu_map *resv, u64 align,
		   unsigned long fixed);
void npu_va_release(struct npu_ctx *ctx, struct npu_map *resv);
int npu_va_map_in(struct npu_ctx *ctx, struct npu_map *map);
void npu_va_unmap_in(struct npu_ctx *ctx, struct npu_map *map);
struct npu_map *npu_va_entry(struct npu_ctx *ctx, unsigned long addr);

/* npu_mem.c, for npu_vmm.c */
int npu_phys_create(struct npu_dev *ndev, enum npu_sim_page_kind kind,
		    u64 footprint, u32 flags, struct npu_phys **out);
void npu_phys_put(struct npu_phys *phys);

static inline void npu_phys_get(struct npu_phys *phys)
{
	kref_get(&phys->ref);
}

/* npu_vmm.c: reservations, physical handles, VMM mappings */
int npu_ioctl_vmm_reserve(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_vmm_release(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_phys_alloc(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_phys_free(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_vmm_map(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_vmm_unmap(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_vmm_set_access(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_vmm_query(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_phys_info(struct npu_ctx *ctx, void __user *uarg);
void npu_vmm_ctx_init(struct npu_ctx *ctx);
void npu_vmm_ctx_teardown(struct npu_ctx *ctx);
struct npu_handle *npu_handle_lookup(struct npu_ctx *ctx, u32 id);
int npu_handle_add(struct npu_ctx *ctx, struct npu_phys *phys, bool imported,
		   u32 *id);

/* npu_ipc.c: shareable handles */
int npu_ioctl_share_export(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_share_set_pids(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_share_import(struct npu_ctx *ctx, void __user *uarg);
void npu_share_unexport(struct npu_handle *h);
void npu_ipc_show(struct seq_file *m, struct npu_dev *ndev);

/* npu_copy.c: the "DMA engine" */
enum npu_xfer_op {
	NPU_XFER_H2D = NPU_SIM_COPY_H2D,
	NPU_XFER_D2H = NPU_SIM_COPY_D2H,
	NPU_XFER_D2D = NPU_SIM_COPY_D2D,
	NPU_XFER_SET,
};

struct npu_xfer;
struct npu_xfer *npu_xfer_prepare(struct npu_ctx *ctx, enum npu_xfer_op op,
				  u64 dst, u64 dpitch, u64 src, u64 spitch,
				  u64 width, u64 height, u8 value);
int npu_xfer_exec(struct npu_xfer *x, const bool *abort);
bool npu_xfer_uses_host(const struct npu_xfer *x);
void npu_xfer_mark_queued(struct npu_xfer *x, int delta);
void npu_xfer_free(struct npu_xfer *x);
int npu_ioctl_memcpy(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_memcpy2d(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_memset(struct npu_ctx *ctx, void __user *uarg);

/* npu_stream.c: streams, events, asynchronous work */
int npu_stream_init(void);
void npu_stream_exit(void);
void npu_stream_ctx_init(struct npu_ctx *ctx);
void npu_stream_ctx_teardown(struct npu_ctx *ctx);
int npu_stream_hold_parse(struct npu_dev *ndev, char *buf);
void npu_stream_hold_print(struct seq_file *m, struct npu_dev *ndev);
void npu_stream_show(struct seq_file *m, struct npu_dev *ndev);
void npu_event_show(struct seq_file *m, struct npu_dev *ndev);
int npu_ioctl_stream_create(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_stream_destroy(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_stream_submit(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_stream_sync(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_event_create(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_event_destroy(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_event_sync(struct npu_ctx *ctx, void __user *uarg);

/* npu_uvm.c: managed (UVM) memory; state under npu_ctx.lock */
struct npu_uvm;
struct vm_fault;
void npu_uvm_destroy(struct npu_uvm *u);
vm_fault_t npu_uvm_fault(struct npu_ctx *ctx, struct npu_map *map,
			 struct vm_fault *vmf);
vm_fault_t npu_uvm_mkwrite(struct npu_ctx *ctx, struct npu_map *map,
			   struct vm_fault *vmf);
int npu_uvm_dev_range(struct npu_ctx *ctx, struct npu_map *map, u64 va,
		      u64 size, bool write);
struct npu_phys *npu_uvm_backing(struct npu_ctx *ctx, struct npu_map *map,
				 unsigned long addr, u64 *off);
int npu_ioctl_managed_alloc(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_managed_advise(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_managed_touch(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_managed_query(struct npu_ctx *ctx, void __user *uarg);
struct npu_map *npu_uvm_prefetch_prepare(struct npu_ctx *ctx, u64 va,
					 u64 size, u32 loc, u32 loc_id);
int npu_uvm_prefetch_exec(struct npu_ctx *ctx, struct npu_map *map, u64 va,
			  u64 size, u32 loc);
void npu_uvm_show(struct seq_file *m, struct npu_dev *ndev);

/* npu_debugfs.c */
void npu_debugfs_init(void);
void npu_debugfs_exit(void);
void npu_debugfs_dev_init(struct npu_dev *ndev);
const char *npu_kind_name(enum npu_sim_page_kind kind);

#endif /* NPU_SIM_H */
