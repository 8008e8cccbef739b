/* expect: USE-AFTER-FREE. A pool block freed on stream 1 while stream 2 still reads it, unordered. */
#include "race_prog.h"

int main(void)
{
	aclrtMemPool pool;
	aclrtEvent ev;
	void *p;

	setup();
	pool = pool_new();
	CK(aclrtCreateEvent(&ev));
	CK(aclrtMemPoolMallocAsync(&p, N, pool, s1));
	CK(aclrtMemsetAsync(p, N, 7, N, s1));
	CK(aclrtRecordEvent(ev, s1));
	CK(aclrtStreamWaitEvent(s2, ev));
	CK(aclrtMemcpyAsync(dev_b, N, p, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2)); /* A */
	CK(aclrtMemPoolFreeAsync(p, s1)); /* B */
	CK(aclrtSynchronizeDevice());
	CK(aclrtDestroyEvent(ev));
	CK(aclrtMemPoolDestroy(pool));
	teardown();
	return 0;
}
