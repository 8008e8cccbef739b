/*
 * npu_sim example: a buffer copied around a ring of 4 devices with peer
 * access, 0 -> 1 -> 2 -> 3 -> 0, as pipeline stages or a ring all-reduce
 * pass data on.  Public headers (include/acl/acl.h) and libacl_rt only.
 *
 *   aclInit -> aclrtGetDeviceCount (>= 4) -> per device: aclrtSetDevice,
 *   aclrtMalloc -> aclrtDeviceCanAccessPeer -> per hop d -> d+1:
 *   aclrtDeviceEnablePeerAccess from the receiving device, then
 *   aclrtMemcpy D2D issued on it -> the last hop back to device 0 async
 *   on a stream -> verify at every stop -> print the per-pair counters of
 *   /sys/kernel/debug/npu_sim/peer_copies -> free -> aclFinalize.
 *
 * Exit status 0 when every check passed, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define RING 4
#define SIZE ((4u << 20) + 12345u)

#define CHECK_ACL(call)                                                                      \
	do {                                                                                 \
		aclError e_ = (call);                                                        \
		if (e_ != ACL_SUCCESS) {                                                     \
			fprintf(stderr, "FAIL: %s returned %d (line %d): %s\n", #call, e_,   \
				__LINE__, aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");  \
			exit(1);                                                             \
		}                                                                            \
	} while (0)

/* Read device buffer dev back and compare it with want. */
static void verify(const void *dev, const unsigned char *want, unsigned char *back, int stop)
{
	memset(back, 0, SIZE);
	CHECK_ACL(aclrtMemcpy(back, SIZE, dev, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
	if (memcmp(back, want, SIZE) != 0) {
		fprintf(stderr, "FAIL: data differs on device %d\n", stop);
		exit(1);
	}
	printf("[INFO]  device %d holds the buffer (%u bytes)\n", stop, SIZE);
}

int main(void)
{
	unsigned char *want = malloc(SIZE), *back = malloc(SIZE);
	void *buf[RING];
	uint32_t count = 0;
	aclrtStream stream = NULL;
	char line[128];
	FILE *f;

	if (!want || !back)
		return 1;
	for (uint32_t i = 0; i < SIZE; i++)
		want[i] = (unsigned char)(i * 131u + (i >> 9));

	CHECK_ACL(aclInit(NULL));
	CHECK_ACL(aclrtGetDeviceCount(&count));
	if (count < RING) {
		fprintf(stderr, "FAIL: %u devices, the ring needs %d (load with num_devices=4)\n", count, RING);
		return 1;
	}
	for (int d = 0; d < RING; d++) {
		int32_t can = 0;

		CHECK_ACL(aclrtSetDevice(d));
		CHECK_ACL(aclrtMalloc(&buf[d], SIZE, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
		CHECK_ACL(aclrtDeviceCanAccessPeer(&can, d, (d + RING - 1) % RING));
		if (!can) {
			fprintf(stderr, "FAIL: device %d cannot access device %d\n", d, (d + RING - 1) % RING);
			return 1;
		}
	}

	CHECK_ACL(aclrtMemcpy(buf[0], SIZE, want, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
	verify(buf[0], want, back, 0);
	for (int hop = 0; hop < RING; hop++) {
		int from = hop, to = (hop + 1) % RING;

		/* the receiving device pulls from its predecessor */
		CHECK_ACL(aclrtSetDevice(to));
		CHECK_ACL(aclrtDeviceEnablePeerAccess(from, 0));
		if (to == 0) {
			CHECK_ACL(aclrtMemset(buf[0], SIZE, 0, SIZE));
			CHECK_ACL(aclrtCreateStream(&stream));
			CHECK_ACL(aclrtMemcpyAsync(buf[to], SIZE, buf[from], SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE,
						   stream));
			CHECK_ACL(aclrtSynchronizeStream(stream));
			CHECK_ACL(aclrtDestroyStream(stream));
		} else {
			CHECK_ACL(aclrtMemcpy(buf[to], SIZE, buf[from], SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE));
		}
		verify(buf[to], want, back, to);
	}

	printf("[INFO]  copies between devices (/sys/kernel/debug/npu_sim/peer_copies):\n");
	f = fopen("/sys/kernel/debug/npu_sim/peer_copies", "r");
	if (!f) {
		fprintf(stderr, "FAIL: cannot read peer_copies (debugfs mounted? root?)\n");
		return 1;
	}
	while (fgets(line, sizeof(line), f))
		printf("[INFO]    %s", line);
	fclose(f);

	for (int d = 0; d < RING; d++)
		CHECK_ACL(aclrtFree(buf[d]));
	CHECK_ACL(aclFinalize());
	free(want);
	free(back);
	printf("[INFO]  peer ring: ok\n");
	return 0;
}
