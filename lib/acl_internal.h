/*
 * libacl_rt internals shared by the files of lib/ (README "Layout").
 *
 * Files, lowest layer first (a file calls only files listed before it,
 * never one after it; tests/tools/test-lib-layers checks this and that
 * there is no call circle, on the built objects):
 *   api/err_msg.c       the per-thread message store every file leaves its
 *                       failure details in, and aclGetRecentErrMsg
 *   rules/address.c rules/policy.c rules/profile.c rules/meminfo_rules.c
 *   rules/platform_spec.c rules/key_string.c
 *                       pure: the address model, malloc policy, product
 *                       profiles, aclrtGetMemInfo figures, SoC platform
 *                       figures, key strings
 *   rules/errmap.c rules/copy_rules.c rules/vmm_rules.c rules/device_rules.c
 *                       pure, with message details: errno -> aclError,
 *                       copy planning, VMM argument rules, device settings
 *   core/uapi_check.c   build-time check of the UAPI layout (no code)
 *   core/transport.c    the ioctl transport to /dev/npu_simN
 *   core/handles.c      the registry of context, stream and event handles
 *   diag/symbolize.c diag/report.c  call sites and report blocks
 *   diag/races_clock.c diag/races_shadow.c diag/races.c  NPU_SIM_CHECK=races
 *   diag/check.c        NPU_SIM_CHECK leak, misuse and init reports
 *   diag/faults.c diag/limits.c    NPU_SIM_FAULTS, NPU_SIM_MEM_LIMIT
 *   api/device.c        the device calls and the device table every file
 *                       below enters
 *   core/range_check.c  live-range check of device memory (VMM_QUERY)
 *   diag/alloc_diag.c   why an allocation failed, for the message
 *   diag/trace_fmt.c diag/trace.c  the call trace (NPU_SIM_TRACE)
 *   api/errors.c        the calling thread's last error (aclrtGetLastError)
 *   api/data_type.c api/system.c api/callbacks_init.c api/app_log.c
 *   api/cann_attr.c api/mem_uce.c
 *   api/init.c api/data_buffer.c api/allocator.c api/soc_name.c api/host_register.c
 *   api/memory_info.c api/stream_state.c api/model_ri_taskgrp_state.c api/model_ri_capture.c api/context.c
 *   api/device_info.c api/device_limits.c
 *   api/host_buf.c api/device_state.c api/exception_info.c
 *   api/exception_info_get.c api/stream.c
 *   api/stream_ctl.c api/stream_config.c api/stream_res.c api/event.c api/callback.c
 *   api/memory_host.c api/memory_linear.c api/peer.c api/copy.c
 *   api/copy_async.c api/memcpy_batch.c api/reduce.c api/cmo.c
 *   api/mem_pool_defer.c api/mem_pool.c api/memcpy_desc.c
 *   api/vmm.c api/vmm_share.c api/ipc_mem.c api/managed.c
 *   api/notify.c api/model_ri_build.c api/model_ri_taskgrp.c api/model_ri.c api/model_ri_cond.c api/label.c
 *                       the other chapters of the public headers
 *   entry/fork.c        the fork handlers, which take every lock below
 *   entry/api_wrap.c    the exported wrapper of every aclError call
 *
 * The rule: no library lock is held across anything that can block on the
 * device: a stream, event or device synchronize (with or without timeout),
 * a copy from pageable memory (it waits for its stream), a stream destroy
 * (it waits for the queued work) or the wait of aclrtResetDeviceForce.
 * Such a call takes a hold (npu_rt_hold_locked: a dup of the device fd)
 * under the device table lock, releases the lock and blocks on the hold;
 * so aclrtSetDevice, aclrtResetDevice, create and destroy in other threads
 * (and the writer a wait is waiting for) never wait behind it.
 *
 * Lock order (take in this order, release in reverse):
 *   init lock (init.c) -> init callback lock (callbacks_init.c) ->
 *   device table lock (device.c) -> handle registry
 *   lock (handles.c), host registry lock (memory_host.c), host
 *   registration table lock (host_register.c), hold list lock (device.c)
 *   or callback lock (callback.c); no two of those five are held together.  The check
 *   registry lock (check.c) is taken alone, under the device table lock
 *   (a closing device's leaks) or under the graph lock; only the race
 *   checker's lock (races.c), the innermost, is taken inside it, and
 *   nothing inside that one.  The graph lock (model_ri_capture.c) is taken
 *   alone or under the device table lock, never with one of those five;
 *   only the check registry lock and the race checker's lock are taken
 *   inside it.  The deferred pool free lock (mem_pool_defer.c) is taken
 *   alone or under the device table lock, nothing inside it.
 *   The data buffer lock (data_buffer.c), the allocator lock
 *   (allocator.c), the device settings lock (device_limits.c), the host
 *   buffer lock (host_buf.c), the device state callback lock
 *   (device_state.c) and the stream state callback lock (stream_state.c)
 *   are only ever held alone.
 * The device table lock is a read/write lock: every other call that uses
 * a device's fd holds it for reading across the ioctl, so aclrtResetDevice
 * (which takes it for writing) cannot close an fd under a running call.
 */
