// SPDX-License-Identifier: GPL-2.0
/*
 * Exception information: acl.rt.set_exception_info_callback and the four
 * readers get_{error_code,stream_id,thread_id,device_id}_from_exception_info.
 *
 * The callback is a Python callable called with one argument, the address
 * of the aclrtExceptionInfo (an int), in the thread whose synchronize
 * reported a failed task (lib/api/exception_info.c); the readers take that
 * int.  The info lives only for the duration of the callback: a reader
 * given it later, or any other non-zero int, reads whatever is there, as
 * with the C calls.  0 reads 0xFFFFFFFF.  As in pyACL there is one Python
 * callback (aclrtSetExceptionInfoCallback holds one): a new one replaces
 * it, None (or no argument) removes it; the module keeps a reference to it
 * until then.  An exception raised by the callback is reported through
 * sys.unraisablehook (nobody to raise it to) and the callback stays set.
 */
#include "pyacl.h"

#include <acl/acl.h>

/* The Python callback; read and replaced with the GIL held. */
static PyObject *exc_fn;

/* Called by the library, in a thread that may or may not hold the GIL. */
static void exc_trampoline(aclrtExceptionInfo *info)
{
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *fn = exc_fn, *r;

	if (fn != NULL) {
		Py_INCREF(fn);	/* may be replaced while it runs */
		r = PyObject_CallFunction(fn, "K", (unsigned long long)(uintptr_t)info);
		if (r == NULL)
			PyErr_WriteUnraisable(fn);
		Py_XDECREF(r);
		Py_DECREF(fn);
	}
	PyGILState_Release(g);
}

/* ret = acl.rt.set_exception_info_callback(fn=None) */
static PyObject *py_set_exception_info_callback(PyObject *self, PyObject *args)
{
	PyObject *fn = Py_None, *old;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "|O:set_exception_info_callback", &fn))
		return NULL;
	if (fn != Py_None && !PyCallable_Check(fn)) {
		PyErr_SetString(PyExc_TypeError, "fn must be callable or None");
		return NULL;
	}
	ret = aclrtSetExceptionInfoCallback(fn == Py_None ? NULL : exc_trampoline);
	if (ret != ACL_SUCCESS)
		return PyLong_FromLong(ret);
	old = exc_fn;
	if (fn == Py_None) {
		exc_fn = NULL;
	} else {
		Py_INCREF(fn);
		exc_fn = fn;
	}
	Py_XDECREF(old);
	return PyLong_FromLong(ret);
}

/* value = acl.rt.get_..._from_exception_info(info) */
#define READER(pyname, cfunc)							\
static PyObject *py_##pyname(PyObject *self, PyObject *args)			\
{										\
	void *info;								\
										\
	(void)self;								\
	if (!PyArg_ParseTuple(args, "O&:" #pyname, pyacl_conv_ptr, &info))	\
		return NULL;							\
	return PyLong_FromUnsignedLong(cfunc((const aclrtExceptionInfo *)info));\
}

READER(get_error_code_from_exception_info, aclrtGetErrorCodeFromExceptionInfo)
READER(get_stream_id_from_exception_info, aclrtGetStreamIdFromExceptionInfo)
READER(get_thread_id_from_exception_info, aclrtGetThreadIdFromExceptionInfo)
READER(get_device_id_from_exception_info, aclrtGetDeviceIdFromExceptionInfo)

PyMethodDef pyacl_rt_exception_info_methods[] = {
	{ "set_exception_info_callback", py_set_exception_info_callback, METH_VARARGS,
	  "set_exception_info_callback(fn=None) -> ret (aclrtSetExceptionInfoCallback)" },
	{ "get_error_code_from_exception_info", py_get_error_code_from_exception_info, METH_VARARGS,
	  "get_error_code_from_exception_info(info) -> code (aclrtGetErrorCodeFromExceptionInfo)" },
	{ "get_stream_id_from_exception_info", py_get_stream_id_from_exception_info, METH_VARARGS,
	  "get_stream_id_from_exception_info(info) -> id (aclrtGetStreamIdFromExceptionInfo)" },
	{ "get_thread_id_from_exception_info", py_get_thread_id_from_exception_info, METH_VARARGS,
	  "get_thread_id_from_exception_info(info) -> tid (aclrtGetThreadIdFromExceptionInfo)" },
	{ "get_device_id_from_exception_info", py_get_device_id_from_exception_info, METH_VARARGS,
	  "get_device_id_from_exception_info(info) -> id (aclrtGetDeviceIdFromExceptionInfo)" },
	{ NULL, NULL, 0, NULL },
};
