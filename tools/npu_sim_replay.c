/*
 * npu-sim-replay: re-issue the memory calls of a call trace (NPU_SIM_TRACE,
 * docs/tracing.md) against the emulator and report where the results differ
 * from the recording.
 *
 *   npu-sim-replay [-v] [--pid PID] TRACE
 *
 * The calls of one process of the trace (the first line's, or PID) are
 * issued in the order of their lines, one at a time, each from a replay
 * thread standing for its recorded thread (so the per-thread current
 * device and context are those of the recording): devices,
 * linear and host allocations with their sizes, policies and configs,
 * frees, physical memory / reservations / maps, copies and sets (the host
 * side is a synthetic buffer of the recorded size), streams and contexts,
 * and aclrtGetMemInfo.  Recorded pointers, handles, streams and contexts
 * are mapped to the ones this run got (a pointer inside a recorded
 * allocation maps to the same offset in the new one).  Every call whose
 * result code differs from the recorded one, and every aclrtGetMemInfo
 * whose free or total differs, is a difference.  Other calls are skipped.
 *
 * Exit status: 0 everything matched, 1 differences (listed one a line),
 * 2 the trace could not be read or has no line of the process.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <acl/acl.h>

/* ---- recorded -> replayed values ---------------------------------------- */

/* An address range a recorded call returned (allocation or reservation). */
struct range {
	uint64_t old, len, new;
};

/* An opaque value (handle, stream, context): recorded -> replayed. */
struct pair {
	uint64_t old, new;
};

static struct range *ranges;
static size_t n_ranges, cap_ranges;
static struct pair *pairs;
static size_t n_pairs, cap_pairs;
static void **host_bufs;	/* synthetic host buffers, kept until exit:
				 * queued copies may still read them */
static size_t n_host, cap_host;

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	p = realloc(p, *cap * size);
	if (p == NULL) {
		perror("npu-sim-replay");
		exit(2);
	}
	return p;
}

static void add_range(uint64_t old, uint64_t len, const void *new)
{
	if (old == 0 || new == NULL)
		return;
	ranges = grow(ranges, &cap_ranges, n_ranges, sizeof(*ranges));
	ranges[n_ranges++] = (struct range){ old, len ? len : 1, (uint64_t)(uintptr_t)new };
}

/* The newest range holding p, NULL when none does. */
static struct range *find_range(uint64_t p)
{
	for (size_t i = n_ranges; i-- > 0;)
		if (p >= ranges[i].old && p - ranges[i].old < ranges[i].len)
			return &ranges[i];
	return NULL;
}

/* A recorded address as this run's: mapped through the ranges, else as is. */
static void *map_ptr(uint64_t p)
{
	struct range *r = find_range(p);

	return r ? (void *)(uintptr_t)(r->new + (p - r->old)) : (void *)(uintptr_t)p;
}

static void add_pair(uint64_t old, const void *new)
{
	if (old == 0)
		return;
	pairs = grow(pairs, &cap_pairs, n_pairs, sizeof(*pairs));
	pairs[n_pairs++] = (struct pair){ old, (uint64_t)(uintptr_t)new };
}

/* A recorded handle / stream / context as this run's (NULL stays NULL;
 * one never returned in this run is passed as recorded). */
static void *map_obj(uint64_t old)
{
	for (size_t i = n_pairs; i-- > 0;)
		if (pairs[i].old == old)
			return (void *)(uintptr_t)pairs[i].new;
	return (void *)(uintptr_t)old;
}

/* A host buffer of n bytes with a pattern, standing in for the program's. */
static void *host_buf(size_t n, unsigned seed)
{
	unsigned char *b = malloc(n ? n : 1);

	if (b == NULL) {
		fprintf(stderr, "npu-sim-replay: no host memory for a %zu-byte buffer\n", n);
		exit(2);
	}
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 131 + seed);
	host_bufs = grow(host_bufs, &cap_host, n_host, sizeof(*host_bufs));
	host_bufs[n_host++] = b;
	return b;
}

/* ---- the recorded line ------------------------------------------------- */

static json_object *args, *out;
static long line_no;
static unsigned long replayed, skipped, differences;
static int verbose;

