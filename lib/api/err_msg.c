/*
 * aclGetRecentErrMsg and the per-thread message store behind it (see
 * err_msg.h).  As in the CANN runtime, reading returns and clears every
 * message the thread's failing calls left since the last read, newest
 * first, one a line; NULL when there is none.  The returned string stays
 * valid until the thread's next aclGetRecentErrMsg.
 */
#include "err_msg.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define MSG_MAX 4096	/* all pending messages of a thread */
#define DETAIL_MAX 512	/* one call's detail */

/* The thread's texts, on the heap (npu_rt_tbuf_get): a thread that could
 * not get them records no detail and no message. */
struct msg_bufs {
	char detail[DETAIL_MAX];
	char pending[MSG_MAX];
	char returned[MSG_MAX];
};
static struct npu_rt_tbuf msg_tbuf = { .size = sizeof(struct msg_bufs) };
static __thread struct msg_bufs *bufs;
static __thread int have_detail;
static __thread size_t pending_len;

/* ---- per-thread buffers ----------------------------------------------- */

/* Before each buffer: where the thread keeps it, cleared when it is freed. */
union tbuf_head {
	void **slot;
	max_align_t align;
};

static pthread_mutex_t tbuf_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npu_rt_tbuf *tbufs;	/* those with a key, to delete at unload */

/* A key's destructor, on the exiting thread: a later destructor that fails
 * a call gets a new buffer (freed in the next round of destructors). */
static void tbuf_free(void *p)
{
	union tbuf_head *h = p;

	*h->slot = NULL;
	free(h);
}

void *npu_rt_tbuf_new(struct npu_rt_tbuf *t, void **slot)
{
	union tbuf_head *h;

	pthread_mutex_lock(&tbuf_lock);
	if (t->made == 0) {
		t->made = pthread_key_create(&t->key, tbuf_free) == 0 ? 1 : -1;
		if (t->made > 0) {
			t->next = tbufs;
			tbufs = t;
		}
	}
	pthread_mutex_unlock(&tbuf_lock);
	if (t->made < 0)
		return NULL;
	h = calloc(1, sizeof(*h) + t->size);
	if (h == NULL)
		return NULL;
	h->slot = slot;
	if (pthread_setspecific(t->key, h) != 0) {
		free(h);
		return NULL;
	}
	*slot = h + 1;
	return *slot;
}

/* dlclose: no destructor may run in the unmapped library (the buffers of
 * the threads still running are left). */
static __attribute__((destructor)) void tbuf_keys_delete(void)
{
	for (struct npu_rt_tbuf *t = tbufs; t != NULL; t = t->next)
		pthread_key_delete(t->key);
}

static struct msg_bufs *msg_bufs(void)
{
	if (bufs == NULL)
		pending_len = 0;	/* none yet, or they went at the thread's exit */
	return npu_rt_tbuf_get(&msg_tbuf, (void **)&bufs);
}

void (*npu_rt_msg_fail_hook)(const char *line);

struct code_text {
	aclError code;
	const char *name;
	const char *text;	/* said when the call gave no detail */
};

