// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's ioctls, used directly through the UAPI header with no runtime
 * library in between: parameters, a valid allocation and copy, and bad input
 * (nonzero pad, unknown flags, bad enums, sizes, overflow, unknown params and
 * commands, holes, foreign processes, a second window mapping).  Bad input
 * gets the documented errno and charges nothing.
 */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <misc/npu_sim.h>

struct raw {
	int fd;
	char *win;
	uint64_t wsize;
};

/* ioctl result as 0 or errno */
static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) == 0 ? 0 : errno;
}

static uint64_t param(int fd, uint32_t p)
{
	struct npu_sim_get_param gp = { .param = p };
	int err = xioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp);

	ck_assert_msg(err == 0, "GET_PARAM %u: %s", p, strerror(err));
	return gp.value;
}

static void raw_open(struct raw *r, int dev, int map)
{
	char path[64];

	snprintf(path, sizeof(path), NPU_SIM_DEV_PREFIX "%d", dev);
	r->fd = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_msg(r->fd >= 0, "open %s: %s", path, strerror(errno));
	r->wsize = param(r->fd, NPU_SIM_PARAM_VA_WINDOW_SIZE);
	r->win = NULL;
	if (map) {
		void *w = mmap(NULL, r->wsize, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);

		ck_assert_msg(w != MAP_FAILED, "mmap window of %s: %s", path, strerror(errno));
		r->win = w;
		ck_assert_uint_eq(param(r->fd, NPU_SIM_PARAM_VA_WINDOW_START), (uintptr_t)w);
	}
}

static void raw_close(struct raw *r)
{
	if (r->win)
		ck_assert_int_eq(munmap(r->win, r->wsize), 0);
	close(r->fd);
}

static struct npu_sim_mem_alloc good_alloc(void)
{
	struct npu_sim_mem_alloc a = {
		.size = 100, .footprint = 160, .backing = NPU_SIM_BACKING_NORMAL,
		.flags = 0, .policy = 2, .api = NPU_SIM_API_MALLOC,
	};
	return a;
}

static uint64_t raw_alloc(struct raw *r, uint64_t size, uint64_t footprint, uint32_t backing,
			  struct npu_sim_mem_alloc *out)
{
	struct npu_sim_mem_alloc a = good_alloc();
	int err;

	a.size = size;
	a.footprint = footprint;
	a.backing = backing;
	err = xioctl(r->fd, NPU_SIM_IOCTL_MEM_ALLOC, &a);
	ck_assert_msg(err == 0, "MEM_ALLOC size %llu footprint %llu backing %u: %s",
		      (unsigned long long)size, (unsigned long long)footprint, backing, strerror(err));
	if (out)
		*out = a;
	return a.va;
}

static int raw_free(struct raw *r, uint64_t va)
{
	struct npu_sim_mem_free f = { .va = va };

	return xioctl(r->fd, NPU_SIM_IOCTL_MEM_FREE, &f);
}

static int raw_copy(struct raw *r, uint64_t dst, uint64_t src, uint64_t count, uint32_t dir)
{
	struct npu_sim_memcpy c = { .dst = dst, .src = src, .count = count, .dir = dir, .src_fd = -1 };

	return xioctl(r->fd, NPU_SIM_IOCTL_MEMCPY, &c);
}

/* Asserts that the device bytes at @va still equal @img (after @what). */
static void assert_intact(struct raw *r, uint64_t va, const unsigned char *img, size_t n,
			  const char *what)
{
	unsigned char *back = malloc(n);
	size_t i, bad = 0, first = n;

	ck_assert_ptr_nonnull(back);
	memset(back, 0xC3, n);
	ck_assert_int_eq(raw_copy(r, (uintptr_t)back, va, n, NPU_SIM_COPY_D2H), 0);
	for (i = 0; i < n; i++) {
		if (back[i] != img[i]) {
			if (first == n)
				first = i;
			bad++;
		}
	}
	free(back);
	ck_assert_msg(bad == 0, "after %s: %zu device bytes changed, first at offset %zu",
		      what, bad, first);
}

