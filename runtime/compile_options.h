// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The compile specs the runtime reads (AscendCompileSpec writes them into the
// .pte beside the blob): the SoC the .om was compiled for and the default
// device. Every other key (precision_mode, toolchain, ...) is ahead-of-time
// only and ignored here.
#pragma once

#include <executorch/runtime/backend/interface.h>

#include <cstdint>
#include <string>

namespace executorch::backends::ascend {

struct RuntimeCompileSpecs {
  // atc --soc_version, e.g. "Ascend910B1"; empty when the program has none.
  std::string soc_version;
  // The device used unless a load-time option or set_option says otherwise.
  int32_t device_id = 0;
};

// Reads kCompileSpecSocVersion and kCompileSpecDeviceId (names from
// delegate_blob.json). InvalidProgram, logged, for a value that is not what
// the Python side writes (UTF-8 text; device_id a decimal int >= 0).
executorch::runtime::Result<RuntimeCompileSpecs> read_compile_specs(
    executorch::runtime::ArrayRef<executorch::runtime::CompileSpec> specs);

// The chip family of a SoC name: the name without its trailing variant
// ("Ascend910B1" -> "Ascend910B", "Ascend310P3" -> "Ascend310P",
// "Ascend910_9391" -> "Ascend910", "Ascend910B4-1" -> "Ascend910B").
std::string soc_family(const std::string& soc);

// An .om runs only on the chip family it was compiled for: a different
// family is DelegateInvalidCompatibility with a message naming both; another
// chip of the same family is allowed (logged at Info); an empty `compiled_for`
// or an unknown device SoC (nullptr or "") passes.
executorch::runtime::Error check_soc(const std::string& compiled_for,
                                     const char* device_soc);

}  // namespace executorch::backends::ascend
