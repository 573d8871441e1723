// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Work buffers shared by the delegates of one method instance (the
// "workspace": "shared" load-time option). A method runs its delegates one
// after another, so one buffer can serve all of them. A method instance is
// its runtime allocator (one per loaded Method) and its name; delegates on
// different devices get different buffers.
//
// A delegate whose work size exceeds the current buffer allocates a larger
// one that later delegates share; earlier delegates keep the smaller one
// (reference counted), so the largest-first init order gives one buffer.
// Thread-safe.
#pragma once

#include <executorch/runtime/core/result.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>

#include "acl_library.h"
#include "device_allocation.h"
#include "shared_registry.h"

namespace executorch::backends::ascend {

class SharedWorkspaces {
 public:
  static SharedWorkspaces& get();

  // A work buffer of at least `size` bytes on `device` (a context of it
  // current) for the method instance (`method_allocator`, `method_name`).
  executorch::runtime::Result<std::shared_ptr<const DeviceAllocation>> acquire(
      const AclLibrary& library, const void* method_allocator,
      const char* method_name, int32_t device, size_t size);

  // Method instances with a live buffer (for tests).
  size_t live() const { return entries_.live(); }

 private:
  SharedWorkspaces() = default;
  using Key = std::tuple<const void*, std::string, int32_t>;
  SharedRegistry<Key, DeviceAllocation> entries_;
};

}  // namespace executorch::backends::ascend
