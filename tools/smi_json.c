// SPDX-License-Identifier: GPL-2.0
/*
 * npu-sim-smi --json: the same snapshot as the table, sizes in bytes, for
 * scripts and tests; json-c builds and escapes the document.  Values the
 * module (or a non-root reader) cannot see are null.
 */
#include "smi_output.h"

#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

static json_object *u64_or_null(bool known, uint64_t v)
{
	return known ? json_object_new_uint64(v) : NULL;
}

static json_object *str_or_null(const char *s)
{
	return s[0] ? json_object_new_string(s) : NULL;
}

/* A module parameter: a number when it is one, else a string or null. */
static json_object *param(const char *value)
{
	char *end = NULL;
	unsigned long long v;

	if (!value[0])
		return NULL;
	v = strtoull(value, &end, 10);
	if (*end == '\0')
		return json_object_new_uint64(v);
	return json_object_new_string(value);
}

static json_object *pool(const struct npu_sim_pool *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "total_pages",
			       json_object_new_uint64(p->total_pages));
	json_object_object_add(o, "free_pages",
			       json_object_new_uint64(p->free_pages));
	return o;
}

static json_object *kind(const struct npu_sim_kind_use *use, bool known)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "used_bytes",
			       u64_or_null(known, use->used_bytes));
	json_object_object_add(o, "free_bytes",
			       json_object_new_uint64(use->free_bytes));
	return o;
}

/* "1,3" or "0-2" (the kernel's list format) as [1, 3] / [0, 1, 2]. */
static json_object *peer_list(const char *list)
{
	json_object *a = json_object_new_array();
	const char *s = list;

	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long i = lo; i <= hi && i < NPU_SIM_MAX_DEVICES; i++)
			json_object_array_add(a, json_object_new_int((int)i));
		s = *end == ',' ? end + 1 : end;
	}
	return a;
}

static json_object *processes(const struct npu_sim_device *dev)
{
	json_object *a;

	if (!dev->have_processes)
		return NULL;
	a = json_object_new_array();
	for (size_t i = 0; i < dev->nprocesses; i++) {
		const struct npu_sim_process *p = &dev->processes[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "pid", json_object_new_int(p->pid));
		json_object_object_add(o, "name",
				       json_object_new_string(p->name));
		json_object_object_add(o, "allocations",
				       json_object_new_uint64(p->allocations));
		json_object_object_add(o, "used_bytes",
				       json_object_new_uint64(p->used_bytes));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *device(const struct npu_sim_device *dev)
{
	json_object *o = json_object_new_object(), *pages;
	const bool d = dev->have_detail;
	char path[32];

	snprintf(path, sizeof(path), "/dev/npu_sim%d", dev->index);
	json_object_object_add(o, "id", json_object_new_int(dev->index));
	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "name", json_object_new_string(dev->name));
	json_object_object_add(o, "profile", str_or_null(dev->profile));
	json_object_object_add(o, "soc_name", str_or_null(dev->soc_name));
	json_object_object_add(o, "health", str_or_null(dev->health));
	json_object_object_add(o, "capacity_bytes",
			       json_object_new_uint64(dev->capacity_bytes));
	json_object_object_add(o, "used_bytes",
			       json_object_new_uint64(dev->used_bytes));
	json_object_object_add(o, "free_bytes",
			       json_object_new_uint64(dev_free_bytes(dev)));
	json_object_object_add(o, "proc_mem_limit_bytes",
			       dev->have_limit ?
			       json_object_new_uint64(dev->proc_limit_bytes) :
			       NULL);
	json_object_object_add(o, "host_access",
			       dev->host_access < 0 ? NULL :
			       json_object_new_int(dev->host_access));
	pages = json_object_new_object();
	json_object_object_add(pages, "normal", kind(&dev->normal, d));
	json_object_object_add(pages, "huge_2m", kind(&dev->huge_2m, d));
	json_object_object_add(pages, "huge_1g", kind(&dev->huge_1g, d));
	json_object_object_add(o, "pages", pages);
	json_object_object_add(o, "p2p_used_bytes",
			       u64_or_null(d, dev->p2p_used_bytes));
	json_object_object_add(o, "allocations",
			       u64_or_null(d, dev->allocations));
	json_object_object_add(o, "contexts", u64_or_null(d, dev->contexts));
	json_object_object_add(o, "peers", d ? peer_list(dev->peers) : NULL);
	json_object_object_add(o, "host_access_faults",
			       u64_or_null(dev->have_faults,
					   dev->host_access_faults));
	json_object_object_add(o, "processes", processes(dev));
	return o;
}

static json_object *peer_copies(const struct npu_sim_state *state,
				int only_id)
{
	json_object *a;

	if (!state->have_peer_copies)
		return NULL;
	a = json_object_new_array();
	for (size_t i = 0; i < state->npeer_copies; i++) {
		const struct npu_sim_peer_copies *pc = &state->peer_copies[i];
		json_object *o;

		if (only_id >= 0 && pc->src != only_id && pc->dst != only_id)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "src", json_object_new_int(pc->src));
		json_object_object_add(o, "dst", json_object_new_int(pc->dst));
		json_object_object_add(o, "copies",
				       json_object_new_uint64(pc->copies));
		json_object_object_add(o, "bytes",
				       json_object_new_uint64(pc->bytes));
		json_object_array_add(a, o);
	}
	return a;
}

