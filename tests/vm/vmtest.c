// SPDX-License-Identifier: GPL-2.0
/* Shared helpers of the VM integration suite; see vmtest.h. */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define DBG_ROOT	"/sys/kernel/debug/npu_sim"
#define CLASS_ROOT	"/sys/class/npu_sim"
#define HP2M		"/sys/kernel/mm/hugepages/hugepages-2048kB"
#define HP1G		"/sys/kernel/mm/hugepages/hugepages-1048576kB"

/* ---- plain files ------------------------------------------------------- */

/* Reads a whole file into a NUL-terminated malloc'ed buffer (NULL on error). */
static char *slurp(const char *path, size_t *len_out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 65536, len = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (cap - len < 4097) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			close(fd);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return buf;
}

long long vm_read_ll(const char *path)
{
	char *s = slurp(path, NULL);
	char *end;
	long long v;

	if (!s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s)
		v = -1;
	free(s);
	return v;
}

int vm_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(s))
		err = -EIO;
	close(fd);
	return err;
}

int vm_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* ---- hugetlb pools ----------------------------------------------------- */

long long vm_hp2m_free(void)
{
	return vm_read_ll(HP2M "/free_hugepages");
}

long long vm_hp2m_total(void)
{
	return vm_read_ll(HP2M "/nr_hugepages");
}

long long vm_hp1g_free(void)
{
	return vm_read_ll(HP1G "/free_hugepages");
}

long long vm_hp1g_total(void)
{
	return vm_read_ll(HP1G "/nr_hugepages");
}

long long vm_meminfo(const char *key)
{
	char *s = slurp("/proc/meminfo", NULL);
	size_t klen = strlen(key);
	long long v = -1;
	char *line;

	if (!s)
		return -1;
	for (line = s; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	free(s);
	return v;
}

void vm_set_hp2m_pool(long n)
{
	char num[32];
	int err;

	snprintf(num, sizeof(num), "%ld", n);
	err = vm_write_str("/proc/sys/vm/nr_hugepages", num);
	ck_assert_msg(err == 0, "writing %ld to /proc/sys/vm/nr_hugepages: %s", n, strerror(-err));
	ck_assert_int_eq(vm_hp2m_total(), n);
	ck_assert_msg(vm_hp2m_free() == n,
		      "2 MiB pool: free %lld of %lld after setting %ld (someone holds pages)",
		      vm_hp2m_free(), vm_hp2m_total(), n);
}

/* ---- debugfs / sysfs --------------------------------------------------- */

/* Looks @key up in a "key value" per line file. 1 found, 0 not, -1 no file. */
static int kv_lookup(const char *path, const char *key, long long *val)
{
	char *s = slurp(path, NULL);
	size_t klen = strlen(key);
	char *line, *next;
	int found = 0;

	if (!s)
		return -1;
	for (line = s; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			char *end;

			errno = 0;
			*val = strtoll(line + klen + 1, &end, 10);
			found = (errno == 0 && end != line + klen + 1) ? 1 : 0;
			break;
		}
	}
	free(s);
	return found;
}

long long vm_kv_read(const char *path, const char *key)
{
	long long v;

	return kv_lookup(path, key, &v) == 1 ? v : -1;
}

static long long kv_get(int dev, const char *file, const char *key)
{
	char path[256];
	long long v = 0;
	int r;

	snprintf(path, sizeof(path), DBG_ROOT "/npu_sim%d/%s", dev, file);
	r = kv_lookup(path, key, &v);
	ck_assert_msg(r >= 0, "cannot read %s: %s", path, strerror(errno));
	ck_assert_msg(r == 1, "%s has no key '%s'", path, key);
	return v;
}

long long vm_dbg_info(int dev, const char *key)
{
	return kv_get(dev, "info", key);
}

long long vm_dbg_stat(int dev, const char *key)
{
	return kv_get(dev, "stats", key);
}

long long vm_sysfs(int dev, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), CLASS_ROOT "/npu_sim%d/%s", dev, name);
	return vm_read_ll(path);
}

