/* expect: RACE. After a synchronize of stream 1, a set queued on stream 2 is not waited for before the host reads. */
#include "race_prog.h"

int main(void)
{
	char out[64];

	setup();
	CK(aclrtMemcpyAsync(dev_a, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE, s1));
	CK(aclrtSynchronizeStream(s1));
	CK(aclrtMemsetAsync(dev_a, N, 2, 64, s2)); /* A */
	CK(aclrtMemcpy(out, sizeof(out), dev_a, sizeof(out), ACL_MEMCPY_DEVICE_TO_HOST)); /* B */
	teardown();
	return 0;
}
