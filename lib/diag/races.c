/*
 * NPU_SIM_CHECK=races (races.h, docs/checks.md "races"): happens-before by
 * vector clocks.
 *
 * Agents: the host (id 0: all host threads, in the order of their calls)
 * and every stream (ids handed out at its first use, reused after it is
 * destroyed with the clock going on).  Each agent has a vector clock.
 * Queuing work on a stream joins the issuer's clock into the stream's and
 * ticks the stream (the operation's epoch) and the issuer.  An event
 * record keeps the stream's clock; a stream wait joins it; a synchronize
 * (stream, device, event, a query that returned complete, a destroy)
 * joins into the host.  Notify records and value writes accumulate into
 * the notify's / address's clock, their waits join it.  A callback or
 * host function runs after its stream's earlier work: a blocking one runs
 * as its stream at its place (later work of the stream is after it), a
 * non-blocking one joins into the host.
 *
 * Every access (races_shadow.c) is checked against the last writer and
 * readers of the bytes; the reports name both operations with their call
 * sites and the allocation (regions, below) with its own.
 */
#include <pthread.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <misc/npu_sim.h>

#include "copy_rules.h"
#include "races.h"
#include "races_clock.h"
#include "races_shadow.h"

#define HOST		0U
#define BUCKETS		256U
#define SITE_BUCKETS	1024U
#define ROWS_MAX	1024U	/* 2D accesses with more rows: their span */
#define FLAG_SCAN	256U	/* writes up to this size may set a value flag */

/* ---- state (all under lock) --------------------------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct npu_rt_vc host_vc;

struct rstream {
	struct rstream *next;
	int dev;
	uint32_t kid, agent;
	struct npu_rt_vc v;
};

enum { SYNC_EVENT, SYNC_NOTIFY, SYNC_VALUE, SYNC_CALLBACK };

/* An event, notify, value address or pending callback and its clock. */
struct rsync {
	struct rsync *next;
	int type, dev;
	uint64_t id;
	struct npu_rt_vc v;
	uint32_t agent, clock;	/* callback: its stream's epoch */
	bool block;		/* callback: its stream waits for it */
};

struct region {
	uintptr_t lo, hi;
	int kind;		/* enum npu_rt_races_region */
	int dev;		/* device memory: its device, else -1 */
	const char *call;
	const struct npu_rt_site *site;
};

struct isite {
	struct isite *next;
	void *pc;
	struct npu_rt_site site;
};

struct seen {
	struct seen *next;
	const void *a, *b;
	int kind;
};

static struct rstream *streams[BUCKETS];
static struct rsync *syncs[BUCKETS];
static struct isite *sites[SITE_BUCKETS];
static struct seen *seens[SITE_BUCKETS];
static void *regions;		/* tsearch(3) tree of struct region */
static uint32_t *agent_last;	/* last clock of each agent id */
static uint32_t nagents, capagents;
static uint32_t *free_agents;
static uint32_t nfree, capfree;

/* A callback running in this thread (the agent it runs as). */
static __thread struct {
	bool on;
	uint32_t agent, clock;
	struct npu_rt_vc v;
} cb;

static unsigned int hash(uint64_t a, uint64_t b, unsigned int n)
{
	uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;

	return (unsigned int)(h >> 32) % n;
}

/* ---- agents ------------------------------------------------------------- */

static bool grow_u32(uint32_t **a, uint32_t *cap, uint32_t n)
{
	uint32_t *p;
	uint32_t c;

	if (n <= *cap)
		return true;
	c = *cap ? *cap * 2 : 16;
	while (c < n)
		c *= 2;
	p = realloc(*a, c * sizeof(*p));
	if (p == NULL)
		return false;
	*a = p;
	*cap = c;
	return true;
}

static uint32_t agent_new(void)
{
	if (nagents == 0) {	/* the host first */
		if (!grow_u32(&agent_last, &capagents, 1))
			return 0;
		agent_last[0] = 0;
		nagents = 1;
	}
	if (nfree > 0)
		return free_agents[--nfree];
	if (!grow_u32(&agent_last, &capagents, nagents + 1))
		return 0;
	agent_last[nagents] = 0;
	return nagents++;
}

static void agent_free(uint32_t a, uint32_t last)
{
	if (a == HOST || !grow_u32(&free_agents, &capfree, nfree + 1))
		return;
	agent_last[a] = last;
	free_agents[nfree++] = a;
}

