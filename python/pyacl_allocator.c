// SPDX-License-Identifier: GPL-2.0
/*
 * User allocators (acl_rt_allocator.h): acl.rt.allocator_create_desc,
 * allocator_destroy_desc, allocator_set_obj_to_desc, the four
 * allocator_set_*_func_to_desc, allocator_register, allocator_unregister.
 *
 * As in pyACL a description, a stream and the allocator object are ints,
 * and the callbacks Python callables:
 *   alloc(allocator, size) -> block, or None when it has no memory
 *   free(allocator, block)
 *   alloc_advise(allocator, size, addr) -> block, or None
 *   get_addr_from_block(block) -> device address (int)
 * where allocator is the int given to allocator_set_obj_to_desc and block
 * whatever alloc returned.  libacl_rt never calls them itself: the layers
 * above the runtime take them from aclrtAllocatorGetByStream (see
 * include/acl/acl_rt_allocator.h) and call the C functions this file gives
 * the description, from any thread; each takes the GIL.  The C block they
 * see is this file's, standing for the Python block until free.  A None
 * callback is a NULL function (the C call's 100000); anything else that is
 * not callable raises TypeError.  An exception in a callback is reported
 * through sys.unraisablehook and the C caller gets NULL.
 *
 * The C description's object is a struct pyalloc: the allocator int and
 * the callables of one version of the description.  Every setter makes a
 * new version, so that a registration keeps what was registered, as the C
 * registry keeps a copy.  A version lives while the description still has
 * it, a registration made here has it, or a block it allocated is not
 * freed (a capsule holds it; the module's dicts and the blocks hold the
 * capsule).  All of this is touched with the GIL held only.
 */
#include "pyacl.h"

#include <acl/acl.h>
#include <acl/acl_rt_allocator.h>

enum { F_ALLOC, F_FREE, F_ADVISE, F_ADDR, F_N };

struct pyalloc {
	PyObject *obj;		/* the allocator int; NULL not set */
	PyObject *fn[F_N];	/* NULL not set */
	PyObject *capsule;	/* the capsule owning this (borrowed) */
};

/* What a C block stands for: a Python block and the version it came from. */
struct pyblock {
	PyObject *capsule;
	PyObject *block;
};

static PyObject *descs;		/* {desc: capsule} current version */
static PyObject *regs;		/* {stream: capsule} registered here */

static const char CAPSULE[] = "npu_sim.pyalloc";

static void pyalloc_free(PyObject *capsule)
{
	struct pyalloc *pa = PyCapsule_GetPointer(capsule, CAPSULE);

	Py_XDECREF(pa->obj);
	for (int i = 0; i < F_N; i++)
		Py_XDECREF(pa->fn[i]);
	PyMem_Free(pa);
}

/* A new version: a copy of @from (may be NULL) as a capsule; NULL on error. */
static PyObject *pyalloc_new(const struct pyalloc *from)
{
	struct pyalloc *pa = PyMem_Calloc(1, sizeof(*pa));
	PyObject *cap;

	if (pa == NULL)
		return PyErr_NoMemory();
	if (from != NULL) {
		pa->obj = from->obj;
		Py_XINCREF(pa->obj);
		for (int i = 0; i < F_N; i++) {
			pa->fn[i] = from->fn[i];
			Py_XINCREF(pa->fn[i]);
		}
	}
	cap = PyCapsule_New(pa, CAPSULE, pyalloc_free);
	if (cap == NULL) {
		Py_XDECREF(pa->obj);
		for (int i = 0; i < F_N; i++)
			Py_XDECREF(pa->fn[i]);
		PyMem_Free(pa);
		return NULL;
	}
	pa->capsule = cap;
	return cap;
}

static int dicts_ready(void)
{
	if (descs == NULL && (descs = PyDict_New()) == NULL)
		return -1;
	if (regs == NULL && (regs = PyDict_New()) == NULL)
		return -1;
	return 0;
}

/* Remove the entry of pointer @p from dict @d if there is one; -1 on error. */
static int dict_drop(PyObject *d, void *p)
{
	PyObject *key = PyLong_FromVoidPtr(p);
	int err;

	if (key == NULL)
		return -1;
	err = PyDict_DelItem(d, key);
	if (err < 0 && PyErr_ExceptionMatches(PyExc_KeyError)) {
		PyErr_Clear();
		err = 0;
	}
	Py_DECREF(key);
	return err;
}

