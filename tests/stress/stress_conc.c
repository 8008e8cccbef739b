// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency with data verification: 2 processes x 8 threads on device 0,
 * each thread in a loop allocating (random size and backing), writing a
 * pattern of its own (H2D), copying device to device, reading back (D2H),
 * setting, copying on its own stream asynchronously, and freeing; every
 * byte read back is compared with what was written.  Threads share nothing
 * but the device, the contexts and the driver's locks.
 *
 * Duration: NPU_SIM_CONC_SECONDS (10; 60 with NPU_SIM_STRESS=1).  Checks:
 * no mismatch and no failing call in any thread, then the after-checks.
 */
#include "stress.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>

#define THREADS 8
#define MAXSZ (3 * MiB)

struct result {
	unsigned long rounds, bytes, mismatches, errors;
	aclError first_error;
	int first_error_step;
};

struct thr {
	uint64_t seed;
	double end;
	struct result res;
};

static void fill(unsigned char *b, size_t n, uint64_t tag)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(tag + i * 131 + (i >> 12));
}

static void fail(struct result *res, int stepno, aclError rc)
{
	if (res->errors++ == 0) {
		res->first_error = rc;
		res->first_error_step = stepno;
	}
}

static void *thread_main(void *arg)
{
	struct thr *t = arg;
	unsigned char *a = malloc(MAXSZ), *b = malloc(MAXSZ);
	aclrtStream s = NULL;
	struct st_rng r;
	aclError rc;

	st_rng_init(&r, t->seed);
	if (a == NULL || b == NULL || (rc = aclrtSetDevice(0)) != ACL_SUCCESS ||
	    (rc = aclrtCreateStream(&s)) != ACL_SUCCESS) {
		fail(&t->res, 0, ACL_ERROR_RT_MEMORY_ALLOCATION);
		return NULL;
	}
	while (st_now() < t->end) {
		size_t n = 1 + st_below(&r, MAXSZ);
		aclrtMemMallocPolicy pol = st_below(&r, 2) ? ACL_MEM_MALLOC_HUGE_FIRST : ACL_MEM_MALLOC_NORMAL_ONLY;
		uint64_t tag = st_rand(&r);
		unsigned char v = (unsigned char)st_rand(&r);
		void *d1 = NULL, *d2 = NULL;

		if ((rc = aclrtMalloc(&d1, n, pol)) != ACL_SUCCESS) {
			fail(&t->res, 1, rc);
			continue;
		}
		if ((rc = aclrtMalloc(&d2, n, pol)) != ACL_SUCCESS) {
			fail(&t->res, 2, rc);
			(void)aclrtFree(d1);
			continue;
		}
		fill(a, n, tag);
		if ((rc = aclrtMemcpy(d1, n, a, n, ACL_MEMCPY_HOST_TO_DEVICE)) ||
		    (rc = aclrtMemcpy(d2, n, d1, n, ACL_MEMCPY_DEVICE_TO_DEVICE)) ||
		    (rc = aclrtMemcpy(b, n, d2, n, ACL_MEMCPY_DEVICE_TO_HOST))) {
			fail(&t->res, 3, rc);
		} else if (memcmp(a, b, n) != 0) {
			t->res.mismatches++;
		}
		/* set, then an asynchronous copy back on the thread's stream */
		if ((rc = aclrtMemset(d1, n, v, n)) ||
		    (rc = aclrtMemcpyAsync(b, n, d1, n, ACL_MEMCPY_DEVICE_TO_HOST, s)) ||
		    (rc = aclrtSynchronizeStream(s))) {
			fail(&t->res, 4, rc);
		} else {
			for (size_t i = 0; i < n; i++)
				if (b[i] != v) {
					t->res.mismatches++;
					break;
				}
		}
		if ((rc = aclrtFree(d1)) || (rc = aclrtFree(d2)))
			fail(&t->res, 5, rc);
		t->res.rounds++;
		t->res.bytes += n;
	}
	(void)aclrtDestroyStream(s);
	free(a);
	free(b);
	return NULL;
}

static int process_main(uint64_t seed, double secs, struct result *out)
{
	pthread_t th[THREADS];
	struct thr t[THREADS];
	double end;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	end = st_now() + secs;
	for (int i = 0; i < THREADS; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].seed = seed * 16 + (uint64_t)i;
		t[i].end = end;
		if (pthread_create(&th[i], NULL, thread_main, &t[i]))
			return 2;
	}
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		out->rounds += t[i].res.rounds;
		out->bytes += t[i].res.bytes;
		out->mismatches += t[i].res.mismatches;
		if (t[i].res.errors && !out->errors) {
			out->first_error = t[i].res.first_error;
			out->first_error_step = t[i].res.first_error_step;
		}
		out->errors += t[i].res.errors;
	}
	return aclrtResetDevice(0) || aclFinalize() ? 3 : 0;
}

int main(void)
{
	uint64_t seed = st_seed("stress_conc");
	double secs = (double)st_env("NPU_SIM_CONC_SECONDS", 10, 60);
	struct result *res;
	struct st_base base;
	pid_t pids[2];
	int st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	st_base_take(&base);
	res = mmap(NULL, 2 * sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	st_check(res != MAP_FAILED, "shared page");
	if (res == MAP_FAILED)
		return st_summary("stress_conc");
	printf("stress_conc: 2 processes x %d threads, %.0f s\n", THREADS, secs);
	for (int i = 0; i < 2; i++) {
		fflush(NULL);
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(process_main(seed + (uint64_t)i, secs, &res[i]));
	}
	for (int i = 0; i < 2; i++) {
		st_check(waitpid(pids[i], &st, 0) == pids[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0,
			 "process %d ended with status 0x%x", i, st);
		printf("stress_conc: process %d: %lu rounds, %llu MiB verified, %lu mismatches, %lu failed calls\n",
		       i, res[i].rounds, (unsigned long long)(res[i].bytes / MiB), res[i].mismatches, res[i].errors);
		st_check(res[i].rounds > 0, "process %d made progress", i);
		st_check(res[i].mismatches == 0, "process %d: %lu data mismatches", i, res[i].mismatches);
		st_check(res[i].errors == 0, "process %d: %lu failed calls (first: %d at step %d)", i,
			 res[i].errors, (int)res[i].first_error, res[i].first_error_step);
	}
	st_base_check(&base, "after the concurrency run");
	return st_summary("stress_conc");
}
