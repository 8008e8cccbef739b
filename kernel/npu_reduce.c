// SPDX-License-Identifier: GPL-2.0
/*
 * npu_sim: element arithmetic of OP_REDUCE, the SDMA reduce (pure).
 *
 * dst[i] = dst[i] <kind> src[i] for integer elements.  Sums wrap as two's
 * complement; the emulated DMA engine has no float unit, so float types
 * are not offered (npu_memops.c refuses them with -EOPNOTSUPP).
 */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>

#include "npu_sim.h"

unsigned int npu_reduce_elem_size(u32 type)
{
	switch (type) {
	case NPU_SIM_REDUCE_INT8:
	case NPU_SIM_REDUCE_UINT8:
		return 1;
	case NPU_SIM_REDUCE_INT16:
	case NPU_SIM_REDUCE_UINT16:
		return 2;
	case NPU_SIM_REDUCE_INT32:
	case NPU_SIM_REDUCE_UINT32:
		return 4;
	}
	return 0;
}

/*
 * One loop per element type; the sum is done unsigned so that a signed
 * overflow wraps instead of being undefined.
 */
#define NPU_REDUCE_LOOP(T, UT, dst, src, n, kind)			\
	do {								\
		T *d_ = (T *)(dst);					\
		const T *s_ = (const T *)(src);				\
		size_t i_, k_ = (n) / sizeof(T);			\
									\
		for (i_ = 0; i_ < k_; i_++) {				\
			T a_ = d_[i_], b_ = s_[i_];			\
									\
			if ((kind) == NPU_SIM_REDUCE_SUM)		\
				d_[i_] = (T)((UT)a_ + (UT)b_);		\
			else if ((kind) == NPU_SIM_REDUCE_MAX)		\
				d_[i_] = max(a_, b_);			\
			else						\
				d_[i_] = min(a_, b_);			\
		}							\
	} while (0)

void npu_reduce_apply(void *dst, const void *src, size_t n, u32 kind, u32 type)
{
	switch (type) {
	case NPU_SIM_REDUCE_INT8:
		NPU_REDUCE_LOOP(s8, u8, dst, src, n, kind);
		break;
	case NPU_SIM_REDUCE_INT16:
		NPU_REDUCE_LOOP(s16, u16, dst, src, n, kind);
		break;
	case NPU_SIM_REDUCE_INT32:
		NPU_REDUCE_LOOP(s32, u32, dst, src, n, kind);
		break;
	case NPU_SIM_REDUCE_UINT8:
		NPU_REDUCE_LOOP(u8, u8, dst, src, n, kind);
		break;
	case NPU_SIM_REDUCE_UINT16:
		NPU_REDUCE_LOOP(u16, u16, dst, src, n, kind);
		break;
	case NPU_SIM_REDUCE_UINT32:
		NPU_REDUCE_LOOP(u32, u32, dst, src, n, kind);
		break;
	}
}
