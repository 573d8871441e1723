/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the executorch-ascend authors. */
/* A fake CANN include folder for tests/python/test_abi_check.py, hand-written from the
 * documented AscendCL API (not from CANN's headers) like ../cann_matching, in one file, but
 * wrong on purpose where a line says MISMATCH. The test expects the ABI check to name exactly
 * those items, and nothing else. */
#ifndef FAKE_CANN_MISMATCHING_ACL_H_
#define FAKE_CANN_MISMATCHING_ACL_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;
typedef void *aclrtStream;
typedef void *aclrtContext;
typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;
typedef struct aclmdlConfigHandle aclmdlConfigHandle;
typedef struct aclmdlAIPP aclmdlAIPP;
typedef enum {
  ACL_YUV420SP_U8 = 1,
  ACL_XRGB8888_U8,
  ACL_RGB888_U8,
  ACL_YUV400_U8,
  ACL_NC1HWC0DI_FP16,
  ACL_NC1HWC0DI_S8,
  ACL_ARGB8888_U8,
  ACL_YUYV_U8,
  ACL_YUV422SP_U8,
  ACL_AYUV444_U8,
  ACL_RAW10,
  ACL_RAW12,
  ACL_RAW16,
  ACL_RAW24,
  ACL_AIPP_RESERVED = 0xFFFF,
} aclAippInputFormat;
typedef enum {
  ACL_DATA_WITHOUT_AIPP = 0,
  ACL_DATA_WITH_STATIC_AIPP,
  ACL_DATA_WITH_DYNAMIC_AIPP,
  ACL_DYNAMIC_AIPP_NODE
} aclmdlInputAippType;

static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_INVALID_MODEL_ID = 100011;
static const int ACL_ERROR_DESERIALIZE_MODEL = 100012;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_PROF_ALREADY_RUN = 100042;
static const int ACL_ERROR_PROF_NOT_RUN = 100043;
static const int ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046;
static const int ACL_ERROR_PROF_API_CONFLICT = 148047;
/* MISMATCH: ACL_ERROR_COMPILING_STUB_MODE missing. */
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007;
static const int ACL_ERROR_STORAGE_OVER_LIMIT = 300000;
static const int ACL_ERROR_FAILURE = 500001;
#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107012 /* MISMATCH: 107002 */
#define ACL_ERROR_RT_STREAM_CONTEXT 107003
#define ACL_ERROR_RT_MODEL_CONTEXT 107004
#define ACL_ERROR_RT_MODEL_EXECUTE 507011
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_NO_DEVICE 207004
#define ACL_ERROR_RT_FAILURE 500003
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID = 145002U;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_ID_INVALID = 145003U;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID = 145006U;
static const uint32_t ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID = 145011U;
static const uint32_t ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID = 145012U;
static const uint32_t ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID = 145013U;
static const uint32_t ACL_ERROR_GE_FAILURE = 500002U;

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
  ACL_BF16 = 28, /* MISMATCH: 27 */
} aclDataType;

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

typedef enum aclrtRunMode {
  ACL_DEVICE,
  ACL_HOST,
} aclrtRunMode;

typedef enum {
  ACL_DDR_MEM = 0,
  ACL_HBM_MEM = 1,
  ACL_DDR_MEM_HUGE = 2,
  ACL_DDR_MEM_NORMAL = 3,
  ACL_HBM_MEM_HUGE = 4,
  ACL_HBM_MEM_NORMAL = 5,
  ACL_MEM_ATTR_WIDE = 0x100000000LL, /* MISMATCH: the enum becomes 8 bytes */
} aclrtMemAttr;

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

#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4
#define ACL_MDL_LOAD_FROM_FILE_WITH_Q 5
#define ACL_MDL_LOAD_FROM_MEM_WITH_Q 7 /* MISMATCH: 6 */
#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128
#define ACL_MAX_BATCH_NUM 128
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape" /* MISMATCH: ..._data */
#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF

typedef struct aclmdlIODims {
  char name[120]; /* MISMATCH: ACL_MAX_TENSOR_NAME_LEN; moves what follows */
  size_t dimCount;
  int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

typedef struct aclmdlBatch {
  uint32_t batchCount; /* MISMATCH: size_t; padding keeps the struct's size */
  uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

aclError aclInit(const char *configPath);
aclError aclFinalize(void);
const char *aclGetRecentErrMsg(void);
const char *aclrtGetSocName(void);
aclError aclrtSetDevice(uint32_t deviceId); /* MISMATCH: int32_t */
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtGetDevice(int32_t *deviceId);
aclError aclrtGetDeviceCount(uint32_t *count);
aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtSetCurrentContext(aclrtContext context);
aclError aclrtGetCurrentContext(aclrtContext *context);
aclError aclrtCreateStream(aclrtStream *stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtGetRunMode(aclrtRunMode *runMode);
aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void *devPtr);
aclError aclrtMallocHost(void **hostPtr, size_t size);
aclError aclrtFreeHost(void *hostPtr);
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                     aclrtMemcpyKind kind);
aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);
aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);
aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);
aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size);
void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);
size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);
aclmdlDataset *aclmdlCreateDataset(void);
aclError aclmdlDestroyDataset(const aclmdlDataset *dataset);
aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer);
aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index);
size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset);
aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId);
aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId);
aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize, size_t *workSize,
                                size_t *weightSize);
aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId,
                                  void *workPtr, size_t workSize, void *weightPtr,
                                  size_t weightSize);
aclmdlConfigHandle *aclmdlCreateConfigHandle(void);
aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle);
aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr,
                            const void *attrValue, size_t valueSize);
aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle *handle, const char *weightFileName,
                                        void *devPtr, size_t size);
aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, uint32_t *modelId);
aclError aclmdlUnload(uint32_t modelId);
aclmdlDesc *aclmdlCreateDesc(void);
aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc);
aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId);
size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc);
size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc);
size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index);
aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index);
aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index);
aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index);
const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index);
const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index);
aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index);
aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch);
aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t index,
                                        size_t *gearCount);
aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims,
                                   size_t gearCount);
/* MISMATCH: aclmdlGetCurOutputDims missing. */
aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                   uint64_t batchSize);
aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                   const aclmdlIODims *dims);
aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize);
aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet);
aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t *size);
aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType *type,
                           size_t *dynamicAttachedDataIndex);
aclError aclmdlSetAIPPInputFormat(aclmdlAIPP *aippParmsSet, aclAippInputFormat inputFormat);
aclError aclmdlSetAIPPCscParams(aclmdlAIPP *aippParmsSet, int8_t cscSwitch, int16_t r0c0,
                                int16_t r0c1, int16_t r0c2, int16_t r1c0, int16_t r1c1,
                                int16_t r1c2, int16_t r2c0, int16_t r2c1, int16_t r2c2,
                                uint8_t ob0, uint8_t ob1, uint8_t ob2, uint8_t ib0, uint8_t ib1,
                                uint8_t ib2);
aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t rbuvSwapSwitch);
aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t axSwapSwitch);
aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP *aippParmsSet, int32_t w, int32_t h);
aclError aclmdlSetAIPPScfParams(aclmdlAIPP *aippParmsSet, int8_t scfSwitch, int32_t inW,
                                int32_t inH, int32_t outW, int32_t outH, uint64_t batchIndex);
aclError aclmdlSetAIPPCropParams(aclmdlAIPP *aippParmsSet, int8_t cropSwitch, int32_t x,
                                 int32_t y, int32_t w, int32_t h, uint64_t batchIndex);
aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP *aippParmsSet, int8_t paddingSwitch, int32_t top,
                                    int32_t bottom, int32_t left, int32_t right,
                                    uint64_t batchIndex);
aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP *aippParmsSet, int16_t m0, int16_t m1, int16_t m2,
                                   int16_t m3, uint64_t batchIndex);
aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP *aippParmsSet, float m0, float m1, float m2,
                                  float m3, uint64_t batchIndex);
aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP *aippParmsSet, float v0, float v1, float v2,
                                   float v3, uint64_t batchIndex);
aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                            const aclmdlAIPP *aippParmsSet);
aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output);
aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