#ifndef NPU_RT_INTERNAL_H
#define NPU_RT_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include <misc/npu_sim.h>

#include "acl/acl.h"
#include "address.h"
#include "copy_rules.h"
#include "errmap.h"

/* Device ids 0..NPU_RT_MAX_DEVICES-1 (the module creates at most 16). */
#define NPU_RT_MAX_DEVICES 64

/* ---- errors.c -------------------------------------------------------- */

/* A call failed with err: what aclrtGetLastError returns next (the
 * exported wrappers, api_wrap.c, call it). */
void npu_rt_last_error_note(aclError err);

/* ---- callbacks_init.c: the aclInit / aclFinalize callbacks ---------- */

/* aclInit's callbacks, with config file path's content (path NULL or "":
 * none): ACL_SUCCESS or the first failure's code (100003 unreadable). */
aclError npu_rt_init_callbacks(const char *path);
/* aclFinalize's callbacks: ACL_SUCCESS or the first failure's code. */
aclError npu_rt_finalize_callbacks(void);
void npu_rt_initcb_atfork_prepare(void);
void npu_rt_initcb_atfork_parent(void);
void npu_rt_initcb_atfork_child(void);

/* ---- device.c -------------------------------------------------------- */

/*
 * Take the device table lock for reading and find the calling thread's
 * current device.  ACL_SUCCESS: *dev is set and the lock is HELD (release
 * with npu_rt_devices_unlock); ACL_ERROR_RT_CONTEXT_NULL: no current
 * device, lock not held.
 */
aclError npu_rt_enter_current(int *dev);
/* With the table lock held: the calling thread's current device, or -1. */
int npu_rt_current_dev_locked(void);
/*
 * Issue request on the current device (the lock held across it):
 * ACL_SUCCESS with *rc the ioctl's 0 or negative errno, or
 * ACL_ERROR_RT_CONTEXT_NULL when there is no current device.
 */
aclError npu_rt_ioctl_current(unsigned long request, void *arg, int *rc);
/* 107001 unless id names a device of the module (device.c). */
aclError npu_rt_device_id_check(int32_t id, const char *what);
/* Fill a key's whitelist (shareable handles and IPC keys; vmm_share.c). */
aclError npu_rt_share_set_pids(uint64_t key, int32_t *pid, size_t num, aclError bad, int *rc);
void npu_rt_devices_read_lock(void);
/* No call between its handle check and its ioctl meanwhile (a stream
 * destroy's capture check and take: context.c). */
