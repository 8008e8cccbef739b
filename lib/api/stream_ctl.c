/*
 * Stream failure mode, queries and control: aclrtSetStreamFailureMode,
 * aclrtStreamGetId / GetFlags / GetPriority, aclrtCreateStreamV2 and its
 * configuration handle (made by stream_config.c), aclrtSet/GetStreamAttribute, aclrtStreamAbort,
 * aclrtStreamStop, aclrtGetStreamAvailableNum,
 * aclrtCtxGetCurrentDefaultStream, aclrtDeviceGetStreamPriorityRange.
 *
 * The device keeps what decides execution (failure mode, priority, the
 * create flags, abort and stop: STREAM_CTL); the library keeps the
 * attributes that only report back (overflow, tag, cache switches).
 * Checks and codes follow the runtime's layers (docs/cann-api-notes.md §8).
 */
#include <errno.h>
#include <stdlib.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "profile.h"

/*
 * With the table lock held (npu_rt_stream_enter): release it and issue
 * STREAM_CTL op on ref's stream; ABORT, which waits for the running task,
 * through a hold.  0 or a negative errno; *req has the out fields.
 */
static int stream_ctl_unlock(const struct npu_rt_ref *ref, uint32_t op, uint64_t value,
			     struct npu_sim_stream_ctl *req)
{
	int rc;

	*req = (struct npu_sim_stream_ctl){ .id = ref->kid, .op = op, .value = value };
	if (op == NPU_SIM_STREAM_CTL_ABORT)
		return npu_rt_ioctl_unlock(ref->fd, NPU_SIM_IOCTL_STREAM_CTL, req);
	rc = npu_rt_ioctl(ref->fd, NPU_SIM_IOCTL_STREAM_CTL, req);
	npu_rt_devices_unlock();
	return rc;
}

/* STREAM_CTL QUERY of stream (NULL: the default stream). */
static aclError stream_query(aclrtStream stream, struct npu_sim_stream_ctl *req)
{
	struct npu_rt_ref ref;
	aclError err = npu_rt_stream_enter(stream, &ref);
	int rc;

	if (err != ACL_SUCCESS)
		return err;
	rc = stream_ctl_unlock(&ref, NPU_SIM_STREAM_CTL_QUERY, 0, req);
	return rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
}

static void stop_to_continue_msg(void)
{
	npu_rt_msg_detail("the stream is in ACL_STOP_ON_FAILURE mode: it cannot go back to ACL_CONTINUE_ON_FAILURE");
}

/*
 * The runtime's StreamSetMode, after its handle guard: only bit 0 counts;
 * STOP -> CONTINUE (207000) is refused before the context check (107003).
 */
static aclError set_failure_mode(aclrtStream stream, uint64_t mode)
{
	struct npu_sim_stream_ctl req = { 0 };
	struct npu_rt_ref ref;
	aclError err = npu_rt_stream_enter(stream, &ref);
	int rc;

	if (err != ACL_SUCCESS)
		return err;
	req.id = ref.kid;
	req.op = NPU_SIM_STREAM_CTL_QUERY;
	rc = npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_STREAM_CTL, &req);
	if (rc == 0 && req.mode == ACL_STOP_ON_FAILURE && !(mode & ACL_STOP_ON_FAILURE)) {
		npu_rt_devices_unlock();
		stop_to_continue_msg();
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	err = npu_rt_stream_ctx_check_locked(&ref);	/* ApiImpl::StreamSetMode */
	if (err != ACL_SUCCESS)
		return err;
	if (mode & ACL_STOP_ON_FAILURE)
		npu_rt_ctx_stop_seen();
	rc = stream_ctl_unlock(&ref, NPU_SIM_STREAM_CTL_SET_MODE, mode & ACL_STOP_ON_FAILURE, &req);
	if (rc == -EOPNOTSUPP)
		stop_to_continue_msg();
	return rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
}

