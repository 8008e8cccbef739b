/*
 * Copy and set rules: which memcpy kinds are accepted, and how a copy is
 * carried out given where its ranges lie (address.h).
 * Pure: no I/O, no global state but the calling thread's message detail of
 * a refused argument (err_msg.h); unit-tested in tests/unit/test_copy_rules.c.
 * Rules: docs/design.md 4.2, docs/cann-api-notes.md 2.2, 6.1-6.4.
 */
#ifndef NPU_RT_COPY_RULES_H
#define NPU_RT_COPY_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_rt.h"
#include "address.h"

/*
 * One copy as the API calls describe it: height rows of width bytes,
 * dpitch / spitch apart, spanning dspan / sspan bytes (a 1D copy is one
 * row of count bytes).
 */
struct npu_rt_copy {
	uintptr_t dst, src;
	size_t dpitch, spitch, width, height;
	size_t dspan, sspan;
};

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

/* The runtime's caps of a 2D copy (src/runtime RT_MAX_MEMCPY2D_*). */
#define NPU_RT_MEMCPY2D_MAX_HEIGHT 5242880U
#define NPU_RT_MEMCPY2D_MAX_WIDTH 5000000U

/*
 * The same for aclrtMemcpy2d and aclrtMemcpy2dAsync after "width or height
 * 0 succeeds at once": NULL pointers, width above a pitch, kind
 * (ACL_ERROR_INVALID_PARAM, the ACL layer); then height above
 * NPU_RT_MEMCPY2D_MAX_HEIGHT, width above NPU_RT_MEMCPY2D_MAX_WIDTH, a span
 * (pitch * (height - 1) + width) that overflows (ACL_ERROR_RT_PARAM_INVALID,
 * the runtime).  On success *dspan and *sspan are the bytes each side spans.
 */
aclError npu_rt_memcpy2d_args_check(const void *dst, size_t dpitch, const void *src, size_t spitch,
				    size_t width, size_t height, int kind, size_t *dspan, size_t *sspan);

/*
 * All the ACL-layer checks of aclrtMemcpy(Async) / aclrtMemcpy2d(Async),
 * filling *c on ACL_SUCCESS; c->width is 0 when the call succeeds at once
 * (count, width or height 0).
 */
aclError npu_rt_memcpy_args(void *dst, size_t destMax, const void *src, size_t count, int kind,
			    struct npu_rt_copy *c);
aclError npu_rt_memcpy2d_args(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
			      size_t height, int kind, struct npu_rt_copy *c);

/*
 * aclrtMemcpy2d (synchronous) refuses an explicit DEVICE_TO_DEVICE kind
 * with ACL_ERROR_RT_FEATURE_NOT_SUPPORT, before it looks at the addresses.
 */
aclError npu_rt_memcpy2d_sync_kind_check(int kind);

/*
 * Once a 2D copy's route is planned (npu_rt_plan_copy): host to host, and
 * for the synchronous call (sync) device to device, are
 * ACL_ERROR_RT_PARAM_INVALID.
 */
struct npu_rt_copy_route_plan;
aclError npu_rt_memcpy2d_route_check(bool sync, const struct npu_rt_copy_route_plan *plan);

/*
 * The ACL-layer checks of aclrtMemset and aclrtMemsetAsync after "count 0
 * succeeds at once": devPtr NULL (ACL_ERROR_INVALID_PARAM), then count >
 * maxCount (ACL_ERROR_RT_PARAM_INVALID).
 */
aclError npu_rt_memset_args_check(const void *devPtr, size_t maxCount, size_t count);

enum npu_rt_copy_route {
	NPU_RT_ROUTE_USER = 1,		/* host to host: memmove in user space */
	NPU_RT_ROUTE_DRIVER = 2,	/* an ioctl on device dev, direction dir */
	NPU_RT_ROUTE_PEER = 3,		/* D2D between two devices: an ioctl on the
					 * issuing device (current or the stream's),
					 * which needs peer access to the others */
};

struct npu_rt_copy_route_plan {
	enum npu_rt_copy_route route;
	uint32_t dir;			/* enum npu_sim_copy_dir (DRIVER) */
	int dev;			/* device whose fd carries it (DRIVER);
					 * PEER: the destination's device */
	int src_dev;			/* PEER: the source's device */
};

/*
 * One side of a copy as the runtime's kind correction sees it: device
 * memory, host memory the library knows (aclrtMallocHost, registered) or
 * other ("pageable") host memory; a range straddling both is OTHER.
 */
enum npu_rt_copy_side {
	NPU_RT_SIDE_DEVICE = 1,
	NPU_RT_SIDE_PINNED = 2,
	NPU_RT_SIDE_PAGEABLE = 3,
	NPU_RT_SIDE_OTHER = 4,
};

/*
 * The runtime's silent correction of an explicit kind (aclrtMemcpyAsync,
 * aclrtMemcpy2d, aclrtMemcpy2dAsync; docs/cann-api-notes.md 8): between
 * device and pinned memory the locations decide the kind; with a pageable
 * side DEFAULT becomes H2D / D2H / H2H and an explicit kind must be one the
 * pageable side may be (else ACL_ERROR_RT_PARAM_INVALID).  Other kinds and
 * straddling ranges keep *kind.
 */
aclError npu_rt_memcpy_kind_correct(enum npu_rt_copy_side dst, enum npu_rt_copy_side src, int *kind);

/*
 * Match an accepted kind against where dst and src really are.
 * Returns ACL_SUCCESS with *plan filled; ACL_ERROR_RT_PARAM_INVALID when the
 * kind contradicts the addresses or a range straddles host and device.
 * D2D between two devices is route PEER (the caller picks the issuing
 * device; the driver checks peer access).
 */
aclError npu_rt_plan_copy(int kind, struct npu_rt_loc dst, struct npu_rt_loc src,
			  struct npu_rt_copy_route_plan *plan);

#endif /* NPU_RT_COPY_RULES_H */
