/*
 * Notifies: aclrtCreateNotify / aclrtDestroyNotify / aclrtRecordNotify /
 * aclrtWaitAndResetNotify / aclrtGetNotifyId / aclrtNotifyBatchReset, the
 * counting notifies aclrtCntNotify*, and sharing by key:
 * aclrtNotifyGetExportKey / aclrtNotifyImportByKey / aclrtNotifySetImportPid /
 * aclrtNotifySetImportPidInterServer.
 *
 * A notify is a kernel object of its device with a machine-wide id
 * (NOTIFY_* ioctls); the handle is a registry object of type NOTIFY or
 * CNT_NOTIFY naming that id in the file of its device (context id 0: a
 * notify belongs to the device, not to a context, so aclrtDestroyContext
 * leaves it).  Records and waits are stream operations (NOTIFY_RECORD,
 * NOTIFY_WAIT); a wait parks in the driver, so nothing here blocks.
 *
 * The order of the checks and their codes follow the runtime
 * (docs/cann-api-notes.md section 8): the ACL layer's NULL checks (100000)
 * where acl/notify.cpp makes them, then the handle guard (107017; a NULL
 * handle passes it and the runtime's own NULL check gives 107000), then
 * the runtime's argument checks (107000).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_internal.h"
#include "races.h"
#include "model_ri.h"
#include "err_msg.h"
#include "key_string.h"
#include "vmm_rules.h"

#define KEY_PREFIX "npusim-notify-"
#define KEY_PREFIX_LEN (sizeof(KEY_PREFIX) - 1)
#define KEY_STR_LEN (KEY_PREFIX_LEN + 16 + 1)	/* with the NUL: 31 */

/* aclrtNotifyImportByKey accepts the runtime's DOWNLOAD_TO_DEV (1) too. */
#define NOTIFY_IMPORT_FLAG_MAX 3U

static const char *kind_name(enum npu_rt_obj_type type)
{
	return type == NPU_RT_OBJ_CNT_NOTIFY ? "cntNotify" : "notify";
}

/*
 * Lock the table and resolve handle, a live notify of type: ACL_SUCCESS
 * with the lock HELD; a NULL handle 107000 (the runtime's NULL check after
 * its guard), else 107017 (not held).
 */
static aclError notify_enter(const void *handle, enum npu_rt_obj_type type, struct npu_rt_ref *ref)
{
	struct npu_rt_obj o;

	if (handle == NULL) {
		npu_rt_msg_detail("%s is NULL", kind_name(type));
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_devices_read_lock();
	if (npu_rt_obj_get(handle, type, &o) != 0 || npu_rt_device_epoch_locked(o.dev) != o.epoch) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("%s %p is not a live %s of this process (destroyed, the other kind of "
				  "notify, or its device was reset)", kind_name(type), handle, kind_name(type));
		return ACL_ERROR_RT_INVALID_HANDLE;
	}
	*ref = (struct npu_rt_ref){ .dev = o.dev, .fd = npu_rt_device_fd_locked(o.dev), .kid = o.kid };
	return ACL_SUCCESS;
}

/* Register kernel notify id of device dev (table lock held): the handle. */
static aclError notify_register(int dev, int fd, uint32_t id, enum npu_rt_obj_type type, void **handle)
{
	struct npu_rt_obj *o = npu_rt_obj_add(type, dev, npu_rt_device_epoch_locked(dev), 0, id);

	if (o == NULL) {	/* a failing call changes nothing */
		struct npu_sim_notify_destroy req = { .id = id };

		(void)npu_rt_ioctl(fd, NPU_SIM_IOCTL_NOTIFY_DESTROY, &req);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	*handle = o;
	return ACL_SUCCESS;
}

/* NOTIFY_CREATE in the current device; handle checked by the caller after
 * the device, as the runtime does for counting notifies. */
static aclError notify_create(void **handle, uint32_t kflags, enum npu_rt_obj_type type)
{
	struct npu_sim_notify_create req = { .flags = kflags };
	aclError err;
	int dev, fd, rc;

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	if (handle == NULL) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("%s is NULL", kind_name(type));
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	fd = npu_rt_device_fd_locked(dev);
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_NOTIFY_CREATE, &req);
	if (rc == 0)
		err = notify_register(dev, fd, req.id, type, handle);
	npu_rt_devices_unlock();
	if (rc == -ENOMEM) {
		npu_rt_msg_detail("no notify left: this process holds the device's limit of objects");
		return ACL_ERROR_RT_NO_NOTIFY_RESOURCE;
	}
	return rc != 0 ? npu_rt_errno_to_acl(-rc) : err;
}

