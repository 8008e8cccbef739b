/* expect: none. r08 with the record queued before the wait. */
#include "race_prog.h"

int main(void)
{
	aclrtEvent ev;

	setup();
	CK(aclrtCreateEvent(&ev));
	CK(aclrtMemsetAsync(dev_a, N, 5, N, s1));
	CK(aclrtRecordEvent(ev, s1));
	CK(aclrtStreamWaitEvent(s2, ev));
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
	CK(aclrtSynchronizeDevice());
	CK(aclrtDestroyEvent(ev));
	teardown();
	return 0;
}
