// SPDX-License-Identifier: GPL-2.0
/*
 * Several devices (aclrtDeviceCanAccessPeer, aclrtDeviceEnablePeerAccess,
 * aclrtDeviceDisablePeerAccess): the PEER_ACCESS ioctl, the rule that lets
 * one device's copies and imports reach another device's memory, and the
 * per device pair copy counters of debugfs "peer_copies".
 *
 * Peer access is one-directional and belongs to the open file of the
 * device that gains access (npu_ctx.peers), so it dies with the process.
 * A copy between two devices is issued on one of them and needs access
 * from that device to the other; the driver moves the bytes between the
 * two devices' backing pages in one copy.
 */
#include <linux/atomic.h>
#include <linux/file.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

struct npu_peer_counter {
	atomic64_t copies;
	atomic64_t bytes;
};

/* [source device][destination device] */
static struct npu_peer_counter
npu_peer_counters[NPU_SIM_MAX_DEVICES][NPU_SIM_MAX_DEVICES];

/*
 * Give @ctx's device access to @other's memory; false if it had it (or
 * @other is @ctx's own device).
 */
bool npu_peer_grant(struct npu_ctx *ctx, struct npu_dev *other)
{
	bool granted;

	down_write(&ctx->lock);
	granted = !npu_peer_allowed(ctx, other);
	if (granted)
		WRITE_ONCE(ctx->peers, ctx->peers | BIT(other->index));
	up_write(&ctx->lock);
	return granted;
}

/*
 * The context owning device address @addr for a D2D copy issued on @ctx:
 * @ctx itself, or another device's context of the same process when @ctx
 * has peer access to it (then referenced: npu_ctx_put).
 * NULL with *@err -EINVAL (no device address) or -EPERM (no peer access).
 */
struct npu_ctx *npu_peer_resolve(struct npu_ctx *ctx, unsigned long addr,
				 int *err)
{
	struct npu_ctx *owner;
	bool own;

	down_write(&ctx->lock);
	own = ctx->win_state == NPU_WIN_MAPPED && addr >= ctx->win_start &&
	      addr < ctx->win_end;
	up_write(&ctx->lock);
	if (own)
		return ctx;

	owner = npu_window_owner(addr);
	if (!owner) {
		*err = -EINVAL;
		return NULL;
	}
	if (owner == ctx) {		/* no window of its own any more */
		npu_ctx_put(owner);
		return ctx;
	}
	if (!npu_peer_allowed(ctx, owner->ndev)) {
		npu_ctx_put(owner);
		*err = -EPERM;
		return NULL;
	}
	return owner;
}

void npu_peer_count(struct npu_dev *src, struct npu_dev *dst, u64 bytes)
{
	struct npu_peer_counter *c = &npu_peer_counters[src->index][dst->index];

	atomic64_inc(&c->copies);
	atomic64_add(bytes, &c->bytes);
}

/* debugfs "peer_copies": one row per device pair that copied anything. */
void npu_peer_show(struct seq_file *m)
{
	unsigned int s, d;

	seq_puts(m, "src dst copies bytes\n");
	for (s = 0; s < npu_num_devs; s++) {
		for (d = 0; d < npu_num_devs; d++) {
			struct npu_peer_counter *c = &npu_peer_counters[s][d];
			s64 n = atomic64_read(&c->copies);

			if (n)
				seq_printf(m, "%u %u %lld %lld\n", s, d, n,
					   (long long)atomic64_read(&c->bytes));
		}
	}
}

static void npu_peer_show_ctx(struct npu_ctx *ctx, void *m)
{
	unsigned long peers = READ_ONCE(ctx->peers);
	unsigned int i;

	for_each_set_bit(i, &peers, NPU_SIM_MAX_DEVICES)
		seq_printf(m, "%d %u\n", ctx->pid, i);
}

/* debugfs "peers" of a device: which process may access which device. */
void npu_peer_ctx_show(struct seq_file *m, struct npu_dev *ndev)
{
	seq_puts(m, "pid peer\n");
	npu_dev_walk_ctxs(ndev, true, npu_peer_show_ctx, m);
}

int npu_ioctl_peer_access(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_peer_access args;
	u32 bit, old;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.enabled || args.peer == ctx->ndev->index ||
	    args.op < NPU_SIM_PEER_ENABLE || args.op > NPU_SIM_PEER_QUERY)
		return -EINVAL;
	if (args.peer >= npu_num_devs)
		return -ENODEV;
	bit = BIT(args.peer);

	down_write(&ctx->lock);
	old = ctx->peers;
	if (args.op == NPU_SIM_PEER_ENABLE) {
		if (ctx->peers & bit)
			ret = -EEXIST;
		else
			WRITE_ONCE(ctx->peers, ctx->peers | bit);
	} else if (args.op == NPU_SIM_PEER_DISABLE) {
		if (!(ctx->peers & bit))
			ret = -ENOENT;
		else
			WRITE_ONCE(ctx->peers, ctx->peers & ~bit);
	}
	args.enabled = !!(ctx->peers & bit);
	up_write(&ctx->lock);
	if (ret)
		return ret;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		/* Nobody learnt of the change: take it back. */
		down_write(&ctx->lock);
		WRITE_ONCE(ctx->peers, old);
		up_write(&ctx->lock);
		return -EFAULT;
	}
	return 0;
}
