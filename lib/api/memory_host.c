/*
 * Host memory: aclrtMallocHost / aclrtFreeHost, and at the end their
 * variants aclrtMallocHostWithCfg / aclrtFreeHostWithDevSync (registered
 * host memory: host_register.c).
 *
 * Pinned host memory is an anonymous private mapping (page aligned, hence
 * 64-byte aligned), locked with mlock when RLIMIT_MEMLOCK allows (best
 * effort: an unprivileged process keeps working).  Every live block is kept
 * in a registry (a binary tree, O(log n)) so that aclrtFreeHost of a pointer
 * that is not a live block is an error, never a crash.  A fork child keeps
 * its (copied) blocks and may free them.
 */
#include <errno.h>
#include <pthread.h>
#include <search.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl_internal.h"
#include "races.h"
#include "err_msg.h"
#include "policy.h"

struct host_block {
	uintptr_t start;
	size_t len;		/* mapped bytes (size rounded up to a page) */
};

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static void *host_blocks;	/* tsearch root of struct host_block */

static int block_cmp(const void *a, const void *b)
{
	uintptr_t x = ((const struct host_block *)a)->start, y = ((const struct host_block *)b)->start;

	return x < y ? -1 : x > y;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct host_block *b;
	void *p, **node;
	size_t len;
	aclError err;
	int dev;

	if (hostPtr == NULL || size == 0)
		return ACL_ERROR_INVALID_PARAM;
	if (size > SIZE_MAX - (page - 1))
		return ACL_ERROR_INVALID_PARAM;
	/* The runtime allocates host memory for the current context's device. */
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	len = (size + page - 1) / page * page;

	b = malloc(sizeof(*b));
	if (b == NULL)
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		free(b);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	(void)mlock(p, len);	/* pinning is best effort */
	b->start = (uintptr_t)p;
	b->len = len;

	pthread_mutex_lock(&host_lock);
	node = tsearch(b, &host_blocks, block_cmp);
	pthread_mutex_unlock(&host_lock);
	if (node == NULL) {
		munmap(p, len);
		free(b);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	npu_rt_races_region_add(p, size, NPU_RT_RR_PINNED, -1);
	*hostPtr = p;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr)
{
	struct host_block key = { .start = (uintptr_t)hostPtr, .len = 0 }, *b = NULL;
	void **node;

	if (hostPtr == NULL)
		return ACL_ERROR_INVALID_PARAM;

	pthread_mutex_lock(&host_lock);
	node = tfind(&key, &host_blocks, block_cmp);
	if (node != NULL) {
		b = *node;
		tdelete(&key, &host_blocks, block_cmp);
	}
	pthread_mutex_unlock(&host_lock);
	if (b == NULL) {
		npu_rt_msg_detail("hostPtr is not the start of a live aclrtMallocHost block");
		return ACL_ERROR_RT_PARAM_INVALID;	/* what the driver answers */
	}

	npu_rt_races_region_free(b->start);	/* unordered queued work: USE-AFTER-FREE */
	munmap((void *)b->start, b->len);
	free(b);
	return ACL_SUCCESS;
}

void npu_rt_host_atfork_prepare(void)
{
	pthread_mutex_lock(&host_lock);
}

void npu_rt_host_atfork_parent(void)
{
	pthread_mutex_unlock(&host_lock);
}

void npu_rt_host_atfork_child(void)
{
	pthread_mutex_init(&host_lock, NULL);
}

/* ---- lookup by address (aclrtPointerGetAttributes, GetAddressRange) ---- */

struct host_find {
	uintptr_t p;
	const struct host_block *hit;
};

static void host_find_visit(const void *node, VISIT which, void *closure)
{
	const struct host_block *b = *(const struct host_block *const *)node;
	struct host_find *f = closure;

	if ((which == postorder || which == leaf) && f->p >= b->start && f->p - b->start < b->len)
		f->hit = b;
}

int npu_rt_host_find(uintptr_t p, uintptr_t *base, size_t *len)
{
	struct host_find f = { .p = p, .hit = NULL };
	int found = 0;

	pthread_mutex_lock(&host_lock);
	twalk_r(host_blocks, host_find_visit, &f);
	if (f.hit != NULL) {
		*base = f.hit->start;
		*len = f.hit->len;
		found = 1;
	}
	pthread_mutex_unlock(&host_lock);
	return found;
}

/*
 * Variants of the host calls that npu_sim serves with the plain ones:
 * aclrtMallocHostWithCfg (aclrtMallocHost with the attribute list checked)
 * and aclrtFreeHostWithDevSync (wait for the device, then aclrtFreeHost).
 */

ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
	if (ptr == NULL || size == 0) {
		npu_rt_msg_detail(ptr == NULL ? "ptr is NULL" : "size is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	/* The runtime reads cfg before it looks for the current context. */
	if (npu_rt_parse_host_cfg(cfg) != ACL_SUCCESS) {
		npu_rt_msg_detail("cfg has attrs NULL or an attribute other than MODULE_ID and VA_FLAG");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (size > SIZE_MAX) {
		npu_rt_msg_detail("size %llu does not fit in size_t", (unsigned long long)size);
		return ACL_ERROR_INVALID_PARAM;
	}
	return aclrtMallocHost(ptr, (size_t)size);
}

/*
 * Waits for all queued work of the current device, then frees; as in the
 * runtime a failed synchronize is returned and the block stays allocated.
 */
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
	aclError err;

	if (hostPtr == NULL) {
		npu_rt_msg_detail("hostPtr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_device_sync(0);
	if (err != ACL_SUCCESS)
		return err;
	return aclrtFreeHost(hostPtr);
}
