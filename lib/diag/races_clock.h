/*
 * Vector clocks of the race checker (races.c): one counter per agent (the
 * host, each stream).  An operation of agent a at clock c happened before
 * a point whose clock is V when c <= V[a].
 */
#ifndef NPU_RT_RACES_CLOCK_H
#define NPU_RT_RACES_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct npu_rt_vc {
	uint32_t n, cap;
	uint32_t *c;
};

static inline uint32_t npu_rt_vc_get(const struct npu_rt_vc *v, uint32_t a)
{
	return a < v->n ? v->c[a] : 0;
}

/* v[a] = x (grows v; false when out of memory). */
bool npu_rt_vc_set(struct npu_rt_vc *v, uint32_t a, uint32_t x);
/* d = max(d, s) element-wise. */
bool npu_rt_vc_join(struct npu_rt_vc *d, const struct npu_rt_vc *s);
/* d = s. */
bool npu_rt_vc_copy(struct npu_rt_vc *d, const struct npu_rt_vc *s);
void npu_rt_vc_clear(struct npu_rt_vc *v);
void npu_rt_vc_free(struct npu_rt_vc *v);

#endif /* NPU_RT_RACES_CLOCK_H */
