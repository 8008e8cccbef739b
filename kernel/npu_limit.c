// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process device memory accounts and limits (API 1.6).
 *
 * One account (struct npu_proc) per process and device, shared by the
 * process's contexts on the device and referenced by every npu_phys it
 * charged, so a byte stays charged until its object is gone.  A process is
 * its thread group (the struct pid of its tgid, not its mm): exec keeps the
 * account, a forked child is a process of its own.  What is charged: every
 * device npu_phys created on behalf of the process (linear allocations,
 * physical handles, managed device copies), and what it imports of another
 * process's device memory while it holds the import (npu_handle.c,
 * npu_ipc.c), so a process never holds more than its limit however many
 * children export to it.  The limit that applies is the smaller of the
 * device's proc_mem_limit_bytes (sysfs, set by root) and the process's own
 * limit (MEM_LIMIT, which can only go down).
 */
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

/* Every account of every device (when it is taken: npu_sim.h, lock order). */
static LIST_HEAD(npu_procs);
static DEFINE_MUTEX(npu_limit_lock);

/* The limit that applies to @proc now (0 = none) and what is charged to it. */
void npu_limit_read(struct npu_proc *proc, u64 *effective, u64 *used)
{
	/*
	 * No lock: each value is one word its writers store whole (under
	 * the device's cap_lock), and the two need not be read at one instant; a
	 * charge racing this call is seen or not, as with the lock.
	 */
	*used = READ_ONCE(proc->used);
	*effective = npu_limit_min(READ_ONCE(proc->ndev->proc_mem_limit),
				   READ_ONCE(proc->own_limit));
}

/* The limit that applies to @proc now, 0 = none. */
u64 npu_limit_effective(struct npu_proc *proc)
{
	u64 effective, used;

	npu_limit_read(proc, &effective, &used);
	return effective;
}

/*
 * Charge @bytes to @proc unless that takes it past its limit: 0, or
 * -EUSERS over the limit (nothing charged).
 */
int npu_limit_charge(struct npu_proc *proc, u64 bytes)
{
	int ret = -EUSERS;

	spin_lock(&proc->ndev->cap_lock);
	if (!npu_limit_over_locked(proc, bytes)) {
		npu_limit_add_locked(proc, bytes);
		ret = 0;
	}
	spin_unlock(&proc->ndev->cap_lock);
	return ret;
}

void npu_limit_uncharge(struct npu_proc *proc, u64 bytes)
{
	spin_lock(&proc->ndev->cap_lock);
	npu_limit_add_locked(proc, -bytes);
	spin_unlock(&proc->ndev->cap_lock);
}

/* Called with npu_limit_lock held (kref_put_mutex); drops it. */
static void npu_proc_release(struct kref *ref)
{
	struct npu_proc *proc = container_of(ref, struct npu_proc, ref);

	list_del(&proc->node);
	mutex_unlock(&npu_limit_lock);
	put_pid(proc->tgid);
	kfree(proc);
}

/* May sleep: the last reference takes npu_limit_lock. */
void npu_proc_put(struct npu_proc *proc)
{
	kref_put_mutex(&proc->ref, npu_proc_release, &npu_limit_lock);
}

/*
 * Give a new context, opened by the current process, the account of that
 * process on its device, making it if this is the process's first context
 * there.  0 or -ENOMEM.
 */
int npu_limit_ctx_init(struct npu_ctx *ctx)
{
	struct npu_proc *proc, *it;

	proc = kzalloc(sizeof(*proc), GFP_KERNEL_ACCOUNT);
	if (!proc)
		return -ENOMEM;
	mutex_lock(&npu_limit_lock);
	list_for_each_entry(it, &npu_procs, node) {
		if (it->ndev == ctx->ndev && it->tgid == task_tgid(current)) {
			kref_get(&it->ref);
			ctx->proc = it;
			mutex_unlock(&npu_limit_lock);
			kfree(proc);
			return 0;
		}
	}
	kref_init(&proc->ref);
	proc->ndev = ctx->ndev;
	proc->tgid = get_pid(task_tgid(current));
	proc->pid = ctx->pid;
	list_add_tail(&proc->node, &npu_procs);
	ctx->proc = proc;
	mutex_unlock(&npu_limit_lock);
	return 0;
}

void npu_limit_ctx_teardown(struct npu_ctx *ctx)
{
	npu_proc_put(ctx->proc);
	ctx->proc = NULL;
}

int npu_ioctl_mem_limit(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_proc *proc = ctx->proc;
	struct npu_sim_mem_limit args;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.reserved ||
	    npu_uapi_out_set(&args, own_limit, used))
		return -EINVAL;
	if (args.op == NPU_SIM_LIMIT_GET ? args.limit :
	    args.op != NPU_SIM_LIMIT_SET || !args.limit)
		return -EINVAL;

	spin_lock(&ctx->ndev->cap_lock);
	if (args.op == NPU_SIM_LIMIT_SET) {
		if (proc->own_limit && args.limit > proc->own_limit)
			ret = -EPERM;
		else
			WRITE_ONCE(proc->own_limit, args.limit);
	}
	args.own_limit = proc->own_limit;
	args.used = proc->used;
	spin_unlock(&ctx->ndev->cap_lock);
	if (ret)
		return ret;
	args.admin_limit = READ_ONCE(ctx->ndev->proc_mem_limit);
	args.effective = npu_limit_min(args.admin_limit, args.own_limit);
	return copy_to_user(uarg, &args, sizeof(args)) ? -EFAULT : 0;
}

/* debugfs "limits": one line per account of @ndev. */
void npu_limit_show(struct seq_file *m, struct npu_dev *ndev)
{
	struct npu_proc *proc;

	seq_puts(m, "pid used_bytes own_limit admin_limit effective_limit\n");
	mutex_lock(&npu_limit_lock);
	list_for_each_entry(proc, &npu_procs, node) {
		u64 used, own;

		if (proc->ndev != ndev)
			continue;
		spin_lock(&ndev->cap_lock);
		used = proc->used;
		own = proc->own_limit;
		spin_unlock(&ndev->cap_lock);
		seq_printf(m, "%d %llu %llu %llu %llu\n", proc->pid, used, own,
			   READ_ONCE(ndev->proc_mem_limit),
			   npu_limit_min(READ_ONCE(ndev->proc_mem_limit), own));
	}
	mutex_unlock(&npu_limit_lock);
}

/* ---- sysfs: proc_mem_limit_bytes ------------------------------------------ */

static ssize_t proc_mem_limit_bytes_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);

	return sysfs_emit(buf, "%llu\n", READ_ONCE(ndev->proc_mem_limit));
}

/* Root only (mode 0644); applies to the next allocation of every process. */
static ssize_t proc_mem_limit_bytes_store(struct device *dev,
					  struct device_attribute *attr,
					  const char *buf, size_t count)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);
	u64 val;
	int ret;

	ret = kstrtou64(buf, 0, &val);
	if (ret)
		return ret;
	WRITE_ONCE(ndev->proc_mem_limit, val);
	return count;
}
DEVICE_ATTR_RW(proc_mem_limit_bytes);
