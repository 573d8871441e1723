/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the executorch-ascend authors. */
/*
 * The emulator-only extras of its libascendcl.so (acl_emu_extras.def): a
 * version string, live-object and traffic counters that tests read to prove
 * nothing leaked, and fault injection. For tests and tools; the backend
 * never includes this file.
 */
#ifndef ASCEND_EMU_ACL_EMU_EXTRAS_H_
#define ASCEND_EMU_ACL_EMU_EXTRAS_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Live objects and traffic counters. */
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
  /* Bytes of .om weight sections copied since aclInit: a
   * load copies its inline weights exactly once, from the model bytes to
   * device memory (the caller's weight memory or the model's own). */
  uint64_t weight_bytes_loaded;
  /* Bytes of external weight files the emulator read from a weight folder
   * into device memory it manages (files bound with
   * aclmdlSetExternalWeightAddress are read in place: 0 bytes here). */
  uint64_t weight_file_bytes_read;
} aclEmuStats;

/* The ACL objects alive in `s` (models, descriptions, datasets, data buffers,
 * device allocations, contexts): 0 when everything made was released. */
static inline uint64_t aclEmuLiveObjects(const aclEmuStats* s) {
  return s->live_models + s->live_descs + s->live_datasets +
         s->live_data_buffers + s->live_device_allocs + s->live_contexts;
}

/* aclEmuVersion() returns e.g. "executorch-ascend-emulator 1".
 * aclEmuGetStats returns ACL_SUCCESS or an ACL error code.
 * aclEmuInjectFault: the ACL function named `function` (e.g. "aclrtMalloc", a
 * FAULTS row of acl_functions.def) succeeds `after` more times, then fails
 * with `error` on every call until cleared with function == NULL. Also
 * settable at aclInit through
 * EXECUTORCH_ASCEND_EMU_FAULT="aclrtMalloc:2:207001".
 * aclEmuGetCallCount: how many times the fault-injectable function named
 * `function` has been entered since the library was loaded (calls an
 * injected fault failed included; calls before aclInit not).
 * aclEmuFailNextRun: the next run of the loaded model `modelId` fails in the
 * engine after every check of its call passed, as a fault on the device
 * would: a synchronous aclmdlExecute returns ACL_ERROR_GE_FAILURE, a run
 * queued on a stream fails when the stream's worker comes to it and the
 * next aclrtSynchronizeStream reports ACL_ERROR_RT_MODEL_EXECUTE. */
#define ACL_EMU_EXTRA(ret, name, params) \
  ret name params;                       \
  typedef ret(*name##Fn) params;
#include "acl_emu_extras.def"
#undef ACL_EMU_EXTRA

#ifdef __cplusplus
}
#endif

#endif  // ASCEND_EMU_ACL_EMU_EXTRAS_H_
