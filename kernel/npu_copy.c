// SPDX-License-Identifier: GPL-2.0
/*
 * The "DMA engine": MEMCPY, MEMCPY2D and MEMSET, done by the driver with a
 * single copy of the data, straight between the user buffer and the backing
 * pages (or between backing pages for device-to-device).
 *
 * Every device byte is resolved to live mappings of the context before any
 * byte is written; the mappings are referenced for the whole copy, so a
 * concurrent MEM_FREE cannot pull the pages away underneath it (or, for a
 * small copy, ctx->lock is held across its device side: npu_copy_small()).
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "npu_sim.h"
#include "npu_trace.h"

/*
 * The live mappings one device operand touches, referenced, in VA order,
 * in the window of @ctx: the issuing context, or another device's context
 * of the same process for a cross-device copy (then referenced: @held).
 */
struct npu_span {
	struct npu_ctx *ctx;
	bool held;
	bool write;			/* the destination operand */
	unsigned int nr;
	unsigned int cap;
	struct npu_map **maps;
	struct npu_map *inline_maps[4];
};

static void npu_span_init(struct npu_span *sp, struct npu_ctx *ctx)
{
	sp->ctx = ctx;
	sp->held = false;
	sp->nr = 0;
	sp->cap = ARRAY_SIZE(sp->inline_maps);
	sp->maps = sp->inline_maps;
}

static void npu_span_fini(struct npu_span *sp)
{
	while (sp->nr)
		npu_map_put(sp->maps[--sp->nr]);
	if (sp->maps != sp->inline_maps)
		kvfree(sp->maps);
	if (sp->held)
		npu_ctx_put(sp->ctx);
}

static int npu_span_push(struct npu_span *sp, struct npu_map *map)
{
	if (sp->nr == sp->cap) {
		unsigned int cap = sp->cap * 2;
		struct npu_map **maps;

		maps = kvmalloc_array(cap, sizeof(*maps), GFP_KERNEL_ACCOUNT);
		if (!maps)
			return -ENOMEM;
		memcpy(maps, sp->maps, sp->nr * sizeof(*maps));
		if (sp->maps != sp->inline_maps)
			kvfree(sp->maps);
		sp->maps = maps;
		sp->cap = cap;
	}
	npu_map_get(map);
	sp->maps[sp->nr++] = map;
	return 0;
}

/*
 * Make sure [addr, addr + len) is covered by a run of live mappings with no
 * hole, referencing the ones not yet in @sp.  Callers pass ranges in
 * increasing address order (rows of a 2D copy), so only the last mapping
 * can already cover the start.
 */
static int npu_span_cover(struct npu_span *sp, unsigned long addr, u64 len)
{
	struct npu_map *last = sp->nr ? sp->maps[sp->nr - 1] : NULL;
	struct npu_map *prev = NULL;
	unsigned long end = addr + len;
	int ret = 0;

	if (last && addr >= last->va && addr - last->va < last->len) {
		if (end - last->va <= last->len)
			return 0;
		addr = last->va + last->len;
		prev = last;
	}

	down_write(&sp->ctx->lock);
	while (addr < end) {
		struct npu_map *map = npu_va_lookup(sp->ctx, addr);

		/*
		 * Only VMM mappings of one reservation run into each other;
		 * anything else ends at a guard page or at the next slot of
		 * a small page, which is another allocation.
		 */
		if (!map || (prev && (prev->role != NPU_MAP_VMM ||
				      map->role != NPU_MAP_VMM))) {
			ret = -ENXIO;
			break;
		}
		if (!npu_map_accessible(map, sp->write)) {
			ret = -EACCES;
			break;
		}
		ret = npu_span_push(sp, map);
		if (ret)
			break;
		addr = map->va + map->len;
		prev = map;
	}
	up_write(&sp->ctx->lock);
	return ret;
}

/* The mapping of @sp containing @addr (which npu_span_cover() covered). */
static struct npu_map *npu_span_find(struct npu_span *sp, unsigned long addr)
{
	unsigned int lo = 0, hi = sp->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		struct npu_map *map = sp->maps[mid];

