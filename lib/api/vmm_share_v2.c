/*
 * The V2 share calls: aclrtMemExportToShareableHandleV2,
 * aclrtMemSetPidToShareableHandleV2, aclrtMemImportFromShareableHandleV2.
 * They take the shareable handle by pointer: a uint64_t for
 * ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, an aclrtMemFabricHandle for
 * ACL_MEM_SHARE_HANDLE_TYPE_FABRIC.  npu_sim is one machine, so both kinds
 * name the same local share as the V1 calls make: a fabric handle carries
 * the 64-bit key in its first 8 bytes and zeros after.  Import has no
 * device argument: the memory is imported into whichever device of this
 * process it belongs to (the current device is tried first).
 */
#include <errno.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "vmm_rules.h"

/* Read the key a V2 shareable handle holds; 0 when it holds none. */
static uint64_t read_key(const void *shareableHandle, aclrtMemSharedHandleType shareType)
{
	static const uint8_t zero[sizeof(aclrtMemFabricHandle) - sizeof(uint64_t)];
	uint64_t key;

	memcpy(&key, shareableHandle, sizeof(key));
	if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC &&
	    memcmp((const uint8_t *)shareableHandle + sizeof(key), zero, sizeof(zero)) != 0)
		return 0;	/* not a fabric handle npu_sim made */
	return key;
}

static int share_type_ok(aclrtMemSharedHandleType shareType)
{
	if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT || shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
		return 1;
	npu_rt_msg_detail("shareType %d is neither ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT (1) nor _FABRIC (2)",
			  (int)shareType);
	return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
							       aclrtMemSharedHandleType shareType,
							       void *shareableHandle)
{
	aclrtMemFabricHandle fabric;
	uint64_t key = 0;
	aclError err;

	if (shareableHandle == NULL) {
		npu_rt_msg_detail("shareableHandle is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (!share_type_ok(shareType))
		return ACL_ERROR_INVALID_PARAM;
	err = aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, flags, &key);
	if (err != ACL_SUCCESS)
		return err;
	if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
		memset(&fabric, 0, sizeof(fabric));
		memcpy(fabric.data, &key, sizeof(key));
		memcpy(shareableHandle, &fabric, sizeof(fabric));
	} else {
		memcpy(shareableHandle, &key, sizeof(key));
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle,
							       aclrtMemSharedHandleType shareType,
							       int32_t *pid, size_t pidNum)
{
	if (shareableHandle == NULL) {
		npu_rt_msg_detail("shareableHandle is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (!share_type_ok(shareType))
		return ACL_ERROR_INVALID_PARAM;
	return aclrtMemSetPidToShareableHandle(read_key(shareableHandle, shareType), pid, pidNum);
}

/* Import key on device dev: 0 and *handle, or the negative errno. */
static int import_on(int dev, uint64_t key, aclrtDrvMemHandle *handle)
{
	struct npu_sim_share_import req;
	int rc;

	memset(&req, 0, sizeof(req));
	req.key = key;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_SHARE_IMPORT, &req);
	if (rc == 0)
		*handle = npu_rt_handle_encode(dev, req.handle);
	return rc;
}

ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle,
								 aclrtMemSharedHandleType shareType,
								 uint64_t flags, aclrtDrvMemHandle *handle)
{
	int cur, rc = -EXDEV;
	uint64_t key;

	if (shareableHandle == NULL || handle == NULL) {
		npu_rt_msg_detail("%s is NULL", handle == NULL ? "handle" : "shareableHandle");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (!share_type_ok(shareType))
		return ACL_ERROR_INVALID_PARAM;
	if (flags != 0) {
		npu_rt_msg_detail("flags 0x%llx must be 0", (unsigned long long)flags);
		return ACL_ERROR_INVALID_PARAM;
	}
	key = read_key(shareableHandle, shareType);
	if (key == 0) {
		npu_rt_msg_detail("the shareable handle holds no key npu_sim exported");
		return ACL_ERROR_RT_INVALID_HANDLE;
	}
	if (npu_rt_enter_current(&cur) != ACL_SUCCESS) {
		npu_rt_msg_detail("no current device to import into (call aclrtSetDevice first)");
		return ACL_ERROR_RT_CONTEXT_NULL;
	}
	rc = import_on(cur, key, handle);
	for (int dev = 0; dev < NPU_RT_MAX_DEVICES && rc == -EXDEV; dev++)
		if (dev != cur && npu_rt_device_fd_locked(dev) >= 0)
			rc = import_on(dev, key, handle);
	npu_rt_devices_unlock();
	if (rc == -EXDEV) {
		npu_rt_msg_detail("the memory belongs to a device this process has not set");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return rc != 0 ? npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE) : ACL_SUCCESS;
}
