// SPDX-License-Identifier: GPL-2.0
/*
 * Scale: 100,000 live 64 B allocations in one process (more than
 * vm.max_map_count would allow as one VMA each), all visible in debugfs,
 * usable, and freed; NPU_SIM_STRESS=1 raises the count to 1,000,000 (not on
 * the debug kernel, whose kmemleak makes that take an hour).  They
 * are slots of shared 4 KiB pages (footprint 96 B -> 128 B slots, 32 to a
 * page): the device is charged one page per 32, and the kernel memory per
 * allocation stays at most 300 bytes.  Threads of one process allocate,
 * copy and free slots at once, each freeing the others' (whose pages are
 * in other shards of the context: kernel/npu_mem_small.c), and a copy
 * racing the free of its slot gets the hole's code.
 */
#include "vmtest.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* 64 B allocations: footprint ALIGN_UP(64, 32) + 32 = 96 in 128-byte slots. */
#define SLOT 128
#define PER_PAGE (4096 / SLOT)

static void live_allocations(long n, int debug_kernel)
{
	uintptr_t *p = calloc((size_t)n, sizeof(*p)), *sorted;
	long long pages = (n + PER_PAGE - 1) / PER_PAGE, slab0, slab;
	struct vm_alloc *all;
	unsigned char src[64], back[64];
	size_t f0, t0, f, t;
	long i, lines;
	double t_start, t_alloc, t_dbg, t_io, t_free;
	aclError ret;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	vm_hbm_info(&f0, &t0);
	slab0 = vm_meminfo("Slab");

	t_start = vm_now();
	for (i = 0; i < n; i++) {
		void *q = NULL;

		ret = aclrtMalloc(&q, 64, ACL_MEM_MALLOC_NORMAL_ONLY);
		if (ret != ACL_SUCCESS || !q || ((uintptr_t)q & 63))
			ck_abort_msg("allocation %ld of %ld: ret %d ptr %p", i, n, ret, q);
		p[i] = (uintptr_t)q;
	}
	t_alloc = vm_now();
	slab = vm_meminfo("Slab");
	printf("scale: %ld x 64 B: %lld pages charged, slab %.0f B per allocation\n", n, pages,
	       (slab - slab0) * 1024.0 / n);
	/* the bound is the stock kernel's: KASAN and kmemleak grow every object */
	if (!debug_kernel)
		ck_assert_msg((slab - slab0) * 1024 <= 300LL * n, "slab grew by %lld KiB for %ld allocations",
			      slab - slab0, n);

	/* distinct and non-overlapping, one slot each */
	sorted = malloc((size_t)n * sizeof(*sorted));
	ck_assert_ptr_nonnull(sorted);
	memcpy(sorted, p, (size_t)n * sizeof(*sorted));
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_ptr);
	for (i = 1; i < n; i++)
		if (sorted[i - 1] + SLOT > sorted[i])
			ck_abort_msg("allocations at 0x%lx and 0x%lx overlap", (unsigned long)sorted[i - 1],
				     (unsigned long)sorted[i]);
	free(sorted);

	lines = vm_dbg_allocs(0, &all);
	ck_assert_int_eq(lines, n);
	for (i = 0; i < lines; i++)
		if (all[i].pid != getpid() || all[i].size != 64 || all[i].footprint != 96 ||
		    all[i].charged != SLOT || strcmp(all[i].kind, "normal"))
			ck_abort_msg("debugfs line %ld: pid %ld size %llu footprint %llu charged %llu %s",
				     i, all[i].pid, all[i].size, all[i].footprint, all[i].charged,
				     all[i].kind);
	free(all);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), n);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), pages * 4096);
	ck_assert_int_eq(vm_dbg_info(0, "used_normal_bytes"), pages * 4096);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0 - (uint64_t)pages * 4096);
	t_dbg = vm_now();

	/* every allocation is found by the driver: 1,000 spread round trips */
	for (i = 0; i < n; i += n / 1000) {
		vm_fill(src, sizeof(src), (uint32_t)i);
		if (aclrtMemcpy((void *)p[i], 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
		    aclrtMemcpy(back, 64, (void *)p[i], 64, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS ||
		    memcmp(src, back, 64))
			ck_abort_msg("round trip through allocation %ld failed", i);
	}
	t_io = vm_now();

	/* free odd ones (every page keeps its even slots), then even ones */
	for (i = 1; i < n; i += 2)
		if ((ret = aclrtFree((void *)p[i])) != ACL_SUCCESS)
			ck_abort_msg("free %ld: %d", i, ret);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), n - n / 2);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), pages * 4096);
	for (i = 0; i < n; i += 2)
		if ((ret = aclrtFree((void *)p[i])) != ACL_SUCCESS)
			ck_abort_msg("free %ld: %d", i, ret);
	t_free = vm_now();

	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_allocs(0, NULL), 0);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0);
	free(p);
	printf("scale: %ld live allocations: alloc %.2fs, debugfs+checks %.2fs, 1000 round trips %.2fs, free %.2fs\n",
	       n, t_alloc - t_start, t_dbg - t_alloc, t_io - t_dbg, t_free - t_io);
	fflush(stdout);
}