/* ---- the current agent (the host, or a blocking callback's stream) ------- */

static void host_start(void)
{
	if (npu_rt_vc_get(&host_vc, HOST) == 0)
		npu_rt_vc_set(&host_vc, HOST, 1);
}

static struct npu_rt_vc *ctx_vc(void)
{
	host_start();
	return cb.on ? &cb.v : &host_vc;
}

static uint32_t ctx_agent(void)
{
	return cb.on ? cb.agent : HOST;
}

static uint32_t ctx_clock(void)
{
	return cb.on ? cb.clock : npu_rt_vc_get(&host_vc, HOST);
}

/* The issuer's later accesses are not ordered before what it just queued. */
static void ctx_tick(void)
{
	if (!cb.on)
		npu_rt_vc_set(&host_vc, HOST, npu_rt_vc_get(&host_vc, HOST) + 1);
}

/* ---- streams and sync objects ------------------------------------------- */

static struct rstream **stream_slot(int dev, uint32_t kid)
{
	struct rstream **pp = &streams[hash((uint64_t)dev, kid, BUCKETS)];

	while (*pp != NULL && ((*pp)->dev != dev || (*pp)->kid != kid))
		pp = &(*pp)->next;
	return pp;
}

static struct rstream *stream_get(int dev, uint32_t kid)
{
	struct rstream **pp = stream_slot(dev, kid), *s = *pp;

	if (s != NULL)
		return s;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->kid = kid;
	s->dev = dev;
	s->agent = agent_new();
	if (s->agent == HOST || !npu_rt_vc_set(&s->v, s->agent, agent_last[s->agent])) {
		free(s);
		return NULL;
	}
	*pp = s;
	return s;
}

/* Stream *pp is done (synchronized before going): into the current agent. */
static void stream_drop(struct rstream **pp)
{
	struct rstream *s = *pp;

	npu_rt_vc_join(ctx_vc(), &s->v);
	*pp = s->next;
	agent_free(s->agent, npu_rt_vc_get(&s->v, s->agent));
	npu_rt_vc_free(&s->v);
	free(s);
}

static struct rsync **sync_slot(int type, int dev, uint64_t id)
{
	struct rsync **pp = &syncs[hash(((uint64_t)type << 32) | (uint32_t)dev, id, BUCKETS)];

	while (*pp != NULL && ((*pp)->type != type || (*pp)->dev != dev || (*pp)->id != id))
		pp = &(*pp)->next;
	return pp;
}

static struct rsync *sync_get(int type, int dev, uint64_t id, bool create)
{
	struct rsync **pp = sync_slot(type, dev, id), *y = *pp;

	if (y != NULL || !create)
		return y;
	y = calloc(1, sizeof(*y));
	if (y == NULL)
		return NULL;
	y->type = type;
	y->dev = dev;
	y->id = id;
	*pp = y;
	return y;
}

static void sync_drop(struct rsync **pp)
{
	struct rsync *y = *pp;

	*pp = y->next;
	npu_rt_vc_free(&y->v);
	free(y);
}

/* ---- call sites (interned by the caller's return address) ---------------- */

static const struct npu_rt_site *site_now(void)
{
	void *pc = npu_rt_check_site();
	struct isite **pp = &sites[hash((uintptr_t)pc, 0, SITE_BUCKETS)], *s;
	static const struct npu_rt_site none = { .n = 0 };

	for (s = *pp; s != NULL; s = s->next)
		if (s->pc == pc)
			return &s->site;
	s = malloc(sizeof(*s));
	if (s == NULL)
		return &none;
	s->pc = pc;
	npu_rt_site_capture(&s->site);
	s->next = *pp;
	*pp = s;
	return &s->site;
}

/* ---- regions (allocations, pinned and registered host memory) ------------ */

/* Disjoint: equal when they overlap, so a search for [p, p + 1) finds the
 * region holding p (a red-black tree of tsearch(3), O(log n)). */
static int region_cmp(const void *a, const void *b)
{
	const struct region *x = a, *y = b;

	return x->hi <= y->lo ? -1 : x->lo >= y->hi ? 1 : 0;
}

static struct region *region_of(uintptr_t p)
{
	struct region key = { .lo = p, .hi = p + 1 };
	void **node = tfind(&key, &regions, region_cmp);

	return node != NULL ? *node : NULL;
}

