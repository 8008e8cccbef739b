/*
 * Shared helpers of the npu_sim benchmarks (make bench): a clock, samples
 * with median and spread, one table row per measurement (printed and
 * appended to a CSV), and the knobs every topic file reads.
 *
 * A row compares an npu_sim operation with the primitive it stands in for,
 * timed alternately in the same run (rep 1 npu_sim, rep 1 primitive,
 * rep 2 ...), so a busy host slows both alike; the ratio is the median
 * npu_sim time over the median primitive time (lower is better) unless the
 * row says otherwise.  Timings only inform: nothing here asserts a speed.
 */
#ifndef NPU_BENCH_H
#define NPU_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <acl/acl.h>

#define KiB (1024UL)
#define MiB (1024UL * 1024UL)
#define GiB (1024UL * MiB)

#define BENCH_MAX_REPS 64

/* Seconds on CLOCK_MONOTONIC. */
double bench_now(void);

/* Exit with a message unless err is ACL_SUCCESS. */
void bench_check(aclError err, const char *what);

/* Repetitions per row (BENCH_REPS, default 5, at most BENCH_MAX_REPS). */
int bench_reps(void);

/* The scale of the "many allocations" rows (BENCH_SCALE, default 1000000). */
unsigned long bench_scale(void);

/* Largest copy in MiB (BENCH_COPY_MAX_MIB, default 1024). */
unsigned long bench_copy_max_mib(void);

/* Whether a row group named name is selected (BENCH_ONLY: comma-separated substrings; unset: all). */
int bench_selected(const char *name);

/* Samples of one side of a row: seconds per sample. */
struct bench_samples {
	int n;
	double t[BENCH_MAX_REPS];
};

void bench_add(struct bench_samples *s, double seconds);
double bench_median(const struct bench_samples *s);

/*
 * One row: ops (or bytes when bytes != 0) per sample on each side.
 * unit "us" prints microseconds per op, "MB/s" throughput of bytes.
 * ratio_mode 0: npu median / primitive median (time ratio);
 * ratio_mode 1: primitive median / npu median (throughput ratio, higher is
 * better; used for "8 threads vs 1").
 */
struct bench_row {
	const char *name;	/* measurement */
	const char *primitive;	/* what it is compared with */
	const char *target;	/* the target, "" if none */
	double ops;		/* operations per sample (both sides) */
	double bytes;		/* bytes per sample, 0 for op rows */
	int ratio_mode;
	const char *note;	/* "" or a remark printed after the row */
};

void bench_row(const struct bench_row *row, const struct bench_samples *npu,
	       const struct bench_samples *prim);

/* A line of its own in the table and the CSV (facts such as "fits: N"). */
void bench_fact(const char *name, const char *value, const char *target);

/* Open the CSV (path may be NULL) and print the table head. */
void bench_begin(const char *csv_path);
void bench_end(void);

/* Shared primitives. */
void bench_null_ioctl(void);		/* one ioctl that does nothing */
double bench_null_ioctls(int n);	/* seconds for n of them */
void *bench_host_buf(size_t len);	/* touched anonymous memory */

/* Topics (one file each). */
void bench_alloc(void);
void bench_copy(void);
void bench_info(void);
void bench_kernel(void);
void bench_lookup(void);
void bench_managed(void);
void bench_stream(void);
void bench_vmm(void);

#endif /* NPU_BENCH_H */
