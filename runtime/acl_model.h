// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The lifecycle half of a delegate: a device reference, an ACL context on it,
// the memory the model is loaded with (its external weights from the weights
// cache, and work and inline-weight memory when the backend owns it), the
// loaded .om and its description. Created once at init, released in the
// reverse order (with the context current) when the delegate is destroyed.
#pragma once

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/named_data_map.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "acl_library.h"
#include "acl_resources.h"
#include "delegate_blob.h"
#include "device_allocation.h"
#include "weights_cache.h"
#include "workspace_option.h"

namespace executorch::backends::ascend {

// What a delegate loads.
struct ModelSource {
  const void* om = nullptr;  // ACL copies it: may be freed after load()
  size_t om_size = 0;
  // The .om's external weight files (the blob's list) and the named data
  // that holds their bytes.
  const std::vector<ExternalWeight>* weights = nullptr;
  const executorch::runtime::NamedDataMap* named_data = nullptr;
  // The .om inputs and outputs that are device state (the blob's list), and
  // where their initial values are (named_data).
  const std::vector<DeviceStateEntry>* states = nullptr;
};

// How it is loaded.
struct LoadOptions {
  int32_t device_id = 0;
  WorkspaceMode workspace = WorkspaceMode::kAcl;
  // The method instance whose delegates share work memory (kShared).
  const void* method_allocator = nullptr;
  const char* method_name = nullptr;
  // Check every named-data item against the SHA-256 its key names before it
  // is uploaded (content_digest.h).
  bool verify_weights = false;
};

class AclModel {
 public:
  explicit AclModel(const AclLibrary& library);
  // Makes the context current so everything is released where it was
  // created, whichever thread destroys the delegate.
  ~AclModel();
  AclModel(const AclModel&) = delete;
  AclModel& operator=(const AclModel&) = delete;

  // Sets the device and creates a context, gets the external weights onto
  // the device (shared through the weights cache), allocates work and
  // inline-weight memory if the backend owns it, loads the .om and reads
  // its description. On error what was created so far is released by the
  // destructor.
  executorch::runtime::Error load(const ModelSource& source,
                                  const LoadOptions& options);

  // aclrtSetCurrentContext for this model's context (before every run).
  executorch::runtime::Error make_current() const;
  // make_current() if a context was created: before releasing objects made
  // in it (the delegate's I/O buffers, this model's own handles). When that
  // fails, the device's default context is made current instead
  // (aclrtSetDevice, undone after everything else is released): a release
  // needs some context of the device, and without one every release after
  // it would fail and leave its object alive.
  void make_current_for_release() const;

  const AclLibrary& library() const { return library_; }
  const AclApi& api() const { return *api_; }
  aclmdlDesc* desc() const { return desc_.get(); }
  // The stream every run of this model goes on (copies in, execute, copies
  // out, then one aclrtSynchronizeStream).
  aclrtStream stream() const { return stream_.get(); }
  // aclrtGetRunMode == ACL_DEVICE: the program runs on the board itself (RC
  // mode), whose NPU shares the host's memory.
  bool device_run_mode() const { return device_run_mode_; }
  uint32_t model_id() const { return model_->get(); }
  int32_t device_id() const { return device_id_; }

 private:
  executorch::runtime::Error create_context(int32_t device_id);
  // acl_model_load.cpp: the memory a model is loaded with, and the loads.
  // verify: each weight checked against its key (content_digest.h) before
  // it is uploaded, and a copy uploaded unchecked is not reused.
  executorch::runtime::Error acquire_weights(const ModelSource& source,
                                             bool verify);
  executorch::runtime::Error allocate_memory(const ModelSource& source,
                                             const LoadOptions& options);
  executorch::runtime::Error load_model(const ModelSource& source,
                                        const LoadOptions& options);
  executorch::runtime::Error load_with_config(const ModelSource& source,
                                              bool with_memory);
  executorch::runtime::Error read_desc();

  const AclLibrary& library_;
  const AclApi* api_;
  int32_t device_id_ = -1;
  bool device_run_mode_ = false;
  // The fallback reference of make_current_for_release(); declared first so
  // it is reset last, after every object released in its context.
  mutable std::optional<DeviceReference> release_device_;
  // Declaration order is release order reversed: desc, model (unloaded
  // before the memory it uses), inline weights, work memory, external
  // weights, stream, context, device.
  std::optional<DeviceReference> device_;
  Context context_;
  Stream stream_;
  // One per entry of the blob's weight list, in its order.
  std::vector<std::shared_ptr<const DeviceWeight>> weights_;
  std::shared_ptr<const DeviceAllocation> work_;
  std::unique_ptr<DeviceAllocation> inline_weights_;
  std::optional<LoadedModelId> model_;
  ModelDesc desc_;
};

}  // namespace executorch::backends::ascend
