/*
 * Deferred frees of the stream-ordered memory pool (mem_pool.c): how a
 * pool reuses a block in user space, without a syscall, as the runtime's
 * does.
 *
 * The table keeps, per stream (at most SLOTS streams), either the block
 * the stream's last aclrtMemPoolMallocAsync handed out (ALLOCATED: the
 * driver has it in use by that stream) or that block after its
 * aclrtMemPoolFreeAsync (DEFERRED: the free is not submitted yet, so the
 * driver still has it in use by the stream).  A MallocAsync of the same
 * rounded size from the same pool on the same stream takes a DEFERRED
 * block back at once: the free and the new use are in one stream's order,
 * which is what the driver allows too (kernel/npu_mempool.c).
 *
 * A flush submits each DEFERRED free (OP_POOL_FREE, as FreeAsync does
 * otherwise).  The exported wrapper of every other call flushes at its
 * entry (api_wrap.c), so every other call sees the free as submitted when
 * FreeAsync returned.  Most calls also drop the ALLOCATED records, as they
 * may free or take their blocks; the calls that only queue work on, copy
 * through or read a block (NPU_RT_POOL_KEEPS in api_wrap.c: the work a
 * program does with a block between its MallocAsync and FreeAsync) leave
 * them standing.  Only a process with records pays more than one load
 * there (npu_rt_pool_held, npu_rt_pool_deferred).
 *
 * Lock: taken alone or under the device table lock (read), nothing inside
 * it; the only ioctls under it are STREAM_SUBMIT and MEM_FREE, which do not
 * wait for the device.
 */
#include <pthread.h>
#include <string.h>

#include "acl_internal.h"
#include "races.h"

#define SLOTS 16

enum slot_state { SLOT_EMPTY, SLOT_ALLOCATED, SLOT_DEFERRED };

