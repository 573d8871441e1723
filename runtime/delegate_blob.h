// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The delegate blob (`processed_bytes`, docs/blob-format.md): only what the
// runtime needs and cannot get elsewhere, which is the named-data key of the
// compiled model. The I/O signature comes from the model's own description
// (aclmdlDesc), the target SoC and device from the compile specs.
//
// The format's constants come from src/executorch_ascend/delegate_blob.json,
// the spec the Python encoder reads too (delegate_blob_format.h is generated
// from it by CMake).
#pragma once

#include <delegate_blob_format.h>
#include <executorch/runtime/core/result.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace executorch::backends::ascend {

struct DelegateBlob {
  // Named-data key of the .om, "ascend/om/<sha256>".
  std::string om_key;
};

// Parses a blob. Errors (each logged once):
//   DelegateInvalidCompatibility  a version other than kBlobVersion;
//   InvalidProgram                anything else malformed.
executorch::runtime::Result<DelegateBlob> read_delegate_blob(const void* data,
                                                             size_t size);

// The bytes of `blob`, as the Python encoder writes them (tests and tools).
std::vector<uint8_t> write_delegate_blob(const DelegateBlob& blob);

}  // namespace executorch::backends::ascend
