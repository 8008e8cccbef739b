/* expect: none. Writes and reads of the same buffers on one stream are in order. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemcpyAsync(dev_a, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE, s1));
	CK(aclrtMemsetAsync(dev_a, N, 14, N / 2, s1));
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	CK(aclrtMemcpyAsync(host, N, dev_b, N, ACL_MEMCPY_DEVICE_TO_HOST, s1));
	char first;

	CK(aclrtSynchronizeStream(s1));
	first = ((char *)host)[0];
	teardown();
	return first == 14 ? 0 : 3;
}
