/*
 * The kernel's own calls against the null ioctl: what the machine the rows
 * run on charges for kernel work beyond syscall entry and exit.  The
 * per-call rows (Malloc+Free, Memcpy 64 B, GetMemInfo, VMM) divide an
 * ioctl that does work by one that does none; these rows show the same
 * ratio for calls npu_sim has nothing to do with, so a run in the guest
 * (QEMU TCG) and one on the host (`npu_bench --kernel-calls`, which
 * `make bench` runs first) tell how much of a per-call ratio the machine
 * makes.
 */
#include <fcntl.h>
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

void bench_kernel(void)
{
	if (!bench_selected("kernel calls"))
		return;
	if (pipe(pipe_fds))
		abort();
	kernel_row("kernel calls: getrusage (counters, 144 B out)", kernel_rusage);
	kernel_row("kernel calls: pipe write+read 64 B", kernel_pipe);
	kernel_row("kernel calls: open+close /dev/null", kernel_open);
	close(pipe_fds[0]);
	close(pipe_fds[1]);
}
