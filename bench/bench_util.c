/*
 * Timing, statistics and output of the npu_sim benchmarks: see bench.h.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static FILE *csv;

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void bench_check(aclError err, const char *what)
{
	if (err != ACL_SUCCESS) {
		fprintf(stderr, "bench: %s failed: %d\n", what, err);
		exit(1);
	}
}

static unsigned long env_ulong(const char *name, unsigned long def, unsigned long min,
			       unsigned long max)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	if (s == NULL || *s == '\0')
		return def;
	v = strtoul(s, &end, 10);
	if (*end != '\0' || v < min || v > max) {
		fprintf(stderr, "bench: %s=%s is not in %lu..%lu\n", name, s, min, max);
		exit(2);
	}
	return v;
}

int bench_reps(void)
{
	return (int)env_ulong("BENCH_REPS", 5, 1, BENCH_MAX_REPS);
}

unsigned long bench_scale(void)
{
	return env_ulong("BENCH_SCALE", 1000000, 1, 10000000);
}

unsigned long bench_copy_max_mib(void)
{
	return env_ulong("BENCH_COPY_MAX_MIB", 1024, 1, 1024);
}

int bench_selected(const char *name)
{
	const char *only = getenv("BENCH_ONLY");
	char buf[256], *tok, *save;

	if (only == NULL || *only == '\0')
		return 1;
	snprintf(buf, sizeof(buf), "%s", only);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (strstr(name, tok) != NULL)
			return 1;
	return 0;
}

void bench_add(struct bench_samples *s, double seconds)
{
	if (s->n < BENCH_MAX_REPS)
		s->t[s->n++] = seconds;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stats {
	double med, min, max;
};

static struct stats stats_of(const struct bench_samples *s)
{
	double t[BENCH_MAX_REPS];
	struct stats st;
	int n = s->n;

	memcpy(t, s->t, sizeof(double) * n);
	qsort(t, n, sizeof(double), cmp_double);
	st.med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	st.min = t[0];
	st.max = t[n - 1];
	return st;
}

double bench_median(const struct bench_samples *s)
{
	return stats_of(s).med;
}

/* A time in seconds per sample as the row's unit. */
static double in_unit(const struct bench_row *row, double seconds)
{
	if (row->bytes)
		return row->bytes / seconds / 1e6;	/* MB/s */
	return seconds / row->ops * 1e6;		/* us/op */
}

void bench_begin(const char *csv_path)
{
	if (csv_path != NULL) {
		csv = fopen(csv_path, "w");
		if (csv == NULL)
			perror(csv_path);
		else
			fprintf(csv, "measurement,primitive,unit,npu_median,npu_min,npu_max,"
				     "prim_median,prim_min,prim_max,ratio,target,reps,note\n");
	}
	printf("npu_sim benchmarks: median [min-max] of %d repetitions, npu_sim and primitive "
	       "interleaved.\nratio = npu_sim time / primitive time (lower is better) unless "
	       "marked (x = throughput ratio, higher is better).\n\n", bench_reps());
	printf("%-46s %-30s %24s %24s %8s %8s\n", "measurement", "primitive", "npu_sim",
	       "primitive", "ratio", "target");
}

void bench_end(void)
{
	if (csv != NULL)
		fclose(csv);
	csv = NULL;
}

static void csv_field(const char *s)
{
	fputc('"', csv);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', csv);
		fputc(*s, csv);
	}
	fputc('"', csv);
}

void bench_row(const struct bench_row *row, const struct bench_samples *npu,
	       const struct bench_samples *prim)
{
	struct stats a = stats_of(npu), b = stats_of(prim);
	const char *unit = row->bytes ? "MB/s" : "us/op";
	double ratio = row->ratio_mode ? b.med / a.med : a.med / b.med;
	char l[64], r[64];
	/* throughput: the fastest sample (min time) is the max figure */
	double alo = in_unit(row, row->bytes ? a.max : a.min), ahi = in_unit(row, row->bytes ? a.min : a.max);
	double blo = in_unit(row, row->bytes ? b.max : b.min), bhi = in_unit(row, row->bytes ? b.min : b.max);

	snprintf(l, sizeof(l), "%.4g %s [%.3g-%.3g]", in_unit(row, a.med), unit, alo, ahi);
	snprintf(r, sizeof(r), "%.4g %s [%.3g-%.3g]", in_unit(row, b.med), unit, blo, bhi);
	printf("%-46s %-30s %24s %24s %7.2f%s %8s\n", row->name, row->primitive, l, r, ratio,
	       row->ratio_mode ? "x" : " ", row->target);
	if (row->note && *row->note)
		printf("    %s\n", row->note);
	fflush(stdout);
	if (csv == NULL)
		return;
	csv_field(row->name);
	fputc(',', csv);
	csv_field(row->primitive);
	fprintf(csv, ",%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4f,", unit, in_unit(row, a.med), alo, ahi,
		in_unit(row, b.med), blo, bhi, ratio);
	csv_field(row->target);
	fprintf(csv, ",%d,", npu->n);
	csv_field(row->note ? row->note : "");
	fputc('\n', csv);
	fflush(csv);
}

void bench_fact(const char *name, const char *value, const char *target)
{
	printf("%-46s %-30s %-49s %8s %8s\n", name, "", value, "", target);
	fflush(stdout);
	if (csv == NULL)
		return;
	csv_field(name);
	fprintf(csv, ",\"\",fact,,,,,,,,");
	csv_field(target);
	fprintf(csv, ",,");
	csv_field(value);
	fputc('\n', csv);
	fflush(csv);
}

void bench_null_ioctl(void)
{
	static int fd = -1;

	if (fd < 0)
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	(void)ioctl(fd, 0x1234, 0);	/* ENOTTY: syscall entry and exit only */
}

double bench_null_ioctls(int n)
{
	double t = bench_now();

	for (int i = 0; i < n; i++)
		bench_null_ioctl();
	return bench_now() - t;
}

void *bench_host_buf(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("bench: mmap");
		exit(1);
	}
	memset(p, 0x5a, len);
	return p;
}