		if (addr < map->va)
			hi = mid;
		else if (addr - map->va >= map->len)
			lo = mid + 1;
		else
			return map;
	}
	return NULL;
}

/*
 * Bytes of the backing page holding device byte @addr that lie at and after
 * it (@back false) or at and before it (@back true).  Hugetlb pages are
 * physically contiguous and in the direct map, so a piece can span a whole
 * huge page; normal pages are taken 4 KiB at a time.
 */
static u64 npu_piece_room(struct npu_map *map, unsigned long addr, bool back)
{
	u64 off = map->phys_off + (addr - map->va);
	unsigned int shift = map->phys->kind == NPU_SIM_PAGE_NORMAL ?
			     PAGE_SHIFT : map->phys->shift;
	u64 in = off & ((1ULL << shift) - 1);
	u64 room = back ? in + 1 : (1ULL << shift) - in;
	u64 map_room = back ? addr - map->va + 1 : map->va + map->len - addr;

	return min(room, map_room);
}

/* Map device byte @addr of @map: its phys, kept by the copy's map reference. */
static __always_inline void *npu_piece_map(struct npu_map *map,
					   unsigned long addr)
{
	struct npu_phys *phys = map->phys;
	u64 off = map->phys_off + (addr - map->va);

	/* x86-64 has no highmem: hugetlb pages are always in the direct map. */
	if (phys->kind != NPU_SIM_PAGE_NORMAL)
		return page_address(phys->pages[off >> phys->shift]) +
		       (off & ((1ULL << phys->shift) - 1));
	return kmap_local_page(phys->pages[off >> PAGE_SHIFT]) +
	       offset_in_page(off);
}

static __always_inline void npu_piece_unmap(struct npu_map *map, void *kaddr)
{
	if (map->phys->kind == NPU_SIM_PAGE_NORMAL)
		kunmap_local(kaddr);
}

struct npu_xfer {
	enum npu_xfer_op op;
	struct npu_span dst;
	struct npu_span src;
	u32 value;			/* SET: byte; SET32: word; REDUCE: kind | type << 8 */
	bool back;			/* overlapping D2D, dst above src */
	u64 since_resched;
	u64 dst_addr, dpitch, src_addr, spitch, width, height;
	const bool *abort;		/* stop when it becomes true */
};

static bool npu_op_dst_dev(enum npu_xfer_op op)
{
	return op != NPU_XFER_D2H;
}

static bool npu_op_src_dev(enum npu_xfer_op op)
{
	return op == NPU_XFER_D2H || op == NPU_XFER_D2D ||
	       op == NPU_XFER_REDUCE;
}

/* Whether the op reads a source operand (sets and holds have none). */
static bool npu_op_has_src(enum npu_xfer_op op)
{
	return op != NPU_XFER_SET && op != NPU_XFER_SET32 &&
	       op != NPU_XFER_HOLD;
}

/* Both operands may lie in other devices' windows (peer access). */
static bool npu_op_cross(enum npu_xfer_op op)
{
	return op == NPU_XFER_D2D || op == NPU_XFER_REDUCE;
}