void npu_rt_devices_write_lock(void);
void npu_rt_devices_unlock(void);
/* With the lock held: fd of open device dev. */
int npu_rt_device_fd_locked(int dev);
/* A call's own reference to a device file, for a wait without the lock. */
struct npu_rt_hold {
	int fd;			/* a dup of the device's fd */
	struct npu_rt_hold *next, *prev;
};
/* With the lock held (and still held after): a hold on device fd fd.
 * 0, or a negative errno and no hold. */
int npu_rt_hold_locked(int fd, struct npu_rt_hold *h);
/* Release a hold (no lock needed). */
void npu_rt_hold_drop(struct npu_rt_hold *h);
/*
 * With the lock held: release it and issue request, one that may block on
 * the device, on device fd fd through a hold.  0 or a negative errno.
 */
int npu_rt_ioctl_unlock(int fd, unsigned long request, void *arg);
/* With the lock held: the product profile open device dev poses as. */
struct npu_sim_profile;
const struct npu_sim_profile *npu_rt_device_profile_locked(int dev);
/*
 * GET_PARAM param of an open device, else of /dev/npu_sim0 opened for the
 * question (table lock NOT held by the caller): 0 or a negative errno.
 */
int npu_rt_ask_any_device(uint32_t param, uint64_t *value);
/*
 * Whether the product the driver poses as has NPU_SIM_PROFILE_* feature
 * (the runtime's chip feature table: process-wide, no set device needed);
 * *product (when not NULL) its name.  True when no device answers.
 */
bool npu_rt_product_has(uint32_t feature, const char **product);
/* With the lock held: where [p, p + len) lies among the open devices. */
struct npu_rt_loc npu_rt_locate_locked(const void *p, size_t len);
/*
 * Take the lock for reading when [p, p + len) lies in one open device's
 * window: 0 with *dev set and the lock HELD; else -1, lock not held.
 */
int npu_rt_enter_addr(const void *p, size_t len, int *dev);
/* Take the lock for reading when device dev is open in this process:
 * ACL_SUCCESS, lock HELD; else ACL_ERROR_RT_CONTEXT_NULL, not held. */
aclError npu_rt_enter_device(int dev);
/* Called (when set) with an aclrtDeviceState as aclrtSetDevice opens
 * (SET_PRE) or sets (SET_POST) a device and aclrtResetDevice closes one
 * (RESET_PRE, RESET_POST); no library lock held.  Set by device_state.c. */
extern void (*npu_rt_device_state_hook)(int32_t dev, int state);
/* Close every device context of this process (aclFinalize). */
void npu_rt_devices_release_all(void);

/* ---- copy.c, for copy_async.c ---------------------------------------- */

/*
 * The ACL layer's checks of aclrtMemsetD32(Async): ACL_SUCCESS with *loc
 * (device memory, or host memory in an aclrtMallocHost block) and the
 * table lock HELD; else the error, lock not held.  N > 0.
 */
aclError npu_rt_d32_check(void *ptr, size_t memSize, size_t N, struct npu_rt_loc *loc);

/* With the lock held: ACL_SUCCESS (still held) when the calling thread has
 * a current device; else 107002, lock released. */
aclError npu_rt_d32_current_locked(void);
/* Set N words of aclrtMallocHost memory at ptr to value (lock not held). */
aclError npu_rt_d32_set_host(void *ptr, uint32_t value, size_t N);

/*
 * With the table lock held: how copy c of kind is carried out; correct:
 * first correct the kind from where dst and src are, as the runtime does
 * for the asynchronous and 2D copies (npu_rt_memcpy_kind_correct).
 */
aclError npu_rt_copy_plan_locked(const struct npu_rt_copy *c, aclrtMemcpyKind kind, bool correct,
				 struct npu_rt_copy_route_plan *plan);

/* Whether every byte of the host range [p, p + len) is aclrtMallocHost memory. */
bool npu_rt_host_pinned(const void *p, size_t len);

/*
 * Fill the fields of copy c, direction dir, into req: struct
 * npu_sim_memcpy2d and struct npu_sim_stream_submit spell them alike.
 */
