/*
 * How the backend tells the project's CANN emulator apart from real CANN.
 * Shared by the backend runtime and the emulator so the two cannot drift.
 *
 *  - The emulator's libascendcl.so exports one extra C symbol,
 *    EXECUTORCH_ASCEND_EMULATOR_SYMBOL, which real CANN never has.
 *  - The emulator's .om files begin with EXECUTORCH_ASCEND_EMU_OM_MAGIC
 *    (docs/om-format.md). Real CANN cannot run them, and the emulator runs
 *    nothing else.
 */
#ifndef EXECUTORCH_ASCEND_EMULATOR_IDS_H_
#define EXECUTORCH_ASCEND_EMULATOR_IDS_H_

#include <stddef.h>
#include <stdint.h>

/* 8 bytes at offset 0 of every emulator .om. */
#define EXECUTORCH_ASCEND_EMU_OM_MAGIC "AEMU.OM\0"
#define EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE 8

/* Extra symbol exported by the emulator's libascendcl.so:
 *   const char* aclEmuVersion(void);   returns e.g. "executorch-ascend-emulator 1" */
#define EXECUTORCH_ASCEND_EMULATOR_SYMBOL "aclEmuVersion"

#ifdef __cplusplus
extern "C" {
#endif

/* Emulator-only extras, exported beside the ACL subset. Tests and tools reach
 * them with dlsym; the backend itself only checks that aclEmuVersion exists. */
const char* aclEmuVersion(void);

/* Live objects and traffic counters, read by tests to prove nothing leaked. */
typedef struct aclEmuStats {
  uint64_t live_device_allocs;
  uint64_t live_device_bytes;
  uint64_t live_host_allocs;
  uint64_t live_models;
  uint64_t live_descs;
  uint64_t live_datasets;
  uint64_t live_data_buffers;
  uint64_t live_streams;
  uint64_t live_contexts;
  uint64_t bytes_host_to_device;
  uint64_t bytes_device_to_host;
  uint64_t executes;
} aclEmuStats;
int aclEmuGetStats(aclEmuStats* stats); /* ACL_SUCCESS or an ACL error code */

/* Fault injection: the ACL function named `function` (e.g. "aclrtMalloc")
 * succeeds `after` more times, then fails with `error` on every call until
 * cleared with function == NULL. Also settable at aclInit through
 * EXECUTORCH_ASCEND_EMU_FAULT="aclrtMalloc:2:207001". */
int aclEmuInjectFault(const char* function, int after, int error);

typedef const char* (*aclEmuVersionFn)(void);
typedef int (*aclEmuGetStatsFn)(aclEmuStats*);
typedef int (*aclEmuInjectFaultFn)(const char*, int, int);

#ifdef __cplusplus
}
#endif

#endif  // EXECUTORCH_ASCEND_EMULATOR_IDS_H_
