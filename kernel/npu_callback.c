// SPDX-License-Identifier: GPL-2.0
/*
 * Host callbacks (1.9): CB_SUBSCRIBE, CB_WAIT, CB_DONE and CB_QUERY, the host
 * side of the reports a stream's CALLBACK op posts (npu_report.c).
 *
 * A host thread waits in CB_WAIT for the reports of its channel, runs the
 * callback in user space and acknowledges it with CB_DONE, which lets a
 * stream held by a BLOCK callback go on.  The wait holds no lock and ends
 * at any signal.
 */
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "npu_sim.h"

#define NPU_CB_SUBSCRIBE_FLAGS \
	(NPU_SIM_CB_HOSTFUNC | NPU_SIM_CB_RUNTIME | NPU_SIM_CB_UNSUBSCRIBE)

int npu_ioctl_cb_subscribe(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_cb_subscribe a;
	struct npu_stream *kick;
	int ret;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	/* An unsubscribe from channel 0 (no channel) only reports. */
	if ((!a.channel && !(a.flags & NPU_SIM_CB_UNSUBSCRIBE)) ||
	    (a.flags & ~NPU_CB_SUBSCRIBE_FLAGS))
		return -EINVAL;
	/* RUNTIME names the library's thread of a host function channel. */
	if ((a.flags & NPU_SIM_CB_RUNTIME) &&
	    (!(a.flags & NPU_SIM_CB_HOSTFUNC) ||
	     (a.flags & NPU_SIM_CB_UNSUBSCRIBE)))
		return -EINVAL;
	if (!(a.flags & NPU_SIM_CB_UNSUBSCRIBE))
		return npu_report_subscribe(ctx, a.stream, a.flags, a.channel);

	xa_lock(&ctx->streams);
	if (!xa_load(&ctx->streams, a.stream)) {
		ret = -ENOENT;
	} else {
		spin_lock(&ctx->sq_lock);
		kick = npu_report_unsubscribe_locked(ctx, a.stream, a.flags,
						     a.channel, &ret);
		if (kick)
			npu_stream_callback_done(kick);
		spin_unlock(&ctx->sq_lock);
	}
	xa_unlock(&ctx->streams);
	/* A thread waiting on the channel may have no stream left. */
	wake_up_all(&ctx->cb_wq);
	return ret;
}

int npu_ioctl_cb_wait(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_cb_wait a;
	long left;
	int taken = 0;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	if (!a.channel || (a.flags & ~NPU_SIM_CB_HOSTFUNC) || a.report ||
	    a.cookie || a.stream || a.block)
		return -EINVAL;
	/* A taken report must reach the caller: make sure it can be written. */
	if (copy_to_user(uarg, &a, sizeof(a)))
		return -EFAULT;
	left = a.timeout_ms ? msecs_to_jiffies(a.timeout_ms) :
			      MAX_SCHEDULE_TIMEOUT;
	left = wait_event_interruptible_timeout(ctx->cb_wq,
			(taken = npu_report_take(ctx, &a)) != 0, left);
	if (taken < 0)
		return taken;
	if (!taken)
		return left < 0 ? -EINTR : -ETIMEDOUT;
	if (copy_to_user(uarg, &a, sizeof(a)))
		return -EFAULT;
	return 0;
}

int npu_ioctl_cb_done(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_cb_done a;
	struct npu_stream *kick;
	int ret;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	if (a.reserved)
		return -EINVAL;
	spin_lock(&ctx->sq_lock);
	kick = npu_report_done_locked(ctx, a.report, &ret);
	if (kick)
		npu_stream_callback_done(kick);
	spin_unlock(&ctx->sq_lock);
	return ret;
}

int npu_ioctl_cb_query(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_cb_query a;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	if (!a.channel || (a.flags & ~NPU_SIM_CB_HOSTFUNC) || a.streams)
		return -EINVAL;
	a.streams = npu_report_streams(ctx, a.channel, a.flags);
	if (copy_to_user(uarg, &a, sizeof(a)))
		return -EFAULT;
	return 0;
}
