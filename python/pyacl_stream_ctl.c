// SPDX-License-Identifier: GPL-2.0
/*
 * Stream failure mode, queries and control (issue 23): acl.rt.
 * set_stream_failure_mode, stream_get_id / _flags / _priority,
 * create_stream_config_handle, set_stream_config_opt,
 * destroy_stream_config_handle, create_stream_v2, set/get_stream_attribute,
 * stream_abort, stream_stop, active_stream, get_stream_available_num,
 * synchronize_device_with_timeout, reg_stream_state_callback, the stream
 * resource limits, ctx_get_current_default_stream and
 * device_get_stream_priority_range.  Streams are ints (0: the default).
 */
#include "pyacl.h"

#include <string.h>

#include <acl/acl.h>

/* ret = acl.rt.set_stream_failure_mode(stream, mode) */
static PyObject *py_set_stream_failure_mode(PyObject *self, PyObject *args)
{
	void *s;
	uint64_t mode;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:set_stream_failure_mode", pyacl_conv_ptr, &s, pyacl_conv_u64, &mode))
		return NULL;
	return PyLong_FromLong(aclrtSetStreamFailureMode(s, mode));
}

/* stream_id, ret = acl.rt.stream_get_id(stream) */
static PyObject *py_stream_get_id(PyObject *self, PyObject *args)
{
	int32_t id = 0;
	void *s;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:stream_get_id", pyacl_conv_ptr, &s))
		return NULL;
	ret = aclrtStreamGetId(s, &id);
	return Py_BuildValue("(ii)", (int)id, ret);
}

/* flags, ret = acl.rt.stream_get_flags(stream) and stream_get_priority */
#define U32_QUERY(pyname, cfunc)							\
static PyObject *py_##pyname(PyObject *self, PyObject *args)			\
{										\
	uint32_t v = 0;								\
	void *s;								\
	aclError ret;								\
										\
	(void)self;								\
	if (!PyArg_ParseTuple(args, "O&:" #pyname, pyacl_conv_ptr, &s))		\
		return NULL;							\
	ret = cfunc(s, &v);							\
	return Py_BuildValue("(ki)", (unsigned long)v, ret);			\
}

U32_QUERY(stream_get_flags, aclrtStreamGetFlags)
U32_QUERY(stream_get_priority, aclrtStreamGetPriority)

/* handle = acl.rt.create_stream_config_handle(): 0 when out of memory */
static PyObject *py_create_stream_config_handle(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	return PyLong_FromVoidPtr(aclrtCreateStreamConfigHandle());
}

/* ret = acl.rt.destroy_stream_config_handle(handle) */
static PyObject *py_destroy_stream_config_handle(PyObject *self, PyObject *args)
{
	void *h;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:destroy_stream_config_handle", pyacl_conv_ptr, &h))
		return NULL;
	return PyLong_FromLong(aclrtDestroyStreamConfigHandle(h));
}

/*
 * ret = acl.rt.set_stream_config_opt(handle, attr, value): value an int,
 * passed as the attribute's C type (uint32_t for ACL_RT_STREAM_PRIORITY,
 * else a size_t / pointer of 8 bytes).
 */
static PyObject *py_set_stream_config_opt(PyObject *self, PyObject *args)
{
	uint64_t value;
	int32_t attr;
	uint32_t v32;
	size_t v64;
	void *h;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:set_stream_config_opt", pyacl_conv_ptr, &h, pyacl_conv_bits32, &attr,
			      pyacl_conv_u64, &value))
		return NULL;
	if (attr == ACL_RT_STREAM_PRIORITY) {
		if (value > UINT32_MAX) {
			PyErr_SetString(PyExc_OverflowError, "priority does not fit uint32_t");
			return NULL;
		}
		v32 = (uint32_t)value;
		return PyLong_FromLong(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)attr, &v32, sizeof(v32)));
	}
	v64 = (size_t)value;
	return PyLong_FromLong(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)attr, &v64, sizeof(v64)));
}

