/* expect: RACE. Stream 1 fills a buffer that stream 2 reads with no event between. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpyAsync(dev_a, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE, s1)); /* A */
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2)); /* B */
	teardown();
	return 0;
}
