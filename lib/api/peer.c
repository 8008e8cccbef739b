/*
 * Peer access between devices: aclrtDeviceCanAccessPeer,
 * aclrtDeviceEnablePeerAccess, aclrtDeviceDisablePeerAccess,
 * aclrtDevicePeerAccessStatus and aclrtMemP2PMap.
 *
 * Peer access is one-directional and held by the driver per open device
 * file (PEER_ACCESS ioctl), so per process: "device A may access device B"
 * lives in A's file and goes away with the process.  Cross-device copies
 * are issued on one device's file and the driver checks that this device
 * has access to the other (copy.c, copy_async.c).  Every pointer to a
 * device's memory was made while that device was open in this process, so
 * both windows of a cross-device copy are always mapped here: enabling
 * access needs no file of the peer device.
 */
#include <errno.h>
#include <stdint.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "range_check.h"

ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId,
						      int32_t peerDeviceId)
{
	aclError err;

	if (deviceId == peerDeviceId) {
		npu_rt_msg_detail("deviceId and peerDeviceId are both %d", (int)deviceId);
		return ACL_ERROR_INVALID_PARAM;
	}
	/* The ACL layer resolves the peer first; the runtime then checks the rest. */
	err = npu_rt_device_id_check(peerDeviceId, "peerDeviceId");
	if (err != ACL_SUCCESS)
		return err;
	if (deviceId < 0 || deviceId >= NPU_RT_MAX_DEVICES || canAccessPeer == NULL) {
		npu_rt_msg_detail(canAccessPeer == NULL ? "canAccessPeer is NULL" : "deviceId %d is not in 0..%d",
				  (int)deviceId, NPU_RT_MAX_DEVICES - 1);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_device_id_check(deviceId, "deviceId");
	if (err != ACL_SUCCESS)
		return err;
	*canAccessPeer = 1;	/* any two npu_sim devices can reach each other */
	return ACL_SUCCESS;
}

/* PEER_ACCESS op on device dev's fd (table lock held) toward peer. */
static int peer_op_locked(int dev, int32_t peer, uint32_t op)
{
	struct npu_sim_peer_access req = { .peer = (uint32_t)peer, .op = op };

	return npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_PEER_ACCESS, &req);
}

/*
 * Common part of Enable and Disable on the current device: the checks in
 * the runtime's order, then the ioctl.  *rc gets the ioctl's result.
 */
