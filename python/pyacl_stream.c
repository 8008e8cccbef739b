// SPDX-License-Identifier: GPL-2.0
/*
 * Contexts, streams, events and asynchronous copies: acl.rt.create_context,
 * destroy_context, set_context, get_context, create_stream(_with_config),
 * destroy_stream, synchronize_stream(_with_timeout), stream_query,
 * create_event, destroy_event, record_event, synchronize_event,
 * query_event_status, stream_wait_event, event_elapsed_time,
 * synchronize_device, memcpy_async, memcpy2d_async, memset_async,
 * reduce_async, memcpy_async_with_condition, cmo_async.
 * Contexts, streams and events are ints (0 is the default stream).
 */
#include "pyacl.h"

#include <acl/acl.h>

/* context, ret = acl.rt.create_context(device_id) */
static PyObject *py_create_context(PyObject *self, PyObject *args)
{
	aclrtContext ctx = NULL;
	int32_t id;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:create_context", pyacl_conv_i32, &id))
		return NULL;
	ret = aclrtCreateContext(&ctx, id);
	return pyacl_ptr_ret(ctx, ret);
}

/* ret = acl.rt.destroy_context(context) */
static PyObject *py_destroy_context(PyObject *self, PyObject *args)
{
	void *ctx;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:destroy_context", pyacl_conv_ptr, &ctx))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtDestroyContext(ctx);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.set_context(context) */
static PyObject *py_set_context(PyObject *self, PyObject *args)
{
	void *ctx;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:set_context", pyacl_conv_ptr, &ctx))
		return NULL;
	return PyLong_FromLong(aclrtSetCurrentContext(ctx));
}

/* context, ret = acl.rt.get_context() */
static PyObject *py_get_context(PyObject *self, PyObject *args)
{
	aclrtContext ctx = NULL;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtGetCurrentContext(&ctx);
	return pyacl_ptr_ret(ctx, ret);
}

/* stream, ret = acl.rt.create_stream() */
static PyObject *py_create_stream(PyObject *self, PyObject *args)
{
	aclrtStream s = NULL;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtCreateStream(&s);
	return pyacl_ptr_ret(s, ret);
}

/* stream, ret = acl.rt.create_stream_with_config(priority, flag) */
static PyObject *py_create_stream_with_config(PyObject *self, PyObject *args)
{
	aclrtStream s = NULL;
	uint32_t prio, flag;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:create_stream_with_config", pyacl_conv_u32, &prio,
			      pyacl_conv_u32, &flag))
		return NULL;
	ret = aclrtCreateStreamWithConfig(&s, prio, flag);
	return pyacl_ptr_ret(s, ret);
}

/* The calls taking one handle and returning ret; they may wait. */
#define HANDLE_CALL(pyname, cfunc)						\
static PyObject *py_##pyname(PyObject *self, PyObject *args)			\
{										\
	void *h;								\
	aclError ret;								\
										\
	(void)self;								\
	if (!PyArg_ParseTuple(args, "O&:" #pyname, pyacl_conv_ptr, &h))		\
		return NULL;							\
	Py_BEGIN_ALLOW_THREADS							\
	ret = cfunc(h);								\
	Py_END_ALLOW_THREADS							\
	return PyLong_FromLong(ret);						\
}

HANDLE_CALL(destroy_stream, aclrtDestroyStream)
HANDLE_CALL(destroy_stream_force, aclrtDestroyStreamForce)
HANDLE_CALL(synchronize_stream, aclrtSynchronizeStream)
HANDLE_CALL(destroy_event, aclrtDestroyEvent)
HANDLE_CALL(synchronize_event, aclrtSynchronizeEvent)

/* ret = acl.rt.synchronize_stream_with_timeout(stream, timeout_ms) */
static PyObject *py_synchronize_stream_with_timeout(PyObject *self, PyObject *args)
{
	void *s;
	int32_t t;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:synchronize_stream_with_timeout", pyacl_conv_ptr, &s,
			      pyacl_conv_i32, &t))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtSynchronizeStreamWithTimeout(s, t);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* status, ret = acl.rt.stream_query(stream) */
static PyObject *py_stream_query(PyObject *self, PyObject *args)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
	void *s;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:stream_query", pyacl_conv_ptr, &s))
		return NULL;
	ret = aclrtStreamQuery(s, &st);
	return Py_BuildValue("(ii)", (int)st, ret);
}

