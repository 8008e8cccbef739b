/*
 * aclrtMemsetD32: set N 32-bit words at ptr to value.  A value whose four
 * bytes are equal is an ordinary aclrtMemset.  Otherwise host memory is
 * written in user space (as aclrtMemset does for host pointers) and device
 * memory gets the pattern through host-to-device copies of a pattern
 * buffer, after the whole range was checked to lie in one live allocation
 * or mapping, so a refused call writes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "range_check.h"

#define PATTERN_CHUNK (1U << 20)	/* bytes of pattern copied per ioctl */

static aclError set_device(void *ptr, size_t memSize, uint32_t value, size_t bytes)
{
	size_t chunk = bytes < PATTERN_CHUNK ? bytes : PATTERN_CHUNK;
	uint32_t *pattern = malloc(chunk);
	aclError err = ACL_SUCCESS;

	if (pattern == NULL) {
		npu_rt_msg_detail("no host memory for a %zu-byte pattern buffer", chunk);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	for (size_t i = 0; i < chunk / 4; i++)
		pattern[i] = value;
	for (size_t off = 0; off < bytes && err == ACL_SUCCESS; off += chunk) {
		size_t n = bytes - off < chunk ? bytes - off : chunk;

		err = aclrtMemcpy((char *)ptr + off, memSize - off, pattern, n, ACL_MEMCPY_HOST_TO_DEVICE);
	}
	free(pattern);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N)
{
	uint8_t b = (uint8_t)value;
	struct npu_rt_loc loc;
	size_t bytes;
	aclError err;
	int dev;

	if (N == 0)
		return ACL_SUCCESS;
	if (ptr == NULL) {
		npu_rt_msg_detail("ptr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (N > SIZE_MAX / 4) {
		npu_rt_msg_detail("N %zu words overflow a byte count", N);
		return ACL_ERROR_INVALID_PARAM;
	}
	bytes = N * 4;
	if (bytes > memSize) {
		npu_rt_msg_detail("N %zu words are %zu bytes, more than memSize %zu", N, bytes, memSize);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (value == (uint32_t)b * 0x01010101U)
		return aclrtMemset(ptr, memSize, b, bytes);

	err = npu_rt_enter_current(&dev);	/* as aclrtMemset: a device is needed */
	if (err != ACL_SUCCESS)
		return err;
	loc = npu_rt_locate_locked(ptr, bytes);
	if (loc.kind == NPU_RT_LOC_HOST) {
		npu_rt_devices_unlock();
		for (size_t i = 0; i < N; i++)
			memcpy((char *)ptr + i * 4, &value, 4);
		return ACL_SUCCESS;
	}
	if (loc.kind != NPU_RT_LOC_DEVICE) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("[ptr, ptr + %zu) straddles host and device addresses", bytes);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_check_live_range_locked(loc.dev, (uintptr_t)ptr, bytes, "ptr");
	npu_rt_devices_unlock();
	return err != ACL_SUCCESS ? err : set_device(ptr, memSize, value, bytes);
}
