// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual memory management (docs/design.md 4.3, issue 3): granularity,
 * aclrtMallocPhysical for every accepted and rejected memAttr, reservations
 * larger than the device, mapping at offsets and back to back, mapping over
 * a live mapping, unmap/remap with data intact, copies across adjacent
 * mappings and into holes, deferred FreePhysical, the sleep/wake pattern,
 * retain / properties / access, pointer attributes and address ranges,
 * host-access mode and read-only mprotect.  Expected codes are those written
 * in lib/api/vmm.c.
 *
 * White box: the low 32 bits of an aclrtDrvMemHandle are the driver's
 * handle id shown in debugfs (lib/rules/vmm_rules.c).
 */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define POOL_PAGES	64
#define HPAGE		(2 * MiB)

static void vmm_setup(void)
{
	vm_mod_ensure_default();
	vm_set_hp2m_pool(POOL_PAGES);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}

static void vmm_teardown(void)
{
	aclrtResetDevice(0);
	aclFinalize();
	if (vm_mod_loaded())
		vm_write_str("/sys/class/npu_sim/npu_sim0/host_access", "0");
}

static aclrtPhysicalMemProp dev_prop(int attr)
{
	return vm_phys_prop(attr, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
}

static uint32_t hid(aclrtDrvMemHandle h)
{
	return (uint32_t)(uintptr_t)h;
}

/* Lines of debugfs npu_sim0/<file> containing @needle. */
static int dbg_count(const char *file, const char *needle)
{
	char path[128], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/npu_sim/npu_sim0/%s", file);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "open %s", path);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

/* Keys listed by debugfs "shared": its lines but the header. */
static int shared_keys(void)
{
	return dbg_count("shared", "\n") - 1;
}

static long long used_bytes(void)
{
	return vm_dbg_info(0, "used_bytes");
}

static aclrtDrvMemHandle phys(int attr, size_t size)
{
	aclrtPhysicalMemProp p = dev_prop(attr);
	aclrtDrvMemHandle h = NULL;

	ck_assert_int_eq(aclrtMallocPhysical(&h, size, &p, 0), ACL_SUCCESS);
	ck_assert_ptr_nonnull(h);
	return h;
}

static void h2d(void *dst, const void *src, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void d2h(void *dst, const void *src, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

/* Asserts that device memory [p, p + n) holds vm_fill(seed). */
static void expect_pattern(const void *p, size_t n, uint32_t seed)
{
	unsigned char *want = malloc(n), *got = malloc(n);

	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	vm_fill(want, n, seed);
	d2h(got, p, n);
	ck_assert_msg(memcmp(want, got, n) == 0, "device data differs (seed %u)", seed);
	free(want);
	free(got);
}

static void put_pattern(void *p, size_t n, uint32_t seed)
{
	unsigned char *buf = malloc(n);

	ck_assert_ptr_nonnull(buf);
	vm_fill(buf, n, seed);
	h2d(p, buf, n);
	free(buf);
}

/* ---- granularity --------------------------------------------------------- */

START_TEST(test_granularity)
{
	static const int two_m_dev[] = { 4, 5, 12, 13, 15, 16 };
	static const int two_m_host[] = { 2, 3, 6, 7, 12, 13, 15, 16 };
	static const int one_g[] = { 10, 14, 17 };
	aclrtPhysicalMemProp p;
	size_t g;

	for (unsigned i = 0; i < sizeof(two_m_dev) / sizeof(two_m_dev[0]); i++) {
		p = dev_prop(two_m_dev[i]);
		for (int opt = 0; opt <= 1; opt++) {
			g = 0;
			ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, (aclrtMemGranularityOptions)opt, &g),
					 ACL_SUCCESS);
			ck_assert_uint_eq(g, 2 * MiB);
		}
	}
	for (unsigned i = 0; i < sizeof(two_m_host) / sizeof(two_m_host[0]); i++) {
		p = vm_phys_prop(two_m_host[i], ACL_MEM_LOCATION_TYPE_HOST, 0);
		g = 0;
		ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
				 ACL_SUCCESS);
		ck_assert_uint_eq(g, 2 * MiB);
	}
	for (unsigned i = 0; i < 3; i++) {
		p = dev_prop(one_g[i]);
		g = 0;
		ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g),
				 ACL_SUCCESS);
		ck_assert_uint_eq(g, 1 * GiB);
	}
	/* bad props */
	g = 77;
	p = dev_prop(0);
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), 100000);
	p = dev_prop(11);
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), 100000);
	/* handleType and allocationType are not read (as in the runtime) */
	p = dev_prop(13);
	p.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), 0);
	p = dev_prop(13);
	p.allocationType = (aclrtMemAllocationType)1;
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), 0);
	ck_assert_uint_eq(g, 2 * MiB);
	g = 77;
	p = vm_phys_prop(13, ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0);	/* the driver's refusal */
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), 107000);
	p = dev_prop(2);	/* DDR on a device */
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), 100000);
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(NULL, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), 100000);
	p = dev_prop(13);
	ck_assert_int_eq(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, NULL), 100000);
	ck_assert_uint_eq(g, 77);
}
END_TEST

/* ---- MallocPhysical --------------------------------------------------------- */

struct attr_case {
	int attr;
	int loc;		/* ACL_MEM_LOCATION_TYPE_* */
	const char *kind;	/* debugfs kind */
	int p2p;
	size_t size;
};

static const struct attr_case attr_cases[] = {
	{ ACL_MEM_NORMAL, 1, "normal", 0, 2 * MiB },
	{ ACL_MEM_HUGE, 1, "huge_2m", 0, 4 * MiB },
	{ ACL_MEM_P2P_NORMAL, 1, "normal", 1, 2 * MiB },
	{ ACL_MEM_P2P_HUGE, 1, "huge_2m", 1, 2 * MiB },
	{ ACL_HBM_MEM_HUGE, 1, "huge_2m", 0, 2 * MiB },
	{ ACL_HBM_MEM_NORMAL, 1, "huge_2m", 0, 2 * MiB },	/* served as HUGE */
	{ ACL_MEM_HUGE1G, 1, "huge_1g", 0, 1 * GiB },
	{ ACL_HBM_MEM_HUGE1G, 1, "huge_1g", 0, 1 * GiB },
	/* ACL_MEM_P2P_HUGE1G: Atlas A3 only (tests/vm/test_profile.c) */
	{ ACL_DDR_MEM_HUGE, 0, "huge_2m", 0, 2 * MiB },
	{ ACL_DDR_MEM_NORMAL, 0, "normal", 0, 2 * MiB },
	{ ACL_DDR_MEM_P2P_HUGE, 4, "huge_2m", 1, 2 * MiB },
	{ ACL_DDR_MEM_P2P_NORMAL, 4, "normal", 1, 2 * MiB },
	{ ACL_MEM_HUGE, 0, "huge_2m", 0, 2 * MiB },
	{ ACL_MEM_NORMAL, 4, "normal", 0, 2 * MiB },
};

