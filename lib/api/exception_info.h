/*
 * The exception information of a failed asynchronous task (the opaque
 * aclrtExceptionInfo of the public header), shared by exception_info.c and
 * exception_info_get.c.
 */
#ifndef NPU_RT_EXCEPTION_INFO_H
#define NPU_RT_EXCEPTION_INFO_H

#include <stdint.h>

/* What a getter returns for a NULL info (the ACL layer's value). */
#define NPU_RT_INVALID_EXCEPTION_INFO 0xFFFFFFFFu

struct rtExceptionInfo {
	uint32_t taskid;	/* NPU_RT_INVALID_EXCEPTION_INFO: not known */
	uint32_t streamid;	/* the stream's id; NPU_RT_INVALID_...: not known */
	uint32_t tid;		/* the thread that learned of the failure */
	uint32_t deviceid;
	uint32_t retcode;	/* the aclError the task failed with */
};

#endif /* NPU_RT_EXCEPTION_INFO_H */
