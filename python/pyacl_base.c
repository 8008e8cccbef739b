// SPDX-License-Identifier: GPL-2.0
/*
 * Top-level `acl` calls beyond init/finalize: the error message
 * (get_recent_err_msg), finalize_reference, get_version and the data
 * buffers (create_data_buffer ... get_data_buffer_size_v2).  A data buffer
 * is an int (the descriptor's address), as every handle.
 */
#include "pyacl.h"

#include <acl/acl.h>

/* msg = acl.get_recent_err_msg(): str, or None when no call failed */
static PyObject *py_get_recent_err_msg(PyObject *self, PyObject *args)
{
	const char *msg;

	(void)self;
	(void)args;
	msg = aclGetRecentErrMsg();
	if (msg == NULL)
		Py_RETURN_NONE;
	return PyUnicode_FromString(msg);
}

/* ref_count, ret = acl.finalize_reference() */
static PyObject *py_finalize_reference(PyObject *self, PyObject *args)
{
	uint64_t refs = 0;
	aclError ret;

	(void)self;
	(void)args;
	Py_BEGIN_ALLOW_THREADS
	ret = aclFinalizeReference(&refs);
	Py_END_ALLOW_THREADS
	return Py_BuildValue("(Ki)", (unsigned long long)refs, ret);
}

/* major, minor, patch, ret = acl.get_version() */
static PyObject *py_get_version(PyObject *self, PyObject *args)
{
	int32_t major = 0, minor = 0, patch = 0;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtGetVersion(&major, &minor, &patch);
	return Py_BuildValue("(iiii)", major, minor, patch, ret);
}

/* buffer = acl.create_data_buffer(data, size): 0 when out of memory */
static PyObject *py_create_data_buffer(PyObject *self, PyObject *args)
{
	void *data;
	size_t size;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:create_data_buffer", pyacl_conv_ptr, &data,
			      pyacl_conv_size, &size))
		return NULL;
	return PyLong_FromVoidPtr(aclCreateDataBuffer(data, size));
}

/* ret = acl.destroy_data_buffer(buffer) */
static PyObject *py_destroy_data_buffer(PyObject *self, PyObject *args)
{
	void *buf;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:destroy_data_buffer", pyacl_conv_ptr, &buf))
		return NULL;
	return PyLong_FromLong(aclDestroyDataBuffer(buf));
}

/* ret = acl.update_data_buffer(buffer, data, size) */
static PyObject *py_update_data_buffer(PyObject *self, PyObject *args)
{
	void *buf, *data;
	size_t size;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:update_data_buffer", pyacl_conv_ptr, &buf,
			      pyacl_conv_ptr, &data, pyacl_conv_size, &size))
		return NULL;
	return PyLong_FromLong(aclUpdateDataBuffer(buf, data, size));
}

/* ptr = acl.get_data_buffer_addr(buffer): 0 for a dead descriptor */
static PyObject *py_get_data_buffer_addr(PyObject *self, PyObject *args)
{
	void *buf;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_data_buffer_addr", pyacl_conv_ptr, &buf))
		return NULL;
	return PyLong_FromVoidPtr(aclGetDataBufferAddr(buf));
}

/* size = acl.get_data_buffer_size(buffer): 32 bits, deprecated in C */
static PyObject *py_get_data_buffer_size(PyObject *self, PyObject *args)
{
	void *buf;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_data_buffer_size", pyacl_conv_ptr, &buf))
		return NULL;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	return PyLong_FromUnsignedLong(aclGetDataBufferSize(buf));
#pragma GCC diagnostic pop
}

/* size = acl.get_data_buffer_size_v2(buffer) */
static PyObject *py_get_data_buffer_size_v2(PyObject *self, PyObject *args)
{
	void *buf;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_data_buffer_size_v2", pyacl_conv_ptr, &buf))
		return NULL;
	return PyLong_FromSize_t(aclGetDataBufferSizeV2(buf));
}

PyMethodDef pyacl_base_methods[] = {
	{ "get_recent_err_msg", py_get_recent_err_msg, METH_NOARGS,
	  "get_recent_err_msg() -> str or None (aclGetRecentErrMsg)" },
	{ "finalize_reference", py_finalize_reference, METH_NOARGS,
	  "finalize_reference() -> (ref_count, ret) (aclFinalizeReference)" },
	{ "get_version", py_get_version, METH_NOARGS,
	  "get_version() -> (major, minor, patch, ret) (aclrtGetVersion)" },
	{ "create_data_buffer", py_create_data_buffer, METH_VARARGS,
	  "create_data_buffer(data, size) -> buffer (aclCreateDataBuffer; 0 on failure)" },
	{ "destroy_data_buffer", py_destroy_data_buffer, METH_VARARGS,
	  "destroy_data_buffer(buffer) -> ret (aclDestroyDataBuffer)" },
	{ "update_data_buffer", py_update_data_buffer, METH_VARARGS,
	  "update_data_buffer(buffer, data, size) -> ret (aclUpdateDataBuffer)" },
	{ "get_data_buffer_addr", py_get_data_buffer_addr, METH_VARARGS,
	  "get_data_buffer_addr(buffer) -> ptr (aclGetDataBufferAddr)" },
	{ "get_data_buffer_size", py_get_data_buffer_size, METH_VARARGS,
	  "get_data_buffer_size(buffer) -> size (aclGetDataBufferSize)" },
	{ "get_data_buffer_size_v2", py_get_data_buffer_size_v2, METH_VARARGS,
	  "get_data_buffer_size_v2(buffer) -> size (aclGetDataBufferSizeV2)" },
	{ NULL, NULL, 0, NULL },
};
