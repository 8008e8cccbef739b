/* expect: USE-AFTER-FREE. A copy is queued on stream 2 from a pool block already freed on stream 1. */
#include "race_prog.h"

int main(void)
{
	aclrtMemPool pool;
	void *p;

	setup();
	pool = pool_new();
	CK(aclrtMemPoolMallocAsync(&p, N, pool, s1));
	CK(aclrtMemsetAsync(p, N, 7, N, s1));
	CK(aclrtMemPoolFreeAsync(p, s1)); /* A */
	CK(aclrtMemcpyAsync(dev_b, N, p, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2)); /* B */
	CK(aclrtSynchronizeDevice());
	CK(aclrtMemPoolDestroy(pool));
	teardown();
	return 0;
}