START_TEST(test_get_param)
{
	struct raw r0, r1;
	struct npu_sim_get_param gp;
	static const uint32_t bad[] = { 0, 12, 0x100, 0xffffffffu };
	uint64_t ps, caps;
	size_t i;

	raw_open(&r0, 0, 0);
	raw_open(&r1, 1, 0);
	ck_assert_uint_eq(param(r0.fd, NPU_SIM_PARAM_API_VERSION),
			  (NPU_SIM_API_VERSION_MAJOR << 16) | NPU_SIM_API_VERSION_MINOR);
	ck_assert_uint_eq(param(r0.fd, NPU_SIM_PARAM_NUM_DEVICES), 2);
	ck_assert_uint_eq(param(r0.fd, NPU_SIM_PARAM_DEVICE_INDEX), 0);
	ck_assert_uint_eq(param(r1.fd, NPU_SIM_PARAM_DEVICE_INDEX), 1);
	ck_assert_uint_eq(param(r0.fd, NPU_SIM_PARAM_CAPACITY), VM_DEFAULT_HBM_BYTES);
	ck_assert_uint_eq(param(r1.fd, NPU_SIM_PARAM_CAPACITY), VM_DEFAULT_HBM_BYTES);
	ck_assert_uint_eq(r0.wsize, VM_DEFAULT_VA_WINDOW);
	ck_assert_uint_eq(param(r0.fd, NPU_SIM_PARAM_VA_WINDOW_START), 0);
	ck_assert_uint_eq(param(r0.fd, NPU_SIM_PARAM_HOST_ACCESS), 0);
	caps = param(r0.fd, NPU_SIM_PARAM_CAPABILITIES);
	ck_assert_uint_eq(NPU_SIM_API_VERSION_MAJOR, 1);
	ck_assert_uint_eq(NPU_SIM_API_VERSION_MINOR, 12);
	ck_assert_uint_eq(NPU_SIM_CAP_MEM_PEAKS, 1ULL << 11);
	ck_assert_uint_eq(NPU_SIM_CAP_MEM_OPS, 1ULL << 16);
	ck_assert_uint_eq(NPU_SIM_CAP_NOTIFY, 1ULL << 14);
	ck_assert_uint_eq(NPU_SIM_CAP_CHECK, 1ULL << 8);
	ck_assert_uint_eq(NPU_SIM_CAP_TEST_HOOKS, 1ULL << 6);
	ck_assert_uint_eq(NPU_SIM_CAP_PEER, 1ULL << 7);
	ck_assert_uint_eq(NPU_SIM_CAP_MEM_LIMIT, 1ULL << 9);
	ck_assert_uint_eq(NPU_SIM_CAP_FAULT_INJECT, 1ULL << 10);
	ck_assert_uint_eq(NPU_SIM_CAP_STREAMS, 1ULL << 4);
	ck_assert_uint_eq(NPU_SIM_CAP_MANAGED, 1ULL << 5);
	ck_assert_uint_eq(NPU_SIM_CAP_CALLBACK, 1ULL << 15);
	ck_assert_uint_eq(NPU_SIM_CAP_EVENT_EXT, 1ULL << 13);
	ck_assert_uint_eq(caps & NPU_SIM_CAP_EVENT_EXT, NPU_SIM_CAP_EVENT_EXT);
	ck_assert_uint_eq(caps & ~(NPU_SIM_CAP_HUGE_2M | NPU_SIM_CAP_HUGE_1G | NPU_SIM_CAP_VMM |
				   NPU_SIM_CAP_IPC | NPU_SIM_CAP_STREAMS | NPU_SIM_CAP_MANAGED |
				   NPU_SIM_CAP_PEER | NPU_SIM_CAP_CHECK | NPU_SIM_CAP_MEM_LIMIT |
				   NPU_SIM_CAP_FAULT_INJECT | NPU_SIM_CAP_MEM_PEAKS |
				   NPU_SIM_CAP_EVENT_EXT | NPU_SIM_CAP_CALLBACK |
				   NPU_SIM_CAP_MEM_OPS | NPU_SIM_CAP_NOTIFY | NPU_SIM_CAP_STREAM_CTL |
				   NPU_SIM_CAP_MEMPOOL | NPU_SIM_CAP_GRAPH | NPU_SIM_CAP_GRAPH_FLOW |
				   NPU_SIM_CAP_GRAPH_POOL | NPU_SIM_CAP_RT_DECIDES |
				   NPU_SIM_CAP_CTX_FAILURE), 0);
	ck_assert_uint_eq(NPU_SIM_CAP_CTX_FAILURE, 1ULL << 21);
	ck_assert_uint_eq(caps & NPU_SIM_CAP_CTX_FAILURE, NPU_SIM_CAP_CTX_FAILURE);
	ck_assert_uint_eq(NPU_SIM_CAP_RT_DECIDES, 1ULL << 22);
	ck_assert_uint_eq(caps & NPU_SIM_CAP_RT_DECIDES, NPU_SIM_CAP_RT_DECIDES);
	ck_assert_uint_eq(NPU_SIM_CAP_GRAPH_FLOW, 1ULL << 19);
	ck_assert_uint_eq(caps & NPU_SIM_CAP_GRAPH_FLOW, NPU_SIM_CAP_GRAPH_FLOW);
	ck_assert_uint_eq(NPU_SIM_CAP_MEMPOOL, 1ULL << 17);
	ck_assert_uint_eq(caps & NPU_SIM_CAP_MEMPOOL, NPU_SIM_CAP_MEMPOOL);
	ck_assert_uint_eq(NPU_SIM_CAP_GRAPH, 1ULL << 18);
	ck_assert_uint_eq(caps & NPU_SIM_CAP_GRAPH, NPU_SIM_CAP_GRAPH);
	ck_assert_uint_eq(NPU_SIM_CAP_GRAPH_POOL, 1ULL << 20);
	ck_assert_uint_eq(caps & NPU_SIM_CAP_GRAPH_POOL, NPU_SIM_CAP_GRAPH_POOL);
	ck_assert_uint_eq(NPU_SIM_CAP_STREAM_CTL, 1ULL << 12);
	ck_assert_uint_eq(caps & NPU_SIM_CAP_STREAM_CTL, NPU_SIM_CAP_STREAM_CTL);
	ck_assert_uint_eq(caps & (NPU_SIM_CAP_VMM | NPU_SIM_CAP_IPC | NPU_SIM_CAP_STREAMS |
				  NPU_SIM_CAP_MANAGED | NPU_SIM_CAP_PEER | NPU_SIM_CAP_CHECK |
				  NPU_SIM_CAP_MEM_LIMIT | NPU_SIM_CAP_FAULT_INJECT | NPU_SIM_CAP_MEM_PEAKS |
				  NPU_SIM_CAP_CALLBACK | NPU_SIM_CAP_MEM_OPS |
				  NPU_SIM_CAP_NOTIFY),
			  NPU_SIM_CAP_VMM | NPU_SIM_CAP_IPC | NPU_SIM_CAP_STREAMS | NPU_SIM_CAP_MANAGED |
			  NPU_SIM_CAP_PEER | NPU_SIM_CAP_CHECK | NPU_SIM_CAP_MEM_LIMIT |
			  NPU_SIM_CAP_FAULT_INJECT | NPU_SIM_CAP_MEM_PEAKS | NPU_SIM_CAP_CALLBACK |
			  NPU_SIM_CAP_MEM_OPS | NPU_SIM_CAP_NOTIFY);
	ck_assert_int_eq(param(r0.fd, NPU_SIM_PARAM_BARE_TGID), getpid());
	ck_assert_uint_eq(NPU_SIM_PARAM_PROFILE, 11);
	ck_assert_uint_eq(param(r0.fd, NPU_SIM_PARAM_PROFILE), 3);	/* atlas-a2 */
	ps = param(r0.fd, NPU_SIM_PARAM_PAGE_SIZES);
	ck_assert_uint_ne(ps & (1ULL << 12), 0);
	ck_assert_uint_eq(ps & ~((1ULL << 12) | (1ULL << 21) | (1ULL << 30)), 0);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&gp, 0, sizeof(gp));
		gp.param = bad[i];
		ck_assert_msg(xioctl(r0.fd, NPU_SIM_IOCTL_GET_PARAM, &gp) == EINVAL,
			      "GET_PARAM %#x not EINVAL", bad[i]);
	}
	memset(&gp, 0, sizeof(gp));
	gp.param = NPU_SIM_PARAM_CAPACITY;
	gp.index = 1;
	ck_assert_int_eq(xioctl(r0.fd, NPU_SIM_IOCTL_GET_PARAM, &gp), EINVAL);

	/* a command the driver does not know */
	ck_assert_int_eq(xioctl(r0.fd, _IO(NPU_SIM_IOC_MAGIC, 0x7f), NULL), ENOTTY);
	ck_assert_int_eq(xioctl(r0.fd, _IOWR('x', 0x01, struct npu_sim_mem_alloc), &gp), ENOTTY);
	raw_close(&r0);
	raw_close(&r1);
}
END_TEST

