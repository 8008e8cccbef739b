/*
 * npu_sim: AscendCL runtime API (device, memory, copy, VMM, managed memory,
 * peer access, IPC) as emulated by libacl_rt.
 *
 * Names, enum values, struct layouts and prototypes are those of the CANN
 * header acl/acl_rt.h, so code written for a real Ascend NPU compiles
 * unchanged.  The comment of each call gives its sizes and units, its
 * alignment rules and every error code it returns, with the condition.
 *
 * Status in this version of npu_sim (a test reads this block: keep its
 * shape, one "[group] name" item per declared-only call):
 *   IMPLEMENTED      every function declared in acl_base_rt.h and this
 *                    header, except the ones named below.  Groups: init,
 *                    device, context, stream, event, memory (linear, host,
 *                    copy and set, data buffer), VMM and sharing, IPC,
 *                    managed memory, peer access, error message,
 *                    errors and system (the part declared here).
 *   NOT YET DEFINED  calls of groups whose every call must be defined, which
 *                    wait for support in the npu_sim driver; declared so that
 *                    code written for a real NPU compiles, not defined, so
 *                    linking a program that calls one fails (an honest "not
 *                    there" instead of a fake success):
 *                    none.
 *   DECLARED ONLY    calls outside those groups (e.g. kernel launch), declared
 *                    so that code compiles and not defined: none.
 *
 * Conventions for every call: sizes are in bytes; the return value is an
 * aclError (0 = ACL_SUCCESS); a failing call changes nothing (out-parameters
 * untouched, nothing allocated).  Argument checks made by the ACL layer
 * return ACL_ERROR_INVALID_PARAM (100000); errors found by the runtime or
 * the device are ACL_ERROR_RT_* codes, never 100000.  Which layer decides
 * each check, and so its code, follows the open CANN runtime's source;
 * docs/cann-api-notes.md section 8 gives the basis of every code below.  "Current device" is per thread: the
 * device the calling thread last passed to aclrtSetDevice.  Devices are the
 * nodes /dev/npu_sim0 .. /dev/npu_sim<N-1>; device pointers are addresses
 * in a per-device window of the calling process's address space, which the
 * host must not dereference.  ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899) may
 * come from any call that reaches the device, for a failure not listed.
 */
#ifndef NPU_SIM_ACL_RT_H
#define NPU_SIM_ACL_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the CANN API these headers mirror (1.17.0). */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/*
 * aclInit - initialize AscendCL.  configPath may be NULL or "": no
 * configuration.  No settings are read from the file but, like the
 * real runtime, requires a given path to be a readable file.  Only the first
 * successful call counts; no other call requires aclInit.
 * Returns ACL_SUCCESS; ACL_ERROR_REPEAT_INITIALIZE (100002) already
 * initialized (harmless, callers may ignore it); ACL_ERROR_INVALID_FILE
 * (100003) configPath names no readable regular file.
 */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);

/*
 * aclFinalize - deinitialize AscendCL.  Also closes every device
 * context this process still holds (as aclrtResetDevice down to 0 would),
 * freeing all its device memory; host memory from aclrtMallocHost stays
 * valid.  A later aclInit starts afresh.
 * Returns ACL_SUCCESS; ACL_ERROR_REPEAT_FINALIZE (100037) not initialized
 * (never, or already finalized).
 */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/*
 * aclFinalizeReference - reference-counted finalize: every aclInit call
 * that did not fail (ACL_ERROR_REPEAT_INITIALIZE included) counts one;
 * this call counts one down and, at 0, finalizes as aclFinalize does
 * (which drops the count at once).  refCount (may be NULL) gets the count
 * left.  Returns ACL_SUCCESS;
 * ACL_ERROR_REPEAT_FINALIZE (100037) not initialized.
 */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);

/*
 * aclGetRecentErrMsg - the messages of the calling thread's failed ACL
 * calls since its last aclGetRecentErrMsg, newest first, one a line, each
 * naming the call, what was wrong (the argument, or the limit that was
 * hit) and the error code, e.g. "aclrtMalloc: HUGE_ONLY needs 2 pages of
 * 2 MiB, the hugetlb pool has 0 free (echo N > /proc/sys/vm/nr_hugepages)
 * (error 207001 ACL_ERROR_RT_MEMORY_ALLOCATION)".  Reading clears them.
 * Returns NULL when no call failed since the last read.  The string stays
 * valid until the thread's next aclGetRecentErrMsg; other threads' calls
 * do not touch it.  Successful calls leave pending messages in place.
 * About 4 KiB of messages are kept per thread; older ones are dropped.
 */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

/* ------------------------------------------------------------------------
 * Enums
 * ---------------------------------------------------------------------- */

typedef enum aclrtRunMode {
	ACL_DEVICE = 0,
	ACL_HOST = 1,
} aclrtRunMode;

