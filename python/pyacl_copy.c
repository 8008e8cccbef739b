// SPDX-License-Identifier: GPL-2.0
/* Copy and set: acl.rt.memcpy, acl.rt.memcpy2d, acl.rt.memset. */
#include "pyacl.h"

#include <acl/acl.h>

/* ret = acl.rt.memcpy(dst, dest_max, src, count, kind) */
static PyObject *py_memcpy(PyObject *self, PyObject *args)
{
	void *dst, *src;
	size_t dest_max, count;
	int32_t kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:memcpy", pyacl_conv_ptr, &dst,
			      pyacl_conv_size, &dest_max, pyacl_conv_ptr, &src,
			      pyacl_conv_size, &count, pyacl_conv_bits32, &kind))
		return NULL;
	/* copies can be large: let other Python threads run meanwhile */
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemcpy(dst, dest_max, src, count, (aclrtMemcpyKind)kind);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.memcpy2d(dst, dpitch, src, spitch, width, height, kind) */
static PyObject *py_memcpy2d(PyObject *self, PyObject *args)
{
	void *dst, *src;
	size_t dpitch, spitch, width, height;
	int32_t kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&O&:memcpy2d", pyacl_conv_ptr,
			      &dst, pyacl_conv_size, &dpitch, pyacl_conv_ptr,
			      &src, pyacl_conv_size, &spitch, pyacl_conv_size,
			      &width, pyacl_conv_size, &height,
			      pyacl_conv_bits32, &kind))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemcpy2d(dst, dpitch, src, spitch, width, height,
			    (aclrtMemcpyKind)kind);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.memset(dev_ptr, max_count, value, count) */
static PyObject *py_memset(PyObject *self, PyObject *args)
{
	void *ptr;
	size_t max_count, count;
	int32_t value;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&:memset", pyacl_conv_ptr, &ptr,
			      pyacl_conv_size, &max_count, pyacl_conv_bits32,
			      &value, pyacl_conv_size, &count))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemset(ptr, max_count, value, count);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

PyMethodDef pyacl_rt_copy_methods[] = {
	{ "memcpy", py_memcpy, METH_VARARGS,
	  "memcpy(dst, dest_max, src, count, kind) -> ret (aclrtMemcpy)" },
	{ "memcpy2d", py_memcpy2d, METH_VARARGS,
	  "memcpy2d(dst, dpitch, src, spitch, width, height, kind) -> ret "
	  "(aclrtMemcpy2d)" },
	{ "memset", py_memset, METH_VARARGS,
	  "memset(dev_ptr, max_count, value, count) -> ret (aclrtMemset)" },
	{ NULL, NULL, 0, NULL },
};
