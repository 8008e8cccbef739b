// SPDX-License-Identifier: GPL-2.0
/*
 * npu-sim-smi: status of the emulated NPUs, in the spirit of `npu-smi info`.
 *
 *   npu-sim-smi [info] [-i ID] [--json]
 *
 * Reads /sys/class/npu_sim, /sys/module/npu_sim and /sys/kernel/debug/npu_sim
 * (docs/driver-interface.md); needs root for the debugfs part.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npu_sim_state.h"
#include "smi_output.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: npu-sim-smi [info] [-i|--id ID] [--json]\n"
		"\n"
		"Show the npu_sim devices: capacity, use and free space by page kind,\n"
		"P2P use, allocations, peer access, host-access faults, and the\n"
		"processes using each device.\n"
		"\n"
		"  -i, --id ID   only device ID\n"
		"  -j, --json    machine-readable output (sizes in bytes)\n"
		"  --root DIR    read sysfs/debugfs/proc under DIR (for tests)\n"
		"  -h, --help    this text\n"
		"\n"
		"Exit status: 0 ok, 1 module not loaded or no such device, 2 usage.\n");
}

static int parse_id(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *s == '\0' || *end || v < 0 || v >= NPU_SIM_MAX_DEVICES)
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct npu_sim_state *state;
	const char *root = "";
	bool json = false;
	int only_id = -1, opt, rc = 0;

	while ((opt = getopt_long(argc, argv, "i:jh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			only_id = parse_id(optarg);
			if (only_id < 0) {
				fprintf(stderr, "npu-sim-smi: bad device id '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'j':
			json = true;
			break;
		case 'r':
			root = optarg;
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
		fprintf(stderr, "npu-sim-smi: unknown argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}

	state = calloc(1, sizeof(*state));
	if (!state) {
		perror("npu-sim-smi");
		return 1;
	}
	npu_sim_state_read(state, root);
	if (!state->module_loaded) {
		fprintf(stderr,
			"npu-sim-smi: the npu_sim module is not loaded (load it with 'npu-sim-load load')\n");
		if (json)
			smi_print_json(stdout, state, only_id);
		free(state);
		return 1;
	}
	if (only_id >= 0 && !has_device(state, only_id)) {
		fprintf(stderr, "npu-sim-smi: no device %d (module has %zu)\n",
			only_id, state->ndevices);
		rc = 1;
	}
	if (state->debugfs != DEBUGFS_OK)
		fprintf(stderr,
			"npu-sim-smi: %s; page kinds, allocations, faults and processes are not shown\n",
			npu_sim_debugfs_message(state->debugfs));
	if (json)
		smi_print_json(stdout, state, only_id);
	else
		smi_print_table(stdout, state, only_id);
	free(state);
	return rc;
}
