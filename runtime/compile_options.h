// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The compile specs the runtime reads (AscendCompileSpec writes them into the
// .pte beside the blob): the default device. Every other key (soc_version,
// precision_mode, toolchain, ...) is ahead-of-time only and ignored here: the
// SoC of each compiled model is in the blob (om_target.h).
#pragma once

#include <executorch/runtime/backend/interface.h>

#include <cstdint>

namespace executorch::backends::ascend {

struct RuntimeCompileSpecs {
  // The device used unless a load-time option or set_option says otherwise.
  int32_t device_id = 0;
};

// Reads kCompileSpecDeviceId (the name from delegate_blob.json).
// InvalidProgram, logged, for a value that is not what the Python side writes
// (a decimal int >= 0).
executorch::runtime::Result<RuntimeCompileSpecs> read_compile_specs(
    executorch::runtime::ArrayRef<executorch::runtime::CompileSpec> specs);

}  // namespace executorch::backends::ascend
