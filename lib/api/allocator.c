/*
 * User allocators (acl_rt_allocator.h): descriptions and their
 * registration per stream, the CANN ACL layer's registry.  The calls are
 * not wrapped (aclrtAllocatorCreateDesc returns a handle, the others take
 * function pointers the call trace cannot format): each records its own
 * failures, for aclGetRecentErrMsg and aclrtGetLastError.
 *
 * Descriptions are kept in a set of live ones so that a destroyed or
 * made-up description is an error, never a use after free; registrations
 * in a small array searched linearly (one per stream that has one).
 * Nothing here calls the callbacks: no npu_sim call allocates workspace
 * for a stream (include/acl/acl_rt_allocator.h).
 */
#include <pthread.h>
#include <search.h>
#include <stdbool.h>
#include <stdlib.h>

#include "acl_internal.h"
#include "err_msg.h"

struct alloc_desc {
	aclrtAllocator obj;
	aclrtAllocatorAllocFunc alloc;
	aclrtAllocatorFreeFunc free;
	aclrtAllocatorAllocAdviseFunc advise;
	aclrtAllocatorGetAddrFromBlockFunc addr;
};

struct registration {
	aclrtStream stream;
	aclrtAllocatorDesc handle;	/* the description it was made from */
	struct alloc_desc copy;
};

static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;
static void *descs;			/* tsearch root of live struct alloc_desc * */
static struct registration *regs;	/* nregs used of cap */
static size_t nregs, cap;

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* A fork child must not inherit the lock held by a thread it does not have. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&alloc_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&alloc_lock);
}

static void fork_child(void)
{
	pthread_mutex_init(&alloc_lock, NULL);
}

static void register_fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static int ptr_cmp(const void *a, const void *b)
{
	return a < b ? -1 : a > b;
}

static void begin(void)
{
	npu_rt_msg_begin();
	pthread_once(&fork_once, register_fork_handlers);
}

static aclError fail(const char *call, const char *why)
{
	npu_rt_msg_detail("%s", why);
	npu_rt_msg_fail(call, ACL_ERROR_INVALID_PARAM);
	npu_rt_last_error_note(ACL_ERROR_INVALID_PARAM);
	return ACL_ERROR_INVALID_PARAM;
}

/* The live description d, or NULL; alloc_lock held. */
static struct alloc_desc *find_locked(const void *d)
{
	void **node = d != NULL ? tfind(d, &descs, ptr_cmp) : NULL;

	return node != NULL ? *node : NULL;
}

static struct registration *reg_find_locked(aclrtStream stream)
{
	for (size_t i = 0; i < nregs; i++)
		if (regs[i].stream == stream)
			return &regs[i];
	return NULL;
}

ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void)
{
	struct alloc_desc *d = calloc(1, sizeof(*d));
	void *node = NULL;

	begin();
	if (d != NULL) {
		pthread_mutex_lock(&alloc_lock);
		node = tsearch(d, &descs, ptr_cmp);
		pthread_mutex_unlock(&alloc_lock);
	}
	if (node == NULL) {
		free(d);
		npu_rt_msg_detail("no host memory for the allocator description");
		npu_rt_msg_fail("aclrtAllocatorCreateDesc", ACL_ERROR_BAD_ALLOC);
		npu_rt_last_error_note(ACL_ERROR_BAD_ALLOC);
		return NULL;
	}
	return d;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc)
{
	struct alloc_desc *d;

	begin();
	pthread_mutex_lock(&alloc_lock);
	d = find_locked(allocatorDesc);
	if (d != NULL)
		tdelete(d, &descs, ptr_cmp);
	pthread_mutex_unlock(&alloc_lock);
	if (d == NULL)
		return fail("aclrtAllocatorDestroyDesc", allocatorDesc == NULL ? "allocatorDesc is NULL" :
			    "allocatorDesc is not a live allocator description (destroyed already, or never created)");
	free(d);
	return ACL_SUCCESS;
}

/* Which member of a description a setter sets. */
enum field { F_OBJ, F_ALLOC, F_FREE, F_ADVISE, F_ADDR };