/* No window yet: nothing can be allocated. */
START_TEST(test_alloc_without_window)
{
	struct raw r;
	struct npu_sim_mem_alloc a = good_alloc();

	raw_open(&r, 0, 0);
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_ALLOC, &a), ENXIO);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_allocs(0, NULL), 0);
	raw_close(&r);
}
END_TEST

/* A valid allocation, copy, set, info and free, all by hand. */
START_TEST(test_raw_roundtrip)
{
	struct raw r;
	struct npu_sim_mem_alloc a1, a2;
	struct npu_sim_mem_info mi;
	struct npu_sim_mem_peaks mp;
	struct vm_alloc al;
	unsigned char src[160], back[160], want[160];
	struct npu_sim_memset ms;

	vm_set_hp2m_pool(2);
	raw_open(&r, 0, 1);
	raw_alloc(&r, 100, 160, NPU_SIM_BACKING_NORMAL, &a1);
	ck_assert_uint_ge(a1.va, (uintptr_t)r.win);
	ck_assert_uint_le(a1.va + 4096, (uintptr_t)r.win + r.wsize);
	/* footprint 160 <= 2 KiB: a 192-byte slot, the first of a new page */
	ck_assert_uint_eq(a1.va % 4096, 0);
	ck_assert_uint_eq(a1.charged, 192);
	ck_assert_uint_eq(a1.page_kind, NPU_SIM_PAGE_NORMAL);
	ck_assert_uint_ne(a1.id, 0);

	raw_alloc(&r, 1, 1, NPU_SIM_BACKING_HUGE_ONLY, &a2);
	ck_assert_uint_eq(a2.va % (2 * MiB), 0);
	ck_assert_uint_eq(a2.charged, 2 * MiB);
	ck_assert_uint_eq(a2.page_kind, NPU_SIM_PAGE_HUGE_2M);
	ck_assert_uint_gt(a2.id, a1.id);
	ck_assert_int_eq(vm_hp2m_free(), 1);

	ck_assert(vm_dbg_alloc_find(0, a1.va, &al));
	ck_assert_uint_eq(al.id, a1.id);
	ck_assert_int_eq(al.pid, getpid());
	ck_assert_uint_eq(al.size, 100);
	ck_assert_uint_eq(al.footprint, 160);
	ck_assert_uint_eq(al.charged, 192);
	ck_assert_str_eq(al.kind, "normal");
	ck_assert_uint_eq(al.policy, 2);
	ck_assert_str_eq(al.api, "malloc");
	ck_assert_str_eq(al.flags, "-");

	/* Out fields must come in zeroed. */
	memset(&mi, 0xff, sizeof(mi));
	mi.flags = 0;
	mi.pad = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_INFO, &mi), EINVAL);
	memset(&mi, 0, sizeof(mi));
	mi.reserved[1] = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_INFO, &mi), EINVAL);
	memset(&mi, 0, sizeof(mi));
	mi.limit_used = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_INFO, &mi), EINVAL);
	memset(&mi, 0, sizeof(mi));
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_INFO, &mi), 0);
	ck_assert_uint_eq(mi.capacity, VM_DEFAULT_HBM_BYTES);
	ck_assert_uint_eq(mi.used, 2 * MiB + 4096);
	ck_assert_uint_eq(mi.used_normal, 4096);
	ck_assert_uint_eq(mi.used_huge_2m, 2 * MiB);
	ck_assert_uint_eq(mi.used_huge_1g, 0);
	ck_assert_uint_eq(mi.used_p2p, 0);
	ck_assert_uint_eq(mi.context_used, 2 * MiB + 4096);
	ck_assert_uint_eq(mi.huge_2m_free, (uint64_t)vm_hp2m_free());
	ck_assert_uint_eq(mi.huge_2m_total, (uint64_t)vm_hp2m_total());
	ck_assert_uint_eq(mi.huge_1g_free, (uint64_t)vm_hp1g_free());
	ck_assert_uint_eq(mi.huge_1g_total, (uint64_t)vm_hp1g_total());
	ck_assert_uint_eq(mi.host_total, (uint64_t)vm_meminfo("MemTotal") * 1024);
	ck_assert_uint_eq(mi.allocations, 2);
	ck_assert_uint_eq(mi.limit_effective, 0);	/* 1.10: no limit set */
	ck_assert_uint_eq(mi.limit_used, 2 * MiB + 4096);
	ck_assert_uint_eq(mi.reserved[0] | mi.reserved[1], 0);
	/* 1.7: DEVICE_ONLY leaves the pool and host figures out */
	memset(&mi, 0, sizeof(mi));
	mi.flags = 2;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_INFO, &mi), EINVAL);
	mi.flags = NPU_SIM_MEM_INFO_DEVICE_ONLY;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_INFO, &mi), 0);
	ck_assert_uint_eq(mi.used, 2 * MiB + 4096);
	ck_assert_uint_eq(mi.context_used, 2 * MiB + 4096);
	ck_assert_uint_eq(mi.huge_2m_free | mi.huge_2m_total | mi.huge_1g_free | mi.huge_1g_total |
			  mi.host_total | mi.host_free, 0);
	/* 1.7: MEM_PEAKS, out fields zero on input */
	memset(&mp, 0, sizeof(mp));
	mp.pad = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_PEAKS, &mp), EINVAL);
	memset(&mp, 0, sizeof(mp));
	mp.flags = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_PEAKS, &mp), EINVAL);
	memset(&mp, 0, sizeof(mp));
	mp.reserved[1] = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_PEAKS, &mp), EINVAL);
	memset(&mp, 0, sizeof(mp));
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_PEAKS, &mp), 0);
	ck_assert_uint_eq(mp.context_used, 2 * MiB + 4096);
	ck_assert_uint_eq(mp.used, 2 * MiB + 4096);
	ck_assert_uint_eq(mp.used_normal, 4096);
	ck_assert_uint_eq(mp.used_huge_2m, 2 * MiB);
	ck_assert_uint_eq(mp.used_huge_1g | mp.used_p2p | mp.reserved[0] | mp.reserved[1], 0);

	vm_fill(src, sizeof(src), 8);
	ck_assert_int_eq(raw_copy(&r, a1.va, (uintptr_t)src, 160, NPU_SIM_COPY_H2D), 0);
	ck_assert_int_eq(raw_copy(&r, a2.va + 2 * MiB - 160, a1.va, 160, NPU_SIM_COPY_D2D), 0);
	memset(back, 0, sizeof(back));
	ck_assert_int_eq(raw_copy(&r, (uintptr_t)back, a2.va + 2 * MiB - 160, 160, NPU_SIM_COPY_D2H), 0);
	ck_assert_mem_eq(back, src, 160);

	ms = (struct npu_sim_memset){ .dst = a1.va + 10, .count = 20, .value = 0xee };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMSET, &ms), 0);
	memcpy(want, src, 160);
	memset(want + 10, 0xee, 20);
	ck_assert_int_eq(raw_copy(&r, (uintptr_t)back, a1.va, 160, NPU_SIM_COPY_D2H), 0);
	ck_assert_mem_eq(back, want, 160);

	ck_assert_int_eq(raw_free(&r, a1.va), 0);
	ck_assert_int_eq(raw_free(&r, a2.va), 0);
	ck_assert_int_eq(vm_hp2m_free(), 2);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	/* the peaks stay: sampled before each free */
	memset(&mp, 0, sizeof(mp));
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_PEAKS, &mp), 0);
	ck_assert_uint_eq(mp.context_used, 2 * MiB + 4096);
	ck_assert_uint_eq(mp.used, 2 * MiB + 4096);
	ck_assert_uint_eq(mp.used_huge_2m, 2 * MiB);
	raw_close(&r);
}
END_TEST