START_TEST(test_100k_live)
{
	const char *stress = getenv("NPU_SIM_STRESS");
	/* kmemleak tracks every object: a million take an hour on that kernel */
	int debug_kernel = access("/sys/kernel/debug/kmemleak", F_OK) == 0;

	live_allocations(stress && !strcmp(stress, "1") && !debug_kernel ? 1000000 : 100000, debug_kernel);
}
END_TEST

/* The process exits holding them all: the release frees 100,000 at once. */
START_TEST(test_100k_exit_cleanup)
{
	struct vm_child ch;
	int st;

	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ch.pid = fork();
	ck_assert_int_ge(ch.pid, 0);
	if (ch.pid == 0) {
		long i;

		if (aclInit(NULL) || aclrtSetDevice(0))
			_exit(1);
		for (i = 0; i < 100000; i++) {
			void *q;

			if (aclrtMalloc(&q, 1, ACL_MEM_MALLOC_NORMAL_ONLY))
				_exit(2);
		}
		_exit(0);
	}
	ch.cmd = ch.rep = -1;
	st = vm_child_wait(&ch);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_contexts(0), 0);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}
END_TEST

#define THREADS 4
#define PER_THREAD 40		/* a page and a part: pages start and retire */
#define ROUNDS 50

struct slot_box {
	pthread_barrier_t barrier;
	void *slot[THREADS][PER_THREAD];
	int failed;
};

struct slot_thread {
	struct slot_box *box;
	int t;
};

static uint32_t slot_seed(int t, int r, int j)
{
	return (uint32_t)(t * 100000 + r * 100 + j);
}

/*
 * 0 when the slot holds the 64 bytes of seed and the driver answers for it
 * as one 64 B allocation of device 0 (PointerGetAttributes,
 * GetAddressRange).
 */
