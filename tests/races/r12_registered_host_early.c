/* expect: RACE. A queued copy writes registered host memory through its device address; the host copies out of it before synchronizing. */
#include <sys/mman.h>

#include "race_prog.h"

int main(void)
{
	void *reg, *alias;

	setup();
	reg = mmap(NULL, N, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CK(aclrtHostRegister(reg, N, ACL_HOST_REGISTER_MAPPED, &alias));
	CK(aclrtMemcpyAsync(alias, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s1)); /* A */
	CK(aclrtMemcpy(dev_b, N, alias, N, ACL_MEMCPY_DEVICE_TO_DEVICE)); /* B */
	CK(aclrtSynchronizeDevice());
	CK(aclrtHostUnregister(reg));
	munmap(reg, N);
	teardown();
	return 0;
}
