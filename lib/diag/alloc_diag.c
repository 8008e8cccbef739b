/*
 * Why an aclrtMalloc-family allocation failed, in words for
 * aclGetRecentErrMsg: which limit was hit (hugetlb pool, device capacity)
 * and how to raise it.  Asked of the driver after the failure, so the
 * figures are the device-wide ones of that moment.
 */
#include <string.h>

#include "acl_internal.h"
#include "alloc_diag.h"
#include "check.h"
#include "err_msg.h"
#include "limits.h"

#define SZ_2M (2ULL << 20)
#define SZ_1G (1ULL << 30)

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static const char *policy_name(uint32_t backing)
{
	switch (backing) {
	case NPU_SIM_BACKING_HUGE_ONLY:
		return "HUGE_ONLY";
	case NPU_SIM_BACKING_HUGE1G_ONLY:
		return "HUGE1G_ONLY";
	case NPU_SIM_BACKING_HUGE_FIRST:
		return "HUGE_FIRST";
	default:
		return "NORMAL_ONLY";
	}
}

void npu_rt_alloc_diagnose(int fd, uint64_t footprint, uint32_t backing)
{
	struct npu_sim_mem_info mi;
	uint64_t page, pages, pool_free, charge, avail;

	memset(&mi, 0, sizeof(mi));
	if (npu_rt_ioctl(fd, NPU_SIM_IOCTL_MEM_INFO, &mi) != 0)
		return;	/* the generic text of the code stays */
	npu_rt_check_setup_error();
	page = backing == NPU_SIM_BACKING_HUGE1G_ONLY ? SZ_1G :
	       backing == NPU_SIM_BACKING_NORMAL ? 4096 : SZ_2M;
	charge = round_up(footprint, page);
	pages = charge / page;
	if (npu_rt_limit_diagnose(fd, charge))
		return;
	pool_free = page == SZ_1G ? mi.huge_1g_free : mi.huge_2m_free;
	avail = mi.capacity > mi.used ? mi.capacity - mi.used : 0;

	if (charge > avail) {
		npu_rt_msg_detail("%s needs %llu bytes of device memory, the device has %llu of %llu bytes free",
				  policy_name(backing), (unsigned long long)charge, (unsigned long long)avail,
				  (unsigned long long)mi.capacity);
	} else if (backing == NPU_SIM_BACKING_HUGE_ONLY && pages > pool_free) {
		npu_rt_msg_detail("HUGE_ONLY needs %llu pages of 2 MiB, the hugetlb pool has %llu free "
				  "(echo N > /proc/sys/vm/nr_hugepages)",
				  (unsigned long long)pages, (unsigned long long)pool_free);
	} else if (backing == NPU_SIM_BACKING_HUGE1G_ONLY && pages > pool_free) {
		npu_rt_msg_detail("HUGE1G_ONLY needs %llu pages of 1 GiB, the hugetlb pool has %llu free "
				  "(boot with hugepagesz=1G hugepages=N, or echo N > "
				  "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages)",
				  (unsigned long long)pages, (unsigned long long)pool_free);
	} else {
		npu_rt_msg_detail("%s of %llu bytes: the host is out of memory or the device VA window is full",
				  policy_name(backing), (unsigned long long)charge);
	}
}