static aclError peer_call(int32_t peer, uint32_t op, int *rc)
{
	aclError err;
	int dev;

	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	if (peer == dev) {
		npu_rt_msg_detail("peerDeviceId %d is the current device", (int)peer);
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_device_id_check(peer, "peerDeviceId");
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_enter_current(&dev);	/* the device may be reset meanwhile */
	if (err != ACL_SUCCESS)
		return err;
	*rc = peer_op_locked(dev, peer, op);
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

aclError npu_rt_peer_check_locked(int issuer, const struct npu_rt_copy_route_plan *plan)
{
	const int devs[2] = { plan->dev, plan->src_dev };
	static const char *const side[2] = { "destination", "source" };

	for (int i = 0; i < 2; i++) {
		struct npu_sim_peer_access q = { .peer = (uint32_t)devs[i], .op = NPU_SIM_PEER_QUERY };

		if (devs[i] == issuer)
			continue;
		if (npu_rt_ioctl(npu_rt_device_fd_locked(issuer), NPU_SIM_IOCTL_PEER_ACCESS, &q) != 0 ||
		    !q.enabled) {
			npu_rt_msg_detail("the %s is on device %d and device %d, which issues the copy, has no "
					  "peer access to it: call aclrtDeviceEnablePeerAccess(%d, 0) with device "
					  "%d current first", side[i], devs[i], issuer, devs[i], issuer);
			return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
		}
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)
{
	aclError err;
	int rc = 0;

	if (flags != 0) {
		npu_rt_msg_detail("flags must be 0, got 0x%x", flags);
		return ACL_ERROR_FEATURE_UNSUPPORTED;
	}
	err = peer_call(peerDeviceId, NPU_SIM_PEER_ENABLE, &rc);
	if (err != ACL_SUCCESS)
		return err;
	if (rc == 0 || rc == -EEXIST)
		return ACL_SUCCESS;	/* enabling twice: idempotent */
	if (rc == -ENODEV)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	return npu_rt_errno_to_acl(-rc);
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
	aclError err;
	int rc = 0;

	err = peer_call(peerDeviceId, NPU_SIM_PEER_DISABLE, &rc);
	if (err != ACL_SUCCESS)
		return err;
	if (rc == 0)
		return ACL_SUCCESS;
	if (rc == -ENOENT) {
		npu_rt_msg_detail("peer access to device %d is not enabled", (int)peerDeviceId);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (rc == -ENODEV)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	return npu_rt_errno_to_acl(-rc);
}

/*
 * Make [devPtr, devPtr + size), live memory of device D, accessible from
 * device dstDevId: enable peer access from dstDevId (open in this process)
 * to D, unless it is on already or dstDevId is D.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemP2PMap(void *devPtr, size_t size, int32_t dstDevId, uint64_t flags)
{
	aclError err;
	int dev, rc;

	if (devPtr == NULL || size == 0 || flags != 0) {
		npu_rt_msg_detail("%s", devPtr == NULL ? "devPtr is NULL" :
				  size == 0 ? "size is 0" : "flags must be 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_device_id_check(dstDevId, "dstDevId");
	if (err != ACL_SUCCESS)
		return err;
	if (npu_rt_enter_addr(devPtr, size, &dev) != 0) {
		npu_rt_msg_detail("[%p, +%zu) is not device memory of this process", devPtr, size);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_check_live_range_locked(dev, (uintptr_t)devPtr, size, "devPtr");
	if (err == ACL_SUCCESS && dstDevId != dev) {
		if (npu_rt_device_fd_locked(dstDevId) < 0) {
			npu_rt_msg_detail("dstDevId %d is not set in this process", (int)dstDevId);
			err = ACL_ERROR_RT_CONTEXT_NULL;
		} else {
			rc = peer_op_locked(dstDevId, dev, NPU_SIM_PEER_ENABLE);
			if (rc != 0 && rc != -EEXIST)
				err = npu_rt_errno_to_acl(-rc);
		}
	}
	npu_rt_devices_unlock();
	return err;
}

/*
 * aclrtDevicePeerAccessStatus: whether deviceId has peer access to
 * peerDeviceId.  Access is held by deviceId's file in this process, so a
 * device this process has not opened has none.
 */
ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status)
{
	struct npu_sim_peer_access req = { .peer = (uint32_t)peerDeviceId, .op = NPU_SIM_PEER_QUERY };
	aclError err;
	int rc;

	if (status == NULL) {
		npu_rt_msg_detail("status is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_device_id_check(deviceId, "deviceId");
	if (err != ACL_SUCCESS)
		return err;
	if (peerDeviceId < 0 || peerDeviceId >= NPU_RT_MAX_DEVICES) {
		npu_rt_msg_detail("peerDeviceId %d is not in 0..%d", (int)peerDeviceId, NPU_RT_MAX_DEVICES - 1);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_device_id_check(peerDeviceId, "peerDeviceId");
	if (err != ACL_SUCCESS)
		return err;
	if (deviceId == peerDeviceId || npu_rt_enter_device(deviceId) != ACL_SUCCESS) {
		*status = 0;	/* no access to itself; none held without its file */
		return ACL_SUCCESS;
	}
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(deviceId), NPU_SIM_IOCTL_PEER_ACCESS, &req);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	*status = req.enabled ? 1 : 0;
	return ACL_SUCCESS;
}
