/*
 * Copy and set rules: where a range lies (host, or which device's VA
 * window), which memcpy kinds are accepted, and how a copy is carried out.
 * Pure: no I/O, no global state; unit-tested in tests/unit/test_copy_rules.c.
 * Rules: docs/design.md 4.2, docs/cann-api-notes.md 2.2, 6.1-6.4.
 */
#ifndef NPU_RT_COPY_RULES_H
#define NPU_RT_COPY_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_rt.h"

/* A device's VA window [start, start + size); size 0 = device not open. */
struct npu_rt_window {
	uintptr_t start;
	uint64_t size;
};

enum npu_rt_loc_kind {
	NPU_RT_LOC_HOST = 1,		/* touches no device window */
	NPU_RT_LOC_DEVICE = 2,		/* wholly inside one device window */
	NPU_RT_LOC_STRADDLE = 3,	/* partly in a window, or wraps around */
};

struct npu_rt_loc {
	enum npu_rt_loc_kind kind;
	int dev;			/* device index when kind is DEVICE */
};

/* Where [p, p + len) lies (len > 0) given n windows indexed by device. */
struct npu_rt_loc npu_rt_locate(const struct npu_rt_window *w, int n, uintptr_t p, size_t len);

/* Bytes spanned by height rows of width bytes, pitch apart; 0 on overflow. */
size_t npu_rt_span_2d(size_t pitch, size_t width, size_t height);

/* aclrtMemcpy accepts kinds 0..5; others -> ACL_ERROR_INVALID_PARAM. */
aclError npu_rt_memcpy_kind_check(int kind);

/* aclrtMemcpy2d accepts kinds 1..4; others -> ACL_ERROR_INVALID_PARAM. */
aclError npu_rt_memcpy2d_kind_check(int kind);

/*
 * The ACL-layer checks of aclrtMemcpy and aclrtMemcpyAsync after "count 0
 * succeeds at once", in the CANN order: dst or src NULL, then kind
 * (ACL_ERROR_INVALID_PARAM), then count > destMax (ACL_ERROR_RT_PARAM_INVALID).
 */
aclError npu_rt_memcpy_args_check(const void *dst, size_t destMax, const void *src, size_t count,
				  int kind);

/*
 * The same for aclrtMemcpy2d and aclrtMemcpy2dAsync after "width or height
 * 0 succeeds at once": NULL pointers, width above a pitch, kind, a span
 * (pitch * (height - 1) + width) that overflows: ACL_ERROR_INVALID_PARAM.
 * On success *dspan and *sspan are the bytes each side spans.
 */
aclError npu_rt_memcpy2d_args_check(const void *dst, size_t dpitch, const void *src, size_t spitch,
				    size_t width, size_t height, int kind, size_t *dspan, size_t *sspan);

enum npu_rt_copy_route {
	NPU_RT_ROUTE_USER = 1,		/* host to host: memmove in user space */
	NPU_RT_ROUTE_DRIVER = 2,	/* an ioctl on device dev, direction dir */
};

struct npu_rt_copy_route_plan {
	enum npu_rt_copy_route route;
	uint32_t dir;			/* enum npu_sim_copy_dir (DRIVER) */
	int dev;			/* device whose fd carries it (DRIVER) */
};

/*
 * Match an accepted kind against where dst and src really are.
 * Returns ACL_SUCCESS with *plan filled; ACL_ERROR_RT_PARAM_INVALID when the
 * kind contradicts the addresses or a range straddles host and device;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT for D2D between two devices.
 */
aclError npu_rt_plan_copy(int kind, struct npu_rt_loc dst, struct npu_rt_loc src,
			  struct npu_rt_copy_route_plan *plan);

#endif /* NPU_RT_COPY_RULES_H */
