// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The process-wide weights cache: one device copy of each external weight
// file per device, shared by every delegate that names its named-data key,
// in every method and every program of the process (as XNNPACK's weights
// cache shares packed weights). Uploaded by the first delegate that needs
// it, freed when the last one goes. Thread-safe.
#pragma once

#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/core/result.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "acl_library.h"
#include "delegate_blob.h"
#include "device_allocation.h"
#include "shared_registry.h"

namespace executorch::backends::ascend {

// One weight file's bytes in device memory.
struct DeviceWeight {
  // The file's size rounded up to ACL_EXTERNAL_WEIGHT_SIZE_ALIGNMENT, what
  // aclmdlSetExternalWeightAddress is given.
  DeviceAllocation allocation;
  uint64_t bytes = 0;  // the file's size
  // Checked against its key before the upload (content_digest.h).
  bool verified = false;
};

class WeightsCache {
 public:
  static WeightsCache& get();

  // The device copy of `weight` on `device`: the one another delegate
  // holds, or else uploaded now from `data` (get_data maps the named data
  // without a host copy where the data loader can, and the buffer is freed
  // right after the upload, so one weight at a time is mapped). A context
  // of `device` must be current; the last holder releases the copy with a
  // context of that device current. With `verify`, this program's bytes
  // are checked against the SHA-256 the key names first (even when a copy
  // is on the device already), and a copy another delegate uploaded
  // unchecked is not reused: this one uploads its own, checked, and later
  // acquirers share that (the unchecked copy lives on with its holders).
  // Errors: NotFound (no such key: the .ptd holding the weights was not
  // loaded), InvalidProgram (its size is not the blob's), InvalidExternalData
  // (verify: the bytes are not the key's), DelegateMemoryAllocationFailed,
  // InvalidState (the upload).
  executorch::runtime::Result<std::shared_ptr<const DeviceWeight>> acquire(
      const AclLibrary& library, int32_t device,
      const executorch::runtime::NamedDataMap& data,
      const ExternalWeight& weight, bool verify = false);

  // Weights with a device copy, all devices (for tests).
  size_t live() const { return entries_.live(); }

 private:
  WeightsCache() = default;
  SharedRegistry<std::pair<int32_t, std::string>, DeviceWeight> entries_;
};

}  // namespace executorch::backends::ascend
