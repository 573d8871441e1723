// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The delegate blob (`processed_bytes`, docs/blob-format.md): only what the
// runtime needs and cannot get elsewhere: the named-data key of the compiled
// model, and the external weight files the model reads (the name the .om
// uses, where the bytes are in named data, their size), and the mutable
// buffers it keeps on the device as state. The I/O signature
// comes from the model's own description (aclmdlDesc), the target SoC and
// device from the compile specs.
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

// One weight file the .om reads at run time instead of holding the bytes.
struct ExternalWeight {
  // The file name the .om refers to (what aclmdlSetExternalWeightAddress is
  // given), e.g. "weight_<sha256>".
  std::string name;
  // Named-data key of the bytes, "ascend/weight/<sha256>".
  std::string key;
  // The file's size in bytes (> 0).
  uint64_t size = 0;
};

// A mutable buffer (a KV cache) the delegate keeps in device memory across
// calls: the .om reads it as input `input_index` and writes its new value as
// output `output_index`.
struct DeviceStateEntry {
  // The buffer's name in the exported module, for messages.
  std::string name;
  uint32_t input_index = 0;
  uint32_t output_index = 0;
  // Bytes of one copy (> 0): the .om input and output both have this size.
  uint64_t size = 0;
  // Named-data key of the initial value; empty: the state starts as zeros.
  std::string initial_key;
};

struct DelegateBlob {
  // Named-data key of the .om, "ascend/om/<sha256>".
  std::string om_key;
  // Names are unique; two names may share a key (identical bytes).
  std::vector<ExternalWeight> weights;
  // Names, input indices and output indices are each unique.
  std::vector<DeviceStateEntry> states;
};

// Parses a blob. Errors (each logged once):
//   DelegateInvalidCompatibility  a version other than kBlobVersion;
//   InvalidProgram                anything else malformed.
executorch::runtime::Result<DelegateBlob> read_delegate_blob(const void* data,
                                                             size_t size);

// The bytes of `blob`, as the Python encoder writes them (tests and tools).
std::vector<uint8_t> write_delegate_blob(const DelegateBlob& blob);

}  // namespace executorch::backends::ascend
