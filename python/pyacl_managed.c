// SPDX-License-Identifier: GPL-2.0
/*
 * Managed (UVM) memory: acl.rt.mem_alloc_managed, mem_managed_advise,
 * mem_managed_prefetch_async.  Locations are dicts {"type": .., "id": ..}
 * (aclrtMemManagedLocation; a missing "id" is 0).  Free with acl.rt.free.
 */
#include "pyacl.h"

#include <acl/acl.h>

/* Fill *loc from a {"type": int, "id": int} dict; 0 with an exception set on error. */
static int conv_location(PyObject *obj, void *out)
{
	aclrtMemManagedLocation *loc = out;
	PyObject *type, *id;
	int32_t v;

	if (!PyDict_Check(obj)) {
		PyErr_SetString(PyExc_TypeError, "location must be a dict {'type': .., 'id': ..}");
		return 0;
	}
	type = PyDict_GetItemString(obj, "type");
	if (type == NULL) {
		PyErr_SetString(PyExc_KeyError, "location has no 'type'");
		return 0;
	}
	if (!pyacl_conv_i32(type, &v))
		return 0;
	loc->type = (aclrtMemManagedLocationType)v;
	loc->id = 0;
	id = PyDict_GetItemString(obj, "id");
	if (id != NULL && !pyacl_conv_i32(id, &loc->id))
		return 0;
	return 1;
}

/* ptr, ret = acl.rt.mem_alloc_managed(size, flag) */
static PyObject *py_mem_alloc_managed(PyObject *self, PyObject *args)
{
	void *p = NULL;
	uint64_t size;
	uint32_t flag;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:mem_alloc_managed", pyacl_conv_u64, &size,
			      pyacl_conv_u32, &flag))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemAllocManaged(&p, size, flag);
	Py_END_ALLOW_THREADS
	return pyacl_ptr_ret(p, ret);
}

/* ret = acl.rt.mem_managed_advise(ptr, size, advise, location) */
static PyObject *py_mem_managed_advise(PyObject *self, PyObject *args)
{
	aclrtMemManagedLocation loc;
	uint64_t size;
	int32_t advise;
	aclError ret;
	void *p;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&:mem_managed_advise", pyacl_conv_ptr, &p,
			      pyacl_conv_u64, &size, pyacl_conv_i32, &advise, conv_location, &loc))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemManagedAdvise(p, size, (aclrtMemManagedAdviseType)advise, loc);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

/* ret = acl.rt.mem_managed_prefetch_async(ptr, size, location, flags, stream) */
static PyObject *py_mem_managed_prefetch_async(PyObject *self, PyObject *args)
{
	aclrtMemManagedLocation loc;
	uint32_t flags;
	size_t size;
	aclError ret;
	void *p, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:mem_managed_prefetch_async", pyacl_conv_ptr, &p,
			      pyacl_conv_size, &size, conv_location, &loc, pyacl_conv_u32, &flags,
			      pyacl_conv_ptr, &s))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemManagedPrefetchAsync(p, size, loc, flags, s);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

PyMethodDef pyacl_rt_managed_methods[] = {
	{ "mem_alloc_managed", py_mem_alloc_managed, METH_VARARGS,
	  "mem_alloc_managed(size, flag) -> (ptr, ret) (aclrtMemAllocManaged; flag 1)" },
	{ "mem_managed_advise", py_mem_managed_advise, METH_VARARGS,
	  "mem_managed_advise(ptr, size, advise, {'type': t, 'id': i}) -> ret (aclrtMemManagedAdvise)" },
	{ "mem_managed_prefetch_async", py_mem_managed_prefetch_async, METH_VARARGS,
	  "mem_managed_prefetch_async(ptr, size, {'type': t, 'id': i}, flags, stream) -> ret "
	  "(aclrtMemManagedPrefetchAsync)" },
	{ NULL, NULL, 0, NULL },
};
