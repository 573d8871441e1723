// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The lifecycle half of a delegate: a device reference, an ACL context on it,
// the loaded .om and its description. Created once at init, released in the
// reverse order (with the context current) when the delegate is destroyed.
#pragma once

#include <executorch/runtime/core/error.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "acl_library.h"
#include "acl_resources.h"

namespace executorch::backends::ascend {

class AclModel {
 public:
  explicit AclModel(const AclLibrary& library);
  // Makes the context current so the model, desc and context are released
  // where they were created, whichever thread destroys the delegate.
  ~AclModel();
  AclModel(const AclModel&) = delete;
  AclModel& operator=(const AclModel&) = delete;

  // Sets the device, creates a context and loads the .om (ACL copies it, so
  // `om` may be freed afterwards), then reads its description. On error what
  // was created so far is released by the destructor.
  executorch::runtime::Error load(const void* om, size_t om_size,
                                  int32_t device_id);

  // aclrtSetCurrentContext for this model's context (before every run).
  executorch::runtime::Error make_current() const;
  // make_current() if a context was created: before releasing objects made
  // in it (the delegate's I/O buffers, this model's own handles).
  void make_current_for_release() const;

  const AclLibrary& library() const { return library_; }
  const AclApi& api() const { return *api_; }
  aclmdlDesc* desc() const { return desc_.get(); }
  uint32_t model_id() const { return model_->get(); }
  int32_t device_id() const { return device_id_; }

 private:
  executorch::runtime::Error create_context(int32_t device_id);
  executorch::runtime::Error load_model(const void* om, size_t om_size);

  const AclLibrary& library_;
  const AclApi* api_;
  int32_t device_id_ = -1;
  // Declaration order is release order reversed: desc, model, context,
  // device.
  std::optional<DeviceReference> device_;
  Context context_;
  std::optional<LoadedModelId> model_;
  ModelDesc desc_;
};

}  // namespace executorch::backends::ascend