/* Check that stream (NULL: the default) is in the current context. */
static aclError stream_ctx_only(aclrtStream stream)
{
	struct npu_rt_ref ref;
	aclError err = npu_rt_stream_enter_ctx(stream, &ref);

	if (err == ACL_SUCCESS)
		npu_rt_devices_unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
	return set_failure_mode(stream, mode);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)
{
	struct npu_rt_ref ref;
	aclError err;

	if (streamId == NULL) {
		npu_rt_msg_detail("streamId is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	*streamId = (int32_t)ref.kid;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags)
{
	struct npu_sim_stream_ctl req;
	aclError err;

	if (flags == NULL) {
		npu_rt_msg_detail("flags is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = stream_query(stream, &req);
	if (err == ACL_SUCCESS)
		*flags = req.flags;	/* the ACL flag bits are the driver's */
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority)
{
	struct npu_sim_stream_ctl req;
	aclError err;

	if (priority == NULL) {
		npu_rt_msg_detail("priority is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = stream_query(stream, &req);
	if (err == ACL_SUCCESS)
		*priority = req.priority;
	return err;
}

/* ---- aclrtCreateStreamV2 -------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
	if (handle == NULL) {
		npu_rt_msg_detail("handle is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	free(handle);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
						     const void *attrValue, size_t valueSize)
{
	static const size_t sizes[] = {
		[ACL_RT_STREAM_WORK_ADDR_PTR] = sizeof(void *),
		[ACL_RT_STREAM_WORK_SIZE] = sizeof(size_t),
		[ACL_RT_STREAM_FLAG] = sizeof(size_t),
		[ACL_RT_STREAM_PRIORITY] = sizeof(uint32_t),
	};
	uint32_t a = (uint32_t)attr, prio;

	if (handle == NULL || attrValue == NULL) {
		npu_rt_msg_detail("%s is NULL", handle == NULL ? "handle" : "attrValue");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (a > ACL_RT_STREAM_PRIORITY) {
		npu_rt_msg_detail("attr %u is not an aclrtStreamConfigAttr (0..3)", a);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (valueSize != sizes[a]) {
		npu_rt_msg_detail("valueSize %zu: attr %u takes %zu bytes", valueSize, a, sizes[a]);
		return ACL_ERROR_INVALID_PARAM;
	}
	switch (a) {
	case ACL_RT_STREAM_WORK_ADDR_PTR:
		handle->workptr = *(void *const *)attrValue;
		break;
	case ACL_RT_STREAM_WORK_SIZE:
		handle->workSize = *(const size_t *)attrValue;
		break;
	case ACL_RT_STREAM_FLAG:
		handle->flag = *(const size_t *)attrValue;
		break;
	default:
		prio = *(const uint32_t *)attrValue;
		if (prio > NPU_SIM_STREAM_PRIORITY_MAX) {
			npu_rt_msg_detail("priority %u is not in 0..%d", prio, NPU_SIM_STREAM_PRIORITY_MAX);
			return ACL_ERROR_INVALID_PARAM;
		}
		handle->priority = prio;
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle)
{
	if (handle == NULL)
		return npu_rt_stream_create_config(0, 0, stream);
	return npu_rt_stream_create_config(handle->priority, handle->flag, stream);
}

/* ---- attributes ------------------------------------------------------ */

aclError npu_rt_stream_opts_edit(aclrtStream stream, void (*edit)(struct npu_rt_stream_opts *, const void *),
				 const void *arg, struct npu_rt_stream_opts *out)
{
	struct npu_rt_ref ref;
	aclError err = npu_rt_stream_enter(stream, &ref);
	int rc;

	if (err != ACL_SUCCESS)
		return err;
	rc = npu_rt_stream_opts(stream, ref.dev, npu_rt_device_epoch_locked(ref.dev), edit, arg, out);
	npu_rt_devices_unlock();
	return rc == 0 ? ACL_SUCCESS : ACL_ERROR_RT_INVALID_HANDLE;
}

static void set_attr(struct npu_rt_stream_opts *o, const void *arg)
{
	const struct { aclrtStreamAttr type; uint32_t v; } *a = arg;

	if (a->type == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK)
		o->overflow = a->v;
	else if (a->type == ACL_STREAM_ATTR_CACHE_OP_INFO)
		o->cache_op = a->v;
	else
		o->tag = a->v;
}

/* A switch attribute is 0 or 1: 107000 otherwise. */
static aclError switch_ok(uint32_t v, const char *name)
{
	if (v <= 1)
		return ACL_SUCCESS;
	npu_rt_msg_detail("%s %u is neither 0 nor 1", name, v);
	return ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
						     aclrtStreamAttrValue *value)
{
	struct npu_sim_stream_ctl req;
	struct npu_rt_stream_opts o;
	struct npu_rt_ref ref;
	aclError err;
	int rc;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	switch (stmAttrType) {
	case ACL_STREAM_ATTR_FAILURE_MODE:
		return set_failure_mode(stream, value->failureMode);
	case ACL_STREAM_ATTR_PRIORITY:
		err = npu_rt_stream_enter(stream, &ref);
		if (err != ACL_SUCCESS)
			return err;
		rc = stream_ctl_unlock(&ref, NPU_SIM_STREAM_CTL_SET_PRIORITY,
				       npu_rt_stream_priority_clamp(value->streamPriority), &req);
		return rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
	case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
	case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		/* rtsStreamSetAttribute: after the guard, a chip without the
		 * attribute's feature answers success doing nothing */
		if (!npu_rt_product_has(NPU_SIM_PROFILE_STREAM_ATTR, NULL))
			return npu_rt_stream_opts_edit(stream, NULL, NULL, &o);
		break;
	case ACL_STREAM_ATTR_CACHE_OP_INFO:
		break;
	default:
		/* the handle guard comes first */
		err = npu_rt_stream_opts_edit(stream, NULL, NULL, &o);
		if (err != ACL_SUCCESS)
			return err;
		npu_rt_msg_detail("stmAttrType %d is not an aclrtStreamAttr (1..5)", (int)stmAttrType);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	{
		struct { aclrtStreamAttr type; uint32_t v; } a = { stmAttrType, value->userCustomTag };

		/* the handle guard, then the value's check */
		err = npu_rt_stream_opts_edit(stream, NULL, NULL, &o);
		if (err == ACL_SUCCESS && stmAttrType != ACL_STREAM_ATTR_USER_CUSTOM_TAG)
			err = switch_ok(a.v, stmAttrType == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK ?
					"overflowSwitch" : "cacheOpInfoSwitch");
		/* ApiImpl::SetStreamOverflowSwitch, SetStreamTag */
		if (err == ACL_SUCCESS && stmAttrType != ACL_STREAM_ATTR_CACHE_OP_INFO)
			err = stream_ctx_only(stream);
		if (err != ACL_SUCCESS)
			return err;
		return npu_rt_stream_opts_edit(stream, set_attr, &a, &o);
	}
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
						     aclrtStreamAttrValue *value)
{
	struct npu_sim_stream_ctl req;
	struct npu_rt_stream_opts o;
	aclError err;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (stmAttrType == ACL_STREAM_ATTR_FAILURE_MODE || stmAttrType == ACL_STREAM_ATTR_PRIORITY) {
		err = stream_query(stream, &req);
		if (err != ACL_SUCCESS)
			return err;
		if (stmAttrType == ACL_STREAM_ATTR_FAILURE_MODE)
			value->failureMode = req.mode;
		else
			value->streamPriority = req.priority;
		return ACL_SUCCESS;
	}
	err = npu_rt_stream_opts_edit(stream, NULL, NULL, &o);
	/* rtsStreamGetAttribute: the tag on a chip without it: success, unread */
	if (err == ACL_SUCCESS && stmAttrType == ACL_STREAM_ATTR_USER_CUSTOM_TAG &&
	    !npu_rt_product_has(NPU_SIM_PROFILE_STREAM_ATTR, NULL))
		return ACL_SUCCESS;
	/* ApiImpl::GetStreamOverflowSwitch, GetStreamTag */
	if (err == ACL_SUCCESS && (stmAttrType == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK ||
				   stmAttrType == ACL_STREAM_ATTR_USER_CUSTOM_TAG))
		err = stream_ctx_only(stream);
	if (err != ACL_SUCCESS)
		return err;
	switch (stmAttrType) {
	case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
		value->overflowSwitch = o.overflow;
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		value->userCustomTag = o.tag;
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_CACHE_OP_INFO:
		value->cacheOpInfoSwitch = o.cache_op;
		return ACL_SUCCESS;
	default:
		npu_rt_msg_detail("stmAttrType %d is not an aclrtStreamAttr (1..5)", (int)stmAttrType);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
}

/* ---- control --------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream)
{
	struct npu_sim_stream_ctl req;
	struct npu_rt_ref ref;
	aclError err = npu_rt_stream_enter_ctx(stream, &ref);	/* ApiImpl::StreamAbort */
	int rc;

	if (err != ACL_SUCCESS)
		return err;
	rc = stream_ctl_unlock(&ref, NPU_SIM_STREAM_CTL_ABORT, 0, &req);
	return rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream)
{
	struct npu_sim_stream_ctl req;
	struct npu_rt_ref ref;
	aclError err;
	int rc;

	/* The runtime's handle guard passes NULL; its StreamStop refuses it. */
	if (stream == NULL) {
		npu_rt_msg_detail("stream is NULL: the default stream cannot be stopped");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, &ref);
	if (err != ACL_SUCCESS)
		return err;
	/* ApiImpl::StreamClear: a current context, a STARS scheduler, then
	 * the stream's context */
	if (npu_rt_current_dev_locked() >= 0 &&
	    !(npu_rt_device_profile_locked(ref.dev)->flags & NPU_SIM_PROFILE_STARS)) {
		npu_rt_msg_detail("%s has no STARS task scheduler: a stream cannot be stopped",
				  npu_rt_device_profile_locked(ref.dev)->product);
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	err = npu_rt_stream_ctx_check_locked(&ref);
	if (err != ACL_SUCCESS)
		return err;
	rc = stream_ctl_unlock(&ref, NPU_SIM_STREAM_CTL_STOP, 0, &req);
	return rc == 0 ? ACL_SUCCESS : npu_rt_obj_errno(rc);
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t *streamCount)
{
	struct npu_sim_stream_ctl req = { .op = NPU_SIM_STREAM_CTL_AVAIL };
	aclError err;
	int dev, rc;

	if (streamCount == NULL) {
		npu_rt_msg_detail("streamCount is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	rc = npu_rt_ioctl(npu_rt_device_fd_locked(dev), NPU_SIM_IOCTL_STREAM_CTL, &req);
	npu_rt_devices_unlock();
	if (rc != 0)
		return npu_rt_errno_to_acl(-rc);
	*streamCount = (uint32_t)req.value;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
	struct npu_rt_ref ref;
	aclError err;
	int rc;

	if (stream == NULL) {
		npu_rt_msg_detail("stream is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_enter(NULL, &ref);	/* creates it on first use */
	if (err != ACL_SUCCESS)
		return err;
	rc = npu_rt_ctx_default_handle(ref.dev, npu_rt_device_epoch_locked(ref.dev), ref.kid, stream);
	npu_rt_devices_unlock();
	return rc == 0 ? ACL_SUCCESS : ACL_ERROR_RT_MEMORY_ALLOCATION;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority)
{
	if (leastPriority != NULL)
		*leastPriority = NPU_SIM_STREAM_PRIORITY_MAX;
	if (greatestPriority != NULL)
		*greatestPriority = 0;
	return ACL_SUCCESS;
}
