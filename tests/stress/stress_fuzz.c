// SPDX-License-Identifier: GPL-2.0
/*
 * Seeded, reproducible ioctl fuzzer over every command of
 * include/uapi/misc/npu_sim.h, from two processes at once (the second one
 * with seed + 1), each with both devices open and mapped.
 *
 * Each call picks a command (or an unknown number, or a known one encoded
 * with a wrong size or direction) and fills its argument either at random,
 * slot by slot (zeros, small numbers, powers of two, values the driver
 * returned earlier: addresses, handles, keys, stream and event ids; the
 * other process's keys; random words) or, for the commands that create
 * something, validly, so that the random calls find live objects to hit.
 * Now and then it passes a foreign fd (/dev/null, the other device), lets a
 * forked child call with the inherited fds, closes and reopens a device with
 * objects alive, and imports the other process's keys after whitelisting.
 * Host pointers it passes point only into its own scratch buffer or at
 * nothing mapped, so copies cannot corrupt the fuzzer itself.  Every call
 * runs under a 2 s interval timer: a wait that a signal cannot end shows up
 * as a hang (the runner's timeout), not as a pass.
 *
 * The fuzzing processes run as uid 65534 with ulimit -l 256 MiB, on devices
 * of 256 MiB (the module is reloaded with hbm_mib=256 and back).
 *
 * Sizes: NPU_SIM_FUZZ_SECONDS (default 20) or, with NPU_SIM_STRESS=1,
 * NPU_SIM_FUZZ_CALLS (default 1000000) in all, half per process.  NPU_SIM_FUZZ_SEED
 * reproduces a run.  Checks: no call crashed the process; every success of
 * a call with a cheap model is checked against it (addresses inside the
 * window, ids and keys not 0, the device's capacity and used bytes, the
 * window's start and size); every few hundred calls a private allocation
 * takes a pattern and a memset and gives back exactly those bytes; every
 * command succeeded at least once (both processes together: successes per
 * command are printed); then the after-checks of stress.h.
 */
#include "stress.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <grp.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <misc/npu_sim.h>

