// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "state.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <mutex>

#include "ascend_emu/om_format.h"
#include "errors.h"

namespace ascend_emu::acl {
namespace {

// Owns the thread's ThreadState (ThisThread, thread_state.h) and frees it
// when the thread ends. A call after that (from another thread_local's
// destructor) makes a new one, which is then never freed.
struct ThreadStateOwner {
  ThreadState* state = nullptr;
  ~ThreadStateOwner();
};
thread_local ThreadStateOwner t_thread_owner;

// Every live ThreadState (ThreadState::prev/next), for the counts its cache
// slots hold. Never destroyed: threads may end during static destruction.
std::mutex& ThreadsMutex() {
  static auto* mutex = new std::mutex();
  return *mutex;
}
ThreadState* g_threads = nullptr;

ThreadStateOwner::~ThreadStateOwner() {
  t_this_thread = &kNoThread;
  if (state != nullptr) {
    std::lock_guard<std::mutex> lock(ThreadsMutex());
    state->FlushCounts();
    if (state->prev != nullptr) state->prev->next = state->next;
    if (state->next != nullptr) state->next->prev = state->prev;
    if (g_threads == state) g_threads = state->next;
  }
  delete state;
  state = nullptr;
}

// The largest span around `address` that lies in one allocation of `allocs`
// (true) or between two of them (false); narrows [*lo, *hi) to it.
template <typename Alloc>
const Alloc* Locate(const std::map<uintptr_t, Alloc>& allocs, uintptr_t address,
                    uintptr_t* lo, uintptr_t* hi, uintptr_t* base) {
  auto next = allocs.upper_bound(address);
  if (next != allocs.end() && next->first < *hi) *hi = next->first;
  if (next == allocs.begin()) return nullptr;
  auto prev = std::prev(next);
  uintptr_t end = prev->first + prev->second.size;
  if (address < end) {
    *lo = prev->first;
    *hi = end;
    *base = prev->first;
    return &prev->second;
  }
  if (end > *lo) *lo = end;
  return nullptr;
}

// One stderr line per leaked object, always (not only when verbose): a leak
// is a bug in the caller, and this is where it is found.
__attribute__((format(printf, 1, 2))) void PrintLeak(const char* format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  std::fprintf(stderr, "[ascend-emu] aclFinalize: leaked %s\n", line);
}

void AppendCount(std::string* summary, size_t count, const char* what) {
  if (count == 0) return;
  if (!summary->empty()) *summary += ", ";
  *summary += std::to_string(count) + " " + what;
}

}  // namespace

DevicePointer ClassifyPointer(const State& state, const void* ptr) {
  DevicePointer result;
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  auto it = state.device_allocs.upper_bound(address);
  if (it == state.device_allocs.begin()) return result;
  --it;
  if (address - it->first >= it->second.size) return result;
  result.alloc = &it->second;
  result.base = it->first;
  result.remaining = it->second.size - (address - it->first);
  return result;
}

std::atomic<State*> g_state{nullptr};

State& GetStateFirst() {
  static State* state = new State();  // thread-safe once
  g_state.store(state, std::memory_order_release);
  return *state;
}

SharedLane g_lane;

const char kEmptyCopy = 0;
ModelRec kBusyModel;
namespace {
// kBusyModel is always running, so an empty ExecHit never runs it.
const bool k_busy_model_running =
    (kBusyModel.running.store(1, std::memory_order_relaxed), true);
}  // namespace

ThreadState kNoThread;
__thread ThreadState* t_this_thread = &kNoThread;

void ThreadState::ForgetRuns() {
  FlushCounts();
  for (CopyHit& copy : copies) copy = CopyHit{};
  for (ExecHit& exec : execs) exec = ExecHit{};
}

void ThreadState::FlushCopyCount(const CopyHit& hit) {
  const uint64_t hits = __atomic_exchange_n(&hit.hits, 0, __ATOMIC_RELAXED);
  if (hits == 0) return;
  g_lane.fast_copies.fetch_add(hits, std::memory_order_relaxed);
  g_lane.bytes[hit.traffic].fetch_add(hits * hit.count,
                                      std::memory_order_relaxed);
}

void ThreadState::FlushExecCount(const ExecHit& hit) {
  const uint64_t hits = __atomic_exchange_n(&hit.hits, 0, __ATOMIC_RELAXED);
  if (hits != 0)
    g_lane.fast_executes.fetch_add(hits, std::memory_order_relaxed);
}

void ThreadState::FlushCounts() {
  for (const CopyHit& copy : copies) FlushCopyCount(copy);
  for (const ExecHit& exec : execs) FlushExecCount(exec);
}

ThreadState& ThisThreadFirst() {
  auto* state = new ThreadState();
  {
    std::lock_guard<std::mutex> lock(ThreadsMutex());
    state->next = g_threads;
    if (g_threads != nullptr) g_threads->prev = state;
    g_threads = state;
  }
  t_thread_owner.state = state;
  t_this_thread = state;
  return *state;
}

FastWayCounts LiveSlotCounts() {
  FastWayCounts counts;
  std::lock_guard<std::mutex> lock(ThreadsMutex());
  for (const ThreadState* thread = g_threads; thread != nullptr;
       thread = thread->next) {
    for (const ThreadState::CopyHit& copy : thread->copies) {
      const uint64_t hits = __atomic_load_n(&copy.hits, __ATOMIC_RELAXED);
      counts.copies += hits;
      counts.bytes[copy.traffic] += hits * copy.count;
    }
    for (const ThreadState::ExecHit& exec : thread->execs) {
      counts.executes += __atomic_load_n(&exec.hits, __ATOMIC_RELAXED);
    }
  }
  return counts;
}

void ResetFastWayCounts() {
  g_lane.fast_copies.store(0, std::memory_order_relaxed);
  g_lane.fast_executes.store(0, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(ThreadsMutex());
  for (ThreadState* thread = g_threads; thread != nullptr;
       thread = thread->next) {
    for (ThreadState::CopyHit& copy : thread->copies) {
      __atomic_store_n(&copy.hits, 0, __ATOMIC_RELAXED);
    }
    for (ThreadState::ExecHit& exec : thread->execs) {
      __atomic_store_n(&exec.hits, 0, __ATOMIC_RELAXED);
    }
  }
}

DevicePointer ClassifyPointerCached(const State& state, ThreadState& thread,
                                    const void* ptr) {
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  const AddressRegion* found = thread.FindRegion(address);
  if (found == nullptr) {
    // Device allocations and pinned host allocations never overlap: the
    // region is the one allocation holding the address, or the gap between
    // the allocations of both maps around it.
    AddressRegion region;
    region.lo = 0;
    region.hi = UINTPTR_MAX;
    uintptr_t base = 0;
    region.alloc =
        Locate(state.device_allocs, address, &region.lo, &region.hi, &base);
    if (region.alloc == nullptr) {
      region.pinned = Locate(state.host_allocs, address, &region.lo, &region.hi,
                             &base) != nullptr;
    }
    found = thread.AddRegion(address, region);
  }
  DevicePointer result;
  result.alloc = found->alloc;
  result.base = found->lo;
  result.remaining =
      found->alloc != nullptr || found->pinned ? found->hi - address : SIZE_MAX;
  return result;
}

ContextRec* CurrentContext(State& state) {
  ThreadState& thread = ThisThread();
  if (thread.context == nullptr) return nullptr;
  auto it = state.contexts.find(thread.context);
  if (it == state.contexts.end() ||
      it->second->serial != thread.context_serial) {
    SetCurrentContext(nullptr);
    return nullptr;
  }
  return it->second.get();
}

void SetCurrentContext(ContextRec* context) {
  ThreadState& thread = ThisThread();
  if (context != thread.context) thread.ForgetRuns();
  thread.context = context;
  thread.context_serial = context == nullptr ? 0 : context->serial;
  // Set from a live record (or cleared): nothing to check this epoch.
  thread.context_alive = context != nullptr;
}

aclError RequireCurrentContextSlow(State& state, ThreadState& thread,
                                   ContextRec** context) {
  if (aclError rc = RequireCurrentContext(state, context)) return rc;
  thread.context_alive = true;
  return ACL_SUCCESS;
}

aclError RequireCurrentContext(State& state, ContextRec** context) {
  *context = CurrentContext(state);
  if (*context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "this thread has no current context: call aclrtSetDevice or "
                "aclrtSetCurrentContext first");
  }
  return ACL_SUCCESS;
}

aclError ResolveStream(State& state, aclrtStream stream, ContextRec* context,
                       StreamQueue** queue) {
  if (queue != nullptr) *queue = nullptr;
  if (stream == nullptr) return ACL_SUCCESS;
  auto it = state.streams.find(stream);
  if (it == state.streams.end()) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "stream %p is not a live stream (never created, or destroyed)",
                stream);
  }
  if (it->second->context != context) {
    return Fail(ACL_ERROR_RT_STREAM_CONTEXT,
                "stream %p belongs to context %p, not to the current context "
                "%p",
                stream, static_cast<void*>(it->second->context),
                static_cast<void*>(context));
  }
  if (queue != nullptr) *queue = it->second->queue.get();
  return ACL_SUCCESS;
}

