// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/npu_sim/: plain-text state for tools and tests, in the
 * formats of docs/driver-interface.md (stable column names, no kernel
 * pointers), plus the fail_alloc fault-injection knob.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

static struct dentry *npu_dbg_root;

static const char * const npu_stat_names[NPU_STAT_NR] = {
	[NPU_STAT_CALLS_ALLOC] = "calls_alloc",
	[NPU_STAT_CALLS_FREE] = "calls_free",
	[NPU_STAT_CALLS_MEMCPY] = "calls_memcpy",
	[NPU_STAT_CALLS_MEMCPY2D] = "calls_memcpy2d",
	[NPU_STAT_CALLS_MEMSET] = "calls_memset",
	[NPU_STAT_CALLS_MEM_INFO] = "calls_mem_info",
	[NPU_STAT_FAIL_INVALID] = "fail_invalid",
	[NPU_STAT_FAIL_CAPACITY] = "fail_capacity",
	[NPU_STAT_FAIL_POOL] = "fail_pool",
	[NPU_STAT_FAIL_NOMEM] = "fail_nomem",
	[NPU_STAT_FAIL_INJECTED] = "fail_injected",
	[NPU_STAT_FAIL_NO_ENTRY] = "fail_no_entry",
	[NPU_STAT_FAIL_RANGE] = "fail_range",
	[NPU_STAT_FAIL_FAULT] = "fail_fault",
	[NPU_STAT_FALLBACK_NORMAL] = "fallback_normal",
	[NPU_STAT_HOST_ACCESS_FAULTS] = "host_access_faults",
	[NPU_STAT_CALLS_VMM] = "calls_vmm",
	[NPU_STAT_CALLS_SHARE] = "calls_share",
	[NPU_STAT_CALLS_STREAM] = "calls_stream",
	[NPU_STAT_FREE_WHILE_QUEUED] = "free_while_queued",
	[NPU_STAT_FAIL_LIMIT] = "fail_limit",
};

static const char *npu_api_name(u32 api)
{
	switch (api) {
	case NPU_SIM_API_MALLOC:
		return "malloc";
	case NPU_SIM_API_MALLOC_ALIGN32:
		return "malloc_align32";
	case NPU_SIM_API_MALLOC_CACHED:
		return "malloc_cached";
	case NPU_SIM_API_MALLOC_WITH_CFG:
		return "malloc_with_cfg";
	}
	return "?";
}

static int npu_version_show(struct seq_file *m, void *v)
{
	seq_printf(m, "api %d.%d\n", NPU_SIM_API_VERSION_MAJOR,
		   NPU_SIM_API_VERSION_MINOR);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_version);

static int npu_info_show(struct seq_file *m, void *v)
{
	struct npu_dev *ndev = m->private;
	u64 used, kind[NPU_KIND_NR], p2p, allocs;
	unsigned int nr_ctx;

	spin_lock(&ndev->cap_lock);
	used = ndev->used;
	memcpy(kind, ndev->used_kind, sizeof(kind));
	p2p = ndev->used_p2p;
	spin_unlock(&ndev->cap_lock);
	allocs = npu_dev_nr_allocs(ndev);

	mutex_lock(&ndev->ctx_lock);
	nr_ctx = ndev->nr_ctx;
	mutex_unlock(&ndev->ctx_lock);

	seq_printf(m, "device %u\n", ndev->index);
	seq_printf(m, "capacity_bytes %llu\n", ndev->capacity);
	seq_printf(m, "used_bytes %llu\n", used);
	seq_printf(m, "used_normal_bytes %llu\n", kind[NPU_SIM_PAGE_NORMAL]);
	seq_printf(m, "used_huge_2m_bytes %llu\n", kind[NPU_SIM_PAGE_HUGE_2M]);
	seq_printf(m, "used_huge_1g_bytes %llu\n", kind[NPU_SIM_PAGE_HUGE_1G]);
	seq_printf(m, "used_p2p_bytes %llu\n", p2p);
	seq_printf(m, "allocations %llu\n", allocs);
	seq_printf(m, "contexts %u\n", nr_ctx);
	seq_printf(m, "hugetlb_2m_pages %llu\n",
		   kind[NPU_SIM_PAGE_HUGE_2M] >> PMD_SHIFT);
	seq_printf(m, "hugetlb_1g_pages %llu\n",
		   kind[NPU_SIM_PAGE_HUGE_1G] >> PUD_SHIFT);
	seq_printf(m, "host_access %d\n", READ_ONCE(ndev->host_access) ? 1 : 0);
	seq_printf(m, "profile_index %u\n", npu_profile_index());
	seq_printf(m, "profile %s\n", npu_profile_id());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_info);

