/*
 * Information rows: aclrtGetMemInfo against one null ioctl, the syscall it
 * needs (one MEM_INFO ioctl answers it).
 */
#include "bench.h"

#define OPS 2000

static double mem_infos(int ops)
{
	double t = bench_now();
	size_t free_b, total_b;

	for (int i = 0; i < ops; i++)
		bench_check(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total_b), "aclrtGetMemInfo");
	return bench_now() - t;
}

void bench_info(void)
{
	struct bench_samples a = { 0 }, b = { 0 };
	int reps = bench_reps();

	if (!bench_selected("GetMemInfo"))
		return;
	for (int r = 0; r < reps; r++) {
		bench_add(&a, mem_infos(OPS));
		bench_add(&b, bench_null_ioctls(OPS));
	}
	bench_row(&(struct bench_row){ "aclrtGetMemInfo ACL_HBM_MEM", "one null ioctl", "<=2.0", OPS, 0, 0,
				       "" }, &a, &b);
}
