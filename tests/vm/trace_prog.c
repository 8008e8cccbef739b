// SPDX-License-Identifier: GPL-2.0
/*
 * The known program of the call trace tests (tests/vm/test_trace.c): run
 * with NPU_SIM_TRACE set, it makes a fixed sequence of calls, then forks a
 * child that makes one more (its line goes to the same file); one call is
 * made from a second thread, which has no current device.  It prints
 * the values the trace must show:
 *   host=0x.. dev=0x.. stream=0x.. free1=N total=N free2=N child=PID
 * Exit 0 when every call returned what the sequence expects, else the
 * number of the step that did not.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>

#define MiB (1024UL * 1024)
#define TiB (1024UL * 1024 * MiB)

static unsigned char host[4096];

/* A new thread has no current device: aclrtGetMemInfo fails with 107002. */
static void *no_device(void *arg)
{
	size_t f, t;

	*(aclError *)arg = aclrtGetMemInfo(ACL_HBM_MEM, &f, &t);
	return NULL;
}

int main(void)
{
	void *dev = NULL, *big = NULL;
	aclrtStream s = NULL;
	size_t free1 = 0, free2 = 0, total = 0, total2 = 0;
	uint32_t count = 0;
	aclError thread_err = ACL_SUCCESS;
	pthread_t th;
	int status;
	pid_t child;

	memset(host, 0x5a, sizeof(host));
	if (aclrtSetDevice(0) != ACL_SUCCESS)
		return 1;
	if (aclrtMalloc(&dev, 1 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
		return 2;
	if (aclrtMemcpy(dev, 1 * MiB, host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
		return 3;
	if (aclrtCreateStream(&s) != ACL_SUCCESS)
		return 4;
	if (aclrtMemcpyAsync((char *)dev + 4096, 4096, host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE, s) !=
	    ACL_SUCCESS)
		return 5;
	if (aclrtSynchronizeStream(s) != ACL_SUCCESS)
		return 6;
	if (aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total) != ACL_SUCCESS)
		return 7;
	if (pthread_create(&th, NULL, no_device, &thread_err) != 0 || pthread_join(th, NULL) != 0 ||
	    thread_err != ACL_ERROR_RT_CONTEXT_NULL)
		return 16;
	/* the failing calls: more than the device holds, a double free */
	if (aclrtMalloc(&big, 1 * TiB, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_ERROR_RT_MEMORY_ALLOCATION)
		return 8;
	if (aclrtDestroyStream(s) != ACL_SUCCESS)
		return 9;
	if (aclrtFree(dev) != ACL_SUCCESS)
		return 10;
	if (aclrtFree(dev) != ACL_ERROR_RT_PARAM_INVALID)
		return 11;
	if (aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total2) != ACL_SUCCESS || total2 != total)
		return 12;
	if (aclrtResetDevice(0) != ACL_SUCCESS)
		return 13;

	fflush(stdout);
	child = fork();
	if (child < 0)
		return 14;
	if (child == 0)
		_exit(aclrtGetDeviceCount(&count) == ACL_SUCCESS ? 0 : 1);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 15;
	printf("host=%p dev=%p stream=%p free1=%zu total=%zu free2=%zu child=%d\n", (void *)host, dev, s,
	       free1, total, free2, (int)child);
	return 0;
}
