// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shared pieces of the AscendBackend tests: a NamedDataMap over in-memory
// bytes, and a way to call init/execute/destroy through the real registry
// with a real BackendInitContext.
#pragma once

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/named_data_map.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ascend_backend.h"

namespace executorch::backends::ascend::testing {

using executorch::runtime::Error;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::Result;

// Holds named byte blobs; counts how many buffers handed out are still held
// by the caller (not yet freed).
class BytesNamedDataMap final : public executorch::runtime::NamedDataMap {
 public:
  void add(const std::string& key, std::vector<uint8_t> bytes) {
    data_[key] = std::move(bytes);
  }
  int outstanding() const { return outstanding_; }

  Result<const executorch::runtime::TensorLayout> get_tensor_layout(
      std::string_view) const override {
    return Error::NotImplemented;
  }
  Result<FreeableBuffer> get_data(std::string_view key) const override {
    auto it = data_.find(std::string(key));
    if (it == data_.end()) {
      return Error::NotFound;
    }
    ++outstanding_;
    return FreeableBuffer(
        it->second.data(), it->second.size(),
        [](void* self, void*, size_t) {
          --static_cast<const BytesNamedDataMap*>(self)->outstanding_;
        },
        const_cast<BytesNamedDataMap*>(this));
  }
  Error load_data_into(std::string_view key, void* buffer,
                       size_t size) const override {
    auto it = data_.find(std::string(key));
    if (it == data_.end()) {
      return Error::NotFound;
    }
    if (size != it->second.size()) {
      return Error::InvalidArgument;
    }
    std::memcpy(buffer, it->second.data(), size);
    return Error::Ok;
  }
  Result<uint32_t> get_num_keys() const override {
    return static_cast<uint32_t>(data_.size());
  }
  Result<const char*> get_key(uint32_t index) const override {
    if (index >= data_.size()) {
      return Error::InvalidArgument;
    }
    auto it = data_.begin();
    std::advance(it, index);
    return it->first.c_str();
  }

 private:
  std::map<std::string, std::vector<uint8_t>> data_;
  // Atomic: delegates may be initialised from several threads at once.
  mutable std::atomic<int> outstanding_{0};
};

// The backend as the runtime sees it: looked up by name in the registry.
inline executorch::runtime::BackendInterface* registered_backend() {
  return executorch::runtime::get_backend_class(kAscendBackendName);
}

// A copy of a blob handed to init as `processed`, recording whether the
// backend freed it.
class ProcessedBlob {
 public:
  explicit ProcessedBlob(std::vector<uint8_t> bytes)
      : bytes_(std::move(bytes)),
        buffer_(
            bytes_.data(), bytes_.size(),
            [](void* self, void*, size_t) {
              static_cast<ProcessedBlob*>(self)->freed_ = true;
            },
            this) {}
  FreeableBuffer* get() { return &buffer_; }
  bool freed() const { return freed_; }

 private:
  std::vector<uint8_t> bytes_;
  bool freed_ = false;
  FreeableBuffer buffer_;
};

// A runtime allocator over a fixed arena, as Method gives one.
class Arena {
 public:
  explicit Arena(size_t size = 64 * 1024)
      : storage_(size),
        allocator_(static_cast<uint32_t>(size), storage_.data()) {}
  executorch::runtime::MemoryAllocator* get() { return &allocator_; }

 private:
  std::vector<uint8_t> storage_;
  executorch::runtime::MemoryAllocator allocator_;
};

}  // namespace executorch::backends::ascend::testing
