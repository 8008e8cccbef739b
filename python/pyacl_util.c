// SPDX-License-Identifier: GPL-2.0
/*
 * acl.util: pass Python buffers to the API as host pointers and read host
 * memory back into bytes or a numpy array.
 *
 * bytes_to_ptr/numpy_to_ptr return the address of the object's buffer and
 * keep nothing: as in pyACL, the caller keeps the object alive (and, for a
 * bytearray, unresized) while the address is in use.  Only write through an
 * address of a writable object (bytearray, numpy array), never of bytes.
 */
#include "pyacl.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
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

/* numpy, imported on first use: the module itself does not need it. */
static PyObject *numpy_import(const char *what)
{
	PyObject *np = PyImport_ImportModule("numpy");

	if (!np && PyErr_ExceptionMatches(PyExc_ImportError)) {
		PyErr_Clear();
		PyErr_Format(PyExc_ImportError,
			     "%s needs numpy (Debian: python3-numpy)", what);
	}
	return np;
}

/*
 * ptr = acl.util.numpy_to_ptr(array): as in pyACL, @array must be a
 * numpy.ndarray (TypeError otherwise, also when numpy is missing), and
 * C-contiguous (BufferError otherwise).
 */
static PyObject *py_numpy_to_ptr(PyObject *self, PyObject *arg)
{
	PyObject *np, *ndarray = NULL;
	int is_array = 0;

	(void)self;
	np = PyImport_ImportModule("numpy");
	if (!np) {
		if (!PyErr_ExceptionMatches(PyExc_ImportError))
			return NULL;
		PyErr_Clear();		/* then @arg cannot be an ndarray */
	} else {
		ndarray = PyObject_GetAttrString(np, "ndarray");
		Py_DECREF(np);
		if (!ndarray)
			return NULL;
		is_array = PyObject_IsInstance(arg, ndarray);
		Py_DECREF(ndarray);
		if (is_array < 0)
			return NULL;
	}
	if (!is_array) {
		PyErr_Format(PyExc_TypeError,
			     "numpy_to_ptr: needs a numpy.ndarray, got %.100s",
			     Py_TYPE(arg)->tp_name);
		return NULL;
	}
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

/*
 * Whether all of [@ptr, @ptr + @size) can be read: one byte of every page,
 * read with process_vm_readv in batches, so a bad address is an error and
 * not a crash.
 */
static bool host_range_readable(const char *ptr, size_t size)
{
	enum { BATCH = 256 };
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)ptr, last;
	struct iovec remote[BATCH];
	char sink[BATCH];
	struct iovec local = { sink, 0 };
	uintptr_t at;

	if (!size)
		return true;
	if (start + size < start)
		return false;
	last = start + size - 1;
	at = start;
	while (at <= last) {
		size_t n = 0;
		ssize_t got;

		while (n < BATCH && at <= last) {
			remote[n].iov_base = (void *)at;
			remote[n].iov_len = 1;
			n++;
			if ((at | (page - 1)) >= last)
				at = last + 1;	/* also stops at the top */
			else
				at = (at | (page - 1)) + 1;
		}
		local.iov_len = n;
		got = process_vm_readv(getpid(), &local, 1, remote, n, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got != (ssize_t)n)
			return false;
	}
	return true;
}

/* numpy typenums of pyACL's @type (enum NPY_TYPES, stable in numpy's ABI). */
static const char npy_type_chars[] = {
	'?', 'b', 'B', 'h', 'H', 'i', 'I', 'l', 'L', 'q', 'Q',	/* 0..10 */
	'f', 'd', 'g', 'F', 'D', 'G',				/* 11..16 */
};
#define NPY_HALF_TYPENUM	23

/* numpy.dtype of @type: a typenum as in pyACL, or anything numpy.dtype takes. */
static PyObject *numpy_dtype(PyObject *np, PyObject *type)
{
	char code[2] = { 0, 0 };

	if (PyLong_Check(type)) {
		long num = PyLong_AsLong(type);

		if (num == -1 && PyErr_Occurred())
			return NULL;
		if (num >= 0 && num < (long)sizeof(npy_type_chars))
			code[0] = npy_type_chars[num];
		else if (num == NPY_HALF_TYPENUM)
			code[0] = 'e';
		if (!code[0]) {
			PyErr_Format(PyExc_ValueError,
				     "ptr_to_numpy: unsupported numpy type number %ld",
				     num);
			return NULL;
		}
		return PyObject_CallMethod(np, "dtype", "s", code);
	}
	return PyObject_CallMethod(np, "dtype", "O", type);
}

