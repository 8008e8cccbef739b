/*
 * npu_sim: AscendCL base header.  As the CANN header acl/acl_base.h, it only
 * includes others: the base types and calls (acl_base_rt.h) and the
 * runtime and graph-engine error codes.
 */
#ifndef NPU_SIM_ACL_BASE_H
#define NPU_SIM_ACL_BASE_H

#include "acl_base_rt.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif /* NPU_SIM_ACL_BASE_H */
