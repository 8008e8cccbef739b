// SPDX-License-Identifier: GPL-2.0
/*
 * aclrtMalloc family against the real module: every policy x size class,
 * footprint and charge arithmetic, hugetlb pool deltas, HUGE_FIRST fallback,
 * HUGE_ONLY / HUGE1G_ONLY exhaustion, device capacity, aclrtGetMemInfo, and
 * argument errors (size 0, NULL, overflow, bad free).
 */
#include "vmtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <acl/acl.h>

#define SENTINEL ((void *)0x5a5a5a5a5a5a5a40ULL)
#define POLICY(x) ((aclrtMemMallocPolicy)(x))

#define P_RO	0x100000u
#define P_LOWBW	0x100u
#define P_HIGHBW 0x1000u

enum api { API_MALLOC, API_ALIGN32, API_CACHED };
static const char *const api_name[] = { "malloc", "malloc_align32", "malloc_cached" };

/* What the policy means for backing (docs/design.md 4.1). */
enum base { B_HUGE_FIRST, B_HUGE_ONLY, B_NORMAL, B_HUGE1G, B_DEFAULT };

static aclError do_malloc(enum api api, void **p, size_t size, uint32_t policy)
{
	switch (api) {
	case API_MALLOC:
		return aclrtMalloc(p, size, POLICY(policy));
	case API_ALIGN32:
		return aclrtMallocAlign32(p, size, POLICY(policy));
	case API_CACHED:
		return aclrtMallocCached(p, size, POLICY(policy));
	}
	return -1;
}

static enum base resolve(uint32_t policy, int *p2p, int *ro)
{
	uint32_t p = policy & ~P_RO;

	*ro = (policy & P_RO) != 0;
	*p2p = 0;
	switch (p) {
	case 0: case P_LOWBW: case P_HIGHBW:
		return B_HUGE_FIRST;
	case 1: case P_LOWBW | 1: case P_HIGHBW | 1:
		return B_HUGE_ONLY;
	case 2: case P_LOWBW | 2: case P_HIGHBW | 2:
		return B_NORMAL;
	case 3:
		*p2p = 1;
		return B_HUGE_FIRST;
	case 4:
		*p2p = 1;
		return B_HUGE_ONLY;
	case 5:
		*p2p = 1;
		return B_NORMAL;
	case 6:
		return B_HUGE1G;
	case 7:
		*p2p = 1;
		return B_HUGE1G;
	default:
		return B_DEFAULT;
	}
}

struct expect {
	uint64_t footprint, charged;	/* charged: to the device */
	uint64_t slot;			/* debugfs "charged": slot or pages */
	const char *kind;
	char flags[16];
	int p2p;
};

static void expect_for(enum api api, uint32_t policy, size_t size, struct expect *e)
{
	int p2p, ro;
	enum base b = resolve(policy, &p2p, &ro);
	uint64_t a32 = VM_ALIGN_UP(size, 32);

	if (api == API_ALIGN32 || b == B_HUGE1G)
		e->footprint = a32;
	else
		e->footprint = a32 + 32;
	switch (b) {
	case B_NORMAL:
		e->kind = "normal";
		break;
	case B_HUGE_FIRST:
		e->kind = e->footprint <= MiB ? "normal" : "huge_2m";
		break;
	case B_HUGE_ONLY:
		e->kind = "huge_2m";
		break;
	case B_HUGE1G:
		e->kind = "huge_1g";
		break;
	case B_DEFAULT:
		e->kind = size >= 2 * MiB ? "huge_2m" : "normal";
		break;
	}
	if (!strcmp(e->kind, "normal"))
		e->charged = VM_ALIGN_UP(e->footprint, 4096);
	else if (!strcmp(e->kind, "huge_2m"))
		e->charged = VM_ALIGN_UP(e->footprint, 2 * MiB);
	else
		e->charged = VM_ALIGN_UP(e->footprint, GiB);
	snprintf(e->flags, sizeof(e->flags), "%s%s%s", p2p ? "p2p" : "",
		 p2p && ro ? "," : "", ro ? "ro" : "");
	if (!p2p && !ro)
		strcpy(e->flags, "-");
	e->p2p = p2p;
	/*
	 * A footprint <= 2 KiB on normal pages without attributes takes a
	 * slot of a shared page; alone in it here, it is charged the page.
	 */
	e->slot = !strcmp(e->kind, "normal") && e->footprint <= 2048 && !p2p && !ro ?
		  VM_ALIGN_UP(e->footprint, 64) : e->charged;
}

