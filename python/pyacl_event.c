// SPDX-License-Identifier: GPL-2.0
/*
 * Events of issue 23: acl.rt.create_event_with_flag, create_event_ex_with_flag,
 * record_event_with_flag, reset_event, query_event, query_event_wait_status,
 * synchronize_event_with_timeout, event_get_timestamp,
 * stream_wait_event_with_flag, stream_wait_event_with_timeout, get_event_id,
 * get_event_avail_num, ipc_get_event_handle, ipc_open_event_handle.
 * Events and streams are ints (0 is the default stream); an IPC event
 * handle is bytes of ACL_IPC_EVENT_HANDLE_SIZE.
 */
#include "pyacl.h"

#include <string.h>

#include <acl/acl.h>

/* event, ret = acl.rt.create_event_with_flag(flag) / create_event_ex_with_flag(flag) */
#define CREATE_CALL(pyname, cfunc)						\
static PyObject *py_##pyname(PyObject *self, PyObject *args)			\
{										\
	aclrtEvent e = NULL;							\
	uint32_t flag;								\
	aclError ret;								\
										\
	(void)self;								\
	if (!PyArg_ParseTuple(args, "O&:" #pyname, pyacl_conv_u32, &flag))	\
		return NULL;							\
	ret = cfunc(&e, flag);							\
	return pyacl_ptr_ret(e, ret);						\
}

CREATE_CALL(create_event_with_flag, aclrtCreateEventWithFlag)
CREATE_CALL(create_event_ex_with_flag, aclrtCreateEventExWithFlag)

/* ret = acl.rt.record_event_with_flag(event, stream, flag) */
static PyObject *py_record_event_with_flag(PyObject *self, PyObject *args)
{
	void *e, *s;
	uint32_t flag;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:record_event_with_flag", pyacl_conv_ptr, &e, pyacl_conv_ptr, &s,
			      pyacl_conv_u32, &flag))
		return NULL;
	return PyLong_FromLong(aclrtRecordEventWithFlag(e, s, flag));
}

/* ret = acl.rt.reset_event(event, stream) */
static PyObject *py_reset_event(PyObject *self, PyObject *args)
{
	void *e, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:reset_event", pyacl_conv_ptr, &e, pyacl_conv_ptr, &s))
		return NULL;
	return PyLong_FromLong(aclrtResetEvent(e, s));
}

/* status, ret = acl.rt.query_event(event) */
static PyObject *py_query_event(PyObject *self, PyObject *args)
{
	aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
	void *e;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:query_event", pyacl_conv_ptr, &e))
		return NULL;
	ret = aclrtQueryEvent(e, &st);
	return Py_BuildValue("(ii)", (int)st, ret);
}

/* status, ret = acl.rt.query_event_wait_status(event) */
static PyObject *py_query_event_wait_status(PyObject *self, PyObject *args)
{
	aclrtEventWaitStatus st = ACL_EVENT_WAIT_STATUS_RESERVED;
	void *e;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:query_event_wait_status", pyacl_conv_ptr, &e))
		return NULL;
	ret = aclrtQueryEventWaitStatus(e, &st);
	return Py_BuildValue("(ii)", (int)st, ret);
}

/* ret = acl.rt.synchronize_event_with_timeout(event, timeout_ms) */
static PyObject *py_synchronize_event_with_timeout(PyObject *self, PyObject *args)
{
	void *e;
	int32_t t;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:synchronize_event_with_timeout", pyacl_conv_ptr, &e, pyacl_conv_i32, &t))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtSynchronizeEventWithTimeout(e, t);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* timestamp_us, ret = acl.rt.event_get_timestamp(event) */
static PyObject *py_event_get_timestamp(PyObject *self, PyObject *args)
{
	uint64_t ts = 0;
	void *e;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:event_get_timestamp", pyacl_conv_ptr, &e))
		return NULL;
	ret = aclrtEventGetTimestamp(e, &ts);
	return Py_BuildValue("(Ki)", (unsigned long long)ts, ret);
}

/* ret = acl.rt.stream_wait_event_with_flag(stream, event, timeout_ms, flag) */
static PyObject *py_stream_wait_event_with_flag(PyObject *self, PyObject *args)
{
	void *s, *e;
	uint32_t timeout, flag;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&:stream_wait_event_with_flag", pyacl_conv_ptr, &s, pyacl_conv_ptr,
			      &e, pyacl_conv_u32, &timeout, pyacl_conv_u32, &flag))
		return NULL;
	return PyLong_FromLong(aclrtStreamWaitEventWithFlag(s, e, timeout, flag));
}

/* ret = acl.rt.stream_wait_event_with_timeout(stream, event, timeout_ms) */
static PyObject *py_stream_wait_event_with_timeout(PyObject *self, PyObject *args)
{
	void *s, *e;
	int32_t timeout;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:stream_wait_event_with_timeout", pyacl_conv_ptr, &s, pyacl_conv_ptr,
			      &e, pyacl_conv_i32, &timeout))
		return NULL;
	return PyLong_FromLong(aclrtStreamWaitEventWithTimeout(s, e, timeout));
}

