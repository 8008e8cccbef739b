/*
 * Sharing physical memory between processes (CANN 11-04; docs/design.md 4.3):
 * aclrtMemExportToShareableHandle, aclrtMemSetPidToShareableHandle,
 * aclrtMemImportFromShareableHandle over the SHARE_* ioctls.  The shareable
 * handle is the driver's key: a random non-zero 64-bit value.  The V2
 * calls (by pointer, fabric handles) follow at the end.
 *
 * Error codes (docs/cann-api-notes.md, table "Checks and codes"):
 *   100000 the CANN ACL layer's checks only (NULL pointers, handleType !=
 *          NONE, pidNum 0);
 *   107001 deviceId not a device; 107002 the device is not open;
 *   107017 handle / shareable handle not live (never exported, guessed,
 *          its exporter already freed it, a handle value not made by this
 *          library);
 *   107000 export flags other than DISABLE_PID_VALIDATION (the runtime);
 *          shareableHandle 0, pid <= 0, more than 1024 pids, a second
 *          export of the same handle (the driver's: npu_sim's choice of
 *          its "invalid value");
 *   207006 import by a process not on the whitelist, import in the
 *          exporting process, SetPid by another process than the
 *          exporter, export of an imported handle.
 */
#include <string.h>
#include <errno.h>

#include "acl_internal.h"
#include "check.h"
#include "err_msg.h"
#include "vmm_rules.h"

/*
 * aclrtMemExportToShareableHandle - export handle once.  flags:
 * ACL_RT_VMM_EXPORT_FLAG_DEFAULT (whitelist enforced) or
 * ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle,
							     aclrtMemHandleType handleType, uint64_t flags,
							     uint64_t *shareableHandle)
{
	struct npu_sim_share_export req;
	aclError err;
	uint32_t id;
	int dev, fd, rc;

	if (handle == NULL || handleType != ACL_MEM_HANDLE_TYPE_NONE || shareableHandle == NULL)
		return ACL_ERROR_INVALID_PARAM;
	if ((flags & ~ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION) != 0) {
		npu_rt_msg_detail("flags 0x%llx: only ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION is known",
				  (unsigned long long)flags);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_enter_handle(handle, &dev, &fd, &id);
	if (err != ACL_SUCCESS)
		return err;
	memset(&req, 0, sizeof(req));
	req.handle = id;
	if (flags & ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		req.flags = NPU_SIM_SHARE_NO_PID_CHECK;
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_SHARE_EXPORT, &req);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE);
	*shareableHandle = req.key;
	npu_rt_check_exported(dev, (uintptr_t)handle, req.key);
	return ACL_SUCCESS;
}

/*
 * Add num process ids to the whitelist of driver key (a shareable handle
 * or an IPC key) through the current device.  A list that is empty, too
 * long or holds a pid <= 0 is refused with bad (the two API groups answer
 * it with different codes); *rc is the driver's answer otherwise.
 */
aclError npu_rt_share_set_pids(uint64_t key, int32_t *pid, size_t num, aclError bad, int *rc)
{
	struct npu_sim_share_set_pids req = { .key = key, .pids = (uintptr_t)pid,
					      .nr = (uint32_t)num };

	if (num == 0 || num > NPU_SIM_SHARE_MAX_PIDS) {
		npu_rt_msg_detail("num %zu is not in 1..%d", num, NPU_SIM_SHARE_MAX_PIDS);
		return bad;
	}
	for (size_t i = 0; i < num; i++) {
		if (pid[i] <= 0) {
			npu_rt_msg_detail("pid[%zu] is %d (a process id is > 0)", i, pid[i]);
			return bad;
		}
	}
	return npu_rt_ioctl_current(NPU_SIM_IOCTL_SHARE_SET_PIDS, &req, rc);
}

/*
 * aclrtMemSetPidToShareableHandle - add pidNum processes (tgids) to the
 * whitelist of a key this process exported (through its current device).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid,
							     size_t pidNum)
{
	aclError err;
	int rc;

	if (pid == NULL || pidNum == 0)
		return ACL_ERROR_INVALID_PARAM;
	if (shareableHandle == 0) {	/* the driver's refusal */
		npu_rt_msg_detail("shareableHandle is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_share_set_pids(shareableHandle, pid, pidNum, ACL_ERROR_RT_PARAM_INVALID, &rc);
	if (err != ACL_SUCCESS)
		return err;
	return rc != 0 ? npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE) : ACL_SUCCESS;
}

/*
 * aclrtMemImportFromShareableHandle - a new handle of this process on
 * device deviceId (which must be open: aclrtSetDevice) for the memory the
 * key names.  The importer's aclrtFreePhysical drops only its own hold.
 * Memory of another device: like the runtime (api_impl.cc
 * ImportFromShareableHandle), deviceId is given peer access to that device
 * (as aclrtDeviceEnablePeerAccess would) when the import succeeds.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
							       aclrtDrvMemHandle *handle)
{
	struct npu_sim_share_import req;
	aclError err;
	int rc;

	if (handle == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = npu_rt_device_id_check(deviceId, "deviceId");
	if (err != ACL_SUCCESS)
		return err;
	if (shareableHandle == 0) {	/* the driver's refusal */
		npu_rt_msg_detail("shareableHandle is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_enter_device(deviceId);
	if (err != ACL_SUCCESS)
		return err;
	memset(&req, 0, sizeof(req));
	req.key = shareableHandle;
	req.flags = NPU_SIM_SHARE_IMPORT_ENABLE_PEER;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(deviceId), NPU_SIM_IOCTL_SHARE_IMPORT, &req);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE);
	*handle = npu_rt_handle_encode(deviceId, req.handle);
	return ACL_SUCCESS;
}

/*
 * The V2 share calls: aclrtMemExportToShareableHandleV2,
 * aclrtMemSetPidToShareableHandleV2, aclrtMemImportFromShareableHandleV2.
 * They take the shareable handle by pointer: a uint64_t for
 * ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, an aclrtMemFabricHandle for
 * ACL_MEM_SHARE_HANDLE_TYPE_FABRIC.  npu_sim is one machine, so both kinds
 * name the same local share as the V1 calls make: a fabric handle carries
 * the 64-bit key in its first 8 bytes and zeros after.  Import has no
 * device argument: the memory is imported into the current device, which
 * gets peer access to the exporter's device as in the V1 call.
 */

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
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle,
								 aclrtMemSharedHandleType shareType,
								 uint64_t flags, aclrtDrvMemHandle *handle)
{
	int cur;
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
	npu_rt_devices_unlock();
	/* As the runtime does: into the current device, peer access enabled. */
	return aclrtMemImportFromShareableHandle(key, cur, handle);
}