typedef enum aclrtEventRecordedStatus {
	ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
	ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

typedef enum aclrtStreamStatus {
	ACL_STREAM_STATUS_COMPLETE = 0,
	ACL_STREAM_STATUS_NOT_READY = 1,
	ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

/* aclrtCreateStreamWithConfig flags */
#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

/* aclrtSetStreamFailureMode modes */
#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

/* aclrtSetStreamConfigOpt attributes (aclrtCreateStreamV2) */
typedef enum {
	ACL_RT_STREAM_WORK_ADDR_PTR = 0,	/* void *: accepted, unused */
	ACL_RT_STREAM_WORK_SIZE,		/* size_t: accepted, unused */
	ACL_RT_STREAM_FLAG,			/* size_t: ACL_STREAM_* flags */
	ACL_RT_STREAM_PRIORITY,			/* uint32_t: 0..7 */
} aclrtStreamConfigAttr;

/* aclrtSetStreamAttribute / aclrtGetStreamAttribute */
typedef enum {
	ACL_STREAM_ATTR_FAILURE_MODE = 1,
	ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
	ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
	ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
	ACL_STREAM_ATTR_PRIORITY = 5,
} aclrtStreamAttr;

/* Resource types of the stream resource limits */
typedef enum {
	ACL_RT_DEV_RES_CUBE_CORE = 0,
	ACL_RT_DEV_RES_VECTOR_CORE,
} aclrtDevResLimitType;

/* aclrtRegStreamStateCallback states */
typedef enum {
	ACL_RT_STREAM_STATE_CREATE_POST = 1,	/* after a stream was created */
	ACL_RT_STREAM_STATE_DESTROY_PRE,	/* before it is destroyed */
} aclrtStreamState;

typedef enum aclrtMemcpyKind {
	ACL_MEMCPY_HOST_TO_HOST = 0,
	ACL_MEMCPY_HOST_TO_DEVICE = 1,
	ACL_MEMCPY_DEVICE_TO_HOST = 2,
	ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
	ACL_MEMCPY_DEFAULT = 4,			/* direction from the addresses */
	ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,	/* host source staged first */
	ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
	ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
	ACL_MEM_MALLOC_HUGE_FIRST = 0,
	ACL_MEM_MALLOC_HUGE_ONLY = 1,
	ACL_MEM_MALLOC_NORMAL_ONLY = 2,
	ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
	ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
	ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
	ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
	ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
	ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100U,
	ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000U,
	ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000U,
} aclrtMemMallocPolicy;

typedef enum aclrtMemAttr {
	ACL_DDR_MEM = 0,
	ACL_HBM_MEM = 1,
	ACL_DDR_MEM_HUGE = 2,
	ACL_DDR_MEM_NORMAL = 3,
	ACL_HBM_MEM_HUGE = 4,
	ACL_HBM_MEM_NORMAL = 5,
	ACL_DDR_MEM_P2P_HUGE = 6,
	ACL_DDR_MEM_P2P_NORMAL = 7,
	ACL_HBM_MEM_P2P_HUGE = 8,
	ACL_HBM_MEM_P2P_NORMAL = 9,
	ACL_HBM_MEM_HUGE1G = 10,
	ACL_HBM_MEM_P2P_HUGE1G = 11,
	ACL_MEM_NORMAL = 12,
	ACL_MEM_HUGE = 13,
	ACL_MEM_HUGE1G = 14,
	ACL_MEM_P2P_NORMAL = 15,
	ACL_MEM_P2P_HUGE = 16,
	ACL_MEM_P2P_HUGE1G = 17,
} aclrtMemAttr;

typedef enum aclrtMemLocationType {
	ACL_MEM_LOCATION_TYPE_HOST = 0,
	ACL_MEM_LOCATION_TYPE_DEVICE = 1,
	ACL_MEM_LOCATION_TYPE_UNREGISTERED = 2,
	ACL_MEM_LOCATION_TYPE_MANAGED = 3,
	ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

typedef enum aclrtMemHandleType {
	ACL_MEM_HANDLE_TYPE_NONE = 0,
	ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

typedef enum aclrtMemAllocationType {
	ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

typedef enum aclrtMemSharedHandleType {
	ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
	ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,
} aclrtMemSharedHandleType;

typedef enum aclrtMemGranularityOptions {
	ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM = 0,
	ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED = 1,
	ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;

typedef enum {
	ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
	ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
	ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3,
} aclrtMemAccessFlags;

typedef enum {
	ACL_RT_MEM_ATTR_RSV = 0,
	ACL_RT_MEM_ATTR_MODULE_ID = 1,
	ACL_RT_MEM_ATTR_DEVICE_ID = 2,
	ACL_RT_MEM_ATTR_VA_FLAG = 3,
} aclrtMallocAttrType;

typedef enum aclrtMemManagedAdviseType {
	ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
	ACL_MEM_ADVISE_UNSET_READ_MOSTLY = 1,
	ACL_MEM_ADVISE_SET_PREFERRED_LOCATION = 2,
	ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 3,
	ACL_MEM_ADVISE_SET_ACCESSED_BY = 4,
	ACL_MEM_ADVISE_UNSET_ACCESSED_BY = 5,
} aclrtMemManagedAdviseType;

/* Note: HOST and DEVICE are in the opposite order from aclrtMemLocationType. */
typedef enum aclrtMemManagedLocationType {
	ACL_MEM_LOCATIONTYPE_INVALID = 0,
	ACL_MEM_LOCATIONTYPE_DEVICE = 1,
	ACL_MEM_LOCATIONTYPE_HOST = 2,
	ACL_MEM_LOCATIONTYPE_HOST_NUMA = 3,
	ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT = 4,
} aclrtMemManagedLocationType;

typedef enum aclrtMemManagedRangeAttribute {
	ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
	ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION = 2,
	ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY = 3,
	ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE = 4,
	ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID = 5,
	ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION = 6,
	ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
	ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID = 8,
} aclrtMemManagedRangeAttribute;

typedef enum aclrtHostRegisterType {
	ACL_HOST_REGISTER_MAPPED = 0,
	ACL_HOST_REGISTER_IOMEMORY = 0x04,
	ACL_HOST_REGISTER_READONLY = 0x08,
} aclrtHostRegisterType;

/* ------------------------------------------------------------------------
 * Macros
 * ---------------------------------------------------------------------- */

#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL
#define ACL_HOST_REG_MAPPED 0x2UL
#define ACL_HOST_REG_IOMEMORY 0x4UL
#define ACL_HOST_REG_READONLY 0x8UL
#define ACL_HOST_REG_PINNED 0x10000000UL
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U
#define ACL_RT_MEM_TYPE_DEV 0x2U
#define ACL_RT_MEM_TYPE_DVPP 0x8U
#define ACL_RT_MEM_TYPE_RSVD 0x10U
/* aclrtValueWait conditions */
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U

/* ------------------------------------------------------------------------
 * Structs (x86_64 LP64 layouts of the CANN header; pinned below)
 * ---------------------------------------------------------------------- */

typedef void *aclrtDrvMemHandle;

typedef struct aclrtStreamConfigHandle {
	void *workptr;
	size_t workSize;
	size_t flag;
	uint32_t priority;
} aclrtStreamConfigHandle;

typedef union {
	uint64_t failureMode;
	uint32_t overflowSwitch;
	uint32_t userCustomTag;
	uint32_t cacheOpInfoSwitch;
	uint32_t streamPriority;
	uint32_t reserve[4];
} aclrtStreamAttrValue;

typedef void (*aclrtStreamStateCallback)(aclrtStream stm, aclrtStreamState state, void *args);

typedef struct aclrtMemLocation {
	uint32_t id;			/* device id or NUMA id */
	aclrtMemLocationType type;
} aclrtMemLocation;

typedef struct aclrtPhysicalMemProp {
	aclrtMemHandleType handleType;		/* must be NONE */
	aclrtMemAllocationType allocationType;	/* must be PINNED */
	aclrtMemAttr memAttr;
	aclrtMemLocation location;
	uint64_t reserve;
} aclrtPhysicalMemProp;

typedef union {
	uint16_t moduleId;
	uint32_t deviceId;
	uint32_t vaFlag;
	uint8_t rsv[8];
} aclrtMallocAttrValue;

typedef struct {
	aclrtMallocAttrType attr;
	aclrtMallocAttrValue value;
} aclrtMallocAttribute;

typedef struct {
	aclrtMallocAttribute *attrs;
	size_t numAttrs;
} aclrtMallocConfig;

typedef struct {
	aclrtMemAccessFlags flags;
	aclrtMemLocation location;
	uint8_t rsv[12];		/* must be 0 */
} aclrtMemAccessDesc;

typedef struct aclrtPtrAttributes {
	aclrtMemLocation location;
	uint32_t pageSize;		/* bytes */
	uint32_t rsv[4];
} aclrtPtrAttributes;

typedef struct aclrtMemManagedLocation {
	aclrtMemManagedLocationType type;	/* type first, then id */
	int32_t id;
} aclrtMemManagedLocation;

typedef struct aclrtMemUsageInfo {
	char name[32];
	uint64_t curMemSize;
	uint64_t memPeakSize;
	size_t reserved[8];
} aclrtMemUsageInfo;

typedef struct aclrtMemFabricHandle {
	uint8_t data[128];
} aclrtMemFabricHandle;

typedef struct aclrtMemcpyBatchAttr {
	aclrtMemLocation dstLoc;
	aclrtMemLocation srcLoc;
	uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

typedef struct aclrtServerPid {
	uint32_t sdid;
	int32_t *pid;
	size_t num;
} aclrtServerPid;

typedef struct aclrtUuid {
	char bytes[16];
} aclrtUuid;

#if defined(__x86_64__) || defined(__aarch64__)
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMemLocation) == 8, "aclrtMemLocation size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtMemLocation, type) == 4, "aclrtMemLocation.type");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtPhysicalMemProp) == 32, "aclrtPhysicalMemProp size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtPhysicalMemProp, memAttr) == 8, "aclrtPhysicalMemProp.memAttr");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtPhysicalMemProp, location) == 12, "aclrtPhysicalMemProp.location");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtPhysicalMemProp, reserve) == 24, "aclrtPhysicalMemProp.reserve");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMallocAttrValue) == 8, "aclrtMallocAttrValue size");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMallocAttribute) == 12, "aclrtMallocAttribute size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtMallocAttribute, value) == 4, "aclrtMallocAttribute.value");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMallocConfig) == 16, "aclrtMallocConfig size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtMallocConfig, numAttrs) == 8, "aclrtMallocConfig.numAttrs");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMemAccessDesc) == 24, "aclrtMemAccessDesc size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtMemAccessDesc, location) == 4, "aclrtMemAccessDesc.location");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtMemAccessDesc, rsv) == 12, "aclrtMemAccessDesc.rsv");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtPtrAttributes) == 28, "aclrtPtrAttributes size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtPtrAttributes, pageSize) == 8, "aclrtPtrAttributes.pageSize");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtPtrAttributes, rsv) == 12, "aclrtPtrAttributes.rsv");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMemManagedLocation) == 8, "aclrtMemManagedLocation size");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtStreamConfigHandle) == 32, "aclrtStreamConfigHandle size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtStreamConfigHandle, priority) == 24, "aclrtStreamConfigHandle.priority");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtStreamAttrValue) == 16, "aclrtStreamAttrValue size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtMemManagedLocation, id) == 4, "aclrtMemManagedLocation.id");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMemUsageInfo) == 112, "aclrtMemUsageInfo size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtMemUsageInfo, curMemSize) == 32, "aclrtMemUsageInfo.curMemSize");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMemFabricHandle) == 128, "aclrtMemFabricHandle size");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMemcpyBatchAttr) == 32, "aclrtMemcpyBatchAttr size");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtDrvMemHandle) == 8, "aclrtDrvMemHandle size");
#endif

/* ========================================================================
 * Device management
 * ====================================================================== */

/*
 * aclrtSetDevice - make deviceId the calling thread's current device.  The
 * first call for a device in a process opens the device (the device
 * context) and reserves its VA window; further calls only count a
 * reference (per process, per device).
 * Returns ACL_SUCCESS; ACL_ERROR_RT_INVALID_DEVICEID (107001) deviceId < 0,
 * >= 64 or no /dev/npu_sim<deviceId>; ACL_ERROR_RT_NO_PERMISSION (207006)
 * the device node cannot be opened for lack of permission;
 * ACL_ERROR_RT_MEMORY_ALLOCATION (207001) the VA window cannot be mapped;
 * ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899) the device speaks an
 * incompatible interface version, or another device failure.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);

/*
 * aclrtResetDevice - drop one aclrtSetDevice reference of this process.
 * When the count reaches 0 the device context is closed: every allocation
 * this process made on the device is freed and its VA window unmapped;
 * every thread whose current device it was has none after (its next call
 * gets ACL_ERROR_RT_CONTEXT_NULL 107002 until it calls aclrtSetDevice
 * itself), even if another thread sets the device again.
 * Returns ACL_SUCCESS; ACL_ERROR_RT_INVALID_DEVICEID (107001) deviceId < 0,
 * >= 64 or not below aclrtGetDeviceCount; ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
 * (507007) this process holds no reference on the device (never set, or
 * already reset), as in the runtime.
 */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);

/*
 * aclrtResetDeviceForce - close this process's context on deviceId however
 * many aclrtSetDevice references it holds: the work queued on its streams
 * is waited for first, then all its contexts, streams, events and memory
 * go as when aclrtResetDevice drops the last reference (every thread whose
 * current device it was has none after).  May follow aclrtResetDevice
 * calls that left references.
 * Returns ACL_SUCCESS; ACL_ERROR_RT_INVALID_DEVICEID (107001) deviceId < 0,
 * >= 64 or not below aclrtGetDeviceCount; ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
 * (507007) this process holds no reference on the device (never set, or
 * already reset, by either reset).
 */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);

/*
 * aclrtGetDevice - the calling thread's current device.
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM
 * (100000) deviceId is NULL; ACL_ERROR_RT_CONTEXT_NULL (107002) this thread
 * has no current device (no aclrtSetDevice, or it was reset).
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);

/*
 * aclrtGetDeviceCount - number of devices (valid ids are 0..count-1).
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) count is NULL;
 * ACL_ERROR_RT_NO_DEVICE (207004) no /dev/npu_sim0 (no device present):
 * *count is left untouched; ACL_ERROR_RT_NO_PERMISSION (207006) the device
 * node cannot be opened; ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899) device
 * failure or incompatible interface version.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);

/*
 * aclrtGetRunMode - always ACL_HOST: the runtime runs on the host CPU.
 * Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) runMode is NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);

/*
 * aclrtSynchronizeDevice - wait for all work queued on every stream of
 * every context of this process on the current device; returns (and
 * clears) the first error of that work.  Errors: 107002 no current device.
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);

/*
 * aclrtSynchronizeDeviceWithTimeout - as aclrtSynchronizeDevice, waiting at
 * most timeout ms (-1: forever).  Errors: ACL_ERROR_RT_PARAM_INVALID
 * (107000) timeout < -1 or 0 (checked before the current device); 107002
 * no current device; ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (507046) work still
 * queued at the end (its errors are kept for the next synchronize).
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

/*
 * aclrtDeviceGetStreamPriorityRange - the stream priorities: *leastPriority
 * 7, *greatestPriority 0 (a smaller number is more urgent).  Either pointer
 * may be NULL (not written).  No device is needed.  Returns ACL_SUCCESS.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority);

/*
 * aclrtGetVersion - the AscendCL API version implemented: ACL_MAJOR_VERSION,
 * ACL_MINOR_VERSION, ACL_PATCH_VERSION of acl.h.  No device is needed.
 * Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) any pointer is NULL (nothing written).
 */
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion,
					     int32_t *patchVersion);

