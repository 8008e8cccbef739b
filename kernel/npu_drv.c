// SPDX-License-Identifier: GPL-2.0
/*
 * npu_sim driver core: module parameters, the npu_simN devices and their
 * sysfs attributes, open/release of contexts, the ioctl table, GET_PARAM.
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

static unsigned int num_devices = 2;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of devices /dev/npu_sim0..N-1 (1..16, default 2)");

static unsigned int hbm_mib = 2048;
module_param(hbm_mib, uint, 0444);
MODULE_PARM_DESC(hbm_mib, "Device memory capacity of each device in MiB (1..1048576, default 2048)");

static bool host_access;
module_param(host_access, bool, 0444);
MODULE_PARM_DESC(host_access, "Initial host access mode of the devices (0 = strict, default)");

static unsigned int va_window_gib = 1024;
module_param(va_window_gib, uint, 0444);
MODULE_PARM_DESC(va_window_gib, "Size of each context's device VA window in GiB (1..65536, default 1024)");

/* Root may flip it at run time (tests); read at each test-only ioctl. */
static bool test_hooks;
module_param(test_hooks, bool, 0644);
MODULE_PARM_DESC(test_hooks, "Accept test-only ioctls such as MANAGED_TOUCH (0 = no, default)");

unsigned long npu_window_size;
struct npu_dev *npu_devs[NPU_SIM_MAX_DEVICES];
unsigned int npu_num_devs;

static struct class *npu_class;
static dev_t npu_devt;

/* ---- sysfs ------------------------------------------------------------- */

static ssize_t capacity_bytes_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);

	return sysfs_emit(buf, "%llu\n", ndev->capacity);
}
static DEVICE_ATTR_RO(capacity_bytes);

static ssize_t used_bytes_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);
	u64 used;

	spin_lock(&ndev->cap_lock);
	used = ndev->used;
	spin_unlock(&ndev->cap_lock);
	return sysfs_emit(buf, "%llu\n", used);
}
static DEVICE_ATTR_RO(used_bytes);

static ssize_t host_access_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(ndev->host_access) ? 1 : 0);
}

static ssize_t host_access_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);
	bool on;
	int ret;

	ret = kstrtobool(buf, &on);
	if (ret)
		return ret;
	npu_dev_set_host_access(ndev, on);
	return count;
}
static DEVICE_ATTR_RW(host_access);

static struct attribute *npu_dev_attrs[] = {
	&dev_attr_capacity_bytes.attr,
	&dev_attr_used_bytes.attr,
	&dev_attr_host_access.attr,
	NULL,
};
ATTRIBUTE_GROUPS(npu_dev);

/*
 * Switching to strict mode must leave no host mapping behind: the flag is
 * set first, then every window is zapped under its context lock, which the
 * fault handler holds while it checks the flag and inserts a PTE.
 */
void npu_dev_set_host_access(struct npu_dev *ndev, bool on)
{
	struct npu_ctx *ctx;

	mutex_lock(&ndev->ctx_lock);
	WRITE_ONCE(ndev->host_access, on);
	if (!on) {
		list_for_each_entry(ctx, &ndev->ctx_list, node) {
			mutex_lock(&ctx->lock);
			if (ctx->win_state == NPU_WIN_MAPPED)
				npu_va_zap(ctx, ctx->win_start,
					   ctx->win_end - ctx->win_start);
			mutex_unlock(&ctx->lock);
		}
	}
	mutex_unlock(&ndev->ctx_lock);
}

/* ---- open / release ---------------------------------------------------- */

static int npu_open(struct inode *inode, struct file *filp)
{
	struct npu_dev *ndev = container_of(inode->i_cdev, struct npu_dev, cdev);
	unsigned long win_pages = npu_window_size >> PAGE_SHIFT;
	struct npu_ctx *ctx;
	int index;

	if (!current->mm)
		return -EPERM;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;

	/* Each context gets its own file offset range for its window. */
	index = ida_alloc_max(&ndev->ctx_ida,
			      (LLONG_MAX >> PAGE_SHIFT) / win_pages - 2,
			      GFP_KERNEL);
	if (index < 0) {
		kfree(ctx);
		return index == -ENOSPC ? -EMFILE : index;
	}

	ctx->ndev = ndev;
	ctx->index = index;
	ctx->pgoff_base = (pgoff_t)index * win_pages;
	ctx->mm = current->mm;
	mmgrab(ctx->mm);
	ctx->pid = task_tgid_nr(current);
	ctx->mapping = filp->f_mapping;
	mutex_init(&ctx->lock);
	INIT_LIST_HEAD(&ctx->maps);
	npu_va_ctx_init(ctx);
	npu_vmm_ctx_init(ctx);
	npu_stream_ctx_init(ctx);
	filp->private_data = ctx;

	mutex_lock(&ndev->ctx_lock);
	list_add_tail(&ctx->node, &ndev->ctx_list);
	ndev->nr_ctx++;
	mutex_unlock(&ndev->ctx_lock);

	return nonseekable_open(inode, filp);
}

