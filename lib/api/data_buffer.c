/*
 * Data buffers (acl_base.h): aclCreateDataBuffer, aclDestroyDataBuffer,
 * aclUpdateDataBuffer, aclGetDataBufferAddr, aclGetDataBufferSize(V2).
 *
 * An aclDataBuffer only describes memory the caller owns (address and
 * size in bytes); nothing is allocated or freed behind it.  Live buffers
 * are kept in a registry so that a destroyed or made-up buffer is an error
 * (or NULL / 0 from the getters), never a use after free.
 */
#include <pthread.h>
#include <search.h>
#include <stdbool.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "err_msg.h"

struct aclDataBuffer {
	void *data;
	size_t size;
};

static pthread_mutex_t buffers_lock = PTHREAD_MUTEX_INITIALIZER;
static void *buffers;	/* tsearch root of live struct aclDataBuffer * */

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* A fork child must not inherit the lock held by a thread it does not have. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&buffers_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&buffers_lock);
}

static void fork_child(void)
{
	pthread_mutex_init(&buffers_lock, NULL);
}

static void register_fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static int ptr_cmp(const void *a, const void *b)
{
	return a < b ? -1 : a > b;
}

static void fail(const char *call, const char *why)
{
	npu_rt_msg_detail("%s", why);
	npu_rt_msg_fail(call, ACL_ERROR_INVALID_PARAM);
}

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
	aclDataBuffer *b = malloc(sizeof(*b));
	void *node = NULL;

	npu_rt_msg_begin();
	pthread_once(&fork_once, register_fork_handlers);
	if (b != NULL) {
		b->data = data;
		b->size = size;
		pthread_mutex_lock(&buffers_lock);
		node = tsearch(b, &buffers, ptr_cmp);
		pthread_mutex_unlock(&buffers_lock);
	}
	if (node == NULL) {
		free(b);
		npu_rt_msg_detail("no host memory for the buffer descriptor");
		npu_rt_msg_fail("aclCreateDataBuffer", ACL_ERROR_BAD_ALLOC);
		return NULL;
	}
	return b;
}

/* The live buffer b, or NULL; buffers_lock held. */
static aclDataBuffer *find_locked(const aclDataBuffer *b)
{
	void **node = tfind(b, &buffers, ptr_cmp);

	return node != NULL ? *node : NULL;
}

/* Destroy, or point elsewhere, the live descriptor dataBuffer, as call. */
static aclError edit_buffer(const char *call, const aclDataBuffer *dataBuffer, bool destroy, void *data,
			    size_t size)
{
	aclDataBuffer *b = NULL;

	npu_rt_msg_begin();
	if (dataBuffer != NULL) {
		pthread_mutex_lock(&buffers_lock);
		b = find_locked(dataBuffer);
		if (b != NULL && destroy) {
			tdelete(b, &buffers, ptr_cmp);
		} else if (b != NULL) {
			b->data = data;
			b->size = size;
		}
		pthread_mutex_unlock(&buffers_lock);
	}
	if (b == NULL) {
		fail(call, dataBuffer == NULL ? "dataBuffer is NULL" :
			   "dataBuffer is not a live data buffer (destroyed already, or never created)");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (destroy)
		free(b);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
	return edit_buffer("aclDestroyDataBuffer", dataBuffer, true, NULL, 0);
}

ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size)
{
	return edit_buffer("aclUpdateDataBuffer", dataBuffer, false, data, size);
}

/* Address and size of a live buffer; 0 when dataBuffer is not one. */
static int read_buffer(const aclDataBuffer *dataBuffer, void **data, size_t *size)
{
	aclDataBuffer *b;

	if (dataBuffer == NULL)
		return 0;
	pthread_mutex_lock(&buffers_lock);
	b = find_locked(dataBuffer);
	if (b != NULL) {
		*data = b->data;
		*size = b->size;
	}
	pthread_mutex_unlock(&buffers_lock);
	return b != NULL;
}

ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
	void *data = NULL;
	size_t size = 0;

	return read_buffer(dataBuffer, &data, &size) ? data : NULL;
}

ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)
{
	void *data = NULL;
	size_t size = 0;

	/* the deprecated 32-bit form truncates, as in CANN */
	return read_buffer(dataBuffer, &data, &size) ? (uint32_t)size : 0;
}

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
	void *data = NULL;
	size_t size = 0;

	return read_buffer(dataBuffer, &data, &size) ? size : 0;
}
