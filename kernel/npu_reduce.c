// SPDX-License-Identifier: GPL-2.0
/*
 * npu_sim: element arithmetic of OP_REDUCE, the SDMA reduce (pure).
 *
 * dst[i] = dst[i] <kind> src[i].  Integer sums wrap as two's complement.
 * Float elements (binary32, binary16, bfloat16) are handled on their bit
 * patterns in integer arithmetic (the kernel does not use the FPU): sums
 * rounded to nearest, ties to even, as IEEE 754 addition.
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
	case NPU_SIM_REDUCE_FP32:
		return 4;
	case NPU_SIM_REDUCE_FP16:
	case NPU_SIM_REDUCE_BF16:
		return 2;
	}
	return 0;
}

/* A float format: exponent and fraction bits (sign bit above them). */
struct npu_fmt {
	unsigned int ebits, mbits;
};

static const struct npu_fmt npu_fp32 = { 8, 23 };
static const struct npu_fmt npu_fp16 = { 5, 10 };
static const struct npu_fmt npu_bf16 = { 8, 7 };

/* The positive quiet NaN with an empty payload. */
static u32 npu_fp_qnan(const struct npu_fmt *f)
{
	return ((1U << f->ebits) - 1) << f->mbits | 1U << (f->mbits - 1);
}

static bool npu_fp_isnan(const struct npu_fmt *f, u32 x)
{
	u32 emax = (1U << f->ebits) - 1;

	return ((x >> f->mbits) & emax) == emax && (x & ((1U << f->mbits) - 1));
}

/* Round a significand with 3 extra bits (guard, round, sticky) and pack. */
static u32 npu_fp_pack(const struct npu_fmt *f, u32 sign, int e, u64 s)
{
	const unsigned int m = f->mbits;
	const u32 emax = (1U << f->ebits) - 1;
	u32 low = s & 7;

	s >>= 3;
	if (low > 4 || (low == 4 && (s & 1)))
		s++;
	if (s >= (1ULL << (m + 1))) {
		s >>= 1;
		e++;
	}
	if (e >= (int)emax)
		return sign | emax << m;	/* overflow: infinity */
	if (!(s & (1ULL << m)))
		return sign | (u32)s;		/* subnormal */
	return sign | (u32)e << m | ((u32)s & ((1U << m) - 1));
}

/* a + b in format @f. */
static u32 npu_fp_add(const struct npu_fmt *f, u32 a, u32 b)
{
	const unsigned int m = f->mbits;
	const u32 sign = 1U << (f->ebits + m), mag = sign - 1;
	const u32 emax = (1U << f->ebits) - 1, fmask = (1U << m) - 1;
	u32 ea, eb, t;
	u64 sa, sb, s;
	int e;

	if (npu_fp_isnan(f, a) || npu_fp_isnan(f, b))
		return npu_fp_qnan(f);
	if ((a & mag) < (b & mag))
		swap(a, b);			/* |a| >= |b| from here */
	ea = (a >> m) & emax;
	eb = (b >> m) & emax;
	if (ea == emax)
		return eb == emax && ((a ^ b) & sign) ? npu_fp_qnan(f) : a;
	if (!(b & mag))				/* b is a zero */
		return (a & mag) ? a : (a & b & sign);
	sa = (u64)((a & fmask) | (ea ? 1U << m : 0)) << 3;
	sb = (u64)((b & fmask) | (eb ? 1U << m : 0)) << 3;
	ea = ea ? ea : 1;
	eb = eb ? eb : 1;
	if (ea - eb > m + 4) {
		sb = 1;				/* all of b is below the sticky bit */
	} else if (ea != eb) {
		t = ea - eb;
		sb = (sb >> t) | ((sb & ((1ULL << t) - 1)) ? 1 : 0);
	}
	e = ea;
	if ((a ^ b) & sign) {
		s = sa - sb;
		if (!s)
			return 0;		/* x + -x is +0 */
		while (s < (1ULL << (m + 3)) && e > 1) {
			s <<= 1;
			e--;
		}
	} else {
		s = sa + sb;
		if (s >= (1ULL << (m + 4))) {
			s = (s >> 1) | (s & 1);
			e++;
		}
	}
	return npu_fp_pack(f, a & sign, e, s);
}

/* max (or min) of a and b in format @f: -0 < +0, NaN if either is NaN. */
static u32 npu_fp_max(const struct npu_fmt *f, u32 a, u32 b, bool max)
{
	u32 sign = 1U << (f->ebits + f->mbits);
	u32 ka = a & sign ? ~a & (2 * sign - 1) : a | sign;
	u32 kb = b & sign ? ~b & (2 * sign - 1) : b | sign;

	if (npu_fp_isnan(f, a) || npu_fp_isnan(f, b))
		return npu_fp_qnan(f);
	return (ka > kb) == max ? a : b;
}

static u32 npu_fp_op(const struct npu_fmt *f, u32 kind, u32 a, u32 b)
{
	if (kind == NPU_SIM_REDUCE_SUM)
		return npu_fp_add(f, a, b);
	return npu_fp_max(f, a, b, kind == NPU_SIM_REDUCE_MAX);
}

static void npu_reduce_fp(void *dst, const void *src, size_t n, u32 kind,
			  const struct npu_fmt *f)
{
	size_t i;

	if (f == &npu_fp32) {
		u32 *d = dst;
		const u32 *s = src;

		for (i = 0; i < n / 4; i++)
			d[i] = npu_fp_op(f, kind, d[i], s[i]);
	} else {
		u16 *d = dst;
		const u16 *s = src;

		for (i = 0; i < n / 2; i++)
			d[i] = (u16)npu_fp_op(f, kind, d[i], s[i]);
	}
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
	case NPU_SIM_REDUCE_FP32:
		npu_reduce_fp(dst, src, n, kind, &npu_fp32);
		break;
	case NPU_SIM_REDUCE_FP16:
		npu_reduce_fp(dst, src, n, kind, &npu_fp16);
		break;
	case NPU_SIM_REDUCE_BF16:
		npu_reduce_fp(dst, src, n, kind, &npu_bf16);
		break;
	}
}
