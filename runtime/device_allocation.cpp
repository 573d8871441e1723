// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "device_allocation.h"

#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::Result;

Result<std::unique_ptr<DeviceAllocation>> allocate_device_memory(
    const AclLibrary& library, size_t size, int32_t device, const char* what) {
  const AclApi& api = library.api();
  void* memory = nullptr;
  const aclError error =
      api.aclrtMalloc(&memory, size, ACL_MEM_MALLOC_HUGE_FIRST);
  ASCEND_CHECK_OR_RETURN_ERROR(
      error == ACL_SUCCESS && memory != nullptr, DelegateMemoryAllocationFailed,
      "aclrtMalloc(%zu bytes) for %s on device %d failed with %d: %s", size,
      what, device, error, library.recent_error());
  auto allocation = std::make_unique<DeviceAllocation>();
  allocation->memory = DeviceMemory(&api, memory);
  allocation->size = size;
  return allocation;
}

}  // namespace executorch::backends::ascend
