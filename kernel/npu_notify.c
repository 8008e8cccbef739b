// SPDX-License-Identifier: GPL-2.0
/*
 * Notifies (aclrtCreateNotify, aclrtCntNotify*, aclrtNotifyGetExportKey /
 * ImportByKey): NOTIFY_* ioctls and the state the stream engine's
 * NOTIFY_RECORD and NOTIFY_WAIT ops work on.
 *
 * A notify is an object of its device with an id unique on the machine (the
 * npu_notifies table): its creating file and the files that imported it by a
 * key of the key table (npu_key.c, kind NPU_KEY_NOTIFY) hold references in
 * their npu_ctx.notifies under that one id, so a record in one process and a
 * wait in another meet in one object.  A plain notify is set or not; a
 * counting one holds a u32.  The creator's destroy (or its file's release)
 * kills it: its key goes, waits on it end cancelled; the struct goes with
 * its last reference (importers, queued ops).
 *
 * A NOTIFY_WAIT op that is not met parks its stream as a VALUE_WAIT does:
 * the stream watches the machine's list of parked value streams before it
 * looks (npu_notify_wait_look), and whatever may meet the wait (a record, a
 * kill) is followed by npu_stream_values_changed(), so no record is missed
 * and no wait polls.  A wait with a timeout is looked at again at its
 * deadline.  The op's npu_notify_wait sits on the notify's waits list from
 * its first look to its end, which debugfs shows.
 */
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "npu_sim.h"

struct npu_notify {
	struct kref ref;
	u32 id;
	bool counting;
	struct npu_dev *ndev;
	pid_t owner;			/* creating tgid */
	struct npu_notify_key *key;	/* exported as: creator's ctx->lock */
	spinlock_t lock;		/* the fields below */
	struct npu_ctx *ctx;		/* creator; NULL once dead */
	bool dead;
	u32 value;			/* plain: 0/1; counting: the count */
	u32 holders;			/* files holding it */
	u64 key_seq;			/* export number, 0: not exported */
	struct list_head waits;		/* npu_notify_wait.node */
};

/* The exported key of a notify; dies with the notify. */
struct npu_notify_key {
	struct npu_key key;
};
static_assert(offsetof(struct npu_notify_key, key) == 0);

/* id -> npu_notify (no reference: a notify leaves it at its last put). */
static DEFINE_XARRAY_ALLOC1(npu_notifies);
static u32 npu_notify_next;

static void npu_notify_release(struct kref *ref)
{
	struct npu_notify *n = container_of(ref, struct npu_notify, ref);

	xa_erase(&npu_notifies, n->id);
	kfree(n);
}

void npu_notify_put(struct npu_notify *n)
{
	kref_put(&n->ref, npu_notify_release);
}

void npu_notify_ctx_init(struct npu_ctx *ctx)
{
	xa_init(&ctx->notifies);
	atomic_set(&ctx->nr_notifies, 0);
}

/* The live notify @id held by @ctx, referenced, or NULL. */
static struct npu_notify *npu_notify_find(struct npu_ctx *ctx, u32 id,
					  bool live)
{
	struct npu_notify *n;

	xa_lock(&ctx->notifies);
	n = xa_load(&ctx->notifies, id);
	if (n && live && READ_ONCE(n->dead))
		n = NULL;
	if (n)
		kref_get(&n->ref);
	xa_unlock(&ctx->notifies);
	return n;
}

/*
 * @ctx lets go of @n (already out of its table): the creator kills it.
 * The caller wakes the parked streams afterwards.
 */
static void npu_notify_drop(struct npu_ctx *ctx, struct npu_notify *n)
{
	bool creator;

	down_write(&ctx->lock);
	spin_lock(&n->lock);
	n->holders--;
	creator = n->ctx == ctx;
	if (creator) {
		n->ctx = NULL;
		n->dead = true;
		n->key_seq = 0;
	}
	spin_unlock(&n->lock);
	if (creator && n->key) {
		npu_key_drop(&n->key->key);
		n->key = NULL;
	}
	up_write(&ctx->lock);
	atomic_dec(&ctx->nr_notifies);
	npu_notify_put(n);
}

/* Release of the file: its notifies die, its imports are let go. */
void npu_notify_ctx_teardown(struct npu_ctx *ctx)
{
	struct npu_notify *n;
	unsigned long id;

	xa_for_each(&ctx->notifies, id, n) {
		xa_erase(&ctx->notifies, id);
		npu_notify_drop(ctx, n);
	}
	xa_destroy(&ctx->notifies);
}

/* ---- for the stream engine ------------------------------------------- */

