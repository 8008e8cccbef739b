/*
 * Vector clocks (races_clock.h): dense arrays indexed by agent id; the race
 * checker reuses the ids of destroyed streams, so they stay short.
 */
#include <stdlib.h>
#include <string.h>

#include "races_clock.h"

static bool grow(struct npu_rt_vc *v, uint32_t n)
{
	uint32_t cap;
	uint32_t *c;

	if (n <= v->n)
		return true;
	if (n > v->cap) {
		cap = v->cap ? v->cap : 8;
		while (cap < n)
			cap *= 2;
		c = realloc(v->c, cap * sizeof(*c));
		if (c == NULL)
			return false;
		v->c = c;
		v->cap = cap;
	}
	memset(v->c + v->n, 0, (n - v->n) * sizeof(*v->c));
	v->n = n;
	return true;
}

bool npu_rt_vc_set(struct npu_rt_vc *v, uint32_t a, uint32_t x)
{
	if (!grow(v, a + 1))
		return false;
	v->c[a] = x;
	return true;
}

bool npu_rt_vc_join(struct npu_rt_vc *d, const struct npu_rt_vc *s)
{
	if (!grow(d, s->n))
		return false;
	for (uint32_t i = 0; i < s->n; i++)
		if (s->c[i] > d->c[i])
			d->c[i] = s->c[i];
	return true;
}

bool npu_rt_vc_copy(struct npu_rt_vc *d, const struct npu_rt_vc *s)
{
	d->n = 0;
	if (!grow(d, s->n))
		return false;
	memcpy(d->c, s->c, s->n * sizeof(*s->c));
	return true;
}

void npu_rt_vc_clear(struct npu_rt_vc *v)
{
	v->n = 0;
}

void npu_rt_vc_free(struct npu_rt_vc *v)
{
	free(v->c);
	*v = (struct npu_rt_vc){ 0 };
}
