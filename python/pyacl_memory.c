// SPDX-License-Identifier: GPL-2.0
/*
 * Linear device memory, host memory and memory info: the aclrtMalloc family,
 * aclrtFree, aclrtMallocHost/FreeHost, aclrtGetMemInfo.
 */
#include "pyacl.h"

#include <acl/acl.h>
#include <string.h>

typedef aclError (*malloc_fn)(void **, size_t, aclrtMemMallocPolicy);

/* dev_ptr, ret = fn(size, policy): the shape shared by the malloc family */
static PyObject *malloc_common(PyObject *args, const char *format,
			       malloc_fn fn)
{
	void *ptr = NULL;
	size_t size;
	int32_t policy;
	aclError ret;

	if (!PyArg_ParseTuple(args, format, pyacl_conv_size, &size,
			      pyacl_conv_bits32, &policy))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = fn(&ptr, size, (aclrtMemMallocPolicy)policy);
	Py_END_ALLOW_THREADS
	return pyacl_ptr_ret(ret == ACL_SUCCESS ? ptr : NULL, ret);
}

static PyObject *py_malloc(PyObject *self, PyObject *args)
{
	(void)self;
	return malloc_common(args, "O&O&:malloc", aclrtMalloc);
}

static PyObject *py_malloc_align32(PyObject *self, PyObject *args)
{
	(void)self;
	return malloc_common(args, "O&O&:malloc_align32", aclrtMallocAlign32);
}

static PyObject *py_malloc_cached(PyObject *self, PyObject *args)
{
	(void)self;
	return malloc_common(args, "O&O&:malloc_cached", aclrtMallocCached);
}

/* Most attributes a cfg dict may carry (the C API has three kinds). */
#define MAX_CFG_ATTRS 16

/* Item @i of cfg["attrs"]: {"attr": int, "value": int} */
static int parse_cfg_attr(PyObject *item, aclrtMallocAttribute *out)
{
	PyObject *attr, *value;
	uint32_t kind;
	uint64_t v;

	if (!PyDict_Check(item)) {
		PyErr_SetString(PyExc_TypeError,
				"cfg['attrs'] items must be dicts {'attr': int, 'value': int}");
		return -1;
	}
	attr = PyDict_GetItemString(item, "attr");
	value = PyDict_GetItemString(item, "value");
	if (!attr || !value) {
		PyErr_SetString(PyExc_KeyError,
				"cfg['attrs'] items need keys 'attr' and 'value'");
		return -1;
	}
	if (!pyacl_conv_u32(attr, &kind) || !pyacl_conv_u64(value, &v))
		return -1;
	memset(out, 0, sizeof(*out));
	out->attr = (aclrtMallocAttrType)kind;
	/* store the value in the union member the attribute kind uses */
	switch (kind) {
	case ACL_RT_MEM_ATTR_MODULE_ID:
		if (v > UINT16_MAX)
			goto overflow;
		out->value.moduleId = (uint16_t)v;
		break;
	case ACL_RT_MEM_ATTR_DEVICE_ID:
		if (v > UINT32_MAX)
			goto overflow;
		out->value.deviceId = (uint32_t)v;
		break;
	case ACL_RT_MEM_ATTR_VA_FLAG:
		if (v > UINT32_MAX)
			goto overflow;
		out->value.vaFlag = (uint32_t)v;
		break;
	default:
		memcpy(out->value.rsv, &v, sizeof(out->value.rsv));
		break;
	}
	return 0;
overflow:
	PyErr_SetString(PyExc_OverflowError, "cfg attribute value out of range");
	return -1;
}

/*
 * A cfg argument: None or {} means "no config" (NULL), else a dict with
 * "attrs": a list of {"attr": int, "value": int}, mirroring aclrtMallocConfig.
 */
