/*
 * The shadow of memory (races_shadow.h): a sorted array of disjoint
 * segments [lo, hi), each with its last writer and last readers.
 */
#include <stdlib.h>
#include <string.h>

#include "races_shadow.h"

struct seg {
	uintptr_t lo, hi;
	struct npu_rt_race_op *w;
	struct npu_rt_race_op *r[NPU_RT_SHADOW_READS];
	uint32_t nr;
};

static struct seg *segs;
static size_t nseg, capseg;

void npu_rt_race_op_put(struct npu_rt_race_op *op)
{
	if (op != NULL && --op->refs == 0)
		free(op);
}

static void seg_release(struct seg *s)
{
	npu_rt_race_op_put(s->w);
	for (uint32_t i = 0; i < s->nr; i++)
		npu_rt_race_op_put(s->r[i]);
	s->w = NULL;
	s->nr = 0;
}

static void seg_hold(struct seg *s)
{
	if (s->w != NULL)
		s->w->refs++;
	for (uint32_t i = 0; i < s->nr; i++)
		s->r[i]->refs++;
}

/* First segment with hi > p. */
static size_t first_above(uintptr_t p)
{
	size_t lo = 0, hi = nseg;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (segs[mid].hi <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room for one more segment at index at (moved up). */
static bool insert_at(size_t at)
{
	if (nseg == capseg) {
		size_t cap = capseg ? capseg * 2 : 64;
		struct seg *n = realloc(segs, cap * sizeof(*n));

		if (n == NULL)
			return false;
		segs = n;
		capseg = cap;
	}
	memmove(&segs[at + 1], &segs[at], (nseg - at) * sizeof(*segs));
	nseg++;
	return true;
}

/* Split segment k at p (lo < p < hi): k keeps [lo, p), k + 1 gets [p, hi). */
static bool split(size_t k, uintptr_t p)
{
	if (!insert_at(k + 1))
		return false;
	segs[k + 1] = segs[k];
	seg_hold(&segs[k + 1]);
	segs[k].hi = p;
	segs[k + 1].lo = p;
	return true;
}

/* Make [lo, hi) exactly the segments [*i, *j), adding empty ones in gaps. */
static bool isolate(uintptr_t lo, uintptr_t hi, size_t *i, size_t *j)
{
	size_t k = first_above(lo);
	uintptr_t pos = lo;

	if (k < nseg && segs[k].lo < lo) {
		if (!split(k, lo))
			return false;
		k++;
	}
	*i = k;
	while (pos < hi) {
		if (k < nseg && segs[k].lo <= pos) {
			if (segs[k].hi > hi && !split(k, hi))
				return false;
			pos = segs[k].hi;
			k++;
			continue;
		}
		uintptr_t end = k < nseg && segs[k].lo < hi ? segs[k].lo : hi;

		if (!insert_at(k))
			return false;
		segs[k] = (struct seg){ .lo = pos, .hi = end };
		pos = end;
		k++;
	}
	*j = k;
	return true;
}

/* Remove segments [i, j) (already released). */
static void remove_range(size_t i, size_t j)
{
	memmove(&segs[i], &segs[j], (nseg - j) * sizeof(*segs));
	nseg -= j - i;
}

static bool conflicts(const struct npu_rt_race_op *prev, const struct npu_rt_race_op *op,
		      const struct npu_rt_vc *v)
{
	if (prev == op)
		return false;
	if (prev->kind == NPU_RT_ROP_FREE)	/* any use of freed memory */
		return op != NULL && op->kind != NPU_RT_ROP_ALLOC;
	if (prev->atomic || (op != NULL && op->atomic))	/* a flag: polled by design */
		return false;
	return !npu_rt_race_hb(prev, v);
}

static void check_seg(const struct seg *s, struct npu_rt_race_op *op, const struct npu_rt_vc *v, bool write,
		      npu_rt_shadow_found found, void *ctx)
{
	if (s->w != NULL && conflicts(s->w, op, v))
		found(ctx, s->w, true, s->lo, s->hi);
	if (!write)
		return;
	for (uint32_t i = 0; i < s->nr; i++)
		if (conflicts(s->r[i], op, v))
			found(ctx, s->r[i], false, s->lo, s->hi);
}

static void add_reader(struct seg *s, struct npu_rt_race_op *op, const struct npu_rt_vc *v)
{
	uint32_t i;

	/* a read ordered before this one (or the same agent's) adds nothing a
	 * later write would not be told by this one */
	for (i = 0; i < s->nr; i++) {
		if (s->r[i] == op)
			return;
		if (s->r[i]->agent == op->agent || npu_rt_race_hb(s->r[i], v))
			break;
	}
	if (i == s->nr && s->nr < NPU_RT_SHADOW_READS)
		s->r[s->nr++] = NULL;
	else if (i == s->nr)
		i = 0;	/* full: the oldest goes */
	npu_rt_race_op_put(s->r[i]);
	op->refs++;
	s->r[i] = op;
}

void npu_rt_shadow_access(struct npu_rt_race_op *op, const struct npu_rt_vc *v, uintptr_t lo, uintptr_t hi,
			  bool write, npu_rt_shadow_found found, void *ctx)
{
	size_t i, j, k;

	if (hi <= lo)
		return;
	k = first_above(lo);
	for (; found != NULL && k < nseg && segs[k].lo < hi; k++)
		check_seg(&segs[k], op, v, write, found, ctx);
	if (!isolate(lo, hi, &i, &j))
		return;
	if (write) {
		for (k = i; k < j; k++)
			seg_release(&segs[k]);
		segs[i] = (struct seg){ .lo = lo, .hi = hi, .w = op };
		op->refs++;
		remove_range(i + 1, j);
		return;
	}
	for (k = i; k < j; k++)
		add_reader(&segs[k], op, v);
}

void npu_rt_shadow_scan(const struct npu_rt_vc *v, uintptr_t lo, uintptr_t hi, npu_rt_shadow_found found,
			void *ctx)
{
	for (size_t k = first_above(lo); k < nseg && segs[k].lo < hi; k++)
		check_seg(&segs[k], NULL, v, true, found, ctx);
}

void npu_rt_shadow_erase(uintptr_t lo, uintptr_t hi)
{
	size_t i, j;

	if (hi <= lo || !isolate(lo, hi, &i, &j))
		return;
	for (size_t k = i; k < j; k++)
		seg_release(&segs[k]);
	remove_range(i, j);
}

uint64_t npu_rt_shadow_segments(void)
{
	return nseg;
}
