// SPDX-License-Identifier: GPL-2.0
/*
 * npu-sim-smi --query=FIELD,... --format=csv[,noheader][,nounits]: one CSV
 * line per device, in the manner of `nvidia-smi --query-gpu`;
 * --query-processes: one line per process and device, in the manner of
 * `nvidia-smi --query-compute-apps`.  Fields are
 * separated by ", "; a value holding a comma or a quote is quoted (RFC 4180).
 */
#include "smi_output.h"

#include <inttypes.h>
#include <string.h>

enum field_kind { F_STR, F_MIB_UP, F_MIB_DOWN, F_BYTES, F_COUNT };

struct field {
	const char *name;
	enum field_kind kind;
	bool detail;		/* needs the API 1.6 sysfs state */
	const char *help;
};

static const struct field fields[] = {
	{ "index", F_COUNT, false, "device index N of /dev/npu_simN" },
	{ "name", F_STR, false, "product name (profile), else npu_sim" },
	{ "profile", F_STR, false, "product profile, empty if the module has none" },
	{ "soc_name", F_STR, false, "SoC name of the profile, empty if none" },
	{ "health", F_STR, false, "OK, or Warning while allocations must fail" },
	{ "mode", F_STR, false, "strict or host-access" },
	{ "api_version", F_STR, false, "UAPI major.minor of the module" },
	{ "memory.total", F_MIB_DOWN, false, "capacity, MiB" },
	{ "memory.used", F_MIB_UP, false, "used by all processes, MiB (rounded up)" },
	{ "memory.free", F_MIB_DOWN, false, "capacity left, MiB (rounded down)" },
	{ "memory.used.normal", F_MIB_UP, true, "used on 4 KiB pages, MiB" },
	{ "memory.used.huge_2m", F_MIB_UP, true, "used on 2 MiB pages, MiB" },
	{ "memory.used.huge_1g", F_MIB_UP, true, "used on 1 GiB pages, MiB" },
	{ "memory.used.p2p", F_MIB_UP, true, "used by P2P allocations, MiB" },
	{ "memory.limit.process.bytes", F_BYTES, false,
	  "per-process limit set by the administrator, bytes (0 none)" },
	{ "memory.total.bytes", F_BYTES, false, "capacity, bytes" },
	{ "memory.used.bytes", F_BYTES, false, "used, bytes" },
	{ "memory.free.bytes", F_BYTES, false, "capacity left, bytes" },
	{ "allocations", F_COUNT, true, "live allocations of all processes" },
	{ "processes", F_COUNT, false, "processes with the device open" },
	{ "peers", F_STR, true, "devices a process of this one may access, e.g. 1,3" },
};

#define NFIELDS	(sizeof(fields) / sizeof(fields[0]))

static const struct field proc_fields[] = {
	{ "index", F_COUNT, false, "device index" },
	{ "pid", F_COUNT, false, "process id (as this pid namespace sees it)" },
	{ "name", F_STR, false, "process name (/proc/PID/comm)" },
	{ "used_memory", F_MIB_UP, false, "device memory of the process, MiB (rounded up)" },
	{ "used_memory.bytes", F_BYTES, false, "device memory of the process, bytes" },
	{ "allocations", F_COUNT, false, "live allocations of the process" },
};

#define NPROC_FIELDS	(sizeof(proc_fields) / sizeof(proc_fields[0]))

static const struct field *field_list(const struct smi_query *q, size_t *n)
{
	*n = q->processes ? NPROC_FIELDS : NFIELDS;
	return q->processes ? proc_fields : fields;
}

void smi_query_help(FILE *out)
{
	fprintf(out, "Fields for --query (comma-separated), one line per device:\n");
	for (size_t i = 0; i < NFIELDS; i++)
		fprintf(out, "  %-22s %s\n", fields[i].name, fields[i].help);
	fprintf(out, "\nFields for --query-processes, one line per process and device:\n");
	for (size_t i = 0; i < NPROC_FIELDS; i++)
		fprintf(out, "  %-22s %s\n", proc_fields[i].name,
			proc_fields[i].help);
}

