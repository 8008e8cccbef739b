// SPDX-License-Identifier: GPL-2.0
/*
 * Check reports (UAPI 1.6, docs/checks.md): the call-site tag of an
 * allocation or reservation (CHECK_SITE; shown by debugfs npu_simN/sites)
 * and the record of host accesses to device memory in strict mode
 * (debugfs npu_sim/reports), kept after the faulting process is gone.
 */
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include "npu_sim.h"

/* Host faults remembered machine-wide, newest overwrite oldest. */
#define NPU_CHECK_FAULTS	64

struct npu_check_fault {
	u64 seq;		/* 0: unused */
	u32 dev;
	pid_t pid;
	unsigned long addr;
	unsigned long base;	/* 0: no object there */
	u64 site;
};

static DEFINE_SPINLOCK(npu_check_lock);	/* the ring; innermost, no sleeping */
static struct npu_check_fault npu_check_faults[NPU_CHECK_FAULTS];
static u64 npu_check_seq;

static bool npu_check_taggable(const struct npu_map *map, unsigned long va)
{
	return map && map->va == va &&
	       (map->role == NPU_MAP_LINEAR || map->role == NPU_MAP_MANAGED ||
		map->role == NPU_MAP_RESERVATION);
}

int npu_ioctl_check_site(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_check_site args;
	struct npu_map *map;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.reserved || args.queued ||
	    (args.op != NPU_SIM_CHECK_SET_SITE && args.op != NPU_SIM_CHECK_QUERY))
		return -EINVAL;
	if (args.va > ULONG_MAX)
		return -ENOENT;

	down_write(&ctx->lock);
	/* The tree entry: a reservation has no device range of its own. */
	map = npu_va_entry(ctx, (unsigned long)args.va);
	if (!npu_check_taggable(map, (unsigned long)args.va)) {
		ret = -ENOENT;
	} else if (args.op == NPU_SIM_CHECK_SET_SITE) {
		map->site = args.site;
	} else {
		args.site = map->site;
		args.queued = atomic_read(&map->nr_queued);
	}
	up_write(&ctx->lock);
	if (ret)
		return ret;
	if (args.op == NPU_SIM_CHECK_QUERY &&
	    copy_to_user(uarg, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}

void npu_check_host_fault(struct npu_ctx *ctx, struct npu_map *map,
			  unsigned long addr)
{
	struct npu_check_fault *f;

	spin_lock(&npu_check_lock);
	f = &npu_check_faults[npu_check_seq % NPU_CHECK_FAULTS];
	f->seq = ++npu_check_seq;
	f->dev = ctx->ndev->index;
	f->pid = task_tgid_nr(current);
	f->addr = addr;
	f->base = map ? map->va : 0;
	f->site = map ? map->site : 0;
	spin_unlock(&npu_check_lock);
}

int npu_check_reports_show(struct seq_file *m, void *v)
{
	struct npu_check_fault *copy;
	u64 i, first, last;

	copy = kmalloc_array(NPU_CHECK_FAULTS, sizeof(*copy), GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	spin_lock(&npu_check_lock);
	memcpy(copy, npu_check_faults, sizeof(npu_check_faults));
	last = npu_check_seq;
	spin_unlock(&npu_check_lock);

	seq_puts(m, "seq dev pid addr base offset site\n");
	first = last > NPU_CHECK_FAULTS ? last - NPU_CHECK_FAULTS + 1 : 1;
	for (i = first; i <= last; i++) {
		struct npu_check_fault *f = &copy[(i - 1) % NPU_CHECK_FAULTS];

		seq_printf(m, "%llu %u %d 0x%lx 0x%lx %lu 0x%llx\n", f->seq,
			   f->dev, f->pid, f->addr, f->base,
			   f->base ? f->addr - f->base : 0, f->site);
	}
	kfree(copy);
	return 0;
}
