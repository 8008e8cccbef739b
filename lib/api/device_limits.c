/*
 * Device settings a process keeps: the device resource limits
 * (aclrtSet/Get/ResetDeviceResLimit), the device limits
 * (aclrtDeviceSetLimit / aclrtDeviceGetLimit), the system parameters of the
 * process and of a context (aclrtSet/GetSysParamOpt,
 * aclrtCtxSet/GetSysParamOpt) and aclrtSetTsDevice.
 *
 * Where the CANN runtime keeps each, so does this file: resource limits
 * with the device as opened in this process (a new opening starts from the
 * core counts again), the device limits and system parameters with the
 * process, the context parameters with the context.  npu_sim runs no
 * operator, so none of these changes what the device does; they are kept
 * and answered with the runtime's rules (rules/device_rules.c).  The lock
 * of this file is a leaf: nothing is taken under it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "device_info.h"
#include "device_rules.h"
#include "err_msg.h"
#include "platform_spec.h"

static pthread_mutex_t limits_lock = PTHREAD_MUTEX_INITIALIZER;

/* Resource limits of each device opening (epoch 0: none yet). */
static struct {
	uint64_t epoch;
	uint32_t init[NPU_RT_RES_TYPES];
	uint32_t limit[NPU_RT_RES_TYPES];
} res[NPU_RT_MAX_DEVICES];

static struct npu_rt_dev_limits dev_limits = NPU_RT_DEV_LIMITS_INIT;
static int64_t sys_params[NPU_RT_SYS_OPTS];

/* Context parameters, by context id (ids are never reused). */
struct ctx_params {
	uint32_t ctx_id;
	uint32_t set;		/* bit n: option n was set */
	int64_t value[NPU_RT_SYS_OPTS];
};
static struct ctx_params *ctx_params;
static size_t ctx_params_n;

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void)
{
	pthread_mutex_lock(&limits_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&limits_lock);
}

/* The child has no device open: its limits start afresh at its next
 * aclrtSetDevice (new epochs); process settings carry over, as memory does. */
static void fork_child(void)
{
	pthread_mutex_init(&limits_lock, NULL);
}

static void register_fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static void lock(void)
{
	pthread_once(&fork_once, register_fork_handlers);
	pthread_mutex_lock(&limits_lock);
}

/* The epoch of device dev's opening in this process; 0 (and the message)
 * when dev is not set in this process.  Takes the table lock briefly. */
static uint64_t device_epoch(int32_t dev)
{
	uint64_t epoch;

	if (npu_rt_enter_device(dev) != ACL_SUCCESS) {
		npu_rt_msg_detail("device %d is not set in this process (aclrtSetDevice first)", (int)dev);
		return 0;
	}
	epoch = npu_rt_device_epoch_locked(dev);
	npu_rt_devices_unlock();
	return epoch;
}

/*
 * The limits slot of device dev for its opening epoch (0: not set, -1),
 * started from the SoC's core counts on its first use in that opening.
 * Called with limits_lock held; spec is read before (no lock inside).
 */
static int res_slot(int32_t dev, uint64_t epoch, const struct npu_rt_platform_spec *s)
{
	if (epoch == 0)
		return -1;
	if (res[dev].epoch != epoch) {
		res[dev].epoch = epoch;
		res[dev].init[ACL_RT_DEV_RES_CUBE_CORE] = s ? (uint32_t)s->ai_cores : 0;
		res[dev].init[ACL_RT_DEV_RES_VECTOR_CORE] = s ? (uint32_t)s->vector_cores : 0;
		memcpy(res[dev].limit, res[dev].init, sizeof(res[dev].limit));
	}
	return 0;
}

/* The runtime's checks before the device is looked at. */
static aclError res_dev_check(int32_t deviceId)
{
	uint32_t n = 0;

	if (deviceId < 0 || aclrtGetDeviceCount(&n) != ACL_SUCCESS || (uint32_t)deviceId >= n) {
		npu_rt_msg_begin();
		npu_rt_msg_detail("deviceId %d is out of range: the module has %u devices", (int)deviceId, n);
		return ACL_ERROR_RT_INVALID_DEVICEID;
	}
	return ACL_SUCCESS;
}