static const unsigned long cmds[] = {
	NPU_SIM_IOCTL_GET_PARAM, NPU_SIM_IOCTL_MEM_ALLOC, NPU_SIM_IOCTL_MEM_FREE,
	NPU_SIM_IOCTL_MEMCPY, NPU_SIM_IOCTL_MEMCPY2D, NPU_SIM_IOCTL_MEMSET,
	NPU_SIM_IOCTL_MEM_INFO, NPU_SIM_IOCTL_MEM_PEAKS, NPU_SIM_IOCTL_HOST_REGISTER,
	NPU_SIM_IOCTL_HOST_UNREGISTER,
	NPU_SIM_IOCTL_VMM_RESERVE, NPU_SIM_IOCTL_VMM_RELEASE, NPU_SIM_IOCTL_PHYS_ALLOC,
	NPU_SIM_IOCTL_PHYS_FREE, NPU_SIM_IOCTL_VMM_MAP, NPU_SIM_IOCTL_VMM_UNMAP,
	NPU_SIM_IOCTL_VMM_SET_ACCESS, NPU_SIM_IOCTL_VMM_QUERY, NPU_SIM_IOCTL_PHYS_INFO,
	NPU_SIM_IOCTL_SHARE_EXPORT, NPU_SIM_IOCTL_SHARE_SET_PIDS, NPU_SIM_IOCTL_SHARE_IMPORT,
	NPU_SIM_IOCTL_IPC_EXPORT, NPU_SIM_IOCTL_IPC_IMPORT, NPU_SIM_IOCTL_IPC_CLOSE,
	NPU_SIM_IOCTL_STREAM_CREATE, NPU_SIM_IOCTL_STREAM_DESTROY, NPU_SIM_IOCTL_STREAM_SUBMIT,
	NPU_SIM_IOCTL_STREAM_SYNC, NPU_SIM_IOCTL_EVENT_CREATE, NPU_SIM_IOCTL_EVENT_DESTROY,
	NPU_SIM_IOCTL_EVENT_SYNC, NPU_SIM_IOCTL_MANAGED_ALLOC, NPU_SIM_IOCTL_MANAGED_ADVISE,
	NPU_SIM_IOCTL_MANAGED_TOUCH, NPU_SIM_IOCTL_MANAGED_QUERY, NPU_SIM_IOCTL_PEER_ACCESS,
	NPU_SIM_IOCTL_CHECK_SITE, NPU_SIM_IOCTL_MEM_LIMIT, NPU_SIM_IOCTL_FAULT_INJECT,
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

#define POOL 512
#define SCRATCH (4 * MiB)
#define SCRATCH_GUARD (1024 * MiB)	/* > the largest device the fuzzer loads */
#define NDEV 2
#define MAX_ARG 256

/*
 * Keys each process published for the other, and each process's successes
 * per command for the parent (shared anonymous memory).
 */
struct shared_keys {
	volatile uint64_t key[2][64];
	volatile pid_t pid[2];
	volatile unsigned long cmd_ok[2][NCMDS];
};

#define CAPACITY (256 * MiB)	/* hbm_mib=256 */
#define VERIFY_EVERY 500	/* calls between two byte-exact round trips */
#define VERIFY_LEN 8192

/*
 * Objects the driver handed out, by kind, for the valid-looking calls:
 * device addresses, managed ranges, reservations, reservations with a
 * 2 MiB mapping at their start, physical handles, streams, events, IPC
 * keys and share keys of this process.
 */
enum { T_VA, T_MANAGED, T_RESV, T_MAPPED, T_HANDLE, T_STREAM, T_EVENT, T_KEY, T_SKEY, T_NR };
#define TPOOL 64

struct fuzzer {
	int me;				/* 0 or 1 */
	uint64_t typed[T_NR][TPOOL];
	struct st_rng r;
	int fd[NDEV];
	uint64_t win[NDEV], win_len[NDEV];
	uint64_t pool[POOL];
	unsigned int npool, next;
	unsigned char *scratch;
	struct shared_keys *sk;
	unsigned long calls, ok, forks, reopens, foreign, unknown;
	unsigned long per_cmd_ok[NCMDS];
	unsigned long bad, verified, verify_skipped;	/* model checks */
	int32_t other_pid;		/* SHARE_SET_PIDS' list */
	unsigned char pattern[VERIFY_LEN], back[VERIFY_LEN];
};

/* A success that does not match the model: counted, the first ones shown. */
static void bad(struct fuzzer *f, const char *what, unsigned long long v)
{
	if (f->bad++ < 10)
		printf("fuzz[%d]: call %lu: %s (0x%llx)\n", f->me, f->calls, what, v);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void pool_add(struct fuzzer *f, uint64_t v)
{
	if (v == 0)
		return;
	if (f->npool < POOL) {
		f->pool[f->npool++] = v;
	} else {
		f->pool[f->next] = v;
		f->next = (f->next + 1) % POOL;
	}
}

static void typed_add(struct fuzzer *f, int t, uint64_t v)
{
	if (v)
		f->typed[t][st_below(&f->r, TPOOL)] = v;
}

/* A live-looking object of kind @t (or 0 when none was seen yet). */
static uint64_t typed(struct fuzzer *f, int t)
{
	for (int i = 0; i < 4; i++) {
		uint64_t v = f->typed[t][st_below(&f->r, TPOOL)];

		if (v)
			return v;
	}
	return 0;
}

static uint64_t pool_pick(struct fuzzer *f)
{
	return f->npool ? f->pool[st_below(&f->r, f->npool)] : 0;
}

/* A host address that is safe to hand to the driver. */
static uint64_t host_addr(struct fuzzer *f)
{
	switch (st_below(&f->r, 4)) {
	case 0:
		return (uintptr_t)f->scratch;
	case 1:
		return (uintptr_t)f->scratch + st_below(&f->r, SCRATCH);
	case 2:
		return (uintptr_t)f->scratch + (st_below(&f->r, SCRATCH / 4096) << 12);
	default:
		return st_below(&f->r, 65536);	/* nothing mapped there */
	}
}

static uint64_t value(struct fuzzer *f)
{
	uint64_t k = st_below(&f->r, 100);

	if (k < 35)
		return 0;
	if (k < 62) {
		uint64_t v = pool_pick(f);

		return st_below(&f->r, 8) ? v : v + st_below(&f->r, 8192) - 4096;
	}
	if (k < 75)
		return st_below(&f->r, 9);
	if (k < 85)
		return (1ULL << st_below(&f->r, 42)) - st_below(&f->r, 2);
	if (k < 92)
		return host_addr(f);
	if (k < 96)
		return f->sk->key[!f->me][st_below(&f->r, 64)];
	return st_rand(&f->r);
}

/*
 * Random argument of @len bytes, 8-byte slot by slot (or two 4-byte
 * halves).  Random 64-bit words may name the fuzzer's own memory only with
 * negligible probability; everything it chooses on purpose is safe.
 */
static void fill_random(struct fuzzer *f, unsigned char *arg, size_t len)
{
	size_t off;

	memset(arg, 0, len);
	for (off = 0; off + 8 <= len; off += 8) {
		uint64_t v;

		if (st_below(&f->r, 2)) {
			v = value(f);
		} else {
			uint32_t lo = (uint32_t)value(f), hi = (uint32_t)value(f);

			v = lo | (uint64_t)hi << 32;
		}
		memcpy(arg + off, &v, 8);
	}
	for (; off < len; off++)
		arg[off] = (unsigned char)value(f);
}

/* A valid-looking argument for the commands that create things; 0 if none. */
static int fill_valid(struct fuzzer *f, unsigned long cmd, void *arg)
{
	uint64_t sizes[] = { 1, 4096, 65536, 2 * MiB, 4 * MiB + 123 };
	uint64_t sz = sizes[st_below(&f->r, 5)];

	switch (cmd) {
	case NPU_SIM_IOCTL_MEM_ALLOC: {
		struct npu_sim_mem_alloc *a = arg;

		a->size = sz;
		a->footprint = sz;
		a->backing = 1 + st_below(&f->r, 2);
		a->api = NPU_SIM_API_MALLOC;
		a->flags = st_below(&f->r, 8) ? 0 : NPU_SIM_ALLOC_READONLY;
		return 1;
	}
	case NPU_SIM_IOCTL_MANAGED_ALLOC: {
		struct npu_sim_managed_alloc *a = arg;

		a->size = sz;
		return 1;
	}
	case NPU_SIM_IOCTL_PHYS_ALLOC: {
		struct npu_sim_phys_alloc *a = arg;

		a->size = 2 * MiB;
		a->page_kind = NPU_SIM_PAGE_NORMAL;
		a->location = st_below(&f->r, 3) ? NPU_SIM_LOC_DEVICE : NPU_SIM_LOC_HOST;
		a->location_id = 0;
		return 1;
	}
	case NPU_SIM_IOCTL_VMM_RESERVE: {
		struct npu_sim_vmm_reserve *a = arg;

		a->size = 2 * MiB * (1 + st_below(&f->r, 4));
		return 1;
	}
	case NPU_SIM_IOCTL_STREAM_CREATE:
	case NPU_SIM_IOCTL_EVENT_CREATE:
		return 1;	/* all zero is valid */
	case NPU_SIM_IOCTL_MEMCPY: {
		struct npu_sim_memcpy *a = arg;

		a->dir = 1 + st_below(&f->r, 3);
		a->count = 1 + st_below(&f->r, 65536);
		a->dst = a->dir == NPU_SIM_COPY_D2H ? (uintptr_t)f->scratch : typed(f, T_VA);
		a->src = a->dir == NPU_SIM_COPY_H2D ? (uintptr_t)f->scratch : typed(f, T_VA);
		a->src_fd = -1;
		return 1;
	}
	case NPU_SIM_IOCTL_MEMSET: {
		struct npu_sim_memset *a = arg;

		a->dst = typed(f, T_VA);
		a->count = 1 + st_below(&f->r, 65536);
		a->value = (uint32_t)st_below(&f->r, 256);
		return 1;
	}
	case NPU_SIM_IOCTL_MEM_FREE:
	case NPU_SIM_IOCTL_HOST_UNREGISTER:
		*(uint64_t *)arg = typed(f, T_VA);
		return 1;
	case NPU_SIM_IOCTL_VMM_RELEASE:
		*(uint64_t *)arg = typed(f, T_RESV);
		return 1;
	case NPU_SIM_IOCTL_VMM_UNMAP:
		*(uint64_t *)arg = typed(f, st_below(&f->r, 2) ? T_MAPPED : T_RESV);
		return 1;
	case NPU_SIM_IOCTL_PHYS_FREE:
	case NPU_SIM_IOCTL_PHYS_INFO:
	case NPU_SIM_IOCTL_SHARE_EXPORT:
		*(uint32_t *)arg = (uint32_t)typed(f, T_HANDLE);
		return 1;
	case NPU_SIM_IOCTL_VMM_MAP: {
		struct npu_sim_vmm_map *a = arg;

		a->va = typed(f, T_RESV);
		a->size = 2 * MiB;
		a->handle = (uint32_t)typed(f, T_HANDLE);
		return 1;
	}
	case NPU_SIM_IOCTL_VMM_SET_ACCESS: {
		struct npu_sim_vmm_set_access *a = arg;

		a->va = typed(f, st_below(&f->r, 4) ? T_MAPPED : T_RESV);
		a->size = 2 * MiB;
		a->access = st_below(&f->r, 4) ? NPU_SIM_ACCESS_READWRITE : (uint32_t)st_below(&f->r, 4);
		a->location = NPU_SIM_LOC_DEVICE;
		return 1;
	}
	case NPU_SIM_IOCTL_MEMCPY2D: {
		struct npu_sim_memcpy2d *a = arg;

		a->dir = 1 + st_below(&f->r, 3);
		a->width = 1 + st_below(&f->r, 512);
		a->height = 1 + st_below(&f->r, 4);
		a->dpitch = a->width + st_below(&f->r, 2) * 64;
		a->spitch = a->width + st_below(&f->r, 2) * 64;
		a->dst = a->dir == NPU_SIM_COPY_D2H ? (uintptr_t)f->scratch : typed(f, T_VA);
		a->src = a->dir == NPU_SIM_COPY_H2D ? (uintptr_t)f->scratch : typed(f, T_VA);
		a->src_fd = -1;
		return 1;
	}
	case NPU_SIM_IOCTL_SHARE_SET_PIDS: {
		struct npu_sim_share_set_pids *a = arg;

		f->other_pid = f->sk->pid[!f->me];
		a->key = typed(f, T_SKEY);
		a->pids = (uintptr_t)&f->other_pid;
		a->nr = 1;
		return 1;
	}
	case NPU_SIM_IOCTL_MANAGED_TOUCH: {
		struct npu_sim_managed_touch *a = arg;

		a->va = typed(f, T_MANAGED);
		a->size = 1 + st_below(&f->r, 4096);
		a->flags = (uint32_t)st_below(&f->r, 2);
		return 1;
	}
	case NPU_SIM_IOCTL_CHECK_SITE: {
		struct npu_sim_check_site *a = arg;
		static const int kinds[] = { T_VA, T_MANAGED, T_RESV };

		a->va = typed(f, kinds[st_below(&f->r, 3)]);
		a->site = st_rand(&f->r);
		a->op = 1 + (uint32_t)st_below(&f->r, 2);
		return 1;
	}
	case NPU_SIM_IOCTL_MEM_LIMIT: {
		struct npu_sim_mem_limit *a = arg;

		/* a SET never below the capacity: later allocations are not hit */
		a->op = 1 + (uint32_t)st_below(&f->r, 2);
		if (a->op == NPU_SIM_LIMIT_SET)
			a->limit = CAPACITY + st_below(&f->r, 1024) * MiB;
		return 1;
	}
	case NPU_SIM_IOCTL_FAULT_INJECT: {
		struct npu_sim_fault_inject *a = arg;

		/* off half the time, else up to 10 % of the chosen operations */
		a->seed = st_rand(&f->r);
		a->rate = st_below(&f->r, 2) ? 0 : (uint32_t)st_below(&f->r, 100000);
		a->ops = a->rate ? ((1 + (uint32_t)st_below(&f->r, 31)) << 1) & NPU_SIM_FAULT_OPS_MASK : 0;
		return 1;
	}
	case NPU_SIM_IOCTL_GET_PARAM: {
		struct npu_sim_get_param *a = arg;

		a->param = st_below(&f->r, 2) ? NPU_SIM_PARAM_VA_WINDOW_START : NPU_SIM_PARAM_VA_WINDOW_SIZE;
		return 1;
	}
	case NPU_SIM_IOCTL_MEM_INFO:
	case NPU_SIM_IOCTL_MEM_PEAKS:
		return 1;	/* all zero is valid */
	case NPU_SIM_IOCTL_VMM_QUERY:
		*(uint64_t *)arg = typed(f, st_below(&f->r, 2) ? T_RESV : T_VA);
		return 1;
	case NPU_SIM_IOCTL_SHARE_IMPORT:
	case NPU_SIM_IOCTL_IPC_IMPORT:
		*(uint64_t *)arg = f->sk->key[!f->me][st_below(&f->r, 64)];
		return 1;
	case NPU_SIM_IOCTL_IPC_CLOSE:
		*(uint64_t *)arg = st_below(&f->r, 2) ? typed(f, T_KEY) : f->sk->key[!f->me][st_below(&f->r, 64)];
		return 1;
	case NPU_SIM_IOCTL_IPC_EXPORT: {
		struct npu_sim_ipc_export *a = arg;

		a->va = typed(f, T_VA);
		a->size = 1 + st_below(&f->r, 8192);
		a->flags = (uint32_t)st_below(&f->r, 2);
		return 1;
	}
	case NPU_SIM_IOCTL_HOST_REGISTER: {
		struct npu_sim_host_register *a = arg;

		a->addr = (uintptr_t)f->scratch + (st_below(&f->r, SCRATCH / 4096 - 16) << 12);
		a->size = 1 + st_below(&f->r, 65536);
		a->flags = (uint32_t)st_below(&f->r, 2);
		return 1;
	}
	case NPU_SIM_IOCTL_STREAM_DESTROY:
	case NPU_SIM_IOCTL_STREAM_SYNC:
		((uint32_t *)arg)[0] = (uint32_t)typed(f, T_STREAM);
		((uint32_t *)arg)[1] = (uint32_t)st_below(&f->r, 2);
		return 1;
	case NPU_SIM_IOCTL_EVENT_DESTROY:
	case NPU_SIM_IOCTL_EVENT_SYNC:
		((uint32_t *)arg)[0] = (uint32_t)typed(f, T_EVENT);
		return 1;
	case NPU_SIM_IOCTL_STREAM_SUBMIT: {
		struct npu_sim_stream_submit *a = arg;

		a->stream = (uint32_t)typed(f, T_STREAM);
		a->op = 1 + (uint32_t)st_below(&f->r, 7);
		switch (a->op) {
		case NPU_SIM_OP_COPY:
		case NPU_SIM_OP_SET:
			a->dst = typed(f, T_VA);
			a->width = 1 + st_below(&f->r, 8192);
			a->height = 1 + st_below(&f->r, 4);
			a->dpitch = a->width;
			if (a->op == NPU_SIM_OP_COPY) {
				a->src = typed(f, T_VA);
				a->spitch = a->width;
				a->dir = NPU_SIM_COPY_D2D;
			}
			break;
		case NPU_SIM_OP_RECORD:
		case NPU_SIM_OP_WAIT:
			a->event = (uint32_t)typed(f, T_EVENT);
			break;
		case NPU_SIM_OP_PREFETCH:
			a->dst = typed(f, T_MANAGED);
			a->width = 2 * MiB;
			a->location = (uint32_t)st_below(&f->r, 2);
			break;
		default:
			a->dst = typed(f, T_VA);
			a->operand = st_below(&f->r, 4);
			a->flags = (uint32_t)st_below(&f->r, 4);
			break;
		}
		return 1;
	}
	case NPU_SIM_IOCTL_MANAGED_ADVISE: {
		struct npu_sim_managed_advise *a = arg;

		a->va = typed(f, T_MANAGED);
		a->size = 2 * MiB;
		a->advise = 1 + (uint32_t)st_below(&f->r, 6);
		a->loc = (uint32_t)st_below(&f->r, 2);
		return 1;
	}
	case NPU_SIM_IOCTL_MANAGED_QUERY: {
		struct npu_sim_managed_query *a = arg;

		a->va = typed(f, T_MANAGED);
		a->size = 2 * MiB;
		return 1;
	}
	case NPU_SIM_IOCTL_PEER_ACCESS: {
		struct npu_sim_peer_access *a = arg;

		a->peer = (uint32_t)st_below(&f->r, 2);
		a->op = (uint32_t)st_below(&f->r, 4);
		return 1;
	}
	default:
		return 0;
	}
}

/* Objects a successful valid call made, by kind. */
static void harvest_typed(struct fuzzer *f, unsigned long cmd, const void *arg)
{
	switch (cmd) {
	case NPU_SIM_IOCTL_MEM_ALLOC:
		typed_add(f, T_VA, ((const struct npu_sim_mem_alloc *)arg)->va);
		break;
	case NPU_SIM_IOCTL_MANAGED_ALLOC:
		typed_add(f, T_MANAGED, ((const struct npu_sim_managed_alloc *)arg)->va);
		typed_add(f, T_VA, ((const struct npu_sim_managed_alloc *)arg)->va);
		break;
	case NPU_SIM_IOCTL_IPC_IMPORT:
		typed_add(f, T_VA, ((const struct npu_sim_ipc_import *)arg)->va);
		break;
	case NPU_SIM_IOCTL_HOST_REGISTER:
		typed_add(f, T_VA, ((const struct npu_sim_host_register *)arg)->va);
		break;
	case NPU_SIM_IOCTL_VMM_RESERVE:
		typed_add(f, T_RESV, ((const struct npu_sim_vmm_reserve *)arg)->va);
		break;
	case NPU_SIM_IOCTL_PHYS_ALLOC:
		typed_add(f, T_HANDLE, ((const struct npu_sim_phys_alloc *)arg)->handle);
		break;
	case NPU_SIM_IOCTL_SHARE_IMPORT:
		typed_add(f, T_HANDLE, ((const struct npu_sim_share_import *)arg)->handle);
		break;
	case NPU_SIM_IOCTL_STREAM_CREATE:
		typed_add(f, T_STREAM, ((const struct npu_sim_stream_create *)arg)->id);
		break;
	case NPU_SIM_IOCTL_EVENT_CREATE:
		typed_add(f, T_EVENT, ((const struct npu_sim_event_create *)arg)->id);
		break;
	case NPU_SIM_IOCTL_IPC_EXPORT:
		typed_add(f, T_KEY, ((const struct npu_sim_ipc_export *)arg)->key);
		break;
	case NPU_SIM_IOCTL_SHARE_EXPORT:
		typed_add(f, T_SKEY, ((const struct npu_sim_share_export *)arg)->key);
		break;
	case NPU_SIM_IOCTL_VMM_MAP:
		if (((const struct npu_sim_vmm_map *)arg)->size == 2 * MiB)
			typed_add(f, T_MAPPED, ((const struct npu_sim_vmm_map *)arg)->va);
		break;
	default:
		break;
	}
}

/* Harvest what a successful call wrote back. */
static void harvest(struct fuzzer *f, const unsigned char *arg, size_t len)
{
	for (size_t off = 0; off + 8 <= len; off += 8) {
		uint64_t v;

		memcpy(&v, arg + off, 8);
		pool_add(f, v);
		if (v >> 32)
			pool_add(f, (uint32_t)v);
	}
}

/* Keys this process exported, for the other one to import. */
static void publish_key(struct fuzzer *f, unsigned long cmd, const unsigned char *arg)
{
	uint64_t key = 0;

	if (cmd == NPU_SIM_IOCTL_SHARE_EXPORT)
		key = ((const struct npu_sim_share_export *)arg)->key;
	else if (cmd == NPU_SIM_IOCTL_IPC_EXPORT)
		key = ((const struct npu_sim_ipc_export *)arg)->key;
	if (key)
		f->sk->key[f->me][st_below(&f->r, 64)] = key;
	/* whitelist the other process now and then */
	if (key && st_below(&f->r, 2)) {
		int32_t pid = f->sk->pid[!f->me];
		struct npu_sim_share_set_pids sp = { .key = key, .nr = 1, .pids = (uintptr_t)&pid };

		if (pid > 0)
			(void)ioctl(f->fd[0], NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp);
	}
}

static void reopen(struct fuzzer *f, int d)
{
	if (f->fd[d] >= 0) {
		munmap((void *)(uintptr_t)f->win[d], f->win_len[d]);
		close(f->fd[d]);
	}
	f->fd[d] = st_open_mapped(d, &f->win[d], &f->win_len[d]);
	if (f->fd[d] >= 0) {
		pool_add(f, f->win[d]);
		pool_add(f, (uint64_t)f->fd[d]);
	}
}

/* Whether [va, va + len) lies in device @d's window. */
static int in_window(struct fuzzer *f, int d, uint64_t va, uint64_t len)
{
	return va >= f->win[d] && len <= f->win_len[d] && va - f->win[d] <= f->win_len[d] - len;
}

/* A success of @cmd on device @d checked against what the driver promises. */
static void check_success(struct fuzzer *f, unsigned long cmd, int d, const void *arg)
{
	switch (cmd) {
	case NPU_SIM_IOCTL_MEM_ALLOC: {
		const struct npu_sim_mem_alloc *a = arg;

		if (!in_window(f, d, a->va, a->size ? a->size : 1) || a->va % 64)
			bad(f, "MEM_ALLOC: address outside the window or not 64-byte aligned", a->va);
		break;
	}
	case NPU_SIM_IOCTL_MANAGED_ALLOC:
		if (((const struct npu_sim_managed_alloc *)arg)->va % 4096 ||
		    ((const struct npu_sim_managed_alloc *)arg)->va == 0)
			bad(f, "MANAGED_ALLOC: address 0 or not page aligned",
			    ((const struct npu_sim_managed_alloc *)arg)->va);
		break;
	case NPU_SIM_IOCTL_VMM_RESERVE: {
		const struct npu_sim_vmm_reserve *a = arg;

		if (a->va == 0 || a->va % (2 * MiB))
			bad(f, "VMM_RESERVE: address 0 or not 2 MiB aligned", a->va);
		break;
	}
	case NPU_SIM_IOCTL_MEM_INFO: {
		const struct npu_sim_mem_info *a = arg;

		if (a->capacity != CAPACITY || a->used > a->capacity)
			bad(f, "MEM_INFO: capacity not 256 MiB or used above it", a->used);
		break;
	}
	case NPU_SIM_IOCTL_GET_PARAM: {
		const struct npu_sim_get_param *a = arg;

		if ((a->param == NPU_SIM_PARAM_VA_WINDOW_START && a->value != f->win[d]) ||
		    (a->param == NPU_SIM_PARAM_VA_WINDOW_SIZE && a->value != f->win_len[d]))
			bad(f, "GET_PARAM: window start/size not the mapped window's", a->value);
		break;
	}
	case NPU_SIM_IOCTL_PHYS_ALLOC:
		if (((const struct npu_sim_phys_alloc *)arg)->handle == 0)
			bad(f, "PHYS_ALLOC: handle 0", 0);
		break;
	case NPU_SIM_IOCTL_STREAM_CREATE:
		if (((const struct npu_sim_stream_create *)arg)->id == 0)
			bad(f, "STREAM_CREATE: id 0", 0);
		break;
	case NPU_SIM_IOCTL_EVENT_CREATE:
		if (((const struct npu_sim_event_create *)arg)->id == 0)
			bad(f, "EVENT_CREATE: id 0", 0);
		break;
	case NPU_SIM_IOCTL_IPC_EXPORT:
		if (((const struct npu_sim_ipc_export *)arg)->key == 0)
			bad(f, "IPC_EXPORT: key 0", 0);
		break;
	case NPU_SIM_IOCTL_SHARE_EXPORT:
		if (((const struct npu_sim_share_export *)arg)->key == 0)
			bad(f, "SHARE_EXPORT: key 0", 0);
		break;
	case NPU_SIM_IOCTL_MEM_PEAKS: {
		const struct npu_sim_mem_peaks *a = arg;

		if (a->used > CAPACITY || a->reserved[0] || a->reserved[1])
			bad(f, "MEM_PEAKS: peak above the capacity or reserved not zero", a->used);
		break;
	}
	case NPU_SIM_IOCTL_MEM_LIMIT: {
		const struct npu_sim_mem_limit *a = arg;

		/*
		 * No bound on used: an import counts for the importer without
		 * taking device capacity, so a process that imports the other's
		 * memory may pass the capacity (test_limits).
		 */
		if (a->effective && a->own_limit && a->effective > a->own_limit)
			bad(f, "MEM_LIMIT: effective above the own limit", a->effective);
		break;
	}
	default:
		break;
	}
}

/*
 * Byte model: a private allocation on device 0 (its address is never
 * handed to the random calls) takes a pattern, gives it back, takes a
 * memset and gives that back; fault injection of the context is turned
 * off first (the random FAULT_INJECT calls may have turned it on).  A
 * device full of the fuzzer's objects (ENOMEM) skips the round.
 */
static void verify_bytes(struct fuzzer *f)
{
	struct npu_sim_fault_inject off = { 0 };
	struct npu_sim_mem_alloc a = {
		.size = VERIFY_LEN, .footprint = VERIFY_LEN, .backing = NPU_SIM_BACKING_NORMAL,
		.api = NPU_SIM_API_MALLOC,
	};
	struct npu_sim_memcpy c = { .count = VERIFY_LEN, .src_fd = -1 };
	struct npu_sim_memset m = { .count = VERIFY_LEN };
	struct npu_sim_mem_free fr = { 0 };
	int fd = f->fd[0];

	if (ioctl(fd, NPU_SIM_IOCTL_FAULT_INJECT, &off)) {
		bad(f, "verify: FAULT_INJECT off failed", (unsigned long long)errno);
		return;
	}
	if (ioctl(fd, NPU_SIM_IOCTL_MEM_ALLOC, &a)) {
		if (errno != ENOMEM)
			bad(f, "verify: MEM_ALLOC failed", (unsigned long long)errno);
		f->verify_skipped++;
		return;
	}
	for (size_t i = 0; i < VERIFY_LEN; i++)
		f->pattern[i] = (unsigned char)st_rand(&f->r);
	c.dir = NPU_SIM_COPY_H2D;
	c.dst = a.va;
	c.src = (uintptr_t)f->pattern;
	if (ioctl(fd, NPU_SIM_IOCTL_MEMCPY, &c))
		bad(f, "verify: H2D failed", (unsigned long long)errno);
	memset(f->back, 0, VERIFY_LEN);
	c.dir = NPU_SIM_COPY_D2H;
	c.dst = (uintptr_t)f->back;
	c.src = a.va;
	if (ioctl(fd, NPU_SIM_IOCTL_MEMCPY, &c) || memcmp(f->back, f->pattern, VERIFY_LEN))
		bad(f, "verify: bytes read back differ from those written", a.va);
	m.dst = a.va;
	m.value = (uint32_t)st_below(&f->r, 256);
	if (ioctl(fd, NPU_SIM_IOCTL_MEMSET, &m))
		bad(f, "verify: MEMSET failed", (unsigned long long)errno);
	memset(f->pattern, (int)m.value, VERIFY_LEN);
	if (ioctl(fd, NPU_SIM_IOCTL_MEMCPY, &c) || memcmp(f->back, f->pattern, VERIFY_LEN))
		bad(f, "verify: bytes after MEMSET differ", m.value);
	fr.va = a.va;
	if (ioctl(fd, NPU_SIM_IOCTL_MEM_FREE, &fr))
		bad(f, "verify: MEM_FREE failed", (unsigned long long)errno);
	f->verified++;
}

/* One call; returns 0, or -1 when this process must stop (fd lost). */
static void one_call(struct fuzzer *f)
{
	unsigned char arg[MAX_ARG + 64];
	unsigned long cmd;
	size_t size;
	int ci = (int)st_below(&f->r, NCMDS), fd, ret, r = (int)st_below(&f->r, 1000), d, own_arg;

	cmd = cmds[ci];
	size = _IOC_SIZE(cmd);
	fill_random(f, arg, sizeof(arg));
	if (st_below(&f->r, 2) == 0) {
		memset(arg, 0, sizeof(arg));
		if (!fill_valid(f, cmd, arg))
			fill_random(f, arg, size);
		else if (st_below(&f->r, 8) == 0 &&	/* valid but for one field */
			 cmd != NPU_SIM_IOCTL_MEM_LIMIT)	/* (no random low limit) */
			fill_random(f, arg + 8 * st_below(&f->r, size / 8), 8);
	}
	if (r < 15) {		/* unknown number */
		cmd = _IOC(_IOC_READ | _IOC_WRITE, NPU_SIM_IOC_MAGIC, 0x20 + st_below(&f->r, 0xe0),
			   st_below(&f->r, MAX_ARG));
		ci = -1;
		f->unknown++;
	} else if (r < 35) {	/* known number, wrong size or direction */
		cmd = _IOC(st_below(&f->r, 4), NPU_SIM_IOC_MAGIC, _IOC_NR(cmd),
			   st_below(&f->r, 2) ? st_below(&f->r, MAX_ARG) : size + 8);
		ci = -1;
		f->unknown++;
	} else if (r < 40) {	/* another type byte */
		cmd = _IOC(_IOC_DIR(cmd), st_below(&f->r, 256), _IOC_NR(cmd), size);
		ci = -1;
		f->unknown++;
	}

	d = st_below(&f->r, 8) ? 0 : 1;
	fd = f->fd[d];
	if (st_below(&f->r, 100) == 0) {
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		f->foreign++;
	}
	if (fd < 0)
		return;
	own_arg = st_below(&f->r, 50) != 0;	/* else a random argument pointer */
	ret = ioctl(fd, cmd, own_arg ? (void *)arg : (void *)(uintptr_t)value(f));
	if (fd != f->fd[0] && fd != f->fd[1])
		close(fd);
	f->calls++;
	if (ret == 0) {
		f->ok++;
		if (ci >= 0) {
			f->per_cmd_ok[ci]++;
			if (fd == f->fd[d] && own_arg)
				check_success(f, cmd, d, arg);
			harvest(f, arg, size);
			harvest_typed(f, cmd, arg);
			publish_key(f, cmd, arg);
		}
	}
}

/* A child with the inherited fds: its calls must be refused or harmless. */
static void fork_user(struct fuzzer *f)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 50; i++)
			one_call(f);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	f->forks++;
}