/* stream, ret = acl.rt.create_stream_v2(handle): handle 0 for the defaults */
static PyObject *py_create_stream_v2(PyObject *self, PyObject *args)
{
	aclrtStream s = NULL;
	void *h;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:create_stream_v2", pyacl_conv_ptr, &h))
		return NULL;
	ret = aclrtCreateStreamV2(&s, h);
	return pyacl_ptr_ret(s, ret);
}

/* ret = acl.rt.set_stream_attribute(stream, attr, value): value an int (the
 * failureMode, or the 32-bit member of the other attributes) */
static PyObject *py_set_stream_attribute(PyObject *self, PyObject *args)
{
	aclrtStreamAttrValue v;
	uint64_t value;
	int32_t attr;
	void *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:set_stream_attribute", pyacl_conv_ptr, &s, pyacl_conv_bits32, &attr,
			      pyacl_conv_u64, &value))
		return NULL;
	memset(&v, 0, sizeof(v));
	if (attr == ACL_STREAM_ATTR_FAILURE_MODE) {
		v.failureMode = value;
	} else if (value > UINT32_MAX) {
		PyErr_SetString(PyExc_OverflowError, "value does not fit uint32_t");
		return NULL;
	} else {
		v.reserve[0] = (uint32_t)value;
	}
	return PyLong_FromLong(aclrtSetStreamAttribute(s, (aclrtStreamAttr)attr, &v));
}

/* value, ret = acl.rt.get_stream_attribute(stream, attr) */
static PyObject *py_get_stream_attribute(PyObject *self, PyObject *args)
{
	aclrtStreamAttrValue v;
	int32_t attr;
	void *s;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:get_stream_attribute", pyacl_conv_ptr, &s, pyacl_conv_bits32, &attr))
		return NULL;
	memset(&v, 0, sizeof(v));
	ret = aclrtGetStreamAttribute(s, (aclrtStreamAttr)attr, &v);
	if (attr == ACL_STREAM_ATTR_FAILURE_MODE)
		return Py_BuildValue("(Ki)", (unsigned long long)v.failureMode, ret);
	return Py_BuildValue("(ki)", (unsigned long)v.reserve[0], ret);
}

/* The calls taking one stream and returning ret; they may wait. */
#define STREAM_CALL(pyname, cfunc)							\
static PyObject *py_##pyname(PyObject *self, PyObject *args)			\
{										\
	void *s;								\
	aclError ret;								\
										\
	(void)self;								\
	if (!PyArg_ParseTuple(args, "O&:" #pyname, pyacl_conv_ptr, &s))		\
		return NULL;							\
	Py_BEGIN_ALLOW_THREADS							\
	ret = cfunc(s);								\
	Py_END_ALLOW_THREADS							\
	return PyLong_FromLong(ret);						\
}

STREAM_CALL(stream_abort, aclrtStreamAbort)
STREAM_CALL(stream_stop, aclrtStreamStop)
STREAM_CALL(reset_stream_res_limit, aclrtResetStreamResLimit)
STREAM_CALL(use_stream_res_in_current_thread, aclrtUseStreamResInCurrentThread)
STREAM_CALL(unuse_stream_res_in_current_thread, aclrtUnuseStreamResInCurrentThread)

/* ret = acl.rt.active_stream(active_stream, stream) */
static PyObject *py_active_stream(PyObject *self, PyObject *args)
{
	void *a, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:active_stream", pyacl_conv_ptr, &a, pyacl_conv_ptr, &s))
		return NULL;
	return PyLong_FromLong(aclrtActiveStream(a, s));
}

/* count, ret = acl.rt.get_stream_available_num() */
static PyObject *py_get_stream_available_num(PyObject *self, PyObject *args)
{
	uint32_t n = 0;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtGetStreamAvailableNum(&n);
	return Py_BuildValue("(ki)", (unsigned long)n, ret);
}

/* ret = acl.rt.synchronize_device_with_timeout(timeout_ms) */
static PyObject *py_synchronize_device_with_timeout(PyObject *self, PyObject *args)
{
	int32_t t;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:synchronize_device_with_timeout", pyacl_conv_i32, &t))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtSynchronizeDeviceWithTimeout(t);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/*
 * A Python stream state callback: callable(stream, state, args).  Kept for
 * the life of the process (a removed one may still be running in another
 * thread), so a re-registration under a name makes a new one.
 */
struct py_state_cb {
	PyObject *fn, *args;
};

static void state_trampoline(aclrtStream stm, aclrtStreamState state, void *arg)
{
	struct py_state_cb *cb = arg;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *r = PyObject_CallFunction(cb->fn, "NiO", PyLong_FromVoidPtr(stm), (int)state, cb->args);

	if (r == NULL)
		PyErr_WriteUnraisable(cb->fn);
	Py_XDECREF(r);
	PyGILState_Release(g);
}

/* ret = acl.rt.reg_stream_state_callback(reg_name, callback, args):
 * callback None removes reg_name's */
static PyObject *py_reg_stream_state_callback(PyObject *self, PyObject *args)
{
	struct py_state_cb *cb = NULL;
	PyObject *fn, *user;
	const char *name;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "sOO:reg_stream_state_callback", &name, &fn, &user))
		return NULL;
	if (fn != Py_None && !PyCallable_Check(fn)) {
		PyErr_SetString(PyExc_TypeError, "callback must be callable or None");
		return NULL;
	}
	if (fn != Py_None) {
		cb = PyMem_RawMalloc(sizeof(*cb));
		if (cb == NULL)
			return PyErr_NoMemory();
		Py_INCREF(fn);
		Py_INCREF(user);
		cb->fn = fn;
		cb->args = user;
	}
	/* a callback may run in this very call's thread: it takes the GIL */
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtRegStreamStateCallback(name, cb != NULL ? state_trampoline : NULL, cb);
	Py_END_ALLOW_THREADS
	if (ret != ACL_SUCCESS && cb != NULL) {	/* never registered: not used */
		Py_DECREF(cb->fn);
		Py_DECREF(cb->args);
		PyMem_RawFree(cb);
	}
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.set_stream_res_limit(stream, type, value) */
static PyObject *py_set_stream_res_limit(PyObject *self, PyObject *args)
{
	uint32_t value;
	int32_t type;
	void *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:set_stream_res_limit", pyacl_conv_ptr, &s, pyacl_conv_bits32, &type,
			      pyacl_conv_u32, &value))
		return NULL;
	return PyLong_FromLong(aclrtSetStreamResLimit(s, (aclrtDevResLimitType)type, value));
}

