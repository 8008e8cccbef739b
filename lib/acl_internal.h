/*
 * libacl_rt internals shared by the API-group files.
 *
 * Lock order (take in this order, release in reverse):
 *   init lock (init.c) -> device table lock (device.c) -> host registry
 *   lock (memory_host.c).
 * The device table lock is a read/write lock: every call that uses a
 * device's fd holds it for reading across the ioctl, so aclrtResetDevice
 * (which takes it for writing) cannot close an fd under a running call.
 */
#ifndef NPU_RT_INTERNAL_H
#define NPU_RT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <misc/npu_sim.h>

#include "acl/acl.h"
#include "copy_rules.h"
#include "errmap.h"

/* Device ids 0..NPU_RT_MAX_DEVICES-1 (the module creates at most 16). */
#define NPU_RT_MAX_DEVICES 64

/* ---- device.c -------------------------------------------------------- */

/*
 * Take the device table lock for reading and find the calling thread's
 * current device.  ACL_SUCCESS: *dev is set and the lock is HELD (release
 * with npu_rt_devices_unlock); ACL_ERROR_RT_CONTEXT_NULL: no current
 * device, lock not held.
 */
aclError npu_rt_enter_current(int *dev);
void npu_rt_devices_read_lock(void);
void npu_rt_devices_unlock(void);
/* With the lock held: fd of open device dev. */
int npu_rt_device_fd_locked(int dev);
/* With the lock held: VA windows of all devices, indexed by device id. */
const struct npu_rt_window *npu_rt_windows_locked(void);
/* Close every device context of this process (aclFinalize). */
void npu_rt_devices_release_all(void);

/* ---- transport.c: the ioctl transport to /dev/npu_simN -------------- */

/* All return 0 or a negative errno. */
int npu_rt_open_device(int index, int *fd);
int npu_rt_ioctl(int fd, unsigned long request, void *arg);
int npu_rt_get_param(int fd, uint32_t param, uint64_t *value);
/* -EPROTO when the module speaks another major (or older minor) ABI. */
int npu_rt_check_api_version(int fd);
int npu_rt_map_window(int fd, uint64_t size, uintptr_t *start);
void npu_rt_unmap_window(uintptr_t start, uint64_t size);

/* ---- memory_host.c -------------------------------------------------- */

/* 1 and the block [*base, *base + *len) if p lies in a live aclrtMallocHost
 * block, else 0.  O(n) in the number of blocks. */
int npu_rt_host_find(uintptr_t p, uintptr_t *base, size_t *len);

/* ---- fork handling (fork.c calls these in lock order) ---------------- */

/* Register the pthread_atfork handlers (once per process). */
void npu_rt_fork_handlers_once(void);

void npu_rt_init_atfork_prepare(void);
void npu_rt_init_atfork_parent(void);
void npu_rt_init_atfork_child(void);
void npu_rt_devices_atfork_prepare(void);
void npu_rt_devices_atfork_parent(void);
void npu_rt_devices_atfork_child(void);
void npu_rt_host_atfork_prepare(void);
void npu_rt_host_atfork_parent(void);
void npu_rt_host_atfork_child(void);

#endif /* NPU_RT_INTERNAL_H */
