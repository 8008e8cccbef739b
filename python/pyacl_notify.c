// SPDX-License-Identifier: GPL-2.0
/*
 * Notifies: acl.rt.create_notify, destroy_notify, record_notify,
 * wait_and_reset_notify, get_notify_id, notify_batch_reset,
 * notify_get_export_key, notify_import_by_key, notify_set_import_pid, and
 * the counting notifies cnt_notify_create, cnt_notify_destroy,
 * cnt_notify_get_id, cnt_notify_record, cnt_notify_wait_with_timeout,
 * cnt_notify_reset.  Notifies and streams are ints (0: NULL, the default
 * stream); keys are str; the record / wait infos are dicts spelled as the
 * C structs: {"mode", "value"} and {"mode", "value", "timeout",
 * "isClear"} (a missing key is 0).
 */
#include "pyacl.h"

#include <acl/acl.h>
#include <string.h>

/* notify, ret = acl.rt.create_notify(flag) */
static PyObject *py_create_notify(PyObject *self, PyObject *args)
{
	aclrtNotify n = NULL;
	uint64_t flag;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:create_notify", pyacl_conv_u64, &flag))
		return NULL;
	ret = aclrtCreateNotify(&n, flag);
	return pyacl_ptr_ret(n, ret);
}

/* ret = acl.rt.destroy_notify(notify) */
static PyObject *py_destroy_notify(PyObject *self, PyObject *args)
{
	void *n;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:destroy_notify", pyacl_conv_ptr, &n))
		return NULL;
	return PyLong_FromLong(aclrtDestroyNotify(n));
}

/* ret = acl.rt.record_notify(notify, stream) */
static PyObject *py_record_notify(PyObject *self, PyObject *args)
{
	void *n, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:record_notify", pyacl_conv_ptr, &n, pyacl_conv_ptr, &s))
		return NULL;
	return PyLong_FromLong(aclrtRecordNotify(n, s));
}

/* ret = acl.rt.wait_and_reset_notify(notify, stream, timeout) */
static PyObject *py_wait_and_reset_notify(PyObject *self, PyObject *args)
{
	uint32_t timeout;
	void *n, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&:wait_and_reset_notify", pyacl_conv_ptr, &n, pyacl_conv_ptr, &s,
			      pyacl_conv_u32, &timeout))
		return NULL;
	return PyLong_FromLong(aclrtWaitAndResetNotify(n, s, timeout));
}

/* notify_id, ret = acl.rt.get_notify_id(notify) */
static PyObject *py_get_notify_id(PyObject *self, PyObject *args)
{
	uint32_t id = 0;
	aclError ret;
	void *n;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:get_notify_id", pyacl_conv_ptr, &n))
		return NULL;
	ret = aclrtGetNotifyId(n, &id);
	return Py_BuildValue("(Ii)", (unsigned int)id, ret);
}

/* ret = acl.rt.notify_batch_reset([notify, ...]) */
static PyObject *py_notify_batch_reset(PyObject *self, PyObject *args)
{
	PyObject *list, *seq;
	aclrtNotify *ns;
	Py_ssize_t n, i;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O:notify_batch_reset", &list))
		return NULL;
	seq = PySequence_Fast(list, "notifies must be a sequence of ints");
	if (!seq)
		return NULL;
	n = PySequence_Fast_GET_SIZE(seq);
	ns = PyMem_Calloc(n ? (size_t)n : 1, sizeof(*ns));
	if (!ns) {
		Py_DECREF(seq);
		return PyErr_NoMemory();
	}
	for (i = 0; i < n; i++) {
		if (!pyacl_conv_ptr(PySequence_Fast_GET_ITEM(seq, i), &ns[i])) {
			PyMem_Free(ns);
			Py_DECREF(seq);
			return NULL;
		}
	}
	Py_DECREF(seq);
	ret = aclrtNotifyBatchReset(ns, (size_t)n);
	PyMem_Free(ns);
	return PyLong_FromLong(ret);
}

