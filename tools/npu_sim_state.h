/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A snapshot of what npu_sim.ko shows in sysfs (any user), debugfs (root
 * only: host-access faults, copies between devices, host callbacks,
 * notifies, graphs, memory pools) and
 * /proc, shared by
 * the status tool (npu-sim-smi) and the loader (npu-sim-load).  Every path is
 * taken relative to a root ("" normally) so tests can point the tools at a
 * fabricated tree.
 */
#ifndef NPU_SIM_TOOLS_STATE_H
#define NPU_SIM_TOOLS_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NPU_SIM_MODULE_NAME	"npu_sim"
#define NPU_SIM_MAX_DEVICES	16
#define NPU_SIM_MAX_PROCESSES	256

#define SZ_2M	(2ULL << 20)
#define SZ_1G	(1ULL << 30)

struct npu_sim_process {
	int pid;
	char name[32];		/* /proc/PID/comm, "?" if gone */
	uint64_t allocations;
	uint64_t used_bytes;
};

/* Use and free space of one backing page kind. */
struct npu_sim_kind_use {
	uint64_t used_bytes;
	uint64_t free_bytes;	/* what could still be allocated of this kind */
};

struct npu_sim_device {
	int index;
	uint64_t capacity_bytes;
	uint64_t used_bytes;
	int host_access;		/* 1 host access, 0 strict, -1 unknown */
	/* sysfs attributes of API 1.6; valid when have_detail */
	bool have_detail;
	struct npu_sim_kind_use normal, huge_2m, huge_1g;
	uint64_t p2p_used_bytes;
	uint64_t allocations;
	uint64_t contexts;		/* open files of the device */
	char health[16];		/* "OK", "Warning"; "" unknown */
	char peers[64];			/* devices some process of this one
					 * may access, e.g. "1,3"; "" none */
	/* per-process memory limit (sysfs proc_mem_limit_bytes), 0 none */
	bool have_limit;
	uint64_t proc_limit_bytes;
	/* product profile (sysfs, when the module has profiles) */
	char profile[32];		/* "" unknown */
	char soc_name[64];		/* "" unknown */
	char name[64];			/* product_name, else "npu_sim" */
	/* debugfs, root only: valid when have_faults */
	bool have_faults;
	uint64_t host_access_faults;
	bool have_processes;		/* sysfs "processes" was read */
	size_t nprocesses;
	struct npu_sim_process processes[NPU_SIM_MAX_PROCESSES];
};

/* Why debugfs detail is missing (when it is). */
enum npu_sim_debugfs_status {
	DEBUGFS_OK,
	DEBUGFS_NOT_MOUNTED,
	DEBUGFS_NO_PERMISSION,
	DEBUGFS_NO_MODULE_DIR,
};

struct npu_sim_pool {
	uint64_t total_pages;
	uint64_t free_pages;
};

/* Copies between two devices (debugfs "peer_copies"), one per pair. */
struct npu_sim_peer_copies {
	int src, dst;
	uint64_t copies;
	uint64_t bytes;
};

#define NPU_SIM_MAX_PEER_PAIRS	(NPU_SIM_MAX_DEVICES * NPU_SIM_MAX_DEVICES)

/* Host callbacks of one stream (debugfs npu_simN/callbacks, API 1.9). */
struct npu_sim_callback_row {
	int dev;
	int pid;
	uint64_t stream;
	char report[24];		/* the subscribed channels in hex, */
	char hostfunc[24];		/* "0" none */
	bool runtime;			/* hostfunc is the library's thread */
	uint64_t queued, posted, running;
};

#define NPU_SIM_MAX_CALLBACK_ROWS	256

/* A notify (debugfs npu_simN/notifies, root only), with its device. */
struct npu_sim_notify {
	int dev;
	uint64_t id;
	uint64_t owner;			/* creating tgid */
	char kind[8];			/* "plain" or "count" */
	uint64_t value;
	uint64_t holders;		/* files holding it */
	uint64_t export_seq;		/* export number, 0 not exported */
	char state[8];			/* "live" or "dead" */
	uint64_t waiters;
	char streams[128];		/* "pid:stream,..." waiting, "-" none */
};

#define NPU_SIM_MAX_NOTIFIES	256

/* A captured graph (debugfs npu_simN/graphs, root only), with its device. */
struct npu_sim_graph {
	int dev;
	int pid;			/* owning process */
	uint64_t id;
	uint64_t tasks;			/* tasks captured */
	uint64_t bytes;			/* bytes its copies move per replay */
	uint64_t replays;
};

#define NPU_SIM_MAX_GRAPHS	256

/* A stream-ordered memory pool (debugfs npu_simN/mempools, root only). */
struct npu_sim_mempool {
	int dev;
	int pid;			/* owning process */
	uint64_t id;
	uint64_t size;			/* maxSize, 0 no limit */
	uint64_t reserved, reserved_high;	/* device memory held, bytes */
	uint64_t used, used_high;	/* handed out, bytes */
	uint64_t threshold;		/* release threshold, bytes */
	char reuse[8];			/* reuse flags as shown, e.g. "111" */
	uint64_t blocks_free, blocks_pending, blocks_used;
};

#define NPU_SIM_MAX_MEMPOOLS	256

struct npu_sim_state {
	bool module_loaded;
	int refcnt;			/* /sys/module/npu_sim/refcnt, -1 unknown */
	char api[16];			/* sysfs api_version, "" unknown */
	enum npu_sim_debugfs_status debugfs;
	/* module parameters as the kernel shows them (strings) */
	char num_devices[16], hbm_mib[16], host_access[16], va_window_gib[16];
	struct npu_sim_pool pool_2m, pool_1g;
	size_t ndevices;
	struct npu_sim_device devices[NPU_SIM_MAX_DEVICES];
	bool have_peer_copies;		/* debugfs "peer_copies" was read */
	size_t npeer_copies;
	struct npu_sim_peer_copies peer_copies[NPU_SIM_MAX_PEER_PAIRS];
	bool have_notifies;		/* debugfs "notifies" was read */
	size_t nnotifies;
	struct npu_sim_notify notifies[NPU_SIM_MAX_NOTIFIES];
	bool have_graphs;		/* a debugfs "graphs" was read */
	size_t ngraphs;
	struct npu_sim_graph graphs[NPU_SIM_MAX_GRAPHS];
	bool have_mempools;		/* a debugfs "mempools" was read */
	size_t nmempools;
	struct npu_sim_mempool mempools[NPU_SIM_MAX_MEMPOOLS];
	bool have_callbacks;		/* a debugfs "callbacks" was read */
	size_t ncallbacks;
	struct npu_sim_callback_row callbacks[NPU_SIM_MAX_CALLBACK_ROWS];
};

/* Fill @state from the files under @root ("" for the real system). */
void npu_sim_state_read(struct npu_sim_state *state, const char *root);

/* Replace bytes that are not UTF-8 and control characters with '?'. */
void npu_sim_clean_name(char *name);

/* One-line explanation of a debugfs status other than DEBUGFS_OK. */
const char *npu_sim_debugfs_message(enum npu_sim_debugfs_status status);

#endif
