// SPDX-License-Identifier: GPL-2.0
/*
 * 2 MiB and 1 GiB backing taken from the kernel's real hugetlb pools, so
 * HugePages_Free drops by exactly what the device holds.
 *
 * hugetlb_file_setup() is not exported, so the module mounts hugetlbfs
 * itself (one kernel-internal mount per page size) and backs each
 * allocation with an unlinked file on it: vfs_tmpfile_open() +
 * vfs_fallocate() take the pages from the pool, the last fput() of the
 * file gives them back.
 */
#include <linux/cred.h>
#include <linux/falloc.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hugetlb.h>
#include <linux/mount.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "npu_sim.h"

struct npu_pool {
	const char *opts;	/* mount options */
	unsigned int shift;	/* expected page size */
	struct vfsmount *mnt;	/* NULL when the page size is unavailable */
};

static struct npu_pool npu_pools[NPU_KIND_NR] = {
	[NPU_SIM_PAGE_HUGE_2M] = { .opts = "pagesize=2M", .shift = PMD_SHIFT },
	[NPU_SIM_PAGE_HUGE_1G] = { .opts = "pagesize=1G", .shift = PUD_SHIFT },
};

/*
 * Credentials of whoever loaded the module: the tmpfile is created in the
 * mount root (mode 0755, owned by that user), whoever calls the ioctl.
 */
static const struct cred *npu_cred;

static struct npu_pool *npu_pool_of(enum npu_sim_page_kind kind)
{
	if (kind != NPU_SIM_PAGE_HUGE_2M && kind != NPU_SIM_PAGE_HUGE_1G)
		return NULL;
	return &npu_pools[kind];
}

/*
 * Page-cache index of the i-th huge page of a hugetlbfs file.  On 6.1 it
 * counts huge pages; later kernels count base pages here.
 */
static pgoff_t npu_hugetlb_index(struct npu_pool *pool, unsigned long i)
{
	return i;
}

bool npu_hugetlbfs_available(enum npu_sim_page_kind kind)
{
	struct npu_pool *pool = npu_pool_of(kind);

	return pool && pool->mnt;
}

static struct vfsmount *npu_pool_mount(struct file_system_type *type,
				       struct npu_pool *pool)
{
	struct vfsmount *mnt;
	struct hstate *h;
	char opts[32];

	/* The option parser writes into the string: give it a copy. */
	strscpy(opts, pool->opts, sizeof(opts));
	mnt = vfs_kern_mount(type, SB_KERNMOUNT, NPU_SIM_NAME, opts);
	if (IS_ERR(mnt)) {
		pr_info("npu_sim: no hugetlbfs %s (%ld): page size unavailable\n",
			pool->opts, PTR_ERR(mnt));
		return NULL;
	}

	h = hstate_inode(d_inode(mnt->mnt_root));
	if (huge_page_shift(h) != pool->shift) {
		pr_warn("npu_sim: hugetlbfs %s has page shift %u\n",
			pool->opts, huge_page_shift(h));
		kern_unmount(mnt);
		return NULL;
	}
	return mnt;
}

int npu_hugetlbfs_init(void)
{
	struct file_system_type *type;
	int kind;

	/* Built-in filesystem: no module reference to drop later. */
	type = get_fs_type("hugetlbfs");
	if (!type) {
		pr_warn("npu_sim: hugetlbfs not available, normal pages only\n");
		return 0;
	}

	npu_cred = get_cred(current_cred());
	for (kind = 0; kind < NPU_KIND_NR; kind++) {
		struct npu_pool *pool = npu_pool_of(kind);

		if (pool)
			pool->mnt = npu_pool_mount(type, pool);
	}
	return 0;
}

void npu_hugetlbfs_exit(void)
{
	int kind;

	for (kind = 0; kind < NPU_KIND_NR; kind++) {
		struct npu_pool *pool = npu_pool_of(kind);

		if (pool && pool->mnt) {
			kern_unmount(pool->mnt);
			pool->mnt = NULL;
		}
	}
	if (npu_cred) {
		put_cred(npu_cred);
		npu_cred = NULL;
	}
}

void npu_hugetlbfs_pool(enum npu_sim_page_kind kind, u64 *total, u64 *free)
{
	struct npu_pool *pool = npu_pool_of(kind);
	struct hstate *h;

	*total = 0;
	*free = 0;
	if (!pool || !pool->mnt)
		return;
	/* Racy snapshot of the pool counters, like /proc/meminfo. */
	h = hstate_inode(d_inode(pool->mnt->mnt_root));
	*total = READ_ONCE(h->nr_huge_pages);
	*free = READ_ONCE(h->free_huge_pages);
}

/*
 * Take phys->nr_pages huge pages from the pool.  Returns -ENOSPC when the
 * pool (or this page size) is short, -ERESTARTSYS on a signal, and holds
 * nothing then.
 */
int npu_hugetlbfs_fill(struct npu_phys *phys)
{
	struct npu_pool *pool = npu_pool_of(phys->kind);
	const struct cred *old_cred;
	struct file *file;
	struct path root;
	unsigned long i;
	int ret;

	if (!pool || !pool->mnt)
		return -ENOSPC;

	root.mnt = pool->mnt;
	root.dentry = pool->mnt->mnt_root;
	old_cred = override_creds(npu_cred);
	file = vfs_tmpfile_open(&init_user_ns, &root, S_IFREG | 0600,
				O_RDWR | O_LARGEFILE, npu_cred);
	revert_creds(old_cred);
	if (IS_ERR(file))
		return PTR_ERR(file);

	/* Allocates (and zeroes) every page now: shortage shows here. */
	ret = vfs_fallocate(file, 0, 0, phys->size);
	if (ret) {
		/*
		 * A signal stops the zeroing of a long run of pages; nothing
		 * is kept, so the call can simply be restarted.
		 */
		ret = ret == -EINTR ? -ERESTARTSYS : -ENOSPC;
		goto err_fput;
	}

	for (i = 0; i < phys->nr_pages; i++) {
		struct folio *folio;

		folio = __filemap_get_folio(file->f_mapping,
					    npu_hugetlb_index(pool, i), 0, 0);
		if (!folio) {
			ret = -ENOSPC;
			goto err_put;
		}
		phys->pages[i] = &folio->page;
	}
	phys->file = file;
	return 0;

err_put:
	while (i--)
		folio_put(page_folio(phys->pages[i]));
err_fput:
	/* Returns whatever fallocate did get to the pool. */
	fput(file);
	return ret;
}

void npu_hugetlbfs_release(struct npu_phys *phys)
{
	unsigned long i;

	for (i = 0; i < phys->nr_pages; i++)
		folio_put(page_folio(phys->pages[i]));
	/*
	 * In a kernel thread (a stream worker dropping the last reference)
	 * fput() defers the release to a work item: the pages would reach
	 * the pool only after the op counts as completed.  Release now.
	 */
	if (current->flags & PF_KTHREAD)
		__fput_sync(phys->file);
	else
		fput(phys->file);
	phys->file = NULL;
}