#define NPU_RT_SET_COPY_FIELDS(req, c, d)		\
	do {						\
		(req)->dst = (c)->dst;			\
		(req)->dpitch = (c)->dpitch;		\
		(req)->src = (c)->src;			\
		(req)->spitch = (c)->spitch;		\
		(req)->width = (c)->width;		\
		(req)->height = (c)->height;		\
		(req)->dir = (d);			\
	} while (0)

/* ---- peer.c, for copy.c and copy_async.c ---------------------------- */

/*
 * With the table lock held: ACL_SUCCESS when device issuer (which carries
 * the cross-device copy of plan, route PEER) has peer access to each of
 * the copy's other devices; else ACL_ERROR_RT_FEATURE_NOT_SUPPORT with a
 * message naming aclrtDeviceEnablePeerAccess.
 */
aclError npu_rt_peer_check_locked(int issuer, const struct npu_rt_copy_route_plan *plan);

/* ---- transport.c: the ioctl transport to /dev/npu_simN -------------- */

/* All return 0 or a negative errno. */
int npu_rt_open_device(int index, int *fd);
int npu_rt_ioctl(int fd, unsigned long request, void *arg);
/* npu_rt_ioctl's body, for the per-call paths that issue it without its
 * call frame (aclrtMemcpy's single MEMCPY); 0 or a negative errno. */
static inline __attribute__((always_inline)) int npu_rt_ioctl_inline(int fd, unsigned long request, void *arg)
{
	int rc;

	do {
		rc = ioctl(fd, request, arg);
	} while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : 0;
}
int npu_rt_get_param(int fd, uint32_t param, uint64_t *value);
/* -EPROTO when the module speaks another major (or older minor) ABI. */
int npu_rt_check_api_version(int fd);
int npu_rt_map_window(int fd, uint64_t size, uintptr_t *start);
void npu_rt_unmap_window(uintptr_t start, uint64_t size);

/* ---- memory_host.c -------------------------------------------------- */

/* 1 and the block [*base, *base + *len) if p lies in a live aclrtMallocHost
 * block, else 0.  O(n) in the number of blocks. */
int npu_rt_host_find(uintptr_t p, uintptr_t *base, size_t *len);

/* ---- device.c, for contexts ------------------------------------------ */

/* With the lock held: epoch of open device dev, 0 when it is not open. */
uint64_t npu_rt_device_epoch_locked(int dev);
/* Make (dev, epoch) the calling thread's current device; lock not held.
 * ACL_ERROR_RT_PARAM_INVALID when that opening of dev is gone. */
aclError npu_rt_device_bind_current(int dev, uint64_t epoch);

/* ---- handles.c: the registry of context, stream and event handles ---- */

/*
 * Library objects behind aclrtContext / aclrtStream / aclrtEvent.  A handle
 * is only dereferenced after it was found in the registry (under the
 * registry lock, the innermost lock), so a destroyed or made-up handle is
 * an error, never a crash.  Contexts live in the library (a process has one
 * /dev/npu_simN file per device); streams and events are kernel objects of
 * that file, tagged with their context's id for debugfs.
 */
enum npu_rt_obj_type { NPU_RT_OBJ_CTX = 1, NPU_RT_OBJ_STREAM, NPU_RT_OBJ_EVENT,
		       NPU_RT_OBJ_NOTIFY, NPU_RT_OBJ_CNT_NOTIFY };

struct npu_rt_obj {
	struct npu_rt_obj *next, *prev;
	enum npu_rt_obj_type type;
	int dev;
	uint64_t epoch;		/* which opening of dev */
	uint32_t ctx_id;	/* the context (or its own id) */
	uint32_t kid;		/* kernel stream/event id; ctx: default stream */
	int is_default;		/* ctx: the default context of dev; stream:
				 * the handle of a context's default stream */
	struct npu_rt_stream_opts {	/* stream (ctx: its default stream) */
		uint32_t overflow, tag, cache_op;	/* stream attributes */
		uint32_t res[2];	/* per aclrtDevResLimitType */
		uint32_t res_set;	/* bit per type with a limit */
	} opts;
	uint32_t ev_flags;	/* event: ACL_EVENT_* it was made with, NPU_RT_EV_* */
	uint32_t ev_op_flag[2];	/* event: record / wait flag + 1 of its first one */
};

