// SPDX-License-Identifier: GPL-2.0
/*
 * npu-sim-load: load, unload and show npu_sim.ko with libkmod.
 *
 *   npu-sim-load load [num_devices=N] [hbm_mib=M] [host_access=0|1]
 *                     [va_window_gib=G] [--profile ID] [--module PATH]
 *   npu-sim-load unload
 *   npu-sim-load status
 *
 * Without --module the module is looked up like modprobe does (installed
 * with DKMS or `make modules_install`), then in the build tree this tool
 * was built in (build/tools/npu-sim-load -> kernel/npu_sim.ko).
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <libkmod.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <misc/npu_sim_profiles.h>

#include "npu_sim_state.h"

#define PROG "npu-sim-load"

/* Parameters the module takes (docs/driver-interface.md). */
static const char *const known_params[] = {
	"num_devices", "hbm_mib", "host_access", "va_window_gib",
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: " PROG " load [num_devices=N] [hbm_mib=M] [host_access=0|1]\n"
		"                    [va_window_gib=G] [--profile ID] [--module PATH]\n"
		"       " PROG " unload\n"
		"       " PROG " status\n"
		"\n"
		"load    insert npu_sim.ko with the given parameters; --profile ID\n"
		"        (or profile=ID) picks the product emulated: ascend950,\n"
		"        atlas-a3, atlas-a2 (default), atlas-200i-500-a2,\n"
		"        atlas-inference, atlas-training\n"
		"unload  remove it; refused while a process has a device open\n"
		"status  show whether it is loaded, its parameters and devices\n"
		"\n"
		"Exit status: 0 ok, 1 failed (or not loaded, for status), 2 usage.\n");
}

/* "name=value" with a known name and a decimal value. */
static bool valid_param(const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *end;

	if (!eq || eq[1] == '\0')
		return false;
	for (size_t i = 0; i < sizeof(known_params) / sizeof(known_params[0]);
	     i++) {
		size_t n = strlen(known_params[i]);

		if ((size_t)(eq - arg) == n && !strncmp(arg, known_params[i], n)) {
			strtoull(eq + 1, &end, 10);
			return eq[1] != '-' && *end == '\0';
		}
	}
	return false;
}

/* An id of the shared profile table; else say which ids there are. */
static bool valid_profile(const char *id)
{
	for (int i = 1; i < NPU_SIM_PROFILE_NR; i++)
		if (!strcmp(id, npu_sim_profiles[i].id))
			return true;
	fprintf(stderr, PROG ": unknown profile '%s'; valid profiles:", id);
	for (int i = 1; i < NPU_SIM_PROFILE_NR; i++)
		fprintf(stderr, " %s", npu_sim_profiles[i].id);
	fprintf(stderr, "\n");
	return false;
}

/* The build tree's module: this binary is build/tools/, the module kernel/. */
static bool build_tree_module(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	snprintf(buf, len, "%s/../../kernel/" NPU_SIM_MODULE_NAME ".ko",
		 dirname(exe));
	return access(buf, R_OK) == 0;
}

/* Find the module to insert: --module, installed, or build tree. */
static struct kmod_module *find_module(struct kmod_ctx *ctx, const char *path)
{
	struct kmod_module *mod = NULL;
	struct kmod_list *list = NULL;
	char local[PATH_MAX];

	if (path) {
		if (kmod_module_new_from_path(ctx, path, &mod) < 0)
			fprintf(stderr, PROG ": cannot use module file %s\n",
				path);
		return mod;
	}
	if (kmod_module_new_from_lookup(ctx, NPU_SIM_MODULE_NAME, &list) >= 0 &&
	    list) {
		struct kmod_module *found = kmod_module_get_module(list);

		/* a lookup also "finds" a name with no file: check the path */
		if (found && kmod_module_get_path(found))
			mod = found;
		else if (found)
			kmod_module_unref(found);
		kmod_module_unref_list(list);
		if (mod)
			return mod;
	}
	if (build_tree_module(local, sizeof(local)) &&
	    kmod_module_new_from_path(ctx, local, &mod) >= 0)
		return mod;
	fprintf(stderr,
		PROG ": npu_sim.ko not found: not installed for this kernel and not in a build tree; use --module PATH\n");
	return NULL;
}

