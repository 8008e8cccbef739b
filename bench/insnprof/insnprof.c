/*
 * insnprof: a QEMU TCG plugin that counts, exactly, the guest instructions a
 * vCPU executes between two marker instructions (`make bench-insns`,
 * BENCHMARKS.md "Instruction profile").
 *
 * Every translated block (TB) gets an execution callback; while a window is
 * open on the executing vCPU the TB's counter for that vCPU goes up by one.
 * Instructions = sum of executions x TB length, so the counts are whole
 * numbers, the same on every run of the same code.  The TB's code bytes are
 * written out once, so bench/insnprof/symbolize.py can attribute every
 * instruction to a function and classify it (atomics, rep strings, ...).
 *
 * Markers (executed by bench/insnprof/insn_ops.c):
 *   nopl 0x4e50WWCC(%rax,%rax,1) = 0f 1f 84 00 CC WW 50 4e
 * CC = 1 opens window WW on the executing vCPU, CC = 2 closes it.  The TB of
 * the opening marker is not counted, the one of the closing marker is: a
 * constant per window, measured by the driver's "empty" row.
 *
 * At each close the window's counts go to out=FILE (appended), text lines:
 *   B id vaddr len,len,... hexbytes   a TB's code, once per TB record
 *   T win vcpu id vaddr n_insns n_atomic execs
 *   W win vcpu tb_execs insns atomics
 *
 * The plugin API is declared here (only the entries used), as Debian 12's
 * QEMU 7.2 ships no qemu-plugin.h: plugin API version 1, the ABI of QEMU 7.2
 * (include/qemu/qemu-plugin.h there).  Load with
 *   qemu-system-x86_64 -plugin PATH/libinsnprof.so,out=FILE ...
 * (tools/npu-vm --qemu-plugin).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- QEMU 7.2 plugin API, version 1 (the subset used) --- */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
				    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;

/* --- the profiler --- */
#define MAX_VCPUS 16
#define HASH_BITS 20

/* One TB as translated: the same code at the same address is one record. */
struct tb_rec {
	struct tb_rec *next;	/* hash chain */
	struct tb_rec *all;	/* every record, for the dump */
	uint64_t vaddr;
	uint64_t hash;		/* FNV-1a of the code bytes */
	uint32_t id;
	uint32_t n_insns;
	uint32_t n_atomic;
	uint32_t code_len;
	bool dumped;		/* code already written to out */
	uint64_t execs[MAX_VCPUS];	/* in the vCPU's open window */
	uint8_t *lens;		/* n_insns instruction lengths */
	uint8_t *code;		/* code_len bytes */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct tb_rec *table[1u << HASH_BITS];
static struct tb_rec *all_recs;
static uint32_t next_id;
static int open_win[MAX_VCPUS];	/* 0: none, else window + 1; own vCPU only */
static FILE *out;

/* lock-prefixed, or xchg with a memory operand (implicitly locked) */
static bool is_atomic(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint8_t b = p[i];

		if (b == 0xf0)
			return true;
		if (!(b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x36 || b == 0x3e ||
		      b == 0x26 || b == 0x64 || b == 0x65 || b == 0x66 || b == 0x67))
			break;
	}
	if (i < n && (p[i] & 0xf0) == 0x40)	/* REX */
		i++;
	return i + 1 < n && (p[i] == 0x86 || p[i] == 0x87) && (p[i + 1] >> 6) != 3;
}

static void dump_window(unsigned int vcpu, int win)
{
	unsigned long long tbs = 0, insns = 0, atomics = 0;
	struct tb_rec *r;
	uint32_t k;

	pthread_mutex_lock(&lock);
	for (r = all_recs; r; r = r->all) {
		unsigned long long c = r->execs[vcpu];

		if (!c)
			continue;
		if (!r->dumped) {
			r->dumped = true;
			fprintf(out, "B %u %#llx ", r->id, (unsigned long long)r->vaddr);
			for (k = 0; k < r->n_insns; k++)
				fprintf(out, "%s%u", k ? "," : "", r->lens[k]);
			fputc(' ', out);
			for (k = 0; k < r->code_len; k++)
				fprintf(out, "%02x", r->code[k]);
			fputc('\n', out);
		}
		fprintf(out, "T %d %u %u %#llx %u %u %llu\n", win, vcpu, r->id,
			(unsigned long long)r->vaddr, r->n_insns, r->n_atomic, c);
		tbs += c;
		insns += c * r->n_insns;
		atomics += c * r->n_atomic;
		r->execs[vcpu] = 0;
	}
	fprintf(out, "W %d %u %llu %llu %llu\n", win, vcpu, tbs, insns, atomics);
	fflush(out);
	pthread_mutex_unlock(&lock);
}