static const char *region_name(int kind)
{
	switch (kind) {
	case NPU_RT_RR_PINNED:
		return "pinned host memory";
	case NPU_RT_RR_REGISTERED:
		return "registered host memory";
	case NPU_RT_RR_POOL:
		return "pool memory";
	default:
		return "device memory";
	}
}

static bool host_tracked(uintptr_t p)
{
	struct region *r = region_of(p);

	return r != NULL && (r->kind == NPU_RT_RR_PINNED || r->kind == NPU_RT_RR_REGISTERED);
}

/* ---- reports ------------------------------------------------------------ */

/* Once per pair of sites and kind. */
static bool first_time(const void *a, const void *b, int kind)
{
	struct seen **pp, *s;

	if ((uintptr_t)a > (uintptr_t)b) {
		const void *t = a;

		a = b;
		b = t;
	}
	pp = &seens[hash((uintptr_t)a, (uintptr_t)b ^ (unsigned int)kind, SITE_BUCKETS)];
	for (s = *pp; s != NULL; s = s->next)
		if (s->a == a && s->b == b && s->kind == kind)
			return false;
	s = malloc(sizeof(*s));
	if (s != NULL) {
		*s = (struct seen){ .next = *pp, .a = a, .b = b, .kind = kind };
		*pp = s;
	}
	return true;
}

static void add_who(struct npu_rt_block *b, const struct npu_rt_race_op *op)
{
	if (op->stream != 0)
		npu_rt_block_add(b, "%s on stream %u of device %d", op->call, op->stream, op->dev);
	else
		npu_rt_block_add(b, "%s on the host", op->call);
}

static const char *verb(const struct npu_rt_race_op *op, bool write)
{
	if (op->kind == NPU_RT_ROP_FREE)
		return "frees";
	if (op->kind == NPU_RT_ROP_ALLOC)
		return "allocates";
	return write ? "writes" : "reads";
}

/* "    <who> <verb> N bytes: dst [..] src [..]:" then its site. */
static void add_op(struct npu_rt_block *b, const char *lead, const struct npu_rt_race_op *op, bool write)
{
	npu_rt_block_add(b, "    %s", lead);
	add_who(b, op);
	npu_rt_block_add(b, " %s %llu bytes", verb(op, write), (unsigned long long)op->size);
	if (op->dst != 0)
		npu_rt_block_add(b, ", dst [0x%lx, +%llu)", (unsigned long)op->dst, (unsigned long long)op->size);
	if (op->src != 0)
		npu_rt_block_add(b, ", src [0x%lx, +%llu)", (unsigned long)op->src, (unsigned long long)op->size);
	npu_rt_block_add(b, ":\n");
	npu_rt_block_site(b, "      ", op->site);
}

static void add_region(struct npu_rt_block *b, uintptr_t lo, uintptr_t hi)
{
	struct region *r = region_of(lo);

	npu_rt_block_add(b, "    bytes [0x%lx, +%llu)", (unsigned long)lo, (unsigned long long)(hi - lo));
	if (r == NULL) {
		npu_rt_block_add(b, " (no allocation of this process is known there)\n");
		return;
	}
	npu_rt_block_add(b, " are %llu bytes into %llu bytes of %s at 0x%lx\n",
			 (unsigned long long)(lo - r->lo), (unsigned long long)(r->hi - r->lo), region_name(r->kind),
			 (unsigned long)r->lo);
	npu_rt_block_add(b, "    allocated by %s:\n", r->call);
	npu_rt_block_site(b, "      ", r->site);
}

struct found_ctx {
	struct npu_rt_race_op *op;	/* the current access; NULL: a free */
	bool write;
	const char *free_call;		/* a free: the call */
	const struct npu_rt_site *free_site;
	int dev;
	uint32_t stream;
};