/*
 * Allocates with (api, policy, size), asserts every observable effect against
 * the expectation, does a data round trip at the end of the buffer, frees it
 * and asserts everything is back.
 */
static void check_one(enum api api, uint32_t policy, size_t size)
{
	struct expect e;
	struct vm_snap before, after;
	struct vm_alloc a;
	size_t free0, total0, free1, total1;
	long long calls0, fb0;
	void *p = NULL;
	aclError ret;
	uint64_t hp;

	expect_for(api, policy, size, &e);
	vm_snap_take(0, &before);
	vm_hbm_info(&free0, &total0);
	calls0 = vm_dbg_stat(0, "calls_alloc");
	fb0 = vm_dbg_stat(0, "fallback_normal");

	ret = do_malloc(api, &p, size, policy);
	ck_assert_msg(ret == ACL_SUCCESS, "%s(size %zu, policy 0x%x) = %d", api_name[api], size,
		      policy, ret);
	ck_assert_msg(p != NULL && ((uintptr_t)p & 63) == 0, "%s(size %zu, policy 0x%x) -> %p",
		      api_name[api], size, policy, p);

	ck_assert_msg(vm_dbg_alloc_find(0, (uintptr_t)p, &a), "no debugfs line for %p", p);
	ck_assert_int_eq(a.pid, getpid());
	ck_assert_uint_eq(a.size, size);
	ck_assert_msg(a.footprint == e.footprint && a.charged == e.slot && !strcmp(a.kind, e.kind),
		      "%s(size %zu, policy 0x%x): footprint %llu charged %llu kind %s, expected %llu %llu %s",
		      api_name[api], size, policy, a.footprint, a.charged, a.kind,
		      (unsigned long long)e.footprint, (unsigned long long)e.slot, e.kind);
	ck_assert_uint_eq(a.policy, policy);
	ck_assert_str_eq(a.api, api_name[api]);
	ck_assert_str_eq(a.flags, e.flags);

	hp = !strcmp(e.kind, "huge_2m") ? e.charged / (2 * MiB) : 0;
	vm_snap_take(0, &after);
	ck_assert_int_eq(after.hp2m_free, before.hp2m_free - (long long)hp);
	ck_assert_int_eq(after.hp1g_free, before.hp1g_free);
	ck_assert_int_eq(after.used, before.used + (long long)e.charged);
	ck_assert_int_eq(after.used_normal,
			 before.used_normal + (!strcmp(e.kind, "normal") ? (long long)e.charged : 0));
	ck_assert_int_eq(after.used_2m, before.used_2m + (hp ? (long long)e.charged : 0));
	ck_assert_int_eq(after.used_p2p, before.used_p2p + (e.p2p ? (long long)e.charged : 0));
	ck_assert_int_eq(after.allocations, before.allocations + 1);
	ck_assert_int_eq(after.dev_2m_pages, before.dev_2m_pages + (long long)hp);
	ck_assert_int_eq(after.alloc_lines, before.alloc_lines + 1);
	ck_assert_int_eq(vm_dbg_stat(0, "calls_alloc"), calls0 + 1);
	ck_assert_int_eq(vm_dbg_stat(0, "fallback_normal"), fb0);

	vm_hbm_info(&free1, &total1);
	ck_assert_uint_eq(total1, total0);
	ck_assert_uint_eq(free1, free0 - e.charged);

	/* data round trip over the last bytes of the requested size */
	{
		size_t n = size < 8192 ? size : 8192;
		unsigned char src[8192], back[8192];
		char *dst = (char *)p + size - n;

		vm_fill(src, n, (uint32_t)(size ^ policy));
		memset(back, 0, n);
		ck_assert_int_eq(aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
		ck_assert_int_eq(aclrtMemcpy(back, n, dst, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
		ck_assert_mem_eq(back, src, n);
	}

	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	vm_snap_assert_same(0, &before);
	vm_hbm_info(&free1, &total1);
	ck_assert_uint_eq(free1, free0);
}

static const size_t sizes[] = {
	1, 100, 4096,
	MiB - 32,	/* aclrtMalloc footprint exactly 1 MiB */
	MiB - 31,	/* aclrtMalloc footprint 1 MiB + 32 */
	MiB,		/* Align32 footprint exactly 1 MiB */
	MiB + 1,	/* Align32 footprint 1 MiB + 32 */
	2 * MiB - 32,	/* aclrtMalloc footprint exactly 2 MiB: one page */
	2 * MiB,	/* aclrtMalloc: two pages; Align32: one */
	5 * MiB + 3,
};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* aclrtMalloc: single items, bandwidth combinations, read-only, out of range */
static const uint32_t malloc_policies[] = {
	0, 1, 2, 3, 4, 5,
	P_LOWBW, P_HIGHBW,
	P_LOWBW | 1, P_HIGHBW | 2, P_HIGHBW | 0,
	P_RO, P_RO | 2, P_RO | 1,
	8, 100, 0x4000,
};
/* aclrtMallocAlign32: single items only */
static const uint32_t align32_policies[] = { 0, 1, 2, 3, 4, 5, P_LOWBW, P_HIGHBW, P_RO };
/* aclrtMallocCached: HUGE_FIRST, HUGE_ONLY, NORMAL_ONLY */
static const uint32_t cached_policies[] = { 0, 1, 2 };

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* One test per policy (loop index): every size class. */
START_TEST(test_matrix_malloc)
{
	size_t j;

	vm_set_hp2m_pool(16);
	for (j = 0; j < NSIZES; j++)
		check_one(API_MALLOC, malloc_policies[_i], sizes[j]);
}
END_TEST

START_TEST(test_matrix_align32)
{
	size_t j;

	vm_set_hp2m_pool(16);
	for (j = 0; j < NSIZES; j++)
		check_one(API_ALIGN32, align32_policies[_i], sizes[j]);
}
END_TEST

START_TEST(test_matrix_cached)
{
	size_t j;

	vm_set_hp2m_pool(16);
	for (j = 0; j < NSIZES; j++)
		check_one(API_CACHED, cached_policies[_i], sizes[j]);
}
END_TEST

/* HUGE_ONLY 2 MiB: aclrtMalloc takes two pages (+32 pad), Align32 one. */
START_TEST(test_huge_only_2m_pad)
{
	void *a = SENTINEL, *b = SENTINEL;
	struct vm_alloc al;
	size_t f0, t0, f1, t1;

	vm_set_hp2m_pool(8);
	vm_hbm_info(&f0, &t0);
	ck_assert_int_eq(vm_meminfo("HugePages_Free"), 8);

	ck_assert_int_eq(aclrtMalloc(&a, 2 * MiB, ACL_MEM_MALLOC_HUGE_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), 6);
	ck_assert_int_eq(vm_meminfo("HugePages_Free"), 6);
	ck_assert(vm_dbg_alloc_find(0, (uintptr_t)a, &al));
	ck_assert_uint_eq(al.footprint, 2 * MiB + 32);
	ck_assert_uint_eq(al.charged, 4 * MiB);
	ck_assert_str_eq(al.kind, "huge_2m");

	ck_assert_int_eq(aclrtMallocAlign32(&b, 2 * MiB, ACL_MEM_MALLOC_HUGE_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), 5);
	ck_assert_int_eq(vm_meminfo("HugePages_Free"), 5);
	ck_assert(vm_dbg_alloc_find(0, (uintptr_t)b, &al));
	ck_assert_uint_eq(al.footprint, 2 * MiB);
	ck_assert_uint_eq(al.charged, 2 * MiB);
	ck_assert_int_eq(vm_dbg_info(0, "hugetlb_2m_pages"), 3);
	ck_assert_int_eq(vm_dbg_info(0, "used_huge_2m_bytes"), 6 * MiB);

	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0 - 6 * MiB);

	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), 7);
	ck_assert_int_eq(aclrtFree(b), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), 8);
	ck_assert_int_eq(vm_meminfo("HugePages_Free"), 8);
	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0);
}
END_TEST

