/* expect: none. r09 with aclrtSynchronizeDevice first. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemsetAsync(dev_a, N, 1, N, s1));
	CK(aclrtSynchronizeDevice());
	CK(aclrtMemset(dev_a, N, 2, 16));
	teardown();
	return 0;
}