/* The current version of @key in dict @d (borrowed), NULL none. */
static struct pyalloc *version_of(PyObject *d, PyObject *key)
{
	PyObject *cap = PyDict_GetItemWithError(d, key);

	return cap != NULL ? PyCapsule_GetPointer(cap, CAPSULE) : NULL;
}

/* A C block for what a Python alloc returned (a new reference); NULL for None or an error. */
static void *wrap_block(struct pyalloc *pa, PyObject *fn, PyObject *r)
{
	struct pyblock *b;

	if (r == NULL) {
		if (PyErr_Occurred())
			PyErr_WriteUnraisable(fn);
		return NULL;
	}
	if (r == Py_None) {
		Py_DECREF(r);
		return NULL;
	}
	b = PyMem_Malloc(sizeof(*b));
	if (b == NULL) {
		Py_DECREF(r);
		return NULL;
	}
	b->block = r;
	b->capsule = pa->capsule;
	Py_INCREF(b->capsule);
	return b;
}

static void *alloc_tramp(aclrtAllocator allocator, size_t size)
{
	struct pyalloc *pa = allocator;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *fn = pa->fn[F_ALLOC];
	void *b = wrap_block(pa, fn, fn == NULL || pa->obj == NULL ? NULL :
			     PyObject_CallFunction(fn, "OK", pa->obj, (unsigned long long)size));

	PyGILState_Release(g);
	return b;
}

static void *advise_tramp(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr)
{
	struct pyalloc *pa = allocator;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *fn = pa->fn[F_ADVISE];
	void *b = wrap_block(pa, fn, fn == NULL || pa->obj == NULL ? NULL :
			     PyObject_CallFunction(fn, "OKK", pa->obj, (unsigned long long)size,
						   (unsigned long long)(uintptr_t)addr));

	PyGILState_Release(g);
	return b;
}

static void free_tramp(aclrtAllocator allocator, aclrtAllocatorBlock block)
{
	struct pyalloc *pa = allocator;
	struct pyblock *b = block;
	PyGILState_STATE g;
	PyObject *r;

	if (b == NULL)
		return;
	g = PyGILState_Ensure();
	/* a callable is always set with its C function; a failed setter's
	 * MemoryError could leave it unset: then the block is only dropped */
	if (pa->fn[F_FREE] != NULL) {
		r = PyObject_CallFunctionObjArgs(pa->fn[F_FREE], pa->obj, b->block, NULL);
		if (r == NULL)
			PyErr_WriteUnraisable(pa->fn[F_FREE]);
		Py_XDECREF(r);
	}
	Py_DECREF(b->block);
	Py_DECREF(b->capsule);	/* may free the version: last */
	PyMem_Free(b);
	PyGILState_Release(g);
}

static void *addr_tramp(aclrtAllocatorBlock block)
{
	struct pyblock *b = block;
	struct pyalloc *pa;
	PyGILState_STATE g;
	void *addr = NULL;
	PyObject *r;

	if (b == NULL)
		return NULL;
	g = PyGILState_Ensure();
	pa = PyCapsule_GetPointer(b->capsule, CAPSULE);
	r = pa->fn[F_ADDR] == NULL ? NULL : PyObject_CallFunctionObjArgs(pa->fn[F_ADDR], b->block, NULL);
	if (r == NULL || !pyacl_conv_ptr(r, &addr)) {
		if (PyErr_Occurred())
			PyErr_WriteUnraisable(pa->fn[F_ADDR]);
		addr = NULL;
	}
	Py_XDECREF(r);
	PyGILState_Release(g);
	return addr;
}

/* desc = acl.rt.allocator_create_desc(); 0 when there is no memory */
static PyObject *py_allocator_create_desc(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	return PyLong_FromVoidPtr(aclrtAllocatorCreateDesc());
}

/* ret = acl.rt.allocator_destroy_desc(desc) */
static PyObject *py_allocator_destroy_desc(PyObject *self, PyObject *args)
{
	aclError ret;
	void *desc;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:allocator_destroy_desc", pyacl_conv_ptr, &desc) || dicts_ready() < 0)
		return NULL;
	ret = aclrtAllocatorDestroyDesc(desc);
	if (ret == ACL_SUCCESS && dict_drop(descs, desc) < 0)
		return NULL;
	return PyLong_FromLong(ret);
}

