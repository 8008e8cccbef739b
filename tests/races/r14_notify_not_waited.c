/* expect: RACE. Stream 1 records a notify after its write; stream 2 reads without waiting for it. */
#include "race_prog.h"

int main(void)
{
	aclrtNotify nt;

	setup();
	CK(aclrtCreateNotify(&nt, 0));
	CK(aclrtMemsetAsync(dev_a, N, 6, N, s1)); /* A */
	CK(aclrtRecordNotify(nt, s1));
	CK(aclrtMemcpyAsync(dev_b, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2)); /* B */
	CK(aclrtWaitAndResetNotify(nt, s2, 0));
	CK(aclrtSynchronizeDevice());
	CK(aclrtDestroyNotify(nt));
	teardown();
	return 0;
}
