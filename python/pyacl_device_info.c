// SPDX-License-Identifier: GPL-2.0
/*
 * Device information and settings, host buffers, CANN attributes:
 * acl.rt.get_device_info ... acl.rt.get_buf_from_chain, and
 * acl.get_device_capability / acl.get_cann_attribute(_list).  Out
 * parameters come back in a tuple with ret last; structs are dicts.
 */
#include "pyacl.h"

#include <acl/acl.h>
#include <string.h>

/* value, ret = acl.rt.get_device_info(device_id, attr) */
static PyObject *py_get_device_info(PyObject *self, PyObject *args)
{
	uint32_t dev;
	int32_t attr;
	int64_t v = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:get_device_info", pyacl_conv_u32, &dev, pyacl_conv_bits32, &attr))
		return NULL;
	ret = aclrtGetDeviceInfo(dev, (aclrtDevAttr)attr, &v);
	return Py_BuildValue("(Li)", (long long)v, ret);
}

/* value, ret = acl.rt.get_device_capability(device_id, feature_type) */
static PyObject *py_rt_get_device_capability(PyObject *self, PyObject *args)
{
	int32_t dev, feature, v = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:get_device_capability", pyacl_conv_i32, &dev, pyacl_conv_bits32,
			      &feature))
		return NULL;
	ret = aclrtGetDeviceCapability(dev, (aclrtDevFeatureType)feature, &v);
	return Py_BuildValue("(ii)", (int)v, ret);
}

/* value, ret = acl.get_device_capability(device_id, device_info) */
static PyObject *py_get_device_capability(PyObject *self, PyObject *args)
{
	uint32_t dev;
	int32_t info;
	int64_t v = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:get_device_capability", pyacl_conv_u32, &dev, pyacl_conv_bits32, &info))
		return NULL;
	ret = aclGetDeviceCapability(dev, (aclDeviceInfo)info, &v);
	return Py_BuildValue("(Li)", (long long)v, ret);
}

/* can_compatible, ret = acl.rt.check_arch_compatibility(soc_version) */
static PyObject *py_check_arch_compatibility(PyObject *self, PyObject *args)
{
	const char *soc;
	int32_t ok = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "z:check_arch_compatibility", &soc))
		return NULL;
	ret = aclrtCheckArchCompatibility(soc, &ok);
	return Py_BuildValue("(ii)", (int)ok, ret);
}

/* status, ret = acl.rt.query_device_status(device_id) */
static PyObject *py_query_device_status(PyObject *self, PyObject *args)
{
	aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_END;
	int32_t dev;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:query_device_status", pyacl_conv_i32, &dev))
		return NULL;
	ret = aclrtQueryDeviceStatus(dev, &st);
	return Py_BuildValue("(ii)", (int)st, ret);
}

/* info, ret = acl.rt.get_device_utilization_rate(device_id): info a dict
 * of cube/vector/aicpu/memory_utilization */
static PyObject *py_get_device_utilization_rate(PyObject *self, PyObject *args)
{
	aclrtUtilizationInfo u = { 0 };
	int32_t dev;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_device_utilization_rate", pyacl_conv_i32, &dev))
		return NULL;
	ret = aclrtGetDeviceUtilizationRate(dev, &u);
	return Py_BuildValue("({s:i,s:i,s:i,s:i}i)", "cube_utilization", u.cubeUtilization, "vector_utilization",
			     u.vectorUtilization, "aicpu_utilization", u.aicpuUtilization, "memory_utilization",
			     u.memoryUtilization, ret);
}

/* ret = acl.rt.set_device_res_limit(device_id, type, value) */
static PyObject *py_set_device_res_limit(PyObject *self, PyObject *args)
{
	int32_t dev, type;
	uint32_t v;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:set_device_res_limit", pyacl_conv_i32, &dev, pyacl_conv_bits32, &type,
			      pyacl_conv_u32, &v))
		return NULL;
	return PyLong_FromLong(aclrtSetDeviceResLimit(dev, (aclrtDevResLimitType)type, v));
}