/* Bad MEM_ALLOC input: -EINVAL, counted, nothing charged. */
START_TEST(test_alloc_bad_input)
{
	struct raw r;
	struct vm_snap s;
	struct npu_sim_mem_alloc a;
	long long inv0, n = 0;
	int err;

	vm_set_hp2m_pool(4);
	raw_open(&r, 0, 1);
	vm_snap_take(0, &s);
	inv0 = vm_dbg_stat(0, "fail_invalid");

#define EXPECT_EINVAL(mutation) do {						\
		a = good_alloc();						\
		mutation;							\
		err = xioctl(r.fd, NPU_SIM_IOCTL_MEM_ALLOC, &a);		\
		ck_assert_msg(err == EINVAL, "MEM_ALLOC with '%s' (backing %u): %s, expected EINVAL", \
			      #mutation, a.backing, err ? strerror(err) : "success");	\
		n++;								\
	} while (0)

	EXPECT_EINVAL(a.pad = 1);
	EXPECT_EINVAL(a.pad = 0x80000000u);
	EXPECT_EINVAL(a.flags = 1u << 2);
	EXPECT_EINVAL(a.flags = 1u << 31);
	EXPECT_EINVAL(a.flags = ~0u);
	EXPECT_EINVAL(a.backing = 0);
	EXPECT_EINVAL(a.backing = 5);
	EXPECT_EINVAL(a.backing = ~0u);
	EXPECT_EINVAL(a.api = 0);
	EXPECT_EINVAL(a.api = 5);
	EXPECT_EINVAL(a.size = 0);
	EXPECT_EINVAL(a.size = 161);
	EXPECT_EINVAL(a.footprint = 0);
	EXPECT_EINVAL((a.size = 0, a.footprint = 0));
#undef EXPECT_EINVAL

	ck_assert_int_eq(vm_dbg_stat(0, "fail_invalid"), inv0 + n);
	vm_snap_assert_same(0, &s);

	/* large but representable: the capacity refuses it */
	a = good_alloc();
	a.footprint = 1ULL << 63;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_ALLOC, &a), ENOMEM);
	vm_snap_assert_same(0, &s);
	raw_close(&r);
}
END_TEST

/*
 * A footprint near UINT64_MAX, whose rounding up to the page size wraps:
 * -EINVAL (a bad field, not a shortage), nothing charged.
 */
START_TEST(test_alloc_footprint_overflow)
{
	struct raw r;
	struct vm_snap s;
	struct npu_sim_mem_alloc a;
	uint32_t b;
	int err;

	raw_open(&r, 0, 1);
	vm_snap_take(0, &s);
#define EXPECT_EINVAL(mutation) do {						\
		a = good_alloc();						\
		mutation;							\
		err = xioctl(r.fd, NPU_SIM_IOCTL_MEM_ALLOC, &a);		\
		ck_assert_msg(err == EINVAL, "MEM_ALLOC with '%s' (backing %u): %s, expected EINVAL", \
			      #mutation, a.backing, err ? strerror(err) : "success");	\
		vm_snap_assert_same(0, &s);					\
	} while (0)
	for (b = NPU_SIM_BACKING_NORMAL; b <= NPU_SIM_BACKING_HUGE1G_ONLY; b++) {
		EXPECT_EINVAL((a.backing = b, a.footprint = UINT64_MAX));
		EXPECT_EINVAL((a.backing = b, a.footprint = UINT64_MAX - 1));
		EXPECT_EINVAL((a.backing = b, a.footprint = UINT64_MAX - 4094));
		EXPECT_EINVAL((a.backing = b, a.size = UINT64_MAX, a.footprint = UINT64_MAX));
	}
	EXPECT_EINVAL((a.backing = NPU_SIM_BACKING_HUGE_ONLY, a.footprint = 0 - 2 * MiB + 1));
	EXPECT_EINVAL((a.backing = NPU_SIM_BACKING_HUGE_FIRST, a.footprint = 0 - 2 * MiB + 1));
	EXPECT_EINVAL((a.backing = NPU_SIM_BACKING_HUGE1G_ONLY, a.footprint = 0 - GiB + 1));
#undef EXPECT_EINVAL
	raw_close(&r);
}
END_TEST

START_TEST(test_free_bad_input)
{
	struct raw r;
	struct npu_sim_mem_free f;
	struct vm_snap s;
	uint64_t va;
	long long ne0;

	raw_open(&r, 0, 1);
	va = raw_alloc(&r, 100, 160, NPU_SIM_BACKING_NORMAL, NULL);
	vm_snap_take(0, &s);
	ne0 = vm_dbg_stat(0, "fail_no_entry");
	f = (struct npu_sim_mem_free){ .va = va, .flags = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_FREE, &f), EINVAL);
	f = (struct npu_sim_mem_free){ .va = va, .pad = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_FREE, &f), EINVAL);
	ck_assert_int_eq(raw_free(&r, va + 64), ENOENT);
	ck_assert_int_eq(raw_free(&r, va + 4096), ENOENT);
	ck_assert_int_eq(raw_free(&r, (uintptr_t)r.win + r.wsize - 4096), ENOENT);
	ck_assert_int_eq(raw_free(&r, 0), ENOENT);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_no_entry"), ne0 + 4);
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(raw_free(&r, va), 0);
	ck_assert_int_eq(raw_free(&r, va), ENOENT);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_no_entry"), ne0 + 5);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	raw_close(&r);
}
END_TEST

