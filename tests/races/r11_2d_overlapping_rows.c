/* expect: RACE. Two 2D copies on two streams write overlapping columns of the same rows. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpy2dAsync(dev_a, 256, host, 64, 64, 8, ACL_MEMCPY_HOST_TO_DEVICE, s1)); /* A */
	CK(aclrtMemcpy2dAsync((char *)dev_a + 32, 256, host, 64, 64, 8, ACL_MEMCPY_HOST_TO_DEVICE, s2)); /* B */
	teardown();
	return 0;
}