static int find_field(const struct smi_query *q, const char *name, size_t len)
{
	size_t n;
	const struct field *list = field_list(q, &n);

	for (size_t i = 0; i < n; i++)
		if (strlen(list[i].name) == len &&
		    !strncmp(list[i].name, name, len))
			return (int)i;
	return -1;
}

bool smi_query_parse(struct smi_query *q, bool processes, const char *list,
		     const char *format, char *err, size_t errlen)
{
	const char *s = list;

	memset(q, 0, sizeof(*q));
	q->processes = processes;
	q->header = true;
	q->units = true;
	while (*s) {
		size_t len = strcspn(s, ",");
		int f = find_field(q, s, len);

		if (f < 0) {
			snprintf(err, errlen,
				 "unknown field '%.*s' in --query (see --help-query)",
				 (int)len, s);
			return false;
		}
		if (q->nfields == SMI_MAX_FIELDS) {
			snprintf(err, errlen, "more than %d fields in --query",
				 SMI_MAX_FIELDS);
			return false;
		}
		q->fields[q->nfields++] = f;
		s += len;
		if (*s == ',')
			s++;
	}
	if (!q->nfields) {
		snprintf(err, errlen, "--query needs at least one field");
		return false;
	}
	/* csv first, then options in any order */
	s = format ? format : "csv";
	if (strncmp(s, "csv", 3) || (s[3] && s[3] != ',')) {
		snprintf(err, errlen, "--format must be csv[,noheader][,nounits]");
		return false;
	}
	s += 3;
	while (*s == ',') {
		size_t len = strcspn(++s, ",");

		if (len == 8 && !strncmp(s, "noheader", 8)) {
			q->header = false;
		} else if (len == 7 && !strncmp(s, "nounits", 7)) {
			q->units = false;
		} else {
			snprintf(err, errlen, "unknown --format option '%.*s'",
				 (int)len, s);
			return false;
		}
		s += len;
	}
	return true;
}

static const char *unit_of(enum field_kind kind)
{
	switch (kind) {
	case F_MIB_UP:
	case F_MIB_DOWN:
		return "MiB";
	case F_BYTES:
		return "B";
	default:
		return NULL;
	}
}

void smi_query_print_header(FILE *out, const struct smi_query *q)
{
	size_t n;
	const struct field *list = field_list(q, &n);

	for (size_t i = 0; i < q->nfields; i++) {
		const struct field *f = &list[q->fields[i]];
		const char *unit = unit_of(f->kind);

		fprintf(out, "%s%s", i ? ", " : "", f->name);
		if (unit && q->units)
			fprintf(out, " [%s]", unit);
	}
	fputc('\n', out);
}

