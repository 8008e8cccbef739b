// SPDX-License-Identifier: GPL-2.0
/*
 * Device information, device settings and host buffers against the real
 * module (default: 2 devices of 2048 MiB posing as atlas-a2, SoC
 * Ascend910B1): aclrtGetDeviceInfo, the capabilities, device status and
 * utilization (memory in use from the driver), UUID, PCI bus ids, the id
 * mappings, topology, atomics, arch compatibility, primary context state,
 * the resource limits (kept per opening of the device), device limits,
 * system parameters of the process and of a context (per context, so per
 * thread's current context), aclrtSetTsDevice and every host buffer call.
 * Success values and every bad-input code exactly; a refused call writes
 * nothing.
 */
#include "vmtest.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <acl/acl.h>

#define SENTINEL 0x5a5a5a5a5a5a5a5aLL

START_TEST(device_info_values)
{
	int64_t v;

	ck_assert_str_eq(aclrtGetSocName(), "Ascend910B1");
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 24);
	ck_assert_int_eq(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_CUBE_CORE_NUM, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 24);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 48);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 201326592);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 2201);
	/* memory from the driver; device 1 is not set in this process */
	ck_assert_int_eq(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, (int64_t)VM_DEFAULT_HBM_BYTES);
	ck_assert_int_eq(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_SMP_ID, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_IS_VIRTUAL, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUST_OP_PRIVILEGE, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
}
END_TEST

START_TEST(device_info_refusals)
{
	static const int unsupported[] = { ACL_DEV_ATTR_AICPU_CORE_NUM, ACL_DEV_ATTR_WARP_SIZE,
					   ACL_DEV_ATTR_MAX_BLOCK_DIM_Z, ACL_DEV_ATTR_SUPER_POD_ID,
					   ACL_DEV_ATTR_SUPER_POD_DEVICE_ID, ACL_DEV_ATTR_MAINBOARD_ID,
					   ACL_DEV_ATTR_HD_CONNECT_TYPE, ACL_DEV_ATTR_DEVICE_FORM_FACTOR };
	int64_t v = SENTINEL;

	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetDeviceInfo(2, ACL_DEV_ATTR_AICORE_CORE_NUM, &v), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetDeviceInfo(UINT32_MAX, ACL_DEV_ATTR_AICORE_CORE_NUM, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, (aclrtDevAttr)0, &v), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, (aclrtDevAttr)303, &v), ACL_ERROR_RT_PARAM_INVALID);
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		ck_assert_int_eq(aclrtGetDeviceInfo(0, (aclrtDevAttr)unsupported[i], &v),
				 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(v, SENTINEL);
}
END_TEST

START_TEST(capabilities)
{
	int64_t v = SENTINEL;
	int32_t c = 7;

	ck_assert_int_eq(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 24);
	ck_assert_int_eq(aclGetDeviceCapability(1, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 48);
	ck_assert_int_eq(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 201326592);
	v = SENTINEL;
	ck_assert_int_eq(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclGetDeviceCapability(2, ACL_DEVICE_INFO_L2_SIZE, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclGetDeviceCapability(0, (aclDeviceInfo)3, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(v, SENTINEL);

	ck_assert_int_eq(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &c),
			 ACL_SUCCESS);
	ck_assert_int_eq(c, ACL_DEV_FEATURE_NOT_SUPPORT);
	c = 7;
	ck_assert_int_eq(aclrtGetDeviceCapability(1, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &c), ACL_SUCCESS);
	ck_assert_int_eq(c, ACL_DEV_FEATURE_NOT_SUPPORT);
	c = 7;
	ck_assert_int_eq(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)2, &c), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)-1, &c), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetDeviceCapability(2, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &c),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetDeviceCapability(-1, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &c),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(c, 7);
}
END_TEST

