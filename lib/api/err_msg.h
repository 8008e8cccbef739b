/*
 * The calling thread's error messages for aclGetRecentErrMsg.
 *
 * Every exported call that returns aclError goes through a wrapper
 * (api_wrap.c) that starts the thread's call and, when the call fails,
 * records one message: "<call>: <detail> (error <code> <NAME>)".  The
 * detail is what the failing code said through npu_rt_msg_detail(), else a
 * description of the code.  Messages pile up, newest first, until
 * aclGetRecentErrMsg reads and clears them.
 */
#ifndef NPU_RT_ERR_MSG_H
#define NPU_RT_ERR_MSG_H

#include <pthread.h>
#include <stddef.h>

#include "acl/acl_base.h"

/*
 * Threads holding a detail not yet used by a failing call's message.  Only
 * the thread itself sets or clears its own detail, and counts it here, so
 * a thread reading 0 holds none: npu_rt_msg_begin then needs no access to
 * its thread-local state (one load instead of two per call).
 */
extern int npu_rt_msg_details_held;
void npu_rt_msg_forget(void);
/* Fork child: only the forking thread's detail is left to count. */
void npu_rt_msg_atfork_child(void);
/* A call starts: forget any detail a previous call left. */
static inline void npu_rt_msg_begin(void)
{
	if (__builtin_expect(__atomic_load_n(&npu_rt_msg_details_held, __ATOMIC_RELAXED) != 0, 0))
		npu_rt_msg_forget();
}
/* Why the current call is failing: which argument or which limit.  The
 * first detail of a call wins (the innermost check knows best). */
void npu_rt_msg_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The call failed with err: record its message (with the detail, if any). */
void npu_rt_msg_fail(const char *call, aclError err);
/* Called with each recorded message when set (the NPU_SIM_CHECK reports,
 * check.c): a pointer so this file links alone in the unit tests. */
extern void (*npu_rt_msg_fail_hook)(const char *line);

/*
 * A per-thread buffer of size bytes, zeroed, made at the thread's first
 * need and freed when the thread exits.  The library's thread-local block
 * holds only small fields, so the shared library can use the initial-exec
 * TLS model (a %fs-relative load, no __tls_get_addr call) and still be
 * dlopen'ed (glibc places such a library in the surplus of its static TLS,
 * a few hundred bytes: lib/lib.mk); the big texts live here instead.
 */
struct npu_rt_tbuf {
	size_t size;
	int made;		/* key made (1), could not be (-1) */
	pthread_key_t key;	/* frees a thread's buffer at its exit */
	struct npu_rt_tbuf *next;
};
/* Make the calling thread's buffer of t, kept in *slot (a __thread
 * pointer); NULL when there is no memory or key for it. */
void *npu_rt_tbuf_new(struct npu_rt_tbuf *t, void **slot);
static inline void *npu_rt_tbuf_get(struct npu_rt_tbuf *t, void **slot)
{
	return *slot != NULL ? *slot : npu_rt_tbuf_new(t, slot);
}

#endif /* NPU_RT_ERR_MSG_H */