static int npu_release(struct inode *inode, struct file *filp)
{
	struct npu_ctx *ctx = filp->private_data;
	struct npu_dev *ndev = ctx->ndev;

	mutex_lock(&ndev->ctx_lock);
	list_del(&ctx->node);
	ndev->nr_ctx--;
	mutex_unlock(&ndev->ctx_lock);

	/* Queued work references maps: cancel and drain it first. */
	npu_stream_ctx_teardown(ctx);
	npu_vmm_ctx_teardown(ctx);
	npu_mem_ctx_teardown(ctx);
	npu_va_ctx_destroy(ctx);
	mutex_destroy(&ctx->lock);
	ida_free(&ndev->ctx_ida, ctx->index);
	mmdrop(ctx->mm);
	kfree(ctx);
	return 0;
}

/* ---- ioctls ------------------------------------------------------------ */

static int npu_ioctl_get_param(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_dev *ndev = ctx->ndev;
	struct npu_sim_get_param args;
	u64 caps = NPU_SIM_CAP_VMM | NPU_SIM_CAP_IPC | NPU_SIM_CAP_STREAMS |
		   NPU_SIM_CAP_MANAGED;
	u64 sizes = 1ULL << PAGE_SHIFT;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.index || npu_uapi_out_set(&args, value, value))
		return -EINVAL;

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
		mutex_lock(&ctx->lock);
		args.value = ctx->win_state == NPU_WIN_MAPPED ? ctx->win_start : 0;
		mutex_unlock(&ctx->lock);
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

#define NPU_IOCTL(_cmd, _fn, _any_mm, _is_copy, _stat) \
	{ .cmd = _cmd, .fn = _fn, .any_mm = _any_mm, \
	  .is_copy = _is_copy, .call_stat = _stat }
#define NPU_TEST_IOCTL(_cmd, _fn) \
	{ .cmd = _cmd, .fn = _fn, .test_only = true, .call_stat = -1 }

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
	NPU_IOCTL(NPU_SIM_IOCTL_MANAGED_ALLOC, npu_ioctl_managed_alloc, false,
		  false, NPU_STAT_CALLS_ALLOC),
	NPU_IOCTL(NPU_SIM_IOCTL_MANAGED_ADVISE, npu_ioctl_managed_advise,
		  false, false, -1),
	NPU_TEST_IOCTL(NPU_SIM_IOCTL_MANAGED_TOUCH, npu_ioctl_managed_touch),
	NPU_IOCTL(NPU_SIM_IOCTL_MANAGED_QUERY, npu_ioctl_managed_query, false,
		  false, -1),
};

static long npu_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct npu_ctx *ctx = filp->private_data;
	struct npu_dev *ndev = ctx->ndev;
	const struct npu_ioctl_desc *desc = NULL;
	unsigned int i;
	int ret;

	/* The whole command must match: a wrong size or direction is ENOTTY. */
	for (i = 0; i < ARRAY_SIZE(npu_ioctls); i++) {
		if (npu_ioctls[i].cmd == cmd) {
			desc = &npu_ioctls[i];
			break;
		}
	}
	if (!desc || (desc->test_only && !READ_ONCE(test_hooks)))
		return -ENOTTY;
	if (!desc->any_mm && current->mm != ctx->mm)
		return -EACCES;

	if (desc->call_stat >= 0)
		npu_stat_inc(ndev, desc->call_stat);

	ret = desc->fn(ctx, (void __user *)arg);

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

static const struct file_operations npu_fops = {
	.owner = THIS_MODULE,
	.open = npu_open,
	.release = npu_release,
	.unlocked_ioctl = npu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = npu_va_mmap,
	.get_unmapped_area = npu_va_get_unmapped_area,
	.llseek = no_llseek,
};

/* ---- devices ----------------------------------------------------------- */

/* Any user may open the devices, as on a machine with a real NPU. */
static char *npu_devnode(struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return NULL;
}

