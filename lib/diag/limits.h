/*
 * Per-process device memory limits (UAPI 1.6 MEM_LIMIT): the environment
 * variable NPU_SIM_MEM_LIMIT passed to the driver at device open, the
 * limit's share in allocation failure messages, and the query aclrtGetMemInfo
 * (api/memory_info.c) clamps its figures with.
 */
#ifndef NPU_RT_LIMITS_H
#define NPU_RT_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Parse a size: decimal digits with an optional K, M, G or T suffix (units
 * of 1024, either case).  0 and -1 on success and on a malformed or zero
 * value or one that overflows.
 */
int npu_rt_limit_parse(const char *s, uint64_t *bytes);

/*
 * At device open: if NPU_SIM_MEM_LIMIT is set, lower the process's own
 * limit on fd to it.  0, or -errno (EINVAL malformed value, with a message
 * detail; the ioctl's error otherwise).
 */
int npu_rt_limits_apply(int fd);

/*
 * After an allocation of charge bytes on fd failed with ENOMEM: if the
 * process's limit explains it, leave a message detail saying so and return
 * true.
 */
bool npu_rt_limit_diagnose(int fd, uint64_t charge);

/* MEM_LIMIT GET on fd into *req: 0 or the ioctl's negative errno. */
struct npu_sim_mem_limit;
int npu_rt_limit_get(int fd, struct npu_sim_mem_limit *req);

#endif /* NPU_RT_LIMITS_H */