ContextRec* NewContext(State& state, int32_t device, bool is_default) {
  auto record = std::make_unique<ContextRec>();
  record->serial = state.next_serial++;
  record->device = device;
  record->is_default = is_default;
  ContextRec* raw = record.get();
  state.contexts.emplace(raw, std::move(record));
  return raw;
}

const ModelRec* ModelPinning(const State& state, uintptr_t base) {
  for (const auto& [id, model] : state.models) {
    for (uintptr_t pinned : model->pinned) {
      if (pinned == base) return model.get();
    }
  }
  return nullptr;
}

size_t CountStreams(const State& state, const ContextRec* context) {
  size_t count = 0;
  for (const auto& [handle, stream] : state.streams) {
    if (stream->context == context) ++count;
  }
  return count;
}

size_t CountModels(const State& state, const ContextRec* context) {
  size_t count = 0;
  for (const auto& [id, model] : state.models) {
    if (model->context == context) ++count;
  }
  return count;
}

std::string ReleaseAllAndReportLeaks(State& state) {
  std::string summary;
  for (const auto& [id, model] : state.models) {
    PrintLeak("model id %u (loaded in context %p on device %d)", id,
              static_cast<void*>(model->context), model->device);
  }
  AppendCount(&summary, state.models.size(), "model(s)");
  state.models.clear();

  for (const auto& [handle, desc] : state.descs) {
    PrintLeak("model description %p", static_cast<const void*>(handle));
  }
  AppendCount(&summary, state.descs.size(), "model description(s)");
  state.descs.clear();

  for (const auto& [handle, dataset] : state.datasets) {
    PrintLeak("dataset %p holding %zu buffer(s)",
              static_cast<const void*>(handle), dataset->buffers.size());
  }
  AppendCount(&summary, state.datasets.size(), "dataset(s)");
  state.datasets.clear();

  for (const auto& [handle, config] : state.config_handles) {
    PrintLeak("model config handle %p (%zu external weight binding(s))",
              static_cast<const void*>(handle), config->weights.size());
  }
  AppendCount(&summary, state.config_handles.size(), "model config handle(s)");
  state.config_handles.clear();

  for (const auto& [handle, aipp] : state.aipps) {
    PrintLeak("dynamic AIPP parameter set %p",
              static_cast<const void*>(handle));
  }
  AppendCount(&summary, state.aipps.size(), "dynamic AIPP parameter set(s)");
  state.aipps.clear();

  for (const auto& [handle, buffer] : state.buffers) {
    PrintLeak("data buffer %p of %zu bytes", static_cast<const void*>(handle),
              buffer->size);
  }
  AppendCount(&summary, state.buffers.size(), "data buffer(s)");
  state.buffers.clear();

  for (const auto& [handle, stream] : state.streams) {
    PrintLeak("stream %p on device %d", handle, stream->context->device);
  }
  AppendCount(&summary, state.streams.size(), "stream(s)");
  state.streams.clear();

  for (const auto& [base, alloc] : state.device_allocs) {
    PrintLeak("device allocation %p of %zu bytes on device %d",
              reinterpret_cast<void*>(base), alloc.size, alloc.device);
    std::free(reinterpret_cast<void*>(base));
  }
  AppendCount(&summary, state.device_allocs.size(), "device allocation(s)");
  state.device_allocs.clear();

  for (const auto& [base, alloc] : state.host_allocs) {
    PrintLeak("host allocation %p of %zu bytes", reinterpret_cast<void*>(base),
              alloc.size);
    std::free(reinterpret_cast<void*>(base));
  }
  AppendCount(&summary, state.host_allocs.size(), "host allocation(s)");
  state.host_allocs.clear();

  size_t leaked_contexts = 0;
  for (const auto& [handle, context] : state.contexts) {
    if (context->is_default) {
      const DeviceRec& device = state.devices[context->device];
      PrintLeak(
          "default context %p of device %d (aclrtSetDevice called %d more "
          "time(s) than aclrtResetDevice)",
          handle, context->device, device.set_count);
    } else {
      PrintLeak("context %p on device %d (never destroyed)", handle,
                context->device);
    }
    ++leaked_contexts;
  }
  AppendCount(&summary, leaked_contexts, "context(s)");
  state.contexts.clear();
  state.devices.clear();
  SetCurrentContext(nullptr);
  return summary;
}

