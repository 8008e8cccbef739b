/*
 * Copies described in device memory: aclrtGetMemcpyDescSize,
 * aclrtSetMemcpyDesc, aclrtMemcpyAsyncWithDesc, and
 * aclrtMemcpyAsyncWithOffset (whose operands are device words holding
 * the addresses).  The copy itself is an ordinary D2D OP_COPY queued on the
 * stream (aclrtMemcpyAsync).
 *
 * A descriptor is the SDMA task's address record, written into device
 * memory by aclrtSetMemcpyDesc with a synchronous host-to-device copy (as
 * the runtime does): 32 bytes (rtMemcpyAddrInfo: three reserved words, the
 * 32-bit length, source, destination) on the A2/A3-class and 310B chips,
 * 64 bytes (four reserved 64-bit words, source, destination, the 32-bit
 * length, three reserved words) on the Ascend 950.  The device reads the
 * descriptor, or the address words of aclrtMemcpyAsyncWithOffset, when it
 * runs the task; npu_sim reads them at the call (a descriptor rewritten by
 * work still queued before the copy is not seen).
 *
 * Checks and codes: the CANN ACL layer's, then the runtime's
 * (docs/cann-api-notes.md section 8).  Which chips have the calls: those
 * whose runtime properties say "stars" (all but the Atlas training series
 * and the Atlas inference series) for the descriptor calls; those with the
 * D2D-by-offset task (Ascend 950, A3, A2, Atlas training) for
 * aclrtMemcpyAsyncWithOffset.
 */
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "profile.h"

#define KIND_MAX 8			/* RT_MEMCPY_KIND_MAX */
#define D2D_MAX (4ULL << 30)		/* MAX_MEMCPY_SIZE_OF_D2D */
#define OFFSET_MAX 0xFFFFFFFFFFFFULL	/* 48-bit offsets of the task */

struct desc_v1 {			/* rtMemcpyAddrInfo */
	uint32_t resv[3];
	uint32_t len;
	uint64_t src;
	uint64_t dst;
};

struct desc_v2 {			/* the Ascend 950's record */
	uint64_t resv0[4];
	uint64_t src;
	uint64_t dst;
	uint32_t len;
	uint32_t resv1[3];
};

_Static_assert(sizeof(struct desc_v1) == 32, "memcpy descriptor v1");
_Static_assert(sizeof(struct desc_v2) == 64, "memcpy descriptor v2");

static bool is_950(const struct npu_sim_profile *p)
{
	return strcmp(p->id, "ascend950") == 0;
}

/* The chip has the descriptor calls (the runtime's isStars). */
static bool has_stars(const struct npu_sim_profile *p)
{
	return strcmp(p->id, "atlas-training") != 0 && strcmp(p->id, "atlas-inference") != 0;
}

static size_t desc_size(const struct npu_sim_profile *p)
{
	return is_950(p) ? sizeof(struct desc_v2) : sizeof(struct desc_v1);
}

