/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the executorch-ascend authors. */
/* Fake CANN (tests/abi_check): the profiling API, hand-written from the documented AscendCL
 * profiling reference (not from CANN's headers), in the forms CANN uses: 0x...ULL macros for
 * the data types, an export macro before each function. Agrees with acl/acl_api.h. */
#ifndef FAKE_CANN_ACL_PROF_H_
#define FAKE_CANN_ACL_PROF_H_

#include "acl_base.h"

#define FAKE_PROF_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL

typedef enum {
    ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
    ACL_AICORE_PIPE_UTILIZATION = 1,
    ACL_AICORE_MEMORY_BANDWIDTH = 2,
    ACL_AICORE_L0B_AND_WIDTH = 3,
    ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
    ACL_AICORE_MEMORY_UB = 5,
    ACL_AICORE_L2_CACHE = 6,
    ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;

FAKE_PROF_EXPORT aclError aclprofInit(const char *, size_t);
FAKE_PROF_EXPORT aclError aclprofFinalize();
FAKE_PROF_EXPORT aclprofConfig *aclprofCreateConfig(uint32_t *, uint32_t, aclprofAicoreMetrics,
                                                    const aclprofAicoreEvents *, uint64_t);
FAKE_PROF_EXPORT aclError aclprofDestroyConfig(const aclprofConfig *);
FAKE_PROF_EXPORT aclError aclprofStart(const aclprofConfig *);
FAKE_PROF_EXPORT aclError aclprofStop(const aclprofConfig *);
FAKE_PROF_EXPORT aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t, aclprofAicoreMetrics,
                                                                      void *);
FAKE_PROF_EXPORT aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *);
FAKE_PROF_EXPORT aclError aclprofModelSubscribe(uint32_t, const aclprofSubscribeConfig *);
FAKE_PROF_EXPORT aclError aclprofModelUnSubscribe(uint32_t);
FAKE_PROF_EXPORT aclError aclprofGetOpDescSize(size_t *);
FAKE_PROF_EXPORT aclError aclprofGetOpNum(const void *, size_t, uint32_t *);
FAKE_PROF_EXPORT aclError aclprofGetOpTypeLen(const void *, size_t, uint32_t, size_t *);
FAKE_PROF_EXPORT aclError aclprofGetOpType(const void *, size_t, uint32_t, char *, size_t);
FAKE_PROF_EXPORT aclError aclprofGetOpNameLen(const void *, size_t, uint32_t, size_t *);
FAKE_PROF_EXPORT aclError aclprofGetOpName(const void *, size_t, uint32_t, char *, size_t);
FAKE_PROF_EXPORT uint64_t aclprofGetOpStart(const void *, size_t, uint32_t);
FAKE_PROF_EXPORT uint64_t aclprofGetOpEnd(const void *, size_t, uint32_t);
FAKE_PROF_EXPORT uint64_t aclprofGetOpDuration(const void *, size_t, uint32_t);
FAKE_PROF_EXPORT size_t aclprofGetModelId(const void *, size_t, uint32_t);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
