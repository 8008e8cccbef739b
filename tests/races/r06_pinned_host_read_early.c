/* expect: RACE. A D2H copy into pinned host memory is queued; the host copies from that memory before synchronizing. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpyAsync(host, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST, s1)); /* A */
	CK(aclrtMemcpy(dev_b, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE)); /* B */
	teardown();
	return 0;
}