/* Move one piece that lies within one backing page on each device side. */
static int npu_xfer_piece(struct npu_xfer *x, struct npu_map *dm,
			  unsigned long d, struct npu_map *sm,
			  unsigned long s, size_t n)
{
	void *kd, *ks;
	int ret = 0;

	switch (x->op) {
	case NPU_XFER_H2D:
		kd = npu_piece_map(dm, d);
		if (npu_remap_copy_from_user(kd, (const void __user *)s, n))
			ret = -EFAULT;
		npu_piece_unmap(dm, kd);
		break;
	case NPU_XFER_D2H:
		ks = npu_piece_map(sm, s);
		if (npu_remap_copy_to_user((void __user *)d, ks, n))
			ret = -EFAULT;
		npu_piece_unmap(sm, ks);
		break;
	case NPU_XFER_D2D:
		ks = npu_piece_map(sm, s);
		kd = npu_piece_map(dm, d);
		/* Backwards (overlap, dst above src) keeps memmove's order. */
		if (x->back)
			memmove(kd, ks, n);
		else
			npu_remap_copy(kd, ks, n);
		npu_piece_unmap(dm, kd);
		npu_piece_unmap(sm, ks);
		break;
	case NPU_XFER_SET:
		kd = npu_piece_map(dm, d);
		memset(kd, x->value, n);
		npu_piece_unmap(dm, kd);
		break;
	case NPU_XFER_SET32:
		/* Pieces start and end on 4-byte boundaries: all is aligned. */
		kd = npu_piece_map(dm, d);
		memset32(kd, x->value, n / sizeof(u32));
		npu_piece_unmap(dm, kd);
		break;
	case NPU_XFER_REDUCE:
		ks = npu_piece_map(sm, s);
		kd = npu_piece_map(dm, d);
		npu_reduce_apply(kd, ks, n, x->value & 0xff, x->value >> 8);
		npu_piece_unmap(dm, kd);
		npu_piece_unmap(sm, ks);
		break;
	case NPU_XFER_HOLD:
		break;
	}
	return ret;
}

/*
 * Transfer @count bytes from @src to @dst, forwards or (for an overlapping
 * device-to-device copy with dst above src) backwards.
 */
static int npu_xfer_run(struct npu_xfer *x, unsigned long dst,
			unsigned long src, u64 count, bool back)
{
	bool ddev = npu_op_dst_dev(x->op), sdev = npu_op_src_dev(x->op);
	u64 done = 0;
	int ret;

	while (done < count) {
		u64 rem = count - done;
		u64 n = min_t(u64, rem, NPU_COPY_CHUNK);
		struct npu_map *dm = NULL, *sm = NULL;
		unsigned long d, s;

		/* Anchor: first byte of the piece going forwards, last backwards. */
		d = back ? dst + rem - 1 : dst + done;
		s = back ? src + rem - 1 : src + done;
		if (ddev) {
			dm = npu_span_find(&x->dst, d);
			if (WARN_ON_ONCE(!dm))
				return -ENXIO;
			n = min(n, npu_piece_room(dm, d, back));
		}
		if (sdev) {
			sm = npu_span_find(&x->src, s);
			if (WARN_ON_ONCE(!sm))
				return -ENXIO;
			n = min(n, npu_piece_room(sm, s, back));
		}
		if (back) {
			d -= n - 1;
			s -= n - 1;
		}

		ret = npu_xfer_piece(x, dm, d, sm, s, n);
		if (ret)
			return ret;
		done += n;

		x->since_resched += n;
		if (x->since_resched >= NPU_COPY_CHUNK) {
			x->since_resched = 0;
			cond_resched();
			if (fatal_signal_pending(current))
				return -EINTR;
			if (x->abort && READ_ONCE(*x->abort))
				return -ECANCELED;
		}
	}
	return 0;
}

/* Last byte + 1 of a 2D operand, or 0 on overflow. */
static unsigned long npu_extent_end(u64 addr, u64 pitch, u64 width, u64 height)
{
	u64 ext, end;

	if (check_mul_overflow(height - 1, pitch, &ext) ||
	    check_add_overflow(ext, width, &ext) ||
	    check_add_overflow(addr, ext, &end) || end > ULONG_MAX)
		return 0;
	return end;
}

static void npu_window_snapshot(struct npu_ctx *ctx, unsigned long *ws,
				unsigned long *we)
{
	down_write(&ctx->lock);
	*ws = ctx->win_state == NPU_WIN_MAPPED ? ctx->win_start : 0;
	*we = ctx->win_state == NPU_WIN_MAPPED ? ctx->win_end : 0;
	up_write(&ctx->lock);
}

/* Where one operand must be, checked against the window snapshot. */
static int npu_check_dev(unsigned long ws, unsigned long we,
			 unsigned long addr, unsigned long end)
{
	if (!we)
		return -ENXIO;		/* no window: no device memory */
	if (addr < ws || addr >= we)
		return -EINVAL;		/* not a device address */
	if (end > we)
		return -ENXIO;		/* runs off the window */
	return 0;
}

