/* expect: RACE. Stream 2 waits for an event of unrelated work, not the one after the write. */
#include "race_prog.h"

int main(void)
{
	aclrtEvent e1, e2;

	setup();
	CK(aclrtCreateEvent(&e1));
	CK(aclrtCreateEvent(&e2));
	CK(aclrtRecordEvent(e2, s1));
	CK(aclrtMemsetAsync(dev_a, N, 4, N, s1)); /* A */
	CK(aclrtRecordEvent(e1, s1));
	CK(aclrtStreamWaitEvent(s2, e2));
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2)); /* B */
	CK(aclrtSynchronizeDevice());
	CK(aclrtDestroyEvent(e1));
	CK(aclrtDestroyEvent(e2));
	teardown();
	return 0;
}
