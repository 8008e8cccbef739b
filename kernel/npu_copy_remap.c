// SPDX-License-Identifier: GPL-2.0
/*
 * Moves of the copy engine (npu_copy.c) whose two sides may share an
 * entry of the emulator's TLB: the kernel side is reached through
 * a second, short-lived kernel mapping of its pages (vm_map_ram) placed so
 * that the two sides' pages cannot meet, and then copied with the kernel's
 * own routines.
 *
 * Why: under QEMU's TCG, the emulator npu_sim is run and measured in, every
 * guest memory access looks up a direct-mapped software TLB indexed by low
 * bits of the page number (64 entries at least, 2048 and more once grown).
 * A copy whose source and destination pages share an index evicts one entry
 * for the other at every switch between them; memmove and copy_user switch
 * every 8 to 32 bytes, and such a copy ran at 70-600 MB/s where the same
 * copy 4 KiB further ran at 3 GB/s.  2 MiB-aligned buffers (hugetlb device
 * pages, hugetlb or large host buffers) meet it often, and whether a pair
 * did changed with the boot (BENCHMARKS.md, "Copies and the software TLB").
 *
 * How: the pages of the kernel side, up to 64 at a time (vm_map_ram's
 * per-CPU fast path), are mapped again in vmalloc space, whose addresses
 * have nothing to do with the other side's: the copy goes through that
 * image.  In the rare case it lands within a page of the other side
 * (modulo 64 pages), the pages are mapped twice in one area, the images
 * far enough apart that one of them is clear (three a page apart for a
 * single page).  The mapping's TLB flush is the kernel's lazy one.  A
 * window that cannot be mapped (no memory) falls back to the plain copy:
 * it is slower under TCG, never different.  On hardware this changes
 * nothing but the address the bytes are copied through.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/numa.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "npu_sim.h"

/* TCG's smallest TLB: pages whose numbers differ in these bits never meet. */
#define NPU_REMAP_TLB_SPAN	(64UL << PAGE_SHIFT)
/* Most pages one vm_map_ram() area takes on its fast path. */
#define NPU_REMAP_MAX_PAGES	64
/* Smallest move worth a mapping (a colliding 4 KiB copy takes ~10 us). */
#define NPU_REMAP_MIN		SZ_4K

/*
 * Whether the pages of two ranges moved together may share a TLB entry:
 * @a and @b within a page of each other modulo the smallest TLB's span.
 */
static bool npu_remap_alias(unsigned long a, unsigned long b)
{
	unsigned long diff = (a - b) & (NPU_REMAP_TLB_SPAN - 1);

	return diff < PAGE_SIZE || diff > NPU_REMAP_TLB_SPAN - PAGE_SIZE;
}

static bool npu_remap_worth(const void *kaddr, unsigned long other, size_t n)
{
	return n >= NPU_REMAP_MIN && virt_addr_valid(kaddr) &&
	       npu_remap_alias((unsigned long)kaddr, other);
}

/* One window: @npages pages mapped at @area. */
struct npu_remap_win {
	void *area;
	unsigned int npages;
};

/*
 * Map @npages pages from @first, @copies times one after the other, and
 * return the address of byte @off in the first image that cannot meet
 * @other, or NULL (nothing left mapped).
 */
static void *npu_remap_try(struct npu_remap_win *w, struct page *first,
			   unsigned int npages, unsigned int copies,
			   unsigned long off, unsigned long other)
{
	struct page *pages[NPU_REMAP_MAX_PAGES];
	unsigned int i;

	/* Pages of one direct-map range: consecutive page frames. */
	for (i = 0; i < npages * copies; i++)
		pages[i] = nth_page(first, i % npages);
	w->npages = npages * copies;
	w->area = vm_map_ram(pages, w->npages, NUMA_NO_NODE);
	if (!w->area)
		return NULL;
	for (i = 0; i < copies; i++) {
		void *at = w->area + ((i * npages) << PAGE_SHIFT) + off;

		if (!npu_remap_alias((unsigned long)at, other))
			return at;
	}
	vm_unmap_ram(w->area, w->npages);
	return NULL;
}

