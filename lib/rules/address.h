/*
 * The address model: each open device has one VA window in this process,
 * and a range is on the host, wholly inside one device's window, or
 * neither.  Pure: no I/O, no global state; unit-tested in
 * tests/unit/test_copy_rules.c.
 */
#ifndef NPU_RT_ADDRESS_H
#define NPU_RT_ADDRESS_H

#include <stddef.h>
#include <stdint.h>

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

#endif /* NPU_RT_ADDRESS_H */
