// SPDX-License-Identifier: GPL-2.0
/*
 * Host callbacks: acl.rt.subscribe_report, launch_callback, process_report,
 * unsubscribe_report, launch_host_func, subscribe_host_func,
 * process_host_func, unsubscribe_host_func.
 *
 * The callback is a Python callable, called with the user data (any
 * object) in the thread that runs it: the subscribed thread inside its
 * process_report / process_host_func, or for launch_host_func on a stream
 * with no host function thread, a thread of the library (it takes the
 * GIL).  A thread id is threading.get_ident() of that thread (the pthread_t
 * the C calls take).  The call keeps a reference to the callable and the
 * data until the callback has run; one that never runs (its stream was
 * unsubscribed or destroyed first) keeps them for the life of the process.
 */
#include "pyacl.h"

#include <acl/acl.h>

/* What the C callback gets: the callable and its argument, referenced. */
struct pycb {
	PyObject *fn;
	PyObject *data;
};

/* Runs in a thread that holds no GIL: the processing thread released it. */
static void pycb_run(void *arg)
{
	struct pycb *c = arg;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *r = PyObject_CallFunctionObjArgs(c->fn, c->data, NULL);

	if (r == NULL)
		PyErr_WriteUnraisable(c->fn);	/* nobody to raise it to */
	Py_XDECREF(r);
	Py_DECREF(c->fn);
	Py_DECREF(c->data);
	PyGILState_Release(g);
	PyMem_RawFree(c);
}

/* A new struct pycb for fn (must be callable) and data; NULL with TypeError. */
static struct pycb *pycb_new(PyObject *fn, PyObject *data)
{
	struct pycb *c;

	if (!PyCallable_Check(fn)) {
		PyErr_SetString(PyExc_TypeError, "fn must be callable");
		return NULL;
	}
	c = PyMem_RawMalloc(sizeof(*c));
	if (c == NULL) {
		PyErr_NoMemory();
		return NULL;
	}
	Py_INCREF(fn);
	Py_INCREF(data);
	c->fn = fn;
	c->data = data;
	return c;
}

/* After a refused launch: the callback will never run. */
static void pycb_drop(struct pycb *c)
{
	Py_DECREF(c->fn);
	Py_DECREF(c->data);
	PyMem_RawFree(c);
}

/* ret = acl.rt.launch_callback(fn, user_data, block_type, stream) */
static PyObject *py_launch_callback(PyObject *self, PyObject *args)
{
	PyObject *fn, *data;
	int32_t block;
	struct pycb *c;
	void *s;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "OOO&O&:launch_callback", &fn, &data, pyacl_conv_bits32, &block,
			      pyacl_conv_ptr, &s))
		return NULL;
	c = pycb_new(fn, data);
	if (c == NULL)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtLaunchCallback(pycb_run, c, (aclrtCallbackBlockType)block, s);
	Py_END_ALLOW_THREADS
	if (ret != ACL_SUCCESS)
		pycb_drop(c);
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.launch_host_func(stream, fn, args) */
static PyObject *py_launch_host_func(PyObject *self, PyObject *args)
{
	PyObject *fn, *data;
	struct pycb *c;
	void *s;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&OO:launch_host_func", pyacl_conv_ptr, &s, &fn, &data))
		return NULL;
	c = pycb_new(fn, data);
	if (c == NULL)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtLaunchHostFunc(s, pycb_run, c);
	Py_END_ALLOW_THREADS
	if (ret != ACL_SUCCESS)
		pycb_drop(c);
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.subscribe_report(thread_id, stream) and the three like it */
#define THREAD_STREAM_CALL(pyname, cfunc)					\
static PyObject *py_##pyname(PyObject *self, PyObject *args)			\
{										\
	uint64_t tid;								\
	void *s;								\
	aclError ret;								\
										\
	(void)self;								\
	if (!PyArg_ParseTuple(args, "O&O&:" #pyname, pyacl_conv_u64, &tid,	\
			      pyacl_conv_ptr, &s))				\
		return NULL;							\
	ret = cfunc(tid, s);							\
	return PyLong_FromLong(ret);						\
}

THREAD_STREAM_CALL(subscribe_report, aclrtSubscribeReport)
THREAD_STREAM_CALL(unsubscribe_report, aclrtUnSubscribeReport)
THREAD_STREAM_CALL(subscribe_host_func, aclrtSubscribeHostFunc)
THREAD_STREAM_CALL(unsubscribe_host_func, aclrtUnSubscribeHostFunc)

/* ret = acl.rt.process_report(timeout_ms) and process_host_func; the GIL
 * is released while waiting, and taken by the callback. */
#define PROCESS_CALL(pyname, cfunc)						\
static PyObject *py_##pyname(PyObject *self, PyObject *args)			\
{										\
	int32_t timeout;							\
	aclError ret;								\
										\
	(void)self;								\
	if (!PyArg_ParseTuple(args, "O&:" #pyname, pyacl_conv_i32, &timeout))	\
		return NULL;							\
	Py_BEGIN_ALLOW_THREADS							\
	ret = cfunc(timeout);							\
	Py_END_ALLOW_THREADS							\
	return PyLong_FromLong(ret);						\
}

PROCESS_CALL(process_report, aclrtProcessReport)
PROCESS_CALL(process_host_func, aclrtProcessHostFunc)

PyMethodDef pyacl_rt_callback_methods[] = {
	{ "subscribe_report", py_subscribe_report, METH_VARARGS,
	  "subscribe_report(thread_id, stream) -> ret (aclrtSubscribeReport)" },
	{ "launch_callback", py_launch_callback, METH_VARARGS,
	  "launch_callback(fn, user_data, block_type, stream) -> ret (aclrtLaunchCallback)" },
	{ "process_report", py_process_report, METH_VARARGS,
	  "process_report(timeout_ms) -> ret (aclrtProcessReport)" },
	{ "unsubscribe_report", py_unsubscribe_report, METH_VARARGS,
	  "unsubscribe_report(thread_id, stream) -> ret (aclrtUnSubscribeReport)" },
	{ "launch_host_func", py_launch_host_func, METH_VARARGS,
	  "launch_host_func(stream, fn, args) -> ret (aclrtLaunchHostFunc)" },
	{ "subscribe_host_func", py_subscribe_host_func, METH_VARARGS,
	  "subscribe_host_func(thread_id, stream) -> ret (aclrtSubscribeHostFunc)" },
	{ "process_host_func", py_process_host_func, METH_VARARGS,
	  "process_host_func(timeout_ms) -> ret (aclrtProcessHostFunc)" },
	{ "unsubscribe_host_func", py_unsubscribe_host_func, METH_VARARGS,
	  "unsubscribe_host_func(thread_id, stream) -> ret (aclrtUnSubscribeHostFunc)" },
	{ NULL, NULL, 0, NULL },
};