static int npu_check_host(unsigned long ws, unsigned long we,
			  unsigned long addr, unsigned long end)
{
	if (we && addr < we && end > ws)
		return -EINVAL;		/* a device address given as host */
	if (!access_ok((const void __user *)addr, end - addr))
		return -EFAULT;
	return 0;
}

/* Let @sp work in the window holding @addr (npu_peer_resolve()). */
static int npu_span_owner(struct npu_span *sp, unsigned long addr)
{
	int err;
	struct npu_ctx *owner = npu_peer_resolve(sp->ctx, addr, &err);

	if (!owner)
		return err;
	sp->held = owner != sp->ctx;
	sp->ctx = owner;
	return 0;
}

static int npu_cover_rows(struct npu_span *sp, u64 addr, u64 pitch,
			  u64 width, u64 height)
{
	u64 row;
	int ret;

	for (row = 0; row < height; row++) {
		ret = npu_span_cover(sp, addr + row * pitch, width);
		if (ret)
			return ret;
		if ((row & 4095) == 4095) {
			cond_resched();
			if (fatal_signal_pending(current))
				return -EINTR;
		}
	}
	return 0;
}

/*
 * Fault in every row of a host source so that copy_from_user() cannot stop
 * half way (and zero-fill the rest of a device page) on a hole in it.
 */
static int npu_fault_in_rows(u64 addr, u64 pitch, u64 width, u64 height)
{
	u64 row;

	for (row = 0; row < height; row++) {
		if (fault_in_readable((const char __user *)(addr + row * pitch),
				      width))
			return -EFAULT;
		if ((row & 4095) == 4095) {
			cond_resched();
			if (fatal_signal_pending(current))
				return -EINTR;
		}
	}
	return 0;
}

/*
 * Check everything and reference all device memory of a transfer in @x
 * (caller's storage).  On error what it took is still to be released with
 * npu_xfer_fini().
 */
static int npu_xfer_init(struct npu_xfer *x, struct npu_ctx *ctx,
			 enum npu_xfer_op op, u64 dst, u64 dpitch, u64 src,
			 u64 spitch, u64 width, u64 height, u32 value)
{
	bool ddev = npu_op_dst_dev(op), sdev = npu_op_src_dev(op);
	unsigned long dend, send = 0, ws, we, cws, cwe;
	int ret = 0;

	memset(x, 0, sizeof(*x));
	npu_span_init(&x->dst, ctx);
	npu_span_init(&x->src, ctx);
	if (!width || !height || dpitch < width ||
	    (npu_op_has_src(op) && spitch < width))
		return -EINVAL;
	dend = npu_extent_end(dst, dpitch, width, height);
	if (!dend)
		return -EINVAL;
	if (npu_op_has_src(op)) {
		send = npu_extent_end(src, spitch, width, height);
		if (!send)
			return -EINVAL;
	}

	x->op = op;
	x->value = value;
	x->dst_addr = dst;
	x->dpitch = dpitch;
	x->src_addr = src;
	x->spitch = spitch;
	x->width = width;
	x->height = height;
	x->dst.write = op != NPU_XFER_HOLD;

	/* One snapshot of the issuing context's window serves both operands. */
	npu_window_snapshot(ctx, &cws, &cwe);
	/* D2D operands may lie in other devices' windows (peer access). */
	if (npu_op_cross(op))
		ret = npu_span_owner(&x->dst, dst);
	if (!ret && ddev) {
		ws = cws;
		we = cwe;
		if (x->dst.ctx != ctx)
			npu_window_snapshot(x->dst.ctx, &ws, &we);
		ret = npu_check_dev(ws, we, dst, dend);
	} else if (!ret) {
		ret = npu_check_host(cws, cwe, dst, dend);
	}
	if (!ret && npu_op_cross(op))
		ret = npu_span_owner(&x->src, src);
	if (!ret && sdev) {
		ws = cws;
		we = cwe;
		if (x->src.ctx != ctx)
			npu_window_snapshot(x->src.ctx, &ws, &we);
		ret = npu_check_dev(ws, we, src, send);
	} else if (!ret && npu_op_has_src(op)) {
		ret = npu_check_host(cws, cwe, src, send);
	}
	if (ret)
		return ret;

	if (ddev) {
		ret = npu_cover_rows(&x->dst, dst, dpitch, width, height);
		if (ret)
			return ret;
	}
	if (sdev) {
		ret = npu_cover_rows(&x->src, src, spitch, width, height);
		if (ret)
			return ret;
	} else if (npu_op_has_src(op)) {
		/* An unreadable host source fails before a device byte changes. */
		ret = npu_fault_in_rows(src, spitch, width, height);
		if (ret)
			return ret;
	}

	/* memmove semantics when device ranges overlap with dst above src. */
	if (op == NPU_XFER_D2D && dst > src && dst < send)
		x->back = true;
	return 0;
}