static int slot_check(void *slot, uint32_t seed)
{
	unsigned char want[64], back[64];
	aclrtPtrAttributes a;
	void *base;
	size_t size;

	vm_fill(want, sizeof(want), seed);
	if (aclrtMemcpy(back, 64, slot, 64, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS ||
	    memcmp(want, back, 64))
		return 1;
	if (aclrtPointerGetAttributes((char *)slot + 63, &a) != ACL_SUCCESS ||
	    a.location.type != ACL_MEM_LOCATION_TYPE_DEVICE || a.location.id != 0 || a.pageSize != 4096)
		return 2;
	if (aclrtMemGetAddressRange((char *)slot + 10, &base, &size) != ACL_SUCCESS || base != slot ||
	    size != 64)
		return 3;
	return 0;
}

/*
 * Each round: allocate PER_THREAD slots, write and read them back; at the
 * barrier, check and free the ones the next thread allocated.
 */
static void *slot_worker(void *arg)
{
	struct slot_thread *st = arg;
	struct slot_box *box = st->box;
	int t = st->t, next = (t + 1) % THREADS, r, j;
	unsigned char src[64];

	if (aclrtSetDevice(0) != ACL_SUCCESS)
		__atomic_store_n(&box->failed, 1, __ATOMIC_RELAXED);
	for (r = 0; r < ROUNDS; r++) {
		for (j = 0; j < PER_THREAD; j++) {
			void **p = &box->slot[t][j];

			vm_fill(src, sizeof(src), slot_seed(t, r, j));
			if (aclrtMalloc(p, 64, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS ||
			    aclrtMemcpy(*p, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
				__atomic_store_n(&box->failed, 2, __ATOMIC_RELAXED);
		}
		for (j = 0; j < PER_THREAD; j++)
			if (slot_check(box->slot[t][j], slot_seed(t, r, j)))
				__atomic_store_n(&box->failed, 3, __ATOMIC_RELAXED);
		pthread_barrier_wait(&box->barrier);
		for (j = 0; j < PER_THREAD; j++) {
			if (slot_check(box->slot[next][j], slot_seed(next, r, j)))
				__atomic_store_n(&box->failed, 4, __ATOMIC_RELAXED);
			if (aclrtFree(box->slot[next][j]) != ACL_SUCCESS)
				__atomic_store_n(&box->failed, 5, __ATOMIC_RELAXED);
		}
		pthread_barrier_wait(&box->barrier);
	}
	return NULL;
}

START_TEST(test_threads_free_each_others_slots)
{
	struct slot_thread st[THREADS];
	pthread_t th[THREADS];
	struct slot_box *box = calloc(1, sizeof(*box));
	size_t f0, t0, f, t;
	int i;

	ck_assert_ptr_nonnull(box);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	vm_hbm_info(&f0, &t0);
	ck_assert_int_eq(pthread_barrier_init(&box->barrier, NULL, THREADS), 0);
	for (i = 0; i < THREADS; i++) {
		st[i].box = box;
		st[i].t = i;
		ck_assert_int_eq(pthread_create(&th[i], NULL, slot_worker, &st[i]), 0);
	}
	for (i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
	ck_assert_int_eq(box->failed, 0);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	ck_assert_int_eq(vm_dbg_allocs(0, NULL), 0);
	vm_hbm_info(&f, &t);
	ck_assert_uint_eq(f, f0);
	pthread_barrier_destroy(&box->barrier);
	free(box);
}
END_TEST

struct order_box {
	pthread_barrier_t barrier;
	void *a, *c;
};

/* Slot a, then (after the main thread's) slot c, from one thread. */
static void *order_worker(void *arg)
{
	struct order_box *ob = arg;

	if (aclrtSetDevice(0) || aclrtMalloc(&ob->a, 64, ACL_MEM_MALLOC_NORMAL_ONLY))
		ob->a = NULL;
	pthread_barrier_wait(&ob->barrier);
	pthread_barrier_wait(&ob->barrier);
	if (aclrtMalloc(&ob->c, 64, ACL_MEM_MALLOC_NORMAL_ONLY))
		ob->c = NULL;
	return NULL;
}

/*
 * Slots of two threads (two shards of the context), listed in debugfs in
 * the order they were made: a and c of one thread around b of another.
 */
START_TEST(test_threads_slots_listed_in_order)
{
	struct order_box ob = { 0 };
	struct vm_alloc *all;
	pthread_t th;
	void *b;
	long lines;

	ck_assert_int_eq(pthread_barrier_init(&ob.barrier, NULL, 2), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, order_worker, &ob), 0);
	pthread_barrier_wait(&ob.barrier);
	ck_assert_int_eq(aclrtMalloc(&b, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	pthread_barrier_wait(&ob.barrier);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_ptr_nonnull(ob.a);
	ck_assert_ptr_nonnull(ob.c);

	lines = vm_dbg_allocs(0, &all);
	ck_assert_int_eq(lines, 3);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 3);
	ck_assert_uint_eq(all[0].va, (uintptr_t)ob.a);
	ck_assert_uint_eq(all[1].va, (uintptr_t)b);
	ck_assert_uint_eq(all[2].va, (uintptr_t)ob.c);
	ck_assert_uint_lt(all[0].id, all[1].id);
	ck_assert_uint_lt(all[1].id, all[2].id);
	free(all);
	ck_assert_int_eq(aclrtFree(ob.a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(ob.c), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	pthread_barrier_destroy(&ob.barrier);
}
END_TEST

struct race_box {
	pthread_barrier_t barrier;
	void *slot;
	int results[3];		/* success, the hole's code, other */
};

/* Copies into box->slot until well after the other thread freed it. */
static void *race_copier(void *arg)
{
	struct race_box *rb = arg;
	unsigned char src[64];
	int i, freed = 0;
	aclError ret;

	memset(src, 0x5a, sizeof(src));
	if (aclrtSetDevice(0) != ACL_SUCCESS)
		return NULL;
	pthread_barrier_wait(&rb->barrier);
	for (i = 0; i < 5000000 && freed < 200; i++) {
		ret = aclrtMemcpy(rb->slot, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE);
		if (ret == ACL_SUCCESS && !freed) {
			rb->results[0]++;
		} else if (ret == ACL_ERROR_RT_PARAM_INVALID) {
			rb->results[1]++;
			freed++;
		} else {
			rb->results[2]++;	/* success after a failure, or another code */
		}
	}
	return NULL;
}

/*
 * A copy into a slot racing the slot's free from another thread: each
 * copy runs whole before the free or fails with the hole's code after it;
 * the page's other slot keeps its bytes.
 */
START_TEST(test_copy_races_free_of_its_slot)
{
	struct race_box rb = { 0 };
	unsigned char src[64];
	void *other;
	pthread_t th;
	int round;

	ck_assert_int_eq(pthread_barrier_init(&rb.barrier, NULL, 2), 0);
	for (round = 0; round < 20; round++) {
		memset(&rb.results, 0, sizeof(rb.results));
		ck_assert_int_eq(aclrtMalloc(&other, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
		ck_assert_int_eq(aclrtMalloc(&rb.slot, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
		vm_fill(src, sizeof(src), (uint32_t)round);
		ck_assert_int_eq(aclrtMemcpy(other, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
		ck_assert_int_eq(pthread_create(&th, NULL, race_copier, &rb), 0);
		pthread_barrier_wait(&rb.barrier);
		usleep(round * 50);
		ck_assert_int_eq(aclrtFree(rb.slot), ACL_SUCCESS);
		ck_assert_int_eq(pthread_join(th, NULL), 0);
		ck_assert_int_eq(rb.results[2], 0);
		ck_assert_int_eq(rb.results[1], 200);
		ck_assert_int_eq(slot_check(other, (uint32_t)round), 0);
		ck_assert_int_eq(aclrtFree(other), ACL_SUCCESS);
	}
	ck_assert_int_eq(vm_dbg_info(0, "allocations"), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), 0);
	pthread_barrier_destroy(&rb.barrier);
}
END_TEST

static Suite *scale_suite(void)
{
	Suite *s = suite_create("scale");
	TCase *tc = tcase_create("live");

	tcase_add_checked_fixture(tc, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(tc, VM_TIMEOUT_LONG);
	tcase_add_test(tc, test_100k_live);
	tcase_add_test(tc, test_100k_exit_cleanup);
	tcase_add_test(tc, test_threads_free_each_others_slots);
	tcase_add_test(tc, test_threads_slots_listed_in_order);
	tcase_add_test(tc, test_copy_races_free_of_its_slot);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(scale_suite());
}
