/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npu_sim: emulated Ascend-style NPU memory device - core definitions.
 *
 * Files, lowest layer first (a file calls only into files above it in this
 * list, never back up):
 *   npu_profile.c  the product profile of this load (pure lookup)
 *   npu_trace.c    tracepoint definitions (npu_trace.h; they call nothing)
 *   npu_limit.c    per-process accounts and limits of device memory
 *   npu_fault.c    seeded fault injection per context
 *   npu_copy_remap.c  moves through a second mapping where TCG's TLB would thrash
 *   npu_hugetlbfs.c, npu_pages.c  backing pages (2M/1G hugetlb, 4 KiB)
 *   npu_managed_state.c  per-block rules of managed memory (pure logic)
 *   npu_phys.c     npu_phys: physical memory objects, capacity charging
 *   npu_va.c       the per-context VA allocator (maple tree)
 *   npu_check.c    CHECK_SITE call-site tags, record of strict-mode host faults
 *   npu_window.c   the window VMA's handlers: mmap, host faults, PTE zap
 *   npu_map.c      npu_map: constructor, roles, unlink, release
 *   npu_key.c      the machine-wide key table: shares, IPC keys, notifies
 *   npu_handle.c   per-context physical handles
 *   npu_dev.c      npu_dev: registry, sysfs, context list, host access,
 *                  a context's last reference (npu_ctx_put)
 *   npu_peer.c     PEER_ACCESS, cross-device rules and per-pair counters
 *   npu_managed.c  MANAGED_* ioctls and the managed role
 *   npu_reduce.c   element arithmetic of OP_REDUCE (pure)
 *   npu_copy.c     MEMCPY/MEMCPY2D/MEMSET and the copy engine
 *   npu_memops.c   checks and set-up of OP_SET (32-bit), OP_REDUCE, OP_CMO
 *   npu_mem_small.c  sub-page allocations: slots of a context's small pages
 *   npu_mempool.c  MEMPOOL_* ioctls: stream-ordered pools of linear blocks
 *   npu_mem.c      MEM_ALLOC/MEM_FREE/MEM_INFO
 *   npu_vmm.c      VMM_* and PHYS_* ioctls
 *   npu_share.c    SHARE_* ioctls
 *   npu_ipc.c      IPC_* ioctls (aclrtIpcMem*)
 *   npu_host.c     HOST_REGISTER / HOST_UNREGISTER (aclrtHostRegister)
 *   npu_event_ipc.c  the shared record counters of IPC events, their keys
 *   npu_report.c   host callback reports and stream subscriptions
 *   npu_notify.c   NOTIFY_* ioctls, the state NOTIFY_RECORD / NOTIFY_WAIT
 *                  ops of the stream engine work on (1.9)
 *   npu_graph_flow.c  control-flow programs of graphs: checked at create,
 *                  prepared at launch, run as one op of the stream engine
 *                  (branches, switches, jumps), its body entries through
 *                  the engine's struct npu_flow_ops
 *   npu_stream.c   STREAM_* and EVENT_* ioctls, the stream engine
 *   npu_callback.c CB_* ioctls: host threads take and finish reports
 *   npu_graph.c    GRAPH_* ioctls: graphs of stream operations, queued as
 *                  a whole by the stream engine
 *   npu_ctx.c      a context's life: open, owner gone, release; the
 *                  window's vm_operations (its close is "owner gone")
 *   npu_debugfs.c  /sys/kernel/debug/npu_sim
 *   npu_drv.c      module parameters, file operations, ioctl table
 *   npu_uapi_check.c  build-time check of the UAPI layout (no code)
 *
 * Objects
 *   npu_dev   one /dev/npu_simN: capacity, usage counters, open contexts.
 *   npu_ctx   one open file: owner mm, VA window, maple tree of mappings.
 *             kref'd: the file holds one reference, a queued op working
 *             in another context's window (a peer copy) holds one, so
 *             no queued op holds a struct file and a release never waits
 *             for another file's queue.
 *   npu_phys  a physical memory object: a run of backing pages of one kind
 *             (normal / 2M / 1G hugetlb), charged against the capacity of
 *             its device from creation until its last reference is gone.
 *   npu_map   a VA range of one context, in one role (enum npu_map_role):
 *             a linear allocation, a reservation, a VMM mapping of a
 *             handle, a managed range, an IPC import or registered host
 *             memory.  The role decides which union member is valid and
 *             which npu_map_ops serve host faults and the copy engine.
 *   npu_small_page  a 4 KiB npu_phys of one context cut into equal slots,
 *             each a linear npu_map of its own (allocations <= 2 KiB).
 *   npu_handle a physical handle of one context: an id in npu_ctx.handles
 *             naming a referenced npu_phys.
 *   npu_key   a machine-wide random key naming exported pages, the first
 *             member of an npu_share (an exported handle) or an
 *             npu_ipc_key (an exported range of an allocation); or,
 *             without pages, an IPC event's shared counters.
 *   npu_stream an in-order queue of npu_ops of one context, run by a
 *             kthread work item of one of the context's stream threads
 *             while it holds a running slot of its user (npu_stream_user);
 *             npu_event a recordable
 *             marker.  Both kref'd, found by
 *             id in npu_ctx.streams / npu_ctx.events.
 *   npu_notify a device sync object with a machine-wide id (npu_notify.c),
 *             kref'd, held by its creator's and importers' npu_ctx.notifies.
 *
 * A context's life (npu_ctx.c): open initialises it; when its owner can no
 * longer use it (the window closes: munmap, exec or exit of the owner; or
 * the owner's mm goes, window or not: an mmu notifier) its queued stream
 * work is cancelled and its memory freed, even while a forked child keeps
 * the file open; release tears down the rest; the struct goes with its
 * last reference.
 *
 * Lifetime: npu_map and npu_phys are kref'd.  The context's maple tree and
 * map list own one reference to each map; a copy takes its own references
 * on the maps it touches (under npu_ctx.lock), so MEM_FREE or release may
 * drop the tree's reference while a copy is running; the pages then go
 * away when the copy puts its reference.  A map owns one reference to its
 * phys object.
 *
 * Lock order (outermost first; the only order anywhere in the driver):
 *   mm->mmap_lock          (held by the mm core around ->mmap, ->fault,
 *                           ->close; MANAGED_ADVISE takes it to map blocks)
 *   npu_ctx.life_lock      (mutex, npu_ctx.c: "owner gone" against release)
 *   npu_dev.ctx_lock       (mutex: the device's context list)
 *   npu_limit_lock         (mutex, npu_limit.c: the table of accounts;
 *                           taken at open, by debugfs "limits" and by the
 *                           last put of an account: at release, or at the
 *                           last put of an npu_phys it charged, which is
 *                           never made under an npu_ctx.lock)
 *   npu_stream_users_lock  (mutex, npu_stream.c: the table of users'
 *                           running slots; open and release only)
 *   npu_ctx.sq_workers_lock (mutex, npu_stream.c: creating a context's
 *                           stream threads, taken alone in STREAM_CREATE;
 *                           only the kthread and cgroup code's locks inside)
 *   npu_ctx.pool_lock      (mutex, npu_mempool.c: the context's memory
 *                           pools and their blocks; taken by the MEMPOOL
 *                           ioctls, MEM_FREE, STREAM_SUBMIT of and a stream
 *                           worker running OP_POOL_FREE, the syncs'
 *                           threshold trim, debugfs "mempools" (under
 *                           npu_dev.ctx_lock) and teardown)
 *   npu_ctx.lock           (rw_semaphore: VA window, maple tree, map
 *                           lists, ctx usage, handles, managed block state;
 *                           held for write but by the slot paths of
 *                           npu_mem_small.c: alloc, free, small copy,
 *                           VMM_QUERY)
 *   npu_key_lock           (mutex, npu_key.c: the machine-wide key table)
 *   xa_lock of npu_notifies, (npu_notify.c: the machine's notifies; a
 *   of npu_ctx.notifies     file's notifies; npu_notify.lock, a spinlock,
 *   npu_notify.lock         leaf: a notify's state and waits list)
 *   hugetlbfs inode and    (vfs_fallocate() of a memory pool's block runs
 *   hugetlb fault locks     under npu_ctx.pool_lock)
 *   i_mmap_rwsem, PTLs     (inside unmap_mapping_range, vmf_insert_pfn_prot,
 *                           apply_to_page_range of a managed block)
 *   xa_lock of npu_ctx.streams / .events
 *   xa_lock of npu_ctx.graphs (npu_graph.c: the file's graphs; a leaf,
 *                           nothing else is taken inside it)
 *   xa_lock of npu_ctx.stop_ctxs (npu_stream.c: STOP-mode contexts; a
 *                           leaf, taken alone by STREAM_CTL SET_MODE)
 *   npu_ctx.sq_lock        (spinlock, npu_stream.c: op lists, stream and
 *                           event counters, callback reports and
 *                           subscriptions (npu_report.c); taken inside the
 *                           xa_locks above by STREAM_SYNC of all streams,
 *                           debugfs and CB_SUBSCRIBE)
 *   npu_event_ipc.lock     (spinlock, npu_event_ipc.c: an IPC event's
 *                           counters and parked waits; inside sq_lock)
 *   npu_stream_user.lock,  (spinlocks, npu_stream.c, leaves: a user's
 *   npu_value_lock          running slots and ready streams; the parked
 *                           VALUE_WAIT streams of the machine)
 *   npu_small_shard.lock   (spinlock, npu_mem_small.c: one shard's small
 *                           pages and slot list, with npu_ctx.lock held
 *                           shared; only cap_lock inside)
 *   npu_dev.cap_lock       (spinlock: capacity and usage counters,
 *                           npu_ctx.peaks, and the bytes and own limit of
 *                           the device's accounts (npu_proc), so a charge
 *                           takes the device and the account in one round;
 *                           nothing is taken inside it; the usage
 *                           counters' writers also bump cap_seq, so
 *                           MEM_INFO reads them without the lock)
 *   npu_fault_state.lock, npu_dev.fault_lock,
 *   npu_check_lock         (spinlocks, leaves: a context's PRNG, a
 *                           device's fault setting, the host-fault report
 *                           ring of npu_check.c)
 * Objects a process makes through its file (maps, handles, keys, streams,
 * events, ops, contexts) are allocated with GFP_KERNEL_ACCOUNT: charged to
 * its memory cgroup like the normal backing pages.
 *
 * Stream workers hold no lock while they execute an op; submit prepares an
 * op (taking npu_ctx.lock) before it takes npu_ctx.sq_lock to queue it.
 * A wait op (VALUE_WAIT, event WAIT) whose condition is not met parks its
 * stream instead of holding a worker; at most npu_stream_slots streams of
 * one user run at a time.  A context's streams run on its own kernel
 * threads (up to NPU_CTX_STREAM_WORKERS), which join the cgroups of the
 * process that created the first stream they serve, so their CPU time is
 * that process's; they charge what they allocate to the memory cgroup of
 * the context's opener (set_active_memcg).
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
#include <linux/percpu.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include <asm/unaligned.h>

#include <misc/npu_sim.h>

#define NPU_SIM_NAME		"npu_sim"
#define NPU_SIM_MAX_DEVICES	16

/* Unmapped bytes kept after every allocation so ranges are never adjacent. */
#define NPU_VA_GUARD		PAGE_SIZE

/*
 * Bytes copied between two checks for rescheduling and fatal signals, and
 * the largest piece copied at once (TCG's software TLB copes better with
 * 256 KiB than with 1 MiB pieces of a huge page: BENCHMARKS.md).
 */
#define NPU_COPY_CHUNK		SZ_256K

/*
 * Linear allocations of at most NPU_SMALL_MAX bytes of footprint share
 * pages: slots of a multiple of NPU_SMALL_ALIGN bytes (the alignment
 * aclrtMalloc promises), one size class per multiple.
 */
#define NPU_SMALL_MAX		2048
#define NPU_SMALL_ALIGN		64
#define NPU_SMALL_CLASSES	(NPU_SMALL_MAX / NPU_SMALL_ALIGN)

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
	NPU_STAT_FAIL_LIMIT,		/* over a per-process limit (1.6) */
	NPU_STAT_NR,
};

/* One CPU's share of a device's event counters (npu_stat_inc). */
struct npu_stats {
	u64 v[NPU_STAT_NR];
	/* Live allocations: +1 per one made here, -1 per one freed here. */
	s64 nr_allocs;
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

	/* The usage counters below, and the bytes and limits of the accounts. */
	spinlock_t cap_lock;
	/* Bumped by their writers (under cap_lock): MEM_INFO's read. */
	seqcount_spinlock_t cap_seq;
	u64 used;			/* all charged bytes */
	u64 used_kind[NPU_KIND_NR];
	u64 used_p2p;
	atomic64_t next_id;
	/* Per CPU: every call of every thread counts; debugfs sums them. */
	struct npu_stats __percpu *stats;
	atomic_t fail_alloc;		/* injected failures still pending */
	struct dentry *dbg_dir;

	/*
	 * Test knob (debugfs stream_hold): 0, NPU_HOLD_ALL, or one stream's
	 * npu_stream_hold_key(); held stream workers wait before each op.
	 */
	u64 stream_hold;		/* READ_ONCE/WRITE_ONCE */
	wait_queue_head_t hold_wq;

	/* Per-process limit in bytes, 0 = none (sysfs proc_mem_limit_bytes). */
	u64 proc_mem_limit;		/* READ_ONCE/WRITE_ONCE */
	/* Fault injection every new context starts with (debugfs "faults"). */
	spinlock_t fault_lock;
	u64 fault_seed;
	u32 fault_rate;			/* parts per million, 0 = off */
	u32 fault_ops;			/* mask of 1 << enum npu_sim_fault_op */
};

/*
 * The device memory account of one process (thread group) on one device,
 * shared by its contexts there and by every npu_phys it charged
 * (npu_limit.c).
 */
struct npu_proc {
	struct kref ref;
	struct list_head node;		/* in the table, under npu_limit_lock */
	struct npu_dev *ndev;
	struct pid *tgid;		/* referenced: the key */
	pid_t pid;
	/* The two below: under ndev->cap_lock (one round with the device's). */
	u64 used;			/* bytes charged */
	u64 own_limit;			/* set by the process, 0 = none */
};

/* Fault injection state of one context (npu_fault.c). */
struct npu_fault_state {
	spinlock_t lock;
	u64 seed;
	u64 state;			/* splitmix64 state */
	u32 rate;			/* parts per million, 0 = off */
	u32 ops;			/* mask of 1 << enum npu_sim_fault_op */
	u64 calls;			/* eligible operations seen */
	u64 injected;			/* of them failed */
};

enum npu_win_state {
	NPU_WIN_NONE,		/* never mapped */
	NPU_WIN_MAPPED,
	NPU_WIN_CLOSED,		/* was mapped and unmapped: never again */
};

struct mem_cgroup;
struct npu_stream_user;
struct kthread_worker;
struct npu_small_page;

/* Stream threads of one context: streams beyond share them by id. */
#define NPU_CTX_STREAM_WORKERS	4

/*
 * A context's small pages (npu_mem_small.c) are split by thread into
 * shards, so that threads allocating and freeing different slots meet on
 * no lock: a thread takes slots from its shard's pages (npu_small_shard_of())
 * and a slot's free goes to its page's shard.  Shard state is under
 * @lock with npu_ctx.lock held shared, or under npu_ctx.lock held for write.
 */
#define NPU_SMALL_SHARDS	8

struct npu_small_shard {
	spinlock_t lock;
	u32 idle;			/* bit per class: an idle page kept */
	/*
	 * A freed slot's map for the next slot: set under @lock (or with
	 * npu_ctx.lock held for write), taken by xchg before any lock.
	 */
	struct npu_map *spare;
	struct list_head maps;		/* npu_map.node of live slots */
	/* Pages with a free slot, by slot size. */
	struct hlist_head partial[NPU_SMALL_CLASSES];
} ____cacheline_aligned_in_smp;

struct npu_ctx {
	struct kref ref;		/* npu_ctx_get / npu_ctx_put */
	struct mmu_notifier owner_mn;	/* the owner's mm going (npu_ctx.c) */
	struct mutex life_lock;		/* owner gone vs release, @released */
	bool released;			/* the file is gone */
	struct npu_dev *ndev;
	struct mm_struct *mm;		/* mmgrab'ed owner */
	pid_t pid;			/* owner tgid, initial pid namespace */
	struct address_space *mapping;	/* f_mapping the window lives in */
	unsigned int index;
	pgoff_t pgoff_base;		/* vm_pgoff of the window */
	struct list_head node;		/* in npu_dev.ctx_list */

	/*
	 * Everything below.  Held for write by every path but the slot fast
	 * paths of npu_mem_small.c, which hold it shared and then their
	 * shard's lock (npu_small_shard).
	 */
	struct rw_semaphore lock;
	enum npu_win_state win_state;
	unsigned long win_start;	/* valid while NPU_WIN_MAPPED */
	unsigned long win_end;
	bool win_ptes;			/* a host PTE may exist in the window */
	/* VA -> npu_map, or a small page (tagged entry, npu_va.c) */
	struct maple_tree va_mt;	/* external lock */
	struct list_head maps;		/* npu_map.node, oldest first */
	u64 nr_va;			/* entries in va_mt (npu_va.c) */
	struct npu_map *va_resv_hint;	/* a reservation in va_mt, or NULL */
	struct npu_small_page *va_small_hint;	/* a small page in va_mt */
	/* Small pages by VA page, a cache before the tree (npu_va.c) */
	struct npu_small_page **va_small_tab;
	unsigned long va_small_mask;	/* entries - 1 */
	unsigned long nr_small;		/* small pages in va_mt */
	u64 nr_ipc_keys;		/* in ipc_keys */
	u64 nr_maps;			/* on @maps: WRITE_ONCE */
	/*
	 * Live slots (on their shards, not on @maps) and bytes charged by
	 * this context: atomics, as threads of different shards change
	 * them at once (a shard sum would cost every reader more).
	 */
	atomic_long_t nr_slots;
	atomic64_t used;
	struct xarray handles;		/* id -> npu_handle */
	struct npu_handle *handle_hint;	/* in handles, found last, or NULL */
	struct list_head resvs;		/* npu_map.node of reservations */
	struct list_head vmaps;		/* npu_map.node of VMM mappings */
	struct npu_map *vmap_spare;	/* unmapped, for the next map (lock) */
	u64 nr_handles;
	u32 next_handle;		/* xa_alloc_cyclic cursor */
	u32 peers;			/* bit i: access to device i's memory */
	struct list_head imports;	/* npu_map.node: IPC imports, host regs */
	struct list_head ipc_keys;	/* npu_ipc_key.ctx_node */

	/* Stream-ordered memory pools (npu_mempool.c) */
	struct mutex pool_lock;		/* @pools and everything in them */
	struct list_head pools;		/* npu_mempool.node */

	/* Streams and events (npu_stream.c) */
	spinlock_t sq_lock;		/* op lists and counters below */
	wait_queue_head_t sq_wq;	/* an op completed / cancel */
	struct xarray streams;		/* id -> npu_stream (own xa_lock) */
	struct xarray events;		/* id -> npu_event (own xa_lock) */
	u32 next_stream, next_event;	/* xa_alloc_cyclic cursors */
	atomic_t nr_streams, nr_events;
	u64 sq_queued;			/* ops queued and not completed */
	u64 sq_aborts;			/* STREAM_CTL ABORTs of any stream */
	struct list_head sq_parked;	/* streams parked on an event WAIT */
	struct list_head sq_streams;	/* npu_stream.ctx_node: live streams */
	/*
	 * Library contexts (STREAM_CREATE @ctx_id) whose failure mode is STOP:
	 * ctx_id -> struct npu_stop_ctx (npu_stream.c); added by SET_MODE
	 * STOP, freed only at teardown (the runtime keeps the mode and the
	 * failure per context).  Own xa_lock, taken alone; read under sq_lock
	 * with xa_load (RCU; an entry lives as long as the file).
	 */
	struct xarray stop_ctxs;
	struct npu_stream_user *suser;	/* the opener's running slots */
	/* Threads that run the streams, in their creator's cgroups (1.9). */
	struct mutex sq_workers_lock;	/* creating a worker */
	struct kthread_worker *sq_workers[NPU_CTX_STREAM_WORKERS];
	unsigned int next_worker;	/* sq_workers_lock */
	/* Host callbacks (npu_report.c), under sq_lock: */
	struct list_head cb_reports;	/* npu_report: pending callbacks */
	struct list_head cb_binds;	/* stream subscriptions */
	u64 cb_next;			/* last report id given */
	wait_queue_head_t cb_wq;	/* report posted, subscription gone */
	/* Notifies held: id -> npu_notify, referenced (npu_notify.c) */
	struct xarray notifies;
	atomic_t nr_notifies;
	/* Graphs: id -> npu_graph, own xa_lock (npu_graph.c) */
	struct xarray graphs;
	atomic_t nr_graphs;
	struct mem_cgroup *memcg;	/* the opener's, referenced, or NULL */

	struct npu_proc *proc;		/* the process's account (1.6) */
	/* Usage peaks seen by this context (MEM_PEAKS), under cap_lock. */
	struct npu_sim_mem_peaks peaks;
	struct npu_fault_state fault;	/* fault injection (1.6) */

	/*
	 * Small pages by the thread's shard (npu_mem_small.c).  Last, so
	 * that the fields above keep to their lines and the whole context
	 * to one page (npu_ctx.c).
	 */
	struct npu_small_shard small[NPU_SMALL_SHARDS];
};

struct npu_phys {
	struct kref ref;
	struct npu_dev *ndev;
	enum npu_sim_page_kind kind;
	unsigned int shift;		/* backing page size = 1 << shift */
	u32 flags;			/* NPU_SIM_ALLOC_P2P, NPU_PHYS_* */
	u64 size;			/* bytes, multiple of the page size */
	unsigned long nr_pages;		/* backing pages of 1 << shift */
	struct page **pages;		/* head page of each backing page */
	struct page *page0;		/* storage for pages when nr_pages == 1 */
	struct file *file;		/* hugetlbfs tmpfile, NULL for normal */
	struct npu_phys *view_of;	/* NPU_PHYS_VIEW: whose pages, referenced */
	/* VMM objects (MallocPhysical); zero for MEM_ALLOC */
	u32 location;			/* enum npu_sim_location */
	u32 location_id;
	u32 mem_attr;
	pid_t pid;			/* creator tgid */
	struct mm_struct *mm;		/* pinned_vm charged (host memory, pinned user pages) */
	struct npu_proc *proc;		/* charged account, referenced, or NULL */
	bool idle;			/* charges given back (npu_phys_discharge) */
};

/* Internal npu_phys.flags bits. */
#define NPU_PHYS_HOST		(1U << 31)	/* host memory, not charged */
#define NPU_PHYS_USER		(1U << 30)	/* pinned pages of a process */
#define NPU_PHYS_USER_WRITE	(1U << 29)	/* ... pinned for writing */
#define NPU_PHYS_VIEW		(1U << 28)	/* pages of view_of, none of its own */

struct npu_share;
struct seq_file;
struct pid;

/* A whitelist entry: the number given and its process (NULL: none). */
struct npu_share_pid {
	pid_t nr;
	struct pid *pid;		/* referenced */
};
struct vm_fault;

struct npu_handle {
	u32 id;
	u32 holds;			/* user references (PHYS_FREE drops) */
	u32 nr_maps;			/* live VMM mappings of it */
	bool imported;
	struct npu_phys *phys;		/* referenced */
	/* An import counts for the importer (npu_handle.c): one of these. */
	struct mm_struct *pin_mm;	/* host memory: pinned_vm counted */
	u64 limit_bytes;		/* device memory: on ctx->proc */
	struct npu_share *share;	/* exported as, or NULL (ctx->lock) */
};

/* What a key of the machine-wide table names (npu_key.c). */
enum npu_key_kind {
	NPU_KEY_SHARE = 1,		/* SHARE_EXPORT: a physical handle */
	NPU_KEY_IPC,			/* IPC_EXPORT: a range */
	NPU_KEY_EVENT,			/* EVENT_EXPORT: an IPC event (1.9) */
	NPU_KEY_NOTIFY,			/* NOTIFY_EXPORT: a notify (no phys) (1.9) */
};

/*
 * A machine-wide key naming pages of an npu_phys, the first member of the
 * object of its kind.  Fixed from export on, except the whitelist and the
 * import count (under npu_key_lock).
 */
struct npu_key {
	struct hlist_node node;		/* in the key table */
	u64 key;
	enum npu_key_kind kind;
	struct npu_ctx *ctx;		/* exporting context */
	struct npu_dev *ndev;		/* of the exporting context */
	pid_t owner;			/* exporting tgid */
	u64 seq;			/* export number, shown for the key */
	struct npu_phys *phys;		/* referenced; NULL for an event or
					 * a notify
					 */
	struct kref *ref;		/* EVENT: its shared state; a claim
					 * takes a reference for the caller
					 */
	u32 obj_id;			/* NPU_KEY_NOTIFY: the notify's id */
	u64 phys_off;			/* exported pages of @phys */
	u64 len;
	u64 va_off;			/* exported address - its page */
	u64 size;			/* bytes exported */
	u32 flags;			/* NPU_SIM_SHARE_NO_PID_CHECK */
	u32 mem_flags;			/* NPU_SIM_ALLOC_READONLY or 0 */
	u32 nr_pids;
	struct npu_share_pid *pids;	/* whitelist */
	u64 imports;			/* successful claims so far */
};

/* An exported handle (SHARE_EXPORT); dies with the handle. */
struct npu_share {
	struct npu_key key;
	u32 handle_id;			/* in the exporting context */
};

/* An exported range of an allocation (IPC_EXPORT); dies at IPC_CLOSE. */
struct npu_ipc_key {
	struct npu_key key;
	struct list_head ctx_node;	/* in npu_ctx.ipc_keys, ctx->lock */
};

/* npu_key_drop() frees the object through its key. */
static_assert(offsetof(struct npu_share, key) == 0);
static_assert(offsetof(struct npu_ipc_key, key) == 0);

/* What a VA range of a context is; fixes the valid member of npu_map.u. */
enum npu_map_role {
	NPU_MAP_LINEAR = 1,		/* MEM_ALLOC: memory and its VA */
	NPU_MAP_RESERVATION,		/* VMM_RESERVE: VA only, phys NULL */
	NPU_MAP_VMM,			/* VMM_MAP of a handle in a reservation */
	NPU_MAP_MANAGED,		/* MANAGED_ALLOC: host + device copies */
	NPU_MAP_IMPORTED,		/* IPC_IMPORT: another process's memory */
	NPU_MAP_REGISTERED,		/* HOST_REGISTER: the caller's host pages */
};

struct npu_map;
struct npu_managed;

/*
 * Per-role operations.  A NULL host fault handler means the plain rule of
 * device memory: refused in strict mode, the backing page in host-access
 * mode (npu_window.c).
 */
struct npu_map_ops {
	vm_fault_t (*fault)(struct npu_ctx *ctx, struct npu_map *map,
			    struct vm_fault *vmf);
	vm_fault_t (*mkwrite)(struct npu_ctx *ctx, struct npu_map *map,
			      struct vm_fault *vmf);
	void (*destroy)(struct npu_map *map);	/* free the role's state */
	/* Give the VA back at unlink (ctx->lock); NULL: npu_va_erase(). */
	void (*unlink)(struct npu_ctx *ctx, struct npu_map *map);
	/*
	 * For the copy engine: a device access of [@va, @va + @size) about to
	 * happen (ctx->lock held); NULL: nothing to do first.
	 */
	int (*dev_access)(struct npu_ctx *ctx, struct npu_map *map, u64 va,
			  u64 size, bool write);
};

struct npu_map {
	struct kref ref;
	enum npu_map_role role;
	const struct npu_map_ops *ops;	/* NULL: no role-specific handling */
	struct npu_phys *phys;		/* NULL for a reservation */
	u64 phys_off;			/* byte offset of va in phys */
	unsigned long va;
	u64 len;			/* bytes mapped: device accessible */
	u32 flags;			/* NPU_SIM_ALLOC_* */
	u64 id;				/* LINEAR, MANAGED: allocation id */
	pid_t pid;			/* creator tgid */
	u64 size;			/* bytes the caller asked for */
	u64 footprint;			/* bytes backed before page rounding */
	struct list_head node;		/* in npu_ctx.maps / resvs / vmaps */
	atomic_t nr_queued;		/* stream ops still holding this map */
	u64 site;			/* CHECK_SITE tag of the library, 0: none */

	union {
		struct {		/* NPU_MAP_LINEAR */
			u32 policy;	/* aclrtMemMallocPolicy as given */
			u32 api;	/* enum npu_sim_alloc_api */
			/* A sub-page slot of this page (while linked), or NULL. */
			struct npu_small_page *small;
		} linear;
		struct {		/* NPU_MAP_RESERVATION */
			u64 nr_mapped;	/* VMM mappings inside */
			/*
			 * The mapping at each 2 MiB granule, in page-sized
			 * chunks made at the first map into them (npu_va.c);
			 * NULL before the first map.  ctx->lock.
			 */
			struct npu_map ***gran;
		} resv;
		struct {		/* NPU_MAP_VMM */
			struct npu_map *resv;		/* its reservation */
			struct npu_handle *handle;	/* ctx->lock */
			u32 access;	/* NPU_SIM_ACCESS_* */
			u32 access_loc;
			u32 access_loc_id;
			/*
			 * A host fault entered a PTE of it (ctx->lock): only
			 * then has its unmap PTEs to zap (fork copies only
			 * PTEs that exist).
			 */
			bool host_ptes;
		} vmm;
		struct npu_managed *managed;	/* NPU_MAP_MANAGED */
		struct {		/* NPU_MAP_IMPORTED */
			u64 key;	/* the IPC key it came from */
		} imported;
	} u;
};

/*
 * Whether any of the @n bytes at @p is set.  @n is a constant, so this is
 * a few loads and ORs in line (memchr_inv() is a call and a loop, and
 * under TCG every block of it costs).
 */
static __always_inline bool npu_bytes_set(const void *p, size_t n)
{
	u64 acc = 0;
	size_t i = 0;

	if (!__builtin_constant_p(n) || n > 64)
		return memchr_inv(p, 0, n);
	for (; i + 8 <= n; i += 8)
		acc |= get_unaligned((const u64 *)(p + i));
	if (n - i >= 4) {
		acc |= get_unaligned((const u32 *)(p + i));
		i += 4;
	}
	if (n - i >= 2) {
		acc |= get_unaligned((const u16 *)(p + i));
		i += 2;
	}
	if (n - i)
		acc |= *(const u8 *)(p + i);
	return acc;
}

/*
 * UAPI rule: "out" fields must be zero on input.  True when any byte of
 * the fields @first..@last (in declaration order) of *@args is set.
 */
#define npu_uapi_out_set(args, first, last)				\
	npu_bytes_set((const u8 *)(args) + offsetof(typeof(*(args)), first), \
		      offsetofend(typeof(*(args)), last) -		\
		      offsetof(typeof(*(args)), first))

/*
 * A stack object written whole before it is read: no zeroing of it per
 * call (CONFIG_INIT_STACK_ALL_ZERO clears each, a TB per word under TCG).
 */
#if __has_attribute(__uninitialized__)
#define npu_no_autoinit	__attribute__((__uninitialized__))
#else
#define npu_no_autoinit
#endif

static inline void npu_stat_inc(struct npu_dev *ndev, enum npu_stat s)
{
	this_cpu_inc(ndev->stats->v[s]);
}

/* Whether @ctx's device may access @other's memory (PEER_ACCESS). */
static inline bool npu_peer_allowed(struct npu_ctx *ctx, struct npu_dev *other)
{
	return other == ctx->ndev ||
	       (READ_ONCE(ctx->peers) & BIT(other->index));
}

/* npu_profile.c: the product profile (include/uapi/misc/npu_sim_profiles.h) */
/* Select by id at load; -EINVAL (and a pr_err listing the ids) if unknown. */
int npu_profile_select(const char *id);
unsigned int npu_profile_index(void);	/* enum npu_sim_profile_index */
const char *npu_profile_id(void);
const char *npu_profile_product(void);
const char *npu_profile_soc_name(void);
const char *npu_profile_mem_kind(void);	/* "HBM" or "DDR" */
unsigned int npu_profile_capacity_mib(void);
/* 0, or -EOPNOTSUPP for a policy item / attribute the product lacks. */
int npu_profile_check_alloc(u32 backing, u32 flags);
int npu_profile_check_phys(u32 page_kind, u32 mem_attr);
/* 0, or -EOPNOTSUPP for an OP_REDUCE kind / type the product lacks. */
int npu_profile_check_reduce(u32 kind, u32 type);
/* 0, or -EOPNOTSUPP on a product without CMO tasks. */
int npu_profile_check_cmo(void);
/* npu_limit.c: per-process device memory accounts and limits */
int npu_limit_ctx_init(struct npu_ctx *ctx);
void npu_limit_ctx_teardown(struct npu_ctx *ctx);
int npu_limit_charge(struct npu_proc *proc, u64 bytes);
void npu_limit_uncharge(struct npu_proc *proc, u64 bytes);

/* The smaller of two limits where 0 means none. */
static inline u64 npu_limit_min(u64 a, u64 b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return min(a, b);
}

/*
 * For a caller that holds @proc's device's cap_lock already (npu_phys.c:
 * one round for the device's charge and the account's): whether @bytes
 * more would take @proc past its limit, and the charge (+) or uncharge (-)
 * itself.
 */
static inline bool npu_limit_over_locked(struct npu_proc *proc, u64 bytes)
{
	u64 lim = npu_limit_min(READ_ONCE(proc->ndev->proc_mem_limit),
				proc->own_limit);

	lockdep_assert_held(&proc->ndev->cap_lock);
	return lim && (bytes > lim || proc->used > lim - bytes);
}

static inline void npu_limit_add_locked(struct npu_proc *proc, s64 bytes)
{
	lockdep_assert_held(&proc->ndev->cap_lock);
	WRITE_ONCE(proc->used, proc->used + bytes);
}
void npu_proc_put(struct npu_proc *proc);
u64 npu_limit_effective(struct npu_proc *proc);
void npu_limit_read(struct npu_proc *proc, u64 *effective, u64 *used);
int npu_ioctl_mem_limit(struct npu_ctx *ctx, void __user *uarg);
void npu_limit_show(struct seq_file *m, struct npu_dev *ndev);
extern struct device_attribute dev_attr_proc_mem_limit_bytes;

static inline void npu_proc_get(struct npu_proc *proc)
{
	kref_get(&proc->ref);
}

/* npu_fault.c: fault injection */
void npu_fault_ctx_init(struct npu_ctx *ctx);
int npu_fault_check(struct npu_ctx *ctx, enum npu_sim_fault_op op);
int npu_ioctl_fault_inject(struct npu_ctx *ctx, void __user *uarg);
int npu_fault_dev_parse(struct npu_dev *ndev, char *buf);
void npu_fault_dev_print(struct seq_file *m, struct npu_dev *ndev);

/* npu_dev.c: devices and their contexts */
extern struct npu_dev *npu_devs[NPU_SIM_MAX_DEVICES];
extern unsigned int npu_num_devs;
int npu_devs_create(unsigned int num, u64 capacity, bool host_access,
		    const struct file_operations *fops);
void npu_devs_destroy(void);
void npu_dev_set_host_access(struct npu_dev *ndev, bool on);
void npu_dev_add_ctx(struct npu_dev *ndev, struct npu_ctx *ctx);
void npu_dev_del_ctx(struct npu_dev *ndev, struct npu_ctx *ctx);
void npu_ctx_put(struct npu_ctx *ctx);

static inline void npu_ctx_get(struct npu_ctx *ctx)
{
	kref_get(&ctx->ref);
}

/*
 * Call @fn on every open context of @ndev under npu_dev.ctx_lock, and also
 * under the context's own lock when @ctx_locked.
 */
void npu_dev_walk_ctxs(struct npu_dev *ndev, bool ctx_locked,
		       void (*fn)(struct npu_ctx *, void *), void *data);

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
int npu_pages_pin(struct npu_phys *phys, unsigned long start, bool write);
int npu_pages_may_lock(u64 bytes);
int npu_pages_account(struct npu_phys *phys);
void npu_pages_unaccount(struct npu_phys *phys);
struct mm_struct *npu_pages_lock_bytes(u64 bytes);
void npu_pages_unlock_bytes(struct mm_struct *mm, u64 bytes);

/* npu_phys.c: physical memory objects and capacity */
int npu_phys_create(struct npu_dev *ndev, struct npu_proc *proc,
		    enum npu_sim_page_kind kind, u64 footprint, u32 flags,
		    struct npu_phys **out);
int npu_phys_create_user(struct npu_dev *ndev, unsigned long start,
			 u64 len, bool write, struct npu_phys **out);
int npu_phys_create_view(struct npu_dev *ndev, struct npu_proc *proc,
			 struct npu_phys *of, u64 off, u64 size,
			 struct npu_phys **out);
int npu_phys_errno(struct npu_dev *ndev, int ret);
void npu_phys_put(struct npu_phys *phys);
void npu_phys_discharge(struct npu_phys *phys, struct npu_ctx *ctx);
void npu_dev_peaks_fold(struct npu_ctx *ctx);
int npu_phys_recharge(struct npu_phys *phys);
struct page *npu_phys_page(struct npu_phys *phys, u64 off);
void npu_dev_count_allocs(struct npu_dev *ndev, long delta);
u64 npu_dev_nr_allocs(struct npu_dev *ndev);
const char *npu_kind_name(enum npu_sim_page_kind kind);

static inline void npu_phys_get(struct npu_phys *phys)
{
	kref_get(&phys->ref);
}

static inline bool npu_phys_is_host(const struct npu_phys *phys)
{
	return phys->flags & NPU_PHYS_HOST;
}

/* npu_va.c: the per-context VA allocator; everything under npu_ctx.lock */
extern unsigned int npu_max_objects;	/* per context and kind */
void npu_va_ctx_init(struct npu_ctx *ctx);
void npu_va_ctx_destroy(struct npu_ctx *ctx);
int npu_va_insert(struct npu_ctx *ctx, struct npu_map *map, u64 align);
int npu_va_sub_insert(struct npu_ctx *ctx);
void npu_va_sub_erase(struct npu_ctx *ctx);
void npu_va_erase(struct npu_ctx *ctx, struct npu_map *map);
struct npu_map *npu_va_lookup(struct npu_ctx *ctx, unsigned long addr);
struct npu_map *npu_va_entry(struct npu_ctx *ctx, unsigned long addr);
struct npu_map *npu_va_find(struct npu_ctx *ctx, unsigned long addr,
			    struct npu_small_page **sp);
int npu_va_small_insert(struct npu_ctx *ctx, struct npu_small_page *sp);
void npu_va_small_erase(struct npu_ctx *ctx, struct npu_small_page *sp);
int npu_va_reserve(struct npu_ctx *ctx, struct npu_map *resv, u64 align,
		   unsigned long fixed);
void npu_va_release(struct npu_ctx *ctx, struct npu_map *resv);
struct npu_map *npu_va_resv_at(struct npu_ctx *ctx, unsigned long addr);
int npu_va_map_in(struct npu_ctx *ctx, struct npu_map *map);
struct npu_map *npu_va_unmap_at(struct npu_ctx *ctx, unsigned long addr);
void npu_va_resv_destroy(struct npu_map *resv);
bool npu_va_any_readonly(struct npu_ctx *ctx, unsigned long start,
			 unsigned long end);

/* npu_check.c: call-site tags and host-fault records (UAPI 1.6) */
int npu_ioctl_check_site(struct npu_ctx *ctx, void __user *uarg);
/* A strict-mode host access at @addr hit @map (NULL: no object); ctx->lock. */
void npu_check_host_fault(struct npu_ctx *ctx, struct npu_map *map,
			  unsigned long addr);
int npu_check_reports_show(struct seq_file *m, void *v);

/* npu_window.c: the window VMA's handlers (the table is npu_ctx.c's) */
extern unsigned long npu_window_size;
int npu_window_mmap(struct file *filp, struct vm_area_struct *vma,
		    const struct vm_operations_struct *ops);
vm_fault_t npu_window_fault(struct vm_fault *vmf);
vm_fault_t npu_window_pfn_mkwrite(struct vm_fault *vmf);
bool npu_window_close(struct vm_area_struct *vma);
int npu_window_may_split(struct vm_area_struct *vma, unsigned long addr);
int npu_window_mremap(struct vm_area_struct *vma);
int npu_window_mprotect(struct vm_area_struct *vma, unsigned long start,
			unsigned long end, unsigned long newflags);
unsigned long npu_window_get_unmapped_area(struct file *filp,
					   unsigned long addr,
					   unsigned long len,
					   unsigned long pgoff,
					   unsigned long flags);
void npu_window_zap(struct npu_ctx *ctx, unsigned long start, u64 len);
struct vm_area_struct *npu_window_vma(struct npu_ctx *ctx,
				      unsigned long addr);
struct npu_ctx *npu_window_owner(unsigned long addr);

/* npu_map.c: the npu_map object */
struct npu_map *npu_map_create(enum npu_map_role role,
			       const struct npu_map_ops *ops,
			       struct npu_phys *phys, u64 len, u64 size);
void npu_map_init(struct npu_map *map, enum npu_map_role role,
		  const struct npu_map_ops *ops, struct npu_phys *phys,
		  u64 len, u64 size);
void npu_map_put(struct npu_map *map);
bool npu_map_keep_spare(struct npu_map **spare, struct npu_map *map,
			struct npu_phys **phys);
void npu_map_unlink(struct npu_ctx *ctx, struct npu_map *map);
int npu_map_publish(struct npu_ctx *ctx, struct npu_map *map, u64 align);
void npu_map_link(struct npu_ctx *ctx, struct npu_map *map);
void npu_map_link_owned(struct npu_ctx *ctx, struct npu_map *map);
void npu_map_link_to(struct npu_ctx *ctx, struct npu_map *map,
		     struct list_head *list);
struct npu_map *npu_map_find_at(struct npu_ctx *ctx, unsigned long va,
				unsigned long roles, bool in_first_page);
struct npu_map *npu_map_unlink_at(struct npu_ctx *ctx, unsigned long va,
				  unsigned long roles, bool in_first_page);
void npu_map_put_list(struct list_head *list);
void npu_map_unlink_all(struct npu_ctx *ctx, struct list_head *list);
int npu_map_reply(struct npu_ctx *ctx, struct npu_map *map,
		  void __user *uarg, const void *args, size_t size);
int npu_map_reply_failed(struct npu_ctx *ctx, struct npu_map *map);
int npu_map_reply_at_failed(struct npu_ctx *ctx, u64 va, u64 id);

static inline void npu_map_get(struct npu_map *map)
{
	kref_get(&map->ref);
}

/* ctx->lock for a call that changes the context only when @write. */
static inline void npu_ctx_lock(struct npu_ctx *ctx, bool write)
{
	if (write)
		down_write(&ctx->lock);
	else
		down_read(&ctx->lock);
}

static inline void npu_ctx_unlock(struct npu_ctx *ctx, bool write)
{
	if (write)
		up_write(&ctx->lock);
	else
		up_read(&ctx->lock);
}

/* Live allocations of @ctx: maps on its list and slots on its shards. */
static inline u64 npu_ctx_nr_maps(struct npu_ctx *ctx)
{
	return READ_ONCE(ctx->nr_maps) + atomic_long_read(&ctx->nr_slots);
}

/* Bytes charged by @ctx. */
static inline u64 npu_ctx_used(struct npu_ctx *ctx)
{
	return atomic64_read(&ctx->used);
}

/* Whether @map is a slot of a small page (npu_mem_small.c). */
static inline bool npu_map_is_slot(const struct npu_map *map)
{
	return map->role == NPU_MAP_LINEAR && map->u.linear.small;
}

/*
 * Whether anyone but the context holds unlinked @map (ctx->lock held): a
 * copy's reference or queued work.  References are only taken from a
 * published map under ctx->lock held for write, so the answer cannot turn
 * to true.
 */
static inline bool npu_map_held(struct npu_map *map)
{
	return kref_read(&map->ref) != 1 || atomic_read(&map->nr_queued);
}

/*
 * Whether the device may access @map (@write: write to it): not a VMM
 * mapping without access, not read-only registered host memory for a
 * write (the copy engine may write read-only device memory).
 */
static inline bool npu_map_accessible(const struct npu_map *map, bool write)
{
	if (map->role == NPU_MAP_VMM)
		return map->u.vmm.access;
	if (map->role == NPU_MAP_REGISTERED && write)
		return !(map->flags & NPU_SIM_ALLOC_READONLY);
	return true;
}

/* npu_key.c: the machine-wide key table of shares and IPC keys */
void npu_key_export(struct npu_key *k, enum npu_key_kind kind,
		    struct npu_ctx *ctx, struct npu_phys *phys);
void npu_key_drop(struct npu_key *k);
int npu_key_claim(struct npu_ctx *ctx, u64 key, enum npu_key_kind kind,
		  bool may_grant, struct npu_key *out);
int npu_key_add_pids(struct npu_ctx *ctx, u64 key, struct npu_share_pid *ents,
		     u32 nr);
void npu_key_show(struct seq_file *m, struct npu_dev *ndev);

/*
 * STREAM_SYNC / EVENT_SYNC: wait on @wq for @cond per @flags (QUERY: not
 * at all, TIMEOUT: at most @timeout_ms): 0 when the caller should look at
 * the state again (done, timed out or query), -EINTR on a signal.
 */
#define npu_sync_wait(wq, flags, timeout_ms, cond)			\
({									\
	long __r = 0;							\
	if ((flags) & NPU_SIM_SYNC_TIMEOUT)				\
		__r = wait_event_interruptible_timeout(wq, cond,	\
				msecs_to_jiffies(timeout_ms));		\
	else if (!((flags) & NPU_SIM_SYNC_QUERY))			\
		__r = wait_event_interruptible(wq, cond);		\
	__r < 0 ? -EINTR : 0;						\
})

/* npu_event_ipc.c: shared record counters of IPC events */
struct npu_event_ipc;
/* A parked WAIT of an IPC event: @kick is queued when it is met. */
struct npu_event_ipc_waiter {
	struct list_head node;		/* npu_event_ipc.waiters, or empty */
	u64 target;
	struct workqueue_struct *wq;
	struct delayed_work *kick;
};
struct npu_event_ipc *npu_event_ipc_new(void);
void npu_event_ipc_put(struct npu_event_ipc *ei);
struct npu_key *npu_event_ipc_export(struct npu_ctx *ctx,
				     struct npu_event_ipc *ei);
void npu_event_ipc_unexport(struct npu_key *k);
struct npu_event_ipc *npu_event_ipc_claim(struct npu_ctx *ctx, u64 key,
					  bool may_grant,
					  struct npu_dev **exp_dev);
u64 npu_event_ipc_submit(struct npu_event_ipc *ei, bool record);
void npu_event_ipc_reach(struct npu_event_ipc *ei, u64 target);
bool npu_event_ipc_reached(struct npu_event_ipc *ei, u64 target);
bool npu_event_ipc_park(struct npu_event_ipc *ei,
			struct npu_event_ipc_waiter *w, u64 target,
			struct workqueue_struct *wq, struct delayed_work *kick);
void npu_event_ipc_unpark(struct npu_event_ipc *ei,
			  struct npu_event_ipc_waiter *w);
void npu_event_ipc_read(struct npu_event_ipc *ei, u64 *recorded,
			u64 *completed, u64 *timestamp_ns);
int npu_event_ipc_wait(struct npu_event_ipc *ei, u32 flags, u32 timeout_ms,
		       u64 target);

/* npu_handle.c: per-context handles */
void npu_handle_ctx_init(struct npu_ctx *ctx);
void npu_handle_ctx_teardown(struct npu_ctx *ctx);
struct npu_handle *npu_handle_lookup(struct npu_ctx *ctx, u32 id);
int npu_handle_add(struct npu_ctx *ctx, struct npu_phys *phys, bool imported,
		   u32 *id);
struct npu_phys *npu_handle_maybe_destroy(struct npu_ctx *ctx,
					  struct npu_handle *h);
void npu_handle_unpublish(struct npu_ctx *ctx, u32 id, struct npu_phys *phys);
void npu_handle_unexport(struct npu_handle *h);

/* npu_peer.c: several devices */
int npu_ioctl_peer_access(struct npu_ctx *ctx, void __user *uarg);
bool npu_peer_grant(struct npu_ctx *ctx, struct npu_dev *other);
struct npu_ctx *npu_peer_resolve(struct npu_ctx *ctx, unsigned long addr,
				 int *err);
void npu_peer_count(struct npu_dev *src, struct npu_dev *dst, u64 bytes);
void npu_peer_show(struct seq_file *m);
void npu_peer_ctx_show(struct seq_file *m, struct npu_dev *ndev);

/* npu_mem_small.c: sub-page linear allocations */
void npu_small_ctx_init(struct npu_ctx *ctx);
bool npu_small_eligible(struct npu_ctx *ctx, u64 footprint, u32 backing,
			u32 flags);
struct npu_map *npu_small_map_create(struct npu_ctx *ctx, u64 footprint,
				     u64 size);
bool npu_small_free_sampled(struct npu_ctx *ctx, const struct npu_map *map);
bool npu_small_keep_map(struct npu_ctx *ctx, struct npu_map *map);
void npu_small_exported(struct npu_ctx *ctx, struct npu_map *map);
void npu_small_ctx_teardown(struct npu_ctx *ctx);
int npu_small_publish(struct npu_ctx *ctx, struct npu_map *map,
		      struct npu_sim_mem_alloc *args);
int npu_small_free(struct npu_ctx *ctx, unsigned long va);
bool npu_small_query(struct npu_ctx *ctx, struct npu_small_page *sp,
		     unsigned long addr, struct npu_sim_vmm_query *args);

/* Slots of a page at most: a bit each in npu_small_page.used. */
#define NPU_SMALL_SLOTS		(PAGE_SIZE / NPU_SMALL_ALIGN)
static_assert(NPU_SMALL_SLOTS <= 64 && NPU_SMALL_MAX <= U16_MAX);

/*
 * A small page of npu_mem_small.c, one VA tree entry over the page and
 * its guard (npu_va.c tags it).  What a call on a slot reads comes first:
 * the lookup (va, slot, used), the small copy (page) and VMM_QUERY (the
 * slot's size) read this object's first line or two and not the slot's
 * npu_map nor the npu_phys, which at a million slots are cold.
 */
struct npu_small_page {
	unsigned long va;		/* of the page */
	u64 used;			/* bit per slot; slots past the page set */
	struct page *page;		/* @phys's one page */
	u32 slot;			/* slot size in bytes */
	u32 nr_used;			/* live slots */
	struct npu_phys *phys;		/* the page, referenced */
	struct hlist_node node;		/* in its shard's partial[] if not full */
	bool exported;			/* a slot was IPC-exported: no reuse */
	bool idle;			/* no slot used, charges given back */
	u8 shard;			/* index in npu_ctx.small */
	u16 size[NPU_SMALL_SLOTS];	/* bytes asked for, per live slot */
	struct npu_map *slots[];	/* live slot maps by index, or NULL */
};

/*
 * The index of @sp's live slot holding @addr, or -1: ctx->lock held for
 * write, or shared with @sp's shard lock.
 */
static inline int npu_small_index(const struct npu_small_page *sp,
				  unsigned long addr)
{
	unsigned long i = (addr - sp->va) / sp->slot;

	return i < PAGE_SIZE / sp->slot && (sp->used & BIT_ULL(i)) ? i : -1;
}

/* Small page @sp's shard lock, for a holder of ctx->lock shared. */
static inline spinlock_t *npu_small_lock(struct npu_ctx *ctx,
					 const struct npu_small_page *sp)
{
	return &ctx->small[sp->shard].lock;
}

/* The live slot map of @sp that holds @addr, or NULL (as above). */
static inline struct npu_map *npu_small_slot_at(struct npu_small_page *sp,
						unsigned long addr)
{
	int i = npu_small_index(sp, addr);

	return i < 0 ? NULL : sp->slots[i];
}

/* npu_mempool.c: stream-ordered memory pools */
void npu_mempool_ctx_init(struct npu_ctx *ctx);
void npu_mempool_ctx_teardown(struct npu_ctx *ctx);
int npu_ioctl_mempool_create(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_mempool_destroy(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_mempool_ctl(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_mempool_alloc(struct npu_ctx *ctx, void __user *uarg);
int npu_mempool_mem_free(struct npu_ctx *ctx, u64 va);
int npu_mempool_free_prepare(struct npu_ctx *ctx, u32 stream, u64 va,
			     u64 *pool, u64 *gen);
void npu_mempool_free_undo(struct npu_ctx *ctx, u64 pool, u64 va, u64 gen);
void npu_mempool_free_done(struct npu_ctx *ctx, u64 pool, u64 va, u64 gen);
int npu_mempool_plain_free(struct npu_ctx *ctx, u64 va);
void npu_mempool_sync_trim(struct npu_ctx *ctx);
int npu_mempool_graph_take(struct npu_ctx *ctx, u64 pool, u64 va, u64 size,
			   u32 graph, u32 from);
void npu_mempool_graph_put(struct npu_ctx *ctx, u64 pool, u64 va, u32 graph,
			   bool release);
void npu_mempool_show(struct seq_file *m, struct npu_dev *ndev);

/* npu_mem.c: linear memory */
int npu_ioctl_mem_alloc(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_mem_free(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_mem_info(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_mem_peaks(struct npu_ctx *ctx, void __user *uarg);
void npu_mem_peaks_sample(struct npu_ctx *ctx);
void npu_mem_ctx_teardown(struct npu_ctx *ctx);

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

/* npu_share.c: shareable handles */
int npu_ioctl_share_export(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_share_set_pids(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_share_import(struct npu_ctx *ctx, void __user *uarg);

/* npu_host.c: registered host memory */
int npu_ioctl_host_register(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_host_unregister(struct npu_ctx *ctx, void __user *uarg);

/* npu_ipc.c: IPC memory */
int npu_ioctl_ipc_export(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_ipc_import(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_ipc_close(struct npu_ctx *ctx, void __user *uarg);
void npu_ipc_ctx_init(struct npu_ctx *ctx);
void npu_ipc_ctx_teardown(struct npu_ctx *ctx);

/* npu_notify.c: notifies (1.9) */
struct npu_notify;
struct npu_sim_stream_submit;

/* The state of a NOTIFY_RECORD / NOTIFY_WAIT op, in the op. */
struct npu_notify_wait {
	struct list_head node;		/* in the notify's waits (its lock) */
	pid_t pid;			/* of the stream, for debugfs */
	u32 stream;
	u32 flags;			/* submit @flags: CNT | mode | CLEAR */
	u32 operand;
	u32 timeout_ms;			/* WAIT: 0 none */
	u64 deadline_ns;		/* WAIT: set at its first look */
};

static inline bool npu_notify_op(u32 op)
{
	return op == NPU_SIM_OP_NOTIFY_RECORD || op == NPU_SIM_OP_NOTIFY_WAIT;
}

void npu_notify_ctx_init(struct npu_ctx *ctx);
void npu_notify_ctx_teardown(struct npu_ctx *ctx);
void npu_notify_put(struct npu_notify *n);
int npu_notify_submit_check(const struct npu_sim_stream_submit *a);
int npu_notify_prepare(struct npu_ctx *ctx, const struct npu_sim_stream_submit *a,
		       struct npu_notify **out, struct npu_notify_wait *w);
int npu_notify_record(struct npu_notify *n, const struct npu_notify_wait *w);
int npu_notify_wait_look(struct npu_notify *n, struct npu_notify_wait *w);
unsigned long npu_notify_wait_left(const struct npu_notify_wait *w);
void npu_notify_wait_end(struct npu_notify *n, struct npu_notify_wait *w);
void npu_notify_show(struct seq_file *m, struct npu_dev *ndev);
int npu_ioctl_notify_create(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_notify_destroy(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_notify_reset(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_notify_export(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_notify_import(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_notify_query(struct npu_ctx *ctx, void __user *uarg);

/* npu_copy.c: the "DMA engine" */
enum npu_xfer_op {
	NPU_XFER_H2D = NPU_SIM_COPY_H2D,
	NPU_XFER_D2H = NPU_SIM_COPY_D2H,
	NPU_XFER_D2D = NPU_SIM_COPY_D2D,
	NPU_XFER_SET,
	NPU_XFER_SET32,		/* 1.9: 32-bit pattern (OP_SET, NPU_SIM_SET_32) */
	NPU_XFER_REDUCE,	/* 1.9: dst = dst <kind> src (OP_REDUCE) */
	NPU_XFER_HOLD,		/* 1.9: check and hold a range only (OP_CMO) */
};

struct npu_xfer;
struct npu_xfer *npu_xfer_prepare(struct npu_ctx *ctx, enum npu_xfer_op op,
				  u64 dst, u64 dpitch, u64 src, u64 spitch,
				  u64 width, u64 height, u32 value);
int npu_xfer_exec(struct npu_xfer *x, const bool *abort);
int npu_xfer_value(struct npu_xfer *x, u64 *val, bool write);
int npu_xfer_value32(struct npu_xfer *x, u32 *val);
bool npu_xfer_uses_host(const struct npu_xfer *x);
void npu_xfer_mark_queued(struct npu_xfer *x, int delta);
void npu_xfer_free(struct npu_xfer *x);
int npu_ioctl_memcpy(struct npu_ctx *ctx, void __user *uarg);

/* npu_reduce.c: element arithmetic of OP_REDUCE (pure) */
unsigned int npu_reduce_elem_size(u32 type);
void npu_reduce_apply(void *dst, const void *src, size_t n, u32 kind, u32 type);

/* npu_copy_remap.c: moves through a second mapping where the TLB would thrash */
void npu_remap_copy(void *dst, const void *src, size_t n);
size_t npu_remap_copy_from_user(void *dst, const void __user *src, size_t n);
size_t npu_remap_copy_to_user(void __user *dst, const void *src, size_t n);

/* npu_memops.c: OP_SET with NPU_SIM_SET_32, OP_REDUCE, OP_CMO (1.9) */
bool npu_memop_submit(const struct npu_sim_stream_submit *a);
int npu_memop_check(const struct npu_sim_stream_submit *a);
struct npu_xfer *npu_memop_prepare(struct npu_ctx *ctx,
				   const struct npu_sim_stream_submit *a);
int npu_ioctl_memcpy2d(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_memset(struct npu_ctx *ctx, void __user *uarg);

/* npu_report.c: host callback reports and subscriptions (1.9) */
struct npu_report;
struct npu_stream;
struct npu_sim_cb_wait;
void npu_report_ctx_init(struct npu_ctx *ctx);
void npu_report_ctx_teardown(struct npu_ctx *ctx);
struct npu_report *npu_report_new(struct npu_ctx *ctx, u32 stream, u32 flags,
				  u64 cookie);
void npu_report_put(struct npu_report *r);
int npu_report_exec(struct npu_report *r, struct npu_stream *s);
void npu_report_stream_gone(struct npu_ctx *ctx, u32 stream);
u32 npu_report_stream_state(struct npu_ctx *ctx, u32 stream);
int npu_report_subscribe(struct npu_ctx *ctx, u32 stream, u32 flags,
			 u64 channel);
struct npu_stream *npu_report_unsubscribe_locked(struct npu_ctx *ctx,
						 u32 stream, u32 flags,
						 u64 channel, int *err);
int npu_report_take(struct npu_ctx *ctx, struct npu_sim_cb_wait *w);
u32 npu_report_streams(struct npu_ctx *ctx, u64 channel, u32 flags);
struct npu_stream *npu_report_done_locked(struct npu_ctx *ctx, u64 id,
					  int *err);
void npu_report_show(struct seq_file *m, struct npu_dev *ndev);


/* npu_graph_flow.c: control-flow programs (GRAPH_CREATE NPU_SIM_GRAPH_FLOW) */
struct npu_op;
struct npu_flow_run;
/* What a program needs of the stream engine for its body entries. */
struct npu_flow_ops {
	/* 0 or STREAM_SUBMIT's check errno */
	int (*check)(const struct npu_sim_stream_submit *a);
	/* prepare as STREAM_SUBMIT does: 0 and *out, or its errno */
	int (*prepare)(struct npu_ctx *ctx,
		       const struct npu_sim_stream_submit *a, u32 sid,
		       struct npu_op **out);
	/* run it, stopping when *cancel is set: 0 or an error */
	int (*run)(struct npu_stream *s, struct npu_op *op, const bool *cancel);
	void (*free)(struct npu_op *op);
};
extern const struct npu_flow_ops npu_stream_flow_ops;	/* npu_stream.c */
int npu_flow_check(const struct npu_flow_ops *fo,
		   const struct npu_sim_stream_submit *ops, u32 count);
struct npu_flow_run *npu_flow_run_new(const struct npu_flow_ops *fo,
				      struct npu_ctx *ctx, u32 sid,
				      const struct npu_sim_stream_submit *ops,
				      u32 count);
/* 0 or an error when the run is over, -EINPROGRESS after a slice. */
int npu_flow_exec(struct npu_flow_run *run, struct npu_stream *s,
		  const bool *cancel);
void npu_flow_run_free(struct npu_flow_run *run);

/* npu_stream.c: streams, events, asynchronous work */
extern unsigned int npu_stream_slots;	/* running streams per user */
int npu_stream_init(void);
void npu_stream_exit(void);
int npu_stream_ctx_init(struct npu_ctx *ctx);
void npu_stream_ctx_cancel(struct npu_ctx *ctx);
void npu_stream_ctx_teardown(struct npu_ctx *ctx);
void npu_stream_values_changed(void);
int npu_stream_hold_parse(struct npu_dev *ndev, char *buf);
void npu_stream_hold_print(struct seq_file *m, struct npu_dev *ndev);
void npu_stream_show(struct seq_file *m, struct npu_dev *ndev);
void npu_event_show(struct seq_file *m, struct npu_dev *ndev);
int npu_ioctl_stream_create(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_stream_destroy(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_stream_submit(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_stream_sync(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_stream_ctl(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_event_create(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_event_destroy(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_event_sync(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_event_export(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_event_import(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_event_info(struct npu_ctx *ctx, void __user *uarg);
void npu_stream_callback_done(struct npu_stream *s);
/* Check an entry as STREAM_SUBMIT does: 0 or -EINVAL. */
int npu_stream_submit_check(const struct npu_sim_stream_submit *a);
/*
 * Prepare the @n checked entries of @subs for stream @sid and queue them
 * all, or none: 0 and *seq (the last one's sequence number), or the errno
 * of STREAM_SUBMIT for the first entry that failed.  Each op carries @tag
 * (0: none) for npu_stream_cancel_tag().
 */
int npu_stream_submit_batch(struct npu_ctx *ctx, u32 sid,
			    const struct npu_sim_stream_submit *subs, u32 n,
			    u32 tag, u64 *seq);

/*
 * A graph's control-flow program (npu_graph_flow.c) queued as one op of
 * type NPU_SIM_OP_GRAPH: prepare @n entries for stream @sid and queue them
 * as one op; 0 and *seq, or STREAM_SUBMIT's errno.
 */
int npu_stream_submit_flow(struct npu_ctx *ctx, u32 sid,
			   const struct npu_sim_stream_submit *subs, u32 n,
			   u32 tag, u64 *seq);

/* npu_graph.c: graphs of stream operations */
void npu_graph_ctx_init(struct npu_ctx *ctx);
void npu_graph_ctx_teardown(struct npu_ctx *ctx);
void npu_graph_show(struct seq_file *m, struct npu_dev *ndev);
int npu_ioctl_graph_create(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_graph_destroy(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_graph_launch(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_graph_info(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_graph_abort(struct npu_ctx *ctx, void __user *uarg);
u64 npu_stream_cancel_tag(struct npu_ctx *ctx, u32 tag);

/* npu_callback.c: host callback ioctls (1.9) */
int npu_ioctl_cb_subscribe(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_cb_wait(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_cb_done(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_cb_query(struct npu_ctx *ctx, void __user *uarg);

/* npu_managed.c: managed (UVM) memory; state under npu_ctx.lock */
int npu_ioctl_managed_alloc(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_managed_advise(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_managed_touch(struct npu_ctx *ctx, void __user *uarg);
int npu_ioctl_managed_query(struct npu_ctx *ctx, void __user *uarg);
struct npu_map *npu_managed_prefetch_prepare(struct npu_ctx *ctx, u64 va,
					     u64 size, u32 loc, u32 loc_id);
int npu_managed_prefetch_exec(struct npu_ctx *ctx, struct npu_map *map,
			      u64 va, u64 size, u32 loc);
void npu_managed_show(struct seq_file *m, struct npu_dev *ndev);

/* npu_ctx.c: a context's life */
int npu_ctx_open(struct inode *inode, struct file *filp);
int npu_ctx_release(struct inode *inode, struct file *filp);
int npu_ctx_mmap(struct file *filp, struct vm_area_struct *vma);

/* npu_debugfs.c */
void npu_debugfs_init(void);
void npu_debugfs_exit(void);
void npu_debugfs_dev_init(struct npu_dev *ndev);

#endif /* NPU_SIM_H */