/* value, ret = acl.rt.get_stream_res_limit(stream, type) */
static PyObject *py_get_stream_res_limit(PyObject *self, PyObject *args)
{
	uint32_t value = 0;
	int32_t type;
	void *s;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:get_stream_res_limit", pyacl_conv_ptr, &s, pyacl_conv_bits32, &type))
		return NULL;
	ret = aclrtGetStreamResLimit(s, (aclrtDevResLimitType)type, &value);
	return Py_BuildValue("(ki)", (unsigned long)value, ret);
}

/* value, ret = acl.rt.get_res_in_current_thread(type) */
static PyObject *py_get_res_in_current_thread(PyObject *self, PyObject *args)
{
	uint32_t value = 0;
	int32_t type;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_res_in_current_thread", pyacl_conv_bits32, &type))
		return NULL;
	ret = aclrtGetResInCurrentThread((aclrtDevResLimitType)type, &value);
	return Py_BuildValue("(ki)", (unsigned long)value, ret);
}

/* stream, ret = acl.rt.ctx_get_current_default_stream() */
static PyObject *py_ctx_get_current_default_stream(PyObject *self, PyObject *args)
{
	aclrtStream s = NULL;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtCtxGetCurrentDefaultStream(&s);
	return pyacl_ptr_ret(s, ret);
}

/* least, greatest, ret = acl.rt.device_get_stream_priority_range() */
static PyObject *py_device_get_stream_priority_range(PyObject *self, PyObject *args)
{
	int32_t least = 0, greatest = 0;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtDeviceGetStreamPriorityRange(&least, &greatest);
	return Py_BuildValue("(iii)", (int)least, (int)greatest, ret);
}

