// SPDX-License-Identifier: GPL-2.0
/*
 * The calling thread's last failed call: acl.rt.get_last_error and
 * acl.rt.peek_at_last_error (level: ACL_RT_THREAD_LEVEL).  Each returns the
 * code itself, as the C calls do.
 */
#include "pyacl.h"

#include <acl/acl.h>

typedef aclError (*last_error_fn)(aclrtLastErrLevel);

static PyObject *last_error_common(PyObject *args, const char *format, last_error_fn fn)
{
	int32_t level;

	if (!PyArg_ParseTuple(args, format, pyacl_conv_bits32, &level))
		return NULL;
	return PyLong_FromLong(fn((aclrtLastErrLevel)level));
}

/* code = acl.rt.get_last_error(level): read and forget */
static PyObject *py_get_last_error(PyObject *self, PyObject *args)
{
	(void)self;
	return last_error_common(args, "O&:get_last_error", aclrtGetLastError);
}

/* code = acl.rt.peek_at_last_error(level): read, keep */
static PyObject *py_peek_at_last_error(PyObject *self, PyObject *args)
{
	(void)self;
	return last_error_common(args, "O&:peek_at_last_error", aclrtPeekAtLastError);
}

PyMethodDef pyacl_rt_last_error_methods[] = {
	{ "get_last_error", py_get_last_error, METH_VARARGS,
	  "get_last_error(level) -> code (aclrtGetLastError)" },
	{ "peek_at_last_error", py_peek_at_last_error, METH_VARARGS,
	  "peek_at_last_error(level) -> code (aclrtPeekAtLastError)" },
	{ NULL, NULL, 0, NULL },
};
