// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// RAII owners for the ACL objects a delegate holds, so every error path of
// init and every destroy releases exactly what was created. Release failures
// are logged, never fatal: there is nothing better to do at that point.
//
// ACL releases must run in the context that created the object; the owner of
// these wrappers (AclModel, and AscendDelegate for the I/O buffers) makes
// its context current before they die.
#pragma once

#include <utility>
#include <vector>

#include "acl_library.h"
#include "log.h"

namespace executorch::backends::ascend {

namespace internal {
// ACL's own account of the last failure (aclGetRecentErrMsg), never null.
inline const char* recent_error(const AclApi& api) {
  const char* message =
      api.aclGetRecentErrMsg != nullptr ? api.aclGetRecentErrMsg() : nullptr;
  return message != nullptr ? message : "";
}
inline void log_release_failure(const AclApi& api, const char* what,
                                aclError error) {
  if (error != ACL_SUCCESS) {
    ASCEND_LOG(Error, "%s failed with error %d: %s", what, error,
               recent_error(api));
  }
}
}  // namespace internal

// Move-only owner of one ACL handle. Release is a stateless functor taking
// (const AclApi&, Handle).
template <typename Handle, typename Release>
class AclOwned {
 public:
  AclOwned() = default;
  AclOwned(const AclApi* api, Handle handle) : api_(api), handle_(handle) {}
  AclOwned(AclOwned&& other) noexcept
      : api_(other.api_), handle_(std::exchange(other.handle_, Handle{})) {}
  AclOwned& operator=(AclOwned&& other) noexcept {
    if (this != &other) {
      reset();
      api_ = other.api_;
      handle_ = std::exchange(other.handle_, Handle{});
    }
    return *this;
  }
  AclOwned(const AclOwned&) = delete;
  AclOwned& operator=(const AclOwned&) = delete;
  ~AclOwned() { reset(); }

  Handle get() const { return handle_; }
  explicit operator bool() const { return handle_ != Handle{}; }
  // Gives up ownership (for a release whose failure must be reported).
  Handle release() { return std::exchange(handle_, Handle{}); }

  void reset() {
    if (handle_ != Handle{}) {
      Release{}(*api_, handle_);
      handle_ = Handle{};
    }
  }

 private:
  const AclApi* api_ = nullptr;
  Handle handle_{};
};

struct ReleaseDeviceMemory {
  void operator()(const AclApi& api, void* ptr) const {
    internal::log_release_failure(api, "aclrtFree", api.aclrtFree(ptr));
  }
};
struct ReleaseDataBuffer {
  void operator()(const AclApi& api, aclDataBuffer* buffer) const {
    internal::log_release_failure(api, "aclDestroyDataBuffer",
                                  api.aclDestroyDataBuffer(buffer));
  }
};
struct ReleaseModelDesc {
  void operator()(const AclApi& api, aclmdlDesc* desc) const {
    internal::log_release_failure(api, "aclmdlDestroyDesc",
                                  api.aclmdlDestroyDesc(desc));
  }
};
struct ReleaseConfigHandle {
  void operator()(const AclApi& api, aclmdlConfigHandle* handle) const {
    internal::log_release_failure(api, "aclmdlDestroyConfigHandle",
                                  api.aclmdlDestroyConfigHandle(handle));
  }
};
struct ReleaseContext {
  void operator()(const AclApi& api, aclrtContext context) const {
    internal::log_release_failure(api, "aclrtDestroyContext",
                                  api.aclrtDestroyContext(context));
  }
};

struct ReleaseStream {
  void operator()(const AclApi& api, aclrtStream stream) const {
    internal::log_release_failure(api, "aclrtDestroyStream",
                                  api.aclrtDestroyStream(stream));
  }
};

// Device memory from aclrtMalloc.
using DeviceMemory = AclOwned<void*, ReleaseDeviceMemory>;
// aclDataBuffer describing (not owning) device memory.
using DataBuffer = AclOwned<aclDataBuffer*, ReleaseDataBuffer>;
// Model description from aclmdlCreateDesc.
using ModelDesc = AclOwned<aclmdlDesc*, ReleaseModelDesc>;
// Model load configuration from aclmdlCreateConfigHandle.
using ConfigHandle = AclOwned<aclmdlConfigHandle*, ReleaseConfigHandle>;
// Explicit context from aclrtCreateContext.
using Context = AclOwned<aclrtContext, ReleaseContext>;
// A stream of a context (aclrtCreateStream): destroyed before its context.
using Stream = AclOwned<aclrtStream, ReleaseStream>;

// aclrtSetDevice/aclrtResetDevice pair: ACL reference-counts devices per
// process, so each delegate holds one reference for its lifetime.
class DeviceReference {
 public:
  DeviceReference() = default;
  DeviceReference(const AclApi* api, int32_t device)
      : api_(api), device_(device) {}
  DeviceReference(const DeviceReference&) = delete;
  DeviceReference& operator=(const DeviceReference&) = delete;
  ~DeviceReference() {
    if (api_ != nullptr) {
      internal::log_release_failure(*api_, "aclrtResetDevice",
                                    api_->aclrtResetDevice(device_));
    }
  }

