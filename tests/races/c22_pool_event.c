/* expect: none. r16 with an event between the two streams. */
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
	CK(aclrtMemcpyAsync(dev_b, N, p, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
	CK(aclrtRecordEvent(ev, s2));
	CK(aclrtStreamWaitEvent(s1, ev));
	CK(aclrtMemPoolFreeAsync(p, s1));
	CK(aclrtSynchronizeDevice());
	CK(aclrtDestroyEvent(ev));
	CK(aclrtMemPoolDestroy(pool));
	teardown();
	return 0;
}
