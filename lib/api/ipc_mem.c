/*
 * IPC memory by key: aclrtIpcMemGetExportKey, aclrtIpcMemImportByKey,
 * aclrtIpcMemSetImportPid, aclrtIpcMemClose over the IPC_* ioctls (and
 * SHARE_SET_PIDS, which fills an IPC key's whitelist too); and
 * aclrtIpcMemSetAttr, aclrtIpcMemImportPidInterServer, which the runtime
 * refuses (207000) on a device like npu_sim's.
 *
 * The key the API hands out is a NUL-terminated string naming the driver's
 * random 64-bit key: "npusim-ipc-" and 16 lowercase hex digits (28 bytes
 * with the NUL, so it fits the documented 65-byte buffer).
 *
 * Error codes (the runtime's codes for the shareable-handle calls, see
 * vmm_share.c): 100000 NULL pointers; 107000 size 0, len too small,
 * flags / num out of range, an address outside one allocation, a key of
 * memory of another device without peer access; 107002 no current device;
 * 107017 a string that names no live key; 207006 import by the exporting
 * process or by one not on the whitelist, SetImportPid by another process.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "acl_internal.h"
#include "check.h"
#include "err_msg.h"
#include "key_string.h"
#include "vmm_rules.h"

#define KEY_PREFIX "npusim-ipc-"
#define KEY_PREFIX_LEN (sizeof(KEY_PREFIX) - 1)
#define KEY_STR_LEN (KEY_PREFIX_LEN + 16 + 1)	/* with the NUL: 28 */

/* 0 and the driver key named by s, or -1 when s is not a key string. */
static int key_parse(const char *s, uint64_t *key)
{
	return npu_rt_key_parse(s, KEY_PREFIX, key);
}

