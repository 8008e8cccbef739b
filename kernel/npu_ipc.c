// SPDX-License-Identifier: GPL-2.0
/*
 * Sharing physical memory between processes (docs/design.md 4.3, aclrtMem*
 * ShareableHandle): an exported handle gets an unguessable non-zero 64-bit
 * key in a machine-wide table.  Another process imports the key if its tgid
 * (initial pid namespace) is on the whitelist the exporter set, or the
 * export disabled pid validation; export and import may not happen in the
 * same process.  An import is a new handle of the importer's context that
 * references the same npu_phys, which stays charged once, to the device of
 * its creator, until its last holder lets go.  The key dies with the
 * exporting handle (npu_share_unexport()).
 */
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

struct npu_share {
	struct hlist_node node;		/* in npu_shares */
	u64 key;
	struct npu_phys *phys;		/* referenced */
	struct npu_dev *ndev;		/* of the exporting context */
	pid_t owner;			/* exporting tgid */
	u32 handle_id;			/* in the exporting context */
	u32 flags;			/* NPU_SIM_SHARE_* */
	u32 nr_pids;
	pid_t *pids;			/* whitelist */
	u64 imports;			/* successful imports so far */
};

#define NPU_SHARE_HASH_BITS	8

static DEFINE_HASHTABLE(npu_shares, NPU_SHARE_HASH_BITS);
static DEFINE_MUTEX(npu_share_lock);

static struct npu_share *npu_share_find(u64 key)
{
	struct npu_share *sh;

	lockdep_assert_held(&npu_share_lock);
	hash_for_each_possible(npu_shares, sh, node, key)
		if (sh->key == key)
			return sh;
	return NULL;
}

/* Remove the share of handle @h (dying, under its ctx->lock), if any. */
void npu_share_unexport(struct npu_handle *h)
{
	struct npu_share *sh;

	mutex_lock(&npu_share_lock);
	sh = h->share;
	if (sh) {
		hash_del(&sh->node);
		WRITE_ONCE(h->share, NULL);
	}
	mutex_unlock(&npu_share_lock);
	if (!sh)
		return;
	/* The handle still holds its own reference: this is never the last. */
	npu_phys_put(sh->phys);
	kfree(sh->pids);
	kfree(sh);
}

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

	sh = kzalloc(sizeof(*sh), GFP_KERNEL);
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

	mutex_lock(&npu_share_lock);
	do {
		sh->key = get_random_u64();
	} while (!sh->key || npu_share_find(sh->key));
	hash_add(npu_shares, &sh->node, sh->key);
	h->share = sh;
	mutex_unlock(&npu_share_lock);
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

int npu_ioctl_share_set_pids(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_share_set_pids args;
	struct npu_share *sh;
	pid_t *pids, *grown;
	u32 i;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || !args.nr || args.nr > NPU_SIM_SHARE_MAX_PIDS ||
	    !args.pids)
		return -EINVAL;

	pids = memdup_user(u64_to_user_ptr(args.pids),
			   (size_t)args.nr * sizeof(*pids));
	if (IS_ERR(pids))
		return PTR_ERR(pids);
	for (i = 0; i < args.nr; i++) {
		if (pids[i] <= 0) {
			kfree(pids);
			return -EINVAL;
		}
	}

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
				       sizeof(*grown), GFP_KERNEL);
		if (!grown) {
			ret = -ENOMEM;
		} else {
			memcpy(grown + sh->nr_pids, pids,
			       (size_t)args.nr * sizeof(*pids));
			sh->pids = grown;
			sh->nr_pids += args.nr;
		}
	}
	mutex_unlock(&npu_share_lock);
	kfree(pids);
	return ret;
}

static bool npu_share_allows(const struct npu_share *sh, pid_t tgid)
{
	u32 i;

	if (sh->flags & NPU_SIM_SHARE_NO_PID_CHECK)
		return true;
	for (i = 0; i < sh->nr_pids; i++)
		if (sh->pids[i] == tgid)
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
	if (!sh) {
		ret = -ENOENT;
	} else if (sh->owner == tgid) {
		ret = -EPERM;
	} else if (!npu_share_allows(sh, tgid)) {
		ret = -EACCES;
	} else if (sh->ndev != ctx->ndev) {
		ret = -EXDEV;
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
		struct npu_phys *dead = NULL;
		struct npu_handle *h;

		/* Nobody learnt the id: drop the new handle again. */
		mutex_lock(&ctx->lock);
		h = npu_handle_lookup(ctx, id);
		if (h && h->phys == phys && h->holds == 1 && !h->nr_maps) {
			xa_erase(&ctx->handles, id);
			ctx->nr_handles--;
			kfree(h);
			dead = phys;
		}
		mutex_unlock(&ctx->lock);
		if (dead)
			npu_phys_put(dead);
		return -EFAULT;
	}
	return 0;
}

/* debugfs "shared": the shares exported from contexts of @ndev. */
void npu_ipc_show(struct seq_file *m, struct npu_dev *ndev)
{
	struct npu_share *sh;
	unsigned int bkt;
	u32 i;

	seq_puts(m, "key owner_pid handle size kind imports flags whitelist\n");
	mutex_lock(&npu_share_lock);
	hash_for_each(npu_shares, bkt, sh, node) {
		if (sh->ndev != ndev)
			continue;
		seq_printf(m, "0x%016llx %d %u %llu %s %llu %s ", sh->key,
			   sh->owner, sh->handle_id, sh->phys->size,
			   npu_kind_name(sh->phys->kind), sh->imports,
			   sh->flags & NPU_SIM_SHARE_NO_PID_CHECK ? "nopid" : "-");
		if (!sh->nr_pids)
			seq_putc(m, '-');
		for (i = 0; i < sh->nr_pids; i++)
			seq_printf(m, "%s%d", i ? "," : "", sh->pids[i]);
		seq_putc(m, '\n');
	}
	mutex_unlock(&npu_share_lock);
}
