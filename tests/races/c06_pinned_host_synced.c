/* expect: none. r06 with the stream synchronized before the host uses the pinned buffer. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpyAsync(host, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST, s1));
	CK(aclrtSynchronizeStream(s1));
	CK(aclrtMemcpy(dev_b, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE));
	teardown();
	return 0;
}
