// SPDX-License-Identifier: GPL-2.0
/*
 * Sharing physical memory between processes (docs/design.md 4.3, aclrtMem*
 * ShareableHandle): an exported handle gets a key in the machine-wide key
 * table (npu_key.c, which also decides who may import it).  Another
 * process imports the key if its tgid (initial pid namespace) is on the
 * whitelist the exporter set, or the export disabled pid validation;
 * export and import may not happen in the same process.  An import is a
 * new handle of the importer's context that references the same npu_phys,
 * which stays charged once, to the device of its creator, until its last
 * holder lets go.  The key dies with the exporting handle.
 */
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

	down_write(&ctx->lock);
	h = npu_handle_lookup(ctx, args.handle);
	if (!h)
		ret = -ENOENT;
	else if (h->imported)
		ret = -EPERM;
	else if (h->share)
		ret = -EEXIST;
	if (ret) {
		up_write(&ctx->lock);
		kfree(sh);
		return ret;
	}
	sh->handle_id = h->id;
	sh->key.len = h->phys->size;
	sh->key.size = h->phys->size;
	sh->key.flags = args.flags;
	npu_key_export(&sh->key, NPU_KEY_SHARE, ctx, h->phys);
	WRITE_ONCE(h->share, sh);
	args.key = sh->key.key;
	up_write(&ctx->lock);

	if (copy_to_user(uarg, &args, sizeof(args))) {
		/* Nobody learnt the key: it dies again, unless gone already. */
		down_write(&ctx->lock);
		h = npu_handle_lookup(ctx, args.handle);
		if (h && h->share && h->share->key.key == args.key)
			npu_handle_unexport(h);
		up_write(&ctx->lock);
		return -EFAULT;
	}
	return 0;
}

int npu_ioctl_share_set_pids(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_share_set_pids args;
	struct npu_share_pid *ents;
	pid_t __user *up;
	u32 i;
	int ret;

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
	ret = npu_key_add_pids(ctx, args.key, ents, args.nr);
	kfree(ents);
	return ret;
}

int npu_ioctl_share_import(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_share_import args;
	struct npu_key k;
	int ret;
	u32 id;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_SHARE_IMPORT_MASK ||
	    npu_uapi_out_set(&args, handle, size))
		return -EINVAL;

	/* ENABLE_PEER grants access only if the import succeeds. */
	ret = npu_key_claim(ctx, args.key, NPU_KEY_SHARE,
			    args.flags & NPU_SIM_SHARE_IMPORT_ENABLE_PEER, &k);
	if (ret)
		return ret;

	down_write(&ctx->lock);
	ret = npu_handle_add(ctx, k.phys, true, &id);
	up_write(&ctx->lock);
	if (ret) {
		npu_phys_put(k.phys);
		return ret;
	}

	args.handle = id;
	args.size = k.phys->size;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		npu_handle_unpublish(ctx, id, k.phys);
		return -EFAULT;
	}
	if (args.flags & NPU_SIM_SHARE_IMPORT_ENABLE_PEER)
		npu_peer_grant(ctx, k.ndev);
	return 0;
}
