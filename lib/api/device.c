/*
 * Devices: aclrtSetDevice / aclrtResetDevice / aclrtGetDevice /
 * aclrtGetDeviceCount / aclrtGetRunMode, and the table of device contexts.
 *
 * A device context is one open /dev/npu_simN plus its mapped VA window.
 * aclrtSetDevice counts references per process and device; the context is
 * closed (all its memory freed by the driver) when the count drops to 0.
 * The current device is per thread, as in the CANN runtime.  Each opening
 * of a device gets a new epoch, so a thread whose current device was
 * closed (by another thread, aclFinalize or fork) and later reopened does
 * not silently use the new context.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl_internal.h"
#include "check.h"
#include "races.h"
#include "err_msg.h"
#include "profile.h"
#include "faults.h"
#include "limits.h"

struct device_ctx {
	bool open;
	int fd;
	uint32_t refs;		/* aclrtSetDevice calls not yet reset */
	uint64_t epoch;		/* which opening of the device this is */
	uint64_t profile;	/* enum npu_sim_profile_index (0: driver before 1.6) */
};

/*
 * The device table lock.  Every call holds it for reading across its
 * ioctl, so a reset never closes an fd in use (its number could be reused
 * at once); the few writers open and close devices.  A reader is one
 * atomic add on table_state, no call into libc (under TCG the two calls of
 * a pthread rwlock were a good part of a small call's cost: BENCHMARKS.md
 * "Library share, round 7").  table_lock orders the writers and parks
 * the readers that meet one.  As with the default pthread rwlock, a
 * writer waits until no reader is in (so a thread may take the lock for
 * reading while it holds it for reading), and the last reader out hands
 * it over.
 */
#define TABLE_WRITER	0x80000000u	/* a writer holds the table */
#define TABLE_WAITING	0x40000000u	/* a writer sleeps until no reader is in */
static uint32_t table_state;		/* readers in, and the two flags */
static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct device_ctx devices[NPU_RT_MAX_DEVICES];
static struct npu_rt_window windows[NPU_RT_MAX_DEVICES];
static int windows_n;		/* 1 + highest open device: the slots to scan */
static uint64_t last_epoch;	/* never reset, not even in a fork child */

/* The thread's current device, one struct: one address for both fields
 * (initial-exec TLS, lib/lib.mk). */
static __thread struct {
	int dev;
	uint64_t epoch;
} current = { .dev = -1 };

/* Live holds (calls blocked on a device), for the fork child to close. */
static pthread_mutex_t holds_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npu_rt_hold *holds;

/* Set by device_state.c once a device state callback is registered. */
void (*npu_rt_device_state_hook)(int32_t dev, int state);

/* Tell the device state callbacks (no library lock held). */
static void state_note(int32_t dev, int state)
{
	void (*hook)(int32_t, int) = __atomic_load_n(&npu_rt_device_state_hook, __ATOMIC_ACQUIRE);

	if (hook != NULL)
		hook(dev, state);
}