/* event, ret = acl.rt.create_event() */
static PyObject *py_create_event(PyObject *self, PyObject *args)
{
	aclrtEvent e = NULL;
	aclError ret;

	(void)self;
	(void)args;
	ret = aclrtCreateEvent(&e);
	return pyacl_ptr_ret(e, ret);
}

/* ret = acl.rt.record_event(event, stream) */
static PyObject *py_record_event(PyObject *self, PyObject *args)
{
	void *e, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:record_event", pyacl_conv_ptr, &e, pyacl_conv_ptr, &s))
		return NULL;
	return PyLong_FromLong(aclrtRecordEvent(e, s));
}

/* ret = acl.rt.stream_wait_event(stream, event) */
static PyObject *py_stream_wait_event(PyObject *self, PyObject *args)
{
	void *e, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:stream_wait_event", pyacl_conv_ptr, &s, pyacl_conv_ptr, &e))
		return NULL;
	return PyLong_FromLong(aclrtStreamWaitEvent(s, e));
}

/* status, ret = acl.rt.query_event_status(event) */
static PyObject *py_query_event_status(PyObject *self, PyObject *args)
{
	aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
	void *e;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:query_event_status", pyacl_conv_ptr, &e))
		return NULL;
	ret = aclrtQueryEventStatus(e, &st);
	return Py_BuildValue("(ii)", (int)st, ret);
}

/* ms, ret = acl.rt.event_elapsed_time(start_event, end_event) */
static PyObject *py_event_elapsed_time(PyObject *self, PyObject *args)
{
	void *a, *b;
	float ms = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:event_elapsed_time", pyacl_conv_ptr, &a, pyacl_conv_ptr, &b))
		return NULL;
	ret = aclrtEventElapsedTime(&ms, a, b);
	return Py_BuildValue("(di)", (double)ms, ret);
}

/* ret = acl.rt.synchronize_device() */
static PyObject *py_synchronize_device(PyObject *self, PyObject *args)
{
	aclError ret;

	(void)self;
	(void)args;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtSynchronizeDevice();
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.memcpy_async(dst, dest_max, src, count, kind, stream) */
static PyObject *py_memcpy_async(PyObject *self, PyObject *args)
{
	void *dst, *src, *s;
	size_t dest_max, count;
	int32_t kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&:memcpy_async", pyacl_conv_ptr, &dst,
			      pyacl_conv_size, &dest_max, pyacl_conv_ptr, &src, pyacl_conv_size,
			      &count, pyacl_conv_bits32, &kind, pyacl_conv_ptr, &s))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemcpyAsync(dst, dest_max, src, count, (aclrtMemcpyKind)kind, s);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.memcpy_async_with_condition(dst, dest_max, src, count, kind, stream) */
static PyObject *py_memcpy_async_with_condition(PyObject *self, PyObject *args)
{
	void *dst, *src, *s;
	size_t dest_max, count;
	int32_t kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&:memcpy_async_with_condition", pyacl_conv_ptr,
			      &dst, pyacl_conv_size, &dest_max, pyacl_conv_ptr, &src, pyacl_conv_size,
			      &count, pyacl_conv_bits32, &kind, pyacl_conv_ptr, &s))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemcpyAsyncWithCondition(dst, dest_max, src, count, (aclrtMemcpyKind)kind, s);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.cmo_async(src, size, cmo_type, stream) */
