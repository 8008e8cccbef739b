// SPDX-License-Identifier: GPL-2.0
/*
 * Graph control flow (issue 27): built models (aclmdlRIBuildBegin,
 * BindStream, UnbindStream, EndTask, BuildEnd), labels
 * (aclrtSwitchLabelByIndex), stream switches (aclrtSwitchStream,
 * aclrtActiveStream) and condition tasks (aclmdlRICondHandleCreate,
 * GetCondPtr, AddCondTask, aclmdlRICaptureToModelRIBegin), run by the
 * driver as one program per replay (GRAPH_CREATE NPU_SIM_GRAPH_FLOW).
 * Every call's success and bad-input codes; a built model with a label
 * switch and a stream switch, and a captured graph with a while loop and an
 * if/else, each replayed many times with new device-memory inputs, every
 * output byte checked; a loop that never ends stopped by a forced stream
 * destroy while another stream of the process runs; a process killed in
 * the middle of such a replay leaves nothing.
 */
#include "vmtest.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>

#define N	1024U		/* bytes of the data buffers */
#define K	16U		/* longest loop of the while test */
#define GRAPHS_FILE "/sys/kernel/debug/npu_sim/npu_sim0/graphs"

static aclrtStream persistent(void)
{
	aclrtStream s;

	ck_assert_int_eq(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
	return s;
}

static void put(void *dev, const void *host, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void get(void *host, const void *dev, size_t n)
{
	ck_assert_int_eq(aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

static void put_u32(void *dev, uint32_t v)
{
	put(dev, &v, sizeof(v));
}

/* Lines of debugfs "graphs" of pid. */
static int graph_lines(pid_t pid)
{
	char line[256];
	int n = 0;
	FILE *f = fopen(GRAPHS_FILE, "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned int id;
		int p;

		if (sscanf(line, "%u %d", &id, &p) == 2 && p == pid)
			n++;
	}
	fclose(f);
	return n;
}

/* ---- codes ----------------------------------------------------------------- */

START_TEST(build_codes)
{
	aclrtStream s1 = persistent(), s2 = persistent(), plain, gone;
	aclmdlRI m, m2, bad = (aclmdlRI)&bad;
	uint8_t *d = vm_dev_alloc(64);
	aclrtEvent ev;

	ck_assert_int_eq(aclrtCreateStream(&plain), ACL_SUCCESS);
	gone = persistent();
	ck_assert_int_eq(aclrtDestroyStream(gone), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&ev), ACL_SUCCESS);

	ck_assert_int_eq(aclmdlRIBuildBegin(NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIBuildBegin(&m, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIBuildBegin(&m, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIBuildBegin(&m2, 0), ACL_SUCCESS);

	ck_assert_int_eq(aclmdlRIBindStream(NULL, s1, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIBindStream(m, s1, 5), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIBindStream(m, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIBindStream(m, plain, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIBindStream(m, gone, 0), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclmdlRIBindStream(bad, s1, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_STREAM_MODEL);
	ck_assert_int_eq(aclmdlRIBindStream(m2, s1, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_ERROR_RT_STREAM_MODEL);
	ck_assert_int_eq(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);

	/* Work on a model stream: recorded (memory work), refused (others). */
	ck_assert_int_eq(aclrtMemsetAsync(d, 64, 0x5A, 64, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(ev, s1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);

	ck_assert_int_eq(aclrtActiveStream(NULL, s1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtActiveStream(s2, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtActiveStream(plain, s1), ACL_ERROR_RT_STREAM_MODEL);
	ck_assert_int_eq(aclrtActiveStream(s2, plain), ACL_ERROR_RT_STREAM_MODEL);
	ck_assert_int_eq(aclrtActiveStream(gone, s1), ACL_ERROR_RT_INVALID_HANDLE);

	ck_assert_int_eq(aclrtSwitchStream(NULL, ACL_RT_EQUAL, d, ACL_RT_SWITCH_INT32, s2, NULL, s1),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSwitchStream(d, ACL_RT_EQUAL, d, ACL_RT_SWITCH_INT32, s2, s2, s1),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSwitchStream(d, (aclrtCondition)6, d, ACL_RT_SWITCH_INT32, s2, NULL, s1),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSwitchStream(d, ACL_RT_EQUAL, d, (aclrtCompareDataType)2, s2, NULL, s1),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSwitchStream(d + 4, ACL_RT_EQUAL, d, ACL_RT_SWITCH_INT64, s2, NULL, s1),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSwitchStream(d, ACL_RT_EQUAL, d, ACL_RT_SWITCH_INT32, s2, NULL, plain),
			 ACL_ERROR_RT_STREAM_MODEL);

	ck_assert_int_eq(aclmdlRIEndTask(NULL, s1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIEndTask(m, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIEndTask(m, plain), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclmdlRIEndTask(m, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIEndTask(m, s1), ACL_ERROR_RT_INTERNAL_ERROR);

	ck_assert_int_eq(aclmdlRIUnbindStream(NULL, s1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIUnbindStream(m, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIUnbindStream(m2, s1), ACL_ERROR_RT_STREAM_MODEL);
	ck_assert_int_eq(aclmdlRIUnbindStream(m, plain), ACL_ERROR_RT_STREAM_MODEL);

	ck_assert_int_eq(aclmdlRIExecuteAsync(m, plain), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIBuildEnd(NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIBuildEnd(m, (void *)1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIBuildEnd(bad, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIBuildEnd(m, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIBuildEnd(m, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIBindStream(m, persistent(), 0), ACL_ERROR_RT_PARAM_INVALID);
	/* Still bound after the build: no work until unbound. */
	ck_assert_int_eq(aclrtMemsetAsync(d, 64, 0, 64, s1), ACL_ERROR_RT_STREAM_MODEL);

	/* The recorded memset runs at the replay, not before. */
	ck_assert_int_eq(aclrtMemset(d, 64, 0, 64), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIExecuteAsync(m, plain), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(plain), ACL_SUCCESS);
	{
		uint8_t h[64];

		get(h, d, 64);
		ck_assert(vm_all_bytes(h, 64, 0x5A));
	}
	ck_assert_int_eq(aclmdlRIUnbindStream(m, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIUnbindStream(m, s1), ACL_ERROR_RT_STREAM_MODEL);
	ck_assert_int_eq(aclrtMemsetAsync(d, 64, 0, 64, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIUnbindStream(m, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(m), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(m2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(ev), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(plain), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
}
END_TEST

START_TEST(label_codes)
{
	aclrtStream s1 = persistent(), plain;
	aclrtLabel l[3], unlisted, bad = (aclrtLabel)&bad;
	aclrtLabelList ll, badl = (aclrtLabelList)&badl;
	uint32_t *idx = vm_dev_alloc(64);
	uint32_t host_idx = 0;
	aclmdlRI m;

	ck_assert_int_eq(aclrtCreateStream(&plain), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateLabel(NULL), ACL_ERROR_INVALID_PARAM);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(aclrtCreateLabel(&l[i]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateLabel(&unlisted), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateLabelList(NULL, 1, &ll), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateLabelList(l, 1, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateLabelList(l, 0, &ll), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCreateLabelList(l, 65536, &ll), ACL_ERROR_RT_PARAM_INVALID);
	{
		aclrtLabel with_bad[2] = { l[0], bad };

		ck_assert_int_eq(aclrtCreateLabelList(with_bad, 2, &ll), ACL_ERROR_RT_PARAM_INVALID);
	}
	ck_assert_int_eq(aclrtCreateLabelList(l, 3, &ll), ACL_SUCCESS);

	ck_assert_int_eq(aclmdlRIBuildBegin(&m, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetLabel(NULL, s1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetLabel(l[0], NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetLabel(bad, s1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetLabel(l[0], plain), ACL_ERROR_RT_STREAM_MODEL);
	ck_assert_int_eq(aclrtSetLabel(unlisted, s1), ACL_ERROR_RT_INTERNAL_ERROR);

	ck_assert_int_eq(aclrtSwitchLabelByIndex(NULL, 3, ll, s1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSwitchLabelByIndex(idx, 3, NULL, s1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSwitchLabelByIndex(idx, 3, ll, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSwitchLabelByIndex((uint8_t *)idx + 2, 3, ll, s1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSwitchLabelByIndex(idx, 0, ll, s1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSwitchLabelByIndex(idx, 4, ll, s1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSwitchLabelByIndex(idx, 3, badl, s1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSwitchLabelByIndex(idx, 3, ll, plain), ACL_ERROR_RT_STREAM_MODEL);
	ck_assert_int_eq(aclrtSwitchLabelByIndex(&host_idx, 3, ll, s1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSwitchLabelByIndex(idx, 3, ll, s1), ACL_SUCCESS);
	/* l[2] is never set: the build cannot resolve the switch. */
	ck_assert_int_eq(aclrtSetLabel(l[0], s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetLabel(l[0], s1), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtSetLabel(l[1], s1), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIBuildEnd(m, NULL), ACL_ERROR_RT_INTERNAL_ERROR);
	ck_assert_int_eq(aclrtSetLabel(l[2], s1), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIBuildEnd(m, NULL), ACL_SUCCESS);

	ck_assert_int_eq(aclrtDestroyLabelList(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDestroyLabelList(badl), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDestroyLabelList(ll), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyLabelList(ll), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDestroyLabel(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDestroyLabel(bad), ACL_ERROR_RT_PARAM_INVALID);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(aclrtDestroyLabel(l[i]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyLabel(unlisted), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyLabel(unlisted), ACL_ERROR_RT_PARAM_INVALID);

	/* The model keeps its targets after its labels are gone. */
	put_u32(idx, 7);
	ck_assert_int_eq(aclmdlRIExecuteAsync(m, plain), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(plain), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIUnbindStream(m, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIDestroy(m), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(plain), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(idx), ACL_SUCCESS);
}
END_TEST

START_TEST(cond_codes)
{
	aclrtStream s, sub, plain;
	aclmdlRI m, g, subs[2] = { 0 }, built;
	aclmdlRICondHandle h, h2, badh = (aclmdlRICondHandle)&badh;
	aclmdlRICondTaskParams p = { 0 };
	uint64_t *ptr = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&sub), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&plain), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIBuildBegin(&built, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICondHandleCreate(built, 0, 0, &h), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRIDestroy(built), ACL_SUCCESS);

	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(s, NULL, &m), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICondHandleCreate(NULL, 0, 0, &h), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICondHandleCreate(m, 0, 0, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICondHandleCreate((aclmdlRI)&h, 0, 0, &h), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRICondHandleCreate(m, 3, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICondHandleCreate(m, 0, 0, &h2), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICondHandleGetCondPtr(NULL, &ptr), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICondHandleGetCondPtr(h, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICondHandleGetCondPtr(badh, &ptr), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRICondHandleGetCondPtr(h, &ptr), ACL_SUCCESS);
	ck_assert_ptr_nonnull(ptr);
	ck_assert_uint_eq(vm_dev_get_u64(ptr), 0);	/* zeroed */

	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_WHILE;
	p.size = 1;
	p.modelRIArray = subs;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIAddCondTask(p, plain, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
	p.handle = badh;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
	p.handle = h;
	p.size = 2;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.size = 0;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
	p.type = ACL_MODEL_RI_COND_TYPE_SWITCH;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
	p.type = (aclmdlRICondTaskType)3;
	p.size = 1;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.modelRIArray = NULL;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_INVALID_PARAM);
	p.modelRIArray = subs;
	p.size = 2;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_SUCCESS);
	ck_assert_ptr_nonnull(subs[0]);
	ck_assert_ptr_nonnull(subs[1]);
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);	/* used */

	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(NULL, subs[0], 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(sub, NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(sub, subs[0], (aclmdlRICaptureMode)5),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(s, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
			 ACL_ERROR_RT_STREAM_CAPTURED);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(sub, m, ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(sub, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(sub, &subs[0]), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &g), ACL_SUCCESS);
	ck_assert_ptr_eq(g, m);
	ck_assert_int_eq(aclmdlRIExecuteAsync(g, plain), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(plain), ACL_SUCCESS);
	/* ASSIGN_DEFAULT: the replay wrote 3 first. */
	ck_assert_uint_eq(vm_dev_get_u64(ptr), 3);
	ck_assert_int_eq(aclmdlRIDestroy(g), ACL_SUCCESS);
	/* The handles went with their graph. */
	ck_assert_int_eq(aclmdlRICondHandleGetCondPtr(h, &ptr), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclmdlRICondHandleGetCondPtr(h2, &ptr), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(sub), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(plain), ACL_SUCCESS);
}
END_TEST

/* ---- replays --------------------------------------------------------------- */

/*
 * s1 (head): out = in; if *a > *b activate s5; switch by *idx to the label
 * on s2, s3 or s4 (index >= 3: s4's); nothing after the switch runs.
 * s2..s4: fill outL with 0x10, 0x20, 0x30.  s5: outS = in.
 */
START_TEST(built_label_switch_replays)
{
	aclrtStream s[6], exec;
	aclrtLabel l[3];
	aclrtLabelList ll;
	aclmdlRI m;
	uint8_t *in = vm_dev_alloc(N), *out = vm_dev_alloc(N), *outL = vm_dev_alloc(N), *outS = vm_dev_alloc(N);
	uint32_t *idx = vm_dev_alloc(64);
	int32_t *a = vm_dev_alloc(64), *b = vm_dev_alloc(64);
	uint8_t hin[N], h[N];
	const int32_t one = 1;

	for (int i = 1; i <= 5; i++)
		s[i] = persistent();
	ck_assert_int_eq(aclrtCreateStream(&exec), ACL_SUCCESS);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(aclrtCreateLabel(&l[i]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateLabelList(l, 3, &ll), ACL_SUCCESS);
	put(b, &one, sizeof(one));

	ck_assert_int_eq(aclmdlRIBuildBegin(&m, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIBindStream(m, s[1], ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
	for (int i = 2; i <= 5; i++)
		ck_assert_int_eq(aclmdlRIBindStream(m, s[i], ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(out, N, in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s[1]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSwitchStream(a, ACL_RT_GREATER, b, ACL_RT_SWITCH_INT32, s[5], NULL, s[1]),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSwitchLabelByIndex(idx, 3, ll, s[1]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(out, N, 0xFF, N, s[1]), ACL_SUCCESS);	/* never runs */
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(aclrtSetLabel(l[i], s[2 + i]), ACL_SUCCESS);
		ck_assert_int_eq(aclrtMemsetAsync(outL, N, 0x10 * (i + 1), N, s[2 + i]), ACL_SUCCESS);
	}
	ck_assert_int_eq(aclrtMemcpyAsync(outS, N, in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s[5]), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIEndTask(m, s[5]), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRIBuildEnd(m, NULL), ACL_SUCCESS);

	for (uint32_t r = 0; r < 200; r++) {
		int32_t av = (int32_t)(r % 4) - 1;	/* -1..2: s5 runs when 2 (> 1) */
		uint32_t iv = r % 5;			/* 3, 4: past the end, s4's label */
		vm_fill(hin, N, r);
		put(in, hin, N);
		put(a, &av, sizeof(av));
		put_u32(idx, iv);
		ck_assert_int_eq(aclrtMemset(outL, N, 0, N), ACL_SUCCESS);
		ck_assert_int_eq(aclrtMemset(outS, N, 0, N), ACL_SUCCESS);
		ck_assert_int_eq(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
		ck_assert_int_eq(aclrtSynchronizeStream(exec), ACL_SUCCESS);
		get(h, out, N);
		ck_assert_mem_eq(h, hin, N);
		get(h, outL, N);
		ck_assert_msg(vm_all_bytes(h, N, 0x10 * ((iv > 2 ? 2 : iv) + 1)), "replay %u index %u", r, iv);
		get(h, outS, N);
		if (av > 1)
			ck_assert_mem_eq(h, hin, N);
		else
			ck_assert(vm_all_bytes(h, N, 0));
	}
	for (int i = 1; i <= 5; i++) {
		ck_assert_int_eq(aclmdlRIUnbindStream(m, s[i]), ACL_SUCCESS);
		ck_assert_int_eq(aclrtDestroyStream(s[i]), ACL_SUCCESS);
	}
	ck_assert_int_eq(aclmdlRIDestroy(m), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyLabelList(ll), ACL_SUCCESS);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(aclrtDestroyLabel(l[i]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(exec), ACL_SUCCESS);
	aclrtFree(in);
	aclrtFree(out);
	aclrtFree(outL);
	aclrtFree(outS);
	aclrtFree(idx);
	aclrtFree(a);
	aclrtFree(b);
}
END_TEST

/*
 * A captured graph: while (*cond) { *cond = tokens[1]; tokens[0..K-1] =
 * tokens[1..K]; acc = [0xAB] + acc[0..K-1] } then if (*cond2) out = in
 * else out = 0xFF...  With *cond = (k > 0), tokens[1..k-1] = 1 and the
 * rest 0, the loop runs exactly k rounds; with every token 1 it never
 * ends.
 */
struct loop_graph {
	aclmdlRI g;
	uint64_t *cond, *cond2;
	uint64_t *tokens, *tmp;		/* K + 1 words */
	uint8_t *acc, *acc_tmp;		/* K + 1 bytes */
	uint8_t *in, *out;
};

static void loop_graph_make(struct loop_graph *lg, aclrtStream s, aclrtStream sub)
{
	aclmdlRICondHandle h, h2;
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRI body[1] = { 0 }, br[2] = { 0 }, g;
	const size_t tw = (K + 1) * sizeof(uint64_t);

	lg->tokens = vm_dev_alloc(tw);
	lg->tmp = vm_dev_alloc(tw);
	lg->acc = vm_dev_alloc(K + 1);
	lg->acc_tmp = vm_dev_alloc(K + 1);
	lg->in = vm_dev_alloc(N);
	lg->out = vm_dev_alloc(N);
	ck_assert_int_eq(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(s, NULL, &lg->g), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICondHandleCreate(lg->g, 0, 0, &h), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICondHandleGetCondPtr(h, &lg->cond), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICondHandleCreate(lg->g, 0, 0, &h2), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICondHandleGetCondPtr(h2, &lg->cond2), ACL_SUCCESS);
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_WHILE;
	p.size = 1;
	p.modelRIArray = body;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_SUCCESS);
	p.handle = h2;
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.size = 2;
	p.modelRIArray = br;
	ck_assert_int_eq(aclmdlRIAddCondTask(p, s, 0), ACL_SUCCESS);

	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(sub, body[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(lg->tmp, tw - 8, lg->tokens + 1, tw - 8, ACL_MEMCPY_DEVICE_TO_DEVICE, sub),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(lg->tokens, tw - 8, lg->tmp, tw - 8, ACL_MEMCPY_DEVICE_TO_DEVICE, sub),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(lg->cond, 8, lg->tmp, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, sub), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(lg->acc_tmp, K, lg->acc, K, ACL_MEMCPY_DEVICE_TO_DEVICE, sub), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(lg->acc + 1, K, lg->acc_tmp, K, ACL_MEMCPY_DEVICE_TO_DEVICE, sub),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(lg->acc, 1, 0xAB, 1, sub), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(sub, &body[0]), ACL_SUCCESS);

	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(sub, br[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(lg->out, N, lg->in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, sub), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(sub, &br[0]), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureToModelRIBegin(sub, br[1], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(lg->out, N, 0xFF, N, sub), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(sub, &br[1]), ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(s, &g), ACL_SUCCESS);
	ck_assert_ptr_eq(g, lg->g);
}

static void loop_graph_free(struct loop_graph *lg)
{
	ck_assert_int_eq(aclmdlRIDestroy(lg->g), ACL_SUCCESS);
	aclrtFree(lg->tokens);
	aclrtFree(lg->tmp);
	aclrtFree(lg->acc);
	aclrtFree(lg->acc_tmp);
	aclrtFree(lg->in);
	aclrtFree(lg->out);
}

START_TEST(cond_while_if_replays)
{
	aclrtStream s, sub, exec;
	struct loop_graph lg;
	uint64_t tok[K + 1];
	uint8_t acc0[K + 1], acc[K + 1], hin[N], h[N];

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&sub), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&exec), ACL_SUCCESS);
	loop_graph_make(&lg, s, sub);
	for (uint32_t r = 0; r < 200; r++) {
		uint32_t k = r % (K + 1);
		uint64_t c2 = r & 1;

		memset(tok, 0, sizeof(tok));
		for (uint32_t i = 1; i < k; i++)
			tok[i] = 1;
		vm_fill(acc0, sizeof(acc0), r);
		vm_fill(hin, N, r + 1000);
		put(lg.tokens, tok, sizeof(tok));
		put(lg.acc, acc0, sizeof(acc0));
		put(lg.in, hin, N);
		vm_dev_put_u64(lg.cond, k > 0);
		vm_dev_put_u64(lg.cond2, c2);
		ck_assert_int_eq(aclmdlRIExecuteAsync(lg.g, exec), ACL_SUCCESS);
		ck_assert_int_eq(aclrtSynchronizeStream(exec), ACL_SUCCESS);
		/* k rounds: k bytes 0xAB in front of the first K + 1 - k. */
		get(acc, lg.acc, sizeof(acc));
		for (uint32_t i = 0; i <= K; i++)
			ck_assert_msg(acc[i] == (i < k ? 0xAB : acc0[i - k]), "replay %u k %u byte %u", r, k, i);
		ck_assert_uint_eq(vm_dev_get_u64(lg.cond), 0);
		get(h, lg.out, N);
		if (c2)
			ck_assert_mem_eq(h, hin, N);
		else
			ck_assert(vm_all_bytes(h, N, 0xFF));
	}
	loop_graph_free(&lg);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(sub), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(exec), ACL_SUCCESS);
}
END_TEST

/* Every token 1: the body copies 1 into *cond every round, for ever. */
static void endless(struct loop_graph *lg)
{
	uint64_t tok[K + 1];

	for (uint32_t i = 0; i <= K; i++)
		tok[i] = 1;
	put(lg->tokens, tok, sizeof(tok));
}

/*
 * A loop whose condition never turns false keeps its stream busy; the
 * process's other streams run meanwhile, and a forced destroy of the
 * stream stops it.
 */
START_TEST(endless_loop_stopped)
{
	aclrtStream s, sub, exec, other;
	struct loop_graph lg;
	uint8_t *x = vm_dev_alloc(N), *y = vm_dev_alloc(N), hx[N], hy[N];
	aclrtStreamStatus st;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&sub), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&exec), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&other), ACL_SUCCESS);
	loop_graph_make(&lg, s, sub);
	endless(&lg);
	vm_dev_put_u64(lg.cond, 1);
	ck_assert_int_eq(aclmdlRIExecuteAsync(lg.g, exec), ACL_SUCCESS);
	/* Another stream of the process is not held up by it. */
	vm_fill(hx, N, 7);
	put(x, hx, N);
	ck_assert_int_eq(aclrtMemcpyAsync(y, N, x, N, ACL_MEMCPY_DEVICE_TO_DEVICE, other), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(other), ACL_SUCCESS);
	get(hy, y, N);
	ck_assert_mem_eq(hy, hx, N);
	ck_assert_int_eq(aclrtStreamQuery(exec, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtDestroyStreamForce(exec), ACL_SUCCESS);
	loop_graph_free(&lg);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(sub), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(other), ACL_SUCCESS);
	aclrtFree(x);
	aclrtFree(y);
}
END_TEST

/* A process killed while a replay of a long loop runs leaves nothing. */
START_TEST(killed_mid_replay)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		aclrtStream s, sub, exec;
		struct loop_graph lg;
		uint64_t v;

		if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS ||
		    aclrtCreateStream(&sub) != ACL_SUCCESS || aclrtCreateStream(&exec) != ACL_SUCCESS)
			_exit(2);
		loop_graph_make(&lg, s, sub);
		endless(&lg);
		v = 1;
		if (aclrtMemcpy(lg.cond, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
		    aclmdlRIExecuteAsync(lg.g, exec) != ACL_SUCCESS || graph_lines(getpid()) != 4)
			_exit(3);
		raise(SIGKILL);
		_exit(4);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child status %d", status);
	ck_assert_int_eq(graph_lines(pid), 0);
	ck_assert_int_eq(vm_dbg_allocs_of(0, pid), 0);
}
END_TEST

static Suite *graph_build_suite(void)
{
	Suite *s = suite_create("graph_build");
	TCase *t = tcase_create("graph_build");

	tcase_set_timeout(t, VM_TIMEOUT_LONG);
	tcase_add_checked_fixture(t, vm_acl_stream_setup, vm_acl_stream_teardown);
	tcase_add_test(t, build_codes);
	tcase_add_test(t, label_codes);
	tcase_add_test(t, cond_codes);
	tcase_add_test(t, built_label_switch_replays);
	tcase_add_test(t, cond_while_if_replays);
	tcase_add_test(t, endless_loop_stopped);
	tcase_add_test(t, killed_mid_replay);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return vm_run_suite(graph_build_suite());
}