/*
 * aclrtDeviceGetBareTgid - the calling process's id as the device sees it:
 * its id in the initial pid namespace (the process id outside a
 * container), the value to put on the pid whitelists of
 * aclrtMemSetPidToShareableHandle and aclrtIpcMemSetImportPid.  No current
 * device is needed (without an open device /dev/npu_sim0 is asked).
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) pid is NULL;
 * ACL_ERROR_RT_NO_DEVICE (207004) no device present.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid);

/* ========================================================================
 * Contexts, streams, events
 *
 * Queued work is executed by the device, in order per stream; different
 * streams may overlap.  NULL as a stream means the current context's
 * default stream.  Common errors: ACL_ERROR_INVALID_PARAM (100000) a NULL
 * handle or out-pointer where one is required; ACL_ERROR_RT_INVALID_HANDLE
 * (107017) a stream or event handle that is not live in this process
 * (destroyed, made up, of the other type, or its device was reset: the
 * runtime's handle guard, before its other checks); ACL_ERROR_RT_CONTEXT_NULL
 * (107002) no current device; ACL_ERROR_RT_STREAM_CONTEXT (107003) stream,
 * event and memory of one call are on different devices.  The first error
 * of a stream's asynchronous work is returned (and cleared) by the next
 * aclrtSynchronizeStream(WithTimeout) of that stream or
 * aclrtSynchronizeDevice: ACL_ERROR_RT_COPY_DATA (507052) when host memory
 * of a queued copy was gone when it ran.  A call that queues work returns
 * ACL_ERROR_RT_STREAM_TASK_FULL (507002) when 65536 operations are already
 * queued on the device's streams of this process.
 * ====================================================================== */

/* aclrtCreateContext - create a context on deviceId (takes a device
 * reference like aclrtSetDevice) and make it the thread's context.
 * Errors: 100000 NULL context; 107001 bad deviceId. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);
/* aclrtDestroyContext - destroy a context created by aclrtCreateContext:
 * its streams (after their queued work) and events are destroyed, the
 * device reference dropped.  Errors: 100000 NULL; 107002 not a live
 * context or a default context (those go with aclrtResetDevice). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);
/* aclrtSetCurrentContext - bind context (and its device) to the calling
 * thread.  Errors: 100000 NULL; 107000 not a live context. */
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);
/* aclrtGetCurrentContext - the calling thread's context (the default
 * context of its current device if it never set one).  Errors: 100000
 * NULL context; 107002 no current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);
/* aclrtCtxGetCurrentDefaultStream - a handle of the current context's
 * default stream (the stream NULL means): the same handle each time, usable
 * wherever a stream is; aclrtDestroyStream refuses it (107000), it goes
 * with its context.  Errors: 100000 NULL stream; 107002 no current device;
 * 207001 no memory. */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream);
/* aclrtCreateStream - create a stream in the current context.  Errors:
 * 100000 NULL stream; 107002 no current device; 207008 1024 streams. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);
/* aclrtCreateStreamWithConfig - as aclrtCreateStream; priority 0..7
 * (recorded, no effect; a larger value is 7, one >= 2^31 is 0), flag a
 * combination of ACL_STREAM_FAST_LAUNCH, _FAST_SYNC, _PERSISTENT, _HUGE
 * (accepted, no effect; unknown bits are dropped).  Errors: 100000 NULL
 * stream; 107000 ACL_STREAM_DEVICE_USE_ONLY (0x20). */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);
/* aclrtDestroyStream - wait for the stream's queued work, then destroy it.
 * Errors: 100000 NULL; 107017 not a live stream. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
/* aclrtDestroyStreamForce - destroy a stream created by aclrtCreateStream
 * (WithConfig) without waiting for its queued work: work queued that has
 * not started is dropped (it never runs), a running copy stops at its next
 * 1 MiB piece and a running wait (event or value) ends; its error is
 * dropped.  The handle is dead when the call returns.  Errors: 100000 NULL
 * stream; 107017 not a live stream (destroyed, made up, or its device was
 * reset). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);
/* aclrtSynchronizeStream - wait until every task queued on stream is done;
 * returns the first error of its asynchronous work since the last
 * synchronize. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
/* aclrtSynchronizeStreamWithTimeout - as aclrtSynchronizeStream, waiting at
 * most timeout ms (-1: forever).  Errors: 107000 timeout < -1 (before the
 * handle guard) or 0 (after it); ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (507046)
 * work still queued at the end. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
/* aclrtStreamQuery - ACL_STREAM_STATUS_COMPLETE when nothing is queued on
 * stream, else ACL_STREAM_STATUS_NOT_READY; never waits, keeps errors. */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);
/* aclrtCreateEvent - create an event in the current context.  Errors:
 * 100000 NULL event; 107002 no current device; 207007 65536 events. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);
/* aclrtDestroyEvent - destroy an event (queued records/waits of it still
 * complete).  Errors: 100000 NULL; 107017 not a live event. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
/* aclrtRecordEvent - queue a record of event on stream: it completes when
 * the stream reaches it, with a timestamp.  The event handle is checked
 * before the stream's. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
/* aclrtSynchronizeEvent - wait until the event's last record is reached
 * (at once if it was never recorded). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
/* aclrtStreamWaitEvent - work queued on stream after this call waits until
 * the event's last record (so far) is reached.  Errors: 100000 NULL event;
 * then the stream handle is checked before the event's (107017). */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
/*
 * aclrtValueWrite - queue on stream (NULL: the default stream) a store of
 * the 64-bit value to the 8 bytes at devAddr, done when the stream reaches
 * it.  devAddr: 8-byte aligned, in live device memory of the stream's
 * device.  flag is reserved and must be 0.
 * aclrtValueWait - queue on stream a wait: later work of the stream starts
 * only once the 8 bytes at devAddr (re-read as other work completes, at
 * least every millisecond) meet the condition flag against value:
 *   ACL_STREAM_WAIT_VALUE_GEQ  (int64_t)(*devAddr - value) >= 0
 *   ACL_STREAM_WAIT_VALUE_EQ   *devAddr == value
 *   ACL_STREAM_WAIT_VALUE_AND  (*devAddr & value) != 0
 *   ACL_STREAM_WAIT_VALUE_NOR  ~(*devAddr | value) != 0
 * A waiting stream is ended by aclrtDestroyStreamForce or a device reset.
 * Beware: an aclrtMemcpyAsync from pageable host memory (not from
 * aclrtMallocHost) returns only once its copy is done, so one queued behind
 * a wait that nothing will satisfy blocks the calling thread.
 * Errors of both: ACL_ERROR_INVALID_PARAM (100000) devAddr NULL; 107017
 * not a live stream; 107002 NULL stream and no current device;
 * ACL_ERROR_RT_PARAM_INVALID (107000) flag != 0 (Write) or > 3 (Wait),
 * devAddr not 8-byte aligned, not device memory or its 8 bytes not in live
 * memory of this process; ACL_ERROR_RT_STREAM_CONTEXT (107003) devAddr is memory of
 * another device than the stream's; ACL_ERROR_RT_NO_PERMISSION (207006)
 * the memory is mapped without access (aclrtMemMapNoAccess); 507002 queue
 * full.
 */
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/*
 * Stream failure mode, queries and control (issue 23).  NULL as stream is
 * the current context's default stream (107002 without a current device)
 * unless a call says otherwise; 107017 is a stream handle that is not live.
 *
 * aclrtSetStreamFailureMode - what follows a failed task of stream.
 * ACL_CONTINUE_ON_FAILURE (the default): the next tasks run.
 * ACL_STOP_ON_FAILURE: the stream runs nothing more until a synchronize
 * (aclrtSynchronizeStream(WithTimeout) of it, or aclrtSynchronizeDevice)
 * reports the error: tasks still queued and tasks queued meanwhile complete
 * without running.  Then the stream runs again, still in STOP mode.  Only
 * bit 0 of mode counts (as in the runtime).  Errors:
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) from STOP back to CONTINUE (the
 * same mode again is no change).
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);
/* aclrtStreamGetId - *streamId: the device's id of stream (> 0, unique per
 * device in this process while the stream lives).  Errors: 100000 NULL
 * streamId. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId);
/* aclrtStreamGetFlags - *flags: the ACL_STREAM_* flags stream was created
 * with (0 for aclrtCreateStream and the default stream).  Errors: 100000
 * NULL flags. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags);
/* aclrtStreamGetPriority - *priority: stream's priority 0..7 (as created,
 * or set by aclrtSetStreamAttribute ACL_STREAM_ATTR_PRIORITY).  Errors:
 * 100000 NULL priority. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority);
/* aclrtCreateStreamConfigHandle - a zeroed configuration for
 * aclrtCreateStreamV2 (priority 0, no flags); NULL when out of memory. */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void);
/* aclrtDestroyStreamConfigHandle - free handle.  Errors: 100000 NULL. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle);
/* aclrtSetStreamConfigOpt - set attr of handle from valueSize bytes at
 * attrValue: ACL_RT_STREAM_PRIORITY a uint32_t 0..7, ACL_RT_STREAM_FLAG a
 * size_t, ACL_RT_STREAM_WORK_ADDR_PTR a void *, ACL_RT_STREAM_WORK_SIZE a
 * size_t (the work area is for model streams: recorded, unused).  Errors
 * (all 100000, the ACL layer's): NULL handle or attrValue, unknown attr,
 * valueSize not the size of that type, priority > 7. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
						     const void *attrValue, size_t valueSize);
/* aclrtCreateStreamV2 - aclrtCreateStreamWithConfig with the priority and
 * flags of handle (NULL: priority 0, no flags).  Errors: 100000 NULL
 * stream; 107002 no current device; 107000 ACL_STREAM_DEVICE_USE_ONLY;
 * 207008 no stream left. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle);
/*
 * aclrtSetStreamAttribute / aclrtGetStreamAttribute - one attribute of
 * stream: ACL_STREAM_ATTR_FAILURE_MODE (failureMode, as
 * aclrtSetStreamFailureMode), _FLOAT_OVERFLOW_CHECK (overflowSwitch 0 or 1,
 * default 0), _USER_CUSTOM_TAG (userCustomTag, default 0), _CACHE_OP_INFO
 * (cacheOpInfoSwitch 0 or 1, default 0), _PRIORITY (streamPriority; set: a
 * value outside 0..7, read as int32_t, becomes the nearest end).  The
 * overflow, tag and cache switches are recorded only.  Errors: 100000 NULL
 * value; 107000 unknown attribute, overflowSwitch > 1, cacheOpInfoSwitch
 * > 1; 207000 as aclrtSetStreamFailureMode.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
						     aclrtStreamAttrValue *value);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
						     aclrtStreamAttrValue *value);
/* aclrtStreamAbort - drop every task queued on stream (they never run),
 * stop the running one at its next piece and wait for it; the stream's
 * pending error and a stop (aclrtStreamStop, STOP mode) go with them: the
 * stream stays usable.  A waiting synchronize of the stream returns. */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);