 private:
  const AclApi* api_ = nullptr;
  int32_t device_ = -1;
};

// A loaded model id; unloaded on destruction.
class LoadedModelId {
 public:
  LoadedModelId() = default;
  LoadedModelId(const AclApi* api, uint32_t id) : api_(api), id_(id) {}
  LoadedModelId(const LoadedModelId&) = delete;
  LoadedModelId& operator=(const LoadedModelId&) = delete;
  ~LoadedModelId() {
    if (api_ != nullptr) {
      internal::log_release_failure(*api_, "aclmdlUnload",
                                    api_->aclmdlUnload(id_));
    }
  }
  uint32_t get() const { return id_; }

 private:
  const AclApi* api_ = nullptr;
  uint32_t id_ = 0;
};

// A dataset and the data buffers added to it. ACL's aclmdlDestroyDataset does
// not destroy the buffers, so the dataset owns them here: buffers are
// destroyed first, then the dataset (members die in reverse order).
class Dataset {
 public:
  Dataset() = default;
  Dataset(const Dataset&) = delete;
  Dataset& operator=(const Dataset&) = delete;
  ~Dataset() {
    buffers_.clear();
    if (dataset_ != nullptr) {
      internal::log_release_failure(*api_, "aclmdlDestroyDataset",
                                    api_->aclmdlDestroyDataset(dataset_));
    }
  }

  // aclmdlCreateDataset; false (logged) on failure.
  bool create(const AclApi* api) {
    api_ = api;
    dataset_ = api->aclmdlCreateDataset();
    if (dataset_ == nullptr) {
      ASCEND_LOG(Error, "aclmdlCreateDataset failed: %s",
                 internal::recent_error(*api));
      return false;
    }
    return true;
  }

  // Wraps `size` bytes of device memory at `data` and appends them.
  // The caller reserves capacity first so no reallocation happens; false
  // (logged) on failure, with nothing leaked.
  bool add(void* data, size_t size) {
    DataBuffer buffer(api_, api_->aclCreateDataBuffer(data, size));
    if (!buffer) {
      ASCEND_LOG(Error, "aclCreateDataBuffer(%zu bytes) failed: %s", size,
                 internal::recent_error(*api_));
      return false;
    }
    const aclError error = api_->aclmdlAddDatasetBuffer(dataset_, buffer.get());
    if (error != ACL_SUCCESS) {
      ASCEND_LOG(Error, "aclmdlAddDatasetBuffer failed with %d: %s", error,
                 internal::recent_error(*api_));
      return false;
    }
    buffers_.push_back(std::move(buffer));
    return true;
  }

  void reserve(size_t count) { buffers_.reserve(count); }
  aclmdlDataset* get() const { return dataset_; }
  // The i-th data buffer added (for aclUpdateDataBuffer).
  aclDataBuffer* buffer(size_t i) const { return buffers_[i].get(); }

 private:
  const AclApi* api_ = nullptr;
  aclmdlDataset* dataset_ = nullptr;
  std::vector<DataBuffer> buffers_;
};

}  // namespace executorch::backends::ascend
