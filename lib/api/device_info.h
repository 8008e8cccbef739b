/*
 * Shared by the device information files (device_info.c, device_limits.c)
 * and their unit test.
 */
#ifndef NPU_RT_DEVICE_INFO_H
#define NPU_RT_DEVICE_INFO_H

#include <stdint.h>

struct npu_rt_platform_spec;

/* The platform specification of the SoC device dev poses as; NULL when
 * the table has no row for it. */
const struct npu_rt_platform_spec *npu_rt_device_spec(int32_t dev);

#endif /* NPU_RT_DEVICE_INFO_H */
