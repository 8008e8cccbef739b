/*
 * NPU_SIM_CHECK reports (docs/checks.md), end to end: check_prog (built
 * with -g) runs as a real child process with NPU_SIM_CHECK and
 * NPU_SIM_REPORT_DIR set, and its report file must hold exactly the
 * expected blocks: the leak names the size and the allocating function
 * with file:line, a host dereference names the allocation and offset (also
 * in a fork child, and in debugfs npu_sim/reports), a double free, an
 * out-of-range copy and a use after free name their call sites, an
 * uninitialised D2H read is reported and a written one is not; set-up
 * mistakes (module absent, node not accessible) say what to do.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <misc/npu_sim.h>

#include "acl/acl.h"
#include "vmtest.h"

#define PROG "build/tests/vm/check_prog"

struct run {
	char dir[64];
	char out[8192];		/* the program's stdout */
	int status;
	char *report;		/* report.<pid>, "" when absent */
	char *err;		/* its stderr */
};

static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "re");
	char *s = calloc(1, 65536);
	size_t n = 0;

	ck_assert(s != NULL);
	if (f == NULL)
		return s;
	n = fread(s, 1, 65535, f);
	s[n] = '\0';
	fclose(f);
	return s;
}

/* Run check_prog mode with NPU_SIM_CHECK=checks (NULL: unset) as uid. */
static void run_prog(struct run *r, const char *mode, const char *checks, uid_t uid)
{
	char path[128];
	int pfd[2];
	pid_t pid;
	size_t n = 0;
	ssize_t got;

	memset(r, 0, sizeof(*r));
	strcpy(r->dir, "/tmp/npu_check.XXXXXX");
	ck_assert(mkdtemp(r->dir) != NULL);
	ck_assert_int_eq(chmod(r->dir, 0777), 0);
	ck_assert_int_eq(pipe(pfd), 0);
	pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0) {
		snprintf(path, sizeof(path), "%s/stderr", r->dir);
		int efd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);

		dup2(pfd[1], 1);
		dup2(efd, 2);
		close(pfd[0]);
		if (checks != NULL)
			setenv("NPU_SIM_CHECK", checks, 1);
		else
			unsetenv("NPU_SIM_CHECK");
		setenv("NPU_SIM_REPORT_DIR", r->dir, 1);
		if (uid != 0 && (setgid(uid) != 0 || setuid(uid) != 0))
			_exit(120);
		execl(PROG, PROG, mode, (char *)NULL);
		_exit(121);
	}
	close(pfd[1]);
	while ((got = read(pfd[0], r->out + n, sizeof(r->out) - 1 - n)) > 0)
		n += (size_t)got;
	r->out[n] = '\0';
	close(pfd[0]);
	ck_assert_int_eq(waitpid(pid, &r->status, 0), pid);
	snprintf(path, sizeof(path), "%s/report.%d", r->dir, (int)pid);
	r->report = slurp_file(path);
	snprintf(path, sizeof(path), "%s/stderr", r->dir);
	r->err = slurp_file(path);
}

