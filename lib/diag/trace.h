/*
 * The call trace (NPU_SIM_TRACE=FILE, docs/tracing.md): one JSON line per
 * exported aclError call.  The wrappers of api_wrap.c test
 * npu_rt_trace_on() (one predictable branch when tracing is off) and then
 * run the generated npu_rt_traced_<call> (tools/gen-api-wrappers), which
 * builds the line in a struct npu_rt_tr on its stack with the formatters
 * below and writes it with one write(2) to the O_APPEND file, so lines of
 * threads and of forked children never interleave.
 */
#ifndef NPU_RT_TRACE_H
#define NPU_RT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

/* One line at most; arguments that do not fit are left out ("truncated"). */
#define NPU_RT_TR_MAX 4096
/* Room kept for the fields after the arguments and outputs. */
#define NPU_RT_TR_TAIL 256
/* Longest string argument written (bytes before escaping). */
#define NPU_RT_TR_STR_MAX 128

struct npu_rt_tr {
	char buf[NPU_RT_TR_MAX];
	size_t len;
	int first;		/* no field yet in the open object */
	int truncated;		/* a field did not fit */
	int skip;		/* objects opened while truncated: left out */
	uint64_t t0, t1;	/* CLOCK_MONOTONIC ns around the call */
};

/* The trace file's descriptor, -1 when tracing is off (trace.c). */
extern int npu_rt_trace_fd;
#define npu_rt_trace_on() __builtin_expect(npu_rt_trace_fd >= 0, 0)

/* ---- trace_fmt.c: JSON formatting, pure ------------------------------- */

/* Start an empty line (no object opened). */
void npu_rt_tr_init(struct npu_rt_tr *t);
/* Append raw text; with reserve, only if NPU_RT_TR_TAIL bytes stay free. */
void npu_rt_tr_raw(struct npu_rt_tr *t, const char *s, int reserve);
/* "name":{ ... }: open and close a member object (or the line's object
 * when name is NULL). */
void npu_rt_tr_open(struct npu_rt_tr *t, const char *name);
void npu_rt_tr_close(struct npu_rt_tr *t);
/* Members of the open object: numbers, "0x..." pointers (null for NULL),
 * escaped strings (null for NULL, cut at NPU_RT_TR_STR_MAX bytes). */
void npu_rt_tr_int(struct npu_rt_tr *t, const char *name, long long v);
void npu_rt_tr_uint(struct npu_rt_tr *t, const char *name, unsigned long long v);
void npu_rt_tr_double(struct npu_rt_tr *t, const char *name, double v);
void npu_rt_tr_ptr(struct npu_rt_tr *t, const char *name, const void *p);
void npu_rt_tr_str(struct npu_rt_tr *t, const char *name, const char *s);
/* The structs of STRUCT_FORMATTERS (tools/gen-api-wrappers) as objects;
 * null for a NULL pointer. */
void npu_rt_tr_aclrtMemLocation(struct npu_rt_tr *t, const char *name, const aclrtMemLocation *p);
void npu_rt_tr_aclrtPhysicalMemProp(struct npu_rt_tr *t, const char *name,
				    const aclrtPhysicalMemProp *p);
void npu_rt_tr_aclrtMallocConfig(struct npu_rt_tr *t, const char *name, const aclrtMallocConfig *p);
void npu_rt_tr_aclrtIpcEventHandle(struct npu_rt_tr *t, const char *name, const aclrtIpcEventHandle *p);
void npu_rt_tr_aclmdlRICondTaskParams(struct npu_rt_tr *t, const char *name, const aclmdlRICondTaskParams *p);
void npu_rt_tr_aclrtMemManagedLocation(struct npu_rt_tr *t, const char *name,
				       const aclrtMemManagedLocation *p);

/* ---- trace.c: the line of one call ------------------------------------ */

/* {"seq":..,"pid":..,"tid":..,"name":"<call>","args":{ */
void npu_rt_trace_begin(struct npu_rt_tr *t, const char *call);
/* The arguments are written: the call starts now. */
void npu_rt_trace_call(struct npu_rt_tr *t);
/* The call returned err: },"result":err,"out":{ */
void npu_rt_trace_result(struct npu_rt_tr *t, aclError err);
/* },"ts":..,"dur":..,"device":..[,"stream":..]} and write the line. */
void npu_rt_trace_end(struct npu_rt_tr *t, int has_stream, const void *stream);

#endif /* NPU_RT_TRACE_H */
