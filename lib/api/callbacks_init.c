/*
 * Init and finalize callbacks: aclInitCallbackRegister /
 * aclInitCallbackUnRegister / aclFinalizeCallbackRegister /
 * aclFinalizeCallbackUnRegister, and the calls init.c makes of them.
 *
 * As in the CANN ACL layer: one callback per aclRegisterCallbackType
 * except ACL_REG_TYPE_OTHER, which takes any number; aclInit calls the
 * init callbacks of ACL_MODEL, then (with a config file) OP_EXECUTOR, then
 * DVPP, then OTHER, each with the config file's content; aclFinalize the
 * finalize callbacks of OP_COMPILER, MODEL, DVPP, OTHER.  The first
 * callback that fails stops the sequence and its code is aclInit's /
 * aclFinalize's.  An init callback registered after aclInit is called at
 * once.  Callbacks run with the registry lock held (a recursive lock: a
 * callback may register or unregister), and under aclInit's own lock.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

struct init_cb {
	aclRegisterCallbackType type;
	bool finalize;
	union {
		aclInitCallbackFunc init;
		aclFinalizeCallbackFunc fini;
	} fn;
	void *user;
};

static pthread_mutex_t cb_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct init_cb *cbs;
static size_t cbs_n;
static bool initialized;	/* as init.c last told */
static char *config;		/* the config content aclInit read */
static size_t config_len;

static size_t find(aclRegisterCallbackType type, bool finalize, const void *fn)
{
	for (size_t i = 0; i < cbs_n; i++)
		if (cbs[i].type == type && cbs[i].finalize == finalize &&
		    (fn == NULL || (finalize ? (const void *)cbs[i].fn.fini : (const void *)cbs[i].fn.init) == fn))
			return i;
	return cbs_n;
}

static aclError add(aclRegisterCallbackType type, bool finalize, const void *fn, void *user)
{
	struct init_cb *n;

	if (fn == NULL) {
		npu_rt_msg_detail("cbFunc is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (type != ACL_REG_TYPE_OTHER && find(type, finalize, NULL) < cbs_n) {
		npu_rt_msg_detail("type %d has a callback already (only ACL_REG_TYPE_OTHER takes several)", (int)type);
		return ACL_ERROR_INTERNAL_ERROR;
	}
	n = realloc(cbs, (cbs_n + 1) * sizeof(*cbs));
	if (n == NULL)
		return ACL_ERROR_BAD_ALLOC;
	cbs = n;
	cbs[cbs_n] = (struct init_cb){ .type = type, .finalize = finalize, .user = user };
	if (finalize)
		cbs[cbs_n].fn.fini = (aclFinalizeCallbackFunc)fn;
	else
		cbs[cbs_n].fn.init = (aclInitCallbackFunc)fn;
	cbs_n++;
	return ACL_SUCCESS;
}

static aclError del(aclRegisterCallbackType type, bool finalize, const void *fn)
{
	bool found;
	size_t i;

	if (fn == NULL) {
		npu_rt_msg_detail("cbFunc is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	pthread_mutex_lock(&cb_lock);
	i = find(type, finalize, fn);
	found = i < cbs_n;
	if (found) {
		memmove(&cbs[i], &cbs[i + 1], (cbs_n - i - 1) * sizeof(*cbs));
		cbs_n--;
	}
	pthread_mutex_unlock(&cb_lock);
	if (found)
		return ACL_SUCCESS;
	npu_rt_msg_detail("cbFunc is not registered for type %d", (int)type);
	return ACL_ERROR_INTERNAL_ERROR;
}

ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
						     void *userData)
{
	aclError err;

	pthread_mutex_lock(&cb_lock);
	err = add(type, false, (const void *)cbFunc, userData);
	if (err == ACL_SUCCESS && initialized)
		(void)cbFunc(config != NULL ? config : "", config_len, userData);
	pthread_mutex_unlock(&cb_lock);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc)
{
	return del(type, false, (const void *)cbFunc);
}

ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type,
							 aclFinalizeCallbackFunc cbFunc, void *userData)
{
	aclError err;

	pthread_mutex_lock(&cb_lock);
	err = add(type, true, (const void *)cbFunc, userData);
	pthread_mutex_unlock(&cb_lock);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
							   aclFinalizeCallbackFunc cbFunc)
{
	return del(type, true, (const void *)cbFunc);
}

/* Call the callbacks of type, in registration order; the first failure's
 * code.  Lock held.  A callback may unregister itself: walk by index. */
static aclError notify(aclRegisterCallbackType type, bool finalize)
{
	for (size_t i = 0; i < cbs_n; i++) {
		struct init_cb c = cbs[i];
		aclError err;

		if (c.type != type || c.finalize != finalize)
			continue;
		err = finalize ? c.fn.fini(c.user) : c.fn.init(config != NULL ? config : "", config_len, c.user);
		if (err != ACL_SUCCESS) {
			npu_rt_msg_detail("the %s callback of type %d failed with %d", finalize ? "finalize" : "init",
					  (int)type, (int)err);
			return err;
		}
	}
	return ACL_SUCCESS;
}

/* The content of config file path (NUL-terminated) into *out: 0, or -1
 * when it cannot be read. */
static int read_config(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (f == NULL)
		return -1;
	do {
		char *b;

		if (cap - n < 4096) {
			cap = cap * 2 + 4096;
			b = realloc(buf, cap + 1);
			if (b == NULL) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

aclError npu_rt_init_callbacks(const char *path)
{
	static const aclRegisterCallbackType order[] = { ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_OP_EXECUTOR,
							 ACL_REG_TYPE_ACL_DVPP, ACL_REG_TYPE_OTHER };
	bool with_file = path != NULL && path[0] != '\0';
	aclError err = ACL_SUCCESS;
	char *content = NULL;
	size_t len = 0;

	if (with_file && read_config(path, &content, &len) != 0) {
		npu_rt_msg_detail("cannot read config file %s", path);
		return ACL_ERROR_INVALID_FILE;
	}
	pthread_mutex_lock(&cb_lock);
	free(config);
	config = content;
	config_len = len;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && err == ACL_SUCCESS; i++)
		if (order[i] != ACL_REG_TYPE_ACL_OP_EXECUTOR || with_file)
			err = notify(order[i], false);
	initialized = err == ACL_SUCCESS;
	pthread_mutex_unlock(&cb_lock);
	return err;
}

aclError npu_rt_finalize_callbacks(void)
{
	static const aclRegisterCallbackType order[] = { ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_MODEL,
							 ACL_REG_TYPE_ACL_DVPP, ACL_REG_TYPE_OTHER };
	aclError err = ACL_SUCCESS;

	pthread_mutex_lock(&cb_lock);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && err == ACL_SUCCESS; i++)
		err = notify(order[i], true);
	if (err == ACL_SUCCESS)
		initialized = false;
	pthread_mutex_unlock(&cb_lock);
	return err;
}

void npu_rt_initcb_atfork_prepare(void)
{
	pthread_mutex_lock(&cb_lock);
}

void npu_rt_initcb_atfork_parent(void)
{
	pthread_mutex_unlock(&cb_lock);
}

/* The child starts uninitialized (init.c): so do its callbacks. */
void npu_rt_initcb_atfork_child(void)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&cb_lock, &a);
	pthread_mutexattr_destroy(&a);
	initialized = false;
}