/* Bad MEMCPY / MEMCPY2D / MEMSET / MEM_INFO input: the errno, no byte written. */
START_TEST(test_copy_bad_input)
{
	struct raw r;
	struct npu_sim_memcpy c;
	struct npu_sim_memcpy2d c2;
	struct npu_sim_memset ms;
	struct npu_sim_mem_info mi;
	struct npu_sim_mem_alloc a;
	unsigned char img[4096], src[4096], back[4096];
	uint64_t va, end;
	long long range0;

	raw_open(&r, 0, 1);
	va = raw_alloc(&r, 4096, 4096, NPU_SIM_BACKING_NORMAL, &a);
	end = va + a.charged;
	/* make sure the page after it is a hole */
	ck_assert(!vm_dbg_alloc_find(0, end, NULL));
	vm_fill(img, sizeof(img), 9);
	ck_assert_int_eq(raw_copy(&r, va, (uintptr_t)img, 4096, NPU_SIM_COPY_H2D), 0);
	memset(src, 0x99, sizeof(src));

#define GOOD_C() (c = (struct npu_sim_memcpy){ .dst = va, .src = (uintptr_t)src, .count = 64, \
					       .dir = NPU_SIM_COPY_H2D, .src_fd = -1 })
	GOOD_C(); c.dir = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), EINVAL);
	GOOD_C(); c.dir = 4;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), EINVAL);
	GOOD_C(); c.flags = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), EINVAL);
	GOOD_C(); c.pad = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), EINVAL);
	GOOD_C(); c.count = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), EINVAL);
	GOOD_C(); c.count = UINT64_MAX;	/* dst + count wraps */
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), EINVAL);
	GOOD_C(); c.src_fd = r.fd;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), EOPNOTSUPP);
	assert_intact(&r, va, img, 4096, "bad MEMCPY fields");
	/* device range into the hole, or wholly in it */
	range0 = vm_dbg_stat(0, "fail_range");
	GOOD_C(); c.dst = end - 16;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), ENXIO);
	GOOD_C(); c.dst = end + 4096;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), ENXIO);
	c = (struct npu_sim_memcpy){ .dst = va, .src = end - 32, .count = 64,
				     .dir = NPU_SIM_COPY_D2D, .src_fd = -1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), ENXIO);
	c = (struct npu_sim_memcpy){ .dst = (uintptr_t)back, .src = end - 32, .count = 64,
				     .dir = NPU_SIM_COPY_D2H, .src_fd = -1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), ENXIO);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_range"), range0 + 4);
	assert_intact(&r, va, img, 4096, "MEMCPY into holes");
#undef GOOD_C

#define GOOD_C2() (c2 = (struct npu_sim_memcpy2d){ .dst = va, .dpitch = 128, .src = (uintptr_t)src, \
						   .spitch = 64, .width = 64, .height = 4, \
						   .dir = NPU_SIM_COPY_H2D, .src_fd = -1 })
	GOOD_C2(); c2.width = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY2D, &c2), EINVAL);
	GOOD_C2(); c2.height = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY2D, &c2), EINVAL);
	GOOD_C2(); c2.dpitch = 63;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY2D, &c2), EINVAL);
	GOOD_C2(); c2.spitch = 63;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY2D, &c2), EINVAL);
	GOOD_C2(); c2.dpitch = 1ULL << 62; c2.height = 5;	/* pitch * (height - 1) wraps */
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY2D, &c2), EINVAL);
	GOOD_C2(); c2.pad = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY2D, &c2), EINVAL);
	GOOD_C2(); c2.flags = 2;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY2D, &c2), EINVAL);
	GOOD_C2(); c2.dir = 9;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY2D, &c2), EINVAL);
	GOOD_C2(); c2.height = 33;	/* the last rows run past the allocation */
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY2D, &c2), ENXIO);
	assert_intact(&r, va, img, 4096, "bad MEMCPY2D");
#undef GOOD_C2

#define GOOD_MS() (ms = (struct npu_sim_memset){ .dst = va, .count = 64, .value = 1 })
	GOOD_MS(); ms.value = 0x100;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMSET, &ms), EINVAL);
	GOOD_MS(); ms.flags = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMSET, &ms), EINVAL);
	GOOD_MS(); ms.count = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMSET, &ms), EINVAL);
	GOOD_MS(); ms.dst = end - 1; ms.count = 2;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMSET, &ms), ENXIO);
	GOOD_MS(); ms.dst = (uintptr_t)img;	/* a host address: not a device operand */
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMSET, &ms), EINVAL);
	assert_intact(&r, va, img, 4096, "bad MEMSET");
#undef GOOD_MS

	memset(&mi, 0, sizeof(mi));
	mi.flags = 1u << 1;	/* bit 0 is NPU_SIM_MEM_INFO_DEVICE_ONLY (1.7) */
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_INFO, &mi), EINVAL);
	memset(&mi, 0, sizeof(mi));
	mi.pad = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_INFO, &mi), EINVAL);

	assert_intact(&r, va, img, 4096, "bad MEM_INFO");
	ck_assert_int_eq(raw_free(&r, va), 0);
	raw_close(&r);
}
END_TEST

/* An unreadable host source: -EFAULT, and the destination keeps its bytes. */
START_TEST(test_copy_bad_host_src)
{
	struct raw r;
	struct npu_sim_memcpy c;
	unsigned char img[4096];
	long long f0;
	uint64_t va;

	raw_open(&r, 0, 1);
	va = raw_alloc(&r, 4096, 4096, NPU_SIM_BACKING_NORMAL, NULL);
	vm_fill(img, sizeof(img), 10);
	ck_assert_int_eq(raw_copy(&r, va, (uintptr_t)img, 4096, NPU_SIM_COPY_H2D), 0);
	f0 = vm_dbg_stat(0, "fail_fault");
	c = (struct npu_sim_memcpy){ .dst = va, .src = 8, .count = 64,
				     .dir = NPU_SIM_COPY_H2D, .src_fd = -1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEMCPY, &c), EFAULT);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_fault"), f0 + 1);
	assert_intact(&r, va, img, 4096, "MEMCPY H2D from an unreadable host address");
	ck_assert_int_eq(raw_free(&r, va), 0);
	raw_close(&r);
}
END_TEST

static void mem_info(struct raw *r, struct npu_sim_mem_info *mi)
{
	memset(mi, 0, sizeof(*mi));
	mi->flags = NPU_SIM_MEM_INFO_DEVICE_ONLY;
	ck_assert_int_eq(xioctl(r->fd, NPU_SIM_IOCTL_MEM_INFO, mi), 0);
}

/*
 * MEM_ALLOC whose reply cannot be written (a read-only record): -EFAULT
 * and no allocation left behind, for a slot alone in its page and for one
 * next to a live slot (the slot path replies by va and id).
 */
