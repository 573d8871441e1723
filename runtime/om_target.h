// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Which of a delegate's compiled models runs on this device: a program may
// carry one .om per SoC (`executorch-ascend compile --soc_version ...`), and
// an .om runs only on the chip family atc compiled it for.
#pragma once

#include <executorch/runtime/core/result.h>

#include <string>

#include "delegate_blob.h"

namespace executorch::backends::ascend {

// The chip family of a SoC name: the name without its trailing variant
// ("Ascend910B1" -> "Ascend910B", "Ascend310P3" -> "Ascend310P",
// "Ascend910_9391" -> "Ascend910", "Ascend910B4-1" -> "Ascend910B").
std::string soc_family(const std::string& soc);

// The target for the device `device_soc` (aclrtGetSocName()):
//   the one compiled for exactly that SoC;
//   else the first compiled for another chip of its family (logged at Info:
//   CANN runs an .om on the chips of its family);
//   else DelegateInvalidCompatibility, logged with every SoC the program has
//   and how to add the device's.
// An unknown device SoC (nullptr or "") takes the first target.
executorch::runtime::Result<const OmTarget*> choose_target(
    const DelegateBlob& blob, const char* device_soc);

}  // namespace executorch::backends::ascend
