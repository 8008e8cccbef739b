/*
 * Sharing physical memory between processes (CANN 11-04; docs/design.md 4.3):
 * aclrtMemExportToShareableHandle, aclrtMemSetPidToShareableHandle,
 * aclrtMemImportFromShareableHandle over the SHARE_* ioctls.  The shareable
 * handle is the driver's key: a random non-zero 64-bit value.
 *
 * Error codes (choices where docs/cann-api-notes.md is silent):
 *   100000 ACL-layer checks (NULL pointers, handleType != NONE, unknown
 *          flags bits, shareableHandle 0, pid <= 0, pidNum 0 or > 1024,
 *          a handle value not made by this library);
 *   107001 deviceId out of range; 107002 the device is not open;
 *   107017 handle / shareable handle not live (never exported, guessed,
 *          or its exporter already freed it);
 *   107000 a second export of the same handle; import into another
 *          device than the memory's without peer access to it;
 *   207006 import by a process not on the whitelist, import in the
 *          exporting process, SetPid by another process than the
 *          exporter, export of an imported handle.
 */
#include <string.h>

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

	if (shareableHandle == NULL || handleType != ACL_MEM_HANDLE_TYPE_NONE ||
	    (flags & ~ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION) != 0)
		return ACL_ERROR_INVALID_PARAM;
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

	if (shareableHandle == 0 || pid == NULL)
		return ACL_ERROR_INVALID_PARAM;
	err = npu_rt_share_set_pids(shareableHandle, pid, pidNum, ACL_ERROR_INVALID_PARAM, &rc);
	if (err != ACL_SUCCESS)
		return err;
	return rc != 0 ? npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE) : ACL_SUCCESS;
}

/*
 * aclrtMemImportFromShareableHandle - a new handle of this process on
 * device deviceId (which must be open: aclrtSetDevice) for the memory the
 * key names.  The importer's aclrtFreePhysical drops only its own hold.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
							       aclrtDrvMemHandle *handle)
{
	struct npu_sim_share_import req;
	aclError err;
	int rc;

	if (handle == NULL || shareableHandle == 0)
		return ACL_ERROR_INVALID_PARAM;
	if (deviceId < 0 || deviceId >= NPU_RT_MAX_DEVICES)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	err = npu_rt_enter_device(deviceId);
	if (err != ACL_SUCCESS)
		return err;
	memset(&req, 0, sizeof(req));
	req.key = shareableHandle;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(deviceId), NPU_SIM_IOCTL_SHARE_IMPORT, &req);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE);
	*handle = npu_rt_handle_encode(deviceId, req.handle);
	return ACL_SUCCESS;
}
