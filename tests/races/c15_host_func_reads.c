/* expect: none. A host function runs after its stream's earlier work: its synchronous read is ordered. */
#include "race_prog.h"

static char seen;
static aclrtContext ctx;

static void read_back(void *arg)
{
	char out[16];

	(void)arg;
	if (aclrtSetCurrentContext(ctx) == ACL_SUCCESS &&
	    aclrtMemcpy(out, sizeof(out), dev_a, sizeof(out), ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS)
		seen = out[0];
}

int main(void)
{
	setup();
	CK(aclrtGetCurrentContext(&ctx));
	CK(aclrtMemsetAsync(dev_a, N, 9, N, s1));
	CK(aclrtLaunchHostFunc(s1, read_back, NULL));
	CK(aclrtSynchronizeStream(s1));
	teardown();
	return seen == 9 ? 0 : 3;
}