START_TEST(test_malloc_physical_attrs)
{
	const struct attr_case *c = &attr_cases[_i];
	int host = c->loc != ACL_MEM_LOCATION_TYPE_DEVICE;
	aclrtPhysicalMemProp p = vm_phys_prop(c->attr, c->loc, 0), q;
	long long used0 = used_bytes(), p2p0 = vm_dbg_info(0, "used_p2p_bytes");
	long long hp0 = vm_hp2m_free(), g0 = vm_hp1g_free();
	size_t free0, total0, free1, total1;
	aclrtDrvMemHandle h = NULL;
	char needle[128];

	vm_hbm_info(&free0, &total0);
	ck_assert_int_eq(aclrtMallocPhysical(&h, c->size, &p, 0), ACL_SUCCESS);
	vm_hbm_info(&free1, &total1);

	ck_assert_int_eq(used_bytes(), used0 + (host ? 0 : (long long)c->size));
	ck_assert_uint_eq(free1, free0 - (host ? 0 : c->size));
	ck_assert_int_eq(vm_dbg_info(0, "used_p2p_bytes"), p2p0 + (c->p2p && !host ? (long long)c->size : 0));
	if (!strcmp(c->kind, "huge_2m"))
		ck_assert_int_eq(vm_hp2m_free(), hp0 - (long long)(c->size / HPAGE));
	else
		ck_assert_int_eq(vm_hp2m_free(), hp0);
	if (!strcmp(c->kind, "huge_1g"))
		ck_assert_int_eq(vm_hp1g_free(), g0 - 1);

	/* debugfs handles: pid handle size kind location location_id mem_attr ... */
	snprintf(needle, sizeof(needle), "%d %u %zu %s %s ", getpid(), hid(h), c->size, c->kind,
		 c->loc == 1 ? "device" : c->loc == 0 ? "host" : "host_numa");
	ck_assert_int_eq(dbg_count("handles", needle), 1);

	ck_assert_int_eq(aclrtMemGetAllocationPropertiesFromHandle(h, &q), ACL_SUCCESS);
	ck_assert_int_eq(q.memAttr, c->attr);
	ck_assert_int_eq(q.location.type, c->loc);
	ck_assert_int_eq(q.handleType, ACL_MEM_HANDLE_TYPE_NONE);
	ck_assert_int_eq(q.allocationType, ACL_MEM_ALLOCATION_TYPE_PINNED);

	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), used0);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
	ck_assert_int_eq(vm_hp1g_free(), g0);
	ck_assert_int_eq(dbg_count("handles", needle), 0);
	ck_assert_int_eq(aclrtFreePhysical(h), 107017);
}
END_TEST

START_TEST(test_malloc_physical_rejects)
{
	static const int bad_attr[] = { 0, 1, 8, 9, 11, 18, -1 };
	aclrtDrvMemHandle h = (aclrtDrvMemHandle)0x5a5a;
	aclrtPhysicalMemProp p;
	struct vm_snap s;

	vm_snap_take(0, &s);
	for (unsigned i = 0; i < sizeof(bad_attr) / sizeof(bad_attr[0]); i++) {
		p = dev_prop(bad_attr[i]);
		ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 100000);
		p = vm_phys_prop(bad_attr[i], ACL_MEM_LOCATION_TYPE_HOST, 0);
		ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 100000);
	}
	p = dev_prop(ACL_MEM_HUGE);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 1), 100000);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 0, &p, 0), 100000);
	/* sizes off the granularity: the driver's refusal */
	ck_assert_int_eq(aclrtMallocPhysical(&h, 1 * MiB, &p, 0), 107000);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 3 * MiB, &p, 0), 107000);
	ck_assert_int_eq(aclrtMallocPhysical(NULL, 2 * MiB, &p, 0), 100000);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, NULL, 0), 100000);
	p.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 100000);
	p = dev_prop(ACL_MEM_HUGE);
	p.allocationType = (aclrtMemAllocationType)1;
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 100000);
	/* locations */
	p = vm_phys_prop(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 100000);
	p = vm_phys_prop(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_MANAGED, 0);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 100000);
	p = vm_phys_prop(ACL_MEM_HUGE, 5, 0);	/* passed on: the driver refuses it */
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 107000);
	p = vm_phys_prop(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 1);	/* not set */
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 107002);
	p = vm_phys_prop(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 9);	/* no such device */
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 107001);
	p = vm_phys_prop(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 1000);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 107001);
	p = vm_phys_prop(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_HOST_NUMA, 7);	/* node offline */
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 107000);
	p = dev_prop(ACL_DDR_MEM_HUGE);	/* DDR attribute on a device */
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 100000);
	p = vm_phys_prop(ACL_HBM_MEM_HUGE, ACL_MEM_LOCATION_TYPE_HOST, 0);	/* HBM on the host */
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 107000);
	p = vm_phys_prop(ACL_MEM_HUGE1G, ACL_MEM_LOCATION_TYPE_HOST, 0);	/* 1G device only */
	ck_assert_int_eq(aclrtMallocPhysical(&h, 1 * GiB, &p, 0), 107000);
	p = dev_prop(ACL_MEM_HUGE1G);	/* size not a multiple of 1 GiB */
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), 107000);
	ck_assert_ptr_eq(h, (aclrtDrvMemHandle)0x5a5a);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(dbg_count("handles", "device"), 0);
}
END_TEST

START_TEST(test_malloc_physical_exhaustion)
{
	aclrtPhysicalMemProp p = dev_prop(ACL_MEM_HUGE);
	aclrtDrvMemHandle h = NULL, big = NULL;
	struct vm_snap s;

	/* pool: 64 pages; 65 do not fit */
	vm_snap_take(0, &s);
	ck_assert_int_eq(aclrtMallocPhysical(&h, (POOL_PAGES + 1) * HPAGE, &p, 0), 207001);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(vm_hp2m_free(), POOL_PAGES);

	/* capacity: 2048 MiB of normal pages fits, 2 MiB more does not */
	p = dev_prop(ACL_MEM_NORMAL);
	ck_assert_int_eq(aclrtMallocPhysical(&h, VM_DEFAULT_HBM_BYTES + HPAGE, &p, 0), 207001);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(aclrtMallocPhysical(&big, VM_DEFAULT_HBM_BYTES - HPAGE, &p, 0), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), (long long)(VM_DEFAULT_HBM_BYTES - HPAGE));
	p = dev_prop(ACL_MEM_HUGE);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * HPAGE, &p, 0), 207001);
	ck_assert_int_eq(vm_hp2m_free(), POOL_PAGES);
	ck_assert_int_eq(aclrtMallocPhysical(&h, HPAGE, &p, 0), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), (long long)VM_DEFAULT_HBM_BYTES);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(big), ACL_SUCCESS);
	vm_snap_assert_same(0, &s);

	/* an injected failure is 207001 too */
	ck_assert_int_eq(vm_write_str("/sys/kernel/debug/npu_sim/npu_sim0/fail_alloc", "1"), 0);
	ck_assert_int_eq(aclrtMallocPhysical(&h, HPAGE, &p, 0), 207001);
	vm_snap_assert_same(0, &s);
}
END_TEST

/* ---- reservations ---------------------------------------------------------- */

