// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "ascend_delegate.h"

#include <executorch/runtime/platform/platform.h>

#include "log.h"
#include "op_profiler.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::EventTracer;
using executorch::runtime::Span;

Error AscendDelegate::load(const ModelSource& source,
                           const LoadOptions& options) {
  static const std::vector<DeviceStateEntry> kNoStates;
  Error error = model_.load(source, options);
  if (error == Error::Ok) {
    error =
        io_.bind(model_, source.states != nullptr ? *source.states : kNoStates);
  }
  // Every load starts from the initial state: a reloaded method forgets what
  // an earlier instance wrote, and two instances never share it.
  return error == Error::Ok
             ? io_.reset_states(source.named_data, options.verify_weights)
             : error;
}

AscendDelegate::~AscendDelegate() {
  model_.make_current_for_release();
  if (profiling_ == Profiling::kOn) {
    // Before the model is unloaded (AclModel's destructor): CANN refuses to
    // unsubscribe a model it no longer knows.
    OpProfiler::get().unsubscribe(model_.library(), model_.model_id());
  }
}

Error AscendDelegate::run(Span<EValue*> args, EventTracer* tracer) {
  size_t gear = 0;
  Error error = io_.check_args(args, &gear);
  if (error != Error::Ok) {
    return error;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  error = model_.make_current();
  if (error == Error::Ok) {
    error = io_.use_gear(gear);
  }
  if (error == Error::Ok) {
    error = io_.copy_inputs(args);
  }
  if (error != Error::Ok) {
    // Copies queued before the failure read the caller's tensors: they end
    // before this call does.
    drain();
    return error;
  }
  aclError exec_error = ACL_SUCCESS;
  if (tracer == nullptr && profiling_ != Profiling::kOn) {
    // The plain path: queued behind the input copies, nothing waited for.
    exec_error =
        model_.api().aclmdlExecuteAsync(model_.model_id(), io_.input_dataset(),
                                        io_.output_dataset(), model_.stream());
  } else {
    exec_error = run_profiled(tracer);
  }
  if (exec_error != ACL_SUCCESS) {
    drain();
    ASCEND_LOG(Error, "%s on device %d failed with %d: %s",
               tracer == nullptr && profiling_ != Profiling::kOn
                   ? "aclmdlExecuteAsync"
                   : "aclmdlExecute",
               model_.device_id(), exec_error, model_.library().recent_error());
    return Error::InvalidState;
  }
  io_.advance_states();
  error = io_.copy_outputs(args);
  if (error != Error::Ok) {
    drain();
    return error;
  }
  // The one wait of the call: ExecuTorch reads the outputs as soon as
  // execute() returns, so the delegate cannot leave work in flight.
  const aclError sync_error =
      model_.api().aclrtSynchronizeStream(model_.stream());
  if (sync_error != ACL_SUCCESS) {
    // A run that failed on the device (CANN's code for a failed model task)
    // has not written the next state: keep the last one. After another
    // failure of the synchronisation itself the run may have completed.
    if (sync_error == ACL_ERROR_RT_MODEL_EXECUTE) io_.retreat_states();
    ASCEND_LOG(Error,
               "aclrtSynchronizeStream on device %d failed with %d (a copy or "
               "the model run queued on the stream): %s",
               model_.device_id(), sync_error, model_.library().recent_error());
    return Error::InvalidState;
  }
  return Error::Ok;
}

void AscendDelegate::drain() {
  const aclError error = model_.api().aclrtSynchronizeStream(model_.stream());
  if (error != ACL_SUCCESS) {
    ASCEND_LOG(Error,
               "aclrtSynchronizeStream on device %d after a failed call "
               "failed with %d: %s",
               model_.device_id(), error, model_.library().recent_error());
  }
}

aclError AscendDelegate::run_profiled(EventTracer* tracer) {
  OpProfiler& profiler = OpProfiler::get();
  if (profiling_ == Profiling::kUntried && tracer != nullptr) {
    profiling_ = profiler.subscribe(model_.library(), model_.model_id())
                     ? Profiling::kOn
                     : Profiling::kOff;
  }
  // A profiled run is synchronous (its op records are read right after
  // it): the input copies queued on the stream land first.
  const aclError synced = model_.api().aclrtSynchronizeStream(model_.stream());
  if (synced != ACL_SUCCESS) return synced;
  if (profiling_ != Profiling::kOn) {
    return model_.api().aclmdlExecute(model_.model_id(), io_.input_dataset(),
                                      io_.output_dataset());
  }
  // One profiled execute at a time in the process: the pipe then holds
  // this execute's records only. A subscribed model run without a tracer
  // still writes records: they are read and dropped (a null tracer logs
  // nothing), so no later traced run takes them for its own.
  std::lock_guard<std::mutex> lock(profiler.execute_mutex());
  const et_timestamp_t start = et_pal_current_ticks();
  const aclError error = model_.api().aclmdlExecute(
      model_.model_id(), io_.input_dataset(), io_.output_dataset());
  if (error == ACL_SUCCESS) {
    profiler.log_records(model_.library(), model_.model_id(), tracer, start);
  }
  return error;
}

}  // namespace executorch::backends::ascend
