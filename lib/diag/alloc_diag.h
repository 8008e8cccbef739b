/*
 * Diagnosis of a failed device allocation for aclGetRecentErrMsg.
 */
#ifndef NPU_RT_ALLOC_DIAG_H
#define NPU_RT_ALLOC_DIAG_H

#include <stdint.h>

/* After MEM_ALLOC failed with -ENOMEM on fd: say which limit was hit. */
void npu_rt_alloc_diagnose(int fd, uint64_t footprint, uint32_t backing);

#endif /* NPU_RT_ALLOC_DIAG_H */
