/*
 * npu_sim: AscendCL base types, generic error codes and the calls of the
 * runtime's base chapter (data buffers, the SoC name).
 *
 * Names, values and prototypes are those of the CANN header
 * acl/acl_base_rt.h, which (like this one) stands alone: it includes no
 * other acl header.  acl_base.h adds the error-code headers.
 */
#ifndef NPU_SIM_ACL_BASE_RT_H
#define NPU_SIM_ACL_BASE_RT_H

#include <stddef.h>
#include <stdint.h>

#ifndef ACL_FUNC_VISIBILITY
#if defined(_MSC_VER)
#define ACL_FUNC_VISIBILITY _declspec(dllexport)
#else
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif
#endif

#ifdef __GNUC__
#define ACL_DEPRECATED __attribute__((deprecated))
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#else
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#endif

/* Layout checks usable from both C and C++ (not part of the CANN API). */
#ifdef __cplusplus
#define ACL_SIM_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define ACL_SIM_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;
typedef uint16_t aclFloat16;
typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef struct aclDataBuffer aclDataBuffer;	/* opaque */
/* Handles of chapters that need device compute (model tasks, notifies,
 * labels, task groups) or that npu_sim does not have yet (buffers,
 * allocators): declared so that code naming them compiles. */
typedef void *aclmdlRITask;
typedef void *aclrtNotify;
typedef void *aclrtCntNotify;
typedef void *aclrtLabel;
typedef void *aclrtLabelList;
typedef void *aclrtMbuf;
typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;
typedef void *aclrtTaskGrp;

/* Generic ACL codes; the ACL layer's own argument checks return these. */
static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_NONE = 0; /* deprecated alias of ACL_SUCCESS */

static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_WRITE_FILE = 100004;
static const int ACL_ERROR_INVALID_FILE_SIZE = 100005;
static const int ACL_ERROR_PARSE_FILE = 100006;
static const int ACL_ERROR_FILE_MISSING_ATTR = 100007;
static const int ACL_ERROR_FILE_ATTR_INVALID = 100008;
static const int ACL_ERROR_INVALID_DUMP_CONFIG = 100009;
static const int ACL_ERROR_INVALID_PROFILING_CONFIG = 100010;
static const int ACL_ERROR_INVALID_MODEL_ID = 100011;
static const int ACL_ERROR_DESERIALIZE_MODEL = 100012;
static const int ACL_ERROR_PARSE_MODEL = 100013;
static const int ACL_ERROR_READ_MODEL_FAILURE = 100014;
static const int ACL_ERROR_MODEL_SIZE_INVALID = 100015;
static const int ACL_ERROR_MODEL_MISSING_ATTR = 100016;
static const int ACL_ERROR_MODEL_INPUT_NOT_MATCH = 100017;
static const int ACL_ERROR_MODEL_OUTPUT_NOT_MATCH = 100018;
static const int ACL_ERROR_MODEL_NOT_DYNAMIC = 100019;
static const int ACL_ERROR_OP_TYPE_NOT_MATCH = 100020;
static const int ACL_ERROR_OP_INPUT_NOT_MATCH = 100021;
static const int ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022;
static const int ACL_ERROR_OP_ATTR_NOT_MATCH = 100023;
static const int ACL_ERROR_OP_NOT_FOUND = 100024;
static const int ACL_ERROR_OP_LOAD_FAILED = 100025;
static const int ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026;
static const int ACL_ERROR_FORMAT_NOT_MATCH = 100027;
static const int ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED = 100028;
static const int ACL_ERROR_KERNEL_NOT_FOUND = 100029;
static const int ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED = 100030;
static const int ACL_ERROR_KERNEL_ALREADY_REGISTERED = 100031;
static const int ACL_ERROR_INVALID_QUEUE_ID = 100032;
static const int ACL_ERROR_REPEAT_SUBSCRIBE = 100033;
static const int ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034;
static const int ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035;
static const int ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_NOT_STATIC_AIPP = 100038;
static const int ACL_ERROR_COMPILING_STUB_MODE = 100039;
static const int ACL_ERROR_GROUP_NOT_SET = 100040;
static const int ACL_ERROR_GROUP_NOT_CREATE = 100041;
static const int ACL_ERROR_PROF_ALREADY_RUN = 100042;
static const int ACL_ERROR_PROF_NOT_RUN = 100043;
static const int ACL_ERROR_DUMP_ALREADY_RUN = 100044;
static const int ACL_ERROR_DUMP_NOT_RUN = 100045;
static const int ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046;
static const int ACL_ERROR_PROF_API_CONFLICT = 148047;
static const int ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG = 148048;
static const int ACL_ERROR_INVALID_OPP_PATH = 148049;
static const int ACL_ERROR_OP_UNSUPPORTED_DYNAMIC = 148050;
static const int ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED = 148051;
static const int ACL_ERROR_UNSUPPORTED_JPEG = 148052;
static const int ACL_ERROR_INVALID_BUNDLE_MODEL_ID = 148053;

