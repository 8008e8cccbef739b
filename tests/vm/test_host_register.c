// SPDX-License-Identifier: GPL-2.0
/*
 * Registered host memory (issue 9): aclrtHostRegister / aclrtHostRegisterV2
 * pin a malloc'd buffer and give it a device address; copies and sets
 * through that address read and write the host bytes (interior pointers
 * from aclrtHostGetDevicePointer too).  READONLY registrations refuse
 * device writes and change nothing.  aclrtHostUnregister unpins (VmLck +
 * VmPin back).  Over RLIMIT_MEMLOCK (a child without CAP_IPC_LOCK) registration
 * fails with 207001 and nothing stays pinned.  Exact codes as documented
 * in include/acl/acl_rt.h.
 */
#include "vmtest.h"

#include <linux/capability.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <acl/acl.h>

#define LEN (64 * KiB + 100)

/* Pages [p, p + n) spans. */
static long pages_of(const void *p, size_t n)
{
	uintptr_t s = (uintptr_t)p & ~(uintptr_t)4095, e = ((uintptr_t)p + n + 4095) & ~(uintptr_t)4095;

	return (long)((e - s) / 4096);
}

START_TEST(register_copy_unregister)
{
	unsigned char *mem = malloc(LEN + 200), *buf, *src = malloc(LEN), *got = malloc(LEN);
	long lck0 = vm_lck_kib();
	void *dev = NULL, *d2 = NULL, *other = NULL;

	ck_assert_ptr_nonnull(mem);
	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(got);
	buf = mem + 100;	/* not page aligned */
	memset(buf, 0x33, LEN);
	vm_fill(src, LEN, 7);
	ck_assert_int_eq(aclrtHostRegister(buf, LEN, ACL_HOST_REGISTER_MAPPED, &dev), ACL_SUCCESS);
	ck_assert_ptr_nonnull(dev);
	ck_assert_ptr_ne(dev, buf);
	ck_assert_int_eq(vm_lck_kib(), lck0 + 4 * pages_of(buf, LEN));

	/* H2D into the device address changes the host buffer */
	ck_assert_int_eq(aclrtMemcpy(dev, LEN, src, LEN, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert(memcmp(buf, src, LEN) == 0);
	/* D2H reads host bytes, also from an interior device pointer */
	buf[5000] = 0xEE;
	ck_assert_int_eq(aclrtMemcpy(got, 16, (char *)dev + 4995, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_uint_eq(got[5], 0xEE);
	ck_assert(memcmp(got, buf + 4995, 16) == 0);
	/* a set through the device address */
	ck_assert_int_eq(aclrtMemset((char *)dev + 10, 20, 0x44, 20), ACL_SUCCESS);
	for (int i = 10; i < 30; i++)
		ck_assert_uint_eq(buf[i], 0x44);
	ck_assert_uint_eq(buf[9], src[9]);
	ck_assert_uint_eq(buf[30], src[30]);
	/* device to device: an allocation <- the registered buffer */
	ck_assert_int_eq(aclrtMalloc(&other, LEN, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(other, LEN, dev, LEN, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(got, LEN, other, LEN, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(memcmp(got, buf, LEN) == 0);
	ck_assert_int_eq(aclrtFree(other), ACL_SUCCESS);

	/* device pointers of host pointers, interior ones included */
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf, &d2, 0), ACL_SUCCESS);
	ck_assert_ptr_eq(d2, dev);
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf + 1234, &d2, 0), ACL_SUCCESS);
	ck_assert_ptr_eq(d2, (char *)dev + 1234);
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf + LEN - 1, &d2, 0), ACL_SUCCESS);
	ck_assert_ptr_eq(d2, (char *)dev + LEN - 1);
	d2 = NULL;
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf + LEN, &d2, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf, &d2, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostGetDevicePointer(NULL, &d2, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(d2);

	/* overlapping registrations are refused; nothing more is pinned */
	ck_assert_int_eq(aclrtHostRegister(buf + 10, 10, ACL_HOST_REGISTER_MAPPED, &d2), 507910);
	ck_assert_int_eq(aclrtHostRegisterV2(buf - 50, 100, ACL_HOST_REG_MAPPED), 507910);
	ck_assert_int_eq(vm_lck_kib(), lck0 + 4 * pages_of(buf, LEN));
	{
		const char *m = aclGetRecentErrMsg();

		ck_assert_ptr_nonnull(m);
		ck_assert(strncmp(m, "aclrtHostRegisterV2: [", 22) == 0);
		ck_assert_ptr_nonnull(strstr(m, "overlaps host memory registered already "
					     "(error 507910 ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED)\naclrtHostRegister: ["));
		ck_assert_ptr_nonnull(strstr(m, "aclrtHostGetDevicePointer: pHost is NULL "
					     "(error 100000 ACL_ERROR_INVALID_PARAM)"));
		ck_assert_ptr_nonnull(strstr(m, "aclrtHostGetDevicePointer: flag is reserved and must be 0 "
					     "(error 100000 ACL_ERROR_INVALID_PARAM)"));
		ck_assert_ptr_nonnull(strstr(m, "is not in registered host memory "
					     "(error 107000 ACL_ERROR_RT_PARAM_INVALID)"));
	}

	/* unregister by the start only */
	ck_assert_int_eq(aclrtHostUnregister(buf + 1), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	ck_assert_int_eq(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_SUCCESS);
	ck_assert_int_eq(vm_lck_kib(), lck0);
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	{
		char want_msg[512];

		snprintf(want_msg, sizeof(want_msg),
			 "aclrtHostUnregister: %p is not the start of a host registration of this process "
			 "(error 507911 ACL_ERROR_HOST_MEMORY_NOT_REGISTERED)\n"
			 "aclrtHostUnregister: ptr is NULL (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtHostUnregister: %p is not the start of a host registration of this process "
			 "(error 507911 ACL_ERROR_HOST_MEMORY_NOT_REGISTERED)", (void *)buf, (void *)(buf + 1));
		ck_assert_str_eq(aclGetRecentErrMsg(), want_msg);
	}
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf, &d2, 0), ACL_ERROR_RT_PARAM_INVALID);
	/* the old device address is gone: a copy to it fails, the host keeps its bytes */
	memcpy(got, buf, LEN);
	ck_assert_int_eq(aclrtMemcpy(dev, LEN, src, LEN, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert(memcmp(got, buf, LEN) == 0);
	/* registered again: a new mapping works */
	ck_assert_int_eq(aclrtHostRegister(buf, LEN, ACL_HOST_REGISTER_IOMEMORY, &d2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(d2, LEN, 0x61, LEN), ACL_SUCCESS);
	ck_assert_uint_eq(buf[0], 0x61);
	ck_assert_uint_eq(buf[LEN - 1], 0x61);
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_SUCCESS);
	ck_assert_int_eq(vm_lck_kib(), lck0);
	free(mem);
	free(src);
	free(got);
}
END_TEST

/* READONLY: the device reads, a device write is refused and changes nothing. */
START_TEST(readonly)
{
	unsigned char *buf = malloc(LEN), *src = malloc(LEN), *got = malloc(LEN);
	void *dev = NULL;

	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(got);
	vm_fill(buf, LEN, 3);
	memset(src, 0x99, LEN);
	ck_assert_int_eq(aclrtHostRegister(buf, LEN, ACL_HOST_REGISTER_READONLY, &dev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(got, LEN, dev, LEN, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert(memcmp(got, buf, LEN) == 0);
	memcpy(got, buf, LEN);
	ck_assert_int_eq(aclrtMemcpy(dev, LEN, src, LEN, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_int_eq(aclrtMemset(dev, LEN, 0, LEN), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert(memcmp(got, buf, LEN) == 0);
	{
		const char *m = aclGetRecentErrMsg();

		ck_assert_ptr_nonnull(m);
		ck_assert(strncmp(m, "aclrtMemset: the device range [", 31) == 0);
		ck_assert_ptr_nonnull(strstr(m, "(dst) is read-only (registered READONLY) or mapped without access "
						"(error 207006 ACL_ERROR_RT_NO_PERMISSION)\naclrtMemcpy: the device range ["));
	}
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_SUCCESS);

	/* the V2 form: READONLY flag, device pointer from GetDevicePointer */
	ck_assert_int_eq(aclrtHostRegisterV2(buf, LEN, ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED), ACL_SUCCESS);
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf, &dev, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(dev, LEN, src, LEN, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert(memcmp(got, buf, LEN) == 0);
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_SUCCESS);

	/* V2 MAPPED | PINNED: writable */
	ck_assert_int_eq(aclrtHostRegisterV2(buf, LEN, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED), ACL_SUCCESS);
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf + 8, &dev, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(dev, LEN - 8, src, LEN - 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert(memcmp(buf + 8, src, LEN - 8) == 0);
	ck_assert(memcmp(buf, got, 8) == 0);
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_SUCCESS);
	free(buf);
	free(src);
	free(got);
}
END_TEST

static void *no_device_thread(void *arg)
{
	void *dev = NULL;

	return (void *)(long)aclrtHostRegister(arg, 64, ACL_HOST_REGISTER_MAPPED, &dev);
}

START_TEST(bad_arguments)
{
	unsigned char *buf = malloc(LEN);
	long lck0 = vm_lck_kib();
	void *dev = NULL, *d = NULL, *ret = NULL, *gone;
	pthread_t t;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(aclrtHostRegister(NULL, LEN, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostRegister(buf, LEN, ACL_HOST_REGISTER_MAPPED, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostRegister(buf, 0, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostRegister(buf, LEN, (aclrtHostRegisterType)3, &dev),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtHostRegister(buf, UINT64_MAX, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostRegisterV2(NULL, LEN, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostRegisterV2(buf, 0, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostRegisterV2(buf, LEN, 0x1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtHostRegisterV2(buf, LEN, 0x20000000), ACL_ERROR_RT_PARAM_INVALID);
	{
		char want_msg[1024];

		snprintf(want_msg, sizeof(want_msg),
			 "aclrtHostRegisterV2: flag 0x20000000 is not a non-empty OR of ACL_HOST_REG_MAPPED, "
			 "_IOMEMORY, _READONLY, _PINNED (error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtHostRegisterV2: flag 0x1 is not a non-empty OR of ACL_HOST_REG_MAPPED, "
			 "_IOMEMORY, _READONLY, _PINNED (error 107000 ACL_ERROR_RT_PARAM_INVALID)\n"
			 "aclrtHostRegisterV2: size is 0 (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtHostRegisterV2: ptr is NULL (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtHostRegister: [%p, +18446744073709551615) wraps around the address space "
			 "(error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtHostRegister: type 0x3 is not an OR of ACL_HOST_REGISTER_IOMEMORY and _READONLY "
			 "(or MAPPED, 0) (error 207000 ACL_ERROR_RT_FEATURE_NOT_SUPPORT)\n"
			 "aclrtHostRegister: size is 0 (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtHostRegister: devPtr is NULL (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclrtHostRegister: ptr is NULL (error 100000 ACL_ERROR_INVALID_PARAM)", (void *)buf);
		ck_assert_str_eq(aclGetRecentErrMsg(), want_msg);
	}
	ck_assert_ptr_null(dev);

	/* device memory is not host memory; unmapped host memory cannot be pinned */
	ck_assert_int_eq(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtHostRegister(d, 4096, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	gone = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(gone, MAP_FAILED);
	ck_assert_int_eq(munmap(gone, 8192), 0);
	ck_assert_int_eq(aclrtHostRegister(gone, 8192, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_RT_PARAM_INVALID);
	/* read-only host memory: only a READONLY registration */
	gone = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(gone, MAP_FAILED);
	ck_assert_int_eq(aclrtHostRegister(gone, 8192, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_ptr_null(dev);
	ck_assert_int_eq(aclrtHostRegister(gone, 8192, ACL_HOST_REGISTER_READONLY, &dev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtHostUnregister(gone), ACL_SUCCESS);
	ck_assert_int_eq(munmap(gone, 8192), 0);
	ck_assert_int_eq(vm_lck_kib(), lck0);

	/* no current device */
	ck_assert_int_eq(pthread_create(&t, NULL, no_device_thread, buf), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_int_eq((long)ret, ACL_ERROR_RT_CONTEXT_NULL);

	/* a reset drops the registrations of the device */
	ck_assert_int_eq(aclrtHostRegister(buf, LEN, ACL_HOST_REGISTER_MAPPED, &dev), ACL_SUCCESS);
	ck_assert_int_eq(vm_lck_kib(), lck0 + 4 * pages_of(buf, LEN));
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(vm_lck_kib(), lck0);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtHostGetDevicePointer(buf, &d, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	ck_assert_int_eq(aclrtHostRegister(buf, LEN, ACL_HOST_REGISTER_MAPPED, &dev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtHostUnregister(buf), ACL_SUCCESS);
	free(buf);
}
END_TEST

/* Drop CAP_IPC_LOCK (root would bypass RLIMIT_MEMLOCK): 0 or -1. */
static int drop_ipc_lock(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) != 0)
		return -1;
	d[CAP_IPC_LOCK / 32].effective &= ~(1U << (CAP_IPC_LOCK % 32));
	d[CAP_IPC_LOCK / 32].permitted &= ~(1U << (CAP_IPC_LOCK % 32));
	return syscall(SYS_capset, &h, d) == 0 ? 0 : -1;
}

/*
 * Child: RLIMIT_MEMLOCK 64 KiB, no CAP_IPC_LOCK.  Reports the code of a
 * 1 MiB registration, whether VmLck stayed, the code of a 16 KiB one, and
 * its unregistration.
 */
static int child_memlock(void *arg, int cmd, int rep)
{
	struct rlimit rl = { .rlim_cur = 64 * KiB, .rlim_max = 64 * KiB };
	unsigned char *big = aligned_alloc(4096, MiB), *small = aligned_alloc(4096, 16 * KiB);
	void *dev = NULL;
	long lck0;

	(void)arg;
	(void)cmd;
	if (!big || !small || aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	if (drop_ipc_lock() || setrlimit(RLIMIT_MEMLOCK, &rl))
		return 2;
	memset(big, 1, MiB);
	lck0 = vm_lck_kib();
	if (vm_put(rep, (uint64_t)(int64_t)aclrtHostRegister(big, MiB, ACL_HOST_REGISTER_MAPPED, &dev)))
		return 3;
	if (vm_put(rep, vm_lck_kib() == lck0 && dev == NULL ? 0 : 1))
		return 4;
	{
		const char *m = aclGetRecentErrMsg();

		if (vm_put(rep, m != NULL && strstr(m, "aclrtHostRegister: pinning 1048576 bytes at ") == m &&
				strstr(m, "exceeds RLIMIT_MEMLOCK (ulimit -l) or memory "
					  "(error 207001 ACL_ERROR_RT_MEMORY_ALLOCATION)") ? 0 : 1))
			return 5;
	}
	if (vm_put(rep, (uint64_t)(int64_t)aclrtHostRegisterV2(big, MiB, ACL_HOST_REG_MAPPED)))
		return 6;
	if (vm_put(rep, (uint64_t)(int64_t)aclrtHostRegister(small, 16 * KiB, ACL_HOST_REGISTER_MAPPED, &dev)))
		return 7;
	if (vm_put(rep, vm_lck_kib() == lck0 + 16 ? 0 : 1))
		return 8;
	if (vm_put(rep, (uint64_t)(int64_t)aclrtHostUnregister(small)) || vm_put(rep, vm_lck_kib() == lck0 ? 0 : 1))
		return 9;
	return 0;
}

START_TEST(memlock_limit)
{
	struct vm_child c;

	vm_child_start(&c, child_memlock, NULL);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_uint_eq(vm_child_get(&c), 0);	/* nothing stayed pinned */
	ck_assert_uint_eq(vm_child_get(&c), 0);	/* the message names the call and the limit */
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_SUCCESS);	/* under the limit */
	ck_assert_uint_eq(vm_child_get(&c), 0);
	ck_assert_int_eq((int)(int64_t)vm_child_get(&c), ACL_SUCCESS);
	ck_assert_uint_eq(vm_child_get(&c), 0);
	vm_child_wait_ok(&c);
}
END_TEST

static Suite *hostreg_suite(void)
{
	Suite *s = suite_create("host_register");
	TCase *t = tcase_create("hostreg");

	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_set_timeout(t, VM_TIMEOUT);
	tcase_add_test(t, register_copy_unregister);
	tcase_add_test(t, readonly);
	tcase_add_test(t, bad_arguments);
	tcase_add_test(t, memlock_limit);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return vm_run_suite(hostreg_suite());
}
