/*
 * Built models (aclmdlRIBuildBegin, aclmdlRIBindStream, aclmdlRIUnbindStream,
 * aclmdlRIEndTask, aclmdlRIBuildEnd), the stream tasks of model streams
 * (aclrtActiveStream, aclrtSwitchStream), and the compilation of any
 * graph with control tasks into the driver's program.
 *
 * As the runtime: a model's streams are persistent streams bound to it;
 * the work queued on a bound stream is recorded into the model (not run)
 * until aclmdlRIBuildEnd loads it; a replay starts the head streams and a
 * stream runs when a task of another activates it.  The driver runs a
 * replay as one program: one segment per model stream in binding order,
 * the head segments activated first, each segment its stream's tasks in
 * order (include/uapi/misc/npu_sim.h "Graph control flow").  The segments
 * run one after another, which is one order the device could run them
 * in: a program holds no task that waits for another stream.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "check.h"
#include "err_msg.h"
#include "model_ri.h"
#include "model_ri_flow.h"

static atomic_int n_bound;		/* model streams bound, all graphs */
static struct npu_rt_cond *conds;	/* every condition handle (ri_lock) */

static aclError null_param(const char *what)
{
	npu_rt_msg_detail("%s is NULL", what);
	return ACL_ERROR_INVALID_PARAM;
}

static aclError not_graph(const void *h)
{
	npu_rt_msg_detail("modelRI %p is not a live model runtime instance of this process", h);
	return ACL_ERROR_RT_PARAM_INVALID;
}

/* ---- flow state of a graph ---------------------------------------------- */

struct npu_rt_cond *npu_rt_cond_find(const void *handle)
{
	for (struct npu_rt_cond *c = conds; c != NULL; c = c->next)
		if (c == handle)
			return c;
	return NULL;
}

void npu_rt_cond_link(struct npu_rt_cond *c)
{
	c->next = conds;
	conds = c;
}

/* No lock held: unlink and free condition handle c (its graph is gone). */
static void cond_release(struct npu_rt_cond *c)
{
	npu_rt_ri_lock();
	for (struct npu_rt_cond **p = &conds; *p != NULL; p = &(*p)->next) {
		if (*p == c) {
			*p = c->next;
			break;
		}
	}
	npu_rt_ri_unlock();
	(void)aclrtFree(c->ptr);
	free(c->subs);
	free(c);
}

void npu_rt_ri_run_dtors(struct npu_rt_ri_dtor *dtors)
{
	/* Registration order: the list is newest first. */
	while (dtors != NULL) {
		struct npu_rt_ri_dtor *d = dtors, *prev = NULL;

		while (d->next != NULL) {
			prev = d;
			d = d->next;
		}
		if (prev != NULL)
			prev->next = NULL;
		else
			dtors = NULL;
		d->fn(d->data);
		free(d);
	}
}

/*
 * No lock held: destroy sub graph h of a destroyed parent, as
 * aclmdlRIDestroy does (its driver graph, then its destroy callbacks).
 */
static void destroy_sub(void *h)
{
	struct npu_rt_ri_dtor *dtors = NULL;
	struct npu_rt_graph *g;

	npu_rt_devices_read_lock();
	npu_rt_ri_lock();
	g = npu_rt_ri_find(h);
	if (g != NULL && g->flow != NULL && g->flow->sub && !g->capturing) {
		struct npu_sim_graph_destroy d = { .id = g->kgraph };

		if (g->kgraph != 0 && npu_rt_device_epoch_locked(g->dev) == g->epoch)
			(void)npu_rt_ioctl(npu_rt_device_fd_locked(g->dev), NPU_SIM_IOCTL_GRAPH_DESTROY, &d);
		if (g->kgraph != 0)
			npu_rt_check_destroyed(NPU_RT_CK_GRAPH, (uintptr_t)g);
		dtors = g->dtors;
		g->dtors = NULL;
		npu_rt_ri_free(g);
	}
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	npu_rt_ri_run_dtors(dtors);
}