/* ev_flags bits above the ACL_EVENT_* flags. */
#define NPU_RT_EV_EX		(1U << 16)	/* aclrtCreateEventExWithFlag */
#define NPU_RT_EV_IMPORTED	(1U << 17)	/* aclrtIpcOpenEventHandle */

/* Register a new stream/event object; NULL when out of memory. */
struct npu_rt_obj *npu_rt_obj_add(enum npu_rt_obj_type type, int dev, uint64_t epoch,
				  uint32_t ctx_id, uint32_t kid);
/* Remove a live object of type from the registry (the caller frees it);
 * NULL if handle is not one. */
struct npu_rt_obj *npu_rt_obj_take(void *handle, enum npu_rt_obj_type type);
/* Set the ev_flags of event o, new and not yet handed out. */
void npu_rt_obj_set_ev_flags(struct npu_rt_obj *o, uint32_t flags);
/*
 * An event's record (op 0) or wait (op 1) uses flag: 0 when it is the flag
 * of the event's first one (now recorded as that), -1 when another, -2 no
 * such event.
 */
int npu_rt_event_op_flag(const void *handle, int op, uint32_t flag);
/* The handle of the live stream or event (type) with kernel id kid on (dev,
 * epoch), or NULL (a context's default stream has none until asked for). */
void *npu_rt_obj_handle_of(enum npu_rt_obj_type type, int dev, uint64_t epoch, uint32_t kid);
/* 0 and a copy of the live object of type handle is; -1 if none. */
int npu_rt_obj_get(const void *handle, enum npu_rt_obj_type type, struct npu_rt_obj *copy);
/*
 * 1 when handle (not NULL) no longer names the live object of type with
 * kernel id kid on dev that the call's handle check found: after a driver
 * ENOENT that may name it or another object of the call, whether it was
 * destroyed under the call (then npu_rt_obj_errno's code), else 0.
 */
int npu_rt_obj_died(const void *handle, enum npu_rt_obj_type type, int dev, uint32_t kid);
/* A new context of (dev, epoch), made the thread's current; NULL: no memory. */
struct npu_rt_obj *npu_rt_ctx_create(int dev, uint64_t epoch);
/*
 * Remove context handle if it is a live non-default context of epoch, with
 * its streams and events (listed through ->next in *gone); the caller
 * frees them all.  NULL when it is not.
 */
struct npu_rt_obj *npu_rt_ctx_take(void *handle, uint64_t epoch, struct npu_rt_obj **gone);
void npu_rt_ctx_make_current(struct npu_rt_obj *c);
/* The thread's context on (dev, epoch) (made when missing) and its id;
 * NULL and id 0 when out of memory. */
void *npu_rt_ctx_current(int dev, uint64_t epoch, uint32_t *ctx_id);
/* STREAM_CREATE on fd (flags: NPU_SIM_STREAM_FLAGS_MASK bits): 0 and *sid,
 * or a negative errno. */
int npu_rt_stream_create_kernel(int fd, uint32_t ctx_id, uint32_t priority, uint32_t flags, uint32_t *sid);
/* The kernel id of the current context's default stream on fd, created on
 * first use: 0, -ENOMEM (no context) or STREAM_CREATE's error. */
int npu_rt_ctx_default_stream(int dev, uint64_t epoch, int fd, uint32_t *sid);
/*
 * The options of stream (NULL: the default stream of the thread's context
 * on (dev, epoch)): edit(opts, arg) applied if edit is not NULL (under the
 * registry lock: keep it short, call nothing), then copied to *out.  0, or
 * -1 when stream is not a live stream (or there is no such context).
 */
