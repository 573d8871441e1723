// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for the delegate blob codec (runtime/delegate_blob.cpp):
// any byte string must give a blob or an error, and a blob that parses must
// satisfy the invariants the backend relies on in init() and write back to
// the same bytes.
#include <executorch/runtime/platform/runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "delegate_blob.h"

using executorch::backends::ascend::DelegateBlob;
using executorch::backends::ascend::ExternalWeight;
using executorch::backends::ascend::kBlobMaxKeyBytes;
using executorch::backends::ascend::kBlobMaxSocVersionBytes;
using executorch::backends::ascend::kBlobMaxTargets;
using executorch::backends::ascend::kBlobMaxWeightNameBytes;
using executorch::backends::ascend::kBlobMaxWeights;
using executorch::backends::ascend::kBlobMinReadVersion;
using executorch::backends::ascend::kBlobVersion;
using executorch::backends::ascend::OmTarget;
using executorch::backends::ascend::read_delegate_blob;
using executorch::backends::ascend::write_delegate_blob;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // ET_LOG needs the platform layer initialised.
  executorch::runtime::runtime_init();
  return 0;
}

namespace {

bool valid_string(const std::string& value, size_t max) {
  return !value.empty() && value.size() <= max &&
         value.find('\0') == std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto result = read_delegate_blob(data, size);
  if (!result.ok()) return 0;
  const DelegateBlob& blob = result.get();
  // The reader documents these as rejected; a blob that slips through would
  // choose among targets of one SoC, look up an empty or truncated
  // named-data key, bind a weight twice or upload an empty one.
  if (blob.targets.empty() || blob.targets.size() > kBlobMaxTargets) {
    std::abort();
  }
  std::set<std::string> socs;
  for (const OmTarget& target : blob.targets) {
    if (!valid_string(target.soc_version, kBlobMaxSocVersionBytes) ||
        !socs.insert(target.soc_version).second ||
        !valid_string(target.om_key, kBlobMaxKeyBytes) ||
        target.weights.size() > kBlobMaxWeights) {
      std::abort();
    }
    std::set<std::string> names;
    for (const ExternalWeight& weight : target.weights) {
      if (!valid_string(weight.name, kBlobMaxWeightNameBytes) ||
          !valid_string(weight.key, kBlobMaxKeyBytes) || weight.size == 0 ||
          !names.insert(weight.name).second) {
        std::abort();
      }
    }
  }
  if (!blob.source_key.empty() &&
      !valid_string(blob.source_key, kBlobMaxKeyBytes)) {
    std::abort();
  }
  // A blob that parses is of a version the reader reads (the u32 after the
  // 4-byte magic, little-endian).
  const uint32_t version = static_cast<uint32_t>(data[4]) |
                           (static_cast<uint32_t>(data[5]) << 8) |
                           (static_cast<uint32_t>(data[6]) << 16) |
                           (static_cast<uint32_t>(data[7]) << 24);
  if (version < kBlobMinReadVersion || version > kBlobVersion) std::abort();
  // Round trip: what the reader accepts, the writer gives back byte for byte.
  // The writer writes kBlobVersion only; an older version the reader still
  // reads (docs/blob-format.md, Compatibility) is held to the checks above.
  if (version != kBlobVersion) return 0;
  const auto again = write_delegate_blob(blob);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0) {
    std::abort();
  }
  return 0;
}
