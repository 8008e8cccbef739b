/*
 * A program with device-memory bugs, run by test_check as a real child
 * process under NPU_SIM_CHECK.  Built with -g -O0 so the reports can name
 * file:line.  Usage: check_prog MODE; prints "key value" lines on stdout
 * (addresses, and the __LINE__ of each call the reports must name: the
 * call and its __LINE__ share one source line).
 *
 * Modes: leak, leak-reset, deref, deref-child, double-free, range,
 * use-after-free, uninit, queued-free, setup.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "npu_sim/check.h"

#define SZ 4096

static void out(const char *key, unsigned long long v)
{
	printf("%s %llu\n", key, v);
	fflush(stdout);
}

static void must(aclError e, const char *what)
{
	if (e != ACL_SUCCESS) {
		printf("fail %s %d %s\n", what, e, aclGetRecentErrMsg());
		exit(90);
	}
}

__attribute__((noinline)) static void *leak_alloc(void)
{
	void *p = NULL;

	must(aclrtMalloc(&p, SZ, ACL_MEM_MALLOC_NORMAL_ONLY), "malloc"); out("line_leak_alloc", __LINE__);
	return p;
}

__attribute__((noinline)) static aclrtStream leak_stream(void)
{
	aclrtStream s = NULL;

	must(aclrtCreateStream(&s), "stream"); out("line_leak_stream", __LINE__);
	return s;
}

/* The site debugfs shows for the allocation at va (0: none). */
static unsigned long long debugfs_site(void *va)
{
	char line[256], want[64];
	unsigned long long site = 0;
	FILE *f = fopen("/sys/kernel/debug/npu_sim/npu_sim0/sites", "re");

	if (f == NULL)
		return 0;
	snprintf(want, sizeof(want), " linear 0x%lx %d site=0x", (unsigned long)va, SZ);
	while (fgets(line, sizeof(line), f) != NULL) {
		char *s = strstr(line, want);

		if (s != NULL)
			site = strtoull(s + strlen(want), NULL, 16);
	}
	fclose(f);
	return site;
}

/* A reservation, a physical handle and its shareable key, all kept. */
static void leak_vmm(void)
{
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h = NULL;
	uint64_t key = 0;
	void *va = NULL;

	memset(&prop, 0, sizeof(prop));
	prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	prop.memAttr = ACL_MEM_NORMAL;	/* 4 KiB pages: no hugetlb pool needed */
	prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = 0;
	must(aclrtReserveMemAddress(&va, 2 << 20, 0, NULL, 0), "reserve"); out("line_reserve", __LINE__);
	must(aclrtMallocPhysical(&h, 2 << 20, &prop, 0), "physical"); out("line_physical", __LINE__);
	must(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &key), "export"); out("line_export", __LINE__);
	out("resv", (uintptr_t)va);
	out("handle", (uintptr_t)h);
	out("key", key);
}

static int leak(void)
{
	void *p, *q = NULL;
	aclrtStream s;
	FILE *null;

	must(aclrtSetDevice(0), "set");
	p = leak_alloc(); out("line_main_leak_alloc", __LINE__);
	s = leak_stream(); out("line_main_leak_stream", __LINE__);
	leak_vmm();
	must(aclrtMalloc(&q, SZ, ACL_MEM_MALLOC_NORMAL_ONLY), "malloc2");
	must(aclrtFree(q), "free2");	/* freed: not a leak */
	out("va", (uintptr_t)p);
	out("stream", (uintptr_t)s);
	out("fn_leak_alloc", (uintptr_t)leak_alloc);
	out("site", debugfs_site(p));
	null = fopen("/dev/null", "we");
	out("on_demand", (unsigned long long)npu_rt_report_leaks(null));
	fclose(null);
	return 0;	/* exit without freeing: the report comes at exit */
}

/* A leak is reported when the device closes, and not again at exit. */
static int leak_reset(void)
{
	void *p;

	must(aclrtSetDevice(0), "set");
	p = leak_alloc();
	out("va", (uintptr_t)p);
	must(aclrtResetDevice(0), "reset"); out("line_reset", __LINE__);
	out("reset_done", 1);
	return 0;
}

/* Free while a queued memset still uses the memory (stream workers held). */
static int queued_free(void)
{
	const char *hold = "/sys/kernel/debug/npu_sim/npu_sim0/stream_hold";
	aclrtStream s = NULL;
	void *p = NULL;
	FILE *f;

	must(aclrtSetDevice(0), "set");
	must(aclrtCreateStream(&s), "stream");
	must(aclrtMalloc(&p, SZ, ACL_MEM_MALLOC_NORMAL_ONLY), "malloc"); out("line_alloc", __LINE__);
	f = fopen(hold, "we");
	if (f == NULL || fputs("1", f) < 0 || fclose(f) != 0)
		return 93;
	must(aclrtMemsetAsync(p, SZ, 0, SZ, s), "memset");
	must(aclrtFree(p), "free"); out("line_free", __LINE__);
	f = fopen(hold, "we");
	if (f == NULL || fputs("0", f) < 0 || fclose(f) != 0)
		return 94;
	must(aclrtSynchronizeStream(s), "sync");
	must(aclrtDestroyStream(s), "destroy");
	out("va", (uintptr_t)p);
	must(aclrtResetDevice(0), "reset");
	return 0;
}

