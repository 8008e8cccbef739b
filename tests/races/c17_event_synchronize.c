/* expect: none. aclrtSynchronizeEvent on the event recorded after the write orders the host read. */
#include "race_prog.h"

int main(void)
{
	aclrtEvent ev;
	char out[N];

	setup();
	CK(aclrtCreateEvent(&ev));
	CK(aclrtMemsetAsync(dev_a, N, 10, N, s1));
	CK(aclrtRecordEvent(ev, s1));
	CK(aclrtSynchronizeEvent(ev));
	CK(aclrtMemcpy(out, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST));
	CK(aclrtDestroyEvent(ev));
	teardown();
	return out[0] == 10 ? 0 : 3;
}
