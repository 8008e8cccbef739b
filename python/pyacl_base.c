// SPDX-License-Identifier: GPL-2.0
/*
 * Top-level `acl` calls beyond init/finalize: the error message
 * (get_recent_err_msg), finalize_reference, get_version and the data
 * buffers (create_data_buffer ... get_data_buffer_size_v2), the float16
 * conversions and data_type_size.  A data buffer
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

/* value = acl.float16_to_float(half): half is the 16-bit pattern, an int */
static PyObject *py_float16_to_float(PyObject *self, PyObject *args)
{
	uint32_t bits;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:float16_to_float", pyacl_conv_u32, &bits))
		return NULL;
	if (bits > UINT16_MAX) {
		PyErr_SetString(PyExc_OverflowError, "float16 bits out of range (0..65535)");
		return NULL;
	}
	return PyFloat_FromDouble(aclFloat16ToFloat((aclFloat16)bits));
}

/* half = acl.float_to_float16(value): the 16-bit pattern as an int */
static PyObject *py_float_to_float16(PyObject *self, PyObject *args)
{
	float value;

	(void)self;
	if (!PyArg_ParseTuple(args, "f:float_to_float16", &value))
		return NULL;
	return PyLong_FromLong(aclFloatToFloat16(value));
}

/* size = acl.data_type_size(data_type): bytes of one element, 0 if unknown */
static PyObject *py_data_type_size(PyObject *self, PyObject *args)
{
	int32_t type;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:data_type_size", pyacl_conv_bits32, &type))
		return NULL;
	return PyLong_FromSize_t(aclDataTypeSize((aclDataType)type));
}

PyMethodDef pyacl_base_methods[] = {
	{ "float16_to_float", py_float16_to_float, METH_VARARGS,
	  "float16_to_float(bits) -> float (aclFloat16ToFloat)" },
	{ "float_to_float16", py_float_to_float16, METH_VARARGS,
	  "float_to_float16(value) -> bits (aclFloatToFloat16)" },
	{ "data_type_size", py_data_type_size, METH_VARARGS,
	  "data_type_size(data_type) -> size (aclDataTypeSize)" },
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