/* Drop what npu_xfer_init() referenced (the structure itself stays). */
static void npu_xfer_fini(struct npu_xfer *x)
{
	npu_span_fini(&x->src);
	npu_span_fini(&x->dst);
}

/*
 * Check everything and reference all device memory of a transfer: the
 * common first half of the three ioctls and of STREAM_SUBMIT.  A 1D copy is
 * a 2D copy of one row.  Returns the prepared transfer or an ERR_PTR.
 */
struct npu_xfer *npu_xfer_prepare(struct npu_ctx *ctx, enum npu_xfer_op op,
				  u64 dst, u64 dpitch, u64 src, u64 spitch,
				  u64 width, u64 height, u32 value)
{
	struct npu_xfer *x;
	int ret;

	x = kmalloc(sizeof(*x), GFP_KERNEL_ACCOUNT);
	if (!x)
		return ERR_PTR(-ENOMEM);
	ret = npu_xfer_init(x, ctx, op, dst, dpitch, src, spitch, width, height,
			    value);
	if (ret) {
		npu_xfer_free(x);
		return ERR_PTR(ret);
	}
	return x;
}

/*
 * Tell the maps among the operands whose role cares (managed memory runs
 * its migration rules) of the device access to the part each one covers,
 * before any byte moves.
 */
static int npu_xfer_dev_access(struct npu_span *sp, u64 addr, u64 pitch,
			    u64 width, u64 height, bool write)
{
	u64 end = addr + (height - 1) * pitch + width;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < sp->nr && !ret; i++) {
		struct npu_map *map = sp->maps[i];
		u64 s, e;

		if (!map->ops || !map->ops->dev_access)
			continue;
		s = max_t(u64, addr, map->va);
		e = min_t(u64, end, map->va + map->len);
		if (s >= e)
			continue;
		down_write(&sp->ctx->lock);
		ret = map->ops->dev_access(sp->ctx, map, s, e - s, write);
		up_write(&sp->ctx->lock);
	}
	return ret;
}

/* Move the data of a prepared transfer (in the owner's mm for host parts). */
static int npu_xfer_exec_rows(struct npu_xfer *x, const bool *abort)
{
	u64 row;
	int ret = 0;

	x->abort = abort;
	if (x->op == NPU_XFER_HOLD)
		return 0;
	ret = npu_xfer_dev_access(&x->src, x->src_addr, x->spitch, x->width,
				  x->height, false);
	if (!ret)
		ret = npu_xfer_dev_access(&x->dst, x->dst_addr, x->dpitch,
					  x->width, x->height, true);
	if (ret)
		return ret;
	for (row = 0; row < x->height; row++) {
		u64 r = x->back ? x->height - 1 - row : row;

		ret = npu_xfer_run(x, x->dst_addr + r * x->dpitch,
				   x->src_addr + r * x->spitch, x->width,
				   x->back);
		if (ret)
			return ret;
	}
	if (npu_op_cross(x->op) && x->dst.ctx->ndev != x->src.ctx->ndev)
		npu_peer_count(x->src.ctx->ndev, x->dst.ctx->ndev,
			       x->width * x->height);
	return 0;
}