static void found(void *arg, struct npu_rt_race_op *prev, bool prev_write, uintptr_t lo, uintptr_t hi)
{
	struct found_ctx *f = arg;
	struct npu_rt_block b = { .len = 0 };

	if (f->op == NULL) {	/* a free with unordered queued work */
		if (!first_time(f->free_site, prev->site, 2))
			return;
		npu_rt_block_add(&b, "npu_sim: USE-AFTER-FREE %s frees memory that queued work not ordered before it "
				 "still uses, pid %d\n", f->free_call, (int)getpid());
		npu_rt_block_add(&b, "    %s", f->free_call);
		if (f->stream != 0)
			npu_rt_block_add(&b, " on stream %u of device %d", f->stream, f->dev);
		else
			npu_rt_block_add(&b, " on the host");
		npu_rt_block_add(&b, ":\n");
		npu_rt_block_site(&b, "      ", f->free_site);
		add_op(&b, "queued before it, with no synchronize or event between: ", prev, prev_write);
		add_region(&b, lo, hi);
	} else if (prev->kind == NPU_RT_ROP_FREE) {
		if (!first_time(f->op->site, prev->site, 3))
			return;
		npu_rt_block_add(&b, "npu_sim: USE-AFTER-FREE %s uses memory freed by %s, pid %d\n", f->op->call,
				 prev->call, (int)getpid());
		add_op(&b, "", f->op, f->write);
		add_op(&b, "freed by ", prev, true);
		add_region(&b, lo, hi);
	} else {
		if (!first_time(f->op->site, prev->site, 1))
			return;
		npu_rt_block_add(&b, "npu_sim: RACE %s and %s touch the same bytes with no ordering between them, "
				 "pid %d\n", prev->call, f->op->call, (int)getpid());
		add_op(&b, "", f->op, f->write);
		add_op(&b, "earlier, not ordered before it: ", prev, prev_write);
		add_region(&b, lo, hi);
		npu_rt_block_add(&b, "    no event, notify, value wait or synchronize orders one after the other\n");
	}
	npu_rt_block_emit(&b, NULL);
}

/* ---- accesses ------------------------------------------------------------ */

static struct npu_rt_race_op *op_new(int dev, uint32_t stream, uint32_t agent, uint32_t clock)
{
	struct npu_rt_race_op *op = calloc(1, sizeof(*op));

	if (op == NULL)
		return NULL;
	op->refs = 1;
	op->agent = agent;
	op->clock = clock;
	op->dev = dev;
	op->stream = stream;
	op->call = npu_rt_check_call();
	op->site = site_now();
	return op;
}

/* A small write may set a flag a value wait polls: what a later wait of
 * that address joins. */
static void flag_written(const struct npu_rt_vc *v, uintptr_t lo, uintptr_t hi)
{
	struct rsync *y;

	if (hi - lo > FLAG_SCAN)
		return;
	for (uintptr_t a = lo & ~(uintptr_t)7; a < hi; a += 8)
		if ((y = sync_get(SYNC_VALUE, -1, a, false)) != NULL)
			npu_rt_vc_join(&y->v, v);
}

static void touch(struct npu_rt_race_op *op, const struct npu_rt_vc *v, uintptr_t lo, uintptr_t hi, bool write)
{
	struct found_ctx f = { .op = op, .write = write };

	npu_rt_shadow_access(op, v, lo, hi, write, found, &f);
	if (write && !op->atomic)
		flag_written(v, lo, hi);
}

/* height rows of width bytes, pitch apart. */
static void touch_2d(struct npu_rt_race_op *op, const struct npu_rt_vc *v, uintptr_t p, uint64_t pitch,
		     uint64_t width, uint64_t height, bool write)
{
	if (width == 0 || height == 0)
		return;
	if (pitch == width || height == 1 || height > ROWS_MAX) {
		touch(op, v, p, p + pitch * (height - 1) + width, write);
		return;
	}
	for (uint64_t r = 0; r < height; r++)
		touch(op, v, p + r * pitch, p + r * pitch + width, write);
}

static void copy_sides(struct npu_rt_race_op *op, const struct npu_rt_vc *v, uint32_t dir, uintptr_t dst,
		       uint64_t dpitch, uintptr_t src, uint64_t spitch, uint64_t width, uint64_t height)
{
	bool src_dev = dir != NPU_SIM_COPY_H2D, dst_dev = dir != NPU_SIM_COPY_D2H;

	op->dst = dst;
	op->src = src;
	op->size = width * height;
	op->read_src = true;
	op->write_dst = true;
	if (src_dev || host_tracked(src))
		touch_2d(op, v, src, spitch, width, height, false);
	if (dst_dev || host_tracked(dst))
		touch_2d(op, v, dst, dpitch, width, height, true);
}

/* ---- hooks -------------------------------------------------------------- */

