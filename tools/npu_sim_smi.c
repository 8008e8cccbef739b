// SPDX-License-Identifier: GPL-2.0
/*
 * npu-sim-smi: status of the emulated NPUs, in the conventions of
 * `npu-smi info` and `nvidia-smi`.
 *
 *   npu-sim-smi [info] [-i ID] [--json | --query=F,... [--format=csv,...]]
 *               [-l SECONDS]
 *
 * Reads sysfs (/sys/class/npu_sim, /sys/module/npu_sim), which any user
 * may read (docs/driver-interface.md); debugfs adds the root-only counters
 * when it is readable.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npu_sim_state.h"
#include "smi_output.h"

#define PROG	"npu-sim-smi"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: " PROG " [info] [-i|--id ID] [--json | --query[-processes]=FIELD,...\n"
		"                   [--format=csv[,noheader][,nounits]]]\n"
		"                   [-l|--loop SECONDS]\n"
		"\n"
		"Show the npu_sim devices: name, health, memory in MiB (used / total and\n"
		"by page kind), P2P use, allocations, peers, and the processes using\n"
		"each device.  Works without root (sysfs); as root it adds host-access\n"
		"faults and the copies between devices (debugfs).\n"
		"\n"
		"  -i, --id ID          only device ID\n"
		"  -j, --json           machine-readable output (sizes in bytes)\n"
		"  --query=FIELD,...    one CSV line per device with these fields\n"
		"  --query-processes=FIELD,...  one CSV line per process and device\n"
		"  --format=csv[,noheader][,nounits]   CSV options for --query\n"
		"  --help-query         list the fields\n"
		"  -l, --loop SECONDS   print again every SECONDS until interrupted\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 ok, 1 module not loaded or no such device, 2 usage.\n"
		"Environment: NPU_SIM_SMI_ROOT=DIR reads sysfs/debugfs/proc under DIR\n"
		"(for tests).\n");
}

static int parse_uint(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *s == '\0' || *end || v < 0 || v > max)
		return -1;
	return (int)v;
}

static bool has_device(const struct npu_sim_state *state, int id)
{
	for (size_t i = 0; i < state->ndevices; i++)
		if (state->devices[i].index == id)
			return true;
	return false;
}

enum mode { TABLE, JSON, QUERY };

/* One snapshot in the chosen format; the exit status of the tool. */
static int show(struct npu_sim_state *state, const char *root, enum mode mode,
		int only_id, const struct smi_query *q, bool loop)
{
	int ret;

	npu_sim_state_read(state, root);
	if (!state->module_loaded) {
		fprintf(stderr, PROG ": the npu_sim module is not loaded (load it with 'npu-sim-load load')\n");
		if (mode == JSON)
			smi_print_json(stdout, state, -1, !loop);
		return 1;
	}
	if (only_id >= 0 && !has_device(state, only_id)) {
		fprintf(stderr, PROG ": no device %d (the module has %zu: 0-%zu)\n",
			only_id, state->ndevices,
			state->ndevices ? state->ndevices - 1 : 0);
		return 1;
	}
	switch (mode) {
	case JSON:
		ret = smi_print_json(stdout, state, only_id, !loop);
		break;
	case QUERY:
		smi_query_print(stdout, state, only_id, q);
		ret = 0;
		break;
	default:
		ret = smi_print_table(stdout, state, only_id);
		break;
	}
	if (ret) {
		fprintf(stderr, PROG ": cannot print: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	enum { OPT_QUERY = 256, OPT_QUERY_PROCS, OPT_FORMAT, OPT_HELP_QUERY };
	static const struct option longopts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "query", required_argument, NULL, OPT_QUERY },
		{ "query-processes", required_argument, NULL, OPT_QUERY_PROCS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help-query", no_argument, NULL, OPT_HELP_QUERY },
		{ "loop", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = getenv("NPU_SIM_SMI_ROOT");
	const char *query = NULL, *format = NULL;
	struct npu_sim_state *state;
	struct smi_query q;
	enum mode mode = TABLE;
	int only_id = -1, loop = 0, opt, rc;
	bool query_procs = false;
	char err[128];

	while ((opt = getopt_long(argc, argv, "i:jl:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			only_id = parse_uint(optarg, NPU_SIM_MAX_DEVICES - 1);
			if (only_id < 0) {
				fprintf(stderr, PROG ": bad device id '%s' (0..%d)\n",
					optarg, NPU_SIM_MAX_DEVICES - 1);
				return 2;
			}
			break;
		case 'j':
			mode = JSON;
			break;
		case OPT_QUERY:
		case OPT_QUERY_PROCS:
			if (query) {
				fprintf(stderr, PROG ": one --query or --query-processes at a time\n");
				return 2;
			}
			query = optarg;
			query_procs = opt == OPT_QUERY_PROCS;
			break;
		case OPT_FORMAT:
			format = optarg;
			break;
		case OPT_HELP_QUERY:
			smi_query_help(stdout);
			return 0;
		case 'l':
			loop = parse_uint(optarg, 86400);
			if (loop < 1) {
				fprintf(stderr, PROG ": bad loop interval '%s' (1..86400 seconds)\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	/* "info" is the only command, as in `npu-smi info` */
	if (optind < argc && !strcmp(argv[optind], "info"))
		optind++;
	if (optind < argc) {
		fprintf(stderr, PROG ": unknown argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (format && !query) {
		fprintf(stderr, PROG ": --format goes with --query\n");
		return 2;
	}
	if (query && mode == JSON) {
		fprintf(stderr, PROG ": --query and --json exclude each other\n");
		return 2;
	}
	if (query) {
		if (!smi_query_parse(&q, query_procs, query, format, err, sizeof(err))) {
			fprintf(stderr, PROG ": %s\n", err);
			return 2;
		}
		mode = QUERY;
	}

	state = calloc(1, sizeof(*state));
	if (!state) {
		perror(PROG);
		return 1;
	}
	if (mode == QUERY && q.header)
		smi_query_print_header(stdout, &q);
	for (;;) {
		rc = show(state, root ? root : "", mode, only_id, &q, loop > 0);
		if (!loop || rc)
			break;
		if (mode == TABLE)
			fputc('\n', stdout);
		fflush(stdout);
		nanosleep(&(struct timespec){ .tv_sec = loop }, NULL);
	}
	free(state);
	return rc;
}