/* Streams with host callbacks (debugfs npu_simN/callbacks); null without. */
static json_object *callbacks(const struct npu_sim_state *state, int only_id)
{
	json_object *a;

	if (!state->have_callbacks)
		return NULL;
	a = json_object_new_array();
	for (size_t i = 0; i < state->ncallbacks; i++) {
		const struct npu_sim_callback_row *cb = &state->callbacks[i];
		json_object *o;

		if (only_id >= 0 && cb->dev != only_id)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_int(cb->dev));
		json_object_object_add(o, "pid", json_object_new_int(cb->pid));
		json_object_object_add(o, "stream", json_object_new_uint64(cb->stream));
		json_object_object_add(o, "report_thread", json_object_new_string(cb->report));
		json_object_object_add(o, "hostfunc_thread", json_object_new_string(cb->hostfunc));
		json_object_object_add(o, "hostfunc_runtime", json_object_new_boolean(cb->runtime));
		json_object_object_add(o, "queued", json_object_new_uint64(cb->queued));
		json_object_object_add(o, "posted", json_object_new_uint64(cb->posted));
		json_object_object_add(o, "running", json_object_new_uint64(cb->running));
		json_object_array_add(a, o);
	}
	return a;
}

/* "notifies": null without debugfs, else one object per notify. */
static json_object *notifies(const struct npu_sim_state *state, int only_id)
{
	json_object *a;

	if (!state->have_notifies)
		return NULL;
	a = json_object_new_array();
	for (size_t i = 0; i < state->nnotifies; i++) {
		const struct npu_sim_notify *n = &state->notifies[i];
		json_object *o, *w = json_object_new_array();
		char buf[sizeof(n->streams)], *tok, *save = NULL;

		if (only_id >= 0 && n->dev != only_id) {
			json_object_put(w);
			continue;
		}
		snprintf(buf, sizeof(buf), "%s", n->streams);
		for (tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			if (strcmp(tok, "-"))
				json_object_array_add(w, json_object_new_string(tok));
		o = json_object_new_object();
		json_object_object_add(o, "device", json_object_new_int(n->dev));
		json_object_object_add(o, "id", json_object_new_uint64(n->id));
		json_object_object_add(o, "owner_pid",
				       json_object_new_uint64(n->owner));
		json_object_object_add(o, "kind", json_object_new_string(n->kind));
		json_object_object_add(o, "value", json_object_new_uint64(n->value));
		json_object_object_add(o, "holders",
				       json_object_new_uint64(n->holders));
		json_object_object_add(o, "export",
				       n->export_seq ?
				       json_object_new_uint64(n->export_seq) : NULL);
		json_object_object_add(o, "state", json_object_new_string(n->state));
		json_object_object_add(o, "waiters",
				       json_object_new_uint64(n->waiters));
		json_object_object_add(o, "streams", w);
		json_object_array_add(a, o);
	}
	return a;
}

/* "graphs": null without debugfs, else one object per captured graph. */
static json_object *graphs(const struct npu_sim_state *state, int only_id)
{
	json_object *a;

	if (!state->have_graphs)
		return NULL;
	a = json_object_new_array();
	for (size_t i = 0; i < state->ngraphs; i++) {
		const struct npu_sim_graph *g = &state->graphs[i];
		json_object *o;

		if (only_id >= 0 && g->dev != only_id)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "device", json_object_new_int(g->dev));
		json_object_object_add(o, "id", json_object_new_uint64(g->id));
		json_object_object_add(o, "pid", json_object_new_int(g->pid));
		json_object_object_add(o, "tasks", json_object_new_uint64(g->tasks));
		json_object_object_add(o, "bytes", json_object_new_uint64(g->bytes));
		json_object_object_add(o, "replays",
				       json_object_new_uint64(g->replays));
		json_object_array_add(a, o);
	}
	return a;
}