static void on_marker(unsigned int vcpu, void *udata)
{
	uintptr_t m = (uintptr_t)udata;
	int win = (m >> 8) & 0xff, op = m & 0xff;

	if (vcpu >= MAX_VCPUS)
		return;
	if (op == 1) {
		open_win[vcpu] = win + 1;
	} else if (op == 2 && open_win[vcpu] == win + 1) {
		open_win[vcpu] = 0;
		dump_window(vcpu, win);
	}
}

static void on_tb_exec(unsigned int vcpu, void *udata)
{
	struct tb_rec *r = udata;

	/* a vCPU only touches its own slot: no lock */
	if (vcpu < MAX_VCPUS && open_win[vcpu])
		r->execs[vcpu]++;
}

static bool is_marker(const uint8_t *p, size_t n)
{
	return n == 8 && p[0] == 0x0f && p[1] == 0x1f && p[2] == 0x84 && p[3] == 0x00 &&
	       (p[4] == 1 || p[4] == 2) && p[6] == 0x50 && p[7] == 0x4e;
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i, k, len = 0;
	uint64_t va = qemu_plugin_tb_vaddr(tb), h = 1469598103934665603ull;
	uint32_t n_atomic = 0;
	struct tb_rec *r, **slot;
	uint8_t *code, *lens;

	(void)id;
	for (i = 0; i < n; i++)
		len += qemu_plugin_insn_size(qemu_plugin_tb_get_insn(tb, i));
	code = malloc(len ? len : 1);
	lens = malloc(n ? n : 1);
	if (!code || !lens) {
		fprintf(stderr, "insnprof: out of memory\n");
		abort();
	}
	for (i = 0, len = 0; i < n; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *p = qemu_plugin_insn_data(in);
		size_t sz = qemu_plugin_insn_size(in);

		for (k = 0; k < sz; k++)
			h = (h ^ p[k]) * 1099511628211ull;
		memcpy(code + len, p, sz);
		len += sz;
		lens[i] = sz;
		n_atomic += is_atomic(p, sz);
		if (is_marker(p, sz))
			qemu_plugin_register_vcpu_insn_exec_cb(in, on_marker, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)(p[5] << 8 | p[4]));
	}

	pthread_mutex_lock(&lock);
	slot = &table[(va ^ h ^ (va >> 20)) & ((1u << HASH_BITS) - 1)];
	for (r = *slot; r; r = r->next)
		if (r->vaddr == va && r->hash == h && r->n_insns == n && r->code_len == len)
			break;
	if (r) {
		/* retranslated (TB flush, other vCPU): keep one record */
		free(code);
		free(lens);
	} else {
		r = calloc(1, sizeof(*r));
		if (!r) {
			fprintf(stderr, "insnprof: out of memory\n");
			abort();
		}
		r->vaddr = va;
		r->hash = h;
		r->id = next_id++;
		r->n_insns = n;
		r->n_atomic = n_atomic;
		r->code_len = len;
		r->code = code;
		r->lens = lens;
		r->next = *slot;
		*slot = r;
		r->all = all_recs;
		all_recs = r;
	}
	pthread_mutex_unlock(&lock);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS, r);
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	fflush(out);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv);
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv)
{
	const char *path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else {
			fprintf(stderr, "insnprof: unknown argument '%s' (takes out=FILE)\n", argv[i]);
			return 1;
		}
	}
	if (!path || !*path) {
		fprintf(stderr, "insnprof: needs out=FILE\n");
		return 1;
	}
	if (strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "insnprof: x86_64 guests only (markers, atomics), not %s\n",
			info->target_name);
		return 1;
	}
	out = fopen(path, "a");
	if (!out) {
		perror(path);
		return 1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
