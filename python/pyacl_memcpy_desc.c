/*
 * acl.rt: the copies described in device memory, with the pyACL spellings
 * get_memcpy_desc_size, set_memcpy_desc and memcpy_async_with_desc (the
 * real pyACL wraps these three; it wraps neither aclrtMemcpyAsyncWithOffset
 * nor the memory pool calls of acl_rt_memory_soma.h).
 */
#include <acl/acl.h>

#include "pyacl.h"

/* desc_size, ret = acl.rt.get_memcpy_desc_size(kind) */
static PyObject *py_get_memcpy_desc_size(PyObject *self, PyObject *args)
{
	size_t size = 0;
	int32_t kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_memcpy_desc_size", pyacl_conv_i32, &kind))
		return NULL;
	ret = aclrtGetMemcpyDescSize((aclrtMemcpyKind)kind, &size);
	return Py_BuildValue("(Ki)", (unsigned long long)size, (int)ret);
}

/* desc, ret = acl.rt.set_memcpy_desc(desc, kind, src_addr, dst_addr, count, config) */
static PyObject *py_set_memcpy_desc(PyObject *self, PyObject *args)
{
	void *desc, *src, *dst, *config;
	uint64_t count;
	int32_t kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&:set_memcpy_desc", pyacl_conv_ptr, &desc, pyacl_conv_i32, &kind,
			      pyacl_conv_ptr, &src, pyacl_conv_ptr, &dst, pyacl_conv_u64, &count, pyacl_conv_ptr,
			      &config))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtSetMemcpyDesc(desc, (aclrtMemcpyKind)kind, src, dst, (size_t)count, config);
	Py_END_ALLOW_THREADS
	return Py_BuildValue("(Ki)", (unsigned long long)(uintptr_t)desc, (int)ret);
}

/* ret = acl.rt.memcpy_async_with_desc(desc, kind, stream) */
static PyObject *py_memcpy_async_with_desc(PyObject *self, PyObject *args)
{
	void *desc, *stream;
	int32_t kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:memcpy_async_with_desc", pyacl_conv_ptr, &desc, pyacl_conv_i32, &kind,
			      pyacl_conv_ptr, &stream))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemcpyAsyncWithDesc(desc, (aclrtMemcpyKind)kind, stream);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

PyMethodDef pyacl_rt_memcpy_desc_methods[] = {
	{ "get_memcpy_desc_size", py_get_memcpy_desc_size, METH_VARARGS,
	  "get_memcpy_desc_size(kind) -> (desc_size, ret) (aclrtGetMemcpyDescSize)" },
	{ "set_memcpy_desc", py_set_memcpy_desc, METH_VARARGS,
	  "set_memcpy_desc(desc, kind, src_addr, dst_addr, count, config) -> (desc, ret) (aclrtSetMemcpyDesc)" },
	{ "memcpy_async_with_desc", py_memcpy_async_with_desc, METH_VARARGS,
	  "memcpy_async_with_desc(desc, kind, stream) -> ret (aclrtMemcpyAsyncWithDesc)" },
	{ NULL, NULL, 0, NULL },
};
