/*
 * Device faults: aclrtGetMemUceInfo, aclrtMemUceRepair (uncorrectable
 * memory errors, UCE) and aclrtGetErrorVerbose, aclrtRepairError.
 *
 * An emulated device's memory is host RAM behind the driver: it never
 * reports a UCE, a link or an AI Core fault.  So the calls answer what the
 * runtime answers for a device whose driver reports no fault: no UCE
 * ranges (count 0), ACL_RT_NO_ERROR, and a repair that finds nothing to
 * repair succeeds.  The checks before that and their codes follow
 * acl/aclrt_impl/event.cpp and runtime api_error.cc / api_impl.cc
 * (docs/cann-api-notes.md section 8).
 */
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "profile.h"

/*
 * The runtime's chip feature check, before the device id's: 207000 when the
 * product lacks feature (NPU_SIM_PROFILE_FAST_RECOVER: ApiErrorDecorator::
 * GetMemUceInfo, MemUceRepair; NPU_SIM_PROFILE_ERR_REPAIR: rtsGetErrorVerbose,
 * rtsRepairError).
 */
static aclError fault_feature(uint32_t feature, const char *call)
{
	const char *product = "this product";

	if (npu_rt_product_has(feature, &product))
		return ACL_SUCCESS;
	npu_rt_msg_detail("%s does not support %s", product, call);
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray,
						size_t arraySize, size_t *retSize)
{
	aclError err;

	(void)arraySize;	/* any size holds the 0 records there are */
	if (memUceInfoArray == NULL || retSize == NULL) {
		npu_rt_msg_detail("%s is NULL", memUceInfoArray == NULL ? "memUceInfoArray" : "retSize");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = fault_feature(NPU_SIM_PROFILE_FAST_RECOVER, "aclrtGetMemUceInfo");
	if (err == ACL_SUCCESS)
		err = npu_rt_device_id_check(deviceId, "deviceId");
	if (err != ACL_SUCCESS)
		return err;
	*retSize = 0;
	return ACL_SUCCESS;
}

/* The runtime's limit on the ranges of one repair. */
#define UCE_REPAIR_MAX MAX_MEM_UCE_INFO_ARRAY_SIZE

ACL_FUNC_VISIBILITY aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray,
					       size_t arraySize)
{
	if (memUceInfoArray == NULL) {
		npu_rt_msg_detail("memUceInfoArray is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (arraySize > UCE_REPAIR_MAX) {
		npu_rt_msg_detail("arraySize %zu is above %d", arraySize, UCE_REPAIR_MAX);
		return ACL_ERROR_INVALID_PARAM;
	}
	/* The ACL layer compares the first UCE_INFO_RESERVED_SIZE bytes (not
	 * words) of reserved with zeros: the rest of it is not looked at. */
	for (size_t i = 0; i < arraySize; i++) {
		static const unsigned char zero[UCE_INFO_RESERVED_SIZE];

		if (memcmp(memUceInfoArray[i].reserved, zero, UCE_INFO_RESERVED_SIZE) != 0) {
			npu_rt_msg_detail("memUceInfoArray[%zu].reserved is not 0 (its first %d bytes)", i,
					  UCE_INFO_RESERVED_SIZE);
			return ACL_ERROR_INVALID_PARAM;
		}
	}
	if (fault_feature(NPU_SIM_PROFILE_FAST_RECOVER, "aclrtMemUceRepair") != ACL_SUCCESS)
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	/* no range of the device has a UCE: nothing to repair */
	return npu_rt_device_id_check(deviceId, "deviceId");
}

ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo)
{
	aclError err;

	if (errorInfo == NULL) {
		npu_rt_msg_detail("errorInfo is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = fault_feature(NPU_SIM_PROFILE_ERR_REPAIR, "aclrtGetErrorVerbose");
	if (err == ACL_SUCCESS)
		err = npu_rt_device_id_check(deviceId, "deviceId");
	if (err != ACL_SUCCESS)
		return err;
	/* the fields the runtime writes for a device with no fault */
	errorInfo->tryRepair = 0;
	errorInfo->hasDetail = 0;
	errorInfo->errorType = ACL_RT_NO_ERROR;
	errorInfo->detail.aicoreErrType = ACL_RT_AICORE_ERROR_UNKNOWN;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo *errorInfo)
{
	aclError err;

	if (errorInfo == NULL) {
		npu_rt_msg_detail("errorInfo is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = fault_feature(NPU_SIM_PROFILE_ERR_REPAIR, "aclrtRepairError");
	if (err != ACL_SUCCESS)
		return err;
	if (errorInfo->tryRepair == 0) {
		npu_rt_msg_detail("errorInfo->tryRepair is 0 (a repair is asked with 1)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_device_id_check(deviceId, "deviceId");
	if (err != ACL_SUCCESS)
		return err;
	/* the runtime repairs through the device object of a set device */
	if (npu_rt_enter_device(deviceId) != ACL_SUCCESS) {
		npu_rt_msg_detail("device %d is not set in this process (aclrtSetDevice)", (int)deviceId);
		return ACL_ERROR_RT_DEV_SETUP_ERROR;
	}
	npu_rt_devices_unlock();
	switch (errorInfo->errorType) {
	case ACL_RT_NO_ERROR:
	case ACL_RT_ERROR_MEMORY:	/* no UCE range: nothing to repair */
		return ACL_SUCCESS;
	default:
		npu_rt_msg_detail("errorType %d cannot be repaired (ACL_RT_NO_ERROR or ACL_RT_ERROR_MEMORY)",
				  (int)errorInfo->errorType);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
}