static void run_free(struct run *r)
{
	char cmd[128];

	free(r->report);
	free(r->err);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", r->dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Value of "key N" in the program's output; asserts it is there. */
static unsigned long long val(const struct run *r, const char *key)
{
	char want[64];
	const char *s;

	snprintf(want, sizeof(want), "\n%s ", key);
	s = strstr(r->out, want);
	if (s == NULL && strncmp(r->out, want + 1, strlen(want + 1)) == 0)
		s = r->out - 1;
	ck_assert_msg(s != NULL, "no '%s' in the output:\n%s", key, r->out);
	return strtoull(s + strlen(want), NULL, 10);
}

/* Reports in text: lines that start with "npu_sim: ". */
static int blocks(const char *text)
{
	int n = 0;

	for (const char *s = text; (s = strstr(s, "npu_sim: ")) != NULL; s++)
		if (s == text || s[-1] == '\n')
			n++;
	return n;
}

/* The report holds line (a whole line) and, right after it, next (if not NULL). */
static void has_lines(const char *text, const char *line, const char *next)
{
	char want[1024];

	snprintf(want, sizeof(want), "%s\n%s%s", line, next != NULL ? next : "", next != NULL ? "\n" : "");
	ck_assert_msg(strstr(text, want) != NULL, "missing lines:\n%s\nin report:\n%s", want, text);
}

static void exited_ok(const struct run *r)
{
	ck_assert_msg(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0,
		      "check_prog status 0x%x, output:\n%s\nstderr:\n%s", r->status, r->out, r->err);
}

START_TEST(test_leak_report)
{
	struct run r;
	char l1[256], l2[256], l3[256];
	unsigned long long pid, site, fn;

	run_prog(&r, "leak", "leaks", 0);
	exited_ok(&r);
	pid = val(&r, "pid");
	ck_assert_uint_eq(val(&r, "on_demand"), 5);
	ck_assert_int_eq(blocks(r.report), 5);
	snprintf(l1, sizeof(l1), "npu_sim: LEAK 4096 bytes of device memory (aclrtMalloc) at 0x%llx on device 0, pid %llu",
		 val(&r, "va"), pid);
	snprintf(l2, sizeof(l2), "    at leak_alloc (check_prog.c:%llu)", val(&r, "line_leak_alloc"));
	snprintf(l3, sizeof(l3), "    by leak (check_prog.c:%llu)", val(&r, "line_main_leak_alloc"));
	has_lines(r.report, l1, l2);
	has_lines(r.report, l2, l3);
	snprintf(l1, sizeof(l1), "npu_sim: LEAK stream (aclrtCreateStream) 0x%llx on device 0, pid %llu",
		 val(&r, "stream"), pid);
	snprintf(l2, sizeof(l2), "    at leak_stream (check_prog.c:%llu)", val(&r, "line_leak_stream"));
	has_lines(r.report, l1, l2);
	snprintf(l1, sizeof(l1), "npu_sim: LEAK 2097152 bytes of address reservation (aclrtReserveMemAddress) at 0x%llx "
		 "on device 0, pid %llu", val(&r, "resv"), pid);
	snprintf(l2, sizeof(l2), "    at leak_vmm (check_prog.c:%llu)", val(&r, "line_reserve"));
	has_lines(r.report, l1, l2);
	snprintf(l1, sizeof(l1), "npu_sim: LEAK 2097152 bytes of physical memory handle (aclrtMallocPhysical) at 0x%llx "
		 "on device 0, pid %llu", val(&r, "handle"), pid);
	snprintf(l2, sizeof(l2), "    at leak_vmm (check_prog.c:%llu)", val(&r, "line_physical"));
	has_lines(r.report, l1, l2);
	snprintf(l1, sizeof(l1), "npu_sim: LEAK shareable handle (aclrtMemExportToShareableHandle) 0x%llx on device 0, "
		 "pid %llu", val(&r, "key"), pid);
	snprintf(l2, sizeof(l2), "    at leak_vmm (check_prog.c:%llu)", val(&r, "line_export"));
	has_lines(r.report, l1, l2);
	/* the same blocks went to stderr */
	ck_assert_int_eq(blocks(r.err), 5);
	/* debugfs sites: the call site, a return address inside leak_alloc */
	site = val(&r, "site");
	fn = val(&r, "fn_leak_alloc");
	ck_assert_msg(site > fn && site < fn + 256, "site 0x%llx, leak_alloc at 0x%llx", site, fn);
	run_free(&r);
}
END_TEST

START_TEST(test_leak_at_reset)
{
	struct run r;
	char l1[256], l2[256];

	run_prog(&r, "leak-reset", "leaks", 0);
	exited_ok(&r);
	ck_assert_int_eq(blocks(r.report), 1);	/* at the reset, not again at exit */
	snprintf(l1, sizeof(l1), "npu_sim: LEAK 4096 bytes of device memory (aclrtMalloc) at 0x%llx on device 0, pid %llu",
		 val(&r, "va"), val(&r, "pid"));
	snprintf(l2, sizeof(l2), "    at leak_alloc (check_prog.c:%llu)", val(&r, "line_leak_alloc"));
	has_lines(r.report, l1, l2);
	run_free(&r);
}
END_TEST

START_TEST(test_free_while_queued)
{
	struct run r;
	char l1[256], l2[256], l3[256];
	unsigned long long va;

	run_prog(&r, "queued-free", "misuse", 0);
	exited_ok(&r);
	va = val(&r, "va");
	ck_assert_int_eq(blocks(r.report), 1);
	snprintf(l1, sizeof(l1), "npu_sim: MISUSE free of memory queued stream work still uses in aclrtFree, pid %llu",
		 val(&r, "pid"));
	snprintf(l2, sizeof(l2), "    at queued_free (check_prog.c:%llu)", val(&r, "line_free"));
	has_lines(r.report, l1, l2);
	snprintf(l1, sizeof(l1), "    address 0x%llx: 1 queued operation(s) still use it; the pages stay until they are done", va);
	snprintf(l2, sizeof(l2), "    address 0x%llx is 0 bytes into 4096 bytes of device memory at 0x%llx", va, va);
	has_lines(r.report, l1, l2);
	snprintf(l3, sizeof(l3), "      at queued_free (check_prog.c:%llu)", val(&r, "line_alloc"));
	has_lines(r.report, "    allocated by aclrtMalloc:", l3);
	run_free(&r);
}
END_TEST

/* CHECK_SITE refuses bad input and changes nothing. */
START_TEST(test_check_site_ioctl)
{
	int fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);
	struct npu_sim_mem_alloc a = { .size = 4096, .footprint = 4096, .backing = NPU_SIM_BACKING_NORMAL,
				       .api = NPU_SIM_API_MALLOC };
	struct npu_sim_check_site c;
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	void *win;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp), 0);
	win = mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert(win != MAP_FAILED);
	gp = (struct npu_sim_get_param){ .param = NPU_SIM_PARAM_CAPABILITIES };
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp), 0);
	ck_assert_uint_ne(gp.value & NPU_SIM_CAP_CHECK, 0);
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_MEM_ALLOC, &a), 0);

	c = (struct npu_sim_check_site){ .va = a.va, .site = 0x1234, .op = NPU_SIM_CHECK_SET_SITE };
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c), 0);
	c = (struct npu_sim_check_site){ .va = a.va, .site = 0x99, .op = 3 };
	ck_assert(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c) == -1 && errno == EINVAL);
	c = (struct npu_sim_check_site){ .va = a.va, .site = 0x99, .op = NPU_SIM_CHECK_SET_SITE, .reserved = 1 };
	ck_assert(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c) == -1 && errno == EINVAL);
	c = (struct npu_sim_check_site){ .va = a.va, .site = 0x99, .op = NPU_SIM_CHECK_SET_SITE, .queued = 1 };
	ck_assert(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c) == -1 && errno == EINVAL);
	c = (struct npu_sim_check_site){ .va = a.va + 64, .site = 0x99, .op = NPU_SIM_CHECK_SET_SITE };
	ck_assert(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c) == -1 && errno == ENOENT);	/* interior */
	c = (struct npu_sim_check_site){ .va = 1, .op = NPU_SIM_CHECK_QUERY };
	ck_assert(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c) == -1 && errno == ENOENT);
	c = (struct npu_sim_check_site){ .va = a.va, .op = NPU_SIM_CHECK_QUERY };
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c), 0);
	ck_assert_uint_eq(c.site, 0x1234);	/* the refused calls changed nothing */
	ck_assert_uint_eq(c.queued, 0);
	munmap(win, gp.value);
	close(fd);
}
END_TEST

