// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "acl_model.h"

#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;

AclModel::AclModel(const AclLibrary& library)
    : library_(library), api_(&library.api()) {}

AclModel::~AclModel() { make_current_for_release(); }

void AclModel::make_current_for_release() const {
  // Once the fallback is in place (the delegate's destructor came first),
  // the model's own destructor keeps it.
  if (!context_ || release_device_ || make_current() == Error::Ok) {
    return;
  }
  const aclError error = api_->aclrtSetDevice(device_id_);
  if (error == ACL_SUCCESS) {
    release_device_.emplace(api_, device_id_);
    ASCEND_LOG(Error,
               "releasing the model on device %d in the device's default "
               "context instead of its own",
               device_id_);
    return;
  }
  ASCEND_LOG(Error,
             "aclrtSetDevice(%d) failed with %d: %s; no context of the device "
             "is current, so releasing the model's objects may fail",
             device_id_, error, library_.recent_error());
}

Error AclModel::make_current() const {
  const aclError error = api_->aclrtSetCurrentContext(context_.get());
  ASCEND_CHECK_OR_RETURN_ERROR(
      error == ACL_SUCCESS, DelegateInvalidHandle,
      "aclrtSetCurrentContext(device %d) failed with %d: %s", device_id_, error,
      library_.recent_error());
  return Error::Ok;
}

Error AclModel::load(const ModelSource& source, const LoadOptions& options) {
  Error error = create_context(options.device_id);
  if (error == Error::Ok)
    error = acquire_weights(source, options.verify_weights);
  if (error == Error::Ok) error = allocate_memory(source, options);
  if (error == Error::Ok) error = load_model(source, options);
  if (error == Error::Ok) error = read_desc();
  return error;
}

Error AclModel::create_context(int32_t device_id) {
  aclError error = api_->aclrtSetDevice(device_id);
  ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS, InvalidState,
                               "aclrtSetDevice(%d) failed with %d: %s",
                               device_id, error, library_.recent_error());
  device_.emplace(api_, device_id);
  device_id_ = device_id;

  aclrtContext context = nullptr;
  error = api_->aclrtCreateContext(&context, device_id);
  ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS && context != nullptr,
                               InvalidState,
                               "aclrtCreateContext(%d) failed with %d: %s",
                               device_id, error, library_.recent_error());
  context_ = Context(api_, context);
  // aclrtCreateContext makes the new context current on this thread already;
  // set it explicitly so the rest of load() does not rely on that.
  const Error current = make_current();
  if (current != Error::Ok) return current;

  aclrtStream stream = nullptr;
  error = api_->aclrtCreateStream(&stream);
  ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS && stream != nullptr,
                               InvalidState,
                               "aclrtCreateStream on device %d failed with "
                               "%d: %s",
                               device_id, error, library_.recent_error());
  stream_ = Stream(api_, stream);

  aclrtRunMode mode = ACL_HOST;
  error = api_->aclrtGetRunMode(&mode);
  ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS, InvalidState,
                               "aclrtGetRunMode failed with %d: %s", error,
                               library_.recent_error());
  device_run_mode_ = mode == ACL_DEVICE;
  return Error::Ok;
}

Error AclModel::read_desc() {
  desc_ = ModelDesc(api_, api_->aclmdlCreateDesc());
  ASCEND_CHECK_OR_RETURN_ERROR(static_cast<bool>(desc_), InvalidState,
                               "aclmdlCreateDesc failed: %s",
                               library_.recent_error());
  const aclError error = api_->aclmdlGetDesc(desc_.get(), model_->get());
  ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS, InvalidState,
                               "aclmdlGetDesc failed with %d: %s", error,
                               library_.recent_error());
  return Error::Ok;
}

}  // namespace executorch::backends::ascend