int npu_notify_submit_check(const struct npu_sim_stream_submit *a)
{
	u32 mode = a->flags & NPU_SIM_NOTIFY_MODE;
	bool cnt = a->flags & NPU_SIM_NOTIFY_CNT;

	if (!a->event || a->dst || a->dpitch || a->src || a->spitch ||
	    a->width || a->height || a->dir || a->location || a->location_id)
		return -EINVAL;
	if (cnt ? a->operand > U32_MAX : a->flags || a->operand)
		return -EINVAL;
	if (a->op == NPU_SIM_OP_NOTIFY_RECORD) {
		if (a->value)
			return -EINVAL;
		if (cnt && (a->flags & ~(NPU_SIM_NOTIFY_CNT | NPU_SIM_NOTIFY_MODE) ||
			    (mode > NPU_SIM_CNT_OR && mode != NPU_SIM_CNT_AND)))
			return -EINVAL;
		return 0;
	}
	if (cnt && (a->flags & ~(NPU_SIM_NOTIFY_CNT | NPU_SIM_NOTIFY_CLEAR |
				 NPU_SIM_NOTIFY_MODE) ||
		    mode > NPU_SIM_CNT_MASK_EQ))
		return -EINVAL;
	return 0;
}

/*
 * The notify of submit @a for @ctx, referenced in *@out, and the op's
 * state in @w: -ENOENT not held or dead, -EINVAL flags of the other kind,
 * -EXDEV a wait on another device than the notify's.
 */
int npu_notify_prepare(struct npu_ctx *ctx, const struct npu_sim_stream_submit *a,
		       struct npu_notify **out, struct npu_notify_wait *w)
{
	struct npu_notify *n = npu_notify_find(ctx, a->event, true);

	if (!n)
		return -ENOENT;
	if (!!(a->flags & NPU_SIM_NOTIFY_CNT) != n->counting) {
		npu_notify_put(n);
		return -EINVAL;
	}
	if (a->op == NPU_SIM_OP_NOTIFY_WAIT && n->ndev != ctx->ndev) {
		npu_notify_put(n);
		return -EXDEV;
	}
	INIT_LIST_HEAD(&w->node);
	w->pid = ctx->pid;
	w->stream = a->stream;
	w->flags = a->flags;
	w->operand = a->operand;
	w->timeout_ms = a->op == NPU_SIM_OP_NOTIFY_WAIT ? a->value : 0;
	w->deadline_ns = 0;
	*out = n;
	return 0;
}

/* NOTIFY_RECORD reached: 0, or -ECANCELED when the notify is dead. */
int npu_notify_record(struct npu_notify *n, const struct npu_notify_wait *w)
{
	int ret = 0;

	spin_lock(&n->lock);
	if (n->dead)
		ret = -ECANCELED;
	else if (!n->counting)
		n->value = 1;
	else if ((w->flags & NPU_SIM_NOTIFY_MODE) == NPU_SIM_CNT_SET)
		n->value = w->operand;
	else if ((w->flags & NPU_SIM_NOTIFY_MODE) == NPU_SIM_CNT_ADD)
		n->value += w->operand;
	else if ((w->flags & NPU_SIM_NOTIFY_MODE) == NPU_SIM_CNT_OR)
		n->value |= w->operand;
	else
		n->value &= w->operand;
	spin_unlock(&n->lock);
	return ret;
}

static bool npu_notify_met(const struct npu_notify *n,
			   const struct npu_notify_wait *w)
{
	u32 v = n->value, x = w->operand;

	if (!n->counting)
		return v;
	switch (w->flags & NPU_SIM_NOTIFY_MODE) {
	case NPU_SIM_CNT_LESS:
		return v < x;
	case NPU_SIM_CNT_EQUAL:
		return v == x;
	case NPU_SIM_CNT_BIGGER:
		return v > x;
	case NPU_SIM_CNT_BIGGER_EQ:
		return v >= x;
	default:		/* NPU_SIM_CNT_MASK_EQ */
		return (v & x) == x;
	}
}

/*
 * A NOTIFY_WAIT looks (its stream watched already): 0 met (and reset in the
 * same step), -EAGAIN not yet, -ETIME its deadline passed, -ECANCELED
 * the notify is dead.
 */
int npu_notify_wait_look(struct npu_notify *n, struct npu_notify_wait *w)
{
	u64 now = ktime_get_ns();
	int ret;

	spin_lock(&n->lock);
	if (list_empty(&w->node)) {
		list_add_tail(&w->node, &n->waits);
		if (w->timeout_ms && !w->deadline_ns)
			w->deadline_ns = now + (u64)w->timeout_ms * NSEC_PER_MSEC;
	}
	if (n->dead) {
		ret = -ECANCELED;
	} else if (npu_notify_met(n, w)) {
		if (!n->counting || (w->flags & NPU_SIM_NOTIFY_CLEAR))
			n->value = 0;
		ret = 0;
	} else if (w->deadline_ns && now >= w->deadline_ns) {
		ret = -ETIME;
	} else {
		ret = -EAGAIN;
	}
	if (ret != -EAGAIN)
		list_del_init(&w->node);
	spin_unlock(&n->lock);
	return ret;
}

