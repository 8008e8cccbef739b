// SPDX-License-Identifier: GPL-2.0
/*
 * npu-sim-smi's table, in the spirit of `npu-smi info`: one block of rows per
 * device (one row per page kind), then the processes using each device.
 * Sizes are printed exactly, in the largest binary unit that divides them.
 */
#include "smi_output.h"

#include <inttypes.h>
#include <string.h>

#define DEVICE_RULE \
	"+-----+-------------+--------+--------------+--------------+------------+--------+-------------+-------------+"
#define PROCESS_RULE \
	"+-----+---------+------------------+--------+------------+"
#define PEER_RULE \
	"+-----+-----+--------------+--------------+"

static const char *exact_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) && bytes &&
	       !(bytes & 1023)) {
		bytes >>= 10;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, units[u]);
	return buf;
}

static const char *mode_name(int host_access)
{
	return host_access == 1 ? "host-access" :
	       host_access == 0 ? "strict" : "?";
}

static void print_kind_row(FILE *out, const char *first, const char *second,
			   const char *kind, const struct npu_sim_kind_use *use,
			   bool known)
{
	char used[24], avail[24];

	fprintf(out, "| %-3s | %-11s | %-6s | %12s | %12s |            |        |             |             |\n",
		first, second, kind,
		known ? exact_size(used, sizeof(used), use->used_bytes) : "?",
		exact_size(avail, sizeof(avail), use->free_bytes));
}

static void print_device(FILE *out, const struct npu_sim_device *dev)
{
	char id[8], cap[24], used[24], avail[24], p2p[24], allocs[24],
	     faults[24];
	const bool dbg = dev->have_debugfs;
	uint64_t left = dev->capacity_bytes > dev->used_bytes ?
			dev->capacity_bytes - dev->used_bytes : 0;

	snprintf(id, sizeof(id), "%d", dev->index);
	snprintf(allocs, sizeof(allocs), "%" PRIu64, dev->allocations);
	snprintf(faults, sizeof(faults), "%" PRIu64, dev->host_access_faults);
	fprintf(out, "| %-3s | %-11s | %-6s | %12s | %12s | %10s | %6s | %-11s | %11s |\n",
		id, exact_size(cap, sizeof(cap), dev->capacity_bytes), "total",
		exact_size(used, sizeof(used), dev->used_bytes),
		exact_size(avail, sizeof(avail), left),
		dbg ? exact_size(p2p, sizeof(p2p), dev->p2p_used_bytes) : "?",
		dbg ? allocs : "?",
		!dbg ? "?" : dev->have_peers ? dev->peers : "-",
		dbg ? faults : "?");
	print_kind_row(out, "", mode_name(dev->host_access), "normal",
		       &dev->normal, dbg);
	print_kind_row(out, "", "", "2M", &dev->huge_2m, dbg);
	print_kind_row(out, "", "", "1G", &dev->huge_1g, dbg);
	fprintf(out, "%s\n", DEVICE_RULE);
}

static void print_processes(FILE *out, const struct npu_sim_device *dev)
{
	char size[24];

	if (!dev->have_debugfs) {
		fprintf(out, "| %-3d | %-50s |\n", dev->index,
			"processes unknown (debugfs not readable)");
		return;
	}
	if (dev->nprocesses == 0) {
		fprintf(out, "| %-3d | %-50s |\n", dev->index,
			"no processes are using this device");
		return;
	}
	for (size_t i = 0; i < dev->nprocesses; i++) {
		const struct npu_sim_process *p = &dev->processes[i];

		fprintf(out, "| %-3d | %-7d | %-16.16s | %6" PRIu64 " | %10s |\n",
			dev->index, p->pid, p->name, p->allocations,
			exact_size(size, sizeof(size), p->used_bytes));
	}
}

/* Copies between devices, one row per (source, destination) pair. */
static void print_peer_copies(FILE *out, const struct npu_sim_state *state,
			      int only_id)
{
	char bytes[24];
	size_t shown = 0;

	fprintf(out, "\n%s\n", PEER_RULE);
	fprintf(out, "| Src | Dst |       Copies |        Bytes |\n");
	fprintf(out, "%s\n", PEER_RULE);
	for (size_t i = 0; i < state->npeer_copies; i++) {
		const struct npu_sim_peer_copies *pc = &state->peer_copies[i];

		if (only_id >= 0 && pc->src != only_id && pc->dst != only_id)
			continue;
		fprintf(out, "| %-3d | %-3d | %12" PRIu64 " | %12s |\n",
			pc->src, pc->dst, pc->copies,
			exact_size(bytes, sizeof(bytes), pc->bytes));
		shown++;
	}
	if (!shown)
		fprintf(out, "| %-40s |\n", !state->have_peer_copies ?
			"copies between devices unknown" :
			"no copies between devices");
	fprintf(out, "%s\n", PEER_RULE);
}

static bool selected(const struct npu_sim_device *dev, int only_id)
{
	return only_id < 0 || dev->index == only_id;
}

void smi_print_table(FILE *out, const struct npu_sim_state *state,
		     int only_id)
{
	fprintf(out, "npu-sim-smi  module %s  api %s  devices %zu  hugetlb 2M free %" PRIu64 "/%" PRIu64 "  1G free %" PRIu64 "/%" PRIu64 "\n",
		NPU_SIM_MODULE_NAME, state->api[0] ? state->api : "?",
		state->ndevices, state->pool_2m.free_pages,
		state->pool_2m.total_pages, state->pool_1g.free_pages,
		state->pool_1g.total_pages);
	fprintf(out, "%s\n", DEVICE_RULE);
	fprintf(out, "| NPU | Capacity    | Kind   |         Used |         Free |        P2P | Allocs | Peer access | Host faults |\n");
	fprintf(out, "| %-3s | %-11s | %-6s | %12s | %12s | %10s | %6s | %-11s | %11s |\n",
		"", "Mode", "", "", "", "", "", "", "");
	fprintf(out, "%s\n", DEVICE_RULE);
	for (size_t i = 0; i < state->ndevices; i++)
		if (selected(&state->devices[i], only_id))
			print_device(out, &state->devices[i]);

	fprintf(out, "\n%s\n", PROCESS_RULE);
	fprintf(out, "| NPU | PID     | Process name     | Allocs |       Used |\n");
	fprintf(out, "%s\n", PROCESS_RULE);
	for (size_t i = 0; i < state->ndevices; i++)
		if (selected(&state->devices[i], only_id))
			print_processes(out, &state->devices[i]);
	fprintf(out, "%s\n", PROCESS_RULE);
	print_peer_copies(out, state, only_id);
}
