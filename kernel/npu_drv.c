// SPDX-License-Identifier: GPL-2.0
/*
 * npu_sim driver core: module parameters, file operations, the ioctl table
 * and GET_PARAM.  The devices are in npu_dev.c, a context's life (open,
 * owner gone, release) in npu_ctx.c.
 */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mmu_notifier.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

static unsigned int num_devices = 2;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of devices /dev/npu_sim0..N-1 (1..16, default 2)");

/* 0: the profile's default, written back here at load. */
static unsigned int hbm_mib;
module_param(hbm_mib, uint, 0444);
MODULE_PARM_DESC(hbm_mib, "Device memory capacity of each device in MiB (1..1048576, default: the profile's, 2048 for atlas-a2)");

static char *profile = "atlas-a2";
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile, "Product emulated: ascend950, atlas-a3, atlas-a2 (default), atlas-200i-500-a2, atlas-inference, atlas-training");

static bool host_access;
module_param(host_access, bool, 0444);
MODULE_PARM_DESC(host_access, "Initial host access mode of the devices (0 = strict, default)");

static unsigned int va_window_gib = 1024;
module_param(va_window_gib, uint, 0444);
MODULE_PARM_DESC(va_window_gib, "Size of each context's device VA window in GiB (1..65536, default 1024)");

/* Bounds the kernel objects (and memory) one open file can hold. */
module_param_named(max_objects_per_ctx, npu_max_objects, uint, 0444);
MODULE_PARM_DESC(max_objects_per_ctx, "Live objects of each kind (VA ranges, handles, IPC keys, streams, events) per open file (1..2^31, default 2^20)");

/* Isolation of users' stream work (npu_stream.c). */
module_param_named(stream_slots_per_user, npu_stream_slots, uint, 0444);
MODULE_PARM_DESC(stream_slots_per_user, "Streams of one user that run at the same time on the shared workers (1..256, default 4)");

/* Root may flip it at run time (tests); read at each test-only ioctl. */
static bool test_hooks;
module_param(test_hooks, bool, 0644);
MODULE_PARM_DESC(test_hooks, "Accept test-only ioctls such as MANAGED_TOUCH (0 = no, default)");

/* ---- ioctls ------------------------------------------------------------ */

