// SPDX-License-Identifier: GPL-2.0
/*
 * Sharing physical memory between processes (docs/design.md 4.3, aclrtMem*
 * ShareableHandle): an exported handle gets an unguessable non-zero 64-bit
 * key in a machine-wide table.  Another process imports the key if its tgid
 * (initial pid namespace) is on the whitelist the exporter set, or the
 * export disabled pid validation; export and import may not happen in the
 * same process.  An import is a new handle of the importer's context that
 * references the same npu_phys, which stays charged once, to the device of
 * its creator, until its last holder lets go.  The key table itself is in
 * npu_handle.c; the key dies with the exporting handle.  Whitelist entries
 * hold the struct pid of the process named, so a recycled number does not
 * inherit the right to import.
 */
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

int npu_ioctl_share_export(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_share_export args;
	struct npu_share *sh;
	struct npu_handle *h;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_SHARE_FLAGS_MASK || args.key)
		return -EINVAL;

	sh = kzalloc(sizeof(*sh), GFP_KERNEL_ACCOUNT);
	if (!sh)
		return -ENOMEM;

	mutex_lock(&ctx->lock);
	h = npu_handle_lookup(ctx, args.handle);
	if (!h)
		ret = -ENOENT;
	else if (h->imported)
		ret = -EPERM;
	else if (h->share)
		ret = -EEXIST;
	if (ret) {
		mutex_unlock(&ctx->lock);
		kfree(sh);
		return ret;
	}
	sh->phys = h->phys;
	npu_phys_get(sh->phys);
	sh->ndev = ctx->ndev;
	sh->owner = task_tgid_nr(current);
	sh->handle_id = h->id;
	sh->flags = args.flags;

	npu_share_publish(h, sh);
	mutex_unlock(&ctx->lock);

	args.key = sh->key;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		mutex_lock(&ctx->lock);
		h = npu_handle_lookup(ctx, args.handle);
		if (h && h->share && h->share->key == args.key)
			npu_share_unexport(h);
		mutex_unlock(&ctx->lock);
		return -EFAULT;
	}
	return 0;
}

/*
 * Whitelist entries are bound to the process, not to its number: a
 * struct pid reference of the tgid as it is at set time (initial pid
 * namespace), so a process that later gets a recycled number does not
 * match.  A number with no process behind it matches nobody.
 */
static void npu_share_pids_get(struct npu_share_pid *e, u32 nr)
{
	u32 i;

	rcu_read_lock();
	for (i = 0; i < nr; i++)
		e[i].pid = get_pid(find_pid_ns(e[i].nr, &init_pid_ns));
	rcu_read_unlock();
}

int npu_ioctl_share_set_pids(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_share_set_pids args;
	struct npu_share_pid *ents, *grown;
	struct npu_share *sh;
	pid_t __user *up;
	u32 i;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || !args.nr || args.nr > NPU_SIM_SHARE_MAX_PIDS ||
	    !args.pids)
		return -EINVAL;

	ents = kcalloc(args.nr, sizeof(*ents), GFP_KERNEL_ACCOUNT);
	if (!ents)
		return -ENOMEM;
	up = u64_to_user_ptr(args.pids);
	for (i = 0; i < args.nr; i++) {
		if (get_user(ents[i].nr, up + i)) {
			kfree(ents);
			return -EFAULT;
		}
		if (ents[i].nr <= 0) {
			kfree(ents);
			return -EINVAL;
		}
	}
	npu_share_pids_get(ents, args.nr);

	mutex_lock(&npu_share_lock);
	sh = npu_share_find(args.key);
	if (!sh || !args.key) {
		ret = -ENOENT;
	} else if (sh->owner != task_tgid_nr(current)) {
		ret = -EPERM;
	} else if (sh->nr_pids + args.nr > NPU_SIM_SHARE_MAX_PIDS) {
		ret = -ENOSPC;
	} else {
		grown = krealloc_array(sh->pids, sh->nr_pids + args.nr,
				       sizeof(*grown), GFP_KERNEL_ACCOUNT);
		if (!grown) {
			ret = -ENOMEM;
		} else {
			memcpy(grown + sh->nr_pids, ents,
			       (size_t)args.nr * sizeof(*ents));
			sh->pids = grown;
			sh->nr_pids += args.nr;
			args.nr = 0;	/* the references moved */
		}
	}
	mutex_unlock(&npu_share_lock);
	npu_share_pids_put(ents, args.nr);
	kfree(ents);
	return ret;
}

