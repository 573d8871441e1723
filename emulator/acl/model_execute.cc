// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Running a model. Before the engine touches anything, every buffer is
// checked the way a real NPU would need it: device memory of the model's
// device, large enough for its tensor (in RC mode, aclrtGetRunMode ==
// ACL_DEVICE, the device shares the host's memory: host memory is taken
// too). aclmdlExecuteAsync checks at the call and queues the run on the
// stream (stream_queue.h); on the default stream, for a model with shape
// gears (whose gear comes from a buffer a queued copy may still write) or
// a subscribed one, it waits for the stream and runs at the call.
//
// The per-call cost (docs/emulator.md, "What is checked when"): an execute
// is a shared call (api_call.h), takes no lock and allocates nothing after
// the first run with a dataset pair. The checks of a dataset pair are kept
// in the model record (ModelRec::checked) with the registry epoch they were
// made in; an execute with the same pair in the same epoch reuses them,
// since nothing they depend on can change without an exclusive call
// (aclDestroyDataBuffer, aclmdlDestroyDataset, aclmdlAddDatasetBuffer,
// aclrtFree, aclmdlUnload...), which moves the epoch. The model's context is
// checked on every call.
#include <thread>
#include <vector>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "model_gears.h"
#include "model_registry.h"
#include "profiling.h"
#include "state.h"

using ascend_emu::IoDesc;
using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ApiSite;
using ascend_emu::acl::CheckedIo;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::DevicePointer;
using ascend_emu::acl::Fail;
using ascend_emu::acl::g_lane;
using ascend_emu::acl::ModelRec;
using ascend_emu::acl::State;
using ascend_emu::acl::StreamQueue;
using ascend_emu::acl::ThreadState;

namespace {

// Checks each buffer of `dataset` against the description of the model's
// inputs or outputs and writes its data pointer to pointers[i] (room for
// ios.size()). With `sized_last_only` only the last buffer's size is
// checked (a gear model's buffers before its gear is known).
aclError CollectBuffers(State& state, const ContextRec* context,
                        const aclmdlDataset* handle,
                        const std::vector<IoDesc>& ios, const char* role,
                        bool sized_last_only, void** pointers) {
  auto dataset = state.datasets.find(handle);
  if (dataset == state.datasets.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s dataset %p is not a live dataset (never created, or "
                "destroyed)",
                role, static_cast<const void*>(handle));
  }
  const auto& buffers = dataset->second->buffers;
  if (buffers.size() != ios.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the %s dataset holds %zu buffer(s) but the model has %zu "
                "%s(s)",
                role, buffers.size(), ios.size(), role);
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto found = state.buffers.find(buffers[i]);
    if (found == state.buffers.end()) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu: data buffer %p was destroyed after it was added to "
                  "the dataset",
                  role, i, static_cast<const void*>(buffers[i]));
    }
    const aclDataBuffer& buffer = *found->second;
    const IoDesc& io = ios[i];
    size_t needed =
        sized_last_only && i + 1 < buffers.size() ? 0 : io.size_bytes;
    if (buffer.size < needed) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu ('%s'): the data buffer holds %zu bytes but the "
                  "model needs %zu",
                  role, i, io.name.c_str(), buffer.size, needed);
    }
    DevicePointer device = ascend_emu::acl::ClassifyPointer(state, buffer.data);
    if (device.alloc == nullptr && state.config.device_run_mode) {
      // RC mode: the NPU reads and writes the board's one memory.
      if (buffer.data == nullptr && buffer.size != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s %zu ('%s'): buffer is NULL",
                    role, i, io.name.c_str());
      }
      pointers[i] = buffer.data;
      continue;
    }
    if (device.alloc == nullptr) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu ('%s'): buffer %p is host memory: model inputs and "
                  "outputs must be device memory (aclrtMalloc), copied with "
                  "aclrtMemcpy",
                  role, i, io.name.c_str(), buffer.data);
    }
    if (device.alloc->device != context->device) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu ('%s'): buffer %p is memory of device %d but the "
                  "model runs on device %d",
                  role, i, io.name.c_str(), buffer.data, device.alloc->device,
                  context->device);
    }
    if (device.remaining < buffer.size) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu ('%s'): the data buffer claims %zu bytes but its "
                  "device allocation holds only %zu bytes from %p",
                  role, i, io.name.c_str(), buffer.size, device.remaining,
                  buffer.data);
    }
    pointers[i] = buffer.data;
  }
  return ACL_SUCCESS;
}