#define ALLOC_HEADER "id pid va size footprint charged kind policy api flags"

long vm_dbg_allocs(int dev, struct vm_alloc **out)
{
	char path[256];
	char *s, *line, *next;
	long n = 0, cap = 0;
	struct vm_alloc *arr = NULL;
	int first = 1;

	snprintf(path, sizeof(path), DBG_ROOT "/npu_sim%d/allocations", dev);
	s = slurp(path, NULL);
	ck_assert_msg(s != NULL, "cannot read %s", path);
	for (line = s; *line; line = next) {
		struct vm_alloc a;
		int end = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (first) {
			ck_assert_msg(!strcmp(line, ALLOC_HEADER),
				      "%s header is '%s', expected '%s'", path, line, ALLOC_HEADER);
			first = 0;
			continue;
		}
		memset(&a, 0, sizeof(a));
		ck_assert_msg(sscanf(line, "%llu %ld %llx %llu %llu %llu %15s %llx %23s %31s%n",
				     &a.id, &a.pid, &a.va, &a.size, &a.footprint, &a.charged,
				     a.kind, &a.policy, a.api, a.flags, &end) == 10 &&
			      line[end] == '\0',
			      "%s: malformed line '%s'", path, line);
		if (out) {
			if (n == cap) {
				cap = cap ? cap * 2 : 256;
				arr = realloc(arr, (size_t)cap * sizeof(*arr));
				ck_assert(arr != NULL);
			}
			arr[n] = a;
		}
		n++;
	}
	ck_assert_msg(!first, "%s is empty (no header line)", path);
	free(s);
	if (out)
		*out = arr;
	return n;
}

int vm_dbg_alloc_find(int dev, uint64_t va, struct vm_alloc *out)
{
	struct vm_alloc *arr;
	long n = vm_dbg_allocs(dev, &arr), i;
	int found = 0;

	for (i = 0; i < n; i++) {
		if (arr[i].va == va) {
			ck_assert_msg(!found, "two allocations at va 0x%llx", (unsigned long long)va);
			if (out)
				*out = arr[i];
			found = 1;
		}
	}
	free(arr);
	return found;
}

long vm_dbg_allocs_of(int dev, pid_t pid)
{
	struct vm_alloc *arr;
	long n = vm_dbg_allocs(dev, &arr), i, cnt = 0;

	for (i = 0; i < n; i++)
		if (arr[i].pid == pid)
			cnt++;
	free(arr);
	return cnt;
}

long vm_dbg_contexts(int dev)
{
	char path[256];
	char *s, *p;
	long lines = 0;

	snprintf(path, sizeof(path), DBG_ROOT "/npu_sim%d/contexts", dev);
	s = slurp(path, NULL);
	ck_assert_msg(s != NULL, "cannot read %s", path);
	/* 1.6 appended limit_bytes charged_bytes faults_injected */
	ck_assert_msg(!strncmp(s, "pid allocations used_bytes window_start window_size ",
			       strlen("pid allocations used_bytes window_start window_size ")),
		      "%s: unexpected header", path);
	for (p = s; *p; p++)
		if (*p == '\n')
			lines++;
	free(s);
	return lines - 1;
}

void vm_snap_take(int dev, struct vm_snap *s)
{
	s->hp2m_free = vm_hp2m_free();
	s->hp1g_free = vm_hp1g_free();
	s->used = vm_dbg_info(dev, "used_bytes");
	s->used_normal = vm_dbg_info(dev, "used_normal_bytes");
	s->used_2m = vm_dbg_info(dev, "used_huge_2m_bytes");
	s->used_1g = vm_dbg_info(dev, "used_huge_1g_bytes");
	s->used_p2p = vm_dbg_info(dev, "used_p2p_bytes");
	s->allocations = vm_dbg_info(dev, "allocations");
	s->dev_2m_pages = vm_dbg_info(dev, "hugetlb_2m_pages");
	s->dev_1g_pages = vm_dbg_info(dev, "hugetlb_1g_pages");
	s->alloc_lines = vm_dbg_allocs(dev, NULL);
}

