/*
 * NPU_SIM_CHECK: leak, misuse and uninitialised-read reports (check.h,
 * docs/checks.md).
 *
 * When a check is on, every object a call creates is kept in a registry
 * with its call site (the return address the API wrapper saw, plus a short
 * backtrace(3) above it); freed memory goes to a small ring so a later free
 * or copy of it can name both sites.  Sites are symbolized only when a
 * report is written (symbolize.c).  Reports go to stderr and, when
 * NPU_SIM_REPORT_DIR is set, are appended to $NPU_SIM_REPORT_DIR/report.<pid>,
 * one block per finding, written with one write(2) per destination.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <misc/npu_sim.h>

#include "check.h"
#include "err_msg.h"
#include "npu_sim/check.h"
#include "races.h"
#include "report.h"

#define FREED_RING	64	/* freed ranges remembered */
#define BLOCK_MAX	NPU_RT_BLOCK_MAX

/* Misuse found by the failing call (on the heap: err_msg.h npu_rt_tbuf). */
static struct npu_rt_tbuf pending_tbuf = { .size = BLOCK_MAX };
static __thread char *pending;
static __thread size_t pending_len;
static __thread bool pending_setup;

struct range {
	uintptr_t lo, hi;
};

struct obj {
	struct obj *next;
	enum npu_rt_check_kind kind;
	int dev;
	bool inherited;		/* a fork child's copy of the parent's */
	uintptr_t base;
	uintptr_t parent;	/* EXPORT: the physical handle */
	uint64_t size;
	const char *call;
	struct npu_rt_site site;
	struct range *written;	/* init checks: sorted, disjoint */
	size_t nwritten, cap;
};

struct freed {
	bool used;
	enum npu_rt_check_kind kind;
	uintptr_t base;
	uint64_t size;
	const char *call, *free_call;
	struct npu_rt_site site, free_site;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct obj *objs;
static struct freed freed[FREED_RING];
static unsigned int freed_next;

/* ---- output ------------------------------------------------------- */

static const char *kind_name(enum npu_rt_check_kind k)
{
	switch (k) {
	case NPU_RT_CK_ALLOC:
		return "device memory";
	case NPU_RT_CK_RESERVATION:
		return "address reservation";
	case NPU_RT_CK_PHYS:
		return "physical memory handle";
	case NPU_RT_CK_EXPORT:
		return "shareable handle";
	case NPU_RT_CK_IPC:
		return "IPC export key";
	case NPU_RT_CK_STREAM:
		return "stream";
	case NPU_RT_CK_GRAPH:
		return "model runtime instance (aclmdlRI)";
	default:
		return "event";
	}
}

static bool has_size(enum npu_rt_check_kind k)
{
	return k == NPU_RT_CK_ALLOC || k == NPU_RT_CK_RESERVATION || k == NPU_RT_CK_PHYS ||
	       k == NPU_RT_CK_IPC;
}

static bool is_range(enum npu_rt_check_kind k)
{
	return k == NPU_RT_CK_ALLOC || k == NPU_RT_CK_RESERVATION;
}

/* One LEAK block for o. */
static void leak_block(const struct obj *o, FILE *out)
{
	struct npu_rt_block b = { .len = 0 };

	if (has_size(o->kind))
		npu_rt_block_add(&b, "npu_sim: LEAK %llu bytes of %s (%s) at 0x%lx on device %d, pid %d\n",
		    (unsigned long long)o->size, kind_name(o->kind), o->call, (unsigned long)o->base, o->dev,
		    (int)getpid());
	else
		npu_rt_block_add(&b, "npu_sim: LEAK %s (%s) 0x%lx on device %d, pid %d\n", kind_name(o->kind), o->call,
		    (unsigned long)o->base, o->dev, (int)getpid());
	npu_rt_block_site(&b, "    ", &o->site);
	npu_rt_block_emit(&b, out);
}

/* ---- the registry (lock held) ----------------------------------------- */

/* The live allocation or reservation holding p. */
static struct obj *find_containing(uintptr_t p)
{
	for (struct obj *o = objs; o != NULL; o = o->next)
		if (is_range(o->kind) && p >= o->base && p - o->base < o->size)
			return o;
	return NULL;
}

static struct freed *find_freed(uintptr_t p)
{
	/* newest first */
	for (unsigned int i = 0; i < FREED_RING; i++) {
		struct freed *f = &freed[(freed_next + FREED_RING - 1 - i) % FREED_RING];

		if (f->used && is_range(f->kind) && p >= f->base && p - f->base < f->size)
			return f;
	}
	return NULL;
}

static void drop(struct obj **pp)
{
	struct obj *o = *pp;

	*pp = o->next;
	free(o->written);
	free(o);
}

/* ---- creation and destruction ---------------------------------------- */

void npu_rt_check_begin(const char *call, void *site)
{
	npu_rt_check_enter(call, site);
	pending_len = 0;
	pending_setup = false;
}

static struct obj *new_obj(enum npu_rt_check_kind kind, int dev, uintptr_t base, uint64_t size)
{
	struct obj *o = calloc(1, sizeof(*o));