/* HUGE_FIRST (and _P2P) larger than 1 MiB falls back to normal pages. */
START_TEST(test_huge_first_fallback)
{
	static const uint32_t pols[] = { ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_FIRST_P2P };
	size_t i;

	for (i = 0; i < 2; i++) {
		struct vm_alloc al;
		long long fb0, used0;
		size_t f0, t0, f1, t1;
		void *p = NULL, *q = NULL;
		unsigned char src[4096], back[4096];

		/* pool 1: a 3 MiB request needs two pages -> normal pages */
		vm_set_hp2m_pool(1);
		fb0 = vm_dbg_stat(0, "fallback_normal");
		used0 = vm_dbg_info(0, "used_bytes");
		vm_hbm_info(&f0, &t0);
		ck_assert_int_eq(aclrtMalloc(&p, 3 * MiB, POLICY(pols[i])), ACL_SUCCESS);
		ck_assert(vm_dbg_alloc_find(0, (uintptr_t)p, &al));
		ck_assert_str_eq(al.kind, "normal");
		ck_assert_uint_eq(al.footprint, 3 * MiB + 32);
		ck_assert_uint_eq(al.charged, 3 * MiB + 4096);
		ck_assert_str_eq(al.flags, i ? "p2p" : "-");
		ck_assert_int_eq(vm_hp2m_free(), 1);
		ck_assert_int_eq(vm_dbg_info(0, "hugetlb_2m_pages"), 0);
		ck_assert_int_eq(vm_dbg_stat(0, "fallback_normal"), fb0 + 1);
		ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0 + 3 * MiB + 4096);
		ck_assert_int_eq(vm_dbg_info(0, "used_normal_bytes"), 3 * MiB + 4096);
		vm_hbm_info(&f1, &t1);
		ck_assert_uint_eq(f1, f0 - (3 * MiB + 4096));
		/* the fallback memory holds data */
		vm_fill(src, sizeof(src), 7);
		ck_assert_int_eq(aclrtMemcpy((char *)p + 3 * MiB - 4096, 4096, src, 4096,
					     ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
		ck_assert_int_eq(aclrtMemcpy(back, 4096, (char *)p + 3 * MiB - 4096, 4096,
					     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
		ck_assert_mem_eq(back, src, 4096);

		/* the one page still serves a request that fits in it */
		ck_assert_int_eq(aclrtMalloc(&q, 2 * MiB - 32, POLICY(pols[i])), ACL_SUCCESS);
		ck_assert(vm_dbg_alloc_find(0, (uintptr_t)q, &al));
		ck_assert_str_eq(al.kind, "huge_2m");
		ck_assert_uint_eq(al.charged, 2 * MiB);
		ck_assert_int_eq(vm_hp2m_free(), 0);
		ck_assert_int_eq(vm_dbg_stat(0, "fallback_normal"), fb0 + 1);
		ck_assert_int_eq(aclrtFree(q), ACL_SUCCESS);
		ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
		ck_assert_int_eq(vm_hp2m_free(), 1);

		/* pool 0: even a one-page request falls back */
		vm_set_hp2m_pool(0);
		ck_assert_int_eq(aclrtMalloc(&q, 2 * MiB - 32, POLICY(pols[i])), ACL_SUCCESS);
		ck_assert(vm_dbg_alloc_find(0, (uintptr_t)q, &al));
		ck_assert_str_eq(al.kind, "normal");
		ck_assert_uint_eq(al.charged, 2 * MiB);
		ck_assert_int_eq(vm_dbg_stat(0, "fallback_normal"), fb0 + 2);
		ck_assert_int_eq(aclrtFree(q), ACL_SUCCESS);
		ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
	}
}
END_TEST

/*
 * HUGE_ONLY with a short pool: 207001, nothing changes, no page kept.
 * @need: 2 MiB pages of ALIGN_UP(size, 32) + 32 bytes.
 */
static const struct { uint32_t pol; size_t size; long pool, need; } short_cases[] = {
	{ ACL_MEM_MALLOC_HUGE_ONLY, 2 * MiB, 1, 2 },
	{ ACL_MEM_MALLOC_HUGE_ONLY_P2P, 2 * MiB, 1, 2 },
	{ ACL_MEM_MALLOC_HUGE_ONLY, 9 * MiB, 4, 5 },
	{ ACL_MEM_MALLOC_HUGE_ONLY, 100, 0, 1 },
	{ P_HIGHBW | ACL_MEM_MALLOC_HUGE_ONLY, 3 * MiB, 1, 2 },
};

START_TEST(test_huge_only_short_pool)
{
	struct vm_snap s;
	size_t f0, t0, f1, t1;
	long long pool0, fb0;
	void *p = SENTINEL;
	aclError ret;

	vm_set_hp2m_pool(short_cases[_i].pool);
	vm_snap_take(0, &s);
	vm_hbm_info(&f0, &t0);
	pool0 = vm_dbg_stat(0, "fail_pool");
	fb0 = vm_dbg_stat(0, "fallback_normal");
	ret = aclrtMalloc(&p, short_cases[_i].size, POLICY(short_cases[_i].pol));
	ck_assert_msg(ret == ACL_ERROR_RT_MEMORY_ALLOCATION,
		      "aclrtMalloc(size %zu, policy 0x%x) with %ld free 2 MiB pages: %d, expected 207001",
		      short_cases[_i].size, short_cases[_i].pol, short_cases[_i].pool, ret);
	ck_assert_ptr_eq(p, SENTINEL);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(vm_hp2m_free(), short_cases[_i].pool);
	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0);
	ck_assert_uint_eq(t1, t0);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_pool"), pool0 + 1);
	ck_assert_int_eq(vm_dbg_stat(0, "fallback_normal"), fb0);

	/* and with enough pages the same request works */
	vm_set_hp2m_pool(short_cases[_i].pool + 8);
	ck_assert_int_eq(aclrtMalloc(&p, short_cases[_i].size, POLICY(short_cases[_i].pol)),
			 ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), short_cases[_i].pool + 8 - short_cases[_i].need);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp2m_free(), short_cases[_i].pool + 8);
}
END_TEST