START_TEST(test_reserve)
{
	void *a = NULL, *b = NULL, *c = NULL, *d = (void *)0x1234;
	size_t free_b, total_b;
	char needle[96];

	vm_hbm_info(&free_b, &total_b);
	/* 1.125x the device */
	ck_assert_int_eq(aclrtReserveMemAddress(&a, total_b / 8 * 9, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_uint_eq((uintptr_t)a % GiB, 0);
	/* the whole free memory, flags 1 */
	ck_assert_int_eq(aclrtReserveMemAddress(&b, free_b, 0, NULL, 1), ACL_SUCCESS);
	/* 64 GiB */
	ck_assert_int_eq(aclrtReserveMemAddress(&c, 64 * GiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_ptr_ne(a, b);
	ck_assert_int_eq(used_bytes(), 0);
	snprintf(needle, sizeof(needle), "%d %p %zu 0", getpid(), a, total_b / 8 * 9);
	ck_assert_int_eq(dbg_count("reservations", needle), 1);
	ck_assert_int_eq(dbg_count("reservations", " "), 4);	/* header + 3 */

	/* bad arguments */
	ck_assert_int_eq(aclrtReserveMemAddress(&d, 2 * MiB, 0, NULL, 2), 100000);
	ck_assert_int_eq(aclrtReserveMemAddress(NULL, 2 * MiB, 0, NULL, 0), 100000);
	ck_assert_int_eq(aclrtReserveMemAddress(&d, 0, 0, NULL, 0), 100000);
	/* alignment: the driver's refusal */
	ck_assert_int_eq(aclrtReserveMemAddress(&d, 3 * MiB, 0, NULL, 0), 107000);
	ck_assert_int_eq(aclrtReserveMemAddress(&d, 2 * MiB, 0, (char *)a + 4096, 0), 107000);
	/* expectPtr occupied, or outside the window */
	ck_assert_int_eq(aclrtReserveMemAddress(&d, 2 * MiB, 0, (char *)a + 2 * MiB, 0), 207001);
	ck_assert_int_eq(aclrtReserveMemAddress(&d, 2 * MiB, 0, (void *)(uintptr_t)(64 * MiB), 0), 207001);
	ck_assert_ptr_eq(d, (void *)0x1234);

	/* release: only by the start, once */
	ck_assert_int_eq(aclrtReleaseMemAddress((char *)c + 2 * MiB), 107000);
	ck_assert_int_eq(aclrtReleaseMemAddress(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(c), 107000);
	ck_assert_int_eq(aclrtReleaseMemAddress(NULL), 100000);
	ck_assert_int_eq(aclrtReleaseMemAddress(&d), 107000);	/* host address */

	/* expectPtr honoured */
	ck_assert_int_eq(aclrtReserveMemAddress(&d, 4 * MiB, 0, c, 0), ACL_SUCCESS);
	ck_assert_ptr_eq(d, c);
	ck_assert_int_eq(aclrtReleaseMemAddress(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(b), ACL_SUCCESS);
	ck_assert_int_eq(dbg_count("reservations", " "), 1);
}
END_TEST

/* ---- mapping --------------------------------------------------------------- */

START_TEST(test_map_back_to_back_and_copy)
{
	long long hp0 = vm_hp2m_free();
	aclrtDrvMemHandle h1, h2, h3;
	unsigned char *buf = malloc(6 * MiB);
	char *r = NULL;
	char needle[96];

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 64 * MiB, 0, NULL, 0), ACL_SUCCESS);
	h1 = phys(ACL_MEM_HUGE, 2 * MiB);
	h2 = phys(ACL_MEM_HUGE, 4 * MiB);
	h3 = phys(ACL_MEM_NORMAL, 2 * MiB);
	ck_assert_int_eq(vm_hp2m_free(), hp0 - 3);
	/* back to back at offset 0 and 2 MiB, and one more at 10 MiB */
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 0, h1, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(r + 2 * MiB, 4 * MiB, 0, h2, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(r + 10 * MiB, 2 * MiB, 0, h3, 0), ACL_SUCCESS);
	ck_assert_int_eq(dbg_count("mappings", " "), 4);
	snprintf(needle, sizeof(needle), "%d %p %llu %u huge_2m device %p rw:device:0", getpid(),
		 r + 2 * MiB, 4 * MiB, hid(h2), r);
	ck_assert_int_eq(dbg_count("mappings", needle), 1);
	snprintf(needle, sizeof(needle), "%d %p %llu 3", getpid(), r, 64 * MiB);
	ck_assert_int_eq(dbg_count("reservations", needle), 1);

	/* one copy across both adjacent mappings (6 MiB from offset 0) */
	put_pattern(r, 6 * MiB, 11);
	expect_pattern(r, 6 * MiB, 11);
	/* a 2 MiB piece straddling the seam */
	vm_fill(buf, 2 * MiB, 12);
	h2d(r + 1 * MiB, buf, 2 * MiB);
	expect_pattern(r + 1 * MiB, 2 * MiB, 12);
	put_pattern(r + 10 * MiB, 2 * MiB, 13);

	/* copies touching the hole at [6 MiB, 10 MiB) fail before writing */
	vm_fill(buf, 6 * MiB, 99);
	ck_assert_int_eq(aclrtMemcpy(r + 4 * MiB, 4 * MiB, buf, 4 * MiB, ACL_MEMCPY_HOST_TO_DEVICE), 107000);
	ck_assert_int_eq(aclrtMemcpy(r + 8 * MiB, 4 * MiB, buf, 4 * MiB, ACL_MEMCPY_HOST_TO_DEVICE), 107000);
	ck_assert_int_eq(aclrtMemcpy(buf, 6 * MiB, r + 5 * MiB, 6 * MiB, ACL_MEMCPY_DEVICE_TO_HOST), 107000);
	ck_assert_int_eq(aclrtMemset(r + 5 * MiB, 2 * MiB, 0, 2 * MiB), 107000);
	expect_pattern(r + 1 * MiB, 2 * MiB, 12);
	expect_pattern(r + 10 * MiB, 2 * MiB, 13);
	/* device to device across the seam */
	ck_assert_int_eq(aclrtMemcpy(r + 10 * MiB, 2 * MiB, r + 1 * MiB, 2 * MiB, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_SUCCESS);
	expect_pattern(r + 10 * MiB, 2 * MiB, 12);

	/* a reservation with mappings is not released; aclrtFree refuses VMM memory */
	ck_assert_int_eq(aclrtReleaseMemAddress(r), 107000);
	ck_assert_int_eq(aclrtFree(r), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnmapMem(r + 2 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnmapMem(r + 10 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h3), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
	ck_assert_int_eq(used_bytes(), 0);
	ck_assert_int_eq(dbg_count("mappings", " "), 1);
	free(buf);
}
END_TEST

START_TEST(test_map_over_live_and_bad_args)
{
	aclrtDrvMemHandle h1, h2, h4, hb;
	char *r = NULL, *r2 = NULL;
	void *host = malloc(64);

	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 16 * MiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r2, 2 * MiB, 0, NULL, 0), ACL_SUCCESS);
	h1 = phys(ACL_MEM_HUGE, 2 * MiB);
	h2 = phys(ACL_MEM_HUGE, 2 * MiB);
	h4 = phys(ACL_MEM_HUGE, 4 * MiB);
	ck_assert_int_eq(aclrtMapMem(r + 4 * MiB, 2 * MiB, 0, h1, 0), ACL_SUCCESS);
	put_pattern(r + 4 * MiB, 2 * MiB, 21);

	/* over the live mapping, exactly or partly */
	ck_assert_int_eq(aclrtMapMem(r + 4 * MiB, 2 * MiB, 0, h2, 0), 107000);
	ck_assert_int_eq(aclrtMapMem(r + 2 * MiB, 4 * MiB, 0, h4, 0), 107000);
	ck_assert_int_eq(aclrtMapMem(r + 4 * MiB, 2 * MiB, 0, h1, 0), 107000);
	/* past the end of the reservation, or outside any */
	ck_assert_int_eq(aclrtMapMem(r + 14 * MiB, 4 * MiB, 0, h4, 0), 107000);
	ck_assert_int_eq(aclrtMapMem(r2, 4 * MiB, 0, h4, 0), 107000);
	ck_assert_int_eq(aclrtMapMem(r + 16 * MiB, 2 * MiB, 0, h2, 0), 107000);	/* guard */
	/* size must be the handle's, offset and flags 0, VA 2 MiB aligned (flags: the
	 * ACL layer; the rest the driver's refusals) */
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 0, h4, 0), 107000);
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 2 * MiB, h4, 0), 107000);
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 0, h2, 1), 100000);
	ck_assert_int_eq(aclrtMapMem(r + 1 * MiB, 2 * MiB, 0, h2, 0), 107000);
	ck_assert_int_eq(aclrtMapMem(r, 0, 0, h2, 0), 100000);
	ck_assert_int_eq(aclrtMapMem(NULL, 2 * MiB, 0, h2, 0), 100000);
	ck_assert_int_eq(aclrtMapMem(host, 2 * MiB, 0, h2, 0), 107000);
	/* forged handles */
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 0, NULL, 0), 100000);
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 0, (aclrtDrvMemHandle)0x1234, 0), 107017);
	hb = (aclrtDrvMemHandle)((uintptr_t)h2 + 1000);
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 0, hb, 0), 107017);
	ck_assert_int_eq(aclrtFreePhysical(hb), 107017);
	ck_assert_int_eq(aclrtFreePhysical((aclrtDrvMemHandle)0x1234), 107017);
	ck_assert_int_eq(aclrtFreePhysical(NULL), 100000);

	/* nothing changed; the next valid call works */
	expect_pattern(r + 4 * MiB, 2 * MiB, 21);
	ck_assert_int_eq(dbg_count("mappings", " "), 2);
	ck_assert_int_eq(aclrtMapMem(r + 6 * MiB, 4 * MiB, 0, h4, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(r + 2 * MiB, 2 * MiB, 0, h2, 0), ACL_SUCCESS);
	/* the same handle twice, at another VA */
	ck_assert_int_eq(aclrtMapMem(r2, 2 * MiB, 0, h1, 0), ACL_SUCCESS);
	expect_pattern(r2, 2 * MiB, 21);
	put_pattern(r + 2 * MiB, 8 * MiB, 22);
	expect_pattern(r + 2 * MiB, 8 * MiB, 22);
	{
		/* r2 maps h1 too: it shows bytes [2 MiB, 4 MiB) of that pattern */
		unsigned char *want = malloc(8 * MiB), *got = malloc(2 * MiB);

		ck_assert_ptr_nonnull(want);
		ck_assert_ptr_nonnull(got);
		vm_fill(want, 8 * MiB, 22);
		d2h(got, r2, 2 * MiB);
		ck_assert(memcmp(got, want + 2 * MiB, 2 * MiB) == 0);
		free(want);
		free(got);
	}

	/* unmap: only by the start; undoes exactly one map */
	ck_assert_int_eq(aclrtUnmapMem(r + 7 * MiB), 107000);
	ck_assert_int_eq(aclrtUnmapMem(r), 107000);
	ck_assert_int_eq(aclrtUnmapMem(NULL), 100000);
	ck_assert_int_eq(aclrtUnmapMem(host), 107000);
	ck_assert_int_eq(aclrtUnmapMem(r + 4 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnmapMem(r + 4 * MiB), 107000);
	ck_assert_int_eq(aclrtMemcpy(host, 64, r + 4 * MiB, 64, ACL_MEMCPY_DEVICE_TO_HOST), 107000);
	ck_assert_int_eq(dbg_count("mappings", " "), 4);

	ck_assert_int_eq(aclrtUnmapMem(r + 2 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnmapMem(r + 6 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnmapMem(r2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h4), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), 0);
	free(host);
}
END_TEST

START_TEST(test_unmap_remap_keeps_data)
{
	aclrtDrvMemHandle h;
	char *r = NULL;

	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 32 * MiB, 0, NULL, 0), ACL_SUCCESS);
	h = phys(ACL_MEM_HUGE, 4 * MiB);
	ck_assert_int_eq(aclrtMapMem(r, 4 * MiB, 0, h, 0), ACL_SUCCESS);
	put_pattern(r, 4 * MiB, 31);
	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	/* at another VA */
	ck_assert_int_eq(aclrtMapMem(r + 20 * MiB, 4 * MiB, 0, h, 0), ACL_SUCCESS);
	expect_pattern(r + 20 * MiB, 4 * MiB, 31);
	put_pattern(r + 21 * MiB, 1 * MiB, 32);
	ck_assert_int_eq(aclrtUnmapMem(r + 20 * MiB), ACL_SUCCESS);
	/* at the same VA again */
	ck_assert_int_eq(aclrtMapMem(r, 4 * MiB, 0, h, 0), ACL_SUCCESS);
	{
		unsigned char *want = malloc(4 * MiB), *got = malloc(4 * MiB);

		ck_assert_ptr_nonnull(want);
		ck_assert_ptr_nonnull(got);
		vm_fill(want, 4 * MiB, 31);
		vm_fill(want + 1 * MiB, 1 * MiB, 32);
		d2h(got, r, 4 * MiB);
		ck_assert(memcmp(got, want, 4 * MiB) == 0);
		free(want);
		free(got);
	}
	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), 0);
}
END_TEST

