/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the stress tests (tests/stress): sizes from the
 * environment (short variants by default, long ones with NPU_SIM_STRESS=1),
 * a seeded generator, counted checks printed as a Check-format summary line,
 * and the after-checks every stress test ends with: the kernel log free of
 * BUG/WARNING/Oops/lockdep/hung-task/KASAN reports, HugePages_Free and the
 * devices' used_bytes back at their baseline, no context left open.
 *
 * Plain C without Check: the tests fork, kill and reload the module; only
 * the parent counts checks.  Run as root in the test guest, cwd = repo root.
 */
#ifndef NPU_SIM_STRESS_H
#define NPU_SIM_STRESS_H

#include <stdint.h>
#include <sys/types.h>

#define MiB (1024ULL * 1024)

/* NPU_SIM_STRESS=1: the long variants. */
int st_long(void);
/* Number from environment variable @name, else @short_v or @long_v. */
unsigned long long st_env(const char *name, unsigned long long short_v,
			  unsigned long long long_v);
/* NPU_SIM_FUZZ_SEED or a seed from the clock; printed either way. */
uint64_t st_seed(const char *test);

/* xorshift64* generator; never returns the same stream for two seeds. */
struct st_rng {
	uint64_t s;
};
void st_rng_init(struct st_rng *r, uint64_t seed);
uint64_t st_rand(struct st_rng *r);
/* Uniform in [0, n), n > 0. */
uint64_t st_below(struct st_rng *r, uint64_t n);

/* Counted check: prints "FAIL <what>" when @ok is false. */
void st_check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "NN%: Checks: C, Failures: F, Errors: 0"; returns the exit status. */
int st_summary(const char *test);

/* Monotonic seconds. */
double st_now(void);

/* ---- the after-checks ---------------------------------------------------- */

struct st_base {
	long long hp_free;		/* /proc/meminfo HugePages_Free */
	long long used[16];		/* sysfs used_bytes of each device */
	int ndev;
	int kmsg;			/* /dev/kmsg positioned at the end */
};

/* Module loaded (insmod $NPU_SIM_KO, else kernel/npu_sim.ko, if not), baseline taken. */
void st_base_take(struct st_base *b);
/*
 * The after-checks (counted): waits (bounded) for asynchronous releases,
 * then HugePages_Free, used_bytes, contexts and the kernel log since
 * st_base_take.  Keeps the baseline usable for another round.
 */
void st_base_check(struct st_base *b, const char *when);
/* Lines of debugfs npu_sim<dev>/contexts after the header. */
long st_contexts(int dev);
/* A sysfs attribute of device @dev as a number, -1 unreadable. */
long long st_sysfs(int dev, const char *name);
/* delete_module("npu_sim"): 0 or errno. */
int st_unload(void);
/* insmod $NPU_SIM_KO (else kernel/npu_sim.ko) with @params: 0 or the errno. */
int st_load(const char *params);

/* ---- the device from user space (raw UAPI) -------------------------------- */

/* Opens /dev/npu_sim<dev> and maps its window (start and length to @win, @win_len). */
int st_open_mapped(int dev, uint64_t *win, uint64_t *win_len);

#endif /* NPU_SIM_STRESS_H */
