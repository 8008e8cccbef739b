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
 *                    errors and system (the part declared here), and of
 *                    graph mode (aclmdlRI) capture, replay, destroy,
 *                    inspection, built models, condition tasks and
 *                    labels.
 *   NOT YET DEFINED  calls of groups whose every call must be defined, which
 *                    wait for support in the npu_sim driver; declared so that
 *                    code written for a real NPU compiles, not defined, so
 *                    linking a program that calls one fails (an honest "not
 *                    there" instead of a fake success):
 *                    none.
 *   DECLARED ONLY    calls outside those groups (e.g. kernel launch), declared
 *                    so that code compiles and not defined:
 *                    none.
 *
 *   ABSENT           calls of the device chapter that need device compute,
 *                    neither declared nor defined (issue 24), and why:
 *                    aclrtSetOpExecuteTimeOut, aclrtSetOpExecuteTimeOutV2,
 *                    aclrtSetOpExecuteTimeOutWithMs, aclrtGetOpExecuteTimeout,
 *                    aclrtGetOpTimeOutInterval, aclrtSetOpWaitTimeout: they
 *                    time AI Core / AI CPU operators, which npu_sim does not
 *                    run; their figures (kernel credit scale, timeout
 *                    interval) are hardware clocks npu_sim does not have.
 *                    aclrtSetDeviceSatMode, aclrtGetDeviceSatMode: the
 *                    float overflow mode of the compute units.
 *                    aclrtSetGroup,
 *                    aclrtGetGroupCount, aclrtCreateGroupInfo,
 *                    aclrtDestroyGroupInfo, aclrtGetAllGroupInfo,
 *                    aclrtGetGroupInfoDetail: AI Core groups, which the
 *                    runtime reads from the device's compute partitioning.
 *                    aclrtRandomNumAsync: the random numbers are made by
 *                    the DSA engine of the chip's task scheduler, a
 *                    compute unit the emulated device does not have.
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

/* aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag flags */
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/* aclrtRecordEventWithFlag / aclrtStreamWaitEventWithFlag flags */
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

#define ACL_IPC_EVENT_HANDLE_SIZE 64U

typedef enum aclrtEventStatus {
	ACL_EVENT_STATUS_COMPLETE = 0,
	ACL_EVENT_STATUS_NOT_READY = 1,
	ACL_EVENT_STATUS_RESERVED = 2,
} aclrtEventStatus;

typedef enum aclrtEventRecordedStatus {
	ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
	ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

typedef enum aclrtEventWaitStatus {
	ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
	ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
	ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

/* An IPC event's handle for another process (aclrtIpcGetEventHandle). */
typedef struct aclrtIpcEventHandle {
	char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

typedef enum aclrtStreamStatus {
	ACL_STREAM_STATUS_COMPLETE = 0,
	ACL_STREAM_STATUS_NOT_READY = 1,
	ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

typedef enum aclrtCallbackBlockType {
	ACL_CALLBACK_NO_BLOCK = 0,
	ACL_CALLBACK_BLOCK = 1,
} aclrtCallbackBlockType;

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
/* aclrtIpcMemSetAttr values of ACL_RT_IPC_MEM_ATTR_ACCESS_LINK. */
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3
/* aclrtMemMapSelectedLink linkIdx: 0 SIO, 1 HCCS. */
#define ACL_RT_MEM_LINK_IDX_0 0U
#define ACL_RT_MEM_LINK_IDX_1 1U
/* Memory UCE records (aclrtGetMemUceInfo, aclrtMemUceRepair). */
#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE 14
#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20
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
/* aclrtCreateNotify flags */
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U
/* aclrtNotifyGetExportKey / aclrtNotifyImportByKey flags */
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL

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

/* The one attribute aclrtIpcMemSetAttr sets. */
typedef enum {
	ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
} aclrtIpcMemAttrType;

/* The hardware units aclrtHostMemMapCapabilities is asked about. */
typedef enum {
	ACL_RT_HAC_TYPE_STARS = 0,
	ACL_RT_HAC_TYPE_AICPU,
	ACL_RT_HAC_TYPE_AIC,
	ACL_RT_HAC_TYPE_AIV,
	ACL_RT_HAC_TYPE_PCIEDMA,
	ACL_RT_HAC_TYPE_RDMA,
	ACL_RT_HAC_TYPE_SDMA,
	ACL_RT_HAC_TYPE_DVPP,
	ACL_RT_HAC_TYPE_UDMA,
	ACL_RT_HAC_TYPE_CCU
} aclrtHacType;

typedef enum {
	ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0,
	ACL_RT_HOST_MEM_MAP_SUPPORTED
} aclrtHostMemMapCapability;

/* The link a VMM mapping is advised to use (aclrtMemMapSetLink). */
typedef enum {
	ACL_RT_MEM_ACCESS_LINK_SIO = 0,
	ACL_RT_MEM_ACCESS_LINK_HCCS = 1,
	ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH = 2,
	ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH = 3,
} aclrtMemLinkType;

/* One range of device memory with an uncorrectable error (UCE). */
typedef struct aclrtMemUceInfo {
	void *addr;
	size_t len;
	size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

/* The kind of a device fault (aclrtGetErrorVerbose, aclrtRepairError). */
typedef enum {
	ACL_RT_NO_ERROR = 0,
	ACL_RT_ERROR_MEMORY = 1,
	ACL_RT_ERROR_L2 = 2,
	ACL_RT_ERROR_AICORE = 3,
	ACL_RT_ERROR_LINK = 4,
	ACL_RT_ERROR_L3_PORT = 5,
	ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
	ACL_RT_AICORE_ERROR_UNKNOWN,
	ACL_RT_AICORE_ERROR_SW,
	ACL_RT_AICORE_ERROR_HW_LOCAL,
} aclrtAicoreErrorType;

typedef struct {
	size_t arraySize;
	aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
	aclrtMemUceInfoArray uceInfo;
	aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

typedef struct aclrtErrorInfo {
	uint8_t tryRepair;
	uint8_t hasDetail;
	uint8_t reserved[2];
	aclrtErrorType errorType;
	aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

/* Counting notifies: how aclrtCntNotifyRecord changes the count. */
typedef enum {
	ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE = 0,
	ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE = 1,
	ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE = 2,

	ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE = 4,
} aclrtCntNotifyRecordMode;

typedef struct {
	aclrtCntNotifyRecordMode mode;
	uint32_t value;
} aclrtCntNotifyRecordInfo;

/* When aclrtCntNotifyWaitWithTimeout's wait is met (count against value). */
typedef enum {
	ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE = 0,
	ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE = 1,
	ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE = 2,
	ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE = 3,
	ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE = 4,
} aclrtCntNotifyWaitMode;

typedef struct {
	aclrtCntNotifyWaitMode mode;
	uint32_t value;
	uint32_t timeout;
	uint8_t isClear;
	uint8_t rsv[3];
} aclrtCntNotifyWaitInfo;

typedef struct aclrtUuid {
	char bytes[16];
} aclrtUuid;

/* The SDMA reduce of aclrtReduceAsync: dst = dst <kind> src. */
typedef enum {
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

/* Cache maintenance operations (aclrtCmoAsync and relatives). */
typedef enum aclrtCmoType {
	ACL_RT_CMO_TYPE_PREFETCH = 0,
	ACL_RT_CMO_TYPE_WRITEBACK,
	ACL_RT_CMO_TYPE_INVALID,
	ACL_RT_CMO_TYPE_FLUSH,
} aclrtCmoType;

typedef struct {
	aclrtCmoType cmoType;
	uint32_t barrierId;
} aclrtBarrierCmoInfo;

#define ACL_RT_CMO_MAX_BARRIER_NUM 6U

typedef struct {
	size_t barrierNum;
	aclrtBarrierCmoInfo cmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM];
} aclrtBarrierTaskInfo;

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
ACL_SIM_STATIC_ASSERT(sizeof(aclrtCntNotifyRecordInfo) == 8, "aclrtCntNotifyRecordInfo size");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtCntNotifyWaitInfo) == 16, "aclrtCntNotifyWaitInfo size");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtCntNotifyWaitInfo, isClear) == 12, "aclrtCntNotifyWaitInfo.isClear");
ACL_SIM_STATIC_ASSERT(offsetof(aclrtMemUsageInfo, curMemSize) == 32, "aclrtMemUsageInfo.curMemSize");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMemFabricHandle) == 128, "aclrtMemFabricHandle size");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtMemcpyBatchAttr) == 32, "aclrtMemcpyBatchAttr size");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtDrvMemHandle) == 8, "aclrtDrvMemHandle size");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtBarrierCmoInfo) == 8, "aclrtBarrierCmoInfo size");
ACL_SIM_STATIC_ASSERT(sizeof(aclrtBarrierTaskInfo) == 56, "aclrtBarrierTaskInfo size");
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
 * Device information and settings (lib/api/device_info.c,
 * lib/api/device_limits.c).  Compute figures (core counts, L2 size, NPU
 * architecture) are the platform specification of the SoC the driver
 * poses as (aclrtGetSocName); memory figures come from the driver.  A
 * device need not be set to be asked about.  npu_sim runs no operator:
 * settings that only operators use are kept and answered, and change
 * nothing the device does.
 * ====================================================================== */

/* for aclrtGetDeviceCapability */
#define ACL_DEV_FEATURE_SUPPORT 0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000

/* aclrtGetDeviceInfo ACL_DEV_ATTR_HD_CONNECT_TYPE values */
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

/* aclrtGetDeviceInfo ACL_DEV_ATTR_DEVICE_FORM_FACTOR values */
#define ACL_DEVICE_FORM_FACTOR_POD 0
#define ACL_DEVICE_FORM_FACTOR_A_K 1
#define ACL_DEVICE_FORM_FACTOR_A_X 2
#define ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3

/* aclrtGetDevicesTopo bits */
#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL

typedef enum {
	ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
	ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
	ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
	ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
	ACL_DEV_ATTR_WARP_SIZE = 202,
	ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
	ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE ACL_DEPRECATED_MESSAGE(
		"Use ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE instead") = 204,
	ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
	ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
	ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
	ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
	ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
	ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
	ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
	ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
	ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
	ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
	ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
	ACL_DEV_ATTR_SMP_ID = 401U,
	ACL_DEV_ATTR_PHY_CHIP_ID = 402U,
	ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403U,
	ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403U,
	ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404U,
	ACL_DEV_ATTR_SUPER_POD_ID = 405U,
	ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406U,
	ACL_DEV_ATTR_MAINBOARD_ID = 407U,
	ACL_DEV_ATTR_HD_CONNECT_TYPE = 408U,
	ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409U,
	ACL_DEV_ATTR_IS_VIRTUAL = 501U,
	ACL_DEV_ATTR_NPU_ARCH = 601U,
} aclrtDevAttr;