// Every check of an execute that depends on the datasets and the memory
// only (not on the buffers' contents): into `io`, and its gear in *gear.
aclError CheckIo(State& state, const ContextRec* context, ModelRec& record,
                 const aclmdlDataset* input, const aclmdlDataset* output,
                 CheckedIo* io, size_t* gear) {
  ascend_emu::Model& model = *record.model;
  io->inputs.resize(model.inputs().size());
  io->outputs.resize(model.outputs().size());
  *gear = 0;
  if (model.num_gears() != 0) {
    // A gear model: the gear input's buffer chooses the gear; every buffer
    // must then hold that gear's bytes (the largest gear's always fit).
    if (aclError rc = CollectBuffers(state, context, input, model.inputs(),
                                     "input", true, io->inputs.data())) {
      return rc;
    }
    const aclDataBuffer& shape =
        *state.buffers.at(state.datasets.at(input)->buffers.back());
    if (aclError rc = ascend_emu::acl::SelectGear(record.id, model, shape.data,
                                                  shape.size, gear)) {
      return rc;
    }
  }
  if (aclError rc =
          CollectBuffers(state, context, input, model.gear_inputs(*gear),
                         "input", false, io->inputs.data())) {
    return rc;
  }
  if (aclError rc =
          CollectBuffers(state, context, output, model.gear_outputs(*gear),
                         "output", false, io->outputs.data())) {
    return rc;
  }
  if (record.work != nullptr) {
    // The caller's work memory must still be allocated: running in freed
    // memory is what a real device would silently corrupt.
    DevicePointer work = ascend_emu::acl::ClassifyPointer(state, record.work);
    if (work.alloc == nullptr || work.remaining < model.work_size()) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "model %u's work memory %p (aclmdlLoadFromMemWithMem) is no "
                  "longer allocated",
                  record.id, record.work);
    }
  }
  return ACL_SUCCESS;
}

// The checked pointers for this dataset pair: from the model's cache, or
// checked now (and cached, unless the model has gears: their gear comes
// from the gear buffer's contents, read on every run).
aclError PrepareIo(State& state, uint64_t epoch, const ContextRec* context,
                   ModelRec& record, const aclmdlDataset* input,
                   const aclmdlDataset* output, const CheckedIo** io,
                   size_t* gear) {
  for (const CheckedIo& checked : record.checked) {
    if (checked.epoch == epoch && checked.input == input &&
        checked.output == output) {
      *io = &checked;
      *gear = 0;
      return ACL_SUCCESS;
    }
  }
  CheckedIo* slot = &record.checked[record.next_checked];
  const bool keep = record.model->num_gears() == 0 && slot->epoch != epoch;
  if (!keep) slot = &record.unkept;
  slot->epoch = 0;
  if (aclError rc =
          CheckIo(state, context, record, input, output, slot, gear)) {
    return rc;
  }
  if (keep) {
    slot->input = input;
    slot->output = output;
    slot->epoch = epoch;
    record.next_checked = (record.next_checked + 1) % 2;
  }
  *io = slot;
  return ACL_SUCCESS;
}

// A failed run's error. Out of line: the run paths keep short prologues.
[[gnu::noinline, gnu::cold]] aclError RunFailed(const ModelRec& record) {
  return Fail(ACL_ERROR_GE_FAILURE, "model %u failed to run: %s", record.id,
              record.run_error.c_str());
}

// The same on aclmdlExecute's fast way, which has not named the call: the
// thread is looked up again here, so that the fast way keeps nothing but
// the state and the model across the run.
[[gnu::noinline, gnu::cold]] aclError FastRunFailed(const ModelRec& record) {
  g_lane.executes.fetch_sub(1, std::memory_order_relaxed);  // not a run
  ascend_emu::acl::ThisThread().api_name = "aclmdlExecute";
  return RunFailed(record);
}

