// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// One loaded delegate (the DelegateHandle): the model's lifecycle (AclModel)
// and its I/O binding (IoBinding), both created once at init and reused by
// every run.
#pragma once

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/span.h>

#include <cstddef>
#include <cstdint>
#include <mutex>

#include "acl_library.h"
#include "acl_model.h"
#include "io_binding.h"

namespace executorch::backends::ascend {

class AscendDelegate {
 public:
  explicit AscendDelegate(const AclLibrary& library) : model_(library) {}
  // The I/O buffers die first and must be freed in the model's context,
  // whichever thread destroys the delegate.
  ~AscendDelegate();
  AscendDelegate(const AscendDelegate&) = delete;
  AscendDelegate& operator=(const AscendDelegate&) = delete;

  // Loads the .om (AclModel::load) and binds its inputs and outputs. On
  // error everything created so far is released by the destructor.
  executorch::runtime::Error load(const ModelSource& source,
                                  const LoadOptions& options);

  // args: the delegate's inputs then outputs. Checks every EValue, queues
  // the input copies, the execute and the output copies on the model's
  // stream and waits for them once (aclrtSynchronizeStream); in RC mode
  // binds the tensors in place instead of copying. Allocates nothing;
  // serialised per delegate because an ACL model id must not run concurrently.
  // With an event tracer, the first run subscribes the model to per-op
  // profiling and every run logs one delegate event per .om op (op_profiler.h);
  // without one, nothing more happens.
  executorch::runtime::Error run(
      executorch::runtime::Span<executorch::runtime::EValue*> args,
      executorch::runtime::EventTracer* tracer = nullptr);

  int32_t device_id() const { return model_.device_id(); }
  uint32_t model_id() const { return model_.model_id(); }

 private:
  // aclmdlExecute under an event tracer: subscribed (once) and logged.
  aclError run_profiled(executorch::runtime::EventTracer* tracer);
  // Waits for the stream after a failure (what it reports is logged only).
  void drain();

  std::mutex mutex_;
  // Per-op profiling: not tried until a run has an event tracer; then on
  // (subscribed until the delegate dies) or off (the library cannot).
  enum class Profiling { kUntried, kOn, kOff };
  Profiling profiling_ = Profiling::kUntried;
  // Declaration order is release order reversed: the binding's buffers and
  // datasets go before the model, its context and the device.
  AclModel model_;
  IoBinding io_;
};

}  // namespace executorch::backends::ascend