typedef enum {
	ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
	ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;

typedef enum aclrtDeviceStatus {
	ACL_RT_DEVICE_STATUS_NORMAL = 0,
	ACL_RT_DEVICE_STATUS_ABNORMAL,
	ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;

typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;

typedef struct aclrtUtilizationInfo {
	int32_t cubeUtilization;
	int32_t vectorUtilization;
	int32_t aicpuUtilization;
	int32_t memoryUtilization;
	aclrtUtilizationExtendInfo *utilizationExtend;	/* reserved: NULL */
} aclrtUtilizationInfo;

typedef enum {
	ACL_RT_DEV_RES_CUBE_CORE = 0,
	ACL_RT_DEV_RES_VECTOR_CORE,
} aclrtDevResLimitType;

typedef enum aclrtDeviceLimit {
	ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,
	ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,
	ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,
	ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3,
	ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,
} aclrtDeviceLimit;

typedef enum aclrtAtomicOperation {
	ACL_RT_ATOMIC_OPERATION_INTEGER_ADD = 0,
	ACL_RT_ATOMIC_OPERATION_INTEGER_MIN = 1,
	ACL_RT_ATOMIC_OPERATION_INTEGER_MAX = 2,
	ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
	ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
	ACL_RT_ATOMIC_OPERATION_AND = 5,
	ACL_RT_ATOMIC_OPERATION_OR = 6,
	ACL_RT_ATOMIC_OPERATION_XOR = 7,
	ACL_RT_ATOMIC_OPERATION_EXCHANGE = 8,
	ACL_RT_ATOMIC_OPERATION_CAS = 9,
	ACL_RT_ATOMIC_OPERATION_FLOAT_ADD = 10,
	ACL_RT_ATOMIC_OPERATION_FLOAT_MIN = 11,
	ACL_RT_ATOMIC_OPERATION_FLOAT_MAX = 12,
	ACL_RT_ATOMIC_OPERATION_DMA_ADD = 30,
	ACL_RT_ATOMIC_OPERATION_DMA_MIN = 31,
	ACL_RT_ATOMIC_OPERATION_DMA_MAX = 32,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD = 40,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN = 41,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX = 42,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS = 43,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH = 44,
} aclrtAtomicOperation;

typedef enum aclrtAtomicOperationCapability {
	ACL_RT_ATOMIC_CAPABILITY_SIGNED = 1U << 0,
	ACL_RT_ATOMIC_CAPABILITY_UNSIGNED = 1U << 1,
	ACL_RT_ATOMIC_CAPABILITY_REDUCATION = 1U << 2,
	ACL_RT_ATOMIC_CAPABILITY_REDUCTION = 1U << 2,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR8 = 1U << 3,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR16 = 1U << 4,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR32 = 1U << 5,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR64 = 1U << 6,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR128 = 1U << 7,
	ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 = 1U << 8,
} aclrtAtomicOperationCapability;

typedef enum aclrtTsId {
	ACL_TS_ID_AICORE = 0,
	ACL_TS_ID_AIVECTOR = 1,
	ACL_TS_ID_RESERVED = 2,
} aclrtTsId;

/*
 * aclrtGetDeviceInfo - attribute attr of device deviceId (0..count-1, need
 * not be set) into *value: AICORE/CUBE/VECTOR_CORE_NUM, L2_CACHE_SIZE
 * (bytes) and NPU_ARCH from the posed SoC's platform specification;
 * TOTAL_GLOBAL_MEM_SIZE the device's capacity in bytes (from the driver);
 * SMP_ID 0, PHY_CHIP_ID deviceId, CUST_OP_PRIVILEGE 0, IS_VIRTUAL 0.
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) value NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) deviceId not a device, attr not an
 * aclrtDevAttr; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) AICPU_CORE_NUM,
 * the SIMT attributes (202..212), SUPER_POD_*, MAINBOARD_ID,
 * HD_CONNECT_TYPE, DEVICE_FORM_FACTOR: npu_sim has no such unit or board.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value);

/*
 * aclrtGetDeviceCapability - whether device deviceId supports feature
 * devFeatureType: *value ACL_DEV_FEATURE_NOT_SUPPORT for both features
 * (no task scheduler CPU, no message queues).  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) value NULL; ACL_ERROR_RT_PARAM_INVALID
 * (107000) devFeatureType not a feature; ACL_ERROR_RT_INVALID_DEVICEID
 * (107001) deviceId not a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
						      int32_t *value);

/*
 * aclrtCheckArchCompatibility - *canCompatible 1 when operators built for
 * SoC version socVersion run on this machine's SoC (same NPU
 * architecture), else 0.  Returns ACL_SUCCESS; ACL_ERROR_RT_PARAM_INVALID
 * (107000) socVersion or canCompatible NULL, socVersion empty or not a
 * known SoC version, no device to learn this machine's SoC from.
 */
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible);

/*
 * aclrtQueryDeviceStatus - ACL_RT_DEVICE_STATUS_NORMAL when device
 * deviceId answers the driver, else ABNORMAL.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) deviceStatus NULL;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) deviceId not a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus);

/*
 * aclrtGetDeviceUtilizationRate - percentages of device deviceId when it
 * is the calling thread's current device: cube, vector and AI CPU 0 (no
 * compute unit runs), memory the share of the device's capacity in use by
 * all processes (MEM_INFO); every field -1 otherwise, as the runtime
 * answers a device without the caller's context.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) utilizationInfo NULL or its
 * utilizationExtend not NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId,
							   aclrtUtilizationInfo *utilizationInfo);

/*
 * aclrtSetDeviceResLimit - limit the cube (type 0) or vector (type 1)
 * cores this process uses on device deviceId (set in this process) to
 * value, at most the SoC's count.  Kept with the device's opening: a new
 * aclrtSetDevice after the last reset starts from the counts.
 * aclrtGetDeviceResLimit reads the limit, aclrtResetDeviceResLimit puts
 * both back to the counts.  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM
 * (100000) value NULL (Get); ACL_ERROR_RT_PARAM_INVALID (107000) type not
 * 0 or 1, value above the count (Set); ACL_ERROR_RT_INVALID_DEVICEID
 * (107001) deviceId not a device; ACL_ERROR_RT_DEV_SETUP_ERROR (507033)
 * device not set in this process.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value);
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);

/*
 * aclrtDeviceGetUuid - the 16-byte UUID of device deviceId: the same for
 * the same device until the host reboots (derived from the host's boot id
 * and the device index).  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM
 * (100000) uuid NULL; ACL_ERROR_RT_INVALID_DEVICEID (107001) deviceId not
 * a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid);

/*
 * aclrtDeviceGetPCIBusId - the PCI address ("domain:bus:device.function")
 * of device deviceId into pciBusId (len bytes, NUL included);
 * aclrtDeviceGetByPCIBusId - the device of a PCI address.  npu_sim devices
 * are PCI devices only when their node has a PCI parent in sysfs.
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) a pointer NULL;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) deviceId not a device;
 * ACL_ERROR_RT_PARAM_INVALID (107000) len too small, no device at that
 * address; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) the device(s) not on
 * PCI.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId);

/*
 * Device id mappings.  npu_sim has no ASCEND_RT_VISIBLE_DEVICES remapping
 * and no virtual devices: user, logic and physical ids of a device are
 * equal; each call checks the id names a device.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) the out-pointer NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) id negative;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) id not below the device count.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId);

/*
 * aclrtGetDevicesTopo - how two devices are linked: ACL_RT_DEVS_TOPOLOGY_SYS
 * for two devices (the driver copies through host memory),
 * ACL_RT_DEVS_TOPOLOGY_HCCS for a device with itself.  Returns
 * ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) value NULL;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) an id not a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value);

/*
 * aclrtDeviceSetLimit / aclrtDeviceGetLimit - process-wide operator
 * limits: SIMD_STACK_SIZE (bytes, default 32768; a larger value is
 * rounded up to 16 KiB, a smaller one ignored) and
 * SIMD_PRINTF_FIFO_SIZE_PER_CORE (bytes, default 32768, [1024, 64 MiB],
 * rounded up to 8).  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000)
 * limit not 0..4, value above UINT32_MAX (Set) or NULL (Get);
 * ACL_ERROR_RT_PARAM_INVALID (107000) FIFO size out of range;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) the SIMT limits (0, 1, 4).
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value);

/*
 * aclrtSetSysParamOpt / aclrtGetSysParamOpt - a system parameter of the
 * process (0 until set); aclrtCtxSetSysParamOpt / aclrtCtxGetSysParamOpt -
 * of the calling thread's current context (unset until set there).  value:
 * [0, 4) for ACL_OPT_DETERMINISTIC, else [0, 2).  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) value NULL (Get), opt not 0..3 (0..2 for
 * the Ctx calls); ACL_ERROR_RT_PARAM_INVALID (107000) value out of range;
 * ACL_ERROR_RT_CONTEXT_NULL (107002) no current context (Ctx calls);
 * ACL_ERROR_RT_SYSPARAMOPT_NOT_SET (107021) option not set in the context.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value);
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);
ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value);

/*
 * aclrtGetPrimaryCtxState - *active 1 when this process holds the primary
 * (default) context of device deviceId (aclrtSetDevice not yet undone),
 * else 0.  flags is reserved: must be NULL.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) active NULL, flags not NULL;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) deviceId not a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active);

/*
 * aclrtDeviceGetHostAtomicCapabilities / aclrtDeviceGetP2PAtomicCapabilities
 * - for each of the count operations, the capabilities
 * (aclrtAtomicOperationCapability bits) of atomics between the device and
 * the host, or between two devices: 0 for all, as the runtime answers for
 * links other than UB (host) or HCCS/SIO/UB (devices).  Returns
 * ACL_SUCCESS; ACL_ERROR_RT_PARAM_INVALID (107000) capabilities or
 * operations NULL, count 0, an operation outside 0..44;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) a device id not a device, or
 * srcDeviceId equal to dstDeviceId.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t *capabilities,
								  const aclrtAtomicOperation *operations,
								  const uint32_t count, int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t *capabilities,
								 const aclrtAtomicOperation *operations,
								 const uint32_t count, int32_t srcDeviceId,
								 int32_t dstDeviceId);

/*
 * aclrtSetTsDevice - choose the task scheduler of later tasks.  Every
 * posed SoC has one, so a valid id changes nothing.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) tsId not AICORE or AIVECTOR.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId);

/* ========================================================================
 * Host buffers (lib/api/host_buf.c).  An aclrtMbuf is host memory of this
 * process: a data area of the size asked for, a data length (0 at first,
 * at most the size) and a 96-byte user data area.  aclrtCopyBufRef makes a
 * second handle on the same data area (with a copy of the data length and
 * user data); the area is freed with its last handle.  A buffer heads a
 * chain of the buffers appended to it (the head counts as buffer 0); a
 * buffer is in at most one chain, and freeing a head dissolves its chain.
 * Common returns: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) a handle or
 * pointer NULL; ACL_ERROR_RT_PARAM_INVALID (107000) a handle that is not a
 * live buffer (freed, made up).
 * ====================================================================== */

/* aclrtAllocBuf - a new buffer of size bytes into *buf.  Also
 * 100000 size 0; ACL_ERROR_RT_MEMORY_ALLOCATION (207001) no host memory. */
ACL_FUNC_VISIBILITY aclError aclrtAllocBuf(aclrtMbuf *buf, size_t size);

/* aclrtFreeBuf - free the handle buf (and the data area with its last
 * handle); it leaves its chain. */
ACL_FUNC_VISIBILITY aclError aclrtFreeBuf(aclrtMbuf buf);

/* aclrtGetBufData - the data area's address and size in bytes. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufData(const aclrtMbuf buf, void **dataPtr, size_t *size);

/* aclrtGetBufDataLen / aclrtSetBufDataLen - the bytes of the data area in
 * use.  Set also: 107000 len above the size. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t *len);
ACL_FUNC_VISIBILITY aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len);

/* aclrtGetBufUserData / aclrtSetBufUserData - copy size bytes at offset of
 * the user data area out to / in from dataPtr.  Also 100000 when size +
 * offset is above 96 (checked first). */
ACL_FUNC_VISIBILITY aclError aclrtGetBufUserData(const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset);
ACL_FUNC_VISIBILITY aclError aclrtSetBufUserData(aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset);

/* aclrtCopyBufRef - a new handle *newBuf on buf's data area.  Also
 * 207001 no host memory. */
ACL_FUNC_VISIBILITY aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf *newBuf);

/* aclrtAppendBufChain - append buf to the chain headed by headBuf.  Also
 * 107000 headBuf in another buffer's chain, buf is headBuf or in a chain. */
ACL_FUNC_VISIBILITY aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf);

/* aclrtGetBufChainNum - the buffers of the chain headed by headBuf, the
 * head included.  Also 107000 headBuf in another buffer's chain. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t *num);

/* aclrtGetBufFromChain - buffer index (0: the head) of headBuf's chain.
 * Also 107000 index past the chain, headBuf in another buffer's chain. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf *buf);

/* ========================================================================
 * Callbacks of initialization, device state and task failure
 * (lib/api/callbacks_init.c, lib/api/device_state.c,
 * lib/api/exception_info.c, lib/api/exception_info_get.c).
 * ====================================================================== */