/* value, ret = acl.rt.get_device_res_limit(device_id, type) */
static PyObject *py_get_device_res_limit(PyObject *self, PyObject *args)
{
	int32_t dev, type;
	uint32_t v = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:get_device_res_limit", pyacl_conv_i32, &dev, pyacl_conv_bits32, &type))
		return NULL;
	ret = aclrtGetDeviceResLimit(dev, (aclrtDevResLimitType)type, &v);
	return Py_BuildValue("(Ii)", (unsigned int)v, ret);
}

/* ret = acl.rt.reset_device_res_limit(device_id) */
static PyObject *py_reset_device_res_limit(PyObject *self, PyObject *args)
{
	int32_t dev;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:reset_device_res_limit", pyacl_conv_i32, &dev))
		return NULL;
	return PyLong_FromLong(aclrtResetDeviceResLimit(dev));
}

/* uuid, ret = acl.rt.device_get_uuid(device_id): uuid 16 bytes */
static PyObject *py_device_get_uuid(PyObject *self, PyObject *args)
{
	aclrtUuid u = { { 0 } };
	int32_t dev;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:device_get_uuid", pyacl_conv_i32, &dev))
		return NULL;
	ret = aclrtDeviceGetUuid(dev, &u);
	return Py_BuildValue("(y#i)", u.bytes, (Py_ssize_t)sizeof(u.bytes), ret);
}

