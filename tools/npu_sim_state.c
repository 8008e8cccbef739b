// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the state of npu_sim.ko (docs/driver-interface.md) into a
 * struct npu_sim_state: sysfs for everything any user may see, debugfs
 * (when readable) for the root-only counters.  Missing files leave fields at their "unknown"
 * values; nothing here fails hard, the callers decide what to report.
 */
#include "npu_sim_state.h"
#include "text_records.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SYSFS_CLASS	"/sys/class/npu_sim"
#define SYSFS_MODULE	"/sys/module/" NPU_SIM_MODULE_NAME
#define DEBUGFS_MOUNT	"/sys/kernel/debug"
#define DEBUGFS_DIR	DEBUGFS_MOUNT "/npu_sim"
#define HUGEPAGES_DIR	"/sys/kernel/mm/hugepages"

static void path_of(char *buf, size_t len, const char *root, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));

static void path_of(char *buf, size_t len, const char *root, const char *fmt,
		    ...)
{
	va_list ap;
	int n = snprintf(buf, len, "%s", root);

	if (n < 0 || (size_t)n >= len)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static char *read_rooted(const char *root, const char *path)
{
	char full[PATH_MAX];

	path_of(full, sizeof(full), root, "%s", path);
	return read_text_file(full);
}

/* First word of a small file into @buf ("" if unreadable). */
static void read_word(const char *root, const char *path, char *buf,
		      size_t len)
{
	char *text = read_rooted(root, path);

	buf[0] = '\0';
	if (text) {
		size_t n = strcspn(text, " \n");

		if (n >= len)
			n = len - 1;
		memcpy(buf, text, n);
		buf[n] = '\0';
		free(text);
	}
}

static void read_pool(const char *root, const char *dir,
		      struct npu_sim_pool *pool)
{
	char path[PATH_MAX];

	path_of(path, sizeof(path), root, HUGEPAGES_DIR "/%s/nr_hugepages",
		dir);
	if (!read_u64_file(path, &pool->total_pages))
		pool->total_pages = 0;
	path_of(path, sizeof(path), root, HUGEPAGES_DIR "/%s/free_hugepages",
		dir);
	if (!read_u64_file(path, &pool->free_pages))
		pool->free_pages = 0;
}

/* Is debugfs mounted at /sys/kernel/debug (per /proc/mounts)? */
static bool debugfs_mounted(const char *root)
{
	char *mounts = read_rooted(root, "/proc/mounts");
	bool found = false;

	for (char *line = mounts; line && *line;) {
		char dev[256], dir[256], type[64];

		if (sscanf(line, "%255s %255s %63s", dev, dir, type) == 3 &&
		    !strcmp(dir, DEBUGFS_MOUNT) && !strcmp(type, "debugfs"))
			found = true;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	free(mounts);
	return found;
}

static enum npu_sim_debugfs_status debugfs_status(const char *root)
{
	char path[PATH_MAX];

	if (!debugfs_mounted(root))
		return DEBUGFS_NOT_MOUNTED;
	path_of(path, sizeof(path), root, DEBUGFS_DIR);
	if (access(path, R_OK | X_OK) == 0)
		return DEBUGFS_OK;
	if (errno == EACCES || errno == EPERM)
		return DEBUGFS_NO_PERMISSION;
	/* debugfs itself is mode 0700: unreadable mount point means not root */
	path_of(path, sizeof(path), root, DEBUGFS_MOUNT);
	if (access(path, R_OK | X_OK) != 0)
		return DEBUGFS_NO_PERMISSION;
	return DEBUGFS_NO_MODULE_DIR;
}

const char *npu_sim_debugfs_message(enum npu_sim_debugfs_status status)
{
	switch (status) {
	case DEBUGFS_OK:
		return "";
	case DEBUGFS_NOT_MOUNTED:
		return "debugfs is not mounted at " DEBUGFS_MOUNT
		       " (mount -t debugfs none " DEBUGFS_MOUNT ")";
	case DEBUGFS_NO_PERMISSION:
		return "cannot read " DEBUGFS_DIR " (run as root)";
	case DEBUGFS_NO_MODULE_DIR:
		return DEBUGFS_DIR " is missing (module built without debugfs?)";
	}
	return "?";
}

static int by_index(const void *a, const void *b)
{
	const struct npu_sim_device *x = a, *y = b;

	return x->index - y->index;
}

static void find_devices(struct npu_sim_state *state, const char *root)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	path_of(path, sizeof(path), root, SYSFS_CLASS);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)) && state->ndevices < NPU_SIM_MAX_DEVICES) {
		int index;
		char tail;

		if (sscanf(de->d_name, NPU_SIM_MODULE_NAME "%d%c", &index,
			   &tail) != 1 || index < 0)
			continue;
		state->devices[state->ndevices].index = index;
		state->ndevices++;
	}
	closedir(dir);
	qsort(state->devices, state->ndevices, sizeof(state->devices[0]),
	      by_index);
}