/* A reservation takes a site tag like an allocation (VA only, no memory). */
START_TEST(test_check_site_reservation)
{
	int fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);
	struct npu_sim_vmm_reserve rv = { .size = 2 * MiB };
	struct npu_sim_vmm_release rl = { 0 };
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	struct npu_sim_check_site c;
	char line[128], *sites;
	void *win;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp), 0);
	win = mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert(win != MAP_FAILED);
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_VMM_RESERVE, &rv), 0);

	c = (struct npu_sim_check_site){ .va = rv.va, .site = 0x5678, .op = NPU_SIM_CHECK_SET_SITE };
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c), 0);
	c = (struct npu_sim_check_site){ .va = rv.va + 4096, .site = 0x99, .op = NPU_SIM_CHECK_SET_SITE };
	ck_assert(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c) == -1 && errno == ENOENT);	/* interior */
	c = (struct npu_sim_check_site){ .va = rv.va, .op = NPU_SIM_CHECK_QUERY };
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c), 0);
	ck_assert_uint_eq(c.site, 0x5678);
	ck_assert_uint_eq(c.queued, 0);
	sites = slurp_file("/sys/kernel/debug/npu_sim/npu_sim0/sites");
	snprintf(line, sizeof(line), "%d reservation 0x%llx 2097152 site=0x5678\n", getpid(),
		 (unsigned long long)rv.va);
	ck_assert_msg(strstr(sites, line) != NULL, "no \"%s\" in sites:\n%s", line, sites);
	free(sites);

	rl.va = rv.va;
	ck_assert_int_eq(ioctl(fd, NPU_SIM_IOCTL_VMM_RELEASE, &rl), 0);
	c = (struct npu_sim_check_site){ .va = rv.va, .op = NPU_SIM_CHECK_QUERY };
	ck_assert(ioctl(fd, NPU_SIM_IOCTL_CHECK_SITE, &c) == -1 && errno == ENOENT);
	munmap(win, gp.value);
	close(fd);
}
END_TEST

