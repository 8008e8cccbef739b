/*
 * Allocation rows: aclrtMalloc + aclrtFree against the syscalls they stand
 * in for, and alloc/free throughput with 2 and 8 threads of one process and
 * with 2 processes against 1, next to the same scaling of a null ioctl.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define SMALL_OPS 2000
#define HUGE_OPS 32
#define THREADS 8

static double npu_alloc_free(size_t size, aclrtMemMallocPolicy policy, int ops)
{
	double t = bench_now();
	void *p;

	for (int i = 0; i < ops; i++) {
		bench_check(aclrtMalloc(&p, size, policy), "aclrtMalloc");
		bench_check(aclrtFree(p), "aclrtFree");
	}
	return bench_now() - t;
}

static double raw_maps(size_t len, int flags, int ops)
{
	double t = bench_now();

	for (int i = 0; i < ops; i++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags,
			       -1, 0);

		if (p == MAP_FAILED) {
			perror("bench: mmap (are 2 MiB pages reserved?)");
			exit(1);
		}
		p[0] = 1;	/* take the page, as the device allocation does */
		munmap(p, len);
	}
	return bench_now() - t;
}

struct thread_arg {
	int dev;
	int ops;
	int null_only;	/* the primitive: null ioctl pairs instead */
};

static void *alloc_thread(void *argp)
{
	struct thread_arg *a = argp;
	void *p;

	if (a->null_only) {
		bench_null_ioctls(2 * a->ops);
		return NULL;
	}
	bench_check(aclrtSetDevice(a->dev), "aclrtSetDevice (thread)");
	for (int i = 0; i < a->ops; i++) {
		bench_check(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc (thread)");
		bench_check(aclrtFree(p), "aclrtFree (thread)");
	}
	bench_check(aclrtResetDevice(a->dev), "aclrtResetDevice (thread)");
	return NULL;
}

/* ops alloc/free (or null ioctl) pairs spread over n threads; wall time. */
static double threaded(int n, int ops, int null_only)
{
	pthread_t th[THREADS];
	struct thread_arg arg = { 0, ops / n, null_only };
	double t = bench_now();

	for (int i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, alloc_thread, &arg) != 0) {
			perror("bench: pthread_create");
			exit(1);
		}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return bench_now() - t;
}

/* ops alloc/free pairs spread over n forked processes; wall time. */
static double processes(int n, int ops)
{
	double t = bench_now();
	int status;

	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("bench: fork");
			exit(1);
		}
		if (pid == 0) {
			struct thread_arg arg = { 0, ops / n, 0 };

			alloc_thread(&arg);
			_exit(0);
		}
	}
	for (int i = 0; i < n; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "bench: a child process failed\n");
			exit(1);
		}
	return bench_now() - t;
}

/* Throughput of n workers against 1: the same pairs, wall times alternated. */
static void scaling_row(const char *name, const char *prim, const char *target, int n, int procs,
			int null_only)
{
	struct bench_samples a = { 0 }, b = { 0 };
	int reps = bench_reps();

	for (int r = 0; r < reps; r++) {
		bench_add(&a, procs ? processes(n, SMALL_OPS * 2) : threaded(n, SMALL_OPS * 2, null_only));
		bench_add(&b, procs ? processes(1, SMALL_OPS * 2) : threaded(1, SMALL_OPS * 2, null_only));
	}
	bench_row(&(struct bench_row){ name, prim, target, SMALL_OPS * 2, 0, 1,
				       "throughput ratio n / 1, 2 vCPUs" }, &a, &b);
}

void bench_alloc(void)
{
	struct bench_samples a, b;
	int reps = bench_reps();

	if (bench_selected("alloc+free 64 B")) {
		a.n = b.n = 0;
		for (int r = 0; r < reps; r++) {
			bench_add(&a, npu_alloc_free(64, ACL_MEM_MALLOC_HUGE_FIRST, SMALL_OPS));
			bench_add(&b, bench_null_ioctls(2 * SMALL_OPS));
		}
		bench_row(&(struct bench_row){ "aclrtMalloc+aclrtFree 64 B", "two null ioctls", "<=2.5",
					       SMALL_OPS, 0, 0, "" }, &a, &b);
	}
	if (bench_selected("alloc+free 4 KiB")) {
		a.n = b.n = 0;
		for (int r = 0; r < reps; r++) {
			bench_add(&a, npu_alloc_free(4096, ACL_MEM_MALLOC_NORMAL_ONLY, SMALL_OPS));
			bench_add(&b, raw_maps(4096, 0, SMALL_OPS));
		}
		bench_row(&(struct bench_row){ "aclrtMalloc+aclrtFree 4 KiB NORMAL_ONLY",
					       "mmap+touch+munmap 4 KiB", "", SMALL_OPS, 0, 0, "" }, &a, &b);
	}
	if (bench_selected("alloc+free 2 MiB")) {
		a.n = b.n = 0;
		for (int r = 0; r < reps; r++) {
			bench_add(&a, npu_alloc_free(2 * MiB - 64, ACL_MEM_MALLOC_HUGE_ONLY, HUGE_OPS));
			bench_add(&b, raw_maps(2 * MiB, MAP_HUGETLB, HUGE_OPS));
		}
		bench_row(&(struct bench_row){ "aclrtMalloc+aclrtFree 2 MiB HUGE_ONLY",
					       "hugetlb mmap+touch+munmap", "", HUGE_OPS, 0, 0, "" }, &a, &b);
	}
	if (bench_selected("alloc/free 2")) {
		scaling_row("alloc/free 64 B, 2 threads", "the same, 1 thread", ">=1.5x", 2, 0, 0);
		scaling_row("null ioctl pairs, 2 threads", "the same, 1 thread", "", 2, 0, 1);
		scaling_row("alloc/free 64 B, 2 processes", "the same, 1 process", "", 2, 1, 0);
	}
	if (bench_selected("alloc/free 8 threads")) {
		a.n = b.n = 0;
		for (int r = 0; r < reps; r++) {
			bench_add(&a, threaded(THREADS, SMALL_OPS * 2, 0));
			bench_add(&b, threaded(1, SMALL_OPS * 2, 0));
		}
		bench_row(&(struct bench_row){ "alloc/free 64 B, 8 threads", "the same, 1 thread",
					       ">=1.0x", SMALL_OPS * 2, 0, 1,
					       "throughput ratio 8 threads / 1 thread, one process, 2 vCPUs" },
			  &a, &b);
	}
}