static int npu_ioctl_get_param(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_dev *ndev = ctx->ndev;
	struct npu_sim_get_param args;
	u64 caps = NPU_SIM_CAP_VMM | NPU_SIM_CAP_IPC | NPU_SIM_CAP_STREAMS |
		   NPU_SIM_CAP_MANAGED | NPU_SIM_CAP_PEER | NPU_SIM_CAP_CHECK |
		   NPU_SIM_CAP_MEM_LIMIT | NPU_SIM_CAP_FAULT_INJECT |
		   NPU_SIM_CAP_MEM_PEAKS | NPU_SIM_CAP_EVENT_EXT |
		   NPU_SIM_CAP_CALLBACK | NPU_SIM_CAP_NOTIFY |
		   NPU_SIM_CAP_STREAM_CTL;
	u64 sizes = 1ULL << PAGE_SHIFT;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.index || npu_uapi_out_set(&args, value, value))
		return -EINVAL;

	caps |= NPU_SIM_CAP_MEM_OPS;	/* 1.9 */
	caps |= NPU_SIM_CAP_MEMPOOL;
	caps |= NPU_SIM_CAP_GRAPH;
	caps |= NPU_SIM_CAP_GRAPH_POOL;
	caps |= NPU_SIM_CAP_GRAPH_FLOW;	/* 1.11 */
	caps |= NPU_SIM_CAP_RT_DECIDES;	/* 1.11 */
	caps |= NPU_SIM_CAP_CTX_FAILURE;	/* 1.12 */
	if (READ_ONCE(test_hooks))
		caps |= NPU_SIM_CAP_TEST_HOOKS;
	if (npu_hugetlbfs_available(NPU_SIM_PAGE_HUGE_2M)) {
		caps |= NPU_SIM_CAP_HUGE_2M;
		sizes |= 1ULL << PMD_SHIFT;
	}
	if (npu_hugetlbfs_available(NPU_SIM_PAGE_HUGE_1G)) {
		caps |= NPU_SIM_CAP_HUGE_1G;
		sizes |= 1ULL << PUD_SHIFT;
	}

	switch (args.param) {
	case NPU_SIM_PARAM_API_VERSION:
		args.value = (NPU_SIM_API_VERSION_MAJOR << 16) |
			     NPU_SIM_API_VERSION_MINOR;
		break;
	case NPU_SIM_PARAM_NUM_DEVICES:
		args.value = npu_num_devs;
		break;
	case NPU_SIM_PARAM_DEVICE_INDEX:
		args.value = ndev->index;
		break;
	case NPU_SIM_PARAM_CAPACITY:
		args.value = ndev->capacity;
		break;
	case NPU_SIM_PARAM_VA_WINDOW_SIZE:
		args.value = npu_window_size;
		break;
	case NPU_SIM_PARAM_VA_WINDOW_START:
		down_write(&ctx->lock);
		args.value = ctx->win_state == NPU_WIN_MAPPED ? ctx->win_start : 0;
		up_write(&ctx->lock);
		break;
	case NPU_SIM_PARAM_CAPABILITIES:
		args.value = caps;
		break;
	case NPU_SIM_PARAM_HOST_ACCESS:
		args.value = READ_ONCE(ndev->host_access) ? 1 : 0;
		break;
	case NPU_SIM_PARAM_PAGE_SIZES:
		args.value = sizes;
		break;
	case NPU_SIM_PARAM_BARE_TGID:
		args.value = task_tgid_nr(current);
		break;
	case NPU_SIM_PARAM_PROFILE:
		args.value = npu_profile_index();
		break;
	default:
		return -EINVAL;
	}

	if (copy_to_user(uarg, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}

struct npu_ioctl_desc {
	unsigned int cmd;
	int (*fn)(struct npu_ctx *ctx, void __user *uarg);
	bool any_mm;		/* allowed from a process other than the opener */
	bool is_copy;		/* -ENXIO/-EFAULT count as fail_range/fail_fault */
	bool test_only;		/* needs test_hooks (NPU_SIM_CAP_TEST_HOOKS) */
	int call_stat;		/* stat counted per call, -1 for none */
};

/* Indexed by command number: the dispatch of every call is one lookup. */
#define NPU_IOCTL(_cmd, _fn, _any_mm, _is_copy, _stat) \
	[_IOC_NR(_cmd)] = { .cmd = _cmd, .fn = _fn, .any_mm = _any_mm, \
			    .is_copy = _is_copy, .call_stat = _stat }
#define NPU_TEST_IOCTL(_cmd, _fn) \
	[_IOC_NR(_cmd)] = { .cmd = _cmd, .fn = _fn, .test_only = true, \
			    .call_stat = -1 }

static const struct npu_ioctl_desc npu_ioctls[] = {
	NPU_IOCTL(NPU_SIM_IOCTL_GET_PARAM, npu_ioctl_get_param, true, false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_MEM_ALLOC, npu_ioctl_mem_alloc, false, false,
		  NPU_STAT_CALLS_ALLOC),
	NPU_IOCTL(NPU_SIM_IOCTL_MEM_FREE, npu_ioctl_mem_free, false, false,
		  NPU_STAT_CALLS_FREE),
	NPU_IOCTL(NPU_SIM_IOCTL_MEMCPY, npu_ioctl_memcpy, false, true,
		  NPU_STAT_CALLS_MEMCPY),
	NPU_IOCTL(NPU_SIM_IOCTL_MEMCPY2D, npu_ioctl_memcpy2d, false, true,
		  NPU_STAT_CALLS_MEMCPY2D),
	NPU_IOCTL(NPU_SIM_IOCTL_MEMSET, npu_ioctl_memset, false, true,
		  NPU_STAT_CALLS_MEMSET),
	NPU_IOCTL(NPU_SIM_IOCTL_MEM_INFO, npu_ioctl_mem_info, false, false,
		  NPU_STAT_CALLS_MEM_INFO),
	NPU_IOCTL(NPU_SIM_IOCTL_MEM_PEAKS, npu_ioctl_mem_peaks, false, false,
		  NPU_STAT_CALLS_MEM_INFO),
	NPU_IOCTL(NPU_SIM_IOCTL_HOST_REGISTER, npu_ioctl_host_register, false,
		  false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_HOST_UNREGISTER, npu_ioctl_host_unregister,
		  false, false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_VMM_RESERVE, npu_ioctl_vmm_reserve, false,
		  false, NPU_STAT_CALLS_VMM),
	NPU_IOCTL(NPU_SIM_IOCTL_VMM_RELEASE, npu_ioctl_vmm_release, false,
		  false, NPU_STAT_CALLS_VMM),
	NPU_IOCTL(NPU_SIM_IOCTL_PHYS_ALLOC, npu_ioctl_phys_alloc, false, false,
		  NPU_STAT_CALLS_VMM),
	NPU_IOCTL(NPU_SIM_IOCTL_PHYS_FREE, npu_ioctl_phys_free, false, false,
		  NPU_STAT_CALLS_VMM),
	NPU_IOCTL(NPU_SIM_IOCTL_VMM_MAP, npu_ioctl_vmm_map, false, false,
		  NPU_STAT_CALLS_VMM),
	NPU_IOCTL(NPU_SIM_IOCTL_VMM_UNMAP, npu_ioctl_vmm_unmap, false, false,
		  NPU_STAT_CALLS_VMM),
	NPU_IOCTL(NPU_SIM_IOCTL_VMM_SET_ACCESS, npu_ioctl_vmm_set_access,
		  false, false, NPU_STAT_CALLS_VMM),
	NPU_IOCTL(NPU_SIM_IOCTL_VMM_QUERY, npu_ioctl_vmm_query, false, false,
		  NPU_STAT_CALLS_VMM),
	NPU_IOCTL(NPU_SIM_IOCTL_PHYS_INFO, npu_ioctl_phys_info, false, false,
		  NPU_STAT_CALLS_VMM),
	NPU_IOCTL(NPU_SIM_IOCTL_SHARE_EXPORT, npu_ioctl_share_export, false,
		  false, NPU_STAT_CALLS_SHARE),
	NPU_IOCTL(NPU_SIM_IOCTL_SHARE_SET_PIDS, npu_ioctl_share_set_pids, false,
		  false, NPU_STAT_CALLS_SHARE),
	NPU_IOCTL(NPU_SIM_IOCTL_SHARE_IMPORT, npu_ioctl_share_import, false,
		  false, NPU_STAT_CALLS_SHARE),
	NPU_IOCTL(NPU_SIM_IOCTL_IPC_EXPORT, npu_ioctl_ipc_export, false,
		  false, NPU_STAT_CALLS_SHARE),
	NPU_IOCTL(NPU_SIM_IOCTL_IPC_IMPORT, npu_ioctl_ipc_import, false,
		  false, NPU_STAT_CALLS_SHARE),
	NPU_IOCTL(NPU_SIM_IOCTL_IPC_CLOSE, npu_ioctl_ipc_close, false,
		  false, NPU_STAT_CALLS_SHARE),
	NPU_IOCTL(NPU_SIM_IOCTL_STREAM_CREATE, npu_ioctl_stream_create, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_STREAM_DESTROY, npu_ioctl_stream_destroy,
		  false, false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_STREAM_SUBMIT, npu_ioctl_stream_submit, false,
		  true, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_STREAM_SYNC, npu_ioctl_stream_sync, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_EVENT_CREATE, npu_ioctl_event_create, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_EVENT_DESTROY, npu_ioctl_event_destroy, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_EVENT_SYNC, npu_ioctl_event_sync, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_STREAM_CTL, npu_ioctl_stream_ctl, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_EVENT_EXPORT, npu_ioctl_event_export, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_EVENT_IMPORT, npu_ioctl_event_import, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_EVENT_INFO, npu_ioctl_event_info, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_CB_SUBSCRIBE, npu_ioctl_cb_subscribe, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_CB_WAIT, npu_ioctl_cb_wait, false, false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_CB_DONE, npu_ioctl_cb_done, false, false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_CB_QUERY, npu_ioctl_cb_query, false, false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_NOTIFY_CREATE, npu_ioctl_notify_create, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_NOTIFY_DESTROY, npu_ioctl_notify_destroy,
		  false, false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_NOTIFY_RESET, npu_ioctl_notify_reset, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_NOTIFY_EXPORT, npu_ioctl_notify_export, false,
		  false, NPU_STAT_CALLS_SHARE),
	NPU_IOCTL(NPU_SIM_IOCTL_NOTIFY_IMPORT, npu_ioctl_notify_import, false,
		  false, NPU_STAT_CALLS_SHARE),
	NPU_IOCTL(NPU_SIM_IOCTL_NOTIFY_QUERY, npu_ioctl_notify_query, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_MEMPOOL_CREATE, npu_ioctl_mempool_create,
		  false, false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_MEMPOOL_DESTROY, npu_ioctl_mempool_destroy,
		  false, false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_MEMPOOL_CTL, npu_ioctl_mempool_ctl, false,
		  false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_MEMPOOL_ALLOC, npu_ioctl_mempool_alloc, false,
		  false, NPU_STAT_CALLS_ALLOC),
	NPU_IOCTL(NPU_SIM_IOCTL_MANAGED_ALLOC, npu_ioctl_managed_alloc, false,
		  false, NPU_STAT_CALLS_ALLOC),
	NPU_IOCTL(NPU_SIM_IOCTL_MANAGED_ADVISE, npu_ioctl_managed_advise,
		  false, false, -1),
	NPU_TEST_IOCTL(NPU_SIM_IOCTL_MANAGED_TOUCH, npu_ioctl_managed_touch),
	NPU_IOCTL(NPU_SIM_IOCTL_PEER_ACCESS, npu_ioctl_peer_access, false,
		  false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_GRAPH_CREATE, npu_ioctl_graph_create, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_GRAPH_DESTROY, npu_ioctl_graph_destroy, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_GRAPH_LAUNCH, npu_ioctl_graph_launch, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_GRAPH_INFO, npu_ioctl_graph_info, false,
		  false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_GRAPH_ABORT, npu_ioctl_graph_abort, false,
		  false, NPU_STAT_CALLS_STREAM),
	NPU_IOCTL(NPU_SIM_IOCTL_MANAGED_QUERY, npu_ioctl_managed_query, false,
		  false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_CHECK_SITE, npu_ioctl_check_site, false,
		  false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_MEM_LIMIT, npu_ioctl_mem_limit, false,
		  false, -1),
	NPU_IOCTL(NPU_SIM_IOCTL_FAULT_INJECT, npu_ioctl_fault_inject, false,
		  false, -1),
};

/*
 * A call of @desc, whose whole command @cmd matched (and the test rule),
 * through @desc->fn, or @fn when not NULL: a direct call of a hot one.
 */
static __always_inline long npu_ioctl_run(struct npu_ctx *ctx,
					  const struct npu_ioctl_desc *desc,
					  unsigned int cmd, void __user *uarg,
					  int (*fn)(struct npu_ctx *ctx,
						    void __user *uarg))
{
	struct npu_dev *ndev = ctx->ndev;
	int ret;

	if (!desc->any_mm && current->mm != ctx->mm)
		return -EACCES;

	if (desc->call_stat >= 0)
		npu_stat_inc(ndev, desc->call_stat);

	ret = fn ? fn(ctx, uarg) : desc->fn(ctx, uarg);
	/* A synchronous write may meet a parked VALUE_WAIT: look now. */
	if (!ret && desc->is_copy && cmd != NPU_SIM_IOCTL_STREAM_SUBMIT)
		npu_stream_values_changed();
	/* A killed notify: the waits parked on it end now. */
	if (!ret && cmd == NPU_SIM_IOCTL_NOTIFY_DESTROY)
		npu_stream_values_changed();

	if (ret == -EINVAL)
		npu_stat_inc(ndev, NPU_STAT_FAIL_INVALID);
	else if (desc->is_copy && ret == -ENXIO)
		npu_stat_inc(ndev, NPU_STAT_FAIL_RANGE);
	else if (desc->is_copy && ret == -EFAULT)
		npu_stat_inc(ndev, NPU_STAT_FAIL_FAULT);
	else if (cmd == NPU_SIM_IOCTL_MEM_FREE && ret == -ENOENT)
		npu_stat_inc(ndev, NPU_STAT_FAIL_NO_ENTRY);
	return ret;
}

/*
 * A hot command (per-call: small copies, allocations, MEM_INFO, VMM
 * map/unmap), matched whole by the switch: its table entry is a constant,
 * so the checks above fold to what the command needs, and its handler is
 * called directly (through the table's pointer is a retpoline thunk).
 */
static __always_inline long npu_ioctl_hot(struct npu_ctx *ctx, unsigned int cmd,
					  void __user *uarg,
					  int (*fn)(struct npu_ctx *ctx,
						    void __user *uarg))
{
	return npu_ioctl_run(ctx, &npu_ioctls[_IOC_NR(cmd)], cmd, uarg, fn);
}

static long npu_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct npu_ctx *ctx = filp->private_data;
	void __user *uarg = (void __user *)arg;
	const struct npu_ioctl_desc *desc;
	unsigned int nr = _IOC_NR(cmd);

	switch (cmd) {
	case NPU_SIM_IOCTL_MEMCPY:
		return npu_ioctl_hot(ctx, NPU_SIM_IOCTL_MEMCPY, uarg,
				     npu_ioctl_memcpy);
	case NPU_SIM_IOCTL_MEM_ALLOC:
		return npu_ioctl_hot(ctx, NPU_SIM_IOCTL_MEM_ALLOC, uarg,
				     npu_ioctl_mem_alloc);
	case NPU_SIM_IOCTL_MEM_FREE:
		return npu_ioctl_hot(ctx, NPU_SIM_IOCTL_MEM_FREE, uarg,
				     npu_ioctl_mem_free);
	case NPU_SIM_IOCTL_MEM_INFO:
		return npu_ioctl_hot(ctx, NPU_SIM_IOCTL_MEM_INFO, uarg,
				     npu_ioctl_mem_info);
	case NPU_SIM_IOCTL_VMM_MAP:
		return npu_ioctl_hot(ctx, NPU_SIM_IOCTL_VMM_MAP, uarg,
				     npu_ioctl_vmm_map);
	case NPU_SIM_IOCTL_VMM_UNMAP:
		return npu_ioctl_hot(ctx, NPU_SIM_IOCTL_VMM_UNMAP, uarg,
				     npu_ioctl_vmm_unmap);
	}

	if (nr >= ARRAY_SIZE(npu_ioctls))
		return -ENOTTY;
	desc = &npu_ioctls[array_index_nospec(nr, ARRAY_SIZE(npu_ioctls))];
	/* The whole command must match: a wrong size or direction is ENOTTY. */
	if (!desc->fn || desc->cmd != cmd ||
	    (desc->test_only && !READ_ONCE(test_hooks)))
		return -ENOTTY;
	return npu_ioctl_run(ctx, desc, cmd, uarg, NULL);
}