/* First line of sysfs attribute @attr of @dev into @buf ("" if absent). */
static void read_dev_line(const struct npu_sim_device *dev, const char *root,
			  const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	char *text;
	size_t n;

	buf[0] = '\0';
	path_of(path, sizeof(path), root, SYSFS_CLASS "/npu_sim%d/%s",
		dev->index, attr);
	text = read_text_file(path);
	if (!text)
		return;
	n = strcspn(text, "\n");
	if (n >= len)
		n = len - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	free(text);
}

static bool read_dev_u64(const struct npu_sim_device *dev, const char *root,
			 const char *attr, uint64_t *value)
{
	char path[PATH_MAX];

	path_of(path, sizeof(path), root, SYSFS_CLASS "/npu_sim%d/%s",
		dev->index, attr);
	return read_u64_file(path, value);
}

static void read_processes(struct npu_sim_device *dev, const char *root);

static void read_sysfs_device(struct npu_sim_device *dev, const char *root)
{
	uint64_t v;

	read_dev_u64(dev, root, "capacity_bytes", &dev->capacity_bytes);
	read_dev_u64(dev, root, "used_bytes", &dev->used_bytes);
	dev->host_access = read_dev_u64(dev, root, "host_access", &v) ? (int)v : -1;
	/* API 1.6 state: all of it or none (an older module) */
	dev->have_detail =
		read_dev_u64(dev, root, "used_normal_bytes", &dev->normal.used_bytes) &&
		read_dev_u64(dev, root, "used_huge_2m_bytes", &dev->huge_2m.used_bytes) &&
		read_dev_u64(dev, root, "used_huge_1g_bytes", &dev->huge_1g.used_bytes) &&
		read_dev_u64(dev, root, "used_p2p_bytes", &dev->p2p_used_bytes) &&
		read_dev_u64(dev, root, "allocations", &dev->allocations) &&
		read_dev_u64(dev, root, "contexts", &dev->contexts);
	read_dev_line(dev, root, "health", dev->health, sizeof(dev->health));
	read_dev_line(dev, root, "peers", dev->peers, sizeof(dev->peers));
	dev->have_limit = read_dev_u64(dev, root, "proc_mem_limit_bytes",
				       &dev->proc_limit_bytes);
	read_dev_line(dev, root, "profile", dev->profile, sizeof(dev->profile));
	read_dev_line(dev, root, "soc_name", dev->soc_name,
		      sizeof(dev->soc_name));
	read_dev_line(dev, root, "product_name", dev->name, sizeof(dev->name));
	if (!dev->name[0])
		snprintf(dev->name, sizeof(dev->name), "%s", NPU_SIM_MODULE_NAME);
	read_processes(dev, root);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * What could still be allocated of each kind: device capacity left, and for
 * huge kinds also what the host's hugetlb pool can give, in whole pages.
 */
static void compute_free(struct npu_sim_device *dev,
			 const struct npu_sim_state *state)
{
	uint64_t left = dev->capacity_bytes > dev->used_bytes ?
			dev->capacity_bytes - dev->used_bytes : 0;

	dev->normal.free_bytes = left & ~4095ULL;
	dev->huge_2m.free_bytes =
		min_u64(left / SZ_2M, state->pool_2m.free_pages) * SZ_2M;
	dev->huge_1g.free_bytes =
		min_u64(left / SZ_1G, state->pool_1g.free_pages) * SZ_1G;
}

/*
 * Length of the valid UTF-8 sequence at @s (1..4), or 0.  Overlong forms
 * and surrogates count as invalid.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int c = s[0];
	size_t n;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A process name as any output format can show it: bytes that are not
 * UTF-8, and control characters, become '?'.
 */
void npu_sim_clean_name(char *name)
{
	unsigned char *s = (unsigned char *)name;

	while (*s) {
		size_t n = utf8_len(s);

		if (n == 0 || (n == 1 && (*s < 0x20 || *s == 0x7f))) {
			*s++ = '?';
			continue;
		}
		s += n;
	}
}

static void read_process_name(struct npu_sim_process *p, const char *root)
{
	char path[PATH_MAX], *text;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/comm", p->pid);
	text = read_rooted(root, path);
	p->name[0] = '\0';
	if (text) {
		/* a name may hold blanks: only the trailing newline goes */
		n = strcspn(text, "\n");
		if (n >= sizeof(p->name))
			n = sizeof(p->name) - 1;
		memcpy(p->name, text, n);
		p->name[n] = '\0';
		free(text);
	}
	npu_sim_clean_name(p->name);
	if (!p->name[0])
		snprintf(p->name, sizeof(p->name), "?");
}

/* sysfs "processes": "pid used_bytes allocations", one row per process. */
static void read_processes(struct npu_sim_device *dev, const char *root)
{
	char path[PATH_MAX], *text;
	struct text_table t;
	int cpid, cused, calloc_col;

	path_of(path, sizeof(path), root, SYSFS_CLASS "/npu_sim%d/processes",
		dev->index);
	text = read_text_file(path);
	if (!text)
		return;
	if (table_parse(&t, text)) {
		cpid = table_column(&t, "pid");
		cused = table_column(&t, "used_bytes");
		calloc_col = table_column(&t, "allocations");
		dev->have_processes = cpid >= 0 && cused >= 0 && calloc_col >= 0;
		for (size_t r = 0; dev->have_processes && r < t.nrows &&
		     dev->nprocesses < NPU_SIM_MAX_PROCESSES; r++) {
			struct npu_sim_process *p =
				&dev->processes[dev->nprocesses];
			uint64_t pid;

			if (!table_u64(&t, r, cpid, &pid) ||
			    !table_u64(&t, r, cused, &p->used_bytes) ||
			    !table_u64(&t, r, calloc_col, &p->allocations))
				continue;
			p->pid = (int)pid;
			read_process_name(p, root);
			dev->nprocesses++;
		}
	}
	table_free(&t);
	free(text);
}

/* debugfs "peer_copies" ("src dst copies bytes" rows). */
static void read_peer_copies(struct npu_sim_state *state, const char *root)
{
	char *text = read_rooted(root, DEBUGFS_DIR "/peer_copies");
	struct text_table t;
	int cs, cd, cc, cb;

	if (!text)
		return;
	if (table_parse(&t, text)) {
		cs = table_column(&t, "src");
		cd = table_column(&t, "dst");
		cc = table_column(&t, "copies");
		cb = table_column(&t, "bytes");
		state->have_peer_copies = cs >= 0 && cd >= 0 && cc >= 0 && cb >= 0;
		for (size_t r = 0; state->have_peer_copies && r < t.nrows &&
		     state->npeer_copies < NPU_SIM_MAX_PEER_PAIRS; r++) {
			struct npu_sim_peer_copies *pc =
				&state->peer_copies[state->npeer_copies];
			uint64_t src, dst;

			if (!table_u64(&t, r, cs, &src) ||
			    !table_u64(&t, r, cd, &dst) ||
			    !table_u64(&t, r, cc, &pc->copies) ||
			    !table_u64(&t, r, cb, &pc->bytes))
				continue;
			pc->src = (int)src;
			pc->dst = (int)dst;
			state->npeer_copies++;
		}
	}
	table_free(&t);
	free(text);
}

/* Field @col of row @r into buf (a channel in hex); false if missing. */
static bool table_word(const struct text_table *t, size_t r, int col,
		       char *buf, size_t len)
{
	if (col < 0 || !t->rows[r] || !t->rows[r][col])
		return false;
	snprintf(buf, len, "%s", t->rows[r][col]);
	return true;
}

/* debugfs npu_simN/callbacks (API 1.9): one row per stream with callbacks. */
static void read_callbacks(struct npu_sim_state *state, int index,
			   const char *root)
{
	char path[PATH_MAX], *text;
	struct text_table t;
	int cp, cs, cr, ch, crt, cq, cpo, cru;

	snprintf(path, sizeof(path), DEBUGFS_DIR "/npu_sim%d/callbacks", index);
	text = read_rooted(root, path);
	if (!text)
		return;
	if (table_parse(&t, text)) {
		cp = table_column(&t, "pid");
		cs = table_column(&t, "stream");
		cr = table_column(&t, "report_channel");
		ch = table_column(&t, "hostfunc_channel");
		crt = table_column(&t, "runtime");
		cq = table_column(&t, "queued");
		cpo = table_column(&t, "posted");
		cru = table_column(&t, "running");
		state->have_callbacks = true;
		for (size_t r = 0; r < t.nrows &&
		     state->ncallbacks < NPU_SIM_MAX_CALLBACK_ROWS; r++) {
			struct npu_sim_callback_row *cb =
				&state->callbacks[state->ncallbacks];
			uint64_t pid, rt;

			if (!table_u64(&t, r, cp, &pid) ||
			    !table_u64(&t, r, cs, &cb->stream) ||
			    !table_word(&t, r, cr, cb->report, sizeof(cb->report)) ||
			    !table_word(&t, r, ch, cb->hostfunc, sizeof(cb->hostfunc)) ||
			    !table_u64(&t, r, crt, &rt) ||
			    !table_u64(&t, r, cq, &cb->queued) ||
			    !table_u64(&t, r, cpo, &cb->posted) ||
			    !table_u64(&t, r, cru, &cb->running))
				continue;
			cb->dev = index;
			cb->pid = (int)pid;
			cb->runtime = rt != 0;
			state->ncallbacks++;
		}
	}
	table_free(&t);
	free(text);
}

/* A text field of the table: "" when missing. */
static void table_str(const struct text_table *t, size_t r, int c, char *buf,
		      size_t n)
{
	if (!table_word(t, r, c, buf, n) && n)
		buf[0] = '\0';
}

/* debugfs npu_simN/notifies (root only): the notifies of device @dev. */
static void read_notifies(struct npu_sim_state *state, int dev,
			  const char *root)
{
	char path[PATH_MAX], *text, exp[32];
	int ci, co, ck, cv, ch, ce, cs, cw, cst;
	struct text_table t;

	snprintf(path, sizeof(path), DEBUGFS_DIR "/npu_sim%d/notifies", dev);
	text = read_rooted(root, path);
	if (!text)
		return;
	state->have_notifies = true;
	if (table_parse(&t, text)) {
		ci = table_column(&t, "notify");
		co = table_column(&t, "owner_pid");
		ck = table_column(&t, "kind");
		cv = table_column(&t, "value");
		ch = table_column(&t, "holders");
		ce = table_column(&t, "export");
		cs = table_column(&t, "state");
		cw = table_column(&t, "waiters");
		cst = table_column(&t, "streams");
		for (size_t r = 0; r < t.nrows &&
		     state->nnotifies < NPU_SIM_MAX_NOTIFIES; r++) {
			struct npu_sim_notify *n =
				&state->notifies[state->nnotifies];

			if (!table_u64(&t, r, ci, &n->id) ||
			    !table_u64(&t, r, co, &n->owner) ||
			    !table_u64(&t, r, cv, &n->value) ||
			    !table_u64(&t, r, ch, &n->holders) ||
			    !table_u64(&t, r, cw, &n->waiters))
				continue;
			table_str(&t, r, ck, n->kind, sizeof(n->kind));
			table_str(&t, r, cs, n->state, sizeof(n->state));
			table_str(&t, r, cst, n->streams, sizeof(n->streams));
			table_str(&t, r, ce, exp, sizeof(exp));
			n->export_seq = strtoull(exp, NULL, 10);
			n->dev = dev;
			state->nnotifies++;
		}
	}
	table_free(&t);
	free(text);
}

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* debugfs npu_simN/graphs (root only): the captured graphs of device @dev. */
static void read_graphs(struct npu_sim_state *state, int dev, const char *root)
{
	char path[PATH_MAX], *text;
	int ci, cp, ct, cb, cr;
	struct text_table t;

	snprintf(path, sizeof(path), DEBUGFS_DIR "/npu_sim%d/graphs", dev);
	text = read_rooted(root, path);
	if (!text)
		return;
	state->have_graphs = true;
	if (table_parse(&t, text)) {
		ci = table_column(&t, "id");
		cp = table_column(&t, "pid");
		ct = table_column(&t, "tasks");
		cb = table_column(&t, "bytes");
		cr = table_column(&t, "replays");
		for (size_t r = 0; r < t.nrows &&
		     state->ngraphs < NPU_SIM_MAX_GRAPHS; r++) {
			struct npu_sim_graph *g = &state->graphs[state->ngraphs];
			uint64_t pid;

			if (!table_u64(&t, r, ci, &g->id) ||
			    !table_u64(&t, r, cp, &pid) ||
			    !table_u64(&t, r, ct, &g->tasks) ||
			    !table_u64(&t, r, cb, &g->bytes) ||
			    !table_u64(&t, r, cr, &g->replays))
				continue;
			g->pid = (int)pid;
			g->dev = dev;
			state->ngraphs++;
		}
	}
	table_free(&t);
	free(text);
}

/* debugfs npu_simN/mempools (root only): the memory pools of device @dev. */
static void read_mempools(struct npu_sim_state *state, int dev,
			  const char *root)
{
	static const char *const cols[] = {
		"pool", "owner_pid", "size", "reserved", "reserved_high",
		"used", "used_high", "threshold", "blocks_free",
		"blocks_pending", "blocks_used",
	};
	char path[PATH_MAX], *text;
	int c[ARRAY_LEN(cols)], creuse;
	struct text_table t;

	snprintf(path, sizeof(path), DEBUGFS_DIR "/npu_sim%d/mempools", dev);
	text = read_rooted(root, path);
	if (!text)
		return;
	state->have_mempools = true;
	if (table_parse(&t, text)) {
		for (size_t i = 0; i < ARRAY_LEN(cols); i++)
			c[i] = table_column(&t, cols[i]);
		creuse = table_column(&t, "reuse_eoi");
		for (size_t r = 0; r < t.nrows &&
		     state->nmempools < NPU_SIM_MAX_MEMPOOLS; r++) {
			struct npu_sim_mempool *p =
				&state->mempools[state->nmempools];
			uint64_t *dst[ARRAY_LEN(cols)] = {
				&p->id, NULL, &p->size, &p->reserved,
				&p->reserved_high, &p->used, &p->used_high,
				&p->threshold, &p->blocks_free,
				&p->blocks_pending, &p->blocks_used,
			};
			uint64_t pid;
			bool ok = true;

			dst[1] = &pid;
			for (size_t i = 0; i < ARRAY_LEN(cols) && ok; i++)
				ok = table_u64(&t, r, c[i], dst[i]);
			if (!ok)
				continue;
			table_str(&t, r, creuse, p->reuse, sizeof(p->reuse));
			p->pid = (int)pid;
			p->dev = dev;
			state->nmempools++;
		}
	}
	table_free(&t);
	free(text);
}

/* debugfs "stats" (root only): host accesses refused in strict mode. */
static void read_debugfs_device(struct npu_sim_device *dev, const char *root)
{
	char path[PATH_MAX], *stats;

	snprintf(path, sizeof(path), DEBUGFS_DIR "/npu_sim%d/stats", dev->index);
	stats = read_rooted(root, path);
	dev->have_faults = kv_get_u64(stats, "host_access_faults",
				      &dev->host_access_faults);
	free(stats);
}

void npu_sim_state_read(struct npu_sim_state *state, const char *root)
{
	char path[PATH_MAX];
	uint64_t refcnt;

	memset(state, 0, sizeof(*state));
	state->refcnt = -1;
	read_pool(root, "hugepages-2048kB", &state->pool_2m);
	read_pool(root, "hugepages-1048576kB", &state->pool_1g);

	path_of(path, sizeof(path), root, SYSFS_MODULE);
	state->module_loaded = access(path, F_OK) == 0;
	if (!state->module_loaded)
		return;
	path_of(path, sizeof(path), root, SYSFS_MODULE "/refcnt");
	if (read_u64_file(path, &refcnt))
		state->refcnt = (int)refcnt;
	read_word(root, SYSFS_MODULE "/parameters/num_devices",
		  state->num_devices, sizeof(state->num_devices));
	read_word(root, SYSFS_MODULE "/parameters/hbm_mib", state->hbm_mib,
		  sizeof(state->hbm_mib));
	read_word(root, SYSFS_MODULE "/parameters/host_access",
		  state->host_access, sizeof(state->host_access));
	/* a bool parameter reads back as Y/N: show it as it is given, 1/0 */
	if (!strcmp(state->host_access, "Y") || !strcmp(state->host_access, "N"))
		strcpy(state->host_access, state->host_access[0] == 'Y' ? "1" : "0");
	read_word(root, SYSFS_MODULE "/parameters/va_window_gib",
		  state->va_window_gib, sizeof(state->va_window_gib));

	state->debugfs = debugfs_status(root);
	find_devices(state, root);
	for (size_t i = 0; i < state->ndevices; i++) {
		struct npu_sim_device *dev = &state->devices[i];

		read_sysfs_device(dev, root);
		if (state->debugfs == DEBUGFS_OK) {
			read_debugfs_device(dev, root);
			read_callbacks(state, dev->index, root);
			read_notifies(state, dev->index, root);
			read_graphs(state, dev->index, root);
			read_mempools(state, dev->index, root);
		}
		compute_free(dev, state);
	}
	if (state->ndevices) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), SYSFS_CLASS "/npu_sim%d/api_version",
			 state->devices[0].index);
		read_word(root, path, state->api, sizeof(state->api));
	}
	if (state->debugfs == DEBUGFS_OK)
		read_peer_copies(state, root);
}