/* Jiffies until a parked wait's deadline (at least 1), 0: none. */
unsigned long npu_notify_wait_left(const struct npu_notify_wait *w)
{
	u64 now = ktime_get_ns();

	if (!w->deadline_ns)
		return 0;
	if (now >= w->deadline_ns)
		return 1;
	return nsecs_to_jiffies(w->deadline_ns - now) + 1;
}

/* The op of @w goes: off the waits list. */
void npu_notify_wait_end(struct npu_notify *n, struct npu_notify_wait *w)
{
	spin_lock(&n->lock);
	list_del_init(&w->node);
	spin_unlock(&n->lock);
}

/* ---- ioctls ------------------------------------------------------------ */

int npu_ioctl_notify_create(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_notify_create args;
	struct npu_notify *n;
	u32 id;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_NOTIFY_COUNTING || args.id)
		return -EINVAL;
	if (atomic_inc_return(&ctx->nr_notifies) > npu_max_objects) {
		atomic_dec(&ctx->nr_notifies);
		return -ENOMEM;
	}
	n = kzalloc(sizeof(*n), GFP_KERNEL_ACCOUNT);
	if (!n) {
		atomic_dec(&ctx->nr_notifies);
		return -ENOMEM;
	}
	kref_init(&n->ref);
	spin_lock_init(&n->lock);
	INIT_LIST_HEAD(&n->waits);
	n->counting = args.flags & NPU_SIM_NOTIFY_COUNTING;
	n->ndev = ctx->ndev;
	n->ctx = ctx;
	n->owner = ctx->pid;
	n->holders = 1;
	ret = xa_alloc_cyclic(&npu_notifies, &id, n, XA_LIMIT(1, INT_MAX),
			      &npu_notify_next, GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		atomic_dec(&ctx->nr_notifies);
		kfree(n);
		return ret == -EBUSY ? -ENOMEM : ret;
	}
	n->id = id;
	ret = xa_insert(&ctx->notifies, id, n, GFP_KERNEL_ACCOUNT);
	if (ret) {
		atomic_dec(&ctx->nr_notifies);
		npu_notify_put(n);
		return ret;
	}
	if (put_user(id, &((struct npu_sim_notify_create __user *)uarg)->id)) {
		n = xa_erase(&ctx->notifies, id);
		if (n)
			npu_notify_drop(ctx, n);
		return -EFAULT;
	}
	return 0;
}

int npu_ioctl_notify_destroy(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_notify_destroy args;
	struct npu_notify *n;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	n = xa_erase(&ctx->notifies, args.id);
	if (!n)
		return -ENOENT;
	npu_notify_drop(ctx, n);
	return 0;
}

int npu_ioctl_notify_reset(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_notify_reset args;
	struct npu_notify *n;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	n = npu_notify_find(ctx, args.id, true);
	if (!n)
		return -ENOENT;
	spin_lock(&n->lock);
	if (n->counting)
		ret = -EINVAL;
	else
		n->value = 0;
	spin_unlock(&n->lock);
	npu_notify_put(n);
	return ret;
}

int npu_ioctl_notify_export(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_notify_export args;
	struct npu_notify_key *nk;
	struct npu_notify *n;
	u32 kflags;
	int ret = 0;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_NOTIFY_NO_PID_CHECK || args.key)
		return -EINVAL;
	kflags = args.flags ? NPU_SIM_SHARE_NO_PID_CHECK : 0;
	n = npu_notify_find(ctx, args.id, true);
	if (!n)
		return -ENOENT;
	nk = kzalloc(sizeof(*nk), GFP_KERNEL_ACCOUNT);
	if (!nk) {
		npu_notify_put(n);
		return -ENOMEM;
	}
	/* Under the creator's lock: a destroy drops the key after us. */
	down_write(&ctx->lock);
	if (READ_ONCE(n->ctx) != ctx) {
		ret = READ_ONCE(n->dead) ? -ENOENT : -EPERM;
	} else if (n->key) {
		if (n->key->key.flags != kflags)
			ret = -EINVAL;
		args.key = n->key->key.key;
	} else {
		nk->key.flags = kflags;
		nk->key.obj_id = n->id;
		npu_key_export(&nk->key, NPU_KEY_NOTIFY, ctx, NULL);
		n->key = nk;
		nk = NULL;
		args.key = n->key->key.key;
		spin_lock(&n->lock);
		n->key_seq = n->key->key.seq;
		spin_unlock(&n->lock);
	}
	up_write(&ctx->lock);
	kfree(nk);
	npu_notify_put(n);
	/* A key nobody learnt stays: exporting again gives it. */
	if (!ret && copy_to_user(uarg, &args, sizeof(args)))
		ret = -EFAULT;
	return ret;
}

