/*
 * The shadow of memory for the race checker (races.c): for each byte
 * range touched by queued or synchronous work, the operation that last
 * wrote it and the last readers (one per agent, up to NPU_RT_SHADOW_READS).
 * A sorted array of disjoint segments keyed by address: a lookup is a
 * binary search, O(log n); splitting a segment moves the tail of the array.
 * Not locked: races.c holds its lock around every call.
 */
#ifndef NPU_RT_RACES_SHADOW_H
#define NPU_RT_RACES_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#include "races_clock.h"
#include "report.h"

#define NPU_RT_SHADOW_READS	4

enum npu_rt_race_op_kind {
	NPU_RT_ROP_ACCESS = 0,	/* a copy, set, value op... */
	NPU_RT_ROP_FREE,	/* memory freed (aclrtMemPoolFreeAsync) */
	NPU_RT_ROP_ALLOC,	/* memory handed out (aclrtMemPoolMallocAsync) */
};

/* One operation, shared by the segments it touched (reference counted). */
struct npu_rt_race_op {
	uint32_t refs;
	uint32_t agent, clock;	/* its epoch */
	uint8_t kind;		/* enum npu_rt_race_op_kind */
	bool atomic;		/* value write/wait: a flag, written and polled
				 * unordered by design: races with nothing */
	bool write_dst, read_src, read_dst;	/* what it does, for the report */
	int dev;
	uint32_t stream;	/* kernel stream id; 0: a host thread */
	const char *call;
	uintptr_t dst, src;
	uint64_t size;		/* bytes per side */
	const struct npu_rt_site *site;	/* interned, never freed */
};

/* A previous access prev (a write when prev_write) of [lo, hi) that is not
 * ordered before the current one, or a freed range. */
typedef void (*npu_rt_shadow_found)(void *ctx, struct npu_rt_race_op *prev, bool prev_write, uintptr_t lo,
				    uintptr_t hi);

/* Whether op happened before a point with clock v. */
static inline bool npu_rt_race_hb(const struct npu_rt_race_op *op, const struct npu_rt_vc *v)
{
	return op->clock <= npu_rt_vc_get(v, op->agent);
}

/* op (at clock v) reads or writes [lo, hi): found() for each earlier
 * access it races with or freed range it touches (found NULL: no checks),
 * then op is recorded. */
void npu_rt_shadow_access(struct npu_rt_race_op *op, const struct npu_rt_vc *v, uintptr_t lo, uintptr_t hi,
			  bool write, npu_rt_shadow_found found, void *ctx);
/* found() for each access of [lo, hi) not ordered before v. */
void npu_rt_shadow_scan(const struct npu_rt_vc *v, uintptr_t lo, uintptr_t hi, npu_rt_shadow_found found,
			void *ctx);
/* Forget [lo, hi). */
void npu_rt_shadow_erase(uintptr_t lo, uintptr_t hi);
/* Drop a reference of op (freed at the last). */
void npu_rt_race_op_put(struct npu_rt_race_op *op);
/* Segments held (for the tests and the statistics line). */
uint64_t npu_rt_shadow_segments(void);

#endif /* NPU_RT_RACES_SHADOW_H */
