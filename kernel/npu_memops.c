// SPDX-License-Identifier: GPL-2.0
/*
 * npu_sim: the stream memory operations of API 1.9 (NPU_SIM_CAP_MEM_OPS):
 * OP_SET with a 32-bit pattern, OP_REDUCE (the SDMA reduce) and OP_CMO
 * (cache maintenance).  Here are their field checks and the set-up of the
 * transfer that checks and references their device memory at submit time;
 * the stream engine (npu_stream.c) queues and runs them, the copy engine
 * (npu_copy.c) moves the bytes.
 */
#include <linux/align.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/types.h>

#include "npu_sim.h"

/* Whether STREAM_SUBMIT @a is one of the operations of this file. */
bool npu_memop_submit(const struct npu_sim_stream_submit *a)
{
	return (a->op == NPU_SIM_OP_SET && a->flags) ||
	       a->op == NPU_SIM_OP_REDUCE || a->op == NPU_SIM_OP_CMO;
}

/* Fields every operation of this file leaves 0. */
static bool npu_memop_zero(const struct npu_sim_stream_submit *a)
{
	return !a->seq && !a->event && !a->dir && !a->location &&
	       !a->location_id;
}

static int npu_memop_check_set32(const struct npu_sim_stream_submit *a)
{
	if (a->flags != NPU_SIM_SET_32 || a->src || a->spitch || a->operand)
		return -EINVAL;
	if (!IS_ALIGNED(a->dst | a->dpitch | a->width, sizeof(u32)))
		return -EINVAL;
	return 0;
}

static int npu_memop_check_reduce(const struct npu_sim_stream_submit *a)
{
	unsigned int esz = npu_reduce_elem_size(a->flags);

	if (a->operand || a->height != 1 || a->dpitch != a->width ||
	    a->spitch != a->width || !a->width)
		return -EINVAL;
	if (a->value == NPU_SIM_REDUCE_SUM && a->width > NPU_SIM_REDUCE_MAX_BYTES)
		return -EINVAL;
	if (a->value < NPU_SIM_REDUCE_SUM || !esz)
		return -EINVAL;
	/* EQUAL (13) is a real kind this device does not reduce. */
	if (a->value > NPU_SIM_REDUCE_MIN)
		return a->value == NPU_SIM_REDUCE_MIN + 1 ? -EOPNOTSUPP : -EINVAL;
	if (!IS_ALIGNED(a->dst | a->src | a->width, esz))
		return -EINVAL;
	return npu_profile_check_reduce(a->value, a->flags);
}

static int npu_memop_check_cmo(const struct npu_sim_stream_submit *a)
{
	if (a->flags || a->src || a->spitch || a->value > NPU_SIM_CMO_FLUSH ||
	    !a->width || a->height != 1 || a->dpitch != a->width ||
	    a->operand > U32_MAX)
		return -EINVAL;
	if (a->operand && a->value != NPU_SIM_CMO_INVALIDATE)
		return -EINVAL;
	return npu_profile_check_cmo();
}

/* Field checks of an operation for which npu_memop_submit() holds. */
int npu_memop_check(const struct npu_sim_stream_submit *a)
{
	if (!npu_memop_zero(a))
		return -EINVAL;
	switch (a->op) {
	case NPU_SIM_OP_SET:
		return npu_memop_check_set32(a);
	case NPU_SIM_OP_REDUCE:
		return npu_memop_check_reduce(a);
	case NPU_SIM_OP_CMO:
		return npu_memop_check_cmo(a);
	}
	return -EINVAL;
}

/*
 * Check and reference the device memory of a checked operation: the
 * transfer, or an ERR_PTR.
 */
struct npu_xfer *npu_memop_prepare(struct npu_ctx *ctx,
				   const struct npu_sim_stream_submit *a)
{
	switch (a->op) {
	case NPU_SIM_OP_SET:
		return npu_xfer_prepare(ctx, NPU_XFER_SET32, a->dst, a->dpitch,
					0, 0, a->width, a->height, a->value);
	case NPU_SIM_OP_REDUCE:
		return npu_xfer_prepare(ctx, NPU_XFER_REDUCE, a->dst, a->width,
					a->src, a->width, a->width, 1,
					a->value | a->flags << 8);
	case NPU_SIM_OP_CMO:
		return npu_xfer_prepare(ctx, NPU_XFER_HOLD, a->dst, a->width,
					0, 0, a->width, 1, 0);
	}
	return ERR_PTR(-EINVAL);
}
