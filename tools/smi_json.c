// SPDX-License-Identifier: GPL-2.0
/*
 * npu-sim-smi --json: the same snapshot as the table, sizes in bytes, for
 * scripts and tests.  Values the module does not report are null.
 */
#include "smi_output.h"

#include <inttypes.h>
#include <stdlib.h>

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* A module parameter: a number when it is one, else a string or null. */
static void json_param(FILE *out, const char *name, const char *value,
		       bool last)
{
	char *end = NULL;

	fprintf(out, "      \"%s\": ", name);
	if (value[0])
		strtoull(value, &end, 10);
	if (!value[0])
		fputs("null", out);
	else if (*end == '\0')
		fputs(value, out);
	else
		json_string(out, value);
	fputs(last ? "\n" : ",\n", out);
}

static void json_u64_or_null(FILE *out, bool known, uint64_t v)
{
	if (known)
		fprintf(out, "%" PRIu64, v);
	else
		fputs("null", out);
}

static void json_kind(FILE *out, const char *name,
		      const struct npu_sim_kind_use *use, bool known, bool last)
{
	fprintf(out, "        \"%s\": {\"used_bytes\": ", name);
	json_u64_or_null(out, known, use->used_bytes);
	fprintf(out, ", \"free_bytes\": %" PRIu64 "}%s\n", use->free_bytes,
		last ? "" : ",");
}

static void json_processes(FILE *out, const struct npu_sim_device *dev)
{
	if (!dev->have_debugfs) {
		fputs("null", out);
		return;
	}
	fputc('[', out);
	for (size_t i = 0; i < dev->nprocesses; i++) {
		const struct npu_sim_process *p = &dev->processes[i];

		fprintf(out, "%s\n        {\"pid\": %d, \"name\": ",
			i ? "," : "", p->pid);
		json_string(out, p->name);
		fprintf(out, ", \"allocations\": %" PRIu64
			", \"used_bytes\": %" PRIu64 "}",
			p->allocations, p->used_bytes);
	}
	fputs(dev->nprocesses ? "\n      ]" : "]", out);
}

static void json_device(FILE *out, const struct npu_sim_device *dev)
{
	const bool dbg = dev->have_debugfs;
	uint64_t left = dev->capacity_bytes > dev->used_bytes ?
			dev->capacity_bytes - dev->used_bytes : 0;

	fprintf(out, "    {\n      \"id\": %d,\n", dev->index);
	fprintf(out, "      \"path\": \"/dev/%s%d\",\n", NPU_SIM_MODULE_NAME,
		dev->index);
	fprintf(out, "      \"capacity_bytes\": %" PRIu64 ",\n",
		dev->capacity_bytes);
	fprintf(out, "      \"used_bytes\": %" PRIu64 ",\n", dev->used_bytes);
	fprintf(out, "      \"free_bytes\": %" PRIu64 ",\n", left);
	fputs("      \"host_access\": ", out);
	json_u64_or_null(out, dev->host_access >= 0,
			 (uint64_t)dev->host_access);
	fputs(",\n      \"pages\": {\n", out);
	json_kind(out, "normal", &dev->normal, dbg, false);
	json_kind(out, "huge_2m", &dev->huge_2m, dbg, false);
	json_kind(out, "huge_1g", &dev->huge_1g, dbg, true);
	fputs("      },\n      \"p2p_used_bytes\": ", out);
	json_u64_or_null(out, dbg, dev->p2p_used_bytes);
	fputs(",\n      \"allocations\": ", out);
	json_u64_or_null(out, dbg, dev->allocations);
	fputs(",\n      \"peer_access\": ", out);
	if (dbg && dev->have_peers)
		json_string(out, dev->peers);
	else
		fputs("null", out);
	fputs(",\n      \"host_access_faults\": ", out);
	json_u64_or_null(out, dbg, dev->host_access_faults);
	fputs(",\n      \"processes\": ", out);
	json_processes(out, dev);
	fputs("\n    }", out);
}

/* Copies between devices per (src, dst) pair; null when unknown. */
static void json_peer_copies(FILE *out, const struct npu_sim_state *state,
			     int only_id)
{
	size_t shown = 0;

	if (!state->have_peer_copies) {
		fputs("null", out);
		return;
	}
	fputc('[', out);
	for (size_t i = 0; i < state->npeer_copies; i++) {
		const struct npu_sim_peer_copies *pc = &state->peer_copies[i];

		if (only_id >= 0 && pc->src != only_id && pc->dst != only_id)
			continue;
		fprintf(out, "%s\n    {\"src\": %d, \"dst\": %d, \"copies\": %" PRIu64
			", \"bytes\": %" PRIu64 "}", shown ? "," : "", pc->src,
			pc->dst, pc->copies, pc->bytes);
		shown++;
	}
	fputs(shown ? "\n  ]" : "]", out);
}

void smi_print_json(FILE *out, const struct npu_sim_state *state,
		    int only_id)
{
	bool first = true;

	fputs("{\n  \"module\": {\n", out);
	fprintf(out, "    \"name\": \"%s\",\n    \"loaded\": %s,\n",
		NPU_SIM_MODULE_NAME, state->module_loaded ? "true" : "false");
	fputs("    \"api\": ", out);
	if (state->api[0])
		json_string(out, state->api);
	else
		fputs("null", out);
	fputs(",\n    \"debugfs\": ", out);
	if (state->debugfs == DEBUGFS_OK)
		fputs("null", out);
	else
		json_string(out, npu_sim_debugfs_message(state->debugfs));
	fputs(",\n    \"parameters\": {\n", out);
	json_param(out, "num_devices", state->num_devices, false);
	json_param(out, "hbm_mib", state->hbm_mib, false);
	json_param(out, "host_access", state->host_access, false);
	json_param(out, "va_window_gib", state->va_window_gib, true);
	fputs("    }\n  },\n", out);
	fprintf(out, "  \"hugetlb\": {\n"
		"    \"2M\": {\"total_pages\": %" PRIu64 ", \"free_pages\": %" PRIu64 "},\n"
		"    \"1G\": {\"total_pages\": %" PRIu64 ", \"free_pages\": %" PRIu64 "}\n  },\n",
		state->pool_2m.total_pages, state->pool_2m.free_pages,
		state->pool_1g.total_pages, state->pool_1g.free_pages);
	fputs("  \"devices\": [", out);
	for (size_t i = 0; i < state->ndevices; i++) {
		if (only_id >= 0 && state->devices[i].index != only_id)
			continue;
		fputs(first ? "\n" : ",\n", out);
		json_device(out, &state->devices[i]);
		first = false;
	}
	fputs(first ? "]" : "\n  ]", out);
	fputs(",\n  \"peer_copies\": ", out);
	json_peer_copies(out, state, only_id);
	fputs("\n}\n", out);
}
