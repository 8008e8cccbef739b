/* User-space stand-in for <linux/types.h>: lets kernel/npu_managed_state.c build as plain C. */
#ifndef NPU_SIM_UNIT_SHIM_LINUX_TYPES_H
#define NPU_SIM_UNIT_SHIM_LINUX_TYPES_H
#include <stdbool.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#endif
