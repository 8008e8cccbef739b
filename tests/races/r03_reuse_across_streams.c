/* expect: RACE. A buffer stream 1 still writes is reused by stream 2 with no event. */
#include "race_prog.h"

int main(void)
{
	setup();
	CK(aclrtMemsetAsync(dev_a, N, 1, N, s1)); /* A */
	CK(aclrtMemsetAsync(dev_a, N, 2, N / 2, s2)); /* B */
	teardown();
	return 0;
}