typedef enum aclRegisterCallbackType {
	ACL_REG_TYPE_ACL_MODEL,
	ACL_REG_TYPE_ACL_OP_EXECUTOR,
	ACL_REG_TYPE_ACL_OP_CBLAS,
	ACL_REG_TYPE_ACL_OP_COMPILER,
	ACL_REG_TYPE_ACL_TDT_CHANNEL,
	ACL_REG_TYPE_ACL_TDT_QUEUE,
	ACL_REG_TYPE_ACL_DVPP,
	ACL_REG_TYPE_ACL_RETR,
	ACL_REG_TYPE_OTHER = 0xFFFF,
} aclRegisterCallbackType;

/* configStr: the config file's content (len bytes, NUL-terminated; "" and
 * 0 without a file). */
typedef aclError (*aclInitCallbackFunc)(const char *configStr, size_t len, void *userData);
typedef aclError (*aclFinalizeCallbackFunc)(void *userData);

/*
 * aclInitCallbackRegister / aclFinalizeCallbackRegister - call cbFunc with
 * userData at aclInit / aclFinalize.  One callback per type, except
 * ACL_REG_TYPE_OTHER (any number, in registration order).  aclInit calls
 * the init callbacks of ACL_MODEL, then OP_EXECUTOR (only with a config
 * file), DVPP, OTHER; aclFinalize the finalize callbacks of OP_COMPILER,
 * MODEL, DVPP, OTHER.  The first callback that fails stops the sequence and
 * its code is aclInit's (not initialized) or aclFinalize's (still
 * initialized).  An init callback registered after aclInit is called at
 * once (its result ignored).  Callbacks run under aclInit's lock: they may
 * register and unregister callbacks but not call aclInit / aclFinalize.
 * aclInitCallbackUnRegister / aclFinalizeCallbackUnRegister remove cbFunc
 * from type.  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) cbFunc
 * NULL; ACL_ERROR_INTERNAL_ERROR (500000) type (not OTHER) has a callback
 * already (Register), cbFunc not registered for type (UnRegister).
 */
ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
						     void *userData);
ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type,
							 aclFinalizeCallbackFunc cbFunc, void *userData);
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
							   aclFinalizeCallbackFunc cbFunc);

typedef enum {
	ACL_RT_DEVICE_STATE_SET_PRE = 0,
	ACL_RT_DEVICE_STATE_SET_POST,
	ACL_RT_DEVICE_STATE_RESET_PRE,
	ACL_RT_DEVICE_STATE_RESET_POST,
} aclrtDeviceState;

typedef void (*aclrtDeviceStateCallback)(int32_t deviceId, aclrtDeviceState state, void *args);

/*
 * aclrtRegDeviceStateCallback - call callback(deviceId, state, args) in the
 * calling thread: SET_PRE before aclrtSetDevice opens a device of this
 * process, SET_POST after every successful aclrtSetDevice, RESET_PRE before
 * aclrtResetDevice drops a device's last reference, RESET_POST after.  A
 * NULL callback removes regName's (no error when there is none).
 * Callbacks run with no library lock held.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) regName NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) regName registered already.
 */
ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback,
							 void *args);

/* What a failed asynchronous task reports (opaque: read it with the
 * getters below). */
typedef struct rtExceptionInfo aclrtExceptionInfo;

typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);

/*
 * Exception callbacks, called once per failed task, in the thread whose
 * aclrtSynchronizeStream(WithTimeout) / aclrtSynchronizeDevice(WithTimeout)
 * reports the failure (ACL_ERROR_RT_COPY_DATA 507052 or
 * ACL_ERROR_RT_DRV_INTERNAL_ERROR 507899 of a queued task), before that
 * call returns, with no library lock held.
 * aclrtSetExceptionInfoCallback - the one callback of the ACL module (a new
 * one replaces it; NULL removes it): always ACL_SUCCESS.
 * aclrtExceptionInfoCallbackRegister / Unregister - add / remove callback
 * (registered twice: still called once; removing one not registered is no
 * error).  Returns ACL_SUCCESS; ACL_ERROR_RT_PARAM_INVALID (107000)
 * callback NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);

/*
 * The fields of an aclrtExceptionInfo: the failing task's device, its
 * stream's id (0xFFFFFFFF when a device-wide synchronize reported it), the
 * id (gettid) of the thread that synchronized, and its error code.  Each
 * returns 0xFFFFFFFF for a NULL info.
 */
ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info);

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
 * event and memory of one call are on different devices, or a call that
 * queues work on a stream or changes it (records, waits, resets, copies,
 * sets, values, reduces, CMOs, callbacks, host functions, failure mode,
 * overflow / tag attributes, abort, stop, destroy) is given a stream that
 * is not of the calling thread's current context (another context of its
 * device, or another device; synchronize and query take any stream).
 * ACL_ERROR_RT_STREAM_ABORT (107023): a synchronize of a stream (device:
 * of any of its streams) that was waiting when aclrtStreamAbort dropped the
 * work.  The first error
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
 * stream; 207000 ACL_STREAM_HUGE on a product without huge streams
 * (Atlas inference, 310P); 107000 ACL_STREAM_DEVICE_USE_ONLY (0x20). */
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
/* aclrtCreateEventWithFlag - create an event with flag: an OR of
 * ACL_EVENT_SYNC, _CAPTURE_STREAM_PROGRESS, 0x4 and _TIME_LINE (at least
 * one), or ACL_EVENT_DEVICE_USE_ONLY or ACL_EVENT_EXTERNAL alone.  A
 * DEVICE_USE_ONLY event cannot be recorded, waited for or reset from the
 * host (107000); an EXTERNAL one cannot be synchronized or queried and has
 * no timestamp (207000).  Errors: 100000 NULL event;
 * ACL_ERROR_RT_PARAM_INVALID (107000) any other flag (ACL_EVENT_IPC
 * included); 107002 no current device; 207007 65536 events. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);
/* aclrtCreateEventExWithFlag - as aclrtCreateEventWithFlag for an event
 * of the new mode: an OR of ACL_EVENT_SYNC, _CAPTURE_STREAM_PROGRESS, 0x4
 * and _TIME_LINE, or ACL_EVENT_IPC alone (an event other processes may
 * open, aclrtIpcGetEventHandle).  aclrtQueryEvent and
 * aclrtQueryEventWaitStatus do not serve these events (207000).  Errors:
 * 100000 NULL event; 107000 any other flag (DEVICE_USE_ONLY and EXTERNAL
 * included); 107002; 207007. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag);
/* aclrtDestroyEvent - destroy an event (queued records/waits of it still
 * complete).  Errors: 100000 NULL; 107017 not a live event. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
/* aclrtRecordEvent - queue a record of event on stream: it completes when
 * the stream reaches it, with a timestamp.  The event handle is checked
 * before the stream's. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
/* aclrtRecordEventWithFlag - aclrtRecordEvent with flag
 * ACL_EVENT_RECORD_DEFAULT (the same call) or ACL_EVENT_RECORD_EXTERNAL
 * (outside a captured graph, a record like any other).  Every record of an
 * event must use the flag of its first.  Errors: 100000 NULL event or
 * another flag; 107017 dead event or stream; 107000 a DEVICE_USE_ONLY
 * event, or a flag other than the event's first record's; 207000
 * RECORD_EXTERNAL for an event not made by aclrtCreateEventExWithFlag with
 * exactly ACL_EVENT_SYNC. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);
/* aclrtResetEvent - queue on stream (NULL: the default stream) a reset of
 * event: when the stream reaches it the event reads as not recorded
 * (aclrtQueryEventStatus NOT_READY), and a wait queued after the reset
 * waits for the next record.  Errors: 100000 NULL event; 107017 dead event
 * or stream; 107000 a DEVICE_USE_ONLY event; 207000 an IPC event; 107003
 * event and stream of different devices. */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);
/* aclrtQueryEvent - ACL_EVENT_STATUS_NOT_READY while a record of the event
 * is queued and not reached, else ACL_EVENT_STATUS_COMPLETE (also when
 * never recorded); never waits.  Errors: 100000 NULL; 107017; 207000 an
 * event of aclrtCreateEventExWithFlag, an EXTERNAL or an IPC event. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status);
/* aclrtQueryEventWaitStatus - ACL_EVENT_WAIT_STATUS_NOT_READY while a
 * wait for the event (aclrtStreamWaitEvent...) is queued in this process
 * and not done, else _COMPLETE.  Errors as aclrtQueryEvent. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status);
/* aclrtSynchronizeEvent - wait until the event's last record is reached
 * (at once if it was never recorded).  Errors: 100000 NULL event; 107017;
 * 207000 an EXTERNAL event; ACL_ERROR_RT_STREAM_ABORT (107023) an
 * aclrtStreamAbort of its stream dropped the record while this call waited
 * for it (a call made after the abort succeeds). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
/* aclrtSynchronizeEventWithTimeout - as aclrtSynchronizeEvent, waiting at
 * most timeout ms (-1: forever).  Errors: 107000 timeout < -1 (before any
 * other check) or 0 (after the handle guard); 100000 NULL event; 107017;
 * 207000 an EXTERNAL event; 107023 as aclrtSynchronizeEvent;
 * ACL_ERROR_RT_EVENT_SYNC_TIMEOUT (507047) the record not reached at the
 * end. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
/* aclrtStreamWaitEvent - work queued on stream after this call waits until
 * the event's last record (so far) is reached.  Errors: 100000 NULL event;
 * then the stream handle is checked before the event's (107017). */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
/* aclrtStreamWaitEventWithFlag - aclrtStreamWaitEvent with flag
 * ACL_EVENT_WAIT_DEFAULT or _EXTERNAL (then timeout must be 0) and timeout
 * in ms (0: none): a wait not met timeout ms after the stream reached it
 * fails, and the stream's next synchronize returns
 * ACL_ERROR_RT_WAIT_TIMEOUT (107019).  Every wait of an event must use the
 * flag of its first.  Errors: 100000 NULL event, another flag, or
 * WAIT_EXTERNAL with timeout != 0; 107017 dead stream (checked first) or
 * event; 107000 a DEVICE_USE_ONLY event, or a flag other than the event's
 * first wait's, or timeout above INT32_MAX (npu_sim's limit); 207000
 * WAIT_EXTERNAL for an event not made by
 * aclrtCreateEventExWithFlag with exactly ACL_EVENT_SYNC; 107003. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
							  uint32_t flag);
/* aclrtStreamWaitEventWithTimeout - aclrtStreamWaitEvent with timeout in
 * ms (0: none) as aclrtStreamWaitEventWithFlag.  Errors: 107000 timeout <
 * 0 (before any other check), or a NULL event (the runtime's check);
 * otherwise as aclrtStreamWaitEvent. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout);
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
 * aclrtSetStreamFailureMode - what follows a failed task.
 * ACL_CONTINUE_ON_FAILURE (the default): the next tasks run.
 * ACL_STOP_ON_FAILURE: as in the runtime (Stream::SetFailMode), the mode
 * is the context's: once any stream of a context is set to STOP, a failed
 * task on any stream of that context (whatever its own mode) stops every
 * stream of the context: tasks still queued complete without running,
 * and the context keeps the failed task's code until it is destroyed or
 * the device is reset (Context::CheckTaskSend, CheckStatus): every later
 * task submitted to any of its streams (a stream made later and the
 * default stream too) is refused with that code, queueing nothing, and
 * every aclrtSynchronizeStream(WithTimeout), aclrtStreamQuery,
 * aclrtSynchronizeDevice(WithTimeout) of the context, aclrtSynchronizeEvent
 * (WithTimeout), aclrtQueryEvent and aclrtQueryEventStatus of its events
 * and aclrtQueryEventWaitStatus in it answer it, every time.  Synchronous
 * copies and sets, frees and aclrtEventElapsedTime are not refused.
 * aclrtStreamAbort clears a stream's own error only.  Streams of other
 * contexts run on; a task already running on another stream finishes.
 * The context stays in STOP mode (aclrtGetStreamAttribute still reads each
 * stream's own mode).  Only bit 0 of mode counts (as in the runtime).  Errors:
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) from STOP back to CONTINUE (the
 * same mode again is no change); then 107003 a stream of another context.
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
 * overflow, tag and cache switches are recorded only.  On the Atlas 200I/500
 * A2, inference and training products (chips without those features in
 * the runtime) a set of the overflow switch or of the tag, and a get of the
 * tag, succeed doing nothing (no value check; the value is left as it is).
 * Errors: 100000 NULL
 * value; 107000 unknown attribute, overflowSwitch > 1, cacheOpInfoSwitch
 * > 1; 207000 as aclrtSetStreamFailureMode; 107003 (after the value's
 * check) set or get of the overflow switch or the tag of a stream of
 * another context.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
						     aclrtStreamAttrValue *value);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
						     aclrtStreamAttrValue *value);
/* aclrtStreamAbort - drop every task queued on stream (they never run),
 * stop the running one at its next piece and wait for it; the stream's
 * pending error and a stop (aclrtStreamStop, STOP mode) go with them: the
 * stream stays usable.  A synchronize of the stream (or of the device)
 * waiting meanwhile returns ACL_ERROR_RT_STREAM_ABORT (107023); a later one
 * succeeds.  Errors: 107003 a stream of another context. */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);