/* Off by default: the same program reports nothing. */
START_TEST(test_off_by_default)
{
	struct run r;

	run_prog(&r, "leak", NULL, 0);
	exited_ok(&r);
	ck_assert_str_eq(r.report, "");
	ck_assert_int_eq(blocks(r.err), 0);
	ck_assert_uint_eq(val(&r, "site"), 0);
	ck_assert_uint_eq(val(&r, "on_demand"), (unsigned long long)-1);	/* -1: not enabled */
	run_free(&r);
}
END_TEST

/* The kernel's record of the fault (dev pid addr base offset site), with a site. */
static void kernel_fault_line(unsigned long long pid, unsigned long long addr, unsigned long long base,
			      unsigned long long off)
{
	char *s = slurp_file("/sys/kernel/debug/npu_sim/reports");
	char want[256];
	const char *at;

	snprintf(want, sizeof(want), " 0 %llu 0x%llx 0x%llx %llu 0x", pid, addr, base, off);
	at = strstr(s, want);
	ck_assert_msg(strncmp(s, "seq dev pid addr base offset site\n", 34) == 0 && at != NULL &&
		      strtoull(at + strlen(want), NULL, 16) != 0,
		      "no '%s<site>' in debugfs npu_sim/reports:\n%s", want, s);
	free(s);
}

START_TEST(test_host_deref)
{
	struct run r;
	char l1[256], l2[256], l3[256];
	unsigned long long va;

	run_prog(&r, "deref", "misuse", 0);
	ck_assert_msg(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSEGV, "status 0x%x", r.status);
	va = val(&r, "va");
	ck_assert_int_eq(blocks(r.report), 1);
	snprintf(l1, sizeof(l1), "npu_sim: MISUSE host access to device memory at 0x%llx, pid %llu (SIGSEGV)",
		 va + 100, val(&r, "pid"));
	snprintf(l2, sizeof(l2), "    0x%llx is 100 bytes into 4096 bytes of device memory at 0x%llx", va + 100, va);
	has_lines(r.report, l1, l2);
	snprintf(l3, sizeof(l3), "      at deref_alloc (check_prog.c:%llu)", val(&r, "line_deref_alloc"));
	has_lines(r.report, "    allocated by aclrtMalloc:", l3);
	/* the kernel kept it too, with the library's site tag */
	kernel_fault_line(val(&r, "pid"), va + 100, va, 100);
	run_free(&r);
}
END_TEST

START_TEST(test_host_deref_fork_child)
{
	struct run r;
	char path[128], l1[256], l2[300], l3[256];
	unsigned long long va, child;
	char *rep;

	run_prog(&r, "deref-child", "misuse", 0);
	exited_ok(&r);
	ck_assert_uint_eq(val(&r, "child_signal"), SIGSEGV);
	va = val(&r, "va");
	child = val(&r, "child");
	ck_assert_str_eq(r.report, "");	/* the parent did nothing wrong */
	snprintf(path, sizeof(path), "%s/report.%llu", r.dir, child);
	rep = slurp_file(path);
	ck_assert_int_eq(blocks(rep), 1);
	snprintf(l1, sizeof(l1), "npu_sim: MISUSE host access to device memory at 0x%llx, pid %llu (SIGSEGV)",
		 va + 8, child);
	snprintf(l2, sizeof(l2), "    0x%llx is 8 bytes into 4096 bytes of device memory at 0x%llx of the parent "
		 "process (device memory is not mapped in a fork child)", va + 8, va);
	has_lines(rep, l1, l2);
	snprintf(l3, sizeof(l3), "      at deref_alloc (check_prog.c:%llu)", val(&r, "line_deref_alloc"));
	has_lines(rep, "    allocated by aclrtMalloc:", l3);
	free(rep);
	run_free(&r);
}
END_TEST