/* key, ret = acl.rt.notify_get_export_key(notify, flags): key "" on failure */
static PyObject *py_notify_get_export_key(PyObject *self, PyObject *args)
{
	char key[65] = "";
	uint64_t flags;
	aclError ret;
	void *n;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:notify_get_export_key", pyacl_conv_ptr, &n, pyacl_conv_u64, &flags))
		return NULL;
	ret = aclrtNotifyGetExportKey(n, key, sizeof(key), flags);
	if (ret != ACL_SUCCESS)
		key[0] = '\0';
	return Py_BuildValue("(si)", key, ret);
}

/* notify, ret = acl.rt.notify_import_by_key(key, flags) */
static PyObject *py_notify_import_by_key(PyObject *self, PyObject *args)
{
	aclrtNotify n = NULL;
	const char *key;
	uint64_t flags;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "sO&:notify_import_by_key", &key, pyacl_conv_u64, &flags))
		return NULL;
	ret = aclrtNotifyImportByKey(&n, key, flags);
	return pyacl_ptr_ret(n, ret);
}

/* ret = acl.rt.notify_set_import_pid(notify, [pid, ...]) */
static PyObject *py_notify_set_import_pid(PyObject *self, PyObject *args)
{
	PyObject *list;
	int32_t *pids;
	Py_ssize_t n;
	aclError ret;
	void *nt;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O:notify_set_import_pid", pyacl_conv_ptr, &nt, &list))
		return NULL;
	pids = pyacl_pid_list(list, &n);
	if (!pids)
		return NULL;
	ret = aclrtNotifySetImportPid(nt, pids, (size_t)n);
	PyMem_Free(pids);
	return PyLong_FromLong(ret);
}

/* cnt_notify, ret = acl.rt.cnt_notify_create(flag) */
static PyObject *py_cnt_notify_create(PyObject *self, PyObject *args)
{
	aclrtCntNotify n = NULL;
	uint64_t flag;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:cnt_notify_create", pyacl_conv_u64, &flag))
		return NULL;
	ret = aclrtCntNotifyCreate(&n, flag);
	return pyacl_ptr_ret(n, ret);
}

/* ret = acl.rt.cnt_notify_destroy(cnt_notify) */
static PyObject *py_cnt_notify_destroy(PyObject *self, PyObject *args)
{
	void *n;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:cnt_notify_destroy", pyacl_conv_ptr, &n))
		return NULL;
	return PyLong_FromLong(aclrtCntNotifyDestroy(n));
}

/* notify_id, ret = acl.rt.cnt_notify_get_id(cnt_notify) */
static PyObject *py_cnt_notify_get_id(PyObject *self, PyObject *args)
{
	uint32_t id = 0;
	aclError ret;
	void *n;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:cnt_notify_get_id", pyacl_conv_ptr, &n))
		return NULL;
	ret = aclrtCntNotifyGetId(n, &id);
	return Py_BuildValue("(Ii)", (unsigned int)id, ret);
}

/* dict[key] as 32 bits (0 when missing); 0 with an exception on error. */
static int dict_bits32(PyObject *d, const char *key, int32_t *out)
{
	PyObject *v = PyDict_GetItemString(d, key);

	*out = 0;
	return v ? pyacl_conv_bits32(v, out) : 1;
}

static int need_dict(PyObject *d, const char *what)
{
	if (PyDict_Check(d))
		return 1;
	PyErr_Format(PyExc_TypeError, "%s must be a dict", what);
	return 0;
}

/* ret = acl.rt.cnt_notify_record(cnt_notify, stream, {"mode", "value"}) */
static PyObject *py_cnt_notify_record(PyObject *self, PyObject *args)
{
	aclrtCntNotifyRecordInfo info;
	int32_t mode, value;
	PyObject *d;
	void *n, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O:cnt_notify_record", pyacl_conv_ptr, &n, pyacl_conv_ptr, &s, &d))
		return NULL;
	if (!need_dict(d, "info") || !dict_bits32(d, "mode", &mode) || !dict_bits32(d, "value", &value))
		return NULL;
	info.mode = (aclrtCntNotifyRecordMode)mode;
	info.value = (uint32_t)value;
	return PyLong_FromLong(aclrtCntNotifyRecord(n, s, &info));
}

