// SPDX-License-Identifier: GPL-2.0
/*
 * The call trace (NPU_SIM_TRACE, docs/tracing.md) against the real module:
 * the known program tests/vm/trace_prog.c runs as a real child process with
 * the variable set; its trace has the expected lines (names, argument
 * values, outputs, results, in order, the forked child's line too), the
 * converter tools/npu-sim-trace2perfetto turns it into valid Chrome trace
 * JSON with the calls and the stream span, and build/tools/npu-sim-replay
 * reproduces it exactly (exit 0) and reports the differences of an edited
 * trace (exit 1).
 */
#include "vmtest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include <acl/acl.h>

#define PROG "build/tests/vm/trace_prog"
#define CONVERTER "tools/npu-sim-trace2perfetto"
#define REPLAY "build/tools/npu-sim-replay"
#define TRACE "/tmp/npu_sim_test_trace.jsonl"
#define EDITED "/tmp/npu_sim_test_trace_edited.jsonl"
#define PERFETTO "/tmp/npu_sim_test_trace.json"

/* Names of the program's calls, in order (trace_prog.c). */
static const char *const expect_names[] = {
	"aclrtSetDevice", "aclrtMalloc", "aclrtMemcpy", "aclrtCreateStream", "aclrtMemcpyAsync",
	"aclrtSynchronizeStream", "aclrtGetMemInfo", "aclrtGetMemInfo", "aclrtMalloc", "aclrtDestroyStream",
	"aclrtFree", "aclrtFree", "aclrtGetMemInfo", "aclrtResetDevice",
};
/* The line of the call made from the second thread. */
#define THREAD_LINE 7
#define N_CALLS (sizeof(expect_names) / sizeof(expect_names[0]))

/* What trace_prog printed. */
struct prog_out {
	unsigned long long host, dev, stream, free1, total, free2;
	int child, pid;
};

/*
 * Runs argv with NPU_SIM_TRACE=trace (NULL: unset) and stdout into out
 * (NUL-terminated); returns the wait status.  Runs in a child process, so
 * the variable never reaches this process's library.
 */