/* One HUGE1G_ONLY success: exactly one 1 GiB page, no +32 pad. */
START_TEST(test_huge1g_success)
{
	struct vm_alloc al;
	struct vm_snap s;
	size_t f0, t0, f1, t1;
	long long free1g = vm_hp1g_free();
	void *p = NULL;
	unsigned char src[4096], back[4096];

	ck_assert_msg(free1g >= 1, "the guest has no free 1 GiB page (boot with hugepagesz=1G hugepages=2)");
	vm_snap_take(0, &s);
	vm_hbm_info(&f0, &t0);
	ck_assert_int_eq(aclrtMalloc(&p, GiB, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp1g_free(), free1g - 1);
	ck_assert(vm_dbg_alloc_find(0, (uintptr_t)p, &al));
	ck_assert_uint_eq(al.size, GiB);
	ck_assert_uint_eq(al.footprint, GiB);
	ck_assert_uint_eq(al.charged, GiB);
	ck_assert_str_eq(al.kind, "huge_1g");
	ck_assert_uint_eq(al.policy, 6);
	ck_assert_int_eq(vm_dbg_info(0, "used_huge_1g_bytes"), s.used_1g + (long long)GiB);
	ck_assert_int_eq(vm_dbg_info(0, "hugetlb_1g_pages"), s.dev_1g_pages + 1);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), s.used + (long long)GiB);
	ck_assert_int_eq(vm_hp2m_free(), s.hp2m_free);
	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0 - GiB);
	ck_assert_uint_eq(((uintptr_t)p) % GiB, 0);

	/* data at the very end of the page */
	vm_fill(src, sizeof(src), 1234);
	ck_assert_int_eq(aclrtMemcpy((char *)p + GiB - 4096, 4096, src, 4096,
				     ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(back, 4096, (char *)p + GiB - 4096, 4096,
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(back, src, 4096);

	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(vm_hp1g_free(), free1g);
	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0);
}
END_TEST

/* HUGE1G_ONLY asking for 3 pages when 2 exist: 207001, nothing changes. */
START_TEST(test_huge1g_exhausted)
{
	struct vm_snap s;
	size_t f0, t0, f1, t1;
	long long pool0, cap0;
	void *p = SENTINEL;

	/* capacity large enough that the pool, not the capacity, is short */
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	vm_mod_reload("hbm_mib=8192");
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp1g_total(), 2);
	ck_assert_int_eq(vm_hp1g_free(), 2);

	vm_snap_take(0, &s);
	vm_hbm_info(&f0, &t0);
	ck_assert_uint_eq(t0, 8192 * MiB);
	pool0 = vm_dbg_stat(0, "fail_pool");
	cap0 = vm_dbg_stat(0, "fail_capacity");
	ck_assert_int_eq(aclrtMalloc(&p, 3 * GiB, ACL_MEM_MALLOC_HUGE1G_ONLY),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(p, SENTINEL);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(vm_hp1g_free(), 2);
	vm_hbm_info(&f1, &t1);
	ck_assert_uint_eq(f1, f0);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_pool"), pool0 + 1);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_capacity"), cap0);

	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	vm_mod_reload("");
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

