/*
 * npu_sim example: asynchronous copies on a stream, in the style of the
 * vendor's AscendCL memory sample.  Public headers (include/acl/acl.h) and
 * libacl_rt only.
 *
 *   aclInit -> aclrtSetDevice(0) -> aclrtCreateContext -> aclrtCreateStream
 *   -> aclrtMallocHost (pinned) + aclrtMalloc -> aclrtMemcpyAsync H2D ->
 *   aclrtMemsetAsync of the second half -> event recorded -> aclrtMemcpyAsync
 *   D2H -> aclrtSynchronizeStream -> verify -> aclrtEventElapsedTime ->
 *   free, destroy event, stream, context -> aclrtResetDevice -> aclFinalize.
 *
 * Exit status 0 when every check passed, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define SIZE (16u << 20)

#define CHECK_ACL(call)                                                                      \
	do {                                                                                 \
		aclError e_ = (call);                                                        \
		if (e_ != ACL_SUCCESS) {                                                     \
			fprintf(stderr, "FAIL: %s returned %d (line %d)\n", #call, e_, __LINE__); \
			exit(1);                                                             \
		}                                                                            \
	} while (0)

int main(void)
{
	aclrtContext context = NULL;
	aclrtStream stream = NULL;
	aclrtEvent start = NULL, end = NULL;
	unsigned char *host_in = NULL, *host_out = NULL;
	void *dev = NULL;
	aclrtStreamStatus status;
	float ms = 0;
	size_t i, bad = 0;

	CHECK_ACL(aclInit(NULL));
	CHECK_ACL(aclrtSetDevice(0));
	CHECK_ACL(aclrtCreateContext(&context, 0));
	CHECK_ACL(aclrtCreateStream(&stream));
	CHECK_ACL(aclrtCreateEvent(&start));
	CHECK_ACL(aclrtCreateEvent(&end));

	CHECK_ACL(aclrtMallocHost((void **)&host_in, SIZE));
	CHECK_ACL(aclrtMallocHost((void **)&host_out, SIZE));
	CHECK_ACL(aclrtMalloc(&dev, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	for (i = 0; i < SIZE; i++)
		host_in[i] = (unsigned char)(i % 251);
	memset(host_out, 0, SIZE);

	/* queue everything, then wait once */
	CHECK_ACL(aclrtRecordEvent(start, stream));
	CHECK_ACL(aclrtMemcpyAsync(dev, SIZE, host_in, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream));
	CHECK_ACL(aclrtMemsetAsync((char *)dev + SIZE / 2, SIZE / 2, 0x5a, SIZE / 2, stream));
	CHECK_ACL(aclrtMemcpyAsync(host_out, SIZE, dev, SIZE, ACL_MEMCPY_DEVICE_TO_HOST, stream));
	CHECK_ACL(aclrtRecordEvent(end, stream));
	CHECK_ACL(aclrtStreamQuery(stream, &status));
	printf("queued H2D, memset, D2H of %u bytes; stream %s\n", SIZE,
	       status == ACL_STREAM_STATUS_COMPLETE ? "already complete" : "still busy");
	CHECK_ACL(aclrtSynchronizeStream(stream));

	for (i = 0; i < SIZE; i++) {
		unsigned char want = i < SIZE / 2 ? (unsigned char)(i % 251) : 0x5a;

		if (host_out[i] != want)
			bad++;
	}
	CHECK_ACL(aclrtEventElapsedTime(&ms, start, end));
	printf("verified after aclrtSynchronizeStream: %zu bad bytes; %.3f ms on the stream\n", bad, ms);

	CHECK_ACL(aclrtFree(dev));
	CHECK_ACL(aclrtFreeHost(host_in));
	CHECK_ACL(aclrtFreeHost(host_out));
	CHECK_ACL(aclrtDestroyEvent(start));
	CHECK_ACL(aclrtDestroyEvent(end));
	CHECK_ACL(aclrtDestroyStream(stream));
	CHECK_ACL(aclrtDestroyContext(context));
	CHECK_ACL(aclrtResetDevice(0));
	CHECK_ACL(aclFinalize());
	if (bad) {
		printf("async sample: FAILED\n");
		return 1;
	}
	printf("async sample: ok\n");
	return 0;
}