static int run(char *const argv[], const char *trace, char *out, size_t len, int *pid)
{
	int fds[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t p;

	ck_assert_int_eq(pipe(fds), 0);
	p = fork();
	ck_assert_int_ge(p, 0);
	if (p == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		unsetenv("NPU_SIM_TRACE_OWNER");
		if (trace != NULL)
			setenv("NPU_SIM_TRACE", trace, 1);
		else
			unsetenv("NPU_SIM_TRACE");
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while (got + 1 < len && (n = read(fds[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(fds[0]);
	ck_assert_int_eq(waitpid(p, &status, 0), p);
	if (pid != NULL)
		*pid = p;
	return status;
}

/* Runs the known program with the trace on; returns what it printed. */
static struct prog_out record(void)
{
	char *const argv[] = { PROG, NULL };
	struct prog_out o;
	char out[512];
	int status;

	unlink(TRACE);
	status = run(argv, TRACE, out, sizeof(out), &o.pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "trace_prog failed at step %d: %s",
		      WEXITSTATUS(status), out);
	ck_assert_int_eq(sscanf(out, "host=%llx dev=%llx stream=%llx free1=%llu total=%llu free2=%llu child=%d",
				&o.host, &o.dev, &o.stream, &o.free1, &o.total, &o.free2, &o.child),
			 7);
	return o;
}

/* The lines of a trace file, parsed; *n set. */
static json_object **read_lines(const char *path, size_t *n)
{
	json_object **lines = calloc(64, sizeof(*lines));
	char buf[8192];
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(lines);
	*n = 0;
	while (fgets(buf, sizeof(buf), f) != NULL) {
		ck_assert_msg(strchr(buf, '\n') != NULL, "line %zu has no newline", *n + 1);
		ck_assert_uint_lt(*n, 64);
		lines[*n] = json_tokener_parse(buf);
		ck_assert_msg(lines[*n] != NULL, "line %zu is not JSON: %s", *n + 1, buf);
		(*n)++;
	}
	fclose(f);
	return lines;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no member %s in %s", key,
		      json_object_to_json_string(o));
	return v;
}

static long long num(json_object *o, const char *key)
{
	return (long long)json_object_get_int64(get(o, key));
}

static unsigned long long unum(json_object *o, const char *key)
{
	return (unsigned long long)json_object_get_uint64(get(o, key));
}

static unsigned long long hexv(json_object *o, const char *key)
{
	const char *s = json_object_get_string(get(o, key));

	ck_assert_msg(s != NULL && strncmp(s, "0x", 2) == 0, "%s is not a hex string", key);
	return strtoull(s, NULL, 16);
}

static int has(json_object *o, const char *key)
{
	return json_object_object_get_ex(o, key, NULL);
}

START_TEST(test_trace_lines)
{
	struct prog_out o = record();
	json_object **l, *a, *out;
	size_t n, i;

	l = read_lines(TRACE, &n);
	ck_assert_uint_eq(n, N_CALLS + 1);
	for (i = 0; i < N_CALLS; i++) {
		ck_assert_str_eq(json_object_get_string(get(l[i], "name")), expect_names[i]);
		ck_assert_int_eq(num(l[i], "pid"), o.pid);
		if (i == THREAD_LINE)
			ck_assert_int_ne(num(l[i], "tid"), o.pid);
		else
			ck_assert_int_eq(num(l[i], "tid"), o.pid);
		ck_assert_int_eq(num(l[i], "seq"), (long long)i + 1);
		ck_assert_int_ge(num(l[i], "dur"), 0);
		if (i > 0)
			ck_assert_int_ge(num(l[i], "ts"), num(l[i - 1], "ts") + num(l[i - 1], "dur"));
		ck_assert(!has(l[i], "truncated"));
	}
	/* aclrtSetDevice(0): the device is current once it returned */
	ck_assert_int_eq(num(get(l[0], "args"), "deviceId"), 0);
	ck_assert_int_eq(num(l[0], "result"), 0);
	ck_assert_int_eq(num(l[0], "device"), 0);
	/* aclrtMalloc(&dev, 1 MiB, NORMAL_ONLY) -> dev */
	a = get(l[1], "args");
	ck_assert_uint_eq(unum(a, "size"), 1048576);
	ck_assert_int_eq(num(a, "policy"), ACL_MEM_MALLOC_NORMAL_ONLY);
	ck_assert_uint_eq(hexv(get(l[1], "out"), "devPtr"), o.dev);
	ck_assert_int_eq(num(l[1], "result"), 0);
	ck_assert(!has(l[1], "stream"));
	/* aclrtMemcpy(dev, 1 MiB, host, 4096, H2D) */
	a = get(l[2], "args");
	ck_assert_uint_eq(hexv(a, "dst"), o.dev);
	ck_assert_uint_eq(unum(a, "destMax"), 1048576);
	ck_assert_uint_eq(hexv(a, "src"), o.host);
	ck_assert_uint_eq(unum(a, "count"), 4096);
	ck_assert_int_eq(num(a, "kind"), ACL_MEMCPY_HOST_TO_DEVICE);
	ck_assert_int_eq(num(l[2], "result"), 0);
	/* aclrtCreateStream(&s) -> s */
	ck_assert_uint_eq(hexv(get(l[3], "out"), "stream"), o.stream);
	/* aclrtMemcpyAsync(dev + 4096, 4096, host, 4096, H2D, s) */
	a = get(l[4], "args");
	ck_assert_uint_eq(hexv(a, "dst"), o.dev + 4096);
	ck_assert_uint_eq(unum(a, "destMax"), 4096);
	ck_assert_uint_eq(hexv(a, "src"), o.host);
	ck_assert_uint_eq(unum(a, "count"), 4096);
	ck_assert_int_eq(num(a, "kind"), ACL_MEMCPY_HOST_TO_DEVICE);
	ck_assert_uint_eq(hexv(a, "stream"), o.stream);
	ck_assert_uint_eq(hexv(l[4], "stream"), o.stream);
	ck_assert_int_eq(num(l[4], "result"), 0);
	/* aclrtSynchronizeStream(s) */
	ck_assert_uint_eq(hexv(l[5], "stream"), o.stream);
	ck_assert_int_eq(num(l[5], "result"), 0);
	/* aclrtGetMemInfo(HBM) -> free1, total */
	ck_assert_int_eq(num(get(l[6], "args"), "attr"), ACL_HBM_MEM);
	out = get(l[6], "out");
	ck_assert_uint_eq(unum(out, "free"), o.free1);
	ck_assert_uint_eq(unum(out, "total"), o.total);
	ck_assert_uint_eq(o.total, VM_DEFAULT_HBM_BYTES);
	/* the second thread has no current device */
	ck_assert_int_eq(num(l[7], "result"), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(num(l[7], "device"), -1);
	/* aclrtMalloc of 1 TiB fails: no output */
	ck_assert_uint_eq(unum(get(l[8], "args"), "size"), 1ULL << 40);
	ck_assert_int_eq(num(l[8], "result"), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_int_eq(json_object_object_length(get(l[8], "out")), 0);
	/* aclrtDestroyStream(s), aclrtFree(dev) twice */
	ck_assert_uint_eq(hexv(get(l[9], "args"), "stream"), o.stream);
	ck_assert_uint_eq(hexv(get(l[10], "args"), "devPtr"), o.dev);
	ck_assert_int_eq(num(l[10], "result"), 0);
	ck_assert_uint_eq(hexv(get(l[11], "args"), "devPtr"), o.dev);
	ck_assert_int_eq(num(l[11], "result"), ACL_ERROR_RT_PARAM_INVALID);
	/* final aclrtGetMemInfo, aclrtResetDevice(0): no device current after */
	ck_assert_uint_eq(unum(get(l[12], "out"), "free"), o.free2);
	/* everything released (the stream's own device memory too) */
	ck_assert_uint_eq(o.free2, o.total);
	ck_assert_uint_le(o.free1, o.total - 1048576);
	ck_assert_int_eq(num(l[13], "result"), 0);
	ck_assert_int_eq(num(l[13], "device"), -1);
	/* the forked child appended its line to the same file */
	ck_assert_str_eq(json_object_get_string(get(l[N_CALLS], "name")), "aclrtGetDeviceCount");
	ck_assert_int_eq(num(l[N_CALLS], "pid"), o.child);
	ck_assert_int_eq(num(l[N_CALLS], "result"), 0);
	ck_assert_uint_eq(unum(get(l[N_CALLS], "out"), "count"), VM_DEFAULT_NUM_DEVICES);
	for (i = 0; i < n; i++)
		json_object_put(l[i]);
	free(l);
}
END_TEST

/* The trace file is replaced, not appended to, by a new run. */
START_TEST(test_trace_new_run_truncates)
{
	json_object **l;
	size_t n, i;

	record();
	record();
	l = read_lines(TRACE, &n);
	ck_assert_uint_eq(n, N_CALLS + 1);
	for (i = 0; i < n; i++)
		json_object_put(l[i]);
	free(l);
}
END_TEST

static json_object *event_named(json_object *events, const char *cat, const char *name)
{
	size_t i, n = json_object_array_length(events);

	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(events, i), *v;

		if (json_object_object_get_ex(e, "cat", &v) && !strcmp(json_object_get_string(v), cat) &&
		    !strcmp(json_object_get_string(get(e, "name")), name))
			return e;
	}
	return NULL;
}

START_TEST(test_trace_perfetto)
{
	struct prog_out o = record();
	char *const argv[] = { "/usr/bin/python3", CONVERTER, TRACE, "-o", PERFETTO, NULL };
	json_object *doc, *events, *e, *sync, **l;
	size_t i, n, lines, acl = 0, stream_tracks = 0;
	char out[256], want[64];
	int status;

	status = run(argv, NULL, out, sizeof(out), NULL);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "converter failed: %s", out);
	doc = json_object_from_file(PERFETTO);
	ck_assert_msg(doc != NULL, "converter output is not JSON");
	events = get(doc, "traceEvents");
	ck_assert(json_object_is_type(events, json_type_array));
	n = json_object_array_length(events);
	snprintf(want, sizeof(want), "stream 0x%llx (device 0)", o.stream);
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(events, i);
		if (!strcmp(json_object_get_string(get(e, "ph")), "X") &&
		    !strcmp(json_object_get_string(get(e, "cat")), "acl"))
			acl++;
		if (!strcmp(json_object_get_string(get(e, "ph")), "M") &&
		    !strcmp(json_object_get_string(get(e, "name")), "thread_name") &&
		    !strcmp(json_object_get_string(get(get(e, "args"), "name")), want))
			stream_tracks++;
	}
	ck_assert_uint_eq(acl, N_CALLS + 1);
	ck_assert_uint_eq(stream_tracks, 1);
	/* the queued copy spans from its call to the end of the synchronize */
	e = event_named(events, "stream", "aclrtMemcpyAsync");
	ck_assert_ptr_nonnull(e);
	ck_assert(json_object_get_boolean(get(get(e, "args"), "waited")));
	ck_assert_str_eq(json_object_get_string(get(get(e, "args"), "waited_by")), "aclrtSynchronizeStream");
	l = read_lines(TRACE, &lines);
	sync = l[5];
	ck_assert_double_eq_tol(json_object_get_double(get(e, "ts")) + json_object_get_double(get(e, "dur")),
				(num(sync, "ts") + num(sync, "dur") - num(l[0], "ts")) / 1000.0, 0.002);
	ck_assert_double_eq_tol(json_object_get_double(get(e, "ts")), (num(l[4], "ts") - num(l[0], "ts")) / 1000.0,
				0.002);
	for (i = 0; i < lines; i++)
		json_object_put(l[i]);
	free(l);
	json_object_put(doc);
}
END_TEST

/* Rewrites TRACE into EDITED with the first "from" of line line_no made "to". */
static void edit(int line_no, const char *from, const char *to)
{
	FILE *in = fopen(TRACE, "r"), *outf = fopen(EDITED, "w");
	char buf[8192];
	int n = 0;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(outf);
	while (fgets(buf, sizeof(buf), in) != NULL) {
		char *p = ++n == line_no ? strstr(buf, from) : NULL;

		if (n == line_no)
			ck_assert_msg(p != NULL, "line %d has no %s", n, from);
		if (p != NULL) {
			fwrite(buf, 1, (size_t)(p - buf), outf);
			fputs(to, outf);
			fputs(p + strlen(from), outf);
		} else {
			fputs(buf, outf);
		}
	}
	fclose(in);
	ck_assert_int_eq(fclose(outf), 0);
}

START_TEST(test_replay_same)
{
	char *const argv[] = { REPLAY, "-v", TRACE, NULL };
	char out[8192];
	int status;

	record();
	status = run(argv, NULL, out, sizeof(out), NULL);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "replay: %s", out);
	/* 14 calls of the parent; the child's line (another pid) left out;
	 * the second thread's call replayed on a thread without a device */
	ck_assert_msg(strstr(out, "14 calls replayed, 0 skipped, 0 differences") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "line 8: aclrtGetMemInfo -> 107002 (recorded 107002)") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "line 9: aclrtMalloc -> 207001 (recorded 207001)") != NULL, "%s", out);
}
END_TEST

START_TEST(test_replay_edited_size)
{
	char *const argv[] = { REPLAY, EDITED, NULL };
	char out[8192];
	int status;

	record();
	/* the 1 MiB allocation made 4 TiB: now it fails, and what used it */
	edit(2, "\"size\":1048576", "\"size\":4398046511104");
	status = run(argv, NULL, out, sizeof(out), NULL);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "replay: %s", out);
	ck_assert_msg(strstr(out, "line 2: aclrtMalloc: result 207001, recorded 0\n") != NULL, "%s", out);
	/* the freed address is no allocation of this run */
	ck_assert_msg(strstr(out, "line 11: aclrtFree: result 107000, recorded 0\n") != NULL, "%s", out);
}
END_TEST

