// SPDX-License-Identifier: GPL-2.0
/*
 * The errors and system chapters against the real module: the calling
 * thread's last error (aclrtGetLastError, aclrtPeekAtLastError: what sets
 * it, what clears it, per thread, the one level), element sizes
 * (aclDataTypeSize), half floats (aclFloat16ToFloat, aclFloatToFloat16:
 * rounding, saturation, every half value round-trips) and the package
 * versions read from a CANN install tree (aclsysGetVersionStr,
 * aclsysGetVersionNum, aclsysGetCANNVersion).  Exact codes and values; a
 * refused call changes nothing.
 */
#include "vmtest.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <acl/acl.h>

/* ---- last error -------------------------------------------------------- */

/* A call that fails with 100000 (NULL out-pointer), and its code. */
static aclError fail_one(void)
{
	aclError e = aclrtGetDevice(NULL);

	ck_assert_int_eq(e, ACL_ERROR_INVALID_PARAM);
	return e;
}

START_TEST(last_error_get_and_peek)
{
	int32_t dev = -1;
	aclError e;

	(void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);	/* fixture leftovers */
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);

	e = fail_one();
	/* a successful call leaves it; peeking leaves it */
	ck_assert_int_eq(aclrtGetDevice(&dev), ACL_SUCCESS);
	ck_assert_int_eq(dev, 0);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), e);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), e);
	/* a later failure replaces it: the driver's code this time */
	ck_assert_int_eq(aclrtSetDevice(4096), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
	/* get returns it once */
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}
END_TEST

START_TEST(last_error_bad_level)
{
	const char *msg;
	aclError e;

	(void)aclGetRecentErrMsg();
	e = fail_one();
	/* only the thread level exists; a bad one changes nothing */
	ck_assert_int_eq(aclrtGetLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtPeekAtLastError((aclrtLastErrLevel)-1), ACL_ERROR_INVALID_PARAM);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(strstr(msg, "aclrtPeekAtLastError: level -1: only ACL_RT_THREAD_LEVEL (0) is kept"));
	ck_assert_ptr_nonnull(strstr(msg, "aclrtGetLastError: level 1:"));
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), e);
	/* the data buffer calls are not runtime calls: they leave it */
	ck_assert_int_eq(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}
END_TEST

static void *other_thread(void *arg)
{
	aclError *seen = arg;

	seen[0] = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
	seen[1] = aclrtSetDevice(4096);
	seen[2] = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
	return NULL;
}