/* The runtime's two checks of the descriptor calls: 207000 or success. */
static aclError desc_rt_check(const struct npu_sim_profile *p, aclrtMemcpyKind kind)
{
	if (!has_stars(p)) {
		npu_rt_msg_detail("%s has no memcpy descriptors", p->product);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) {
		npu_rt_msg_detail("kind %d: only ACL_MEMCPY_INNER_DEVICE_TO_DEVICE (6) is supported", (int)kind);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	return ACL_SUCCESS;
}

static bool kind_ok(aclrtMemcpyKind kind)
{
	return (uint32_t)kind < KIND_MAX;
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize)
{
	const struct npu_sim_profile *p;
	uint64_t index;
	aclError err;

	if (descSize == NULL || !kind_ok(kind)) {
		npu_rt_msg_detail(descSize == NULL ? "descSize is NULL" : "kind %d is not an aclrtMemcpyKind (0..7)",
				  (int)kind);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (npu_rt_ask_any_device(NPU_SIM_PARAM_PROFILE, &index) != 0 || (p = npu_rt_profile_get(index)) == NULL) {
		npu_rt_msg_detail("no npu_sim device to ask for its chip");
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
	err = desc_rt_check(p, kind);
	if (err == ACL_SUCCESS)
		*descSize = desc_size(p);
	return err;
}

/* Where p lies: its device, or -1 for host memory (table lock held). */
static int device_of_locked(const void *p)
{
	struct npu_rt_loc loc = npu_rt_locate_locked(p, 1);

	return loc.kind == NPU_RT_LOC_DEVICE ? loc.dev : -1;
}

ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr,
						size_t count, void *config)
{
	const struct npu_sim_profile *p;
	struct desc_v1 d1;
	struct desc_v2 d2;
	int dev, ddev, sdev, tdev;
	aclError err;

	if (desc == NULL || !kind_ok(kind) || srcAddr == NULL || dstAddr == NULL || count == 0 ||
	    config != NULL) {
		npu_rt_msg_detail(desc == NULL ? "desc is NULL" : !kind_ok(kind) ? "kind is not an aclrtMemcpyKind" :
				  srcAddr == NULL ? "srcAddr is NULL" : dstAddr == NULL ? "dstAddr is NULL" :
				  count == 0 ? "count is 0" : "config must be NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	p = npu_rt_device_profile_locked(dev);
	err = desc_rt_check(p, kind);
	if (err == ACL_SUCCESS && count > D2D_MAX) {
		npu_rt_msg_detail("count %zu is above 4 GiB", count);
		err = ACL_ERROR_RT_PARAM_INVALID;
	}
	if (err == ACL_SUCCESS && ((uintptr_t)desc % 64) != 0) {
		npu_rt_msg_detail("desc %p is not 64-byte aligned", desc);
		err = ACL_ERROR_RT_PARAM_INVALID;
	}
	ddev = device_of_locked(desc);
	tdev = device_of_locked(dstAddr);
	sdev = device_of_locked(srcAddr);
	if (err == ACL_SUCCESS && ddev < 0) {
		npu_rt_msg_detail("desc %p is not device memory", desc);
		err = ACL_ERROR_RT_PARAM_INVALID;
	}
	if (err == ACL_SUCCESS && (tdev < 0 || sdev < 0 || tdev != sdev)) {
		npu_rt_msg_detail("dstAddr and srcAddr must be device memory of one device");
		err = ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_devices_unlock();
	if (err != ACL_SUCCESS)
		return err;
	if (is_950(p)) {
		memset(&d2, 0, sizeof(d2));
		d2.len = (uint32_t)count;
		d2.src = (uintptr_t)srcAddr;
		d2.dst = (uintptr_t)dstAddr;
		return aclrtMemcpy(desc, sizeof(d2), &d2, sizeof(d2), ACL_MEMCPY_HOST_TO_DEVICE);
	}
	memset(&d1, 0, sizeof(d1));
	d1.len = (uint32_t)count;
	d1.src = (uintptr_t)srcAddr;
	d1.dst = (uintptr_t)dstAddr;
	return aclrtMemcpy(desc, sizeof(d1), &d1, sizeof(d1), ACL_MEMCPY_HOST_TO_DEVICE);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream)
{
	const struct npu_sim_profile *p;
	struct npu_rt_ref ref;
	struct desc_v1 d1;
	struct desc_v2 d2;
	uint64_t src, dst;
	uint32_t len;
	aclError err;
	bool v2;

	if (desc == NULL || !kind_ok(kind) || stream == NULL) {
		npu_rt_msg_detail(desc == NULL ? "desc is NULL" : stream == NULL ? "stream is NULL" :
				  "kind is not an aclrtMemcpyKind");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	p = npu_rt_device_profile_locked(ref.dev);
	v2 = is_950(p);
	err = desc_rt_check(p, kind);
	if (err == ACL_SUCCESS && device_of_locked(desc) < 0) {
		npu_rt_msg_detail("desc %p is not device memory", desc);
		err = ACL_ERROR_RT_PARAM_INVALID;
	}
	if (err == ACL_SUCCESS && ((uintptr_t)desc % 64) != 0) {
		npu_rt_msg_detail("desc %p is not 64-byte aligned", desc);
		err = ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_devices_unlock();
	if (err != ACL_SUCCESS)
		return err;
	err = v2 ? aclrtMemcpy(&d2, sizeof(d2), desc, sizeof(d2), ACL_MEMCPY_DEVICE_TO_HOST) :
		   aclrtMemcpy(&d1, sizeof(d1), desc, sizeof(d1), ACL_MEMCPY_DEVICE_TO_HOST);
	if (err != ACL_SUCCESS) {
		npu_rt_msg_detail("desc %p is not device memory holding a descriptor", desc);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	src = v2 ? d2.src : d1.src;
	dst = v2 ? d2.dst : d1.dst;
	len = v2 ? d2.len : d1.len;
	if (len == 0 || src == 0 || dst == 0) {
		npu_rt_msg_detail("desc %p was not filled by aclrtSetMemcpyDesc", desc);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return aclrtMemcpyAsync((void *)(uintptr_t)dst, len, (const void *)(uintptr_t)src, len,
				ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
}

/* The chip has the D2D-by-offset task. */
static bool has_offset_copy(const struct npu_sim_profile *p)
{
	return strcmp(p->id, "atlas-inference") != 0 && strcmp(p->id, "atlas-200i-500-a2") != 0;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
							const void **src, size_t count, size_t srcDataOffset,
							aclrtMemcpyKind kind, aclrtStream stream)
{
	const struct npu_sim_profile *p;
	struct npu_rt_ref ref;
	uint64_t dbase = 0, sbase = 0;
	aclError err;

	if (count == 0)
		return ACL_SUCCESS;	/* the ACL layer's early return */
	if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) {
		npu_rt_msg_detail("kind %d: must be ACL_MEMCPY_INNER_DEVICE_TO_DEVICE (6)", (int)kind);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_stream_enter(stream, &ref);
	if (err != ACL_SUCCESS)
		return err;
	p = npu_rt_device_profile_locked(ref.dev);
	npu_rt_devices_unlock();
	if (!has_offset_copy(p)) {
		npu_rt_msg_detail("%s has no copy by offset", p->product);
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	if (dst == NULL || src == NULL || count > destMax || count > D2D_MAX || srcDataOffset > OFFSET_MAX ||
	    dstDataOffset > OFFSET_MAX || dstDataOffset >= destMax || count > destMax - dstDataOffset) {
		npu_rt_msg_detail(dst == NULL ? "dst is NULL" : src == NULL ? "src is NULL" :
				  count > destMax ? "count is above destMax" : count > D2D_MAX ? "count is above 4 GiB" :
				  srcDataOffset > OFFSET_MAX || dstDataOffset > OFFSET_MAX ?
				  "an offset is above 0xFFFFFFFFFFFF" : dstDataOffset >= destMax ?
				  "dstDataOffset is not below destMax" : "count is above destMax - dstDataOffset");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	/* The task reads the two address words from device memory. */
	if (aclrtMemcpy(&dbase, sizeof(dbase), dst, sizeof(dbase), ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS ||
	    aclrtMemcpy(&sbase, sizeof(sbase), src, sizeof(sbase), ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
		npu_rt_msg_detail("dst and src must be device words holding the addresses");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return aclrtMemcpyAsync((void *)(uintptr_t)(dbase + dstDataOffset), destMax - dstDataOffset,
				(const void *)(uintptr_t)(sbase + srcDataOffset), count, ACL_MEMCPY_DEVICE_TO_DEVICE,
				stream);
}