static aclError set_field(const char *call, aclrtAllocatorDesc allocatorDesc, enum field f, void *obj,
			  void (*fn)(void))
{
	struct alloc_desc *d;

	begin();
	if (allocatorDesc == NULL)
		return fail(call, "allocatorDesc is NULL");
	if (obj == NULL && fn == NULL)
		return fail(call, f == F_OBJ ? "allocator is NULL" : "func is NULL");
	pthread_mutex_lock(&alloc_lock);
	d = find_locked(allocatorDesc);
	if (d != NULL) {
		switch (f) {
		case F_OBJ:
			d->obj = obj;
			break;
		case F_ALLOC:
			d->alloc = (aclrtAllocatorAllocFunc)fn;
			break;
		case F_FREE:
			d->free = (aclrtAllocatorFreeFunc)fn;
			break;
		case F_ADVISE:
			d->advise = (aclrtAllocatorAllocAdviseFunc)fn;
			break;
		case F_ADDR:
			d->addr = (aclrtAllocatorGetAddrFromBlockFunc)fn;
			break;
		}
	}
	pthread_mutex_unlock(&alloc_lock);
	if (d == NULL)
		return fail(call, "allocatorDesc is not a live allocator description (destroyed already, or never created)");
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator)
{
	return set_field("aclrtAllocatorSetObjToDesc", allocatorDesc, F_OBJ, allocator, NULL);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
							      aclrtAllocatorAllocFunc func)
{
	return set_field("aclrtAllocatorSetAllocFuncToDesc", allocatorDesc, F_ALLOC, NULL, (void (*)(void))func);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
							     aclrtAllocatorFreeFunc func)
{
	return set_field("aclrtAllocatorSetFreeFuncToDesc", allocatorDesc, F_FREE, NULL, (void (*)(void))func);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
								    aclrtAllocatorAllocAdviseFunc func)
{
	return set_field("aclrtAllocatorSetAllocAdviseFuncToDesc", allocatorDesc, F_ADVISE, NULL,
			 (void (*)(void))func);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
									 aclrtAllocatorGetAddrFromBlockFunc func)
{
	return set_field("aclrtAllocatorSetGetAddrFromBlockFuncToDesc", allocatorDesc, F_ADDR, NULL,
			 (void (*)(void))func);
}

/* What of a description Register requires, in the ACL layer's order. */
static const char *incomplete(const struct alloc_desc *d)
{
	return d->obj == NULL ? "allocatorDesc->obj is not set (aclrtAllocatorSetObjToDesc)" :
	       d->alloc == NULL ? "allocatorDesc->allocFunc is not set (aclrtAllocatorSetAllocFuncToDesc)" :
	       d->free == NULL ? "allocatorDesc->freeFunc is not set (aclrtAllocatorSetFreeFuncToDesc)" :
	       d->addr == NULL ? "allocatorDesc->getAddrFromBlockFunc is not set "
				 "(aclrtAllocatorSetGetAddrFromBlockFuncToDesc)" : NULL;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc)
{
	const char *call = "aclrtAllocatorRegister", *why = NULL;
	struct registration *r;
	struct alloc_desc *d;

	begin();
	if (stream == NULL)
		return fail(call, "stream is NULL: an allocator is registered for a stream");
	if (allocatorDesc == NULL)
		return fail(call, "allocatorDesc is NULL");
	pthread_mutex_lock(&alloc_lock);
	d = find_locked(allocatorDesc);
	if (d == NULL)
		why = "allocatorDesc is not a live allocator description (destroyed already, or never created)";
	else
		why = incomplete(d);
	r = why == NULL ? reg_find_locked(stream) : NULL;
	if (why == NULL && r == NULL && nregs == cap) {
		size_t ncap = cap ? cap * 2 : 8;
		struct registration *n = realloc(regs, ncap * sizeof(*n));

		if (n == NULL) {
			pthread_mutex_unlock(&alloc_lock);
			npu_rt_msg_detail("no host memory for the registration");
			npu_rt_msg_fail(call, ACL_ERROR_BAD_ALLOC);
			npu_rt_last_error_note(ACL_ERROR_BAD_ALLOC);
			return ACL_ERROR_BAD_ALLOC;
		}
		regs = n;
		cap = ncap;
	}
	if (why == NULL) {
		if (r == NULL)
			r = &regs[nregs++];
		*r = (struct registration){ .stream = stream, .handle = allocatorDesc, .copy = *d };
	}
	pthread_mutex_unlock(&alloc_lock);
	return why == NULL ? ACL_SUCCESS : fail(call, why);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
						       aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
						       aclrtAllocatorFreeFunc *freeFunc,
						       aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
						       aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc)
{
	const char *call = "aclrtAllocatorGetByStream";
	struct registration r, *found;

	begin();
	if (allocatorDesc == NULL)
		return fail(call, "allocatorDesc is NULL");
	if (stream == NULL)
		return fail(call, "stream is NULL");
	pthread_mutex_lock(&alloc_lock);
	found = reg_find_locked(stream);
	if (found != NULL)
		r = *found;
	pthread_mutex_unlock(&alloc_lock);
	if (found == NULL)
		return fail(call, "the stream is not registered with any allocator (aclrtAllocatorRegister)");
	*allocatorDesc = r.handle;
	if (allocator != NULL)
		*allocator = r.copy.obj;
	if (allocFunc != NULL)
		*allocFunc = r.copy.alloc;
	if (freeFunc != NULL)
		*freeFunc = r.copy.free;
	if (allocAdviseFunc != NULL)
		*allocAdviseFunc = r.copy.advise;
	if (getAddrFromBlockFunc != NULL)
		*getAddrFromBlockFunc = r.copy.addr;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream)
{
	struct registration *r;

	begin();
	if (stream == NULL)
		return fail("aclrtAllocatorUnregister", "stream is NULL");
	pthread_mutex_lock(&alloc_lock);
	r = reg_find_locked(stream);
	if (r != NULL)
		*r = regs[--nregs];	/* order does not matter */
	pthread_mutex_unlock(&alloc_lock);
	return ACL_SUCCESS;
}
