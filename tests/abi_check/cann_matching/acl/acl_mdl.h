/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the executorch-ascend authors. */
/* Fake CANN (tests/abi_check): the model part. */
#ifndef FAKE_CANN_ACL_MDL_H_
#define FAKE_CANN_ACL_MDL_H_

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128
#define ACL_MAX_BATCH_NUM 128
#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4
#define ACL_MDL_LOAD_FROM_FILE_WITH_Q 5
#define ACL_MDL_LOAD_FROM_MEM_WITH_Q 6
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"
#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF

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

typedef struct aclmdlIODims {
  char name[ACL_MAX_TENSOR_NAME_LEN];
  size_t dimCount;
  int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

typedef struct aclmdlBatch {
  size_t batchCount;
  uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

typedef enum {
  ACL_MDL_PRIORITY_INT32,
  ACL_MDL_LOAD_TYPE_SIZET,
  ACL_MDL_PATH_PTR,
  ACL_MDL_MEM_ADDR_PTR,
  ACL_MDL_MEM_SIZET,
  ACL_MDL_WEIGHT_ADDR_PTR,
  ACL_MDL_WEIGHT_SIZET,
  ACL_MDL_WORKSPACE_ADDR_PTR,
  ACL_MDL_WORKSPACE_SIZET,
  ACL_MDL_INPUTQ_NUM_SIZET,
  ACL_MDL_INPUTQ_ADDR_PTR,
  ACL_MDL_OUTPUTQ_NUM_SIZET,
  ACL_MDL_OUTPUTQ_ADDR_PTR,
  ACL_MDL_WORKSPACE_MEM_OPTIMIZE,
  ACL_MDL_WEIGHT_PATH_PTR,
  ACL_MDL_MODEL_DESC_PTR,
  ACL_MDL_RESERVED = 0xFFFF,
} aclmdlConfigAttr;

FAKE_ACL_EXPORT aclmdlDataset *aclmdlCreateDataset(void);
FAKE_ACL_EXPORT aclError aclmdlDestroyDataset(const aclmdlDataset *);
FAKE_ACL_EXPORT aclError aclmdlAddDatasetBuffer(aclmdlDataset *, aclDataBuffer *);
FAKE_ACL_EXPORT aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *, size_t);
FAKE_ACL_EXPORT size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *);
FAKE_ACL_EXPORT aclError aclmdlLoadFromFile(const char *, uint32_t *);
FAKE_ACL_EXPORT aclError aclmdlLoadFromMem(const void *, size_t, uint32_t *);
FAKE_ACL_EXPORT aclError aclmdlQuerySizeFromMem(const void *, size_t, size_t *, size_t *);
FAKE_ACL_EXPORT aclError aclmdlLoadFromMemWithMem(const void *, size_t, uint32_t *, void *, size_t,
                                                  void *, size_t);
FAKE_ACL_EXPORT aclmdlConfigHandle *aclmdlCreateConfigHandle(void);
FAKE_ACL_EXPORT aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *);
FAKE_ACL_EXPORT aclError aclmdlSetConfigOpt(aclmdlConfigHandle *, aclmdlConfigAttr, const void *,
                                            size_t);
FAKE_ACL_EXPORT aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle *, const char *, void *,
                                                        size_t);
