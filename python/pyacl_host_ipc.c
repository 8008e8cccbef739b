// SPDX-License-Identifier: GPL-2.0
/*
 * acl.rt: host memory registration (host_register, host_register_v2,
 * host_get_device_pointer, host_unregister) and IPC memory keys
 * (ipc_mem_get_export_key, ipc_mem_import_by_key, ipc_mem_set_import_pid,
 * ipc_mem_close).  Keys are str, as the C calls' NUL-terminated names.
 */
#include "pyacl.h"

#include <acl/acl.h>

/* dev_ptr, ret = acl.rt.host_register(ptr, size, type) */
static PyObject *py_host_register(PyObject *self, PyObject *args)
{
	void *ptr, *dev = NULL;
	uint64_t size;
	int32_t type;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:host_register", pyacl_conv_ptr, &ptr, pyacl_conv_u64, &size,
			      pyacl_conv_bits32, &type))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtHostRegister(ptr, size, (aclrtHostRegisterType)type, &dev);
	Py_END_ALLOW_THREADS
	return pyacl_ptr_ret(dev, ret);
}

/* ret = acl.rt.host_register_v2(ptr, size, flag) */
static PyObject *py_host_register_v2(PyObject *self, PyObject *args)
{
	void *ptr;
	uint64_t size;
	uint32_t flag;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:host_register_v2", pyacl_conv_ptr, &ptr, pyacl_conv_u64, &size,
			      pyacl_conv_u32, &flag))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtHostRegisterV2(ptr, size, flag);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* dev_ptr, ret = acl.rt.host_get_device_pointer(ptr, flag) */
static PyObject *py_host_get_device_pointer(PyObject *self, PyObject *args)
{
	void *ptr, *dev = NULL;
	uint32_t flag;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:host_get_device_pointer", pyacl_conv_ptr, &ptr,
			      pyacl_conv_u32, &flag))
		return NULL;
	ret = aclrtHostGetDevicePointer(ptr, &dev, flag);
	return pyacl_ptr_ret(dev, ret);
}

/* ret = acl.rt.host_unregister(ptr) */
static PyObject *py_host_unregister(PyObject *self, PyObject *args)
{
	void *ptr;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:host_unregister", pyacl_conv_ptr, &ptr))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtHostUnregister(ptr);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* key, ret = acl.rt.ipc_mem_get_export_key(dev_ptr, size, flags): key "" on failure */
static PyObject *py_ipc_mem_get_export_key(PyObject *self, PyObject *args)
{
	char key[65] = "";
	void *ptr;
	size_t size;
	uint64_t flags;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:ipc_mem_get_export_key", pyacl_conv_ptr, &ptr,
			      pyacl_conv_size, &size, pyacl_conv_u64, &flags))
		return NULL;
	ret = aclrtIpcMemGetExportKey(ptr, size, key, sizeof(key), flags);
	if (ret != ACL_SUCCESS)
		key[0] = '\0';
	return Py_BuildValue("(si)", key, ret);
}

/* dev_ptr, ret = acl.rt.ipc_mem_import_by_key(key, flags) */
static PyObject *py_ipc_mem_import_by_key(PyObject *self, PyObject *args)
{
	const char *key;
	uint64_t flags;
	void *dev = NULL;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "sO&:ipc_mem_import_by_key", &key, pyacl_conv_u64, &flags))
		return NULL;
	ret = aclrtIpcMemImportByKey(&dev, key, flags);
	return pyacl_ptr_ret(dev, ret);
}

/* ret = acl.rt.ipc_mem_set_import_pid(key, [pid, ...]) */
static PyObject *py_ipc_mem_set_import_pid(PyObject *self, PyObject *args)
{
	const char *key;
	PyObject *list;
	int32_t *pids;
	Py_ssize_t n;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "sO:ipc_mem_set_import_pid", &key, &list))
		return NULL;
	pids = pyacl_pid_list(list, &n);
	if (!pids)
		return NULL;
	ret = aclrtIpcMemSetImportPid(key, pids, (size_t)n);
	PyMem_Free(pids);
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.ipc_mem_close(key) */
static PyObject *py_ipc_mem_close(PyObject *self, PyObject *args)
{
	const char *key;

	(void)self;
	if (!PyArg_ParseTuple(args, "s:ipc_mem_close", &key))
		return NULL;
	return PyLong_FromLong(aclrtIpcMemClose(key));
}

PyMethodDef pyacl_rt_host_ipc_methods[] = {
	{ "host_register", py_host_register, METH_VARARGS,
	  "host_register(ptr, size, type) -> (dev_ptr, ret) (aclrtHostRegister)" },
	{ "host_register_v2", py_host_register_v2, METH_VARARGS,
	  "host_register_v2(ptr, size, flag) -> ret (aclrtHostRegisterV2)" },
	{ "host_get_device_pointer", py_host_get_device_pointer, METH_VARARGS,
	  "host_get_device_pointer(ptr, flag) -> (dev_ptr, ret) (aclrtHostGetDevicePointer)" },
	{ "host_unregister", py_host_unregister, METH_VARARGS,
	  "host_unregister(ptr) -> ret (aclrtHostUnregister)" },
	{ "ipc_mem_get_export_key", py_ipc_mem_get_export_key, METH_VARARGS,
	  "ipc_mem_get_export_key(dev_ptr, size, flags) -> (key, ret) (aclrtIpcMemGetExportKey)" },
	{ "ipc_mem_import_by_key", py_ipc_mem_import_by_key, METH_VARARGS,
	  "ipc_mem_import_by_key(key, flags) -> (dev_ptr, ret) (aclrtIpcMemImportByKey)" },
	{ "ipc_mem_set_import_pid", py_ipc_mem_set_import_pid, METH_VARARGS,
	  "ipc_mem_set_import_pid(key, [pid, ...]) -> ret (aclrtIpcMemSetImportPid)" },
	{ "ipc_mem_close", py_ipc_mem_close, METH_VARARGS,
	  "ipc_mem_close(key) -> ret (aclrtIpcMemClose)" },
	{ NULL, NULL, 0, NULL },
};
