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
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
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

static void npu_ctx_free(struct kref *ref)
{
	struct npu_ctx *ctx = container_of(ref, struct npu_ctx, ref);

	mem_cgroup_put(ctx->memcg);
	mmdrop(ctx->mm);
	mutex_destroy(&ctx->life_lock);
	kfree(ctx);
}

/*
 * Drop a reference to a context.  The last one (the file's, or a queued
 * peer copy's after the release) frees the struct; everything the context
 * held is gone by then (npu_ctx.c).
 */
void npu_ctx_put(struct npu_ctx *ctx)
{
	kref_put(&ctx->ref, npu_ctx_free);
}

void npu_dev_walk_ctxs(struct npu_dev *ndev, bool ctx_locked,
		       void (*fn)(struct npu_ctx *, void *), void *data)
{
	struct npu_ctx *ctx;

	mutex_lock(&ndev->ctx_lock);
	list_for_each_entry(ctx, &ndev->ctx_list, node) {
		if (ctx_locked)
			down_write(&ctx->lock);
		fn(ctx, data);
		if (ctx_locked)
			up_write(&ctx->lock);
		cond_resched();
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
/*
 * The state below is readable by every user, like the device nodes: the
 * figures nvidia-smi shows any user.  Each counter file holds one number.
 */
static ssize_t npu_dev_show_counter(struct npu_dev *ndev, const u64 *counter,
				    char *buf)
{
	u64 val;

	spin_lock(&ndev->cap_lock);
	val = *counter;
	spin_unlock(&ndev->cap_lock);
	return sysfs_emit(buf, "%llu\n", val);
}

#define NPU_DEV_COUNTER_ATTR(name, field)				\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);	\
									\
	return npu_dev_show_counter(ndev, &ndev->field, buf);		\
}									\
static DEVICE_ATTR_RO(name)

NPU_DEV_COUNTER_ATTR(used_normal_bytes, used_kind[NPU_SIM_PAGE_NORMAL]);
NPU_DEV_COUNTER_ATTR(used_huge_2m_bytes, used_kind[NPU_SIM_PAGE_HUGE_2M]);
NPU_DEV_COUNTER_ATTR(used_huge_1g_bytes, used_kind[NPU_SIM_PAGE_HUGE_1G]);
NPU_DEV_COUNTER_ATTR(used_p2p_bytes, used_p2p);

static ssize_t allocations_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);

	return sysfs_emit(buf, "%llu\n", npu_dev_nr_allocs(ndev));
}
static DEVICE_ATTR_RO(allocations);

static ssize_t api_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d.%d\n", NPU_SIM_API_VERSION_MAJOR,
			  NPU_SIM_API_VERSION_MINOR);
}
static DEVICE_ATTR_RO(api_version);

/*
 * "OK", or "Warning" while allocations are bound to fail: the capacity is
 * used up or failures are injected (debugfs fail_alloc).
 */
static ssize_t health_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);
	bool full;

	spin_lock(&ndev->cap_lock);
	full = ndev->used >= ndev->capacity;
	spin_unlock(&ndev->cap_lock);
	if (full || atomic_read(&ndev->fail_alloc) > 0)
		return sysfs_emit(buf, "Warning\n");
	return sysfs_emit(buf, "OK\n");
}
static DEVICE_ATTR_RO(health);

static ssize_t contexts_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);
	unsigned int nr;

	mutex_lock(&ndev->ctx_lock);
	nr = ndev->nr_ctx;
	mutex_unlock(&ndev->ctx_lock);
	return sysfs_emit(buf, "%u\n", nr);
}
static DEVICE_ATTR_RO(contexts);

static void npu_dev_peers_ctx(struct npu_ctx *ctx, void *data)
{
	*(unsigned long *)data |= READ_ONCE(ctx->peers);
}

/* Devices some process of this device may access, as a list: "1,3". */
static ssize_t peers_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);
	unsigned long peers = 0;

	npu_dev_walk_ctxs(ndev, false, npu_dev_peers_ctx, &peers);
	return sysfs_emit(buf, "%*pbl\n", NPU_SIM_MAX_DEVICES, &peers);
}
static DEVICE_ATTR_RO(peers);

