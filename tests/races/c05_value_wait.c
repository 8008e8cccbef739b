/* expect: none. r05 with aclrtValueWait on stream 2 before the read. */
#include "race_prog.h"

int main(void)
{
	uint64_t *flag;

	setup();
	CK(aclrtMalloc((void **)&flag, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	CK(aclrtMemset(flag, 64, 0, 64));
	CK(aclrtMemsetAsync(dev_a, N, 3, N, s1));
	CK(aclrtValueWrite(flag, 1, 0, s1));
	CK(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_EQ, s2));
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
	CK(aclrtSynchronizeDevice());
	CK(aclrtFree(flag));
	teardown();
	return 0;
}