START_TEST(test_alloc_reply_fault)
{
	struct npu_sim_mem_info m0, m1;
	struct npu_sim_mem_alloc *ro;
	struct raw r;
	uint64_t keep = 0;
	int pass;

	raw_open(&r, 0, 1);
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(ro, MAP_FAILED);
	*ro = good_alloc();
	ro->size = 64;
	ro->footprint = 96;
	ck_assert_int_eq(mprotect(ro, 4096, PROT_READ), 0);
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			keep = raw_alloc(&r, 64, 96, NPU_SIM_BACKING_NORMAL, NULL);
		mem_info(&r, &m0);
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_ALLOC, ro), EFAULT);
		mem_info(&r, &m1);
		ck_assert_uint_eq(m1.used, m0.used);
		ck_assert_uint_eq(m1.context_used, m0.context_used);
		ck_assert_uint_eq(m1.allocations, m0.allocations);
		ck_assert_uint_eq(m1.limit_used, m0.limit_used);
	}
	ck_assert_int_eq(raw_free(&r, keep), 0);
	mem_info(&r, &m1);
	ck_assert_uint_eq(m1.context_used, 0);
	ck_assert_int_eq(munmap(ro, 4096), 0);
	raw_close(&r);
}
END_TEST

/* Only the process that opened the file may use it (GET_PARAM aside). */
START_TEST(test_foreign_process)
{
	struct raw r;
	struct vm_snap s;
	unsigned char img[64], back[64];
	uint64_t va;
	pid_t pid;
	int st;

	raw_open(&r, 0, 1);
	va = raw_alloc(&r, 64, 64, NPU_SIM_BACKING_NORMAL, NULL);
	vm_fill(img, sizeof(img), 17);
	ck_assert_int_eq(raw_copy(&r, va, (uintptr_t)img, 64, NPU_SIM_COPY_H2D), 0);
	vm_snap_take(0, &s);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_CAPACITY };
		struct npu_sim_mem_info mi = { 0 };
		struct npu_sim_mem_alloc a = good_alloc();
		struct npu_sim_memset ms = { .dst = va, .count = 64, .value = 0 };
		unsigned char junk[64] = { 0 };
		int e[6], i, first = 0;

		/* GET_PARAM is answered for anyone (UAPI header), exactly. */
		if (xioctl(r.fd, NPU_SIM_IOCTL_GET_PARAM, &gp) != 0 ||
		    gp.value != VM_DEFAULT_HBM_BYTES)
			_exit(100);
		e[0] = EACCES;
		e[1] = xioctl(r.fd, NPU_SIM_IOCTL_MEM_INFO, &mi);
		e[2] = xioctl(r.fd, NPU_SIM_IOCTL_MEM_ALLOC, &a);
		e[3] = raw_free(&r, va);
		e[4] = raw_copy(&r, va, (uintptr_t)junk, 64, NPU_SIM_COPY_H2D);
		e[5] = xioctl(r.fd, NPU_SIM_IOCTL_MEMSET, &ms);
		for (i = 0; i < 6; i++) {
			if (e[i] != EACCES) {
				fprintf(stderr, "foreign process: ioctl %d (GET_PARAM, MEM_INFO, "
					"MEM_ALLOC, MEM_FREE, MEMCPY, MEMSET) gave %s\n",
					i + 1, e[i] ? strerror(e[i]) : "success");
				if (!first)
					first = i + 1;
			}
		}
		_exit(first);
	}
	while (waitpid(pid, &st, 0) < 0)
		;
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "child's ioctl on the parent's fd: step %d did not get EACCES",
		      WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st));
	vm_snap_assert_same(0, &s);
	ck_assert_int_eq(raw_copy(&r, (uintptr_t)back, va, 64, NPU_SIM_COPY_D2H), 0);
	ck_assert_mem_eq(back, img, 64);
	ck_assert_int_eq(raw_free(&r, va), 0);
	raw_close(&r);
}
END_TEST

/* One window per open file: a second mmap fails. */
START_TEST(test_second_mmap)
{
	struct raw r;
	void *w2;

	raw_open(&r, 0, 1);
	w2 = mmap(NULL, r.wsize, PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0);
	ck_assert_msg(w2 == MAP_FAILED, "second mmap of the window succeeded at %p", w2);
	ck_assert_int_eq(errno, EBUSY);
	ck_assert_uint_eq(param(r.fd, NPU_SIM_PARAM_VA_WINDOW_START), (uintptr_t)r.win);
	/* the first window still works */
	raw_free(&r, raw_alloc(&r, 1, 1, NPU_SIM_BACKING_NORMAL, NULL));
	raw_close(&r);
}
END_TEST