struct slot {
	enum slot_state state;
	int dev;
	uint64_t epoch;		/* which opening of dev */
	uint32_t kid;		/* the driver's stream id */
	uint64_t pool;		/* the driver's pool id */
	uint64_t va, size;	/* the block */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot slots[SLOTS];
unsigned int npu_rt_pool_held;	/* slots not empty; written under lock */
unsigned int npu_rt_pool_deferred;	/* DEFERRED slots; written under lock */

static void count(unsigned int *n, int by)
{
	__atomic_store_n(n, *n + by, __ATOMIC_RELEASE);
}

/* Change s's state, keeping the counts.  Table lock held. */
static void slot_set(struct slot *s, enum slot_state to)
{
	if (s->state == SLOT_DEFERRED)
		count(&npu_rt_pool_deferred, -1);
	if (to == SLOT_DEFERRED)
		count(&npu_rt_pool_deferred, 1);
	if ((s->state == SLOT_EMPTY) != (to == SLOT_EMPTY))
		count(&npu_rt_pool_held, to == SLOT_EMPTY ? -1 : 1);
	s->state = to;
}

static void slot_clear(struct slot *s)
{
	slot_set(s, SLOT_EMPTY);
}

/* Submit the free of s's block.  Table lock held. */
static void slot_submit(struct slot *s)
{
	struct npu_sim_stream_submit req;
	struct npu_sim_mem_free mf;
	int fd;

	/* A device closed since: its context and pools went with it. */
	if (npu_rt_device_epoch_locked(s->dev) != s->epoch)
		return;
	fd = npu_rt_device_fd_locked(s->dev);
	memset(&req, 0, sizeof(req));
	req.stream = s->kid;
	req.op = NPU_SIM_OP_POOL_FREE;
	req.dst = s->va;
	if (npu_rt_ioctl(fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &req) == 0)
		return;
	/*
	 * The stream died meanwhile (another thread's destroy) or the file's
	 * queue is full.  The driver leaves a block in use by a dead stream
	 * in use until its pool goes: give it back to the device instead
	 * (MEM_FREE takes it out of its pool; queued work keeps its pages).
	 */
	memset(&mf, 0, sizeof(mf));
	mf.va = s->va;
	(void)npu_rt_ioctl(fd, NPU_SIM_IOCTL_MEM_FREE, &mf);
}

/* Submit every deferred free; drop the ALLOCATED records too when all.
 * Both locks held. */
static void flush_locked(bool all)
{
	for (int i = 0; i < SLOTS && npu_rt_pool_held != 0; i++) {
		if (slots[i].state == SLOT_DEFERRED)
			slot_submit(&slots[i]);
		if (slots[i].state == SLOT_DEFERRED || (all && slots[i].state == SLOT_ALLOCATED))
			slot_clear(&slots[i]);
	}
}

static bool held(void)
{
	return __atomic_load_n(&npu_rt_pool_held, __ATOMIC_ACQUIRE) != 0;
}

void npu_rt_pool_flush(bool all)
{
	npu_rt_devices_read_lock();
	pthread_mutex_lock(&lock);
	flush_locked(all);
	pthread_mutex_unlock(&lock);
	npu_rt_devices_unlock();
}

bool npu_rt_pool_defer_ok(void)
{
	/* The race checker sees each free; a STOP context refuses them. */
	return !NPU_RT_RACES_ON() && !npu_rt_ctx_stop_ever();
}

/* The slot of ref's stream, or NULL.  Both locks held. */
static struct slot *slot_of(const struct npu_rt_ref *ref, uint64_t epoch)
{
	for (int i = 0; i < SLOTS; i++)
		if (slots[i].state != SLOT_EMPTY && slots[i].dev == ref->dev &&
		    slots[i].epoch == epoch && slots[i].kid == ref->kid)
			return &slots[i];
	return NULL;
}

uint64_t npu_rt_pool_take_locked(const struct npu_rt_ref *ref, uint64_t pool, uint64_t size)
{
	struct slot *s;
	uint64_t va = 0;

	if (!held())
		return 0;
	pthread_mutex_lock(&lock);
	s = slot_of(ref, npu_rt_device_epoch_locked(ref->dev));
	if (pool != 0 && s != NULL && s->state == SLOT_DEFERRED && s->pool == pool && s->size == size) {
		slot_set(s, SLOT_ALLOCATED);
		va = s->va;
	} else {
		flush_locked(false);
	}
	pthread_mutex_unlock(&lock);
	return va;
}

void npu_rt_pool_note_alloc_locked(const struct npu_rt_ref *ref, uint64_t pool, uint64_t va, uint64_t size)
{
	uint64_t epoch = npu_rt_device_epoch_locked(ref->dev);
	struct slot *s;

	pthread_mutex_lock(&lock);
	s = slot_of(ref, epoch);
	for (int i = 0; i < SLOTS && s == NULL; i++)
		if (slots[i].state == SLOT_EMPTY)
			s = &slots[i];
	/* Deferred by another thread's free since this alloc flushed. */
	if (s != NULL && s->state == SLOT_DEFERRED)
		slot_submit(s);
	if (s != NULL) {
		slot_set(s, SLOT_ALLOCATED);
		*s = (struct slot){ .state = SLOT_ALLOCATED, .dev = ref->dev, .epoch = epoch, .kid = ref->kid,
				    .pool = pool, .va = va, .size = size };
	}
	pthread_mutex_unlock(&lock);
}

bool npu_rt_pool_defer_free_locked(const struct npu_rt_ref *ref, uint64_t va, bool may_defer)
{
	struct slot *s;

	if (!held())
		return false;
	pthread_mutex_lock(&lock);
	s = slot_of(ref, npu_rt_device_epoch_locked(ref->dev));
	if (may_defer && s != NULL && s->state == SLOT_ALLOCATED && s->va == va) {
		slot_set(s, SLOT_DEFERRED);
		pthread_mutex_unlock(&lock);
		return true;
	}
	/* Submitted in order after the older frees; a record of va is stale
	 * once its free is queued. */
	flush_locked(false);
	for (int i = 0; i < SLOTS; i++)
		if (slots[i].state == SLOT_ALLOCATED && slots[i].va == va)
			slot_clear(&slots[i]);
	pthread_mutex_unlock(&lock);
	return false;
}

/* Fork: the child must not submit the parent's frees (nor has its fds). */
void npu_rt_pool_atfork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

void npu_rt_pool_atfork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

void npu_rt_pool_atfork_child(void)
{
	memset(slots, 0, sizeof(slots));
	npu_rt_pool_held = 0;
	npu_rt_pool_deferred = 0;
	pthread_mutex_init(&lock, NULL);
}