static void npu_show_map(struct seq_file *m, struct npu_map *map)
{
	bool p2p = map->flags & NPU_SIM_ALLOC_P2P;
	bool ro = map->flags & NPU_SIM_ALLOC_READONLY;
	bool linear = map->role == NPU_MAP_LINEAR;
	/* A slot of a small page: its share (the page is charged once). */
	u64 charged = linear && map->u.linear.small ? map->len :
		      map->phys->size;

	seq_printf(m, "%llu %d 0x%lx %llu %llu %llu %s 0x%x %s %s\n",
		   map->id, map->pid, map->va, map->size, map->footprint,
		   charged, npu_kind_name(map->phys->kind),
		   linear ? map->u.linear.policy : 0,
		   npu_api_name(linear ? map->u.linear.api : 0),
		   !linear ? "managed" :
		   p2p && ro ? "p2p,ro" : p2p ? "p2p" : ro ? "ro" : "-");
}

/*
 * Call @fn on each allocation of @ctx (ctx->lock held for write), oldest
 * first: its list and its small page shards' slot lists, each in id
 * order, merged by id.
 */
static void npu_ctx_walk_allocs(struct npu_ctx *ctx,
				void (*fn)(struct seq_file *m,
					   struct npu_map *map),
				struct seq_file *m)
{
	struct list_head *head[NPU_SMALL_SHARDS + 1], *pos[NPU_SMALL_SHARDS + 1];
	struct npu_map *map, *oldest;
	unsigned int i, from = 0;

	head[0] = &ctx->maps;
	for (i = 0; i < NPU_SMALL_SHARDS; i++)
		head[i + 1] = &ctx->small[i].maps;
	for (i = 0; i <= NPU_SMALL_SHARDS; i++)
		pos[i] = head[i]->next;
	for (;;) {
		oldest = NULL;
		for (i = 0; i <= NPU_SMALL_SHARDS; i++) {
			if (pos[i] == head[i])
				continue;
			map = list_entry(pos[i], struct npu_map, node);
			if (!oldest || map->id < oldest->id) {
				oldest = map;
				from = i;
			}
		}
		if (!oldest)
			return;
		pos[from] = pos[from]->next;
		fn(m, oldest);
		cond_resched();
	}
}

static void npu_allocations_ctx(struct npu_ctx *ctx, void *m)
{
	npu_ctx_walk_allocs(ctx, npu_show_map, m);
}

