/*
 * npu_sim: AscendCL umbrella header.  Include this one: it pulls in the
 * runtime API (acl_rt.h) and the base types and error codes (acl_base.h).
 * Names and prototypes follow the CANN header acl/acl.h.
 */
#ifndef NPU_SIM_ACL_H
#define NPU_SIM_ACL_H

#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the CANN API these headers mirror (1.17.0). */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/*
 * aclInit - initialize AscendCL.  configPath may be NULL or "": no
 * configuration.  No settings are read from the file but, like the
 * real runtime, requires a given path to be a readable file.  Only the first
 * successful call counts; no other call requires aclInit.
 * Returns ACL_SUCCESS; ACL_ERROR_REPEAT_INITIALIZE (100002) already
 * initialized (harmless, callers may ignore it); ACL_ERROR_INVALID_FILE
 * (100003) configPath names no readable regular file.
 */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);

/*
 * aclFinalize - deinitialize AscendCL.  Also closes every device
 * context this process still holds (as aclrtResetDevice down to 0 would),
 * freeing all its device memory; host memory from aclrtMallocHost stays
 * valid.  A later aclInit starts afresh.
 * Returns ACL_SUCCESS; ACL_ERROR_REPEAT_FINALIZE (100037) not initialized
 * (never, or already finalized).
 */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/*
 * aclFinalizeReference - reference-counted finalize: every aclInit call
 * that did not fail (ACL_ERROR_REPEAT_INITIALIZE included) counts one;
 * this call counts one down and, at 0, finalizes as aclFinalize does
 * (which drops the count at once).  refCount (may be NULL) gets the count
 * left.  Returns ACL_SUCCESS;
 * ACL_ERROR_REPEAT_FINALIZE (100037) not initialized.
 */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);

/*
 * aclGetRecentErrMsg - the messages of the calling thread's failed ACL
 * calls since its last aclGetRecentErrMsg, newest first, one a line, each
 * naming the call, what was wrong (the argument, or the limit that was
 * hit) and the error code, e.g. "aclrtMalloc: HUGE_ONLY needs 2 pages of
 * 2 MiB, the hugetlb pool has 0 free (echo N > /proc/sys/vm/nr_hugepages)
 * (error 207001 ACL_ERROR_RT_MEMORY_ALLOCATION)".  Reading clears them.
 * Returns NULL when no call failed since the last read.  The string stays
 * valid until the thread's next aclGetRecentErrMsg; other threads' calls
 * do not touch it.  Successful calls leave pending messages in place.
 * About 4 KiB of messages are kept per thread; older ones are dropped.
 */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_H */