/* Device index of a transfer operand, -1 for host memory. */
static int npu_xfer_dev(const struct npu_span *sp, bool dev)
{
	return dev ? sp->ctx->ndev->index : -1;
}

int npu_xfer_exec(struct npu_xfer *x, const bool *abort)
{
	int ret = npu_xfer_exec_rows(x, abort);

	trace_npu_sim_copy(x->op,
			   npu_xfer_dev(&x->src, npu_op_src_dev(x->op)),
			   npu_xfer_dev(&x->dst, npu_op_dst_dev(x->op)),
			   x->src_addr, x->dst_addr, x->width * x->height, ret);
	return ret;
}

/*
 * Read or write the aligned @len (4 or 8) bytes at the destination of a
 * prepared SET of that size: being aligned, they lie in one page of one
 * backing.
 */
static int npu_xfer_word(struct npu_xfer *x, void *val, u32 len, bool write)
{
	struct npu_map *map = npu_span_find(&x->dst, x->dst_addr);
	void *p;
	int ret;

	if (WARN_ON_ONCE(!map))
		return -ENXIO;
	ret = npu_xfer_dev_access(&x->dst, x->dst_addr, len, len, 1, write);
	if (ret)
		return ret;
	p = npu_piece_map(map, x->dst_addr);
	if (len == sizeof(u64) && write)
		WRITE_ONCE(*(u64 *)p, *(u64 *)val);
	else if (len == sizeof(u64))
		*(u64 *)val = READ_ONCE(*(u64 *)p);
	else
		*(u32 *)val = READ_ONCE(*(u32 *)p);
	npu_piece_unmap(map, p);
	return 0;
}

/* The native u64 of a prepared 8-byte SET (VALUE_WRITE / VALUE_WAIT). */
int npu_xfer_value(struct npu_xfer *x, u64 *val, bool write)
{
	return npu_xfer_word(x, val, sizeof(u64), write);
}

/* The native u32 of a prepared 4-byte SET (a graph's control entry). */
int npu_xfer_value32(struct npu_xfer *x, u32 *val)
{
	return npu_xfer_word(x, val, sizeof(u32), false);
}

/* Whether the transfer touches host memory (needs the owner's mm). */
bool npu_xfer_uses_host(const struct npu_xfer *x)
{
	return x->op == NPU_XFER_H2D || x->op == NPU_XFER_D2H;
}

/* Add @delta to the queued-work count of every mapping the transfer uses. */
void npu_xfer_mark_queued(struct npu_xfer *x, int delta)
{
	unsigned int i;

	for (i = 0; i < x->dst.nr; i++)
		atomic_add(delta, &x->dst.maps[i]->nr_queued);
	for (i = 0; i < x->src.nr; i++)
		atomic_add(delta, &x->src.maps[i]->nr_queued);
}

void npu_xfer_free(struct npu_xfer *x)
{
	npu_xfer_fini(x);
	kfree(x);
}

/*
 * Small synchronous copies (MEMCPY H2D / D2H of up to NPU_COPY_SMALL bytes)
 * whose device side lies in one backing page of one mapping with no role
 * handling: the same checks in the same order as npu_copy(), in one
 * ctx->lock round and without a map reference.  The user side is copied
 * through a stack buffer outside the lock (a user fault may sleep and take
 * mmap_lock, which ranks above ctx->lock): a host source is read first with
 * page faults disabled (it may lie in the window; no fault handler runs, so
 * nothing is recorded or changed), the device bytes are written under the
 * lock; a device source is read under the lock and copied out after.
 * Whenever the fast path cannot finish exactly as npu_copy() would, it
 * returns 1 having changed nothing, and npu_copy() does the whole copy.
 */
#define NPU_COPY_SMALL	256

/*
 * The user side of a small copy, in words: no call out of the user access
 * section (TCG pays for each), no object-size check (the stack buffer is
 * ours).  Returns false on a fault, or on a hole while @nofault.
 */