static int npu_allocations_show(struct seq_file *m, void *v)
{
	seq_puts(m, "id pid va size footprint charged kind policy api flags\n");
	npu_dev_walk_ctxs(m->private, true, npu_allocations_ctx, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_allocations);

static const char *npu_site_role(const struct npu_map *map)
{
	switch (map->role) {
	case NPU_MAP_LINEAR:
		return "linear";
	case NPU_MAP_MANAGED:
		return "managed";
	default:
		return "reservation";
	}
}

static void npu_show_site(struct seq_file *m, struct npu_map *map)
{
	seq_printf(m, "%d %s 0x%lx %llu site=0x%llx\n", map->pid,
		   npu_site_role(map), map->va, map->size, map->site);
}

/* Call sites the library tagged (CHECK_SITE; 0x0: none). */
static void npu_sites_ctx(struct npu_ctx *ctx, void *m)
{
	struct npu_map *map;

	npu_ctx_walk_allocs(ctx, npu_show_site, m);
	list_for_each_entry(map, &ctx->resvs, node) {
		seq_printf(m, "%d %s 0x%lx %llu site=0x%llx\n", map->pid,
			   npu_site_role(map), map->va, map->len, map->site);
		cond_resched();
	}
}

static int npu_sites_show(struct seq_file *m, void *v)
{
	seq_puts(m, "pid kind va size site\n");
	npu_dev_walk_ctxs(m->private, true, npu_sites_ctx, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_sites);

DEFINE_SHOW_ATTRIBUTE(npu_check_reports);

static void npu_contexts_ctx(struct npu_ctx *ctx, void *m)
{
	u64 charged, injected;

	charged = READ_ONCE(ctx->proc->used);
	spin_lock(&ctx->fault.lock);
	injected = ctx->fault.injected;
	spin_unlock(&ctx->fault.lock);
	seq_printf(m, "%d %llu %llu 0x%lx %lu %llu %llu %llu\n", ctx->pid,
		   npu_ctx_nr_maps(ctx), npu_ctx_used(ctx),
		   ctx->win_state == NPU_WIN_MAPPED ? ctx->win_start : 0,
		   npu_window_size, npu_limit_effective(ctx->proc), charged,
		   injected);
}

/* limit_bytes, charged_bytes: the process's account (0 = no limit). */
static int npu_contexts_show(struct seq_file *m, void *v)
{
	seq_puts(m, "pid allocations used_bytes window_start window_size limit_bytes charged_bytes faults_injected\n");
	npu_dev_walk_ctxs(m->private, true, npu_contexts_ctx, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_contexts);

static const char *npu_loc_name(u32 loc)
{
	switch (loc) {
	case NPU_SIM_LOC_DEVICE:
		return "device";
	case NPU_SIM_LOC_HOST:
		return "host";
	case NPU_SIM_LOC_HOST_NUMA:
		return "host_numa";
	}
	return "?";
}

static void npu_reservations_ctx(struct npu_ctx *ctx, void *m)
{
	struct npu_map *r;

	list_for_each_entry(r, &ctx->resvs, node) {
		seq_printf(m, "%d 0x%lx %llu %llu\n", r->pid, r->va, r->len,
			   r->u.resv.nr_mapped);
		cond_resched();
	}
}

static int npu_reservations_show(struct seq_file *m, void *v)
{
	seq_puts(m, "pid va size mappings\n");
	npu_dev_walk_ctxs(m->private, true, npu_reservations_ctx, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_reservations);

static void npu_mappings_ctx(struct npu_ctx *ctx, void *m)
{
	struct npu_map *map;

	list_for_each_entry(map, &ctx->vmaps, node) {
		seq_printf(m, "%d 0x%lx %llu %u %s %s 0x%lx %s:%s:%u\n",
			   map->pid, map->va, map->len,
			   map->u.vmm.handle->id,
			   npu_kind_name(map->phys->kind),
			   npu_loc_name(map->phys->location),
			   map->u.vmm.resv->va,
			   !map->u.vmm.access ? "none" :
			   map->u.vmm.access == NPU_SIM_ACCESS_READWRITE ?
			   "rw" : "?", npu_loc_name(map->u.vmm.access_loc),
			   map->u.vmm.access_loc_id);
		cond_resched();
	}
}

static int npu_mappings_show(struct seq_file *m, void *v)
{
	seq_puts(m, "pid va size handle kind location reservation access\n");
	npu_dev_walk_ctxs(m->private, true, npu_mappings_ctx, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_mappings);

static void npu_handles_ctx(struct npu_ctx *ctx, void *m)
{
	struct npu_handle *h;
	unsigned long id;

	xa_for_each(&ctx->handles, id, h) {
		struct npu_phys *p = h->phys;
		bool p2p = p->flags & NPU_SIM_ALLOC_P2P;

		seq_printf(m, "%d %u %llu %s %s %u %u %u %u %s%s%s%s\n",
			   ctx->pid, h->id, p->size, npu_kind_name(p->kind),
			   npu_loc_name(p->location), p->location_id,
			   p->mem_attr, h->holds, h->nr_maps,
			   h->imported ? "imported" : "",
			   READ_ONCE(h->share) ? (h->imported ? ",exported" : "exported") : "",
			   p2p ? (h->imported || READ_ONCE(h->share) ? ",p2p" : "p2p") : "",
			   !h->imported && !READ_ONCE(h->share) && !p2p ? "-" : "");
		cond_resched();
	}
}

static int npu_handles_show(struct seq_file *m, void *v)
{
	seq_puts(m, "pid handle size kind location location_id mem_attr holds mappings flags\n");
	npu_dev_walk_ctxs(m->private, true, npu_handles_ctx, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_handles);

static int npu_shared_show(struct seq_file *m, void *v)
{
	npu_key_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_shared);

static int npu_stats_show(struct seq_file *m, void *v)
{
	struct npu_dev *ndev = m->private;
	int cpu, i;

	for (i = 0; i < NPU_STAT_NR; i++) {
		s64 sum = 0;

		for_each_possible_cpu(cpu)
			sum += READ_ONCE(per_cpu_ptr(ndev->stats, cpu)->v[i]);
		seq_printf(m, "%s %lld\n", npu_stat_names[i], (long long)sum);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_stats);

static int npu_fail_alloc_get(void *data, u64 *val)
{
	struct npu_dev *ndev = data;

	*val = atomic_read(&ndev->fail_alloc);
	return 0;
}

static int npu_fail_alloc_set(void *data, u64 val)
{
	struct npu_dev *ndev = data;

	if (val > INT_MAX)
		return -EINVAL;
	atomic_set(&ndev->fail_alloc, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(npu_fail_alloc_fops, npu_fail_alloc_get,
			 npu_fail_alloc_set, "%llu\n");

static int npu_managed_dbg_show(struct seq_file *m, void *v)
{
	npu_managed_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_managed_dbg);

static int npu_streams_show(struct seq_file *m, void *v)
{
	npu_stream_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_streams);

static int npu_events_show(struct seq_file *m, void *v)
{
	npu_event_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_events);

static int npu_callbacks_show(struct seq_file *m, void *v)
{
	npu_report_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_callbacks);
static int npu_notifies_show(struct seq_file *m, void *v)
{
	npu_notify_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_notifies);
static int npu_mempools_show(struct seq_file *m, void *v)
{
	npu_mempool_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_mempools);

static int npu_graphs_show(struct seq_file *m, void *v)
{
	npu_graph_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_graphs);

static int npu_stream_hold_show(struct seq_file *m, void *v)
{
	npu_stream_hold_print(m, m->private);
	return 0;
}

static int npu_stream_hold_open(struct inode *inode, struct file *file)
{
	return single_open(file, npu_stream_hold_show, inode->i_private);
}

/* A write to a one-line knob file: the text, trimmed, to @parse. */
static ssize_t npu_knob_write(struct file *file, const char __user *ubuf,
			      size_t len,
			      int (*parse)(struct npu_dev *ndev, char *buf))
{
	struct seq_file *m = file->private_data;
	char buf[64];
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	ret = parse(m->private, strim(buf));
	return ret ? ret : len;
}

static ssize_t npu_stream_hold_write(struct file *file, const char __user *ubuf,
				     size_t len, loff_t *ppos)
{
	return npu_knob_write(file, ubuf, len, npu_stream_hold_parse);
}

static const struct file_operations npu_stream_hold_fops = {
	.owner = THIS_MODULE,
	.open = npu_stream_hold_open,
	.read = seq_read,
	.write = npu_stream_hold_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int npu_limits_show(struct seq_file *m, void *v)
{
	npu_limit_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_limits);

static int npu_faults_show(struct seq_file *m, void *v)
{
	npu_fault_dev_print(m, m->private);
	return 0;
}

static int npu_faults_open(struct inode *inode, struct file *file)
{
	return single_open(file, npu_faults_show, inode->i_private);
}

/* "SEED RATE_PPM OPS_MASK": the setting new contexts start with. */
static ssize_t npu_faults_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	return npu_knob_write(file, ubuf, len, npu_fault_dev_parse);
}

static const struct file_operations npu_faults_fops = {
	.owner = THIS_MODULE,
	.open = npu_faults_open,
	.read = seq_read,
	.write = npu_faults_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int npu_peers_show(struct seq_file *m, void *v)
{
	npu_peer_ctx_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_peers);

static int npu_peer_copies_show(struct seq_file *m, void *v)
{
	npu_peer_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_peer_copies);

void npu_debugfs_dev_init(struct npu_dev *ndev)
{
	struct dentry *dir;

	dir = debugfs_create_dir(dev_name(&ndev->dev), npu_dbg_root);
	ndev->dbg_dir = dir;
	debugfs_create_file("info", 0444, dir, ndev, &npu_info_fops);
	debugfs_create_file("allocations", 0444, dir, ndev,
			    &npu_allocations_fops);
	debugfs_create_file("contexts", 0444, dir, ndev, &npu_contexts_fops);
	debugfs_create_file("stats", 0444, dir, ndev, &npu_stats_fops);
	debugfs_create_file("reservations", 0444, dir, ndev,
			    &npu_reservations_fops);
	debugfs_create_file("mappings", 0444, dir, ndev, &npu_mappings_fops);
	debugfs_create_file("handles", 0444, dir, ndev, &npu_handles_fops);
	/* Root only: it names who may import what. */
	debugfs_create_file("shared", 0400, dir, ndev, &npu_shared_fops);
	debugfs_create_file_unsafe("fail_alloc", 0644, dir, ndev,
				   &npu_fail_alloc_fops);
	debugfs_create_file("streams", 0444, dir, ndev, &npu_streams_fops);
	debugfs_create_file("managed", 0444, dir, ndev, &npu_managed_dbg_fops);
	debugfs_create_file("events", 0444, dir, ndev, &npu_events_fops);
	debugfs_create_file("callbacks", 0444, dir, ndev, &npu_callbacks_fops);
	debugfs_create_file("notifies", 0444, dir, ndev, &npu_notifies_fops);
	debugfs_create_file("mempools", 0444, dir, ndev, &npu_mempools_fops);
	debugfs_create_file("graphs", 0444, dir, ndev, &npu_graphs_fops);
	debugfs_create_file("stream_hold", 0644, dir, ndev,
			    &npu_stream_hold_fops);
	debugfs_create_file("peers", 0444, dir, ndev, &npu_peers_fops);
	debugfs_create_file("limits", 0444, dir, ndev, &npu_limits_fops);
	debugfs_create_file("faults", 0644, dir, ndev, &npu_faults_fops);
	debugfs_create_file("sites", 0444, dir, ndev, &npu_sites_fops);
}

void npu_debugfs_init(void)
{
	npu_dbg_root = debugfs_create_dir(NPU_SIM_NAME, NULL);
	debugfs_create_file("version", 0444, npu_dbg_root, NULL,
			    &npu_version_fops);
	debugfs_create_file("peer_copies", 0444, npu_dbg_root, NULL,
			    &npu_peer_copies_fops);
	debugfs_create_file("reports", 0444, npu_dbg_root, NULL,
			    &npu_check_reports_fops);
}

void npu_debugfs_exit(void)
{
	debugfs_remove(npu_dbg_root);
	npu_dbg_root = NULL;
}