static PyObject *py_cmo_async(PyObject *self, PyObject *args)
{
	void *src, *s;
	size_t size;
	int32_t type;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&:cmo_async", pyacl_conv_ptr, &src, pyacl_conv_size,
			      &size, pyacl_conv_bits32, &type, pyacl_conv_ptr, &s))
		return NULL;
	return PyLong_FromLong(aclrtCmoAsync(src, size, (aclrtCmoType)type, s));
}

/* ret = acl.rt.memcpy2d_async(dst, dpitch, src, spitch, width, height, kind, stream) */
static PyObject *py_memcpy2d_async(PyObject *self, PyObject *args)
{
	void *dst, *src, *s;
	size_t dpitch, spitch, width, height;
	int32_t kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&O&O&:memcpy2d_async", pyacl_conv_ptr, &dst,
			      pyacl_conv_size, &dpitch, pyacl_conv_ptr, &src, pyacl_conv_size,
			      &spitch, pyacl_conv_size, &width, pyacl_conv_size, &height,
			      pyacl_conv_bits32, &kind, pyacl_conv_ptr, &s))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemcpy2dAsync(dst, dpitch, src, spitch, width, height, (aclrtMemcpyKind)kind, s);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.memset_async(dev_ptr, max_count, value, count, stream) */
static PyObject *py_memset_async(PyObject *self, PyObject *args)
{
	void *p, *s;
	size_t max_count, count;
	int32_t value;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:memset_async", pyacl_conv_ptr, &p, pyacl_conv_size,
			      &max_count, pyacl_conv_bits32, &value, pyacl_conv_size, &count,
			      pyacl_conv_ptr, &s))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemsetAsync(p, max_count, value, count, s);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.reduce_async(dst, src, count, kind, type, stream, reserve) */
static PyObject *py_reduce_async(PyObject *self, PyObject *args)
{
	void *dst, *src, *stream, *reserve;
	uint64_t count;
	int32_t kind, type;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&O&:reduce_async", pyacl_conv_ptr, &dst, pyacl_conv_ptr, &src,
			      pyacl_conv_u64, &count, pyacl_conv_i32, &kind, pyacl_conv_i32, &type, pyacl_conv_ptr,
			      &stream, pyacl_conv_ptr, &reserve))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtReduceAsync(dst, src, count, (aclrtReduceKind)kind, (aclDataType)type, stream, reserve);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.value_write(dev_addr, value, flag, stream) and value_wait */
#define VALUE_CALL(pyname, cfunc)							\
static PyObject *py_##pyname(PyObject *self, PyObject *args)			\
{										\
	void *addr, *stream;							\
	uint64_t value;								\
	uint32_t flag;								\
	aclError ret;								\
										\
	(void)self;								\
	if (!PyArg_ParseTuple(args, "O&O&O&O&:" #pyname, pyacl_conv_ptr, &addr,	\
			      pyacl_conv_u64, &value, pyacl_conv_u32, &flag,	\
			      pyacl_conv_ptr, &stream))				\
		return NULL;							\
	Py_BEGIN_ALLOW_THREADS							\
	ret = cfunc(addr, value, flag, stream);					\
	Py_END_ALLOW_THREADS							\
	return PyLong_FromLong(ret);						\
}

VALUE_CALL(value_write, aclrtValueWrite)
VALUE_CALL(value_wait, aclrtValueWait)