static aclError res_type_check(aclrtDevResLimitType type)
{
	if ((uint32_t)type >= NPU_RT_RES_TYPES) {
		npu_rt_msg_detail("type %d is not CUBE_CORE (0) or VECTOR_CORE (1)", (int)type);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value)
{
	const struct npu_rt_platform_spec *spec;
	uint64_t epoch;
	aclError err = res_type_check(type);

	if (err == ACL_SUCCESS)
		err = res_dev_check(deviceId);
	if (err != ACL_SUCCESS)
		return err;
	epoch = device_epoch(deviceId);
	spec = npu_rt_device_spec(deviceId);
	lock();
	if (res_slot(deviceId, epoch, spec) != 0) {
		err = ACL_ERROR_RT_DEV_SETUP_ERROR;
	} else if (value > res[deviceId].init[type]) {
		npu_rt_msg_detail("value %u is more than the device's %u %s cores", value, res[deviceId].init[type],
				  type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector");
		err = ACL_ERROR_RT_PARAM_INVALID;
	} else {
		res[deviceId].limit[type] = value;
	}
	pthread_mutex_unlock(&limits_lock);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value)
{
	const struct npu_rt_platform_spec *spec;
	uint64_t epoch;
	aclError err;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = res_type_check(type);
	if (err == ACL_SUCCESS)
		err = res_dev_check(deviceId);
	if (err != ACL_SUCCESS)
		return err;
	epoch = device_epoch(deviceId);
	spec = npu_rt_device_spec(deviceId);
	lock();
	if (res_slot(deviceId, epoch, spec) != 0)
		err = ACL_ERROR_RT_DEV_SETUP_ERROR;
	else
		*value = res[deviceId].limit[type];
	pthread_mutex_unlock(&limits_lock);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId)
{
	const struct npu_rt_platform_spec *spec;
	uint64_t epoch;
	aclError err = res_dev_check(deviceId);

	if (err != ACL_SUCCESS)
		return err;
	epoch = device_epoch(deviceId);
	spec = npu_rt_device_spec(deviceId);
	lock();
	if (res_slot(deviceId, epoch, spec) != 0)
		err = ACL_ERROR_RT_DEV_SETUP_ERROR;
	else
		memcpy(res[deviceId].limit, res[deviceId].init, sizeof(res[deviceId].limit));
	pthread_mutex_unlock(&limits_lock);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value)
{
	aclError err;

	if ((uint32_t)limit > ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE) {
		npu_rt_msg_detail("limit %d is not an aclrtDeviceLimit (0..4)", (int)limit);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (value > UINT32_MAX) {
		npu_rt_msg_detail("value %zu is above UINT32_MAX", value);
		return ACL_ERROR_INVALID_PARAM;
	}
	lock();
	err = npu_rt_dev_limit_set(&dev_limits, limit, (uint32_t)value);
	pthread_mutex_unlock(&limits_lock);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value)
{
	uint32_t v = 0;
	aclError err;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if ((uint32_t)limit > ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE) {
		npu_rt_msg_detail("limit %d is not an aclrtDeviceLimit (0..4)", (int)limit);
		return ACL_ERROR_INVALID_PARAM;
	}
	lock();
	err = npu_rt_dev_limit_get(&dev_limits, limit, &v);
	pthread_mutex_unlock(&limits_lock);
	if (err == ACL_SUCCESS)
		*value = v;
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
	aclError err = npu_rt_sys_param_check(opt, value, false);

	if (err != ACL_SUCCESS)
		return err;
	lock();
	sys_params[opt] = value;
	pthread_mutex_unlock(&limits_lock);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
	aclError err;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_sys_param_opt_check(opt, false);
	if (err != ACL_SUCCESS)
		return err;
	lock();
	*value = sys_params[opt];	/* 0 until set, as in the runtime */
	pthread_mutex_unlock(&limits_lock);
	return ACL_SUCCESS;
}

/* The calling thread's current context id: 0 and *id, or 107002. */
static aclError current_ctx(uint32_t *id)
{
	int dev;
	aclError err = npu_rt_enter_current(&dev);

	if (err != ACL_SUCCESS)
		return err;
	*id = npu_rt_current_ctx_id_locked(dev);
	npu_rt_devices_unlock();
	return *id != 0 ? ACL_SUCCESS : ACL_ERROR_RT_CONTEXT_NULL;
}

/* The parameters of context id, added when add; NULL otherwise (or no
 * memory).  limits_lock held. */
static struct ctx_params *ctx_find(uint32_t id, bool add)
{
	struct ctx_params *p;

	for (size_t i = 0; i < ctx_params_n; i++)
		if (ctx_params[i].ctx_id == id)
			return &ctx_params[i];
	if (!add)
		return NULL;
	p = realloc(ctx_params, (ctx_params_n + 1) * sizeof(*p));
	if (p == NULL)
		return NULL;
	ctx_params = p;
	p = &ctx_params[ctx_params_n++];
	memset(p, 0, sizeof(*p));
	p->ctx_id = id;
	return p;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
	struct ctx_params *p;
	uint32_t id = 0;
	aclError err = npu_rt_sys_param_check(opt, value, true);

	if (err == ACL_SUCCESS)
		err = current_ctx(&id);
	if (err != ACL_SUCCESS)
		return err;
	lock();
	p = ctx_find(id, true);
	if (p == NULL) {
		err = ACL_ERROR_RT_MEMORY_ALLOCATION;
	} else {
		p->set |= 1u << opt;
		p->value[opt] = value;
	}
	pthread_mutex_unlock(&limits_lock);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
	struct ctx_params *p;
	uint32_t id = 0;
	aclError err;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_sys_param_opt_check(opt, true);
	if (err == ACL_SUCCESS)
		err = current_ctx(&id);
	if (err != ACL_SUCCESS)
		return err;
	lock();
	p = ctx_find(id, false);
	if (p == NULL || !(p->set & (1u << opt))) {
		npu_rt_msg_detail("option %d was not set in the current context", (int)opt);
		err = ACL_ERROR_RT_SYSPARAMOPT_NOT_SET;
	} else {
		*value = p->value[opt];
	}
	pthread_mutex_unlock(&limits_lock);
	return err;
}

/* Every posed SoC has one task scheduler: the runtime then takes any id
 * the ACL layer let through and changes nothing. */
ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId)
{
	if (tsId != ACL_TS_ID_AICORE && tsId != ACL_TS_ID_AIVECTOR) {
		npu_rt_msg_detail("tsId %d is not ACL_TS_ID_AICORE or ACL_TS_ID_AIVECTOR", (int)tsId);
		return ACL_ERROR_INVALID_PARAM;
	}
	return ACL_SUCCESS;
}
