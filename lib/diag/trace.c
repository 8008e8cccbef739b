/*
 * The call trace's file and the frame of each line (trace.h,
 * docs/tracing.md).
 *
 * NPU_SIM_TRACE=FILE is read once, when the library is loaded.  The first
 * process of a run truncates FILE and puts NPU_SIM_TRACE_OWNER=<its pid> in
 * its environment; its forked children (which share the descriptor) and the
 * programs it or they execute (which open FILE again) append to the same
 * FILE.  Every line is written with one write(2) on an O_APPEND descriptor,
 * so lines of threads and processes never interleave, and each line carries
 * its pid and tid.  No lock is taken: tracing is safe across fork.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "acl_internal.h"
#include "trace.h"

int npu_rt_trace_fd = -1;
static unsigned long long seq;	/* calls started in this process tree */

__attribute__((constructor)) static void trace_open(void)
{
	const char *path = getenv("NPU_SIM_TRACE");
	int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
	char pid[24];
	int fd;

	if (path == NULL || path[0] == '\0')
		return;
	if (getenv("NPU_SIM_TRACE_OWNER") == NULL) {
		flags |= O_TRUNC;
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		setenv("NPU_SIM_TRACE_OWNER", pid, 0);
	}
	fd = open(path, flags, 0644);
	if (fd < 0) {
		fprintf(stderr, "libacl_rt: NPU_SIM_TRACE=%s: %s: no call trace\n", path, strerror(errno));
		return;
	}
	npu_rt_trace_fd = fd;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void npu_rt_trace_begin(struct npu_rt_tr *t, const char *call)
{
	char head[160];

	npu_rt_tr_init(t);
	snprintf(head, sizeof(head), "{\"seq\":%llu,\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{",
		 __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED), (int)getpid(),
		 (int)syscall(SYS_gettid), call);
	npu_rt_tr_raw(t, head, 0);
	t->first = 1;
}

void npu_rt_trace_call(struct npu_rt_tr *t)
{
	t->t0 = now_ns();
}

void npu_rt_trace_result(struct npu_rt_tr *t, aclError err)
{
	char res[32];

	t->t1 = now_ns();
	npu_rt_tr_close(t);
	snprintf(res, sizeof(res), ",\"result\":%d", err);
	npu_rt_tr_raw(t, res, 0);
	npu_rt_tr_open(t, "out");
}

void npu_rt_trace_end(struct npu_rt_tr *t, int has_stream, const void *stream)
{
	char tail[NPU_RT_TR_TAIL];
	int dev, n;
	ssize_t w;

	/* the thread's current device once the call returned (-1: none) */
	if (npu_rt_enter_current(&dev) == ACL_SUCCESS)
		npu_rt_devices_unlock();
	else
		dev = -1;
	npu_rt_tr_close(t);
	n = snprintf(tail, sizeof(tail), ",\"ts\":%llu,\"dur\":%llu,\"device\":%d",
		     (unsigned long long)t->t0, (unsigned long long)(t->t1 - t->t0), dev);
	if (has_stream && stream == NULL)
		n += snprintf(tail + n, sizeof(tail) - n, ",\"stream\":null");
	else if (has_stream)
		n += snprintf(tail + n, sizeof(tail) - n, ",\"stream\":\"0x%llx\"",
			      (unsigned long long)(uintptr_t)stream);
	if (t->truncated)
		n += snprintf(tail + n, sizeof(tail) - n, ",\"truncated\":true");
	snprintf(tail + n, sizeof(tail) - n, "}\n");
	npu_rt_tr_raw(t, tail, 0);
	do {
		w = write(npu_rt_trace_fd, t->buf, t->len);
	} while (w < 0 && errno == EINTR);
}