/* event_id, ret = acl.rt.get_event_id(event) */
static PyObject *py_get_event_id(PyObject *self, PyObject *args)
{
	uint32_t id = 0;
	void *e;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_event_id", pyacl_conv_ptr, &e))
		return NULL;
	ret = aclrtGetEventId(e, &id);
	return Py_BuildValue("(Ii)", (unsigned int)id, ret);
}

/* count, ret = acl.rt.get_event_avail_num() */
static PyObject *py_get_event_avail_num(PyObject *self, PyObject *args)
{
	uint32_t n = 0;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtGetEventAvailNum(&n);
	return Py_BuildValue("(Ii)", (unsigned int)n, ret);
}

/* handle, ret = acl.rt.ipc_get_event_handle(event): handle b"" on failure */
static PyObject *py_ipc_get_event_handle(PyObject *self, PyObject *args)
{
	aclrtIpcEventHandle h;
	void *e;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:ipc_get_event_handle", pyacl_conv_ptr, &e))
		return NULL;
	ret = aclrtIpcGetEventHandle(e, &h);
	return Py_BuildValue("(y#i)", h.reserved, (Py_ssize_t)(ret == ACL_SUCCESS ? sizeof(h.reserved) : 0), ret);
}

/* event, ret = acl.rt.ipc_open_event_handle(handle): handle bytes of 64 */
static PyObject *py_ipc_open_event_handle(PyObject *self, PyObject *args)
{
	aclrtIpcEventHandle h;
	aclrtEvent e = NULL;
	Py_buffer b;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "y*:ipc_open_event_handle", &b))
		return NULL;
	if (b.len != (Py_ssize_t)sizeof(h.reserved)) {
		PyBuffer_Release(&b);
		return PyErr_Format(PyExc_ValueError, "an IPC event handle is %u bytes", ACL_IPC_EVENT_HANDLE_SIZE);
	}
	memcpy(h.reserved, b.buf, sizeof(h.reserved));
	PyBuffer_Release(&b);
	ret = aclrtIpcOpenEventHandle(h, &e);
	return pyacl_ptr_ret(e, ret);
}

PyMethodDef pyacl_rt_event_methods[] = {
	{ "create_event_with_flag", py_create_event_with_flag, METH_VARARGS,
	  "create_event_with_flag(flag) -> (event, ret) (aclrtCreateEventWithFlag)" },
	{ "create_event_ex_with_flag", py_create_event_ex_with_flag, METH_VARARGS,
	  "create_event_ex_with_flag(flag) -> (event, ret) (aclrtCreateEventExWithFlag)" },
	{ "record_event_with_flag", py_record_event_with_flag, METH_VARARGS,
	  "record_event_with_flag(event, stream, flag) -> ret (aclrtRecordEventWithFlag)" },
	{ "reset_event", py_reset_event, METH_VARARGS,
	  "reset_event(event, stream) -> ret (aclrtResetEvent)" },
	{ "query_event", py_query_event, METH_VARARGS,
	  "query_event(event) -> (status, ret) (aclrtQueryEvent)" },
	{ "query_event_wait_status", py_query_event_wait_status, METH_VARARGS,
	  "query_event_wait_status(event) -> (status, ret) (aclrtQueryEventWaitStatus)" },
	{ "synchronize_event_with_timeout", py_synchronize_event_with_timeout, METH_VARARGS,
	  "synchronize_event_with_timeout(event, timeout_ms) -> ret" },
	{ "event_get_timestamp", py_event_get_timestamp, METH_VARARGS,
	  "event_get_timestamp(event) -> (timestamp_us, ret) (aclrtEventGetTimestamp)" },
	{ "stream_wait_event_with_flag", py_stream_wait_event_with_flag, METH_VARARGS,
	  "stream_wait_event_with_flag(stream, event, timeout_ms, flag) -> ret" },
	{ "stream_wait_event_with_timeout", py_stream_wait_event_with_timeout, METH_VARARGS,
	  "stream_wait_event_with_timeout(stream, event, timeout_ms) -> ret" },
	{ "get_event_id", py_get_event_id, METH_VARARGS,
	  "get_event_id(event) -> (event_id, ret) (aclrtGetEventId)" },
	{ "get_event_avail_num", py_get_event_avail_num, METH_NOARGS,
	  "get_event_avail_num() -> (count, ret) (aclrtGetEventAvailNum)" },
	{ "ipc_get_event_handle", py_ipc_get_event_handle, METH_VARARGS,
	  "ipc_get_event_handle(event) -> (handle bytes, ret) (aclrtIpcGetEventHandle)" },
	{ "ipc_open_event_handle", py_ipc_open_event_handle, METH_VARARGS,
	  "ipc_open_event_handle(handle) -> (event, ret) (aclrtIpcOpenEventHandle)" },
	{ NULL, NULL, 0, NULL },
};
