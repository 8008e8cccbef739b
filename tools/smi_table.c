// SPDX-License-Identifier: GPL-2.0
/*
 * npu-sim-smi's tables, in the conventions of `npu-smi info` and
 * `nvidia-smi`: one row per device with its memory in MiB ("used /
 * total"), then the processes using the devices, then (root only) the
 * copies between devices, notifies, graphs, memory pools and streams with
 * host callbacks.  libsmartcols lays the columns out.
 */
#include "smi_output.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include <libsmartcols.h>

static const char *mode_name(int host_access)
{
	return host_access == 1 ? "host-access" :
	       host_access == 0 ? "strict" : "?";
}

static struct libscols_table *new_table(FILE *out, const char *const *names,
					const int *right)
{
	struct libscols_table *tb = scols_new_table();

	if (!tb)
		return NULL;
	scols_table_set_stream(tb, out);
	scols_table_set_column_separator(tb, "  ");
	for (size_t i = 0; names[i]; i++)
		if (!scols_table_new_column(tb, names[i], 0,
					    right[i] ? SCOLS_FL_RIGHT : 0)) {
			scols_unref_table(tb);
			return NULL;
		}
	return tb;
}

/* Set cell @col of @ln to printf(@fmt, ...). */
static int cell(struct libscols_line *ln, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int cell(struct libscols_line *ln, size_t col, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return scols_line_set_data(ln, col, buf);
}

static bool shown(const struct npu_sim_device *dev, int only_id)
{
	return only_id < 0 || dev->index == only_id;
}

static int print_devices(FILE *out, const struct npu_sim_state *state,
			 int only_id, bool faults)
{
	static const char *const names[] = {
		"NPU", "Name", "Health", "Mode", "Memory-Usage(MiB)",
		"Normal(MiB)", "Huge-2M(MiB)", "Huge-1G(MiB)", "P2P(MiB)",
		"Allocs", "Procs", "Peers", "Host-Faults", NULL,
	};
	static const int right[] = { 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1 };
	struct libscols_table *tb = new_table(out, names, right);
	int ret = 0;

	if (!tb)
		return -1;
	if (!faults)
		scols_column_set_flags(scols_table_get_column(tb, 12),
				       SCOLS_FL_HIDDEN);
	for (size_t i = 0; i < state->ndevices && !ret; i++) {
		const struct npu_sim_device *dev = &state->devices[i];
		struct libscols_line *ln;
		const bool d = dev->have_detail;

		if (!shown(dev, only_id))
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln) {
			ret = -1;
			break;
		}
		cell(ln, 0, "%d", dev->index);
		cell(ln, 1, "%s", dev->name);
		cell(ln, 2, "%s", dev->health[0] ? dev->health : "?");
		cell(ln, 3, "%s", mode_name(dev->host_access));
		cell(ln, 4, "%" PRIu64 " / %" PRIu64, mib_up(dev->used_bytes),
		     mib_down(dev->capacity_bytes));
		if (d) {
			cell(ln, 5, "%" PRIu64, mib_up(dev->normal.used_bytes));
			cell(ln, 6, "%" PRIu64, mib_up(dev->huge_2m.used_bytes));
			cell(ln, 7, "%" PRIu64, mib_up(dev->huge_1g.used_bytes));
			cell(ln, 8, "%" PRIu64, mib_up(dev->p2p_used_bytes));
			cell(ln, 9, "%" PRIu64, dev->allocations);
		} else {
			for (size_t c = 5; c <= 9; c++)
				cell(ln, c, "?");
		}
		if (dev->have_processes)
			cell(ln, 10, "%zu", dev->nprocesses);
		else
			cell(ln, 10, "?");
		cell(ln, 11, "%s", !d ? "?" : dev->peers[0] ? dev->peers : "-");
		if (dev->have_faults)
			cell(ln, 12, "%" PRIu64, dev->host_access_faults);
	}
	if (!ret)
		ret = scols_print_table(tb);
	scols_unref_table(tb);
	return ret;
}

static int print_processes(FILE *out, const struct npu_sim_state *state,
			   int only_id)
{
	static const char *const names[] = {
		"NPU", "PID", "Process-Name", "Allocs", "Device-Memory(MiB)",
		NULL,
	};
	static const int right[] = { 0, 1, 0, 1, 1 };
	struct libscols_table *tb;
	bool any = false, unknown = false;
	int ret = 0;

	for (size_t i = 0; i < state->ndevices; i++) {
		const struct npu_sim_device *dev = &state->devices[i];

		if (!shown(dev, only_id))
			continue;
		any |= dev->nprocesses > 0;
		unknown |= !dev->have_processes;
	}
	fputc('\n', out);
	if (unknown)
		fprintf(out, "Processes: unknown (module older than API 1.6)\n");
	if (!any) {
		if (!unknown)
			fprintf(out, "Processes: no running processes found\n");
		return 0;
	}
	tb = new_table(out, names, right);
	if (!tb)
		return -1;
	for (size_t i = 0; i < state->ndevices && !ret; i++) {
		const struct npu_sim_device *dev = &state->devices[i];

		if (!shown(dev, only_id))
			continue;
		for (size_t p = 0; p < dev->nprocesses; p++) {
			const struct npu_sim_process *pr = &dev->processes[p];
			struct libscols_line *ln = scols_table_new_line(tb, NULL);

			if (!ln) {
				ret = -1;
				break;
			}
			cell(ln, 0, "%d", dev->index);
			cell(ln, 1, "%d", pr->pid);
			cell(ln, 2, "%s", pr->name);
			cell(ln, 3, "%" PRIu64, pr->allocations);
			cell(ln, 4, "%" PRIu64, mib_up(pr->used_bytes));
		}
	}
	if (!ret)
		ret = scols_print_table(tb);
	scols_unref_table(tb);
	return ret;
}

