/* expect: RACE. A synchronous aclrtMemset over memory a queued set still writes. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemsetAsync(dev_a, N, 1, N, s1)); /* A */
	CK(aclrtMemset(dev_a, N, 2, 16)); /* B */
	teardown();
	return 0;
}
