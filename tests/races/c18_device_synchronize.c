/* expect: none. Work on both streams, aclrtSynchronizeDevice, then host reads and frees. */
#include "race_prog.h"

int main(void)
{
	char out[N];

	setup();
	CK(aclrtMemsetAsync(dev_a, N, 11, N, s1));
	CK(aclrtMemsetAsync(dev_b, N, 12, N, s2));
	CK(aclrtSynchronizeDevice());
	CK(aclrtMemcpy(out, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST));
	CK(aclrtMemcpy(out, N, dev_b, N, ACL_MEMCPY_DEVICE_TO_HOST));
	CK(aclrtFree(dev_a));
	dev_a = NULL;
	teardown();
	return out[0] == 12 ? 0 : 3;
}
