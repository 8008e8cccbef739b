/* expect: none. r02 with aclrtSynchronizeStream before the read. */
#include "race_prog.h"

int main(void)
{
	char out[N];

	setup();
	CK(aclrtMemsetAsync(dev_a, N, 7, N, s1));
	CK(aclrtSynchronizeStream(s1));
	CK(aclrtMemcpy(out, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST));
	teardown();
	return out[0] == 7 ? 0 : 3;
}
