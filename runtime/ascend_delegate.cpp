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
  const Error error = model_.load(source, options);
  return error == Error::Ok ? io_.bind(model_) : error;
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
  return io_.copy_outputs(args);
}

}  // namespace executorch::backends::ascend
