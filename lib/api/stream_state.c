/*
 * aclrtRegStreamStateCallback: the named stream state callbacks, and
 * npu_rt_stream_state_notify, which context.c calls after a stream is
 * created and before one is destroyed.
 *
 * The registry lock is only ever held alone: a notify copies the entries
 * and calls them without it (and without any other library lock), so a
 * callback may call the runtime, even register or remove callbacks.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

struct state_cb {
	struct state_cb *next;
	aclrtStreamStateCallback fn;
	void *args;
	char name[];
};

static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static struct state_cb *cbs;	/* registration order */

ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback,
							 void *args)
{
	struct state_cb **pp, *n = NULL;
	size_t len;

	if (regName == NULL) {
		npu_rt_msg_detail("regName is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	len = strlen(regName);
	if (callback != NULL) {
		n = malloc(sizeof(*n) + len + 1);
		if (n == NULL)
			return ACL_ERROR_RT_MEMORY_ALLOCATION;
		*n = (struct state_cb){ .fn = callback, .args = args };
		memcpy(n->name, regName, len + 1);
	}
	pthread_mutex_lock(&cb_lock);
	for (pp = &cbs; *pp != NULL && strcmp((*pp)->name, regName) != 0; pp = &(*pp)->next)
		;
	if (callback == NULL && *pp != NULL) {	/* remove */
		struct state_cb *gone = *pp;

		*pp = gone->next;
		free(gone);
	} else if (callback != NULL && *pp == NULL) {
		*pp = n;
		n = NULL;
	}
	pthread_mutex_unlock(&cb_lock);
	if (n != NULL) {
		free(n);
		npu_rt_msg_detail("regName \"%s\" is registered already", regName);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	return ACL_SUCCESS;
}

void npu_rt_stream_state_notify(void *stream, aclrtStreamState state)
{
	struct { aclrtStreamStateCallback fn; void *args; } *copy = NULL;
	size_t n = 0, i = 0;

	pthread_mutex_lock(&cb_lock);
	for (struct state_cb *c = cbs; c != NULL; c = c->next)
		n++;
	if (n != 0)
		copy = malloc(n * sizeof(*copy));
	for (struct state_cb *c = cbs; copy != NULL && c != NULL; c = c->next, i++) {
		copy[i].fn = c->fn;
		copy[i].args = c->args;
	}
	pthread_mutex_unlock(&cb_lock);
	for (i = 0; copy != NULL && i < n; i++)
		copy[i].fn(stream, state, copy[i].args);
	free(copy);
}

void npu_rt_stream_state_atfork_prepare(void)
{
	pthread_mutex_lock(&cb_lock);
}

void npu_rt_stream_state_atfork_parent(void)
{
	pthread_mutex_unlock(&cb_lock);
}

void npu_rt_stream_state_atfork_child(void)
{
	pthread_mutex_unlock(&cb_lock);	/* the child keeps the callbacks */
}