/* aclrtStreamStop - stop the task running on stream at its next piece and
 * hold the stream: queued tasks stay queued and run nothing until
 * aclrtStreamAbort drops them (a synchronize waits until then; a destroy
 * drops them).  Errors: 107000 NULL stream (not for the default stream);
 * 107002 no current device; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) on a
 * product without a STARS task scheduler (atlas-inference, atlas-training);
 * 107003 a stream of another context. */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);
typedef enum {
    ACL_RT_EQUAL = 0,
    ACL_RT_NOT_EQUAL,
    ACL_RT_GREATER,
    ACL_RT_GREATER_OR_EQUAL,
    ACL_RT_LESS,
    ACL_RT_LESS_OR_EQUAL
} aclrtCondition;

typedef enum {
    ACL_RT_SWITCH_INT32 = 0,
    ACL_RT_SWITCH_INT64 = 1,
} aclrtCompareDataType;

/* aclrtActiveStream - queue on stream (a stream bound to a model being
 * built) a task that, when a replay of the model reaches it, activates
 * activeStream (bound to the same model): its recorded tasks run after the
 * streams activated before it (a stream activated again while it waits to
 * run is activated once).  Errors: 100000 either NULL; 107017 either not a
 * live stream (activeStream checked first); ACL_ERROR_RT_STREAM_MODEL
 * (107005) stream, then activeStream, not bound to a model, the two bound
 * to different models, or the model's build has ended; 107003 stream is
 * not of the current context; 207001 no memory. */
ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream);
/* aclrtSwitchStream - queue on stream (bound to a model being built) a
 * task that, when a replay reaches it, compares the signed values of
 * dataType (INT32: 4 bytes, INT64: 8 bytes; device memory aligned to their
 * size, read when the task runs) at leftValue and rightValue with cond and,
 * when it holds, activates trueStream as aclrtActiveStream does.  Errors:
 * 100000 leftValue, rightValue, trueStream or stream NULL, falseStream not
 * NULL (reserved); 107000 cond or dataType outside its enum, a value not
 * aligned; 107017 either stream not live; 107005 and 107003 as
 * aclrtActiveStream;
 * a replay whose values are not device memory of the process fails at
 * aclmdlRIExecuteAsync with 107000. */
ACL_FUNC_VISIBILITY aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue,
					       aclrtCompareDataType dataType, aclrtStream trueStream,
					       aclrtStream falseStream, aclrtStream stream);
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
 * ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID (107006) a record not reached yet.
 * Events of two devices are not refused (the runtime has no such check;
 * npu_sim's timestamps are one clock for all devices). */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);
/* aclrtEventGetTimestamp - *timestamp: when the event's last record was
 * reached, in microseconds of CLOCK_MONOTONIC (the clock of
 * aclrtEventElapsedTime: the difference of two events' timestamps is their
 * elapsed time).  Errors: 100000 NULL timestamp or event; 107017; 207000
 * an EXTERNAL or IPC event; 507000 never recorded; 107006 the record not
 * reached yet. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp);
/* aclrtGetEventId - *eventId: the event's id on its device (> 0, unique
 * among the live events of the process on that device).  Errors: 100000
 * NULL; 107017; 207000 an IPC event. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId);
/* aclrtGetEventAvailNum - *eventCount: how many more events this process
 * may create on the current device.  Errors: 100000 NULL; 107002 no
 * current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount);

/* ========================================================================
 * Host callbacks
 *
 * A callback is queued on a stream like a copy; when the stream reaches
 * it, the function runs on the host, in the thread the stream is
 * subscribed to, inside that thread's aclrtProcessReport (or
 * aclrtProcessHostFunc) call.  threadId / hostFuncThreadId is that
 * thread's pthread_t (pthread_self(); Python: threading.get_ident()); a
 * thread serves streams of one device.  stream NULL: the current
 * context's default stream (not for the HostFunc subscriptions).
 * Unsubscribing (or destroying the stream) drops its callbacks that no
 * thread has started yet: they never run, and a stream held by a blocking
 * one goes on.
 * ====================================================================== */

typedef void (*aclrtCallback)(void *userData);
typedef void (*aclrtHostFunc)(void *args);

/*
 * aclrtSubscribeReport - callbacks of stream (aclrtLaunchCallback) run in
 * thread threadId from now on.  Errors: 107017 not a live stream; 107002
 * NULL stream and no current device; ACL_ERROR_RT_STREAM_SUBSCRIBE
 * (107011) the stream is subscribed already (to any thread), or its host
 * functions run in the runtime's thread (after aclrtLaunchHostFunc with no
 * aclrtSubscribeHostFunc); ACL_ERROR_RT_THREAD_SUBSCRIBE (107012) the
 * thread serves streams of another device, or threadId is 0;
 * ACL_ERROR_RT_INTERNAL_ERROR (507000) 128 threads process reports
 * already.
 */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);
/*
 * aclrtLaunchCallback - queue fn(userData) on stream.  ACL_CALLBACK_BLOCK:
 * later work of the stream waits until fn has returned;
 * ACL_CALLBACK_NO_BLOCK: it does not wait.  Errors, in order:
 * ACL_ERROR_INVALID_PARAM (100000) blockType is neither; 107017 as above;
 * ACL_ERROR_RT_PARAM_INVALID (107000) fn NULL; 107011 the stream's host
 * functions run in the runtime's thread (checked before the context, as
 * the runtime's error layer does); 107002 as above; 107003 a stream of
 * another context; ACL_ERROR_RT_STREAM_NO_CB_REG (107015) no thread is
 * subscribed (aclrtSubscribeReport); 507002 queue full.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
						 aclrtStream stream);
/*
 * aclrtProcessReport - wait up to timeout ms (-1: without limit) for the
 * next callback of the streams subscribed to the calling thread and run
 * it; one callback per call.  No library lock is held while waiting or
 * running it.  Errors: 100000 timeout 0 or < -1; 107012 no stream is
 * subscribed to the calling thread; ACL_ERROR_RT_REPORT_TIMEOUT (507012)
 * none came in time.
 */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);
/*
 * aclrtUnSubscribeReport - undo aclrtSubscribeReport(threadId, stream).
 * Errors: 107017, 107002 as above; 107011 the stream has no report
 * thread; 107012 it is subscribed to another thread (threadId 0 included:
 * 107011 or 107012 by the same rules).
 */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);
/*
 * aclrtLaunchHostFunc - queue fn(args) on stream; the stream waits until
 * it returns.  It runs in the thread of aclrtSubscribeHostFunc, else in a
 * thread of the library.  Errors, in order: 107017 as above; 107000 fn
 * NULL; 107011 the stream has a report thread (aclrtSubscribeReport) and
 * no host function thread (before the context check, as the runtime's
 * error layer); 107002 as above; 107003 a stream of another context;
 * 507002 queue full; 207001 no thread could be started.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);
/*
 * aclrtSubscribeHostFunc / aclrtProcessHostFunc / aclrtUnSubscribeHostFunc
 * - as the three Report calls, for the host functions of exeStream.
 * Errors as theirs, and 107000 exeStream NULL; 107011 (subscribe) the
 * stream's host functions have a thread (subscribed, or the runtime's).
 */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/* ------------------------------------------------------------------------
 * Notifies: sync objects of a device.  A record queued on a stream sets
 * the notify when the stream reaches it; a wait queued on a stream holds
 * that stream until the notify is set and resets it in the same step (one
 * record releases one wait).  Counting notifies (aclrtCntNotify*) hold a
 * 32-bit count that records change by a mode and waits compare by a mode.
 * A notify is the device's: a process that imports it by key
 * (aclrtNotifyImportByKey) records and waits on the same object.  Its
 * creator's destroy (or exit) ends every wait on it without an error.
 * A wait holds no lock and no worker of the device; a process killed
 * while waiting leaves nothing behind.
 * Common errors: 107017 ACL_ERROR_RT_INVALID_HANDLE a notify (or stream)
 * that is not live in this process (destroyed, the other kind, its device
 * reset); 107002 no current device (creating, importing, a NULL stream);
 * 107003 the stream is on another device than the notify.
 * ---------------------------------------------------------------------- */

/* aclrtCreateNotify - a plain notify of the current device, not set.
 * flag: ACL_NOTIFY_DEFAULT or ACL_NOTIFY_DEVICE_USE_ONLY (same here).
 * Errors: 100000 notify NULL; 107000 another flag; 107002;
 * ACL_ERROR_RT_NO_NOTIFY_RESOURCE (207009) the device's limit of objects
 * for this process is reached. */
ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag);
/* aclrtDestroyNotify - the creator's destroy kills the notify (waits on
 * it, in any process, end); an importer's drops its handle only.
 * Errors: 100000 NULL; 107017. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);
/* aclrtCntNotifyCreate - a counting notify (count 0) of the current
 * device.  Errors: 107000 flag != 0 or cntNotify NULL (checked after the
 * flag and the device); 107002; 207009 as aclrtCreateNotify. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag);
/* aclrtCntNotifyDestroy - as aclrtDestroyNotify.  Errors: 107000 NULL;
 * 107017. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify);
/* aclrtRecordNotify - queue on stream (NULL: the default stream) a record
 * that sets notify.  Errors: 100000 notify NULL; 107017 (the notify is
 * checked first, also when its creator destroyed it); 107003; 507002 the
 * stream's queue is full. */
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);
/* aclrtWaitAndResetNotify - queue on stream a wait until notify is set,
 * then reset it.  timeout: ms counted from when the stream reaches the
 * wait; 0 or UINT32_MAX wait without limit.  A wait that times out fails
 * its stream: the next synchronize of it returns
 * ACL_ERROR_RT_TASK_TIMEOUT (107020).  Errors: as aclrtRecordNotify;
 * 107000 the notify is another process's on another device. */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);
/* aclrtGetNotifyId - the notify's id (> 0): the same in every process that
 * holds it.  Errors: 100000 a NULL argument; 107017. */
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId);
/* aclrtNotifyBatchReset - reset num notifies now (from the host), in
 * order; the first failure stops the loop (the ones before it are reset).
 * Errors: 100000 notifies NULL; 107000 num 0 or a NULL element; 107017. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num);
/* aclrtCntNotifyRecord - queue on stream a record that changes the count:
 * info->mode SET_VALUE (count = value), ADD (count += value, wrapping),
 * BIT_OR (count |= value), BIT_AND (count &= value).  Errors: 100000 info
 * NULL; 107017; 107000 cntNotify NULL or another mode; 107003; 507002. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
						  aclrtCntNotifyRecordInfo *info);
/* aclrtCntNotifyWaitWithTimeout - queue on stream a wait until the count
 * meets info->value by info->mode: LESS (count < value), EQUAL, BIGGER,
 * BIGGER_OR_EQUAL, EQUAL_WITH_BITMASK ((count & value) == value); with
 * info->isClear != 0 the count becomes 0 when it is met.  info->timeout:
 * ms as in aclrtWaitAndResetNotify (0: no limit).  Errors: 100000 info
 * NULL; 107017; 107000 cntNotify NULL or mode > 4; 107003; 507002. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
							   aclrtCntNotifyWaitInfo *info);
/* aclrtCntNotifyReset - queue on stream a record that sets the count to 0.
 * Errors: 107000 cntNotify NULL; 107017; 107003; 507002. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream);
/* aclrtCntNotifyGetId - as aclrtGetNotifyId.  Errors: 107000 a NULL
 * argument; 107017. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId);

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

/*
 * aclrtHostMemMapCapabilities - whether unit hacType of device deviceId
 * reaches host memory registered with aclrtHostRegister: SUPPORTED for
 * ACL_RT_HAC_TYPE_SDMA (npu_sim's copy engine, which makes the copies and
 * sets through a registered range), NOT_SUPPORTED for every other unit
 * (npu_sim has none of them).  Errors: 100000 capabilities NULL; 107001
 * deviceId not a device; 107000 hacType not an aclrtHacType; 107002 no
 * current device (aclrtSetDevice).
 */
