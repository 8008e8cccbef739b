/*
 * CANN attributes: aclGetCannAttributeList, aclGetCannAttribute.
 *
 * As the CANN ACL layer decides: an attribute is available when the
 * installed runtime package (ASCEND_HOME_PATH/share/info/runtime/
 * version.info, read as aclsysGetVersionStr does) is at least the version
 * its feature list asks for (src/acl/config/swFeatureList.json: BF16 and
 * INF_NAN from 7.1, JIT_COMPILE from 6.4); versions compare as
 * 1000 * major + 10 * minor.  No CANN install: 500000.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

static const struct {
	aclCannAttr attr;
	int32_t min_version;
} features[] = {
	{ ACL_CANN_ATTR_INF_NAN, 7010 },
	{ ACL_CANN_ATTR_BF16, 7010 },
	{ ACL_CANN_ATTR_JIT_COMPILE, 6040 },
};

#define NFEATURES (sizeof(features) / sizeof(features[0]))

/* The last list handed out; it stays valid (it only ever grows equal). */
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static aclCannAttr list[NFEATURES];

/* 1000 * major + 10 * minor of the runtime package: 0, or -1. */
static int runtime_version(int32_t *v)
{
	char ver[ACL_PKG_VERSION_MAX_SIZE], *end;
	long major, minor;

	if (aclsysGetVersionStr("runtime", ver) != ACL_SUCCESS)
		return -1;
	major = strtol(ver, &end, 10);
	if (end == ver || *end != '.')
		return -1;
	minor = strtol(end + 1, &end, 10);
	if (major < 0 || major > 1000000 || minor < 0 || minor > 99)
		return -1;
	*v = (int32_t)(1000 * major + 10 * minor);
	return 0;
}

static aclError available(bool out[NFEATURES])
{
	int32_t v;

	if (runtime_version(&v) != 0) {
		npu_rt_msg_begin();
		npu_rt_msg_detail("no runtime version: ASCEND_HOME_PATH/share/info/runtime/version.info "
				  "has no \"Version=major.minor\" line");
		return ACL_ERROR_INTERNAL_ERROR;
	}
	for (size_t i = 0; i < NFEATURES; i++)
		out[i] = v >= features[i].min_version;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
	bool ok[NFEATURES];
	aclError err;
	size_t n = 0;

	if (cannAttrList == NULL || num == NULL) {
		npu_rt_msg_detail("%s is NULL", cannAttrList == NULL ? "cannAttrList" : "num");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = available(ok);
	if (err != ACL_SUCCESS)
		return err;
	pthread_mutex_lock(&list_lock);
	for (size_t i = 0; i < NFEATURES; i++)
		if (ok[i])
			list[n++] = features[i].attr;
	pthread_mutex_unlock(&list_lock);
	*cannAttrList = list;
	*num = n;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)
{
	bool ok[NFEATURES];
	aclError err;

	if (value == NULL) {
		npu_rt_msg_detail("value is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = available(ok);
	if (err != ACL_SUCCESS)
		return err;
	for (size_t i = 0; i < NFEATURES; i++) {
		if (features[i].attr == cannAttr) {
			*value = ok[i] ? 1 : 0;
			return ACL_SUCCESS;
		}
	}
	npu_rt_msg_detail("cannAttr %d is not a CANN attribute", (int)cannAttr);
	return ACL_ERROR_INVALID_PARAM;
}