int npu_rt_stream_opts(const void *stream, int dev, uint64_t epoch,
		       void (*edit)(struct npu_rt_stream_opts *opts, const void *arg), const void *arg,
		       struct npu_rt_stream_opts *out);
/* The handle of the default stream (kernel id sid) of the thread's context
 * on (dev, epoch), registered on first use: 0 or -ENOMEM. */
int npu_rt_ctx_default_handle(int dev, uint64_t epoch, uint32_t sid, void **handle);
/* Device table hooks (table lock held for writing). */
void npu_rt_handles_device_opened(int dev, uint64_t epoch);
void npu_rt_handles_device_closed(int dev);
void npu_rt_handles_atfork_child(void);

/* ---- stream_ctl.c ----------------------------------------------------- */

/* npu_rt_stream_opts of stream (NULL: the default stream) after its handle
 * guard: ACL_SUCCESS, 107017 not live, 107002 NULL and no current device. */
aclError npu_rt_stream_opts_edit(aclrtStream stream, void (*edit)(struct npu_rt_stream_opts *, const void *),
				 const void *arg, struct npu_rt_stream_opts *out);

/* ---- stream_state.c --------------------------------------------------- */

/* Call the aclrtRegStreamStateCallback callbacks for stream (no library
 * lock may be held). */
void npu_rt_stream_state_notify(void *stream, aclrtStreamState state);

/* ---- context.c ------------------------------------------------------- */

/* A resolved stream or event: device, its fd and the kernel object id. */
struct npu_rt_ref {
	int dev;
	int fd;
	uint32_t kid;
	uint32_t ev_flags;	/* an event's npu_rt_obj.ev_flags */
	uint32_t ctx_id;	/* the context the stream or event belongs to */
};

/* With the table lock held: current context's id for device dev. */
uint32_t npu_rt_current_ctx_id_locked(int dev);
/* aclError of STREAM_CREATE's / EVENT_CREATE's negative errno rc. */
aclError npu_rt_create_error(enum npu_rt_obj_type type, int rc);
/* aclrtCreateStream / aclrtCreateEvent in the current context (priority:
 * a stream's priority; an event's EVENT_CREATE flags). */
aclError npu_rt_obj_create(enum npu_rt_obj_type type, uint32_t priority, void **handle);
/* A stream with priority and ACL stream flags (STREAM_CREATE flags). */
aclError npu_rt_stream_create(uint32_t priority, uint32_t flags, void **handle);
/*
 * Lock the table and resolve handle, a live stream or event of type of an
 * open device: ACL_SUCCESS with the lock HELD, else 107000 (not held).
 */
aclError npu_rt_obj_enter(const void *handle, enum npu_rt_obj_type type, struct npu_rt_ref *ref);
/* aclrtDestroyStream / aclrtDestroyEvent of handle; flags: STREAM_DESTROY
 * flags (NPU_SIM_DESTROY_FORCE for aclrtDestroyStreamForce), 0 for events. */
aclError npu_rt_obj_destroy(void *handle, enum npu_rt_obj_type type, uint32_t flags);

/* ---- callback.c, for model_ri.c -------------------------------------- */

/* Table lock held: subscribe ref's stream to the library's host function
 * thread (started when missing): 0 or a negative errno (-EBUSY: subscribed). */
int npu_rt_callback_runtime_subscribe_locked(const struct npu_rt_ref *ref);

/* ---- stream.c -------------------------------------------------------- */


/*
 * Resolve stream (NULL: the current context's default stream).  On
 * ACL_SUCCESS the device table lock is HELD (npu_rt_devices_unlock).
 * Errors: 107002 NULL stream and no current device; 107000 not a live
 * stream.
 */