ACL_FUNC_VISIBILITY aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
							 aclrtHostMemMapCapability *capabilities);

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
 * value.  Checks, in order (the ACL layer's, then the runtime's): N 0 ->
 * ACL_SUCCESS; ptr NULL, not 4-byte aligned, N * 4 overflowing or above
 * memSize, or ptr neither device memory nor in an aclrtMallocHost block ->
 * ACL_ERROR_INVALID_PARAM (100000); no current device ->
 * ACL_ERROR_RT_CONTEXT_NULL (107002); then the range not inside one live
 * allocation, mapping or block -> 107000 (nothing written).  Host memory
 * is written by the CPU, device memory by the driver. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N);

/*
 * aclrtMemcpyBatch - numBatches synchronous copies (srcs[i] -> dsts[i],
 * sizes[i] bytes, room for destMax[i]), all host to device or all device
 * to host.  attrs[k] applies to copies attrsIndexes[k] .. attrsIndexes[k+1]-1
 * (the last to numBatches - 1) and must say where they are: dstLoc/srcLoc
 * HOST, or DEVICE with the device id; rsv 0.  Every copy is checked before
 * any byte moves.  Returns ACL_SUCCESS (all sizes 0 included; *failIndex
 * SIZE_MAX); the ACL layer's ACL_ERROR_INVALID_PARAM (100000), *failIndex
 * untouched: failIndex, sizes or another array NULL, numBatches 0,
 * sizes[i] > destMax[i] (every copy first), an attribute's rsv not 0;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) a product without batch copies
 * (Atlas 200I/500 A2, inference, training); then, *failIndex SIZE_MAX unless
 * one copy is refused (then its index), ACL_ERROR_RT_PARAM_INVALID (107000):
 * numAttrs 0 or > numBatches, attrsIndexes not starting at 0, not
 * increasing or not below numBatches, an attribute that does not say where
 * a copy's memory is, a copy that is not H2D or D2H or goes the other way
 * than the first, a NULL dst/src, the device side not inside one live
 * allocation or mapping;
 * ACL_ERROR_RT_CONTEXT_NULL (107002) no current device.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void **dsts, size_t *destMax, void **srcs, size_t *sizes,
					      size_t numBatches, aclrtMemcpyBatchAttr *attrs,
					      size_t *attrsIndexes, size_t numAttrs, size_t *failIndex);

/* aclrtMemcpyBatchV2 - aclrtMemcpyBatch without failIndex: the same checks
 * and codes. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
						size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
						size_t numAttrs);

/*
 * aclrtMemcpyBatchAsync - numBatches copies srcs[i] -> dsts[i] of sizes[i]
 * bytes (room for destMaxs[i]) queued on stream (NULL: the default
 * stream), each as aclrtMemcpyAsync with ACL_MEMCPY_DEFAULT would (so a
 * copy with pageable host memory is done before the call returns); attrs
 * as for aclrtMemcpyBatch.  *failIndex is SIZE_MAX, or the copy refused.
 * Checks, in order: failIndex, sizes NULL, numBatches 0 ->
 * ACL_ERROR_INVALID_PARAM (100000); every size 0 -> ACL_SUCCESS (nothing
 * queued); dsts, destMaxs, srcs, attrs or attrsIndexes NULL, a size above
 * its destMaxs, an attribute's rsv not 0 -> 100000; stream destroyed or
 * not a stream -> ACL_ERROR_RT_INVALID_HANDLE (107017); no current device
 * (NULL stream) -> ACL_ERROR_RT_CONTEXT_NULL (107002); numAttrs 0 or above
 * numBatches, attrsIndexes not starting at 0, not increasing or not below
 * numBatches -> ACL_ERROR_RT_PARAM_INVALID (107000).  Then copy by copy:
 * dst or src NULL, an attribute that does not say where dst and src are ->
 * 107000; the codes of aclrtMemcpyAsync.  Copies before a refused one
 * stay queued.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
						   size_t numBatches, aclrtMemcpyBatchAttr *attrs,
						   size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
						   aclrtStream stream);

/* aclrtMemcpyBatchAsyncV2 - aclrtMemcpyBatchAsync without failIndex. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
						     size_t numBatches, aclrtMemcpyBatchAttr *attrs,
						     size_t *attrsIndexes, size_t numAttrs, aclrtStream stream);

/*
 * aclrtMemsetD32Async - as aclrtMemsetD32, queued on stream (NULL: the
 * current context's default stream) for device memory; aclrtMallocHost
 * memory is set at once by the CPU, as the runtime does, and stream is
 * not looked at.  Checks, in order: N 0 -> ACL_SUCCESS; ptr NULL, not
 * 4-byte aligned, N * 4 overflowing or above memSize, ptr neither device
 * memory nor in an aclrtMallocHost block -> ACL_ERROR_INVALID_PARAM
 * (100000); stream destroyed or not a stream ->
 * ACL_ERROR_RT_INVALID_HANDLE (107017); no current device ->
 * ACL_ERROR_RT_CONTEXT_NULL (107002), for host memory too (NULL stream:
 * 107002 only); memory of another device than the stream's ->
 * ACL_ERROR_RT_STREAM_CONTEXT (107003); the range not inside one live
 * allocation or mapping -> ACL_ERROR_RT_PARAM_INVALID (107000).  The
 * words are written when the stream reaches the operation: a later
 * operation of the same stream sees them.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
						 aclrtStream stream);

/*
 * aclrtMemcpyAsyncWithCondition - deprecated form of aclrtMemcpyAsync:
 * the same checks and codes, and with host memory not from aclrtMallocHost
 * the copy is done before the call returns, as aclrtMemcpyAsync's here.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src,
							   size_t count, aclrtMemcpyKind kind,
							   aclrtStream stream);

/*
 * Copies described in device memory (all need kind
 * ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, 6).  A descriptor is device memory,
 * 64-byte aligned, that aclrtSetMemcpyDesc fills with the copy's source,
 * destination and byte count: *descSize = 32 bytes (three reserved 32-bit
 * words, the 32-bit length, the source, the destination), or 64 bytes on
 * the Ascend 950 profile (four reserved 64-bit words, source, destination,
 * length, three reserved 32-bit words).  aclrtMemcpyAsyncWithDesc queues
 * the described device-to-device copy on stream.  The chips of the Atlas
 * training series and the Atlas inference series have no descriptors
 * (207000).  npu_sim reads the descriptor at the call, not when the stream
 * reaches the copy.
 * aclrtGetMemcpyDescSize errors: 100000 descSize NULL, kind not below 8;
 * 207000 no descriptors on this chip, kind not 6.
 * aclrtSetMemcpyDesc errors: 100000 desc, srcAddr or dstAddr NULL, kind
 * not below 8, count 0, config not NULL; 107002 no current device; 207000
 * as above; 107000 count above 4 GiB, desc not 64-byte aligned or not
 * device memory, dstAddr and srcAddr not device memory of one device.
 * aclrtMemcpyAsyncWithDesc errors: 100000 desc or stream NULL, kind not
 * below 8; 107017 stream not a live stream; 107000 desc not device
 * memory, not 64-byte aligned or never filled; 207000 as above; then those of
 * aclrtMemcpyAsync for the described copy.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize);
ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr,
						size_t count, void *config);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream);

/*
 * aclrtMemcpyAsyncWithOffset - queue on stream (NULL: default stream) a
 * device-to-device copy of count bytes from (*src) + srcDataOffset to
 * (*dst) + dstDataOffset, where dst and src are device memory holding the
 * 64-bit addresses (read by npu_sim at the call) and destMax is the size of
 * the destination buffer at *dst.  count 0: ACL_SUCCESS, nothing queued.
 * Errors: 107017 stream not a live stream; 107000 kind not
 * ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, dst or src NULL, count above destMax or 4 GiB, an offset
 * above 2^48 - 1, dstDataOffset not below destMax, count above destMax -
 * dstDataOffset, dst or src not device memory; 207000 the chip has no copy
 * by offset (Atlas inference series, Atlas 200I/500 A2); then those of
 * aclrtMemcpyAsync for the copy.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
							const void **src, size_t count, size_t srcDataOffset,
							aclrtMemcpyKind kind, aclrtStream stream);

/*
 * aclrtReduceAsync - queue on stream (NULL: default stream) the SDMA
 * reduce dst[i] = dst[i] <kind> src[i] over count bytes of device memory
 * (count / element size elements of type).  src may be on a peer device
 * the stream's device has peer access to (aclrtDeviceEnablePeerAccess).
 * Integer sums wrap (two's complement); float sums are IEEE additions,
 * rounded to nearest, ties to even; a NaN operand gives the positive quiet
 * NaN; MAX and MIN order -0 below +0.  The kinds are SUM, MAX and MIN; the
 * types those the product's SDMA engine reduces (API reference, CANN
 * 8.5.0): Atlas A2/A3 (and Ascend 950) ACL_INT8, ACL_INT16, ACL_INT32,
 * ACL_FLOAT16, ACL_FLOAT, ACL_BF16; Atlas 200I/500 A2 the same but
 * ACL_BF16; Atlas inference ACL_FLOAT, ACL_FLOAT16, ACL_INT16; Atlas
 * training ACL_FLOAT.  Atlas inference products do SUM only (the
 * runtime's sdmaReduceKind of that chip).  Checks, in order:
 * dst or src NULL, reserve not NULL, type not one of ACL_FLOAT,
 * ACL_FLOAT16, ACL_INT16, ACL_INT4, ACL_INT8, ACL_INT32, ACL_BF16,
 * ACL_UINT8, ACL_UINT16, ACL_UINT32 -> ACL_ERROR_INVALID_PARAM (100000);
 * stream destroyed or not a stream -> ACL_ERROR_RT_INVALID_HANDLE
 * (107017); count 0, kind outside 10..13, SUM of more than 4 GiB ->
 * ACL_ERROR_RT_PARAM_INVALID (107000); no current device (NULL stream)
 * -> ACL_ERROR_RT_CONTEXT_NULL (107002); a stream of another context
 * -> 107003; kind EQUAL, a kind or a type the product does not reduce
 * -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000);
 * dst not on the stream's device -> ACL_ERROR_RT_STREAM_CONTEXT (107003);
 * dst, src or count not a multiple of the element size, a range not in
 * live device memory, src on a device without peer access ->
 * ACL_ERROR_RT_PARAM_INVALID (107000).
 */
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
					      aclDataType type, aclrtStream stream, void *reserve);

/* ========================================================================
 * Cache maintenance.  The emulated device has no cache between the DMA
 * engine and memory, so every operation below has nothing to write back
 * or drop: each checks its arguments and its range (live device memory of
 * the stream's device), is queued on its stream and completes in stream
 * order, so that the stream's later work is ordered after it.
 * ====================================================================== */

