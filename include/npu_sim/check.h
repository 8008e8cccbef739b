/*
 * npu_sim-specific calls of libacl_rt for the NPU_SIM_CHECK reports
 * (docs/checks.md).  Not part of AscendCL.
 */
#ifndef NPU_SIM_CHECK_H
#define NPU_SIM_CHECK_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Write a LEAK report for every device allocation, reservation, physical
 * handle, IPC export key, stream and event this process created and has
 * not released yet, each with size, kind and call site.  out: where to
 * write; NULL writes where the reports go (stderr and, when
 * NPU_SIM_REPORT_DIR is set, $NPU_SIM_REPORT_DIR/report.<pid>).
 * Returns the number of objects reported, or -1 with errno ENOSYS when
 * NPU_SIM_CHECK did not include leaks (or all) when the process started.
 */
__attribute__((visibility("default"))) int npu_rt_report_leaks(FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_CHECK_H */
