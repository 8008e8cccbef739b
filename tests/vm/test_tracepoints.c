// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's tracepoints (trace system npu_sim): trace-cmd records a
 * program's copy with its exact byte count, direction and devices, and the
 * allocation, mapping and free around it; the same events read straight
 * from tracefs show a stream op's start and end.
 */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"

#define TRACEFS "/sys/kernel/tracing"
#define DAT "/tmp/npu_sim_test_trace.dat"
#define H2D_BYTES 123457
#define D2H_BYTES 65536

static char self[PATH_MAX];

/* The program trace-cmd runs (this binary with --copy): two copies. */
static int copy_program(void)
{
	static unsigned char host[H2D_BYTES];
	void *dev = NULL;

	if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
		return 1;
	if (aclrtMalloc(&dev, 1 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
		return 2;
	if (aclrtMemcpy(dev, 1 * MiB, host, H2D_BYTES, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
		return 3;
	if (aclrtMemcpy(host, D2H_BYTES, dev, D2H_BYTES, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
		return 4;
	if (aclrtFree(dev) != ACL_SUCCESS || aclrtResetDevice(0) != ACL_SUCCESS)
		return 5;
	return aclFinalize() == ACL_SUCCESS ? 0 : 6;
}

static void setup(void)
{
	vm_mod_ensure_default();
	if (!vm_exists(TRACEFS "/events"))
		ck_assert_int_eq(mount("tracefs", TRACEFS, "tracefs", 0, NULL), 0);
	ck_assert_msg(vm_exists(TRACEFS "/events/npu_sim/npu_sim_copy/format"),
		      "the npu_sim events are not in tracefs");
}

/* Number of lines of @text containing all of @a, @b (and @c if set). */
static int count_lines(const char *text, const char *a, const char *b, const char *c)
{
	const char *p = text, *nl;
	char line[1024];
	int n = 0;

	while (*p) {
		size_t len;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		if (strstr(line, a) && strstr(line, b) && (!c || strstr(line, c)))
			n++;
		p = nl ? nl + 1 : p + len;
	}
	return n;
}

static char *run_capture(const char *cmd)
{
	size_t cap = 1 << 20, len = 0, n;
	char *buf = malloc(cap);
	FILE *f = popen(cmd, "r");

	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(f);
	while ((n = fread(buf + len, 1, cap - 1 - len, f)) > 0) {
		len += n;
		if (len == cap - 1) {
			cap *= 2;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
	}
	buf[len] = '\0';
	ck_assert_msg(pclose(f) == 0, "%s failed:\n%s", cmd, buf);
	return buf;
}

START_TEST(test_trace_cmd_records_copy)
{
	char cmd[PATH_MAX + 128], want[128];
	char *rep;

	snprintf(cmd, sizeof(cmd), "trace-cmd record -q -e npu_sim -o " DAT " %s --copy 2>&1", self);
	free(run_capture(cmd));
	rep = run_capture("trace-cmd report -i " DAT " 2>&1");

	snprintf(want, sizeof(want), "dir=H2D bytes=%d src_dev=-1 dst_dev=0 ", H2D_BYTES);
	ck_assert_msg(count_lines(rep, "npu_sim_copy:", want, "ret=0") == 1,
		      "no H2D copy of %d bytes in:\n%s", H2D_BYTES, rep);
	snprintf(want, sizeof(want), "dir=D2H bytes=%d src_dev=0 dst_dev=-1 ", D2H_BYTES);
	ck_assert_msg(count_lines(rep, "npu_sim_copy:", want, "ret=0") == 1,
		      "no D2H copy of %d bytes in:\n%s", D2H_BYTES, rep);
	/* 1 MiB + the library's 32 bytes of padding, in 4 KiB pages: 257 pages */
	ck_assert_msg(count_lines(rep, "npu_sim_alloc:", "bytes=1052672 kind=normal mem=device", NULL) == 1,
		      "alloc:\n%s", rep);
	ck_assert_msg(count_lines(rep, "npu_sim_map:", "role=linear", NULL) == 1, "map:\n%s", rep);
	ck_assert_msg(count_lines(rep, "npu_sim_unmap:", "role=linear", NULL) == 1, "unmap:\n%s", rep);
	ck_assert_msg(count_lines(rep, "npu_sim_free:", "bytes=1052672 kind=normal mem=device", NULL) == 1,
		      "free:\n%s", rep);
	free(rep);
	unlink(DAT);
}
END_TEST

/* tracefs directly: an async copy shows as stream op start, copy, end. */
/* Enables the npu_sim events on an empty trace buffer. */
static void tracefs_start(void)
{
	int fd;

	ck_assert_int_eq(vm_write_str(TRACEFS "/events/npu_sim/enable", "1"), 0);
	fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);	/* clear */
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(vm_write_str(TRACEFS "/tracing_on", "1"), 0);
}

/* Disables the events and returns the trace text (malloc'ed, up to 1 MiB). */
static char *tracefs_stop(void)
{
	char *text = calloc(1, 1 << 20);
	FILE *f;
	size_t n;

	ck_assert_int_eq(vm_write_str(TRACEFS "/events/npu_sim/enable", "0"), 0);
	ck_assert_ptr_nonnull(text);
	f = fopen(TRACEFS "/trace", "r");
	ck_assert_ptr_nonnull(f);
	n = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

START_TEST(test_tracefs_stream_op)
{
	static unsigned char host[4096];
	aclrtStream st = NULL;
	void *dev = NULL;
	char *text, want[64];

	tracefs_start();
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&st), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&dev, sizeof(host), ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, sizeof(host), host, 3000, ACL_MEMCPY_HOST_TO_DEVICE, st),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(st), ACL_SUCCESS);

	text = tracefs_stop();
	snprintf(want, sizeof(want), "pid=%d ", (int)getpid());
	ck_assert_msg(count_lines(text, "npu_sim_stream_op_start:", want, "op=copy ret=0") == 1,
		      "%s", text);
	ck_assert_msg(count_lines(text, "npu_sim_stream_op_end:", want, "op=copy ret=0") == 1,
		      "%s", text);
	ck_assert_msg(count_lines(text, "npu_sim_copy:", "dir=H2D bytes=3000 src_dev=-1 dst_dev=0 ",
				  "ret=0") == 1, "%s", text);
	free(text);
	ck_assert_int_eq(aclrtFree(dev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(st), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

/* Managed memory: a device write migrates the block, a host read brings it back. */
START_TEST(test_tracefs_migrate_and_host_fault)
{
	static unsigned char host[4096];
	volatile char *p = NULL;
	char *text, want[64];

	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemAllocManaged((void **)&p, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL),
			 ACL_SUCCESS);
	tracefs_start();
	host[0] = 42;
	ck_assert_int_eq(aclrtMemcpy((void *)p, sizeof(host), host, sizeof(host),
				     ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(p[0], 42);	/* host read: fault, block back to the host */

	text = tracefs_stop();
	snprintf(want, sizeof(want), "pid=%d va=0x%lx ", (int)getpid(), (unsigned long)p);
	ck_assert_msg(count_lines(text, "npu_sim_migrate:", want, "bytes=2097152 to=device") == 1,
		      "%s", text);
	ck_assert_msg(count_lines(text, "npu_sim_migrate:", want, "bytes=2097152 to=host") == 1,
		      "%s", text);
	snprintf(want, sizeof(want), "pid=%d addr=0x%lx read", (int)getpid(), (unsigned long)p);
	ck_assert_msg(count_lines(text, "npu_sim_host_fault:", want, NULL) == 1, "%s", text);
	free(text);
	ck_assert_int_eq(aclrtFree((void *)p), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
}
END_TEST

static Suite *tracepoints_suite(void)
{
	Suite *s = suite_create("tracepoints");
	TCase *tc = tcase_create("tracepoints");

	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_trace_cmd_records_copy);
	tcase_add_test(tc, test_tracefs_stream_op);
	tcase_add_test(tc, test_tracefs_migrate_and_host_fault);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	ssize_t n;

	if (argc == 2 && strcmp(argv[1], "--copy") == 0)
		return copy_program();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 2;
	self[n] = '\0';
	return vm_run_suite(tracepoints_suite());
}
