/*
 * Unit tests of aclGetRecentErrMsg: NULL when nothing failed, one message
 * per failed call naming the call, the detail and the code, newest first,
 * cleared by reading, untouched by successful calls, per thread, bounded.
 * Every kind of failure the host can provoke without the npu_sim module is
 * checked to name its call.  Linked against libacl_rt.a.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "unit_run.h"

static int module_present(void)
{
	return access("/dev/npu_sim0", F_OK) == 0;
}

START_TEST(null_when_nothing_failed)
{
	aclrtRunMode m;

	(void)aclGetRecentErrMsg();
	ck_assert_ptr_null(aclGetRecentErrMsg());
	ck_assert_int_eq(aclrtGetRunMode(&m), ACL_SUCCESS);
	ck_assert_ptr_null(aclGetRecentErrMsg());
}
END_TEST

START_TEST(one_failure_exact_text)
{
	ck_assert_int_eq(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
	ck_assert_str_eq(aclGetRecentErrMsg(), "aclrtMalloc: devPtr is NULL (error 100000 ACL_ERROR_INVALID_PARAM)");
	ck_assert_ptr_null(aclGetRecentErrMsg());	/* read clears */
}
END_TEST

START_TEST(newest_first_and_success_keeps)
{
	aclrtRunMode m;
	int on_stack;

	ck_assert_int_eq(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetRunMode(&m), ACL_SUCCESS);	/* does not clear */
	ck_assert_int_eq(aclrtFreeHost(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtFreeHost: hostPtr is not the start of a live aclrtMallocHost block "
			 "(error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtFree: an argument is invalid (NULL pointer, zero or too large size, unknown flags or "
			 "enum value) (error 100000 ACL_ERROR_INVALID_PARAM)");
}
END_TEST

/* The returned string stays as it was until the next read, whatever fails. */
START_TEST(pointer_valid_until_next_read)
{
	const char *msg;

	ck_assert_int_eq(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
	msg = aclGetRecentErrMsg();
	ck_assert_int_eq(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_str_eq(msg, "aclrtGetRunMode: an argument is invalid (NULL pointer, zero or too large size, "
			      "unknown flags or enum value) (error 100000 ACL_ERROR_INVALID_PARAM)");
	msg = aclGetRecentErrMsg();
	ck_assert_str_eq(msg, "aclrtSetDevice: no such device (error 107001 ACL_ERROR_RT_INVALID_DEVICEID)");
}
END_TEST

static void *fail_in_thread(void *arg)
{
	const char **seen = arg;

	seen[0] = aclGetRecentErrMsg();	/* the other thread's message is not here */
	(void)aclrtGetDevice(NULL);
	seen[1] = strdup(aclGetRecentErrMsg());
	return NULL;
}

START_TEST(per_thread)
{
	const char *seen[2] = { "x", NULL };
	pthread_t t;

	ck_assert_int_eq(aclrtMallocHost(NULL, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(pthread_create(&t, NULL, fail_in_thread, seen), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_ptr_null(seen[0]);
	ck_assert_ptr_nonnull(strstr(seen[1], "aclrtGetDevice: "));
	ck_assert_str_eq(aclGetRecentErrMsg(), "aclrtMallocHost: an argument is invalid (NULL pointer, zero or too "
					       "large size, unknown flags or enum value) (error 100000 "
					       "ACL_ERROR_INVALID_PARAM)");
	free((void *)seen[1]);
}
END_TEST

/* Unread messages pile up to a bound; the newest stay, whole lines only. */
START_TEST(bounded)
{
	const char *msg;
	size_t lines = 0;

	for (int i = 0; i < 500; i++)
		(void)aclrtSetDevice(-1 - i);
	(void)aclrtGetRunMode(NULL);	/* the newest */
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_uint_lt(strlen(msg), 4096);
	ck_assert_int_eq(strncmp(msg, "aclrtGetRunMode: ", 17), 0);
	for (const char *p = msg; (p = strchr(p, '\n')) != NULL; p++) {
		ck_assert_int_eq(strncmp(p + 1, "aclrtSetDevice: no such device (error 107001 ", 45), 0);
		lines++;
	}
	ck_assert_uint_gt(lines, 10);
	ck_assert_uint_lt(lines, 500);
	ck_assert_ptr_null(aclGetRecentErrMsg());
}
END_TEST

/* Each kind of failure the host can provoke names the call and the code. */
START_TEST(every_kind_names_the_call)
{
	static const struct {
		const char *call;
		const char *code;
	} want[] = {
		{ "aclrtDestroyStream: ", "(error 107017 ACL_ERROR_RT_INVALID_HANDLE)" },
		{ "aclFinalize: ", "(error 100037 ACL_ERROR_REPEAT_FINALIZE)" },
		{ "aclInit: ", "(error 100002 ACL_ERROR_REPEAT_INITIALIZE)" },
		{ "aclrtFree: ", "(error 107000 ACL_ERROR_RT_PARAM_INVALID)" },
		{ "aclrtCreateStream: ", "(error 107002 ACL_ERROR_RT_CONTEXT_NULL)" },
		{ "aclrtResetDeviceForce: deviceId -1 is out of range 0..63 ",
		  "(error 107001 ACL_ERROR_RT_INVALID_DEVICEID)" },
		{ "aclrtMalloc: size 0 with policy 0x0 refused", "(error 100000 ACL_ERROR_INVALID_PARAM)" },
	};
	char buf[16];
	aclrtStream s;
	void *p;
	const char *msg, *line;
	size_t i = 0;

	if (module_present())
		return;	/* 107002 below needs the module absent or unset */
	ck_assert_int_eq(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtResetDeviceForce(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtFree(buf), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
	ck_assert_int_eq(aclrtDestroyStream(buf), ACL_ERROR_RT_INVALID_HANDLE);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	for (line = msg; line != NULL && i < sizeof(want) / sizeof(want[0]); i++) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		ck_assert_msg(strncmp(line, want[i].call, strlen(want[i].call)) == 0, "line %zu: %.*s", i, (int)len,
			      line);
		ck_assert_msg(len >= strlen(want[i].code) &&
				      strncmp(line + len - strlen(want[i].code), want[i].code, strlen(want[i].code)) == 0,
			      "line %zu: %.*s", i, (int)len, line);
		line = end ? end + 1 : NULL;
	}
	ck_assert_uint_eq(i, sizeof(want) / sizeof(want[0]));
	ck_assert_ptr_null(line);
}
END_TEST

/* Copy and set arguments refused before any device is touched name the limit. */
START_TEST(copy_args_name_the_limit)
{
	char a[16], b[16];

	(void)aclGetRecentErrMsg();
	ck_assert_int_eq(aclrtMemcpy(a, 8192, b, 12289, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_str_eq(aclGetRecentErrMsg(), "aclrtMemcpy: count 12289 is more than destMax 8192 "
					       "(error 107000 ACL_ERROR_RT_PARAM_INVALID)");
	ck_assert_int_eq(aclrtMemcpyAsync(a, 8, NULL, 4, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(a, 16, b, 4, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(a, 4, b, 16, 8, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemset(a, 4, 0, 8), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtMemset: count 8 is more than maxCount 4 (error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtMemcpy2d: width 8 is more than dpitch 4 (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtMemcpy: kind 9 is not an aclrtMemcpyKind of 0..5 (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtMemcpyAsync: src is NULL (error 100000 ACL_ERROR_INVALID_PARAM)");
}
END_TEST

/* Every code the library returns is named by its constant. */
START_TEST(codes_named)
{
	(void)aclGetRecentErrMsg();
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(0, 1), ACL_ERROR_FEATURE_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "(error 200006 ACL_ERROR_FEATURE_UNSUPPORTED)"));
}
END_TEST

/* Stream arguments refused before any device is touched. */
START_TEST(stream_args_named)
{
	aclrtStream s;

	(void)aclGetRecentErrMsg();
	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 9, 0x20), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclrtSynchronizeStreamWithTimeout: timeout 0 ms is neither -1 (wait forever) nor > 0 "
			 "(error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtCreateStreamWithConfig: flag 0x20: ACL_STREAM_DEVICE_USE_ONLY streams are not supported "
			 "(error 107000 ACL_ERROR_RT_PARAM_INVALID)");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("err_msg");
	TCase *t = tcase_create("core");

	tcase_add_test(t, null_when_nothing_failed);
	tcase_add_test(t, one_failure_exact_text);
	tcase_add_test(t, newest_first_and_success_keeps);
	tcase_add_test(t, pointer_valid_until_next_read);
	tcase_add_test(t, per_thread);
	tcase_add_test(t, bounded);
	tcase_add_test(t, every_kind_names_the_call);
	tcase_add_test(t, copy_args_name_the_limit);
	tcase_add_test(t, codes_named);
	tcase_add_test(t, stream_args_named);
	suite_add_tcase(s, t);
	return unit_run(s);
}
