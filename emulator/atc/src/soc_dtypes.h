// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// bfloat16 tensors on SoC families without bf16. CANN's operator
// specifications list bf16 for the Ascend 910B/910_93 (Atlas A2/A3) training
// and inference products and leave it out for the Atlas inference series built
// on Ascend310P (cann_op_facts.h, SocHasBf16); atc for such a chip refuses a
// bf16 graph rather than compile a model the chip cannot run (docs/atc.md,
// "bf16").
#pragma once

#include <string>

#include "ascend_emu/program.h"
#include "cann_op_facts.h"

namespace ascend_emu {
namespace atc {

// "" or the refusal for a compiled program with a bfloat16 tensor on a SoC
// without bf16, naming the first such tensor.
std::string CheckSocDtypes(const Program& program,
                           const std::string& soc_version);

}  // namespace atc
}  // namespace ascend_emu
