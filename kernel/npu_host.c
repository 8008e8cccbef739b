// SPDX-License-Identifier: GPL-2.0
/*
 * Registered host memory (aclrtHostRegister, aclrtHostGetDevicePointer,
 * aclrtHostUnregister): the caller's own host pages, pinned, mapped into
 * its device window as an NPU_MAP_REGISTERED map, so that copies and sets
 * through the device address reach them.  Not device memory: nothing is
 * charged to the device; the pins count against RLIMIT_MEMLOCK.
 */
#include <linux/mm.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

int npu_ioctl_host_register(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_host_register args;
	unsigned long start, end;
	struct npu_phys *phys;
	struct npu_map *map;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_HOSTREG_FLAGS_MASK || args.pad || args.va ||
	    !args.size || args.addr + args.size < args.addr ||
	    args.addr + args.size > TASK_SIZE)
		return -EINVAL;
	start = round_down(args.addr, PAGE_SIZE);
	end = round_up(args.addr + args.size, PAGE_SIZE);

	ret = npu_phys_create_user(ctx->ndev, start, end - start,
				   !(args.flags & NPU_SIM_HOSTREG_READONLY),
				   &phys);
	if (ret)
		return ret;
	map = npu_map_create(NPU_MAP_REGISTERED, NULL, phys, end - start,
			     args.size);
	if (!map) {
		npu_phys_put(phys);
		return -ENOMEM;
	}
	if (args.flags & NPU_SIM_HOSTREG_READONLY)
		map->flags = NPU_SIM_ALLOC_READONLY;
	ret = npu_map_publish(ctx, map, PAGE_SIZE);
	if (ret) {
		npu_map_put(map);
		return ret;
	}
	args.va = map->va + offset_in_page(args.addr);
	return npu_map_reply(ctx, map, uarg, &args, sizeof(args));
}

int npu_ioctl_host_unregister(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_host_unregister args;
	struct npu_map *map;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;

	map = npu_map_unlink_at(ctx, args.va, BIT(NPU_MAP_REGISTERED), true);
	if (!map)
		return -ENOENT;
	npu_map_put(map);
	return 0;
}
