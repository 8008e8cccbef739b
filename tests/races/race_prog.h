/*
 * Shared set-up of the race catalogue programs (tests/races/README.md):
 * device 0, two streams, two device buffers and one pinned host buffer of
 * N bytes.  A failing call ends the program with exit status 2.
 */
#ifndef RACE_PROG_H
#define RACE_PROG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"

#define CK(x)                                                                                   \
	do {                                                                                    \
		aclError e_ = (x);                                                              \
		if (e_ != ACL_SUCCESS) {                                                        \
			fprintf(stderr, "%s:%d: %s: error %d\n", __FILE__, __LINE__, #x, (int)e_); \
			exit(2);                                                                \
		}                                                                               \
	} while (0)

#define N 4096

static aclrtStream s1, s2;
static void *dev_a, *dev_b, *host;

static void setup(void)
{
	CK(aclInit(NULL));
	CK(aclrtSetDevice(0));
	CK(aclrtCreateStream(&s1));
	CK(aclrtCreateStream(&s2));
	CK(aclrtMalloc(&dev_a, N, ACL_MEM_MALLOC_HUGE_FIRST));
	CK(aclrtMalloc(&dev_b, N, ACL_MEM_MALLOC_HUGE_FIRST));
	CK(aclrtMallocHost(&host, N));
	memset(host, 1, N);
}

/* Everything done, then released (in that order: no finding here). */
static void teardown(void)
{
	CK(aclrtSynchronizeDevice());
	if (host != NULL)
		CK(aclrtFreeHost(host));
	if (dev_a != NULL)
		CK(aclrtFree(dev_a));
	if (dev_b != NULL)
		CK(aclrtFree(dev_b));
	CK(aclrtDestroyStream(s1));
	CK(aclrtDestroyStream(s2));
	CK(aclrtResetDevice(0));
	CK(aclFinalize());
}

/* A pool of device 0 (the stream-ordered pool programs). */
static inline aclrtMemPool pool_new(void)
{
	aclrtMemPoolProps p;
	aclrtMemPool pool;

	memset(&p, 0, sizeof(p));
	p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	p.maxSize = 0;
	CK(aclrtMemPoolCreate(&pool, &p));
	return pool;
}

#endif /* RACE_PROG_H */
