/*
 * Checks of NPU_SIM_CHECK (docs/checks.md): leak, misuse and uninitialised
 * read reports.  Off unless the environment variable names them; when off
 * every hook below returns at once after one load of npu_rt_check_flags.
 *
 * The check registry's lock is innermost: it is taken under any library
 * lock and nothing is taken inside it.
 */
#ifndef NPU_RT_CHECK_H
#define NPU_RT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "copy_rules.h"
#include "report.h"

#define NPU_RT_CHECK_LEAKS	0x1
#define NPU_RT_CHECK_MISUSE	0x2
#define NPU_RT_CHECK_INIT	0x4
#define NPU_RT_CHECK_RACES	0x8	/* races.h */

/* The byte device memory is filled with at allocation under init checks. */
#define NPU_RT_CHECK_POISON	0xA5

/* The wrapper of every exported call (api_wrap.c): which call, from where
 * (npu_rt_check_flags, npu_rt_check_site: report.h). */
void npu_rt_check_begin(const char *call, void *site);

/* Kinds of tracked objects (reported as leaks when alive at reset/exit). */
enum npu_rt_check_kind {
	NPU_RT_CK_ALLOC = 1,	/* aclrtMalloc family: base = VA */
	NPU_RT_CK_RESERVATION,	/* aclrtReserveMemAddress: base = VA */
	NPU_RT_CK_PHYS,		/* aclrtMallocPhysical: base = handle */
	NPU_RT_CK_EXPORT,	/* aclrtMemExportToShareableHandle: base = key,
				 * parent = the handle */
	NPU_RT_CK_IPC,		/* aclrtIpcMemGetExportKey: base = VA */
	NPU_RT_CK_STREAM,	/* aclrtCreateStream: base = handle */
	NPU_RT_CK_EVENT,	/* aclrtCreateEvent: base = handle */
	NPU_RT_CK_GRAPH,	/* aclmdlRICaptureEnd: base = the aclmdlRI */
};

/* An object of kind was created on dev (call site: the current call's). */
void npu_rt_check_created(enum npu_rt_check_kind kind, int dev, uintptr_t base, uint64_t size);
/* Physical handle was exported as key (the key dies with the handle). */
void npu_rt_check_exported(int dev, uintptr_t handle, uint64_t key);
/* It was destroyed: forgotten (memory goes to the freed history).  Inline
 * test of the flags: it runs on every aclrtFree. */
void npu_rt_check_destroyed_(enum npu_rt_check_kind kind, uintptr_t base);
static inline void npu_rt_check_destroyed(enum npu_rt_check_kind kind, uintptr_t base)
{
	if (__builtin_expect(npu_rt_check_flags != 0, 0))
		npu_rt_check_destroyed_(kind, base);
}
/* Device dev is closing (reset, finalize): report its live objects as
 * leaks (leak checks on), then forget them. */
void npu_rt_check_device_closed(int dev);
/* A fork child: the inherited objects are the parent's, not leaks. */
void npu_rt_check_atfork_prepare(void);
void npu_rt_check_atfork_parent(void);
void npu_rt_check_atfork_child(void);

/* Misuse: the current call is about to fail because of p (a free) or the
 * ranges of a copy; the report is written when the call fails. */
void npu_rt_check_bad_free(uintptr_t p);
/* aclrtFree of p succeeded while queued stream work still used it. */
void npu_rt_check_freed_queued(uintptr_t p, uint32_t queued);
void npu_rt_check_bad_copy(uintptr_t dst, size_t dlen, uintptr_t src, size_t slen);
/* A set-up mistake (module, node, hugepages, capacity): the call's failure
 * is echoed to stderr as a SETUP report when any check is on. */
void npu_rt_check_setup_error(void);

/* Init: [p, p + len) of device memory was written / is being read by a
 * copy to the host or another device (reported if never written). */
void npu_rt_check_wrote(uintptr_t p, size_t len);
void npu_rt_check_read(uintptr_t p, size_t len);
/* Copy c in direction dir (enum npu_sim_copy_dir) was carried out or
 * queued: its device source is read, its device destination written.
 * Inline test of the flag: it runs on every copy. */
void npu_rt_check_copy_(const struct npu_rt_copy *c, uint32_t dir);
static inline void npu_rt_check_copy(const struct npu_rt_copy *c, uint32_t dir)
{
	if (__builtin_expect(npu_rt_check_flags & NPU_RT_CHECK_INIT, 0))
		npu_rt_check_copy_(c, dir);
}
/* Rows of a 2D copy: height rows of width bytes, pitch apart. */
void npu_rt_check_wrote_2d(uintptr_t p, size_t pitch, size_t width, size_t height);
void npu_rt_check_read_2d(uintptr_t p, size_t pitch, size_t width, size_t height);

#endif /* NPU_RT_CHECK_H */