__attribute__((noinline)) static void *deref_alloc(void)
{
	void *p = NULL;

	must(aclrtMalloc(&p, SZ, ACL_MEM_MALLOC_NORMAL_ONLY), "malloc"); out("line_deref_alloc", __LINE__);
	return p;
}

static int deref(void)
{
	volatile char *p;

	must(aclrtSetDevice(0), "set");
	p = deref_alloc();
	out("va", (uintptr_t)p);
	p[100] = 1;	/* strict mode: SIGSEGV */
	return 91;
}

static int deref_child(void)
{
	volatile char *p;
	pid_t pid;
	int st;

	must(aclrtSetDevice(0), "set");
	p = deref_alloc();
	out("va", (uintptr_t)p);
	pid = fork();
	if (pid == 0) {
		p[8] = 1;	/* not mapped in the child */
		_exit(91);
	}
	out("child", (unsigned long long)pid);
	if (waitpid(pid, &st, 0) != pid)
		return 92;
	out("child_signal", WIFSIGNALED(st) ? (unsigned long long)WTERMSIG(st) : 0);
	must(aclrtFree((void *)p), "free");
	must(aclrtResetDevice(0), "reset");
	return 0;
}

static int double_free(void)
{
	void *p = NULL;

	must(aclrtSetDevice(0), "set");
	must(aclrtMalloc(&p, SZ, ACL_MEM_MALLOC_NORMAL_ONLY), "malloc"); out("line_alloc", __LINE__);
	must(aclrtFree(p), "free"); out("line_free", __LINE__);
	out("second_free", (unsigned long long)aclrtFree(p)); out("line_free2", __LINE__);
	out("va", (uintptr_t)p);
	must(aclrtResetDevice(0), "reset");
	return 0;
}

static int range(void)
{
	static char host[4 * SZ];	/* past the allocation's padding too */
	void *p = NULL;

	must(aclrtSetDevice(0), "set");
	must(aclrtMalloc(&p, SZ, ACL_MEM_MALLOC_NORMAL_ONLY), "malloc"); out("line_alloc", __LINE__);
	out("copy", (unsigned long long)aclrtMemcpy(host, sizeof(host), p, 4 * SZ, ACL_MEMCPY_DEVICE_TO_HOST)); out("line_copy", __LINE__);
	out("va", (uintptr_t)p);
	out("host", (uintptr_t)host);
	must(aclrtFree(p), "free");
	must(aclrtResetDevice(0), "reset");
	return 0;
}

static int use_after_free(void)
{
	static char host[SZ];
	void *p = NULL;

	must(aclrtSetDevice(0), "set");
	must(aclrtMalloc(&p, SZ, ACL_MEM_MALLOC_NORMAL_ONLY), "malloc"); out("line_alloc", __LINE__);
	must(aclrtFree(p), "free"); out("line_free", __LINE__);
	out("copy", (unsigned long long)aclrtMemcpy(p, SZ, host, 16, ACL_MEMCPY_HOST_TO_DEVICE)); out("line_copy", __LINE__);
	out("va", (uintptr_t)p);
	out("host", (uintptr_t)host);
	must(aclrtResetDevice(0), "reset");
	return 0;
}

static int uninit(void)
{
	static unsigned char host[SZ];
	void *p = NULL;
	size_t poisoned = 0;

	must(aclrtSetDevice(0), "set");
	must(aclrtMalloc(&p, SZ, ACL_MEM_MALLOC_NORMAL_ONLY), "malloc"); out("line_alloc", __LINE__);
	memset(host, 0x11, sizeof(host));
	must(aclrtMemcpy(p, SZ, host, 1024, ACL_MEMCPY_HOST_TO_DEVICE), "h2d");
	must(aclrtMemset((char *)p + 1024, SZ - 1024, 0x22, 512), "memset");
	/* written bytes only: no report */
	must(aclrtMemcpy(host, SZ, p, 1536, ACL_MEMCPY_DEVICE_TO_HOST), "d2h written");
	must(aclrtMemcpy(host, SZ, p, SZ, ACL_MEMCPY_DEVICE_TO_HOST), "d2h all"); out("line_read", __LINE__);
	for (size_t i = 1536; i < SZ; i++)
		poisoned += host[i] == 0xA5;
	out("poisoned", poisoned);
	out("written_ok", host[0] == 0x11 && host[1023] == 0x11 && host[1024] == 0x22 && host[1535] == 0x22);
	out("va", (uintptr_t)p);
	must(aclrtFree(p), "free");
	must(aclrtResetDevice(0), "reset");
	return 0;
}

static int setup(void)
{
	aclError e = aclrtSetDevice(0);
	const char *m = aclGetRecentErrMsg();

	printf("code %d\nmsg %s\n", e, m != NULL ? m : "(none)");
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} modes[] = {
		{ "leak", leak }, { "leak-reset", leak_reset }, { "queued-free", queued_free },
		{ "deref", deref }, { "deref-child", deref_child },
		{ "double-free", double_free }, { "range", range }, { "use-after-free", use_after_free },
		{ "uninit", uninit }, { "setup", setup },
	};

	out("pid", (unsigned long long)getpid());
	for (size_t i = 0; argc == 2 && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(argv[1], modes[i].name) == 0)
			return modes[i].fn();
	fprintf(stderr, "usage: check_prog MODE\n");
	return 2;
}
