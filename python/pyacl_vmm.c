// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual memory management and sharing (acl.rt): the aclrtMallocPhysical
 * family, reservations, map/unmap, access, retain, properties, shareable
 * handles, pointer attributes and address ranges.  Spellings follow pyACL
 * (docs/cann-api-notes.md section 5); where pyACL gives only a name the shape is
 * the usual one: out parameters in a tuple with ret last.
 *
 * prop dicts: {"handleType", "allocationType", "memAttr",
 *              "location": {"id", "type"}, "reserve"}; missing keys are 0.
 * Access descriptors: {"flags", "location": {"id", "type"}}.
 * Handles (aclrtDrvMemHandle) and shareable handles are ints.
 */
#include "pyacl.h"

#include <acl/acl.h>
#include <string.h>

/* dict[key] as uint32 (0 when missing); 0 with an exception on error. */
static int dict_u32(PyObject *d, const char *key, uint32_t *out)
{
	PyObject *v = PyDict_GetItemString(d, key);

	*out = 0;
	return v ? pyacl_conv_u32(v, out) : 1;
}

static int parse_location(PyObject *d, aclrtMemLocation *loc)
{
	uint32_t id, type;

	if (!PyDict_Check(d)) {
		PyErr_SetString(PyExc_TypeError, "location must be a dict {'id': int, 'type': int}");
		return 0;
	}
	if (!dict_u32(d, "id", &id) || !dict_u32(d, "type", &type))
		return 0;
	loc->id = id;
	loc->type = (aclrtMemLocationType)type;
	return 1;
}

/* "O&" converter: prop dict -> aclrtPhysicalMemProp */
static int conv_prop(PyObject *obj, void *out)
{
	aclrtPhysicalMemProp *p = out;
	uint32_t ht, at, attr;
	PyObject *loc, *rsv;

	if (!PyDict_Check(obj)) {
		PyErr_SetString(PyExc_TypeError, "prop must be a dict");
		return 0;
	}
	memset(p, 0, sizeof(*p));
	if (!dict_u32(obj, "handleType", &ht) || !dict_u32(obj, "allocationType", &at) ||
	    !dict_u32(obj, "memAttr", &attr))
		return 0;
	p->handleType = (aclrtMemHandleType)ht;
	p->allocationType = (aclrtMemAllocationType)at;
	p->memAttr = (aclrtMemAttr)attr;
	loc = PyDict_GetItemString(obj, "location");
	if (loc && !parse_location(loc, &p->location))
		return 0;
	rsv = PyDict_GetItemString(obj, "reserve");
	if (rsv && !pyacl_conv_u64(rsv, &p->reserve))
		return 0;
	return 1;
}

static PyObject *location_dict(const aclrtMemLocation *loc)
{
	return Py_BuildValue("{s:I,s:i}", "id", (unsigned int)loc->id, "type", (int)loc->type);
}

static PyObject *ret_handle(aclrtDrvMemHandle h, int ret)
{
	return pyacl_ptr_ret(ret == ACL_SUCCESS ? h : NULL, ret);
}

static PyObject *py_mem_get_allocation_granularity(PyObject *self, PyObject *args)
{
	aclrtPhysicalMemProp prop;
	size_t g = 0;
	int32_t option;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:mem_get_allocation_granularity", conv_prop, &prop,
			      pyacl_conv_bits32, &option))
		return NULL;
	ret = aclrtMemGetAllocationGranularity(&prop, (aclrtMemGranularityOptions)option, &g);
	return Py_BuildValue("(Ki)", (unsigned long long)(ret == ACL_SUCCESS ? g : 0), ret);
}

static PyObject *py_reserve_mem_address(PyObject *self, PyObject *args)
{
	size_t size, alignment;
	void *expect, *va = NULL;
	uint64_t flags;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&:reserve_mem_address", pyacl_conv_size, &size,
			      pyacl_conv_size, &alignment, pyacl_conv_ptr, &expect, pyacl_conv_u64, &flags))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtReserveMemAddress(&va, size, alignment, expect, flags);
	Py_END_ALLOW_THREADS
	return pyacl_ptr_ret(ret == ACL_SUCCESS ? va : NULL, ret);
}

/* ret = fn(ptr) */
static PyObject *ptr_call(PyObject *args, const char *format, aclError (*fn)(void *))
{
	aclError ret;
	void *p;

	if (!PyArg_ParseTuple(args, format, pyacl_conv_ptr, &p))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = fn(p);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

static PyObject *py_release_mem_address(PyObject *self, PyObject *args)
{
	(void)self;
	return ptr_call(args, "O&:release_mem_address", aclrtReleaseMemAddress);
}

static PyObject *py_unmap_mem(PyObject *self, PyObject *args)
{
	(void)self;
	return ptr_call(args, "O&:unmap_mem", aclrtUnmapMem);
}

static PyObject *py_free_physical(PyObject *self, PyObject *args)
{
	(void)self;
	return ptr_call(args, "O&:free_physical", aclrtFreePhysical);
}

static PyObject *py_malloc_physical(PyObject *self, PyObject *args)
{
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h = NULL;
	uint64_t flags;
	size_t size;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:malloc_physical", pyacl_conv_size, &size, conv_prop, &prop,
			      pyacl_conv_u64, &flags))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMallocPhysical(&h, size, &prop, flags);
	Py_END_ALLOW_THREADS
	return ret_handle(h, ret);
}