static int parse_cfg(PyObject *obj, aclrtMallocConfig *cfg,
		     aclrtMallocAttribute *attrs, aclrtMallocConfig **out)
{
	PyObject *list, *seq;
	Py_ssize_t n;

	*out = NULL;
	if (obj == Py_None)
		return 0;
	if (!PyDict_Check(obj)) {
		PyErr_Format(PyExc_TypeError, "cfg must be a dict or None, got %.100s",
			     Py_TYPE(obj)->tp_name);
		return -1;
	}
	if (PyDict_Size(obj) == 0)
		return 0;
	list = PyDict_GetItemString(obj, "attrs");
	if (!list || PyDict_Size(obj) != 1) {
		PyErr_SetString(PyExc_KeyError,
				"cfg dict takes only the key 'attrs'");
		return -1;
	}
	seq = PySequence_Fast(list, "cfg['attrs'] must be a list");
	if (!seq)
		return -1;
	n = PySequence_Fast_GET_SIZE(seq);
	if (n > MAX_CFG_ATTRS) {
		Py_DECREF(seq);
		PyErr_SetString(PyExc_ValueError, "too many cfg attributes");
		return -1;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		if (parse_cfg_attr(PySequence_Fast_GET_ITEM(seq, i), &attrs[i])) {
			Py_DECREF(seq);
			return -1;
		}
	}
	Py_DECREF(seq);
	cfg->attrs = n ? attrs : NULL;
	cfg->numAttrs = (size_t)n;
	*out = cfg;
	return 0;
}

/* dev_ptr, ret = acl.rt.malloc_with_cfg(size, policy, cfg) */
static PyObject *py_malloc_with_cfg(PyObject *self, PyObject *args)
{
	aclrtMallocAttribute attrs[MAX_CFG_ATTRS];
	aclrtMallocConfig cfg, *cfgp;
	PyObject *cfg_obj = Py_None;
	void *ptr = NULL;
	size_t size;
	int32_t policy;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&|O:malloc_with_cfg", pyacl_conv_size,
			      &size, pyacl_conv_bits32, &policy, &cfg_obj))
		return NULL;
	if (parse_cfg(cfg_obj, &cfg, attrs, &cfgp))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMallocWithCfg(&ptr, size, (aclrtMemMallocPolicy)policy, cfgp);
	Py_END_ALLOW_THREADS
	return pyacl_ptr_ret(ret == ACL_SUCCESS ? ptr : NULL, ret);
}

/* dev_ptr, ret = acl.rt.malloc_for_task_scheduler(size, policy, cfg) */
static PyObject *py_malloc_for_task_scheduler(PyObject *self, PyObject *args)
{
	aclrtMallocAttribute attrs[MAX_CFG_ATTRS];
	aclrtMallocConfig cfg, *cfgp;
	PyObject *cfg_obj = Py_None;
	void *ptr = NULL;
	size_t size;
	int32_t policy;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&|O:malloc_for_task_scheduler",
			      pyacl_conv_size, &size, pyacl_conv_bits32,
			      &policy, &cfg_obj))
		return NULL;
	if (parse_cfg(cfg_obj, &cfg, attrs, &cfgp))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMallocForTaskScheduler(&ptr, size,
					  (aclrtMemMallocPolicy)policy, cfgp);
	Py_END_ALLOW_THREADS
	return pyacl_ptr_ret(ret == ACL_SUCCESS ? ptr : NULL, ret);
}

/* host_ptr, ret = acl.rt.malloc_host_with_cfg(size, cfg) */
static PyObject *py_malloc_host_with_cfg(PyObject *self, PyObject *args)
{
	aclrtMallocAttribute attrs[MAX_CFG_ATTRS];
	aclrtMallocConfig cfg, *cfgp;
	PyObject *cfg_obj = Py_None;
	void *ptr = NULL;
	uint64_t size;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&|O:malloc_host_with_cfg", pyacl_conv_u64,
			      &size, &cfg_obj))
		return NULL;
	if (parse_cfg(cfg_obj, &cfg, attrs, &cfgp))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMallocHostWithCfg(&ptr, size, cfgp);
	Py_END_ALLOW_THREADS
	return pyacl_ptr_ret(ret == ACL_SUCCESS ? ptr : NULL, ret);
}

typedef aclError (*range_fn)(void *, size_t);

/* ret = fn(dev_ptr, size): mem_flush, mem_invalidate */
static PyObject *range_common(PyObject *args, const char *format, range_fn fn)
{
	void *ptr;
	size_t size;

	if (!PyArg_ParseTuple(args, format, pyacl_conv_ptr, &ptr,
			      pyacl_conv_size, &size))
		return NULL;
	return PyLong_FromLong(fn(ptr, size));
}

static PyObject *py_mem_flush(PyObject *self, PyObject *args)
{
	(void)self;
	return range_common(args, "O&O&:mem_flush", aclrtMemFlush);
}

static PyObject *py_mem_invalidate(PyObject *self, PyObject *args)
{
	(void)self;
	return range_common(args, "O&O&:mem_invalidate", aclrtMemInvalidate);
}

typedef aclError (*free_fn)(void *);