/*
 * aclrtCmoAsync - queue cache operation cmoType on [src, src + size);
 * size is taken modulo 4 GiB (the task's length has 32 bits; a multiple
 * of 4 GiB is 107000).  Checks, in order: src NULL, size 0 -> ACL_ERROR_INVALID_PARAM (100000);
 * a product without CMO tasks (Atlas 200I/500 A2, inference, training:
 * the runtime's RT_FEATURE_TASK_CMO), cmoType outside 0..3 ->
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000);
 * stream destroyed or not a stream -> ACL_ERROR_RT_INVALID_HANDLE
 * (107017); no current device (NULL stream) -> ACL_ERROR_RT_CONTEXT_NULL
 * (107002); memory of another device than the stream's ->
 * ACL_ERROR_RT_STREAM_CONTEXT (107003); the range not in live device
 * memory -> ACL_ERROR_RT_PARAM_INVALID (107000).
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream);

/*
 * aclrtGetMemUceInfo - the ranges of device deviceId's memory with an
 * uncorrectable error, up to arraySize of them into memUceInfoArray, their
 * number in *retSize.  An npu_sim device's memory never has one: *retSize
 * is 0 and the array is left as it is, whatever arraySize (0 too).  The
 * device need not be set.  Errors: 100000 memUceInfoArray or retSize NULL;
 * 207000 a product without the runtime's fast recovery (Atlas 200I/500 A2,
 * inference, training); 107001 deviceId not a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray,
						size_t arraySize, size_t *retSize);

/*
 * aclrtMemUceRepair - repair the arraySize (0 .. 128) ranges of
 * memUceInfoArray on device deviceId.  No range of an npu_sim device has
 * an error, so there is nothing to repair and the call succeeds, changing
 * nothing.  Errors: 100000 memUceInfoArray NULL, arraySize above 128, or
 * one of the first UCE_INFO_RESERVED_SIZE bytes of an entry's reserved not
 * 0 (as the ACL layer: bytes, not words); 207000 as aclrtGetMemUceInfo;
 * 107001 deviceId not a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray,
					       size_t arraySize);

/*
 * aclrtCmoAsyncWithBarrier - as aclrtCmoAsync; an invalidate names a
 * barrier barrierId (> 0), the other types must pass 0.  Checks, in order:
 * src NULL -> ACL_ERROR_INVALID_PARAM (100000); a product without the
 * runtime's RT_FEATURE_TASK_ASYNC_CMO (all but the Atlas 200I/500 A2) ->
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000); size 0 ->
 * ACL_ERROR_RT_PARAM_INVALID (107000); cmoType outside 0..3 ->
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000); barrierId 0 with
 * ACL_RT_CMO_TYPE_INVALID, barrierId not 0 with the other types -> 107000;
 * then as aclrtCmoAsync.  size is taken modulo 4 GiB (the task's length
 * has 32 bits), as by aclrtCmoAsync; a multiple of 4 GiB is 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithBarrier(void *src, size_t size, aclrtCmoType cmoType,
						      uint32_t barrierId, aclrtStream stream);

/*
 * aclrtCmoWaitBarrier - wait for the barriers of taskInfo
 * (taskInfo->barrierNum entries).  As in the CANN ACL layer the list is
 * checked and nothing is queued (stream and flag are not looked at): the
 * invalidates a stream runs complete in its order anyway.  Returns
 * ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) taskInfo NULL, barrierNum
 * 0 or > ACL_RT_CMO_MAX_BARRIER_NUM.
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo, aclrtStream stream,
						 uint32_t flag);

/*
 * aclrtCmoGetDescSize - bytes of the descriptor aclrtCmoSetDesc fills
 * (*size = 32, as on Atlas A2/A3).  Returns ACL_SUCCESS;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000), checked first, a product
 * without CMO tasks (Atlas 200I/500 A2, inference, training);
 * ACL_ERROR_RT_PARAM_INVALID (107000) size NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoGetDescSize(size_t *size);

/*
 * aclrtCmoSetDesc - write the descriptor of [src, src + size) to cmoDesc,
 * aclrtCmoGetDescSize bytes of device memory (aclrtMalloc), by a
 * synchronous host-to-device copy.  size is kept modulo 4 GiB.  Returns
 * ACL_SUCCESS; 207000 (first) as aclrtCmoGetDescSize;
 * ACL_ERROR_RT_PARAM_INVALID (107000) cmoDesc or src NULL,
 * size 0; the codes of aclrtMemcpy for that copy (107000 cmoDesc not 32
 * bytes of live device memory).
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoSetDesc(void *cmoDesc, void *src, size_t size);

/*
 * aclrtCmoAsyncWithDesc - as aclrtCmoAsync on the range the device
 * descriptor cmoDesc holds.  The descriptor is read at the call (a real
 * device reads it when it runs the task).  Checks, in order: reserve not
 * NULL -> 107000; a product without CMO descriptors (Atlas 200I/500 A2,
 * inference, training) -> 207000; cmoDesc NULL, cmoType outside 0..3, cmoDesc not device memory or
 * never filled by aclrtCmoSetDesc -> ACL_ERROR_RT_PARAM_INVALID (107000);
 * then as aclrtCmoAsync.
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithDesc(void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
						   const void *reserve);

/*
 * aclrtMemMapSelectedLink - map the handle mapped at virPtrSrc (the start
 * of an aclrtMapMem mapping) at virPtrDst too, over link linkIdx
 * (ACL_RT_MEM_LINK_IDX_0 SIO, _1 HCCS).  npu_sim's driver has one link and
 * no route attribute for a handle, so after the checks the call answers
 * 207000 and maps nothing.  Errors: 100000 virPtrDst or virPtrSrc NULL,
 * size 0, linkIdx above 1; 107000 virPtrSrc not the start of a VMM
 * mapping of this process; 207000 as said.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSelectedLink(void *virPtrDst, size_t size, void *virPtrSrc, uint32_t linkIdx);

/*
 * aclrtDeviceL2CacheFlush - flush the L2 cache of the current device.  The
 * emulated device has none: nothing is written.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) rsv not NULL; ACL_ERROR_RT_CONTEXT_NULL
 * (107002) no current device.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void *rsv);

/*
 * aclrtMemMapSetLink - advise the link (aclrtMemLinkType) later mappings
 * of handle use.  As aclrtMemMapSelectedLink, npu_sim's driver has no
 * route attribute: a valid call answers 207000 and records nothing.
 * Errors: 100000 handle NULL; 107000 adviceLink not an aclrtMemLinkType;
 * 207000 as said.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink);

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
 * aclrtDevicePeerAccessStatus - *status 1 when deviceId has peer access to
 * peerDeviceId in this process (aclrtDeviceEnablePeerAccess with deviceId
 * current), else 0 (also for deviceId == peerDeviceId, or a device this
 * process has not opened).  Checks, in order: status NULL ->
 * ACL_ERROR_INVALID_PARAM (100000); deviceId not a device ->
 * ACL_ERROR_RT_INVALID_DEVICEID (107001); peerDeviceId outside 0..63 ->
 * ACL_ERROR_RT_PARAM_INVALID (107000); peerDeviceId not a device -> 107001.
 */
ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status);

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

/*
 * aclrtIpcMemSetAttr - choose the link (ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_*,
 * attr 0..3) importers of key reach the memory over.  The runtime sets it
 * only on devices in flat address mode; an npu_sim device has one memory
 * path and no such mode, so a valid call answers 207000 and sets nothing.
 * Errors: 107000 key NULL, type not ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, attr
 * above 3; 107002 no current device; 207000 as said.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr);

/*
 * aclrtIpcMemImportPidInterServer - whitelist for key the processes
 * serverPids[i].pid[0 .. num - 1] of the SuperPod servers serverPids[i].sdid
 * (num entries).  npu_sim is not in a SuperPod (no sdid, its own neither),
 * so the first entry that passes its check gets 207000 and nothing is
 * whitelisted.  Errors: 107000 key or serverPids NULL, num 0, an entry's
 * pid NULL (checked entry by entry); 207000 as said.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids,
							     size_t num);
/* aclrtIpcMemClose - in a process that imported key: unmap its oldest
 * import of it (the memory stays for the other holders).  In the exporting
 * process: the key dies (no new imports; imports keep their memory; the
 * allocation is still freed with aclrtFree).  Errors: 100000 NULL; 107017
 * also when this process neither imported nor exported the key (or closed
 * it already); 107002. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key);
/* aclrtIpcGetEventHandle - the handle of an IPC event (made with
 * aclrtCreateEventExWithFlag(ACL_EVENT_IPC), or opened) for other
 * processes; the same handle every time.  It stays valid until the event
 * is destroyed or its process exits; events opened from it before stay
 * usable.  Errors: 100000 NULL handle or event; 107017; 107000 not an IPC
 * event. */
ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle);
/* aclrtIpcOpenEventHandle - open in the current context an IPC event of
 * another process (of any device; access to that device is enabled as by
 * aclrtDeviceEnablePeerAccess): records in either process count for both,
 * so a wait or synchronize in one orders after a record queued in the
 * other.  The event is destroyed with aclrtDestroyEvent.  Errors: 100000
 * NULL event; 107002 no current device; 107017 handle names no live IPC
 * event; 207006 the event is this process's own; 207007 65536 events. */
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event);

/* IPC notifies.  The key is a NUL-terminated string of 31 bytes naming the
 * notify until its creator destroys it; an importer must be on the key's
 * whitelist (aclrtNotifySetImportPid) unless the key was made with
 * ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION. */

/* aclrtNotifyGetExportKey - write the key of notify (created by this
 * process) to key (len bytes, at least 31); asked again it gives the same
 * key.  flags: ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT or _DISABLE_PID_VALIDATION.
 * Errors: 100000 notify or key NULL; 107017; 107000 len 0 or < 31, another
 * flag, flags other than the first export's, an imported notify. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags);
/* aclrtNotifyImportByKey - a handle of this process on the notify key
 * names, in the current device.  flags: ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT,
 * or _ENABLE_PEER_ACCESS (a notify of another device: enable peer access
 * to it first; records may then be queued on this device's streams, waits
 * only on the notify's device).  Errors: 100000 NULL; 107000 flags above
 * 3, a notify of another device without peer access, one this process
 * holds already; 107017 key names no live notify key; 207006 this process
 * created the notify, or it is not on the whitelist; 107002. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags);
/* aclrtNotifySetImportPid - add num process ids (1 .. 1024 in all, each
 * > 0) to the whitelist of notify's key.  Errors: 100000 notify or pid
 * NULL; 107017; 107000 num 0 or > 1024, a pid <= 0, the notify not
 * exported by this process (aclrtNotifyGetExportKey first);
 * ACL_ERROR_RT_MEMORY_ALLOCATION (207001) the whitelist would exceed 1024
 * pids. */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num);

/*
 * aclrtNotifySetImportPidInterServer - as aclrtIpcMemImportPidInterServer
 * for a notify shared by key; each entry names exactly one pid
 * (serverPids[i].num 1).  Errors: 107000 notify or serverPids NULL, num 0,
 * an entry's pid NULL or its num not 1; 107017 notify destroyed or not a
 * notify of this process; 207000 npu_sim is not in a SuperPod.
 */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid *serverPids,
								size_t num);

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
 * aclrtGetErrorVerbose - the fault device deviceId reports.  An npu_sim
 * device never has one: tryRepair 0, hasDetail 0, errorType
 * ACL_RT_NO_ERROR, detail.aicoreErrType ACL_RT_AICORE_ERROR_UNKNOWN (the
 * rest of errorInfo is left as it is).  The device need not be set.
 * Errors: 100000 errorInfo NULL; 207000 a product without the runtime's
 * RT_FEATURE_DFX_ERR_GET_AND_REPAIR (Atlas 200I/500 A2, inference,
 * training); 107001 deviceId not a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo);

/*
 * aclrtRepairError - repair the fault errorInfo describes (tryRepair 1) on
 * device deviceId, which must be set in this process.  ACL_RT_NO_ERROR and
 * ACL_RT_ERROR_MEMORY succeed (an npu_sim device has no fault, so nothing
 * is left to repair).  Errors: 100000 errorInfo NULL; 207000 as
 * aclrtGetErrorVerbose; 107000 tryRepair 0
 * or errorType another type; 107001 deviceId not a device; 507033 device
 * not set in this process.
 */
