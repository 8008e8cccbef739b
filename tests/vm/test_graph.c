// SPDX-License-Identifier: GPL-2.0
/*
 * Graph mode (issue 27): stream capture (aclmdlRICaptureBegin/End) and
 * replay (aclmdlRIExecuteAsync / aclmdlRIExecute) run by the driver
 * (GRAPH_CREATE / GRAPH_LAUNCH).  A two-stream capture (1D and 2D copies,
 * a memset, events joining the second stream and back, a value write and
 * wait, a host function, copies to pinned host memory) replayed 1,000
 * times with new input each time, every output byte checked.  Calls
 * refused during a capture, invalidated and unjoined captures, with the
 * runtime's codes.  A graph destroyed while a replay is queued, memory
 * freed while a graph names it (queued replay: safe; new replay: refused),
 * a killed process with graphs: nothing left in debugfs "graphs".
 * Memory-pool allocations in a capture (graph memory, replayed 1,000 times
 * with every byte checked), task groups and their update, aclmdlRIAbort,
 * aclmdlRICaptureToModelRIBegin's checks.
 */
#include "vmtest.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <acl/acl_rt_memory_soma.h>

#define N	4096U		/* bytes of the 1D buffers */
#define W	128U		/* 2D: row width */
#define DP	256U		/* 2D: destination pitch */
#define H	(N / W)		/* 2D: rows */
#define GRAPHS_FILE "/sys/kernel/debug/npu_sim/npu_sim0/graphs"

static atomic_int host_calls;

static void count_call(void *arg)
{
	atomic_fetch_add((atomic_int *)arg, 1);
}

/* Lines of debugfs "graphs" after its header, or of pid only (pid > 0). */
static int graph_lines(pid_t pid)
{
	char line[256];
	int n = 0, first = 1;
	FILE *f = fopen(GRAPHS_FILE, "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned int id, dev, tasks;
		int p;

		if (first) {
			ck_assert_str_eq(line, "id pid device tasks bytes replays pool_bytes\n");
			first = 0;
			continue;
		}
		ck_assert_int_eq(sscanf(line, "%u %d %u %u", &id, &p, &dev, &tasks), 4);
		if (pid <= 0 || p == pid)
			n++;
	}
	fclose(f);
	return n;
}

struct bufs {
	uint8_t *in, *mid, *out, *out2;	/* device */
	uint64_t *flag;			/* device, 8 bytes */
	uint8_t *hout, *hout2;		/* pinned host */
	aclrtStream s1, s2, s3;
	aclrtEvent e1, e2;
};

static void bufs_make(struct bufs *b)
{
	b->in = vm_dev_alloc(N);
	b->mid = vm_dev_alloc(N);
	b->out = vm_dev_alloc(N);
	b->out2 = vm_dev_alloc(DP * H);
	b->flag = vm_dev_alloc(8);
	ck_assert_int_eq(aclrtMemset(b->out, N, 0, N), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(b->out2, DP * H, 0xEE, DP * H), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(b->flag, 8, 0, 8), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost((void **)&b->hout, N), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost((void **)&b->hout2, DP * H), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&b->s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&b->s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&b->s3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&b->e1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&b->e2), ACL_SUCCESS);
}