/* aclrtStreamStop - stop the task running on stream at its next piece and
 * hold the stream: queued tasks stay queued and run nothing until
 * aclrtStreamAbort drops them (a synchronize waits until then; a destroy
 * drops them).  Errors: 107000 NULL stream (not for the default stream). */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);
/* aclrtActiveStream - activate a model-bound stream from another: only
 * streams bound to a model (aclmdlRIBindStream) qualify, and this runtime
 * has no models.  Errors: 100000 either NULL; 107017 either not live;
 * ACL_ERROR_RT_STREAM_MODEL (107005) stream, then activeStream, not bound
 * to a model (always, after the handle checks). */
ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream);
/* aclrtGetStreamAvailableNum - *streamCount: streams this process can
 * still create on the current device (1024 less the live ones, default
 * streams included).  Errors: 100000 NULL; 107002 no current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t *streamCount);
/* aclrtRegStreamStateCallback - register callback under regName: it is
 * called (in the creating / destroying thread, without library locks) as
 * callback(stream, ACL_RT_STREAM_STATE_CREATE_POST, args) after a stream is
 * created by aclrtCreateStream* and with ACL_RT_STREAM_STATE_DESTROY_PRE
 * before one is destroyed (aclrtDestroyStream(Force), or with its
 * context).  A NULL callback removes regName's (no error if none).  Errors:
 * 100000 NULL regName; 107000 regName already registered; 207001 no memory. */
ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback,
							 void *args);
/*
 * Stream resource limits: how many cube / vector cores (type
 * ACL_RT_DEV_RES_CUBE_CORE / _VECTOR_CORE) work of a stream may use; the
 * device has the product's numbers (Atlas A2: 24 and 48).  Recorded per
 * stream and reported back; no effect on execution here.
 * aclrtSetStreamResLimit - limit stream to value cores of type (0..the
 * device's).  aclrtGetStreamResLimit - *value: the stream's limit, else
 * the device's.  aclrtResetStreamResLimit - drop the stream's limits.
 * aclrtUseStreamResInCurrentThread / aclrtUnuseStreamResInCurrentThread -
 * make stream the calling thread's resource stream / stop (only if it is
 * that stream; otherwise no change).  aclrtGetResInCurrentThread - *value:
 * the limit of the thread's resource stream if it sets type, else the
 * current device's.  Errors: 100000 NULL value; 107017 stream not live;
 * 107000 type not one of the two, value above the device's cores; 107002
 * no current device (NULL stream, or aclrtGetResInCurrentThread without a
 * resource stream).
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value);
ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value);
/* aclrtQueryEventStatus - ACL_EVENT_RECORDED_STATUS_COMPLETE when the last
 * record was reached, else _NOT_READY (also for an event never recorded);
 * never waits. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
/* aclrtEventElapsedTime - *ms between the timestamps of the last records
 * of startEvent and endEvent, negative when the end was reached before
 * the start.  Errors: 100000 NULL; 107017 dead handle;
 * ACL_ERROR_RT_INTERNAL_ERROR (507000) an event never recorded;
 * ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID (107006) a record not reached yet;
 * 107003 events of different devices (npu_sim's choice). */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

/* ========================================================================
 * Linear device memory
 *
 * Policy rules:
 *   HUGE_FIRST(_P2P): footprint <= 1 MiB gets normal pages; larger is
 *     rounded up to 2 MiB of 2 MiB pages, normal pages if the pool is short.
 *   HUGE_ONLY(_P2P): 2 MiB pages (rounded up to 2 MiB) or 207001.
 *   NORMAL_ONLY(_P2P): normal 4 KiB pages.
 *   HUGE1G_ONLY(_P2P): 1 GiB pages (rounded up to 1 GiB) or 207001.
 *   _P2P: same pages, marked P2P-capable.
 *   ACL_MEM_TYPE_LOW/HIGH_BAND_WIDTH alone: HUGE_FIRST.
 *   ACL_MEM_ACCESS_USER_SPACE_READONLY alone: HUGE_FIRST, read-only to user
 *     space (copies and sets through the API may still write it).
 *   Any other value: not an error; size >= 2 MiB -> HUGE_FIRST backing,
 *     else normal pages (no P2P, no read-only).
 * Footprint (bytes backed): ALIGN_UP(size, 32) + 32, except HUGE1G policies
 * and aclrtMallocAlign32: ALIGN_UP(size, 32).  The device charges the
 * footprint rounded up to the backing page size; e.g. aclrtMalloc of exactly
 * 2 MiB with HUGE_ONLY takes 4 MiB of 2 MiB pages, aclrtMallocAlign32 of
 * 2 MiB takes one 2 MiB page.  Small allocations share pages: a footprint
 * of at most 2 KiB on normal pages (NORMAL_ONLY or HUGE_FIRST, no _P2P, not
 * read-only, device without host access) takes a slot of ALIGN_UP(footprint,
 * 64) bytes in a 4 KiB page of the calling process's small pages, and the
 * device is charged each such page once, from its first live slot to its
 * last (aclrtMalloc of 64 B: a 128-byte slot, 32 to a page).  A copy never
 * runs from one slot into the next.  Returned pointers are 64-byte aligned
 * (page aligned when not in a slot), lie in the device's VA window and must
 * not be dereferenced by the host.  Memory is not zeroed.
 * ====================================================================== */

/*
 * aclrtMalloc - allocate size bytes on the current device.  policy is one
 * aclrtMemMallocPolicy item, or a base item OR'd with one bandwidth item
 * and/or ACL_MEM_ACCESS_USER_SPACE_READONLY (a bandwidth item only with
 * HUGE_FIRST, HUGE_ONLY or NORMAL_ONLY); any other value is not an error and
 * follows the out-of-range rule above.  Footprint ALIGN_UP(size,32)+32
 * (ALIGN_UP(size,32) for HUGE1G policies, and for every policy on the
 * ascend950 product profile, README "Product profiles").
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) devPtr NULL, size 0,
 * or size so large that the footprint, or its rounding up to a 1 GiB
 * page, overflows 64 bits; ACL_ERROR_RT_CONTEXT_NULL
 * (107002) no current device; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) a
 * policy item the product of the device lacks (the *_P2P items on Atlas
 * 200I/500 A2, HUGE1G_ONLY(_P2P) on Atlas 200I/500 A2 and the Atlas
 * inference and training series), nothing allocated;
 * ACL_ERROR_RT_MEMORY_ALLOCATION (207001) device
 * capacity exceeded, hugetlb pool short (HUGE_ONLY/HUGE1G_ONLY), host or VA
 * window out of memory; ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899) other
 * device failure.
 */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/*
 * aclrtMallocAlign32 - as aclrtMalloc but the footprint is ALIGN_UP(size,32)
 * with no +32 pad.  policy must be a single item: an OR of two or more
 * aclrtMemMallocPolicy items (e.g. HUGE_ONLY|HIGH_BAND_WIDTH,
 * NORMAL_ONLY|READONLY) is rejected; a value that is not made of enum items
 * at all (e.g. 8) follows the out-of-range rule.  Returns as aclrtMalloc, plus
 * ACL_ERROR_INVALID_PARAM (100000) for an OR'd policy (the seed page's rule;
 * the code is npu_sim's choice).
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/*
 * aclrtMallocCached - as aclrtMalloc (same footprint); policy HUGE_FIRST,
 * HUGE_ONLY, NORMAL_ONLY or HUGE1G_ONLY is honoured, any other value is the
 * default memory (the out-of-range rule), as the runtime does.  npu_sim has
 * no device cache, so the memory behaves like aclrtMalloc memory.
 * Returns as aclrtMalloc, plus ACL_ERROR_RT_PARAM_INVALID (107000) when the
 * footprint is above 2^50 bytes (the runtime's cap, before the current
 * device is looked up).
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/*
 * aclrtMallocWithCfg - as aclrtMalloc, but the footprint is
 * ALIGN_UP(size,32) with no pad (the runtime adds none here).  policy may be
 * an OR of one base item (0..7; with a bandwidth bit only HUGE_FIRST,
 * HUGE_ONLY, NORMAL_ONLY), at most one of LOW/HIGH_BAND_WIDTH, and
 * optionally USER_SPACE_READONLY.  Other values follow the out-of-range
 * rule.  cfg may be NULL.  Attributes: ACL_RT_MEM_ATTR_DEVICE_ID must name
 * the current device; RSV and MODULE_ID are accepted and have no effect.
 * Returns as aclrtMalloc, plus ACL_ERROR_INVALID_PARAM (100000) when
 * cfg->numAttrs != 0 and cfg->attrs is NULL (before the size check);
 * ACL_ERROR_RT_PARAM_INVALID (107000), after the current-device check, a
 * cfg with attrs NULL and numAttrs 0, an attribute other than RSV,
 * MODULE_ID and DEVICE_ID (VA_FLAG included), or a DEVICE_ID attribute
 * that differs from the current device.
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
						aclrtMallocConfig *cfg);

/*
 * aclrtMallocForTaskScheduler - device memory for the task scheduler.
 * npu_sim has no separate task-scheduler memory: same arguments, rules,
 * footprint and errors as aclrtMallocWithCfg.  Free with aclrtFree.
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size,
							 aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg);

/*
 * aclrtFree - free memory from the aclrtMalloc family, by its start
 * address.  Freed at once (no implicit sync).  The pointer is routed by
 * address to the device whose window holds it; a current device is not
 * needed.
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) devPtr is NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) devPtr is not the start of a live
 * allocation of this process (never allocated, interior pointer, host
 * pointer, already freed); nothing changes then.  (No driver failure of
 * the real runtime becomes ACL_ERROR_RT_MEMORY_FREE 207002.)
 */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);

/*
 * aclrtFreeWithDevSync - synchronize the current device (as
 * aclrtSynchronizeDevice), then aclrtFree.  A failed synchronize (107002
 * no current device, or the first error of queued work) is returned and
 * nothing is freed.  aclrtFree itself does not wait: freeing memory queued
 * work still uses is safe: the memory stays backed until that work is done.
 * Returns 100000 for NULL, else the synchronize's error or as aclrtFree.
 */
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr);

/* aclrtMemFlush / aclrtMemInvalidate - write back / drop cached data of
 * [devPtr, devPtr + size) (bytes).  npu_sim's host and device memory is
 * coherent (no cache sits between them), so a valid range is already in
 * the promised state.  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM
 * (100000) devPtr NULL, size 0, or the range wraps around the address
 * space. */
ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size);