/* One line of the "processes" file: the contexts of one process added up. */
struct npu_dev_proc {
	pid_t pid;			/* initial pid namespace */
	u64 used;
	u64 allocs;
};

/* Longest line: "%d %llu %llu\n" with 10 + 20 + 20 digits. */
#define NPU_DEV_PROC_LINE_MAX	53
/* More than a PAGE_SIZE sysfs buffer takes of the shortest lines. */
#define NPU_DEV_MAX_PROCS	(PAGE_SIZE / 6)

struct npu_dev_procs {
	struct npu_dev_proc *procs;
	unsigned int nr;
};

static void npu_dev_procs_ctx(struct npu_ctx *ctx, void *data)
{
	struct npu_dev_procs *p = data;
	unsigned int i;

	for (i = 0; i < p->nr && p->procs[i].pid != ctx->pid; i++)
		;
	if (i == NPU_DEV_MAX_PROCS)
		return;
	if (i == p->nr) {
		p->procs[i].pid = ctx->pid;
		p->nr++;
	}
	p->procs[i].used += npu_ctx_used(ctx);
	p->procs[i].allocs += npu_ctx_nr_maps(ctx);
}

/*
 * "pid used_bytes allocations" header, then one line per process with the
 * device open, pids as the reader's pid namespace sees them; processes
 * outside it are left out, and so are those past a full page.
 */
static ssize_t processes_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct npu_dev *ndev = container_of(dev, struct npu_dev, dev);
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct npu_dev_procs p = { };
	unsigned int i;
	ssize_t len;

	p.procs = kvcalloc(NPU_DEV_MAX_PROCS, sizeof(*p.procs), GFP_KERNEL);
	if (!p.procs)
		return -ENOMEM;
	/*
	 * World-readable: no context lock, so that a context busy under its
	 * lock never holds up this reader and, through npu_dev.ctx_lock,
	 * every open and close of the device.
	 */
	npu_dev_walk_ctxs(ndev, false, npu_dev_procs_ctx, &p);

	len = sysfs_emit(buf, "pid used_bytes allocations\n");
	for (i = 0; i < p.nr; i++) {
		pid_t nr;

		rcu_read_lock();
		nr = pid_nr_ns(find_pid_ns(p.procs[i].pid, &init_pid_ns), ns);
		rcu_read_unlock();
		/* whole lines only: a full page leaves the rest out */
		if (len > PAGE_SIZE - NPU_DEV_PROC_LINE_MAX)
			break;
		if (nr)
			len += sysfs_emit_at(buf, len, "%d %llu %llu\n", nr,
					     p.procs[i].used,
					     p.procs[i].allocs);
	}
	kvfree(p.procs);
	return len;
}
static DEVICE_ATTR_RO(processes);

static struct attribute *npu_dev_attrs[] = {
	&dev_attr_capacity_bytes.attr,
	&dev_attr_used_bytes.attr,
	&dev_attr_host_access.attr,
	&dev_attr_profile.attr,
	&dev_attr_product_name.attr,
	&dev_attr_soc_name.attr,
	&dev_attr_memory_kind.attr,
	&dev_attr_proc_mem_limit_bytes.attr,
	&dev_attr_used_normal_bytes.attr,
	&dev_attr_used_huge_2m_bytes.attr,
	&dev_attr_used_huge_1g_bytes.attr,
	&dev_attr_used_p2p_bytes.attr,
	&dev_attr_allocations.attr,
	&dev_attr_api_version.attr,
	&dev_attr_health.attr,
	&dev_attr_contexts.attr,
	&dev_attr_peers.attr,
	&dev_attr_processes.attr,
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
	free_percpu(ndev->stats);
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
	ndev->stats = alloc_percpu(struct npu_stats);
	if (!ndev->stats) {
		kfree(ndev);
		return -ENOMEM;
	}

	ndev->index = index;
	ndev->capacity = capacity;
	ndev->host_access = host_access;
	mutex_init(&ndev->ctx_lock);
	INIT_LIST_HEAD(&ndev->ctx_list);
	ida_init(&ndev->ctx_ida);
	spin_lock_init(&ndev->cap_lock);
	seqcount_spinlock_init(&ndev->cap_seq, &ndev->cap_lock);
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
