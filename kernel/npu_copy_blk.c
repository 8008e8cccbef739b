// SPDX-License-Identifier: GPL-2.0
/*
 * Bulk moves of the copy engine (npu_copy.c) in 256-byte blocks through the
 * 16 SSE registers, each block read whole before any of it is written, for
 * the moves whose two sides may share an entry of the emulator's TLB.
 *
 * Why: under QEMU's TCG, the emulator npu_sim is run and measured in, every
 * guest memory access looks up a direct-mapped software TLB indexed by low
 * bits of the page number.  A copy whose source and destination pages share
 * an index (a distance of a multiple of the TLB's span, e.g. 8 MiB, which
 * 2 MiB-aligned buffers meet often) evicts one entry for the other at every
 * switch between them; memmove and copy_user switch every 8 to 32 bytes and
 * ran at 70-600 MB/s where the same copy 4 KiB further ran at 3 GB/s, and
 * whether a buffer pair collided changed with the boot (BENCHMARKS.md,
 * "Copies and the software TLB").  One switch per 256 bytes brings such a
 * copy to 0.7-2 GB/s.  Pairs that cannot collide keep the kernel's copies,
 * which TCG runs faster than SSE moves.  On hardware the blocks are an
 * ordinary SIMD copy.
 *
 * The user-memory variants run with preemption off (kernel_fpu_begin), so a
 * user page that is not present cannot be faulted in: the exception table
 * ends the block loop and the rest goes through copy_{from,to}_user, which
 * may sleep.  A block is written only after all of it was read, so the
 * kernel-side forward copy is also right for overlapping ranges with the
 * destination below the source.
 */
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/stringify.h>
#include <asm/asm.h>
#include <asm/extable_fixup_types.h>
#include <asm/fpu/api.h>

#include "npu_sim.h"

#define NPU_BLK	256
#define NPU_BLK_TLB_SPAN	(64UL << PAGE_SHIFT)
/* Smallest move worth saving the task's FPU state for. */
#define NPU_BLK_MIN	SZ_4K

/*
 * The block's 16 loads and 16 stores, by the assembler's .irp; a user
 * access gets an exception-table entry each (the "1:" label is redefined
 * per repetition, "1b" is the latest).
 */
#define BLK_REGS	"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
#define BLK_LOAD	".irp i," BLK_REGS "\n\tmovdqu \\i*16(%[s]), %%xmm\\i\n\t.endr\n\t"
#define BLK_STORE	".irp i," BLK_REGS "\n\tmovdqu %%xmm\\i, \\i*16(%[d])\n\t.endr\n\t"
#define BLK_LOAD_USER	".irp i," BLK_REGS "\n\t1: movdqu \\i*16(%[s]), %%xmm\\i\n\t"
/* _ASM_EXTABLE_UA(1b, <the asm goto's label>), spelt out for checkpatch */
#define BLK_EXTABLE_UA	" .pushsection \"__ex_table\",\"a\"\n .balign 4\n"	\
			" .long 1b - .\n .long %l1 - .\n"			\
			" .long " __stringify(EX_TYPE_UACCESS) "\n .popsection\n"
#define BLK_STORE_USER	".irp i," BLK_REGS "\n\t1: movdqu %%xmm\\i, \\i*16(%[d])\n\t"

/*
 * Whether the pages of two ranges moved together may share a TLB entry:
 * TCG's TLB has at least 64 entries, so pages whose numbers differ in their
 * low 6 bits never do; @a and @b within a page of that are suspect.
 */
static bool npu_blk_alias(unsigned long a, unsigned long b)
{
	unsigned long diff = (a - b) & (NPU_BLK_TLB_SPAN - 1);

	return diff < PAGE_SIZE || diff > NPU_BLK_TLB_SPAN - PAGE_SIZE;
}

/*
 * Whether moving @n bytes between @a and @b goes in blocks: only where the
 * two may collide (elsewhere the kernel's copies are faster under TCG) and
 * when it is worth saving the task's FPU state.
 */
static bool npu_blk_worth(unsigned long a, unsigned long b, size_t n)
{
	return n >= NPU_BLK_MIN &&
	       npu_blk_alias(a, b) && irq_fpu_usable();
}

/*
 * Kernel to kernel, forwards: memmove() semantics unless the ranges overlap
 * with @dst above @src (the caller's backwards path keeps memmove for that).
 */
void npu_blk_copy(void *dst, const void *src, size_t n)
{
	size_t blocks = n / NPU_BLK;

	if (!npu_blk_worth((unsigned long)dst, (unsigned long)src, n)) {
		memmove(dst, src, n);
		return;
	}
	kernel_fpu_begin();
	for (; blocks; blocks--, dst += NPU_BLK, src += NPU_BLK)
		asm volatile(BLK_LOAD BLK_STORE
			     : : [d] "r"(dst), [s] "r"(src) : "memory");
	kernel_fpu_end();
	memmove(dst, src, n % NPU_BLK);
}

/* User to kernel: the bytes not copied, as copy_from_user(). */
size_t npu_blk_copy_from_user(void *dst, const void __user *src, size_t n)
{
	size_t left = n;

	if (!npu_blk_worth((unsigned long)dst, (__force unsigned long)src, n))
		return copy_from_user(dst, src, n);
	kernel_fpu_begin();
	if (user_access_begin(src, n)) {
		for (; left >= NPU_BLK;
		     left -= NPU_BLK, dst += NPU_BLK, src += NPU_BLK) {
			asm goto(BLK_LOAD_USER
				 BLK_EXTABLE_UA ".endr"
				 : : [s] "r"(src) : "memory" : fault);
			asm volatile(BLK_STORE : : [d] "r"(dst) : "memory");
		}
fault:
		user_access_end();
	}
	kernel_fpu_end();
	return left ? copy_from_user(dst, src, left) : 0;
}

/* Kernel to user: the bytes not copied, as copy_to_user(). */
size_t npu_blk_copy_to_user(void __user *dst, const void *src, size_t n)
{
	size_t left = n;

	if (!npu_blk_worth((__force unsigned long)dst, (unsigned long)src, n))
		return copy_to_user(dst, src, n);
	kernel_fpu_begin();
	if (user_access_begin(dst, n)) {
		for (; left >= NPU_BLK;
		     left -= NPU_BLK, dst += NPU_BLK, src += NPU_BLK) {
			asm volatile(BLK_LOAD : : [s] "r"(src) : "memory");
			/* A fault here leaves the block to copy_to_user(). */
			asm goto(BLK_STORE_USER
				 BLK_EXTABLE_UA ".endr"
				 : : [d] "r"(dst) : "memory" : fault);
		}
fault:
		user_access_end();
	}
	kernel_fpu_end();
	return left ? copy_to_user(dst, src, left) : 0;
}