START_TEST(test_free_physical_deferred)
{
	long long hp0 = vm_hp2m_free();
	size_t f0, t0, f1, t1;
	aclrtDrvMemHandle h;
	char *r = NULL;

	vm_hbm_info(&f0, &t0);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 8 * MiB, 0, NULL, 0), ACL_SUCCESS);
	h = phys(ACL_MEM_HUGE, 4 * MiB);
	ck_assert_int_eq(aclrtMapMem(r, 4 * MiB, 0, h, 0), ACL_SUCCESS);
	put_pattern(r, 4 * MiB, 41);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	/* still mapped: still charged, still readable, handle no longer usable */
	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0 - 4 * MiB);
	ck_assert_int_eq(vm_hp2m_free(), hp0 - 2);
	expect_pattern(r, 4 * MiB, 41);
	ck_assert_int_eq(aclrtFreePhysical(h), 107017);
	ck_assert_int_eq(aclrtMapMem(r + 4 * MiB, 4 * MiB, 0, h, 0), 107017);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), 107000);
	/* the last unmap releases it */
	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
	ck_assert_int_eq(used_bytes(), 0);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
}
END_TEST

/*
 * A copy queued on a mapping holds it across its unmap and the handle's
 * free: it still reads the pages, which go only when it is done.
 */
START_TEST(test_unmap_while_queued)
{
	long long hp0 = vm_hp2m_free();
	unsigned char *got = NULL, *want = malloc(2 * MiB);
	aclrtDrvMemHandle h;
	aclrtStream s;
	void *gate;
	char *r = NULL;

	/* pinned: an async copy of pageable memory would run at once */
	ck_assert_int_eq(aclrtMallocHost((void **)&got, 2 * MiB), ACL_SUCCESS);
	ck_assert_ptr_nonnull(want);
	ck_assert_int_eq(aclrtMalloc(&gate, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
	vm_dev_put_u64(gate, 0);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 4 * MiB, 0, NULL, 0), ACL_SUCCESS);
	h = phys(ACL_MEM_HUGE, 2 * MiB);
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 0, h, 0), ACL_SUCCESS);
	put_pattern(r, 2 * MiB, 51);
	memset(got, 0, 2 * MiB);
	ck_assert_int_eq(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(got, 2 * MiB, r, 2 * MiB, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), hp0 - 1);	/* the queued copy holds it */
	vm_dev_put_u64(gate, 1);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	vm_fill(want, 2 * MiB, 51);
	ck_assert(memcmp(got, want, 2 * MiB) == 0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
	ck_assert_int_eq(aclrtFree(gate), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), 0);
	ck_assert_int_eq(aclrtFreeHost(got), ACL_SUCCESS);
	free(want);
}
END_TEST

