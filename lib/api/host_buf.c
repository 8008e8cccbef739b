/*
 * Host buffers (aclrtMbuf): aclrtAllocBuf / aclrtFreeBuf, the data area
 * (aclrtGetBufData, aclrtGet/SetBufDataLen), the user data area
 * (aclrtGet/SetBufUserData), references (aclrtCopyBufRef) and chains
 * (aclrtAppendBufChain, aclrtGetBufChainNum, aclrtGetBufFromChain).
 *
 * A buffer is host memory of this process: a data area of the size asked
 * for, a data length (bytes of it in use, 0 at first) and a 96-byte user
 * data area.  aclrtCopyBufRef makes a second handle on the same memory
 * (each handle has its own data length, user data and chain, as a new
 * buffer head does); the memory is freed with its last handle.  A handle
 * heads a chain of the handles appended to it; a handle is in at most one
 * chain.  Handles are checked against the set of live ones, so a freed or
 * made-up handle is an error, never a crash.  The lock of this file is a
 * leaf: nothing is taken under it.
 */
#include <pthread.h>
#include <search.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "host_buf.h"

struct buf_mem {
	size_t size;
	uint32_t refs;		/* handles on this memory */
	unsigned char data[];
};

struct buf {
	struct buf_mem *mem;
	size_t data_len;
	unsigned char user[NPU_RT_BUF_USER_SIZE];
	struct buf *next;	/* next in its chain */
	struct buf *head;	/* the chain's head (itself when it heads one) */
};

static pthread_mutex_t bufs_lock = PTHREAD_MUTEX_INITIALIZER;
static void *bufs;		/* tsearch root of live struct buf * */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void)
{
	pthread_mutex_lock(&bufs_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&bufs_lock);
}

/* Buffers are host memory: the child has copies of them, still usable. */
static void fork_child(void)
{
	pthread_mutex_init(&bufs_lock, NULL);
}

static void register_fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static void lock(void)
{
	pthread_once(&fork_once, register_fork_handlers);
	pthread_mutex_lock(&bufs_lock);
}

static void unlock(void)
{
	pthread_mutex_unlock(&bufs_lock);
}

static int ptr_cmp(const void *a, const void *b)
{
	return a < b ? -1 : a > b;
}

/* The live buffer h names, or NULL (and the message).  Lock held. */
static struct buf *find(const void *h, const char *what)
{
	void **n = h == NULL ? NULL : tfind(h, &bufs, ptr_cmp);

	if (n == NULL) {
		npu_rt_msg_detail("%s %p is not a live buffer of aclrtAllocBuf / aclrtCopyBufRef", what, h);
		return NULL;
	}
	return *n;
}

static aclError null_arg(const char *what)
{
	npu_rt_msg_detail("%s is NULL", what);
	return ACL_ERROR_INVALID_PARAM;
}

/* A new handle on mem (its reference taken by the caller); lock held. */
static struct buf *new_handle(struct buf_mem *mem)
{
	struct buf *b = calloc(1, sizeof(*b));