/* GRAPH_* (issue 27): reserved fields, bad entries, unknown ids, all-or-none launch. */
START_TEST(test_graph_bad_input)
{
	struct npu_sim_stream_submit ops[2];
	struct npu_sim_stream_create sc = { 0 };
	struct npu_sim_stream_sync ss;
	struct npu_sim_graph_create gc;
	struct npu_sim_graph_destroy gd;
	struct npu_sim_graph_launch gl;
	struct npu_sim_graph_info gi;
	struct npu_sim_mem_alloc a;
	struct npu_sim_mem_free mf;
	struct raw r;
	uint64_t va, va2;

	raw_open(&r, 0, 1);
	va = raw_alloc(&r, 4096, 4096, NPU_SIM_BACKING_NORMAL, &a);
	va2 = raw_alloc(&r, 4096, 4096, NPU_SIM_BACKING_NORMAL, &a);
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc), 0);
	memset(ops, 0, sizeof(ops));
	ops[0] = (struct npu_sim_stream_submit){ .op = NPU_SIM_OP_SET, .dst = va, .dpitch = 64, .width = 64,
						 .height = 1, .value = 0x5A };
	ops[1] = (struct npu_sim_stream_submit){ .op = NPU_SIM_OP_COPY, .dst = va2, .dpitch = 64, .src = va,
						 .spitch = 64, .width = 64, .height = 1, .dir = NPU_SIM_COPY_D2D };

	gc = (struct npu_sim_graph_create){ .ops = (uintptr_t)ops, .count = 2, .flags = 4 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
	/* TAKE_FROM needs a graph to take from, and a program moves nothing */
	gc = (struct npu_sim_graph_create){ .ops = (uintptr_t)ops, .count = 2, .flags = NPU_SIM_GRAPH_TAKE_FROM };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
	gc = (struct npu_sim_graph_create){ .ops = (uintptr_t)ops, .count = 2, .from = 1,
					    .flags = NPU_SIM_GRAPH_TAKE_FROM | NPU_SIM_GRAPH_FLOW };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
	gc = (struct npu_sim_graph_create){ .ops = (uintptr_t)ops, .count = 2, .from = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
	gc = (struct npu_sim_graph_create){ .ops = 0, .count = 2 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
	gc = (struct npu_sim_graph_create){ .ops = 8, .count = 2 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EFAULT);
	gc = (struct npu_sim_graph_create){ .ops = (uintptr_t)ops, .count = NPU_SIM_MAX_GRAPH_OPS + 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
	ops[1].stream = sc.id;	/* entries name no stream */
	gc = (struct npu_sim_graph_create){ .ops = (uintptr_t)ops, .count = 2 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
	ops[1].stream = 0;
	ops[1].op = NPU_SIM_OP_GRAPH;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
	ops[1].op = NPU_SIM_OP_COPY;
	ops[1].dir = 9;		/* checked as STREAM_SUBMIT */
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
	ops[1].dir = NPU_SIM_COPY_D2D;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), 0);
	ck_assert_uint_gt(gc.id, 0);
	ck_assert_uint_eq(gc.bytes, 64 + 128);

	gl = (struct npu_sim_graph_launch){ .id = gc.id, .stream = sc.id, .flags = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_LAUNCH, &gl), EINVAL);
	gl = (struct npu_sim_graph_launch){ .id = gc.id + 1, .stream = sc.id };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_LAUNCH, &gl), ENOENT);
	gl = (struct npu_sim_graph_launch){ .id = gc.id, .stream = sc.id + 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_LAUNCH, &gl), ENOENT);
	gl = (struct npu_sim_graph_launch){ .id = gc.id, .stream = sc.id };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_LAUNCH, &gl), 0);
	ck_assert_uint_eq(gl.seq, 2);
	gi = (struct npu_sim_graph_info){ .id = gc.id };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_INFO, &gi), 0);
	ck_assert_uint_eq(gi.count, 2);
	ck_assert_uint_eq(gi.bytes, 192);
	ck_assert_uint_eq(gi.launches, 1);
	gi = (struct npu_sim_graph_info){ .id = gc.id, .launches = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_INFO, &gi), EINVAL);

	/* The copy's destination freed: the launch queues nothing. */
	mf = (struct npu_sim_mem_free){ .va = va2 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_MEM_FREE, &mf), 0);
	gl = (struct npu_sim_graph_launch){ .id = gc.id, .stream = sc.id };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_LAUNCH, &gl), ENXIO);
	ss = (struct npu_sim_stream_sync){ .id = sc.id };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), 0);
	ck_assert_uint_eq(ss.submitted, 2);
	ck_assert_int_eq(ss.error, 0);

	gd = (struct npu_sim_graph_destroy){ .id = gc.id, .flags = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_DESTROY, &gd), EINVAL);
	gd.flags = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_DESTROY, &gd), 0);
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_DESTROY, &gd), ENOENT);
	/* Control-flow programs (1.11): entries and targets checked at create. */
	{
		struct npu_sim_stream_submit fo[4];

		memset(fo, 0, sizeof(fo));
		fo[0] = (struct npu_sim_stream_submit){ .op = NPU_SIM_OP_SET, .dst = va, .dpitch = 64, .width = 64,
							.height = 1, .value = 0x11 };
		fo[1] = (struct npu_sim_stream_submit){ .op = NPU_SIM_OP_BRANCH, .dst = va, .width = 4,
							.flags = NPU_SIM_FLOW_EQ, .operand = 0x11111111, .height = 3 };
		fo[2] = (struct npu_sim_stream_submit){ .op = NPU_SIM_OP_SET, .dst = va, .dpitch = 64, .width = 64,
							.height = 1, .value = 0x22 };
		fo[3] = (struct npu_sim_stream_submit){ .op = NPU_SIM_OP_JUMP, .flags = NPU_SIM_FLOW_END };
		gc = (struct npu_sim_graph_create){ .ops = (uintptr_t)fo, .count = 4 };
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);	/* no FLOW flag */
		gc.flags = NPU_SIM_GRAPH_FLOW;
		fo[1].height = 4;	/* target past the end */
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
		fo[1].height = 3;
		fo[1].width = 3;
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
		fo[1].width = 4;
		fo[3].height = 1;	/* END names no target */
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
		fo[3].height = 0;
		fo[2].op = NPU_SIM_OP_RECORD;	/* waits and events: not in a program */
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
		fo[2].op = NPU_SIM_OP_SWITCH;	/* followed by a SET, not a JUMP */
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), EINVAL);
		fo[2] = (struct npu_sim_stream_submit){ .op = NPU_SIM_OP_SET, .dst = va, .dpitch = 64, .width = 64,
							.height = 1, .value = 0x22 };
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), 0);
		gi = (struct npu_sim_graph_info){ .id = gc.id };
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_INFO, &gi), 0);
		ck_assert_uint_eq(gi.flags, NPU_SIM_GRAPH_FLOW);
		ck_assert_uint_eq(gi.count, 4);
		/* The whole program is one operation of the stream. */
		gl = (struct npu_sim_graph_launch){ .id = gc.id, .stream = sc.id };
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_LAUNCH, &gl), 0);
		ck_assert_uint_eq(gl.seq, 3);
		ss = (struct npu_sim_stream_sync){ .id = sc.id };
		ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), 0);
		ck_assert_int_eq(ss.error, 0);
		ck_assert_uint_eq(ss.submitted, 3);
	}
	/* An empty graph, left for the release. */
	gc = (struct npu_sim_graph_create){ 0 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_GRAPH_CREATE, &gc), 0);
	raw_close(&r);
}
END_TEST

/* STREAM_* / EVENT_* (API 1.2): reserved fields, bad ops, unknown ids. */
START_TEST(test_stream_bad_input)
{
	struct npu_sim_stream_create sc;
	struct npu_sim_stream_destroy sd;
	struct npu_sim_stream_submit sb;
	struct npu_sim_stream_sync ss;
	struct npu_sim_event_create ec;
	struct npu_sim_event_destroy ed;
	struct npu_sim_event_sync es;
	struct npu_sim_mem_alloc a;
	unsigned char host[4096];
	struct raw r;
	uint64_t va;
	uint32_t sid, eid;

	raw_open(&r, 0, 1);
	va = raw_alloc(&r, 4096, 4096, NPU_SIM_BACKING_NORMAL, &a);

	/* flags: the ACL stream flag bits only (1.9) */
	sc = (struct npu_sim_stream_create){ .ctx_id = 7, .flags = NPU_SIM_STREAM_FLAGS_MASK + 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc), EINVAL);
	sc.flags = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc), 0);
	sid = sc.id;
	ck_assert_uint_gt(sid, 0);
	ec = (struct npu_sim_event_create){ .pad = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_CREATE, &ec), EINVAL);
	ec = (struct npu_sim_event_create){ .flags = 2 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_CREATE, &ec), EINVAL);
	ec = (struct npu_sim_event_create){ 0 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_CREATE, &ec), 0);
	eid = ec.id;

