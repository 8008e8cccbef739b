// SPDX-License-Identifier: GPL-2.0
/*
 * IPC memory (aclrtIpcMemGetExportKey, aclrtIpcMemImportByKey,
 * aclrtIpcMemSetImportPid, aclrtIpcMemClose): a key naming part of a
 * MEM_ALLOC allocation, mapped by other processes into their own window.
 *
 * The key (an npu_share with @ctx set) references the allocation's
 * npu_phys and lives in the exporting context's ipc_keys list until the
 * exporter closes it or releases the file.  An import is an npu_map of role
 * NPU_MAP_IMPORTED over the pages holding the exported range, in the
 * importer's imports list; it references the npu_phys too, so the memory
 * stays (charged once, to its own device) until the allocation, the key
 * and every import have let go, whoever of them goes first or is killed.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

void npu_ipc_ctx_init(struct npu_ctx *ctx)
{
	INIT_LIST_HEAD(&ctx->imports);
	INIT_LIST_HEAD(&ctx->ipc_keys);
}

/* Drop IPC key @sh of @ctx from the table and the list (ctx->lock held). */
static void npu_ipc_key_destroy(struct npu_ctx *ctx, struct npu_share *sh)
{
	lockdep_assert_held(&ctx->lock);
	npu_share_remove(sh);
	list_del(&sh->ctx_node);
	ctx->nr_ipc_keys--;
	npu_share_free(sh);
}

/* Destroy IPC key @key of @ctx (ctx->lock held); false if it has none. */
static bool npu_ipc_key_close(struct npu_ctx *ctx, u64 key)
{
	struct npu_share *sh;

	lockdep_assert_held(&ctx->lock);
	list_for_each_entry(sh, &ctx->ipc_keys, ctx_node) {
		if (sh->key == key) {
			npu_ipc_key_destroy(ctx, sh);
			return true;
		}
	}
	return false;
}

int npu_ioctl_ipc_export(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_ipc_export args;
	struct npu_share *sh;
	struct npu_map *map;
	u64 start, end;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_IPC_EXPORT_MASK || args.pad || args.key ||
	    !args.size || args.va + args.size < args.va)
		return -EINVAL;

	sh = kzalloc(sizeof(*sh), GFP_KERNEL_ACCOUNT);
	if (!sh)
		return -ENOMEM;

	mutex_lock(&ctx->lock);
	map = npu_va_lookup(ctx, args.va);
	if (!map || map->role != NPU_MAP_LINEAR ||
	    args.va + args.size - map->va > map->len) {
		mutex_unlock(&ctx->lock);
		kfree(sh);
		return -EINVAL;
	}
	if (ctx->nr_ipc_keys >= npu_max_objects) {
		mutex_unlock(&ctx->lock);
		kfree(sh);
		return -ENOMEM;
	}
	/*
	 * The pages holding the range: what an importer gets mapped; of a
	 * sub-page allocation only its slot (its page has other slots).
	 */
	start = map->phys_off + round_down(args.va - map->va, PAGE_SIZE);
	end = map->phys_off + min(round_up(args.va + args.size - map->va,
					   PAGE_SIZE), map->len);
	npu_small_exported(ctx, map);
	sh->phys = map->phys;
	npu_phys_get(sh->phys);
	sh->ndev = ctx->ndev;
	sh->owner = task_tgid_nr(current);
	sh->flags = args.flags & NPU_SIM_IPC_NO_PID_CHECK ?
		    NPU_SIM_SHARE_NO_PID_CHECK : 0;
	sh->ctx = ctx;
	sh->phys_off = start;
	sh->len = end - start;
	sh->va_off = offset_in_page(args.va - map->va);
	sh->size = args.size;
	npu_share_publish(NULL, sh);
	list_add_tail(&sh->ctx_node, &ctx->ipc_keys);
	ctx->nr_ipc_keys++;
	args.key = sh->key;
	mutex_unlock(&ctx->lock);

	if (copy_to_user(uarg, &args, sizeof(args))) {
		/* Nobody learnt the key: it dies again, unless closed already. */
		mutex_lock(&ctx->lock);
		npu_ipc_key_close(ctx, args.key);
		mutex_unlock(&ctx->lock);
		return -EFAULT;
	}
	return 0;
}

int npu_ioctl_ipc_import(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_ipc_import args;
	pid_t tgid = task_tgid_nr(current);
	struct npu_phys *phys = NULL;
	u64 phys_off = 0, len = 0, va_off = 0, size = 0;
	struct npu_dev *owner_dev = NULL;
	struct npu_share *sh;
	struct npu_map *map;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_IPC_IMPORT_MASK || args.pad ||
	    npu_uapi_out_set(&args, va, size))
		return -EINVAL;

	mutex_lock(&npu_share_lock);
	sh = args.key ? npu_share_find(args.key) : NULL;
	if (!sh || !sh->ctx) {
		ret = -ENOENT;
	} else if (sh->owner == tgid) {
		ret = -EPERM;
	} else if (!npu_share_allows(sh)) {
		ret = -EACCES;
	} else if (npu_fault_check(ctx, NPU_SIM_FAULT_IMPORT)) {
		ret = -ENOMEM;		/* injected (the class's errno) */
	} else {
		phys = sh->phys;
		npu_phys_get(phys);
		owner_dev = sh->ndev;
		phys_off = sh->phys_off;
		len = sh->len;
		va_off = sh->va_off;
		size = sh->size;
		sh->imports++;
	}
	mutex_unlock(&npu_share_lock);
	if (ret)
		return ret;

	/* ENABLE_PEER grants access only if the import succeeds. */
	if (!npu_peer_allowed(ctx, owner_dev) &&
	    !(args.flags & NPU_SIM_IPC_ENABLE_PEER)) {
		npu_phys_put(phys);
		return -EXDEV;
	}

	map = npu_map_create(NPU_MAP_IMPORTED, NULL, phys, len, size);
	if (!map) {
		npu_phys_put(phys);
		return -ENOMEM;
	}
	map->phys_off = phys_off;
	map->u.imported.key = args.key;
	ret = npu_map_publish(ctx, map, PAGE_SIZE);
	if (ret) {
		npu_map_put(map);
		return ret;
	}
	args.va = map->va + va_off;
	args.size = size;
	ret = npu_map_reply(ctx, map, uarg, &args, sizeof(args));
	if (!ret && (args.flags & NPU_SIM_IPC_ENABLE_PEER))
		npu_peer_grant(ctx, owner_dev);
	return ret;
}

int npu_ioctl_ipc_close(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_ipc_close args;
	struct npu_map *map, *found = NULL;
	int ret = -ENOENT;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;

	mutex_lock(&ctx->lock);
	list_for_each_entry(map, &ctx->imports, node) {
		if (map->u.imported.key == args.key) {
			found = map;
			break;
		}
	}
	if (found) {
		npu_map_unlink(ctx, found);
		ret = 0;
	} else if (npu_ipc_key_close(ctx, args.key)) {
		ret = 0;
	}
	mutex_unlock(&ctx->lock);
	if (found)
		npu_map_put(found);
	return ret;
}

/* Release of the file: its keys die, its imports go. */
void npu_ipc_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_share *sh, *tsh;

	mutex_lock(&ctx->lock);
	list_for_each_entry_safe(sh, tsh, &ctx->ipc_keys, ctx_node)
		npu_ipc_key_destroy(ctx, sh);
	mutex_unlock(&ctx->lock);
	npu_map_unlink_all(ctx, &ctx->imports);
}