static int fuzz(int me, uint64_t seed, struct shared_keys *sk, double secs, unsigned long max_calls)
{
	struct rlimit rl = { .rlim_cur = 256 * MiB, .rlim_max = 256 * MiB };
	struct itimerval it = { .it_value = { 2, 0 } };
	struct fuzzer *f = calloc(1, sizeof(*f));
	struct sigaction sa;
	double end = st_now() + secs;
	char name[32];

	if (f == NULL)
		return 1;
	/* an ordinary user: RLIMIT_MEMLOCK bounds the host memory it pins */
	if (setrlimit(RLIMIT_MEMLOCK, &rl) || setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		return 5;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: a wait returns EINTR */
	sigaction(SIGALRM, &sa, NULL);
	f->me = me;
	f->sk = sk;
	sk->pid[me] = getpid();
	st_rng_init(&f->r, seed + (uint64_t)me);
	/*
	 * Scratch sits between inaccessible guards larger than any device, so
	 * a garbled count that runs a copy past it faults (EFAULT) instead of
	 * overwriting the fuzzer's own heap.
	 */
	f->scratch = mmap(NULL, SCRATCH + 2 * SCRATCH_GUARD, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (f->scratch == MAP_FAILED)
		return 2;
	f->scratch += SCRATCH_GUARD;
	if (mprotect(f->scratch, SCRATCH, PROT_READ | PROT_WRITE))
		return 2;
	memset(f->scratch, 0x5a, SCRATCH);
	f->fd[0] = f->fd[1] = -1;
	for (int d = 0; d < NDEV; d++)
		reopen(f, d);
	if (f->fd[0] < 0 || f->fd[1] < 0)
		return 3;
	pool_add(f, (uintptr_t)f->scratch);

	while (max_calls ? f->calls < max_calls : st_now() < end) {
		unsigned long k = st_below(&f->r, 4000);

		if (k == 0) {
			reopen(f, (int)st_below(&f->r, NDEV));
			f->reopens++;
			if (f->fd[0] < 0 || f->fd[1] < 0)
				return 4;
		} else if (k == 1) {
			fork_user(f);
		}
		setitimer(ITIMER_REAL, &it, NULL);
		one_call(f);
		if (f->calls % VERIFY_EVERY == 0)
			verify_bytes(f);
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	snprintf(name, sizeof(name), "fuzz[%d]", me);
	printf("%s: %lu calls, %lu succeeded, %lu unknown/wrong-size, %lu foreign fd, %lu forked users, "
	       "%lu reopens\n", name, f->calls, f->ok, f->unknown, f->foreign, f->forks, f->reopens);
	printf("%s: successes per command:", name);
	for (size_t i = 0; i < NCMDS; i++) {
		printf(" %02x:%lu", (unsigned)_IOC_NR(cmds[i]), f->per_cmd_ok[i]);
		sk->cmd_ok[me][i] = f->per_cmd_ok[i];
	}
	printf("\n");
	printf("%s: %lu byte round trips exact, %lu skipped (device full), %lu successes off the model\n",
	       name, f->verified, f->verify_skipped, f->bad);
	fflush(stdout);
	/* exit with objects alive: the release path cleans up */
	return f->bad ? 6 : 0;
}

int main(void)
{
	uint64_t seed = st_seed("stress_fuzz");
	double secs = (double)st_env("NPU_SIM_FUZZ_SECONDS", 20, 0);
	unsigned long calls = st_env("NPU_SIM_FUZZ_CALLS", 0, 1000000);	/* in all */
	struct shared_keys *sk;
	struct st_base base;
	pid_t pids[2];
	double t0;
	int st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* 256 MiB devices: what the fuzzer allocates fits in the guest */
	if (access("/sys/module/npu_sim", F_OK) == 0)
		st_check(st_unload() == 0, "unload npu_sim");
	/* test_hooks: MANAGED_TOUCH is a command to reach too */
	st_check(st_load("hbm_mib=256 test_hooks=1") == 0, "load npu_sim hbm_mib=256 test_hooks=1");
	st_base_take(&base);
	sk = mmap(NULL, sizeof(*sk), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	st_check(sk != MAP_FAILED, "shared page");
	if (sk == MAP_FAILED)
		return st_summary("stress_fuzz");
	if (calls)
		printf("stress_fuzz: %lu calls by 2 processes\n", calls);
	else
		printf("stress_fuzz: %.0f s, 2 processes\n", secs);
	t0 = st_now();
	for (int i = 0; i < 2; i++) {
		fflush(NULL);
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(fuzz(i, seed, sk, secs, (calls + 1 - (unsigned long)i) / 2));
	}
	for (int i = 0; i < 2; i++) {
		st_check(waitpid(pids[i], &st, 0) == pids[i], "wait for fuzzer %d", i);
		st_check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "fuzzer %d: %s %d", i,
			 WIFEXITED(st) ? "exit status" : "killed by signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
	printf("stress_fuzz: %.1f s\n", st_now() - t0);
	printf("stress_fuzz: successes per command, both processes:");
	for (size_t i = 0; i < NCMDS; i++)
		printf(" %02x:%lu", (unsigned)_IOC_NR(cmds[i]), sk->cmd_ok[0][i] + sk->cmd_ok[1][i]);
	printf("\n");
	for (size_t i = 0; i < NCMDS; i++)
		st_check(sk->cmd_ok[0][i] + sk->cmd_ok[1][i] > 0, "command 0x%02x succeeded at least once",
			 (unsigned)_IOC_NR(cmds[i]));
	st_base_check(&base, "after fuzzing");
	st_check(st_unload() == 0, "unload after fuzzing");
	st_check(st_load("") == 0, "load npu_sim with its defaults again");
	return st_summary("stress_fuzz");
}