/* The sleep/wake pattern of vLLM-Ascend: offload, unmap+free, re-create, map, restore. */
START_TEST(test_sleep_wake)
{
	enum { N = 8 };
	long long hp0 = vm_hp2m_free();
	aclrtDrvMemHandle h[N];
	size_t f0, t0, f1, t1;
	unsigned char *save = malloc(N * 2 * MiB);
	char *r = NULL;

	ck_assert_ptr_nonnull(save);
	vm_hbm_info(&f0, &t0);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, t0 / 8 * 9, 0, NULL, 0), ACL_SUCCESS);
	for (int i = 0; i < N; i++) {
		h[i] = phys(ACL_MEM_HUGE, 2 * MiB);
		ck_assert_int_eq(aclrtMapMem(r + i * 2 * MiB, 2 * MiB, 0, h[i], 0), ACL_SUCCESS);
	}
	put_pattern(r, N * 2 * MiB, 51);
	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0 - N * 2 * MiB);
	ck_assert_int_eq(vm_hp2m_free(), hp0 - N);

	/* sleep */
	d2h(save, r, N * 2 * MiB);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(aclrtUnmapMem(r + i * 2 * MiB), ACL_SUCCESS);
		ck_assert_int_eq(aclrtFreePhysical(h[i]), ACL_SUCCESS);
	}
	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
	ck_assert_int_eq(vm_meminfo("HugePages_Free"), hp0);

	/* wake */
	for (int i = 0; i < N; i++) {
		h[i] = phys(ACL_MEM_HUGE, 2 * MiB);
		ck_assert_int_eq(aclrtMapMem(r + i * 2 * MiB, 2 * MiB, 0, h[i], 0), ACL_SUCCESS);
	}
	h2d(r, save, N * 2 * MiB);
	expect_pattern(r, N * 2 * MiB, 51);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(aclrtUnmapMem(r + i * 2 * MiB), ACL_SUCCESS);
		ck_assert_int_eq(aclrtFreePhysical(h[i]), ACL_SUCCESS);
	}
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
	free(save);
}
END_TEST

START_TEST(test_map_1g)
{
	long long g0 = vm_hp1g_free();
	aclrtDrvMemHandle h;
	char *r = NULL;

	ck_assert_int_ge(g0, 1);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 2 * GiB, 0, NULL, 0), ACL_SUCCESS);
	h = phys(ACL_MEM_HUGE1G, 1 * GiB);
	ck_assert_int_eq(vm_hp1g_free(), g0 - 1);
	ck_assert_int_eq(aclrtMapMem(r + 512 * MiB, 1 * GiB, 0, h, 0), 107000);	/* 1 GiB alignment */
	ck_assert_int_eq(aclrtMapMem(r + 1 * GiB, 1 * GiB, 0, h, 0), ACL_SUCCESS);
	put_pattern(r + 1 * GiB + 1000 * MiB, 4 * MiB, 61);
	expect_pattern(r + 1 * GiB + 1000 * MiB, 4 * MiB, 61);
	ck_assert_int_eq(aclrtUnmapMem(r + 1 * GiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp1g_free(), g0);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
}
END_TEST

/* ---- retain, properties, access ------------------------------------------- */

START_TEST(test_retain_and_access)
{
	aclrtMemAccessDesc d;
	aclrtPhysicalMemProp q;
	aclrtMemLocation loc;
	aclrtDrvMemHandle h, hr = NULL;
	uint64_t flag = 0;
	char *r = NULL;

	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 8 * MiB, 0, NULL, 0), ACL_SUCCESS);
	h = phys(ACL_MEM_P2P_HUGE, 2 * MiB);
	ck_assert_int_eq(aclrtMemRetainAllocationHandle(r, &hr), 107000);	/* hole */
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 0, h, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemRetainAllocationHandle(r + 4096, &hr), ACL_SUCCESS);
	ck_assert_ptr_eq(hr, h);
	ck_assert_int_eq(aclrtMemRetainAllocationHandle(NULL, &hr), 100000);
	ck_assert_int_eq(aclrtMemRetainAllocationHandle(r, NULL), 100000);
	/* two holds now; both frees succeed, the third fails; still mapped */
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemGetAllocationPropertiesFromHandle(h, &q), ACL_SUCCESS);
	ck_assert_int_eq(q.memAttr, ACL_MEM_P2P_HUGE);
	ck_assert_int_eq(q.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	ck_assert_uint_eq(q.location.id, 0);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), 107017);
	ck_assert_int_eq(aclrtMemGetAllocationPropertiesFromHandle(h, &q), 107017);
	ck_assert_int_eq(aclrtMemGetAllocationPropertiesFromHandle(h, NULL), 100000);
	ck_assert_int_eq(used_bytes(), (long long)(2 * MiB));
	/* retain revives it */
	ck_assert_int_eq(aclrtMemRetainAllocationHandle(r, &hr), ACL_SUCCESS);
	ck_assert_ptr_eq(hr, h);

	/* access: READWRITE on the device after MapMem */
	ck_assert_int_eq(aclrtMemGetAccess(r, &loc, &flag), ACL_SUCCESS);
	ck_assert_int_eq(loc.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	ck_assert_uint_eq(loc.id, 0);
	ck_assert_uint_eq(flag, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
	memset(&d, 0, sizeof(d));
	d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	d.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, &d, 1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemGetAccess(r + 100, &loc, &flag), ACL_SUCCESS);
	ck_assert_int_eq(loc.type, ACL_MEM_LOCATION_TYPE_HOST);
	d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = 1;
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, &d, 1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemGetAccess(r, &loc, &flag), ACL_SUCCESS);
	ck_assert_int_eq(loc.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	ck_assert_uint_eq(loc.id, 1);
	ck_assert_int_eq(dbg_count("mappings", "rw:device:1"), 1);
	/* bad access descriptors */
	d.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, &d, 1), 107000);
	d.flags = ACL_RT_MEM_ACCESS_FLAGS_NONE;
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, &d, 1), 107000);
	d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	d.location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, &d, 1), 107000);
	d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = 0;
	d.rsv[3] = 1;
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, &d, 1), 107000);
	d.rsv[3] = 0;
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, &d, 0), 107000);
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, NULL, 1), 107000);
	ck_assert_int_eq(aclrtMemSetAccess(r, 4 * MiB, &d, 1), 107000);	/* not one mapping */
	ck_assert_int_eq(aclrtMemSetAccess(r + 2 * MiB, 2 * MiB, &d, 1), 107000);
	d.location.id = 7;
	ck_assert_int_eq(aclrtMemSetAccess(r, 2 * MiB, &d, 1), 107000);	/* no device 7 */
	ck_assert_int_eq(aclrtMemGetAccess(r + 2 * MiB, &loc, &flag), 107000);
	ck_assert_int_eq(aclrtMemGetAccess(r, NULL, &flag), 100000);
	ck_assert_int_eq(aclrtMemGetAccess(r, &loc, NULL), 100000);

	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), (long long)(2 * MiB));	/* the revived hold */
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(used_bytes(), 0);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
}
END_TEST

/* ---- pointer attributes and address ranges -------------------------------- */

