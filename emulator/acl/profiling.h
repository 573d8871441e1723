// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's profiling API for models (acl_prof.h), as the emulator implements
// it (docs/emulator.md, "Profiling"): aclprofInit .. aclprofFinalize with
// configs (accepted and checked; the emulator writes no profiling files),
// and the op subscription: a subscribed model writes one fixed-size record
// per executed op to the pipe given in its subscribe config, and the
// aclprofGetOp* readers decode a buffer of records read from that pipe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl_api.h"
#include "ascend_emu/model.h"

// The opaque handles of acl_prof.h (the emulator's own contents).
struct aclprofConfig {
  std::vector<uint32_t> devices;
  aclprofAicoreMetrics metrics = ACL_AICORE_NONE;
  uint64_t data_types = 0;
  bool started = false;
};
struct aclprofSubscribeConfig {
  bool time_info = true;
  aclprofAicoreMetrics metrics = ACL_AICORE_NONE;
  int* fd = nullptr;  // the caller's int, read at subscribe (as CANN does)
};

namespace ascend_emu::acl {

struct State;
struct ModelRec;

// One op record in the pipe: our own layout (CANN's is private to
// libmsprofiler and read only through the aclprofGetOp* calls; its size is
// what aclprofGetOpDescSize reports). `check` guards against a buffer that
// is not whole records from the pipe: the readers refuse a record whose
// checksum (FNV-1a over the bytes after it) does not match.
struct OpRecord {
  uint32_t check;
  uint32_t model_id;
  uint64_t subscription;  // serial of the subscription that wrote it
  uint32_t gear;
  uint32_t op_index;  // position in the gear's op list
  uint64_t start_us;  // steady clock, microseconds (CANN's unit)
  uint64_t end_us;
  uint64_t duration_us;  // end_us - start_us
  uint64_t reserved[2];
};
static_assert(sizeof(OpRecord) == 64, "records are 64 bytes");

// A model's subscription (ModelRec::subscription): where its records go and
// the memory one execute needs, allocated at subscribe so that a profiled
// execute allocates nothing either.
struct Subscription {
  uint64_t serial = 0;
  int fd = -1;
  int* caller_fd = nullptr;  // set to -1 when the emulator closes `fd`
  bool time_info = true;
  std::vector<OpTiming> timings;  // the largest gear's op count
  std::vector<OpRecord> records;
  uint64_t dropped = 0;  // records the pipe had no room for
};

// The execute hook (model_execute.cc): the timing array for a run of
// `gear`, or nullptr when the model is not subscribed (the plain path).
OpTiming* OpTimingsFor(ModelRec& model, size_t gear);
// After a run given OpTimingsFor's array: one record per op to the pipe,
// never blocking (a record the pipe has no room for is dropped and counted).
void WriteOpRecords(ModelRec& model, size_t gear);

// Ends `model`'s subscription (aclprofModelUnSubscribe, or its unload):
// closes the pipe's write end when no other subscription uses it, as CANN
// does, and sets the caller's int to -1.
void EndSubscription(State& state, ModelRec& model);

}  // namespace ascend_emu::acl