static const struct code_text codes[] = {
	{ 100000, "ACL_ERROR_INVALID_PARAM",
	  "an argument is invalid (NULL pointer, zero or too large size, unknown flags or enum value)" },
	{ 100002, "ACL_ERROR_REPEAT_INITIALIZE", "aclInit was already called" },
	{ 100003, "ACL_ERROR_INVALID_FILE", "the configuration path is not a readable file" },
	{ 100037, "ACL_ERROR_REPEAT_FINALIZE", "not initialized (aclInit not called, or already finalized)" },
	{ 107000, "ACL_ERROR_RT_PARAM_INVALID",
	  "the runtime refused an argument (no live object, allocation or range of this process matches it)" },
	{ 107001, "ACL_ERROR_RT_INVALID_DEVICEID", "no such device" },
	{ 107002, "ACL_ERROR_RT_CONTEXT_NULL",
	  "this thread has no current device (call aclrtSetDevice first; a reset device is gone)" },
	{ 107003, "ACL_ERROR_RT_STREAM_CONTEXT",
	  "the stream is not of the current context, or the stream, event and memory of the call are on different "
	  "devices" },
	{ 107006, "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID", "an event record has not been reached yet (no timestamp)" },
	{ 107007, "ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL", "the end event was recorded before the start event" },
	{ 107016, "ACL_ERROR_RT_INVALID_MEMORY_TYPE", "the memory type is not an aclrtMemAttr" },
	{ 107017, "ACL_ERROR_RT_INVALID_HANDLE", "the handle is not live in this process" },
	{ 107023, "ACL_ERROR_RT_STREAM_ABORT", "aclrtStreamAbort dropped the work this synchronize waited for" },
	{ 200000, "ACL_ERROR_BAD_ALLOC", "out of host memory" },
	{ 200006, "ACL_ERROR_FEATURE_UNSUPPORTED", "the feature is not supported by npu_sim" },
	{ 207000, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT", "not supported by npu_sim" },
	{ 207001, "ACL_ERROR_RT_MEMORY_ALLOCATION", "out of device memory, hugetlb pages or host memory" },
	{ 207002, "ACL_ERROR_RT_MEMORY_FREE", "not the start of a live allocation of this process" },
	{ 207004, "ACL_ERROR_RT_NO_DEVICE", "no npu_sim device (is the module loaded?)" },
	{ 207006, "ACL_ERROR_RT_NO_PERMISSION", "permission denied" },
	{ 207007, "ACL_ERROR_RT_NO_EVENT_RESOURCE", "the event limit of the device is reached" },
	{ 207008, "ACL_ERROR_RT_NO_STREAM_RESOURCE", "the stream limit of the device is reached" },
	{ 207012, "ACL_ERROR_RT_OVER_LIMIT", "a limit was exceeded" },
	{ 507000, "ACL_ERROR_RT_INTERNAL_ERROR", "an event was never recorded" },
	{ 507002, "ACL_ERROR_RT_STREAM_TASK_FULL", "too many operations are queued" },
	{ 507006, "ACL_ERROR_RT_EVENT_NOT_COMPLETE", "an event record has not been reached yet" },
	{ 507007, "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR", "the device is not set in this process (nothing to reset)" },
	{ 507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT", "work was still queued when the timeout expired" },
	{ 507052, "ACL_ERROR_RT_COPY_DATA", "the host memory of a queued copy was gone when it ran" },
	{ 507899, "ACL_ERROR_RT_DRV_INTERNAL_ERROR", "the npu_sim driver failed (or speaks another ABI)" },
	{ 507910, "ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "the host memory is registered already" },
	{ 507911, "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED", "the host memory is not registered" },
};

static const struct code_text *lookup(aclError err)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].code == err)
			return &codes[i];
	return NULL;
}

int npu_rt_msg_details_held;

/* Drop the calling thread's detail, if it holds one. */
static void drop_detail(void)
{
	if (have_detail) {
		have_detail = 0;
		__atomic_fetch_sub(&npu_rt_msg_details_held, 1, __ATOMIC_RELAXED);
	}
}

void npu_rt_msg_forget(void)
{
	drop_detail();
}

void npu_rt_msg_atfork_child(void)
{
	__atomic_store_n(&npu_rt_msg_details_held, have_detail, __ATOMIC_RELAXED);
}

void npu_rt_msg_detail(const char *fmt, ...)
{
	struct msg_bufs *b;
	va_list ap;

	if (have_detail || (b = msg_bufs()) == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(b->detail, sizeof(b->detail), fmt, ap);
	va_end(ap);
	have_detail = 1;
	__atomic_fetch_add(&npu_rt_msg_details_held, 1, __ATOMIC_RELAXED);
}

/* Put line in front of the pending messages, dropping the oldest to fit. */
static void push_front(const char *line, size_t len)
{
	struct msg_bufs *b = msg_bufs();
	char *pending;

	if (b == NULL)
		return;
	pending = b->pending;
	if (len > MSG_MAX - 2)
		len = MSG_MAX - 2;
	while (pending_len > 0 && len + 1 + pending_len > MSG_MAX - 1) {
		char *last = memrchr(pending, '\n', pending_len - 1);

		pending_len = last != NULL ? (size_t)(last - pending) + 1 : 0;
	}
	memmove(pending + len + 1, pending, pending_len);
	memcpy(pending, line, len);
	pending[len] = '\n';
	pending_len += len + 1;
	pending[pending_len] = '\0';
}

void npu_rt_msg_fail(const char *call, aclError err)
{
	const struct code_text *c = lookup(err);
	char line[DETAIL_MAX + 160];
	int n;

	n = snprintf(line, sizeof(line), "%s: %s (error %d %s)", call,
		     have_detail && bufs != NULL ? bufs->detail : c != NULL ? c->text : "failed", err,
		     c != NULL ? c->name : "of the runtime");
	drop_detail();
	if (n > 0)
		push_front(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	if (npu_rt_msg_fail_hook != NULL)
		npu_rt_msg_fail_hook(line);
}

ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void)
{
	if (pending_len == 0 || bufs == NULL)
		return NULL;
	/* one message a line, without a trailing newline */
	memcpy(bufs->returned, bufs->pending, pending_len - 1);
	bufs->returned[pending_len - 1] = '\0';
	pending_len = 0;
	bufs->pending[0] = '\0';
	return bufs->returned;
}
