/*
 * Checks that a device range is live memory before a call that does its
 * work in several driver steps writes anything.
 */
#ifndef NPU_RT_RANGE_CHECK_H
#define NPU_RT_RANGE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

/*
 * With the device table lock held: ACL_SUCCESS when [p, p + len) lies in
 * one live allocation or VMM mapping of device dev; else
 * ACL_ERROR_RT_PARAM_INVALID (107000), with a message detail naming what.
 */
aclError npu_rt_check_live_range_locked(int dev, uintptr_t p, size_t len, const char *what);

#endif /* NPU_RT_RANGE_CHECK_H */
