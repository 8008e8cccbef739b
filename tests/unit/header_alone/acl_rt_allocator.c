/* Includes only acl/acl_rt_allocator.h: the allocator callback types and
 * the handles they take. */
#include <acl/acl_rt_allocator.h>

static void *alloc_cb(aclrtAllocator allocator, size_t size)
{
	return size ? allocator : NULL;
}

int header_alone(void)
{
	aclrtAllocatorAllocFunc alloc = alloc_cb;
	aclrtAllocatorFreeFunc free_cb = NULL;
	aclrtAllocatorAllocAdviseFunc advise = NULL;
	aclrtAllocatorGetAddrFromBlockFunc addr = NULL;
	aclrtAllocatorDesc desc = NULL;

	return alloc(desc, 0) != NULL || free_cb != NULL || advise != NULL || addr != NULL ? 1 : ACL_SUCCESS;
}
