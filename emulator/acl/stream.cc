// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Streams: each created stream has a work queue and a worker thread
// (stream_queue.h) that runs its tasks in order; aclrtSynchronizeStream
// waits for them and reports a failed task. The default stream (NULL) has
// no worker: work queued on it runs before the call returns.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::Fail;
using ascend_emu::acl::State;
using ascend_emu::acl::StreamQueue;
using ascend_emu::acl::StreamRec;

namespace ascend_emu::acl {

StreamQueue::StreamQueue() : ring_(kCapacity) {
  worker_ = std::thread([this] { Loop(); });
}

StreamQueue::~StreamQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_.notify_one();
  worker_.join();
}

void StreamQueue::Push(const Task& task) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return tail_ - head_ < kCapacity; });
    ring_[tail_ % kCapacity] = task;
    ++tail_;
  }
  work_.notify_one();
}

void StreamQueue::Drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t target = tail_;
  done_.wait(lock, [this, target] { return head_ >= target; });
}

aclError StreamQueue::DrainAndTakeError(char* message, size_t size) {
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t target = tail_;
  done_.wait(lock, [this, target] { return head_ >= target; });
  const aclError error = error_;
  if (error != ACL_SUCCESS && size != 0) {
    std::snprintf(message, size, "%s", error_message_);
  }
  error_ = ACL_SUCCESS;
  error_message_[0] = '\0';
  return error;
}

void StreamQueue::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock, [this] { return stop_ || head_ != tail_; });
    if (head_ == tail_) return;  // stopped, and nothing left to run
    const Task task = ring_[head_ % kCapacity];
    lock.unlock();
    RunTask(task);
    lock.lock();
    ++head_;
    done_.notify_all();
  }
}

void StreamQueue::RunTask(const Task& task) {
  if (task.kind == Task::kCopy) {
    if (task.count != 0) std::memmove(task.dst, task.src, task.count);
    return;
  }
  ModelRec& record = *task.record;
  // The caller that queued the run let go of the model before queueing it;
  // another caller may hold it for a moment, to check its own run.
  for (int spins = 0; !record.Hold(); ++spins) {
    if (spins < 64) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }
  const bool ok = !record.TakeInjectedFailure() &&
                  record.model->Run(task.inputs, task.outputs, record.work,
                                    &record.run_error);
  if (ok) {
    g_lane.executes.fetch_add(1, std::memory_order_relaxed);
  } else {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_ == ACL_SUCCESS) {
      error_ = ACL_ERROR_RT_MODEL_EXECUTE;
      std::snprintf(error_message_, sizeof(error_message_),
                    "model %u failed to run (aclmdlExecuteAsync): %s",
                    record.id, record.run_error.c_str());
    }
  }
  record.Release();
  record.queued.fetch_sub(1, std::memory_order_release);
}

void DrainStreams(State& state) {
  for (const auto& [handle, stream] : state.streams) {
    if (stream->queue != nullptr) stream->queue->Drain();
  }
}

}  // namespace ascend_emu::acl

extern "C" {

ACL_EMU_EXPORT aclError aclrtCreateStream(aclrtStream* stream) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (stream == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  auto record = std::make_unique<StreamRec>();
  record->serial = state.next_serial++;
  record->context = context;
  record->queue = std::make_unique<StreamQueue>();
  StreamRec* raw = record.get();
  state.streams.emplace(raw, std::move(record));
  *stream = raw;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtDestroyStream(aclrtStream stream) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  auto it = state.streams.find(stream);
  if (it == state.streams.end()) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "stream %p is not a live stream (never created, or destroyed)",
                stream);
  }
  state.streams.erase(it);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtSynchronizeStream(aclrtStream stream) {
  // Shared (api_call.h): called after every asynchronous run.
  static ascend_emu::acl::ApiSite site(__func__);
  ApiCall call(site, ApiCall::kShared);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (stream == nullptr) {
    // The default stream of the current context.
    ContextRec* context = nullptr;
    return ascend_emu::acl::RequireCurrentContext(state, call.thread(),
                                                  &context);
  }
  auto it = state.streams.find(stream);
  if (it == state.streams.end()) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "stream %p is not a live stream (never created, or destroyed)",
                stream);
  }
  // Waits for every task queued so far. Like CANN, a task that failed on
  // the device is reported here, by the call that waits for it: its code
  // (ACL_ERROR_RT_MODEL_EXECUTE for a model run) and, in
  // aclGetRecentErrMsg, what failed.
  char message[512];
  if (aclError rc =
          it->second->queue->DrainAndTakeError(message, sizeof(message))) {
    return Fail(rc, "a task queued on stream %p failed: %s", stream, message);
  }
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  // Needs no context (hicann/runtime ApiImpl::GetRunMode asks the driver).
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (runMode == nullptr) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "runMode is NULL");
  }
  *runMode = call.state().config.device_run_mode ? ACL_DEVICE : ACL_HOST;
  return ACL_SUCCESS;
}

}  // extern "C"