void vm_snap_assert_same(int dev, const struct vm_snap *b)
{
	struct vm_snap a;

	vm_snap_take(dev, &a);
	ck_assert_int_eq(a.hp2m_free, b->hp2m_free);
	ck_assert_int_eq(a.hp1g_free, b->hp1g_free);
	ck_assert_int_eq(a.used, b->used);
	ck_assert_int_eq(a.used_normal, b->used_normal);
	ck_assert_int_eq(a.used_2m, b->used_2m);
	ck_assert_int_eq(a.used_1g, b->used_1g);
	ck_assert_int_eq(a.used_p2p, b->used_p2p);
	ck_assert_int_eq(a.allocations, b->allocations);
	ck_assert_int_eq(a.dev_2m_pages, b->dev_2m_pages);
	ck_assert_int_eq(a.dev_1g_pages, b->dev_1g_pages);
	ck_assert_int_eq(a.alloc_lines, b->alloc_lines);
}

/* ---- module ------------------------------------------------------------ */

int vm_mod_loaded(void)
{
	return vm_exists("/sys/module/npu_sim");
}

int vm_mod_try_unload(void)
{
	if (syscall(SYS_delete_module, "npu_sim", O_NONBLOCK) == 0) {
		int i;

		for (i = 0; i < 200 && vm_mod_loaded(); i++)
			usleep(10000);
		return 0;
	}
	return errno;
}

static const char *ko_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("NPU_SIM_KO");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return env;
	if (vm_exists("kernel/npu_sim.ko"))
		return "kernel/npu_sim.ko";
	/* build/tests/vm/<binary> -> repository root */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(path, sizeof(path), "%s/../../../kernel/npu_sim.ko", dirname(exe));
		if (vm_exists(path))
			return path;
	}
	return "kernel/npu_sim.ko";
}

int vm_mod_try_load(const char *params)
{
	const char *ko = ko_path();
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	int err = 0;

	ck_assert_msg(fd >= 0, "open %s: %s", ko, strerror(errno));
	if (syscall(SYS_finit_module, fd, params, 0) != 0)
		err = errno;
	close(fd);
	return err;
}

int vm_sysfs_str(int dev, const char *name, char *buf, size_t n)
{
	char path[256];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), CLASS_ROOT "/npu_sim%d/%s", dev, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, n - 1);
	close(fd);
	if (len < 0)
		return -EIO;
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return 0;
}

void vm_mod_load(const char *params)
{
	const char *ko = ko_path();
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	int i;

	ck_assert_msg(fd >= 0, "open %s: %s", ko, strerror(errno));
	ck_assert_msg(syscall(SYS_finit_module, fd, params, 0) == 0,
		      "finit_module(%s, \"%s\"): %s", ko, params, strerror(errno));
	close(fd);
	for (i = 0; i < 200 && !vm_exists("/dev/npu_sim0"); i++)
		usleep(10000);
	ck_assert_msg(vm_exists("/dev/npu_sim0"), "/dev/npu_sim0 missing after insmod");
	ck_assert_msg(vm_exists(DBG_ROOT "/npu_sim0/info"), DBG_ROOT "/npu_sim0/info missing");
}

void vm_mod_reload(const char *params)
{
	if (vm_mod_loaded()) {
		int err = vm_mod_try_unload();

		ck_assert_msg(err == 0, "rmmod npu_sim: %s", strerror(err));
	}
	vm_mod_load(params);
}