// The model run: after every check passed, with the model held by this
// thread (ModelRec::running). A per-run hook (profiling) goes here. `gears`:
// the model has gears (never on the fast way: its pairs are not cached).
[[gnu::noinline]] aclError Run(State& state, ModelRec& record,
                               const CheckedIo& io, size_t gear, bool gears) {
  ascend_emu::Model& model = *record.model;
  if (gears) record.current_gear = static_cast<int64_t>(gear);
  // Profiling hook (profiling.h): null unless the model is subscribed.
  ascend_emu::OpTiming* timings =
      record.subscription == nullptr
          ? nullptr
          : ascend_emu::acl::OpTimingsFor(record, gear);
  if (record.TakeInjectedFailure() ||
      !model.RunGearTimed(gear, io.inputs.data(), io.outputs.data(),
                          record.work, timings, &record.run_error)) {
    return RunFailed(record);
  }
  if (timings != nullptr) ascend_emu::acl::WriteOpRecords(record, gear);
  g_lane.executes.fetch_add(1, std::memory_order_relaxed);
  return ACL_SUCCESS;
}

// Clears ModelRec::running when the execute ends, whichever way.
class RunningModel {
 public:
  explicit RunningModel(ModelRec& record) : record_(record) {}
  ~RunningModel() { record_.Release(); }
  RunningModel(const RunningModel&) = delete;
  RunningModel& operator=(const RunningModel&) = delete;

 private:
  ModelRec& record_;
};

aclError FindModel(State& state, ThreadState& thread, uint32_t model_id,
                   const ContextRec* context, ModelRec** record) {
  if (thread.model != nullptr && thread.model_id == model_id &&
      thread.model->context == context) {
    *record = thread.model;
    return ACL_SUCCESS;
  }
  if (aclError rc = ascend_emu::acl::FindModelInContext(state, model_id,
                                                        context, record)) {
    return rc;
  }
  thread.model_id = model_id;
  thread.model = *record;
  return ACL_SUCCESS;
}

// Keeps a run whose checks all passed (a static model no one profiles, its
// dataset pair cached in the record) for aclmdlExecute's fast way. A
// subscription or a gear model never gets there: subscribing is an
// exclusive call (the epoch moves, the caches go), and gear models' pairs
// are not cached (their gear comes from the gear buffer's contents).
void RememberRun(ThreadState& thread, uint32_t model_id,
                 const aclmdlDataset* input, const aclmdlDataset* output,
                 ModelRec& record, const CheckedIo& io) {
  if (io.epoch != thread.epoch || record.subscription != nullptr) return;
  ThreadState::ExecHit& hit = thread.execs[ThreadState::ExecSlot(model_id)];
  ThreadState::FlushExecCount(hit);  // the runs it made before
  hit.model_id = model_id;
  hit.input = input;
  hit.output = output;
  hit.record = &record;
  hit.inputs = io.inputs.data();
  hit.outputs = io.outputs.data();
}

// aclmdlExecuteAsync on a created stream: every check now, the run queued.
// False when this run cannot be queued (its pair's checks are not kept:
// StreamQueue::Task points at them); the caller then runs it here, after
// the stream has run what it holds. *rc: the call's result otherwise.
bool Enqueue(ThreadState& thread, State& state, const ContextRec* context,
             uint32_t model_id, ModelRec& record, const aclmdlDataset* input,
             const aclmdlDataset* output, StreamQueue& queue, aclError* rc) {
  // The model may be held by this stream's worker running an earlier run
  // of it: wait for it then, refuse only a run on another thread.
  while (!record.Hold()) {
    if (record.queued.load(std::memory_order_acquire) == 0) {
      *rc = Fail(ACL_ERROR_INVALID_PARAM,
                 "model %u is running on another thread: CANN runs one model "
                 "id on one stream at a time (threads sharing a model lock "
                 "around copy + execute)",
                 model_id);
      return true;
    }
    std::this_thread::yield();
  }
  const CheckedIo* io = nullptr;
  size_t gear = 0;
  *rc = PrepareIo(state, thread.epoch, context, record, input, output, &io,
                  &gear);
  if (*rc != ACL_SUCCESS) {
    record.Release();
    return true;
  }
  if (io == &record.unkept) {
    record.Release();
    return false;
  }
  StreamQueue::Task task;
  task.kind = StreamQueue::Task::kRun;
  task.record = &record;
  task.inputs = io->inputs.data();
  task.outputs = io->outputs.data();
  record.queued.fetch_add(1, std::memory_order_relaxed);
  // Let go before queueing: a full ring waits for the worker, which takes
  // the model.
  record.Release();
  queue.Push(task);
  return true;
}