static PyObject *py_map_mem(PyObject *self, PyObject *args)
{
	size_t size, offset;
	void *va, *h;
	uint64_t flags;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:map_mem", pyacl_conv_ptr, &va, pyacl_conv_size, &size,
			      pyacl_conv_size, &offset, pyacl_conv_ptr, &h, pyacl_conv_u64, &flags))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMapMem(va, size, offset, h, flags);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

#define MAX_ACCESS_DESCS 64

static PyObject *py_mem_set_access(PyObject *self, PyObject *args)
{
	aclrtMemAccessDesc desc[MAX_ACCESS_DESCS];
	PyObject *list, *seq;
	Py_ssize_t n;
	size_t size;
	aclError ret;
	void *va;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O:mem_set_access", pyacl_conv_ptr, &va, pyacl_conv_size, &size,
			      &list))
		return NULL;
	seq = PySequence_Fast(list, "desc must be a list of dicts");
	if (!seq)
		return NULL;
	n = PySequence_Fast_GET_SIZE(seq);
	if (n > MAX_ACCESS_DESCS) {
		Py_DECREF(seq);
		PyErr_SetString(PyExc_ValueError, "too many access descriptors");
		return NULL;
	}
	memset(desc, 0, sizeof(desc));
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *d = PySequence_Fast_GET_ITEM(seq, i), *loc;
		uint32_t flags;

		if (!PyDict_Check(d)) {
			Py_DECREF(seq);
			PyErr_SetString(PyExc_TypeError, "desc items must be dicts");
			return NULL;
		}
		loc = PyDict_GetItemString(d, "location");
		if (!dict_u32(d, "flags", &flags) || (loc && !parse_location(loc, &desc[i].location))) {
			Py_DECREF(seq);
			return NULL;
		}
		desc[i].flags = (aclrtMemAccessFlags)flags;
	}
	Py_DECREF(seq);
	ret = aclrtMemSetAccess(va, size, n ? desc : NULL, (size_t)n);
	return PyLong_FromLong(ret);
}

static PyObject *py_mem_get_access(PyObject *self, PyObject *args)
{
	aclrtMemLocation loc = { 0, ACL_MEM_LOCATION_TYPE_HOST };
	uint64_t flag = 0;
	aclError ret;
	void *va;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:mem_get_access", pyacl_conv_ptr, &va))
		return NULL;
	ret = aclrtMemGetAccess(va, &loc, &flag);
	return Py_BuildValue("(NKi)", location_dict(&loc), (unsigned long long)flag, ret);
}

static PyObject *py_mem_retain_allocation_handle(PyObject *self, PyObject *args)
{
	aclrtDrvMemHandle h = NULL;
	aclError ret;
	void *va;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:mem_retain_allocation_handle", pyacl_conv_ptr, &va))
		return NULL;
	ret = aclrtMemRetainAllocationHandle(va, &h);
	return ret_handle(h, ret);
}

static PyObject *py_mem_get_allocation_properties_from_handle(PyObject *self, PyObject *args)
{
	aclrtPhysicalMemProp p;
	aclError ret;
	void *h;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:mem_get_allocation_properties_from_handle", pyacl_conv_ptr, &h))
		return NULL;
	memset(&p, 0, sizeof(p));
	ret = aclrtMemGetAllocationPropertiesFromHandle(h, &p);
	return Py_BuildValue("({s:i,s:i,s:i,s:N,s:K}i)", "handleType", (int)p.handleType,
			     "allocationType", (int)p.allocationType, "memAttr", (int)p.memAttr,
			     "location", location_dict(&p.location), "reserve",
			     (unsigned long long)p.reserve, ret);
}

static PyObject *py_mem_export_to_shareable_handle(PyObject *self, PyObject *args)
{
	int32_t handle_type;
	uint64_t flags, key = 0;
	aclError ret;
	void *h;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:mem_export_to_shareable_handle", pyacl_conv_ptr, &h,
			      pyacl_conv_bits32, &handle_type, pyacl_conv_u64, &flags))
		return NULL;
	ret = aclrtMemExportToShareableHandle(h, (aclrtMemHandleType)handle_type, flags, &key);
	return Py_BuildValue("(Ki)", (unsigned long long)(ret == ACL_SUCCESS ? key : 0), ret);
}