aclError npu_rt_stream_enter(aclrtStream stream, struct npu_rt_ref *ref);
/*
 * With the table lock held (npu_rt_stream_enter): the runtime's check that
 * the stream belongs to the calling thread's current context, made by
 * every call that queues work on a stream or changes it (ApiImpl:
 * "stream is not in current context").  ACL_SUCCESS with the lock still
 * held; else the lock is released and 107002 (no current device) or 107003
 * (a stream of another context, also of another device) returned.
 */
aclError npu_rt_stream_ctx_check_locked(const struct npu_rt_ref *ref);
/* npu_rt_stream_enter, then npu_rt_stream_ctx_check_locked. */
aclError npu_rt_stream_enter_ctx(aclrtStream stream, struct npu_rt_ref *ref);

/* aclError of a stream/event ioctl's negative errno rc: -ENOENT (the
 * stream or event was destroyed after the handle check) is 107017. */
aclError npu_rt_obj_errno(int rc);
/* aclError of the negative errno a stream's async work failed with. */
aclError npu_rt_async_error(int err);
/* With the table lock held: ACL_SUCCESS (still held) when ref's context
 * keeps no STOP-mode failure; else that failure's code (the driver's
 * CTX_FAILURE), lock released. */
aclError npu_rt_ctx_failure_refused(const struct npu_rt_ref *ref);
/* Called before a context is first made STOP (aclrtSetStreamFailureMode):
 * from then on synchronizes ask npu_rt_ctx_failure_refused. */
void npu_rt_ctx_stop_seen(void);
/* Whether npu_rt_ctx_stop_seen was ever called in this process. */
bool npu_rt_ctx_stop_ever(void);
/* aclError of a ref's stream or event ioctl's rc: -EPIPE (its context's
 * kept failure, table lock held) is that failure's code, the rest as
 * npu_rt_obj_errno. */
aclError npu_rt_stream_errno(const struct npu_rt_ref *ref, int rc);
/*
 * Queue req on ref's stream (STREAM_SUBMIT) and, when wait, wait for the
 * stream's work.  Table lock held; released here (before the wait).
 */
aclError npu_rt_stream_submit(const struct npu_rt_ref *ref, struct npu_sim_stream_submit *req, int wait);
/* Wait for all work of the current device (flags 0 or NPU_SIM_SYNC_KEEP). */
aclError npu_rt_device_sync(uint32_t flags);
/* A priority as the runtime takes it: read signed, clamped to 0..7. */
uint32_t npu_rt_stream_priority_clamp(uint32_t priority);
/* aclrtCreateStreamWithConfig / aclrtCreateStreamV2: the checks, then a
 * stream of priority (clamped) and flag (ACL_STREAM_* bits kept). */
aclError npu_rt_stream_create_config(uint32_t priority, uint64_t flag, aclrtStream *stream);

/* ---- copy_async.c, for reduce.c and cmo.c ---------------------------- */

/*
 * With the table lock held: ACL_SUCCESS when [p, p + len) is device
 * memory of ref's device; ACL_ERROR_RT_STREAM_CONTEXT (107003) another
 * device's; ACL_ERROR_RT_PARAM_INVALID (107000) host memory or partly
 * device memory.  name is the argument's name for the message.
 */
aclError npu_rt_stream_range_locked(const struct npu_rt_ref *ref, const void *p, size_t len, const char *name);

/* ---- event.c --------------------------------------------------------- */

/* Resolve an event as npu_rt_stream_enter does a stream (never NULL: 100000). */
aclError npu_rt_event_enter(aclrtEvent event, struct npu_rt_ref *ref);

/* ---- vmm.c, for vmm_share.c ------------------------------------------ */

/*
 * Decode handle and lock the table for its device: ACL_SUCCESS with *dev,
 * *fd, *id set and the lock HELD; 100000 NULL; 107017 not a handle of this
 * library; 107002 its device is not open (lock not held).
 */
aclError npu_rt_enter_handle(aclrtDrvMemHandle handle, int *dev, int *fd, uint32_t *id);

/* ---- exception_info.c ------------------------------------------------ */