/*
 * aclrtGetMemInfo - free and total bytes of memory class attr on the
 * current device, device-wide (all processes).
 *   HBM / normal classes (ACL_HBM_MEM, ACL_HBM_MEM_NORMAL,
 *     ACL_HBM_MEM_P2P_NORMAL, ACL_MEM_NORMAL, ACL_MEM_P2P_NORMAL):
 *     total = capacity, free = capacity - used.
 *   2 MiB classes (ACL_HBM_MEM_HUGE, ACL_HBM_MEM_P2P_HUGE, ACL_MEM_HUGE,
 *     ACL_MEM_P2P_HUGE): total = capacity, free = min(capacity - used
 *     rounded down to 2 MiB, free 2 MiB pool pages * 2 MiB).
 *   1 GiB classes (ACL_HBM_MEM_HUGE1G, ACL_HBM_MEM_P2P_HUGE1G,
 *     ACL_MEM_HUGE1G, ACL_MEM_P2P_HUGE1G): likewise with 1 GiB.
 *   P2P classes give the same figures as the non-P2P ones (all device
 *     memory is P2P-capable).
 *   DDR classes (ACL_DDR_MEM*, 0, 2, 3, 6, 7): host RAM, total = MemTotal,
 *     free = MemAvailable.
 * By product profile (README "Product profiles"): where the device memory
 * is DDR (atlas-200i-500-a2, atlas-inference) the DDR classes are the
 * device memory, like the HBM classes (served as their DDR equivalent);
 * P2P classes on a product without P2P give free = total = 0.
 * free drops by exactly the bytes charged for an allocation and comes back
 * after its free.
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) free or total NULL;
 * ACL_ERROR_RT_INVALID_MEMORY_TYPE (107016) attr not in aclrtMemAttr
 * (checked before the device); ACL_ERROR_RT_CONTEXT_NULL (107002) no
 * current device; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) a 1 GiB class
 * on a product without 1 GiB pages; ACL_ERROR_RT_DRV_INTERNAL_ERROR
 * (507899) device failure.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

/*
 * aclrtGetMemUsageInfo - memory use of device deviceId (set by this
 * process) by component: up to inputNum entries are written, *outputNum is
 * how many (6 at most), in this order, curMemSize / memPeakSize in bytes,
 * reserved zero:
 *   "process"  device memory this process holds on the device;
 *   "device"   device memory held by all processes;
 *   "normal", "huge_2m", "huge_1g"  of "device", by backing page size;
 *   "p2p"      of "device", P2P memory.
 * Current sizes are those at the call.  Peaks count from the device's
 * aclrtSetDevice in this process (again from zero after a reset): exact for
 * "process" (sampled before each aclrtFree, aclrtFreePhysical,
 * aclrtUnmapMem and aclrtReleaseMemAddress); for the device-wide
 * components the highest value this process saw at those samples and at
 * its own calls.
 * Errors: ACL_ERROR_INVALID_PARAM (100000) memUsageInfo or outputNum NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) inputNum 0 (*outputNum is set to 0);
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) deviceId not a device;
 * ACL_ERROR_RT_CONTEXT_NULL (107002) the device is not set in this process.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo,
						  size_t inputNum, size_t *outputNum);

/* aclrtCheckMemType - *checkResult = 1 when every one of the size addresses
 * of addrList is of a type in memType (an OR of ACL_RT_MEM_TYPE_DEV:
 * inside live aclrtMalloc-family memory of this process;
 * ACL_RT_MEM_TYPE_RSVD: inside a reservation of aclrtReserveMemAddress;
 * ACL_RT_MEM_TYPE_DVPP: npu_sim has none), else 0.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) addrList or checkResult NULL, size 0,
 * reserve != 0, memType 0 or with other bits. */
ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType,
					       uint32_t *checkResult, uint32_t reserve);

/* aclrtPointerGetAttributes - location and page size of ptr: DEVICE <id>
 * (HOST for host-location VMM memory) and 4096 / 2 MiB / 1 GiB for live
 * device memory; HOST and the page size for aclrtMallocHost memory;
 * UNREGISTERED with pageSize 0 otherwise.  Errors: 100000 NULL ptr or
 * attributes. */
ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes);

/* aclrtMemGetAddressRange - base and size of the allocation, VMM mapping or
 * aclrtMallocHost block holding ptr.  Errors: 100000 NULL ptr; 107000 ptr
 * not in one. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize);

/* ========================================================================
 * Host memory
 * ====================================================================== */

/*
 * aclrtMallocHost - size bytes of pinned host memory (page aligned, so
 * 64-byte aligned; locked in RAM when RLIMIT_MEMLOCK allows, best effort),
 * host accessible; contents unspecified (do not rely on zeroes).  As in the
 * runtime, a current device is needed (the memory is allocated for it).
 * Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) hostPtr NULL, size 0, or size too large
 * to round up to a page; ACL_ERROR_RT_CONTEXT_NULL (107002) no current
 * device; ACL_ERROR_RT_MEMORY_ALLOCATION (207001) the host is out of memory.
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);

/* aclrtMallocHostWithCfg - as aclrtMallocHost (size in bytes), with an
 * optional attribute list (cfg may be NULL; MODULE_ID and VA_FLAG are
 * accepted and have no effect on host memory).  Free with aclrtFreeHost.
 * Returns as aclrtMallocHost, plus ACL_ERROR_RT_PARAM_INVALID (107000),
 * before the current-device check, a cfg with attrs NULL or an attribute
 * other than MODULE_ID and VA_FLAG; 100000 size beyond size_t. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg);

/*
 * aclrtFreeHost - free memory from aclrtMallocHost, by its start address.
 * Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) hostPtr is NULL; ACL_ERROR_RT_PARAM_INVALID
 * (107000) hostPtr is not the start of live aclrtMallocHost memory (never
 * crashes, changes nothing).
 */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);

/* aclrtFreeHostWithDevSync - synchronize the current device, then
 * aclrtFreeHost; a failed synchronize (107002 no current device, or the
 * first error of queued work) is returned and nothing is freed.  Returns
 * 100000 for NULL, else the synchronize's error or as aclrtFreeHost. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr);

/*
 * aclrtHostRegister - make size bytes of this process's host memory at ptr
 * (any alignment; mapped, and writable unless READONLY) reachable by the
 * current device: *devPtr is a device address for it; copies and sets
 * through devPtr (and devPtr + k) read and write the host bytes.  The
 * pages are pinned until aclrtHostUnregister or a reset of the device, and
 * count against RLIMIT_MEMLOCK; nothing is charged to the device.  type:
 * ACL_HOST_REGISTER_MAPPED (0), or an OR of _IOMEMORY (treated as MAPPED)
 * and _READONLY (the device only reads: a copy or set writing through
 * devPtr fails with ACL_ERROR_RT_NO_PERMISSION 207006 and changes nothing);
 * other bits: ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000).
 * aclrtHostRegisterV2 - the same with flag a non-empty combination of
 * ACL_HOST_REG_MAPPED, _IOMEMORY, _READONLY, _PINNED (0 or other bits:
 * ACL_ERROR_RT_PARAM_INVALID 107000); the device address comes from
 * aclrtHostGetDevicePointer.
 * Errors of both: ACL_ERROR_INVALID_PARAM (100000) ptr or devPtr NULL,
 * size 0, a range that wraps; ACL_ERROR_RT_CONTEXT_NULL (107002) no current
 * device;
 * ACL_ERROR_RT_PARAM_INVALID (107000) the range is device memory, or not
 * mapped (writable) host memory of this process;
 * ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED (507910) it overlaps a live
 * registration; ACL_ERROR_RT_MEMORY_ALLOCATION (207001) pinning it would
 * exceed RLIMIT_MEMLOCK (nothing stays pinned) or memory is short.
 *
 * aclrtHostGetDevicePointer - the device address of pHost, any byte of a
 * live registration.  flag must be 0.  Errors: 100000 a NULL pointer or
 * flag != 0; 107002 no current device; ACL_ERROR_RT_PARAM_INVALID (107000)
 * pHost is in no live registration (the runtime's answer).
 *
 * aclrtHostUnregister - undo the registration that starts at ptr (the ptr
 * given to aclrtHostRegister); the pages are unpinned.  Errors: 100000
 * NULL; 107002 no current device; 507911 no live registration starts at
 * ptr.
 */
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type,
					       void **devPtr);
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr);

/* ========================================================================
 * Copy and set.  Synchronous: done when the call returns.
 * Where a pointer is (host, or the VA window of which device) is decided by
 * its address.  Device ranges must lie in live device memory (checked
 * before any byte is written).
 * ====================================================================== */

