// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Device memory with its size, for memory a model is loaded with (external
// weights, work and inline-weight memory), which several delegates may
// share.
#pragma once

#include <executorch/runtime/core/result.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "acl_library.h"
#include "acl_resources.h"

namespace executorch::backends::ascend {

struct DeviceAllocation {
  DeviceMemory memory;  // freed with a context of its device current
  size_t size = 0;      // bytes allocated
  void* get() const { return memory.get(); }
};

// aclrtMalloc of `size` bytes (> 0) on the current context's device;
// DelegateMemoryAllocationFailed, logged naming `what`, on failure.
executorch::runtime::Result<std::unique_ptr<DeviceAllocation>>
allocate_device_memory(const AclLibrary& library, size_t size, int32_t device,
                       const char* what);

}  // namespace executorch::backends::ascend