static void table_futex(int op, uint32_t val)
{
	syscall(SYS_futex, &table_state, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

/*
 * The last reader out hands the table to the writer that waits for it (as
 * glibc's rwlock does): readers coming later meet WRITER, so a writer is
 * not starved by threads that keep calling.  A reader that came in
 * meanwhile hands it over when it leaves.
 */
static __attribute__((noinline, cold)) void hand_to_writer(void)
{
	uint32_t s = TABLE_WAITING;

	if (__atomic_compare_exchange_n(&table_state, &s, TABLE_WRITER, false, __ATOMIC_ACQ_REL,
					__ATOMIC_RELAXED))
		table_futex(FUTEX_WAKE, 1);
}

static inline __attribute__((always_inline)) void read_unlock(void)
{
	if (__builtin_expect(__atomic_sub_fetch(&table_state, 1, __ATOMIC_RELEASE) == TABLE_WAITING, 0))
		hand_to_writer();
}

/* A writer holds the table: wait for it out of line, then come in. */
static __attribute__((noinline, cold)) void read_lock_slow(void)
{
	do {
		read_unlock();
		pthread_rwlock_rdlock(&table_lock);	/* until the writer is done */
		pthread_rwlock_unlock(&table_lock);
	} while (__atomic_fetch_add(&table_state, 1, __ATOMIC_ACQUIRE) & TABLE_WRITER);
}

/* always_inline: the shared library's link (LTO) inlines it into every
 * call's path, as it does the unlock. */
inline __attribute__((always_inline)) void npu_rt_devices_read_lock(void)
{
	if (__builtin_expect(__atomic_fetch_add(&table_state, 1, __ATOMIC_ACQUIRE) & TABLE_WRITER, 0))
		read_lock_slow();
}

void npu_rt_devices_write_lock(void)
{
	uint32_t s;

	pthread_rwlock_wrlock(&table_lock);	/* one writer at a time */
	s = __atomic_load_n(&table_state, __ATOMIC_RELAXED);
	for (;;) {
		if (s & TABLE_WRITER)	/* handed over by the last reader (hand_to_writer) */
			return;
		if ((s & ~TABLE_WAITING) == 0) {	/* no reader in: take it, clear WAITING */
			if (__atomic_compare_exchange_n(&table_state, &s, TABLE_WRITER, false, __ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED))
				return;
			continue;
		}
		if (!(s & TABLE_WAITING) &&
		    !__atomic_compare_exchange_n(&table_state, &s, s | TABLE_WAITING, false, __ATOMIC_RELAXED,
						 __ATOMIC_RELAXED))
			continue;
		table_futex(FUTEX_WAIT, s | TABLE_WAITING);	/* readers do not wait on the user */
		s = __atomic_load_n(&table_state, __ATOMIC_RELAXED);
	}
}

/*
 * For a reader or the writer: WRITER is set only while the writer holds
 * the table, and never while a reader holds it (its count is in).
 */
static __attribute__((noinline, cold)) void write_unlock(void)
{
	/* and: readers that met the writer come and go meanwhile */
	__atomic_fetch_and(&table_state, ~TABLE_WRITER, __ATOMIC_RELEASE);
	pthread_rwlock_unlock(&table_lock);
}

inline __attribute__((always_inline)) void npu_rt_devices_unlock(void)
{
	if (__builtin_expect(__atomic_load_n(&table_state, __ATOMIC_RELAXED) & TABLE_WRITER, 0))
		write_unlock();
	else
		read_unlock();
}

/* Whether the next aclrtSetDevice opens dev (pre) / a reset closes it. */
static bool device_refs_are(int32_t dev, uint32_t refs)
{
	bool r;

	npu_rt_devices_read_lock();
	r = devices[dev].open ? devices[dev].refs == refs : refs == 0;
	npu_rt_devices_unlock();
	return r;
}

const struct npu_sim_profile *npu_rt_device_profile_locked(int dev)
{
	return npu_rt_profile_get(devices[dev].profile);
}

inline int npu_rt_device_fd_locked(int dev)
{
	return devices[dev].open ? devices[dev].fd : -1;
}

/*
 * A dup of the device's fd keeps that opening's file, its streams and
 * their queued work alive across a concurrent aclrtResetDevice, which so
 * never waits for a call blocked on the device.
 */
int npu_rt_hold_locked(int fd, struct npu_rt_hold *h)
{
	h->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (h->fd < 0) {
		int err = errno;

		npu_rt_msg_detail("no file descriptor left to wait on the device with (%s)", strerror(err));
		return -err;
	}
	pthread_mutex_lock(&holds_lock);
	h->prev = NULL;
	h->next = holds;
	if (holds != NULL)
		holds->prev = h;
	holds = h;
	pthread_mutex_unlock(&holds_lock);
	return 0;
}

void npu_rt_hold_drop(struct npu_rt_hold *h)
{
	pthread_mutex_lock(&holds_lock);
	if (h->prev != NULL)
		h->prev->next = h->next;
	else
		holds = h->next;
	if (h->next != NULL)
		h->next->prev = h->prev;
	pthread_mutex_unlock(&holds_lock);
	close(h->fd);
}

int npu_rt_ioctl_unlock(int fd, unsigned long request, void *arg)
{
	struct npu_rt_hold h;
	int rc = npu_rt_hold_locked(fd, &h);

	npu_rt_devices_unlock();
	if (rc != 0)
		return rc;
	rc = npu_rt_ioctl(h.fd, request, arg);
	npu_rt_hold_drop(&h);
	return rc;
}

inline struct npu_rt_loc npu_rt_locate_locked(const void *p, size_t len)
{
	return npu_rt_locate(windows, windows_n, (uintptr_t)p, len);
}

inline int npu_rt_enter_addr(const void *p, size_t len, int *dev)
{
	struct npu_rt_loc loc;

	npu_rt_devices_read_lock();
	loc = npu_rt_locate_locked(p, len);
	if (loc.kind != NPU_RT_LOC_DEVICE) {
		npu_rt_devices_unlock();
		return -1;
	}
	*dev = loc.dev;
	return 0;
}

aclError npu_rt_enter_device(int dev)
{
	npu_rt_devices_read_lock();
	if (dev < 0 || dev >= NPU_RT_MAX_DEVICES || !devices[dev].open) {
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_CONTEXT_NULL;
	}
	return ACL_SUCCESS;
}

static int current_locked(void)
{
	int d = current.dev;

	if (d < 0 || !devices[d].open || devices[d].epoch != current.epoch)
		return -1;
	return d;
}

int npu_rt_current_dev_locked(void)
{
	return current_locked();
}

/* inline (here and in a few other per-call helpers): a hint to the shared
 * library's link-time optimisation (lib.mk) to inline it into its callers. */
inline aclError npu_rt_enter_current(int *dev)
{
	int d;

	npu_rt_devices_read_lock();
	d = current_locked();
	if (d < 0) {
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_CONTEXT_NULL;
	}
	*dev = d;
	return ACL_SUCCESS;
}

aclError npu_rt_ioctl_current(unsigned long request, void *arg, int *rc)
{
	int dev;
	aclError err = npu_rt_enter_current(&dev);

	if (err != ACL_SUCCESS)
		return err;
	*rc = npu_rt_ioctl(devices[dev].fd, request, arg);
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

/*
 * Why /dev/npu_sim<id> could not be opened (errno err), in words that say
 * what to do, for aclGetRecentErrMsg (and a SETUP report under
 * NPU_SIM_CHECK).  ENOENT: the module is absent, has fewer devices, or its
 * node was not created.
 */
static void open_detail(int id, int err)
{
	char path[64];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), NPU_SIM_DEV_PREFIX "%d", id);
	if (err == ENOENT || err == ENODEV || err == ENXIO) {
		if (access("/sys/module/npu_sim", F_OK) != 0) {
			npu_rt_msg_detail("npu_sim module not loaded: run tools/npu-sim-load or `modprobe npu_sim` "
					  "(%s does not exist)", path);
		} else {
			f = fopen("/sys/module/npu_sim/parameters/num_devices", "re");
			if (f != NULL) {
				if (fscanf(f, "%lld", &n) != 1)
					n = -1;
				fclose(f);
			}
			if (n >= 0 && id >= n)
				npu_rt_msg_detail("no device %d: the npu_sim module was loaded with num_devices=%lld "
						  "(reload it with more, e.g. tools/npu-sim-load num_devices=%d)",
						  id, n, id + 1);
			else
				npu_rt_msg_detail("%s does not exist although the npu_sim module is loaded "
						  "(no udev/devtmpfs node? check /sys/class/npu_sim)", path);
		}
	} else if (err == EACCES || err == EPERM) {
		npu_rt_msg_detail("cannot open %s: permission denied; give this user read-write access to it "
				  "(its group or mode, e.g. a udev rule) or run as root", path);
	} else if (err == EPROTO) {
		npu_rt_msg_detail("%s is not an npu_sim device of this library's ABI (%u.%u): load the module "
				  "built with this library", path, (unsigned)NPU_SIM_API_VERSION_MAJOR,
				  (unsigned)NPU_SIM_API_VERSION_MINOR);
	} else {
		return;
	}
	npu_rt_check_setup_error();
}

static aclError open_error(int err)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return ACL_ERROR_RT_INVALID_DEVICEID;	/* no such /dev/npu_simN */
	case EPROTO:
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	default:
		return npu_rt_errno_to_acl(err);
	}
}