static __always_inline bool npu_small_user(void *buf, unsigned long uaddr,
					   size_t n, bool to_user, bool nofault)
{
	void __user *u = (void __user *)uaddr;
	bool ok = false;
	size_t i = 0;

	if (nofault)
		pagefault_disable();
	if (!user_access_begin(u, n))
		goto out;
	for (; i + sizeof(u64) <= n; i += sizeof(u64)) {
		if (to_user)
			unsafe_put_user(*(u64 *)(buf + i), (u64 __user *)(u + i),
					out_end);
		else
			unsafe_get_user(*(u64 *)(buf + i), (u64 __user *)(u + i),
					out_end);
	}
	for (; i < n; i++) {
		if (to_user)
			unsafe_put_user(*(u8 *)(buf + i), (u8 __user *)(u + i),
					out_end);
		else
			unsafe_get_user(*(u8 *)(buf + i), (u8 __user *)(u + i),
					out_end);
	}
	ok = true;
out_end:
	user_access_end();
out:
	if (nofault)
		pagefault_enable();
	return ok;
}

/*
 * The device side of a small copy into or out of a slot of small page
 * @sp, from the page object alone (not the slot's npu_map nor the page's
 * npu_phys): what npu_copy_small() does with the slot's map, whose rules
 * hold for every slot (linear, no role handling, one normal page).
 * -ENXIO no live slot at @dev; 1 the bytes run past the slot.
 */
static __always_inline int npu_copy_slot(struct npu_small_page *sp,
					 unsigned long dev, void *buf,
					 size_t n, bool h2d)
{
	int i = npu_small_index(sp, dev);
	void *kaddr;

	if (i < 0)
		return -ENXIO;
	if ((i + 1) * sp->slot - (dev - sp->va) < n)
		return 1;		/* npu_copy() reports the overrun */
	kaddr = kmap_local_page(sp->page) + (dev - sp->va);
	if (h2d)
		memcpy(kaddr, buf, n);
	else
		memcpy(buf, kaddr, n);
	kunmap_local(kaddr);
	return 0;
}

static __always_inline int npu_copy_small(struct npu_ctx *ctx, enum npu_xfer_op op,
			  unsigned long dst, unsigned long src, size_t n)
{
	bool h2d = op == NPU_XFER_H2D;
	unsigned long dev = h2d ? dst : src, host = h2d ? src : dst;
	struct npu_small_page *sp;
	unsigned long ws, we;
	struct npu_map *map;
	u8 buf[NPU_COPY_SMALL] __aligned(8) npu_no_autoinit;
	void *kaddr;
	int ret;

	if (h2d && !npu_small_user(buf, src, n, false, true))
		return 1;		/* a hole: npu_copy() faults it in */

	/*
	 * Shared: the copy changes no object, and a slot's page is read
	 * under its shard lock (npu_mem_small.c); another map's pages go
	 * only with ctx->lock held for write.
	 */
	down_read(&ctx->lock);
	ws = ctx->win_state == NPU_WIN_MAPPED ? ctx->win_start : 0;
	we = ctx->win_state == NPU_WIN_MAPPED ? ctx->win_end : 0;
	/* npu_xfer_init()'s order: destination first. */
	if (h2d) {
		ret = npu_check_dev(ws, we, dst, dst + n);
		if (!ret)
			ret = npu_check_host(ws, we, src, src + n);
	} else {
		ret = npu_check_host(ws, we, dst, dst + n);
		if (!ret)
			ret = npu_check_dev(ws, we, src, src + n);
	}
	if (ret)
		goto out_unlock;
	map = npu_va_find(ctx, dev, &sp);
	if (sp) {
		spin_lock(npu_small_lock(ctx, sp));
		ret = npu_copy_slot(sp, dev, buf, n, h2d);
		spin_unlock(npu_small_lock(ctx, sp));
		if (ret)
			goto out_unlock;
		goto done;
	}
	if (!map || !map->phys || dev - map->va >= map->len) {
		ret = -ENXIO;
		goto out_unlock;
	}
	if (!npu_map_accessible(map, h2d)) {
		ret = -EACCES;
		goto out_unlock;
	}
	if ((map->ops && map->ops->dev_access) ||
	    npu_piece_room(map, dev, false) < n) {
		ret = 1;		/* role handling or several pieces */
		goto out_unlock;
	}
	kaddr = npu_piece_map(map, dev);
	if (h2d)
		memcpy(kaddr, buf, n);
	else
		memcpy(buf, kaddr, n);
	npu_piece_unmap(map, kaddr);
done:
	up_read(&ctx->lock);

	ret = 0;
	if (!h2d && !npu_small_user(buf, host, n, true, false))
		ret = -EFAULT;
	trace_npu_sim_copy(op, h2d ? -1 : ctx->ndev->index,
			   h2d ? ctx->ndev->index : -1, src, dst, n, ret);
	return ret;

out_unlock:
	up_read(&ctx->lock);
	return ret;
}

