// SPDX-License-Identifier: GPL-2.0
/*
 * The machine-wide key table: an unguessable non-zero 64-bit key names
 * (part of) an exported npu_phys, for other processes to import.  Two kinds
 * live in it, each embedding a struct npu_key: a shareable handle (struct
 * npu_share, SHARE_EXPORT, npu_share.c) and an IPC key (struct npu_ipc_key,
 * IPC_EXPORT, npu_ipc.c).  Two more kinds name no pages: an IPC event's
 * shared counters (a bare npu_key with @ref, EVENT_EXPORT, npu_event_ipc.c)
 * and a notify (struct npu_notify_key, NOTIFY_EXPORT, npu_notify.c: phys
 * NULL, obj_id its id).  This file makes, finds, claims and frees keys;
 * who may do what with them is decided here once for all kinds.
 *
 * A key is only ever reached through the table or through its exporting
 * context (npu_handle.share, npu_ctx.ipc_keys, the notify it names, which
 * its creating context kills before it goes), and the context drops its
 * keys before it goes, so npu_key.ctx never dangles.
 */
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "npu_sim.h"

#define NPU_KEY_HASH_BITS	8

static DEFINE_HASHTABLE(npu_keys, NPU_KEY_HASH_BITS);
/* Guards npu_keys and the mutable fields of every key in it. */
static DEFINE_MUTEX(npu_key_lock);
/* Export numbers shown by debugfs instead of the secret keys. */
static atomic64_t npu_key_seq;

/* The key @key, or NULL; npu_key_lock held. */
static struct npu_key *npu_key_find(u64 key)
{
	struct npu_key *k;

	lockdep_assert_held(&npu_key_lock);
	if (!key)
		return NULL;
	hash_for_each_possible(npu_keys, k, node, key)
		if (k->key == key)
			return k;
	return NULL;
}

/*
 * The one export constructor: @k, embedded in a zeroed object of @kind
 * with the exported range (phys_off, len, va_off, size) and flags set by
 * the caller, names those pages of @phys (referenced here) for @ctx, and
 * gets a fresh key in the table.  The exporting ctx->lock is held, so its
 * context cannot drop the key before the caller has linked it there.
 */
void npu_key_export(struct npu_key *k, enum npu_key_kind kind,
		    struct npu_ctx *ctx, struct npu_phys *phys)
{
	lockdep_assert_held_write(&ctx->lock);
	k->kind = kind;
	k->ctx = ctx;
	k->ndev = ctx->ndev;
	k->owner = task_tgid_nr(current);
	k->seq = atomic64_inc_return(&npu_key_seq);
	k->phys = phys;
	if (phys)
		npu_phys_get(phys);

	mutex_lock(&npu_key_lock);
	do {
		k->key = get_random_u64();
	} while (!k->key || npu_key_find(k->key));
	hash_add(npu_keys, &k->node, k->key);
	mutex_unlock(&npu_key_lock);
}

/* Drop the process references of @nr whitelist entries. */
static void npu_key_pids_put(struct npu_share_pid *e, u32 nr)
{
	u32 i;

	for (i = 0; i < nr; i++)
		put_pid(e[i].pid);
}

/*
 * Take @k out of the table and free it (the object it is embedded in, of
 * which it is the first member).  Its exporter (handle or allocation)
 * still references the memory: this is never the last put of the phys.
 */
void npu_key_drop(struct npu_key *k)
{
	mutex_lock(&npu_key_lock);
	hash_del(&k->node);
	mutex_unlock(&npu_key_lock);
	if (k->phys)
		npu_phys_put(k->phys);
	npu_key_pids_put(k->pids, k->nr_pids);
	kfree(k->pids);
	kfree(k);
}

/* Whether the current process may import @k (npu_key_lock held). */
static bool npu_key_allows(const struct npu_key *k)
{
	struct pid *me = task_tgid(current);
	u32 i;

	if (k->flags & NPU_SIM_SHARE_NO_PID_CHECK)
		return true;
	for (i = 0; i < k->nr_pids; i++)
		if (k->pids[i].pid == me)
			return true;
	return false;
}

/*
 * The one claim of a key for an import into @ctx: key @key of @kind exists
 * (-ENOENT), was not exported by the caller's process (-EPERM), lets the
 * caller import (-EACCES), is on a device @ctx may reach unless the caller
 * is about to grant itself that (@may_grant; else -EXDEV), and no fault is
 * injected (-ENOMEM).  On success *@out is a copy of the key with its phys
 * (or @ref) referenced for the caller, and the key counts one more import.
 */
