/*
 * aclrtRegDeviceStateCallback: callbacks told when a device of this
 * process is set and reset.
 *
 * As in the CANN runtime: each callback is registered under a name (a
 * name registered twice is refused; a NULL callback removes the name) and
 * called with the device id, the aclrtDeviceState and its args: SET_PRE
 * before aclrtSetDevice opens a device, SET_POST after each successful
 * aclrtSetDevice, RESET_PRE before aclrtResetDevice closes the device's
 * last reference, RESET_POST after.  Callbacks run in the calling thread
 * with no library lock held (the list is copied first), so they may call
 * any ACL call.  The lock of this file is only ever held alone.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

struct state_cb {
	char *name;
	aclrtDeviceStateCallback fn;
	void *args;
};

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static struct state_cb *cbs;
static size_t cbs_n;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void)
{
	pthread_mutex_lock(&state_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&state_lock);
}

/* Registrations are process state the child keeps, as a runtime would. */
static void fork_child(void)
{
	pthread_mutex_init(&state_lock, NULL);
}

static void register_fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* The hook device.c calls: every callback, from a copy of the list. */
static void notify(int32_t dev, int state)
{
	struct state_cb *copy;
	size_t n;

	pthread_mutex_lock(&state_lock);
	n = cbs_n;
	copy = n != 0 ? malloc(n * sizeof(*copy)) : NULL;
	if (copy != NULL)
		memcpy(copy, cbs, n * sizeof(*copy));
	pthread_mutex_unlock(&state_lock);
	if (copy == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		copy[i].fn(dev, (aclrtDeviceState)state, copy[i].args);
	free(copy);
}

ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback,
							 void *args)
{
	aclError err = ACL_SUCCESS;
	struct state_cb *n;
	size_t i;

	if (regName == NULL) {
		npu_rt_msg_detail("regName is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	pthread_once(&fork_once, register_fork_handlers);
	pthread_mutex_lock(&state_lock);
	for (i = 0; i < cbs_n && strcmp(cbs[i].name, regName) != 0; i++)
		;
	if (callback == NULL) {
		if (i < cbs_n) {	/* removing an unknown name is no error */
			free(cbs[i].name);
			memmove(&cbs[i], &cbs[i + 1], (cbs_n - i - 1) * sizeof(*cbs));
			cbs_n--;
		}
	} else if (i < cbs_n) {
		npu_rt_msg_detail("a callback is registered under \"%.64s\" already", regName);
		err = ACL_ERROR_RT_PARAM_INVALID;
	} else if ((n = realloc(cbs, (cbs_n + 1) * sizeof(*cbs))) == NULL ||
		   (n[cbs_n].name = strdup(regName)) == NULL) {
		if (n != NULL)
			cbs = n;
		err = ACL_ERROR_RT_MEMORY_ALLOCATION;
	} else {
		cbs = n;
		cbs[cbs_n].fn = callback;
		cbs[cbs_n].args = args;
		cbs_n++;
		__atomic_store_n(&npu_rt_device_state_hook, notify, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&state_lock);
	return err;
}
