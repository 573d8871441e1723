// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "shared_workspace.h"

namespace executorch::backends::ascend {

using executorch::runtime::Result;

SharedWorkspaces& SharedWorkspaces::get() {
  // Never destroyed: delegates may be destroyed during static destruction.
  static SharedWorkspaces* workspaces = new SharedWorkspaces();
  return *workspaces;
}

Result<std::shared_ptr<const DeviceAllocation>> SharedWorkspaces::acquire(
    const AclLibrary& library, const void* method_allocator,
    const char* method_name, int32_t device, size_t size) {
  auto buffer = entries_.get(
      Key{method_allocator, method_name == nullptr ? "" : method_name, device},
      [size](const DeviceAllocation& current) { return current.size >= size; },
      [&] {
        return allocate_device_memory(library, size, device,
                                      "the method's shared work memory");
      });
  if (!buffer.ok()) {
    return buffer.error();
  }
  return std::shared_ptr<const DeviceAllocation>(std::move(buffer.get()));
}

}  // namespace executorch::backends::ascend