START_TEST(arch_compatibility)
{
	int32_t c = 7;

	ck_assert_int_eq(aclrtCheckArchCompatibility("Ascend910B1", &c), ACL_SUCCESS);
	ck_assert_int_eq(c, 1);
	ck_assert_int_eq(aclrtCheckArchCompatibility("Ascend910_9391", &c), ACL_SUCCESS);	/* same arch */
	ck_assert_int_eq(c, 1);
	ck_assert_int_eq(aclrtCheckArchCompatibility("Ascend310P3", &c), ACL_SUCCESS);
	ck_assert_int_eq(c, 0);
	c = 7;
	ck_assert_int_eq(aclrtCheckArchCompatibility(NULL, &c), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCheckArchCompatibility("Ascend910B1", NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCheckArchCompatibility("", &c), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCheckArchCompatibility("Ascend999", &c), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCheckArchCompatibility("ascend910b1", &c), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(c, 7);
}
END_TEST

START_TEST(status_and_utilization)
{
	aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_END;
	aclrtUtilizationInfo u = { 0 };
	aclrtUtilizationInfo before;
	void *p = NULL;

	ck_assert_int_eq(aclrtQueryDeviceStatus(0, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_RT_DEVICE_STATUS_NORMAL);
	st = ACL_RT_DEVICE_STATUS_END;
	ck_assert_int_eq(aclrtQueryDeviceStatus(1, &st), ACL_SUCCESS);	/* not set here */
	ck_assert_int_eq(st, ACL_RT_DEVICE_STATUS_NORMAL);
	st = ACL_RT_DEVICE_STATUS_END;
	ck_assert_int_eq(aclrtQueryDeviceStatus(0, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtQueryDeviceStatus(2, &st), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtQueryDeviceStatus(-1, &st), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(st, ACL_RT_DEVICE_STATUS_END);

	/* memory in use, all processes: a quarter of the device, then none */
	ck_assert_int_eq(aclrtMalloc(&p, VM_DEFAULT_HBM_BYTES / 4, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetDeviceUtilizationRate(0, &u), ACL_SUCCESS);
	ck_assert_int_eq(u.cubeUtilization, 0);
	ck_assert_int_eq(u.vectorUtilization, 0);
	ck_assert_int_eq(u.aicpuUtilization, 0);
	ck_assert_int_eq(u.memoryUtilization,
			 (int)(vm_dbg_info(0, "used_bytes") * 100 / (long long)VM_DEFAULT_HBM_BYTES));
	ck_assert_int_ge(u.memoryUtilization, 25);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetDeviceUtilizationRate(0, &u), ACL_SUCCESS);
	ck_assert_int_eq(u.memoryUtilization, 0);
	/* not the calling thread's device: the runtime's -1s */
	ck_assert_int_eq(aclrtGetDeviceUtilizationRate(1, &u), ACL_SUCCESS);
	ck_assert_int_eq(u.cubeUtilization, -1);
	ck_assert_int_eq(u.vectorUtilization, -1);
	ck_assert_int_eq(u.aicpuUtilization, -1);
	ck_assert_int_eq(u.memoryUtilization, -1);
	ck_assert_int_eq(aclrtGetDeviceUtilizationRate(2, &u), ACL_SUCCESS);
	ck_assert_int_eq(u.memoryUtilization, -1);

	memset(&u, 0x5a, sizeof(u));
	u.utilizationExtend = (aclrtUtilizationExtendInfo *)&u;
	before = u;
	ck_assert_int_eq(aclrtGetDeviceUtilizationRate(0, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetDeviceUtilizationRate(0, &u), ACL_ERROR_INVALID_PARAM);
	ck_assert(memcmp(&u, &before, sizeof(u)) == 0);
}
END_TEST

START_TEST(uuid_and_pci)
{
	aclrtUuid a, b, c;
	char bus[64] = "unchanged";
	int32_t dev = 9;

	ck_assert_int_eq(aclrtDeviceGetUuid(0, &a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDeviceGetUuid(0, &b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDeviceGetUuid(1, &c), ACL_SUCCESS);
	ck_assert(memcmp(&a, &b, sizeof(a)) == 0);	/* stable */
	ck_assert(memcmp(&a, &c, sizeof(a)) != 0);	/* per device */
	ck_assert_int_eq((unsigned char)a.bytes[6] >> 4, 8);	/* RFC 9562 version 8 */
	ck_assert_int_eq((unsigned char)a.bytes[8] >> 6, 2);
	memset(&b, 0x5a, sizeof(b));
	c = b;
	ck_assert_int_eq(aclrtDeviceGetUuid(0, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceGetUuid(2, &b), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceGetUuid(-1, &b), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert(memcmp(&b, &c, sizeof(b)) == 0);

	/* the guest's npu_sim devices have no PCI parent */
	ck_assert_int_eq(aclrtDeviceGetPCIBusId(0, bus, sizeof(bus)), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtDeviceGetPCIBusId(0, NULL, 64), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceGetPCIBusId(2, bus, sizeof(bus)), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_str_eq(bus, "unchanged");
	ck_assert_int_eq(aclrtDeviceGetByPCIBusId("0000:01:00.0", &dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtDeviceGetByPCIBusId(NULL, &dev), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceGetByPCIBusId("0000:01:00.0", NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(dev, 9);
}
END_TEST

/*
 * Step @step of one id mapping: ids 1 and 0 map to themselves, then a NULL
 * out-pointer, id -1 and id 2 (not a device) fail leaving *out alone.  The
 * mappings are called by name (tests/unit/check-vm-calls counts calls).
 */
static void map_expect(int step, aclError got, int32_t *out)
{
	static const aclError code[] = { ACL_SUCCESS, ACL_SUCCESS, ACL_ERROR_INVALID_PARAM,
					 ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_RT_INVALID_DEVICEID };
	static const int32_t value[] = { 1, 0, 9, 9, 9 };

	ck_assert_int_eq(got, code[step]);
	ck_assert_int_eq(*out, value[step]);
	if (step == 1)
		*out = 9;
}

START_TEST(id_mappings)
{
	int32_t o = 9;

	map_expect(0, aclrtGetLogicDevIdByPhyDevId(1, &o), &o);
	map_expect(1, aclrtGetLogicDevIdByPhyDevId(0, &o), &o);
	map_expect(2, aclrtGetLogicDevIdByPhyDevId(0, NULL), &o);
	map_expect(3, aclrtGetLogicDevIdByPhyDevId(-1, &o), &o);
	map_expect(4, aclrtGetLogicDevIdByPhyDevId(2, &o), &o);
	o = 9;
	map_expect(0, aclrtGetPhyDevIdByLogicDevId(1, &o), &o);
	map_expect(1, aclrtGetPhyDevIdByLogicDevId(0, &o), &o);
	map_expect(2, aclrtGetPhyDevIdByLogicDevId(0, NULL), &o);
	map_expect(3, aclrtGetPhyDevIdByLogicDevId(-1, &o), &o);
	map_expect(4, aclrtGetPhyDevIdByLogicDevId(2, &o), &o);
	o = 9;
	map_expect(0, aclrtGetLogicDevIdByUserDevId(1, &o), &o);
	map_expect(1, aclrtGetLogicDevIdByUserDevId(0, &o), &o);
	map_expect(2, aclrtGetLogicDevIdByUserDevId(0, NULL), &o);
	map_expect(3, aclrtGetLogicDevIdByUserDevId(-1, &o), &o);
	map_expect(4, aclrtGetLogicDevIdByUserDevId(2, &o), &o);
	o = 9;
	map_expect(0, aclrtGetUserDevIdByLogicDevId(1, &o), &o);
	map_expect(1, aclrtGetUserDevIdByLogicDevId(0, &o), &o);
	map_expect(2, aclrtGetUserDevIdByLogicDevId(0, NULL), &o);
	map_expect(3, aclrtGetUserDevIdByLogicDevId(-1, &o), &o);
	map_expect(4, aclrtGetUserDevIdByLogicDevId(2, &o), &o);
	o = 9;
	map_expect(0, aclrtGetPhyDevIdByUserDevId(1, &o), &o);
	map_expect(1, aclrtGetPhyDevIdByUserDevId(0, &o), &o);
	map_expect(2, aclrtGetPhyDevIdByUserDevId(0, NULL), &o);
	map_expect(3, aclrtGetPhyDevIdByUserDevId(-1, &o), &o);
	map_expect(4, aclrtGetPhyDevIdByUserDevId(2, &o), &o);
	o = 9;
	map_expect(0, aclrtGetUserDevIdByPhyDevId(1, &o), &o);
	map_expect(1, aclrtGetUserDevIdByPhyDevId(0, &o), &o);
	map_expect(2, aclrtGetUserDevIdByPhyDevId(0, NULL), &o);
	map_expect(3, aclrtGetUserDevIdByPhyDevId(-1, &o), &o);
	map_expect(4, aclrtGetUserDevIdByPhyDevId(2, &o), &o);
}
END_TEST

START_TEST(topology_and_atomics)
{
	aclrtAtomicOperation ops[3] = { ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_DMA_MAX,
					ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH };
	uint32_t caps[3] = { 7, 7, 7 };
	uint64_t t = 7;

	ck_assert_int_eq(aclrtGetDevicesTopo(0, 1, &t), ACL_SUCCESS);
	ck_assert_uint_eq(t, ACL_RT_DEVS_TOPOLOGY_SYS);
	ck_assert_int_eq(aclrtGetDevicesTopo(1, 1, &t), ACL_SUCCESS);
	ck_assert_uint_eq(t, ACL_RT_DEVS_TOPOLOGY_HCCS);
	t = 7;
	ck_assert_int_eq(aclrtGetDevicesTopo(0, 1, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetDevicesTopo(0, 2, &t), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetDevicesTopo(2, 0, &t), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_uint_eq(t, 7);

	ck_assert_int_eq(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 3, 0), ACL_SUCCESS);
	ck_assert(caps[0] == 0 && caps[1] == 0 && caps[2] == 0);
	caps[0] = caps[1] = caps[2] = 7;
	ck_assert_int_eq(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 3, 0, 1), ACL_SUCCESS);
	ck_assert(caps[0] == 0 && caps[1] == 0 && caps[2] == 0);
	caps[0] = caps[1] = caps[2] = 7;
	ck_assert_int_eq(aclrtDeviceGetHostAtomicCapabilities(NULL, ops, 3, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDeviceGetHostAtomicCapabilities(caps, NULL, 3, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 3, 2), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 3, 1, 1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 3, 0, 2), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceGetP2PAtomicCapabilities(NULL, ops, 3, 0, 1), ACL_ERROR_RT_PARAM_INVALID);
	ops[1] = (aclrtAtomicOperation)45;
	ck_assert_int_eq(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 3, 0), ACL_ERROR_RT_PARAM_INVALID);
	ops[1] = (aclrtAtomicOperation)-1;
	ck_assert_int_eq(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 3, 0, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert(caps[0] == 7 && caps[1] == 7 && caps[2] == 7);
}
END_TEST

START_TEST(primary_ctx_state)
{
	int32_t active = 9;
	uint32_t flags = 0;

	ck_assert_int_eq(aclrtGetPrimaryCtxState(0, NULL, &active), ACL_SUCCESS);
	ck_assert_int_eq(active, 1);
	ck_assert_int_eq(aclrtGetPrimaryCtxState(1, NULL, &active), ACL_SUCCESS);
	ck_assert_int_eq(active, 0);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetPrimaryCtxState(1, NULL, &active), ACL_SUCCESS);
	ck_assert_int_eq(active, 1);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetPrimaryCtxState(1, NULL, &active), ACL_SUCCESS);
	ck_assert_int_eq(active, 0);
	active = 9;
	ck_assert_int_eq(aclrtGetPrimaryCtxState(0, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetPrimaryCtxState(0, &flags, &active), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetPrimaryCtxState(2, NULL, &active), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetPrimaryCtxState(-1, NULL, &active), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(active, 9);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);	/* back to device 0 current */
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
}
END_TEST

START_TEST(res_limits)
{
	uint32_t v = 7;

	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 24);
	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 48);
	ck_assert_int_eq(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 48), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 8);
	/* refused: unchanged */
	ck_assert_int_eq(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 25), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetDeviceResLimit(0, (aclrtDevResLimitType)2, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetDeviceResLimit(2, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtSetDeviceResLimit(-1, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_ERROR_RT_DEV_SETUP_ERROR);
	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 8);
	v = 7;
	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetDeviceResLimit(0, (aclrtDevResLimitType)2, &v), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetDeviceResLimit(2, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_DEV_SETUP_ERROR);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(aclrtResetDeviceResLimit(2), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtResetDeviceResLimit(1), ACL_ERROR_RT_DEV_SETUP_ERROR);
	ck_assert_int_eq(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 24);

	/* kept with the device's opening: a new opening starts afresh */
	ck_assert_int_eq(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_ERROR_RT_DEV_SETUP_ERROR);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 48);
}
END_TEST

START_TEST(device_limits)
{
	size_t v = 7;

	ck_assert_int_eq(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 32768);
	ck_assert_int_eq(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 32768);
	/* smaller stacks are ignored, larger ones rounded up to 16 KiB */
	ck_assert_int_eq(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 1000), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 32768);
	ck_assert_int_eq(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 49152);
	ck_assert_int_eq(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1025), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 1032);
	ck_assert_int_eq(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1023),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, (64u << 20) + 1),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 1024), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 1024),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtDeviceSetLimit((aclrtDeviceLimit)5, 1024), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, (size_t)UINT32_MAX + 1),
			 ACL_ERROR_INVALID_PARAM);
	v = 7;
	ck_assert_int_eq(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, &v),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtDeviceGetLimit((aclrtDeviceLimit)5, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 1032);
}
END_TEST

START_TEST(sys_params)
{
	int64_t v = 7;

	ck_assert_int_eq(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 3);
	ck_assert_int_eq(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, -1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetSysParamOpt((aclSysParamOpt)4, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetSysParamOpt((aclSysParamOpt)-1, 0), ACL_ERROR_INVALID_PARAM);
	v = 7;
	ck_assert_int_eq(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetSysParamOpt((aclSysParamOpt)4, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 3);
	ck_assert_int_eq(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 0), ACL_SUCCESS);
}
END_TEST

/* A thread with its own context: its parameters are not the main thread's. */
static void *ctx_thread(void *arg)
{
	aclrtContext ctx = NULL;
	int64_t v = 7;
	intptr_t bad = 0;

	(void)arg;
	/* no current device in a new thread */
	bad |= aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1) != ACL_ERROR_RT_CONTEXT_NULL;
	bad |= (aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v) != ACL_ERROR_RT_CONTEXT_NULL) << 1;
	bad |= (aclrtCreateContext(&ctx, 0) != ACL_SUCCESS) << 2;
	bad |= (aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v) != ACL_ERROR_RT_SYSPARAMOPT_NOT_SET) << 3;
	bad |= (aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1) != ACL_SUCCESS) << 4;
	bad |= (aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v) != ACL_SUCCESS || v != 1) << 5;
	bad |= (aclrtDestroyContext(ctx) != ACL_SUCCESS) << 6;
	return (void *)bad;
}