FAKE_ACL_EXPORT aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *, uint32_t *);
FAKE_ACL_EXPORT aclError aclmdlUnload(uint32_t);
FAKE_ACL_EXPORT aclmdlDesc *aclmdlCreateDesc(void);
FAKE_ACL_EXPORT aclError aclmdlDestroyDesc(aclmdlDesc *);
FAKE_ACL_EXPORT aclError aclmdlGetDesc(aclmdlDesc *, uint32_t);
FAKE_ACL_EXPORT size_t aclmdlGetNumInputs(aclmdlDesc *);
FAKE_ACL_EXPORT size_t aclmdlGetNumOutputs(aclmdlDesc *);
FAKE_ACL_EXPORT size_t aclmdlGetInputSizeByIndex(aclmdlDesc *, size_t);
FAKE_ACL_EXPORT size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *, size_t);
FAKE_ACL_EXPORT aclError aclmdlGetInputDims(const aclmdlDesc *, size_t, aclmdlIODims *);
FAKE_ACL_EXPORT aclError aclmdlGetInputDimsV2(const aclmdlDesc *, size_t, aclmdlIODims *);
FAKE_ACL_EXPORT aclError aclmdlGetOutputDims(const aclmdlDesc *, size_t, aclmdlIODims *);
FAKE_ACL_EXPORT aclDataType aclmdlGetInputDataType(const aclmdlDesc *, size_t);
FAKE_ACL_EXPORT aclDataType aclmdlGetOutputDataType(const aclmdlDesc *, size_t);
FAKE_ACL_EXPORT aclFormat aclmdlGetInputFormat(const aclmdlDesc *, size_t);
FAKE_ACL_EXPORT aclFormat aclmdlGetOutputFormat(const aclmdlDesc *, size_t);
FAKE_ACL_EXPORT const char *aclmdlGetInputNameByIndex(const aclmdlDesc *, size_t);
FAKE_ACL_EXPORT const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *, size_t);
FAKE_ACL_EXPORT aclError aclmdlGetInputIndexByName(const aclmdlDesc *, const char *, size_t *);
FAKE_ACL_EXPORT aclError aclmdlGetDynamicBatch(const aclmdlDesc *, aclmdlBatch *);
FAKE_ACL_EXPORT aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *, size_t, size_t *);
FAKE_ACL_EXPORT aclError aclmdlGetInputDynamicDims(const aclmdlDesc *, size_t, aclmdlIODims *,
                                                   size_t);
FAKE_ACL_EXPORT aclError aclmdlGetCurOutputDims(const aclmdlDesc *, size_t, aclmdlIODims *);
FAKE_ACL_EXPORT aclError aclmdlSetDynamicBatchSize(uint32_t, aclmdlDataset *, size_t, uint64_t);
FAKE_ACL_EXPORT aclError aclmdlSetInputDynamicDims(uint32_t, aclmdlDataset *, size_t,
                                                   const aclmdlIODims *);
FAKE_ACL_EXPORT aclmdlAIPP *aclmdlCreateAIPP(uint64_t);
FAKE_ACL_EXPORT aclError aclmdlDestroyAIPP(const aclmdlAIPP *);
FAKE_ACL_EXPORT aclError aclmdlGetAippDataSize(uint64_t, size_t *);
FAKE_ACL_EXPORT aclError aclmdlGetAippType(uint32_t, size_t, aclmdlInputAippType *, size_t *);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPInputFormat(aclmdlAIPP *, aclAippInputFormat);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPCscParams(aclmdlAIPP *, int8_t, int16_t, int16_t, int16_t,
                                                int16_t, int16_t, int16_t, int16_t, int16_t,
                                                int16_t, uint8_t, uint8_t, uint8_t, uint8_t,
                                                uint8_t, uint8_t);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP *, int8_t);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP *, int8_t);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP *, int32_t, int32_t);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPScfParams(aclmdlAIPP *, int8_t, int32_t, int32_t, int32_t,
                                                int32_t, uint64_t);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPCropParams(aclmdlAIPP *, int8_t, int32_t, int32_t, int32_t,
                                                 int32_t, uint64_t);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP *, int8_t, int32_t, int32_t,
                                                    int32_t, int32_t, uint64_t);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP *, int16_t, int16_t, int16_t,
                                                   int16_t, uint64_t);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP *, float, float, float, float,
                                                  uint64_t);
FAKE_ACL_EXPORT aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP *, float, float, float, float,
                                                   uint64_t);
FAKE_ACL_EXPORT aclError aclmdlSetInputAIPP(uint32_t, aclmdlDataset *, size_t, const aclmdlAIPP *);
FAKE_ACL_EXPORT aclError aclmdlExecute(uint32_t, const aclmdlDataset *, aclmdlDataset *);
FAKE_ACL_EXPORT aclError aclmdlExecuteAsync(uint32_t, const aclmdlDataset *, aclmdlDataset *,
                                            aclrtStream);

#ifdef __cplusplus
}
#endif

#endif