/*
 * aclrtMemcpy - copy count bytes from src to dst (dst has room for destMax
 * bytes).  Checks, in order: count 0 -> ACL_SUCCESS at once (even with NULL
 * pointers); dst or src NULL -> ACL_ERROR_INVALID_PARAM (100000); kind not
 * in 0..5 -> 100000; count > destMax -> ACL_ERROR_RT_PARAM_INVALID (107000);
 * no current device -> ACL_ERROR_RT_CONTEXT_NULL (107002); kind does not
 * match where dst/src are (e.g. H2D with a device src), or a range
 * straddles host and device addresses -> 107000; dst == src -> ACL_SUCCESS,
 * nothing copied.  D2D between two different devices is issued on the
 * current device: it needs peer access from the current device to each
 * device of dst and src that is not the current one
 * (aclrtDeviceEnablePeerAccess), else ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000) and nothing copied (aclGetRecentErrMsg names the call to make);
 * the bytes move in one copy between the two devices' memory.
 * ACL_MEMCPY_DEFAULT infers the direction; HOST_TO_BUF_TO_DEVICE is H2D;
 * H2H is done in the caller like memmove() (an invalid host pointer faults
 * in the caller: host memory not from ACL is undefined behaviour); copies
 * that involve a device check the host range too.  Device range not in
 * live device memory, or host range not accessible -> 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
					 aclrtMemcpyKind kind);

/* aclrtMemcpyAsync - as aclrtMemcpy (same checks and codes, checked at
 * the call), queued on stream.  With host memory from aclrtMallocHost the
 * call returns at once; with pageable host memory it returns after the copy
 * is done (the stream's first error is then returned by the call).  Host to
 * host: ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000), as the real runtime in
 * EP mode.  Device memory not on the stream's device: 107003, except D2D
 * between two devices, issued on the stream's device: it needs peer access
 * from the stream's device to each other device of dst and src, else
 * 207000 at the call (nothing queued).  Unlike aclrtMemcpy, a kind that
 * contradicts where dst and src are is corrected silently, as the runtime
 * does: between device and aclrtMallocHost memory the locations decide;
 * with other (pageable) host memory DEFAULT resolves as host and an
 * explicit kind must be one that side allows, else 107000
 * (docs/cann-api-notes.md 8). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
					      aclrtMemcpyKind kind, aclrtStream stream);

/*
 * aclrtMemcpy2d - copy height rows of width bytes; rows start dpitch bytes
 * apart in dst and spitch bytes apart in src.  Checks, in order: width 0 or
 * height 0 -> ACL_SUCCESS; dst or src NULL -> ACL_ERROR_INVALID_PARAM
 * (100000); width > dpitch or width > spitch -> 100000; kind not in 1..4
 * (H2D, D2H, D2D, DEFAULT) -> 100000 (the ACL layer); height > 5242880 or
 * width > 5000000 (the runtime's caps), pitch * (height - 1) + width
 * overflows -> ACL_ERROR_RT_PARAM_INVALID (107000); kind D2D ->
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): the synchronous 2D copy is
 * host to device or device to host only; then as aclrtMemcpy (107002,
 * 107000) but with the kind corrected from where dst and src are as for
 * aclrtMemcpyAsync; a kind (DEFAULT or corrected) resolving to device to
 * device or host to host -> 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
					   size_t width, size_t height, aclrtMemcpyKind kind);

/* aclrtMemcpy2dAsync - as aclrtMemcpy2d, queued on stream, D2D included;
 * pinned/pageable and errors as aclrtMemcpyAsync, except host to host:
 * 107000 (the runtime's 2D check), not 207000. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
						size_t width, size_t height, aclrtMemcpyKind kind,
						aclrtStream stream);

/*
 * aclrtMemset - set count bytes at devPtr (room for maxCount bytes) to the
 * low byte of value.  Device memory is set by the device (read-only memory
 * included); a host pointer is set in the caller like memset(), so an
 * invalid host pointer faults in the caller (host memory not from ACL is
 * undefined behaviour).  Checks, in order:
 * count 0 -> ACL_SUCCESS; devPtr NULL -> ACL_ERROR_INVALID_PARAM (100000);
 * count > maxCount -> ACL_ERROR_RT_PARAM_INVALID (107000); no current
 * device -> ACL_ERROR_RT_CONTEXT_NULL (107002); range straddles host and
 * device addresses, or not in live device memory -> 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);

/* aclrtMemsetAsync - as aclrtMemset on device memory, queued on stream.
 * Host memory: ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000). */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
					      aclrtStream stream);

/* aclrtMemsetD32 - set N 32-bit words at ptr (room for memSize bytes) to
 * value.  Checks, in order (the ACL layer's): N 0 -> ACL_SUCCESS; ptr NULL,
 * not 4-byte aligned, or N * 4 overflowing or above memSize ->
 * ACL_ERROR_INVALID_PARAM (100000); no current device ->
 * ACL_ERROR_RT_CONTEXT_NULL (107002); ptr neither device memory nor in an
 * aclrtMallocHost block -> 100000; then the range not inside one live
 * allocation, mapping or block -> 107000 (nothing written).  Host memory
 * is written by the CPU, device memory by the driver. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N);

/*
 * aclrtMemcpyBatch - numBatches synchronous copies (srcs[i] -> dsts[i],
 * sizes[i] bytes, room for destMax[i]), all host to device or all device
 * to host.  attrs[k] applies to copies attrsIndexes[k] .. attrsIndexes[k+1]-1
 * (the last to numBatches - 1) and must say where they are: dstLoc/srcLoc
 * HOST, or DEVICE with the device id; rsv 0.  Every copy is checked before
 * any byte moves; on an error *failIndex is the refused copy, or SIZE_MAX
 * when the error concerns no single copy.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) failIndex or an array NULL, numBatches
 * 0, numAttrs 0 or > numBatches, attrsIndexes not starting at 0, not
 * increasing or not below numBatches, a NULL dst/src, a copy that is not
 * H2D or D2H or goes the other way than the first, an attribute that does
 * not match; ACL_ERROR_RT_PARAM_INVALID (107000) sizes[i] > destMax[i] or
 * the device side not inside one live allocation or mapping;
 * ACL_ERROR_RT_CONTEXT_NULL (107002) no current device.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void **dsts, size_t *destMax, void **srcs, size_t *sizes,
					      size_t numBatches, aclrtMemcpyBatchAttr *attrs,
					      size_t *attrsIndexes, size_t numAttrs, size_t *failIndex);

/* ========================================================================
 * Virtual memory management and sharing.  Reserve device VA, create
 * physical memory, map it into a reservation, share it with other
 * processes.  Granularity 2 MiB (normal and huge attributes) or 1 GiB
 * (HUGE1G attributes); sizes are multiples of it.  aclrtDrvMemHandle values
 * are made by this library and belong to the process that got them.
 * ====================================================================== */

/* aclrtMemGetAllocationGranularity - *granularity = 2 MiB, or 1 GiB for the
 * HUGE1G attributes, for either option (option, handleType and
 * allocationType are not checked, as in the runtime).  Errors: 100000 prop
 * or granularity NULL, memAttr refused, a DDR attribute on a DEVICE; 107001
 * DEVICE id not a device; 107000 a location the driver refuses. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
							      aclrtMemGranularityOptions option,
							      size_t *granularity);
/* aclrtReserveMemAddress - reserve size bytes of device VA on the current
 * device, no memory behind it; size may exceed the device's capacity.
 * size: a multiple of 2 MiB.  The reservation is aligned to 1 GiB when
 * size >= 1 GiB, else 2 MiB; alignment is not checked.  expectPtr: NULL,
 * or a 2 MiB aligned address that must be free in the device's window.
 * flags: 0 or 1 (no effect).  Errors: 100000 virPtr NULL, size 0, flags
 * > 1; 107000 size not a multiple of 2 MiB, expectPtr not 2 MiB aligned
 * (the driver's checks); 107002 no current device; 207001 no room in the
 * window, or expectPtr taken or outside it. */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment,
						    void *expectPtr, uint64_t flags);
/*
 * aclrtReserveMemAddressNoUCMemory - as aclrtReserveMemAddress (same codes),
 * with stricter arguments: size a non-zero multiple of 1 GiB and expectPtr
 * given by the caller, 1 GiB aligned (else ACL_ERROR_INVALID_PARAM
 * 100000); it must be free and inside the current device's VA window (else
 * ACL_ERROR_RT_MEMORY_ALLOCATION 207001).
 */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment,
							      void *expectPtr, uint64_t flags);
/* aclrtReleaseMemAddress - release the reservation starting at virPtr.
 * Errors: 100000 NULL; 107000 not a device address, no reservation starts
 * there, or something is still mapped in it. */
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr);
/* aclrtMallocPhysical - create size bytes of physical memory and a handle
 * to it.  size: a multiple of the granularity (2 MiB, 1 GiB for HUGE1G).
 * prop: handleType NONE, allocationType PINNED; location DEVICE (id a device
 * this process has set; charged to its capacity), HOST or HOST_NUMA (host
 * RAM, not charged; id an online NUMA node for HOST_NUMA); memAttr one of
 * 12-17 (ACL_MEM_*), ACL_HBM_MEM_HUGE / _NORMAL / _HUGE1G (device only) or
 * ACL_DDR_MEM_HUGE / _NORMAL / _P2P_HUGE / _P2P_NORMAL (host only); HUGE1G
 * attributes on a device only.  ACL_HBM_MEM_NORMAL is backed by 2 MiB
 * pages, the other *NORMAL attributes by 4 KiB pages.  flags must be 0.
 * Errors: 100000 handle or prop NULL, flags != 0, size 0, prop refused by
 * the ACL layer (handleType, allocationType, location UNREGISTERED or
 * MANAGED, DDR attribute on a DEVICE, memAttr); 107001 DEVICE id not a
 * device; 107002 DEVICE not set by this process, or no current device
 * (HOST locations); 107000 size not a multiple of the granularity, a
 * device-only attribute at a HOST location, a location type outside the
 * enum, HOST_NUMA id not online (the driver's checks); 207000 memAttr not supported on the product of the device (ACL_MEM_HUGE1G
 * only on A3/A2, ACL_HBM_MEM_HUGE1G on 950/A3/A2, ACL_MEM_P2P_HUGE1G on A3),
 * or any call on Atlas 200I/500 A2 (README "Product profiles");
 * 207001 capacity, 2 MiB / 1 GiB page pool or host memory exhausted. */
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
						 const aclrtPhysicalMemProp *prop, uint64_t flags);
/* aclrtFreePhysical - drop this process's reference to handle; the memory
 * is released once it is also unmapped everywhere and no importer or
 * exporter holds it.  Errors: 100000 NULL; 107002 its device was reset;
 * 107017 (ACL_ERROR_RT_INVALID_HANDLE) not live (freed twice, forged, not
 * a handle from this library). */
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
/* aclrtMapMem - map all of handle at virPtr, inside one reservation.
 * size must be the handle's size; offset and flags must be 0; virPtr 2 MiB
 * aligned (1 GiB for a 1 GiB handle).  The mapping is READWRITE for its
 * device.  Errors: 100000 virPtr or handle NULL, size 0, flags != 0;
 * 107017 handle not live or not from this library; 107000 (the driver's
 * checks) offset != 0, virPtr not a device address or not 2 MiB aligned,
 * handle of another device than virPtr, size is not the handle's size,
 * 1 GiB handle at an address not 1 GiB aligned, range not inside one
 * reservation, or overlapping a live mapping (nothing changes). */
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
					 uint64_t flags);
/* aclrtMemMapNoAccess - as aclrtMapMem (same arguments, rules and errors),
 * but the mapping has no access: copies, sets and value operations touching
 * it fail with ACL_ERROR_RT_NO_PERMISSION (207006) and aclrtMemGetAccess
 * reports flag ACL_RT_MEM_ACCESS_FLAGS_NONE, until aclrtMemSetAccess grants
 * READWRITE. */
ACL_FUNC_VISIBILITY aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset,
						 aclrtDrvMemHandle handle, uint64_t flags);
