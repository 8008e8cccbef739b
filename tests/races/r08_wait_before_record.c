/* expect: RACE. Stream 2 waits for an event before stream 1 records it: the wait waits for nothing. */
#include "race_prog.h"

int main(void)
{
	aclrtEvent ev;

	setup();
	CK(aclrtCreateEvent(&ev));
	CK(aclrtStreamWaitEvent(s2, ev));
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2)); /* B */
	CK(aclrtMemsetAsync(dev_a, N, 5, N, s1)); /* A */
	CK(aclrtRecordEvent(ev, s1));
	CK(aclrtSynchronizeDevice());
	CK(aclrtDestroyEvent(ev));
	teardown();
	return 0;
}
