/* SPDX-License-Identifier: GPL-2.0 */
/* The two output formats of npu-sim-smi: a table for people, JSON for scripts. */
#ifndef NPU_SIM_TOOLS_SMI_OUTPUT_H
#define NPU_SIM_TOOLS_SMI_OUTPUT_H

#include <stdio.h>

#include "npu_sim_state.h"

/* Print devices of @state (only device @only_id unless it is -1). */
void smi_print_table(FILE *out, const struct npu_sim_state *state,
		     int only_id);
void smi_print_json(FILE *out, const struct npu_sim_state *state,
		    int only_id);

#endif