ACL_FUNC_VISIBILITY aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo *errorInfo);

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

/* ==== Graph mode: model runtime instances (aclmdlRI) ======================
 *
 * A model runtime instance ("graph") is a list of stream tasks the runtime
 * keeps and replays as a whole.  aclmdlRICaptureBegin puts a stream into
 * capture: from then on the work queued on it (asynchronous copies 1D/2D,
 * memsets, value write/wait, event record/wait/reset, notify record/wait,
 * host callbacks and host functions) is recorded into the graph instead of
 * run.  A wait on an event recorded by a capturing stream joins the waiting
 * stream into the same capture.  aclmdlRICaptureEnd on the stream that
 * began it closes the capture and hands the task list to the npu_sim
 * driver (GRAPH_CREATE); aclmdlRIExecuteAsync queues all tasks, in the
 * order they were captured (a valid order of their dependencies), on one
 * stream, where the driver runs them like any other stream work: each
 * replay reads and writes device memory as it is when it runs, device
 * ranges are checked at every launch (memory freed since the capture makes
 * the launch fail with the code of the same copy queued by hand, and
 * nothing of it runs), a process killed mid-replay leaves nothing.
 * Captures are tracked per device of this process (the runtime: per
 * context).  Kernel tasks cannot exist in npu_sim.
 */
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

typedef void *aclmdlRI;

typedef enum {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
} aclmdlRICaptureMode;

typedef enum {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

typedef enum aclmdlRITaskType {
    ACL_MODEL_RI_TASK_DEFAULT,
    ACL_MODEL_RI_TASK_KERNEL,
    ACL_MODEL_RI_TASK_EVENT_RECORD,
    ACL_MODEL_RI_TASK_EVENT_WAIT,
    ACL_MODEL_RI_TASK_EVENT_RESET,
    ACL_MODEL_RI_TASK_VALUE_WRITE,
    ACL_MODEL_RI_TASK_VALUE_WAIT,
} aclmdlRITaskType;

typedef struct aclmdlRIEventRecordTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t recordFlag;
} aclmdlRIEventRecordTaskParams;

typedef struct aclmdlRIEventWaitTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t waitFlag;
} aclmdlRIEventWaitTaskParams;

typedef struct aclmdlRIEventResetTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t resetFlag;
} aclmdlRIEventResetTaskParams;

typedef struct aclmdlRIValueWriteTaskParams {
    void *devAddr;
    uint64_t value;
} aclmdlRIValueWriteTaskParams;

typedef struct aclmdlRIValueWaitTaskParams {
    void *devAddr;
    uint64_t value;
    uint32_t flag;
} aclmdlRIValueWaitTaskParams;

/* The union's kernel member (aclmdlRIKernelTaskParams) is left out: npu_sim
 * has no kernels; rsv2 keeps the layout of the CANN header. */
typedef struct aclmdlRITaskParams {
    aclmdlRITaskType type;
    uint32_t rsv0[3];
    aclrtTaskGrp taskGrp;
    void *opInfoPtr;
    size_t opInfoSize;
    uint8_t rsv1[32];

    union {
        uint8_t rsv2[128];
        struct aclmdlRIEventRecordTaskParams eventRecordTaskParams;
        struct aclmdlRIEventWaitTaskParams eventWaitTaskParams;
        struct aclmdlRIEventResetTaskParams eventResetTaskParams;
        struct aclmdlRIValueWriteTaskParams valueWriteTaskParams;
        struct aclmdlRIValueWaitTaskParams valueWaitTaskParams;
    };
} aclmdlRITaskParams;

typedef void *aclmdlRICondHandle;

typedef enum {
    ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT = 1,
} aclmdlRICondHandleFlag;

typedef enum {
    ACL_MODEL_RI_COND_TYPE_IF = 0,
    ACL_MODEL_RI_COND_TYPE_WHILE = 1,
    ACL_MODEL_RI_COND_TYPE_SWITCH = 2,
} aclmdlRICondTaskType;

typedef struct tagAclmdlRICondTaskParams {
    aclmdlRICondHandle handle;
    aclmdlRICondTaskType type;
    uint32_t size;
    aclmdlRI *modelRIArray;
} aclmdlRICondTaskParams;

/*
 * aclmdlRICaptureBegin - start capturing the work queued on stream into a
 * new graph, in mode (the thread's other calls allowed meanwhile: see
 * aclmdlRICaptureThreadExchangeMode).  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) stream NULL (the default stream cannot
 * capture); ACL_ERROR_RT_INVALID_HANDLE (107017) stream not a live stream;
 * ACL_ERROR_RT_PARAM_INVALID (107000) mode outside the enum;
 * ACL_ERROR_RT_STREAM_CAPTURED (107027) the stream
 * is capturing already (active or invalidated); ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000) the driver has no graphs; ACL_ERROR_RT_MEMORY_ALLOCATION (207001).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);

/*
 * aclmdlRICaptureGetInfo - the capture status of stream (NONE, ACTIVE, or
 * INVALIDATED after a failed capture call) and the graph it captures into
 * (NULL when NONE).  Either out-parameter may be NULL, not both.  Returns
 * ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) stream NULL, or status and
 * modelRI both NULL; ACL_ERROR_RT_INVALID_HANDLE (107017) not a live stream.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI);

/*
 * aclmdlRICaptureEnd - end the capture begun on stream; *modelRI gets the
 * graph.  Every stream the capture joined leaves it.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) stream or modelRI NULL;
 * ACL_ERROR_RT_INVALID_HANDLE (107017) not a live stream;
 * ACL_ERROR_RT_STREAM_NOT_CAPTURED (107029) the stream does not capture;
 * ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED (107036) the stream was joined into
 * the capture, which another stream began; and, with the capture dropped
 * and *modelRI set to NULL: ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD (107038)
 * a GLOBAL or THREAD_LOCAL capture ended by another thread than the one
 * that began it; ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED (507903) a call
 * invalidated the capture; ACL_ERROR_RT_STREAM_UNJOINED (107025) a joined
 * stream's last task is not an event record the capture waits for later,
 * or none of them is waited for by the stream that began the capture;
 * ACL_ERROR_RT_MEMORY_ALLOCATION (207001).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI);

/*
 * aclmdlRIDebugPrint - print the graph's tasks to stdout, one line each
 * (index, stream, type, operands).  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) modelRI NULL; ACL_ERROR_RT_PARAM_INVALID
 * (107000) not a live graph.  Deprecated in CANN for aclmdlRIDebugJsonPrint.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI);

/*
 * aclmdlRIDebugJsonPrint - write the graph as a JSON document to the file
 * path (created or truncated): its id, name, streams and tasks; flags
 * ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE adds every task's operands.  Returns
 * ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) modelRI or path NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) not a live graph or flags not 0/1;
 * ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899) the file cannot be written.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags);

/*
 * aclmdlRICaptureThreadExchangeMode - swap the calling thread's capture
 * interaction mode with *mode (default GLOBAL).  While captures are active,
 * a synchronous copy or memset (aclrtMemcpy, aclrtMemcpy2d, aclrtMemset)
 * fails with ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT (107030) when the
 * thread's mode is GLOBAL and a GLOBAL capture is active on its device or
 * the thread began a THREAD_LOCAL one, or when the thread's mode is
 * THREAD_LOCAL and the thread began a GLOBAL or THREAD_LOCAL capture; a
 * RELAXED thread is never refused.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) mode NULL; ACL_ERROR_RT_PARAM_INVALID
 * (107000) *mode outside the enum.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);

/*
 * aclmdlRIExecuteAsync - queue the graph's enabled tasks on stream (NULL:
 * the default stream), in captured order; they run as the stream reaches
 * them.  The graph may be destroyed, and its memory freed, once the call
 * returned: the queued work holds what it uses.  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) modelRI NULL; ACL_ERROR_RT_INVALID_HANDLE
 * (107017) not a live stream (also when another thread destroys it during
 * the call); ACL_ERROR_RT_PARAM_INVALID (107000) not a live graph, an
 * event or memory pool of a task destroyed, or a task's device memory
 * freed (the codes of the same asynchronous copy otherwise:
 * ACL_ERROR_RT_INVALID_MEMORY_TYPE...);
 * ACL_ERROR_RT_STREAM_CONTEXT (107003) the stream is another device's;
 * ACL_ERROR_RT_STREAM_CAPTURED (107027) the stream is capturing;
 * ACL_ERROR_RT_STREAM_TASK_FULL (207003) the device queue cannot take all
 * tasks; ACL_ERROR_RT_STREAM_NO_CB_REG (107016) a callback task and no
 * thread processes the stream's reports; ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000) modelRI is a sub graph of a condition task (it runs inside its
 * parent only).  Nothing is queued on failure.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);

/*
 * aclmdlRIExecute - run the graph on a stream of its own and wait at most
 * timeout ms (-1: no limit) for it.  Returns ACL_SUCCESS; the codes of
 * aclmdlRIExecuteAsync; ACL_ERROR_RT_PARAM_INVALID (107000) timeout < -1 or
 * 0; ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (107015) not done in time (the rest
 * still runs); the first error of a task.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);

/*
 * aclmdlRIDestroy - destroy the graph: its destroy callbacks run (in
 * registration order), its driver graph is freed; replays already queued
 * finish normally.  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000)
 * modelRI NULL; ACL_ERROR_RT_PARAM_INVALID (107000) not a live graph;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) a sub graph of a condition
 * task (it goes with its parent); ACL_ERROR_RT_MODEL_CAPTURED (107026) it
 * is still being captured.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);

/*
 * Task groups.  aclmdlRICaptureTaskGrpBegin - tasks queued next on the
 * capturing stream form a group; aclmdlRICaptureTaskGrpEnd - close it,
 * *handle the group (it lives as long as its graph; NULL on failure).
 * aclmdlRICaptureTaskUpdateBegin - tasks queued next on stream (capturing
 * or not) re-record the group's tasks in order, with their new parameters;
 * aclmdlRICaptureTaskUpdateEnd - end that, every task re-recorded.  As in
 * the runtime only kernel-launch tasks (AI Core / vector core) can be
 * grouped or updated; npu_sim has none, so a group is always empty: any
 * other task queued on a grouping or updating stream fails (an event
 * record while updating is queued as usual).  A capture with a group not
 * ended cannot end.  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000)
 * stream or handle NULL; ACL_ERROR_RT_INVALID_HANDLE (107017) not a live
 * stream; ACL_ERROR_RT_PARAM_INVALID (107000) (UpdateBegin) handle not a
 * group of a live graph;
 * ACL_ERROR_STREAM_TASK_GROUP_STATUS (107033) GrpBegin / UpdateBegin on a
 * stream grouping or updating, GrpEnd without GrpBegin, UpdateEnd without
 * UpdateBegin, UpdateBegin of a group another stream updates, or
 * aclmdlRICaptureEnd with a group open; ACL_ERROR_RT_STREAM_NOT_CAPTURED
 * (107029) GrpBegin / GrpEnd on a stream not capturing;
 * ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT (507009) a task was queued in the
 * group (GrpEnd; the task's own call failed with it too);
 * ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED (507903) GrpEnd of an invalidated
 * capture; ACL_ERROR_RT_INTERNAL_ERROR (507000) UpdateEnd with tasks of
 * the group not re-recorded; ACL_ERROR_RT_MEMORY_ALLOCATION (207001).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);

/*
 * Built models.  aclmdlRIBuildBegin makes an empty model (flag must be 0) on
 * the current device; aclmdlRIBindStream binds a stream created with
 * ACL_STREAM_PERSISTENT to it (flag ACL_MODEL_STREAM_FLAG_HEAD: the stream
 * runs when a replay starts; ACL_MODEL_STREAM_FLAG_DEFAULT: when a task
 * activates it, aclrtActiveStream / aclrtSwitchStream).  From then on the
 * work queued on a bound stream is recorded into the model, not run:
 * copies, sets, value writes, reduces and cache operations (npu_sim's
 * model programs run memory tasks only: an event, notify, value-wait,
 * callback, prefetch or pool-free task on a model stream fails with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)), labels (aclrtSetLabel,
 * aclrtSwitchLabelByIndex), stream activations and one end task
 * (aclmdlRIEndTask: the stream's segment ends there).  aclmdlRIBuildEnd
 * loads the model (the driver checks it); aclmdlRIExecuteAsync /
 * aclmdlRIExecute then replay it: the head streams' tasks, then each
 * activated stream's, one stream after another in activation order (one
 * order the device may run them in), every control task reading device
 * memory as it is when the replay reaches it.  Work queued on a stream
 * still bound after aclmdlRIBuildEnd fails with ACL_ERROR_RT_STREAM_MODEL
 * (107005) until aclmdlRIUnbindStream.  A replay whose loop never ends
 * runs until the stream is aborted or destroyed or the process exits.
 *
 * aclmdlRIBuildBegin: 100000 modelRI NULL; 107000 flag not 0; 107002 no
 * current device; 207000 the driver has no graph control flow; 207001.
 * aclmdlRIBindStream: 100000 modelRI NULL; 107000 flag neither HEAD (0)
 * nor DEFAULT (0x7FFFFFFF), stream NULL, modelRI not a live model, the
 * model not being built (made by aclmdlRIBuildBegin, build not
 * ended), stream not created with ACL_STREAM_PERSISTENT; 107017 stream
 * not live;
 * ACL_ERROR_RT_STREAM_CONTEXT (107003) stream of another device;
 * ACL_ERROR_RT_STREAM_MODEL (107005) stream bound to a model already, or
 * capturing; 207001.  aclmdlRIUnbindStream: 100000 modelRI NULL; 107000
 * stream NULL, modelRI not live; 107017 stream not live; 107003; 107005
 * stream not
 * bound to this model (the tasks it recorded stay in the model).
 * aclmdlRIEndTask: 100000 modelRI NULL; 107000 stream NULL, modelRI not
 * live; 107017 stream not live; 107003; ACL_ERROR_RT_INTERNAL_ERROR (507000) the model
 * has its end task already, stream not bound to this model; 107005 build
 * ended.  aclmdlRIBuildEnd: 100000 modelRI NULL, reserve not NULL; 107000
 * modelRI not live or not being built; 507000 a label of a switch's list
 * is not set on a stream of this model; 207001.  aclmdlRIExecuteAsync of a
 * model whose build has not ended: 107000.
 */
