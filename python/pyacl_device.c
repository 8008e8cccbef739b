// SPDX-License-Identifier: GPL-2.0
/* Init and device management: acl.init/finalize, acl.rt.*_device, run mode. */
#include "pyacl.h"

#include <acl/acl.h>

/* ret = acl.init() or acl.init(config_path) */
static PyObject *py_init(PyObject *self, PyObject *args)
{
	const char *config = NULL;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "|z:init", &config))
		return NULL;
	ret = aclInit(config);
	return PyLong_FromLong(ret);
}

/* ret = acl.finalize() */
static PyObject *py_finalize(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	return PyLong_FromLong(aclFinalize());
}

/* ret = acl.rt.set_device(device_id) */
static PyObject *py_set_device(PyObject *self, PyObject *args)
{
	int32_t id;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:set_device", pyacl_conv_i32, &id))
		return NULL;
	return PyLong_FromLong(aclrtSetDevice(id));
}

/* ret = acl.rt.reset_device(device_id) */
static PyObject *py_reset_device(PyObject *self, PyObject *args)
{
	int32_t id;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:reset_device", pyacl_conv_i32, &id))
		return NULL;
	return PyLong_FromLong(aclrtResetDevice(id));
}

/* device_id, ret = acl.rt.get_device() */
static PyObject *py_get_device(PyObject *self, PyObject *args)
{
	int32_t id = 0;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtGetDevice(&id);
	return Py_BuildValue("(ii)", (int)id, ret);
}

/* count, ret = acl.rt.get_device_count() */
static PyObject *py_get_device_count(PyObject *self, PyObject *args)
{
	uint32_t count = 0;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtGetDeviceCount(&count);
	return Py_BuildValue("(Ii)", (unsigned int)count, ret);
}

/* run_mode, ret = acl.rt.get_run_mode() */
static PyObject *py_get_run_mode(PyObject *self, PyObject *args)
{
	aclrtRunMode mode = ACL_DEVICE;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtGetRunMode(&mode);
	return Py_BuildValue("(ii)", (int)mode, ret);
}

/* can_access_peer, ret = acl.rt.device_can_access_peer(device_id, peer_device_id) */
static PyObject *py_device_can_access_peer(PyObject *self, PyObject *args)
{
	int32_t dev, peer, can = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:device_can_access_peer", pyacl_conv_i32, &dev,
			      pyacl_conv_i32, &peer))
		return NULL;
	ret = aclrtDeviceCanAccessPeer(&can, dev, peer);
	return Py_BuildValue("(ii)", (int)can, ret);
}

/* status, ret = acl.rt.device_peer_access_status(device_id, peer_device_id) */
static PyObject *py_device_peer_access_status(PyObject *self, PyObject *args)
{
	int32_t dev, peer, status = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:device_peer_access_status", pyacl_conv_i32,
			      &dev, pyacl_conv_i32, &peer))
		return NULL;
	ret = aclrtDevicePeerAccessStatus(dev, peer, &status);
	return Py_BuildValue("(ii)", (int)status, ret);
}

/* ret = acl.rt.device_enable_peer_access(peer_device_id, flags) */
static PyObject *py_device_enable_peer_access(PyObject *self, PyObject *args)
{
	int32_t peer;
	uint32_t flags;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:device_enable_peer_access", pyacl_conv_i32, &peer,
			      pyacl_conv_u32, &flags))
		return NULL;
	return PyLong_FromLong(aclrtDeviceEnablePeerAccess(peer, flags));
}

/* ret = acl.rt.device_disable_peer_access(peer_device_id) */
static PyObject *py_device_disable_peer_access(PyObject *self, PyObject *args)
{
	int32_t peer;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:device_disable_peer_access", pyacl_conv_i32, &peer))
		return NULL;
	return PyLong_FromLong(aclrtDeviceDisablePeerAccess(peer));
}

/* ret = acl.rt.reset_device_force(device_id) */
static PyObject *py_reset_device_force(PyObject *self, PyObject *args)
{
	int32_t id;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:reset_device_force", pyacl_conv_i32, &id))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtResetDeviceForce(id);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* pid, ret = acl.rt.device_get_bare_tgid() */
static PyObject *py_device_get_bare_tgid(PyObject *self, PyObject *args)
{
	int32_t pid = 0;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtDeviceGetBareTgid(&pid);
	return Py_BuildValue("(ii)", pid, ret);
}

/* name = acl.get_soc_name(): str, or None when it cannot be read */
static PyObject *py_get_soc_name(PyObject *self, PyObject *args)
{
	const char *name;

	(void)self;
	(void)args;
	name = aclrtGetSocName();
	if (name == NULL)
		Py_RETURN_NONE;
	return PyUnicode_FromString(name);
}

PyMethodDef pyacl_init_methods[] = {
	{ "init", py_init, METH_VARARGS,
	  "init([config_path]) -> ret\nInitialise AscendCL (aclInit)." },
	{ "finalize", py_finalize, METH_NOARGS,
	  "finalize() -> ret\nDeinitialise AscendCL (aclFinalize)." },
	{ "get_soc_name", py_get_soc_name, METH_NOARGS,
	  "get_soc_name() -> str or None (aclrtGetSocName): SoC of the emulated product" },
	{ NULL, NULL, 0, NULL },
};

PyMethodDef pyacl_rt_device_methods[] = {
	{ "set_device", py_set_device, METH_VARARGS,
	  "set_device(device_id) -> ret (aclrtSetDevice)" },
	{ "reset_device", py_reset_device, METH_VARARGS,
	  "reset_device(device_id) -> ret (aclrtResetDevice)" },
	{ "reset_device_force", py_reset_device_force, METH_VARARGS,
	  "reset_device_force(device_id) -> ret (aclrtResetDeviceForce)" },
	{ "device_get_bare_tgid", py_device_get_bare_tgid, METH_NOARGS,
	  "device_get_bare_tgid() -> (pid, ret) (aclrtDeviceGetBareTgid)" },
	{ "get_device", py_get_device, METH_NOARGS,
	  "get_device() -> (device_id, ret) (aclrtGetDevice)" },
	{ "get_device_count", py_get_device_count, METH_NOARGS,
	  "get_device_count() -> (count, ret) (aclrtGetDeviceCount)" },
	{ "get_run_mode", py_get_run_mode, METH_NOARGS,
	  "get_run_mode() -> (run_mode, ret) (aclrtGetRunMode)" },
	{ "device_can_access_peer", py_device_can_access_peer, METH_VARARGS,
	  "device_can_access_peer(device_id, peer_device_id) -> (can_access_peer, ret) "
	  "(aclrtDeviceCanAccessPeer)" },
	{ "device_peer_access_status", py_device_peer_access_status, METH_VARARGS,
	  "device_peer_access_status(device_id, peer_device_id) -> (status, ret) "
	  "(aclrtDevicePeerAccessStatus)" },
	{ "device_enable_peer_access", py_device_enable_peer_access, METH_VARARGS,
	  "device_enable_peer_access(peer_device_id, flags) -> ret (aclrtDeviceEnablePeerAccess)" },
	{ "device_disable_peer_access", py_device_disable_peer_access, METH_VARARGS,
	  "device_disable_peer_access(peer_device_id) -> ret (aclrtDeviceDisablePeerAccess)" },
	{ NULL, NULL, 0, NULL },
};
