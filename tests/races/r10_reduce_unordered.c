/* expect: RACE. A reduce on stream 1 writes what stream 2 reads with no event. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemset(dev_a, N, 0, N));
	CK(aclrtMemset(dev_b, N, 0, N));
	CK(aclrtReduceAsync(dev_a, dev_b, N, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s1, NULL)); /* A */
	CK(aclrtMemcpyAsync(host, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST, s2)); /* B */
	teardown();
	return 0;
}