START_TEST(test_double_free)
{
	struct run r;
	char l1[256], l2[256], l3[256];
	unsigned long long va;

	run_prog(&r, "double-free", "misuse", 0);
	exited_ok(&r);
	ck_assert_uint_eq(val(&r, "second_free"), ACL_ERROR_RT_PARAM_INVALID);
	va = val(&r, "va");
	ck_assert_int_eq(blocks(r.report), 1);
	snprintf(l1, sizeof(l1), "npu_sim: MISUSE double free in aclrtFree, pid %llu", val(&r, "pid"));
	snprintf(l2, sizeof(l2), "    at double_free (check_prog.c:%llu)", val(&r, "line_free2"));
	has_lines(r.report, l1, l2);
	snprintf(l1, sizeof(l1), "    address 0x%llx is 0 bytes into 4096 bytes of device memory at 0x%llx, already freed",
		 va, va);
	has_lines(r.report, l1, "    allocated by aclrtMalloc:");
	snprintf(l2, sizeof(l2), "      at double_free (check_prog.c:%llu)", val(&r, "line_alloc"));
	has_lines(r.report, "    allocated by aclrtMalloc:", l2);
	snprintf(l3, sizeof(l3), "      at double_free (check_prog.c:%llu)", val(&r, "line_free"));
	has_lines(r.report, "    freed by aclrtFree:", l3);
	ck_assert_ptr_nonnull(strstr(r.report, "    error: aclrtFree: "));
	run_free(&r);
}
END_TEST

START_TEST(test_copy_out_of_range)
{
	struct run r;
	char l1[256], l2[256], l3[256];
	unsigned long long va;

	run_prog(&r, "range", "misuse", 0);
	exited_ok(&r);
	ck_assert_uint_eq(val(&r, "copy"), ACL_ERROR_RT_PARAM_INVALID);
	va = val(&r, "va");
	ck_assert_int_eq(blocks(r.report), 1);
	snprintf(l1, sizeof(l1), "npu_sim: MISUSE copy out of range in aclrtMemcpy, pid %llu", val(&r, "pid"));
	snprintf(l2, sizeof(l2), "    at range (check_prog.c:%llu)", val(&r, "line_copy"));
	has_lines(r.report, l1, l2);
	snprintf(l1, sizeof(l1), "    dst [0x%llx, +16384) src [0x%llx, +16384)", val(&r, "host"), va);
	snprintf(l2, sizeof(l2), "    src 0x%llx is 0 bytes into 4096 bytes of device memory at 0x%llx", va, va);
	has_lines(r.report, l1, l2);
	snprintf(l3, sizeof(l3), "      at range (check_prog.c:%llu)", val(&r, "line_alloc"));
	has_lines(r.report, "    allocated by aclrtMalloc:", l3);
	run_free(&r);
}
END_TEST

START_TEST(test_copy_use_after_free)
{
	struct run r;
	char l1[256], l2[256], l3[256];
	unsigned long long va;

	run_prog(&r, "use-after-free", "misuse", 0);
	exited_ok(&r);
	/* the copy fails as without the check: a range not in live memory */
	ck_assert_uint_eq(val(&r, "copy"), ACL_ERROR_RT_PARAM_INVALID);
	va = val(&r, "va");
	ck_assert_int_eq(blocks(r.report), 1);
	snprintf(l1, sizeof(l1), "npu_sim: MISUSE use after free in a copy in aclrtMemcpy, pid %llu", val(&r, "pid"));
	snprintf(l2, sizeof(l2), "    at use_after_free (check_prog.c:%llu)", val(&r, "line_copy"));
	has_lines(r.report, l1, l2);
	snprintf(l1, sizeof(l1), "    dst 0x%llx is 0 bytes into 4096 bytes of device memory at 0x%llx, already freed", va, va);
	has_lines(r.report, l1, "    allocated by aclrtMalloc:");
	snprintf(l3, sizeof(l3), "      at use_after_free (check_prog.c:%llu)", val(&r, "line_free"));
	has_lines(r.report, "    freed by aclrtFree:", l3);
	run_free(&r);
}
END_TEST

