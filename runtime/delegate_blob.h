// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The delegate blob (`processed_bytes`, docs/blob-format.md): only what the
// runtime needs and cannot get elsewhere: the compiled models, one per SoC
// (its soc_version, the .om's named-data key, the external weight files the
// .om reads: the name the .om uses, where the bytes are in named data, their
// size), the mutable buffers it keeps on the device as state, and the key of
// the partition's ONNX source when the lowering kept it (ahead-of-time data,
// never read here). The I/O signature comes from the model's own description
// (aclmdlDesc), the default device from the compile specs.
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

// The partition compiled for one SoC.
struct OmTarget {
  // atc --soc_version of the .om, e.g. "Ascend910B1".
  std::string soc_version;
  // Named-data key of the .om, "ascend/om/<sha256>".
  std::string om_key;
  // Names are unique; two names may share a key (identical bytes).
  std::vector<ExternalWeight> weights;
};

struct DelegateBlob {
  // 1..kBlobMaxTargets, each soc_version once; the first is the SoC the
  // program was exported for.
  std::vector<OmTarget> targets;
  // Names, input indices and output indices are each unique.
  std::vector<DeviceStateEntry> states;
  // Named-data key of the kept ONNX source; empty: none.
  std::string source_key;
};

// Parses a blob of any version from kBlobMinReadVersion to kBlobVersion
// (docs/blob-format.md, Compatibility). Errors (each logged once):
//   DelegateInvalidCompatibility  a newer version (upgrade executorch-ascend)
//                                 or one older than kBlobMinReadVersion
//                                 (re-export the model);
//   InvalidProgram                anything else malformed.
executorch::runtime::Result<DelegateBlob> read_delegate_blob(const void* data,
                                                             size_t size);

// The bytes of `blob` in version kBlobVersion, as the Python encoder writes
// them (tests and tools).
std::vector<uint8_t> write_delegate_blob(const DelegateBlob& blob);

}  // namespace executorch::backends::ascend