START_TEST(test_pointer_attributes)
{
	aclrtPhysicalMemProp hp = vm_phys_prop(ACL_DDR_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_HOST, 0);
	aclrtDrvMemHandle hh = NULL, hn, hg;
	void *small = NULL, *huge = NULL, *host = NULL, *base = NULL;
	aclrtPtrAttributes a;
	char *r = NULL;
	size_t size = 0;
	int local = 0;

	ck_assert_int_eq(aclrtMalloc(&small, 4096, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&huge, 3 * MiB, ACL_MEM_MALLOC_HUGE_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost(&host, 10000), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 16 * MiB, 0, NULL, 0), ACL_SUCCESS);
	hg = phys(ACL_MEM_HUGE, 2 * MiB);
	hn = phys(ACL_MEM_NORMAL, 2 * MiB);
	ck_assert_int_eq(aclrtMallocPhysical(&hh, 2 * MiB, &hp, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(r, 2 * MiB, 0, hg, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(r + 2 * MiB, 2 * MiB, 0, hn, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(r + 8 * MiB, 2 * MiB, 0, hh, 0), ACL_SUCCESS);

#define EXPECT_ATTR(p, t, id_, ps) do { \
		memset(&a, 0xff, sizeof(a)); \
		ck_assert_int_eq(aclrtPointerGetAttributes((p), &a), ACL_SUCCESS); \
		ck_assert_int_eq(a.location.type, (t)); \
		ck_assert_uint_eq(a.location.id, (id_)); \
		ck_assert_uint_eq(a.pageSize, (ps)); \
		ck_assert_uint_eq(a.rsv[0] | a.rsv[1] | a.rsv[2] | a.rsv[3], 0); \
	} while (0)

	EXPECT_ATTR(small, ACL_MEM_LOCATION_TYPE_DEVICE, 0, 4096);
	EXPECT_ATTR((char *)huge + 3 * MiB - 1, ACL_MEM_LOCATION_TYPE_DEVICE, 0, 2 * MiB);
	EXPECT_ATTR(r + 100, ACL_MEM_LOCATION_TYPE_DEVICE, 0, 2 * MiB);
	EXPECT_ATTR(r + 3 * MiB, ACL_MEM_LOCATION_TYPE_DEVICE, 0, 4096);
	EXPECT_ATTR(r + 9 * MiB, ACL_MEM_LOCATION_TYPE_HOST, 0, 4096);
	EXPECT_ATTR((char *)host + 9999, ACL_MEM_LOCATION_TYPE_HOST, 0, 4096);
	EXPECT_ATTR(&local, ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0, 0);
	EXPECT_ATTR(r + 5 * MiB, ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0, 0);	/* hole */
	ck_assert_int_eq(aclrtPointerGetAttributes(NULL, &a), 100000);
	ck_assert_int_eq(aclrtPointerGetAttributes(small, NULL), 100000);

	ck_assert_int_eq(aclrtMemGetAddressRange((char *)huge + 12345, &base, &size), ACL_SUCCESS);
	ck_assert_ptr_eq(base, huge);
	ck_assert_uint_eq(size, 3 * MiB);
	ck_assert_int_eq(aclrtMemGetAddressRange(r + 3 * MiB, &base, &size), ACL_SUCCESS);
	ck_assert_ptr_eq(base, r + 2 * MiB);
	ck_assert_uint_eq(size, 2 * MiB);
	ck_assert_int_eq(aclrtMemGetAddressRange((char *)host + 5000, &base, &size), ACL_SUCCESS);
	ck_assert_ptr_eq(base, host);
	ck_assert_uint_eq(size, 12288);
	ck_assert_int_eq(aclrtMemGetAddressRange(small, NULL, &size), ACL_SUCCESS);
	ck_assert_uint_eq(size, 4096);
	ck_assert_int_eq(aclrtMemGetAddressRange(&local, &base, &size), 107000);
	ck_assert_int_eq(aclrtMemGetAddressRange(r + 5 * MiB, &base, &size), 107000);
	ck_assert_int_eq(aclrtMemGetAddressRange(NULL, &base, &size), 100000);

	ck_assert_int_eq(aclrtUnmapMem(r), ACL_SUCCESS);
	EXPECT_ATTR(r, ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0, 0);
	ck_assert_int_eq(aclrtUnmapMem(r + 2 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnmapMem(r + 8 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(hg), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(hn), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(hh), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(small), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(huge), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(host), ACL_SUCCESS);
#undef EXPECT_ATTR
}
END_TEST

/* ---- host access ------------------------------------------------------------ */

/*
 * Touches one byte in this process (the window is not inherited by fork
 * children) and reports whether it faulted: 1 SIGSEGV, 0 no fault.
 */
static sigjmp_buf probe_jmp;

static void probe_segv(int sig)
{
	(void)sig;
	siglongjmp(probe_jmp, 1);
}

static int probe(void *p, int write)
{
	struct sigaction sa, old;
	int faulted = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_segv;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGSEGV, &sa, &old), 0);
	if (sigsetjmp(probe_jmp, 1) == 0) {
		if (write)
			*(volatile char *)p = *(volatile char *)p;
		else
			(void)*(volatile char *)p;
	} else {
		faulted = 1;
	}
	sigaction(SIGSEGV, &old, NULL);
	return faulted;
}

START_TEST(test_host_access_vmm_and_readonly)
{
	aclrtDrvMemHandle h;
	unsigned char buf[4096], pat[4096];
	void *ro = NULL;
	char *r = NULL;

	ck_assert_int_eq(vm_write_str("/sys/class/npu_sim/npu_sim0/host_access", "1"), 0);
	ck_assert_int_eq(aclrtReserveMemAddress((void **)&r, 8 * MiB, 0, NULL, 0), ACL_SUCCESS);
	h = phys(ACL_MEM_HUGE, 2 * MiB);
	ck_assert_int_eq(aclrtMapMem(r + 2 * MiB, 2 * MiB, 0, h, 0), ACL_SUCCESS);

	/* mapped memory is host readable and writable */
	vm_fill(pat, sizeof(pat), 71);
	memcpy(r + 2 * MiB + 8192, pat, sizeof(pat));
	d2h(buf, r + 2 * MiB + 8192, sizeof(buf));
	ck_assert_mem_eq(buf, pat, sizeof(pat));
	vm_fill(pat, sizeof(pat), 72);
	h2d(r + 4 * MiB - 4096, pat, sizeof(pat));
	ck_assert_mem_eq(r + 4 * MiB - 4096, pat, sizeof(pat));
	ck_assert_int_eq(probe(r + 2 * MiB, 1), 0);
	/* the holes of the reservation fault */
	ck_assert_int_eq(probe(r, 0), 1);
	ck_assert_int_eq(probe(r + 4 * MiB, 1), 1);
	/* after unmap the range faults too */
	ck_assert_int_eq(aclrtUnmapMem(r + 2 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(probe(r + 2 * MiB + 8192, 0), 1);
	/*
	 * Unmap zaps only a mapping the host touched: mapped again (the
	 * driver reuses the unmapped mapping's object), touched, unmapped,
	 * the range faults again; mapped and unmapped untouched it faults too.
	 */
	ck_assert_int_eq(aclrtMapMem(r + 2 * MiB, 2 * MiB, 0, h, 0), ACL_SUCCESS);
	ck_assert_int_eq(probe(r + 2 * MiB + 8192, 0), 0);
	ck_assert_mem_eq(r + 2 * MiB + 8192, buf, sizeof(buf));
	ck_assert_int_eq(aclrtUnmapMem(r + 2 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(probe(r + 2 * MiB + 8192, 0), 1);
	ck_assert_int_eq(aclrtMapMem(r + 2 * MiB, 2 * MiB, 0, h, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnmapMem(r + 2 * MiB), ACL_SUCCESS);
	ck_assert_int_eq(probe(r + 2 * MiB + 8192, 0), 1);
	ck_assert_int_eq(probe(r + 2 * MiB, 1), 1);

	/* read-only memory: readable, mprotect(PROT_WRITE) refused, a write faults */
	ck_assert_int_eq(aclrtMalloc(&ro, 4 * MiB, (aclrtMemMallocPolicy)(ACL_MEM_MALLOC_HUGE_ONLY |
								     ACL_MEM_ACCESS_USER_SPACE_READONLY)),
			 ACL_SUCCESS);
	vm_fill(pat, sizeof(pat), 73);
	h2d(ro, pat, sizeof(pat));
	ck_assert_mem_eq(ro, pat, sizeof(pat));
	errno = 0;
	ck_assert_int_eq(mprotect(ro, 4 * MiB, PROT_READ | PROT_WRITE), -1);
	ck_assert_int_eq(errno, EACCES);
	errno = 0;
	ck_assert_int_eq(mprotect((char *)ro + 2 * MiB, 4096, PROT_WRITE), -1);
	ck_assert_int_eq(errno, EACCES);
	/* the window cannot be split: a sub-range mprotect without write is EINVAL */
	errno = 0;
	ck_assert_int_eq(mprotect(ro, 4 * MiB, PROT_READ), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(probe(ro, 1), 1);
	ck_assert_int_eq(probe((char *)ro + 3 * MiB, 1), 1);
	ck_assert_int_eq(probe((char *)ro + 3 * MiB, 0), 0);
	ck_assert_mem_eq(ro, pat, sizeof(pat));

	ck_assert_int_eq(aclrtFree(ro), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r), ACL_SUCCESS);
}
END_TEST

/* A process that exits with reservations, mappings and handles leaves nothing. */
static int child_leave_everything(void *arg, int cmd, int rep)
{
	aclrtPhysicalMemProp p = dev_prop(ACL_MEM_HUGE);
	aclrtDrvMemHandle h[3];
	char *r = NULL;
	uint64_t c;

	(void)arg;
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	if (aclrtReserveMemAddress((void **)&r, 1 * GiB, 0, NULL, 0))
		return 2;
	for (int i = 0; i < 3; i++)
		if (aclrtMallocPhysical(&h[i], 2 * MiB, &p, 0))
			return 3;
	if (aclrtMapMem(r, 2 * MiB, 0, h[0], 0) || aclrtMapMem(r + 2 * MiB, 2 * MiB, 0, h[1], 0))
		return 4;
	if (aclrtFreePhysical(h[0]))
		return 5;
	if (vm_put(rep, 1))
		return 6;
	vm_get(cmd, &c);
	return 0;
}

START_TEST(test_exit_cleans_up)
{
	long long hp0 = vm_hp2m_free();
	struct vm_child c;

	vm_child_start(&c, child_leave_everything, NULL);
	ck_assert_uint_eq(vm_child_get(&c), 1);
	ck_assert_int_eq(vm_hp2m_free(), hp0 - 3);
	ck_assert_int_eq(used_bytes(), (long long)(6 * MiB));
	ck_assert_int_eq(dbg_count("reservations", " "), 2);
	ck_assert_int_eq(dbg_count("mappings", " "), 3);
	ck_assert_int_eq(dbg_count("handles", " "), 4);	/* h[0]: freed, mapped */
	kill(c.pid, SIGKILL);
	vm_child_wait(&c);
	ck_assert_int_eq(vm_hp2m_free(), hp0);
	ck_assert_int_eq(used_bytes(), 0);
	ck_assert_int_eq(dbg_count("reservations", " "), 1);
	ck_assert_int_eq(dbg_count("mappings", " "), 1);
	ck_assert_int_eq(dbg_count("handles", " "), 1);
}
END_TEST

/* ---- raw ioctls: every field checked, forged values refused ---------------- */

/* Calls made through xioctl per debugfs call counter: the driver's counts. */
static long long n_vmm, n_share;

static int xioctl(int fd, unsigned long req, void *arg)
{
	switch (req) {
	case NPU_SIM_IOCTL_VMM_RESERVE: case NPU_SIM_IOCTL_VMM_RELEASE:
	case NPU_SIM_IOCTL_PHYS_ALLOC: case NPU_SIM_IOCTL_PHYS_FREE:
	case NPU_SIM_IOCTL_VMM_MAP: case NPU_SIM_IOCTL_VMM_UNMAP:
	case NPU_SIM_IOCTL_VMM_SET_ACCESS: case NPU_SIM_IOCTL_VMM_QUERY:
	case NPU_SIM_IOCTL_PHYS_INFO:
		n_vmm++;
		break;
	case NPU_SIM_IOCTL_SHARE_EXPORT: case NPU_SIM_IOCTL_SHARE_SET_PIDS:
	case NPU_SIM_IOCTL_SHARE_IMPORT:
		n_share++;
		break;
	default:
		break;
	}
	return ioctl(fd, req, arg) == 0 ? 0 : errno;
}

START_TEST(test_raw_ioctls)
{
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	struct npu_sim_vmm_reserve rv;
	struct npu_sim_vmm_release rl;
	struct npu_sim_phys_alloc pa;
	struct npu_sim_phys_free pf;
	struct npu_sim_vmm_map mp;
	struct npu_sim_vmm_unmap um;
	struct npu_sim_vmm_set_access sa;
	struct npu_sim_vmm_query q;
	struct npu_sim_phys_info pi;
	struct npu_sim_share_export ex;
	struct npu_sim_share_set_pids sp;
	struct npu_sim_share_import im;
	long long calls0 = vm_dbg_stat(0, "calls_vmm"), share0 = vm_dbg_stat(0, "calls_share");
	int32_t pid = getpid();
	uint64_t va, key;
	void *win;
	int fd;

	fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp), 0);
	/* nothing works before the window is mapped */
	memset(&rv, 0, sizeof(rv));
	rv.size = 2 * MiB;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), ENXIO);
	win = mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(win, MAP_FAILED);

	/* VMM_RESERVE */
	memset(&rv, 0, sizeof(rv));
	rv.size = 2 * MiB;
	rv.flags = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), EINVAL);
	rv.flags = 0;
	rv.pad = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), EINVAL);
	rv.pad = 0;
	rv.size = 1 * MiB;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), EINVAL);
	rv.size = gp.value + 2 * MiB;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), EINVAL);
	rv.size = gp.value;	/* the whole window: no room for the guard */
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), ENOMEM);
	rv.size = 2 * MiB;
	rv.addr = (uintptr_t)win + 4096;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), EINVAL);
	rv.addr = (uintptr_t)win + gp.value - 2 * MiB;	/* guard past the end */
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), EBUSY);
	rv.addr = (uintptr_t)win + 4 * MiB;
	rv.size = 4 * MiB;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), 0);
	ck_assert_uint_eq(rv.va, (uintptr_t)win + 4 * MiB);
	va = rv.va;
	memset(&rl, 0, sizeof(rl));
	rl.va = va;
	rl.flags = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RELEASE, &rl), EINVAL);
	rl.flags = 0;
	rl.va = va + 4096;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RELEASE, &rl), ENOENT);

	/* PHYS_ALLOC */
