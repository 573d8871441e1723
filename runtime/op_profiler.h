// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Per-op profiling under an ExecuTorch event tracer (docs/runtime.md,
// "Profiling"). When a method runs with an event tracer (ETDump), its
// delegates subscribe their models to CANN's op subscription
// (aclprofModelSubscribe); after each aclmdlExecute the op records in the
// pipe become one delegate event per .om op, named after the op, which the
// debug handle map from preprocess ties to the ATen nodes it came from.
// Without a tracer nothing here runs: the execute path is unchanged.
#pragma once

#include <executorch/runtime/core/event_tracer.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "acl_library.h"

namespace executorch::backends::ascend {

// The process's one subscription pipe: CANN takes the same subscribe config
// for every model of a device (its acl_prof documentation), and one pipe for
// all keeps the rule whatever the devices.
class OpProfiler {
 public:
  static OpProfiler& get();

  // Subscribes `model_id` (with its context current). False, logged once
  // per process, when the library has no profiling API or the subscription
  // fails: the model then runs unprofiled.
  bool subscribe(const AclLibrary& library, uint32_t model_id);
  // Ends the subscription (before the model is unloaded). After the last
  // one the pipe and config are released (CANN closes the write end).
  void unsubscribe(const AclLibrary& library, uint32_t model_id);

  // Held around a profiled execute and its log_records, so that the records
  // in the pipe are the ones that execute wrote.
  std::mutex& execute_mutex() { return execute_mutex_; }

  // Reads every record waiting in the pipe and logs those of `model_id` as
  // delegate events of `tracer`, the first op starting at `start` (the
  // ticks before aclmdlExecute): device times are placed on the host's
  // clock by their offsets from the first op.
  void log_records(const AclLibrary& library, uint32_t model_id,
                   executorch::runtime::EventTracer* tracer,
                   et_timestamp_t start);

 private:
  OpProfiler() = default;
  // The pipe and the subscribe config, made at the first subscribe.
  bool open(const AclLibrary& library);
  void close_all(const AclLibrary& library);
  // One record's text (type, then name) through the readers; false if
  // ACL refuses it.
  bool read_text(const AclApi& api, const uint8_t* data, size_t length,
                 uint32_t index, bool name, std::string* out);

  std::mutex mutex_;  // guards everything below
  std::mutex execute_mutex_;
  bool warned_ = false;
  int read_fd_ = -1;
  // The write end, passed by address: CANN keeps the address, reads it at
  // each subscribe and sets it to -1 when it closes the pipe.
  int write_fd_ = -1;
  aclprofSubscribeConfig* config_ = nullptr;
  size_t subscribed_ = 0;
  size_t record_size_ = 0;
  std::vector<uint8_t> buffer_;  // whole records
  std::string type_;
  std::string name_;
};

}  // namespace executorch::backends::ascend