/* Tell which processes hold the devices (from sysfs "processes"). */
static void report_users(void)
{
	struct npu_sim_state *state = calloc(1, sizeof(*state));
	bool any = false;

	if (!state)
		return;
	npu_sim_state_read(state, "");
	for (size_t i = 0; i < state->ndevices; i++) {
		const struct npu_sim_device *dev = &state->devices[i];

		if (!dev->have_processes) {
			fprintf(stderr, "  (cannot list the processes of /dev/npu_sim%d: module older than API 1.6)\n",
				dev->index);
			continue;
		}

		for (size_t p = 0; p < dev->nprocesses; p++) {
			fprintf(stderr, "  pid %d (%s) has /dev/npu_sim%d open\n",
				dev->processes[p].pid, dev->processes[p].name,
				dev->index);
			any = true;
		}
	}
	if (!any)
		fprintf(stderr, "  (no open contexts listed; a mapping or a module holding a reference may keep it busy)\n");
	free(state);
}

static int cmd_load(struct kmod_ctx *ctx, int argc, char **argv)
{
	char options[512] = "";
	const char *path = NULL;
	struct kmod_module *mod;
	size_t used = 0;
	int err;

	for (int i = 0; i < argc; i++) {
		const char *profile = NULL;

		if (!strcmp(argv[i], "--module") && i + 1 < argc) {
			path = argv[++i];
		} else if (!strncmp(argv[i], "--module=", 9)) {
			path = argv[i] + 9;
		} else if ((!strcmp(argv[i], "--profile") && i + 1 < argc &&
			    (profile = argv[++i])) ||
			   (!strncmp(argv[i], "--profile=", 10) &&
			    (profile = argv[i] + 10)) ||
			   (!strncmp(argv[i], "profile=", 8) &&
			    (profile = argv[i] + 8))) {
			int n;

			if (!valid_profile(profile))
				return 2;
			n = snprintf(options + used, sizeof(options) - used,
				     "%sprofile=%s", used ? " " : "", profile);
			if (n < 0 || (size_t)n >= sizeof(options) - used) {
				fprintf(stderr, PROG ": too many parameters\n");
				return 2;
			}
			used += n;
		} else if (valid_param(argv[i])) {
			int n = snprintf(options + used, sizeof(options) - used,
					 "%s%s", used ? " " : "", argv[i]);

			if (n < 0 || (size_t)n >= sizeof(options) - used) {
				fprintf(stderr, PROG ": too many parameters\n");
				return 2;
			}
			used += n;
		} else {
			fprintf(stderr,
				PROG ": bad parameter '%s' (known: num_devices=N hbm_mib=M host_access=0|1 va_window_gib=G --profile ID)\n",
				argv[i]);
			return 2;
		}
	}
	if (access("/sys/module/" NPU_SIM_MODULE_NAME, F_OK) == 0) {
		fprintf(stderr,
			PROG ": npu_sim is already loaded; run '" PROG " unload' first\n");
		return 1;
	}
	mod = find_module(ctx, path);
	if (!mod)
		return 1;
	err = kmod_module_insert_module(mod, 0, options);
	if (err < 0) {
		const char *why = strerror(-err);

		if (err == -EPERM)
			why = "not permitted (run as root)";
		else if (err == -EINVAL || err == -ERANGE)
			why = "the module rejected a parameter value (see dmesg)";
		else if (err == -ENOEXEC)
			why = "not a module for this kernel (see dmesg)";
		fprintf(stderr, PROG ": loading %s failed: %s\n",
			kmod_module_get_path(mod) ? kmod_module_get_path(mod) :
			NPU_SIM_MODULE_NAME, why);
		kmod_module_unref(mod);
		return 1;
	}
	printf("loaded %s%s%s\n", kmod_module_get_path(mod),
	       options[0] ? " with " : "", options);
	kmod_module_unref(mod);
	return 0;
}

