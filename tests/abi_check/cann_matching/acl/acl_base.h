/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the executorch-ascend authors. */
/* Fake CANN (tests/abi_check): types and error codes. */
#ifndef FAKE_CANN_ACL_BASE_H_
#define FAKE_CANN_ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>

#define FAKE_ACL_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;
typedef void *aclrtStream;
typedef void *aclrtContext;
typedef struct aclDataBuffer aclDataBuffer;

static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_INVALID_MODEL_ID = 100011;
static const int ACL_ERROR_DESERIALIZE_MODEL = 100012;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_COMPILING_STUB_MODE = 100039;
static const int ACL_ERROR_PROF_ALREADY_RUN = 100042;
static const int ACL_ERROR_PROF_NOT_RUN = 100043;
static const int ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046;
static const int ACL_ERROR_PROF_API_CONFLICT = 148047;
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007;
static const int ACL_ERROR_STORAGE_OVER_LIMIT = 300000;
static const int ACL_ERROR_FAILURE = 500001;

/* The runtime's codes are macros. */
#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_STREAM_CONTEXT 107003
#define ACL_ERROR_RT_MODEL_CONTEXT 107004
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_NO_DEVICE 207004
#define ACL_ERROR_RT_MODEL_EXECUTE 507011
#define ACL_ERROR_RT_FAILURE 500003

/* The graph executor's codes are unsigned. */
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID = 145002U;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_ID_INVALID = 145003U;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID = 145006U;
static const uint32_t ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID = 145011U;
static const uint32_t ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID = 145012U;
static const uint32_t ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID = 145013U;
static const uint32_t ACL_ERROR_GE_FAILURE = 500002U;

typedef enum {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT,
  ACL_FLOAT16,
  ACL_INT8,
  ACL_INT32,
  ACL_UINT8,
  ACL_INT16 = 6,
  ACL_UINT16,
  ACL_UINT32,
  ACL_INT64,
  ACL_UINT64,
  ACL_DOUBLE,
  ACL_BOOL,
  ACL_STRING,
  ACL_COMPLEX64 = 16,
  ACL_COMPLEX128,
  ACL_BF16 = 27,
} aclDataType;

typedef enum {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW,
  ACL_FORMAT_NHWC,
  ACL_FORMAT_ND,
  ACL_FORMAT_NC1HWC0,
  ACL_FORMAT_FRACTAL_Z,
  ACL_FORMAT_NCDHW = 30,
} aclFormat;

FAKE_ACL_EXPORT aclError aclInit(const char *);
FAKE_ACL_EXPORT aclError aclFinalize(void);
FAKE_ACL_EXPORT const char *aclGetRecentErrMsg(void);
FAKE_ACL_EXPORT aclDataBuffer *aclCreateDataBuffer(void *, size_t);
FAKE_ACL_EXPORT aclError aclDestroyDataBuffer(const aclDataBuffer *);
FAKE_ACL_EXPORT aclError aclUpdateDataBuffer(aclDataBuffer *, void *, size_t);
FAKE_ACL_EXPORT void *aclGetDataBufferAddr(const aclDataBuffer *);
FAKE_ACL_EXPORT size_t aclGetDataBufferSizeV2(const aclDataBuffer *);

#ifdef __cplusplus
}
#endif

#endif