/* A destroyed graph's flow state: its sub graphs, handles, parameters. */
static void flow_release(void *data)
{
	struct npu_rt_flow *f = data;

	for (uint32_t i = 0; i < f->nsubs; i++)
		destroy_sub(f->subs[i]);
	for (uint32_t i = 0; i < f->nconds; i++)
		cond_release(f->conds[i]);
	for (uint32_t i = 0; i < f->nparams; i++) {
		free(f->params[i]->labels);
		free(f->params[i]);
	}
	npu_rt_ri_lock();
	if (f->built)
		for (uint32_t i = 0; i < f->nstreams; i++)
			if (f->streams[i].bound)
				atomic_fetch_sub(&n_bound, 1);
	npu_rt_ri_unlock();
	free(f->subs);
	free(f->conds);
	free(f->params);
	free(f->streams);
	free(f);
}

struct npu_rt_flow *npu_rt_flow_of(struct npu_rt_graph *g)
{
	struct npu_rt_ri_dtor *d;

	if (g->flow != NULL)
		return g->flow;
	g->flow = calloc(1, sizeof(*g->flow));
	d = calloc(1, sizeof(*d));
	if (g->flow == NULL || d == NULL) {
		free(g->flow);
		free(d);
		g->flow = NULL;
		return NULL;
	}
	/* Run by aclmdlRIDestroy after its locks are dropped. */
	d->fn = flow_release;
	d->data = g->flow;
	d->next = g->dtors;
	g->dtors = d;
	return g->flow;
}

/* Append p to *a (*n elements): 0 or -ENOMEM. */
static int push(void ***a, uint32_t *n, void *p)
{
	void **na = realloc(*a, (*n + 1) * sizeof(**a));

	if (na == NULL)
		return -ENOMEM;
	na[(*n)++] = p;
	*a = na;
	return 0;
}

int npu_rt_flow_add_cond(struct npu_rt_flow *f, struct npu_rt_cond *c)
{
	return push((void ***)&f->conds, &f->nconds, c);
}

int npu_rt_flow_add_sub(struct npu_rt_flow *f, struct npu_rt_graph *sub)
{
	return push((void ***)&f->subs, &f->nsubs, sub);
}

int npu_rt_flow_add_task(struct npu_rt_graph *g, uint32_t kid, void *handle, uint32_t op,
			 struct npu_rt_flow_task *p)
{
	struct npu_rt_flow *f = npu_rt_flow_of(g);
	struct npu_rt_ri_task *t = calloc(1, sizeof(*t));
	struct npu_rt_ri_task **nt;

	if (f == NULL || t == NULL || (p != NULL && push((void ***)&f->params, &f->nparams, p) != 0)) {
		free(t);
		if (p != NULL)
			free(p->labels);
		free(p);
		return -ENOMEM;
	}
	nt = realloc(g->tasks, (g->ntasks + 1) * sizeof(*nt));
	if (nt == NULL) {
		free(t);
		return -ENOMEM;	/* p stays with f */
	}
	g->tasks = nt;
	g->cap_tasks = g->ntasks + 1;
	t->g = g;
	t->seq = g->ntasks;
	t->kid = kid;
	t->stream = handle;
	t->req.op = op;
	t->data = p;
	g->tasks[g->ntasks++] = t;
	return 0;
}

struct npu_rt_graph *npu_rt_flow_bound(int dev, uint32_t kid, struct npu_rt_flow_stream **st)
{
	if (atomic_load(&n_bound) == 0)
		return NULL;
	for (struct npu_rt_graph *g = npu_rt_ri_next(NULL); g != NULL; g = npu_rt_ri_next(g)) {
		if (g->flow == NULL || !g->flow->built || g->dev != dev ||
		    g->epoch != npu_rt_device_epoch_locked(dev))
			continue;
		for (uint32_t i = 0; i < g->flow->nstreams; i++) {
			if (g->flow->streams[i].bound && g->flow->streams[i].kid == kid) {
				if (st != NULL)
					*st = &g->flow->streams[i];
				return g;
			}
		}
	}
	return NULL;
}

int npu_rt_flow_unloaded(const struct npu_rt_graph *g)
{
	return g->flow != NULL && g->flow->built && !g->flow->loaded;
}

/* Memory work the driver's programs run. */
static int body_op(uint32_t op)
{
	return op == NPU_SIM_OP_COPY || op == NPU_SIM_OP_SET || op == NPU_SIM_OP_VALUE_WRITE ||
	       op == NPU_SIM_OP_REDUCE || op == NPU_SIM_OP_CMO;
}