/* Open /dev/npu_sim<id> and map its window; table lock held for writing. */
static aclError open_device_locked(int id)
{
	uint64_t index, window_size, profile = 0;
	uintptr_t start = 0;
	int fd, rc;

	rc = npu_rt_open_device(id, &fd);
	if (rc != 0) {
		open_detail(id, -rc);
		return open_error(-rc);
	}

	rc = npu_rt_check_api_version(fd);
	if (rc == 0)
		rc = npu_rt_get_param(fd, NPU_SIM_PARAM_DEVICE_INDEX, &index);
	if (rc == 0 && index != (uint64_t)id)
		rc = -EPROTO;	/* device node names another device */
	if (rc == 0)
		rc = npu_rt_get_param(fd, NPU_SIM_PARAM_VA_WINDOW_SIZE, &window_size);
	if (rc == 0 && npu_rt_get_param(fd, NPU_SIM_PARAM_PROFILE, &profile) != 0)
		profile = 0;	/* a driver before 1.6: the default product */
	if (rc == 0)
		rc = npu_rt_limits_apply(fd);
	if (rc == 0)
		rc = npu_rt_faults_apply(fd);
	if (rc == 0)
		rc = npu_rt_map_window(fd, window_size, &start);
	if (rc != 0) {
		close(fd);
		open_detail(id, -rc);
		return open_error(-rc);
	}

	devices[id] = (struct device_ctx){ .open = true, .fd = fd, .refs = 1, .epoch = ++last_epoch,
					   .profile = profile };
	windows[id] = (struct npu_rt_window){ .start = start, .size = window_size };
	if (id >= windows_n)
		windows_n = id + 1;
	return ACL_SUCCESS;
}

