// SPDX-License-Identifier: GPL-2.0
/*
 * The npu_simN devices: the registry, creation and removal, sysfs
 * attributes, the list of open contexts of each device and the
 * host-access switch.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/slab.h>

#include "npu_sim.h"

struct npu_dev *npu_devs[NPU_SIM_MAX_DEVICES];
unsigned int npu_num_devs;

static struct class *npu_class;
static dev_t npu_devt;
static unsigned int npu_devt_count;

/* ---- contexts ------------------------------------------------------------ */

void npu_dev_add_ctx(struct npu_dev *ndev, struct npu_ctx *ctx)
{
	mutex_lock(&ndev->ctx_lock);
	list_add_tail(&ctx->node, &ndev->ctx_list);
	ndev->nr_ctx++;
	mutex_unlock(&ndev->ctx_lock);
}

void npu_dev_del_ctx(struct npu_dev *ndev, struct npu_ctx *ctx)
{
	mutex_lock(&ndev->ctx_lock);
	list_del(&ctx->node);
	ndev->nr_ctx--;
	mutex_unlock(&ndev->ctx_lock);
}

void npu_dev_walk_ctxs(struct npu_dev *ndev, bool ctx_locked,
		       void (*fn)(struct npu_ctx *, void *), void *data)
{
	struct npu_ctx *ctx;

	mutex_lock(&ndev->ctx_lock);
	list_for_each_entry(ctx, &ndev->ctx_list, node) {
		if (ctx_locked)
			mutex_lock(&ctx->lock);
		fn(ctx, data);
		if (ctx_locked)
			mutex_unlock(&ctx->lock);
	}
	mutex_unlock(&ndev->ctx_lock);
}

static void npu_dev_zap_window(struct npu_ctx *ctx, void *data)
{
	if (ctx->win_state == NPU_WIN_MAPPED)
		npu_window_zap(ctx, ctx->win_start,
			       ctx->win_end - ctx->win_start);
}

/*
 * Switching to strict mode must leave no host mapping behind: the flag is
 * set first, then every window is zapped under its context lock, which the
 * fault handler holds while it checks the flag and inserts a PTE.  ctx_lock
 * keeps two switches from interleaving.
 */
void npu_dev_set_host_access(struct npu_dev *ndev, bool on)
{
	mutex_lock(&ndev->ctx_lock);
	WRITE_ONCE(ndev->host_access, on);
	mutex_unlock(&ndev->ctx_lock);
	if (!on)
		npu_dev_walk_ctxs(ndev, true, npu_dev_zap_window, NULL);
}

/* ---- sysfs ----------------------------------------------------------------- */

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

/* One product per load: the same answer for every device. */
static ssize_t profile_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", npu_profile_id());
}
static DEVICE_ATTR_RO(profile);

static ssize_t product_name_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", npu_profile_product());
}
static DEVICE_ATTR_RO(product_name);

static ssize_t soc_name_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", npu_profile_soc_name());
}
static DEVICE_ATTR_RO(soc_name);

static ssize_t memory_kind_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", npu_profile_mem_kind());
}
static DEVICE_ATTR_RO(memory_kind);

static struct attribute *npu_dev_attrs[] = {
	&dev_attr_capacity_bytes.attr,
	&dev_attr_used_bytes.attr,
	&dev_attr_host_access.attr,
	&dev_attr_profile.attr,
	&dev_attr_product_name.attr,
	&dev_attr_soc_name.attr,
	&dev_attr_memory_kind.attr,
	&dev_attr_proc_mem_limit_bytes.attr,
	NULL,
};
ATTRIBUTE_GROUPS(npu_dev);

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

static int npu_dev_create(unsigned int index, u64 capacity, bool host_access,
			  const struct file_operations *fops)
{
	struct npu_dev *ndev;
	int ret;

	ndev = kzalloc(sizeof(*ndev), GFP_KERNEL);
	if (!ndev)
		return -ENOMEM;

	ndev->index = index;
	ndev->capacity = capacity;
	ndev->host_access = host_access;
	mutex_init(&ndev->ctx_lock);
	INIT_LIST_HEAD(&ndev->ctx_list);
	ida_init(&ndev->ctx_ida);
	spin_lock_init(&ndev->cap_lock);
	init_waitqueue_head(&ndev->hold_wq);
	spin_lock_init(&ndev->fault_lock);
	atomic64_set(&ndev->next_id, 0);

	device_initialize(&ndev->dev);
	ndev->dev.class = npu_class;
	ndev->dev.devt = MKDEV(MAJOR(npu_devt), index);
	ndev->dev.groups = npu_dev_groups;
	ndev->dev.release = npu_dev_release;
	ret = dev_set_name(&ndev->dev, NPU_SIM_NAME "%u", index);
	if (ret)
		goto err_put;

	cdev_init(&ndev->cdev, fops);
	ndev->cdev.owner = fops->owner;
	ret = cdev_device_add(&ndev->cdev, &ndev->dev);
	if (ret)
		goto err_put;

	npu_devs[index] = ndev;
	return 0;

err_put:
	put_device(&ndev->dev);
	return ret;
}

/*
 * Create /dev/npu_sim0 .. /dev/npu_sim<num - 1>, each of @capacity bytes,
 * served by @fops.  On failure nothing is left behind.
 */
int npu_devs_create(unsigned int num, u64 capacity, bool host_access,
		    const struct file_operations *fops)
{
	int ret;

	ret = alloc_chrdev_region(&npu_devt, 0, num, NPU_SIM_NAME);
	if (ret)
		return ret;
	npu_devt_count = num;

	npu_class = class_create(fops->owner, NPU_SIM_NAME);
	if (IS_ERR(npu_class)) {
		ret = PTR_ERR(npu_class);
		unregister_chrdev_region(npu_devt, num);
		return ret;
	}
	npu_class->devnode = npu_devnode;

	for (npu_num_devs = 0; npu_num_devs < num; npu_num_devs++) {
		ret = npu_dev_create(npu_num_devs, capacity, host_access, fops);
		if (ret) {
			npu_devs_destroy();
			return ret;
		}
	}
	return 0;
}

void npu_devs_destroy(void)
{
	struct npu_dev *ndev;

	while (npu_num_devs) {
		ndev = npu_devs[--npu_num_devs];
		npu_devs[npu_num_devs] = NULL;
		cdev_device_del(&ndev->cdev, &ndev->dev);
		put_device(&ndev->dev);
	}
	class_destroy(npu_class);
	unregister_chrdev_region(npu_devt, npu_devt_count);
}
