/*
 * The address model.  Pure: see address.h.
 */
#include "address.h"

inline struct npu_rt_loc npu_rt_locate(const struct npu_rt_window *w, int n, uintptr_t p, size_t len)
{
	struct npu_rt_loc loc = { NPU_RT_LOC_HOST, -1 };
	uintptr_t last;

	if (len == 0 || p > UINTPTR_MAX - (len - 1)) {
		loc.kind = NPU_RT_LOC_STRADDLE;
		return loc;
	}
	last = p + (len - 1);

	for (int i = 0; i < n; i++) {
		uintptr_t wlast;

		if (w[i].size == 0)
			continue;
		wlast = w[i].start + (uintptr_t)(w[i].size - 1);
		if (last < w[i].start || p > wlast)
			continue;	/* disjoint */
		if (p >= w[i].start && last <= wlast) {
			loc.kind = NPU_RT_LOC_DEVICE;
			loc.dev = i;
		} else {
			loc.kind = NPU_RT_LOC_STRADDLE;
		}
		return loc;
	}
	return loc;
}