/*
 * A new version of desc's Python side with @obj (when not NULL) or
 * callback @which set to @fn, handed to the C description when it has an
 * object; the C setter has succeeded.  The code to return, or -1 with an
 * exception set.
 */
static long new_version(void *desc, PyObject *obj, int which, PyObject *fn)
{
	PyObject *key = PyLong_FromVoidPtr(desc), *cap, *old;
	struct pyalloc *pa;
	aclError ret = ACL_SUCCESS;

	if (key == NULL)
		return -1;
	pa = version_of(descs, key);
	if (pa == NULL && PyErr_Occurred()) {
		Py_DECREF(key);
		return -1;
	}
	cap = pyalloc_new(pa);
	if (cap == NULL) {
		Py_DECREF(key);
		return -1;
	}
	pa = PyCapsule_GetPointer(cap, CAPSULE);
	if (obj != NULL) {
		old = pa->obj;
		Py_INCREF(obj);
		pa->obj = obj;
	} else {
		old = pa->fn[which];
		Py_INCREF(fn);
		pa->fn[which] = fn;
	}
	Py_XDECREF(old);
	if (pa->obj != NULL)
		ret = aclrtAllocatorSetObjToDesc(desc, pa);
	if (ret == ACL_SUCCESS && PyDict_SetItem(descs, key, cap) < 0)
		ret = -1;
	Py_DECREF(cap);
	Py_DECREF(key);
	return ret;
}

/* ret = acl.rt.allocator_set_obj_to_desc(desc, allocator) */
static PyObject *py_allocator_set_obj_to_desc(PyObject *self, PyObject *args)
{
	void *desc, *allocator;
	PyObject *obj;
	long ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O:allocator_set_obj_to_desc", pyacl_conv_ptr, &desc, &obj) ||
	    !pyacl_conv_ptr(obj, &allocator) || dicts_ready() < 0)
		return NULL;
	/* the C checks first (NULL desc or allocator, dead desc), with 0 as NULL */
	ret = aclrtAllocatorSetObjToDesc(desc, allocator);
	if (ret == ACL_SUCCESS)
		ret = new_version(desc, obj, 0, NULL);
	return ret < 0 ? NULL : PyLong_FromLong(ret);
}

/* ret = acl.rt.allocator_set_*_func_to_desc(desc, fn) */
static PyObject *set_func(PyObject *args, const char *fmt, int which)
{
	static void (*const tramp[F_N])(void) = {
		[F_ALLOC] = (void (*)(void))alloc_tramp,
		[F_FREE] = (void (*)(void))free_tramp,
		[F_ADVISE] = (void (*)(void))advise_tramp,
		[F_ADDR] = (void (*)(void))addr_tramp,
	};
	void (*cfn)(void);
	PyObject *fn;
	void *desc;
	long ret;

	if (!PyArg_ParseTuple(args, fmt, pyacl_conv_ptr, &desc, &fn) || dicts_ready() < 0)
		return NULL;
	if (fn != Py_None && !PyCallable_Check(fn)) {
		PyErr_SetString(PyExc_TypeError, "fn must be callable (or None: a NULL function)");
		return NULL;
	}
	cfn = fn == Py_None ? NULL : tramp[which];
	switch (which) {
	case F_ALLOC:
		ret = aclrtAllocatorSetAllocFuncToDesc(desc, (aclrtAllocatorAllocFunc)cfn);
		break;
	case F_FREE:
		ret = aclrtAllocatorSetFreeFuncToDesc(desc, (aclrtAllocatorFreeFunc)cfn);
		break;
	case F_ADVISE:
		ret = aclrtAllocatorSetAllocAdviseFuncToDesc(desc, (aclrtAllocatorAllocAdviseFunc)cfn);
		break;
	default:
		ret = aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, (aclrtAllocatorGetAddrFromBlockFunc)cfn);
		break;
	}
	if (ret == ACL_SUCCESS)
		ret = new_version(desc, NULL, which, fn);
	return ret < 0 ? NULL : PyLong_FromLong(ret);
}

static PyObject *py_allocator_set_alloc_func_to_desc(PyObject *self, PyObject *args)
{
	(void)self;
	return set_func(args, "O&O:allocator_set_alloc_func_to_desc", F_ALLOC);
}

static PyObject *py_allocator_set_free_func_to_desc(PyObject *self, PyObject *args)
{
	(void)self;
	return set_func(args, "O&O:allocator_set_free_func_to_desc", F_FREE);
}

