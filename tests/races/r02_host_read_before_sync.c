/* expect: RACE. The host reads a result with a synchronous copy before synchronizing its stream. */
#include "race_prog.h"

int main(void)
{
	char out[N];

	setup();
	CK(aclrtMemsetAsync(dev_a, N, 7, N, s1)); /* A */
	CK(aclrtMemcpy(out, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST)); /* B */
	teardown();
	return 0;
}
