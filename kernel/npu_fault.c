// SPDX-License-Identifier: GPL-2.0
/*
 * Seeded fault injection (API 1.6): each context draws from its own
 * splitmix64 sequence once per eligible operation, in the order it receives
 * them, so the same seed fails the same calls of the same program again.
 * A context starts with its device's setting (debugfs "faults", root);
 * FAULT_INJECT replaces it for the calling file.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "npu_sim.h"
#include "npu_trace.h"

static u64 npu_splitmix64(u64 *state)
{
	u64 z = (*state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static void npu_fault_set(struct npu_fault_state *f, u64 seed, u32 rate,
			  u32 ops)
{
	spin_lock(&f->lock);
	f->seed = seed;
	f->state = seed;
	f->rate = rate;
	f->ops = rate ? ops : 0;
	f->calls = 0;
	f->injected = 0;
	spin_unlock(&f->lock);
}

void npu_fault_ctx_init(struct npu_ctx *ctx)
{
	struct npu_dev *ndev = ctx->ndev;
	u64 seed;
	u32 rate, ops;

	spin_lock_init(&ctx->fault.lock);
	spin_lock(&ndev->fault_lock);
	seed = ndev->fault_seed;
	rate = ndev->fault_rate;
	ops = ndev->fault_ops;
	spin_unlock(&ndev->fault_lock);
	npu_fault_set(&ctx->fault, seed, rate, ops);
}

/* The errno an injected failure of class @op returns. */
static int npu_fault_errno(enum npu_sim_fault_op op)
{
	switch (op) {
	case NPU_SIM_FAULT_COPY:
	case NPU_SIM_FAULT_STREAM:
		return -EIO;
	default:
		return -ENOMEM;
	}
}

/*
 * Called by an operation of class @op after its own argument checks: 0 to
 * go on, or the errno to fail with (counted as fail_injected).
 */
int npu_fault_check(struct npu_ctx *ctx, enum npu_sim_fault_op op)
{
	struct npu_fault_state *f = &ctx->fault;
	bool fail = false;
	u64 call = 0;
	int err;

	if (!(READ_ONCE(f->ops) & BIT(op)))
		return 0;
	spin_lock(&f->lock);
	if (f->ops & BIT(op)) {
		u32 draw;

		div_u64_rem(npu_splitmix64(&f->state), NPU_SIM_FAULT_RATE_ONE,
			    &draw);
		call = ++f->calls;
		fail = draw < f->rate;
		if (fail)
			f->injected++;
	}
	spin_unlock(&f->lock);
	if (!fail)
		return 0;
	err = npu_fault_errno(op);
	npu_stat_inc(ctx->ndev, NPU_STAT_FAIL_INJECTED);
	trace_npu_sim_fault_inject(ctx->ndev->index, ctx->pid, op, call, err);
	return err;
}

static int npu_fault_args_check(u32 rate, u32 ops)
{
	if (rate > NPU_SIM_FAULT_RATE_ONE || (ops & ~NPU_SIM_FAULT_OPS_MASK) ||
	    (rate && !ops))
		return -EINVAL;
	return 0;
}

int npu_ioctl_fault_inject(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_fault_inject args;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad || args.reserved[0] || args.reserved[1] ||
	    npu_fault_args_check(args.rate, args.ops))
		return -EINVAL;
	npu_fault_set(&ctx->fault, args.seed, args.rate, args.ops);
	return 0;
}

/* debugfs "faults" write: "SEED RATE_PPM OPS_MASK" for new contexts. */
int npu_fault_dev_parse(struct npu_dev *ndev, char *buf)
{
	u64 seed;
	u32 rate, ops;

	if (sscanf(strim(buf), "%llu %u %i", &seed, &rate, &ops) != 3 ||
	    npu_fault_args_check(rate, ops))
		return -EINVAL;
	spin_lock(&ndev->fault_lock);
	ndev->fault_seed = seed;
	ndev->fault_rate = rate;
	ndev->fault_ops = rate ? ops : 0;
	spin_unlock(&ndev->fault_lock);
	return 0;
}

void npu_fault_dev_print(struct seq_file *m, struct npu_dev *ndev)
{
	u64 seed;
	u32 rate, ops;

	spin_lock(&ndev->fault_lock);
	seed = ndev->fault_seed;
	rate = ndev->fault_rate;
	ops = ndev->fault_ops;
	spin_unlock(&ndev->fault_lock);
	seq_printf(m, "%llu %u 0x%x\n", seed, rate, ops);
}
