// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Fixed positions of the .om header and trailer (docs/om-format.md), shared
// by the writer, the reader and ResealOm.
#pragma once

#include <cstddef>

#include "emulator_ids.h"

namespace ascend_emu {
namespace om {

constexpr size_t kMagicOffset = 0;
constexpr size_t kVersionOffset = EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE;  // 8
constexpr size_t kFlagsOffset = kVersionOffset + 4;                     // 12
constexpr size_t kFileSizeOffset = kFlagsOffset + 4;                    // 16
constexpr size_t kHeaderBytes = kFileSizeOffset + 8;                    // 24
constexpr size_t kTrailerBytes = 4;  // CRC-32

}  // namespace om
}  // namespace ascend_emu
