// SPDX-License-Identifier: GPL-2.0
/*
 * Memory UCE records: acl.rt.get_mem_uce_info, acl.rt.mem_uce_repair.
 * An aclrtMemUceInfo is a dict {"addr": int, "len": int, "reserved": [14
 * ints]}, as in pyACL; mem_uce_repair takes a list of them ("reserved" may
 * be left out: zeros).
 */
#include "pyacl.h"

#include <acl/acl.h>

static PyObject *uce_dict(const aclrtMemUceInfo *u)
{
	PyObject *res = PyList_New(UCE_INFO_RESERVED_SIZE);

	if (res == NULL)
		return NULL;
	for (int i = 0; i < UCE_INFO_RESERVED_SIZE; i++) {
		PyObject *v = PyLong_FromSize_t(u->reserved[i]);

		if (v == NULL) {
			Py_DECREF(res);
			return NULL;
		}
		PyList_SET_ITEM(res, i, v);
	}
	return Py_BuildValue("{s:K,s:n,s:N}", "addr", (unsigned long long)(uintptr_t)u->addr,
			     "len", (Py_ssize_t)u->len, "reserved", res);
}

/* (list of dicts, ret) = acl.rt.get_mem_uce_info(device_id, array_size) */
static PyObject *py_get_mem_uce_info(PyObject *self, PyObject *args)
{
	size_t size, got = 0;
	aclrtMemUceInfo *arr;
	PyObject *list;
	int32_t dev;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:get_mem_uce_info", pyacl_conv_i32, &dev, pyacl_conv_size, &size))
		return NULL;
	arr = PyMem_Calloc(size ? size : 1, sizeof(*arr));	/* never NULL for 0 */
	if (arr == NULL)
		return PyErr_NoMemory();
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtGetMemUceInfo(dev, arr, size, &got);
	Py_END_ALLOW_THREADS
	if (ret != ACL_SUCCESS || got > size)
		got = 0;
	list = PyList_New((Py_ssize_t)got);
	for (size_t i = 0; list != NULL && i < got; i++) {
		PyObject *d = uce_dict(&arr[i]);

		if (d == NULL)
			Py_CLEAR(list);
		else
			PyList_SET_ITEM(list, (Py_ssize_t)i, d);
	}
	PyMem_Free(arr);
	return list == NULL ? NULL : Py_BuildValue("Ni", list, ret);
}

/* One dict into *u; -1 with an exception set. */
static int uce_from_dict(PyObject *d, aclrtMemUceInfo *u)
{
	PyObject *v, *seq;
	void *addr;

	if (!PyDict_Check(d)) {
		PyErr_SetString(PyExc_TypeError, "an aclrtMemUceInfo is a dict");
		return -1;
	}
	v = PyDict_GetItemString(d, "addr");
	if (v == NULL || !pyacl_conv_ptr(v, &addr)) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_KeyError, "addr");
		return -1;
	}
	u->addr = addr;
	v = PyDict_GetItemString(d, "len");
	if (v == NULL || !pyacl_conv_size(v, &u->len)) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_KeyError, "len");
		return -1;
	}
	v = PyDict_GetItemString(d, "reserved");
	if (v == NULL)
		return 0;
	seq = PySequence_Fast(v, "reserved must be a sequence of ints");
	if (seq == NULL)
		return -1;
	if (PySequence_Fast_GET_SIZE(seq) > UCE_INFO_RESERVED_SIZE) {
		Py_DECREF(seq);
		PyErr_Format(PyExc_ValueError, "reserved has at most %d entries", UCE_INFO_RESERVED_SIZE);
		return -1;
	}
	for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
		if (!pyacl_conv_size(PySequence_Fast_GET_ITEM(seq, i), &u->reserved[i])) {
			Py_DECREF(seq);
			return -1;
		}
	}
	Py_DECREF(seq);
	return 0;
}

/* ret = acl.rt.mem_uce_repair(device_id, [dict, ...]) */
static PyObject *py_mem_uce_repair(PyObject *self, PyObject *args)
{
	aclrtMemUceInfo *arr;
	PyObject *list, *seq;
	Py_ssize_t n;
	int32_t dev;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O:mem_uce_repair", pyacl_conv_i32, &dev, &list))
		return NULL;
	if (!PyList_Check(list) && !PyTuple_Check(list)) {
		PyErr_SetString(PyExc_TypeError, "mem_uce_repair takes a list of aclrtMemUceInfo dicts");
		return NULL;
	}
	seq = PySequence_Fast(list, "");
	if (seq == NULL)
		return NULL;
	n = PySequence_Fast_GET_SIZE(seq);
	arr = PyMem_Calloc(n ? (size_t)n : 1, sizeof(*arr));
	if (arr == NULL) {
		Py_DECREF(seq);
		return PyErr_NoMemory();
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		if (uce_from_dict(PySequence_Fast_GET_ITEM(seq, i), &arr[i]) < 0) {
			PyMem_Free(arr);
			Py_DECREF(seq);
			return NULL;
		}
	}
	Py_DECREF(seq);
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMemUceRepair(dev, arr, (size_t)n);
	Py_END_ALLOW_THREADS
	PyMem_Free(arr);
	return PyLong_FromLong(ret);
}

PyMethodDef pyacl_rt_mem_uce_methods[] = {
	{ "get_mem_uce_info", py_get_mem_uce_info, METH_VARARGS,
	  "get_mem_uce_info(device_id, array_size) -> ([{addr, len, reserved}], ret) (aclrtGetMemUceInfo)" },
	{ "mem_uce_repair", py_mem_uce_repair, METH_VARARGS,
	  "mem_uce_repair(device_id, [{addr, len, reserved}]) -> ret (aclrtMemUceRepair)" },
	{ NULL, NULL, 0, NULL },
};