/*
 * Map the direct-map range [@kaddr, @kaddr + *@len) (at most 64 pages) so
 * that it cannot meet @other and return its new address, or NULL (nothing
 * mapped).  The second try may shorten *@len to 32 pages: two images of
 * 2 to 32 pages, that many pages apart, are never both within a page of
 * @other; of one page, three are needed.
 */
static void *npu_remap_map(struct npu_remap_win *w, const void *kaddr,
			   size_t *len, unsigned long other)
{
	unsigned long off = offset_in_page(kaddr);
	struct page *first = virt_to_page(kaddr);
	unsigned int npages = DIV_ROUND_UP(off + *len, PAGE_SIZE);
	void *at = npu_remap_try(w, first, npages, 1, off, other);

	if (at)
		return at;
	npages = min(npages, NPU_REMAP_MAX_PAGES / 2);
	*len = min_t(size_t, *len, (npages << PAGE_SHIFT) - off);
	return npu_remap_try(w, first, npages, npages == 1 ? 3 : 2, off, other);
}

static void npu_remap_unmap(struct npu_remap_win *w)
{
	vm_unmap_ram(w->area, w->npages);
}

/* Bytes of a window starting at @kaddr: up to its 64th page's end. */
static size_t npu_remap_win_bytes(const void *kaddr, size_t left)
{
	size_t room = (NPU_REMAP_MAX_PAGES << PAGE_SHIFT) - offset_in_page(kaddr);

	return min(left, room);
}

enum npu_remap_dir { NPU_REMAP_KERNEL, NPU_REMAP_FROM_USER, NPU_REMAP_TO_USER };

/*
 * Move @n bytes between kernel @k and @other (kernel, or user memory
 * @dir says which way), through a second mapping of @k's pages when @remap:
 * the bytes not copied, as copy_{to,from}_user() (0 for kernel moves).
 */
static size_t npu_remap_move(void *k, void *other, size_t n, bool remap,
			     enum npu_remap_dir dir)
{
	struct npu_remap_win w;

	while (n) {
		size_t len = remap ? npu_remap_win_bytes(k, n) : n, left = 0;
		void *at = remap ? npu_remap_map(&w, k, &len, (unsigned long)other) : NULL;
		void *via = at ? at : k;

		if (dir == NPU_REMAP_KERNEL)
			memcpy(via, other, len);
		else if (dir == NPU_REMAP_FROM_USER)
			left = copy_from_user(via, (__force const void __user *)other, len);
		else
			left = copy_to_user((__force void __user *)other, via, len);
		if (at)
			npu_remap_unmap(&w);
		if (left)
			return n - len + left;
		k += len;
		other += len;
		n -= len;
	}
	return 0;
}

/*
 * Kernel to kernel, forwards: memmove() semantics unless the ranges overlap
 * with @dst above @src (the caller's backwards path keeps memmove for that).
 * Overlapping ranges are never remapped: memmove's direction follows the
 * addresses it is given.
 */
void npu_remap_copy(void *dst, const void *src, size_t n)
{
	if (!npu_remap_worth(dst, (unsigned long)src, n) ||
	    (dst < src + n && src < dst + n))
		memmove(dst, src, n);
	else
		npu_remap_move(dst, (void *)src, n, true, NPU_REMAP_KERNEL);
}

/* User to kernel: the bytes not copied, as copy_from_user(). */
size_t npu_remap_copy_from_user(void *dst, const void __user *src, size_t n)
{
	void *u = (__force void *)src;

	return npu_remap_move(dst, u, n, npu_remap_worth(dst, (unsigned long)u, n),
			      NPU_REMAP_FROM_USER);
}

/* Kernel to user: the bytes not copied, as copy_to_user(). */
size_t npu_remap_copy_to_user(void __user *dst, const void *src, size_t n)
{
	void *u = (__force void *)dst, *k = (void *)src;

	return npu_remap_move(k, u, n, npu_remap_worth(k, (unsigned long)u, n),
			      NPU_REMAP_TO_USER);
}
