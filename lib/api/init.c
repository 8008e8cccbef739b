/*
 * aclInit / aclFinalize.
 *
 * npu_sim needs no global setup: every device call works without aclInit
 * (the CANN memory calls do not check it either, docs/cann-api-notes.md 6.11).
 * aclInit records that the process initialized; aclFinalize releases every
 * device context still open, like process exit would.
 */
#include <pthread.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "acl_internal.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static bool initialized;
static uint64_t init_refs;	/* aclInit calls since init, for aclFinalizeReference */

/* A given config path must be a readable regular file (content unused). */
static bool config_readable(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	close(fd);
	return ok;
}

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath)
{
	aclError err = ACL_SUCCESS;

	pthread_mutex_lock(&init_lock);
	if (initialized)
		err = ACL_ERROR_REPEAT_INITIALIZE;
	else if (configPath != NULL && configPath[0] != '\0' && !config_readable(configPath))
		err = ACL_ERROR_INVALID_FILE;
	else
		err = npu_rt_init_callbacks(configPath);	/* as the runtime, before it counts */
	if (err == ACL_SUCCESS)
		initialized = true;
	if (err == ACL_SUCCESS || err == ACL_ERROR_REPEAT_INITIALIZE)
		init_refs++;
	pthread_mutex_unlock(&init_lock);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void)
{
	aclError err = ACL_SUCCESS;

	pthread_mutex_lock(&init_lock);
	if (!initialized) {
		err = ACL_ERROR_REPEAT_FINALIZE;
	} else if ((err = npu_rt_finalize_callbacks()) != ACL_SUCCESS) {
		;	/* a failed callback: still initialized, as in the runtime */
	} else {
		npu_rt_devices_release_all();
		initialized = false;
		init_refs = 0;
	}
	pthread_mutex_unlock(&init_lock);
	return err;
}

/* Counts aclInit calls down; the last one finalizes as aclFinalize. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount)
{
	aclError err = ACL_SUCCESS;

	pthread_mutex_lock(&init_lock);
	if (!initialized) {
		err = ACL_ERROR_REPEAT_FINALIZE;
	} else if (init_refs == 1 && (err = npu_rt_finalize_callbacks()) != ACL_SUCCESS) {
		;	/* a failed callback: the count stays */
	} else if (--init_refs == 0) {
		npu_rt_devices_release_all();
		initialized = false;
	}
	if (err == ACL_SUCCESS && refCount != NULL)
		*refCount = init_refs;
	pthread_mutex_unlock(&init_lock);
	return err;
}

void npu_rt_init_atfork_prepare(void)
{
	pthread_mutex_lock(&init_lock);
}

void npu_rt_init_atfork_parent(void)
{
	pthread_mutex_unlock(&init_lock);
}

/* The child starts uninitialized so it can aclInit afresh. */
void npu_rt_init_atfork_child(void)
{
	initialized = false;
	init_refs = 0;
	pthread_mutex_init(&init_lock, NULL);
}
