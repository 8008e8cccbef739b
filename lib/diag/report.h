/*
 * The report machinery of NPU_SIM_CHECK (check.c, races.c): the current
 * call and its site, call sites captured with backtrace(3), report blocks
 * and their output to stderr and $NPU_SIM_REPORT_DIR/report.<pid>.
 */
#ifndef NPU_RT_REPORT_H
#define NPU_RT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#define NPU_RT_SITE_FRAMES	6	/* call site and the callers above it */
#define NPU_RT_BLOCK_MAX	4096	/* one report */

/* Set once from NPU_SIM_CHECK before main (check.c's constructor). */
extern int npu_rt_check_flags;

/* The wrapper of every exported call (api_wrap.c): which call, from where. */
void npu_rt_check_enter(const char *call, void *site);
/* The current call's site (the return address into the caller) and name
 * ("?" outside a call). */
void *npu_rt_check_site(void);
const char *npu_rt_check_call(void);

/* A call site: the API caller's return address and its callers. */
struct npu_rt_site {
	int n;
	void *pc[NPU_RT_SITE_FRAMES];
};

/* The current call's site, from the API caller up. */
void npu_rt_site_capture(struct npu_rt_site *s);

/* One report being written. */
struct npu_rt_block {
	char buf[NPU_RT_BLOCK_MAX];
	size_t len;
};

void npu_rt_block_add(struct npu_rt_block *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "<indent>at f (file.c:12)" then "<indent>by ..." for the callers. */
void npu_rt_block_site(struct npu_rt_block *b, const char *indent, const struct npu_rt_site *s);
/* To out, else to stderr and $NPU_SIM_REPORT_DIR/report.<pid>, one
 * write(2) each. */
void npu_rt_block_emit(const struct npu_rt_block *b, FILE *out);

#endif /* NPU_RT_REPORT_H */