/* Call call failed with err (the exported wrappers); stream: its first
 * argument when a handle, else NULL.  A synchronize reporting a failed
 * task calls the exception callbacks (no lock held). */
void npu_rt_exception_note(const char *call, aclError err, const void *stream);

/* ---- mem_pool_defer.c: deferred pool frees (mem_pool.c) -------------- */

/* Records of pool blocks, and deferred frees among them (mem_pool_defer.c);
 * the exported wrapper of every call but aclrtMemPoolMallocAsync/FreeAsync
 * flushes while the one it cares for is not 0 (api_wrap.c). */
extern unsigned int npu_rt_pool_held, npu_rt_pool_deferred;
/* Submit every deferred free, and drop every record when all (no lock
 * held). */
void npu_rt_pool_flush(bool all);
/* Whether this process may defer a free (race checker off, no STOP mode). */
bool npu_rt_pool_defer_ok(void);
/*
 * With the table lock held (ref's stream entered), for
 * aclrtMemPoolMallocAsync of size (rounded) bytes from driver pool pool (0:
 * none may be taken): the block of the stream's deferred free when it
 * matches (taken, no syscall), else 0 after submitting every deferred free.
 */
uint64_t npu_rt_pool_take_locked(const struct npu_rt_ref *ref, uint64_t pool, uint64_t size);
/* With the table lock held: the driver gave block va (size bytes of pool
 * pool) to ref's stream; a later free of it on that stream may defer. */
void npu_rt_pool_note_alloc_locked(const struct npu_rt_ref *ref, uint64_t pool, uint64_t va, uint64_t size);
/*
 * With the table lock held, for aclrtMemPoolFreeAsync(va) on ref's stream:
 * true when the free is deferred (may_defer, and va is the block the
 * stream's last alloc handed out); else false after submitting every
 * deferred free (the caller submits this one).
 */
bool npu_rt_pool_defer_free_locked(const struct npu_rt_ref *ref, uint64_t va, bool may_defer);

/* ---- fork handling (fork.c calls these in lock order) ---------------- */

/*
 * Register the pthread_atfork handlers (once per process; every exported
 * wrapper calls it).  data_buffer.c, whose calls are not wrapped, registers
 * the handler of its own leaf lock itself.  Inline: after the first call
 * it is one load of a flag that fork.c sets once the handlers are in
 * (no call into libc's pthread_once on every call).
 */
extern int npu_rt_fork_handlers_in;
void npu_rt_fork_handlers_register(void);
static inline void npu_rt_fork_handlers_once(void)
{
	if (__builtin_expect(!__atomic_load_n(&npu_rt_fork_handlers_in, __ATOMIC_ACQUIRE), 0))
		npu_rt_fork_handlers_register();
}

void npu_rt_stream_state_atfork_prepare(void);
void npu_rt_stream_state_atfork_parent(void);
void npu_rt_stream_state_atfork_child(void);
void npu_rt_init_atfork_prepare(void);
void npu_rt_init_atfork_parent(void);
void npu_rt_init_atfork_child(void);
void npu_rt_devices_atfork_prepare(void);
void npu_rt_devices_atfork_parent(void);
void npu_rt_devices_atfork_child(void);
void npu_rt_ri_atfork_prepare(void);
void npu_rt_ri_atfork_parent(void);
void npu_rt_ri_atfork_child(void);
void npu_rt_host_atfork_prepare(void);
void npu_rt_host_atfork_parent(void);
void npu_rt_host_atfork_child(void);
void npu_rt_hostreg_atfork_prepare(void);
void npu_rt_hostreg_atfork_parent(void);
void npu_rt_hostreg_atfork_child(void);
void npu_rt_callback_atfork_prepare(void);
void npu_rt_callback_atfork_parent(void);
void npu_rt_callback_atfork_child(void);
void npu_rt_pool_atfork_prepare(void);
void npu_rt_pool_atfork_parent(void);
void npu_rt_pool_atfork_child(void);

#endif /* NPU_RT_INTERNAL_H */
