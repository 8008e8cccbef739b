/* Includes only acl/acl_rt_memory_soma.h: the pool handle, attributes and
 * properties (which use the VMM location types of acl_rt.h). */
#include <acl/acl_rt_memory_soma.h>

int header_alone(void)
{
	aclrtMemPoolProps props;
	aclrtMemPoolAttr attr = ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD;
	aclrtMemPool pool = NULL;

	props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	props.location.id = 0;
	props.maxSize = sizeof(props.reserved);
	return pool != NULL || attr != 0x4 || props.maxSize != 32;
}
