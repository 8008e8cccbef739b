/*
 * The race checker's pure parts (lib/diag/races_shadow.c, races_clock.c):
 * vector clock joins, and the shadow's segments: which earlier accesses a
 * new one is told about (exactly those not ordered before it, one a
 * write), splits and merges of ranges, reads that do not race, value
 * ops that do not race each other, freed ranges, erase.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/diag/races_clock.h"
#include "../../lib/diag/races_shadow.h"
#include "unit_run.h"

struct hit {
	struct npu_rt_race_op *prev;
	bool prev_write;
	uintptr_t lo, hi;
};

static struct hit hits[16];
static int nhits;

static void found(void *ctx, struct npu_rt_race_op *prev, bool prev_write, uintptr_t lo, uintptr_t hi)
{
	(void)ctx;
	ck_assert_int_lt(nhits, 16);
	hits[nhits++] = (struct hit){ prev, prev_write, lo, hi };
}

static struct npu_rt_race_op *op(uint32_t agent, uint32_t clock)
{
	struct npu_rt_race_op *o = calloc(1, sizeof(*o));

	o->refs = 1;
	o->agent = agent;
	o->clock = clock;
	return o;
}

/* v = { a0: c0, a1: c1, a2: c2 } */
static void clock3(struct npu_rt_vc *v, uint32_t c0, uint32_t c1, uint32_t c2)
{
	npu_rt_vc_set(v, 0, c0);
	npu_rt_vc_set(v, 1, c1);
	npu_rt_vc_set(v, 2, c2);
}

START_TEST(clock_join_copy)
{
	struct npu_rt_vc a = { 0 }, b = { 0 };

	clock3(&a, 1, 5, 0);
	npu_rt_vc_set(&b, 3, 7);
	npu_rt_vc_set(&b, 1, 2);
	ck_assert(npu_rt_vc_join(&a, &b));
	ck_assert_uint_eq(a.n, 4);
	ck_assert_uint_eq(npu_rt_vc_get(&a, 0), 1);
	ck_assert_uint_eq(npu_rt_vc_get(&a, 1), 5);
	ck_assert_uint_eq(npu_rt_vc_get(&a, 3), 7);
	ck_assert_uint_eq(npu_rt_vc_get(&a, 9), 0);
	ck_assert(npu_rt_vc_copy(&b, &a));
	ck_assert_uint_eq(b.n, 4);
	ck_assert_uint_eq(npu_rt_vc_get(&b, 1), 5);
	npu_rt_vc_clear(&b);
	ck_assert_uint_eq(npu_rt_vc_get(&b, 1), 0);
	npu_rt_vc_free(&a);
	npu_rt_vc_free(&b);
}
END_TEST

START_TEST(write_then_unordered_read)
{
	struct npu_rt_vc v1 = { 0 }, v2 = { 0 };
	struct npu_rt_race_op *w = op(1, 1), *r = op(2, 1);

	nhits = 0;
	clock3(&v1, 1, 1, 0);
	npu_rt_shadow_access(w, &v1, 0x1000, 0x2000, true, found, NULL);
	ck_assert_int_eq(nhits, 0);
	ck_assert_uint_eq(npu_rt_shadow_segments(), 1);
	clock3(&v2, 1, 0, 1);	/* stream 2 has not seen stream 1 */
	npu_rt_shadow_access(r, &v2, 0x1800, 0x2800, false, found, NULL);
	ck_assert_int_eq(nhits, 1);
	ck_assert_ptr_eq(hits[0].prev, w);
	ck_assert(hits[0].prev_write);
	ck_assert_uint_eq(hits[0].lo, 0x1000);
	ck_assert_uint_eq(hits[0].hi, 0x2000);
	/* [0x1000,0x1800) w; [0x1800,0x2000) w + r; [0x2000,0x2800) r */
	ck_assert_uint_eq(npu_rt_shadow_segments(), 3);
	npu_rt_race_op_put(w);
	npu_rt_race_op_put(r);
	npu_rt_shadow_erase(0, 0x10000);
	ck_assert_uint_eq(npu_rt_shadow_segments(), 0);
	npu_rt_vc_free(&v1);
	npu_rt_vc_free(&v2);
}
END_TEST

