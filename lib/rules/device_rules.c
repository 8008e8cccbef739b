/*
 * Rules of the device settings calls (lib/rules/device_rules.h).
 */
#include "device_rules.h"
#include "err_msg.h"

static uint32_t round_up(uint32_t v, uint32_t to)
{
	return (uint32_t)(((uint64_t)v + to - 1) / to * to);
}

static bool simt(aclrtDeviceLimit limit)
{
	return limit == ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE || limit == ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE ||
	       limit == ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE;
}

aclError npu_rt_dev_limit_set(struct npu_rt_dev_limits *l, aclrtDeviceLimit limit, uint32_t value)
{
	if (simt(limit)) {
		npu_rt_msg_detail("limit %d is a SIMT limit: the posed SoC has no SIMT cores", (int)limit);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE) {
		if (value > NPU_RT_STACK_DEFAULT)
			l->stack_size = round_up(value, NPU_RT_STACK_ROUND);
		return ACL_SUCCESS;
	}
	if (value < NPU_RT_SIMD_FIFO_MIN || value > NPU_RT_FIFO_MAX) {
		npu_rt_msg_detail("value %u is out of [%u, %u]", value, NPU_RT_SIMD_FIFO_MIN, NPU_RT_FIFO_MAX);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	l->simd_printf_fifo = round_up(value, NPU_RT_FIFO_ROUND);
	return ACL_SUCCESS;
}

aclError npu_rt_dev_limit_get(const struct npu_rt_dev_limits *l, aclrtDeviceLimit limit, uint32_t *value)
{
	if (simt(limit)) {
		npu_rt_msg_detail("limit %d is a SIMT limit: the posed SoC has no SIMT cores", (int)limit);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	*value = limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE ? l->stack_size : l->simd_printf_fifo;
	return ACL_SUCCESS;
}

aclError npu_rt_sys_param_opt_check(aclSysParamOpt opt, bool ctx)
{
	int o = (int)opt;

	if (o < 0 || o >= (ctx ? ACL_OPT_ENABLE_KERNEL_EARLY_START : NPU_RT_SYS_OPTS)) {
		npu_rt_msg_detail("opt %d is not %s", o, ctx ? "0, 1 or 2" : "0, 1, 2 or 3");
		return ACL_ERROR_INVALID_PARAM;
	}
	return ACL_SUCCESS;
}

aclError npu_rt_sys_param_check(aclSysParamOpt opt, int64_t value, bool ctx)
{
	int64_t max = opt == ACL_OPT_DETERMINISTIC ? 4 : 2;
	aclError err = npu_rt_sys_param_opt_check(opt, ctx);

	if (err != ACL_SUCCESS)
		return err;
	if (value < 0 || value >= max) {
		npu_rt_msg_detail("value %lld of opt %d is out of [0, %lld)", (long long)value, (int)opt,
				  (long long)max);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

void npu_rt_device_uuid(const unsigned char boot[16], int32_t dev, unsigned char out[16])
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a, twice for 128 bits */

	for (int half = 0; half < 2; half++) {
		for (int i = 0; i < 16; i++)
			h = (h ^ boot[i]) * 1099511628211ULL;
		for (int i = 0; i < 4; i++)
			h = (h ^ (uint8_t)((uint32_t)dev >> (8 * i))) * 1099511628211ULL;
		h = (h ^ (uint8_t)half) * 1099511628211ULL;
		for (int i = 0; i < 8; i++)
			out[half * 8 + i] = (unsigned char)(h >> (8 * i));
	}
	out[6] = (unsigned char)((out[6] & 0x0f) | 0x80);	/* RFC 9562 version 8 */
	out[8] = (unsigned char)((out[8] & 0x3f) | 0x80);	/* variant */
}
