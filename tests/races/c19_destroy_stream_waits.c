/* expect: none. aclrtDestroyStream waits for the stream's work: the host may read after it. */
#include "race_prog.h"

int main(void)
{
	aclrtStream s3;
	char out[N];

	setup();
	CK(aclrtCreateStream(&s3));
	CK(aclrtMemsetAsync(dev_a, N, 13, N, s3));
	CK(aclrtDestroyStream(s3));
	CK(aclrtMemcpy(out, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST));
	teardown();
	return out[0] == 13 ? 0 : 3;
}
