/*
 * The kernel's own calls against the null ioctl: what the machine the rows
 * run on charges for kernel work beyond syscall entry and exit.  The
 * per-call rows (Malloc+Free, Memcpy 64 B, GetMemInfo, VMM) divide an
 * ioctl that does work by one that does none; these rows show the same
 * ratio for calls npu_sim has nothing to do with, so a run in the guest
 * (QEMU TCG) and one on the host (`npu_bench --kernel-calls`, which
 * `make bench` runs first) tell how much of a per-call ratio the machine
 * makes.
 *
 * The cold-access row prices one memory access that misses everything
 * (a dependent load at a random line of 256 MiB: the emulator's software
 * TLB, the guest's page walk, the host's caches) against one that hits
 * (the same chase inside 4 KiB): the unit the rows at 1,000,000 live
 * allocations pay for each object a lookup touches that the run at 1 has
 * hot.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"

#define OPS 2000

static int pipe_fds[2];

static void kernel_rusage(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		abort();
}

static void kernel_pipe(void)
{
	char buf[64] = { 0 };

	if (write(pipe_fds[1], buf, sizeof(buf)) != sizeof(buf) ||
	    read(pipe_fds[0], buf, sizeof(buf)) != sizeof(buf))
		abort();
}

static void kernel_open(void)
{
	int fd = open("/dev/null", O_RDONLY);

	if (fd < 0)
		abort();
	close(fd);
}

static double calls(void (*fn)(void), int ops)
{
	double t = bench_now();

	for (int i = 0; i < ops; i++)
		fn();
	return bench_now() - t;
}

static void kernel_row(const char *name, void (*fn)(void))
{
	struct bench_samples a = { 0 }, b = { 0 };
	int reps = bench_reps();

	for (int r = 0; r < reps; r++) {
		bench_add(&a, calls(fn, OPS));
		bench_add(&b, bench_null_ioctls(OPS));
	}
	bench_row(&(struct bench_row){ name, "one null ioctl", "", OPS, 0, 0, "" }, &a, &b);
}

/* Steps per sample of the pointer chase, and the lines of each array. */
#define CHASE_STEPS 100000
#define LINE 64
#define COLD_BYTES (256UL << 20)
#define HOT_BYTES 4096UL

static uint64_t chase_rng = 0x9e3779b97f4a7c15ULL;

/*
 * An array of @bytes whose first word of each line holds the address of
 * the next line in one random cycle over all lines (Sattolo's shuffle), so
 * every load depends on the one before and the order defeats prefetch.
 */
static void **chase_make(size_t bytes)
{
	size_t n = bytes / LINE, stride = LINE / sizeof(void *);
	void **a = aligned_alloc(4096, bytes);
	size_t *perm = malloc(n * sizeof(*perm));

	if (a == NULL || perm == NULL)
		abort();
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j, t;

		chase_rng ^= chase_rng << 13;
		chase_rng ^= chase_rng >> 7;
		chase_rng ^= chase_rng << 17;
		j = (size_t)(chase_rng % i);
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		a[perm[i] * stride] = &a[perm[(i + 1) % n] * stride];
	free(perm);
	return a;
}

/* @steps loads from *@cur on, which is left where the chase stopped. */
static double chase(void ***cur, int steps)
{
	void **p = *cur;
	double t = bench_now();

	/* volatile: each load happens, in order. */
	for (int i = 0; i < steps; i++)
		p = *(void **volatile *)p;
	t = bench_now() - t;
	*cur = p;
	return t;
}

static void cold_access_row(void)
{
	struct bench_samples a = { 0 }, b = { 0 };
	void **cold = chase_make(COLD_BYTES), **hot = chase_make(HOT_BYTES);
	void **c = cold, **h = hot;
	int reps = bench_reps();

	/* 4 Mi lines in the cold cycle: no sample comes back to a line. */
	chase(&h, CHASE_STEPS);
	for (int r = 0; r < reps; r++) {
		bench_add(&a, chase(&c, CHASE_STEPS));
		bench_add(&b, chase(&h, CHASE_STEPS));
	}
	bench_row(&(struct bench_row){ "kernel calls: cold memory access (chase, 256 MiB random)",
				       "the same chase in 4 KiB", "", CHASE_STEPS, 0, 0, "" },
		  &a, &b);
	free(cold);
	free(hot);
}

void bench_kernel(void)
{
	if (!bench_selected("kernel calls"))
		return;
	if (pipe(pipe_fds))
		abort();
	kernel_row("kernel calls: getrusage (counters, 144 B out)", kernel_rusage);
	kernel_row("kernel calls: pipe write+read 64 B", kernel_pipe);
	kernel_row("kernel calls: open+close /dev/null", kernel_open);
	cold_access_row();
	close(pipe_fds[0]);
	close(pipe_fds[1]);
}