int npu_rt_build_submit(const struct npu_rt_ref *ref, struct npu_sim_stream_submit *req, int cb_kind,
			aclError *err)
{
	struct npu_rt_flow_stream *st;
	struct npu_rt_graph *g;

	(void)cb_kind;
	if (atomic_load(&n_bound) == 0)
		return 0;
	npu_rt_ri_lock();
	g = npu_rt_flow_bound(ref->dev, ref->kid, &st);
	if (g == NULL) {
		npu_rt_ri_unlock();
		return 0;
	}
	if (g->flow->loaded) {
		npu_rt_ri_unlock();
		npu_rt_msg_detail("the stream is bound to a model whose build has ended (aclmdlRIBuildEnd): "
				  "unbind it to queue work on it");
		*err = ACL_ERROR_RT_STREAM_MODEL;
		return 1;
	}
	if (!body_op(req->op)) {
		npu_rt_ri_unlock();
		npu_rt_msg_detail("npu_sim's model programs run memory tasks only (copies, sets, value writes, "
				  "reduces, cache operations), not this task on a model stream");
		*err = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
		return 1;
	}
	if (npu_rt_ri_add_task(g, ref->kid, st->handle, req) == NULL) {
		npu_rt_ri_unlock();
		*err = ACL_ERROR_RT_MEMORY_ALLOCATION;
		return 1;
	}
	npu_rt_ri_unlock();
	*err = ACL_SUCCESS;
	return 1;
}

/* ---- build calls ----------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag)
{
	struct npu_rt_graph *g;
	uint64_t caps = 0;
	int dev;
	aclError err;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (flag != 0) {
		npu_rt_msg_detail("flag %u is reserved and must be 0", flag);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	npu_rt_capture_set_recorder(npu_rt_build_submit);
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	if (npu_rt_get_param(npu_rt_device_fd_locked(dev), NPU_SIM_PARAM_CAPABILITIES, &caps) != 0 ||
	    !(caps & NPU_SIM_CAP_GRAPH_FLOW)) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the npu_sim module has no graph control flow (NPU_SIM_CAP_GRAPH_FLOW)");
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	npu_rt_ri_lock();
	g = npu_rt_ri_new(dev, npu_rt_device_epoch_locked(dev), npu_rt_current_ctx_id_locked(dev));
	if (g == NULL || npu_rt_flow_of(g) == NULL) {
		if (g != NULL)
			npu_rt_ri_free(g);
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	g->flow->built = 1;
	*modelRI = g;
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

static void leave(void)
{
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
}

/* Table lock and ri_lock held on success: the live built graph modelRI is
 * and stream's ref; otherwise both released and the code returned (stream
 * NULL: 107000, as the runtime's model calls answer). */
static aclError enter_model_stream(aclmdlRI modelRI, aclrtStream stream, struct npu_rt_graph **gp,
				   struct npu_rt_ref *ref)
{
	struct npu_rt_graph *g;
	aclError err;

