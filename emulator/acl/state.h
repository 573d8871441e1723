// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's process-wide registry: every live device allocation, host
// allocation, context, stream, model, description, dataset and data buffer.
// Changed only by exclusive calls (ApiCall, api_call.h: the mutex held and no
// shared call running); read by shared calls, which run in parallel with
// each other and change only atomics, their thread's ThreadState and the
// record of the model they run (one model id runs on one thread at a time,
// ModelRec::running). Functions here assume one of the two.
#pragma once

#include <atomic>
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
#include "export.h"
#include "fault.h"
#include "handles.h"
#include "profiling.h"
#include "thread_state.h"

namespace ascend_emu::acl {

// A pointer classified against the device allocations.
struct DevicePointer {
  const DeviceAlloc* alloc = nullptr;  // nullptr: not device memory (host)
  uintptr_t base = 0;
  size_t remaining = 0;  // bytes from the pointer to the allocation's end
};

struct State {
  std::mutex mutex;
  // An exclusive call holds the registry (ApiCall's handshake; the readers
  // count and the gate are in g_lane).
  std::atomic<bool> writer{false};
  // Moved by every exclusive call: caches tagged with an older epoch
  // (ThreadState, ModelRec::checked) are dropped.
  std::atomic<uint64_t> epoch{1};
  static constexpr uint64_t kGateClosed = ~uint64_t{0};
  std::atomic<bool> initialized{false};
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
  // Dynamic AIPP parameter sets (model_aipp.cc).
  std::map<const aclmdlAIPP*, std::unique_ptr<aclmdlAIPP>> aipps;
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

  // The traffic counters are in g_lane (the live_* fields of aclEmuStats
  // come from the maps).
  uint64_t weight_file_bytes_read = 0;  // external weight files read at load
  // ascend_emu::OmWeightBytesCopied() at aclInit: the engine counts every
  // copy of .om weight bytes; aclEmuStats reports those since aclInit.
  uint64_t weight_bytes_base = 0;
};

// What every per-inference call touches, at a fixed address in the library
// (constant-initialized, never destroyed), so that the fast ways reach it
// without loading the State pointer: the gate, the shared calls' half of
// ApiCall's handshake and the traffic counters.
struct SharedLane {
  // Bytes copied, by Traffic. Copies of other kinds (host to host, device
  // to device) count nowhere: their cached copies add to kUncounted.
  enum Traffic : uint32_t { kHostToDevice, kDeviceToHost, kUncounted };
  std::atomic<uint64_t> bytes[3] = {};
  // Calls the fast ways made, from the cache slots dropped so far (the live
  // slots hold the rest: LiveSlotCounts).
  std::atomic<uint64_t> fast_copies{0};
  std::atomic<uint64_t> fast_executes{0};
  // Shared calls running (ApiCall, api_call.h).
  std::atomic<uint32_t> readers{0};
  // The shared calls' one-compare gate: the current epoch while a shared
  // call may skip every per-call condition (initialized, no exclusive call
  // running, no fault armed, not verbose), else State::kGateClosed. Set by
  // the exclusive calls only (closed at their start, recomputed at their
  // end); a thread whose ThreadState::epoch equals it has caches that are
  // current and nothing else to check.
  std::atomic<uint64_t> gate{State::kGateClosed};
  // Runs that succeeded, but for the fast way's (fast_executes and the live
  // slots), whose failures it takes off: it may wrap below zero, the sum
  // does not.
  std::atomic<uint64_t> executes{0};
};
extern ACL_EMU_INTERNAL SharedLane g_lane;

// What the live cache slots of every thread have counted (the lane holds
// what the slots dropped so far have). For the stats calls, which are
// exclusive: no general way, where slots are dropped, runs meanwhile.
struct FastWayCounts {
  uint64_t copies = 0;
  uint64_t executes = 0;
  uint64_t bytes[3] = {};
};
FastWayCounts LiveSlotCounts();
// Zeroes the fast ways' counts, the lane's and the slots' (aclInit).
void ResetFastWayCounts();

// Never destroyed: exported calls may run during static destruction. Made at
// the first call (GetStateFirst); then one load, inline: every call but the
// fast ways (which need only g_lane and their thread's caches) reaches it.
extern std::atomic<State*> g_state;
State& GetStateFirst();
inline State& GetState() {
  State* state = g_state.load(std::memory_order_acquire);
  if (__builtin_expect(state != nullptr, 1)) return *state;
  return GetStateFirst();
}

// Classifies `ptr`: inside a live device allocation, or host memory.
DevicePointer ClassifyPointer(const State& state, const void* ptr);

// Classifies `ptr` through the thread's cache of address regions (the same
// answer as ClassifyPointer, plus the pinned host bounds): for the shared
// calls. For host memory alloc is nullptr and remaining is the bytes to the
// end of the aclrtMallocHost allocation holding it, or SIZE_MAX.
DevicePointer ClassifyPointerCached(const State& state, ThreadState& thread,
                                    const void* ptr);
// Its inline front: a hit in the thread's regions, else the above.
inline DevicePointer ClassifyCached(const State& state, ThreadState& thread,
                                    const void* ptr) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  if (const AddressRegion* region = thread.FindRegion(address)) {
    DevicePointer result;
    result.alloc = region->alloc;
    result.base = region->lo;
    result.remaining = region->alloc != nullptr || region->pinned
                           ? region->hi - address
                           : SIZE_MAX;
    return result;
  }
  return ClassifyPointerCached(state, thread, ptr);
}

// This thread's current context, if it is still alive; else nullptr.
ContextRec* CurrentContext(State& state);
void SetCurrentContext(ContextRec* context);

// Current context or an ACL_ERROR_RT_CONTEXT_NULL failure saying that the
// thread has none. Returns ACL_SUCCESS and sets *context on success.
aclError RequireCurrentContext(State& state, ContextRec** context);
// The same for a call that holds `thread` (its liveness check cached for
// the epoch).
aclError RequireCurrentContextSlow(State& state, ThreadState& thread,
                                   ContextRec** context);
inline aclError RequireCurrentContext(State& state, ThreadState& thread,
                                      ContextRec** context) {
  if (thread.context_alive) {
    *context = thread.context;
    return ACL_SUCCESS;
  }
  return RequireCurrentContextSlow(state, thread, context);
}

// Resolves a stream handle for use in `context`: nullptr is the context's
// default stream (as in real CANN); an unknown handle or a stream of another
// context is an error. *queue (when asked): the stream's work queue, or
// nullptr for the default stream, whose work runs at the call.
aclError ResolveStream(State& state, aclrtStream stream, ContextRec* context,
                       StreamQueue** queue = nullptr);

// Waits until every stream has run every task it holds (stream.cc): the
// first thing an exclusive call does once it holds the registry, so that no
// queued task outlives what it reads.
void DrainStreams(State& state);

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
