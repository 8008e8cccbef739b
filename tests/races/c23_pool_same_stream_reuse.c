/* expect: none. A pool block freed and allocated again on the same stream: stream order makes the reuse safe. */
#include "race_prog.h"

int main(void)
{
	aclrtMemPool pool;
	void *p, *q;

	setup();
	pool = pool_new();
	CK(aclrtMemPoolMallocAsync(&p, N, pool, s1));
	CK(aclrtMemsetAsync(p, N, 7, N, s1));
	CK(aclrtMemPoolFreeAsync(p, s1));
	CK(aclrtMemPoolMallocAsync(&q, N, pool, s1));
	CK(aclrtMemsetAsync(q, N, 9, N, s1));
	CK(aclrtMemcpyAsync(dev_b, N, q, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	CK(aclrtMemPoolFreeAsync(q, s1));
	CK(aclrtSynchronizeDevice());
	if (p != q)
		exit(3);	/* the pool reuses the block on its stream */
	CK(aclrtMemPoolDestroy(pool));
	teardown();
	return 0;
}
