/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the executorch-ascend authors. */
/*
 * Our own declarations of the documented AscendCL (ACL) C API subset that
 * executorch-ascend uses: the types and codes here, the functions in
 * acl_functions.def. Written from Huawei's public API documentation (names,
 * signatures and numeric values are facts of the ABI); no CANN header is
 * copied or needed. See docs/architecture.md.
 *
 * Two users:
 *  - the backend runtime never links ACL: it takes the function pointer types
 *    from these prototypes (decltype(&aclInit)) and fills a table with dlsym;
 *  - the CANN emulator implements exactly these prototypes, so its
 *    libascendcl.so has the same C ABI as the real one.
 */
#ifndef EXECUTORCH_ASCEND_ACL_API_H_
#define EXECUTORCH_ASCEND_ACL_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;

/* Opaque handles (the real library defines these as incomplete structs or
 * void*). */
typedef void* aclrtContext;
typedef void* aclrtStream;
typedef struct aclmdlDesc aclmdlDesc;
typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclmdlConfigHandle aclmdlConfigHandle;
/* Dynamic AIPP's parameters (acl_mdl.h: aclmdlCreateAIPP .. aclmdlDestroyAIPP).
 */
typedef struct aclmdlAIPP aclmdlAIPP;
/* Profiling handles (acl_prof.h, implemented by CANN's libmsprofiler.so). */
typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;

/* Error codes (ACL "acl_base" error list and runtime "rt_error_codes"). */
enum {
  ACL_SUCCESS = 0,
  ACL_ERROR_INVALID_PARAM = 100000,
  ACL_ERROR_UNINITIALIZE = 100001,
  ACL_ERROR_REPEAT_INITIALIZE = 100002,
  ACL_ERROR_INVALID_FILE = 100003,
  ACL_ERROR_INVALID_MODEL_ID = 100011,
  ACL_ERROR_DESERIALIZE_MODEL = 100012,
  ACL_ERROR_REPEAT_FINALIZE = 100037,
  ACL_ERROR_COMPILING_STUB_MODE = 100039,
  /* Profiling (acl_base.h): aclprofInit twice or a second way of profiling,
   * aclprofStart/Stop/Finalize without aclprofInit, a model subscribed twice,
   * subscription calls mixed with aclprofInit..aclprofFinalize. */
  ACL_ERROR_PROF_ALREADY_RUN = 100042,
  ACL_ERROR_PROF_NOT_RUN = 100043,
  ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046,
  ACL_ERROR_PROF_API_CONFLICT = 148047,
  /* rt_error_codes.h: what the runtime returns for device, context and
   * stream mistakes (hicann/runtime errcode_manage.cc maps them). */
  ACL_ERROR_RT_PARAM_INVALID = 107000,
  ACL_ERROR_RT_INVALID_DEVICEID = 107001,
  ACL_ERROR_RT_CONTEXT_NULL = 107002,
  ACL_ERROR_RT_STREAM_CONTEXT = 107003,
  ACL_ERROR_RT_MODEL_CONTEXT = 107004,
  /* What aclrtSynchronizeStream returns when a model run queued on the
   * stream failed (hicann/runtime errcode_manage.cc: "the model stream
   * execute failed"). */
  ACL_ERROR_RT_MODEL_EXECUTE = 507011,
  /* ge_error_codes.h: what model load and execute return (the graph
   * executor's codes pass through aclmdl* unchanged). */
  ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID = 145002,
  ACL_ERROR_GE_EXEC_MODEL_ID_INVALID = 145003,
  ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID = 145006,
  /* ge_error_codes.h: shape gears (aclmdlSetDynamicBatchSize,
   * aclmdlSetInputDynamicDims). */
  ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID = 145011,
  ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID = 145012,
  ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID = 145013,
  ACL_ERROR_BAD_ALLOC = 200000,
  ACL_ERROR_INVALID_DEVICE = 200002,
  ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007,
  ACL_ERROR_RT_MEMORY_ALLOCATION = 207001,
  ACL_ERROR_RT_NO_DEVICE = 207004,
  ACL_ERROR_STORAGE_OVER_LIMIT = 300000,
  ACL_ERROR_FAILURE = 500001,
  ACL_ERROR_GE_FAILURE = 500002,
  ACL_ERROR_RT_FAILURE = 500003,
};

/* aclDataType (documented numeric values). */
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
} aclDataType;

/* aclFormat (documented numeric values; the subset we name). */
typedef enum {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW = 0,
  ACL_FORMAT_NHWC = 1,
  ACL_FORMAT_ND = 2,
  ACL_FORMAT_NC1HWC0 = 3,
  ACL_FORMAT_FRACTAL_Z = 4,
  ACL_FORMAT_NCDHW = 30,
} aclFormat;

typedef enum {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
  ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
  ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
} aclrtMemMallocPolicy;

typedef enum {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
  ACL_MEMCPY_DEFAULT = 4,
  ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
  ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7,
} aclrtMemcpyKind;

/* aclrtGetRunMode: where the program runs. ACL_DEVICE: on the board's own
 * cores (RC mode, Atlas 200I/500 A2: host and device share one memory);
 * ACL_HOST: on a host with the NPU behind PCIe (EP mode). */
typedef enum {
  ACL_DEVICE = 0,
  ACL_HOST = 1,
} aclrtRunMode;

