/*
 * NPU_SIM_CHECK=races: the stream race checker (races.c, docs/checks.md
 * "races").  A happens-before checker with vector clocks over the host,
 * every stream, events, notifies, stream values, synchronizes, callbacks
 * and the stream-ordered memory pool; each asynchronous operation and each
 * synchronous copy or set is an access of device memory (and of pinned or
 * registered host memory).  Two accesses of overlapping bytes, one a
 * write, with no happens-before edge between them are reported as a RACE;
 * a free whose memory unordered queued work still uses, and work on freed
 * memory, as a USE-AFTER-FREE.
 *
 * The hooks below are one line at each point of the library that queues,
 * orders or frees; with races off each costs one test of
 * npu_rt_check_flags.  The checker's lock is innermost: it may be taken
 * under any library lock (not the check registry's), nothing inside it.
 *
 * Hook API for other parts of the library
 * ---------------------------------------
 * - Any STREAM_SUBMIT that succeeded: npu_rt_races_submit(&ref, &req) with
 *   the stream's ref and the request as submitted (op, ranges, event...).
 *   A graph replay that queues its recorded operations one by one calls it
 *   for each (with the replay stream's ref); work queued while a stream is
 *   being captured into a graph does not run then and must not be passed.
 * - Stream-ordered memory pool (aclrtMemPoolMallocAsync/FreeAsync):
 *   npu_rt_races_pool_alloc(&ref, ptr, size) when [ptr, +size) is handed
 *   out in stream order on ref's stream, npu_rt_races_pool_free(&ref, ptr,
 *   size) when it is given back in stream order (size 0: the whole block
 *   its alloc named at ptr).  Work of another stream
 *   must be ordered after the alloc (an event) and before the free, else it
 *   is reported; work on the range between the free and the next alloc is a
 *   USE-AFTER-FREE.
 */
#ifndef NPU_RT_RACES_H
#define NPU_RT_RACES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "report.h"

struct npu_sim_stream_submit;
struct npu_rt_copy;

#define NPU_RT_RACES_ON() (npu_rt_check_flags & NPU_RT_CHECK_RACES)

/* Kinds of memory regions (what an allocation report names). */
enum npu_rt_races_region {
	NPU_RT_RR_DEVICE = 1,	/* aclrtMalloc family */
	NPU_RT_RR_PINNED,	/* aclrtMallocHost */
	NPU_RT_RR_REGISTERED,	/* aclrtHostRegister */
	NPU_RT_RR_POOL,		/* a stream-ordered pool allocation */
};

void npu_rt_races_submit_(int dev, uint32_t stream, const struct npu_sim_stream_submit *req);
void npu_rt_races_synced_(int dev, uint32_t stream);
void npu_rt_races_event_synced_(int dev, uint32_t event);
void npu_rt_races_destroyed_(int dev, bool event, uint32_t id);
void npu_rt_races_device_closed_(int dev);
void npu_rt_races_host_copy_(const struct npu_rt_copy *c, uint32_t dir);
void npu_rt_races_host_access_(uintptr_t p, size_t len, bool device, bool write);
void npu_rt_races_region_add_(uintptr_t p, uint64_t size, enum npu_rt_races_region kind, int dev);
void npu_rt_races_region_free_(uintptr_t p);
void npu_rt_races_callback_run_(uint64_t cookie);
void npu_rt_races_callback_done_(void);
/* Fork handlers (check.c's, under fork.c): the child starts with nothing. */
void npu_rt_races_atfork_prepare(void);
void npu_rt_races_atfork_parent(void);
void npu_rt_races_atfork_child(void);
void npu_rt_races_pool_(int dev, uint32_t stream, uintptr_t p, uint64_t size, bool alloc);

/* req was queued on ref's stream (STREAM_SUBMIT succeeded). */
#define npu_rt_races_submit(ref, req) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_submit_((ref)->dev, (ref)->kid, (req)); } while (0)
/* STREAM_SYNC of stream (0: every stream of device dev) found its work
 * complete (synchronize, query, a copy that waited). */
#define npu_rt_races_synced(dev, stream) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_synced_((dev), (stream)); } while (0)
/* EVENT_SYNC found event complete (synchronize, query). */
#define npu_rt_races_event_synced(dev, event) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_event_synced_((dev), (event)); } while (0)
/* A stream (its work done or dropped) or an event of device dev (kernel id
 * id) was destroyed. */
#define npu_rt_races_destroyed(dev, event, id) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_destroyed_((dev), (event), (id)); } while (0)
/* Device dev is closing (reset): its streams are done. */
#define npu_rt_races_device_closed(dev) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_device_closed_(dev); } while (0)
/* A synchronous copy of direction dir (enum npu_sim_copy_dir) was made by
 * the calling thread. */
#define npu_rt_races_host_copy(c, dir) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_host_copy_((c), (dir)); } while (0)
/* The calling thread read or wrote [p, +len) of device (or host) memory. */
#define npu_rt_races_host_access(p, len, device, write) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_host_access_((uintptr_t)(p), (len), (device), (write)); } while (0)
/* Memory [p, +size) came to be (device memory of device dev, pinned or
 * registered host memory: dev -1); it went (a free: checked against
 * unordered queued work).  Device memory still there when its device
 * closes goes with it. */
#define npu_rt_races_region_add(p, size, kind, dev) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_region_add_((uintptr_t)(p), (size), (kind), (dev)); } while (0)
#define npu_rt_races_region_free(p) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_region_free_((uintptr_t)(p)); } while (0)
/* Host memory [p, +size) was registered with device address alias on
 * device dev (both are checked, as separate addresses); it was
 * unregistered (checked against unordered queued work, as a free). */
#define npu_rt_races_registered(p, alias, size, dev) \
	do { if (NPU_RT_RACES_ON()) { npu_rt_races_region_add_((uintptr_t)(p), (size), NPU_RT_RR_REGISTERED, -1); \
		npu_rt_races_region_add_((uintptr_t)(alias), (size), NPU_RT_RR_REGISTERED, (dev)); } } while (0)
#define npu_rt_races_unregistered(p, alias) \
	do { if (NPU_RT_RACES_ON()) { npu_rt_races_region_free_((uintptr_t)(p)); \
		npu_rt_races_region_free_((uintptr_t)(alias)); } } while (0)
/* The calling thread runs / has run the callback of cookie. */
#define npu_rt_races_callback_run(cookie) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_callback_run_(cookie); } while (0)
#define npu_rt_races_callback_done() \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_callback_done_(); } while (0)
/* The memory pool handed out / took back [p, +size) in the order of ref's
 * stream (see the hook API above). */
#define npu_rt_races_pool_alloc(ref, p, size) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_pool_((ref)->dev, (ref)->kid, (uintptr_t)(p), (size), true); } while (0)
#define npu_rt_races_pool_free(ref, p, size) \
	do { if (NPU_RT_RACES_ON()) npu_rt_races_pool_((ref)->dev, (ref)->kid, (uintptr_t)(p), (size), false); } while (0)

#endif /* NPU_RT_RACES_H */