/* aclrtUnmapMem - undo the aclrtMapMem that started at virPtr; the
 * reservation stays.  Errors: 100000 NULL; 107000 not a device address,
 * no mapping starts there. */
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);
/* aclrtMemSetAccess - set the access of the mapping [virPtr, virPtr + size)
 * from count descriptors (the last one wins).  flags must be READWRITE,
 * location HOST or DEVICE, rsv all 0.  The ACL layer checks nothing here:
 * every error is ACL_ERROR_RT_PARAM_INVALID (107000): virPtr or desc NULL,
 * size 0, count 0, other flags or location types, rsv not 0, virPtr not a
 * device address, the range not exactly one mapping, or a DEVICE id that
 * does not exist. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc,
					       size_t count);
/* aclrtMemGetAccess - the access of the mapping holding virPtr: location
 * and flag (READWRITE at DEVICE <its device> right after aclrtMapMem).
 * Errors: 100000 a NULL argument; 107000 not a device address, not mapped
 * memory. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag);
/* aclrtMemRetainAllocationHandle - the handle mapped at virPtr, with one
 * more reference (drop it with aclrtFreePhysical); this revives a handle
 * its owner freed while it was still mapped.  Errors: 100000 a NULL
 * argument; 107000 not a device address, not mapped memory. */
ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle);
/* aclrtMemGetAllocationPropertiesFromHandle - the prop handle was created
 * with (for an imported handle, the exporter's).  Errors: 100000 handle or
 * prop NULL; 107002 its device was reset; 107017 not live or not a handle
 * from this library. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
								       aclrtPhysicalMemProp *prop);
/* aclrtMemExportToShareableHandle - make handle importable by other
 * processes; *shareableHandle is a random non-zero 64-bit key.  A handle is
 * exported once.  handleType must be ACL_MEM_HANDLE_TYPE_NONE; flags
 * ACL_RT_VMM_EXPORT_FLAG_DEFAULT (only processes named with
 * aclrtMemSetPidToShareableHandle may import) or
 * ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION (any process may).
 * Errors: 100000 handle or shareableHandle NULL, other handleType; 107000
 * other flag bits, already exported; 107002 its device was reset; 107017
 * handle not live or not from this library; 207006 (ACL_ERROR_RT_NO_PERMISSION)
 * handle was itself imported. */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle,
							     aclrtMemHandleType handleType, uint64_t flags,
							     uint64_t *shareableHandle);
/* aclrtMemImportFromShareableHandle - a new handle of this process, on
 * deviceId (set by this process), to the memory the key names; its
 * aclrtFreePhysical drops only this process's hold.  Errors: 100000 handle
 * NULL; 107001 deviceId not a device; 107000 key 0; 107002 deviceId not set
 * by this process; 107017 key not live (never exported, guessed, or the
 * exporter freed it); 207006 this process is not on the key's pid list,
 * or it is the exporter.  Memory of another device: as the CANN runtime,
 * the import gives deviceId peer access to that device (as
 * aclrtDeviceEnablePeerAccess with deviceId current) and succeeds; the
 * memory stays on its own device. */
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
							       aclrtDrvMemHandle *handle);
/* aclrtMemSetPidToShareableHandle - add pidNum process ids (1 .. 1024 of
 * them, each > 0) to the list of processes allowed to import the key; only
 * the exporting process may, through its current device.  Errors: 100000
 * pid NULL, pidNum 0; 107000 key 0, pidNum > 1024, a pid <= 0 (the driver's
 * checks); 107002 no current device; 107017 key not live; 207006 called by another process than the
 * exporter; 207001 the key's list would hold more than 1024 pids. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid,
							     size_t pidNum);
/*
 * The V2 share calls take the shareable handle by pointer: a uint64_t for
 * shareType ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, an aclrtMemFabricHandle (128
 * bytes) for ACL_MEM_SHARE_HANDLE_TYPE_FABRIC.  On one machine both name
 * the same share as the V1 calls: a fabric handle holds the 64-bit key in
 * data[0..7] and zeros after.  Same rules and codes as the V1 calls, plus
 * ACL_ERROR_INVALID_PARAM (100000) for a NULL shareableHandle or a
 * shareType that is neither.  aclrtMemImportFromShareableHandleV2: flags
 * must be 0 (else 100000); the memory is imported into the current
 * device, with peer access to the exporter's device enabled as the V1 call
 * does; 107002 no current device; 107017 a fabric handle that holds no key
 * (non-zero bytes after the key).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
							       aclrtMemSharedHandleType shareType,
							       void *shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle,
								 aclrtMemSharedHandleType shareType,
								 uint64_t flags, aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle,
							       aclrtMemSharedHandleType shareType,
							       int32_t *pid, size_t pidNum);

/* ========================================================================
 * Managed (UVM) memory.  Host and device both access managed memory through
 * the same pointer; it is migrated, or under read-mostly duplicated, per
 * 2 MiB block to the side that touches it.  The host may read and write it
 * directly, unlike other device memory.
 * ====================================================================== */

/*
 * aclrtMemAllocManaged: size in bytes, rounded up to 2 MiB; the pointer is 2 MiB
 * aligned on the current device; free with aclrtFree.  No device memory is used
 * until the device touches it (device copies are charged to the device then).
 * 100000: ptr NULL, flag != ACL_RT_MEM_ATTACH_GLOBAL (1).  107000: size 0 (the
 * runtime's check), size > 3 TB.  107002: no current device.  207001: out of
 * (host) memory.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag);
/*
 * aclrtMemManagedAdvise: [ptr, ptr + size) inside one managed allocation; size a
 * multiple of 2 MiB in (0, 3 TB]; the 2 MiB blocks covering the range are advised.
 * location: DEVICE (id must be the device the memory is on) or HOST.
 * SET_READ_MOSTLY ignores location; UNSET_READ_MOSTLY keeps the copy at location
 * (host when the location is invalid); UNSET_PREFERRED_LOCATION ignores it.
 * SET_READ_MOSTLY: a reading side gets a read-only copy of its own; a write
 * drops every other copy and clears read-mostly.  SET_PREFERRED_LOCATION:
 * the blocks move to location and are mapped there at once (under
 * read-mostly a device location gets a read-only copy instead).
 * SET_ACCESSED_BY: recorded; equal to the preferred location, the blocks are
 * placed there at once as for SET_PREFERRED_LOCATION.
 * 100000: ptr NULL, size 0 (the ACL layer's only checks).
 * 107000: advise out of range, a DEVICE location id that is not a device (the
 *         runtime's checks); size not a multiple of 2 MiB or above 3 TB, ptr not in
 *         device memory, location invalid, HOST_NUMA types or another device for
 *         SET/UNSET_PREFERRED and SET/UNSET_ACCESSED_BY, range not inside one
 *         managed allocation (the driver's); SET_PREFERRED_LOCATION (or
 *         SET_ACCESSED_BY equal to the preferred location) without read-mostly
 *         while a block is mapped at the other location (nothing
 *         is changed then).  207001: no device capacity for a device copy.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size,
						   aclrtMemManagedAdviseType advise,
						   aclrtMemManagedLocation location);
/*
 * aclrtMemManagedPrefetchAsync: migrates [ptr, ptr + size) (2 MiB blocks) to
 * location (DEVICE of the memory's device, or HOST) when the stream reaches it,
 * in order with the stream's other work; under read-mostly it creates a
 * read-only copy instead.  A device prefetch maps the device side (no device
 * fault afterwards); a host prefetch moves the data but the host's first
 * touch still takes one (migration-free) page fault.
 * 100000: ptr NULL, size 0, flags != 0.  107017: not a live stream.
 * 107000: a DEVICE location id that is not a device; size not a multiple of 2 MiB
 *         or above 3 TB, location invalid or a HOST_NUMA type, ptr not in device
 *         memory, range not inside one managed allocation.
 * 107002: NULL stream and no current device.  107003: stream of another device.
 * 207001 (reported by the next sync): no capacity for a device copy.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size,
							  aclrtMemManagedLocation location, uint32_t flags,
							  aclrtStream stream);
/*
 * aclrtMemManagedPrefetchBatchAsync: count prefetches (ptrs[i], sizes[i]
 * bytes, rules of aclrtMemManagedPrefetchAsync) queued in order on stream;
 * prefetchLocs[k] is where ranges prefetchLocIdxs[k] ..
 * prefetchLocIdxs[k+1] - 1 (the last to count - 1) go.  Every range and
 * location is checked before the first is queued: a refused call queues
 * nothing.  100000: an array NULL, count 0, flags != 0, numPrefetchLocs 0
 * or > count, prefetchLocIdxs not starting at 0, not increasing or not
 * below count, a size not a multiple of 2 MiB in (0, 3 TB], a location not
 * HOST or the memory's device.  107000: a range not in device memory or
 * not inside one managed allocation.  Then as aclrtMemManagedPrefetchAsync
 * (107017, 107002, 107003).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
							       aclrtMemManagedLocation *prefetchLocs,
							       size_t *prefetchLocIdxs, size_t numPrefetchLocs,
							       uint64_t flags, aclrtStream stream);
/*
 * aclrtMemManagedGetAttr: an attribute of the 2 MiB blocks covering [ptr, ptr + size) (size > 0,
 * inside one managed allocation), written to data (dataSize bytes):
 *   READ_MOSTLY: int32_t, 1 if every block has it, else 0.
 *   PREFERRED_LOCATION, LAST_PREFETCH_LOCATION: aclrtMemManagedLocation (8 bytes); INVALID
 *     (id 0) when none or the blocks differ; id is the device for DEVICE, else 0.
 *   *_TYPE, *_ID: int32_t, the type / id of the above.
 *   ACCESSED_BY: an array of aclrtMemManagedLocation (dataSize a multiple of 8): the
 *     locations every block has (device first), the rest of the array INVALID.
 * 100000: ptr or data NULL, size 0.
 * 107000: attribute out of range (the runtime's check), dataSize too small (or not a
 * multiple of 8 for ACCESSED_BY), ptr not in device memory, range not inside one
 * managed allocation.
 * aclrtMemManagedGetAttrs: the same per attribute (data[i], dataSizes[i]); stops at the first
 * error; 100000 for NULL arrays or numAttributes 0.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr,
						    size_t size, void *data, size_t dataSize);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes,
						     size_t numAttributes, const void *ptr, size_t size,
						     void **data, size_t *dataSizes);
/* ========================================================================
 * Peer access between devices.  Access is one-directional ("device A may
 * reach device B's memory") and belongs to the calling process: it ends
 * when the process exits or is killed.  It lets copies issued on A
 * (aclrtMemcpy on current device A, aclrtMemcpyAsync / aclrtMemcpy2dAsync
 * on a stream of A) read and write B's memory, and lets a shareable handle of
 * B's memory be imported on A.
 * ====================================================================== */