/* Elements of @shape (a tuple or list of ints, or one int) into *@count. */
static PyObject *shape_tuple(PyObject *shape, size_t *count)
{
	PyObject *seq, *tuple;
	Py_ssize_t n;

	if (PyIndex_Check(shape))
		seq = PyTuple_Pack(1, shape);
	else
		seq = PySequence_Tuple(shape);
	if (!seq)
		return NULL;
	n = PyTuple_GET_SIZE(seq);
	tuple = PyTuple_New(n);
	*count = 1;
	for (Py_ssize_t i = 0; tuple && i < n; i++) {
		Py_ssize_t dim = PyNumber_AsSsize_t(PyTuple_GET_ITEM(seq, i),
						    PyExc_OverflowError);

		if (dim == -1 && PyErr_Occurred()) {
			Py_CLEAR(tuple);
			break;
		}
		if (dim < 0 || (dim && *count > SIZE_MAX / (size_t)dim)) {
			PyErr_SetString(PyExc_ValueError,
					"ptr_to_numpy: bad shape");
			Py_CLEAR(tuple);
			break;
		}
		*count *= (size_t)dim;
		PyTuple_SET_ITEM(tuple, i, PyLong_FromSsize_t(dim));
	}
	Py_DECREF(seq);
	return tuple;
}

/*
 * array = acl.util.ptr_to_numpy(ptr, shape, type): a numpy array of @shape
 * and element type @type over the host memory at @ptr, without a copy (as
 * in pyACL): the memory must outlive the array.  @type is a numpy type
 * number as pyACL takes it (5 = NPY_INT32, 11 = NPY_FLOAT32, ...) or a
 * numpy dtype.  An unreadable range raises ValueError instead of crashing.
 */
static PyObject *py_ptr_to_numpy(PyObject *self, PyObject *args)
{
	PyObject *shape_arg, *type, *np, *dtype = NULL, *shape = NULL;
	PyObject *view = NULL, *flat = NULL, *result = NULL;
	size_t count, itemsize, nbytes;
	void *ptr;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&OO:ptr_to_numpy", pyacl_conv_ptr, &ptr,
			      &shape_arg, &type))
		return NULL;
	np = numpy_import("ptr_to_numpy");
	if (!np)
		return NULL;
	dtype = numpy_dtype(np, type);
	if (!dtype)
		goto out;
	shape = shape_tuple(shape_arg, &count);
	if (!shape)
		goto out;
	flat = PyObject_GetAttrString(dtype, "itemsize");
	if (!flat)
		goto out;
	itemsize = PyLong_AsSize_t(flat);
	Py_CLEAR(flat);
	if (itemsize == (size_t)-1 && PyErr_Occurred())
		goto out;
	if (itemsize && count > (size_t)PY_SSIZE_T_MAX / itemsize) {
		PyErr_SetString(PyExc_OverflowError, "ptr_to_numpy: too large");
		goto out;
	}
	nbytes = count * itemsize;
	if (nbytes && (!ptr || !host_range_readable(ptr, nbytes))) {
		PyErr_Format(PyExc_ValueError,
			     "ptr_to_numpy: cannot read %zu bytes at %p", nbytes,
			     ptr);
		goto out;
	}
	view = PyMemoryView_FromMemory(nbytes ? ptr : (char *)"", (Py_ssize_t)nbytes,
				       PyBUF_WRITE);
	if (!view)
		goto out;
	flat = PyObject_CallMethod(np, "frombuffer", "OO", view, dtype);
	if (flat)
		result = PyObject_CallMethod(flat, "reshape", "O", shape);
out:
	Py_XDECREF(flat);
	Py_XDECREF(view);
	Py_XDECREF(shape);
	Py_XDECREF(dtype);
	Py_DECREF(np);
	return result;
}

PyMethodDef pyacl_util_methods[] = {
	{ "bytes_to_ptr", py_bytes_to_ptr, METH_O,
	  "bytes_to_ptr(data) -> ptr: address of a bytes-like object's buffer" },
	{ "numpy_to_ptr", py_numpy_to_ptr, METH_O,
	  "numpy_to_ptr(array) -> ptr: address of a C-contiguous numpy array's data" },
	{ "ptr_to_numpy", py_ptr_to_numpy, METH_VARARGS,
	  "ptr_to_numpy(ptr, shape, type) -> numpy.ndarray over host memory (no copy)" },
	{ "ptr_to_bytes", py_ptr_to_bytes, METH_VARARGS,
	  "ptr_to_bytes(ptr, size) -> bytes: copy of size bytes of host memory" },
	{ NULL, NULL, 0, NULL },
};