static json_object *arg(const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(args, key, &v)) {
		fprintf(stderr, "npu-sim-replay: line %ld: no argument '%s'\n", line_no, key);
		exit(2);
	}
	return v;
}

static int64_t a_int(const char *key)
{
	return json_object_get_int64(arg(key));
}

static uint64_t a_uint(const char *key)
{
	return json_object_get_uint64(arg(key));
}

/* A "0x..." value (null: 0). */
static uint64_t hex(json_object *v)
{
	const char *s;

	if (v == NULL || json_object_is_type(v, json_type_null))
		return 0;
	s = json_object_get_string(v);
	return strtoull(s, NULL, 16);
}

static uint64_t a_ptr(const char *key)
{
	return hex(arg(key));
}

static json_object *o_get(const char *key)
{
	json_object *v = NULL;

	return out != NULL && json_object_object_get_ex(out, key, &v) ? v : NULL;
}

static void differ(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void differ(const char *fmt, ...)
{
	va_list ap;

	printf("line %ld: ", line_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	differences++;
}

/* ---- calls ------------------------------------------------------------- */

/* Copy operand: device side mapped, host side a synthetic buffer. */
static void *operand(uint64_t p, size_t need, int host, unsigned seed)
{
	if (p == 0)
		return NULL;
	if (!host)
		return map_ptr(p);
	if (find_range(p) != NULL)	/* aclrtMallocHost memory */
		return map_ptr(p);
	return host_buf(need, seed);
}

static int src_host(int kind, uint64_t p)
{
	return kind == ACL_MEMCPY_HOST_TO_HOST || kind == ACL_MEMCPY_HOST_TO_DEVICE ||
	       kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE || (kind == ACL_MEMCPY_DEFAULT && !find_range(p));
}

static int dst_host(int kind, uint64_t p)
{
	return kind == ACL_MEMCPY_HOST_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_HOST ||
	       (kind == ACL_MEMCPY_DEFAULT && !find_range(p));
}

static aclrtMallocConfig *cfg_of(json_object *v, aclrtMallocConfig *cfg, aclrtMallocAttribute *attrs,
				 size_t max)
{
	json_object *list = NULL, *num = NULL;
	size_t i, n;

	if (v == NULL || json_object_is_type(v, json_type_null) ||
	    !json_object_is_type(v, json_type_object))
		return NULL;
	json_object_object_get_ex(v, "numAttrs", &num);
	json_object_object_get_ex(v, "attrs", &list);
	cfg->numAttrs = json_object_get_uint64(num);
	cfg->attrs = NULL;
	if (list != NULL && json_object_is_type(list, json_type_array)) {
		n = json_object_array_length(list);
		for (i = 0; i < n && i < max; i++) {
			json_object *e = json_object_array_get_idx(list, i), *a = NULL, *val = NULL;
			uint64_t raw;

			json_object_object_get_ex(e, "attr", &a);
			json_object_object_get_ex(e, "value", &val);
			memset(&attrs[i], 0, sizeof(attrs[i]));
			attrs[i].attr = (aclrtMallocAttrType)json_object_get_int(a);
			raw = json_object_get_uint64(val);
			memcpy(attrs[i].value.rsv, &raw, sizeof(raw));
		}
		cfg->attrs = attrs;
	}
	return cfg;
}

static int64_t sub_int(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return json_object_get_int64(v);
}

static const aclrtPhysicalMemProp *prop_of(json_object *v, aclrtPhysicalMemProp *prop)
{
	json_object *loc = NULL;

	if (v == NULL || !json_object_is_type(v, json_type_object))
		return NULL;
	memset(prop, 0, sizeof(*prop));
	prop->handleType = (aclrtMemHandleType)sub_int(v, "handleType");
	prop->allocationType = (aclrtMemAllocationType)sub_int(v, "allocationType");
	prop->memAttr = (aclrtMemAttr)sub_int(v, "memAttr");
	prop->reserve = (uint64_t)sub_int(v, "reserve");
	if (json_object_object_get_ex(v, "location", &loc) && json_object_is_type(loc, json_type_object)) {
		prop->location.id = (uint32_t)sub_int(loc, "id");
		prop->location.type = (aclrtMemLocationType)sub_int(loc, "type");
	}
	return prop;
}

/* Map the pointer a successful allocation call returned (out key) to p. */
static void got_range(aclError err, void *p, size_t len, const char *key)
{
	if (err == ACL_SUCCESS)
		add_range(hex(o_get(key)), len, p);
}

static void got_obj(aclError err, void *p, const char *key)
{
	if (err == ACL_SUCCESS)
		add_pair(hex(o_get(key)), p);
}

/*
 * Issue the call of the current line; 1 when replayed (*err set), 0 when
 * the call is not one replay issues.
 */
static int issue(const char *name, aclError *errp)
{
	aclError err;
	void *p = NULL;
	unsigned seed = (unsigned)line_no;

	if (!strcmp(name, "aclInit")) {
		err = aclInit(NULL);
	} else if (!strcmp(name, "aclFinalize")) {
		err = aclFinalize();
	} else if (!strcmp(name, "aclrtSetDevice")) {
		err = aclrtSetDevice((int32_t)a_int("deviceId"));
	} else if (!strcmp(name, "aclrtResetDevice")) {
		err = aclrtResetDevice((int32_t)a_int("deviceId"));
	} else if (!strcmp(name, "aclrtResetDeviceForce")) {
		err = aclrtResetDeviceForce((int32_t)a_int("deviceId"));
	} else if (!strcmp(name, "aclrtMalloc") || !strcmp(name, "aclrtMallocAlign32") ||
		   !strcmp(name, "aclrtMallocCached")) {
		size_t size = a_uint("size");
		aclrtMemMallocPolicy pol = (aclrtMemMallocPolicy)a_int("policy");

		err = !strcmp(name, "aclrtMalloc") ? aclrtMalloc(&p, size, pol) :
		      !strcmp(name, "aclrtMallocCached") ? aclrtMallocCached(&p, size, pol) :
							   aclrtMallocAlign32(&p, size, pol);
		got_range(err, p, size, "devPtr");
	} else if (!strcmp(name, "aclrtMallocWithCfg") || !strcmp(name, "aclrtMallocForTaskScheduler")) {
		aclrtMallocConfig cfg;
		aclrtMallocAttribute attrs[8];
		size_t size = a_uint("size");
		aclrtMallocConfig *c = cfg_of(arg("cfg"), &cfg, attrs, 8);
		aclrtMemMallocPolicy pol = (aclrtMemMallocPolicy)a_int("policy");

		err = !strcmp(name, "aclrtMallocWithCfg") ? aclrtMallocWithCfg(&p, size, pol, c) :
							    aclrtMallocForTaskScheduler(&p, size, pol, c);
		got_range(err, p, size, "devPtr");
	} else if (!strcmp(name, "aclrtMallocHost")) {
		size_t size = a_uint("size");

		err = aclrtMallocHost(&p, size);
		got_range(err, p, size, "hostPtr");
	} else if (!strcmp(name, "aclrtMallocHostWithCfg")) {
		aclrtMallocConfig cfg;
		aclrtMallocAttribute attrs[8];
		uint64_t size = a_uint("size");

		err = aclrtMallocHostWithCfg(&p, size, cfg_of(arg("cfg"), &cfg, attrs, 8));
		got_range(err, p, size, "ptr");
	} else if (!strcmp(name, "aclrtFree")) {
		err = aclrtFree(map_ptr(a_ptr("devPtr")));
	} else if (!strcmp(name, "aclrtFreeWithDevSync")) {
		err = aclrtFreeWithDevSync(map_ptr(a_ptr("devPtr")));
	} else if (!strcmp(name, "aclrtFreeHost")) {
		err = aclrtFreeHost(map_ptr(a_ptr("hostPtr")));
	} else if (!strcmp(name, "aclrtFreeHostWithDevSync")) {
		err = aclrtFreeHostWithDevSync(map_ptr(a_ptr("hostPtr")));
	} else if (!strcmp(name, "aclrtMallocPhysical")) {
		aclrtPhysicalMemProp prop;
		aclrtDrvMemHandle h = NULL;

		err = aclrtMallocPhysical(a_ptr("handle") ? &h : NULL, a_uint("size"),
					  prop_of(arg("prop"), &prop), a_uint("flags"));
		got_obj(err, h, "handle");
	} else if (!strcmp(name, "aclrtFreePhysical")) {
		err = aclrtFreePhysical(map_obj(a_ptr("handle")));
	} else if (!strcmp(name, "aclrtReserveMemAddress") ||
		   !strcmp(name, "aclrtReserveMemAddressNoUCMemory")) {
		size_t size = a_uint("size");
		uint64_t expect = a_ptr("expectPtr");
		void *e = expect ? map_ptr(expect) : NULL;

		err = !strcmp(name, "aclrtReserveMemAddress") ?
			      aclrtReserveMemAddress(&p, size, a_uint("alignment"), e, a_uint("flags")) :
			      aclrtReserveMemAddressNoUCMemory(&p, size, a_uint("alignment"), e,
							       a_uint("flags"));
		got_range(err, p, size, "virPtr");
	} else if (!strcmp(name, "aclrtReleaseMemAddress")) {
		err = aclrtReleaseMemAddress(map_ptr(a_ptr("virPtr")));
	} else if (!strcmp(name, "aclrtMapMem")) {
		err = aclrtMapMem(map_ptr(a_ptr("virPtr")), a_uint("size"), a_uint("offset"),
				  map_obj(a_ptr("handle")), a_uint("flags"));
	} else if (!strcmp(name, "aclrtMemMapNoAccess")) {
		err = aclrtMemMapNoAccess(map_ptr(a_ptr("virPtr")), a_uint("size"), a_uint("offset"),
					  map_obj(a_ptr("handle")), a_uint("flags"));
	} else if (!strcmp(name, "aclrtUnmapMem")) {
		err = aclrtUnmapMem(map_ptr(a_ptr("virPtr")));
	} else if (!strcmp(name, "aclrtMemcpy") || !strcmp(name, "aclrtMemcpyAsync")) {
		int kind = (int)a_int("kind");
		uint64_t d = a_ptr("dst"), s = a_ptr("src");
		size_t count = a_uint("count");
		void *dst = operand(d, count, dst_host(kind, d), seed);
		void *src = operand(s, count, src_host(kind, s), seed + 7);

		if (!strcmp(name, "aclrtMemcpy"))
			err = aclrtMemcpy(dst, a_uint("destMax"), src, count, (aclrtMemcpyKind)kind);
		else
			err = aclrtMemcpyAsync(dst, a_uint("destMax"), src, count, (aclrtMemcpyKind)kind,
					       map_obj(a_ptr("stream")));
	} else if (!strcmp(name, "aclrtMemcpy2d") || !strcmp(name, "aclrtMemcpy2dAsync")) {
		int kind = (int)a_int("kind");
		uint64_t d = a_ptr("dst"), s = a_ptr("src");
		size_t dp = a_uint("dpitch"), sp = a_uint("spitch"), w = a_uint("width"), h = a_uint("height");
		size_t dn = h ? dp * (h - 1) + w : 0, sn = h ? sp * (h - 1) + w : 0;
		void *dst = operand(d, dn, dst_host(kind, d), seed);
		void *src = operand(s, sn, src_host(kind, s), seed + 7);

		if (!strcmp(name, "aclrtMemcpy2d"))
			err = aclrtMemcpy2d(dst, dp, src, sp, w, h, (aclrtMemcpyKind)kind);
		else
			err = aclrtMemcpy2dAsync(dst, dp, src, sp, w, h, (aclrtMemcpyKind)kind,
						 map_obj(a_ptr("stream")));
	} else if (!strcmp(name, "aclrtMemset")) {
		err = aclrtMemset(map_ptr(a_ptr("devPtr")), a_uint("maxCount"), (int32_t)a_int("value"),
				  a_uint("count"));
	} else if (!strcmp(name, "aclrtMemsetAsync")) {
		err = aclrtMemsetAsync(map_ptr(a_ptr("devPtr")), a_uint("maxCount"), (int32_t)a_int("value"),
				       a_uint("count"), map_obj(a_ptr("stream")));
	} else if (!strcmp(name, "aclrtCreateStream")) {
		err = aclrtCreateStream(&p);
		got_obj(err, p, "stream");
	} else if (!strcmp(name, "aclrtCreateStreamWithConfig")) {
		err = aclrtCreateStreamWithConfig(&p, (uint32_t)a_uint("priority"), (uint32_t)a_uint("flag"));
		got_obj(err, p, "stream");
	} else if (!strcmp(name, "aclrtDestroyStream")) {
		err = aclrtDestroyStream(map_obj(a_ptr("stream")));
	} else if (!strcmp(name, "aclrtDestroyStreamForce")) {
		err = aclrtDestroyStreamForce(map_obj(a_ptr("stream")));
	} else if (!strcmp(name, "aclrtSynchronizeStream")) {
		err = aclrtSynchronizeStream(map_obj(a_ptr("stream")));
	} else if (!strcmp(name, "aclrtSynchronizeStreamWithTimeout")) {
		err = aclrtSynchronizeStreamWithTimeout(map_obj(a_ptr("stream")), (int32_t)a_int("timeout"));
	} else if (!strcmp(name, "aclrtSynchronizeDevice")) {
		err = aclrtSynchronizeDevice();
	} else if (!strcmp(name, "aclrtCreateContext")) {
		err = aclrtCreateContext(&p, (int32_t)a_int("deviceId"));
		got_obj(err, p, "context");
	} else if (!strcmp(name, "aclrtDestroyContext")) {
		err = aclrtDestroyContext(map_obj(a_ptr("context")));
	} else if (!strcmp(name, "aclrtSetCurrentContext")) {
		err = aclrtSetCurrentContext(map_obj(a_ptr("context")));
	} else if (!strcmp(name, "aclrtGetMemInfo")) {
		size_t f = 0, t = 0;
		int attr = (int)a_int("attr");

		err = aclrtGetMemInfo((aclrtMemAttr)attr, a_ptr("free") ? &f : NULL,
				      a_ptr("total") ? &t : NULL);
		if (err == ACL_SUCCESS && o_get("free") != NULL &&
		    json_object_get_uint64(o_get("free")) != f)
			differ("aclrtGetMemInfo(attr %d): free %zu, recorded %llu", attr, f,
			       (unsigned long long)json_object_get_uint64(o_get("free")));
		if (err == ACL_SUCCESS && o_get("total") != NULL &&
		    json_object_get_uint64(o_get("total")) != t)
			differ("aclrtGetMemInfo(attr %d): total %zu, recorded %llu", attr, t,
			       (unsigned long long)json_object_get_uint64(o_get("total")));
		if (verbose)
			printf("line %ld: aclrtGetMemInfo(attr %d): free %zu total %zu\n", line_no, attr, f, t);
	} else {
		return 0;
	}
	*errp = err;
	return 1;
}

/* ---- one replay thread per recorded thread ----------------------------- */

struct worker {
	long tid;		/* the recorded thread */
	pthread_t thread;
	int state;		/* IDLE, JOB or QUIT; under lock */
	const char *name;	/* the job: call of the current line */
	aclError err;
	int issued;
};

enum { IDLE, JOB, QUIT };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static struct worker **workers;
static size_t n_workers, cap_workers;

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	pthread_mutex_lock(&lock);
	for (;;) {
		while (w->state == IDLE)
			pthread_cond_wait(&cond, &lock);
		if (w->state == QUIT)
			break;
		pthread_mutex_unlock(&lock);
		w->issued = issue(w->name, &w->err);
		pthread_mutex_lock(&lock);
		w->state = IDLE;
		pthread_cond_broadcast(&cond);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

static struct worker *worker_of(long tid)
{
	struct worker *w;

	for (size_t i = 0; i < n_workers; i++)
		if (workers[i]->tid == tid)
			return workers[i];
	w = calloc(1, sizeof(*w));
	workers = grow(workers, &cap_workers, n_workers, sizeof(*workers));
	if (w == NULL || pthread_create(&w->thread, NULL, worker_main, w) != 0) {
		fprintf(stderr, "npu-sim-replay: cannot start a replay thread\n");
		exit(2);
	}
	w->tid = tid;
	workers[n_workers++] = w;
	return w;
}

/* Issue the current line's call on the thread standing for tid; waits. */
static int issue_on(long tid, const char *name, aclError *err)
{
	struct worker *w = worker_of(tid);

	pthread_mutex_lock(&lock);
	w->name = name;
	w->state = JOB;
	pthread_cond_broadcast(&cond);
	while (w->state == JOB)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	*err = w->err;
	return w->issued;
}

static void workers_stop(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_workers; i++)
		workers[i]->state = QUIT;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (size_t i = 0; i < n_workers; i++) {
		pthread_join(workers[i]->thread, NULL);
		free(workers[i]);
	}
	free(workers);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: npu-sim-replay [-v] [--pid PID] TRACE\n"
		   "Re-issue the memory calls of a call trace (NPU_SIM_TRACE) and report\n"
		   "where results differ from the recording (docs/tracing.md).\n"
		   "Exit 0: all matched; 1: differences; 2: unreadable trace or no line of PID.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long want_pid = -1, matched = 0;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int c;

	while ((c = getopt_long(argc, argv, "p:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'p': {
			char *end;

			errno = 0;
			want_pid = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' || want_pid < 0) {
				fprintf(stderr, "npu-sim-replay: --pid wants a process id, not '%s'\n", optarg);
				return 2;
			}
			break;
		}
		case 'v':
			verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	f = fopen(argv[optind], "r");
	if (f == NULL) {
		fprintf(stderr, "npu-sim-replay: %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	while (getline(&line, &cap, f) != -1) {
		json_object *obj, *v = NULL;
		const char *name;
		long pid, tid, recorded;
		aclError err;

		line_no++;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		obj = json_tokener_parse(line);
		if (obj == NULL || !json_object_is_type(obj, json_type_object) ||
		    !json_object_object_get_ex(obj, "name", &v)) {
			fprintf(stderr, "npu-sim-replay: %s:%ld: not a trace line\n", argv[optind], line_no);
			return 2;
		}
		name = json_object_get_string(v);
		pid = json_object_object_get_ex(obj, "pid", &v) ? (long)json_object_get_int64(v) : 0;
		if (want_pid < 0)
			want_pid = pid;
		if (pid != want_pid) {
			json_object_put(obj);
			continue;
		}
		matched++;
		tid = json_object_object_get_ex(obj, "tid", &v) ? (long)json_object_get_int64(v) : pid;
		if (!json_object_object_get_ex(obj, "args", &args) ||
		    !json_object_object_get_ex(obj, "result", &v)) {
			fprintf(stderr, "npu-sim-replay: %s:%ld: no args or result\n", argv[optind], line_no);
			return 2;
		}
		recorded = (long)json_object_get_int64(v);
		out = NULL;
		json_object_object_get_ex(obj, "out", &out);
		if (recorded != ACL_SUCCESS)
			out = NULL;	/* a failed call wrote nothing */
		if (issue_on(tid, name, &err)) {
			replayed++;
			if (verbose)
				printf("line %ld: %s -> %d (recorded %ld)\n", line_no, name, err, recorded);
			if (err != recorded)
				differ("%s: result %d, recorded %ld", name, err, recorded);
		} else {
			skipped++;
		}
		json_object_put(obj);
	}
	free(line);
	fclose(f);
	workers_stop();
	if (matched == 0) {
		if (want_pid < 0)
			fprintf(stderr, "npu-sim-replay: %s: no trace line\n", argv[optind]);
		else
			fprintf(stderr, "npu-sim-replay: %s: no trace line of pid %ld\n", argv[optind], want_pid);
		return 2;
	}
	printf("npu-sim-replay: pid %ld: %lu calls replayed, %lu skipped, %lu difference%s\n", want_pid,
	       replayed, skipped, differences, differences == 1 ? "" : "s");
	for (size_t i = 0; i < n_host; i++)
		free(host_bufs[i]);
	return differences ? 1 : 0;
}