int npu_key_claim(struct npu_ctx *ctx, u64 key, enum npu_key_kind kind,
		  bool may_grant, struct npu_key *out)
{
	struct npu_key *k;
	int ret = 0;

	mutex_lock(&npu_key_lock);
	k = npu_key_find(key);
	if (!k || k->kind != kind)
		ret = -ENOENT;
	else if (k->owner == task_tgid_nr(current))
		ret = -EPERM;
	else if (!npu_key_allows(k))
		ret = -EACCES;
	else if (!may_grant && !npu_peer_allowed(ctx, k->ndev))
		ret = -EXDEV;
	else if (npu_fault_check(ctx, NPU_SIM_FAULT_IMPORT))
		ret = -ENOMEM;		/* injected (the class's errno) */
	if (!ret) {
		k->imports++;
		*out = *k;
		if (out->phys)
			npu_phys_get(out->phys);
		if (out->ref)
			kref_get(out->ref);
		/* The copy is no key: nothing in it but the facts. */
		out->pids = NULL;
		out->nr_pids = 0;
	}
	mutex_unlock(&npu_key_lock);
	return ret;
}

/*
 * Bind the @nr whitelist entries @ents to their processes: a struct pid
 * reference of the tgid as it is now (initial pid namespace), so a process
 * that later gets a recycled number does not match.  A number with no
 * process behind it matches nobody.
 */
static void npu_key_pids_get(struct npu_share_pid *e, u32 nr)
{
	u32 i;

	rcu_read_lock();
	for (i = 0; i < nr; i++)
		e[i].pid = get_pid(find_pid_ns(e[i].nr, &init_pid_ns));
	rcu_read_unlock();
}

/*
 * Add @nr processes @ents (numbers set) to the whitelist of key @key, for
 * a caller on @ctx.  Only the exporting process may, known by the owner mm
 * of its files (the exporting context holds that mm, so it is not reused
 * while the key lives), not by a number a later process may get: -ENOENT
 * no such key, -EPERM another process's, -ENOSPC whitelist full, -ENOMEM.
 * @ents stays the caller's to free.
 */
int npu_key_add_pids(struct npu_ctx *ctx, u64 key, struct npu_share_pid *ents,
		     u32 nr)
{
	struct npu_share_pid *grown;
	struct npu_key *k;
	int ret = 0;

	npu_key_pids_get(ents, nr);
	mutex_lock(&npu_key_lock);
	k = npu_key_find(key);
	if (!k || k->kind == NPU_KEY_EVENT) {	/* no whitelist */
		ret = -ENOENT;
	} else if (k->ctx->mm != ctx->mm) {
		ret = -EPERM;
	} else if (k->nr_pids + nr > NPU_SIM_SHARE_MAX_PIDS) {
		ret = -ENOSPC;
	} else {
		grown = krealloc_array(k->pids, k->nr_pids + nr,
				       sizeof(*grown), GFP_KERNEL_ACCOUNT);
		if (!grown) {
			ret = -ENOMEM;
		} else {
			memcpy(grown + k->nr_pids, ents,
			       (size_t)nr * sizeof(*ents));
			k->pids = grown;
			k->nr_pids += nr;
			nr = 0;		/* the references moved */
		}
	}
	mutex_unlock(&npu_key_lock);
	npu_key_pids_put(ents, nr);
	return ret;
}

/*
 * debugfs "shared": the keys exported from contexts of @ndev.  The key
 * itself is the only credential of a NO_PID_CHECK export, so it is never
 * shown: a key is listed by its export number.
 */
void npu_key_show(struct seq_file *m, struct npu_dev *ndev)
{
	struct npu_key *k;
	unsigned int bkt;
	u32 i;

	seq_puts(m,
		 "export owner_pid handle size kind imports flags whitelist\n");
	mutex_lock(&npu_key_lock);
	hash_for_each(npu_keys, bkt, k, node) {
		bool nopid = k->flags & NPU_SIM_SHARE_NO_PID_CHECK;
		bool ipc = k->kind == NPU_KEY_IPC;
		bool event = k->kind == NPU_KEY_EVENT;
		bool nty = k->kind == NPU_KEY_NOTIFY;
		u32 handle = k->kind == NPU_KEY_SHARE ?
			     container_of(k, struct npu_share, key)->handle_id :
			     nty ? k->obj_id : 0;

		if (k->ndev != ndev)
			continue;
		seq_printf(m, "%llu %d %u %llu %s %llu %s ", k->seq, k->owner,
			   handle, k->size,
			   event ? "event" : nty ? "notify" :
			   npu_kind_name(k->phys->kind),
			   k->imports, event ? "event,nopid" :
			   ipc ? (nopid ? "ipc,nopid" : "ipc") :
			   nty ? (nopid ? "notify,nopid" : "notify") :
			   nopid ? "nopid" : "-");
		if (!k->nr_pids)
			seq_putc(m, '-');
		for (i = 0; i < k->nr_pids; i++)
			seq_printf(m, "%s%d", i ? "," : "", k->pids[i].nr);
		seq_putc(m, '\n');
		cond_resched();
	}
	mutex_unlock(&npu_key_lock);
}
