/*
 * Scale rows: pointer lookups, small copies and free/alloc churn with
 * BENCH_SCALE (default 1000000, the figure) live 64 B
 * allocations against the same with one, and how many 64 B allocations the
 * device holds and what each costs.  The two sides cannot be interleaved
 * (the population is either 1 or N), so "at 1" runs first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define OPS 2000

static uint64_t rng = 88172645463325252ULL;

static unsigned long rnd(unsigned long n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned long)(rng % n);
}

/* Kernel slab bytes (Slab in /proc/meminfo). */
static long long slab_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long long kb = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

static size_t hbm_used(void)
{
	size_t free_b, total;

	bench_check(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total), "aclrtGetMemInfo");
	return total - free_b;
}

struct pop {
	void **p;
	unsigned long n;
};

/*
 * The pointers of a sample, gathered from the population before the clock
 * starts: the bench's own 8 MB pointer array is not part of the call, and
 * at 1 it is one hot word.  first[i] is the first sample position naming
 * the same allocation as position i, so a churn that frees and replaces it
 * twice works on the one current pointer.
 */
struct sample {
	void *ptr[OPS];
	int first[OPS];
};

static void gather(const struct pop *pp, const unsigned long *idx, struct sample *s)
{
	for (int i = 0; i < OPS; i++) {
		s->first[i] = i;
		for (int j = 0; j < i; j++)
			if (idx[j] == idx[i]) {
				s->first[i] = j;
				break;
			}
		s->ptr[i] = pp->p[idx[i]];
	}
}

static double lookups(const struct sample *s)
{
	aclrtPtrAttributes attr;
	double t = bench_now();

	for (int i = 0; i < OPS; i++)
		bench_check(aclrtPointerGetAttributes((char *)s->ptr[i] + 8, &attr),
			    "aclrtPointerGetAttributes");
	return bench_now() - t;
}

static double small_h2d(const struct sample *s, const char *host)
{
	double t = bench_now();

	for (int i = 0; i < OPS; i++)
		bench_check(aclrtMemcpy(s->ptr[i], 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE),
			    "aclrtMemcpy");
	return bench_now() - t;
}

/* Frees and replaces the sample's allocations, then puts them back in pp. */
static double churn(struct pop *pp, const unsigned long *idx, struct sample *s)
{
	double t = bench_now();

	for (int i = 0; i < OPS; i++) {
		void **slot = &s->ptr[s->first[i]];

		bench_check(aclrtFree(*slot), "aclrtFree");
		bench_check(aclrtMalloc(slot, 64, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
	}
	t = bench_now() - t;
	for (int i = 0; i < OPS; i++)
		pp->p[idx[i]] = s->ptr[s->first[i]];
	return t;
}

/* reps samples of each operation at population pp. */
static void measure(struct pop *pp, struct bench_samples *look, struct bench_samples *copy,
		    struct bench_samples *chrn, const char *host)
{
	static unsigned long idx[OPS];
	static struct sample s;
	int reps = bench_reps();

	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < OPS; i++)
			idx[i] = rnd(pp->n);
		gather(pp, idx, &s);
		bench_add(look, lookups(&s));
		bench_add(copy, small_h2d(&s, host));
		bench_add(chrn, churn(pp, idx, &s));
	}
}

void bench_lookup(void)
{
	struct bench_samples l1 = { 0 }, c1 = { 0 }, h1 = { 0 }, ln = { 0 }, cn = { 0 }, hn = { 0 };
	unsigned long want = bench_scale();
	struct pop pop = { calloc(want, sizeof(void *)), 0 };
	char host[64], fact[128], name[96];
	long long slab0, slab1;
	size_t used0, used1;
	double t;

	if (!bench_selected("live allocations"))
		return;
	memset(host, 0x11, sizeof(host));
	used0 = hbm_used();
	slab0 = slab_bytes();
	t = bench_now();
	for (pop.n = 0; pop.n < want; pop.n++)
		if (aclrtMalloc(&pop.p[pop.n], 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
			break;
	t = bench_now() - t;
	used1 = hbm_used();
	slab1 = slab_bytes();
	snprintf(name, sizeof(name), "%lu x 64 B allocations fit", want);
	snprintf(fact, sizeof(fact), "%lu fit; %.0f B device, %.0f B slab each; %.1f us each",
		 pop.n, pop.n ? (double)(used1 - used0) / pop.n : 0.0,
		 pop.n ? (double)(slab1 - slab0) / pop.n : 0.0, pop.n ? t / pop.n * 1e6 : 0.0);
	bench_fact(name, fact, "fit,<=300B");
	if (pop.n < 2)
		goto out;

	/* at 1: free all but one, measure, refill, measure at N */
	{
		struct pop one = { pop.p, 1 };
		unsigned long n = pop.n;

		for (unsigned long i = 1; i < n; i++)
			bench_check(aclrtFree(pop.p[i]), "aclrtFree");
		measure(&one, &l1, &c1, &h1, host);
		for (unsigned long i = 1; i < n; i++)
			bench_check(aclrtMalloc(&pop.p[i], 64, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
		measure(&pop, &ln, &cn, &hn, host);
	}
	snprintf(name, sizeof(name), "PointerGetAttributes at %lu live allocations", pop.n);
	bench_row(&(struct bench_row){ name, "the same at 1, random ptrs", "<=1.3", OPS, 0, 0, "" }, &ln,
		  &l1);
	snprintf(name, sizeof(name), "aclrtMemcpy 64 B H2D at %lu live allocations", pop.n);
	bench_row(&(struct bench_row){ name, "the same at 1, random ptrs", "<=1.3", OPS, 0, 0, "" }, &cn,
		  &c1);
	snprintf(name, sizeof(name), "free-random+alloc at %lu live allocations", pop.n);
	bench_row(&(struct bench_row){ name, "the same at 1", "<=1.3", OPS, 0, 0, "" }, &hn, &h1);
out:
	for (unsigned long i = 0; i < pop.n; i++)
		bench_check(aclrtFree(pop.p[i]), "aclrtFree");
	free(pop.p);
}
