// SPDX-License-Identifier: GPL-2.0
/*
 * acl.util: pass Python buffers to the API as host pointers and read host
 * memory back into bytes.
 *
 * bytes_to_ptr/numpy_to_ptr return the address of the object's buffer and
 * keep nothing: as in pyACL, the caller keeps the object alive (and, for a
 * bytearray, unresized) while the address is in use.  Only write through an
 * address of a writable object (bytearray, numpy array), never of bytes.
 */
#include "pyacl.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* Address of @obj's contiguous buffer; NULL with an exception otherwise. */
static PyObject *buffer_address(PyObject *obj, const char *what)
{
	Py_buffer view;
	void *addr;

	if (!PyObject_CheckBuffer(obj)) {
		PyErr_Format(PyExc_TypeError,
			     "%s: expected a bytes-like object, got %.100s",
			     what, Py_TYPE(obj)->tp_name);
		return NULL;
	}
	if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) < 0)
		return NULL;
	addr = view.buf;
	PyBuffer_Release(&view);
	return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)addr);
}

/* ptr = acl.util.bytes_to_ptr(data) */
static PyObject *py_bytes_to_ptr(PyObject *self, PyObject *arg)
{
	(void)self;
	return buffer_address(arg, "bytes_to_ptr");
}

/* ptr = acl.util.numpy_to_ptr(array); the array must be C-contiguous */
static PyObject *py_numpy_to_ptr(PyObject *self, PyObject *arg)
{
	(void)self;
	return buffer_address(arg, "numpy_to_ptr");
}

/*
 * data = acl.util.ptr_to_bytes(ptr, size): a copy of @size bytes at @ptr.
 * Read with process_vm_readv on ourselves so a bad address (device memory in
 * strict mode, freed memory, garbage) raises ValueError instead of crashing.
 */
static PyObject *py_ptr_to_bytes(PyObject *self, PyObject *args)
{
	void *ptr;
	size_t size, done = 0;
	PyObject *result;
	char *buf;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:ptr_to_bytes", pyacl_conv_ptr, &ptr,
			      pyacl_conv_size, &size))
		return NULL;
	if (size > PY_SSIZE_T_MAX) {
		PyErr_SetString(PyExc_OverflowError, "size too large");
		return NULL;
	}
	if (size && !ptr) {
		PyErr_SetString(PyExc_ValueError, "ptr_to_bytes: null pointer");
		return NULL;
	}
	result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
	if (!result)
		return NULL;
	buf = PyBytes_AS_STRING(result);
	while (done < size) {
		struct iovec local = { buf + done, size - done };
		struct iovec remote = { (char *)ptr + done, size - done };
		ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);

		if (n <= 0) {
			int err = n < 0 ? errno : EFAULT;

			if (err == EINTR)
				continue;
			Py_DECREF(result);
			PyErr_Format(PyExc_ValueError,
				     "ptr_to_bytes: cannot read %zu bytes at %p: %s",
				     size, ptr, strerror(err));
			return NULL;
		}
		done += (size_t)n;
	}
	return result;
}

PyMethodDef pyacl_util_methods[] = {
	{ "bytes_to_ptr", py_bytes_to_ptr, METH_O,
	  "bytes_to_ptr(data) -> ptr: address of a bytes-like object's buffer" },
	{ "numpy_to_ptr", py_numpy_to_ptr, METH_O,
	  "numpy_to_ptr(array) -> ptr: address of a C-contiguous array's data" },
	{ "ptr_to_bytes", py_ptr_to_bytes, METH_VARARGS,
	  "ptr_to_bytes(ptr, size) -> bytes: copy of size bytes of host memory" },
	{ NULL, NULL, 0, NULL },
};