PyMethodDef pyacl_rt_stream_methods[] = {
	{ "create_context", py_create_context, METH_VARARGS,
	  "create_context(device_id) -> (context, ret) (aclrtCreateContext)" },
	{ "destroy_context", py_destroy_context, METH_VARARGS,
	  "destroy_context(context) -> ret (aclrtDestroyContext)" },
	{ "set_context", py_set_context, METH_VARARGS,
	  "set_context(context) -> ret (aclrtSetCurrentContext)" },
	{ "get_context", py_get_context, METH_NOARGS,
	  "get_context() -> (context, ret) (aclrtGetCurrentContext)" },
	{ "create_stream", py_create_stream, METH_NOARGS,
	  "create_stream() -> (stream, ret) (aclrtCreateStream)" },
	{ "create_stream_with_config", py_create_stream_with_config, METH_VARARGS,
	  "create_stream_with_config(priority, flag) -> (stream, ret)" },
	{ "destroy_stream", py_destroy_stream, METH_VARARGS,
	  "destroy_stream(stream) -> ret (aclrtDestroyStream)" },
	{ "destroy_stream_force", py_destroy_stream_force, METH_VARARGS,
	  "destroy_stream_force(stream) -> ret (aclrtDestroyStreamForce)" },
	{ "value_write", py_value_write, METH_VARARGS,
	  "value_write(dev_addr, value, flag, stream) -> ret (aclrtValueWrite)" },
	{ "value_wait", py_value_wait, METH_VARARGS,
	  "value_wait(dev_addr, value, flag, stream) -> ret (aclrtValueWait)" },
	{ "synchronize_stream", py_synchronize_stream, METH_VARARGS,
	  "synchronize_stream(stream) -> ret (aclrtSynchronizeStream)" },
	{ "synchronize_stream_with_timeout", py_synchronize_stream_with_timeout, METH_VARARGS,
	  "synchronize_stream_with_timeout(stream, timeout_ms) -> ret" },
	{ "stream_query", py_stream_query, METH_VARARGS,
	  "stream_query(stream) -> (status, ret) (aclrtStreamQuery)" },
	{ "create_event", py_create_event, METH_NOARGS,
	  "create_event() -> (event, ret) (aclrtCreateEvent)" },
	{ "destroy_event", py_destroy_event, METH_VARARGS,
	  "destroy_event(event) -> ret (aclrtDestroyEvent)" },
	{ "record_event", py_record_event, METH_VARARGS,
	  "record_event(event, stream) -> ret (aclrtRecordEvent)" },
	{ "synchronize_event", py_synchronize_event, METH_VARARGS,
	  "synchronize_event(event) -> ret (aclrtSynchronizeEvent)" },
	{ "query_event_status", py_query_event_status, METH_VARARGS,
	  "query_event_status(event) -> (status, ret) (aclrtQueryEventStatus)" },
	{ "stream_wait_event", py_stream_wait_event, METH_VARARGS,
	  "stream_wait_event(stream, event) -> ret (aclrtStreamWaitEvent)" },
	{ "event_elapsed_time", py_event_elapsed_time, METH_VARARGS,
	  "event_elapsed_time(start, end) -> (ms, ret) (aclrtEventElapsedTime)" },
	{ "synchronize_device", py_synchronize_device, METH_NOARGS,
	  "synchronize_device() -> ret (aclrtSynchronizeDevice)" },
	{ "memcpy_async", py_memcpy_async, METH_VARARGS,
	  "memcpy_async(dst, dest_max, src, count, kind, stream) -> ret" },
	{ "memcpy2d_async", py_memcpy2d_async, METH_VARARGS,
	  "memcpy2d_async(dst, dpitch, src, spitch, width, height, kind, stream) -> ret" },
	{ "memset_async", py_memset_async, METH_VARARGS,
	  "memset_async(dev_ptr, max_count, value, count, stream) -> ret" },
	{ "memcpy_async_with_condition", py_memcpy_async_with_condition, METH_VARARGS,
	  "memcpy_async_with_condition(dst, dest_max, src, count, kind, stream) -> ret "
	  "(aclrtMemcpyAsyncWithCondition)" },
	{ "cmo_async", py_cmo_async, METH_VARARGS,
	  "cmo_async(src, size, cmo_type, stream) -> ret (aclrtCmoAsync)" },
	{ "reduce_async", py_reduce_async, METH_VARARGS,
	  "reduce_async(dst, src, count, kind, type, stream, reserve) -> ret (aclrtReduceAsync)" },
	{ NULL, NULL, 0, NULL },
};
