/* expect: none. r01 with an event recorded on stream 1 and waited for on stream 2. */
#include "race_prog.h"

int main(void)
{
	aclrtEvent ev;

	setup();
	CK(aclrtCreateEvent(&ev));
	CK(aclrtMemcpyAsync(dev_a, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE, s1));
	CK(aclrtRecordEvent(ev, s1));
	CK(aclrtStreamWaitEvent(s2, ev));
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
	CK(aclrtSynchronizeStream(s2));
	CK(aclrtDestroyEvent(ev));
	teardown();
	return 0;
}
