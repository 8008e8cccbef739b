/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `acl` Python module: pyACL spellings (docs/cann-api-notes.md section 5) on top
 * of libacl_rt.  One C file per API group, each exporting a method table;
 * acl_module.c puts the tables into `acl`, `acl.rt` and `acl.util`.  Adding
 * a group (VMM, IPC, managed memory) is a new file plus one line in the
 * group list of acl_module.c.
 *
 * Conventions, as in pyACL: pointers and handles are Python ints, out
 * parameters come back in a tuple with `ret` last, C structs are dicts.
 * Wrong argument types raise TypeError and ints out of the C type's range
 * raise OverflowError; errors of the C API come back as `ret`, unchanged.
 */
#ifndef NPU_SIM_PYACL_H
#define NPU_SIM_PYACL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <stdint.h>

/* Method tables of the API groups. */
extern PyMethodDef pyacl_init_methods[];	/* acl.init, acl.finalize */
extern PyMethodDef pyacl_rt_device_methods[];	/* acl.rt device calls */
extern PyMethodDef pyacl_rt_memory_methods[];	/* malloc family, host, info */
extern PyMethodDef pyacl_rt_copy_methods[];	/* memcpy, memcpy2d, memset */
extern PyMethodDef pyacl_rt_vmm_methods[];	/* VMM, sharing, pointer info */
extern PyMethodDef pyacl_rt_stream_methods[];	/* contexts, streams, events */
extern PyMethodDef pyacl_rt_event_methods[];	/* event flags, IPC events */
extern PyMethodDef pyacl_rt_callback_methods[];	/* host callbacks */
extern PyMethodDef pyacl_rt_stream_ctl_methods[];	/* stream mode, queries, control */
extern PyMethodDef pyacl_rt_managed_methods[];	/* managed (UVM) memory */
extern PyMethodDef pyacl_rt_host_ipc_methods[];	/* host registration, IPC keys */
extern PyMethodDef pyacl_rt_memcpy_desc_methods[];	/* copies described in device memory */
extern PyMethodDef pyacl_rt_notify_methods[];	/* notifies, counting notifies */
extern PyMethodDef pyacl_rt_exception_info_methods[];	/* exception info callback, readers */
extern PyMethodDef pyacl_rt_allocator_methods[];	/* user allocators per stream */
extern PyMethodDef pyacl_rt_mem_uce_methods[];	/* memory UCE records */
extern PyMethodDef pyacl_rt_last_error_methods[];	/* get/peek last error */
extern PyMethodDef pyacl_base_methods[];	/* error message, data buffers */
extern PyMethodDef pyacl_rt_device_info_methods[];	/* device info/settings, host buffers */
extern PyMethodDef pyacl_base_info_methods[];	/* acl.get_device_capability, CANN attrs, app_log */
extern PyMethodDef pyacl_util_methods[];	/* acl.util */

/* Put the ACL_* constants on @module; -1 with an exception on failure. */
int pyacl_add_constants(PyObject *module);

/*
 * "O&" converters for PyArg_ParseTuple.  Each accepts an int (or any object
 * with __index__) and raises TypeError / OverflowError otherwise.
 */
int pyacl_conv_size(PyObject *obj, void *out);		/* size_t */
int pyacl_conv_u64(PyObject *obj, void *out);		/* uint64_t */
int pyacl_conv_ptr(PyObject *obj, void *out);		/* void *, from int */
int pyacl_conv_i32(PyObject *obj, void *out);		/* int32_t */
int pyacl_conv_u32(PyObject *obj, void *out);		/* uint32_t */
/* 32 bits, signed or unsigned range (enums, memset value): int32_t */
int pyacl_conv_bits32(PyObject *obj, void *out);

/*
 * The pids of the list (any sequence of ints, at most 1024) as an int32_t
 * array from PyMem_Calloc (free with PyMem_Free), *n its length; NULL with
 * an exception set (TypeError, OverflowError, ValueError: too many).
 */
int32_t *pyacl_pid_list(PyObject *list, Py_ssize_t *n);

/* Tuple (pointer as int, ret). */
PyObject *pyacl_ptr_ret(const void *ptr, int ret);

#endif
