/* expect: none. Two 2D copies on two streams write disjoint columns of the same rows. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpy2dAsync(dev_a, 256, host, 64, 64, 8, ACL_MEMCPY_HOST_TO_DEVICE, s1));
	CK(aclrtMemcpy2dAsync((char *)dev_a + 64, 256, host, 64, 64, 8, ACL_MEMCPY_HOST_TO_DEVICE, s2));
	teardown();
	return 0;
}
