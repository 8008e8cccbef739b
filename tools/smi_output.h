/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output formats of npu-sim-smi: a table for people (libsmartcols),
 * JSON for scripts (json-c), and CSV of chosen fields (--query).
 */
#ifndef NPU_SIM_TOOLS_SMI_OUTPUT_H
#define NPU_SIM_TOOLS_SMI_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "npu_sim_state.h"

#define MiB	(1ULL << 20)

/* Sizes in whole MiB: used is rounded up, totals and free down. */
static inline uint64_t mib_up(uint64_t bytes)
{
	return bytes / MiB + (bytes % MiB != 0);
}

static inline uint64_t mib_down(uint64_t bytes)
{
	return bytes / MiB;
}

static inline uint64_t dev_free_bytes(const struct npu_sim_device *dev)
{
	return dev->capacity_bytes > dev->used_bytes ?
	       dev->capacity_bytes - dev->used_bytes : 0;
}

/* Print devices of @state (only device @only_id unless it is -1). */
int smi_print_table(FILE *out, const struct npu_sim_state *state,
		    int only_id);
/* @pretty: indented; else one line per document (loop mode). */
int smi_print_json(FILE *out, const struct npu_sim_state *state, int only_id,
		   bool pretty);

/*
 * --query=FIELD,... (one line per device) or --query-processes=FIELD,...
 * (one line per process and device), --format=csv[,noheader][,nounits]
 */
#define SMI_MAX_FIELDS	32

struct smi_query {
	bool processes;			/* --query-processes */
	size_t nfields;
	int fields[SMI_MAX_FIELDS];	/* indexes into the field list */
	bool header;
	bool units;
};

/* Parse the two options; false with a message in @err. */
bool smi_query_parse(struct smi_query *q, bool processes, const char *fields,
		     const char *format, char *err, size_t errlen);
void smi_query_print_header(FILE *out, const struct smi_query *q);
void smi_query_print(FILE *out, const struct npu_sim_state *state,
		     int only_id, const struct smi_query *q);
/* The field names with their meaning, for --help-query. */
void smi_query_help(FILE *out);

#endif
