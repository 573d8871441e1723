// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What a lowered program hands AscendBackend::init for one delegate: the
// blob (written with the runtime's own codec, runtime/delegate_blob.h) and
// the compile specs the runtime reads, as AscendCompileSpec writes them.
#pragma once

#include <executorch/runtime/backend/interface.h>

#include <cstdint>
#include <string>
#include <vector>

#include "delegate_blob.h"

namespace executorch::backends::ascend::testing {

struct BlobSpec {
  uint32_t version = kBlobVersion;  // another value writes a foreign blob
  std::string om_key = "ascend/om/test";
  // The first target's SoC, and the (ahead-of-time) compile spec's.
  std::string soc_version = "Ascend910B1";
  std::string device_id = "0";           // "" leaves the spec out
  std::vector<ExternalWeight> weights;   // the .om's external weights
  std::vector<DeviceStateEntry> states;  // the .om's device state
  std::vector<OmTarget> more_targets;    // after the first
};

inline std::vector<uint8_t> write_blob(const BlobSpec& spec) {
  DelegateBlob blob{
      {OmTarget{spec.soc_version, spec.om_key, spec.weights}}, spec.states, ""};
  blob.targets.insert(blob.targets.end(), spec.more_targets.begin(),
                      spec.more_targets.end());
  std::vector<uint8_t> bytes = write_delegate_blob(blob);
  for (int i = 0; i < 4; ++i) {  // the version field follows the magic
    bytes[sizeof(kBlobMagic) - 1 + i] =
        static_cast<uint8_t>(spec.version >> (8 * i));
  }
  return bytes;
}

// Owns the strings the CompileSpec array points into.
class CompileSpecs {
 public:
  explicit CompileSpecs(const BlobSpec& spec) {
    values_.reserve(3);  // stable addresses for the specs below
    add(kCompileSpecDeviceId, spec.device_id);
    // Ahead-of-time keys the runtime must ignore.
    add("soc_version", spec.soc_version);
    add("precision_mode", "must_keep_origin_dtype");
  }
  CompileSpecs(const CompileSpecs&) = delete;
  CompileSpecs& operator=(const CompileSpecs&) = delete;

  executorch::runtime::ArrayRef<executorch::runtime::CompileSpec> get() const {
    return {specs_.data(), specs_.size()};
  }

 private:
  void add(const char* key, const std::string& value) {
    if (value.empty()) return;
    values_.push_back(value);
    specs_.push_back({key, {values_.back().data(), values_.back().size()}});
  }
  std::vector<std::string> values_;
  std::vector<executorch::runtime::CompileSpec> specs_;
};

}  // namespace executorch::backends::ascend::testing
