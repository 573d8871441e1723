// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's process-wide registry: every live device allocation, host
// allocation, context, stream, model, description, dataset and data buffer.
// Guarded by one mutex, held by ApiCall (api_call.h) for the whole of each
// exported call; functions here assume it is held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl_api.h"
#include "acl_emu_extras.h"
#include "config.h"
#include "emulator_ids.h"
#include "fault.h"
#include "handles.h"
#include "profiling.h"

namespace ascend_emu::acl {

// A pointer classified against the device allocations.
struct DevicePointer {
  const DeviceAlloc* alloc = nullptr;  // nullptr: not device memory (host)
  uintptr_t base = 0;
  size_t remaining = 0;  // bytes from the pointer to the allocation's end
};

struct State {
  std::mutex mutex;
  bool initialized = false;
  // aclFinalize succeeded and no aclInit came since: CANN answers another
  // aclFinalize with ACL_ERROR_REPEAT_FINALIZE, not "uninitialized".
  bool finalized = false;
  Config config;
  FaultTable faults;

  std::vector<DeviceRec> devices;
  std::map<void*, std::unique_ptr<ContextRec>> contexts;
  std::map<void*, std::unique_ptr<StreamRec>> streams;
  std::map<uintptr_t, DeviceAlloc> device_allocs;  // base address -> record
  std::map<uintptr_t, HostAlloc> host_allocs;
  std::map<const aclDataBuffer*, std::unique_ptr<aclDataBuffer>> buffers;
  std::map<const aclmdlDataset*, std::unique_ptr<aclmdlDataset>> datasets;
  std::map<const aclmdlDesc*, std::unique_ptr<aclmdlDesc>> descs;
  std::map<uint32_t, std::unique_ptr<ModelRec>> models;
  std::map<const aclmdlConfigHandle*, std::unique_ptr<aclmdlConfigHandle>>
      config_handles;
  // Profiling (profiling.cc): aclprofInit .. aclprofFinalize, and the
  // configs, which live outside aclInit .. aclFinalize as CANN's
  // libmsprofiler's do.
  bool prof_initialized = false;
  std::map<const aclprofConfig*, std::unique_ptr<aclprofConfig>> prof_configs;
  std::map<const aclprofSubscribeConfig*,
           std::unique_ptr<aclprofSubscribeConfig>>
      subscribe_configs;
  uint32_t next_model_id = 1;
  uint64_t next_serial = 1;  // not reset by aclFinalize: serials stay unique

  // Traffic counters (the live_* fields of aclEmuStats come from the maps).
  uint64_t bytes_host_to_device = 0;
  uint64_t bytes_device_to_host = 0;
  uint64_t executes = 0;
};

State& GetState();

// Classifies `ptr`: inside a live device allocation, or host memory.
DevicePointer ClassifyPointer(const State& state, const void* ptr);

// This thread's current context, if it is still alive; else nullptr.
ContextRec* CurrentContext(State& state);
void SetCurrentContext(ContextRec* context);

// Current context or an ACL_ERROR_RT_CONTEXT_NULL failure saying that the
// thread has none. Returns ACL_SUCCESS and sets *context on success.
aclError RequireCurrentContext(State& state, ContextRec** context);

// Resolves a stream handle for use in `context`: nullptr is the context's
// default stream (as in real CANN); an unknown handle or a stream of another
// context is an error.
aclError ResolveStream(State& state, aclrtStream stream, ContextRec* context);

// Creates a context record on `device` and registers it.
ContextRec* NewContext(State& state, int32_t device, bool is_default);

// The loaded model that pins the device allocation at `base` (see
// ModelRec::pinned), or nullptr.
const ModelRec* ModelPinning(const State& state, uintptr_t base);

// Number of streams and models owned by `context`.
size_t CountStreams(const State& state, const ContextRec* context);
size_t CountModels(const State& state, const ContextRec* context);

// Releases everything still live, writes one stderr line per leaked object
// and returns a one-line summary ("" when nothing leaked).
std::string ReleaseAllAndReportLeaks(State& state);

// Fills the live_* and counter fields.
void FillStats(const State& state, aclEmuStats* stats);

}  // namespace ascend_emu::acl
