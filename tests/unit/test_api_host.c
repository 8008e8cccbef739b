/*
 * Unit tests of the public API that need no npu_sim module: ACL-layer
 * argument checks, init/finalize, run mode, host memory, "no current
 * device", fork reset and the exported symbol set.  Linked against
 * build/lib/libacl_rt.a; the shared library is dlopen'ed for the symbol checks.
 * Checks whose result depends on a loaded module are skipped when
 * /dev/npu_sim0 exists.
 */
#include <check.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"

#define SENTINEL ((void *)0x5a5a5a5a)

static int module_present(void)
{
	return access("/dev/npu_sim0", F_OK) == 0;
}

START_TEST(run_mode_is_host)
{
	aclrtRunMode m = ACL_DEVICE;

	ck_assert_int_eq(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetRunMode(&m), ACL_SUCCESS);
	ck_assert_int_eq(m, ACL_HOST);
}
END_TEST

START_TEST(init_and_finalize)
{
	ck_assert_int_eq(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
	ck_assert_int_eq(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
	ck_assert_int_eq(aclInit("/"), ACL_ERROR_INVALID_FILE);	/* not a regular file */
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
	ck_assert_int_eq(aclInit("/nonexistent/acl.json"), ACL_ERROR_REPEAT_INITIALIZE);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
	ck_assert_int_eq(aclInit(""), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ck_assert_int_eq(aclInit("/proc/self/exe"), ACL_SUCCESS);	/* any readable file */
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

START_TEST(fork_child_starts_afresh)
{
	pid_t pid;
	int status = -1;

	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int32_t dev;
		/* the child is uninitialized and has no current device */
		int ok = aclInit(NULL) == ACL_SUCCESS && aclrtGetDevice(&dev) == ACL_ERROR_RT_CONTEXT_NULL &&
			 aclFinalize() == ACL_SUCCESS;
		_exit(ok ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);	/* parent unchanged */
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

START_TEST(device_ids_checked)
{
	int32_t dev = 77;

	ck_assert_int_eq(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtSetDevice(64), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtSetDevice(INT32_MAX), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtResetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtResetDevice(64), ACL_ERROR_RT_INVALID_DEVICEID);
	if (!module_present())	/* not set: no reference to release */
		ck_assert_int_eq(aclrtResetDevice(5), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
	ck_assert_int_eq(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(dev, 77);
	ck_assert_int_eq(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(no_module_no_device)
{
	uint32_t count = 99;

	ck_assert_int_eq(aclrtGetDeviceCount(&count), ACL_ERROR_RT_NO_DEVICE);
	ck_assert_uint_eq(count, 99);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_ptr_null(aclrtGetSocName());	/* no device to ask */
}
END_TEST

START_TEST(malloc_argument_checks)
{
	aclrtMallocConfig cfg = { NULL, 1 };
	void *p = SENTINEL;

	ck_assert_int_eq(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocAlign32(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocAlign32(&p, 64,
					    (aclrtMemMallocPolicy)(ACL_MEM_MALLOC_HUGE_ONLY |
								   ACL_MEM_TYPE_HIGH_BAND_WIDTH)),
			 ACL_ERROR_INVALID_PARAM);
	/* any other policy is the runtime's default memory: on to the context check */
	ck_assert_int_eq(aclrtMallocCached(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST_P2P), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMallocCached(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocWithCfg(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_eq(p, SENTINEL);
}
END_TEST

START_TEST(malloc_without_current_device)
{
	void *p = SENTINEL;

	ck_assert_int_eq(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMalloc(&p, 64, (aclrtMemMallocPolicy)12345), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMallocAlign32(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMallocCached(&p, 64, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_ptr_eq(p, SENTINEL);
}
END_TEST

START_TEST(free_checks)
{
	int on_stack;

	ck_assert_int_eq(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtFreeWithDevSync(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtFree(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
	/* the device synchronize comes first and needs a current device */
	ck_assert_int_eq(aclrtFreeWithDevSync(&on_stack), ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

START_TEST(host_memory)
{
	void *p = SENTINEL;
	int on_stack;

	ck_assert_int_eq(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocHost(&p, SIZE_MAX), ACL_ERROR_INVALID_PARAM);
	/* the runtime allocates for the current context: none here (allocation: tests/vm) */
	ck_assert_int_eq(aclrtMallocHost(&p, 1000), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_ptr_eq(p, SENTINEL);

	ck_assert_int_eq(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtFreeHost(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

START_TEST(memcpy_checks)
{
	char a[16] = "abcdefghijklmno", b[16] = { 0 };

	/* count 0 succeeds before any other check */
	ck_assert_int_eq(aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(NULL, 0, NULL, 0, (aclrtMemcpyKind)99), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(b, 0, a, 0, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);

	ck_assert_int_eq(aclrtMemcpy(NULL, 16, a, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(b, 16, NULL, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(b, 16, a, 16, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(b, 16, a, 16, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(b, 16, a, 16, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(b, 15, a, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
	/* valid arguments, but this thread has no current device */
	ck_assert_int_eq(aclrtMemcpy(b, 16, a, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(b[0], 0);
}
END_TEST

START_TEST(memcpy2d_checks)
{
	char a[64] = { 1 }, b[64] = { 0 };

	ck_assert_int_eq(aclrtMemcpy2d(NULL, 0, NULL, 0, 0, 5, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy2d(NULL, 0, NULL, 0, 5, 0, (aclrtMemcpyKind)99), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy2d(NULL, 8, a, 8, 8, 2, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(b, 8, NULL, 8, 8, 2, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(b, 7, a, 8, 8, 2, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(b, 8, a, 7, 8, 2, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(b, 8, a, 8, 8, 2, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(b, 8, a, 8, 8, 2, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(b, SIZE_MAX, a, 8, 8, 3, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy2d(b, 8, a, 8, 8, 2, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(b[0], 0);
}
END_TEST

START_TEST(memset_checks)
{
	char b[16] = { 0 };

	ck_assert_int_eq(aclrtMemset(NULL, 0, 1, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(NULL, 16, 1, 16), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemset(b, 15, 1, 16), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemset(b, 16, 1, 16), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(b[0], 0);
}
END_TEST

START_TEST(mem_info_checks)
{
	size_t f = 11, t = 22;

	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &t), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetMemInfo((aclrtMemAttr)18, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	ck_assert_int_eq(aclrtGetMemInfo((aclrtMemAttr)-1, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_DDR_MEM, &f, &t), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_uint_eq(f, 11);
	ck_assert_uint_eq(t, 22);
}
END_TEST

/* Contexts/streams/events without a device: exact codes, nothing touched. */
START_TEST(stream_args_without_device)
{
	aclrtStream s = (aclrtStream)0x1;
	aclrtEvent e = (aclrtEvent)0x1;
	aclrtContext c = (aclrtContext)0x1;
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
	aclrtEventRecordedStatus es = ACL_EVENT_RECORDED_STATUS_NOT_READY;
	char buf[16];
	float ms = 1.5f;

	ck_assert_int_eq(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_ptr_eq(s, (aclrtStream)0x1);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtGetCurrentContext(&c), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_ptr_eq(c, (aclrtContext)0x1);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL);
	/* not live handles: the runtime's handle guard (107017); contexts: 107002 */
	ck_assert_int_eq(aclrtSynchronizeStream(buf), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyStream(buf), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyEvent(buf), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyContext(buf), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSetCurrentContext(buf), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtStreamQuery(buf, &st), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtQueryEventStatus(buf, &es), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, buf, buf), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert(ms == 1.5f);
	ck_assert_int_eq(aclrtRecordEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsync(buf, 16, buf, 0, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(buf, 8, buf, 16, ACL_MEMCPY_HOST_TO_HOST, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsync(buf, 16, buf, 16, ACL_MEMCPY_HOST_TO_HOST, NULL),
			 ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMemsetAsync(NULL, 16, 0, 16, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateContext(&c, -1), ACL_ERROR_RT_INVALID_DEVICEID);
}
END_TEST

/* Only the ACL API leaves the shared library; declared-only calls do not. */
START_TEST(exported_symbols)
{
	void *h = dlopen(LIBACL_RT_SO, RTLD_NOW | RTLD_LOCAL);

	ck_assert_msg(h != NULL, "dlopen %s: %s", LIBACL_RT_SO, dlerror());
	ck_assert_ptr_nonnull(dlsym(h, "aclInit"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtMalloc"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtMemcpy2d"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtGetMemInfo"));
	ck_assert_ptr_null(dlsym(h, "npu_rt_plan_alloc"));	/* internal */
	ck_assert_ptr_null(dlsym(h, "npu_rt_errno_to_acl"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtMallocPhysical"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtMemAllocManaged"));	/* managed memory */
	ck_assert_ptr_null(dlsym(h, "npu_rt_plan_phys"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtMemcpyAsync"));	/* streams (issue 5) */
	ck_assert_ptr_nonnull(dlsym(h, "aclrtCreateContext"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtSynchronizeStreamWithTimeout"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtEventElapsedTime"));
	ck_assert_ptr_null(dlsym(h, "npu_rt_stream_enter"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtMemManagedPrefetchAsync"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtMemManagedGetAttr"));
	ck_assert_ptr_nonnull(dlsym(h, "aclrtMemManagedPrefetchBatchAsync"));
	ck_assert_ptr_null(dlsym(h, "npu_rt_impl_aclrtMalloc"));	/* behind its wrapper */
	dlclose(h);
}
END_TEST

/*
 * The shared library uses initial-exec TLS (lib/lib.mk): dlopen must still
 * load it into a process that did not start with it (the Python module's
 * way), and each thread's messages (kept on the heap, freed at the
 * thread's exit) must work in threads that come and go, also after
 * dlclose.
 */
typedef aclError (*malloc_fn)(void **, size_t, aclrtMemMallocPolicy);
typedef const char *(*msg_fn)(void);
static malloc_fn dl_malloc;
static msg_fn dl_msg;

static void *failing_call(void *arg)
{
	const char *m;

	(void)arg;
	if (dl_malloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_ERROR_INVALID_PARAM)
		return (void *)1;
	m = dl_msg();
	if (m == NULL || strcmp(m, "aclrtMalloc: devPtr is NULL (error 100000 ACL_ERROR_INVALID_PARAM)") != 0)
		return (void *)2;
	return dl_msg() == NULL ? NULL : (void *)3;	/* read once */
}

static void *unread_message(void *arg)
{
	(void)arg;
	return dl_malloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM ? NULL : (void *)1;
}

static void *no_call(void *arg)
{
	return arg;
}

START_TEST(dlopen_thread_messages)
{
	void *h = dlopen(LIBACL_RT_SO, RTLD_NOW | RTLD_LOCAL);
	pthread_t t;
	void *ret;

	ck_assert_msg(h != NULL, "dlopen %s: %s", LIBACL_RT_SO, dlerror());
	dl_malloc = (malloc_fn)dlsym(h, "aclrtMalloc");
	dl_msg = (msg_fn)dlsym(h, "aclGetRecentErrMsg");
	ck_assert(dl_malloc != NULL && dl_msg != NULL);
	ck_assert_ptr_null(failing_call(NULL));
	for (int i = 0; i < 32; i++) {
		ck_assert_int_eq(pthread_create(&t, NULL, failing_call, NULL), 0);
		ck_assert_int_eq(pthread_join(t, &ret), 0);
		ck_assert_ptr_null(ret);
	}
	/* a thread that leaves its message unread frees it at its exit */
	ck_assert_int_eq(pthread_create(&t, NULL, unread_message, NULL), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_ptr_null(ret);
	ck_assert_int_eq(dlclose(h), 0);
	/* no destructor of the library runs at a thread's exit after dlclose */
	ck_assert_int_eq(pthread_create(&t, NULL, no_call, NULL), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
}
END_TEST

static Suite *api_suite(void)
{
	Suite *s = suite_create("api_host");
	TCase *t = tcase_create("core");

	tcase_add_test(t, run_mode_is_host);
	tcase_add_test(t, init_and_finalize);
	tcase_add_test(t, fork_child_starts_afresh);
	tcase_add_test(t, device_ids_checked);
	/* meaningful only where the module is not loaded: else a skip, said */
	if (!module_present())
		tcase_add_test(t, no_module_no_device);
	else
		printf("SKIPPED: test_api_host no_module_no_device: /dev/npu_sim0 exists\n");
	tcase_add_test(t, malloc_argument_checks);
	tcase_add_test(t, stream_args_without_device);
	tcase_add_test(t, malloc_without_current_device);
	tcase_add_test(t, free_checks);
	tcase_add_test(t, host_memory);
	tcase_add_test(t, memcpy_checks);
	tcase_add_test(t, memcpy2d_checks);
	tcase_add_test(t, memset_checks);
	tcase_add_test(t, mem_info_checks);
	tcase_add_test(t, exported_symbols);
	tcase_add_test(t, dlopen_thread_messages);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(api_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
