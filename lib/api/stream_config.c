/*
 * aclrtCreateStreamConfigHandle: the one call of the aclrtCreateStreamV2
 * family that returns a pointer, not an aclError, so it is not renamed and
 * wrapped (lib.mk LIB_UNWRAPPED_SRCS); the others are in stream_ctl.c.
 */
#include <stdlib.h>

#include "acl_internal.h"
#include "err_msg.h"

/* Zeroed: priority 0, no flags, no work area.  NULL when out of memory. */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void)
{
	aclrtStreamConfigHandle *h = calloc(1, sizeof(*h));

	if (h == NULL)
		npu_rt_msg_detail("no memory for a stream configuration handle");
	return h;
}
