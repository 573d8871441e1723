// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What the opaque ACL handles point to. Every handle a caller passes in is
// looked up in the registry (state.h) before it is dereferenced, so a stale
// or forged handle is an error, never a wild read.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "acl_api.h"
#include "ascend_emu/model.h"
#include "stream_queue.h"

// The ACL object types are declared (incomplete) at global scope by
// acl_api.h; the emulator completes them here.
struct aclDataBuffer {
  void* data = nullptr;
  size_t size = 0;
};

struct aclmdlDataset {
  // Borrowed: the caller keeps ownership of each buffer (as in real CANN).
  std::vector<aclDataBuffer*> buffers;
};

struct aclmdlDesc {
  // A copy, so a description stays readable after its model is unloaded.
  std::vector<ascend_emu::IoDesc> inputs;
  std::vector<ascend_emu::IoDesc> outputs;
  uint32_t model_id = 0;  // aclmdlGetCurOutputDims asks the model
  // Shape gears: the table and each gear's outputs (empty when static).
  ascend_emu::GearTable gears;
  std::vector<std::vector<ascend_emu::IoDesc>> gear_outputs;
};

// Dynamic AIPP's parameters (model_aipp.cc), in the layout aclmdlSetInputAIPP
// writes (ascend_emu/aipp_params.h): the head, then one record per image.
struct aclmdlAIPP {
  uint64_t batch_size = 0;
  std::vector<uint8_t> bytes;
};

namespace ascend_emu::acl {

struct Subscription;  // profiling.h

// Device memory bound to one external weight file with
// aclmdlSetExternalWeightAddress.
struct ExternalWeightAddress {
  void* data = nullptr;
  size_t size = 0;
};

}  // namespace ascend_emu::acl

// What aclmdlSetConfigOpt and aclmdlSetExternalWeightAddress set, read by
// aclmdlLoadWithConfig. Strings are copied, as in real CANN, so the caller's
// buffers need not outlive the call.
struct aclmdlConfigHandle {
  std::set<int> set;  // the aclmdlConfigAttr values set so far
  int32_t priority = 0;
  size_t load_type = 0;
  std::string path;
  const void* mem_addr = nullptr;
  size_t mem_size = 0;
  void* weight_addr = nullptr;
  size_t weight_size = 0;
  void* work_addr = nullptr;
  size_t work_size = 0;
  std::string weight_path;
  // File name -> bound memory; binding a name again replaces it.
  std::map<std::string, ascend_emu::acl::ExternalWeightAddress> weights;

  bool has(int attr) const { return set.count(attr) != 0; }
};

namespace ascend_emu::acl {

// aclrtContext points to one of these.
struct ContextRec {
  uint64_t serial = 0;  // unique for the process, never reused
  int32_t device = 0;
  bool is_default = false;  // the device's default context (aclrtSetDevice)
};

// aclrtStream points to one of these.
struct StreamRec {
  uint64_t serial = 0;
  ContextRec* context = nullptr;
  // The stream's tasks and the worker that runs them (stream_queue.h).
  std::unique_ptr<StreamQueue> queue;
};

struct DeviceAlloc {
  size_t size = 0;  // bytes the caller asked for: the checked bound
  int32_t device = 0;
  uint64_t context_serial = 0;
};

struct HostAlloc {
  size_t size = 0;
};

// Host memory, 64-byte aligned like device memory, standing for device
// memory the emulator manages itself (external weights read from files).
struct FreeBytes {
  void operator()(uint8_t* bytes) const { std::free(bytes); }
};
using AlignedBytes = std::unique_ptr<uint8_t, FreeBytes>;

// The data pointers of an input/output dataset pair an execute has checked
// (model_execute.cc), reused by the next execute with the same pair while
// the registry epoch (State::epoch) has not moved: every change that could
// make them wrong (a buffer, dataset or allocation destroyed or changed) is
// an exclusive call, which moves the epoch.
struct CheckedIo {
  const aclmdlDataset* input = nullptr;
  const aclmdlDataset* output = nullptr;
  uint64_t epoch = 0;  // 0: empty
  std::vector<void*> inputs;
  std::vector<void*> outputs;
};

struct ModelRec {
  // Set while an execute runs the model: CANN runs one model id on one
  // stream at a time, so a second thread running it meanwhile is refused.
  // First, so that aclmdlExecute's fast way takes it at the record's
  // address. A word, not a bool: taking it is then one bit test-and-set
  // (lock bts) instead of an exchange and a test.
  std::atomic<uint32_t> running{0};
  // Takes the model for a run; false if a run holds it already.
  bool Hold() {
    return (running.fetch_or(1, std::memory_order_acquire) & 1) == 0;
  }
  void Release() { running.store(0, std::memory_order_release); }
  // Runs of this model queued on streams and not finished yet
  // (aclmdlExecuteAsync): while there are, a caller queueing another run
  // waits for the worker to let go of the model instead of being refused.
  std::atomic<uint32_t> queued{0};
  // aclEmuFailNextRun: the next run fails in the engine (a test's device
  // fault). Set by an exclusive call; taken by the run that holds the model.
  std::atomic<bool> fail_next_run{false};
  // Takes an injected failure: true (and run_error set) if this run fails.
  bool TakeInjectedFailure() {
    if (__builtin_expect(!fail_next_run.load(std::memory_order_relaxed), 1) ||
        !fail_next_run.exchange(false, std::memory_order_relaxed)) {
      return false;
    }
    run_error = "injected run failure (aclEmuFailNextRun)";
    return true;
  }
  uint32_t id = 0;
  ContextRec* context = nullptr;
  int32_t device = 0;
  std::unique_ptr<ascend_emu::Model> model;
  // Caller device memory the model runs in (aclmdlLoadFromMemWithMem), or
  // nullptr when the model uses memory it allocated at load.
  void* work = nullptr;
  // Base addresses of the caller's device allocations the model reads or
  // writes while it is loaded (bound external weights, work and weight
  // memory given at load): aclrtFree refuses them until the model is
  // unloaded.
  std::vector<uintptr_t> pinned;
  // External weights the emulator read from files: the model reads them in
  // place; charged to the device.
  std::vector<AlignedBytes> weight_files;
  // Device memory charged to the device for emulator-managed work, weights
  // and weight files.
  size_t charged_bytes = 0;
  // Shape gears: the gear the last aclmdlSetDynamicBatchSize /
  // aclmdlSetInputDynamicDims or execute chose (what aclmdlGetCurOutputDims
  // reports), -1 before any.
  int64_t current_gear = -1;

  // The fields below belong to the one running execute (`running`).
  // Two pairs: a caller alternating two pairs of datasets (device state
  // double-buffered) keeps both checked. A pair checked in the current
  // epoch is never rewritten until the epoch moves (threads' cached runs,
  // ThreadState::ExecHit, point at it): a third pair in one epoch, and
  // every run of a gear model, is checked into `unkept` on every run.
  CheckedIo checked[2];
  size_t next_checked = 0;
  CheckedIo unkept;
  // The op subscription (aclprofModelSubscribe; profiling.h), or nullptr:
  // the execute path only tests this pointer when no one profiles.
  std::shared_ptr<Subscription> subscription;
  // The engine's error of a failed run: a member, so that a run does not
  // build (and destroy) a string of its own; written only on failure.
  std::string run_error;
};

struct DeviceRec {
  int32_t set_count = 0;  // aclrtSetDevice minus aclrtResetDevice calls
  ContextRec* default_context = nullptr;
  size_t used_bytes = 0;  // live allocations plus model-managed memory
};

}  // namespace ascend_emu::acl