void vm_mod_ensure_default(void)
{
	long long win, cap;
	char prof[64] = "atlas-a2";

	(void)vm_sysfs_str(0, "profile", prof, sizeof(prof));	/* absent: before profiles */
	if (vm_mod_loaded() && !strcmp(prof, "atlas-a2") &&
	    vm_sysfs(0, "capacity_bytes") == (long long)VM_DEFAULT_HBM_BYTES &&
	    vm_sysfs(0, "host_access") == 0 &&
	    vm_sysfs(1, "capacity_bytes") == (long long)VM_DEFAULT_HBM_BYTES &&
	    vm_sysfs(1, "host_access") == 0 &&
	    !vm_exists(CLASS_ROOT "/npu_sim2")) {
		win = vm_read_ll("/sys/module/npu_sim/parameters/va_window_gib");
		/* a test may have loaded it with a small object cap */
		cap = vm_read_ll("/sys/module/npu_sim/parameters/max_objects_per_ctx");
		if ((win == -1 || win == 1024) && (cap == -1 || cap == 1 << 20))
			return;
	}
	vm_mod_reload("");
	ck_assert_int_eq(vm_sysfs(0, "capacity_bytes"), VM_DEFAULT_HBM_BYTES);
	ck_assert_int_eq(vm_sysfs(0, "host_access"), 0);
}

/* ---- runtime fixtures -------------------------------------------------- */

void vm_mod_setup(void)
{
	vm_mod_ensure_default();
}

void vm_stream_hold(int on)
{
	ck_assert_int_eq(vm_write_str("/sys/kernel/debug/npu_sim/npu_sim0/stream_hold", on ? "1" : "0"), 0);
}

void vm_acl_setup(void)
{
	vm_mod_ensure_default();
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
}

void vm_acl_teardown(void)
{
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}

void vm_acl_stream_setup(void)
{
	vm_acl_setup();
	vm_stream_hold(0);
	(void)aclGetRecentErrMsg();
}

void vm_acl_stream_teardown(void)
{
	vm_stream_hold(0);
	vm_acl_teardown();
}

