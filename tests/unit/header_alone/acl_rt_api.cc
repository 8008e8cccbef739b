// Includes only acl/acl_rt_api.h, as C++: the typed overloads resolve.
#include <acl/acl_rt_api.h>

int header_alone()
{
	int *dev = nullptr;
	int host[16] = { 0 };
	aclrtStream stream = nullptr;
	aclError ret = aclrtMalloc(&dev, sizeof(host));

	if (ret == ACL_SUCCESS)
		ret = aclrtMemcpy(dev, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE);
	if (ret == ACL_SUCCESS)
		ret = aclrtCreateStream(&stream, 0, ACL_STREAM_FAST_LAUNCH);
	if (ret == ACL_SUCCESS)
		ret = aclrtSynchronizeStream(stream, -1);
	if (ret == ACL_SUCCESS)
		ret = aclrtHostRegister(host, sizeof(host), ACL_HOST_REG_MAPPED);
	return ret;
}