int npu_ioctl_notify_import(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_notify_import args;
	struct npu_notify *n;
	struct npu_key k;
	bool peer;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NPU_SIM_NOTIFY_IMPORT_ENABLE_PEER || args.id)
		return -EINVAL;
	peer = args.flags & NPU_SIM_NOTIFY_IMPORT_ENABLE_PEER;
	ret = npu_key_claim(ctx, args.key, NPU_KEY_NOTIFY, peer, &k);
	if (ret)
		return ret;

	xa_lock(&npu_notifies);
	n = xa_load(&npu_notifies, k.obj_id);
	if (n && (READ_ONCE(n->dead) || !kref_get_unless_zero(&n->ref)))
		n = NULL;
	xa_unlock(&npu_notifies);
	if (!n)
		return -ENOENT;		/* died since the claim */
	if (atomic_inc_return(&ctx->nr_notifies) > npu_max_objects) {
		ret = -ENOMEM;
		goto err;
	}
	ret = xa_insert(&ctx->notifies, n->id, n, GFP_KERNEL_ACCOUNT);
	if (ret) {
		ret = ret == -EBUSY ? -EEXIST : ret;
		goto err;
	}
	spin_lock(&n->lock);
	n->holders++;
	spin_unlock(&n->lock);
	args.id = n->id;
	if (put_user(args.id,
		     &((struct npu_sim_notify_import __user *)uarg)->id)) {
		n = xa_erase(&ctx->notifies, args.id);
		if (n)
			npu_notify_drop(ctx, n);
		return -EFAULT;
	}
	if (peer)
		npu_peer_grant(ctx, k.ndev);
	return 0;
err:
	atomic_dec(&ctx->nr_notifies);
	npu_notify_put(n);
	return ret;
}

int npu_ioctl_notify_query(struct npu_ctx *ctx, void __user *uarg)
{
	struct npu_sim_notify_query args;
	struct npu_notify_wait *w;
	struct npu_notify *n;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (npu_uapi_out_set(&args, flags, pad))
		return -EINVAL;
	n = npu_notify_find(ctx, args.id, false);
	if (!n)
		return -ENOENT;
	down_write(&ctx->lock);
	if (READ_ONCE(n->ctx) == ctx && n->key)
		args.key = n->key->key.key;
	up_write(&ctx->lock);
	spin_lock(&n->lock);
	args.flags = n->counting ? NPU_SIM_NOTIFY_COUNTING : 0;
	args.value = n->value;
	list_for_each_entry(w, &n->waits, node)
		args.waiters++;
	args.dead = n->dead;
	spin_unlock(&n->lock);
	npu_notify_put(n);
	return copy_to_user(uarg, &args, sizeof(args)) ? -EFAULT : 0;
}

/* ---- debugfs ----------------------------------------------------------- */

/* debugfs "notifies": the notifies of @ndev and the streams waiting. */
void npu_notify_show(struct seq_file *m, struct npu_dev *ndev)
{
	struct npu_notify_wait *w;
	struct npu_notify *n;
	unsigned long id;

	seq_puts(m, "notify owner_pid kind value holders export state waiters streams\n");
	xa_lock(&npu_notifies);
	xa_for_each(&npu_notifies, id, n) {
		u32 nw = 0;

		if (n->ndev != ndev)
			continue;
		spin_lock(&n->lock);
		list_for_each_entry(w, &n->waits, node)
			nw++;
		seq_printf(m, "%u %d %s %u %u ", n->id, n->owner,
			   n->counting ? "count" : "plain", n->value,
			   n->holders);
		if (n->key_seq)
			seq_printf(m, "%llu", n->key_seq);
		else
			seq_putc(m, '-');
		seq_printf(m, " %s %u ", n->dead ? "dead" : "live", nw);
		if (!nw)
			seq_putc(m, '-');
		list_for_each_entry(w, &n->waits, node)
			seq_printf(m, "%s%d:%u", w == list_first_entry(&n->waits,
				   struct npu_notify_wait, node) ? "" : ",",
				   w->pid, w->stream);
		seq_putc(m, '\n');
		spin_unlock(&n->lock);
	}
	xa_unlock(&npu_notifies);
}