/* Mark device id closed in the table (its fd already closed). */
static void forget_device(int id)
{
	devices[id] = (struct device_ctx){ .open = false, .fd = -1 };
	windows[id] = (struct npu_rt_window){ 0, 0 };
	while (windows_n > 0 && windows[windows_n - 1].size == 0)
		windows_n--;
}

/* Unmap the window, then close: the driver frees the context's memory. */
static void close_device_locked(int id)
{
	npu_rt_races_device_closed(id);	/* its streams are done */
	npu_rt_check_device_closed(id);		/* what is still alive leaks */
	npu_rt_handles_device_closed(id);	/* its streams/events die with the fd */
	npu_rt_unmap_window(windows[id].start, windows[id].size);
	close(devices[id].fd);
	forget_device(id);
}

static bool valid_id(int32_t id)
{
	return id >= 0 && id < NPU_RT_MAX_DEVICES;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId)
{
	aclError err = ACL_SUCCESS;

	if (!valid_id(deviceId))
		return ACL_ERROR_RT_INVALID_DEVICEID;

	if (npu_rt_device_state_hook != NULL && device_refs_are(deviceId, 0))
		state_note(deviceId, ACL_RT_DEVICE_STATE_SET_PRE);
	npu_rt_devices_write_lock();
	if (devices[deviceId].open) {
		if (devices[deviceId].refs == UINT32_MAX)
			err = ACL_ERROR_RT_OVER_LIMIT;
		else
			devices[deviceId].refs++;
	} else {
		err = open_device_locked(deviceId);
	}
	if (err == ACL_SUCCESS) {
		current.dev = deviceId;
		current.epoch = devices[deviceId].epoch;
		/* the default context becomes the thread's context */
		npu_rt_handles_device_opened(deviceId, current.epoch);
	}
	npu_rt_devices_unlock();
	if (err == ACL_SUCCESS)
		state_note(deviceId, ACL_RT_DEVICE_STATE_SET_POST);
	return err;
}

uint64_t npu_rt_device_epoch_locked(int dev)
{
	if (dev < 0 || dev >= NPU_RT_MAX_DEVICES || !devices[dev].open)
		return 0;
	return devices[dev].epoch;
}

aclError npu_rt_device_bind_current(int dev, uint64_t epoch)
{
	aclError err = ACL_ERROR_RT_PARAM_INVALID;

	npu_rt_devices_read_lock();
	if (npu_rt_device_epoch_locked(dev) == epoch && epoch != 0) {
		current.dev = dev;
		current.epoch = epoch;
		err = ACL_SUCCESS;
	}
	npu_rt_devices_unlock();
	return err;
}

static aclError device_count(uint32_t *count, bool explain);

/*
 * ACL_SUCCESS when id names a device of the module; 107001 when it does
 * not (the message names what); the error of asking the module how many
 * devices there are otherwise.
 */
aclError npu_rt_device_id_check(int32_t id, const char *what)
{
	uint32_t n = 0;
	aclError err = device_count(&n, true);

	if (err != ACL_SUCCESS)
		return err;
	if (id < 0 || (uint32_t)id >= n) {
		npu_rt_msg_detail("%s %d is out of range: the module has devices 0..%u", what, (int)id,
				  n - 1);
		return ACL_ERROR_RT_INVALID_DEVICEID;
	}
	return ACL_SUCCESS;
}