static PyObject *py_mem_import_from_shareable_handle(PyObject *self, PyObject *args)
{
	aclrtDrvMemHandle h = NULL;
	int32_t device;
	uint64_t key;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:mem_import_from_shareable_handle", pyacl_conv_u64, &key,
			      pyacl_conv_i32, &device))
		return NULL;
	ret = aclrtMemImportFromShareableHandle(key, device, &h);
	return ret_handle(h, ret);
}


static PyObject *py_mem_set_pid_to_shareable_handle(PyObject *self, PyObject *args)
{
	PyObject *list;
	int32_t *pids;
	Py_ssize_t n;
	uint64_t key;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O:mem_set_pid_to_shareable_handle", pyacl_conv_u64, &key, &list))
		return NULL;
	pids = pyacl_pid_list(list, &n);
	if (!pids)
		return NULL;
	ret = aclrtMemSetPidToShareableHandle(key, pids, (size_t)n);
	PyMem_Free(pids);
	return PyLong_FromLong(ret);
}

static PyObject *py_pointer_get_attributes(PyObject *self, PyObject *args)
{
	aclrtPtrAttributes a;
	aclError ret;
	void *p;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:pointer_get_attributes", pyacl_conv_ptr, &p))
		return NULL;
	memset(&a, 0, sizeof(a));
	ret = aclrtPointerGetAttributes(p, &a);
	return Py_BuildValue("({s:N,s:I}i)", "location", location_dict(&a.location), "pageSize",
			     (unsigned int)a.pageSize, ret);
}

static PyObject *py_mem_get_address_range(PyObject *self, PyObject *args)
{
	void *p, *base = NULL;
	size_t size = 0;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:mem_get_address_range", pyacl_conv_ptr, &p))
		return NULL;
	ret = aclrtMemGetAddressRange(p, &base, &size);
	return Py_BuildValue("(KKi)", (unsigned long long)(uintptr_t)base, (unsigned long long)size, ret);
}

PyMethodDef pyacl_rt_vmm_methods[] = {
	{ "mem_get_allocation_granularity", py_mem_get_allocation_granularity, METH_VARARGS,
	  "granularity, ret = mem_get_allocation_granularity(prop, option)" },
	{ "reserve_mem_address", py_reserve_mem_address, METH_VARARGS,
	  "vir_ptr, ret = reserve_mem_address(size, alignment, expect_ptr, flags)" },
	{ "release_mem_address", py_release_mem_address, METH_VARARGS,
	  "ret = release_mem_address(vir_ptr)" },
	{ "malloc_physical", py_malloc_physical, METH_VARARGS,
	  "handle, ret = malloc_physical(size, prop, flags)" },
	{ "free_physical", py_free_physical, METH_VARARGS, "ret = free_physical(handle)" },
	{ "map_mem", py_map_mem, METH_VARARGS, "ret = map_mem(vir_ptr, size, offset, handle, flags)" },
	{ "unmap_mem", py_unmap_mem, METH_VARARGS, "ret = unmap_mem(vir_ptr)" },
	{ "mem_set_access", py_mem_set_access, METH_VARARGS,
	  "ret = mem_set_access(vir_ptr, size, [desc, ...])" },
	{ "mem_get_access", py_mem_get_access, METH_VARARGS,
	  "location, flag, ret = mem_get_access(vir_ptr)" },
	{ "mem_retain_allocation_handle", py_mem_retain_allocation_handle, METH_VARARGS,
	  "handle, ret = mem_retain_allocation_handle(vir_ptr)" },
	{ "mem_get_allocation_properties_from_handle", py_mem_get_allocation_properties_from_handle,
	  METH_VARARGS, "prop, ret = mem_get_allocation_properties_from_handle(handle)" },
	{ "mem_export_to_shareable_handle", py_mem_export_to_shareable_handle, METH_VARARGS,
	  "shareable_handle, ret = mem_export_to_shareable_handle(handle, handle_type, flags)" },
	{ "mem_import_from_shareable_handle", py_mem_import_from_shareable_handle, METH_VARARGS,
	  "handle, ret = mem_import_from_shareable_handle(shareable_handle, device_id)" },
	{ "mem_set_pid_to_shareable_handle", py_mem_set_pid_to_shareable_handle, METH_VARARGS,
	  "ret = mem_set_pid_to_shareable_handle(shareable_handle, [pid, ...])" },
	{ "pointer_get_attributes", py_pointer_get_attributes, METH_VARARGS,
	  "attributes, ret = pointer_get_attributes(ptr)" },
	{ "mem_get_address_range", py_mem_get_address_range, METH_VARARGS,
	  "base, size, ret = mem_get_address_range(ptr)" },
	{ NULL, NULL, 0, NULL },
};