/* ret = acl.rt.cnt_notify_wait_with_timeout(cnt_notify, stream,
 *	{"mode", "value", "timeout", "isClear"}) */
static PyObject *py_cnt_notify_wait_with_timeout(PyObject *self, PyObject *args)
{
	int32_t mode, value, timeout, clear;
	aclrtCntNotifyWaitInfo info;
	PyObject *d;
	void *n, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O:cnt_notify_wait_with_timeout", pyacl_conv_ptr, &n, pyacl_conv_ptr,
			      &s, &d))
		return NULL;
	if (!need_dict(d, "info") || !dict_bits32(d, "mode", &mode) || !dict_bits32(d, "value", &value) ||
	    !dict_bits32(d, "timeout", &timeout) || !dict_bits32(d, "isClear", &clear))
		return NULL;
	memset(&info, 0, sizeof(info));
	info.mode = (aclrtCntNotifyWaitMode)mode;
	info.value = (uint32_t)value;
	info.timeout = (uint32_t)timeout;
	info.isClear = clear != 0;
	return PyLong_FromLong(aclrtCntNotifyWaitWithTimeout(n, s, &info));
}

/* ret = acl.rt.cnt_notify_reset(cnt_notify, stream) */
static PyObject *py_cnt_notify_reset(PyObject *self, PyObject *args)
{
	void *n, *s;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:cnt_notify_reset", pyacl_conv_ptr, &n, pyacl_conv_ptr, &s))
		return NULL;
	return PyLong_FromLong(aclrtCntNotifyReset(n, s));
}

PyMethodDef pyacl_rt_notify_methods[] = {
	{ "create_notify", py_create_notify, METH_VARARGS, "notify, ret = create_notify(flag)" },
	{ "destroy_notify", py_destroy_notify, METH_VARARGS, "ret = destroy_notify(notify)" },
	{ "record_notify", py_record_notify, METH_VARARGS, "ret = record_notify(notify, stream)" },
	{ "wait_and_reset_notify", py_wait_and_reset_notify, METH_VARARGS,
	  "ret = wait_and_reset_notify(notify, stream, timeout_ms)" },
	{ "get_notify_id", py_get_notify_id, METH_VARARGS, "notify_id, ret = get_notify_id(notify)" },
	{ "notify_batch_reset", py_notify_batch_reset, METH_VARARGS, "ret = notify_batch_reset([notify, ...])" },
	{ "notify_get_export_key", py_notify_get_export_key, METH_VARARGS,
	  "key, ret = notify_get_export_key(notify, flags)" },
	{ "notify_import_by_key", py_notify_import_by_key, METH_VARARGS,
	  "notify, ret = notify_import_by_key(key, flags)" },
	{ "notify_set_import_pid", py_notify_set_import_pid, METH_VARARGS,
	  "ret = notify_set_import_pid(notify, [pid, ...])" },
	{ "cnt_notify_create", py_cnt_notify_create, METH_VARARGS, "cnt_notify, ret = cnt_notify_create(flag)" },
	{ "cnt_notify_destroy", py_cnt_notify_destroy, METH_VARARGS, "ret = cnt_notify_destroy(cnt_notify)" },
	{ "cnt_notify_get_id", py_cnt_notify_get_id, METH_VARARGS,
	  "notify_id, ret = cnt_notify_get_id(cnt_notify)" },
	{ "cnt_notify_record", py_cnt_notify_record, METH_VARARGS,
	  "ret = cnt_notify_record(cnt_notify, stream, {'mode': m, 'value': v})" },
	{ "cnt_notify_wait_with_timeout", py_cnt_notify_wait_with_timeout, METH_VARARGS,
	  "ret = cnt_notify_wait_with_timeout(cnt_notify, stream, {'mode', 'value', 'timeout', 'isClear'})" },
	{ "cnt_notify_reset", py_cnt_notify_reset, METH_VARARGS, "ret = cnt_notify_reset(cnt_notify, stream)" },
	{ NULL, NULL, 0, NULL },
};
