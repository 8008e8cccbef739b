/*
 * npu_sim: AscendCL umbrella header.  As the CANN header acl/acl.h, it only
 * includes others: the runtime API (acl_rt.h, which pulls in acl_base.h).
 * The CANN one also includes the operator and model headers (acl_op.h,
 * acl_mdl.h), which need device compute; npu_sim has none.
 */
#ifndef NPU_SIM_ACL_H
#define NPU_SIM_ACL_H

#include "acl_rt.h"

#endif /* NPU_SIM_ACL_H */