/* Copies between devices (debugfs, root only); with -i, pairs with ID. */
static int print_peer_copies(FILE *out, const struct npu_sim_state *state,
			     int only_id)
{
	static const char *const names[] = {
		"Src", "Dst", "Copies", "Bytes", NULL,
	};
	static const int right[] = { 0, 0, 1, 1 };
	struct libscols_table *tb;
	int ret = 0;

	if (!state->have_peer_copies || !state->npeer_copies)
		return 0;
	tb = new_table(out, names, right);
	if (!tb)
		return -1;
	for (size_t i = 0; i < state->npeer_copies && !ret; i++) {
		const struct npu_sim_peer_copies *pc = &state->peer_copies[i];
		struct libscols_line *ln;

		if (only_id >= 0 && pc->src != only_id && pc->dst != only_id)
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln) {
			ret = -1;
			break;
		}
		cell(ln, 0, "%d", pc->src);
		cell(ln, 1, "%d", pc->dst);
		cell(ln, 2, "%" PRIu64, pc->copies);
		cell(ln, 3, "%" PRIu64, pc->bytes);
	}
	fputc('\n', out);
	if (!ret)
		ret = scols_print_table(tb);
	scols_unref_table(tb);
	return ret;
}

/* Streams with host callbacks (debugfs, root only): who runs them, how many wait. */
static int print_callbacks(FILE *out, const struct npu_sim_state *state,
			   int only_id)
{
	static const char *const names[] = {
		"NPU", "PID", "Stream", "Report-Thread", "HostFunc-Thread",
		"Queued", "Posted", "Running", NULL,
	};
	static const int right[] = { 0, 1, 1, 0, 0, 1, 1, 1 };
	struct libscols_table *tb;
	int ret = 0;

	if (!state->ncallbacks)
		return 0;
	tb = new_table(out, names, right);
	if (!tb)
		return -1;
	for (size_t i = 0; i < state->ncallbacks && !ret; i++) {
		const struct npu_sim_callback_row *cb = &state->callbacks[i];
		struct libscols_line *ln;

		if (only_id >= 0 && cb->dev != only_id)
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln) {
			ret = -1;
			break;
		}
		cell(ln, 0, "%d", cb->dev);
		cell(ln, 1, "%d", cb->pid);
		cell(ln, 2, "%" PRIu64, cb->stream);
		cell(ln, 3, "%s", strcmp(cb->report, "0") ? cb->report : "-");
		cell(ln, 4, "%s%s", strcmp(cb->hostfunc, "0") ? cb->hostfunc : "-",
		     cb->runtime ? " (runtime)" : "");
		cell(ln, 5, "%" PRIu64, cb->queued);
		cell(ln, 6, "%" PRIu64, cb->posted);
		cell(ln, 7, "%" PRIu64, cb->running);
	}
	fputc('\n', out);
	if (!ret)
		ret = scols_print_table(tb);
	scols_unref_table(tb);
	return ret;
}

/* Notifies (debugfs, root only): one row each, with the streams waiting. */
static int print_notifies(FILE *out, const struct npu_sim_state *state,
			  int only_id)
{
	static const char *const names[] = {
		"NPU", "Notify", "Owner", "Kind", "Value", "Holders", "Export",
		"State", "Waiters", "Streams", NULL,
	};
	static const int right[] = { 0, 1, 1, 0, 1, 1, 1, 0, 1, 0 };
	struct libscols_table *tb;
	size_t shown = 0;
	int ret = 0;

	for (size_t i = 0; i < state->nnotifies; i++)
		shown += only_id < 0 || state->notifies[i].dev == only_id;
	if (!shown)
		return 0;
	tb = new_table(out, names, right);
	if (!tb)
		return -1;
	for (size_t i = 0; i < state->nnotifies && !ret; i++) {
		const struct npu_sim_notify *n = &state->notifies[i];
		struct libscols_line *ln;

		if (only_id >= 0 && n->dev != only_id)
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln) {
			ret = -1;
			break;
		}
		cell(ln, 0, "%d", n->dev);
		cell(ln, 1, "%" PRIu64, n->id);
		cell(ln, 2, "%" PRIu64, n->owner);
		cell(ln, 3, "%s", n->kind);
		cell(ln, 4, "%" PRIu64, n->value);
		cell(ln, 5, "%" PRIu64, n->holders);
		if (n->export_seq)
			cell(ln, 6, "%" PRIu64, n->export_seq);
		else
			cell(ln, 6, "-");
		cell(ln, 7, "%s", n->state);
		cell(ln, 8, "%" PRIu64, n->waiters);
		cell(ln, 9, "%s", n->streams);
	}
	fputc('\n', out);
	if (!ret)
		ret = scols_print_table(tb);
	scols_unref_table(tb);
	return ret;
}

