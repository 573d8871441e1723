// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "ascend_delegate.h"

#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::EValue;
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
  return error == Error::Ok ? io_.reset_states(source.named_data) : error;
}

Error AscendDelegate::run(Span<EValue*> args) {
  Error error = io_.check_args(args);
  if (error != Error::Ok) {
    return error;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  error = model_.make_current();
  if (error == Error::Ok) {
    error = io_.copy_inputs(args);
  }
  if (error != Error::Ok) {
    return error;
  }
  const aclError exec_error = model_.api().aclmdlExecute(
      model_.model_id(), io_.input_dataset(), io_.output_dataset());
  ASCEND_CHECK_OR_RETURN_ERROR(exec_error == ACL_SUCCESS, InvalidState,
                               "aclmdlExecute on device %d failed with %d: %s",
                               model_.device_id(), exec_error,
                               model_.library().recent_error());
  io_.advance_states();
  return io_.copy_outputs(args);
}

}  // namespace executorch::backends::ascend