PyMethodDef pyacl_rt_stream_ctl_methods[] = {
	{ "set_stream_failure_mode", py_set_stream_failure_mode, METH_VARARGS,
	  "set_stream_failure_mode(stream, mode) -> ret (aclrtSetStreamFailureMode)" },
	{ "stream_get_id", py_stream_get_id, METH_VARARGS,
	  "stream_get_id(stream) -> (stream_id, ret) (aclrtStreamGetId)" },
	{ "stream_get_flags", py_stream_get_flags, METH_VARARGS,
	  "stream_get_flags(stream) -> (flags, ret) (aclrtStreamGetFlags)" },
	{ "stream_get_priority", py_stream_get_priority, METH_VARARGS,
	  "stream_get_priority(stream) -> (priority, ret) (aclrtStreamGetPriority)" },
	{ "create_stream_config_handle", py_create_stream_config_handle, METH_NOARGS,
	  "create_stream_config_handle() -> handle, 0 if out of memory" },
	{ "destroy_stream_config_handle", py_destroy_stream_config_handle, METH_VARARGS,
	  "destroy_stream_config_handle(handle) -> ret" },
	{ "set_stream_config_opt", py_set_stream_config_opt, METH_VARARGS,
	  "set_stream_config_opt(handle, attr, value) -> ret (aclrtSetStreamConfigOpt)" },
	{ "create_stream_v2", py_create_stream_v2, METH_VARARGS,
	  "create_stream_v2(handle) -> (stream, ret) (aclrtCreateStreamV2)" },
	{ "set_stream_attribute", py_set_stream_attribute, METH_VARARGS,
	  "set_stream_attribute(stream, attr, value) -> ret (aclrtSetStreamAttribute)" },
	{ "get_stream_attribute", py_get_stream_attribute, METH_VARARGS,
	  "get_stream_attribute(stream, attr) -> (value, ret) (aclrtGetStreamAttribute)" },
	{ "stream_abort", py_stream_abort, METH_VARARGS, "stream_abort(stream) -> ret (aclrtStreamAbort)" },
	{ "stream_stop", py_stream_stop, METH_VARARGS, "stream_stop(stream) -> ret (aclrtStreamStop)" },
	{ "active_stream", py_active_stream, METH_VARARGS,
	  "active_stream(active_stream, stream) -> ret (aclrtActiveStream)" },
	{ "get_stream_available_num", py_get_stream_available_num, METH_NOARGS,
	  "get_stream_available_num() -> (count, ret) (aclrtGetStreamAvailableNum)" },
	{ "synchronize_device_with_timeout", py_synchronize_device_with_timeout, METH_VARARGS,
	  "synchronize_device_with_timeout(timeout_ms) -> ret" },
	{ "reg_stream_state_callback", py_reg_stream_state_callback, METH_VARARGS,
	  "reg_stream_state_callback(reg_name, callback(stream, state, args), args) -> ret" },
	{ "set_stream_res_limit", py_set_stream_res_limit, METH_VARARGS,
	  "set_stream_res_limit(stream, type, value) -> ret (aclrtSetStreamResLimit)" },
	{ "get_stream_res_limit", py_get_stream_res_limit, METH_VARARGS,
	  "get_stream_res_limit(stream, type) -> (value, ret) (aclrtGetStreamResLimit)" },
	{ "reset_stream_res_limit", py_reset_stream_res_limit, METH_VARARGS,
	  "reset_stream_res_limit(stream) -> ret (aclrtResetStreamResLimit)" },
	{ "use_stream_res_in_current_thread", py_use_stream_res_in_current_thread, METH_VARARGS,
	  "use_stream_res_in_current_thread(stream) -> ret" },
	{ "unuse_stream_res_in_current_thread", py_unuse_stream_res_in_current_thread, METH_VARARGS,
	  "unuse_stream_res_in_current_thread(stream) -> ret" },
	{ "get_res_in_current_thread", py_get_res_in_current_thread, METH_VARARGS,
	  "get_res_in_current_thread(type) -> (value, ret) (aclrtGetResInCurrentThread)" },
	{ "ctx_get_current_default_stream", py_ctx_get_current_default_stream, METH_NOARGS,
	  "ctx_get_current_default_stream() -> (stream, ret)" },
	{ "device_get_stream_priority_range", py_device_get_stream_priority_range, METH_NOARGS,
	  "device_get_stream_priority_range() -> (least, greatest, ret)" },
	{ NULL, NULL, 0, NULL },
};
