/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the executorch-ascend authors. */
/* Fake CANN (tests/abi_check): the runtime part. */
#ifndef FAKE_CANN_ACL_RT_H_
#define FAKE_CANN_ACL_RT_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST,
  ACL_MEM_MALLOC_HUGE_ONLY,
  ACL_MEM_MALLOC_NORMAL_ONLY,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
  ACL_MEM_MALLOC_HUGE1G_ONLY,
  ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
} aclrtMemMallocPolicy;

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
  ACL_MEMCPY_DEFAULT,
  ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
  ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;

typedef enum aclrtRunMode {
  ACL_DEVICE,
  ACL_HOST,
} aclrtRunMode;

typedef enum aclrtMemAttr {
  ACL_DDR_MEM,
  ACL_HBM_MEM,
  ACL_DDR_MEM_HUGE,
  ACL_DDR_MEM_NORMAL,
  ACL_HBM_MEM_HUGE,
  ACL_HBM_MEM_NORMAL,
} aclrtMemAttr;

FAKE_ACL_EXPORT const char *aclrtGetSocName(void);
FAKE_ACL_EXPORT aclError aclrtSetDevice(int32_t);
FAKE_ACL_EXPORT aclError aclrtResetDevice(int32_t);
FAKE_ACL_EXPORT aclError aclrtGetDevice(int32_t *);
FAKE_ACL_EXPORT aclError aclrtGetDeviceCount(uint32_t *);
FAKE_ACL_EXPORT aclError aclrtCreateContext(aclrtContext *, int32_t);
FAKE_ACL_EXPORT aclError aclrtDestroyContext(aclrtContext);
FAKE_ACL_EXPORT aclError aclrtSetCurrentContext(aclrtContext);
FAKE_ACL_EXPORT aclError aclrtGetCurrentContext(aclrtContext *);
FAKE_ACL_EXPORT aclError aclrtCreateStream(aclrtStream *);
FAKE_ACL_EXPORT aclError aclrtDestroyStream(aclrtStream);
FAKE_ACL_EXPORT aclError aclrtSynchronizeStream(aclrtStream);
FAKE_ACL_EXPORT aclError aclrtGetRunMode(aclrtRunMode *);
FAKE_ACL_EXPORT aclError aclrtMalloc(void **, size_t, aclrtMemMallocPolicy);
FAKE_ACL_EXPORT aclError aclrtFree(void *);
FAKE_ACL_EXPORT aclError aclrtMallocHost(void **, size_t);
FAKE_ACL_EXPORT aclError aclrtFreeHost(void *);
FAKE_ACL_EXPORT aclError aclrtMemcpy(void *, size_t, const void *, size_t, aclrtMemcpyKind);
FAKE_ACL_EXPORT aclError aclrtMemset(void *, size_t, int32_t, size_t);
FAKE_ACL_EXPORT aclError aclrtMemcpyAsync(void *, size_t, const void *, size_t, aclrtMemcpyKind,
                                          aclrtStream);
FAKE_ACL_EXPORT aclError aclrtGetMemInfo(aclrtMemAttr, size_t *, size_t *);
/* CANN has many more than we declare. */
FAKE_ACL_EXPORT aclError aclrtSynchronizeDevice(void);

#ifdef __cplusplus
}
#endif

#endif