/* Device capacity: 207001 once exceeded, although the host has memory. */
START_TEST(test_capacity)
{
	void *a = NULL, *b = SENTINEL, *c = NULL, *d = SENTINEL;
	struct vm_snap s;
	size_t f, t;
	long long cap0;
	uint64_t ca = 48 * MiB + 4096;	/* aclrtMalloc(48 MiB) normal pages */

	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	vm_mod_reload("hbm_mib=64");
	ck_assert_int_eq(vm_sysfs(0, "capacity_bytes"), 64 * MiB);
	ck_assert_int_eq(vm_dbg_info(0, "capacity_bytes"), 64 * MiB);
	ck_assert_msg(vm_meminfo("MemAvailable") > 256 * 1024, "host itself is short of memory");
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);

	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(t, 64 * MiB);
	ck_assert_uint_eq(f, 64 * MiB);

	ck_assert_int_eq(aclrtMalloc(&a, 48 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, 64 * MiB - ca);

	/* 16 MiB + 32 does not fit in the 16 MiB - 4 KiB left */
	vm_snap_take(0, &s);
	cap0 = vm_dbg_stat(0, "fail_capacity");
	ck_assert_int_eq(aclrtMalloc(&b, 16 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(b, SENTINEL);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_capacity"), cap0 + 1);

	/* exactly the rest fits */
	ck_assert_int_eq(aclrtMallocAlign32(&c, 64 * MiB - ca, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 64 * MiB);
	ck_assert_int_eq(vm_sysfs(0, "used_bytes"), 64 * MiB);

	/* full: one more byte fails, with normal or huge pages available */
	vm_set_hp2m_pool(8);
	vm_snap_take(0, &s);
	ck_assert_int_eq(aclrtMallocAlign32(&d, 1, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(d, SENTINEL);
	ck_assert_int_eq(aclrtMalloc(&d, 4 * MiB, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(d, SENTINEL);
	ck_assert_int_eq(aclrtMalloc(&d, 100, ACL_MEM_MALLOC_HUGE_ONLY),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(d, SENTINEL);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(vm_hp2m_free(), 8);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_capacity"), cap0 + 4);

	/* a device's capacity is its own: device 1 is empty */
	ck_assert_int_eq(vm_dbg_info(1, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_info(1, "capacity_bytes"), 64 * MiB);

	ck_assert_int_eq(aclrtFree(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, 64 * MiB);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);

	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	vm_mod_reload("");
	ck_assert_int_eq(vm_sysfs(0, "capacity_bytes"), VM_DEFAULT_HBM_BYTES);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

/* Capacity with the default 2 GiB: a 3 GiB request is refused. */
START_TEST(test_capacity_default)
{
	struct vm_snap s;
	void *p = SENTINEL;
	long long cap0 = vm_dbg_stat(0, "fail_capacity");

	vm_snap_take(0, &s);
	ck_assert_int_eq(aclrtMalloc(&p, 3 * GiB, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(p, SENTINEL);
	ck_assert_int_eq(aclrtMalloc(&p, (size_t)1 << 62, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(p, SENTINEL);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_capacity"), cap0 + 2);
}
END_TEST

START_TEST(test_size_zero)
{
	struct vm_snap s;
	void *p;
	int api;

	vm_snap_take(0, &s);
	for (api = API_MALLOC; api <= API_CACHED; api++) {
		p = SENTINEL;
		ck_assert_int_eq(do_malloc(api, &p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
		ck_assert_ptr_eq(p, SENTINEL);
		p = SENTINEL;
		ck_assert_int_eq(do_malloc(api, &p, 0, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_INVALID_PARAM);
		ck_assert_ptr_eq(p, SENTINEL);
		/* NULL out-pointer */
		ck_assert_int_eq(do_malloc(api, NULL, 100, ACL_MEM_MALLOC_NORMAL_ONLY),
				 ACL_ERROR_INVALID_PARAM);
	}
	vm_snap_assert_same(0, &s);
}
END_TEST

/* aclInit a second time: 100002, and the runtime keeps working. */
START_TEST(test_repeat_init)
{
	void *p = NULL;

	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
	ck_assert_int_eq(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

START_TEST(test_free_null)
{
	struct vm_snap s;

	vm_snap_take(0, &s);
	ck_assert_int_eq(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
	vm_snap_assert_same(0, &s);
}
END_TEST

/* Footprint arithmetic overflow: an error, never a tiny allocation. */
START_TEST(test_overflow)
{
	static const size_t lib_overflow[] = { SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 30, SIZE_MAX - 31 };
	struct vm_snap s;
	void *p;
	size_t i;

	vm_set_hp2m_pool(4);
	vm_snap_take(0, &s);
	/* ALIGN_UP(size, 32) + 32 overflows */
	for (i = 0; i < 4; i++) {
		p = SENTINEL;
		ck_assert_int_eq(aclrtMalloc(&p, lib_overflow[i], ACL_MEM_MALLOC_HUGE_FIRST),
				 ACL_ERROR_INVALID_PARAM);
		ck_assert_ptr_eq(p, SENTINEL);
		ck_assert_int_eq(aclrtMalloc(&p, lib_overflow[i], ACL_MEM_MALLOC_NORMAL_ONLY),
				 ACL_ERROR_INVALID_PARAM);
		ck_assert_ptr_eq(p, SENTINEL);
		ck_assert_int_eq(aclrtMallocCached(&p, lib_overflow[i], ACL_MEM_MALLOC_HUGE_ONLY),
				 ACL_ERROR_INVALID_PARAM);
		ck_assert_ptr_eq(p, SENTINEL);
	}
	/* ALIGN_UP(size, 32) overflows */
	for (i = 0; i < 3; i++) {
		p = SENTINEL;
		ck_assert_int_eq(aclrtMallocAlign32(&p, lib_overflow[i], ACL_MEM_MALLOC_NORMAL_ONLY),
				 ACL_ERROR_INVALID_PARAM);
		ck_assert_ptr_eq(p, SENTINEL);
		ck_assert_int_eq(aclrtMalloc(&p, lib_overflow[i], ACL_MEM_MALLOC_HUGE1G_ONLY),
				 ACL_ERROR_INVALID_PARAM);
		ck_assert_ptr_eq(p, SENTINEL);
	}
	/*
	 * The footprint fits in 64 bits but rounding it up to a backing page
	 * (1 GiB at most) would not: the library refuses it as an overflow.
	 */
	p = SENTINEL;
	ck_assert_int_eq(aclrtMalloc(&p, SIZE_MAX - 63, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_eq(p, SENTINEL);
	ck_assert_int_eq(aclrtMalloc(&p, SIZE_MAX - 63, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_eq(p, SENTINEL);
	ck_assert_int_eq(aclrtMallocAlign32(&p, SIZE_MAX - 31, ACL_MEM_MALLOC_HUGE_ONLY), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_eq(p, SENTINEL);
	ck_assert_int_eq(aclrtMalloc(&p, SIZE_MAX - 31, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_eq(p, SENTINEL);
	/* the largest footprint that rounds (2^64 - 1 GiB): the capacity says no */
	ck_assert_int_eq(aclrtMalloc(&p, SIZE_MAX - GiB, ACL_MEM_MALLOC_HUGE1G_ONLY),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(p, SENTINEL);
	vm_snap_assert_same(0, &s);
}
END_TEST

/* aclrtMallocAlign32 takes a single enum item only. */
START_TEST(test_align32_rejects_or)
{
	static const uint32_t bad[] = {
		P_HIGHBW | 1, P_LOWBW | 2, P_LOWBW | P_HIGHBW, P_RO | 2, P_RO | 1, P_RO | P_LOWBW,
		P_HIGHBW | 6,
	};
	struct vm_snap s;
	size_t i;

	vm_set_hp2m_pool(4);
	vm_snap_take(0, &s);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *p = SENTINEL;

		ck_assert_msg(aclrtMallocAlign32(&p, 4096, POLICY(bad[i])) == ACL_ERROR_INVALID_PARAM,
			      "aclrtMallocAlign32 policy 0x%x not rejected", bad[i]);
		ck_assert_ptr_eq(p, SENTINEL);
		ck_assert_msg(aclrtMallocAlign32(&p, 4 * MiB, POLICY(bad[i])) == ACL_ERROR_INVALID_PARAM,
			      "aclrtMallocAlign32 policy 0x%x not rejected", bad[i]);
		ck_assert_ptr_eq(p, SENTINEL);
	}
	vm_snap_assert_same(0, &s);
}
END_TEST

/* Free of a non-allocation, an interior pointer, twice: 107000, no change. */
START_TEST(test_bad_free)
{
	unsigned char src[4096], back[4096];
	struct vm_snap s;
	void *p = NULL, *q = NULL;
	int stack_var = 0;
	void *heap = malloc(64);
	char *c;

	ck_assert_int_eq(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&q, 100, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	c = p;
	vm_fill(src, sizeof(src), 99);
	ck_assert_int_eq(aclrtMemcpy(p, 4096, src, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);

	vm_snap_take(0, &s);
	ck_assert_int_eq(aclrtFree(c + 64), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree(c + 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree(c + 4096), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree(c + 64 * MiB), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree(&stack_var), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree(heap), ACL_ERROR_RT_PARAM_INVALID);
	vm_snap_assert_same(0, &s);

	/* the allocation is intact */
	ck_assert_int_eq(aclrtMemcpy(back, 4096, p, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(back, src, 4096);

	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	vm_snap_take(0, &s);
	ck_assert_int_eq(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(aclrtFree(q), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(q), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	free(heap);
}
END_TEST

/* aclrtGetMemInfo(ACL_HBM_MEM): total = capacity, free = total - charged. */
START_TEST(test_meminfo)
{
	size_t f0, t0, f, t;
	void *a = NULL, *b = NULL, *c = NULL;

	vm_set_hp2m_pool(4);
	vm_hbm_info(&f0, &t0);
	ck_assert_uint_eq(t0, VM_DEFAULT_HBM_BYTES);
	ck_assert_uint_eq(f0, VM_DEFAULT_HBM_BYTES - (uint64_t)vm_dbg_info(0, "used_bytes"));
	ck_assert_uint_eq(f0, VM_DEFAULT_HBM_BYTES);

	ck_assert_int_eq(aclrtMalloc(&a, MiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0 - (MiB + 4096));
	ck_assert_int_eq(aclrtMalloc(&b, 1, ACL_MEM_MALLOC_HUGE_ONLY), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0 - (MiB + 4096) - 2 * MiB);
	ck_assert_int_eq(aclrtMallocAlign32(&c, 4 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0 - (MiB + 4096) - 2 * MiB - 4 * MiB);
	ck_assert_uint_eq(t, t0);
	ck_assert_uint_eq(f, t - (uint64_t)vm_sysfs(0, "used_bytes"));

	ck_assert_int_eq(aclrtFree(b), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0 - (MiB + 4096) - 4 * MiB);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(c), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0);

	/* NULL out-pointers */
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &t), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, NULL), ACL_ERROR_INVALID_PARAM);
}
END_TEST

/* Memory of device 1 is charged to device 1 only. */
START_TEST(test_second_device)
{
	size_t f, t;
	void *p = NULL;
	struct vm_alloc al;

	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert(vm_dbg_alloc_find(1, (uintptr_t)p, &al));
	ck_assert_uint_eq(al.charged, 192);	/* a slot; its page is charged */
	ck_assert_int_eq(vm_dbg_info(1, "used_bytes"), 4096);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_allocs(0, NULL), 0);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, VM_DEFAULT_HBM_BYTES - 4096);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(1, "used_bytes"), 0);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, VM_DEFAULT_HBM_BYTES);
}
END_TEST

static Suite *malloc_suite(void)
{
	Suite *s = suite_create("malloc_policy");
	TCase *tc;

	tc = tcase_create("args");
	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_size_zero);
	tcase_add_test(tc, test_free_null);
	tcase_add_test(tc, test_repeat_init);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_align32_rejects_or);
	tcase_add_test(tc, test_bad_free);
	suite_add_tcase(s, tc);

	tc = tcase_create("matrix");
	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_loop_test(tc, test_matrix_malloc, 0, NELEM(malloc_policies));
	tcase_add_loop_test(tc, test_matrix_align32, 0, NELEM(align32_policies));
	tcase_add_loop_test(tc, test_matrix_cached, 0, NELEM(cached_policies));
	suite_add_tcase(s, tc);

	tc = tcase_create("hugetlb");
	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_huge_only_2m_pad);
	tcase_add_test(tc, test_huge_first_fallback);
	tcase_add_loop_test(tc, test_huge_only_short_pool, 0, NELEM(short_cases));
	tcase_add_test(tc, test_huge1g_success);
	tcase_add_test(tc, test_huge1g_exhausted);
	suite_add_tcase(s, tc);

	tc = tcase_create("capacity_meminfo");
	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_capacity);
	tcase_add_test(tc, test_capacity_default);
	tcase_add_test(tc, test_meminfo);
	tcase_add_test(tc, test_second_device);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(malloc_suite());
}