aclError Execute(ApiCall& call, uint32_t model_id, const aclmdlDataset* input,
                 const aclmdlDataset* output, aclrtStream stream,
                 bool with_stream) {
  State& state = call.state();
  ThreadState& thread = call.thread();
  ContextRec* context = nullptr;
  if (aclError rc =
          ascend_emu::acl::RequireCurrentContext(state, thread, &context)) {
    return rc;
  }
  ModelRec* record = nullptr;
  if (aclError rc = FindModel(state, thread, model_id, context, &record)) {
    return rc;
  }
  StreamQueue* queue = nullptr;
  if (with_stream) {
    if (aclError rc =
            ascend_emu::acl::ResolveStream(state, stream, context, &queue)) {
      return rc;
    }
  }
  if (queue != nullptr) {
    aclError rc = ACL_SUCCESS;
    if (record->model->num_gears() == 0 && record->subscription == nullptr &&
        Enqueue(thread, state, context, model_id, *record, input, output,
                *queue, &rc)) {
      return rc;
    }
    // Run here, in order after what the stream holds.
    queue->Drain();
  }
  if (!record->Hold()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "model %u is running on another thread: CANN runs one model "
                "id on one stream at a time (threads sharing a model lock "
                "around copy + execute)",
                model_id);
  }
  RunningModel running(*record);
  const CheckedIo* io = nullptr;
  size_t gear = 0;
  if (aclError rc = PrepareIo(state, thread.epoch, context, *record, input,
                              output, &io, &gear)) {
    return rc;
  }
  RememberRun(thread, model_id, input, output, *record, *io);
  return Run(state, *record, *io, gear, record->model->num_gears() != 0);
}

// aclmdlExecute's general way. Out of line so that the fast way in
// aclmdlExecute keeps a short prologue.
[[gnu::noinline]] aclError ExecuteGeneral(ApiSite& site, uint32_t model_id,
                                          const aclmdlDataset* input,
                                          aclmdlDataset* output) {
  ApiCall call(site, ApiCall::kShared);
  if (aclError rc = call.Enter()) return rc;
  return Execute(call, model_id, input, output, nullptr, false);
}

}  // namespace

namespace ascend_emu::acl {
// aclmdlExecute's site at namespace scope, made when the library loads: its
// per-inference calls then skip a function-local static's guard check. Safe
// to build at load: ApiSite reads only constant tables (the fault list).
static ApiSite k_execute_site("aclmdlExecute");
}  // namespace ascend_emu::acl

extern "C" {

ACL_EMU_EXPORT aclError aclmdlExecute(uint32_t modelId,
                                      const aclmdlDataset* input,
                                      aclmdlDataset* output) {
  // The fast way (EnterFastLane, api_call.h): the same run as one that
  // passed every check in this epoch and context (RememberRun).
  const ThreadState& thread = ascend_emu::acl::ThisThreadOrNone();
  const ThreadState::ExecHit& hit = thread.FindExec(modelId);
  if (hit.model_id == modelId && hit.input == input && hit.output == output &&
      ascend_emu::acl::EnterFastLane(thread)) {
    ModelRec& record = *hit.record;
    if (record.Hold()) {
      // The call, and a run unless FastRunFailed takes it off.
      __atomic_fetch_add(&hit.hits, 1, __ATOMIC_RELAXED);
      // Run's work for a static model no one profiles, inline: the
      // engine's plain run entry (gear 0, no timings).
      aclError rc = ACL_SUCCESS;
      if (!record.model->Run(hit.inputs, hit.outputs, record.work,
                             &record.run_error)) {
        rc = FastRunFailed(record);  // reads run_error: still holding it
      }
      record.Release();
      ascend_emu::acl::LeaveFastLane();
      return rc;
    }
    ascend_emu::acl::LeaveFastLane();
  }
  return ExecuteGeneral(ascend_emu::acl::k_execute_site, modelId, input,
                        output);
}

ACL_EMU_EXPORT aclError aclmdlExecuteAsync(uint32_t modelId,
                                           const aclmdlDataset* input,
                                           aclmdlDataset* output,
                                           aclrtStream stream) {
  static ApiSite site(__func__);
  ApiCall call(site, ApiCall::kShared);
  if (aclError rc = call.Enter()) return rc;
  return Execute(call, modelId, input, output, stream, true);
}

}  // extern "C"
