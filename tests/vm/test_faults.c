// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection (UAPI 1.6 FAULT_INJECT, debugfs "faults",
 * NPU_SIM_FAULTS): the same seed fails the same calls of a program run
 * twice as two real processes, each with the error code of its operation;
 * the library prints the seed once; bad settings are refused; the debugfs
 * knob and the old fail_alloc counter work.
 */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <misc/npu_sim.h>

#include "acl/acl.h"

#define NCALLS 60
#define FAULTS_DBG "/sys/kernel/debug/npu_sim/npu_sim0/faults"

static void setup(void)
{
	vm_mod_ensure_default();
	ck_assert_int_eq(vm_write_str(FAULTS_DBG, "0 0 0"), 0);
	unsetenv("NPU_SIM_FAULTS");
}

static void teardown(void)
{
	vm_write_str(FAULTS_DBG, "0 0 0");
}

/*
 * The program run twice: NCALLS calls cycling through aclrtMalloc,
 * aclrtMemcpy and aclrtMemcpyAsync + aclrtSynchronizeStream, each call's
 * aclError written to @fd.  Returns 0, or the step that could not run.
 */
static int program(int fd)
{
	static char host[4096];
	aclrtStream st = NULL;
	void *buf = NULL, *p;
	aclError codes[NCALLS];
	int i, tries;

	if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
	    aclrtCreateStream(&st) != ACL_SUCCESS)
		return 10;
	/* The buffer the copies use (an allocation may be failed too). */
	for (tries = 0; buf == NULL && tries < 50; tries++)
		if (aclrtMalloc(&buf, sizeof(host), ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
			buf = NULL;
	if (buf == NULL)
		return 11;
	for (i = 0; i < NCALLS; i++) {
		switch (i % 3) {
		case 0:
			p = NULL;
			codes[i] = aclrtMalloc(&p, 65536, ACL_MEM_MALLOC_NORMAL_ONLY);
			if (codes[i] == ACL_SUCCESS && aclrtFree(p) != ACL_SUCCESS)
				return 12;
			break;
		case 1:
			codes[i] = aclrtMemcpy(buf, sizeof(host), host, sizeof(host),
					       ACL_MEMCPY_HOST_TO_DEVICE);
			break;
		default:
			codes[i] = aclrtMemcpyAsync(buf, sizeof(host), host, sizeof(host),
						    ACL_MEMCPY_HOST_TO_DEVICE, st);
			if (codes[i] == ACL_SUCCESS)
				codes[i] = aclrtSynchronizeStream(st);
			break;
		}
	}
	if (write(fd, codes, sizeof(codes)) != (ssize_t)sizeof(codes))
		return 13;
	return 0;
}

/* Runs program() in a new process with NPU_SIM_FAULTS=@faults. */
static void run_program(const char *faults, aclError *codes, char *err, size_t errsz)
{
	int res[2], errp[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	ck_assert_int_eq(pipe(res), 0);
	ck_assert_int_eq(pipe(errp), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(res[0]);
		close(errp[0]);
		dup2(errp[1], 2);
		setenv("NPU_SIM_FAULTS", faults, 1);
		_exit(program(res[1]));
	}
	close(res[1]);
	close(errp[1]);
	while (got < (ssize_t)(NCALLS * sizeof(*codes)) &&
	       (n = read(res[0], (char *)codes + got, NCALLS * sizeof(*codes) - got)) > 0)
		got += n;
	n = read(errp[0], err, errsz - 1);
	err[n > 0 ? n : 0] = '\0';
	close(res[0]);
	close(errp[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "program with NPU_SIM_FAULTS=%s: status 0x%x", faults, status);
	ck_assert_int_eq(got, NCALLS * sizeof(*codes));
}

START_TEST(test_same_seed_same_failures)
{
	long long injected = vm_dbg_stat(0, "fail_injected");
	aclError a[NCALLS], b[NCALLS], c[NCALLS];
	char ea[512], eb[512], ec[512];
	int i, failed = 0, ok = 0, diff = 0;

	run_program("20261201:0.25:alloc,copy,stream", a, ea, sizeof(ea));
	run_program("20261201:25%:alloc+copy+stream", b, eb, sizeof(eb));
	for (i = 0; i < NCALLS; i++) {
		ck_assert_msg(a[i] == b[i], "call %d: %d then %d", i, a[i], b[i]);
		if (a[i] == ACL_SUCCESS) {
			ok++;
			continue;
		}
		failed++;
		/* Each with the code of its operation. */
		ck_assert_int_eq(a[i], i % 3 == 0 ? ACL_ERROR_RT_MEMORY_ALLOCATION :
						    ACL_ERROR_RT_DRV_INTERNAL_ERROR);
	}
	ck_assert_int_gt(failed, 0);
	ck_assert_int_gt(ok, 0);
	/* one injected failure per failed call, in each of the two runs */
	ck_assert_int_eq(vm_dbg_stat(0, "fail_injected"), injected + 2 * failed);
	/* The seed is printed once per process, so the run can be replayed. */
	ck_assert_str_eq(ea, "npu_sim: fault injection seed=20261201 rate=0.250000 ops=alloc,copy,stream\n");
	ck_assert_str_eq(eb, ea);

	/* Another seed fails other calls. */
	run_program("7:0.25:alloc,copy,stream", c, ec, sizeof(ec));
	for (i = 0; i < NCALLS; i++)
		diff += a[i] != c[i];
	ck_assert_int_gt(diff, 0);
	ck_assert_str_eq(ec, "npu_sim: fault injection seed=7 rate=0.250000 ops=alloc,copy,stream\n");
}
END_TEST

/* Only the chosen classes fail: copies only, so every allocation works. */
START_TEST(test_ops_choose_classes)
{
	aclError a[NCALLS];
	char e[512];
	int i, failed = 0;

	run_program("99:1:copy", a, e, sizeof(e));
	for (i = 0; i < NCALLS; i++) {
		if (i % 3 == 1) {
			ck_assert_int_eq(a[i], ACL_ERROR_RT_DRV_INTERNAL_ERROR);
			failed++;
		} else {
			ck_assert_int_eq(a[i], ACL_SUCCESS);
		}
	}
	ck_assert_int_eq(failed, NCALLS / 3);
	ck_assert_str_eq(e, "npu_sim: fault injection seed=99 rate=1.000000 ops=copy\n");
}
END_TEST

START_TEST(test_env_malformed)
{
	static const char *const bad[] = {
		"1", "x:0.1", "1:0", "1:1.5", "1:101%", "1:0.1:", "1:0.1:alloc,", "1:0.1:nothing",
		"1:abc", "-1:0.1", "1:0.1:alloc,,copy",
	};
	size_t i;
	const char *msg;

	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("NPU_SIM_FAULTS", bad[i], 1);
		ck_assert_msg(aclrtSetDevice(0) == ACL_ERROR_RT_PARAM_INVALID, "%s accepted", bad[i]);
		msg = aclGetRecentErrMsg();
		ck_assert_ptr_nonnull(msg);
		ck_assert_msg(strstr(msg, "NPU_SIM_FAULTS=") != NULL, "%s: %s", bad[i], msg);
	}
	ck_assert_int_eq(vm_dbg_contexts(0), 0);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

/* A VMM map fails with 207001 at rate 100%; the reservation is untouched. */
START_TEST(test_map_fault)
{
	long long injected = vm_dbg_stat(0, "fail_injected");
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h;
	void *va = NULL;

	setenv("NPU_SIM_FAULTS", "3:100%:map", 1);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	prop = vm_phys_prop(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
	ck_assert_int_eq(aclrtReserveMemAddress(&va, 2 * MiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &prop, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(va, 2 * MiB, 0, h, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_int_eq(vm_dbg_stat(0, "fail_injected"), injected + 1);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(va), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

static int inject(int fd, uint64_t seed, uint32_t rate, uint32_t ops)
{
	struct npu_sim_fault_inject f = { .seed = seed, .rate = rate, .ops = ops };

	return vm_xioctl(fd, NPU_SIM_IOCTL_FAULT_INJECT, &f);
}

START_TEST(test_raw_ioctl_input)
{
	struct npu_sim_fault_inject f;
	struct vm_raw r;
	uint64_t va;

	vm_raw_open(&r, 0);
	ck_assert_int_eq(inject(r.fd, 1, NPU_SIM_FAULT_RATE_ONE + 1, 1U << NPU_SIM_FAULT_ALLOC),
			 EINVAL);
	ck_assert_int_eq(inject(r.fd, 1, 1000, 1U << 0), EINVAL);
	ck_assert_int_eq(inject(r.fd, 1, 1000, 1U << 6), EINVAL);
	ck_assert_int_eq(inject(r.fd, 1, 1000, 0), EINVAL);
	f = (struct npu_sim_fault_inject){ .rate = 1, .ops = 2, .pad = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_FAULT_INJECT, &f), EINVAL);
	f = (struct npu_sim_fault_inject){ .rate = 1, .ops = 2, .reserved[1] = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_FAULT_INJECT, &f), EINVAL);
	f = (struct npu_sim_fault_inject){ .rate = 1, .ops = 2, .flags = 1 };
	ck_assert_int_eq(vm_xioctl(r.fd, NPU_SIM_IOCTL_FAULT_INJECT, &f), EINVAL);
	/* None of them took effect. */
	ck_assert_int_eq(vm_raw_alloc(&r, 4096, &va), 0);
	vm_raw_free(&r, va);

	/* 100% of allocations; rate 0 turns it off again. */
	ck_assert_int_eq(inject(r.fd, 1, NPU_SIM_FAULT_RATE_ONE, 1U << NPU_SIM_FAULT_ALLOC), 0);
	ck_assert_int_eq(vm_raw_alloc(&r, 4096, &va), ENOMEM);
	ck_assert_int_eq(vm_raw_alloc(&r, 4096, &va), ENOMEM);
	ck_assert_int_eq(inject(r.fd, 1, 0, 0), 0);
	ck_assert_int_eq(vm_raw_alloc(&r, 4096, &va), 0);
	vm_raw_free(&r, va);
	vm_raw_close(&r);
}
END_TEST

/* Root's knob: the setting every new context starts with. */
START_TEST(test_debugfs_knob)
{
	char buf[64];
	FILE *f;
	struct vm_raw r1, r2;
	uint64_t va;

	vm_raw_open(&r1, 0);
	ck_assert_int_eq(vm_write_str(FAULTS_DBG, "5 1000000 0x2"), 0);
	f = fopen(FAULTS_DBG, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "5 1000000 0x2\n");
	ck_assert_int_eq(vm_write_str(FAULTS_DBG, "5 1000001 0x2"), -EINVAL);	/* rate > 1e6 */
	ck_assert_int_eq(vm_write_str(FAULTS_DBG, "5 10 0x1"), -EINVAL);	/* bit 0: no op */
	ck_assert_int_eq(vm_write_str(FAULTS_DBG, "5 10"), -EINVAL);		/* no mask */

	vm_raw_open(&r2, 0);
	ck_assert_int_eq(vm_raw_alloc(&r2, 4096, &va), ENOMEM);
	/* The context opened before keeps its own setting (none). */
	ck_assert_int_eq(vm_raw_alloc(&r1, 4096, &va), 0);
	vm_raw_free(&r1, va);
	vm_raw_close(&r2);
	vm_raw_close(&r1);
	ck_assert_int_eq(vm_write_str(FAULTS_DBG, "0 0 0"), 0);
}
END_TEST

/* The old knob: fail the next N allocations. */
START_TEST(test_fail_alloc_still_works)
{
	struct vm_raw r;
	uint64_t va;

	vm_raw_open(&r, 0);
	ck_assert_int_eq(vm_write_str("/sys/kernel/debug/npu_sim/npu_sim0/fail_alloc", "1"), 0);
	ck_assert_int_eq(vm_raw_alloc(&r, 4096, &va), ENOMEM);
	ck_assert_int_eq(vm_raw_alloc(&r, 4096, &va), 0);
	vm_raw_free(&r, va);
	vm_raw_close(&r);
}
END_TEST

static Suite *faults_suite(void)
{
	Suite *s = suite_create("faults");
	TCase *tc = tcase_create("faults");

	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_same_seed_same_failures);
	tcase_add_test(tc, test_ops_choose_classes);
	tcase_add_test(tc, test_env_malformed);
	tcase_add_test(tc, test_map_fault);
	tcase_add_test(tc, test_raw_ioctl_input);
	tcase_add_test(tc, test_debugfs_knob);
	tcase_add_test(tc, test_fail_alloc_still_works);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(faults_suite());
}