/*
 * aclrtDeviceCanAccessPeer - *canAccessPeer = 1 when device deviceId can
 * be given access to device peerDeviceId's memory, else 0; between any two
 * npu_sim devices it is 1.  Checks, in order: deviceId == peerDeviceId ->
 * ACL_ERROR_INVALID_PARAM (100000); peerDeviceId outside
 * [0, aclrtGetDeviceCount) -> ACL_ERROR_RT_INVALID_DEVICEID (107001);
 * deviceId outside 0..63 or canAccessPeer NULL -> ACL_ERROR_RT_PARAM_INVALID
 * (107000, the runtime's checks); deviceId outside [0, aclrtGetDeviceCount)
 * -> 107001; no device at all -> ACL_ERROR_RT_NO_DEVICE (207004).  Needs no
 * current device.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId,
						      int32_t peerDeviceId);

/*
 * aclrtDeviceEnablePeerAccess - let the current device access device
 * peerDeviceId's memory (one direction only).  Checks, in order: flags != 0
 * -> ACL_ERROR_FEATURE_UNSUPPORTED (200006); no current device ->
 * ACL_ERROR_RT_CONTEXT_NULL (107002); peerDeviceId == the current device ->
 * ACL_ERROR_INVALID_PARAM (100000); peerDeviceId outside
 * [0, aclrtGetDeviceCount) -> ACL_ERROR_RT_INVALID_DEVICEID (107001).
 * Enabling access that is already enabled returns ACL_SUCCESS and changes
 * nothing (a choice: idempotent; one Disable takes it back).
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);

/*
 * aclrtDeviceDisablePeerAccess - take back the current device's access to
 * device peerDeviceId's memory.  Copies already queued on streams keep
 * their access.  Checks, in order: no current device ->
 * ACL_ERROR_RT_CONTEXT_NULL (107002); peerDeviceId == the current device ->
 * ACL_ERROR_INVALID_PARAM (100000); peerDeviceId outside
 * [0, aclrtGetDeviceCount) -> ACL_ERROR_RT_INVALID_DEVICEID (107001);
 * access not enabled -> ACL_ERROR_RT_PARAM_INVALID (107000) (a choice).
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

/*
 * aclrtMemP2PMap - make size bytes at devPtr, device memory of this
 * process on device D, accessible from device dstDevId: peer access from
 * dstDevId to D is enabled (as aclrtDeviceEnablePeerAccess with dstDevId
 * current), unless it already is or dstDevId is D (then nothing changes).
 * Checks, in order: devPtr NULL, size 0 or flags != 0 ->
 * ACL_ERROR_INVALID_PARAM (100000); dstDevId outside
 * [0, aclrtGetDeviceCount) -> ACL_ERROR_RT_INVALID_DEVICEID (107001);
 * [devPtr, devPtr + size) not inside one live allocation or mapping of
 * one device -> ACL_ERROR_RT_PARAM_INVALID (107000); dstDevId not set in
 * this process -> ACL_ERROR_RT_CONTEXT_NULL (107002).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemP2PMap(void *devPtr, size_t size, int32_t dstDevId, uint64_t flags);

/* ========================================================================
 * IPC memory by key.  A key names part of one aclrtMalloc allocation for
 * other processes on this machine: a NUL-terminated string of 28 bytes
 * (fits the documented 65-byte buffer).  Lifetime: importers close, then
 * the exporter closes, then it frees; the memory stays until every holder
 * (the allocation, the key, each import) let go, killed processes
 * included.  Common errors: ACL_ERROR_INVALID_PARAM (100000) a NULL
 * pointer; ACL_ERROR_RT_CONTEXT_NULL (107002) no current device;
 * ACL_ERROR_RT_INVALID_HANDLE (107017) key names no live key (never
 * exported, closed by its exporter, or not a key string).
 * ====================================================================== */

/* aclrtIpcMemGetExportKey - export [devPtr, devPtr + size), which must lie
 * in one live aclrtMalloc allocation of this process, and write its key to
 * key (len bytes, at least 28).  flags: ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT
 * (only processes named with aclrtIpcMemSetImportPid may import) or
 * _DISABLE_PID_VALIDATION (any process may).  Errors: 100000 devPtr or key
 * NULL; ACL_ERROR_RT_PARAM_INVALID (107000) size 0, len < 28, flags > 1,
 * the range not inside one allocation of this process; 107002. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len,
						     uint64_t flags);
/* aclrtIpcMemImportByKey - map the memory key names into the current
 * device's window: *devPtr addresses the exported devPtr (the exported
 * range, read and write).  flags: ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT, or
 * _ENABLE_PEER_ACCESS (memory of another device: enable peer access to it
 * first).  Errors: 100000 devPtr or key NULL; 107017; 107000 flags > 1, or
 * the memory is on another device without peer access;
 * ACL_ERROR_RT_NO_PERMISSION (207006) this process exported the key, or it
 * is not on the key's whitelist; 107002. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags);
/* aclrtIpcMemSetImportPid - add num process ids (aclrtDeviceGetBareTgid of
 * each importer; 1 .. 1024 in all, each > 0) to the key's whitelist; only
 * the exporting process may.  Errors: 100000 key or pid NULL; 107000 num 0
 * or > 1024, a pid <= 0; 107017; 207006 not the exporter;
 * ACL_ERROR_RT_MEMORY_ALLOCATION (207001) the whitelist would exceed 1024
 * pids; 107002. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num);
/* aclrtIpcMemClose - in a process that imported key: unmap its oldest
 * import of it (the memory stays for the other holders).  In the exporting
 * process: the key dies (no new imports; imports keep their memory; the
 * allocation is still freed with aclrtFree).  Errors: 100000 NULL; 107017
 * also when this process neither imported nor exported the key (or closed
 * it already); 107002. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key);

/* ------------------------------------------------------------------------
 * Errors and system: the calling thread's last error, the versions of the
 * installed CANN packages.
 * ---------------------------------------------------------------------- */

/* Which last error aclrtGetLastError / aclrtPeekAtLastError read; only the
 * calling thread's is kept. */
typedef enum aclrtLastErrLevel {
	ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

/* Size of aclsysGetVersionStr's versionStr buffer and of the version
 * fields of aclCANNPackageVersion. */
#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

typedef enum aclCANNPackageName {
	ACL_PKG_NAME_CANN,
	ACL_PKG_NAME_RUNTIME,
	ACL_PKG_NAME_COMPILER,
	ACL_PKG_NAME_HCCL,
	ACL_PKG_NAME_TOOLKIT,
	ACL_PKG_NAME_OPP,
	ACL_PKG_NAME_OPP_KERNEL,
	ACL_PKG_NAME_DRIVER,
} aclCANNPackageName;

typedef struct aclCANNPackageVersion {
	char version[ACL_PKG_VERSION_MAX_SIZE];
	char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
	char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
	char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
	char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
	char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

/*
 * aclrtGetLastError - the code of the calling thread's last failed call
 * (any call returning aclError except aclrtGetLastError,
 * aclrtPeekAtLastError and the data-buffer calls), then forgets it: the
 * next read gives ACL_SUCCESS until another call fails.  ACL_SUCCESS when
 * no call failed since the last read.  Other threads' failures are not
 * seen.  level must be ACL_RT_THREAD_LEVEL; any other returns
 * ACL_ERROR_INVALID_PARAM (100000) and leaves the last error as it was.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

/*
 * aclrtPeekAtLastError - as aclrtGetLastError, but the last error stays
 * (a later aclrtGetLastError returns it again).
 */
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);

/*
 * aclsysGetVersionStr - the version of the installed CANN package pkgName
 * (e.g. "runtime", "cann", "driver"), as written on the "Version=" line of
 * its version file: $ASCEND_HOME_PATH/share/info/<pkgName>/version.info,
 * or, for "driver" and "firmware", <path>/<pkgName>/version.info with the
 * path of the Driver_Install_Path_Param= / Firmware_Install_Path_Param=
 * line of /etc/ascend_install.info.  When that file does not exist, the
 * name with '-' and '_' swapped is tried.  versionStr gets the string,
 * NUL-terminated; it must hold ACL_PKG_VERSION_MAX_SIZE bytes.
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) pkgName or
 * versionStr is NULL; ACL_ERROR_INVALID_FILE (100003) ASCEND_HOME_PATH
 * unset or not a directory, no version file, or no non-empty "Version="
 * line in it; ACL_ERROR_INTERNAL_ERROR (500000) the version is
 * ACL_PKG_VERSION_MAX_SIZE bytes or longer.  versionStr is untouched on
 * failure.
 */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr);

/*
 * aclsysGetVersionNum - the version of aclsysGetVersionStr as a number:
 * "major.minor.patch" is major * 10000000 + minor * 100000 + patch * 1000;
 * a pre-release suffix right after the patch number ("alpha", "beta" or
 * "rc", any case, after at most one '.' or '-', with an optional number N
 * after at most one more '.' or '-') subtracts 300, 200 or 100 and adds N.
 * E.g. "8.5.0" is 80500000, "8.5.0-beta.1" is 80499801.
 * Returns ACL_SUCCESS; the codes of aclsysGetVersionStr (versionNum for
 * versionStr); ACL_ERROR_INTERNAL_ERROR (500000) the version does not have
 * that form or its number does not fit in int32_t.  *versionNum is
 * untouched on failure.
 */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum);

/*
 * aclsysGetCANNVersion - the version of package name, read as
 * aclsysGetVersionStr reads it, from the package the CANN runtime maps the
 * name to: CANN and RUNTIME "runtime", COMPILER "bisheng-compiler", HCCL
 * "hccl", TOOLKIT "oam-tools", OPP and OPP_KERNEL "ops-legacy", DRIVER
 * "driver" ('-' tried as '_' too).  A pre-release suffix becomes one more
 * part ("8.5.0-beta.1" is "8.5.0.beta1"); version->version gets that
 * string, major/minor/release/patchVersion its first four '.' parts
 * ("0" for those missing), reserved zeros.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) version NULL or name not one of the
 * enum; ACL_ERROR_INVALID_FILE (100003) no version file or "Version="
 * line (as aclsysGetVersionStr), or a version of fewer than two parts or
 * with an empty one.  *version is untouched on failure.  Deprecated: use
 * aclsysGetVersionStr and aclsysGetVersionNum.
 */
ACL_DEPRECATED_MESSAGE("aclsysGetCANNVersion is deprecated, use aclsysGetVersionStr and aclsysGetVersionNum instead")
ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_RT_H */
