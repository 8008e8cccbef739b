// SPDX-License-Identifier: GPL-2.0
/*
 * Product profiles: which row of include/uapi/misc/npu_sim_profiles.h this
 * load of the module poses as (module parameter profile=), and the rules of
 * that row the driver enforces itself, so that a caller bypassing the
 * runtime library meets them too.  Pure lookup: no locks, no state but the
 * index chosen at load time.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>

#include <misc/npu_sim_profiles.h>

#include "npu_sim.h"

static unsigned int npu_profile_cur = NPU_SIM_PROFILE_DEFAULT;

static const struct npu_sim_profile *npu_profile(void)
{
	return &npu_sim_profiles[npu_profile_cur];
}

int npu_profile_select(const char *id)
{
	char ids[160] = "";
	unsigned int i;

	for (i = 1; i < NPU_SIM_PROFILE_NR; i++) {
		if (sysfs_streq(id, npu_sim_profiles[i].id)) {
			npu_profile_cur = i;
			return 0;
		}
		strlcat(ids, " ", sizeof(ids));
		strlcat(ids, npu_sim_profiles[i].id, sizeof(ids));
	}
	pr_err("npu_sim: unknown profile '%s'; valid profiles:%s\n", id, ids);
	return -EINVAL;
}

unsigned int npu_profile_index(void)
{
	return npu_profile_cur;
}

const char *npu_profile_id(void)
{
	return npu_profile()->id;
}

const char *npu_profile_product(void)
{
	return npu_profile()->product;
}

const char *npu_profile_soc_name(void)
{
	return npu_profile()->soc_name;
}

const char *npu_profile_mem_kind(void)
{
	return npu_profile()->mem_kind == NPU_SIM_MEM_DDR ? "DDR" : "HBM";
}

unsigned int npu_profile_capacity_mib(void)
{
	return npu_profile()->capacity_mib;
}

/*
 * The aclrtMemMallocPolicy base item a MEM_ALLOC asks for is read back from
 * its backing and P2P flag (the library derives them from the policy).
 */
int npu_profile_check_alloc(u32 backing, u32 flags)
{
	static const unsigned int item[] = {
		[NPU_SIM_BACKING_HUGE_FIRST] = 0,
		[NPU_SIM_BACKING_HUGE_ONLY] = 1,
		[NPU_SIM_BACKING_NORMAL] = 2,
		[NPU_SIM_BACKING_HUGE1G_ONLY] = 6,
	};
	unsigned int n;

	if (backing >= ARRAY_SIZE(item) || !backing)
		return -EINVAL;
	n = item[backing];
	if (flags & NPU_SIM_ALLOC_P2P)
		n = n == 6 ? 7 : n + 3;
	return npu_profile()->policies & BIT(n) ? 0 : -EOPNOTSUPP;
}

/*
 * Attributes the runtime accepts at all but this product does not, and
 * 1 GiB pages on a product without them, are refused; other values are
 * recorded as before (not interpreted).
 */
int npu_profile_check_phys(u32 page_kind, u32 mem_attr)
{
	const struct npu_sim_profile *p = npu_profile();

	if (!p->phys_attrs)
		return -EOPNOTSUPP;
	if (mem_attr < 32 && (NPU_SIM_PHYS_ATTRS_ALL & BIT(mem_attr)) &&
	    !(p->phys_attrs & BIT(mem_attr)))
		return -EOPNOTSUPP;
	if (page_kind == NPU_SIM_PAGE_HUGE_1G && !(p->flags & NPU_SIM_PROFILE_HUGE1G))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * The SDMA engine of each product reduces its own kinds and element types
 * (the runtime asks the device: CheckReduceCapability); the others are
 * refused here too, so that a caller bypassing the library meets them.
 */
int npu_profile_check_reduce(u32 kind, u32 type)
{
	const struct npu_sim_profile *p = npu_profile();

	if (kind >= 32 || type >= 32 ||
	    !(p->reduce_kinds & NPU_SIM_REDUCE_BIT(kind)) ||
	    !(p->reduce_types & NPU_SIM_REDUCE_BIT(type)))
		return -EOPNOTSUPP;
	return 0;
}

/* A CMO task needs a chip with CMO tasks of either kind (rtCmoTaskLaunch). */
int npu_profile_check_cmo(void)
{
	u32 cmo = NPU_SIM_PROFILE_CMO | NPU_SIM_PROFILE_ASYNC_CMO;

	return npu_profile()->flags & cmo ? 0 : -EOPNOTSUPP;
}