static int npu_copy(struct npu_ctx *ctx, enum npu_xfer_op op,
		    u64 dst, u64 dpitch, u64 src, u64 spitch,
		    u64 width, u64 height, u8 value)
{
	struct npu_xfer x;	/* synchronous: on the stack, no allocation */
	int ret;

	ret = npu_xfer_init(&x, ctx, op, dst, dpitch, src, spitch, width, height,
			    value);
	if (!ret)
		ret = npu_fault_check(ctx, NPU_SIM_FAULT_COPY);
	if (!ret)
		ret = npu_xfer_exec(&x, NULL);
	npu_xfer_fini(&x);
	return ret;
}

/*
 * The MEMCPY record, field by field in one user access section: the
 * result of copy_from_user() (all or -EFAULT) without its calls out (the
 * object-size check, the copy routine), which TCG charges per call.
 */
static __always_inline bool npu_memcpy_args(struct npu_sim_memcpy *a,
					    const void __user *uarg)
{
	const struct npu_sim_memcpy __user *u = uarg;

	if (!user_access_begin(u, sizeof(*u)))
		return false;
	unsafe_get_user(a->dst, &u->dst, efault);
	unsafe_get_user(a->src, &u->src, efault);
	unsafe_get_user(a->count, &u->count, efault);
	unsafe_get_user(a->dir, &u->dir, efault);
	unsafe_get_user(a->src_fd, &u->src_fd, efault);
	unsafe_get_user(a->flags, &u->flags, efault);
	unsafe_get_user(a->pad, &u->pad, efault);
	user_access_end();
	return true;
efault:
	user_access_end();
	return false;
}

int npu_ioctl_memcpy(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_memcpy args;
	int ret;

	if (!npu_memcpy_args(&args, uarg))
		return -EFAULT;
	if (args.flags || args.pad || !args.count ||
	    args.dir < NPU_SIM_COPY_H2D || args.dir > NPU_SIM_COPY_D2D)
		return -EINVAL;
	if (args.src_fd != -1)
		return -EOPNOTSUPP;
	if (args.count <= NPU_COPY_SMALL && args.dir != NPU_SIM_COPY_D2D &&
	    args.dst + args.count > args.dst &&
	    args.src + args.count > args.src &&
	    !(READ_ONCE(ctx->fault.ops) & BIT(NPU_SIM_FAULT_COPY))) {
		ret = npu_copy_small(ctx, args.dir, args.dst, args.src,
				     args.count);
		if (ret <= 0)
			return ret;
	}
	return npu_copy(ctx, args.dir, args.dst, args.count, args.src,
			args.count, args.count, 1, 0);
}

int npu_ioctl_memcpy2d(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_memcpy2d args;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad ||
	    args.dir < NPU_SIM_COPY_H2D || args.dir > NPU_SIM_COPY_D2D)
		return -EINVAL;
	if (args.src_fd != -1)
		return -EOPNOTSUPP;
	return npu_copy(ctx, args.dir, args.dst, args.dpitch, args.src,
			args.spitch, args.width, args.height, 0);
}

int npu_ioctl_memset(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_memset args;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || !args.count || args.value > 0xff)
		return -EINVAL;
	return npu_copy(ctx, NPU_XFER_SET, args.dst, args.count, 0, 0,
			args.count, 1, args.value);
}
