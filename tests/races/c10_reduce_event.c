/* expect: none. r10 with an event between the reduce and the read. */
#include "race_prog.h"

int main(void)
{
	aclrtEvent ev;

	setup();
	CK(aclrtCreateEvent(&ev));
	CK(aclrtMemset(dev_a, N, 0, N));
	CK(aclrtMemset(dev_b, N, 0, N));
	CK(aclrtReduceAsync(dev_a, dev_b, N, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s1, NULL));
	CK(aclrtRecordEvent(ev, s1));
	CK(aclrtStreamWaitEvent(s2, ev));
	CK(aclrtMemcpyAsync(host, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST, s2));
	CK(aclrtSynchronizeDevice());
	CK(aclrtDestroyEvent(ev));
	teardown();
	return 0;
}