static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
static const int ACL_ERROR_RESOURCE_NOT_MATCH = 200004;
static const int ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;
static const int ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007;

static const int ACL_ERROR_STORAGE_OVER_LIMIT = 300000;

static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;
static const int ACL_ERROR_GE_FAILURE = 500002;
static const int ACL_ERROR_RT_FAILURE = 500003;
static const int ACL_ERROR_DRV_FAILURE = 500004;
static const int ACL_ERROR_PROFILING_FAILURE = 500005;

/* Element types of tensors and buffers. */
typedef enum {
	ACL_DT_UNDEFINED = -1,
	ACL_FLOAT = 0,
	ACL_FLOAT16 = 1,
	ACL_INT8 = 2,
	ACL_INT32 = 3,
	ACL_UINT8 = 4,
	ACL_INT16 = 6,
	ACL_UINT16 = 7,
	ACL_UINT32 = 8,
	ACL_INT64 = 9,
	ACL_UINT64 = 10,
	ACL_DOUBLE = 11,
	ACL_BOOL = 12,
	ACL_STRING = 13,
	ACL_COMPLEX64 = 16,
	ACL_COMPLEX128 = 17,
	ACL_BF16 = 27,
	ACL_INT4 = 29,
	ACL_UINT1 = 30,
	ACL_COMPLEX32 = 33,
	ACL_HIFLOAT8 = 34,
	ACL_FLOAT8_E5M2 = 35,
	ACL_FLOAT8_E4M3FN = 36,
	ACL_FLOAT8_E8M0 = 37,
	ACL_FLOAT6_E3M2 = 38,
	ACL_FLOAT6_E2M3 = 39,
	ACL_FLOAT4_E2M1 = 40,
	ACL_FLOAT4_E1M2 = 41,
} aclDataType;

/* Memory layouts of tensors (used by the operator API, not by npu_sim). */
typedef enum {
	ACL_FORMAT_UNDEFINED = -1,
	ACL_FORMAT_NCHW = 0,
	ACL_FORMAT_NHWC = 1,
	ACL_FORMAT_ND = 2,
	ACL_FORMAT_NC1HWC0 = 3,
	ACL_FORMAT_FRACTAL_Z = 4,
	ACL_FORMAT_NC1HWC0_C04 = 12,
	ACL_FORMAT_HWCN = 16,
	ACL_FORMAT_NDHWC = 27,
	ACL_FORMAT_FRACTAL_NZ = 29,
	ACL_FORMAT_NCDHW = 30,
	ACL_FORMAT_NDC1HWC0 = 32,
	ACL_FRACTAL_Z_3D = 33,
	ACL_FORMAT_NC = 35,
	ACL_FORMAT_NCL = 47,
	ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
	ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
	ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
	ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
	ACL_FORMAT_FRACTAL_NZ_C0_8 = 54,
} aclFormat;

typedef enum {
	ACL_DEBUG = 0,
	ACL_INFO = 1,
	ACL_WARNING = 2,
	ACL_ERROR = 3,
} aclLogLevel;

typedef enum {
	ACL_MEMTYPE_DEVICE = 0,
	ACL_MEMTYPE_HOST = 1,
	ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT = 2,
} aclMemType;

/* ACL_OPT_DETERMINISTIC takes 0 (off), 1 (deterministic), 2 (strong
 * consistency) or 3 (batch consistency). */
typedef enum {
	ACL_OPT_DETERMINISTIC = 0,
	ACL_OPT_ENABLE_DEBUG_KERNEL = 1,
	ACL_OPT_STRONG_CONSISTENCY ACL_DEPRECATED_MESSAGE(
		"ACL_OPT_STRONG_CONSISTENCY is deprecated, use ACL_OPT_DETERMINISTIC with value 2 instead") = 2,
	ACL_OPT_ENABLE_KERNEL_EARLY_START = 3,
} aclSysParamOpt;

typedef enum {
	ACL_CANN_ATTR_UNDEFINED = -1,
	ACL_CANN_ATTR_INF_NAN = 0,
	ACL_CANN_ATTR_BF16 = 1,
	ACL_CANN_ATTR_JIT_COMPILE = 2,
} aclCannAttr;

typedef enum {
	ACL_DEVICE_INFO_UNDEFINED = -1,
	ACL_DEVICE_INFO_AI_CORE_NUM = 0,
	ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
	ACL_DEVICE_INFO_L2_SIZE = 2,
} aclDeviceInfo;

/* ------------------------------------------------------------------------
 * Data buffers: a descriptor of memory the caller owns (its address and
 * size in bytes).  Creating, updating or destroying a descriptor never
 * allocates or frees the memory it names; the address may be device or
 * host memory, or NULL.  A destroyed (or never created) descriptor is
 * refused by every call below.
 * ---------------------------------------------------------------------- */