static int cmd_unload(struct kmod_ctx *ctx)
{
	struct kmod_module *mod;
	int err, refcnt;

	if (kmod_module_new_from_name(ctx, NPU_SIM_MODULE_NAME, &mod) < 0)
		return 1;
	if (kmod_module_get_initstate(mod) < 0) {
		fprintf(stderr, PROG ": npu_sim is not loaded\n");
		kmod_module_unref(mod);
		return 1;
	}
	/* say who holds it rather than relying on the kernel's EAGAIN alone */
	refcnt = kmod_module_get_refcnt(mod);
	err = refcnt > 0 ? -EBUSY :
	      kmod_module_remove_module(mod, KMOD_REMOVE_NOWAIT);
	if (err == -EBUSY || err == -EAGAIN) {
		fprintf(stderr,
			PROG ": cannot unload npu_sim: its devices are busy (%d users)\n",
			refcnt > 0 ? refcnt : 1);
		report_users();
	} else if (err < 0) {
		fprintf(stderr, PROG ": unloading npu_sim failed: %s\n",
			err == -EPERM ? "not permitted (run as root)" :
			strerror(-err));
	} else {
		printf("unloaded npu_sim\n");
	}
	kmod_module_unref(mod);
	return err < 0 ? 1 : 0;
}

/* profile= of the loaded module (a module before profiles has none). */
static void print_profile(void)
{
	char id[64] = "";
	FILE *f = fopen("/sys/module/" NPU_SIM_MODULE_NAME "/parameters/profile", "r");

	if (!f)
		return;
	if (fgets(id, sizeof(id), f)) {
		id[strcspn(id, "\n")] = '\0';
		for (int i = 1; i < NPU_SIM_PROFILE_NR; i++)
			if (!strcmp(id, npu_sim_profiles[i].id))
				printf("profile: %s (%s, SoC %s)\n", id,
				       npu_sim_profiles[i].product,
				       npu_sim_profiles[i].soc_name);
	}
	fclose(f);
}

static int cmd_status(void)
{
	struct npu_sim_state *state = calloc(1, sizeof(*state));

	if (!state)
		return 1;
	npu_sim_state_read(state, "");
	if (!state->module_loaded) {
		printf("npu_sim: not loaded\n");
		free(state);
		return 1;
	}
	printf("npu_sim: loaded, %d users\n", state->refcnt);
	printf("parameters: num_devices=%s hbm_mib=%s host_access=%s va_window_gib=%s\n",
	       state->num_devices, state->hbm_mib, state->host_access,
	       state->va_window_gib);
	print_profile();
	for (size_t i = 0; i < state->ndevices; i++) {
		const struct npu_sim_device *dev = &state->devices[i];

		printf("/dev/npu_sim%d: capacity %" PRIu64 " bytes, used %" PRIu64 " bytes, %s\n",
		       dev->index, dev->capacity_bytes, dev->used_bytes,
		       dev->host_access == 1 ? "host access" : "strict");
	}
	free(state);
	return 0;
}

int main(int argc, char **argv)
{
	struct kmod_ctx *ctx;
	const char *cmd;
	int rc;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "status"))
		return cmd_status();
	if (strcmp(cmd, "load") && strcmp(cmd, "unload")) {
		fprintf(stderr, PROG ": unknown command '%s'\n", cmd);
		usage(stderr);
		return 2;
	}
	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		fprintf(stderr, PROG ": cannot initialise libkmod\n");
		return 1;
	}
	if (!strcmp(cmd, "load"))
		rc = cmd_load(ctx, argc - 2, argv + 2);
	else if (argc > 2) {
		usage(stderr);
		rc = 2;
	} else
		rc = cmd_unload(ctx);
	kmod_unref(ctx);
	return rc;
}
