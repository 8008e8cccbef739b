// SPDX-License-Identifier: GPL-2.0
/*
 * IPC memory (aclrtIpcMemGetExportKey, aclrtIpcMemImportByKey,
 * aclrtIpcMemSetImportPid, aclrtIpcMemClose): a key naming part of a
 * MEM_ALLOC allocation, mapped by other processes into their own window.
 *
 * The key (an npu_ipc_key in the table of npu_key.c) references the
 * allocation's npu_phys and lives in the exporting context's ipc_keys list
 * until the exporter closes it or releases the file.  An import is an
 * npu_map of role NPU_MAP_IMPORTED over the pages holding the exported
 * range, in the importer's imports list; it references the npu_phys too,
 * so the memory stays (charged once, to its own device) until the
 * allocation, the key and every import have let go, whoever of them goes
 * first or is killed.
 * An import keeps the exporter's READONLY: its host PTEs are read-only too.
 * It counts against the importer's device limit while it is mapped.
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

/* Drop IPC key @ik of @ctx from the table and the list (ctx->lock held). */
static void npu_ipc_key_destroy(struct npu_ctx *ctx, struct npu_ipc_key *ik)
{
	lockdep_assert_held_write(&ctx->lock);
	list_del(&ik->ctx_node);
	ctx->nr_ipc_keys--;
	npu_key_drop(&ik->key);
}

/* Destroy IPC key @key of @ctx (ctx->lock held); false if it has none. */
static bool npu_ipc_key_close(struct npu_ctx *ctx, u64 key)
{
	struct npu_ipc_key *ik;

	lockdep_assert_held_write(&ctx->lock);
	list_for_each_entry(ik, &ctx->ipc_keys, ctx_node) {
		if (ik->key.key == key) {
			npu_ipc_key_destroy(ctx, ik);
			return true;
		}
		cond_resched();
	}
	return false;
}

int npu_ioctl_ipc_export(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_ipc_export args;
	struct npu_ipc_key *ik;
	struct npu_map *map;
	u64 start, end;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_IPC_EXPORT_MASK || args.pad || args.key ||
	    !args.size || args.va + args.size < args.va)
		return -EINVAL;

	ik = kzalloc(sizeof(*ik), GFP_KERNEL_ACCOUNT);
	if (!ik)
		return -ENOMEM;

	down_write(&ctx->lock);
	map = npu_va_lookup(ctx, args.va);
	if (!map || map->role != NPU_MAP_LINEAR ||
	    args.va + args.size - map->va > map->len) {
		up_write(&ctx->lock);
		kfree(ik);
		return -EINVAL;
	}
	if (ctx->nr_ipc_keys >= npu_max_objects) {
		up_write(&ctx->lock);
		kfree(ik);
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
	ik->key.phys_off = start;
	ik->key.len = end - start;
	ik->key.va_off = offset_in_page(args.va - map->va);
	ik->key.size = args.size;
	ik->key.flags = args.flags & NPU_SIM_IPC_NO_PID_CHECK ?
			NPU_SIM_SHARE_NO_PID_CHECK : 0;
	ik->key.mem_flags = map->flags & NPU_SIM_ALLOC_READONLY;
	npu_key_export(&ik->key, NPU_KEY_IPC, ctx, map->phys);
	list_add_tail(&ik->ctx_node, &ctx->ipc_keys);
	ctx->nr_ipc_keys++;
	args.key = ik->key.key;
	up_write(&ctx->lock);

	if (copy_to_user(uarg, &args, sizeof(args))) {
		/* Nobody learnt the key: it dies again, unless closed already. */
		down_write(&ctx->lock);
		npu_ipc_key_close(ctx, args.key);
		up_write(&ctx->lock);
		return -EFAULT;
	}
	return 0;
}

/*
 * An import counts against the importing process's device limit while it
 * is mapped (as a shareable-handle import does, npu_handle.c).
 */
static void npu_ipc_import_unlink(struct npu_ctx *ctx, struct npu_map *map)
{
	npu_va_erase(ctx, map);
	npu_limit_uncharge(ctx->proc, map->len);
}

static const struct npu_map_ops npu_ipc_import_ops = {
	.unlink = npu_ipc_import_unlink,
};

int npu_ioctl_ipc_import(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_ipc_import args;
	struct npu_map *map;
	struct npu_key k;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_IPC_IMPORT_MASK || args.pad ||
	    npu_uapi_out_set(&args, va, size))
		return -EINVAL;

	/* ENABLE_PEER grants access only if the import succeeds. */
	ret = npu_key_claim(ctx, args.key, NPU_KEY_IPC,
			    args.flags & NPU_SIM_IPC_ENABLE_PEER, &k);
	if (ret)
		return ret;

	if (npu_limit_charge(ctx->proc, k.len)) {
		npu_stat_inc(ctx->ndev, NPU_STAT_FAIL_LIMIT);
		npu_phys_put(k.phys);
		return -ENOMEM;
	}
	map = npu_map_create(NPU_MAP_IMPORTED, &npu_ipc_import_ops, k.phys,
			     k.len, k.size);
	if (!map) {
		npu_limit_uncharge(ctx->proc, k.len);
		npu_phys_put(k.phys);
		return -ENOMEM;
	}
	map->phys_off = k.phys_off;
	map->flags = k.mem_flags;
	map->u.imported.key = args.key;
	ret = npu_map_publish(ctx, map, PAGE_SIZE);
	if (ret) {
		npu_limit_uncharge(ctx->proc, k.len);
		npu_map_put(map);
		return ret;
	}
	args.va = map->va + k.va_off;
	args.size = k.size;
	ret = npu_map_reply(ctx, map, uarg, &args, sizeof(args));
	if (!ret && (args.flags & NPU_SIM_IPC_ENABLE_PEER))
		npu_peer_grant(ctx, k.ndev);
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
	if (!args.key)
		return -ENOENT;

	/* The imports list holds host registrations too: not keys. */
	down_write(&ctx->lock);
	list_for_each_entry(map, &ctx->imports, node) {
		if (map->role == NPU_MAP_IMPORTED &&
		    map->u.imported.key == args.key) {
			found = map;
			break;
		}
		cond_resched();
	}
	if (found) {
		npu_map_unlink(ctx, found);
		ret = 0;
	} else if (npu_ipc_key_close(ctx, args.key)) {
		ret = 0;
	}
	up_write(&ctx->lock);
	if (found)
		npu_map_put(found);
	return ret;
}

/* Release of the file: its keys die, its imports go. */
void npu_ipc_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_ipc_key *ik, *tik;

	down_write(&ctx->lock);
	list_for_each_entry_safe(ik, tik, &ctx->ipc_keys, ctx_node) {
		npu_ipc_key_destroy(ctx, ik);
		cond_resched();
	}
	up_write(&ctx->lock);
	npu_map_unlink_all(ctx, &ctx->imports);
}