static const struct file_operations npu_fops = {
	.owner = THIS_MODULE,
	.open = npu_ctx_open,
	.release = npu_ctx_release,
	.unlocked_ioctl = npu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = npu_ctx_mmap,
	.get_unmapped_area = npu_window_get_unmapped_area,
	.llseek = no_llseek,
};

static int __init npu_init(void)
{
	unsigned int i;
	int ret;

	if (num_devices < 1 || num_devices > NPU_SIM_MAX_DEVICES) {
		pr_err("npu_sim: num_devices must be 1..%d\n", NPU_SIM_MAX_DEVICES);
		return -EINVAL;
	}
	if (npu_profile_select(profile))
		return -EINVAL;
	if (!hbm_mib)
		hbm_mib = npu_profile_capacity_mib();
	if (hbm_mib > 1048576) {
		pr_err("npu_sim: hbm_mib must be 1..1048576\n");
		return -EINVAL;
	}
	if (va_window_gib < 1 || va_window_gib > 65536) {
		pr_err("npu_sim: va_window_gib must be 1..65536\n");
		return -EINVAL;
	}
	if (npu_stream_slots < 1 || npu_stream_slots > 256) {
		pr_err("npu_sim: stream_slots_per_user must be 1..256\n");
		return -EINVAL;
	}
	if (npu_max_objects < 1 || npu_max_objects > INT_MAX) {
		pr_err("npu_sim: max_objects_per_ctx must be 1..2147483647\n");
		return -EINVAL;
	}
	npu_window_size = (unsigned long)va_window_gib << 30;

	ret = npu_hugetlbfs_init();
	if (ret)
		return ret;
	ret = npu_stream_init();
	if (ret)
		goto err_hugetlbfs;

	ret = npu_devs_create(num_devices, (u64)hbm_mib << 20, host_access,
			      &npu_fops);
	if (ret)
		goto err_stream;
	npu_debugfs_init();
	for (i = 0; i < npu_num_devs; i++)
		npu_debugfs_dev_init(npu_devs[i]);

	pr_info("npu_sim: %s, %u devices, %u MiB each, window %u GiB, hugetlb 2M %s, 1G %s\n",
		npu_profile_id(), npu_num_devs, hbm_mib, va_window_gib,
		npu_hugetlbfs_available(NPU_SIM_PAGE_HUGE_2M) ? "yes" : "no",
		npu_hugetlbfs_available(NPU_SIM_PAGE_HUGE_1G) ? "yes" : "no");
	return 0;

err_stream:
	npu_stream_exit();
err_hugetlbfs:
	npu_hugetlbfs_exit();
	return ret;
}

static void __exit npu_exit(void)
{
	/* debugfs files point at the devices: remove them first. */
	npu_debugfs_exit();
	npu_devs_destroy();
	/* Contexts are freed by SRCU callbacks of their owner notifiers. */
	mmu_notifier_synchronize();
	npu_stream_exit();
	npu_hugetlbfs_exit();
}

module_init(npu_init);
module_exit(npu_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Emulated Ascend-style NPU memory device");
MODULE_AUTHOR("npu_sim project");