static void csv_string(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* One value: a string, or a number (bytes for the memory kinds). */
struct qvalue {
	bool known;
	const char *str;	/* NULL: a number */
	uint64_t num;
};

static struct qvalue str_value(const char *s)
{
	return (struct qvalue){ .known = s != NULL, .str = s };
}

static struct qvalue num_value(uint64_t n)
{
	return (struct qvalue){ .known = true, .num = n };
}

/* Field @name of @dev. */
static struct qvalue dev_value(const char *name,
			       const struct npu_sim_state *state,
			       const struct npu_sim_device *dev)
{
	if (!strcmp(name, "index"))
		return num_value((uint64_t)dev->index);
	if (!strcmp(name, "name"))
		return str_value(dev->name);
	if (!strcmp(name, "profile"))
		return str_value(dev->profile);
	if (!strcmp(name, "soc_name"))
		return str_value(dev->soc_name);
	if (!strcmp(name, "health"))
		return str_value(dev->health[0] ? dev->health : NULL);
	if (!strcmp(name, "mode"))
		return str_value(dev->host_access == 1 ? "host-access" :
				 dev->host_access == 0 ? "strict" : NULL);
	if (!strcmp(name, "api_version"))
		return str_value(state->api[0] ? state->api : NULL);
	if (!strcmp(name, "peers"))
		return str_value(dev->peers);
	if (!strcmp(name, "memory.limit.process.bytes"))
		return dev->have_limit ? num_value(dev->proc_limit_bytes) :
					 str_value(NULL);
	if (!strncmp(name, "memory.total", 12))
		return num_value(dev->capacity_bytes);
	if (!strcmp(name, "memory.used") || !strcmp(name, "memory.used.bytes"))
		return num_value(dev->used_bytes);
	if (!strncmp(name, "memory.free", 11))
		return num_value(dev_free_bytes(dev));
	if (!strcmp(name, "memory.used.normal"))
		return num_value(dev->normal.used_bytes);
	if (!strcmp(name, "memory.used.huge_2m"))
		return num_value(dev->huge_2m.used_bytes);
	if (!strcmp(name, "memory.used.huge_1g"))
		return num_value(dev->huge_1g.used_bytes);
	if (!strcmp(name, "memory.used.p2p"))
		return num_value(dev->p2p_used_bytes);
	if (!strcmp(name, "allocations"))
		return num_value(dev->allocations);
	/* "processes" */
	if (!dev->have_processes)
		return str_value(NULL);
	return num_value(dev->nprocesses);
}

/* Field @name of process @p of @dev. */
static struct qvalue proc_value(const char *name,
				const struct npu_sim_device *dev,
				const struct npu_sim_process *p)
{
	if (!strcmp(name, "index"))
		return num_value((uint64_t)dev->index);
	if (!strcmp(name, "pid"))
		return num_value((uint64_t)p->pid);
	if (!strcmp(name, "name"))
		return str_value(p->name);
	if (!strncmp(name, "used_memory", 11))
		return num_value(p->used_bytes);
	return num_value(p->allocations);
}

/* @v as field @f wants it, with its unit (when asked for), or "[N/A]". */
static void print_value(FILE *out, const struct smi_query *q,
			const struct field *f, struct qvalue v)
{
	if (!v.known) {
		fputs("[N/A]", out);
		return;
	}
	if (v.str)
		csv_string(out, v.str);
	else if (f->kind == F_MIB_UP)
		fprintf(out, "%" PRIu64, mib_up(v.num));
	else if (f->kind == F_MIB_DOWN)
		fprintf(out, "%" PRIu64, mib_down(v.num));
	else
		fprintf(out, "%" PRIu64, v.num);
	if (unit_of(f->kind) && q->units)
		fprintf(out, " %s", unit_of(f->kind));
}

static void print_processes(FILE *out, const struct npu_sim_state *state,
			    int only_id, const struct smi_query *q)
{
	for (size_t d = 0; d < state->ndevices; d++) {
		const struct npu_sim_device *dev = &state->devices[d];

		if (only_id >= 0 && dev->index != only_id)
			continue;
		for (size_t p = 0; p < dev->nprocesses; p++) {
			for (size_t i = 0; i < q->nfields; i++) {
				const struct field *f = &proc_fields[q->fields[i]];

				if (i)
					fputs(", ", out);
				print_value(out, q, f, proc_value(f->name, dev,
								  &dev->processes[p]));
			}
			fputc('\n', out);
		}
	}
}

void smi_query_print(FILE *out, const struct npu_sim_state *state,
		     int only_id, const struct smi_query *q)
{
	if (q->processes) {
		print_processes(out, state, only_id, q);
		return;
	}
	for (size_t d = 0; d < state->ndevices; d++) {
		const struct npu_sim_device *dev = &state->devices[d];

		if (only_id >= 0 && dev->index != only_id)
			continue;
		for (size_t i = 0; i < q->nfields; i++) {
			const struct field *f = &fields[q->fields[i]];
			struct qvalue v = str_value(NULL);

			if (!f->detail || dev->have_detail)
				v = dev_value(f->name, state, dev);
			if (i)
				fputs(", ", out);
			print_value(out, q, f, v);
		}
		fputc('\n', out);
	}
}