#define ACL_MODEL_STREAM_FLAG_HEAD 0x00000000U
#define ACL_MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve);
ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);

/*
 * aclmdlRISetName - name the graph: name (not NULL, at most 127 bytes
 * before its NUL; longer names are cut there).  aclmdlRIGetName copies the
 * name (empty if never set) with its NUL into name[maxLen].  Returns
 * ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) modelRI or name NULL, or
 * maxLen 0 or shorter than the name and its NUL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) not a live graph.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char *name);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name);

/*
 * aclmdlRIGetId - the graph's id, unique in the process (0, 1, ... in
 * creation order).  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000)
 * modelRI or modelRIId NULL; ACL_ERROR_RT_PARAM_INVALID (107000) not a
 * live graph.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId);

/*
 * aclmdlRIDestroyRegisterCallback - call func(userData) when the graph is
 * destroyed (once per func; registering func again replaces its
 * userData).  aclmdlRIDestroyUnregisterCallback removes func.  Returns
 * ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) modelRI or func NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) not a live graph, or (unregister)
 * func not registered; ACL_ERROR_RT_MEMORY_ALLOCATION (207001).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData);
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func);

/*
 * aclmdlRIGetStreams - the streams the graph's tasks were captured on (the
 * stream that began the capture first, then joined streams in joining
 * order).  streams NULL: *numStreams gets the count.  Otherwise
 * *numStreams is the array's capacity and gets the count written.  Returns
 * ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) modelRI or numStreams NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) not a live graph;
 * ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY (107039) capacity below the count.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams);

/*
 * aclmdlRIGetTasksByStream - the tasks captured on stream, of the newest
 * live graph captured on it, in order; tasks NULL and *numTasks as in
 * aclmdlRIGetStreams.  Task handles live as long as their graph.  Returns
 * ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) stream or numTasks NULL;
 * ACL_ERROR_RT_INVALID_HANDLE (107017) not a live stream;
 * ACL_ERROR_RT_PARAM_INVALID (107000) no live graph was captured on it;
 * ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY (107039).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks);

/*
 * aclmdlRITaskGetType - the task's type: EVENT_RECORD, EVENT_WAIT,
 * EVENT_RESET, VALUE_WRITE, VALUE_WAIT, or DEFAULT for the others (copies,
 * sets, notifies, callbacks).  aclmdlRITaskGetSeqId - its index in its
 * graph (0-based, captured order).  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) task or the out-parameter NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) not a task of a live graph.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id);

/*
 * aclmdlRITaskGetParams - the task's parameters: type, and for event and
 * value tasks the union member of that type (event handle and the flags it
 * was created with; device address, value and wait flag); other bytes 0.
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) task or params NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000) not a task of a live graph.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params);

/*
 * aclmdlRITaskSetParams - new parameters for a value write or value wait
 * task (params->type must be the task's: devAddr 8-byte aligned, value,
 * and for a wait its flag 0..3); aclmdlRITaskDisable - leave a task of a
 * type other than DEFAULT out of later replays.  Both take effect at the
 * next aclmdlRIUpdate, which hands the changed task list to the driver
 * (replays queued before keep the old one; nothing changed: success, no
 * work).  Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) task or
 * params NULL; ACL_ERROR_RT_PARAM_INVALID (107000) not a task of a live
 * graph, a type mismatch or another task type, bad devAddr or flag, a
 * DEFAULT task disabled (these leave the graph faulty: aclmdlRIUpdate then
 * fails with ACL_ERROR_RT_MODEL_UPDATE_FAILED (107040)); aclmdlRIUpdate:
 * ACL_ERROR_RT_PARAM_INVALID (107000) modelRI NULL or not a live graph.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params);
ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task);
/*
 * aclmdlRIAbort - drop the graph's replays that are queued or running
 * (aclmdlRIExecuteAsync / aclmdlRIExecute, of every version aclmdlRIUpdate
 * made): each of their tasks completes without running (an event record
 * still counts as reached, so no wait hangs); a running copy stops at its
 * next piece.  Other work of those streams is not touched, and the call
 * does not wait.  Returns ACL_SUCCESS (also with nothing queued);
 * ACL_ERROR_RT_PARAM_INVALID (107000) modelRI NULL or not a live graph;
 * ACL_ERROR_RT_CONTEXT_NULL (107002) no current context;
 * ACL_ERROR_RT_MODEL_CONTEXT (107004) the graph is another device's;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) a sub-graph of a condition
 * task, or a module without NPU_SIM_CAP_GRAPH_POOL.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI);
/*
 * Condition tasks of captured graphs.  aclmdlRICondHandleCreate - a handle
 * of modelRI, a graph in its capture stage (aclmdlRICaptureBegin, or a sub
 * graph being captured), owning 8 bytes of device memory of the current
 * device (zeroed; a uint64); with flag ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT
 * every replay first writes defaultLaunchValue there (other flag values:
 * no write).  aclmdlRICondHandleGetCondPtr - *ptr gets that address.
 * aclmdlRIAddCondTask - on stream, capturing into the handle's graph,
 * record a condition task and make params.size empty sub graphs, written
 * to params.modelRIArray; capture each with aclmdlRICaptureToModelRIBegin
 * (then aclmdlRICaptureEnd) before the parent's capture ends, which
 * compiles them into the parent.  A replay reaching the task reads the
 * uint64: IF (size 1 or 2) runs sub graph 0 when it is not 0, else sub
 * graph 1 if any; WHILE (size 1) runs sub graph 0 while it is not 0 (read
 * before every round); SWITCH (size > 0) runs sub graph [value] when value
 * < size, else none.  A graph with condition tasks (and its sub graphs)
 * may hold memory tasks only (copies, sets, value writes, reduces, cache
 * operations): else its aclmdlRICaptureEnd fails with 207000.  Sub graphs
 * are destroyed with their parent, the handles' memory too; on their own
 * they cannot be destroyed, executed or aborted (207000).
 *
 * aclmdlRICondHandleCreate: 100000 modelRI or handle NULL; 107002 no
 * current device; 107000 modelRI not a live graph in its capture stage;
 * ACL_ERROR_RT_MODEL_CONTEXT (107004) the graph is of another device than
 * the current one; the codes of aclrtMalloc for the 8 bytes.
 * aclmdlRICondHandleGetCondPtr: 100000 handle or ptr NULL; 107000 handle
 * not live.  aclmdlRIAddCondTask (flags reserved, not checked): 100000
 * stream NULL, params.modelRIArray NULL (after the other checks); 107000
 * stream not live, params.handle not a live handle or used by a condition
 * task already; 107003 stream of another context;
 * ACL_ERROR_RT_STREAM_NOT_CAPTURED (107029) stream not capturing; 107000
 * the stream captures into another graph than the handle's, params.type
 * outside the enum or params.size not fitting it; 207001.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                                      aclmdlRICondHandleFlag flag, aclmdlRICondHandle *handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr);
ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags);
/*
 * aclmdlRICaptureToModelRIBegin - as aclmdlRICaptureBegin, the tasks going
 * into modelRI, which must be a never-captured sub-graph of a condition
 * task (aclmdlRIAddCondTask); aclmdlRICaptureEnd then fills it (its
 * modelRI argument may be NULL, else gets the sub-graph).  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) stream or modelRI NULL;
 * ACL_ERROR_RT_INVALID_HANDLE (107017) not a live stream;
 * ACL_ERROR_RT_PARAM_INVALID (107000) mode outside the enum, modelRI not a
 * live graph or not such a sub-graph;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) module without graphs;
 * ACL_ERROR_RT_MODEL_CONTEXT (107004) modelRI is another device's;
 * ACL_ERROR_RT_MODEL_CAPTURED (107026) modelRI was captured already;
 * ACL_ERROR_RT_STREAM_CAPTURED (107027) the stream is capturing or bound
 * to a model being built (aclmdlRIBindStream);
 * ACL_ERROR_RT_MEMORY_ALLOCATION (207001).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                                           aclmdlRICaptureMode mode);

/*
 * Labels.  aclrtCreateLabel - a new label (65535 per process at most);
 * aclrtCreateLabelList - a list of num labels (each label must be in a
 * list before it is set); aclrtSetLabel - set label, once, on stream (bound
 * to a model being built): it marks the position of the stream's next
 * task; aclrtSwitchLabelByIndex - queue on stream (bound to a model being
 * built) a task that, when a replay reaches it, reads the uint32 index at
 * ptr (device memory, 4-byte aligned) and goes on at the label
 * labelList[index] (an index >= maxValue: labelList[maxValue - 1]),
 * leaving the rest of its own stream; the labels must be set on streams of
 * the same model by aclmdlRIBuildEnd.  Destroying a label or list later
 * changes no model.
 *
 * aclrtCreateLabel: 100000 label NULL; 107002 no current device; 507000
 * 65535 labels live; 207001.  aclrtDestroyLabel: 100000 NULL; 107000 not
 * a live label.  aclrtCreateLabelList: 100000 labels or labelList NULL;
 * 107000 num 0 or > 65535, a label not live; 207001.
 * aclrtDestroyLabelList: 100000 NULL; 107000 not a live list.
 * aclrtSetLabel: 100000 label or stream NULL; 107017 stream not live;
 * 107000 label not live; 107003 stream of another context; 107005 stream not bound to a
 * model being built; ACL_ERROR_RT_INTERNAL_ERROR (507000) label set
 * already (on this or another stream), label in no list; 207001.
 * aclrtSwitchLabelByIndex: 100000 ptr, labelList or stream NULL; 107000
 * ptr not 4-byte aligned, labelList not live, maxValue 0
 * or above the list's length, ptr not device memory of stream's device;
 * 107017 stream not live; 107003; 107005 stream not bound to a model being built; 207001.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label);
ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label);
ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList);
ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_RT_H */
