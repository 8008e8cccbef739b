/*
 * Exception callbacks: aclrtSetExceptionInfoCallback,
 * aclrtExceptionInfoCallbackRegister / aclrtExceptionInfoCallbackUnregister,
 * and their calls when an asynchronous task fails.
 *
 * The library learns that a task failed when a synchronize reports the
 * stream's error (the driver keeps the first failure of each stream until
 * a synchronize reports it): aclrtSynchronizeStream(WithTimeout) and
 * aclrtSynchronizeDevice(WithTimeout) returning a task failure code
 * (npu_rt_exception_note, called by the exported wrappers).  Each callback
 * is then called once, in the thread that synchronized, with the device,
 * the stream's id (the driver's stream id; 0xFFFFFFFF when a device-wide
 * synchronize reported it or the stream is gone), that thread's id and
 * the code.  As in the runtime, aclrtSetExceptionInfoCallback holds one
 * callback (the ACL module's: a new one replaces it, NULL removes it) and
 * the Register calls any number (one entry per function).  Callbacks run
 * with no library lock held.  The lock of this file is only ever held
 * alone.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "exception_info.h"

static pthread_mutex_t exc_lock = PTHREAD_MUTEX_INITIALIZER;
static aclrtExceptionInfoCallback module_cb;	/* aclrtSetExceptionInfoCallback's */
static aclrtExceptionInfoCallback *cbs;		/* the registered ones */
static size_t cbs_n;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void)
{
	pthread_mutex_lock(&exc_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&exc_lock);
}

static void fork_child(void)
{
	pthread_mutex_init(&exc_lock, NULL);
}

static void register_fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static void lock(void)
{
	pthread_once(&fork_once, register_fork_handlers);
	pthread_mutex_lock(&exc_lock);
}

ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback)
{
	lock();
	module_cb = callback;
	pthread_mutex_unlock(&exc_lock);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback)
{
	aclrtExceptionInfoCallback *n;
	aclError err = ACL_SUCCESS;
	size_t i;

	if (callback == NULL) {
		npu_rt_msg_detail("callback is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	lock();
	for (i = 0; i < cbs_n && cbs[i] != callback; i++)
		;
	if (i == cbs_n) {	/* registered again: still one entry */
		n = realloc(cbs, (cbs_n + 1) * sizeof(*cbs));
		if (n == NULL) {
			err = ACL_ERROR_RT_MEMORY_ALLOCATION;
		} else {
			cbs = n;
			cbs[cbs_n++] = callback;
		}
	}
	pthread_mutex_unlock(&exc_lock);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback)
{
	if (callback == NULL) {
		npu_rt_msg_detail("callback is NULL");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	lock();
	for (size_t i = 0; i < cbs_n; i++) {
		if (cbs[i] == callback) {
			memmove(&cbs[i], &cbs[i + 1], (cbs_n - i - 1) * sizeof(*cbs));
			cbs_n--;
			break;
		}
	}
	pthread_mutex_unlock(&exc_lock);
	return ACL_SUCCESS;
}

static bool is_sync(const char *call)
{
	return strcmp(call, "aclrtSynchronizeStream") == 0 || strcmp(call, "aclrtSynchronizeStreamWithTimeout") == 0 ||
	       strcmp(call, "aclrtSynchronizeDevice") == 0 || strcmp(call, "aclrtSynchronizeDeviceWithTimeout") == 0;
}

/* Codes a stream's failed task is reported with (stream.c npu_rt_async_error). */
static bool task_failure(aclError err)
{
	return err == ACL_ERROR_RT_COPY_DATA || err == ACL_ERROR_RT_DRV_INTERNAL_ERROR;
}

void npu_rt_exception_note(const char *call, aclError err, const void *stream)
{
	struct rtExceptionInfo info = { .taskid = NPU_RT_INVALID_EXCEPTION_INFO,
					.streamid = NPU_RT_INVALID_EXCEPTION_INFO,
					.tid = (uint32_t)syscall(SYS_gettid), .retcode = (uint32_t)err };
	aclrtExceptionInfoCallback *copy, module;
	struct npu_rt_obj o;
	int32_t dev = -1;
	size_t n;

	if (!task_failure(err) || !is_sync(call))
		return;
	if (stream != NULL && npu_rt_obj_get(stream, NPU_RT_OBJ_STREAM, &o) == 0) {
		info.streamid = o.kid;
		dev = o.dev;
	} else if (aclrtGetDevice(&dev) != ACL_SUCCESS) {
		dev = -1;
	}
	info.deviceid = dev < 0 ? NPU_RT_INVALID_EXCEPTION_INFO : (uint32_t)dev;
	lock();
	module = module_cb;
	n = cbs_n;
	copy = n != 0 ? malloc(n * sizeof(*copy)) : NULL;
	if (copy != NULL)
		memcpy(copy, cbs, n * sizeof(*copy));
	pthread_mutex_unlock(&exc_lock);
	if (n != 0 && copy == NULL)
		n = 0;	/* no memory for the copy: the module's callback only */
	if (module != NULL)
		module(&info);
	for (size_t i = 0; copy != NULL && i < n; i++)
		copy[i](&info);
	free(copy);
}
