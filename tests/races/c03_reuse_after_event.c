/* expect: none. r03 with an event between the two streams. */
#include "race_prog.h"

int main(void)
{
	aclrtEvent ev;

	setup();
	CK(aclrtCreateEvent(&ev));
	CK(aclrtMemsetAsync(dev_a, N, 1, N, s1));
	CK(aclrtRecordEvent(ev, s1));
	CK(aclrtStreamWaitEvent(s2, ev));
	CK(aclrtMemsetAsync(dev_a, N, 2, N / 2, s2));
	CK(aclrtSynchronizeDevice());
	CK(aclrtDestroyEvent(ev));
	teardown();
	return 0;
}
