/*
 * The platform specification of a SoC (pure: no I/O, no global state;
 * unit-tested in tests/unit/test_device_rules.c): its NPU architecture
 * number and the counts of its compute units, as the platform files of a
 * CANN install give them (the NpuArch, ai_core_cnt, cube_core_cnt,
 * vector_core_cnt and l2_size keys of <soc>.ini).  aclrtGetDeviceInfo,
 * aclGetDeviceCapability, aclrtCheckArchCompatibility and the device
 * resource limits read them for the SoC the driver poses as.
 */
#ifndef NPU_RT_PLATFORM_SPEC_H
#define NPU_RT_PLATFORM_SPEC_H

#include <stdint.h>

struct npu_rt_platform_spec {
	const char *soc;	/* SoC version, e.g. "Ascend910B1" */
	int32_t npu_arch;	/* NpuArch */
	int32_t ai_cores;	/* ai_core_cnt; 0 when the file has none */
	int32_t cube_cores;	/* cube_core_cnt; 0 when the file has none */
	int32_t vector_cores;	/* vector_core_cnt */
	int64_t l2_size;	/* l2_size, bytes */
};

/* The row of SoC version soc (exact, case-sensitive); NULL when unknown
 * or soc is NULL. */
const struct npu_rt_platform_spec *npu_rt_platform_spec(const char *soc);

/* NpuArch of soc: 0 and *arch, or -1 when soc is unknown. */
int npu_rt_platform_npu_arch(const char *soc, int32_t *arch);

#endif /* NPU_RT_PLATFORM_SPEC_H */