/* The checks every call taking a key string makes: 100000 / 107017. */
static aclError key_arg(const char *s, uint64_t *key)
{
	if (s == NULL) {
		npu_rt_msg_detail("key is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (key_parse(s, key) != 0) {
		npu_rt_msg_detail("key \"%.64s\" is not a key aclrtIpcMemGetExportKey made", s);
		return ACL_ERROR_RT_INVALID_HANDLE;
	}
	return ACL_SUCCESS;
}

static aclError ipc_error(const char *what, int rc)
{
	switch (-rc) {
	case ENOENT:
		npu_rt_msg_detail("%s: no live IPC key of that name (never exported, or closed by its exporter)",
				  what);
		break;
	case EPERM:
		npu_rt_msg_detail("%s: not permitted to this process (the exporter may not import its own key; "
				  "only the exporter may set the pids)", what);
		break;
	case EACCES:
		npu_rt_msg_detail("%s: this process (pid %d in the initial namespace) is not on the key's "
				  "whitelist (aclrtIpcMemSetImportPid)", what, (int)getpid());
		break;
	case EXDEV:
		npu_rt_msg_detail("%s: the memory is on another device and this device has no peer access "
				  "to it (ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)", what);
		break;
	default:
		break;
	}
	return npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len,
						     uint64_t flags)
{
	struct npu_sim_ipc_export req;
	struct npu_rt_loc loc;
	aclError err;
	int dev, rc;

	if (devPtr == NULL || key == NULL) {
		npu_rt_msg_detail("%s is NULL", devPtr == NULL ? "devPtr" : "key");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (size == 0 || len < KEY_STR_LEN || flags > ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
		npu_rt_msg_detail("size %zu (must be > 0), len %zu (must be >= %zu; 65 is documented) or "
				  "flags 0x%" PRIx64 " (0 or 1) refused", size, len, (size_t)KEY_STR_LEN, flags);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	loc = npu_rt_locate_locked(devPtr, size);
	if (loc.kind != NPU_RT_LOC_DEVICE) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("[%p, +%zu) is not device memory of one device of this process", devPtr, size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	memset(&req, 0, sizeof(req));
	req.va = (uintptr_t)devPtr;
	req.size = size;
	if (flags & ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		req.flags = NPU_SIM_IPC_NO_PID_CHECK;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(loc.dev), NPU_SIM_IOCTL_IPC_EXPORT, &req);
	npu_rt_devices_unlock();
	if (rc == -EINVAL) {
		npu_rt_msg_detail("[%p, +%zu) is not inside one aclrtMalloc allocation of this process",
				  devPtr, size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (rc != 0)
		return ipc_error("export", rc);
	snprintf(key, len, KEY_PREFIX "%016" PRIx64, (uint64_t)req.key);
	npu_rt_check_created(NPU_RT_CK_IPC, loc.dev, (uintptr_t)req.key, size);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags)
{
	struct npu_sim_ipc_import req;
	uint64_t k;
	aclError err;
	int dev, rc;

	if (devPtr == NULL || key == NULL) {
		npu_rt_msg_detail("%s is NULL", devPtr == NULL ? "devPtr" : "key");
		return ACL_ERROR_INVALID_PARAM;
	}
	/* The runtime checks the flags before the key reaches the driver. */
	if (flags > ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS) {
		npu_rt_msg_detail("flags 0x%" PRIx64 " is not 0 or ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS",
				  flags);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = key_arg(key, &k);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	memset(&req, 0, sizeof(req));
	req.key = k;
	if (flags & ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
		req.flags = NPU_SIM_IPC_ENABLE_PEER;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_IPC_IMPORT, &req);
	npu_rt_devices_unlock();
	if (rc != 0)
		return ipc_error("import", rc);
	*devPtr = (void *)(uintptr_t)req.va;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num)
{
	uint64_t k;
	aclError err;
	int rc;

	if (pid == NULL) {
		npu_rt_msg_detail("pid is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = key_arg(key, &k);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_share_set_pids(k, pid, num, ACL_ERROR_RT_PARAM_INVALID, &rc);
	if (err != ACL_SUCCESS)
		return err;
	if (rc == -ENOSPC)
		npu_rt_msg_detail("the key's whitelist would hold more than %d pids", NPU_SIM_SHARE_MAX_PIDS);
	return rc != 0 ? ipc_error("set pids", rc) : ACL_SUCCESS;
}

/*
 * aclrtIpcMemSetAttr: the runtime passes the access link of a key to the
 * driver only on a device in flat address mode whose chip has non-unified
 * addresses (ApiImpl::IpcSetMemoryAttr); for any other device it answers
 * 207000 after its argument checks.  An npu_sim device has one path to
 * memory and no flat address mode, so that is its answer: no link is set.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr)
{
	aclError err;
	int dev;

	if (key == NULL) {	/* the runtime's check: no ACL layer check here */
		npu_rt_msg_detail("key is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if ((uint32_t)type > (uint32_t)ACL_RT_IPC_MEM_ATTR_ACCESS_LINK ||
	    attr > ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH) {
		npu_rt_msg_detail("type %u (0: ACL_RT_IPC_MEM_ATTR_ACCESS_LINK) or attr %" PRIu64 " (0..3) refused",
				  (uint32_t)type, attr);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	npu_rt_msg_detail("the device has a single memory path: no IPC access link to choose");
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

/*
 * aclrtIpcMemImportPidInterServer: whitelist processes of other servers of
 * a SuperPod (by their server's sdid).  The runtime checks the arguments
 * and gives each entry to the driver in turn; npu_sim is no SuperPod member
 * (aclrtGetDeviceInfo answers 207000 for the SUPER_POD attributes), so
 * there is no sdid, not even its own, the driver takes: the first entry
 * that passes its check gets the driver's 207000.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids, size_t num)
{
	if (key == NULL || serverPids == NULL || num == 0) {
		npu_rt_msg_detail(key == NULL ? "key is NULL" : serverPids == NULL ? "serverPids is NULL" : "num is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (serverPids[0].pid == NULL) {
		npu_rt_msg_detail("serverPids[0].pid is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_msg_detail("sdid %u: npu_sim is not in a SuperPod, so it has no inter-server whitelist",
			  serverPids[0].sdid);
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

/*
 * Close in the device file that holds the import or the key: the current
 * device first, then every other open device of this process.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key)
{
	struct npu_sim_ipc_close req;
	uint64_t k;
	aclError err;
	int dev, rc;

	err = key_arg(key, &k);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	memset(&req, 0, sizeof(req));
	req.key = k;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_IPC_CLOSE, &req);
	for (int d = 0; d < NPU_RT_MAX_DEVICES && rc == -ENOENT; d++)
		if (d != dev && npu_rt_device_fd_locked(d) >= 0)
			rc = npu_rt_ioctl(npu_rt_device_fd_locked(d), NPU_SIM_IOCTL_IPC_CLOSE, &req);
	npu_rt_devices_unlock();
	if (rc == -ENOENT) {
		npu_rt_msg_detail("this process neither imported nor exported key %s (or closed it already)", key);
		return ACL_ERROR_RT_INVALID_HANDLE;
	}
	if (rc == 0)
		npu_rt_check_destroyed(NPU_RT_CK_IPC, (uintptr_t)k);
	return rc != 0 ? ipc_error("close", rc) : ACL_SUCCESS;
}