/* aclrtMemAttr: which device memory aclrtGetMemInfo reports. */
typedef enum {
  ACL_DDR_MEM = 0,
  ACL_HBM_MEM = 1,
  ACL_DDR_MEM_HUGE = 2,
  ACL_DDR_MEM_NORMAL = 3,
  ACL_HBM_MEM_HUGE = 4,
  ACL_HBM_MEM_NORMAL = 5,
} aclrtMemAttr;

/* aclmdlConfigAttr: what aclmdlSetConfigOpt sets on a config handle (numbered
 * from 0 in CANN's acl_mdl.h; a pointer value is passed by the address of the
 * pointer, a size_t or int32_t by its address). */
typedef enum {
  ACL_MDL_PRIORITY_INT32 = 0,
  ACL_MDL_LOAD_TYPE_SIZET = 1,
  ACL_MDL_PATH_PTR = 2,
  ACL_MDL_MEM_ADDR_PTR = 3,
  ACL_MDL_MEM_SIZET = 4,
  ACL_MDL_WEIGHT_ADDR_PTR = 5,
  ACL_MDL_WEIGHT_SIZET = 6,
  ACL_MDL_WORKSPACE_ADDR_PTR = 7,
  ACL_MDL_WORKSPACE_SIZET = 8,
  ACL_MDL_INPUTQ_NUM_SIZET = 9,
  ACL_MDL_INPUTQ_ADDR_PTR = 10,
  ACL_MDL_OUTPUTQ_NUM_SIZET = 11,
  ACL_MDL_OUTPUTQ_ADDR_PTR = 12,
  ACL_MDL_WORKSPACE_MEM_OPTIMIZE = 13,
  ACL_MDL_WEIGHT_PATH_PTR = 14,
  ACL_MDL_MODEL_DESC_PTR = 15,
  ACL_MDL_RESERVED = 0xFFFF,
} aclmdlConfigAttr;

/* Values of ACL_MDL_LOAD_TYPE_SIZET. */
#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4
#define ACL_MDL_LOAD_FROM_FILE_WITH_Q 5
#define ACL_MDL_LOAD_FROM_MEM_WITH_Q 6

/* Device memory bound with aclmdlSetExternalWeightAddress must have a size
 * that is a multiple of this. The name is ours: CANN's acl_mdl.h states the
 * 32-byte alignment in prose and defines no constant (abi-check: not in CANN,
 * so tools/abi_check lists it instead of checking it). */
#define ACL_EXTERNAL_WEIGHT_SIZE_ALIGNMENT 32

#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128
typedef struct aclmdlIODims {
  char name[ACL_MAX_TENSOR_NAME_LEN];
  size_t dimCount;
  int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

/* Shape gears (acl_mdl.h): a model compiled with atc --dynamic_batch_size or
 * --dynamic_dims has one more input, last, of this name, whose buffer
 * aclmdlSetDynamicBatchSize / aclmdlSetInputDynamicDims fill. */
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"
#define ACL_MAX_BATCH_NUM 128
typedef struct aclmdlBatch {
  size_t batchCount;
  uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

/* Dynamic AIPP (acl_mdl.h; docs/aipp.md): a model compiled with an AIPP config
 * of aipp_mode dynamic has an extra input of this name, whose buffer
 * aclmdlSetInputAIPP fills with the parameters of the next execute. */
#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"
/* aclmdlGetAippType's attached index when an input has no dynamic AIPP. */
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF
/* aclAippInputFormat (documented numeric values). */
typedef enum {
  ACL_YUV420SP_U8 = 1,
  ACL_XRGB8888_U8 = 2,
  ACL_RGB888_U8 = 3,
  ACL_YUV400_U8 = 4,
  ACL_NC1HWC0DI_FP16 = 5,
  ACL_NC1HWC0DI_S8 = 6,
  ACL_ARGB8888_U8 = 7,
  ACL_YUYV_U8 = 8,
  ACL_YUV422SP_U8 = 9,
  ACL_AYUV444_U8 = 10,
  ACL_RAW10 = 11,
  ACL_RAW12 = 12,
  ACL_RAW16 = 13,
  ACL_RAW24 = 14,
  ACL_AIPP_RESERVED = 0xFFFF,
} aclAippInputFormat;
/* aclmdlInputAippType: what aclmdlGetAippType says of a model input. */
typedef enum {
  ACL_DATA_WITHOUT_AIPP = 0,
  ACL_DATA_WITH_STATIC_AIPP = 1,
  ACL_DATA_WITH_DYNAMIC_AIPP = 2,
  ACL_DYNAMIC_AIPP_NODE = 3,
} aclmdlInputAippType;

/* Profiling (acl_prof.h). What aclprofCreateConfig's dataTypeConfig collects:
 * a bit mask of these. */
#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL

/* The AI Core counters a profiling config or a subscription samples. */
typedef enum {
  ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
  ACL_AICORE_PIPE_UTILIZATION = 1,
  ACL_AICORE_MEMORY_BANDWIDTH = 2,
  ACL_AICORE_L0B_AND_WIDTH = 3,
  ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
  ACL_AICORE_MEMORY_UB = 5,
  ACL_AICORE_L2_CACHE = 6,
  ACL_AICORE_NONE = 0xFF,
} aclprofAicoreMetrics;

/* The functions, one prototype per row of acl_functions.def. */
#define ACL_FUNCTION(ret, name, params, user, faults) ret name params;
#include "acl_functions.def"
#undef ACL_FUNCTION

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // EXECUTORCH_ASCEND_ACL_API_H_
