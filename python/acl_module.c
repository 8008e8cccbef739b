// SPDX-License-Identifier: GPL-2.0
/*
 * The `acl` module: top-level calls and constants, and the submodules
 * `acl.rt` and `acl.util`, each filled from the method tables of the API
 * group files (pyacl.h).  The submodules are also registered in sys.modules
 * so `import acl.rt` and `from acl import rt` work as with pyACL.
 */
#include "pyacl.h"

/* API groups of acl.rt; a new group is one more line here. */
static PyMethodDef *const rt_groups[] = {
	pyacl_rt_device_methods,
	pyacl_rt_memory_methods,
	pyacl_rt_copy_methods,
	pyacl_rt_vmm_methods,
	pyacl_rt_stream_methods,
	pyacl_rt_callback_methods,
	pyacl_rt_stream_ctl_methods,
	pyacl_rt_managed_methods,
	pyacl_rt_host_ipc_methods,
	pyacl_rt_device_info_methods,
	pyacl_rt_event_methods,
	pyacl_rt_notify_methods,
	pyacl_rt_memcpy_desc_methods,
	pyacl_rt_last_error_methods,
	pyacl_rt_exception_info_methods,
	pyacl_rt_allocator_methods,
	pyacl_rt_mem_uce_methods,
};

static struct PyModuleDef acl_def = {
	PyModuleDef_HEAD_INIT, "acl",
	"AscendCL (pyACL spellings) on the npu_sim emulated NPU.", -1,
	NULL, NULL, NULL, NULL, NULL,
};

static struct PyModuleDef rt_def = {
	PyModuleDef_HEAD_INIT, "acl.rt",
	"Runtime: devices, device and host memory, copies.", -1,
	NULL, NULL, NULL, NULL, NULL,
};

static struct PyModuleDef util_def = {
	PyModuleDef_HEAD_INIT, "acl.util",
	"Helpers passing Python buffers to the runtime as host pointers.", -1,
	NULL, NULL, NULL, NULL, NULL,
};

/* Create submodule @def with @tables, attach it to @parent as @name. */
static int add_submodule(PyObject *parent, struct PyModuleDef *def,
			 const char *name, PyMethodDef *const *tables,
			 size_t ntables)
{
	PyObject *sub = PyModule_Create(def);
	PyObject *modules = PyImport_GetModuleDict();

	if (!sub)
		return -1;
	for (size_t i = 0; i < ntables; i++)
		if (PyModule_AddFunctions(sub, tables[i]) < 0)
			goto fail;
	if (PyDict_SetItemString(modules, def->m_name, sub) < 0)
		goto fail;
	/* PyModule_AddObject steals the reference on success */
	if (PyModule_AddObject(parent, name, sub) < 0)
		goto fail;
	return 0;
fail:
	Py_DECREF(sub);
	return -1;
}

PyMODINIT_FUNC PyInit_acl(void)
{
	PyMethodDef *const util_tables[] = { pyacl_util_methods };
	PyObject *m = PyModule_Create(&acl_def);

	if (!m)
		return NULL;
	if (PyModule_AddFunctions(m, pyacl_init_methods) < 0 ||
	    PyModule_AddFunctions(m, pyacl_base_methods) < 0 ||
	    PyModule_AddFunctions(m, pyacl_base_info_methods) < 0 ||
	    pyacl_add_constants(m) < 0 ||
	    add_submodule(m, &rt_def, "rt", rt_groups,
			  sizeof(rt_groups) / sizeof(rt_groups[0])) < 0 ||
	    add_submodule(m, &util_def, "util", util_tables, 1) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
