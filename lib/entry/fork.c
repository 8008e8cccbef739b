/*
 * fork() support: take every library lock before fork (in the lock order of
 * acl_internal.h) so the child never inherits a lock held by a thread that
 * does not exist in it, then let each part reset itself in the child.
 *
 * The one place the library's handlers are registered.  Above every part
 * it locks: only the exported wrappers (api_wrap.c) call in here.
 */
#include <pthread.h>

#include "acl_internal.h"
#include "check.h"
#include "err_msg.h"

static void prepare(void)
{
	npu_rt_stream_state_atfork_prepare();	/* held alone: any order */
	npu_rt_init_atfork_prepare();
	npu_rt_initcb_atfork_prepare();
	npu_rt_devices_atfork_prepare();
	npu_rt_ri_atfork_prepare();	/* inside the table lock */
	npu_rt_pool_atfork_prepare();	/* inside the table lock */
	npu_rt_host_atfork_prepare();
	npu_rt_hostreg_atfork_prepare();
	npu_rt_callback_atfork_prepare();
	npu_rt_check_atfork_prepare();
}

static void parent(void)
{
	npu_rt_check_atfork_parent();
	npu_rt_callback_atfork_parent();
	npu_rt_hostreg_atfork_parent();
	npu_rt_host_atfork_parent();
	npu_rt_pool_atfork_parent();
	npu_rt_ri_atfork_parent();
	npu_rt_devices_atfork_parent();
	npu_rt_initcb_atfork_parent();
	npu_rt_init_atfork_parent();
	npu_rt_stream_state_atfork_parent();
}

static void child(void)
{
	npu_rt_check_atfork_child();
	npu_rt_callback_atfork_child();
	npu_rt_hostreg_atfork_child();
	npu_rt_host_atfork_child();
	npu_rt_pool_atfork_child();
	npu_rt_ri_atfork_child();
	npu_rt_devices_atfork_child();
	npu_rt_initcb_atfork_child();
	npu_rt_init_atfork_child();
	npu_rt_stream_state_atfork_child();
	npu_rt_msg_atfork_child();
}

static pthread_once_t registered = PTHREAD_ONCE_INIT;

/* Set once the handlers are registered (npu_rt_fork_handlers_once). */
int npu_rt_fork_handlers_in;

static void register_handlers(void)
{
	pthread_atfork(prepare, parent, child);
	__atomic_store_n(&npu_rt_fork_handlers_in, 1, __ATOMIC_RELEASE);
}

/*
 * Called through npu_rt_fork_handlers_once by the wrapper of every exported
 * aclError call (so before any call that creates library state: aclInit,
 * aclrtSetDevice, aclrtMallocHost) rather than from a constructor: a
 * constructor in this file would be dropped when linking the static
 * library unless something refers to it.
 */
void npu_rt_fork_handlers_register(void)
{
	pthread_once(&registered, register_handlers);
}