/* ret = fn(ptr): the shape shared by the free calls */
static PyObject *free_common(PyObject *args, const char *format, free_fn fn)
{
	void *ptr;
	aclError ret;

	if (!PyArg_ParseTuple(args, format, pyacl_conv_ptr, &ptr))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = fn(ptr);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(ret);
}

static PyObject *py_free(PyObject *self, PyObject *args)
{
	(void)self;
	return free_common(args, "O&:free", aclrtFree);
}

static PyObject *py_free_with_dev_sync(PyObject *self, PyObject *args)
{
	(void)self;
	return free_common(args, "O&:free_with_dev_sync", aclrtFreeWithDevSync);
}

static PyObject *py_free_host(PyObject *self, PyObject *args)
{
	(void)self;
	return free_common(args, "O&:free_host", aclrtFreeHost);
}

/* host_ptr, ret = acl.rt.malloc_host(size) */
static PyObject *py_malloc_host(PyObject *self, PyObject *args)
{
	void *ptr = NULL;
	size_t size;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:malloc_host", pyacl_conv_size, &size))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = aclrtMallocHost(&ptr, size);
	Py_END_ALLOW_THREADS
	return pyacl_ptr_ret(ret == ACL_SUCCESS ? ptr : NULL, ret);
}

/* free, total, ret = acl.rt.get_mem_info(attr) */
static PyObject *py_get_mem_info(PyObject *self, PyObject *args)
{
	size_t free_bytes = 0, total_bytes = 0;
	int32_t attr;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_mem_info", pyacl_conv_bits32, &attr))
		return NULL;
	ret = aclrtGetMemInfo((aclrtMemAttr)attr, &free_bytes, &total_bytes);
	return Py_BuildValue("(KKi)", (unsigned long long)free_bytes,
			     (unsigned long long)total_bytes, ret);
}

PyMethodDef pyacl_rt_memory_methods[] = {
	{ "malloc", py_malloc, METH_VARARGS,
	  "malloc(size, policy) -> (dev_ptr, ret) (aclrtMalloc)" },
	{ "malloc_align32", py_malloc_align32, METH_VARARGS,
	  "malloc_align32(size, policy) -> (dev_ptr, ret) (aclrtMallocAlign32)" },
	{ "malloc_cached", py_malloc_cached, METH_VARARGS,
	  "malloc_cached(size, policy) -> (dev_ptr, ret) (aclrtMallocCached)" },
	{ "malloc_with_cfg", py_malloc_with_cfg, METH_VARARGS,
	  "malloc_with_cfg(size, policy, cfg) -> (dev_ptr, ret) "
	  "(aclrtMallocWithCfg); cfg is None, {} or "
	  "{'attrs': [{'attr': int, 'value': int}, ...]}" },
	{ "malloc_for_task_scheduler", py_malloc_for_task_scheduler, METH_VARARGS,
	  "malloc_for_task_scheduler(size, policy, cfg) -> (dev_ptr, ret) "
	  "(aclrtMallocForTaskScheduler); cfg as for malloc_with_cfg" },
	{ "malloc_host_with_cfg", py_malloc_host_with_cfg, METH_VARARGS,
	  "malloc_host_with_cfg(size, cfg) -> (host_ptr, ret) "
	  "(aclrtMallocHostWithCfg); cfg as for malloc_with_cfg" },
	{ "mem_flush", py_mem_flush, METH_VARARGS,
	  "mem_flush(dev_ptr, size) -> ret (aclrtMemFlush)" },
	{ "mem_invalidate", py_mem_invalidate, METH_VARARGS,
	  "mem_invalidate(dev_ptr, size) -> ret (aclrtMemInvalidate)" },
	{ "free", py_free, METH_VARARGS, "free(dev_ptr) -> ret (aclrtFree)" },
	{ "free_with_dev_sync", py_free_with_dev_sync, METH_VARARGS,
	  "free_with_dev_sync(dev_ptr) -> ret (aclrtFreeWithDevSync)" },
	{ "malloc_host", py_malloc_host, METH_VARARGS,
	  "malloc_host(size) -> (host_ptr, ret) (aclrtMallocHost)" },
	{ "free_host", py_free_host, METH_VARARGS,
	  "free_host(host_ptr) -> ret (aclrtFreeHost)" },
	{ "get_mem_info", py_get_mem_info, METH_VARARGS,
	  "get_mem_info(attr) -> (free, total, ret) (aclrtGetMemInfo)" },
	{ NULL, NULL, 0, NULL },
};