/* "mempools": null without debugfs, else one object per memory pool. */
static json_object *mempools(const struct npu_sim_state *state, int only_id)
{
	json_object *a;

	if (!state->have_mempools)
		return NULL;
	a = json_object_new_array();
	for (size_t i = 0; i < state->nmempools; i++) {
		const struct npu_sim_mempool *p = &state->mempools[i];
		json_object *o;

		if (only_id >= 0 && p->dev != only_id)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "device", json_object_new_int(p->dev));
		json_object_object_add(o, "id", json_object_new_uint64(p->id));
		json_object_object_add(o, "owner_pid", json_object_new_int(p->pid));
		json_object_object_add(o, "max_size",
				       p->size ? json_object_new_uint64(p->size) : NULL);
		json_object_object_add(o, "reserved_bytes",
				       json_object_new_uint64(p->reserved));
		json_object_object_add(o, "used_bytes",
				       json_object_new_uint64(p->used));
		json_object_object_add(o, "reserved_high_bytes",
				       json_object_new_uint64(p->reserved_high));
		json_object_object_add(o, "used_high_bytes",
				       json_object_new_uint64(p->used_high));
		json_object_object_add(o, "release_threshold",
				       json_object_new_uint64(p->threshold));
		json_object_object_add(o, "reuse", json_object_new_string(p->reuse));
		json_object_object_add(o, "blocks_free",
				       json_object_new_uint64(p->blocks_free));
		json_object_object_add(o, "blocks_pending",
				       json_object_new_uint64(p->blocks_pending));
		json_object_object_add(o, "blocks_used",
				       json_object_new_uint64(p->blocks_used));
		json_object_array_add(a, o);
	}
	return a;
}

int smi_print_json(FILE *out, const struct npu_sim_state *state, int only_id,
		   bool pretty)
{
	json_object *doc = json_object_new_object();
	json_object *module = json_object_new_object();
	json_object *params = json_object_new_object();
	json_object *hugetlb = json_object_new_object();
	json_object *devices = json_object_new_array();
	const bool loaded = state->module_loaded;
	const char *text;
	int ret = 0;

	json_object_object_add(module, "name",
			       json_object_new_string(NPU_SIM_MODULE_NAME));
	json_object_object_add(module, "loaded",
			       json_object_new_boolean(loaded));
	json_object_object_add(module, "api", str_or_null(state->api));
	json_object_object_add(module, "debugfs",
			       loaded && state->debugfs != DEBUGFS_OK ?
			       json_object_new_string(npu_sim_debugfs_message(state->debugfs)) :
			       NULL);
	json_object_object_add(params, "num_devices", param(state->num_devices));
	json_object_object_add(params, "hbm_mib", param(state->hbm_mib));
	json_object_object_add(params, "host_access", param(state->host_access));
	json_object_object_add(params, "va_window_gib",
			       param(state->va_window_gib));
	json_object_object_add(module, "parameters", loaded ? params : NULL);
	if (!loaded)
		json_object_put(params);
	json_object_object_add(doc, "module", module);

	json_object_object_add(hugetlb, "2M", pool(&state->pool_2m));
	json_object_object_add(hugetlb, "1G", pool(&state->pool_1g));
	json_object_object_add(doc, "hugetlb", hugetlb);

	for (size_t i = 0; i < state->ndevices; i++)
		if (only_id < 0 || state->devices[i].index == only_id)
			json_object_array_add(devices, device(&state->devices[i]));
	json_object_object_add(doc, "devices", devices);
	json_object_object_add(doc, "peer_copies", peer_copies(state, only_id));
	json_object_object_add(doc, "notifies", notifies(state, only_id));
	json_object_object_add(doc, "graphs", graphs(state, only_id));
	json_object_object_add(doc, "mempools", mempools(state, only_id));
	json_object_object_add(doc, "callbacks", callbacks(state, only_id));

	text = json_object_to_json_string_ext(doc, pretty ?
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE :
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fprintf(out, "%s\n", text) < 0)
		ret = -1;
	json_object_put(doc);
	return ret;
}