static aclError notify_destroy(void *handle, enum npu_rt_obj_type type)
{
	struct npu_sim_notify_destroy req;
	struct npu_rt_ref ref;
	struct npu_rt_obj *o;
	aclError err;

	err = notify_enter(handle, type, &ref);
	if (err != ACL_SUCCESS)
		return err;
	o = npu_rt_obj_take(handle, type);
	if (o == NULL) {	/* another thread destroyed it meanwhile */
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_INVALID_HANDLE;
	}
	req = (struct npu_sim_notify_destroy){ .id = ref.kid };
	(void)npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_NOTIFY_DESTROY, &req);
	npu_rt_devices_unlock();
	free(o);
	return ACL_SUCCESS;
}

/*
 * Queue op (NOTIFY_RECORD / NOTIFY_WAIT) of handle on stream: the notify is
 * guarded first, then the stream, as the runtime does.
 */
static aclError notify_submit(void *handle, enum npu_rt_obj_type type, aclrtStream stream, uint32_t op,
			      uint32_t flags, uint32_t operand, uint32_t timeout_ms)
{
	struct npu_sim_stream_submit req;
	struct npu_rt_ref nref, sref;
	aclError err;
	int rc;

	err = notify_enter(handle, type, &nref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	err = npu_rt_stream_enter_ctx(stream, &sref);	/* ApiImpl::NotifyRecord, NotifyWait, CntNotify* */
	if (err != ACL_SUCCESS)
		return err;
	if (sref.dev != nref.dev) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the %s is held on device %d, the stream is on device %d", kind_name(type),
				  nref.dev, sref.dev);
		return ACL_ERROR_RT_STREAM_CONTEXT;
	}
	memset(&req, 0, sizeof(req));
	req.stream = sref.kid;
	req.op = op;
	req.event = nref.kid;
	req.flags = flags;
	req.operand = operand;
	req.value = timeout_ms;
	if (npu_rt_capture_submit(&sref, &req, NULL, NULL, 0, &err)) {
		npu_rt_devices_unlock();
		return err;
	}
	rc = npu_rt_ioctl(sref.fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &req);
	if (rc == 0)
		npu_rt_races_submit(&sref, &req);
	err = rc == -EPIPE ? npu_rt_stream_errno(&sref, rc) : ACL_SUCCESS;
	npu_rt_devices_unlock();
	switch (-rc) {
	case 0:
	case EPIPE:
		return err;
	case EAGAIN:
		npu_rt_msg_detail("the stream already holds the most operations the device queues");
		return ACL_ERROR_RT_STREAM_TASK_FULL;
	case ENOENT:
		npu_rt_msg_detail("the %s was destroyed by the process that created it (or the stream is gone)",
				  kind_name(type));
		return ACL_ERROR_RT_INVALID_HANDLE;
	case EXDEV:
		npu_rt_msg_detail("a wait on a notify must be queued on the device that created it");
		return ACL_ERROR_RT_PARAM_INVALID;
	default:
		return npu_rt_errno_to_acl(-rc);
	}
}

ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)
{
	if (notify == NULL) {
		npu_rt_msg_detail("notify is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY) {
		npu_rt_msg_detail("flag 0x%" PRIx64 " is not ACL_NOTIFY_DEFAULT or ACL_NOTIFY_DEVICE_USE_ONLY", flag);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return notify_create(notify, 0, NPU_RT_OBJ_NOTIFY);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify)
{
	if (notify == NULL) {
		npu_rt_msg_detail("notify is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	return notify_destroy(notify, NPU_RT_OBJ_NOTIFY);
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag)
{
	if (flag != 0) {
		npu_rt_msg_detail("flag 0x%" PRIx64 " is not 0", flag);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return notify_create(cntNotify, NPU_SIM_NOTIFY_COUNTING, NPU_RT_OBJ_CNT_NOTIFY);
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify)
{
	return notify_destroy(cntNotify, NPU_RT_OBJ_CNT_NOTIFY);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
	if (notify == NULL) {
		npu_rt_msg_detail("notify is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	return notify_submit(notify, NPU_RT_OBJ_NOTIFY, stream, NPU_SIM_OP_NOTIFY_RECORD, 0, 0, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout)
{
	if (notify == NULL) {
		npu_rt_msg_detail("notify is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	/* UINT32_MAX is the runtime's wait without a timeout, as 0 is. */
	return notify_submit(notify, NPU_RT_OBJ_NOTIFY, stream, NPU_SIM_OP_NOTIFY_WAIT, 0, 0,
			     timeout == UINT32_MAX ? 0 : timeout);
}

static aclError notify_get_id(void *handle, enum npu_rt_obj_type type, uint32_t *id)
{
	struct npu_rt_ref ref;
	aclError err = notify_enter(handle, type, &ref);

	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	if (id == NULL) {	/* the runtime's check, after its guard */
		npu_rt_msg_detail("notifyId is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	*id = ref.kid;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)
{
	if (notify == NULL || notifyId == NULL) {
		npu_rt_msg_detail("%s is NULL", notify == NULL ? "notify" : "notifyId");
		return ACL_ERROR_INVALID_PARAM;
	}
	return notify_get_id(notify, NPU_RT_OBJ_NOTIFY, notifyId);
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId)
{
	return notify_get_id(cntNotify, NPU_RT_OBJ_CNT_NOTIFY, notifyId);
}

ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num)
{
	if (notifies == NULL) {
		npu_rt_msg_detail("notifies is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (num == 0 || num > UINT32_MAX) {
		npu_rt_msg_detail("num %zu is not in 1..%u", num, UINT32_MAX);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	/* One by one, as the runtime: the first failure stops the loop. */
	for (size_t i = 0; i < num; i++) {
		struct npu_sim_notify_reset req;
		struct npu_rt_ref ref;
		aclError err = notify_enter(notifies[i], NPU_RT_OBJ_NOTIFY, &ref);
		int rc;

		if (err != ACL_SUCCESS) {
			npu_rt_msg_detail("notifies[%zu] (%p): %s", i, notifies[i],
					  err == ACL_ERROR_RT_PARAM_INVALID ? "NULL" : "not a live notify");
			return err;
		}
		req = (struct npu_sim_notify_reset){ .id = ref.kid };
		rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_NOTIFY_RESET, &req);
		npu_rt_devices_unlock();
		if (rc == -ENOENT) {
			npu_rt_msg_detail("notifies[%zu] was destroyed by the process that created it", i);
			return ACL_ERROR_RT_INVALID_HANDLE;
		}
		if (rc != 0)
			return npu_rt_errno_to_acl(-rc);
	}
	return ACL_SUCCESS;
}

/*
 * The handle guards of a counting record or wait, which come before its
 * mode check (api_david.cc, api_error).
 */
static aclError cnt_guards(aclrtCntNotify cntNotify, aclrtStream stream)
{
	struct npu_rt_ref ref;
	aclError err;

	if (cntNotify != NULL) {
		err = notify_enter(cntNotify, NPU_RT_OBJ_CNT_NOTIFY, &ref);
		if (err != ACL_SUCCESS)
			return err;
		npu_rt_devices_unlock();
	}
	if (stream != NULL) {
		err = npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, &ref);
		if (err != ACL_SUCCESS)
			return err;
		npu_rt_devices_unlock();
	}
	if (cntNotify == NULL) {
		npu_rt_msg_detail("cntNotify is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
						  aclrtCntNotifyRecordInfo *info)
{
	aclError err;

	if (info == NULL) {
		npu_rt_msg_detail("info is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = cnt_guards(cntNotify, stream);
	if (err != ACL_SUCCESS)
		return err;
	if ((uint32_t)info->mode > ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE || (uint32_t)info->mode == 3U) {
		npu_rt_msg_detail("info->mode %u is not SET_VALUE (0), ADD (1), BIT_OR (2) or BIT_AND (4)",
				  (unsigned int)info->mode);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return notify_submit(cntNotify, NPU_RT_OBJ_CNT_NOTIFY, stream, NPU_SIM_OP_NOTIFY_RECORD,
			     NPU_SIM_NOTIFY_CNT | (uint32_t)info->mode, info->value, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
							   aclrtCntNotifyWaitInfo *info)
{
	aclError err;

	if (info == NULL) {
		npu_rt_msg_detail("info is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = cnt_guards(cntNotify, stream);
	if (err != ACL_SUCCESS)
		return err;
	if ((uint32_t)info->mode > ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE) {
		npu_rt_msg_detail("info->mode %u is not in 0..4", (unsigned int)info->mode);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return notify_submit(cntNotify, NPU_RT_OBJ_CNT_NOTIFY, stream, NPU_SIM_OP_NOTIFY_WAIT,
			     NPU_SIM_NOTIFY_CNT | (uint32_t)info->mode | (info->isClear ? NPU_SIM_NOTIFY_CLEAR : 0),
			     info->value, info->timeout);
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream)
{
	return notify_submit(cntNotify, NPU_RT_OBJ_CNT_NOTIFY, stream, NPU_SIM_OP_NOTIFY_RECORD,
			     NPU_SIM_NOTIFY_CNT | NPU_SIM_CNT_SET, 0, 0);
}

/* ---- sharing by key ------------------------------------------------------ */

/* 0 and the driver key named by s, or -1 when s is not a key string. */
static int key_parse(const char *s, uint64_t *key)
{
	return npu_rt_key_parse(s, KEY_PREFIX, key);
}

ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags)
{
	struct npu_sim_notify_export req;
	struct npu_rt_ref ref;
	aclError err;
	int rc;

	if (notify == NULL || key == NULL) {
		npu_rt_msg_detail("%s is NULL", notify == NULL ? "notify" : "key");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = notify_enter(notify, NPU_RT_OBJ_NOTIFY, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (len < KEY_STR_LEN || (flags != ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT &&
				  flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("len %zu (must be >= %zu) or flags 0x%" PRIx64 " (0 or 0x2) refused", len,
				  (size_t)KEY_STR_LEN, flags);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	memset(&req, 0, sizeof(req));
	req.id = ref.kid;
	if (flags == ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		req.flags = NPU_SIM_NOTIFY_NO_PID_CHECK;
	rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_NOTIFY_EXPORT, &req);
	npu_rt_devices_unlock();
	switch (-rc) {
	case 0:
		snprintf(key, len, KEY_PREFIX "%016" PRIx64, (uint64_t)req.key);
		return ACL_SUCCESS;
	case EINVAL:
		npu_rt_msg_detail("the notify's key was made with other flags");
		return ACL_ERROR_RT_PARAM_INVALID;
	case EPERM:
		npu_rt_msg_detail("an imported notify cannot be exported again");
		return ACL_ERROR_RT_PARAM_INVALID;
	case ENOENT:
		npu_rt_msg_detail("the notify was destroyed by the process that created it");
		return ACL_ERROR_RT_INVALID_HANDLE;
	default:
		return npu_rt_errno_to_acl(-rc);
	}
}

ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags)
{
	struct npu_sim_notify_import req;
	uint64_t k;
	aclError err;
	int dev, fd, rc;

	if (notify == NULL || key == NULL) {
		npu_rt_msg_detail("%s is NULL", notify == NULL ? "notify" : "key");
		return ACL_ERROR_INVALID_PARAM;
	}
	/* The runtime keeps the low 32 bits and checks them before the key. */
	if ((flags & UINT32_MAX) > NOTIFY_IMPORT_FLAG_MAX) {
		npu_rt_msg_detail("flags 0x%" PRIx64 " is not in 0..3", flags);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (key_parse(key, &k) != 0) {
		npu_rt_msg_detail("key \"%.64s\" is not a key aclrtNotifyGetExportKey made", key);
		return ACL_ERROR_RT_INVALID_HANDLE;
	}
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	memset(&req, 0, sizeof(req));
	req.key = k;
	if (flags & ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS)
		req.flags = NPU_SIM_NOTIFY_IMPORT_ENABLE_PEER;
	fd = npu_rt_device_fd_locked(dev);
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_NOTIFY_IMPORT, &req);
	if (rc == 0)
		err = notify_register(dev, fd, req.id, NPU_RT_OBJ_NOTIFY, notify);
	npu_rt_devices_unlock();
	switch (-rc) {
	case 0:
		return err;
	case ENOENT:
		npu_rt_msg_detail("no live notify key of that name (never exported, or its notify destroyed)");
		return ACL_ERROR_RT_INVALID_HANDLE;
	case EPERM:
		npu_rt_msg_detail("this process created the notify: it holds it already");
		return ACL_ERROR_RT_NO_PERMISSION;
	case EACCES:
		npu_rt_msg_detail("this process (pid %d in the initial namespace) is not on the key's whitelist "
				  "(aclrtNotifySetImportPid)", (int)getpid());
		return ACL_ERROR_RT_NO_PERMISSION;
	case EXDEV:
		npu_rt_msg_detail("the notify is on another device and this device has no peer access to it "
				  "(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS)");
		return ACL_ERROR_RT_PARAM_INVALID;
	case EEXIST:
		npu_rt_msg_detail("this process holds the notify on this device already");
		return ACL_ERROR_RT_PARAM_INVALID;
	default:
		return npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE);
	}
}

ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num)
{
	struct npu_sim_notify_query q;
	struct npu_rt_ref ref;
	aclError err;
	int rc;

	if (notify == NULL || pid == NULL) {
		npu_rt_msg_detail("%s is NULL", notify == NULL ? "notify" : "pid");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = notify_enter(notify, NPU_RT_OBJ_NOTIFY, &ref);
	if (err != ACL_SUCCESS)
		return err;
	memset(&q, 0, sizeof(q));
	q.id = ref.kid;
	rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_NOTIFY_QUERY, &q);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	if (num == 0) {
		npu_rt_msg_detail("num is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (q.key == 0) {	/* the runtime's empty IPC name */
		npu_rt_msg_detail("the notify has no key of this process: aclrtNotifyGetExportKey first");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_share_set_pids(q.key, pid, num, ACL_ERROR_RT_PARAM_INVALID, &rc);
	if (err != ACL_SUCCESS)
		return err;
	if (rc == -ENOSPC)
		npu_rt_msg_detail("the key's whitelist would hold more than %d pids", NPU_SIM_SHARE_MAX_PIDS);
	return rc != 0 ? npu_rt_vmm_errno_to_acl(-rc, NPU_RT_VMM_HANDLE) : ACL_SUCCESS;
}

/*
 * aclrtNotifySetImportPidInterServer: as aclrtIpcMemImportPidInterServer
 * (ipc_mem.c), after the runtime's handle guard and its per-entry checks
 * (each entry names exactly one pid): npu_sim is no SuperPod member, so
 * the driver takes no sdid (207000).
 */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid *serverPids,
								size_t num)
{
	struct npu_rt_ref ref;
	aclError err;

	if (notify == NULL || serverPids == NULL || num == 0) {
		npu_rt_msg_detail(notify == NULL ? "notify is NULL" : serverPids == NULL ? "serverPids is NULL" :
				  "num is 0");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = notify_enter(notify, NPU_RT_OBJ_NOTIFY, &ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	if (serverPids[0].pid == NULL || serverPids[0].num != 1) {
		npu_rt_msg_detail(serverPids[0].pid == NULL ? "serverPids[0].pid is NULL" :
				  "serverPids[0].num is not 1");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_msg_detail("sdid %u: npu_sim is not in a SuperPod, so it has no inter-server whitelist",
			  serverPids[0].sdid);
	return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}