/* Like aclrtSetDevice, the resets refuse an id past the devices there are. */
static bool past_last_device(int32_t id)
{
	uint32_t n = 0;

	/* no devices at all: the reset goes on and says what it found */
	if (device_count(&n, false) != ACL_SUCCESS)
		return false;
	return npu_rt_device_id_check(id, "deviceId") == ACL_ERROR_RT_INVALID_DEVICEID;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId)
{
	bool closing;

	if (!valid_id(deviceId) || past_last_device(deviceId))
		return ACL_ERROR_RT_INVALID_DEVICEID;

	closing = npu_rt_device_state_hook != NULL && device_refs_are(deviceId, 1);
	if (closing)
		state_note(deviceId, ACL_RT_DEVICE_STATE_RESET_PRE);
	npu_rt_devices_write_lock();
	if (!devices[deviceId].open) {	/* the runtime: no reference to release */
		npu_rt_devices_unlock();
		npu_rt_msg_detail("device %d is not set in this process (never set, or already reset)", deviceId);
		return ACL_ERROR_RT_CONTEXT_RELEASE_ERROR;
	}
	if (--devices[deviceId].refs == 0) {
		close_device_locked(deviceId);
		if (current.dev == deviceId)
			current.dev = -1;
	} else {
		closing = false;
	}
	npu_rt_devices_unlock();
	if (closing)
		state_note(deviceId, ACL_RT_DEVICE_STATE_RESET_POST);
	return ACL_SUCCESS;
}

/*
 * Force: close the device context whatever the reference count, after the
 * work queued on its streams is done (as CANN waits for the default
 * context's tasks).  A device this process does not hold is
 * ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, as for aclrtResetDevice.
 */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId)
{
	struct npu_sim_stream_sync sync = { .flags = NPU_SIM_SYNC_ALL };
	uint64_t epoch;

	if (!valid_id(deviceId)) {
		npu_rt_msg_detail("deviceId %d is out of range 0..%d", deviceId, NPU_RT_MAX_DEVICES - 1);
		return ACL_ERROR_RT_INVALID_DEVICEID;
	}
	if (past_last_device(deviceId))
		return ACL_ERROR_RT_INVALID_DEVICEID;
	npu_rt_devices_read_lock();
	if (!devices[deviceId].open) {
		npu_rt_devices_unlock();
		npu_rt_msg_detail("device %d is not set in this process (never set, or already reset)", deviceId);
		return ACL_ERROR_RT_CONTEXT_RELEASE_ERROR;
	}
	epoch = devices[deviceId].epoch;
	/* the wait without the lock; a reset meanwhile has closed it already */
	(void)npu_rt_ioctl_unlock(devices[deviceId].fd, NPU_SIM_IOCTL_STREAM_SYNC, &sync);
	npu_rt_devices_write_lock();
	if (devices[deviceId].open && devices[deviceId].epoch == epoch) {
		close_device_locked(deviceId);
		if (current.dev == deviceId)
			current.dev = -1;
	}
	npu_rt_devices_unlock();
	return ACL_SUCCESS;
}