static PyObject *py_allocator_set_alloc_advise_func_to_desc(PyObject *self, PyObject *args)
{
	(void)self;
	return set_func(args, "O&O:allocator_set_alloc_advise_func_to_desc", F_ADVISE);
}

static PyObject *py_allocator_set_get_addr_from_block_func_to_desc(PyObject *self, PyObject *args)
{
	(void)self;
	return set_func(args, "O&O:allocator_set_get_addr_from_block_func_to_desc", F_ADDR);
}

/* ret = acl.rt.allocator_register(stream, desc) */
static PyObject *py_allocator_register(PyObject *self, PyObject *args)
{
	PyObject *skey, *dkey, *cap;
	void *stream, *desc;
	aclError ret;
	int err = 0;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:allocator_register", pyacl_conv_ptr, &stream, pyacl_conv_ptr, &desc) ||
	    dicts_ready() < 0)
		return NULL;
	ret = aclrtAllocatorRegister(stream, desc);
	if (ret != ACL_SUCCESS)
		return PyLong_FromLong(ret);
	/* keep the registered version alive as long as the registration */
	skey = PyLong_FromVoidPtr(stream);
	dkey = PyLong_FromVoidPtr(desc);
	if (skey == NULL || dkey == NULL) {
		err = -1;
	} else {
		cap = PyDict_GetItemWithError(descs, dkey);
		if (cap != NULL) {
			err = PyDict_SetItem(regs, skey, cap);
		} else {	/* a description not set up here */
			err = PyErr_Occurred() ? -1 : dict_drop(regs, stream);
		}
	}
	Py_XDECREF(skey);
	Py_XDECREF(dkey);
	return err < 0 ? NULL : PyLong_FromLong(ret);
}

/* ret = acl.rt.allocator_unregister(stream) */
static PyObject *py_allocator_unregister(PyObject *self, PyObject *args)
{
	aclError ret;
	void *stream;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:allocator_unregister", pyacl_conv_ptr, &stream) || dicts_ready() < 0)
		return NULL;
	ret = aclrtAllocatorUnregister(stream);
	if (ret == ACL_SUCCESS && dict_drop(regs, stream) < 0)
		return NULL;
	return PyLong_FromLong(ret);
}

PyMethodDef pyacl_rt_allocator_methods[] = {
	{ "allocator_create_desc", py_allocator_create_desc, METH_NOARGS,
	  "allocator_create_desc() -> desc (aclrtAllocatorCreateDesc)" },
	{ "allocator_destroy_desc", py_allocator_destroy_desc, METH_VARARGS,
	  "allocator_destroy_desc(desc) -> ret (aclrtAllocatorDestroyDesc)" },
	{ "allocator_set_obj_to_desc", py_allocator_set_obj_to_desc, METH_VARARGS,
	  "allocator_set_obj_to_desc(desc, allocator) -> ret (aclrtAllocatorSetObjToDesc)" },
	{ "allocator_set_alloc_func_to_desc", py_allocator_set_alloc_func_to_desc, METH_VARARGS,
	  "allocator_set_alloc_func_to_desc(desc, fn) -> ret (aclrtAllocatorSetAllocFuncToDesc)" },
	{ "allocator_set_free_func_to_desc", py_allocator_set_free_func_to_desc, METH_VARARGS,
	  "allocator_set_free_func_to_desc(desc, fn) -> ret (aclrtAllocatorSetFreeFuncToDesc)" },
	{ "allocator_set_alloc_advise_func_to_desc", py_allocator_set_alloc_advise_func_to_desc, METH_VARARGS,
	  "allocator_set_alloc_advise_func_to_desc(desc, fn) -> ret (aclrtAllocatorSetAllocAdviseFuncToDesc)" },
	{ "allocator_set_get_addr_from_block_func_to_desc", py_allocator_set_get_addr_from_block_func_to_desc,
	  METH_VARARGS,
	  "allocator_set_get_addr_from_block_func_to_desc(desc, fn) -> ret "
	  "(aclrtAllocatorSetGetAddrFromBlockFuncToDesc)" },
	{ "allocator_register", py_allocator_register, METH_VARARGS,
	  "allocator_register(stream, desc) -> ret (aclrtAllocatorRegister)" },
	{ "allocator_unregister", py_allocator_unregister, METH_VARARGS,
	  "allocator_unregister(stream) -> ret (aclrtAllocatorUnregister)" },
	{ NULL, NULL, 0, NULL },
};
