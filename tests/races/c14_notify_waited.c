/* expect: none. r14 with the notify waited for before the read. */
#include "race_prog.h"

int main(void)
{
	aclrtNotify nt;

	setup();
	CK(aclrtCreateNotify(&nt, 0));
	CK(aclrtMemsetAsync(dev_a, N, 6, N, s1));
	CK(aclrtRecordNotify(nt, s1));
	CK(aclrtWaitAndResetNotify(nt, s2, 0));
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
	CK(aclrtSynchronizeDevice());
	CK(aclrtDestroyNotify(nt));
	teardown();
	return 0;
}