START_TEST(last_error_is_per_thread)
{
	aclError seen[3] = { -1, -1, -1 };
	pthread_t t;
	aclError e;

	(void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
	e = fail_one();
	ck_assert_int_eq(pthread_create(&t, NULL, other_thread, seen), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(seen[0], ACL_SUCCESS);		/* not this thread's */
	ck_assert_int_eq(seen[1], ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(seen[2], ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), e);	/* untouched by it */
}
END_TEST

/* ---- data types ------------------------------------------------------ */

START_TEST(data_type_sizes)
{
	static const struct { int type; size_t size; } want[] = {
		{ ACL_DT_UNDEFINED, 0 }, { ACL_STRING, 0 },
		{ ACL_BOOL, 1 }, { ACL_INT8, 1 }, { ACL_UINT8, 1 }, { ACL_UINT1, 1 }, { ACL_INT4, 1 },
		{ ACL_HIFLOAT8, 1 }, { ACL_FLOAT8_E5M2, 1 }, { ACL_FLOAT8_E4M3FN, 1 }, { ACL_FLOAT8_E8M0, 1 },
		{ ACL_FLOAT16, 2 }, { ACL_BF16, 2 }, { ACL_INT16, 2 }, { ACL_UINT16, 2 },
		{ ACL_FLOAT, 4 }, { ACL_INT32, 4 }, { ACL_UINT32, 4 }, { ACL_COMPLEX32, 4 },
		{ ACL_INT64, 8 }, { ACL_UINT64, 8 }, { ACL_DOUBLE, 8 }, { ACL_COMPLEX64, 8 },
		{ ACL_COMPLEX128, 16 },
		/* the CANN runtime's default, kept: 8 for the rest, known or not */
		{ ACL_FLOAT6_E3M2, 8 }, { ACL_FLOAT6_E2M3, 8 }, { ACL_FLOAT4_E2M1, 8 }, { ACL_FLOAT4_E1M2, 8 },
		{ 5, 8 }, { 1000, 8 }, { -2, 8 },
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(aclDataTypeSize((aclDataType)want[i].type) == want[i].size,
			      "type %d: %zu, want %zu", want[i].type,
			      aclDataTypeSize((aclDataType)want[i].type), want[i].size);
}
END_TEST

START_TEST(float16_values)
{
	float f;
	int h;

	ck_assert_uint_eq(aclFloatToFloat16(1.0f), 0x3c00);
	ck_assert_uint_eq(aclFloatToFloat16(-2.0f), 0xc000);
	ck_assert_uint_eq(aclFloatToFloat16(0.1f), 0x2e66);
	ck_assert_uint_eq(aclFloatToFloat16(65504.0f), 0x7bff);
	ck_assert_uint_eq(aclFloatToFloat16(-0.0f), 0x8000);
	/* ties to even */
	ck_assert_uint_eq(aclFloatToFloat16(2049.0f), 0x6800);	/* 2048 */
	ck_assert_uint_eq(aclFloatToFloat16(2051.0f), 0x6802);	/* 2052 */
	ck_assert_uint_eq(aclFloatToFloat16(1.0f + 0x1p-11f), 0x3c00);
	ck_assert_uint_eq(aclFloatToFloat16(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
	/* saturation: out of range, Inf and NaN */
	ck_assert_uint_eq(aclFloatToFloat16(65520.0f), 0x7bff);
	ck_assert_uint_eq(aclFloatToFloat16(1e10f), 0x7bff);
	ck_assert_uint_eq(aclFloatToFloat16(INFINITY), 0x7bff);
	ck_assert_uint_eq(aclFloatToFloat16(-INFINITY), 0xfbff);
	ck_assert_uint_eq(aclFloatToFloat16(NAN), 0x7bff);
	/* subnormals and underflow */
	ck_assert_uint_eq(aclFloatToFloat16(0x1p-24f), 0x0001);
	ck_assert_uint_eq(aclFloatToFloat16(0x1p-14f - 0x1p-24f), 0x03ff);
	ck_assert_uint_eq(aclFloatToFloat16(0x1p-25f), 0x0000);	/* tie to even 0 */
	ck_assert_uint_eq(aclFloatToFloat16(0x1.8p-25f), 0x0001);
	ck_assert_uint_eq(aclFloatToFloat16(-0x1p-30f), 0x8000);
	/* half to float, the all-ones exponent taken as an ordinary one */
	ck_assert(aclFloat16ToFloat(0x3c00) == 1.0f);
	ck_assert(aclFloat16ToFloat(0x7bff) == 65504.0f);
	ck_assert(aclFloat16ToFloat(0x0001) == 0x1p-24f);
	ck_assert(aclFloat16ToFloat(0x7c00) == 65536.0f);
	ck_assert(aclFloat16ToFloat(0xfc00) == -65536.0f);
	ck_assert(aclFloat16ToFloat(0x7e00) == 98304.0f);
	f = aclFloat16ToFloat(0x8000);
	ck_assert(f == 0.0f && signbit(f));
	/* every finite half survives the round trip */
	for (h = 0; h <= 0xffff; h++) {
		if ((h & 0x7c00) == 0x7c00)
			continue;
		ck_assert_msg(aclFloatToFloat16(aclFloat16ToFloat((aclFloat16)h)) == h, "half 0x%04x", h);
	}
}
END_TEST

/* ---- package versions ------------------------------------------------ */

static char home[64];

static void put_version(const char *pkg, const char *content)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/share/info/%s", home, pkg);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	strcat(path, "/version.info");
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(content, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* A CANN install tree in a fresh directory, ASCEND_HOME_PATH pointing at it. */
static void version_setup(void)
{
	char path[128];
	char big[300];

	vm_acl_setup();
	snprintf(home, sizeof(home), "/tmp/ascend.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(home));
	snprintf(path, sizeof(path), "%s/share", home);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	strcat(path, "/info");
	ck_assert_int_eq(mkdir(path, 0755), 0);
	put_version("runtime", "package_name=runtime\nVersion=8.5.0\narch=x86_64\n");
	put_version("toolkit", "  Version= 8.5.0-beta.1 \r\n");
	put_version("opp-kernel", "Version=8.3.0.alpha002\n");
	put_version("compiler", "Version=8.0.RC1\n");
	put_version("hccl", "Version=\nversion=1.2.3\n");
	put_version("cann", "Version=8.5.0rc\n");
	put_version("oam-tools", "Version=8.5.0-beta.1\n");
	put_version("bisheng_compiler", "Version=7.1\n");
	put_version("ops-legacy", "Version=8\n");
	memset(big, '7', sizeof(big) - 2);
	memcpy(big, "Version=", 8);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	put_version("opp", big);
	ck_assert_int_eq(setenv("ASCEND_HOME_PATH", home, 1), 0);
}

static void version_teardown(void)
{
	char cmd[128];

	unsetenv("ASCEND_HOME_PATH");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", home);
	ck_assert_int_eq(system(cmd), 0);
	vm_acl_teardown();
}

START_TEST(version_str_and_num)
{
	char ver[ACL_PKG_VERSION_MAX_SIZE];
	int32_t num = 0;

	ck_assert_int_eq(aclsysGetVersionStr("runtime", ver), ACL_SUCCESS);
	ck_assert_str_eq(ver, "8.5.0");
	ck_assert_int_eq(aclsysGetVersionNum("runtime", &num), ACL_SUCCESS);
	ck_assert_int_eq(num, 80500000);
	ck_assert_int_eq(aclsysGetVersionStr("toolkit", ver), ACL_SUCCESS);
	ck_assert_str_eq(ver, "8.5.0-beta.1");
	ck_assert_int_eq(aclsysGetVersionNum("toolkit", &num), ACL_SUCCESS);
	ck_assert_int_eq(num, 80499801);
	/* "opp_kernel" is found under the name with '-' */
	ck_assert_int_eq(aclsysGetVersionStr("opp_kernel", ver), ACL_SUCCESS);
	ck_assert_str_eq(ver, "8.3.0.alpha002");
	ck_assert_int_eq(aclsysGetVersionNum("opp_kernel", &num), ACL_SUCCESS);
	ck_assert_int_eq(num, 80299702);
	ck_assert_int_eq(aclsysGetVersionNum("cann", &num), ACL_SUCCESS);
	ck_assert_int_eq(num, 80499900);
}
END_TEST

START_TEST(version_bad_input)
{
	char ver[ACL_PKG_VERSION_MAX_SIZE] = "untouched";
	int32_t num = 7;
	const char *msg;

	ck_assert_int_eq(aclsysGetVersionStr(NULL, ver), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclsysGetVersionStr("runtime", NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclsysGetVersionNum(NULL, &num), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclsysGetVersionNum("runtime", NULL), ACL_ERROR_INVALID_PARAM);
	/* no such package; an empty Version= (the lower-case key does not count) */
	(void)aclGetRecentErrMsg();
	ck_assert_int_eq(aclsysGetVersionStr("nosuch", ver), ACL_ERROR_INVALID_FILE);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(strstr(msg, "/share/info/nosuch/version.info"));
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_FILE);
	ck_assert_int_eq(aclsysGetVersionStr("hccl", ver), ACL_ERROR_INVALID_FILE);
	ck_assert_int_eq(aclsysGetVersionNum("nosuch", &num), ACL_ERROR_INVALID_FILE);
	/* too long for the buffer */
	ck_assert_int_eq(aclsysGetVersionStr("opp", ver), ACL_ERROR_INTERNAL_ERROR);
	/* not major.minor.patch */
	ck_assert_int_eq(aclsysGetVersionStr("compiler", ver), ACL_SUCCESS);
	ck_assert_str_eq(ver, "8.0.RC1");
	strcpy(ver, "untouched");
	ck_assert_int_eq(aclsysGetVersionNum("compiler", &num), ACL_ERROR_INTERNAL_ERROR);
	/* no install tree */
	ck_assert_int_eq(unsetenv("ASCEND_HOME_PATH"), 0);
	ck_assert_int_eq(aclsysGetVersionStr("runtime", ver), ACL_ERROR_INVALID_FILE);
	ck_assert_int_eq(setenv("ASCEND_HOME_PATH", "/nonexistent", 1), 0);
	ck_assert_int_eq(aclsysGetVersionNum("runtime", &num), ACL_ERROR_INVALID_FILE);
	ck_assert_str_eq(ver, "untouched");
	ck_assert_int_eq(num, 7);
}
END_TEST

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static aclError cann_version(int name, aclCANNPackageVersion *v)
{
	return aclsysGetCANNVersion((aclCANNPackageName)name, v);
}
#pragma GCC diagnostic pop

static void assert_parts(const aclCANNPackageVersion *v, const char *ver, const char *major,
			 const char *minor, const char *release, const char *patch)
{
	static const char zeros[ACL_PKG_VERSION_MAX_SIZE];

	ck_assert_str_eq(v->version, ver);
	ck_assert_str_eq(v->majorVersion, major);
	ck_assert_str_eq(v->minorVersion, minor);
	ck_assert_str_eq(v->releaseVersion, release);
	ck_assert_str_eq(v->patchVersion, patch);
	ck_assert(memcmp(v->reserved, zeros, sizeof(zeros)) == 0);
}

START_TEST(cann_version_of_each_name)
{
	aclCANNPackageVersion v, before;

	memset(&v, 0x5a, sizeof(v));
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_RUNTIME, &v), ACL_SUCCESS);
	assert_parts(&v, "8.5.0", "8", "5", "0", "0");
	memset(&v, 0x5a, sizeof(v));
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_CANN, &v), ACL_SUCCESS);	/* "runtime" too */
	assert_parts(&v, "8.5.0", "8", "5", "0", "0");
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_TOOLKIT, &v), ACL_SUCCESS);	/* oam-tools */
	assert_parts(&v, "8.5.0.beta1", "8", "5", "0", "beta1");
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_COMPILER, &v), ACL_SUCCESS);	/* as bisheng_compiler */
	assert_parts(&v, "7.1", "7", "1", "0", "0");

	/* refused: nothing written */
	memset(&v, 0x5a, sizeof(v));
	before = v;
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_RUNTIME, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_DRIVER + 1, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(cann_version(-1, &v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_HCCL, &v), ACL_ERROR_INVALID_FILE);	/* empty */
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_OPP, &v), ACL_ERROR_INVALID_FILE);	/* "8" */
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_OPP_KERNEL, &v), ACL_ERROR_INVALID_FILE);
	ck_assert_int_eq(unsetenv("ASCEND_HOME_PATH"), 0);
	ck_assert_int_eq(cann_version(ACL_PKG_NAME_RUNTIME, &v), ACL_ERROR_INVALID_FILE);
	ck_assert(memcmp(&v, &before, sizeof(v)) == 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("system");
	TCase *t = tcase_create("errors");
	TCase *v = tcase_create("versions");

	tcase_add_checked_fixture(t, vm_acl_setup, vm_acl_teardown);
	tcase_set_timeout(t, VM_TIMEOUT);
	tcase_add_test(t, last_error_get_and_peek);
	tcase_add_test(t, last_error_bad_level);
	tcase_add_test(t, last_error_is_per_thread);
	tcase_add_test(t, data_type_sizes);
	tcase_add_test(t, float16_values);
	suite_add_tcase(s, t);
	tcase_add_checked_fixture(v, version_setup, version_teardown);
	tcase_set_timeout(v, VM_TIMEOUT);
	tcase_add_test(v, version_str_and_num);
	tcase_add_test(v, version_bad_input);
	tcase_add_test(v, cann_version_of_each_name);
	suite_add_tcase(s, v);
	return vm_run_suite(s);
}