START_TEST(ordered_and_read_read)
{
	struct npu_rt_vc v = { 0 };
	struct npu_rt_race_op *w = op(1, 3), *r1 = op(2, 1), *r2 = op(0, 4), *w2 = op(2, 2);

	nhits = 0;
	clock3(&v, 0, 3, 0);
	npu_rt_shadow_access(w, &v, 0x1000, 0x1100, true, found, NULL);
	clock3(&v, 0, 3, 1);	/* after an event of stream 1 at 3 */
	npu_rt_shadow_access(r1, &v, 0x1000, 0x1100, false, found, NULL);
	clock3(&v, 4, 3, 0);	/* the host synchronized stream 1 */
	npu_rt_shadow_access(r2, &v, 0x1000, 0x1100, false, found, NULL);
	ck_assert_int_eq(nhits, 0);	/* ordered writes, reads do not race */
	/* a write of stream 2 after its own read but not after the host's */
	clock3(&v, 0, 3, 2);
	npu_rt_shadow_access(w2, &v, 0x1080, 0x1090, true, found, NULL);
	ck_assert_int_eq(nhits, 1);
	ck_assert_ptr_eq(hits[0].prev, r2);
	ck_assert(!hits[0].prev_write);
	npu_rt_race_op_put(w);
	npu_rt_race_op_put(r1);
	npu_rt_race_op_put(r2);
	npu_rt_race_op_put(w2);
	npu_rt_shadow_erase(0, 0x10000);
	npu_rt_vc_free(&v);
}
END_TEST

START_TEST(value_ops_and_free)
{
	struct npu_rt_vc v = { 0 };
	struct npu_rt_race_op *vw = op(1, 1), *vwait = op(2, 1), *fr = op(1, 2), *late = op(1, 3), *cp = op(0, 1);

	nhits = 0;
	vw->atomic = vwait->atomic = true;
	clock3(&v, 0, 1, 0);
	npu_rt_shadow_access(vw, &v, 0x40, 0x48, true, found, NULL);
	clock3(&v, 0, 0, 1);
	npu_rt_shadow_access(vwait, &v, 0x40, 0x48, false, found, NULL);
	ck_assert_int_eq(nhits, 0);	/* the synchronization itself */
	clock3(&v, 1, 0, 0);
	npu_rt_shadow_access(cp, &v, 0x40, 0x48, true, found, NULL);
	ck_assert_int_eq(nhits, 0);	/* a copy that writes the flag releases the wait */
	/* a stream-ordered free: recorded without checks, then any use is told */
	fr->kind = NPU_RT_ROP_FREE;
	clock3(&v, 1, 2, 1);
	npu_rt_shadow_scan(&v, 0x40, 0x48, found, NULL);
	ck_assert_int_eq(nhits, 0);	/* both ordered before the free */
	npu_rt_shadow_access(fr, &v, 0, 0x100, true, NULL, NULL);
	ck_assert_uint_eq(npu_rt_shadow_segments(), 1);
	clock3(&v, 0, 3, 1);
	npu_rt_shadow_access(late, &v, 0x80, 0x90, false, found, NULL);
	ck_assert_int_eq(nhits, 1);
	ck_assert_ptr_eq(hits[0].prev, fr);
	npu_rt_race_op_put(vw);
	npu_rt_race_op_put(vwait);
	npu_rt_race_op_put(fr);
	npu_rt_race_op_put(late);
	npu_rt_race_op_put(cp);
	npu_rt_shadow_erase(0, 0x10000);
	npu_rt_vc_free(&v);
}
END_TEST

START_TEST(many_ranges_stay_sorted)
{
	struct npu_rt_vc v = { 0 };
	struct npu_rt_race_op *w = op(1, 1);

	nhits = 0;
	clock3(&v, 0, 1, 0);
	for (uintptr_t i = 1000; i > 0; i--)	/* inserted in reverse order */
		npu_rt_shadow_access(w, &v, i * 0x100, i * 0x100 + 0x10, true, found, NULL);
	ck_assert_uint_eq(npu_rt_shadow_segments(), 1000);
	/* one write over all of them merges them into one */
	npu_rt_shadow_access(w, &v, 0x100, 1001 * 0x100, true, found, NULL);
	ck_assert_uint_eq(npu_rt_shadow_segments(), 1);
	ck_assert_int_eq(nhits, 0);
	npu_rt_shadow_erase(0x200, 0x300);
	ck_assert_uint_eq(npu_rt_shadow_segments(), 2);
	npu_rt_shadow_erase(0, 0x100000);
	ck_assert_uint_eq(npu_rt_shadow_segments(), 0);
	ck_assert_uint_eq(w->refs, 1);	/* every segment's reference given back */
	npu_rt_race_op_put(w);
	npu_rt_vc_free(&v);
}
END_TEST

static Suite *races_suite(void)
{
	Suite *s = suite_create("races_shadow");
	TCase *tc = tcase_create("shadow");

	tcase_add_test(tc, clock_join_copy);
	tcase_add_test(tc, write_then_unordered_read);
	tcase_add_test(tc, ordered_and_read_read);
	tcase_add_test(tc, value_ops_and_free);
	tcase_add_test(tc, many_ranges_stay_sorted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(races_suite());
}
