/* expect: none. Two streams only read the same buffer: reads do not race. */
#include "race_prog.h"

int main(void)
{
	void *dev_c;

	setup();
	CK(aclrtMalloc(&dev_c, N, ACL_MEM_MALLOC_HUGE_FIRST));
	CK(aclrtMemset(dev_a, N, 1, N));
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	CK(aclrtMemcpyAsync(dev_c, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
	CK(aclrtSynchronizeDevice());
	CK(aclrtFree(dev_c));
	teardown();
	return 0;
}
