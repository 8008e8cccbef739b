/* expect: USE-AFTER-FREE. aclrtFree while a queued copy still reads the memory. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s1)); /* A */
	CK(aclrtFree(dev_a)); /* B */
	dev_a = NULL;
	teardown();
	return 0;
}