static void bufs_free(struct bufs *b)
{
	ck_assert_int_eq(aclrtDestroyEvent(b->e1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(b->e2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b->s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b->s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(b->s3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(b->hout), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreeHost(b->hout2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b->in), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b->mid), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b->out), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b->out2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(b->flag), ACL_SUCCESS);
}

/*
 * The captured sequence.  s1: in -> mid; out[0, N/2) = 0x5A; record e1.
 * s2 (joined by its wait on e1): mid -> out2 as H rows of W bytes at
 * pitch DP; flag = 7; out2 -> hout2; record e2.  s1: wait e2; wait flag
 * == 7; mid[N/2, N) -> out[N/2, N); host function; out -> hout.
 */
static aclmdlRI capture(struct bufs *b)
{
	aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
	aclmdlRI g = NULL, g2 = NULL;

	ck_assert_int_eq(aclmdlRICaptureBegin(b->s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b->mid, N, b->in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, b->s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(b->out, N, 0x5A, N / 2, b->s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(b->e1, b->s1), ACL_SUCCESS);
	/* Not yet joined. */
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b->s2, &st, &g2), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
	ck_assert_ptr_null(g2);
	ck_assert_int_eq(aclrtStreamWaitEvent(b->s2, b->e1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy2dAsync(b->out2, DP, b->mid, W, W, H, ACL_MEMCPY_DEVICE_TO_DEVICE, b->s2),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(b->flag, 7, 0, b->s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b->hout2, DP * H, b->out2, DP * H, ACL_MEMCPY_DEVICE_TO_HOST, b->s2),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(b->e2, b->s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(b->s1, b->e2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWait(b->flag, 7, ACL_STREAM_WAIT_VALUE_EQ, b->s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b->out + N / 2, N / 2, b->mid + N / 2, N / 2, ACL_MEMCPY_DEVICE_TO_DEVICE,
					  b->s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchHostFunc(b->s1, count_call, &host_calls), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b->hout, N, b->out, N, ACL_MEMCPY_DEVICE_TO_HOST, b->s1), ACL_SUCCESS);

	/* Both streams capture into the same graph, nothing ran. */
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b->s1, &st, &g), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b->s2, &st, &g2), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
	ck_assert_ptr_eq(g2, g);
	ck_assert_int_eq(aclmdlRICaptureEnd(b->s1, &g2), ACL_SUCCESS);
	ck_assert_ptr_eq(g2, g);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b->s2, &st, NULL), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
	ck_assert_int_eq(vm_dev_get_u64(b->flag), 0);	/* the value write was not run */
	return g;
}

static void fill_input(struct bufs *b, uint8_t *pat, unsigned int i)
{
	for (unsigned int k = 0; k < N; k++)
		pat[k] = (uint8_t)(k * 7 + i * 13 + (k >> 8));
	ck_assert_int_eq(aclrtMemcpy(b->in, N, pat, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(b->flag, 8, 0, 8), ACL_SUCCESS);
}

static void check_output(const struct bufs *b, const uint8_t *pat, unsigned int i)
{
	for (unsigned int k = 0; k < N / 2; k++)
		ck_assert_msg(b->hout[k] == 0x5A, "replay %u: out[%u] = %#x", i, k, b->hout[k]);
	for (unsigned int k = N / 2; k < N; k++)
		ck_assert_msg(b->hout[k] == pat[k], "replay %u: out[%u] = %#x, want %#x", i, k, b->hout[k], pat[k]);
	for (unsigned int r = 0; r < H; r++) {
		for (unsigned int c = 0; c < DP; c++) {
			uint8_t want = c < W ? pat[r * W + c] : 0xEE;

			ck_assert_msg(b->hout2[r * DP + c] == want, "replay %u: out2[%u][%u] = %#x, want %#x", i, r, c,
				      b->hout2[r * DP + c], want);
		}
	}
}

START_TEST(capture_and_replay_1000)
{
	static uint8_t pat[N];
	struct bufs b;
	aclmdlRI g;
	unsigned int i;

	bufs_make(&b);
	atomic_store(&host_calls, 0);
	g = capture(&b);
	ck_assert_int_eq(atomic_load(&host_calls), 0);
	ck_assert_int_eq(graph_lines(getpid()), 1);
	for (i = 0; i < 1000; i++) {
		fill_input(&b, pat, i);
		memset(b.hout, 0, N);
		memset(b.hout2, 0, DP * H);
		ck_assert_int_eq(aclmdlRIExecuteAsync(g, b.s3), ACL_SUCCESS);
		ck_assert_int_eq(aclrtSynchronizeStream(b.s3), ACL_SUCCESS);
		check_output(&b, pat, i);
		ck_assert_int_eq(vm_dev_get_u64(b.flag), 7);
		ck_assert_int_eq(atomic_load(&host_calls), (int)i + 1);
	}
	/* aclmdlRIExecute: on a stream of its own, waited for. */
	fill_input(&b, pat, 1000);
	ck_assert_int_eq(aclmdlRIExecute(g, -1), ACL_SUCCESS);
	check_output(&b, pat, 1000);
	ck_assert_int_eq(atomic_load(&host_calls), 1001);
	ck_assert_int_eq(aclmdlRIExecute(g, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIExecute(g, -2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIExecute(NULL, -1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIExecuteAsync(NULL, b.s3), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIExecuteAsync((aclmdlRI)&b, b.s3), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, b.s3), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(graph_lines(getpid()), 0);
	bufs_free(&b);
}
END_TEST

static int dtor_runs;

static void on_destroy(void *arg)
{
	dtor_runs += *(int *)arg;
}

START_TEST(inspection)
{
	aclmdlRITaskParams p;
	aclmdlRITask tasks[16];
	aclrtStream streams[2];
	aclmdlRITaskType type;
	struct bufs b;
	char name[8], json[256];
	uint32_t n, id, id2, seq;
	int one = 1, ten = 10;
	aclmdlRI g, g2;
	FILE *f;

	bufs_make(&b);
	g = capture(&b);
	ck_assert_int_eq(aclmdlRIGetId(g, &id), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIGetId(g, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIGetName(g, sizeof(name), name), ACL_SUCCESS);
	ck_assert_str_eq(name, "");
	ck_assert_int_eq(aclmdlRISetName(g, "decode"), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIGetName(g, sizeof(name), name), ACL_SUCCESS);
	ck_assert_str_eq(name, "decode");
	ck_assert_int_eq(aclmdlRIGetName(g, 6, name), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRISetName(g, NULL), ACL_ERROR_INVALID_PARAM);

	n = 0;
	ck_assert_int_eq(aclmdlRIGetStreams(g, NULL, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 2);
	n = 1;
	ck_assert_int_eq(aclmdlRIGetStreams(g, streams, &n), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
	n = 2;
	ck_assert_int_eq(aclmdlRIGetStreams(g, streams, &n), ACL_SUCCESS);
	ck_assert_ptr_eq(streams[0], b.s1);
	ck_assert_ptr_eq(streams[1], b.s2);

	/* s2: wait e1, 2D copy, value write, copy, record e2. */
	n = 16;
	ck_assert_int_eq(aclmdlRIGetTasksByStream(b.s2, tasks, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(aclmdlRITaskGetType(tasks[0], &type), ACL_SUCCESS);
	ck_assert_int_eq(type, ACL_MODEL_RI_TASK_EVENT_WAIT);
	ck_assert_int_eq(aclmdlRITaskGetType(tasks[1], &type), ACL_SUCCESS);
	ck_assert_int_eq(type, ACL_MODEL_RI_TASK_DEFAULT);
	ck_assert_int_eq(aclmdlRITaskGetType(tasks[2], &type), ACL_SUCCESS);
	ck_assert_int_eq(type, ACL_MODEL_RI_TASK_VALUE_WRITE);
	ck_assert_int_eq(aclmdlRITaskGetType(tasks[4], &type), ACL_SUCCESS);
	ck_assert_int_eq(type, ACL_MODEL_RI_TASK_EVENT_RECORD);
	ck_assert_int_eq(aclmdlRITaskGetSeqId(tasks[0], &seq), ACL_SUCCESS);
	ck_assert_uint_eq(seq, 3);
	ck_assert_int_eq(aclmdlRITaskGetSeqId(tasks[4], &seq), ACL_SUCCESS);
	ck_assert_uint_eq(seq, 7);
	ck_assert_int_eq(aclmdlRITaskGetParams(tasks[2], &p), ACL_SUCCESS);
	ck_assert_int_eq(p.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
	ck_assert_ptr_eq(p.valueWriteTaskParams.devAddr, b.flag);
	ck_assert_uint_eq(p.valueWriteTaskParams.value, 7);
	ck_assert_int_eq(aclmdlRITaskGetParams(tasks[4], &p), ACL_SUCCESS);
	ck_assert_ptr_eq(p.eventRecordTaskParams.event, b.e2);
	ck_assert_int_eq(aclmdlRITaskGetParams(tasks[0], NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRITaskGetType((aclmdlRITask)&b, &type), ACL_ERROR_RT_PARAM_INVALID);
	n = 4;
	ck_assert_int_eq(aclmdlRIGetTasksByStream(b.s2, tasks, &n), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
	n = 0;
	ck_assert_int_eq(aclmdlRIGetTasksByStream(b.s1, NULL, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 8);
	ck_assert_int_eq(aclmdlRIGetTasksByStream(b.s3, NULL, &n), ACL_ERROR_RT_PARAM_INVALID);

	ck_assert_int_eq(aclmdlRIDebugPrint(g), ACL_SUCCESS);
	snprintf(json, sizeof(json), "/tmp/graph_%d.json", (int)getpid());
	ck_assert_int_eq(aclmdlRIDebugJsonPrint(g, json, ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE), ACL_SUCCESS);
	f = fopen(json, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fread(name, 1, 6, f), 6);
	ck_assert_int_eq(memcmp(name, "{\"id\":", 6), 0);
	fclose(f);
	unlink(json);
	ck_assert_int_eq(aclmdlRIDebugJsonPrint(g, json, 2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIDebugJsonPrint(g, NULL, 0), ACL_ERROR_INVALID_PARAM);

	/* Destroy callbacks: registered once per function, run at destroy. */
	dtor_runs = 0;
	ck_assert_int_eq(aclmdlRIDestroyRegisterCallback(g, on_destroy, &ten), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroyRegisterCallback(g, on_destroy, &one), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroyUnregisterCallback(g, count_call), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIDestroyRegisterCallback(g, NULL, &one), ACL_ERROR_INVALID_PARAM);

	/* A second graph of the same streams: ids differ, tasks come from the newest. */
	g2 = capture(&b);
	ck_assert_int_eq(aclmdlRIGetId(g2, &id2), ACL_SUCCESS);
	ck_assert_uint_ne(id, id2);
	ck_assert_int_eq(aclmdlRIDestroyRegisterCallback(g2, on_destroy, &ten), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroyUnregisterCallback(g2, on_destroy), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(g2), ACL_SUCCESS);
	ck_assert_int_eq(dtor_runs, 0);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	ck_assert_int_eq(dtor_runs, 1);
	ck_assert_int_eq(aclmdlRIGetId(g, &id), ACL_ERROR_RT_PARAM_INVALID);
	bufs_free(&b);
}
END_TEST

START_TEST(capture_errors)
{
	aclmdlRICaptureMode mode;
	aclmdlRICaptureStatus st;
	struct bufs b;
	aclmdlRI g = (aclmdlRI)&b;
	uint8_t host[64];
	static uint8_t pageable[N];

	bufs_make(&b);
	ck_assert_int_eq(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureBegin(b.s1, (aclmdlRICaptureMode)3), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRICaptureEnd(b.s1, &g), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b.s1, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(NULL, &st, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureThreadExchangeMode(NULL), ACL_ERROR_INVALID_PARAM);
	mode = (aclmdlRICaptureMode)5;
	ck_assert_int_eq(aclmdlRICaptureThreadExchangeMode(&mode), ACL_ERROR_RT_PARAM_INVALID);

	/* Refused while capturing; the capture stays valid. */
	ck_assert_int_eq(aclmdlRICaptureBegin(b.s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureBegin(b.s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_STREAM_CAPTURED);
	ck_assert_int_eq(aclrtRecordEvent(b.e1, b.s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(b.s1), ACL_ERROR_RT_STREAM_CAPTURED);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(b.s1, 100), ACL_ERROR_RT_STREAM_CAPTURED);
	ck_assert_int_eq(aclrtStreamQuery(b.s1, &(aclrtStreamStatus){ 0 }), ACL_ERROR_RT_STREAM_CAPTURED);
	ck_assert_int_eq(aclrtDestroyStream(b.s1), ACL_ERROR_RT_STREAM_CAPTURED);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_STREAM_CAPTURED);
	ck_assert_int_eq(aclrtSynchronizeEvent(b.e1), ACL_ERROR_RT_EVENT_CAPTURED);
	ck_assert_int_eq(aclrtQueryEvent(b.e1, &(aclrtEventStatus){ 0 }), ACL_ERROR_RT_EVENT_CAPTURED);
	/* A synchronous copy: refused for a GLOBAL thread, allowed once RELAXED. */
	ck_assert_int_eq(aclrtMemcpy(host, sizeof(host), b.in, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemset(b.out, N, 1, N), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
	mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
	ck_assert_int_eq(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
	ck_assert_int_eq(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
	ck_assert_int_eq(aclrtMemcpy(host, sizeof(host), b.in, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
	ck_assert_int_eq(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b.s1, &st, NULL), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);

	/* Joined stream: cannot end the capture; a capture being made cannot be destroyed or run. */
	ck_assert_int_eq(aclrtStreamWaitEvent(b.s2, b.e1), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(b.s2, &g), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b.s1, NULL, &g), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_ERROR_RT_MODEL_CAPTURED);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, b.s3), ACL_ERROR_RT_MODEL_CAPTURED);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, b.s2), ACL_ERROR_RT_STREAM_CAPTURED);
	ck_assert_int_eq(aclmdlRICaptureEnd(b.s1, NULL), ACL_ERROR_INVALID_PARAM);
	/* s2 did work after joining and never joined back: unjoined. */
	ck_assert_int_eq(aclrtMemsetAsync(b.out, N, 3, N, b.s2), ACL_SUCCESS);
	g = (aclmdlRI)&b;
	ck_assert_int_eq(aclmdlRICaptureEnd(b.s1, &g), ACL_ERROR_RT_STREAM_UNJOINED);
	ck_assert_ptr_null(g);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b.s2, &st, NULL), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
	ck_assert_int_eq(aclrtSynchronizeStream(b.s2), ACL_SUCCESS);
	ck_assert_int_eq(graph_lines(getpid()), 0);

	/* A copy from pageable memory is synchronous: refused, the capture invalidated. */
	ck_assert_int_eq(aclmdlRICaptureBegin(b.s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(b.in, N, pageable, N, ACL_MEMCPY_HOST_TO_DEVICE, b.s1),
			 ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b.s1, &st, NULL), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
	ck_assert_int_eq(aclrtMemsetAsync(b.out, N, 3, N, b.s1), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	/* RELAXED: the synchronous calls of other work still run. */
	ck_assert_int_eq(aclrtMemset(b.out, N, 1, N), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(b.s1, &g), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	ck_assert_ptr_null(g);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(b.s1, &st, NULL), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
	ck_assert_int_eq(aclrtSynchronizeStream(b.s1), ACL_SUCCESS);
	ck_assert_int_eq(graph_lines(getpid()), 0);
	bufs_free(&b);
}
END_TEST

/* A graph of one copy src -> dst (N bytes, D2D) captured on s. */
static aclmdlRI capture_copy(aclrtStream s, void *dst, void *src)
{
	aclmdlRI g = NULL;

	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(dst, N, src, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &g), ACL_SUCCESS);
	return g;
}

START_TEST(lifetimes)
{
	static uint8_t pat[N], got[N];
	struct bufs b;
	uint8_t *tmp;
	aclmdlRI g;

	bufs_make(&b);
	for (unsigned int k = 0; k < N; k++)
		pat[k] = (uint8_t)(k ^ 0x3C);
	ck_assert_int_eq(aclrtMemcpy(b.in, N, pat, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);

	/* Destroyed while a replay is queued: the replay still runs. */
	g = capture_copy(b.s1, b.out, b.in);
	vm_stream_hold(1);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, b.s3), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	ck_assert_int_eq(graph_lines(getpid()), 0);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(b.s3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(got, N, b.out, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(got, pat, N), 0);

	/* Source freed while a replay is queued: the queued copy holds it. */
	tmp = vm_dev_alloc(N);
	ck_assert_int_eq(aclrtMemcpy(tmp, N, pat, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(b.mid, N, 0, N), ACL_SUCCESS);
	g = capture_copy(b.s1, b.mid, tmp);
	vm_stream_hold(1);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, b.s3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(tmp), ACL_SUCCESS);
	vm_stream_hold(0);
	ck_assert_int_eq(aclrtSynchronizeStream(b.s3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(got, N, b.mid, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(got, pat, N), 0);
	/* A new replay of the freed memory is refused, nothing queued. */
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, b.s3), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStream(b.s3), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	bufs_free(&b);
}
END_TEST

/* aclmdlRITaskSetParams / aclmdlRITaskDisable take effect at aclmdlRIUpdate. */
START_TEST(update)
{
	aclmdlRITaskParams p;
	aclmdlRITask tasks[4];
	struct bufs b;
	uint32_t n = 4;
	aclmdlRI g = NULL;

	bufs_make(&b);
	ck_assert_int_eq(aclmdlRICaptureBegin(b.s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWrite(b.flag, 7, 0, b.s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(b.out, N, 0x11, N, b.s1), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(b.s1, &g), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIGetTasksByStream(b.s1, tasks, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(aclmdlRIUpdate(g), ACL_SUCCESS);	/* nothing changed */
	ck_assert_int_eq(aclmdlRIUpdate(NULL), ACL_ERROR_RT_PARAM_INVALID);

	memset(&p, 0, sizeof(p));
	p.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
	p.valueWriteTaskParams.devAddr = b.flag;
	p.valueWriteTaskParams.value = 9;
	ck_assert_int_eq(aclmdlRITaskSetParams(tasks[0], &p), ACL_SUCCESS);
	/* Before the update a replay still writes 7. */
	ck_assert_int_eq(aclmdlRIExecute(g, -1), ACL_SUCCESS);
	ck_assert_int_eq(vm_dev_get_u64(b.flag), 7);
	ck_assert_int_eq(aclmdlRIUpdate(g), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIExecute(g, -1), ACL_SUCCESS);
	ck_assert_int_eq(vm_dev_get_u64(b.flag), 9);
	ck_assert_int_eq(aclmdlRITaskGetParams(tasks[0], &p), ACL_SUCCESS);
	ck_assert_uint_eq(p.valueWriteTaskParams.value, 9);

	/* Disabled: the write is left out of later replays. */
	ck_assert_int_eq(aclmdlRITaskDisable(tasks[0]), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIUpdate(g), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(b.flag, 8, 0, 8), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(b.out, N, 0, N), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, b.s3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(b.s3), ACL_SUCCESS);
	ck_assert_int_eq(vm_dev_get_u64(b.flag), 0);
	ck_assert_int_eq(vm_dev_get_u64(b.out + N - 8), 0x1111111111111111ULL);

	/* A copy or set task cannot be disabled or changed: the graph is faulty. */
	ck_assert_int_eq(aclmdlRITaskDisable(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRITaskSetParams(tasks[0], NULL), ACL_ERROR_INVALID_PARAM);
	p.type = ACL_MODEL_RI_TASK_EVENT_RECORD;
	ck_assert_int_eq(aclmdlRITaskSetParams(tasks[0], &p), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRITaskDisable(tasks[1]), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIUpdate(g), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	bufs_free(&b);
}
END_TEST

/* A killed process with graphs and a queued replay leaves nothing. */
START_TEST(killed_process)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct bufs b;
		aclmdlRI g;

		if (aclrtSetDevice(0) != ACL_SUCCESS)
			_exit(2);
		bufs_make(&b);
		g = capture_copy(b.s1, b.out, b.in);
		(void)capture_copy(b.s2, b.mid, b.in);
		vm_stream_hold(1);
		if (aclmdlRIExecuteAsync(g, b.s3) != ACL_SUCCESS || graph_lines(getpid()) != 2)
			_exit(3);
		raise(SIGKILL);
		_exit(4);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	vm_stream_hold(0);
	ck_assert_int_eq(graph_lines(pid), 0);
	ck_assert_int_eq(vm_dbg_allocs_of(0, pid), 0);
}
END_TEST

/* ---- graph memory (memory-pool allocations in a capture) ---------------- */

#define BLK (2U << 20)

static aclrtMemPool pool_new(void)
{
	aclrtMemPoolProps p;
	aclrtMemPool pool = NULL;

	memset(&p, 0, sizeof(p));
	p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	p.maxSize = 16 * BLK;
	ck_assert_int_eq(aclrtMemPoolCreate(&pool, &p), ACL_SUCCESS);
	return pool;
}

/* Pool bytes of the graphs of this process in debugfs "graphs". */
static unsigned long long graph_pool_bytes(void)
{
	unsigned long long sum = 0, pb;
	unsigned int id, dev, tasks;
	unsigned long long bytes;
	long long replays;
	char line[256];
	FILE *f = fopen(GRAPHS_FILE, "r");
	int p;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f) != NULL) {
		ck_assert_int_eq(sscanf(line, "%u %d %u %u %llu %lld %llu", &id, &p, &dev, &tasks, &bytes, &replays,
					&pb), 7);
		if (p == getpid())
			sum += pb;
	}
	fclose(f);
	return sum;
}

/*
 * s: t1 = pool alloc; t2 = pool alloc; t1 = in; t2[0, N/2) = t1[N/2, N);
 * t2[N/2, N) = 0xC3; free t1; out = t2; free t2.
 */
static aclmdlRI capture_pool(aclrtStream s, aclrtMemPool pool, uint8_t *in, uint8_t *out, void **t1, void **t2)
{
	aclmdlRI g = NULL;

	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(t1, N, pool, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(t2, N, pool, s), ACL_SUCCESS);
	ck_assert_ptr_nonnull(*t1);
	ck_assert_ptr_nonnull(*t2);
	ck_assert_ptr_ne(*t1, *t2);
	ck_assert_int_eq(aclrtMemcpyAsync(*t1, N, in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(*t2, N / 2, (uint8_t *)*t1 + N / 2, N / 2, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync((uint8_t *)*t2 + N / 2, N / 2, 0xC3, N / 2, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(*t1, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(out, N, *t2, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(*t2, s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &g), ACL_SUCCESS);
	return g;
}

START_TEST(pool_capture_replay_1000)
{
	static uint8_t pat[N], got[N];
	long long used0 = vm_dbg_info(0, "used_bytes");
	aclrtMemPool pool = pool_new();
	uint8_t *in = vm_dev_alloc(N), *out = vm_dev_alloc(N);
	void *t1 = NULL, *t2 = NULL, *x = NULL;
	aclrtStream s, s2;
	aclmdlRI g, bad = NULL;
	unsigned int i;

	long long used1 = vm_dbg_info(0, "used_bytes");	/* with in and out */

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(out, N, 0, N), ACL_SUCCESS);
	g = capture_pool(s, pool, in, out, &t1, &t2);
	/* The graph owns both blocks: used, beyond the reach of frees and trims. */
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 2 * BLK);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 2 * BLK);
	ck_assert_uint_eq(graph_pool_bytes(), 2 * BLK);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used1 + 2 * (long long)BLK);
	ck_assert_int_eq(aclrtFree(t1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(t2, s2), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 0), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	/* Nothing ran at capture. */
	ck_assert_int_eq(aclrtMemcpy(got, N, out, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	for (unsigned int k = 0; k < N; k++)
		ck_assert_uint_eq(got[k], 0);

	for (i = 0; i < 1000; i++) {
		for (unsigned int k = 0; k < N; k++)
			pat[k] = (uint8_t)(k * 5 + i * 11 + (k >> 7));
		ck_assert_int_eq(aclrtMemcpy(in, N, pat, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
		if (i % 2) {
			ck_assert_int_eq(aclmdlRIExecuteAsync(g, s2), ACL_SUCCESS);
			ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
		} else {
			ck_assert_int_eq(aclmdlRIExecute(g, -1), ACL_SUCCESS);
		}
		ck_assert_int_eq(aclrtMemcpy(got, N, out, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
		for (unsigned int k = 0; k < N / 2; k++)
			ck_assert_msg(got[k] == pat[N / 2 + k], "replay %u: out[%u] = %#x, want %#x", i, k, got[k],
				      pat[N / 2 + k]);
		for (unsigned int k = N / 2; k < N; k++)
			ck_assert_msg(got[k] == 0xC3, "replay %u: out[%u] = %#x", i, k, got[k]);
	}
	/* A synchronize trims to the threshold (0): the graph's blocks stay. */
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 2 * BLK);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 2 * BLK);

	/* Destroyed: the blocks go back to the device. */
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
	ck_assert_uint_eq(graph_pool_bytes(), 0);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used1);

	/* A free in a capture of memory allocated outside it: refused, the capture lost, its blocks given back. */
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&x, N, pool, s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&t1, N, pool, s), ACL_SUCCESS);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 2 * BLK);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(x, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&t2, N, pool, s), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &bad), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	ck_assert_ptr_null(bad);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), BLK);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(x, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	/* A free of a block twice in one capture: the driver refuses the graph. */
	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&t1, N, pool, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(t1, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(t1, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &bad), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	ck_assert_uint_eq(vm_pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);

	/* The pool destroyed under a graph: its replays are refused, never a crash. */
	g = capture_pool(s, pool, in, out, &t1, &t2);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, s2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used1);

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(in), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(out), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_info(0, "used_bytes"), used0);
}
END_TEST

/* ---- task groups and their update ---------------------------------------- */

START_TEST(task_groups)
{
	uint8_t *buf = vm_dev_alloc(N);
	aclrtTaskGrp h = NULL, h2 = (aclrtTaskGrp)&h;
	aclrtStream s, s2, s3;
	aclrtEvent ev;
	aclmdlRI g = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&ev), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureTaskGrpBegin(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureTaskGrpEnd(s, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
	ck_assert_int_eq(aclmdlRICaptureTaskGrpEnd(s, &h), ACL_ERROR_STREAM_TASK_GROUP_STATUS);

	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(buf, N, 1, N, s), ACL_SUCCESS);
	/* A group with a (non-kernel) task: the task and the group fail. */
	ck_assert_int_eq(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	ck_assert_int_eq(aclrtMemsetAsync(buf, N, 2, N, s), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
	ck_assert_int_eq(aclmdlRICaptureTaskGrpEnd(s, &h), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
	ck_assert_ptr_null(h);
	ck_assert_int_eq(aclmdlRICaptureTaskGrpEnd(s, &h), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	/* An empty group: a handle; the capture goes on. */
	ck_assert_int_eq(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &g), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	ck_assert_ptr_null(g);
	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(buf, N, 1, N, s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureTaskGrpEnd(s, &h), ACL_SUCCESS);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &g), ACL_SUCCESS);

	/* Update: only one stream at a time; non-kernel tasks refused, an event record let through. */
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateBegin(NULL, h), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateBegin(s2, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateBegin(s2, h2), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateEnd(s2), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateBegin(s2, h), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateBegin(s2, h), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateBegin(s3, h), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	ck_assert_int_eq(aclrtMemsetAsync(buf, N, 3, N, s2), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtRecordEvent(ev, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateEnd(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateEnd(s2), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	ck_assert_int_eq(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(buf, N, 3, N, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIExecute(g, -1), ACL_SUCCESS);
	ck_assert_int_eq(vm_dev_get_u64(buf), 0x0101010101010101ULL);
	/* The group dies with its graph. */
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateBegin(s3, h), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateEnd(s3), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	ck_assert_int_eq(aclmdlRICaptureTaskUpdateBegin(s3, h), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemsetAsync(buf, N, 4, N, s3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s3), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s3), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(buf), ACL_SUCCESS);
}
END_TEST

/* ---- abort; capture into a model ------------------------------------------ */

START_TEST(abort_and_to_model)
{
	uint8_t *src = vm_dev_alloc(N), *dst = vm_dev_alloc(N), *mark = vm_dev_alloc(N);
	uint64_t *flag = vm_dev_alloc(8);
	aclrtStream s, s2;
	aclmdlRI g = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(src, N, 0x77, N), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(dst, N, 0, N), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(mark, N, 0, N), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(flag, 8, 0, 8), ACL_SUCCESS);
	/* The graph waits for a value nobody writes, then copies. */
	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(dst, N, src, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &g), ACL_SUCCESS);

	ck_assert_int_eq(aclmdlRIAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIAbort((aclmdlRI)&g), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIAbort(g), ACL_SUCCESS);	/* nothing queued */
	/* Two replays queued, then other work of the stream. */
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(mark, N, 0x42, N, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIAbort(g), ACL_SUCCESS);
	/* Dropped: no hang, no copy; the stream's own work ran. */
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(vm_dev_get_u64(dst), 0);
	ck_assert_int_eq(vm_dev_get_u64(mark), 0x4242424242424242ULL);
	/* The stream and the graph go on. */
	ck_assert_int_eq(aclrtMemset(flag, 8, 1, 1), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIExecute(g, -1), ACL_SUCCESS);
	ck_assert_int_eq(vm_dev_get_u64(dst), 0x7777777777777777ULL);

	/* Capture into a model: only a condition task's sub-graph. */
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(NULL, g, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(s, NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(s, g, (aclmdlRICaptureMode)7), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(s, (aclmdlRI)&g, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(s, g, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIAbort(g), ACL_ERROR_RT_PARAM_INVALID);

	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(src), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(mark), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(flag), ACL_SUCCESS);
}
END_TEST

static Suite *graph_suite(void)
{
	Suite *s = suite_create("graph");
	TCase *t = tcase_create("graph");

	tcase_set_timeout(t, VM_TIMEOUT_LONG);
	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_add_test(t, capture_and_replay_1000);
	tcase_add_test(t, inspection);
	tcase_add_test(t, capture_errors);
	tcase_add_test(t, lifetimes);
	tcase_add_test(t, update);
	tcase_add_test(t, killed_process);
	tcase_add_test(t, pool_capture_replay_1000);
	tcase_add_test(t, task_groups);
	tcase_add_test(t, abort_and_to_model);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return vm_run_suite(graph_suite());
}