/* The six id mappings: out_id, ret = acl.rt.<name>(id). */
#define ID_MAP(pyname, call)								\
	static PyObject *py_##pyname(PyObject *self, PyObject *args)			\
	{										\
		int32_t in, out = 0;							\
		aclError ret;								\
											\
		(void)self;								\
		if (!PyArg_ParseTuple(args, "O&:" #pyname, pyacl_conv_i32, &in))	\
			return NULL;							\
		ret = call(in, &out);							\
		return Py_BuildValue("(ii)", (int)out, ret);				\
	}
ID_MAP(get_logic_dev_id_by_phy_dev_id, aclrtGetLogicDevIdByPhyDevId)
ID_MAP(get_phy_dev_id_by_logic_dev_id, aclrtGetPhyDevIdByLogicDevId)
ID_MAP(get_logic_dev_id_by_user_dev_id, aclrtGetLogicDevIdByUserDevId)
ID_MAP(get_user_dev_id_by_logic_dev_id, aclrtGetUserDevIdByLogicDevId)
ID_MAP(get_phy_dev_id_by_user_dev_id, aclrtGetPhyDevIdByUserDevId)
ID_MAP(get_user_dev_id_by_phy_dev_id, aclrtGetUserDevIdByPhyDevId)

/* value, ret = acl.rt.get_devices_topo(device_id, other_device_id) */
static PyObject *py_get_devices_topo(PyObject *self, PyObject *args)
{
	uint32_t a, b;
	uint64_t v = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:get_devices_topo", pyacl_conv_u32, &a, pyacl_conv_u32, &b))
		return NULL;
	ret = aclrtGetDevicesTopo(a, b, &v);
	return Py_BuildValue("(Ki)", (unsigned long long)v, ret);
}

/* ret = acl.rt.device_set_limit(limit, value) */
static PyObject *py_device_set_limit(PyObject *self, PyObject *args)
{
	int32_t limit;
	size_t v;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:device_set_limit", pyacl_conv_bits32, &limit, pyacl_conv_size, &v))
		return NULL;
	return PyLong_FromLong(aclrtDeviceSetLimit((aclrtDeviceLimit)limit, v));
}

/* value, ret = acl.rt.device_get_limit(limit) */
static PyObject *py_device_get_limit(PyObject *self, PyObject *args)
{
	int32_t limit;
	size_t v = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:device_get_limit", pyacl_conv_bits32, &limit))
		return NULL;
	ret = aclrtDeviceGetLimit((aclrtDeviceLimit)limit, &v);
	return Py_BuildValue("(ni)", (Py_ssize_t)v, ret);
}

/* ret = acl.rt.set_sys_param_opt(opt, value) / ctx_set_sys_param_opt */
static PyObject *set_param(PyObject *args, const char *fmt, aclError (*call)(aclSysParamOpt, int64_t))
{
	int32_t opt;
	long long v;

	if (!PyArg_ParseTuple(args, fmt, pyacl_conv_bits32, &opt, &v))
		return NULL;
	return PyLong_FromLong(call((aclSysParamOpt)opt, (int64_t)v));
}

/* value, ret = acl.rt.get_sys_param_opt(opt) / ctx_get_sys_param_opt */
static PyObject *get_param(PyObject *args, const char *fmt, aclError (*call)(aclSysParamOpt, int64_t *))
{
	int32_t opt;
	int64_t v = 0;
	aclError ret;

	if (!PyArg_ParseTuple(args, fmt, pyacl_conv_bits32, &opt))
		return NULL;
	ret = call((aclSysParamOpt)opt, &v);
	return Py_BuildValue("(Li)", (long long)v, ret);
}

static PyObject *py_set_sys_param_opt(PyObject *self, PyObject *args)
{
	(void)self;
	return set_param(args, "O&L:set_sys_param_opt", aclrtSetSysParamOpt);
}

static PyObject *py_get_sys_param_opt(PyObject *self, PyObject *args)
{
	(void)self;
	return get_param(args, "O&:get_sys_param_opt", aclrtGetSysParamOpt);
}

static PyObject *py_ctx_set_sys_param_opt(PyObject *self, PyObject *args)
{
	(void)self;
	return set_param(args, "O&L:ctx_set_sys_param_opt", aclrtCtxSetSysParamOpt);
}

static PyObject *py_ctx_get_sys_param_opt(PyObject *self, PyObject *args)
{
	(void)self;
	return get_param(args, "O&:ctx_get_sys_param_opt", aclrtCtxGetSysParamOpt);
}

/* active, ret = acl.rt.get_primary_ctx_state(device_id) (flags: reserved) */
static PyObject *py_get_primary_ctx_state(PyObject *self, PyObject *args)
{
	int32_t dev, active = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_primary_ctx_state", pyacl_conv_i32, &dev))
		return NULL;
	ret = aclrtGetPrimaryCtxState(dev, NULL, &active);
	return Py_BuildValue("(ii)", (int)active, ret);
}

/* ret = acl.rt.set_ts_device(ts_id) */
static PyObject *py_set_ts_device(PyObject *self, PyObject *args)
{
	int32_t ts;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:set_ts_device", pyacl_conv_bits32, &ts))
		return NULL;
	return PyLong_FromLong(aclrtSetTsDevice((aclrtTsId)ts));
}

/* buf, ret = acl.rt.alloc_buf(size) */
static PyObject *py_alloc_buf(PyObject *self, PyObject *args)
{
	aclrtMbuf b = NULL;
	size_t size;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:alloc_buf", pyacl_conv_size, &size))
		return NULL;
	ret = aclrtAllocBuf(&b, size);
	return pyacl_ptr_ret(b, ret);
}

/* ret = acl.rt.free_buf(buf) */
static PyObject *py_free_buf(PyObject *self, PyObject *args)
{
	void *b;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:free_buf", pyacl_conv_ptr, &b))
		return NULL;
	return PyLong_FromLong(aclrtFreeBuf(b));
}

/* data_ptr, size, ret = acl.rt.get_buf_data(buf) */
static PyObject *py_get_buf_data(PyObject *self, PyObject *args)
{
	void *b, *data = NULL;
	size_t size = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_buf_data", pyacl_conv_ptr, &b))
		return NULL;
	ret = aclrtGetBufData(b, &data, &size);
	return Py_BuildValue("(Kni)", (unsigned long long)(uintptr_t)data, (Py_ssize_t)size, ret);
}

/* len, ret = acl.rt.get_buf_data_len(buf) */
static PyObject *py_get_buf_data_len(PyObject *self, PyObject *args)
{
	size_t len = 0;
	aclError ret;
	void *b;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_buf_data_len", pyacl_conv_ptr, &b))
		return NULL;
	ret = aclrtGetBufDataLen(b, &len);
	return Py_BuildValue("(ni)", (Py_ssize_t)len, ret);
}

/* ret = acl.rt.set_buf_data_len(buf, len) */
static PyObject *py_set_buf_data_len(PyObject *self, PyObject *args)
{
	size_t len;
	void *b;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:set_buf_data_len", pyacl_conv_ptr, &b, pyacl_conv_size, &len))
		return NULL;
	return PyLong_FromLong(aclrtSetBufDataLen(b, len));
}

/* new_buf, ret = acl.rt.copy_buf_ref(buf) */
static PyObject *py_copy_buf_ref(PyObject *self, PyObject *args)
{
	aclrtMbuf n = NULL;
	aclError ret;
	void *b;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:copy_buf_ref", pyacl_conv_ptr, &b))
		return NULL;
	ret = aclrtCopyBufRef(b, &n);
	return pyacl_ptr_ret(n, ret);
}

/* ret = acl.rt.append_buf_chain(head_buf, buf) */
static PyObject *py_append_buf_chain(PyObject *self, PyObject *args)
{
	void *h, *b;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:append_buf_chain", pyacl_conv_ptr, &h, pyacl_conv_ptr, &b))
		return NULL;
	return PyLong_FromLong(aclrtAppendBufChain(h, b));
}

/* num, ret = acl.rt.get_buf_chain_num(head_buf) */
static PyObject *py_get_buf_chain_num(PyObject *self, PyObject *args)
{
	uint32_t n = 0;
	aclError ret;
	void *h;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_buf_chain_num", pyacl_conv_ptr, &h))
		return NULL;
	ret = aclrtGetBufChainNum(h, &n);
	return Py_BuildValue("(Ii)", (unsigned int)n, ret);
}

/* buf, ret = acl.rt.get_buf_from_chain(head_buf, index) */
static PyObject *py_get_buf_from_chain(PyObject *self, PyObject *args)
{
	aclrtMbuf b = NULL;
	uint32_t i;
	aclError ret;
	void *h;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:get_buf_from_chain", pyacl_conv_ptr, &h, pyacl_conv_u32, &i))
		return NULL;
	ret = aclrtGetBufFromChain(h, i, &b);
	return pyacl_ptr_ret(b, ret);
}

/* attrs, ret = acl.get_cann_attribute_list(): attrs a list of ints */
static PyObject *py_get_cann_attribute_list(PyObject *self, PyObject *args)
{
	const aclCannAttr *list = NULL;
	PyObject *l;
	size_t n = 0;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclGetCannAttributeList(&list, &n);
	l = PyList_New(0);
	if (l == NULL)
		return NULL;
	for (size_t i = 0; ret == ACL_SUCCESS && i < n; i++) {
		PyObject *v = PyLong_FromLong(list[i]);

		if (v == NULL || PyList_Append(l, v) < 0) {
			Py_XDECREF(v);
			Py_DECREF(l);
			return NULL;
		}
		Py_DECREF(v);
	}
	return Py_BuildValue("(Ni)", l, ret);
}

/* value, ret = acl.get_cann_attribute(attr) */
static PyObject *py_get_cann_attribute(PyObject *self, PyObject *args)
{
	int32_t attr, v = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_cann_attribute", pyacl_conv_bits32, &attr))
		return NULL;
	ret = aclGetCannAttribute((aclCannAttr)attr, &v);
	return Py_BuildValue("(ii)", (int)v, ret);
}

/* acl.app_log(level, message): the caller's line, from Python */
static PyObject *py_app_log(PyObject *self, PyObject *args)
{
	const char *msg;
	int32_t level;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&s:app_log", pyacl_conv_bits32, &level, &msg))
		return NULL;
	aclAppLog((aclLogLevel)level, "python", "python", 0, "%s", msg);
	Py_RETURN_NONE;
}

/* Item @key of @dict: the NUL-terminated string @str; -1 on error. */
static int set_str(PyObject *dict, const char *key, const char *str, size_t max)
{
	PyObject *v = PyUnicode_DecodeLatin1(str, (Py_ssize_t)strnlen(str, max), NULL);
	int rc;

	if (!v)
		return -1;
	rc = PyDict_SetItemString(dict, key, v);
	Py_DECREF(v);
	return rc;
}

/* version, ret = acl.get_cann_version(package_name): version a dict */
static PyObject *py_get_cann_version(PyObject *self, PyObject *args)
{
	aclCANNPackageVersion ver;
	PyObject *dict, *out;
	int32_t name;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_cann_version", pyacl_conv_bits32, &name))
		return NULL;
	memset(&ver, 0, sizeof(ver));
	/* deprecated in C, still wrapped by pyACL */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	ret = aclsysGetCANNVersion((aclCANNPackageName)name, &ver);
#pragma GCC diagnostic pop
	dict = PyDict_New();
	if (!dict)
		return NULL;
	if (set_str(dict, "version", ver.version, sizeof(ver.version)) ||
	    set_str(dict, "major_version", ver.majorVersion, sizeof(ver.majorVersion)) ||
	    set_str(dict, "minor_version", ver.minorVersion, sizeof(ver.minorVersion)) ||
	    set_str(dict, "release_version", ver.releaseVersion, sizeof(ver.releaseVersion)) ||
	    set_str(dict, "patch_version", ver.patchVersion, sizeof(ver.patchVersion)) ||
	    set_str(dict, "reserved", ver.reserved, sizeof(ver.reserved))) {
		Py_DECREF(dict);
		return NULL;
	}
	out = Py_BuildValue("(Oi)", dict, ret);
	Py_DECREF(dict);
	return out;
}

/* version, ret = acl.get_version_str(package_name): "" on failure */
static PyObject *py_get_version_str(PyObject *self, PyObject *args)
{
	char buf[ACL_PKG_VERSION_MAX_SIZE] = { 0 };
	const char *pkg;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "s:get_version_str", &pkg))
		return NULL;
	ret = aclsysGetVersionStr((char *)pkg, buf);
	return Py_BuildValue("(si)", ret == ACL_SUCCESS ? buf : "", ret);
}

