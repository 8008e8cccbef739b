/* expect: none. r12 with aclrtSynchronizeStream before the host copy; a copy of registered memory by its host address waits for its stream. */
#include <sys/mman.h>

#include "race_prog.h"

int main(void)
{
	void *reg, *alias;

	setup();
	reg = mmap(NULL, N, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CK(aclrtHostRegister(reg, N, ACL_HOST_REGISTER_MAPPED, &alias));
	CK(aclrtMemcpyAsync(alias, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	CK(aclrtSynchronizeStream(s1));
	CK(aclrtMemcpy(dev_b, N, alias, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
	CK(aclrtMemcpyAsync(reg, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST, s2));
	CK(aclrtMemcpy(dev_b, N, reg, N, ACL_MEMCPY_HOST_TO_DEVICE));
	CK(aclrtHostUnregister(reg));
	munmap(reg, N);
	teardown();
	return 0;
}