/*
 * aclCreateDataBuffer - a new descriptor of [data, data + size).  Any
 * data (NULL included) and any size (0 included) are accepted.  Returns
 * the descriptor, or NULL when the host is out of memory
 * (aclGetRecentErrMsg then says so).
 */
ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);

/*
 * aclDestroyDataBuffer - free the descriptor (not the memory it names).
 * Returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (100000) dataBuffer is NULL
 * or not a live descriptor (destroyed already, or never created).
 */
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);

/*
 * aclUpdateDataBuffer - make the descriptor name [data, data + size)
 * instead (the old memory is not freed).  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) dataBuffer is NULL or not a live
 * descriptor; the descriptor is then unchanged.
 */
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size);

/* aclGetDataBufferAddr - the address the descriptor names; NULL when
 * dataBuffer is NULL or not a live descriptor. */
ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);

/* aclGetDataBufferSize - the size in bytes, truncated to 32 bits;
 * 0 when dataBuffer is NULL or not a live descriptor.  Deprecated: use
 * aclGetDataBufferSizeV2. */
ACL_DEPRECATED_MESSAGE("aclGetDataBufferSize is deprecated, use aclGetDataBufferSizeV2 instead")
ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer);

/* aclGetDataBufferSizeV2 - the size in bytes; 0 when dataBuffer is NULL
 * or not a live descriptor. */
ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);

/*
 * aclDataTypeSize - bytes of one element of dataType: 0 for ACL_STRING and
 * ACL_DT_UNDEFINED; 1 for the 1-bit, 4-bit (a byte each) and 8-bit types;
 * 2 for ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_UINT16; 4 for ACL_FLOAT,
 * ACL_INT32, ACL_UINT32, ACL_COMPLEX32; 16 for ACL_COMPLEX128; 8 for
 * every other value, known or not (as the CANN runtime does, the 6-bit
 * and 4-bit float types included).
 */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/*
 * aclFloat16ToFloat - the IEEE half value as a float.  As in the CANN
 * runtime, the all-ones exponent is an ordinary one: +-Inf gives
 * +-65536.0, a NaN 65536.0 * (1 + mantissa / 1024) (e.g. 0x7E00 gives
 * 98304.0).
 */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

/*
 * aclFloatToFloat16 - value as an IEEE half, rounded to nearest even,
 * saturating: values beyond the half range, +-Inf and NaN give +-65504.0
 * (0x7BFF / 0xFBFF); values up to half the smallest subnormal give +-0.
 */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

/* aclrtGetSocName - the SoC version of the product the devices emulate
 * (module parameter profile=; README "Product profiles"), e.g.
 * "Ascend910B1" for the default Atlas A2 profile.  NULL when no device can
 * be opened (module not loaded).  The string is static: do not free it. */
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);

/*
 * aclAppLog - write an application line to the CANN log when logLevel is
 * at least the log level (ASCEND_GLOBAL_LOG_LEVEL, default 3 = error): to
 * standard output when ASCEND_SLOG_PRINT_TO_STDOUT=1, else appended to
 * $ASCEND_PROCESS_LOG_PATH/plog/plog-<pid>.log (default directory
 * $HOME/ascend/log/debug).  The line, with its header
 * "[LEVEL] APP(pid,name):time tid func:file:line:", is at most 1023 bytes; a
 * longer one ends in "...[truncated]".  NULL fmt, func or file: nothing.
 */
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
				   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#define ACL_APP_LOG(level, fmt, ...) aclAppLog(level, __FUNCTION__, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/*
 * aclGetCannAttributeList - the CANN attributes available here, in enum
 * order, as a static array *cannAttrList of *num entries (valid until the
 * next call); aclGetCannAttribute - *value 1 when cannAttr is available,
 * else 0.  An attribute is available when the installed runtime package
 * (ASCEND_HOME_PATH/share/info/runtime/version.info) is at least 7.1
 * (INF_NAN, BF16) or 6.4 (JIT_COMPILE).  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) a pointer NULL, cannAttr not an
 * attribute; ACL_ERROR_INTERNAL_ERROR (500000) no runtime version found.
 */
ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num);
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value);

/*
 * aclGetDeviceCapability - figure deviceInfo of device deviceId from the
 * platform specification of the SoC the driver poses as: AI_CORE_NUM,
 * VECTOR_CORE_NUM (counts), L2_SIZE (bytes).  Returns ACL_SUCCESS;
 * ACL_ERROR_INVALID_PARAM (100000) value NULL, deviceId not below the
 * device count, deviceInfo not one of the three; aclrtGetDeviceCount's
 * error when no device is present.
 */
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_BASE_RT_H */