	if (o == NULL)
		return NULL;
	o->kind = kind;
	o->dev = dev;
	o->base = base;
	o->size = size;
	o->call = npu_rt_check_call();
	npu_rt_site_capture(&o->site);
	return o;
}

static void link_obj(struct obj *o)
{
	pthread_mutex_lock(&lock);
	o->next = objs;
	objs = o;
	pthread_mutex_unlock(&lock);
}

void npu_rt_check_created(enum npu_rt_check_kind kind, int dev, uintptr_t base, uint64_t size)
{
	struct obj *o;

	if (kind == NPU_RT_CK_ALLOC)
		npu_rt_races_region_add(base, size, NPU_RT_RR_DEVICE, dev);
	if (!(npu_rt_check_flags & ~NPU_RT_CHECK_RACES))	/* races alone: no registry */
		return;
	o = new_obj(kind, dev, base, size);
	if (o != NULL)
		link_obj(o);
}

void npu_rt_check_exported(int dev, uintptr_t handle, uint64_t key)
{
	struct obj *o;

	if (npu_rt_check_flags == 0)
		return;
	o = new_obj(NPU_RT_CK_EXPORT, dev, (uintptr_t)key, 0);
	if (o == NULL)
		return;
	o->parent = handle;
	link_obj(o);
}

void npu_rt_check_destroyed_(enum npu_rt_check_kind kind, uintptr_t base)
{
	struct freed f = { .used = true, .kind = kind, .base = base };
	bool found = false;

	if (kind == NPU_RT_CK_ALLOC)
		npu_rt_races_region_free(base);	/* unordered queued work: USE-AFTER-FREE */
	if (!(npu_rt_check_flags & ~NPU_RT_CHECK_RACES))
		return;
	f.free_call = npu_rt_check_call();
	npu_rt_site_capture(&f.free_site);
	pthread_mutex_lock(&lock);
	for (struct obj **pp = &objs; *pp != NULL; pp = &(*pp)->next) {
		struct obj *o = *pp;

		if (o->kind == kind && o->base == base && !o->inherited) {
			f.size = o->size;
			f.call = o->call;
			f.site = o->site;
			drop(pp);
			found = true;
			break;
		}
	}
	if (found && is_range(kind)) {
		freed[freed_next] = f;
		freed_next = (freed_next + 1) % FREED_RING;
	}
	/* a freed physical handle takes its shareable key along */
	for (struct obj **pp = &objs; found && kind == NPU_RT_CK_PHYS && *pp != NULL;) {
		if ((*pp)->kind == NPU_RT_CK_EXPORT && (*pp)->parent == base && !(*pp)->inherited)
			drop(pp);
		else
			pp = &(*pp)->next;
	}
	pthread_mutex_unlock(&lock);
}

void npu_rt_check_device_closed(int dev)
{
	if (npu_rt_check_flags == 0)
		return;
	pthread_mutex_lock(&lock);
	for (struct obj **pp = &objs; *pp != NULL;) {
		if ((*pp)->dev == dev && !(*pp)->inherited) {
			if (npu_rt_check_flags & NPU_RT_CHECK_LEAKS)
				leak_block(*pp, NULL);
			drop(pp);
		} else {
			pp = &(*pp)->next;
		}
	}
	pthread_mutex_unlock(&lock);
}

void npu_rt_check_atfork_prepare(void)
{
	pthread_mutex_lock(&lock);
	npu_rt_races_atfork_prepare();	/* innermost */
}

void npu_rt_check_atfork_parent(void)
{
	npu_rt_races_atfork_parent();
	pthread_mutex_unlock(&lock);
}

void npu_rt_check_atfork_child(void)
{
	/* kept to name what a stray dereference hits; never leaks here */
	for (struct obj *o = objs; o != NULL; o = o->next)
		o->inherited = true;
	pthread_mutex_init(&lock, NULL);
	npu_rt_races_atfork_child();
}

int npu_rt_report_leaks(FILE *out)
{
	int n = 0;

	if (!(npu_rt_check_flags & NPU_RT_CHECK_LEAKS)) {
		errno = ENOSYS;
		return -1;
	}
	pthread_mutex_lock(&lock);
	for (struct obj *o = objs; o != NULL; o = o->next) {
		if (o->inherited)
			continue;
		leak_block(o, out);
		n++;
	}
	pthread_mutex_unlock(&lock);
	return n;
}

static void report_at_exit(void)
{
	(void)npu_rt_report_leaks(NULL);
}

/* ---- misuse found by a failing call ---------------------------------- */

static void pend(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void pend(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (pending == NULL)
		pending_len = 0;	/* none yet, or it went at the thread's exit */
	if (pending_len >= BLOCK_MAX - 1 || npu_rt_tbuf_get(&pending_tbuf, (void **)&pending) == NULL)
		return;
	va_start(ap, fmt);
	n = vsnprintf(pending + pending_len, BLOCK_MAX - pending_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		pending_len += (size_t)n < BLOCK_MAX - pending_len ? (size_t)n : BLOCK_MAX - pending_len - 1;
}

static void pend_site(const char *what, const char *call, const struct npu_rt_site *s)
{
	struct npu_rt_block b = { .len = 0 };

	npu_rt_block_site(&b, "      ", s);
	pend("    %s by %s:\n%.*s", what, call, (int)b.len, b.buf);
}

/* Lines about p: the allocation it lies in, or the freed one. */
static void pend_address(const char *name, uintptr_t p)
{
	struct freed *f;
	struct obj *o;

	pthread_mutex_lock(&lock);
	o = find_containing(p);
	if (o != NULL) {
		pend("    %s 0x%lx is %llu bytes into %llu bytes of %s at 0x%lx\n", name, (unsigned long)p,
		     (unsigned long long)(p - o->base), (unsigned long long)o->size, kind_name(o->kind),
		     (unsigned long)o->base);
		pend_site("allocated", o->call, &o->site);
	} else if ((f = find_freed(p)) != NULL) {
		pend("    %s 0x%lx is %llu bytes into %llu bytes of %s at 0x%lx, already freed\n", name,
		     (unsigned long)p, (unsigned long long)(p - f->base), (unsigned long long)f->size,
		     kind_name(f->kind), (unsigned long)f->base);
		pend_site("allocated", f->call, &f->site);
		pend_site("freed", f->free_call, &f->free_site);
	}
	pthread_mutex_unlock(&lock);
}

/* First lines of a misuse report: what, in which call, from where. */
static void pend_head(const char *what)
{
	struct npu_rt_block b = { .len = 0 };
	struct npu_rt_site s;

	pending_len = 0;
	pend("npu_sim: MISUSE %s in %s, pid %d\n", what, npu_rt_check_call(), (int)getpid());
	npu_rt_site_capture(&s);
	npu_rt_block_site(&b, "    ", &s);
	pend("%.*s", (int)b.len, b.buf);
}

void npu_rt_check_bad_free(uintptr_t p)
{
	const char *what = "invalid free";
	struct obj *o;

	if (!(npu_rt_check_flags & NPU_RT_CHECK_MISUSE))
		return;
	pthread_mutex_lock(&lock);
	o = find_containing(p);
	if (o != NULL)
		what = o->base == p ? "invalid free" : "interior free";
	else if (find_freed(p) != NULL)
		what = "double free";
	pthread_mutex_unlock(&lock);
	pend_head(what);
	pend("    address 0x%lx\n", (unsigned long)p);
	pend_address("address", p);
}

void npu_rt_check_freed_queued(uintptr_t p, uint32_t queued)
{
	struct npu_rt_block b = { .len = 0 };

	if (!(npu_rt_check_flags & NPU_RT_CHECK_MISUSE))
		return;
	pend_head("free of memory queued stream work still uses");
	pend("    address 0x%lx: %u queued operation(s) still use it; the pages stay until they are done\n",
	     (unsigned long)p, queued);
	pend_address("address", p);
	npu_rt_block_add(&b, "%.*s", (int)pending_len, pending);
	pending_len = 0;
	npu_rt_block_emit(&b, NULL);
}

enum span { SPAN_OTHER, SPAN_INSIDE, SPAN_PAST_END, SPAN_FREED };

/* Where [p, p + len) lies against the tracked allocations. */
static enum span span_of(uintptr_t p, size_t len)
{
	enum span r = SPAN_OTHER;
	struct obj *o;

	pthread_mutex_lock(&lock);
	o = find_containing(p);
	if (o != NULL)
		r = len <= o->size - (p - o->base) ? SPAN_INSIDE : SPAN_PAST_END;
	else if (find_freed(p) != NULL)
		r = SPAN_FREED;
	pthread_mutex_unlock(&lock);
	return r;
}

void npu_rt_check_bad_copy(uintptr_t dst, size_t dlen, uintptr_t src, size_t slen)
{
	const char *what = "invalid copy (kind or addresses)";
	enum span d, s;

	if (!(npu_rt_check_flags & NPU_RT_CHECK_MISUSE))
		return;
	d = span_of(dst, dlen);
	s = span_of(src, slen);
	if (d == SPAN_FREED || s == SPAN_FREED)
		what = "use after free in a copy";
	else if (d == SPAN_PAST_END || s == SPAN_PAST_END)
		what = "copy out of range";
	pend_head(what);
	pend("    dst [0x%lx, +%zu) src [0x%lx, +%zu)\n", (unsigned long)dst, dlen, (unsigned long)src, slen);
	pend_address("dst", dst);
	pend_address("src", src);
}

void npu_rt_check_setup_error(void)
{
	pending_setup = true;
}

/* err_msg.c's hook: the current call failed with message line. */
static void call_failed(const char *line)
{
	struct npu_rt_block b = { .len = 0 };

	if (pending_len > 0 && pending != NULL && (npu_rt_check_flags & NPU_RT_CHECK_MISUSE)) {
		npu_rt_block_add(&b, "%.*s    error: %s\n", (int)pending_len, pending, line);
		npu_rt_block_emit(&b, NULL);
	} else if (pending_setup) {
		/* stderr only: the report files hold findings about the program */
		npu_rt_block_add(&b, "npu_sim: SETUP %s, pid %d\n", line, (int)getpid());
		npu_rt_block_emit(&b, stderr);
	}
	pending_len = 0;
	pending_setup = false;
}

/* ---- uninitialised reads ---------------------------------------------- */

/* Add [lo, hi) to o's written ranges, merging neighbours. */
static void mark(struct obj *o, uintptr_t lo, uintptr_t hi)
{
	size_t i = 0, j;

	while (i < o->nwritten && o->written[i].hi < lo)
		i++;
	j = i;
	while (j < o->nwritten && o->written[j].lo <= hi) {
		lo = o->written[j].lo < lo ? o->written[j].lo : lo;
		hi = o->written[j].hi > hi ? o->written[j].hi : hi;
		j++;
	}
	if (i == j) {	/* insert at i */
		if (o->nwritten == o->cap) {
			size_t cap = o->cap ? o->cap * 2 : 4;
			struct range *r = realloc(o->written, cap * sizeof(*r));

			if (r == NULL)
				return;
			o->written = r;
			o->cap = cap;
		}
		memmove(&o->written[i + 1], &o->written[i], (o->nwritten - i) * sizeof(*o->written));
		o->nwritten++;
	} else if (j > i + 1) {	/* ranges i..j-1 become one */
		memmove(&o->written[i + 1], &o->written[j], (o->nwritten - j) * sizeof(*o->written));
		o->nwritten -= j - i - 1;
	}
	o->written[i] = (struct range){ lo, hi };
}

void npu_rt_check_wrote(uintptr_t p, size_t len)
{
	struct obj *o;

	if (!(npu_rt_check_flags & NPU_RT_CHECK_INIT) || len == 0)
		return;
	pthread_mutex_lock(&lock);
	o = find_containing(p);
	if (o != NULL && o->kind == NPU_RT_CK_ALLOC) {
		uintptr_t end = len > o->size - (p - o->base) ? o->base + o->size : p + len;

		mark(o, p, end);
	}
	pthread_mutex_unlock(&lock);
}

void npu_rt_check_read(uintptr_t p, size_t len)
{
	uintptr_t end, first = 0, first_end = 0;
	uint64_t unwritten = 0;
	struct npu_rt_block b = { .len = 0 };
	struct obj *o;
	struct npu_rt_site s;

	if (!(npu_rt_check_flags & NPU_RT_CHECK_INIT) || len == 0)
		return;
	pthread_mutex_lock(&lock);
	o = find_containing(p);
	if (o == NULL || o->kind != NPU_RT_CK_ALLOC) {
		pthread_mutex_unlock(&lock);
		return;
	}
	end = len > o->size - (p - o->base) ? o->base + o->size : p + len;
	/* walk the gaps of the written ranges inside [p, end) */
	{
		uintptr_t at = p;

		for (size_t i = 0; i <= o->nwritten && at < end; i++) {
			uintptr_t gap_end = i < o->nwritten ? o->written[i].lo : end;

			if (gap_end > end)
				gap_end = end;
			if (gap_end > at) {
				if (unwritten == 0) {
					first = at;
					first_end = gap_end;
				}
				unwritten += gap_end - at;
			}
			if (i < o->nwritten && o->written[i].hi > at)
				at = o->written[i].hi;
		}
	}
	if (unwritten > 0) {
		npu_rt_block_add(&b, "npu_sim: UNINIT %s reads %llu bytes never written, pid %d\n",
		    npu_rt_check_call(), (unsigned long long)unwritten, (int)getpid());
		npu_rt_site_capture(&s);
		npu_rt_block_site(&b, "    ", &s);
		npu_rt_block_add(&b, "    first unwritten [0x%lx, +%llu) is %llu bytes into %llu bytes of device memory at 0x%lx\n",
		    (unsigned long)first, (unsigned long long)(first_end - first),
		    (unsigned long long)(first - o->base), (unsigned long long)o->size, (unsigned long)o->base);
		npu_rt_block_add(&b, "    allocated by %s:\n", o->call);
		npu_rt_block_site(&b, "      ", &o->site);
		mark(o, p, end);	/* one report per range */
	}
	pthread_mutex_unlock(&lock);
	if (unwritten > 0)
		npu_rt_block_emit(&b, NULL);
}

void npu_rt_check_wrote_2d(uintptr_t p, size_t pitch, size_t width, size_t height)
{
	if (!(npu_rt_check_flags & NPU_RT_CHECK_INIT))
		return;
	if (pitch == width || height == 1)
		npu_rt_check_wrote(p, pitch * (height - 1) + width);
	else
		for (size_t r = 0; r < height; r++)
			npu_rt_check_wrote(p + r * pitch, width);
}

void npu_rt_check_read_2d(uintptr_t p, size_t pitch, size_t width, size_t height)
{
	if (!(npu_rt_check_flags & NPU_RT_CHECK_INIT))
		return;
	if (pitch == width || height == 1)
		npu_rt_check_read(p, pitch * (height - 1) + width);
	else
		for (size_t r = 0; r < height; r++)
			npu_rt_check_read(p + r * pitch, width);
}

void npu_rt_check_copy_(const struct npu_rt_copy *c, uint32_t dir)
{
	if (!(npu_rt_check_flags & NPU_RT_CHECK_INIT))
		return;
	if (dir == NPU_SIM_COPY_D2H || dir == NPU_SIM_COPY_D2D)
		npu_rt_check_read_2d(c->src, c->spitch, c->width, c->height);
	if (dir == NPU_SIM_COPY_H2D || dir == NPU_SIM_COPY_D2D)
		npu_rt_check_wrote_2d(c->dst, c->dpitch, c->width, c->height);
}

/* ---- host dereference of device memory -------------------------------- */

static struct sigaction old_segv, old_bus;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	uintptr_t p = (uintptr_t)si->si_addr;
	struct npu_rt_block b = { .len = 0 };
	struct freed *f = NULL;
	struct obj *o;
	bool locked;

	(void)uc;
	/* the access faults again under the handler that was there before,
	 * and so does a fault while this one reports */
	sigaction(sig, sig == SIGBUS ? &old_bus : &old_segv, NULL);
	locked = pthread_mutex_trylock(&lock) == 0;	/* best effort */
	o = find_containing(p);
	if (o == NULL)
		f = find_freed(p);
	if (o != NULL || f != NULL) {
		npu_rt_block_add(&b, "npu_sim: MISUSE host access to device memory at 0x%lx, pid %d (%s)\n", (unsigned long)p,
		    (int)getpid(), sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
		if (o != NULL) {
			npu_rt_block_add(&b, "    0x%lx is %llu bytes into %llu bytes of %s at 0x%lx%s\n", (unsigned long)p,
			    (unsigned long long)(p - o->base), (unsigned long long)o->size, kind_name(o->kind),
			    (unsigned long)o->base,
			    o->inherited ? " of the parent process (device memory is not mapped in a fork child)" : "");
			npu_rt_block_add(&b, "    allocated by %s:\n", o->call);
			npu_rt_block_site(&b, "      ", &o->site);
		} else {
			npu_rt_block_add(&b, "    0x%lx is %llu bytes into %llu bytes of %s at 0x%lx, already freed\n",
			    (unsigned long)p, (unsigned long long)(p - f->base), (unsigned long long)f->size,
			    kind_name(f->kind), (unsigned long)f->base);
			npu_rt_block_add(&b, "    allocated by %s:\n", f->call);
			npu_rt_block_site(&b, "      ", &f->site);
			npu_rt_block_add(&b, "    freed by %s:\n", f->free_call);
			npu_rt_block_site(&b, "      ", &f->free_site);
		}
		npu_rt_block_emit(&b, NULL);
	}
	if (locked)
		pthread_mutex_unlock(&lock);
}

/* ---- set-up ------------------------------------------------------------ */

static int parse(const char *v)
{
	int flags = 0;

	while (v != NULL && *v != '\0') {
		size_t n = strcspn(v, ",");

		if ((n == 3 && strncmp(v, "all", 3) == 0))
			flags |= NPU_RT_CHECK_LEAKS | NPU_RT_CHECK_MISUSE | NPU_RT_CHECK_INIT | NPU_RT_CHECK_RACES;
		else if (n == 5 && strncmp(v, "leaks", 5) == 0)
			flags |= NPU_RT_CHECK_LEAKS;
		else if (n == 6 && strncmp(v, "misuse", 6) == 0)
			flags |= NPU_RT_CHECK_MISUSE;
		else if (n == 4 && strncmp(v, "init", 4) == 0)
			flags |= NPU_RT_CHECK_INIT;
		else if (n == 5 && strncmp(v, "races", 5) == 0)
			flags |= NPU_RT_CHECK_RACES;
		else if (n > 0)
			fprintf(stderr, "npu_sim: NPU_SIM_CHECK: unknown check '%.*s' (leaks, misuse, init, races, all)\n",
				(int)n, v);
		v += n;
		if (*v == ',')
			v++;
	}
	return flags;
}

__attribute__((constructor)) static void check_init(void)
{
	struct sigaction sa;

	npu_rt_check_flags = parse(getenv("NPU_SIM_CHECK"));
	if (npu_rt_check_flags == 0)
		return;
	npu_rt_msg_fail_hook = call_failed;
	if (npu_rt_check_flags & NPU_RT_CHECK_LEAKS)
		atexit(report_at_exit);
	if (npu_rt_check_flags & NPU_RT_CHECK_MISUSE) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_fault;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGSEGV, &sa, &old_segv);
		sigaction(SIGBUS, &sa, &old_bus);
	}
}
