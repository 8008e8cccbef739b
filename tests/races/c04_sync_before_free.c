/* expect: none. r04 with the stream synchronized before the free. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	CK(aclrtSynchronizeStream(s1));
	CK(aclrtFree(dev_a));
	dev_a = NULL;
	teardown();
	return 0;
}