void npu_rt_races_submit_(int dev, uint32_t kid, const struct npu_sim_stream_submit *req)
{
	struct npu_rt_race_op *op = NULL;
	struct rstream *s;
	struct rsync *y;
	uint32_t clock;

	pthread_mutex_lock(&lock);
	s = stream_get(dev, kid);
	if (s == NULL)
		goto out;
	npu_rt_vc_join(&s->v, ctx_vc());
	clock = npu_rt_vc_get(&s->v, s->agent) + 1;
	npu_rt_vc_set(&s->v, s->agent, clock);
	ctx_tick();
	switch (req->op) {
	case NPU_SIM_OP_COPY:
	case NPU_SIM_OP_SET:
	case NPU_SIM_OP_REDUCE:
	case NPU_SIM_OP_PREFETCH:
	case NPU_SIM_OP_CMO:
	case NPU_SIM_OP_VALUE_WRITE:
	case NPU_SIM_OP_VALUE_WAIT:
		op = op_new(dev, kid, s->agent, clock);
		if (op == NULL)
			goto out;
		break;
	default:
		break;
	}
	switch (req->op) {
	case NPU_SIM_OP_COPY:
		copy_sides(op, &s->v, req->dir, req->dst, req->dpitch, req->src, req->spitch, req->width,
			   req->height);
		break;
	case NPU_SIM_OP_SET:
		op->dst = req->dst;
		op->size = req->width * req->height;
		touch_2d(op, &s->v, req->dst, req->dpitch, req->width, req->height, true);
		break;
	case NPU_SIM_OP_REDUCE:	/* dst = dst <op> src */
		op->dst = req->dst;
		op->src = req->src;
		op->size = req->width;
		touch(op, &s->v, req->src, req->src + req->width, false);
		touch(op, &s->v, req->dst, req->dst + req->width, true);
		break;
	case NPU_SIM_OP_PREFETCH:	/* moves pages, not values */
	case NPU_SIM_OP_CMO:
		op->dst = req->dst;
		op->size = req->width;
		touch(op, &s->v, req->dst, req->dst + req->width, false);
		break;
	case NPU_SIM_OP_VALUE_WRITE:
	case NPU_SIM_OP_VALUE_WAIT:
		op->atomic = true;
		op->dst = req->dst;
		op->size = sizeof(uint64_t);
		touch(op, &s->v, req->dst, req->dst + sizeof(uint64_t), req->op == NPU_SIM_OP_VALUE_WRITE);
		y = sync_get(SYNC_VALUE, -1, req->dst, true);
		if (y != NULL && req->op == NPU_SIM_OP_VALUE_WRITE)
			npu_rt_vc_join(&y->v, &s->v);
		else if (y != NULL)
			npu_rt_vc_join(&s->v, &y->v);
		break;
	case NPU_SIM_OP_RECORD:	/* a wait orders after the latest record */
		y = sync_get(SYNC_EVENT, dev, req->event, true);
		if (y != NULL)
			npu_rt_vc_copy(&y->v, &s->v);
		break;
	case NPU_SIM_OP_WAIT:
		y = sync_get(SYNC_EVENT, dev, req->event, false);
		if (y != NULL)
			npu_rt_vc_join(&s->v, &y->v);
		break;
	case NPU_SIM_OP_RESET:	/* not recorded any more: a wait waits for nothing */
		y = sync_get(SYNC_EVENT, dev, req->event, false);
		if (y != NULL)
			npu_rt_vc_clear(&y->v);
		break;
	case NPU_SIM_OP_NOTIFY_RECORD:
		y = sync_get(SYNC_NOTIFY, dev, req->event, true);
		if (y != NULL)
			npu_rt_vc_join(&y->v, &s->v);
		break;
	case NPU_SIM_OP_NOTIFY_WAIT:
		y = sync_get(SYNC_NOTIFY, dev, req->event, false);
		if (y != NULL)
			npu_rt_vc_join(&s->v, &y->v);
		break;
	case NPU_SIM_OP_CALLBACK:
		y = sync_get(SYNC_CALLBACK, -1, req->operand, true);
		if (y != NULL) {
			npu_rt_vc_copy(&y->v, &s->v);
			y->agent = s->agent;
			y->clock = clock;
			y->block = (req->flags & (NPU_SIM_CB_BLOCK | NPU_SIM_CB_HOSTFUNC)) != 0;
		}
		break;
	default:
		break;
	}
out:
	npu_rt_race_op_put(op);
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_synced_(int dev, uint32_t kid)
{
	pthread_mutex_lock(&lock);
	if (kid != 0) {
		struct rstream *s = *stream_slot(dev, kid);

		if (s != NULL)
			npu_rt_vc_join(ctx_vc(), &s->v);
	} else {
		for (unsigned int i = 0; i < BUCKETS; i++)
			for (struct rstream *s = streams[i]; s != NULL; s = s->next)
				if (s->dev == dev)
					npu_rt_vc_join(ctx_vc(), &s->v);
	}
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_event_synced_(int dev, uint32_t event)
{
	struct rsync *y;

	pthread_mutex_lock(&lock);
	y = sync_get(SYNC_EVENT, dev, event, false);
	if (y != NULL)
		npu_rt_vc_join(ctx_vc(), &y->v);
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_destroyed_(int dev, bool event, uint32_t id)
{
	pthread_mutex_lock(&lock);
	if (event) {
		struct rsync **pp = sync_slot(SYNC_EVENT, dev, id);

		if (*pp != NULL)
			sync_drop(pp);
	} else {
		struct rstream **pp = stream_slot(dev, id);

		if (*pp != NULL)
			stream_drop(pp);
	}
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_host_copy_(const struct npu_rt_copy *c, uint32_t dir)
{
	struct npu_rt_race_op *op;

	pthread_mutex_lock(&lock);
	op = op_new(-1, 0, ctx_agent(), ctx_clock());
	if (op != NULL) {
		copy_sides(op, ctx_vc(), dir, c->dst, c->dpitch, c->src, c->spitch, c->width, c->height);
		npu_rt_race_op_put(op);
	}
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_host_access_(uintptr_t p, size_t len, bool device, bool write)
{
	struct npu_rt_race_op *op;

	pthread_mutex_lock(&lock);
	if ((device || host_tracked(p)) && (op = op_new(-1, 0, ctx_agent(), ctx_clock())) != NULL) {
		op->dst = p;
		op->size = len;
		touch(op, ctx_vc(), p, p + len, write);
		npu_rt_race_op_put(op);
	}
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_region_add_(uintptr_t p, uint64_t size, enum npu_rt_races_region kind, int dev)
{
	struct region *r, *old;
	void **node;

	if (size == 0)
		return;
	pthread_mutex_lock(&lock);
	for (;;) {	/* overlapped ones went without our seeing it */
		struct region key = { .lo = p, .hi = p + size };

		node = tfind(&key, &regions, region_cmp);
		if (node == NULL)
			break;
		old = *node;
		tdelete(old, &regions, region_cmp);
		free(old);
	}
	r = malloc(sizeof(*r));
	if (r != NULL) {
		*r = (struct region){ .lo = p, .hi = p + size, .kind = (int)kind, .dev = dev,
				      .call = npu_rt_check_call(), .site = site_now() };
		node = tsearch(r, &regions, region_cmp);
		if (node == NULL || *node != r)
			free(r);
	}
	if (kind != NPU_RT_RR_POOL)	/* fresh memory: nothing queued on it */
		npu_rt_shadow_erase(p, p + size);
	pthread_mutex_unlock(&lock);
}

/* Region r goes: with f, unordered work on it is reported first. */
static void region_drop(struct region *r, struct found_ctx *f)
{
	if (f != NULL)
		npu_rt_shadow_scan(ctx_vc(), r->lo, r->hi, found, f);
	npu_rt_shadow_erase(r->lo, r->hi);
	tdelete(r, &regions, region_cmp);
	free(r);
}

void npu_rt_races_region_free_(uintptr_t p)
{
	struct found_ctx f = { .op = NULL };
	struct region *r;

	pthread_mutex_lock(&lock);
	r = region_of(p);
	if (r != NULL && r->lo == p) {
		f.free_call = npu_rt_check_call();
		f.free_site = site_now();
		region_drop(r, &f);
	}
	pthread_mutex_unlock(&lock);
}

/* twalk(3) cannot delete: collect the device's regions first. */
static struct region **closing;
static size_t nclosing, capclosing;
static int closing_dev;

static void collect(const void *node, VISIT v, int depth)
{
	struct region *r = *(struct region *const *)node;

	(void)depth;
	if ((v != postorder && v != leaf) || r->dev != closing_dev)
		return;
	if (nclosing == capclosing) {
		size_t cap = capclosing ? capclosing * 2 : 64;
		struct region **n = realloc(closing, cap * sizeof(*n));

		if (n == NULL)
			return;
		closing = n;
		capclosing = cap;
	}
	closing[nclosing++] = r;
}

void npu_rt_races_pool_(int dev, uint32_t kid, uintptr_t p, uint64_t size, bool alloc)
{
	struct npu_rt_race_op *op;
	struct rstream *s;
	uint32_t clock;

	if (alloc && size != 0)
		npu_rt_races_region_add_(p, size, NPU_RT_RR_POOL, dev);
	pthread_mutex_lock(&lock);
	if (!alloc && size == 0) {	/* a free names its block's start */
		struct region *r = region_of(p);

		if (r != NULL && r->lo == p && r->kind == NPU_RT_RR_POOL)
			size = r->hi - r->lo;
	}
	if (size == 0)
		goto out;
	s = stream_get(dev, kid);
	if (s == NULL)
		goto out;
	npu_rt_vc_join(&s->v, ctx_vc());
	clock = npu_rt_vc_get(&s->v, s->agent) + 1;
	npu_rt_vc_set(&s->v, s->agent, clock);
	ctx_tick();
	op = op_new(dev, kid, s->agent, clock);
	if (op == NULL)
		goto out;
	op->kind = alloc ? NPU_RT_ROP_ALLOC : NPU_RT_ROP_FREE;
	op->dst = p;
	op->size = size;
	if (!alloc) {
		struct found_ctx f = { .op = NULL, .free_call = op->call, .free_site = op->site, .dev = dev,
				       .stream = kid };

		npu_rt_shadow_scan(&s->v, p, p + size, found, &f);
	}
	npu_rt_shadow_access(op, &s->v, p, p + size, true, NULL, NULL);
	npu_rt_race_op_put(op);
out:
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_callback_run_(uint64_t cookie)
{
	struct rsync **pp;

	pthread_mutex_lock(&lock);
	pp = sync_slot(SYNC_CALLBACK, -1, cookie);
	if (*pp != NULL) {
		struct rsync *y = *pp;

		if (y->block) {	/* runs as its stream, at its place */
			cb.on = true;
			cb.agent = y->agent;
			cb.clock = y->clock;
			npu_rt_vc_copy(&cb.v, &y->v);
		} else {
			npu_rt_vc_join(ctx_vc(), &y->v);
		}
		sync_drop(pp);
	}
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_callback_done_(void)
{
	if (!cb.on)
		return;
	pthread_mutex_lock(&lock);
	cb.on = false;
	npu_rt_vc_join(ctx_vc(), &cb.v);	/* the thread that ran it knows it ran */
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_device_closed_(int dev)
{
	pthread_mutex_lock(&lock);
	closing_dev = dev;
	nclosing = 0;
	twalk(regions, collect);
	for (size_t i = 0; i < nclosing; i++)	/* its streams are done: no report */
		region_drop(closing[i], NULL);
	for (unsigned int i = 0; i < BUCKETS; i++) {
		for (struct rstream **pp = &streams[i]; *pp != NULL;) {
			if ((*pp)->dev == dev)
				stream_drop(pp);
			else
				pp = &(*pp)->next;
		}
		for (struct rsync **pp = &syncs[i]; *pp != NULL;) {
			if ((*pp)->dev == dev && (*pp)->type != SYNC_VALUE && (*pp)->type != SYNC_CALLBACK)
				sync_drop(pp);
			else
				pp = &(*pp)->next;
		}
	}
	pthread_mutex_unlock(&lock);
}

/* Fork: the lock is held across it; the child starts over (its streams,
 * events and device memory are its own, not the parent's). */
void npu_rt_races_atfork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

void npu_rt_races_atfork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

void npu_rt_races_atfork_child(void)
{
	pthread_mutex_init(&lock, NULL);
	for (unsigned int i = 0; i < BUCKETS; i++) {
		while (streams[i] != NULL) {
			struct rstream *s = streams[i];

			streams[i] = s->next;
			npu_rt_vc_free(&s->v);
			free(s);
		}
		while (syncs[i] != NULL)
			sync_drop(&syncs[i]);
	}
	tdestroy(regions, free);
	regions = NULL;
	npu_rt_shadow_erase(0, UINTPTR_MAX);
	nagents = 0;
	nfree = 0;
	npu_rt_vc_clear(&host_vc);
	cb.on = false;
}

