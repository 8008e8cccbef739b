/*
 * The exported ACL calls.  Each call that returns aclError is implemented
 * under an internal name (npu_rt_impl_<call>, see tools/gen-api-wrappers)
 * and exported here by a wrapper, so that every failing call records its
 * message for aclGetRecentErrMsg in this one place, whichever check or
 * driver error made it fail, and notes its code for aclrtGetLastError
 * (errors.c).  Calls between library files use the
 * implementations directly: only the outermost call is recorded.  With
 * NPU_SIM_TRACE set, the call also writes its line of the call trace
 * (trace.h) through the generated npu_rt_traced_<call>.  The first call
 * registers the fork handlers (fork.c), before any call can create state
 * they must guard.
 */
#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl_internal.h"
#include "check.h"
#include "err_msg.h"
#include "trace.h"

/* declarations of the implementations */
#define NPU_RT_API(name, params, args) aclError npu_rt_impl_##name params;
#include "api_list.h"
#undef NPU_RT_API

/* npu_rt_traced_<call>: the implementation with its trace line (trace.h) */
#include "api_trace.h"

/*
 * The first argument of a call when it is a handle (aclrtStream is void *),
 * else NULL: the stream a failing synchronize names, for the exception
 * callbacks (exception_info.c).  The GNU comma paste makes () work too.
 */
#define NPU_RT_FIRST_HANDLE(...) NPU_RT_FIRST_HANDLE_(0, ##__VA_ARGS__, 0)
#define NPU_RT_FIRST_HANDLE_(z, a, ...) \
	((const void *)__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(a), aclrtStream), (a), (void *)0))

/* Every call but these two sees deferred pool frees as submitted
 * (mem_pool_defer.c); the names are literals, so this folds. */
#define NPU_RT_POOL_FLUSHES(name) \
	(__builtin_strcmp(name, "aclrtMemPoolMallocAsync") != 0 && __builtin_strcmp(name, "aclrtMemPoolFreeAsync") != 0)
#define NPU_RT_IS(name, call) (__builtin_strcmp(name, call) == 0)
/*
 * The calls that cannot free, take or hand out a pool block: they queue
 * work on, copy through or read one (what a program does with a block
 * between its MallocAsync and FreeAsync), so they leave the records of
 * blocks given out standing, and a free after them may still be deferred.
 */
#define NPU_RT_POOL_KEEPS(name)                                                                         \
	(NPU_RT_IS(name, "aclrtMemcpy") || NPU_RT_IS(name, "aclrtMemcpyAsync") ||                      \
	 NPU_RT_IS(name, "aclrtMemcpy2d") || NPU_RT_IS(name, "aclrtMemcpy2dAsync") ||                  \
	 NPU_RT_IS(name, "aclrtMemset") || NPU_RT_IS(name, "aclrtMemsetAsync") ||                      \
	 NPU_RT_IS(name, "aclrtRecordEvent") || NPU_RT_IS(name, "aclrtStreamWaitEvent") ||             \
	 NPU_RT_IS(name, "aclrtLaunchHostFunc") || NPU_RT_IS(name, "aclrtLaunchCallback") ||           \
	 NPU_RT_IS(name, "aclrtValueWrite") || NPU_RT_IS(name, "aclrtValueWait") ||                    \
	 NPU_RT_IS(name, "aclrtSynchronizeStream") || NPU_RT_IS(name, "aclrtSynchronizeStreamWithTimeout") || \
	 NPU_RT_IS(name, "aclrtSynchronizeEvent") || NPU_RT_IS(name, "aclrtSynchronizeDevice") ||      \
	 NPU_RT_IS(name, "aclrtStreamQuery") || NPU_RT_IS(name, "aclrtQueryEventStatus") ||            \
	 NPU_RT_IS(name, "aclrtGetMemInfo") || NPU_RT_IS(name, "aclrtPointerGetAttributes") ||         \
	 NPU_RT_IS(name, "aclrtMemPoolGetAttr"))

#define NPU_RT_API(name, params, args)                         \
	ACL_FUNC_VISIBILITY aclError name params               \
	{                                                      \
		aclError err_;                                 \
                                                               \
		npu_rt_fork_handlers_once();                   \
		if (NPU_RT_POOL_FLUSHES(#name) &&              \
		    __builtin_expect(__atomic_load_n(NPU_RT_POOL_KEEPS(#name) ? &npu_rt_pool_deferred : \
						     &npu_rt_pool_held, __ATOMIC_ACQUIRE) != 0, 0)) \
			npu_rt_pool_flush(!NPU_RT_POOL_KEEPS(#name)); \
		if (npu_rt_check_flags)                        \
			npu_rt_check_begin(#name, __builtin_return_address(0)); \
		npu_rt_msg_begin();                            \
		err_ = npu_rt_trace_on() ? npu_rt_traced_##name args : npu_rt_impl_##name args; \
		if (err_ != ACL_SUCCESS) {                     \
			npu_rt_msg_fail(#name, err_);          \
			npu_rt_last_error_note(err_);          \
			npu_rt_exception_note(#name, err_, NPU_RT_FIRST_HANDLE args); \
		}                                              \
		return err_;                                   \
	}
#include "api_list.h"
#undef NPU_RT_API
