// SPDX-License-Identifier: GPL-2.0
/*
 * Argument conversion for the `acl` module: Python ints to C integer types,
 * with TypeError for non-ints and OverflowError for values out of range, so
 * that no input silently wraps into a different (valid-looking) C value.
 */
#include "pyacl.h"

/* The int value of @obj (new reference), or NULL with TypeError. */
static PyObject *as_index(PyObject *obj)
{
	if (!PyIndex_Check(obj)) {
		PyErr_Format(PyExc_TypeError, "an integer is required, got %.100s",
			     Py_TYPE(obj)->tp_name);
		return NULL;
	}
	return PyNumber_Index(obj);
}

/* @obj as an integer in [min, max]; 0 with an exception otherwise. */
static int to_range(PyObject *obj, long long min, unsigned long long max,
		    const char *what, long long *out_signed,
		    unsigned long long *out_unsigned)
{
	PyObject *num = as_index(obj);
	int overflow = 0;
	long long v;

	if (!num)
		return 0;
	v = PyLong_AsLongLongAndOverflow(num, &overflow);
	if (v == -1 && PyErr_Occurred()) {
		Py_DECREF(num);
		return 0;
	}
	if (overflow > 0) {
		/* above LLONG_MAX: only fits an unsigned 64-bit target */
		unsigned long long u = PyLong_AsUnsignedLongLong(num);

		Py_DECREF(num);
		if (u == (unsigned long long)-1 && PyErr_Occurred())
			return 0;
		if (u > max)
			goto out_of_range;
		*out_unsigned = u;
		*out_signed = 0;
		return 1;
	}
	Py_DECREF(num);
	if (overflow < 0 || v < min || (v > 0 && (unsigned long long)v > max))
		goto out_of_range;
	*out_signed = v;
	*out_unsigned = (unsigned long long)v;
	return 1;

out_of_range:
	PyErr_Format(PyExc_OverflowError, "value out of range for %s", what);
	return 0;
}

int pyacl_conv_size(PyObject *obj, void *out)
{
	long long s;
	unsigned long long u;

	if (!to_range(obj, 0, SIZE_MAX, "size_t", &s, &u))
		return 0;
	*(size_t *)out = (size_t)u;
	return 1;
}

int pyacl_conv_u64(PyObject *obj, void *out)
{
	long long s;
	unsigned long long u;

	if (!to_range(obj, 0, UINT64_MAX, "uint64_t", &s, &u))
		return 0;
	*(uint64_t *)out = u;
	return 1;
}

int pyacl_conv_ptr(PyObject *obj, void *out)
{
	long long s;
	unsigned long long u;

	if (!to_range(obj, 0, UINTPTR_MAX, "a pointer", &s, &u))
		return 0;
	*(void **)out = (void *)(uintptr_t)u;
	return 1;
}

int pyacl_conv_i32(PyObject *obj, void *out)
{
	long long s;
	unsigned long long u;

	if (!to_range(obj, INT32_MIN, INT32_MAX, "int32_t", &s, &u))
		return 0;
	*(int32_t *)out = (int32_t)s;
	return 1;
}

int pyacl_conv_u32(PyObject *obj, void *out)
{
	long long s;
	unsigned long long u;

	if (!to_range(obj, 0, UINT32_MAX, "uint32_t", &s, &u))
		return 0;
	*(uint32_t *)out = (uint32_t)u;
	return 1;
}

int pyacl_conv_bits32(PyObject *obj, void *out)
{
	long long s;
	unsigned long long u;

	if (!to_range(obj, INT32_MIN, UINT32_MAX, "a 32-bit value", &s, &u))
		return 0;
	/* 0xffffffff and -1 name the same 32 bits, as C's conversion does */
	*(int32_t *)out = (int32_t)(uint32_t)u;
	return 1;
}

PyObject *pyacl_ptr_ret(const void *ptr, int ret)
{
	return Py_BuildValue("(Ki)", (unsigned long long)(uintptr_t)ptr, ret);
}

#define MAX_PIDS 1024

int32_t *pyacl_pid_list(PyObject *list, Py_ssize_t *n)
{
	PyObject *seq = PySequence_Fast(list, "pid must be a list of ints");
	int32_t *pids;

	if (!seq)
		return NULL;
	*n = PySequence_Fast_GET_SIZE(seq);
	if (*n > MAX_PIDS) {
		Py_DECREF(seq);
		PyErr_SetString(PyExc_ValueError, "too many pids");
		return NULL;
	}
	pids = PyMem_Calloc((size_t)*n + 1, sizeof(*pids));	/* + 1: never 0 bytes */
	if (!pids) {
		Py_DECREF(seq);
		PyErr_NoMemory();
		return NULL;
	}
	for (Py_ssize_t i = 0; i < *n; i++) {
		if (!pyacl_conv_i32(PySequence_Fast_GET_ITEM(seq, i), &pids[i])) {
			PyMem_Free(pids);
			Py_DECREF(seq);
			return NULL;
		}
	}
	Py_DECREF(seq);
	return pids;
}
