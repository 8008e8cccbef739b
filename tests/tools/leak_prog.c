/*
 * A program that leaks one device allocation on purpose: aclInit ->
 * aclrtSetDevice(0) -> aclrtMalloc(LEAK_SIZE) in leak_buffer() -> exit
 * without aclrtFree, aclrtResetDevice or aclFinalize.
 * tests/tools/test-npu-sim runs it under 'tools/npu-sim run --check' and
 * expects the library's leak report (naming leak_buffer) and exit status 86.
 * Exit status 0 when every call succeeded, 1 otherwise.
 */
#include <stdio.h>

#include "acl/acl.h"

#define LEAK_SIZE 12288u	/* 3 pages: easy to tell from other sizes */

/* noinline: the report names this function as the allocation's call site */
static __attribute__((noinline)) void *leak_buffer(size_t size)
{
	void *p = NULL;
	aclError rc = aclrtMalloc(&p, size, ACL_MEM_MALLOC_NORMAL_ONLY);

	if (rc != ACL_SUCCESS) {
		fprintf(stderr, "aclrtMalloc(%zu) failed: %d\n", size, rc);
		return NULL;
	}
	return p;
}

int main(void)
{
	aclError rc = aclInit(NULL);

	if (rc != ACL_SUCCESS || (rc = aclrtSetDevice(0)) != ACL_SUCCESS) {
		fprintf(stderr, "set-up failed: %d\n", rc);
		return 1;
	}
	if (leak_buffer(LEAK_SIZE) == NULL)
		return 1;
	printf("leak_prog: %u bytes allocated and not freed\n", LEAK_SIZE);
	return 0;
}
