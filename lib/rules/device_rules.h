/*
 * Rules of the device settings calls (pure: no I/O, no global state;
 * unit-tested in tests/unit/test_device_rules.c): the ranges, rounding and
 * codes of aclrtDeviceSetLimit / GetLimit and of the system parameters, as
 * the CANN runtime applies them (docs/cann-api-notes.md section 8).
 */
#ifndef NPU_RT_DEVICE_RULES_H
#define NPU_RT_DEVICE_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl.h"

#define NPU_RT_RES_TYPES	2	/* aclrtDevResLimitType values */
#define NPU_RT_SYS_OPTS		4	/* aclSysParamOpt values */

/* Kernel stack: 32 KiB by default; a larger value is rounded up to 16 KiB,
 * a smaller one ignored.  SIMD printf FIFO per core: 32 KiB by default,
 * [1 KiB, 64 MiB], rounded up to 8 bytes. */
#define NPU_RT_STACK_DEFAULT		32768u
#define NPU_RT_STACK_ROUND		16384u
#define NPU_RT_SIMD_FIFO_DEFAULT	32768u
#define NPU_RT_SIMD_FIFO_MIN		1024u
#define NPU_RT_FIFO_MAX			(64u << 20)
#define NPU_RT_FIFO_ROUND		8u

struct npu_rt_dev_limits {
	uint32_t stack_size;
	uint32_t simd_printf_fifo;
};

#define NPU_RT_DEV_LIMITS_INIT { NPU_RT_STACK_DEFAULT, NPU_RT_SIMD_FIFO_DEFAULT }

/* limit already in 0..4.  ACL_SUCCESS; 207000 for the SIMT limits (no SIMT
 * cores); 107000 a FIFO size out of range (l unchanged). */
aclError npu_rt_dev_limit_set(struct npu_rt_dev_limits *l, aclrtDeviceLimit limit, uint32_t value);
aclError npu_rt_dev_limit_get(const struct npu_rt_dev_limits *l, aclrtDeviceLimit limit, uint32_t *value);

/* opt for aclrt(Ctx)Get/SetSysParamOpt: 100000 unless DETERMINISTIC,
 * ENABLE_DEBUG_KERNEL, 2 or (not ctx) ENABLE_KERNEL_EARLY_START. */
aclError npu_rt_sys_param_opt_check(aclSysParamOpt opt, bool ctx);
/* opt as above, then value: [0, 4) for DETERMINISTIC, else [0, 2): 107000. */
aclError npu_rt_sys_param_check(aclSysParamOpt opt, int64_t value, bool ctx);

/* The UUID of device dev on the host of boot id boot: the same device of
 * the same boot always gets the same 16 bytes (an RFC 9562 version 8 UUID). */
void npu_rt_device_uuid(const unsigned char boot[16], int32_t dev, unsigned char out[16]);

#endif /* NPU_RT_DEVICE_RULES_H */