#define PA(field, val, err) do { \
		memset(&pa, 0, sizeof(pa)); \
		pa.size = 2 * MiB; pa.page_kind = NPU_SIM_PAGE_NORMAL; \
		pa.location = NPU_SIM_LOC_DEVICE; pa.location_id = 0; \
		pa.field = (val); \
		ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &pa), (err)); \
	} while (0)
	PA(flags, 2, EINVAL);
	PA(page_kind, 0, EINVAL);
	PA(page_kind, 4, EINVAL);
	PA(location, 0, EINVAL);
	PA(location, 4, EINVAL);
	PA(location_id, 1, EINVAL);
	PA(size, 0, EINVAL);
	PA(size, 4096, EINVAL);
	PA(size, ~0ULL << 21, ENOMEM);
	PA(page_kind, NPU_SIM_PAGE_HUGE_1G, EINVAL);	/* 2 MiB of 1 GiB pages */
	PA(location, NPU_SIM_LOC_HOST_NUMA, 0);
	PA(location_id, 0, 0);
	ck_assert_uint_eq(pa.handle, 2);
	ck_assert_uint_eq(pa.charged, 2 * MiB);
	memset(&pa, 0, sizeof(pa));
	pa.size = 2 * MiB;
	pa.page_kind = NPU_SIM_PAGE_NORMAL;
	pa.location = NPU_SIM_LOC_HOST;
	pa.location_id = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &pa), EINVAL);