	if (b == NULL)
		return NULL;
	b->mem = mem;
	b->head = b;
	if (tsearch(b, &bufs, ptr_cmp) == NULL) {
		free(b);
		return NULL;
	}
	return b;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocBuf(aclrtMbuf *buf, size_t size)
{
	struct buf_mem *mem;
	struct buf *b;

	if (buf == NULL)
		return null_arg("buf");
	if (size == 0) {
		npu_rt_msg_detail("size is 0");
		return ACL_ERROR_INVALID_PARAM;
	}
	mem = size > SIZE_MAX - sizeof(*mem) ? NULL : malloc(sizeof(*mem) + size);
	if (mem == NULL) {
		npu_rt_msg_detail("no host memory for a buffer of %zu bytes", size);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	mem->size = size;
	mem->refs = 1;
	lock();
	b = new_handle(mem);
	unlock();
	if (b == NULL) {
		free(mem);
		npu_rt_msg_detail("no host memory for the buffer handle");
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	*buf = b;
	return ACL_SUCCESS;
}

/* Take b out of its chain (lock held): a head leaves its chain headless,
 * each member becoming its own head again. */
static void unchain(struct buf *b)
{
	struct buf *p;

	if (b->head == b) {
		for (p = b->next; p != NULL;) {
			struct buf *n = p->next;

			p->head = p;
			p->next = NULL;
			p = n;
		}
	} else {
		for (p = b->head; p->next != b; p = p->next)
			;
		p->next = b->next;
	}
	b->next = NULL;
	b->head = b;
}

ACL_FUNC_VISIBILITY aclError aclrtFreeBuf(aclrtMbuf buf)
{
	struct buf *b;

	if (buf == NULL)
		return null_arg("buf");
	lock();
	b = find(buf, "buf");
	if (b == NULL) {
		unlock();
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	unchain(b);
	tdelete(b, &bufs, ptr_cmp);
	if (--b->mem->refs == 0)
		free(b->mem);
	unlock();
	free(b);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufData(const aclrtMbuf buf, void **dataPtr, size_t *size)
{
	struct buf *b;

	if (buf == NULL || dataPtr == NULL || size == NULL)
		return null_arg(buf == NULL ? "buf" : dataPtr == NULL ? "dataPtr" : "size");
	lock();
	b = find(buf, "buf");
	if (b != NULL) {
		*dataPtr = b->mem->data;
		*size = b->mem->size;
	}
	unlock();
	return b != NULL ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t *len)
{
	struct buf *b;

	if (buf == NULL || len == NULL)
		return null_arg(buf == NULL ? "buf" : "len");
	lock();
	b = find(buf, "buf");
	if (b != NULL)
		*len = b->data_len;
	unlock();
	return b != NULL ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len)
{
	aclError err = ACL_ERROR_RT_PARAM_INVALID;
	struct buf *b;

	if (buf == NULL)
		return null_arg("buf");
	lock();
	b = find(buf, "buf");
	if (b != NULL && len > b->mem->size) {
		npu_rt_msg_detail("len %zu is more than the buffer's %zu bytes", len, b->mem->size);
	} else if (b != NULL) {
		b->data_len = len;
		err = ACL_SUCCESS;
	}
	unlock();
	return err;
}

/* The ACL layer's checks of a user data access, in its order. */
static aclError user_args(const void *buf, const void *dataPtr, size_t size, size_t offset)
{
	if (npu_rt_buf_user_range_bad(size, offset)) {
		npu_rt_msg_detail("size %zu + offset %zu is more than the %d-byte user data area", size, offset,
				  NPU_RT_BUF_USER_SIZE);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (buf == NULL || dataPtr == NULL)
		return null_arg(buf == NULL ? "buf" : "dataPtr");
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufUserData(const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset)
{
	aclError err = user_args(buf, dataPtr, size, offset);
	struct buf *b;

	if (err != ACL_SUCCESS)
		return err;
	lock();
	b = find(buf, "buf");
	if (b != NULL)
		memcpy(dataPtr, b->user + offset, size);
	unlock();
	return b != NULL ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtSetBufUserData(aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset)
{
	aclError err = user_args(buf, dataPtr, size, offset);
	struct buf *b;

	if (err != ACL_SUCCESS)
		return err;
	lock();
	b = find(buf, "buf");
	if (b != NULL)
		memcpy(b->user + offset, dataPtr, size);
	unlock();
	return b != NULL ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf *newBuf)
{
	aclError err = ACL_ERROR_RT_PARAM_INVALID;
	struct buf *b, *n;

	if (buf == NULL || newBuf == NULL)
		return null_arg(buf == NULL ? "buf" : "newBuf");
	lock();
	b = find(buf, "buf");
	if (b != NULL && b->mem->refs == UINT32_MAX) {
		npu_rt_msg_detail("the buffer has %u references already", b->mem->refs);
		err = ACL_ERROR_RT_OVER_LIMIT;
	} else if (b != NULL) {
		n = new_handle(b->mem);
		if (n == NULL) {
			npu_rt_msg_detail("no host memory for the buffer handle");
			err = ACL_ERROR_RT_MEMORY_ALLOCATION;
		} else {
			b->mem->refs++;
			n->data_len = b->data_len;
			memcpy(n->user, b->user, sizeof(n->user));
			*newBuf = n;
			err = ACL_SUCCESS;
		}
	}
	unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf)
{
	aclError err = ACL_ERROR_RT_PARAM_INVALID;
	struct buf *h, *b, *p;

	if (headBuf == NULL || buf == NULL)
		return null_arg(headBuf == NULL ? "headBuf" : "buf");
	lock();
	h = find(headBuf, "headBuf");
	b = h != NULL ? find(buf, "buf") : NULL;
	if (b == NULL) {
		;
	} else if (h->head != h) {
		npu_rt_msg_detail("headBuf is in the chain of another buffer, not a chain's head");
	} else if (b == h || b->head != b || b->next != NULL) {
		npu_rt_msg_detail("buf is %s", b == h ? "headBuf itself" : "in a chain already");
	} else {
		for (p = h; p->next != NULL; p = p->next)
			;
		p->next = b;
		b->head = h;
		err = ACL_SUCCESS;
	}
	unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t *num)
{
	aclError err = ACL_ERROR_RT_PARAM_INVALID;
	struct buf *h;
	uint32_t n = 0;

	if (headBuf == NULL || num == NULL)
		return null_arg(headBuf == NULL ? "headBuf" : "num");
	lock();
	h = find(headBuf, "headBuf");
	if (h != NULL && h->head != h) {
		npu_rt_msg_detail("headBuf is in the chain of another buffer, not a chain's head");
	} else if (h != NULL) {
		for (struct buf *p = h; p != NULL; p = p->next)
			n++;
		*num = n;
		err = ACL_SUCCESS;
	}
	unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf *buf)
{
	aclError err = ACL_ERROR_RT_PARAM_INVALID;
	struct buf *h, *p = NULL;
	uint32_t i = 0;

	if (headBuf == NULL || buf == NULL)
		return null_arg(headBuf == NULL ? "headBuf" : "buf");
	lock();
	h = find(headBuf, "headBuf");
	if (h != NULL && h->head != h) {
		npu_rt_msg_detail("headBuf is in the chain of another buffer, not a chain's head");
	} else if (h != NULL) {
		for (p = h; p != NULL && i < index; p = p->next)
			i++;
		if (p == NULL) {
			npu_rt_msg_detail("index %u is past the chain's %u buffers", index, i);
		} else {
			*buf = p;
			err = ACL_SUCCESS;
		}
	}
	unlock();
	return err;
}
