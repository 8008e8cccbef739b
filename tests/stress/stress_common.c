// SPDX-License-Identifier: GPL-2.0
/* Shared helpers of the stress tests; see stress.h. */
#include "stress.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <misc/npu_sim.h>

static unsigned long st_checks, st_failures;

int st_long(void)
{
	const char *v = getenv("NPU_SIM_STRESS");

	return v != NULL && strcmp(v, "1") == 0;
}

unsigned long long st_env(const char *name, unsigned long long short_v,
			  unsigned long long long_v)
{
	const char *v = getenv(name);

	if (v != NULL && *v)
		return strtoull(v, NULL, 0);
	return st_long() ? long_v : short_v;
}

uint64_t st_seed(const char *test)
{
	const char *v = getenv("NPU_SIM_FUZZ_SEED");
	uint64_t seed;

	if (v != NULL && *v) {
		seed = strtoull(v, NULL, 0);
	} else {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
	}
	printf("%s: seed %llu (rerun with NPU_SIM_FUZZ_SEED=%llu)\n", test, (unsigned long long)seed,
	       (unsigned long long)seed);
	fflush(stdout);
	return seed;
}

void st_rng_init(struct st_rng *r, uint64_t seed)
{
	r->s = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
	if (r->s == 0)
		r->s = 1;
}

uint64_t st_rand(struct st_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

uint64_t st_below(struct st_rng *r, uint64_t n)
{
	return st_rand(r) % n;
}

void st_check(int ok, const char *fmt, ...)
{
	va_list ap;

	st_checks++;
	if (ok)
		return;
	st_failures++;
	printf("FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int st_summary(const char *test)
{
	unsigned long pct = st_checks ? (st_checks - st_failures) * 100 / st_checks : 0;

	printf("%s: %lu checks, %lu failed\n", test, st_checks, st_failures);
	printf("%lu%%: Checks: %lu, Failures: %lu, Errors: 0\n", pct, st_checks, st_failures);
	fflush(stdout);
	return st_failures || !st_checks ? 1 : 0;
}

double st_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- module and counters --------------------------------------------------- */

long long st_sysfs(int dev, const char *name)
{
	char path[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/npu_sim/npu_sim%d/%s", dev, name);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static long long meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long long v = -1;
	size_t n = strlen(key);

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, n) == 0 && line[n] == ':')
			v = strtoll(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

long st_contexts(int dev)
{
	char path[128], line[512];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/npu_sim/npu_sim%d/contexts", dev);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

int st_unload(void)
{
	return syscall(SYS_delete_module, "npu_sim", O_NONBLOCK) == 0 ? 0 : errno;
}

/* The module this run loaded (tools/npu-vm sets NPU_SIM_KO), else the build's. */
static const char *st_ko(void)
{
	const char *ko = getenv("NPU_SIM_KO");

	return ko && *ko ? ko : "kernel/npu_sim.ko";
}

int st_load(const char *params)
{
	int fd = open(st_ko(), O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, params ? params : "", 0) != 0)
		ret = errno;
	close(fd);
	return ret;
}

static int st_loaded(void)
{
	return access("/sys/module/npu_sim", F_OK) == 0;
}

void st_base_take(struct st_base *b)
{
	memset(b, 0, sizeof(*b));
	if (!st_loaded())
		st_check(st_load("") == 0, "load the module");
	b->hp_free = meminfo("HugePages_Free");
	while (b->ndev < 16 && (b->used[b->ndev] = st_sysfs(b->ndev, "used_bytes")) >= 0)
		b->ndev++;
	b->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (b->kmsg >= 0)
		lseek(b->kmsg, 0, SEEK_END);
}

/* Reports in the kernel log since the last call; counts them. */
static int kmsg_scan(struct st_base *b, const char *when)
{
	static const char *pat = "BUG|WARNING|Oops|general protection|lockdep|possible circular|"
				 "possible recursive|suspicious RCU|hung_task|blocked for more than|"
				 "KASAN|UBSAN|kmemleak|Call Trace|list_add corruption|list_del corruption|"
				 "refcount_t|sleeping function called";
	char rec[8192];
	regex_t re;
	int bad = 0;
	ssize_t n;

	if (b->kmsg < 0) {	/* a log that cannot be read proves nothing */
		printf("%s: kernel log: /dev/kmsg could not be opened\n", when);
		return 1;
	}
	if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB))
		return 1;
	for (;;) {
		n = read(b->kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		if (regexec(&re, rec, 0, NULL, 0) == 0) {
			if (bad++ < 20)
				printf("%s: kernel log: %s", when, rec);
		}
	}
	regfree(&re);
	return bad;
}

void st_base_check(struct st_base *b, const char *when)
{
	double until = st_now() + 60;
	long long hp, used;
	int dev, settled;

	/* releases may run from stream workers and RCU: wait for them, bounded */
	do {
		settled = meminfo("HugePages_Free") == b->hp_free;
		for (dev = 0; dev < b->ndev; dev++)
			settled &= st_sysfs(dev, "used_bytes") == b->used[dev] && st_contexts(dev) <= 0;
		if (!settled)
			usleep(100000);
	} while (!settled && st_now() < until);

	hp = meminfo("HugePages_Free");
	st_check(hp == b->hp_free, "%s: HugePages_Free %lld, baseline %lld", when, hp, b->hp_free);
	for (dev = 0; dev < b->ndev; dev++) {
		used = st_sysfs(dev, "used_bytes");
		st_check(used == b->used[dev], "%s: npu_sim%d used_bytes %lld, baseline %lld", when, dev, used,
			 b->used[dev]);
		st_check(st_contexts(dev) == 0, "%s: npu_sim%d has %ld contexts left", when, dev, st_contexts(dev));
	}
	st_check(kmsg_scan(b, when) == 0, "%s: kernel log free of BUG/WARNING/Oops/lockdep/hung-task/KASAN", when);
}

/* ---- raw device ------------------------------------------------------------ */

int st_open_mapped(int dev, uint64_t *win, uint64_t *win_len)
{
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	char path[64];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "/dev/npu_sim%d", dev);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp) != 0) {
		close(fd);
		return -1;
	}
	p = mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return -1;
	}
	*win = (uintptr_t)p;
	*win_len = gp.value;
	return fd;
}