START_TEST(test_replay_edited_meminfo)
{
	char *const argv[] = { REPLAY, EDITED, NULL };
	struct prog_out o = record();
	char out[8192], from[64], to[64], want[160];
	int status;

	snprintf(from, sizeof(from), "\"free\":%llu", o.free2);
	snprintf(to, sizeof(to), "\"free\":%llu", o.free2 - 4096);
	edit(13, from, to);
	status = run(argv, NULL, out, sizeof(out), NULL);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "replay: %s", out);
	snprintf(want, sizeof(want), "line 13: aclrtGetMemInfo(attr 1): free %llu, recorded %llu\n", o.free2,
		 o.free2 - 4096);
	ck_assert_msg(strstr(out, want) != NULL, "%s", out);
	ck_assert_msg(strstr(out, "14 calls replayed, 0 skipped, 1 difference\n") != NULL, "%s", out);
}
END_TEST

/* The second thread's call moved to the main thread: it now has a device. */
START_TEST(test_replay_edited_thread)
{
	char *const argv[] = { REPLAY, EDITED, NULL };
	struct prog_out o = record();
	char out[8192], from[64], to[64];
	json_object **l;
	size_t n, i;
	int status;

	l = read_lines(TRACE, &n);
	snprintf(from, sizeof(from), "\"tid\":%lld,", num(l[THREAD_LINE], "tid"));
	snprintf(to, sizeof(to), "\"tid\":%d,", o.pid);
	for (i = 0; i < n; i++)
		json_object_put(l[i]);
	free(l);
	edit(THREAD_LINE + 1, from, to);
	status = run(argv, NULL, out, sizeof(out), NULL);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "replay: %s", out);
	ck_assert_msg(strstr(out, "line 8: aclrtGetMemInfo: result 0, recorded 107002\n") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "14 calls replayed, 0 skipped, 1 difference\n") != NULL, "%s", out);
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");

	tcase_add_checked_fixture(tc, vm_mod_setup, NULL);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_test(tc, test_trace_lines);
	tcase_add_test(tc, test_trace_new_run_truncates);
	tcase_add_test(tc, test_trace_perfetto);
	tcase_add_test(tc, test_replay_same);
	tcase_add_test(tc, test_replay_edited_size);
	tcase_add_test(tc, test_replay_edited_meminfo);
	tcase_add_test(tc, test_replay_edited_thread);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(trace_suite());
}