START_TEST(ctx_sys_params)
{
	pthread_t t;
	void *bad = NULL;
	int64_t v = 7;

	ck_assert_int_eq(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 2);
	ck_assert_int_eq(pthread_create(&t, NULL, ctx_thread, NULL), 0);
	ck_assert_int_eq(pthread_join(t, &bad), 0);
	ck_assert_ptr_null(bad);
	ck_assert_int_eq(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 2);
	/* the process-wide parameter is another one */
	ck_assert_int_eq(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 0);

	ck_assert_int_eq(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCtxSetSysParamOpt((aclSysParamOpt)-1, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 2);
}
END_TEST

START_TEST(ts_device)
{
	ck_assert_int_eq(aclrtSetTsDevice(ACL_TS_ID_AICORE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetTsDevice((aclrtTsId)-1), ACL_ERROR_INVALID_PARAM);
}
END_TEST

/* ---- host buffers ------------------------------------------------------- */

START_TEST(buf_data_and_user_data)
{
	aclrtMbuf b = NULL, r = NULL, junk = (aclrtMbuf)&b;
	unsigned char in[96], out[96];
	void *data = NULL;
	size_t size = 0, len = 7;

	ck_assert_int_eq(aclrtAllocBuf(&b, 1000), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetBufData(b, &data, &size), ACL_SUCCESS);
	ck_assert_ptr_nonnull(data);
	ck_assert_uint_eq(size, 1000);
	memset(data, 0xab, size);	/* host memory: the caller's to write */
	ck_assert_int_eq(aclrtGetBufDataLen(b, &len), ACL_SUCCESS);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(aclrtSetBufDataLen(b, 1000), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetBufDataLen(b, 1001), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetBufDataLen(b, &len), ACL_SUCCESS);
	ck_assert_uint_eq(len, 1000);

	for (int i = 0; i < 96; i++)
		in[i] = (unsigned char)i;
	ck_assert_int_eq(aclrtSetBufUserData(b, in, 96, 0), ACL_SUCCESS);
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(aclrtGetBufUserData(b, out, 10, 86), ACL_SUCCESS);
	ck_assert(memcmp(out, in + 86, 10) == 0);
	ck_assert_int_eq(aclrtSetBufUserData(b, in, 4, 92), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetBufUserData(b, out, 4, 92), ACL_SUCCESS);
	ck_assert(memcmp(out, in, 4) == 0);
	ck_assert_int_eq(aclrtSetBufUserData(b, in, 0, 96), ACL_SUCCESS);

	/* a second reference: same data area, its own length */
	ck_assert_int_eq(aclrtCopyBufRef(b, &r), ACL_SUCCESS);
	ck_assert_ptr_ne(r, b);
	ck_assert_int_eq(aclrtGetBufData(r, &data, &size), ACL_SUCCESS);
	ck_assert_uint_eq(size, 1000);
	ck_assert_uint_eq(((unsigned char *)data)[999], 0xab);
	ck_assert_int_eq(aclrtGetBufDataLen(r, &len), ACL_SUCCESS);
	ck_assert_uint_eq(len, 1000);
	ck_assert_int_eq(aclrtSetBufDataLen(r, 10), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetBufDataLen(b, &len), ACL_SUCCESS);
	ck_assert_uint_eq(len, 1000);
	ck_assert_int_eq(aclrtFreeBuf(b), ACL_SUCCESS);
	ck_assert_uint_eq(((unsigned char *)data)[0], 0xab);	/* r still holds it */

	/* refusals, in the ACL layer's order; nothing written */
	len = 7;
	ck_assert_int_eq(aclrtGetBufUserData(r, out, 97, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufUserData(NULL, out, 50, 47), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetBufUserData(r, in, 1, 96), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetBufUserData(r, in, SIZE_MAX, 2), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetBufUserData(r, NULL, 1, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufUserData(r, NULL, 1, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufUserData(b, out, 1, 0), ACL_ERROR_RT_PARAM_INVALID);	/* freed */
	ck_assert_int_eq(aclrtSetBufUserData(junk, in, 1, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetBufData(NULL, &data, &size), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufData(r, NULL, &size), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufData(r, &data, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufData(b, &data, &size), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetBufDataLen(NULL, &len), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufDataLen(r, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufDataLen(junk, &len), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(len, 7);
	ck_assert_int_eq(aclrtSetBufDataLen(NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetBufDataLen(b, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCopyBufRef(NULL, &b), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCopyBufRef(r, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCopyBufRef(junk, &b), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtAllocBuf(NULL, 1), ACL_ERROR_INVALID_PARAM);
	b = NULL;
	ck_assert_int_eq(aclrtAllocBuf(&b, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(b);
	ck_assert_int_eq(aclrtFreeBuf(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtFreeBuf(junk), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFreeBuf(r), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeBuf(r), ACL_ERROR_RT_PARAM_INVALID);	/* twice */
}
END_TEST

START_TEST(buf_chains)
{
	aclrtMbuf h = NULL, a = NULL, c = NULL, got = NULL, junk = (aclrtMbuf)&h;
	uint32_t n = 9;

	ck_assert_int_eq(aclrtAllocBuf(&h, 8), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocBuf(&a, 16), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocBuf(&c, 32), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetBufChainNum(h, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(aclrtAppendBufChain(h, a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAppendBufChain(h, c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetBufChainNum(h, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(aclrtGetBufFromChain(h, 0, &got), ACL_SUCCESS);
	ck_assert_ptr_eq(got, h);
	ck_assert_int_eq(aclrtGetBufFromChain(h, 2, &got), ACL_SUCCESS);
	ck_assert_ptr_eq(got, c);
	got = NULL;
	ck_assert_int_eq(aclrtGetBufFromChain(h, 3, &got), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_ptr_null(got);
	/* a member is in a chain: neither appended again nor a head */
	ck_assert_int_eq(aclrtAppendBufChain(h, a), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtAppendBufChain(h, h), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtAppendBufChain(a, c), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetBufChainNum(a, &n), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetBufFromChain(a, 0, &got), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtAppendBufChain(NULL, a), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAppendBufChain(h, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAppendBufChain(junk, a), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtAppendBufChain(h, junk), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetBufChainNum(NULL, &n), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufChainNum(h, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufChainNum(junk, &n), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetBufFromChain(NULL, 0, &got), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufFromChain(h, 0, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetBufFromChain(junk, 0, &got), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtGetBufChainNum(h, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 3);
	/* a freed member leaves the chain; a freed head dissolves it */
	ck_assert_int_eq(aclrtFreeBuf(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetBufChainNum(h, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(aclrtGetBufFromChain(h, 1, &got), ACL_SUCCESS);
	ck_assert_ptr_eq(got, c);
	ck_assert_int_eq(aclrtFreeBuf(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetBufChainNum(c, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(aclrtFreeBuf(c), ACL_SUCCESS);
}
END_TEST

/* Threads allocate, chain and free at once: the set of live handles stays
 * consistent (no handle lost, none freed twice). */
static void *buf_worker(void *arg)
{
	intptr_t bad = 0;

	(void)arg;
	for (int i = 0; i < 200 && !bad; i++) {
		aclrtMbuf h = NULL, m = NULL, r = NULL;
		uint32_t n = 0;

		bad |= aclrtAllocBuf(&h, 64) != ACL_SUCCESS;
		bad |= aclrtAllocBuf(&m, 64) != ACL_SUCCESS;
		bad |= aclrtAppendBufChain(h, m) != ACL_SUCCESS;
		bad |= aclrtCopyBufRef(m, &r) != ACL_SUCCESS;
		bad |= aclrtGetBufChainNum(h, &n) != ACL_SUCCESS || n != 2;
		bad |= aclrtFreeBuf(m) != ACL_SUCCESS;
		bad |= aclrtFreeBuf(h) != ACL_SUCCESS;
		bad |= aclrtFreeBuf(r) != ACL_SUCCESS;
		bad |= aclrtFreeBuf(r) != ACL_ERROR_RT_PARAM_INVALID;
	}
	return (void *)bad;
}

START_TEST(buf_threads)
{
	pthread_t t[4];
	void *bad;

	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, buf_worker, NULL), 0);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(pthread_join(t[i], &bad), 0);
		ck_assert_ptr_null(bad);
	}
}
END_TEST


/* ---- init / finalize callbacks ------------------------------------------ */

static char calls[64];	/* one letter per callback call, in order */
static size_t seen_len;
static char seen_cfg[64];
static aclError fail_with;

static void note(char c)
{
	size_t n = strlen(calls);

	if (n + 1 < sizeof(calls))
		calls[n] = c;
}

static aclError init_model(const char *cfg, size_t len, void *u)
{
	note(*(const char *)u);
	snprintf(seen_cfg, sizeof(seen_cfg), "%s", cfg);
	seen_len = len;
	return fail_with;
}

static aclError init_plain(const char *cfg, size_t len, void *u)
{
	(void)cfg;
	(void)len;
	note(*(const char *)u);
	return ACL_SUCCESS;
}

static aclError init_other2(const char *cfg, size_t len, void *u)
{
	return init_plain(cfg, len, u);
}

static aclError fini_cb(void *u)
{
	note(*(const char *)u);
	return ACL_SUCCESS;
}

static aclError fini_fail(void *u)
{
	note(*(const char *)u);
	return fail_with;
}

START_TEST(init_callbacks)
{
	static const char M = 'M', E = 'E', D = 'D', O = 'O', P = 'P', R = 'R', L = 'L';
	const char *cfg = "/tmp/npu_sim_acl_cfg.json";
	FILE *f;

	ck_assert_int_eq(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_plain, (void *)&O), ACL_SUCCESS);
	ck_assert_int_eq(aclInitCallbackRegister(ACL_REG_TYPE_ACL_RETR, init_plain, (void *)&R), ACL_SUCCESS);
	ck_assert_int_eq(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_plain, (void *)&D), ACL_SUCCESS);
	ck_assert_int_eq(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, init_plain, (void *)&E),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_model, (void *)&M), ACL_SUCCESS);
	ck_assert_int_eq(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_other2, (void *)&P), ACL_SUCCESS);
	/* one per type but OTHER; bad input */
	ck_assert_int_eq(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_plain, NULL), ACL_ERROR_INTERNAL_ERROR);
	ck_assert_int_eq(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, init_model), ACL_ERROR_INTERNAL_ERROR);
	ck_assert_int_eq(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_TDT_QUEUE, init_plain), ACL_ERROR_INTERNAL_ERROR);
	ck_assert_str_eq(calls, "");

	/* no config file: MODEL, DVPP, the OTHERs in order; no OP_EXECUTOR, never RETR */
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_str_eq(calls, "MDOP");
	ck_assert_str_eq(seen_cfg, "");
	ck_assert_uint_eq(seen_len, 0);
	/* registered while initialized: called at once */
	ck_assert_int_eq(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_CBLAS, init_plain, (void *)&L), ACL_SUCCESS);
	ck_assert_str_eq(calls, "MDOPL");
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);

	/* with a config file: its content, and OP_EXECUTOR too */
	f = fopen(cfg, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{\"dump\": {}}\n", f);
	fclose(f);
	memset(calls, 0, sizeof(calls));
	ck_assert_int_eq(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, init_plain), ACL_SUCCESS);
	ck_assert_int_eq(aclInit(cfg), ACL_SUCCESS);
	ck_assert_str_eq(calls, "MEDP");
	ck_assert_str_eq(seen_cfg, "{\"dump\": {}}\n");
	ck_assert_uint_eq(seen_len, 13);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);

	/* a failing callback fails aclInit, which counts nothing */
	memset(calls, 0, sizeof(calls));
	fail_with = ACL_ERROR_FAILURE;
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_FAILURE);
	ck_assert_str_eq(calls, "M");
	ck_assert_int_eq(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
	fail_with = ACL_SUCCESS;
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	unlink(cfg);
}
END_TEST

START_TEST(finalize_callbacks)
{
	static const char C = 'C', M = 'M', D = 'D', O = 'O', Q = 'Q';

	ck_assert_int_eq(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fini_cb, (void *)&O), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, fini_cb, (void *)&D), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, fini_fail, (void *)&M), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_OP_COMPILER, fini_cb, (void *)&C), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_TDT_CHANNEL, fini_cb, (void *)&Q), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, fini_cb, NULL), ACL_ERROR_INTERNAL_ERROR);
	ck_assert_int_eq(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, fini_fail), ACL_ERROR_INTERNAL_ERROR);

	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_str_eq(calls, "");	/* none at init */
	/* a failing one: aclFinalize fails, still initialized, device kept */
	fail_with = ACL_ERROR_FAILURE;
	ck_assert_int_eq(aclFinalize(), ACL_ERROR_FAILURE);
	ck_assert_str_eq(calls, "CM");
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
	ck_assert_int_eq(aclrtGetDevice(&(int32_t){ 0 }), ACL_SUCCESS);
	fail_with = ACL_SUCCESS;
	memset(calls, 0, sizeof(calls));
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ck_assert_str_eq(calls, "CMDO");
	ck_assert_int_eq(aclrtGetDevice(&(int32_t){ 0 }), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, fini_fail), ACL_SUCCESS);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	memset(calls, 0, sizeof(calls));
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ck_assert_str_eq(calls, "CDO");
}
END_TEST

/* ---- device state callbacks --------------------------------------------- */

static char states[64];

static void state_cb(int32_t dev, aclrtDeviceState st, void *args)
{
	size_t n = strlen(states);

	if (n + 3 < sizeof(states)) {
		states[n] = (char)('0' + dev);
		states[n + 1] = (char)('a' + st);	/* a SET_PRE .. d RESET_POST */
		states[n + 2] = *(const char *)args;
	}
}

START_TEST(device_state_callbacks)
{
	static const char X = 'x', Y = 'y';

	ck_assert_int_eq(aclrtRegDeviceStateCallback("one", state_cb, (void *)&X), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_str_eq(states, "1ax1bx");
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);	/* set again: POST only */
	ck_assert_str_eq(states, "1ax1bx1bx");
	memset(states, 0, sizeof(states));
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);	/* a reference left */
	ck_assert_str_eq(states, "");
	ck_assert_int_eq(aclrtRegDeviceStateCallback("two", state_cb, (void *)&Y), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_str_eq(states, "1cx1cy1dx1dy");

	ck_assert_int_eq(aclrtRegDeviceStateCallback("one", state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtRegDeviceStateCallback(NULL, state_cb, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtRegDeviceStateCallback("none", NULL, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRegDeviceStateCallback("one", NULL, NULL), ACL_SUCCESS);
	memset(states, 0, sizeof(states));
	ck_assert_int_eq(aclrtSetDevice(1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(1), ACL_SUCCESS);
	ck_assert_str_eq(states, "1ay1by1cy1dy");
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);	/* current again for teardown */
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
}
END_TEST

/* ---- exception callbacks ------------------------------------------------- */

struct exc_seen {
	int n;
	uint32_t dev, stream, tid, code;
};
static struct exc_seen exc_a, exc_module;

static void exc_record(struct exc_seen *s, aclrtExceptionInfo *info)
{
	s->n++;
	s->dev = aclrtGetDeviceIdFromExceptionInfo(info);
	s->stream = aclrtGetStreamIdFromExceptionInfo(info);
	s->tid = aclrtGetThreadIdFromExceptionInfo(info);
	s->code = aclrtGetErrorCodeFromExceptionInfo(info);
}

static void exc_cb(aclrtExceptionInfo *info)
{
	exc_record(&exc_a, info);
}

static void exc_module_cb(aclrtExceptionInfo *info)
{
	exc_record(&exc_module, info);
}

/* Queue a copy to host memory that is gone when it runs, on stream s. */
static void failing_copy(aclrtStream s, void *d, size_t n)
{
	void *h = NULL;

	ck_assert_int_eq(aclrtMallocHost(&h, n), ACL_SUCCESS);
	vm_stream_hold(1);
	ck_assert_int_eq(aclrtMemcpyAsync(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(h), ACL_SUCCESS);
	vm_stream_hold(0);
}

START_TEST(exception_callbacks)
{
	const size_t n = 64 * KiB;
	aclrtStream s1 = NULL, s2 = NULL;
	uint32_t first;
	void *d = NULL;

	ck_assert_int_eq(aclrtMalloc(&d, n, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtExceptionInfoCallbackRegister(exc_cb), ACL_SUCCESS);
	ck_assert_int_eq(aclrtExceptionInfoCallbackRegister(exc_cb), ACL_SUCCESS);	/* still once */
	ck_assert_int_eq(aclrtSetExceptionInfoCallback(exc_module_cb), ACL_SUCCESS);

	failing_copy(s1, d, n);
	ck_assert_int_eq(exc_a.n, 0);	/* learned at the synchronize */
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(exc_a.n, 1);
	ck_assert_int_eq(exc_module.n, 1);
	ck_assert_uint_eq(exc_a.dev, 0);
	ck_assert_uint_eq(exc_a.code, ACL_ERROR_RT_COPY_DATA);
	ck_assert_uint_eq(exc_a.tid, (uint32_t)syscall(SYS_gettid));
	ck_assert_uint_ne(exc_a.stream, 0xFFFFFFFFu);
	ck_assert_uint_eq(exc_module.stream, exc_a.stream);
	first = exc_a.stream;
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);	/* reported once */
	ck_assert_int_eq(exc_a.n, 1);

	/* another stream: another id; a device-wide synchronize: no stream */
	failing_copy(s2, d, n);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(s2, -1), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(exc_a.n, 2);
	ck_assert_uint_ne(exc_a.stream, first);
	ck_assert_int_eq(aclrtSetExceptionInfoCallback(NULL), ACL_SUCCESS);
	failing_copy(s1, d, n);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(exc_a.n, 3);
	ck_assert_int_eq(exc_module.n, 2);	/* removed */
	ck_assert_uint_eq(exc_a.stream, 0xFFFFFFFFu);
	ck_assert_uint_eq(exc_a.dev, 0);

	/* other failures are not task failures */
	ck_assert_int_eq(aclrtSynchronizeStream((aclrtStream)&first), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(exc_a.n, 3);

	ck_assert_int_eq(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtExceptionInfoCallbackUnregister(NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtExceptionInfoCallbackUnregister(exc_module_cb), ACL_SUCCESS);	/* not there */
	ck_assert_int_eq(aclrtExceptionInfoCallbackUnregister(exc_cb), ACL_SUCCESS);
	failing_copy(s1, d, n);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_ERROR_RT_COPY_DATA);
	ck_assert_int_eq(exc_a.n, 3);

	ck_assert_uint_eq(aclrtGetDeviceIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
	ck_assert_uint_eq(aclrtGetStreamIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
	ck_assert_uint_eq(aclrtGetThreadIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
	ck_assert_uint_eq(aclrtGetErrorCodeFromExceptionInfo(NULL), 0xFFFFFFFFu);
	ck_assert_ptr_nonnull(aclGetRecentErrMsg());
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

/* ---- CANN attributes and the application log ---------------------------- */

static void write_version(const char *home, const char *version)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "mkdir -p %s/share/info/runtime", home);
	ck_assert_int_eq(system(path), 0);
	snprintf(path, sizeof(path), "%s/share/info/runtime/version.info", home);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "Version=%s\n", version);
	fclose(f);
}

START_TEST(cann_attributes)
{
	const char *home = "/tmp/npu_sim_cann_home";
	const aclCannAttr *list = NULL;
	size_t num = 9;
	int32_t v = 9;

	setenv("ASCEND_HOME_PATH", home, 1);
	write_version(home, "7.1.0");
	ck_assert_int_eq(aclGetCannAttributeList(&list, &num), ACL_SUCCESS);
	ck_assert_uint_eq(num, 3);
	ck_assert_int_eq(list[0], ACL_CANN_ATTR_INF_NAN);
	ck_assert_int_eq(list[1], ACL_CANN_ATTR_BF16);
	ck_assert_int_eq(list[2], ACL_CANN_ATTR_JIT_COMPILE);
	ck_assert_int_eq(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 1);
	write_version(home, "7.0.RC1");
	ck_assert_int_eq(aclGetCannAttributeList(&list, &num), ACL_SUCCESS);
	ck_assert_uint_eq(num, 1);
	ck_assert_int_eq(list[0], ACL_CANN_ATTR_JIT_COMPILE);
	ck_assert_int_eq(aclGetCannAttribute(ACL_CANN_ATTR_INF_NAN, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 1);
	write_version(home, "6.3.0");
	ck_assert_int_eq(aclGetCannAttributeList(&list, &num), ACL_SUCCESS);
	ck_assert_uint_eq(num, 0);
	v = 9;
	ck_assert_int_eq(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclGetCannAttribute((aclCannAttr)3, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclGetCannAttributeList(NULL, &num), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclGetCannAttributeList(&list, NULL), ACL_ERROR_INVALID_PARAM);
	unsetenv("ASCEND_HOME_PATH");
	ck_assert_int_eq(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v), ACL_ERROR_INTERNAL_ERROR);
	ck_assert_int_eq(aclGetCannAttributeList(&list, &num), ACL_ERROR_INTERNAL_ERROR);
	ck_assert_int_eq(v, 9);
	ck_assert_uint_eq(num, 0);
}
END_TEST

START_TEST(app_log)
{
	const char *dir = "/tmp/npu_sim_applog";
	char path[256], line[2048], big[1500];
	FILE *f;

	ck_assert_int_eq(system("rm -rf /tmp/npu_sim_applog"), 0);
	setenv("ASCEND_PROCESS_LOG_PATH", dir, 1);
	unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
	setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
	snprintf(path, sizeof(path), "%s/plog/plog-%d.log", dir, (int)getpid());
	aclAppLog(ACL_INFO, "fn", "file.c", 7, "below %d", 1);	/* under the level */
	ck_assert(!vm_exists(path));
	aclAppLog(ACL_WARNING, NULL, "file.c", 7, "x");
	aclAppLog(ACL_WARNING, "fn", "file.c", 7, NULL);
	ck_assert(!vm_exists(path));
	ACL_APP_LOG(ACL_WARNING, "hello %s %d", "world", 42);
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	aclAppLog(ACL_ERROR, "fn", "file.c", 9, "%s", big);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert(strncmp(line, "[WARNING] APP(", 14) == 0);
	ck_assert_ptr_nonnull(strstr(line, " app_log"));
	ck_assert_ptr_nonnull(strstr(line, "test_device_info.c:"));
	ck_assert_ptr_nonnull(strstr(line, ": \"hello world 42\"\n"));
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert(strncmp(line, "[ERROR] APP(", 12) == 0);
	ck_assert_uint_eq(strlen(line), 1024);	/* 1023 bytes and the newline */
	ck_assert_str_eq(line + 1023 - strlen("...[truncated]"), "...[truncated]\n");
	ck_assert_ptr_null(fgets(line, sizeof(line), f));
	fclose(f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("device_info");
	TCase *d = tcase_create("device");
	TCase *b = tcase_create("buffers");
	TCase *c = tcase_create("init");
	TCase *e = tcase_create("callbacks");

	tcase_add_checked_fixture(d, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(d, VM_TIMEOUT);
	tcase_add_test(d, device_info_values);
	tcase_add_test(d, device_info_refusals);
	tcase_add_test(d, capabilities);
	tcase_add_test(d, arch_compatibility);
	tcase_add_test(d, status_and_utilization);
	tcase_add_test(d, uuid_and_pci);
	tcase_add_test(d, id_mappings);
	tcase_add_test(d, topology_and_atomics);
	tcase_add_test(d, primary_ctx_state);
	tcase_add_test(d, res_limits);
	tcase_add_test(d, device_limits);
	tcase_add_test(d, sys_params);
	tcase_add_test(d, ctx_sys_params);
	tcase_add_test(d, ts_device);
	suite_add_tcase(s, d);
	tcase_add_checked_fixture(b, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(b, VM_TIMEOUT);
	tcase_add_test(b, buf_data_and_user_data);
	tcase_add_test(b, buf_chains);
	tcase_add_test(b, buf_threads);
	suite_add_tcase(s, b);
	tcase_add_checked_fixture(c, vm_mod_setup, NULL);
	tcase_set_timeout(c, VM_TIMEOUT);
	tcase_add_test(c, init_callbacks);
	tcase_add_test(c, finalize_callbacks);
	tcase_add_test(c, cann_attributes);
	tcase_add_test(c, app_log);
	suite_add_tcase(s, c);
	tcase_add_checked_fixture(e, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(e, VM_TIMEOUT);
	tcase_add_test(e, device_state_callbacks);
	tcase_add_test(e, exception_callbacks);
	suite_add_tcase(s, e);
	return vm_run_suite(s);
}