/* Whether the current process may import @sh (npu_share_lock held). */
bool npu_share_allows(const struct npu_share *sh)
{
	struct pid *me = task_tgid(current);
	u32 i;

	if (sh->flags & NPU_SIM_SHARE_NO_PID_CHECK)
		return true;
	for (i = 0; i < sh->nr_pids; i++)
		if (sh->pids[i].pid == me)
			return true;
	return false;
}

int npu_ioctl_share_import(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_share_import args;
	pid_t tgid = task_tgid_nr(current);
	struct npu_phys *phys = NULL;
	struct npu_share *sh;
	int ret = 0;
	u32 id;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || npu_uapi_out_set(&args, handle, size))
		return -EINVAL;

	mutex_lock(&npu_share_lock);
	sh = args.key ? npu_share_find(args.key) : NULL;
	if (!sh || sh->ctx) {		/* an IPC key is not a handle */
		ret = -ENOENT;
	} else if (sh->owner == tgid) {
		ret = -EPERM;
	} else if (!npu_share_allows(sh)) {
		ret = -EACCES;
	} else if (!npu_peer_allowed(ctx, sh->ndev)) {
		ret = -EXDEV;
	} else if (npu_fault_check(ctx, NPU_SIM_FAULT_IMPORT)) {
		ret = -ENOMEM;		/* injected (the class's errno) */
	} else {
		phys = sh->phys;
		npu_phys_get(phys);
		sh->imports++;
	}
	mutex_unlock(&npu_share_lock);
	if (ret)
		return ret;

	mutex_lock(&ctx->lock);
	ret = npu_handle_add(ctx, phys, true, &id);
	mutex_unlock(&ctx->lock);
	if (ret) {
		npu_phys_put(phys);
		return ret;
	}

	args.handle = id;
	args.size = phys->size;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		npu_handle_unpublish(ctx, id, phys);
		return -EFAULT;
	}
	return 0;
}

struct npu_share_show_arg {
	struct seq_file *m;
	struct npu_dev *ndev;
};

static void npu_share_show_one(struct npu_share *sh, void *data)
{
	struct npu_share_show_arg *a = data;
	struct seq_file *m = a->m;
	u32 i;

	if (sh->ndev != a->ndev)
		return;
	seq_printf(m, "0x%016llx %d %u %llu %s %llu %s ", sh->key,
		   sh->owner, sh->handle_id, sh->ctx ? sh->size : sh->phys->size,
		   npu_kind_name(sh->phys->kind), sh->imports,
		   sh->ctx ? (sh->flags & NPU_SIM_SHARE_NO_PID_CHECK ?
			      "ipc,nopid" : "ipc") :
		   sh->flags & NPU_SIM_SHARE_NO_PID_CHECK ? "nopid" : "-");
	if (!sh->nr_pids)
		seq_putc(m, '-');
	for (i = 0; i < sh->nr_pids; i++)
		seq_printf(m, "%s%d", i ? "," : "", sh->pids[i].nr);
	seq_putc(m, '\n');
}

/* debugfs "shared": the shares exported from contexts of @ndev. */
void npu_share_show(struct seq_file *m, struct npu_dev *ndev)
{
	struct npu_share_show_arg a = { .m = m, .ndev = ndev };

	seq_puts(m, "key owner_pid handle size kind imports flags whitelist\n");
	npu_share_for_each(npu_share_show_one, &a);
}