void FillStats(const State& state, aclEmuStats* stats) {
  *stats = aclEmuStats{};
  stats->live_device_allocs = state.device_allocs.size();
  for (const auto& [base, alloc] : state.device_allocs) {
    stats->live_device_bytes += alloc.size;
  }
  stats->live_host_allocs = state.host_allocs.size();
  stats->live_models = state.models.size();
  stats->live_descs = state.descs.size();
  stats->live_datasets = state.datasets.size();
  stats->live_data_buffers = state.buffers.size();
  stats->live_streams = state.streams.size();
  stats->live_contexts = state.contexts.size();
  const FastWayCounts live = LiveSlotCounts();
  stats->bytes_host_to_device = g_lane.bytes[SharedLane::kHostToDevice] +
                                live.bytes[SharedLane::kHostToDevice];
  stats->bytes_device_to_host = g_lane.bytes[SharedLane::kDeviceToHost] +
                                live.bytes[SharedLane::kDeviceToHost];
  stats->executes = g_lane.executes + g_lane.fast_executes + live.executes;
  stats->weight_bytes_loaded =
      ascend_emu::OmWeightBytesCopied() - state.weight_bytes_base;
  stats->weight_file_bytes_read = state.weight_file_bytes_read;
}

}  // namespace ascend_emu::acl