/* Captured graphs (debugfs, root only): one row each. */
static int print_graphs(FILE *out, const struct npu_sim_state *state,
			int only_id)
{
	static const char *const names[] = {
		"NPU", "Graph", "PID", "Tasks", "Bytes", "Replays", NULL,
	};
	static const int right[] = { 0, 1, 1, 1, 1, 1 };
	struct libscols_table *tb;
	size_t shown = 0;
	int ret = 0;

	for (size_t i = 0; i < state->ngraphs; i++)
		shown += only_id < 0 || state->graphs[i].dev == only_id;
	if (!shown)
		return 0;
	tb = new_table(out, names, right);
	if (!tb)
		return -1;
	for (size_t i = 0; i < state->ngraphs && !ret; i++) {
		const struct npu_sim_graph *g = &state->graphs[i];
		struct libscols_line *ln;

		if (only_id >= 0 && g->dev != only_id)
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln) {
			ret = -1;
			break;
		}
		cell(ln, 0, "%d", g->dev);
		cell(ln, 1, "%" PRIu64, g->id);
		cell(ln, 2, "%d", g->pid);
		cell(ln, 3, "%" PRIu64, g->tasks);
		cell(ln, 4, "%" PRIu64, g->bytes);
		cell(ln, 5, "%" PRIu64, g->replays);
	}
	fputc('\n', out);
	if (!ret)
		ret = scols_print_table(tb);
	scols_unref_table(tb);
	return ret;
}

/* Memory pools (debugfs, root only): bytes held and handed out, blocks. */
static int print_mempools(FILE *out, const struct npu_sim_state *state,
			  int only_id)
{
	static const char *const names[] = {
		"NPU", "Pool", "PID", "Max-Size", "Reserved", "Used",
		"Reserved-High", "Used-High", "Threshold", "Blocks-Free",
		"Blocks-Pending", "Blocks-Used", NULL,
	};
	static const int right[] = { 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct libscols_table *tb;
	size_t shown = 0;
	int ret = 0;

	for (size_t i = 0; i < state->nmempools; i++)
		shown += only_id < 0 || state->mempools[i].dev == only_id;
	if (!shown)
		return 0;
	tb = new_table(out, names, right);
	if (!tb)
		return -1;
	for (size_t i = 0; i < state->nmempools && !ret; i++) {
		const struct npu_sim_mempool *p = &state->mempools[i];
		struct libscols_line *ln;

		if (only_id >= 0 && p->dev != only_id)
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln) {
			ret = -1;
			break;
		}
		cell(ln, 0, "%d", p->dev);
		cell(ln, 1, "%" PRIu64, p->id);
		cell(ln, 2, "%d", p->pid);
		if (p->size)
			cell(ln, 3, "%" PRIu64, p->size);
		else
			cell(ln, 3, "-");
		cell(ln, 4, "%" PRIu64, p->reserved);
		cell(ln, 5, "%" PRIu64, p->used);
		cell(ln, 6, "%" PRIu64, p->reserved_high);
		cell(ln, 7, "%" PRIu64, p->used_high);
		cell(ln, 8, "%" PRIu64, p->threshold);
		cell(ln, 9, "%" PRIu64, p->blocks_free);
		cell(ln, 10, "%" PRIu64, p->blocks_pending);
		cell(ln, 11, "%" PRIu64, p->blocks_used);
	}
	fputc('\n', out);
	if (!ret)
		ret = scols_print_table(tb);
	scols_unref_table(tb);
	return ret;
}

int smi_print_table(FILE *out, const struct npu_sim_state *state, int only_id)
{
	bool faults = false;

	for (size_t i = 0; i < state->ndevices; i++)
		faults |= state->devices[i].have_faults;
	fprintf(out, "npu-sim-smi  module %s  api %s  devices %zu  hugetlb 2M free %" PRIu64
		"/%" PRIu64 "  1G free %" PRIu64 "/%" PRIu64 "\n",
		NPU_SIM_MODULE_NAME, state->api[0] ? state->api : "?",
		state->ndevices, state->pool_2m.free_pages,
		state->pool_2m.total_pages, state->pool_1g.free_pages,
		state->pool_1g.total_pages);
	if (print_devices(out, state, only_id, faults) ||
	    print_processes(out, state, only_id) ||
	    print_peer_copies(out, state, only_id) ||
	    print_notifies(out, state, only_id) ||
	    print_graphs(out, state, only_id) ||
	    print_mempools(out, state, only_id) ||
	    print_callbacks(out, state, only_id))
		return -1;
	return 0;
}