#define GOOD_SB() (sb = (struct npu_sim_stream_submit){ .stream = sid, .op = NPU_SIM_OP_COPY, \
		.dst = va, .dpitch = 64, .src = (uintptr_t)host, .spitch = 64, .width = 64, \
		.height = 1, .dir = NPU_SIM_COPY_H2D })
	GOOD_SB();
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), 0);
	ck_assert_uint_eq(sb.seq, 1);
	GOOD_SB(); sb.op = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	GOOD_SB(); sb.op = 5;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	GOOD_SB(); sb.flags = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	GOOD_SB(); sb.operand = 1;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	GOOD_SB(); sb.dir = 4;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	GOOD_SB(); sb.event = eid;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	GOOD_SB(); sb.dpitch = 63;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	GOOD_SB(); sb.height = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	GOOD_SB(); sb.height = 2; sb.dpitch = 4096;	/* second row past the allocation */
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), ENXIO);
	GOOD_SB(); sb.stream = sid + 1000;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), ENOENT);
	GOOD_SB(); sb.op = NPU_SIM_OP_SET; sb.src = 0; sb.spitch = 0; sb.dir = 0; sb.value = 0x100;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	GOOD_SB(); sb.op = NPU_SIM_OP_SET; sb.spitch = 0; sb.dir = 0;	/* src set */
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	sb = (struct npu_sim_stream_submit){ .stream = sid, .op = NPU_SIM_OP_RECORD, .event = eid };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), 0);
	ck_assert_uint_eq(sb.seq, 2);
	sb = (struct npu_sim_stream_submit){ .stream = sid, .op = NPU_SIM_OP_WAIT, .event = 0 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);
	sb = (struct npu_sim_stream_submit){ .stream = sid, .op = NPU_SIM_OP_WAIT, .event = eid + 9 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), ENOENT);
	sb = (struct npu_sim_stream_submit){ .stream = sid, .op = NPU_SIM_OP_WAIT, .event = eid,
					     .width = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb), EINVAL);

	ss = (struct npu_sim_stream_sync){ .id = sid, .flags = 1U << 4 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), EINVAL);
	ss = (struct npu_sim_stream_sync){ .id = sid, .flags = NPU_SIM_SYNC_QUERY | NPU_SIM_SYNC_TIMEOUT,
					   .timeout_ms = 5 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), EINVAL);
	ss = (struct npu_sim_stream_sync){ .id = sid, .flags = NPU_SIM_SYNC_TIMEOUT };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), EINVAL);
	ss = (struct npu_sim_stream_sync){ .id = sid, .timeout_ms = 5 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), EINVAL);
	ss = (struct npu_sim_stream_sync){ .id = sid, .flags = NPU_SIM_SYNC_ALL };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), EINVAL);
	ss = (struct npu_sim_stream_sync){ .id = 0 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), EINVAL);
	ss = (struct npu_sim_stream_sync){ .id = sid, .pad = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), EINVAL);
	ss = (struct npu_sim_stream_sync){ .id = sid + 1000 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), ENOENT);
	ss = (struct npu_sim_stream_sync){ .id = sid };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), 0);
	ck_assert_uint_eq(ss.status, NPU_SIM_STATUS_COMPLETE);
	ck_assert_int_eq(ss.error, 0);
	ck_assert_uint_eq(ss.submitted, 2);
	ck_assert_uint_eq(ss.completed, 2);
	ss = (struct npu_sim_stream_sync){ .flags = NPU_SIM_SYNC_ALL | NPU_SIM_SYNC_QUERY };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_SYNC, &ss), 0);
	ck_assert_uint_eq(ss.status, NPU_SIM_STATUS_COMPLETE);

	es = (struct npu_sim_event_sync){ .id = eid, .flags = NPU_SIM_SYNC_ALL };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_SYNC, &es), EINVAL);
	es = (struct npu_sim_event_sync){ .id = eid, .recorded = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_SYNC, &es), EINVAL);
	es = (struct npu_sim_event_sync){ .id = eid + 9 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_SYNC, &es), ENOENT);
	es = (struct npu_sim_event_sync){ .id = eid, .flags = NPU_SIM_SYNC_QUERY };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_SYNC, &es), 0);
	ck_assert_uint_eq(es.status, NPU_SIM_STATUS_COMPLETE);
	ck_assert_uint_eq(es.recorded, 1);
	ck_assert_uint_eq(es.completed, 1);
	ck_assert_uint_ne(es.timestamp_ns, 0);

	sd = (struct npu_sim_stream_destroy){ .id = sid, .flags = 2 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_DESTROY, &sd), EINVAL);
	ed = (struct npu_sim_event_destroy){ .id = eid, .flags = 1 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_DESTROY, &ed), EINVAL);
	sd.flags = 0;
	ed.flags = 0;
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_DESTROY, &sd), 0);
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_DESTROY, &sd), ENOENT);
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_DESTROY, &ed), 0);
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_EVENT_DESTROY, &ed), ENOENT);
	/* a new stream does not get the destroyed id back */
	sc = (struct npu_sim_stream_create){ 0 };
	ck_assert_int_eq(xioctl(r.fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc), 0);
	ck_assert_uint_ne(sc.id, sid);
	raw_close(&r);	/* release with a live stream */
}
END_TEST

static Suite *ioctl_suite(void)
{
	Suite *s = suite_create("ioctl_input");
	TCase *tc = tcase_create("raw");

	tcase_add_checked_fixture(tc, vm_mod_setup, NULL);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_get_param);
	tcase_add_test(tc, test_alloc_without_window);
	tcase_add_test(tc, test_raw_roundtrip);
	tcase_add_test(tc, test_alloc_bad_input);
	tcase_add_test(tc, test_alloc_footprint_overflow);
	tcase_add_test(tc, test_free_bad_input);
	tcase_add_test(tc, test_copy_bad_input);
	tcase_add_test(tc, test_copy_bad_host_src);
	tcase_add_test(tc, test_alloc_reply_fault);
	tcase_add_test(tc, test_foreign_process);
	tcase_add_test(tc, test_second_mmap);
	tcase_add_test(tc, test_stream_bad_input);
	tcase_add_test(tc, test_graph_bad_input);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(ioctl_suite());
}
