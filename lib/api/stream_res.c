/*
 * Stream resource limits: aclrtSetStreamResLimit / aclrtGetStreamResLimit /
 * aclrtResetStreamResLimit, aclrtUseStreamResInCurrentThread /
 * aclrtUnuseStreamResInCurrentThread and aclrtGetResInCurrentThread.
 *
 * How many cube and vector cores a stream's work may use, as the runtime
 * keeps it: on the host, per stream, with the device's core counts (the
 * posed SoC's platform file) as the default and the ceiling.  The
 * simulated device runs no kernels, so the limits are recorded and
 * reported only.
 */
#include "acl_internal.h"
#include "err_msg.h"
#include "platform_spec.h"
#include "profile.h"

#define RES_TYPES 2U	/* ACL_RT_DEV_RES_CUBE_CORE, _VECTOR_CORE */

/* The calling thread's resource stream (aclrtUseStreamResInCurrentThread). */
static __thread struct {
	int used;
	aclrtStream stream;	/* NULL: the default stream of (dev, epoch) */
	int dev;
	uint64_t epoch;
} res_stream;

static aclError type_ok(aclrtDevResLimitType type)
{
	if ((uint32_t)type < RES_TYPES)
		return ACL_SUCCESS;
	npu_rt_msg_detail("type %d is not an aclrtDevResLimitType (0 cube cores, 1 vector cores)", (int)type);
	return ACL_ERROR_RT_PARAM_INVALID;
}

/*
 * With the table lock held: the cores of type device dev has, from the
 * platform file of the SoC it poses as (AI cores for cube, as the device
 * resource limits count them).
 */
static uint32_t device_cores(int dev, aclrtDevResLimitType type)
{
	const struct npu_rt_platform_spec *s =
		npu_rt_platform_spec(npu_rt_device_profile_locked(dev)->soc_name);

	if (!s)
		return 0;
	return (uint32_t)(type == ACL_RT_DEV_RES_CUBE_CORE ? s->ai_cores : s->vector_cores);
}

struct res_edit {
	aclrtDevResLimitType type;
	uint32_t value;
	int reset;
};

static void edit_res(struct npu_rt_stream_opts *o, const void *arg)
{
	const struct res_edit *e = arg;

	if (e->reset) {
		o->res[0] = o->res[1] = 0;
		o->res_set = 0;
	} else {
		o->res[e->type] = e->value;
		o->res_set |= 1U << e->type;
	}
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value)
{
	struct res_edit e = { .type = type, .value = value };
	struct npu_rt_stream_opts o;
	struct npu_rt_ref ref;
	uint32_t cores;
	aclError err;

	err = npu_rt_stream_opts_edit(stream, NULL, NULL, &o);	/* the handle guard */
	if (err == ACL_SUCCESS)
		err = type_ok(type);
	if (err != ACL_SUCCESS)
		return err;
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	cores = device_cores(ref.dev, type);
	npu_rt_devices_unlock();
	if (value > cores) {
		npu_rt_msg_detail("value %u is more than the %u cores of that type the device has", value, cores);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return npu_rt_stream_opts_edit(stream, edit_res, &e, &o);
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value)
{
	struct npu_rt_stream_opts o;
	struct npu_rt_ref ref;
	aclError err;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_opts_edit(stream, NULL, NULL, &o);
	if (err == ACL_SUCCESS)
		err = type_ok(type);
	if (err != ACL_SUCCESS)
		return err;
	if (o.res_set & (1U << type)) {
		*value = o.res[type];
		return ACL_SUCCESS;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	*value = device_cores(ref.dev, type);
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream)
{
	struct res_edit e = { .reset = 1 };
	struct npu_rt_stream_opts o;

	return npu_rt_stream_opts_edit(stream, edit_res, &e, &o);
}

ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream)
{
	struct npu_rt_ref ref;
	aclError err = npu_rt_stream_enter(stream, &ref);

	if (err != ACL_SUCCESS)
		return err;
	res_stream.used = 1;
	res_stream.stream = stream;
	res_stream.dev = ref.dev;
	res_stream.epoch = npu_rt_device_epoch_locked(ref.dev);
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream)
{
	struct npu_rt_ref ref;
	aclError err = npu_rt_stream_enter(stream, &ref);

	if (err != ACL_SUCCESS)
		return err;
	/* another stream than the thread's: no change, as the runtime */
	if (res_stream.used && res_stream.stream == stream && res_stream.dev == ref.dev &&
	    res_stream.epoch == npu_rt_device_epoch_locked(ref.dev))
		res_stream.used = 0;
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value)
{
	struct npu_rt_stream_opts o;
	aclError err;
	int dev;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = type_ok(type);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_read_lock();
	/* a resource stream destroyed since (or its device reset) counts as none */
	if (res_stream.used && npu_rt_device_epoch_locked(res_stream.dev) == res_stream.epoch &&
	    npu_rt_stream_opts(res_stream.stream, res_stream.dev, res_stream.epoch, NULL, NULL, &o) == 0 &&
	    (o.res_set & (1U << type))) {
		npu_rt_devices_unlock();
		*value = o.res[type];
		return ACL_SUCCESS;
	}
	npu_rt_devices_unlock();
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	*value = device_cores(dev, type);
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}
