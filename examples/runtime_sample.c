/*
 * npu_sim example in the shape of the vendor's runtime samples: public
 * headers (acl/acl.h) and libacl_rt only, nothing npu_sim-specific.
 *
 *   aclInit -> aclrtSetDevice -> aclrtCreateContext -> aclrtCreateStream
 *   -> aclrtMallocHost + aclrtMalloc -> aclrtMemcpyAsync H2D -> D2D ->
 *   aclrtMemcpyAsync D2H -> aclrtSynchronizeStream -> verify
 *   -> one aclDataBuffer reused for sub-buffers of odd sizes, each set
 *   through the buffer's address and size and read back
 *   -> free -> aclrtDestroyStreamForce -> aclrtDestroyContext
 *   -> aclrtResetDeviceForce -> aclFinalize.
 *
 * Every call is checked the way ggml's ACL_CHECK does: on failure the
 * code and aclGetRecentErrMsg() are printed.  Exit status 0 when every
 * check passed, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) fprintf(stderr, "[ERROR] " fmt "\n", ##__VA_ARGS__)

#define CHECK_ACL(call)                                                                        \
	do {                                                                                   \
		aclError ret_ = (call);                                                        \
		if (ret_ != ACL_SUCCESS) {                                                     \
			const char *msg_ = aclGetRecentErrMsg();                               \
			ERROR_LOG("%s failed: %d (line %d): %s", #call, ret_, __LINE__,       \
				  msg_ != NULL ? msg_ : "(no message)");                       \
			exit(1);                                                               \
		}                                                                              \
	} while (0)

#define DEVICE_ID 0
#define SIZE (8u << 20)

static const size_t odd_sizes[] = { 1, 3, 7, 4095, 4097, 65537, 1048573 };

static size_t count_bad(const unsigned char *p, size_t n, unsigned char want)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		bad += p[i] != want;
	return bad;
}

int main(void)
{
	aclrtContext context = NULL;
	aclrtStream stream = NULL;
	aclDataBuffer *buffer = NULL;
	unsigned char *host_in = NULL, *host_out = NULL;
	void *dev_a = NULL, *dev_b = NULL;
	size_t bad = 0;
	int32_t major, minor, patch;

	CHECK_ACL(aclInit(NULL));
	CHECK_ACL(aclrtGetVersion(&major, &minor, &patch));
	INFO_LOG("AscendCL API %d.%d.%d", major, minor, patch);
	CHECK_ACL(aclrtSetDevice(DEVICE_ID));
	CHECK_ACL(aclrtCreateContext(&context, DEVICE_ID));
	CHECK_ACL(aclrtCreateStream(&stream));

	CHECK_ACL(aclrtMallocHost((void **)&host_in, SIZE));
	CHECK_ACL(aclrtMallocHost((void **)&host_out, SIZE));
	CHECK_ACL(aclrtMalloc(&dev_a, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL(aclrtMalloc(&dev_b, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	for (size_t i = 0; i < SIZE; i++)
		host_in[i] = (unsigned char)(i * 7 + 3);
	memset(host_out, 0, SIZE);

	CHECK_ACL(aclrtMemcpyAsync(dev_a, SIZE, host_in, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream));
	CHECK_ACL(aclrtMemcpyAsync(dev_b, SIZE, dev_a, SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
	CHECK_ACL(aclrtMemcpyAsync(host_out, SIZE, dev_b, SIZE, ACL_MEMCPY_DEVICE_TO_HOST, stream));
	CHECK_ACL(aclrtSynchronizeStream(stream));
	for (size_t i = 0; i < SIZE; i++)
		bad += host_out[i] != host_in[i];
	INFO_LOG("round trip of %u bytes through two device buffers: %zu bad bytes", SIZE, bad);

	/* one descriptor, reused for sub-buffers of odd sizes at odd offsets */
	buffer = aclCreateDataBuffer(NULL, 0);
	if (buffer == NULL) {
		ERROR_LOG("aclCreateDataBuffer failed: %s", aclGetRecentErrMsg());
		return 1;
	}
	for (size_t k = 0; k < sizeof(odd_sizes) / sizeof(odd_sizes[0]); k++) {
		unsigned char value = (unsigned char)(0x41 + k);
		size_t offset = 3 * k + 1, n;
		void *addr;

		CHECK_ACL(aclUpdateDataBuffer(buffer, (char *)dev_b + offset, odd_sizes[k]));
		addr = aclGetDataBufferAddr(buffer);
		n = aclGetDataBufferSizeV2(buffer);
		CHECK_ACL(aclrtMemsetAsync(addr, n, value, n, stream));
		CHECK_ACL(aclrtMemcpyAsync(host_out, SIZE, addr, n, ACL_MEMCPY_DEVICE_TO_HOST, stream));
		CHECK_ACL(aclrtSynchronizeStream(stream));
		bad += count_bad(host_out, n, value);
		/* the byte after the sub-buffer is the round trip's, untouched */
		CHECK_ACL(aclrtMemcpy(host_out, 1, (char *)addr + n, 1, ACL_MEMCPY_DEVICE_TO_HOST));
		bad += host_out[0] != host_in[offset + n];
		INFO_LOG("data buffer %zu bytes at offset %zu set to 0x%02x", n, offset, value);
	}
	CHECK_ACL(aclDestroyDataBuffer(buffer));

	CHECK_ACL(aclrtFree(dev_a));
	CHECK_ACL(aclrtFree(dev_b));
	CHECK_ACL(aclrtFreeHost(host_in));
	CHECK_ACL(aclrtFreeHost(host_out));
	CHECK_ACL(aclrtDestroyStreamForce(stream));
	CHECK_ACL(aclrtDestroyContext(context));
	CHECK_ACL(aclrtResetDeviceForce(DEVICE_ID));
	CHECK_ACL(aclFinalize());
	if (bad != 0) {
		ERROR_LOG("runtime sample: FAILED, %zu bad bytes", bad);
		return 1;
	}
	INFO_LOG("runtime sample: ok");
	return 0;
}