#undef PA

	/* PHYS_FREE / PHYS_INFO of unknown handles */
	memset(&pf, 0, sizeof(pf));
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), ENOENT);
	pf.handle = 12345;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), ENOENT);
	pf.handle = 2;
	pf.flags = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), EINVAL);
	memset(&pi, 0, sizeof(pi));
	pi.handle = 2;
	pi.pad = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_INFO, &pi), EINVAL);
	pi.pad = 0;
	pi.flags = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_INFO, &pi), EINVAL);
	pi.flags = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_INFO, &pi), 0);
	ck_assert_uint_eq(pi.size, 2 * MiB);
	ck_assert_uint_eq(pi.page_kind, NPU_SIM_PAGE_NORMAL);
	ck_assert_uint_eq(pi.mappings, 0);
	pi.handle = 3;				/* out fields still set */
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_INFO, &pi), EINVAL);
	pi = (struct npu_sim_phys_info){ .handle = 3 };
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_INFO, &pi), ENOENT);

	/* VMM_MAP */
	memset(&mp, 0, sizeof(mp));
	mp.va = va;
	mp.size = 2 * MiB;
	mp.handle = 99;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_MAP, &mp), ENOENT);
	mp.handle = 2;
	mp.offset = 2 * MiB;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_MAP, &mp), EINVAL);
	mp.offset = 0;
	mp.flags = 2;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_MAP, &mp), EINVAL);
	mp.flags = 0;
	mp.va = (uintptr_t)win;	/* not in a reservation */
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_MAP, &mp), EINVAL);
	mp.va = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_MAP, &mp), EINVAL);
	mp.va = va;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_MAP, &mp), 0);
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_MAP, &mp), EBUSY);
	rl.va = va;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RELEASE, &rl), EBUSY);

	/* VMM_SET_ACCESS / VMM_QUERY */
	memset(&sa, 0, sizeof(sa));
	sa.va = va;
	sa.size = 2 * MiB;
	sa.access = NPU_SIM_ACCESS_READWRITE;
	sa.location = NPU_SIM_LOC_DEVICE;
	sa.pad = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_SET_ACCESS, &sa), EINVAL);
	sa.pad = 0;
	sa.access = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_SET_ACCESS, &sa), EINVAL);
	sa.access = NPU_SIM_ACCESS_READWRITE;
	sa.location = NPU_SIM_LOC_HOST_NUMA;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_SET_ACCESS, &sa), EINVAL);
	sa.location = NPU_SIM_LOC_HOST;
	sa.location_id = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_SET_ACCESS, &sa), EINVAL);
	sa.location_id = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_SET_ACCESS, &sa), 0);
	memset(&q, 0, sizeof(q));
	q.addr = va + 5;
	q.flags = 2;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_QUERY, &q), EINVAL);
	q.flags = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_QUERY, &q), 0);
	ck_assert_uint_eq(q.type, NPU_SIM_QUERY_MAP);
	ck_assert_uint_eq(q.base, va);
	ck_assert_uint_eq(q.size, 2 * MiB);
	ck_assert_uint_eq(q.handle, 2);
	ck_assert_uint_eq(q.access_location, NPU_SIM_LOC_HOST);
	ck_assert_uint_eq(q.location, NPU_SIM_LOC_DEVICE);
	q.addr = va + 2 * MiB;			/* out fields still set */
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_QUERY, &q), EINVAL);
	q = (struct npu_sim_vmm_query){ .addr = va + 2 * MiB };
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_QUERY, &q), 0);
	ck_assert_uint_eq(q.type, NPU_SIM_QUERY_RESERVED);
	ck_assert_uint_eq(q.base, va);
	q = (struct npu_sim_vmm_query){ .addr = va + 2 * MiB, .flags = NPU_SIM_QUERY_RETAIN };
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_QUERY, &q), ENXIO);
	q = (struct npu_sim_vmm_query){ .addr = (uintptr_t)win };
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_QUERY, &q), ENXIO);
	q.addr = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_QUERY, &q), ENXIO);

	/* SHARE_* */
	memset(&ex, 0, sizeof(ex));
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_EXPORT, &ex), ENOENT);
	ex.handle = 2;
	ex.flags = 2;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_EXPORT, &ex), EINVAL);
	ex.flags = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_EXPORT, &ex), 0);
	ck_assert_uint_ne(ex.key, 0);
	key = ex.key;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_EXPORT, &ex), EINVAL);	/* key set */
	ex.key = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_EXPORT, &ex), EEXIST);
	ex.key = key;
	memset(&sp, 0, sizeof(sp));
	sp.key = ex.key;
	sp.pids = (uintptr_t)&pid;
	sp.nr = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp), EINVAL);
	sp.nr = NPU_SIM_SHARE_MAX_PIDS + 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp), EINVAL);
	sp.nr = 1;
	sp.flags = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp), EINVAL);
	sp.flags = 0;
	sp.pids = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp), EINVAL);
	sp.pids = 8;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp), EFAULT);
	sp.pids = (uintptr_t)&pid;
	sp.key = ex.key + 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp), ENOENT);
	sp.key = ex.key;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp), 0);
	memset(&im, 0, sizeof(im));
	im.key = ex.key;
	im.flags = NPU_SIM_SHARE_IMPORT_MASK + 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_IMPORT, &im), EINVAL);
	im.flags = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_IMPORT, &im), EPERM);	/* same process */
	im.key = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_SHARE_IMPORT, &im), ENOENT);

	/* unmap, free: the share goes with the handle */
	memset(&um, 0, sizeof(um));
	um.va = va;
	um.pad = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_UNMAP, &um), EINVAL);
	um.pad = 0;
	um.va = va + 4096;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_UNMAP, &um), ENOENT);
	um.va = va;
	pf.handle = 2;
	pf.flags = 0;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), 0);
	ck_assert_int_eq(shared_keys(), 1);	/* still mapped */
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_UNMAP, &um), 0);
	ck_assert_int_eq(shared_keys(), 0);
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), ENOENT);
	pf.handle = 1;
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_PHYS_FREE, &pf), 0);
	ck_assert_int_eq(xioctl(fd, NPU_SIM_IOCTL_VMM_RELEASE, &rl), 0);
	/* every call is counted, a refused one too */
	ck_assert_int_eq(vm_dbg_stat(0, "calls_vmm"), calls0 + n_vmm);
	ck_assert_int_eq(vm_dbg_stat(0, "calls_share"), share0 + n_share);
	munmap(win, gp.value);
	close(fd);
	ck_assert_int_eq(used_bytes(), 0);
}
END_TEST

static Suite *vmm_suite(void)
{
	Suite *s = suite_create("vmm");
	TCase *tc;

	tc = tcase_create("physical");
	tcase_add_checked_fixture(tc, vmm_setup, vmm_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_granularity);
	tcase_add_loop_test(tc, test_malloc_physical_attrs, 0,
			    (int)(sizeof(attr_cases) / sizeof(attr_cases[0])));
	tcase_add_test(tc, test_malloc_physical_rejects);
	tcase_add_test(tc, test_malloc_physical_exhaustion);
	suite_add_tcase(s, tc);

	tc = tcase_create("map");
	tcase_add_checked_fixture(tc, vmm_setup, vmm_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_reserve);
	tcase_add_test(tc, test_map_back_to_back_and_copy);
	tcase_add_test(tc, test_map_over_live_and_bad_args);
	tcase_add_test(tc, test_unmap_remap_keeps_data);
	tcase_add_test(tc, test_free_physical_deferred);
	tcase_add_test(tc, test_unmap_while_queued);
	tcase_add_test(tc, test_sleep_wake);
	tcase_add_test(tc, test_map_1g);
	tcase_add_test(tc, test_retain_and_access);
	tcase_add_test(tc, test_pointer_attributes);
	tcase_add_test(tc, test_exit_cleans_up);
	tcase_add_test(tc, test_raw_ioctls);
	suite_add_tcase(s, tc);

	tc = tcase_create("host_access");
	tcase_add_checked_fixture(tc, vmm_setup, vmm_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_host_access_vmm_and_readonly);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(vmm_suite());
}
