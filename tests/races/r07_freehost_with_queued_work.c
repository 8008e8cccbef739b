/* expect: USE-AFTER-FREE. aclrtFreeHost of pinned memory a queued copy still reads. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpyAsync(dev_a, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE, s1)); /* A */
	CK(aclrtFreeHost(host)); /* B */
	host = NULL;
	teardown();
	return 0;
}