PyMethodDef pyacl_base_info_methods[] = {
	{ "get_cann_version", py_get_cann_version, METH_VARARGS,
	  "get_cann_version(package_name) -> (dict, ret) (aclsysGetCANNVersion); dict keys "
	  "version, major_version, minor_version, release_version, patch_version, reserved" },
	{ "get_version_str", py_get_version_str, METH_VARARGS,
	  "get_version_str(package_name) -> (str, ret) (aclsysGetVersionStr)" },
	{ "get_device_capability", py_get_device_capability, METH_VARARGS,
	  "get_device_capability(device_id, device_info) -> (value, ret) (aclGetDeviceCapability)" },
	{ "get_cann_attribute_list", py_get_cann_attribute_list, METH_NOARGS,
	  "get_cann_attribute_list() -> (attrs, ret) (aclGetCannAttributeList)" },
	{ "get_cann_attribute", py_get_cann_attribute, METH_VARARGS,
	  "get_cann_attribute(attr) -> (value, ret) (aclGetCannAttribute)" },
	{ "app_log", py_app_log, METH_VARARGS, "app_log(level, message) (aclAppLog)" },
	{ NULL, NULL, 0, NULL },
};

#define M(name, doc) { #name, py_##name, METH_VARARGS, doc }

PyMethodDef pyacl_rt_device_info_methods[] = {
	M(get_device_info, "get_device_info(device_id, attr) -> (value, ret) (aclrtGetDeviceInfo)"),
	{ "get_device_capability", py_rt_get_device_capability, METH_VARARGS,
	  "get_device_capability(device_id, feature_type) -> (value, ret) (aclrtGetDeviceCapability)" },
	M(check_arch_compatibility,
	  "check_arch_compatibility(soc_version) -> (can_compatible, ret) (aclrtCheckArchCompatibility)"),
	M(query_device_status, "query_device_status(device_id) -> (status, ret) (aclrtQueryDeviceStatus)"),
	M(get_device_utilization_rate,
	  "get_device_utilization_rate(device_id) -> (dict, ret) (aclrtGetDeviceUtilizationRate)"),
	M(set_device_res_limit, "set_device_res_limit(device_id, type, value) -> ret (aclrtSetDeviceResLimit)"),
	M(get_device_res_limit, "get_device_res_limit(device_id, type) -> (value, ret) (aclrtGetDeviceResLimit)"),
	M(reset_device_res_limit, "reset_device_res_limit(device_id) -> ret (aclrtResetDeviceResLimit)"),
	M(device_get_uuid, "device_get_uuid(device_id) -> (bytes, ret) (aclrtDeviceGetUuid)"),
	M(get_logic_dev_id_by_phy_dev_id, "(logic_id, ret) (aclrtGetLogicDevIdByPhyDevId)"),
	M(get_phy_dev_id_by_logic_dev_id, "(phy_id, ret) (aclrtGetPhyDevIdByLogicDevId)"),
	M(get_logic_dev_id_by_user_dev_id, "(logic_id, ret) (aclrtGetLogicDevIdByUserDevId)"),
	M(get_user_dev_id_by_logic_dev_id, "(user_id, ret) (aclrtGetUserDevIdByLogicDevId)"),
	M(get_phy_dev_id_by_user_dev_id, "(phy_id, ret) (aclrtGetPhyDevIdByUserDevId)"),
	M(get_user_dev_id_by_phy_dev_id, "(user_id, ret) (aclrtGetUserDevIdByPhyDevId)"),
	M(get_devices_topo, "get_devices_topo(device_id, other_device_id) -> (value, ret) (aclrtGetDevicesTopo)"),
	M(device_set_limit, "device_set_limit(limit, value) -> ret (aclrtDeviceSetLimit)"),
	M(device_get_limit, "device_get_limit(limit) -> (value, ret) (aclrtDeviceGetLimit)"),
	M(set_sys_param_opt, "set_sys_param_opt(opt, value) -> ret (aclrtSetSysParamOpt)"),
	M(get_sys_param_opt, "get_sys_param_opt(opt) -> (value, ret) (aclrtGetSysParamOpt)"),
	M(ctx_set_sys_param_opt, "ctx_set_sys_param_opt(opt, value) -> ret (aclrtCtxSetSysParamOpt)"),
	M(ctx_get_sys_param_opt, "ctx_get_sys_param_opt(opt) -> (value, ret) (aclrtCtxGetSysParamOpt)"),
	M(get_primary_ctx_state, "get_primary_ctx_state(device_id) -> (active, ret) (aclrtGetPrimaryCtxState)"),
	M(set_ts_device, "set_ts_device(ts_id) -> ret (aclrtSetTsDevice)"),
	M(alloc_buf, "alloc_buf(size) -> (buf, ret) (aclrtAllocBuf)"),
	M(free_buf, "free_buf(buf) -> ret (aclrtFreeBuf)"),
	M(get_buf_data, "get_buf_data(buf) -> (data_ptr, size, ret) (aclrtGetBufData)"),
	M(get_buf_data_len, "get_buf_data_len(buf) -> (len, ret) (aclrtGetBufDataLen)"),
	M(set_buf_data_len, "set_buf_data_len(buf, len) -> ret (aclrtSetBufDataLen)"),
	M(copy_buf_ref, "copy_buf_ref(buf) -> (new_buf, ret) (aclrtCopyBufRef)"),
	M(append_buf_chain, "append_buf_chain(head_buf, buf) -> ret (aclrtAppendBufChain)"),
	M(get_buf_chain_num, "get_buf_chain_num(head_buf) -> (num, ret) (aclrtGetBufChainNum)"),
	M(get_buf_from_chain, "get_buf_from_chain(head_buf, index) -> (buf, ret) (aclrtGetBufFromChain)"),
	{ NULL, NULL, 0, NULL },
};
