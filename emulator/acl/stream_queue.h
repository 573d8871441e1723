// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The work queue of one stream (aclrtCreateStream): the tasks that
// aclrtMemcpyAsync and aclmdlExecuteAsync queue, run in order by the
// stream's own worker thread, as a device's task scheduler runs a stream.
// The calls that queue return at once; aclrtSynchronizeStream waits for
// every task queued before it and reports the first task that failed since
// the last synchronize (docs/emulator.md, "Streams").
//
// What a task reads was checked when it was queued, and stays valid until
// it has run: every call that could change it (a free, a destroy, an
// unload) is an exclusive call (api_call.h), and an exclusive call first
// waits until every stream has run what it holds (DrainStreams). A queued
// model run points at its model's checked I/O pointers (ModelRec::checked),
// which are not rewritten while the registry epoch stays.
//
// The queue is a ring of fixed size, allocated with the stream: queueing a
// task allocates nothing (execute_noalloc_test.cc). A full ring makes the
// caller wait for room, as a full task queue does on a device.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "acl_api.h"

namespace ascend_emu::acl {

struct ModelRec;

class StreamQueue {
 public:
  struct Task {
    enum Kind : uint32_t { kCopy, kRun };
    Kind kind = kCopy;
    // kCopy: memmove(dst, src, count) (its bytes were counted when queued).
    void* dst = nullptr;
    const void* src = nullptr;
    size_t count = 0;
    // kRun: the model's plain run (no gears, no profiling) on these
    // checked pointers; `record` counted this task in ModelRec::queued.
    ModelRec* record = nullptr;
    const void* const* inputs = nullptr;
    void* const* outputs = nullptr;
  };

  static constexpr size_t kCapacity = 64;

  StreamQueue();
  // Runs what is queued, then ends the worker.
  ~StreamQueue();
  StreamQueue(const StreamQueue&) = delete;
  StreamQueue& operator=(const StreamQueue&) = delete;

  // Queues a task (waits while the ring is full).
  void Push(const Task& task);
  // Waits until every task queued so far has run.
  void Drain();
  // Drain, then takes the first error of a task since the last Take: its
  // code (ACL_SUCCESS if none) and its message into `message`.
  aclError DrainAndTakeError(char* message, size_t size);

 private:
  void Loop();
  // Runs one task outside the lock; on failure records the error.
  void RunTask(const Task& task);

  std::mutex mutex_;
  std::condition_variable work_;  // a task was queued, or stop
  std::condition_variable done_;  // a task finished (room, or drained)
  std::vector<Task> ring_;
  uint64_t head_ = 0;  // tasks finished
  uint64_t tail_ = 0;  // tasks queued
  bool stop_ = false;
  aclError error_ = ACL_SUCCESS;
  char error_message_[512] = {};
  std::thread worker_;
};

}  // namespace ascend_emu::acl
