/* expect: none. r07 with the stream synchronized before aclrtFreeHost. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpyAsync(dev_a, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE, s1));
	CK(aclrtSynchronizeStream(s1));
	CK(aclrtFreeHost(host));
	host = NULL;
	teardown();
	return 0;
}