START_TEST(test_uninit_read)
{
	struct run r;
	char l1[256], l2[256], l3[256];
	unsigned long long va;

	run_prog(&r, "uninit", "init", 0);
	exited_ok(&r);
	va = val(&r, "va");
	ck_assert_uint_eq(val(&r, "poisoned"), 4096 - 1536);
	ck_assert_uint_eq(val(&r, "written_ok"), 1);
	/* one report: the read of written bytes is not one */
	ck_assert_int_eq(blocks(r.report), 1);
	snprintf(l1, sizeof(l1), "npu_sim: UNINIT aclrtMemcpy reads 2560 bytes never written, pid %llu", val(&r, "pid"));
	snprintf(l2, sizeof(l2), "    at uninit (check_prog.c:%llu)", val(&r, "line_read"));
	has_lines(r.report, l1, l2);
	snprintf(l1, sizeof(l1), "    first unwritten [0x%llx, +2560) is 1536 bytes into 4096 bytes of device memory at 0x%llx",
		 va + 1536, va);
	has_lines(r.report, l1, "    allocated by aclrtMalloc:");
	snprintf(l3, sizeof(l3), "      at uninit (check_prog.c:%llu)", val(&r, "line_alloc"));
	has_lines(r.report, "    allocated by aclrtMalloc:", l3);
	run_free(&r);
}
END_TEST

/* Without init checks memory starts zeroed and nothing is reported. */
START_TEST(test_uninit_off)
{
	struct run r;

	run_prog(&r, "uninit", "leaks,misuse", 0);
	exited_ok(&r);
	ck_assert_uint_eq(val(&r, "poisoned"), 0);
	ck_assert_str_eq(r.report, "");
	run_free(&r);
}
END_TEST

START_TEST(test_setup_module_absent)
{
	struct run r;
	char *m;

	ck_assert_int_eq(vm_mod_try_unload(), 0);
	run_prog(&r, "setup", "all", 0);
	vm_mod_load("");
	exited_ok(&r);
	m = strstr(r.out, "\nmsg ");
	ck_assert_uint_eq(val(&r, "code"), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_ptr_nonnull(m);
	ck_assert_msg(strstr(m, "\nmsg aclrtSetDevice: npu_sim module not loaded: run tools/npu-sim-load or "
			      "`modprobe npu_sim` (/dev/npu_sim0 does not exist) (error 107001 "
			      "ACL_ERROR_RT_INVALID_DEVICEID)\n") == m, "message: %s", m);
	/* under NPU_SIM_CHECK also on stderr, not in the report file */
	ck_assert_ptr_nonnull(strstr(r.err, "npu_sim: SETUP aclrtSetDevice: npu_sim module not loaded: run "
					    "tools/npu-sim-load or `modprobe npu_sim`"));
	ck_assert_str_eq(r.report, "");
	run_free(&r);
}
END_TEST

START_TEST(test_setup_node_not_accessible)
{
	struct run r;
	char want[512];

	ck_assert_int_eq(chmod("/dev/npu_sim0", 0600), 0);
	run_prog(&r, "setup", NULL, 65534);
	ck_assert_int_eq(chmod("/dev/npu_sim0", 0666), 0);
	exited_ok(&r);
	ck_assert_uint_eq(val(&r, "code"), ACL_ERROR_RT_NO_PERMISSION);
	snprintf(want, sizeof(want), "\nmsg aclrtSetDevice: cannot open /dev/npu_sim0: permission denied; give this "
		 "user read-write access to it (its group or mode, e.g. a udev rule) or run as root "
		 "(error 207006 ACL_ERROR_RT_NO_PERMISSION)\n");
	ck_assert_msg(strstr(r.out, want) != NULL, "output: %s", r.out);
	ck_assert_str_eq(r.err, "");	/* checks off: nothing on stderr */
	run_free(&r);
}
END_TEST

static Suite *check_suite(void)
{
	Suite *s = suite_create("check");
	TCase *tc;

	tc = tcase_create("reports");
	tcase_add_checked_fixture(tc, vm_mod_setup, NULL);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_leak_report);
	tcase_add_test(tc, test_leak_at_reset);
	tcase_add_test(tc, test_free_while_queued);
	tcase_add_test(tc, test_check_site_ioctl);
	tcase_add_test(tc, test_check_site_reservation);
	tcase_add_test(tc, test_off_by_default);
	tcase_add_test(tc, test_host_deref);
	tcase_add_test(tc, test_host_deref_fork_child);
	tcase_add_test(tc, test_double_free);
	tcase_add_test(tc, test_copy_out_of_range);
	tcase_add_test(tc, test_copy_use_after_free);
	tcase_add_test(tc, test_uninit_read);
	tcase_add_test(tc, test_uninit_off);
	suite_add_tcase(s, tc);

	tc = tcase_create("setup");
	tcase_add_checked_fixture(tc, vm_mod_setup, NULL);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_setup_module_absent);
	tcase_add_test(tc, test_setup_node_not_accessible);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(check_suite());
}