static void npu_dev_release(struct device *dev)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);

	ida_destroy(&ndev->ctx_ida);
	mutex_destroy(&ndev->ctx_lock);
	kfree(ndev);
}

static int npu_dev_create(unsigned int index)
{
	struct npu_dev *ndev;
	int ret;

	ndev = kzalloc(sizeof(*ndev), GFP_KERNEL);
	if (!ndev)
		return -ENOMEM;

	ndev->index = index;
	ndev->capacity = (u64)hbm_mib << 20;
	ndev->host_access = host_access;
	mutex_init(&ndev->ctx_lock);
	INIT_LIST_HEAD(&ndev->ctx_list);
	ida_init(&ndev->ctx_ida);
	spin_lock_init(&ndev->cap_lock);
	init_waitqueue_head(&ndev->hold_wq);
	atomic64_set(&ndev->next_id, 0);

	device_initialize(&ndev->dev);
	ndev->dev.class = npu_class;
	ndev->dev.devt = MKDEV(MAJOR(npu_devt), index);
	ndev->dev.groups = npu_dev_groups;
	ndev->dev.release = npu_dev_release;
	ret = dev_set_name(&ndev->dev, NPU_SIM_NAME "%u", index);
	if (ret)
		goto err_put;

	cdev_init(&ndev->cdev, &npu_fops);
	ndev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&ndev->cdev, &ndev->dev);
	if (ret)
		goto err_put;

	npu_debugfs_dev_init(ndev);
	npu_devs[index] = ndev;
	return 0;

err_put:
	put_device(&ndev->dev);
	return ret;
}

static void npu_dev_destroy(struct npu_dev *ndev)
{
	cdev_device_del(&ndev->cdev, &ndev->dev);
	put_device(&ndev->dev);
}

static void npu_devs_destroy(void)
{
	while (npu_num_devs) {
		npu_num_devs--;
		npu_dev_destroy(npu_devs[npu_num_devs]);
		npu_devs[npu_num_devs] = NULL;
	}
}

static int __init npu_init(void)
{
	unsigned int i;
	int ret;

	if (num_devices < 1 || num_devices > NPU_SIM_MAX_DEVICES) {
		pr_err("npu_sim: num_devices must be 1..%d\n", NPU_SIM_MAX_DEVICES);
		return -EINVAL;
	}
	if (hbm_mib < 1 || hbm_mib > 1048576) {
		pr_err("npu_sim: hbm_mib must be 1..1048576\n");
		return -EINVAL;
	}
	if (va_window_gib < 1 || va_window_gib > 65536) {
		pr_err("npu_sim: va_window_gib must be 1..65536\n");
		return -EINVAL;
	}
	npu_window_size = (unsigned long)va_window_gib << 30;

	ret = npu_hugetlbfs_init();
	if (ret)
		return ret;
	ret = npu_stream_init();
	if (ret)
		goto err_hugetlbfs;

	ret = alloc_chrdev_region(&npu_devt, 0, num_devices, NPU_SIM_NAME);
	if (ret)
		goto err_stream;

	npu_class = class_create(THIS_MODULE, NPU_SIM_NAME);
	if (IS_ERR(npu_class)) {
		ret = PTR_ERR(npu_class);
		goto err_chrdev;
	}
	npu_class->devnode = npu_devnode;

	npu_debugfs_init();

	for (i = 0; i < num_devices; i++) {
		ret = npu_dev_create(i);
		if (ret)
			goto err_devs;
		npu_num_devs++;
	}

	pr_info("npu_sim: %u devices, %u MiB each, window %u GiB, hugetlb 2M %s, 1G %s\n",
		npu_num_devs, hbm_mib, va_window_gib,
		npu_hugetlbfs_available(NPU_SIM_PAGE_HUGE_2M) ? "yes" : "no",
		npu_hugetlbfs_available(NPU_SIM_PAGE_HUGE_1G) ? "yes" : "no");
	return 0;

err_devs:
	npu_debugfs_exit();
	npu_devs_destroy();
	class_destroy(npu_class);
err_chrdev:
	unregister_chrdev_region(npu_devt, num_devices);
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
	class_destroy(npu_class);
	unregister_chrdev_region(npu_devt, num_devices);
	npu_stream_exit();
	npu_hugetlbfs_exit();
}

module_init(npu_init);
module_exit(npu_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Emulated Ascend-style NPU memory device");
MODULE_AUTHOR("npu_sim project");