void npu_rt_devices_release_all(void)
{
	npu_rt_devices_write_lock();
	for (int i = 0; i < NPU_RT_MAX_DEVICES; i++)
		if (devices[i].open)
			close_device_locked(i);
	current.dev = -1;
	npu_rt_devices_unlock();
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId)
{
	int d;

	if (deviceId == NULL)
		return ACL_ERROR_INVALID_PARAM;
	npu_rt_devices_read_lock();
	d = current_locked();
	npu_rt_devices_unlock();
	if (d < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	*deviceId = d;
	return ACL_SUCCESS;
}

/*
 * GET_PARAM param of an open device, else of /dev/npu_sim0 opened just for
 * the question: 0 or a negative errno (-ENOENT/-ENODEV/-ENXIO: no device,
 * -EPROTO: another interface version).
 */
int npu_rt_ask_any_device(uint32_t param, uint64_t *value)
{
	int rc = -ENOENT, fd;

	npu_rt_devices_read_lock();
	for (int i = 0; i < NPU_RT_MAX_DEVICES; i++) {
		if (devices[i].open) {
			rc = npu_rt_get_param(devices[i].fd, param, value);
			break;
		}
	}
	npu_rt_devices_unlock();
	if (rc != -ENOENT)
		return rc;
	rc = npu_rt_open_device(0, &fd);	/* no device open in this process */
	if (rc != 0)
		return rc;
	rc = npu_rt_check_api_version(fd);
	if (rc == 0)
		rc = npu_rt_get_param(fd, param, value);
	close(fd);
	return rc;
}

bool npu_rt_product_has(uint32_t feature, const char **product)
{
	uint64_t index = 0;
	const struct npu_sim_profile *p;

	/* no device to ask: the checks that follow answer */
	if (npu_rt_ask_any_device(NPU_SIM_PARAM_PROFILE, &index) != 0)
		return true;
	p = npu_rt_profile_get(index);
	if (product != NULL)
		*product = p->product;
	return (p->flags & feature) != 0;
}

static aclError ask_error(int rc)
{
	if (rc == -ENOENT || rc == -ENODEV || rc == -ENXIO)
		return ACL_ERROR_RT_NO_DEVICE;
	if (rc == -EPROTO)
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	return npu_rt_errno_to_acl(-rc);
}

/* The number of devices; explain: say why there is none (the message). */
static aclError device_count(uint32_t *count, bool explain)
{
	uint64_t n = 0;
	int rc;

	rc = npu_rt_ask_any_device(NPU_SIM_PARAM_NUM_DEVICES, &n);
	if (rc != 0) {
		if (explain)
			open_detail(0, -rc);
		return ask_error(rc);
	}
	if (n == 0)
		return ACL_ERROR_RT_NO_DEVICE;
	*count = n > NPU_RT_MAX_DEVICES ? NPU_RT_MAX_DEVICES : (uint32_t)n;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count)
{
	if (count == NULL)
		return ACL_ERROR_INVALID_PARAM;
	return device_count(count, true);
}

/* The driver knows the caller's id in the initial pid namespace. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid)
{
	uint64_t v = 0;
	int rc;

	if (pid == NULL) {
		npu_rt_msg_detail("pid is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	rc = npu_rt_ask_any_device(NPU_SIM_PARAM_BARE_TGID, &v);
	if (rc != 0)
		return ask_error(rc);
	if (v == 0 || v > INT32_MAX)
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	*pid = (int32_t)v;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
	if (runMode == NULL)
		return ACL_ERROR_INVALID_PARAM;
	*runMode = ACL_HOST;
	return ACL_SUCCESS;
}

/* ---- fork ----------------------------------------------------------- */

void npu_rt_devices_atfork_prepare(void)
{
	npu_rt_devices_write_lock();
	pthread_mutex_lock(&holds_lock);
}

void npu_rt_devices_atfork_parent(void)
{
	pthread_mutex_unlock(&holds_lock);
	npu_rt_devices_unlock();
}

/*
 * The child has no VA windows (the driver marks them VM_DONTCOPY) and may
 * not use the parent's contexts (the driver accepts ioctls only from the
 * opener's mm).  Drop the inherited fds and start empty: the child can
 * aclInit / aclrtSetDevice afresh.  The lock is re-created rather than
 * unlocked because its owner was a thread of the parent.
 */
void npu_rt_devices_atfork_child(void)
{
	for (int i = 0; i < NPU_RT_MAX_DEVICES; i++) {
		if (devices[i].open)
			close(devices[i].fd);
		forget_device(i);
	}
	/* the holds of the parent's blocked threads (their stacks are copied) */
	for (struct npu_rt_hold *h = holds; h != NULL; h = h->next)
		close(h->fd);
	holds = NULL;
	pthread_mutex_init(&holds_lock, NULL);
	current.dev = -1;
	npu_rt_handles_atfork_child();
	__atomic_store_n(&table_state, 0, __ATOMIC_RELAXED);
	pthread_rwlock_init(&table_lock, NULL);
}

/*
 * aclrtGetVersion: the version of the AscendCL API these headers and this
 * library implement (ACL_MAJOR/MINOR/PATCH_VERSION of acl.h).
 */

ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion,
					     int32_t *patchVersion)
{
	if (majorVersion == NULL || minorVersion == NULL || patchVersion == NULL) {
		npu_rt_msg_detail("%s is NULL", majorVersion == NULL ? "majorVersion" :
						minorVersion == NULL ? "minorVersion" : "patchVersion");
		return ACL_ERROR_INVALID_PARAM;
	}
	*majorVersion = ACL_MAJOR_VERSION;
	*minorVersion = ACL_MINOR_VERSION;
	*patchVersion = ACL_PATCH_VERSION;
	return ACL_SUCCESS;
}