	if (stream == NULL) {
		npu_rt_msg_detail("stream is NULL (the default stream is never a model's)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL || g->epoch != npu_rt_device_epoch_locked(g->dev)) {
		leave();
		return not_graph(modelRI);
	}
	if (g->dev != ref->dev) {
		leave();
		npu_rt_msg_detail("the stream is of device %d, the model of device %d", ref->dev, g->dev);
		return ACL_ERROR_RT_STREAM_CONTEXT;
	}
	*gp = g;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag)
{
	struct npu_sim_stream_ctl q = { .op = NPU_SIM_STREAM_CTL_QUERY };
	struct npu_rt_flow_stream *ns;
	struct npu_rt_graph *g, *other;
	struct npu_rt_ref ref;
	struct npu_rt_flow *f;
	aclError err;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT) {
		npu_rt_msg_detail("flag 0x%x is neither ACL_MODEL_STREAM_FLAG_HEAD nor ACL_MODEL_STREAM_FLAG_DEFAULT",
				  flag);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = enter_model_stream(modelRI, stream, &g, &ref);
	if (err != ACL_SUCCESS)
		return err;
	f = g->flow;
	if (f == NULL || !f->built || f->loaded) {
		leave();
		npu_rt_msg_detail("the model runtime instance is not being built (aclmdlRIBuildBegin)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	q.id = ref.kid;
	if (npu_rt_ioctl(ref.fd, NPU_SIM_IOCTL_STREAM_CTL, &q) != 0 || !(q.flags & NPU_SIM_STREAM_PERSISTENT)) {
		leave();
		npu_rt_msg_detail("only a stream created with ACL_STREAM_PERSISTENT can be bound to a model");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	other = npu_rt_flow_bound(ref.dev, ref.kid, NULL);
	if (other != NULL || npu_rt_ri_capturing(ref.dev, ref.kid, NULL) != NULL) {
		leave();
		npu_rt_msg_detail("the stream is bound to a model already, or capturing");
		return ACL_ERROR_RT_STREAM_MODEL;
	}
	ns = realloc(f->streams, (f->nstreams + 1) * sizeof(*ns));
	if (ns == NULL || npu_rt_ri_add_stream(g, ref.kid, stream) != 0) {
		if (ns != NULL)
			f->streams = ns;
		leave();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	g->streams[g->nstreams - 1].active = 0;	/* bound, not capturing */
	f->streams = ns;
	f->streams[f->nstreams++] = (struct npu_rt_flow_stream){
		.kid = ref.kid, .handle = stream, .head = flag == ACL_MODEL_STREAM_FLAG_HEAD, .bound = 1 };
	atomic_fetch_add(&n_bound, 1);
	leave();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream)
{
	struct npu_rt_flow_stream *st = NULL;
	struct npu_rt_graph *g;
	struct npu_rt_ref ref;
	aclError err;

	if (modelRI == NULL)
		return null_param("modelRI");
	err = enter_model_stream(modelRI, stream, &g, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (npu_rt_flow_bound(ref.dev, ref.kid, &st) != g) {
		leave();
		npu_rt_msg_detail("the stream is not bound to this model");
		return ACL_ERROR_RT_STREAM_MODEL;
	}
	st->bound = 0;		/* its recorded tasks stay in the model */
	atomic_fetch_sub(&n_bound, 1);
	leave();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream)
{
	struct npu_rt_flow_stream *st = NULL;
	struct npu_rt_graph *g;
	struct npu_rt_ref ref;
	aclError err;

	if (modelRI == NULL)
		return null_param("modelRI");
	err = enter_model_stream(modelRI, stream, &g, &ref);
	if (err != ACL_SUCCESS)
		return err;
	if (g->flow != NULL && g->flow->ended) {
		leave();
		npu_rt_msg_detail("the model has its end task already (one per model)");
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	if (npu_rt_flow_bound(ref.dev, ref.kid, &st) != g) {
		leave();
		npu_rt_msg_detail("the stream is not bound to this model");
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	if (g->flow->loaded) {
		leave();
		npu_rt_msg_detail("the model's build has ended (aclmdlRIBuildEnd)");
		return ACL_ERROR_RT_STREAM_MODEL;
	}
	if (npu_rt_flow_add_task(g, ref.kid, stream, NPU_RT_FLOW_END, NULL) != 0) {
		leave();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	g->flow->ended = 1;
	leave();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve)
{
	struct npu_sim_graph_create gc = { 0 };
	struct npu_sim_stream_submit *ops = NULL;
	struct npu_rt_graph *g;
	uint32_t n = 0, flags = 0;
	aclError err;
	int rc;

	if (modelRI == NULL)
		return null_param("modelRI");
	if (reserve != NULL) {
		npu_rt_msg_detail("reserve is reserved and must be NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	npu_rt_devices_read_lock();
	npu_rt_ri_lock();
	g = npu_rt_ri_find(modelRI);
	if (g == NULL || g->epoch != npu_rt_device_epoch_locked(g->dev)) {
		leave();
		return not_graph(modelRI);
	}
	if (g->flow == NULL || !g->flow->built || g->flow->loaded) {
		leave();
		npu_rt_msg_detail("the model runtime instance is not being built (aclmdlRIBuildBegin)");
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_flow_compile(g, &ops, &n, &flags);
	if (err == ACL_SUCCESS) {
		gc.ops = (uintptr_t)ops;
		gc.count = n;
		gc.flags = flags;
		rc = npu_rt_ioctl(npu_rt_device_fd_locked(g->dev), NPU_SIM_IOCTL_GRAPH_CREATE, &gc);
		if (rc != 0) {
			npu_rt_msg_detail("the driver refused the model's program (errno %d)", -rc);
			err = rc == -ENOMEM || rc == -ENOSPC ? ACL_ERROR_RT_MEMORY_ALLOCATION :
			      npu_rt_errno_to_acl(-rc);
		}
	}
	free(ops);
	if (err == ACL_SUCCESS) {
		g->kgraph = gc.id;
		g->flow->loaded = 1;
		npu_rt_check_created(NPU_RT_CK_GRAPH, g->dev, (uintptr_t)g, 0);
	}
	leave();
	return err;
}

/* ---- stream tasks of model streams ------------------------------------------ */

/*
 * Table lock and ri_lock held on success: stream's and other's refs and
 * the model stream is bound to (other bound to the same one); otherwise
 * both released and the runtime's code returned.
 */
static aclError enter_pair(aclrtStream stream, aclrtStream other, struct npu_rt_ref *ref,
			   struct npu_rt_ref *oref, struct npu_rt_graph **gp)
{
	struct npu_rt_graph *g, *og;
	aclError err;

	err = npu_rt_obj_enter(other, NPU_RT_OBJ_STREAM, oref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	err = npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	g = npu_rt_flow_bound(ref->dev, ref->kid, NULL);
	og = npu_rt_flow_bound(oref->dev, oref->kid, NULL);
	if (g == NULL || og == NULL) {
		leave();
		npu_rt_msg_detail("%s is not bound to a model (aclmdlRIBindStream)", g == NULL ? "stream" :
				  "the stream to activate");
		return ACL_ERROR_RT_STREAM_MODEL;
	}
	err = npu_rt_stream_ctx_check_locked(ref);
	if (err != ACL_SUCCESS) {
		npu_rt_ri_unlock();
		return err;
	}
	if (og != g) {
		leave();
		npu_rt_msg_detail("the two streams are bound to different models");
		return ACL_ERROR_RT_STREAM_MODEL;
	}
	if (g->flow->loaded) {
		leave();
		npu_rt_msg_detail("the model's build has ended (aclmdlRIBuildEnd)");
		return ACL_ERROR_RT_STREAM_MODEL;
	}
	*gp = g;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream)
{
	struct npu_rt_ref ref, aref;
	struct npu_rt_flow_task *p;
	struct npu_rt_graph *g;
	aclError err;

	if (activeStream == NULL || stream == NULL) {
		npu_rt_msg_detail("%s is NULL", activeStream == NULL ? "activeStream" : "stream");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = enter_pair(stream, activeStream, &ref, &aref, &g);
	if (err != ACL_SUCCESS)
		return err;
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		leave();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	p->target = aref.kid;
	err = npu_rt_flow_add_task(g, ref.kid, stream, NPU_RT_FLOW_ACTIVE, p) != 0 ?
	      ACL_ERROR_RT_MEMORY_ALLOCATION : ACL_SUCCESS;
	leave();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue,
					       aclrtCompareDataType dataType, aclrtStream trueStream,
					       aclrtStream falseStream, aclrtStream stream)
{
	struct npu_rt_ref ref, tref;
	struct npu_rt_flow_task *p;
	struct npu_rt_graph *g;
	uint32_t width;
	aclError err;

	if (leftValue == NULL || rightValue == NULL || trueStream == NULL || stream == NULL)
		return null_param(leftValue == NULL ? "leftValue" : rightValue == NULL ? "rightValue" :
				  trueStream == NULL ? "trueStream" : "stream");
	if (falseStream != NULL) {
		npu_rt_msg_detail("falseStream is reserved and must be NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if ((int)cond < ACL_RT_EQUAL || (int)cond > ACL_RT_LESS_OR_EQUAL ||
	    (dataType != ACL_RT_SWITCH_INT32 && dataType != ACL_RT_SWITCH_INT64)) {
		npu_rt_msg_detail("cond %d or dataType %d is outside its enum", (int)cond, (int)dataType);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	width = dataType == ACL_RT_SWITCH_INT64 ? 8 : 4;
	if (((uintptr_t)leftValue | (uintptr_t)rightValue) & (width - 1)) {
		npu_rt_msg_detail("leftValue and rightValue must be aligned to their %u-byte type", width);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = enter_pair(stream, trueStream, &ref, &tref, &g);
	if (err != ACL_SUCCESS)
		return err;
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		leave();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	p->value = (uintptr_t)leftValue;
	p->right = (uintptr_t)rightValue;
	p->cond = (uint32_t)cond;
	p->width = width;
	p->target = tref.kid;
	err = npu_rt_flow_add_task(g, ref.kid, stream, NPU_RT_FLOW_SWITCH_STREAM, p) != 0 ?
	      ACL_ERROR_RT_MEMORY_ALLOCATION : ACL_SUCCESS;
	leave();
	return err;
}

/* ---- compilation ------------------------------------------------------------ */

struct prog {
	struct npu_sim_stream_submit *e;
	uint32_t n, cap;
	int nomem;
};

/* Append an entry: its index (garbage after nomem is set). */
static uint32_t emit(struct prog *p, const struct npu_sim_stream_submit *e)
{
	if (p->n == p->cap) {
		uint32_t ncap = p->cap ? p->cap * 2 : 64;
		struct npu_sim_stream_submit *ne = realloc(p->e, ncap * sizeof(*ne));

		if (ne == NULL) {
			p->nomem = 1;
			return p->n;
		}
		p->e = ne;
		p->cap = ncap;
	}
	p->e[p->n] = *e;
	return p->n++;
}

static uint32_t emit_jump(struct prog *p, uint32_t flags, uint32_t target)
{
	struct npu_sim_stream_submit e = { .op = NPU_SIM_OP_JUMP, .flags = flags, .height = target };

	return emit(p, &e);
}

/* Fix the target of entry i (when it exists). */
static void target(struct prog *p, uint32_t i, uint32_t to)
{
	if (!p->nomem && i < p->n)
		p->e[i].height = to;
}

/* aclrtCondition of its negation. */
static uint32_t negate(uint32_t cond)
{
	static const uint32_t neg[] = { NPU_SIM_FLOW_NE, NPU_SIM_FLOW_EQ, NPU_SIM_FLOW_LE,
					NPU_SIM_FLOW_LT, NPU_SIM_FLOW_GE, NPU_SIM_FLOW_GT };

	return neg[cond];
}

static int has_flow(const struct npu_rt_graph *g)
{
	for (uint32_t i = 0; i < g->ntasks; i++)
		if (g->tasks[i]->req.op >= NPU_RT_FLOW_LABEL)
			return 1;
	return 0;
}

/* Prologue: the default values of the condition handles of g and its subs. */
static void emit_defaults(struct prog *p, const struct npu_rt_graph *g, int depth)
{
	if (g->flow == NULL || depth > 64)
		return;
	for (uint32_t i = 0; i < g->flow->nconds; i++) {
		const struct npu_rt_cond *c = g->flow->conds[i];
		struct npu_sim_stream_submit e = { .op = NPU_SIM_OP_VALUE_WRITE, .dst = (uintptr_t)c->ptr,
						   .width = sizeof(uint64_t), .operand = c->def };

		if (c->flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT)
			emit(p, &e);
	}
	for (uint32_t i = 0; i < g->flow->nsubs; i++) {
		const struct npu_rt_graph *s = npu_rt_ri_find(g->flow->subs[i]);

		if (s != NULL)
			emit_defaults(p, s, depth + 1);
	}
}

static aclError emit_graph(struct prog *p, const struct npu_rt_graph *g, int depth);

/* A sub graph's tasks, inline (a sub graph gone or never captured: none). */
static aclError emit_sub(struct prog *p, const struct npu_rt_cond *c, uint32_t i, int depth)
{
	const struct npu_rt_graph *s = npu_rt_ri_find(c->subs[i]);

	return s == NULL || s->capturing ? ACL_SUCCESS : emit_graph(p, s, depth + 1);
}

/* A condition task: the value at c->ptr picks what runs (CUDA-like
 * semantics of the runtime's if / while / switch). */
static aclError emit_cond(struct prog *p, const struct npu_rt_cond *c, int depth)
{
	struct npu_sim_stream_submit br = { .op = NPU_SIM_OP_BRANCH, .dst = (uintptr_t)c->ptr, .width = 8,
					    .flags = NPU_SIM_FLOW_EQ, .operand = 0 };
	uint32_t b, j, top, table, *ends;
	aclError err = ACL_SUCCESS;

	switch (c->type) {
	case ACL_MODEL_RI_COND_TYPE_IF:
		b = emit(p, &br);				/* zero: skip "then" */
		err = emit_sub(p, c, 0, depth);
		if (c->size == 2) {
			j = emit_jump(p, 0, 0);			/* over "else" */
			target(p, b, p->n);
			if (err == ACL_SUCCESS)
				err = emit_sub(p, c, 1, depth);
			target(p, j, p->n);
		} else {
			target(p, b, p->n);
		}
		break;
	case ACL_MODEL_RI_COND_TYPE_WHILE:
		top = p->n;
		b = emit(p, &br);				/* zero: leave */
		err = emit_sub(p, c, 0, depth);
		emit_jump(p, 0, top);
		target(p, b, p->n);
		break;
	default: {					/* SWITCH */
		struct npu_sim_stream_submit sw = { .op = NPU_SIM_OP_SWITCH, .dst = (uintptr_t)c->ptr, .width = 8,
						    .height = c->size };

		ends = calloc(c->size + 1, sizeof(*ends));
		if (ends == NULL)
			return ACL_ERROR_RT_MEMORY_ALLOCATION;
		table = emit(p, &sw) + 1;
		for (uint32_t i = 0; i < c->size; i++)
			emit_jump(p, 0, 0);
		ends[c->size] = emit_jump(p, 0, 0);		/* out of range: none */
		for (uint32_t i = 0; i < c->size && err == ACL_SUCCESS; i++) {
			target(p, table + i, p->n);
			err = emit_sub(p, c, i, depth);
			ends[i] = emit_jump(p, 0, 0);
		}
		for (uint32_t i = 0; i <= c->size; i++)
			target(p, ends[i], p->n);
		free(ends);
		break;
	}
	}
	return err;
}

static aclError emit_graph(struct prog *p, const struct npu_rt_graph *g, int depth)
{
	aclError err = ACL_SUCCESS;

	if (depth > 64) {
		npu_rt_msg_detail("condition tasks nest deeper than 64 graphs");
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	}
	for (uint32_t i = 0; i < g->ntasks && err == ACL_SUCCESS; i++) {
		const struct npu_rt_ri_task *t = g->tasks[i];

		if (t->disabled)
			continue;
		if (t->req.op == NPU_RT_FLOW_COND) {
			err = emit_cond(p, ((const struct npu_rt_flow_task *)t->data)->ch, depth);
		} else if (body_op(t->req.op)) {
			emit(p, &t->req);
		} else {
			npu_rt_msg_detail("a graph with condition tasks may hold memory tasks only; task %u is not",
					  t->seq);
			err = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
		}
	}
	return err;
}

/* Index in f->streams of kernel stream kid, or nstreams. */
static uint32_t seg_of(const struct npu_rt_flow *f, uint32_t kid)
{
	uint32_t s = 0;

	while (s < f->nstreams && f->streams[s].kid != kid)
		s++;
	return s;
}

/* A fixup: entry at, to the start of segment seg or the label with id. */
struct fix {
	uint32_t at, seg, label;
	int is_label;
};

static aclError compile_built(struct prog *p, const struct npu_rt_graph *g)
{
	const struct npu_rt_flow *f = g->flow;
	uint32_t *start = calloc(f->nstreams + 1, sizeof(*start));
	struct fix *fx = NULL;
	uint32_t nfx = 0, cap = 0, *lid = NULL, *lpos = NULL, nl = 0;
	aclError err = ACL_SUCCESS;

#define FIX(a, s, l, isl)                                                               \
	do {                                                                            \
		if (nfx == cap) {                                                       \
			struct fix *nf = realloc(fx, (cap = cap ? cap * 2 : 16) * sizeof(*fx)); \
			if (nf == NULL) {                                               \
				p->nomem = 1;                                           \
				break;                                                  \
			}                                                               \
			fx = nf;                                                        \
		}                                                                       \
		fx[nfx++] = (struct fix){ .at = (a), .seg = (s), .label = (l), .is_label = (isl) }; \
	} while (0)

	if (start == NULL)
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	for (uint32_t s = 0; s < f->nstreams; s++)
		if (f->streams[s].head)
			FIX(emit_jump(p, NPU_SIM_FLOW_ACTIVATE, 0), s, 0, 0);
	emit_jump(p, NPU_SIM_FLOW_END, 0);
	for (uint32_t s = 0; s < f->nstreams; s++) {
		start[s] = p->n;
		for (uint32_t i = 0; i < g->ntasks; i++) {
			const struct npu_rt_ri_task *t = g->tasks[i];
			const struct npu_rt_flow_task *q = t->data;

			if (t->kid != f->streams[s].kid || t->disabled)
				continue;
			switch (t->req.op) {
			case NPU_RT_FLOW_LABEL: {
				uint32_t *ni = realloc(lid, (nl + 1) * sizeof(*ni));
				uint32_t *np = ni == NULL ? NULL : realloc(lpos, (nl + 1) * sizeof(*np));

				if (ni != NULL)
					lid = ni;
				if (np == NULL) {
					p->nomem = 1;
					break;
				}
				lpos = np;
				lid[nl] = q->label;
				lpos[nl++] = p->n;
				break;
			}
			case NPU_RT_FLOW_SWITCH_LABEL: {
				struct npu_sim_stream_submit sw = { .op = NPU_SIM_OP_SWITCH, .dst = q->value,
								    .width = 4, .height = q->nlabels,
								    .flags = NPU_SIM_SWITCH_CLAMP };

				emit(p, &sw);
				for (uint32_t k = 0; k < q->nlabels; k++)
					FIX(emit_jump(p, 0, 0), 0, q->labels[k], 1);
				break;
			}
			case NPU_RT_FLOW_ACTIVE:
				FIX(emit_jump(p, NPU_SIM_FLOW_ACTIVATE, 0), seg_of(f, q->target), 0, 0);
				break;
			case NPU_RT_FLOW_SWITCH_STREAM: {
				struct npu_sim_stream_submit br = { .op = NPU_SIM_OP_BRANCH, .dst = q->value,
								    .src = q->right, .width = q->width,
								    .value = 1, .flags = negate(q->cond) };
				uint32_t b = emit(p, &br);

				FIX(emit_jump(p, NPU_SIM_FLOW_ACTIVATE, 0), seg_of(f, q->target), 0, 0);
				target(p, b, p->n);
				break;
			}
			case NPU_RT_FLOW_END:
				emit_jump(p, NPU_SIM_FLOW_END, 0);
				break;
			default:
				emit(p, &t->req);
				break;
			}
		}
		emit_jump(p, NPU_SIM_FLOW_END, 0);
	}
	start[f->nstreams] = p->n - 1;	/* a stream not in the model: ends at once */
	for (uint32_t i = 0; i < nfx && !p->nomem; i++) {
		if (!fx[i].is_label) {
			target(p, fx[i].at, start[fx[i].seg]);
			continue;
		}
		uint32_t k = 0;

		while (k < nl && lid[k] != fx[i].label)
			k++;
		if (k == nl) {
			npu_rt_msg_detail("a label of aclrtSwitchLabelByIndex's list is not set on a stream of "
					  "this model (aclrtSetLabel)");
			err = ACL_ERROR_RT_INTERNAL_ERROR;
			break;
		}
		target(p, fx[i].at, lpos[k]);
	}
#undef FIX
	free(start);
	free(fx);
	free(lid);
	free(lpos);
	return err;
}

aclError npu_rt_flow_compile(struct npu_rt_graph *g, struct npu_sim_stream_submit **ops, uint32_t *n,
			     uint32_t *flags)
{
	struct prog p = { 0 };
	aclError err = ACL_SUCCESS;

	*flags = 0;
	if (g->flow != NULL && g->flow->built) {
		*flags = NPU_SIM_GRAPH_FLOW;
		err = compile_built(&p, g);
	} else if (has_flow(g)) {
		*flags = NPU_SIM_GRAPH_FLOW;
		emit_defaults(&p, g, 0);
		err = emit_graph(&p, g, 0);
		emit_jump(&p, NPU_SIM_FLOW_END, 0);
	} else {
		for (uint32_t i = 0; i < g->ntasks; i++)
			if (!g->tasks[i]->disabled)
				emit(&p, &g->tasks[i]->req);
		if (p.e == NULL && !p.nomem)
			p.e = calloc(1, sizeof(*p.e));
		if (p.e == NULL)
			p.nomem = 1;
	}
	if (err == ACL_SUCCESS && p.nomem)
		err = ACL_ERROR_RT_MEMORY_ALLOCATION;
	if (err != ACL_SUCCESS) {
		free(p.e);
		return err;
	}
	*ops = p.e;
	*n = p.n;
	return ACL_SUCCESS;
}