void *vm_dev_alloc(size_t n)
{
	void *p = NULL;

	ck_assert_int_eq(aclrtMalloc(&p, n, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	return p;
}

void vm_dev_put_u64(void *dev, uint64_t v)
{
	ck_assert_int_eq(aclrtMemcpy(dev, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

uint64_t vm_dev_get_u64(const void *dev)
{
	uint64_t v = 0;

	ck_assert_int_eq(aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	return v;
}

uint64_t vm_pool_attr(aclrtMemPool pool, aclrtMemPoolAttr a)
{
	uint64_t v = 0xdeadbeef;

	ck_assert_int_eq(aclrtMemPoolGetAttr(pool, a, &v), ACL_SUCCESS);
	return v;
}

void vm_hbm_info(size_t *free_b, size_t *total_b)
{
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, free_b, total_b), ACL_SUCCESS);
}

/* ---- processes --------------------------------------------------------- */

int vm_put(int fd, uint64_t v)
{
	ssize_t n;

	do
		n = write(fd, &v, sizeof(v));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(v) ? 0 : -1;
}

int vm_get(int fd, uint64_t *v)
{
	size_t got = 0;

	while (got < sizeof(*v)) {
		ssize_t n = read(fd, (char *)v + got, sizeof(*v) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

void vm_child_start(struct vm_child *c, vm_child_fn fn, void *arg)
{
	int cmd[2], rep[2];

	ck_assert(pipe2(cmd, O_CLOEXEC) == 0);
	ck_assert(pipe2(rep, O_CLOEXEC) == 0);
	fflush(NULL);
	c->pid = fork();
	ck_assert_msg(c->pid >= 0, "fork: %s", strerror(errno));
	if (c->pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		_exit(fn(arg, cmd[0], rep[1]));
	}
	close(cmd[0]);
	close(rep[1]);
	c->cmd = cmd[1];
	c->rep = rep[0];
}

uint64_t vm_child_get(struct vm_child *c)
{
	uint64_t v = 0;

	if (vm_get(c->rep, &v) != 0) {
		int st = vm_child_wait(c);

		ck_abort_msg("child %d ended early: %s %d", (int)c->pid,
			     WIFEXITED(st) ? "exit status" : "signal",
			     WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
	return v;
}

/* 'S' or 'D' (any sleep), 'R', ...; 0 if @pid is gone. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the name may hold spaces and parentheses */
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Whether /proc/PID/syscall shows ioctl(_, @cmd, ...) in progress. */
static int in_ioctl(pid_t pid, unsigned long cmd)
{
	char path[64];
	unsigned long long a0, a1;
	long nr;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ok = fscanf(f, "%ld %llx %llx", &nr, &a0, &a1) == 3 && nr == SYS_ioctl && a1 == cmd;
	fclose(f);
	return ok;
}

void vm_wait_blocked_in_ioctl(pid_t pid, unsigned long cmd)
{
	double end = vm_now() + 60;
	char st;

	for (;;) {
		st = proc_state(pid);
		if ((st == 'S' || st == 'D') && in_ioctl(pid, cmd) && proc_state(pid) == st)
			return;
		ck_assert_msg(st != 0 && st != 'Z', "process %d ended before blocking", (int)pid);
		ck_assert_msg(vm_now() < end, "process %d not blocked in ioctl 0x%lx (state %c)",
			      (int)pid, cmd, st);
		usleep(1000);
	}
}

void vm_child_put(struct vm_child *c, uint64_t v)
{
	ck_assert_msg(vm_put(c->cmd, v) == 0, "write to child %d failed", (int)c->pid);
}

int vm_child_wait(struct vm_child *c)
{
	int st = 0;

	if (c->cmd >= 0)
		close(c->cmd);
	if (c->rep >= 0)
		close(c->rep);
	c->cmd = c->rep = -1;
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

void vm_child_wait_ok(struct vm_child *c)
{
	int st = vm_child_wait(c);

	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "child failed: %s %d (exit status = number of the failed step)",
		      WIFEXITED(st) ? "exit status" : "signal",
		      WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

/* ---- misc -------------------------------------------------------------- */

int vm_all_bytes(const void *p, size_t n, unsigned char v)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		if (c[i] != v)
			return 0;
	return 1;
}

aclrtPhysicalMemProp vm_phys_prop(int attr, int loc_type, uint32_t id)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.memAttr = (aclrtMemAttr)attr;
	p.location.type = (aclrtMemLocationType)loc_type;
	p.location.id = id;
	return p;
}

void vm_fill(void *buf, size_t n, uint32_t seed)
{
	unsigned char *p = buf;
	uint32_t x = seed * 2654435761u + 12345u;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)(x >> 7);
	}
}

double vm_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int vm_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* ---- raw driver access ------------------------------------------------- */

int vm_xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) == 0 ? 0 : errno;
}

void vm_raw_open(struct vm_raw *r, int dev)
{
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	char path[64];

	snprintf(path, sizeof(path), NPU_SIM_DEV_PREFIX "%d", dev);
	r->fd = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(r->fd, 0);
	ck_assert_int_eq(vm_xioctl(r->fd, NPU_SIM_IOCTL_GET_PARAM, &gp), 0);
	r->wsize = gp.value;
	r->win = mmap(NULL, r->wsize, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	ck_assert(r->win != MAP_FAILED);
}

void vm_raw_close(struct vm_raw *r)
{
	ck_assert_int_eq(munmap(r->win, r->wsize), 0);
	close(r->fd);
}

int vm_raw_alloc(struct vm_raw *r, uint64_t bytes, uint64_t *va)
{
	struct npu_sim_mem_alloc a = {
		.size = bytes, .footprint = bytes, .backing = NPU_SIM_BACKING_NORMAL,
		.policy = 2, .api = NPU_SIM_API_MALLOC,
	};
	int err = vm_xioctl(r->fd, NPU_SIM_IOCTL_MEM_ALLOC, &a);

	if (err == 0 && va)
		*va = a.va;
	return err;
}

void vm_raw_free(struct vm_raw *r, uint64_t va)
{
	struct npu_sim_mem_free f = { .va = va };

	ck_assert_int_eq(vm_xioctl(r->fd, NPU_SIM_IOCTL_MEM_FREE, &f), 0);
}

long vm_lck_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v, sum = 0;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld kB", &v) == 1 || sscanf(line, "VmPin: %ld kB", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}
