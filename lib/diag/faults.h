/*
 * Fault injection (UAPI 1.6 FAULT_INJECT): NPU_SIM_FAULTS=seed:rate[:ops]
 * parsed and passed to the driver at device open.
 */
#ifndef NPU_RT_FAULTS_H
#define NPU_RT_FAULTS_H

#include <stdint.h>

struct npu_rt_faults {
	uint64_t seed;
	uint32_t rate_ppm;	/* parts per million, 1..1000000 */
	uint32_t ops;		/* mask of 1 << enum npu_sim_fault_op */
};

/*
 * Parse "seed:rate[:ops]".  seed: an unsigned 64-bit number (decimal or
 * 0x hex).  rate: a fraction 0 < r <= 1 ("0.1") or a percentage
 * 0 < p <= 100 ("10%"), rounded to parts per million (at least 1).  ops:
 * names joined by ',' or '+' from alloc, map, import, copy, stream, all;
 * all when left out.  0, or -1 when malformed.
 */
int npu_rt_faults_parse(const char *s, struct npu_rt_faults *f);

/*
 * At device open: if NPU_SIM_FAULTS is set, pass it to the driver for fd
 * and print the setting to stderr once per process.  0, or -errno (EINVAL
 * malformed value, with a message detail; the ioctl's error otherwise).
 */
int npu_rt_faults_apply(int fd);

#endif /* NPU_RT_FAULTS_H */
