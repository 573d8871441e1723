// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "soc_dtypes.h"

#include <string>

namespace ascend_emu {
namespace atc {

std::string CheckSocDtypes(const Program& program,
                           const std::string& soc_version) {
  if (SocHasBf16(soc_version)) return "";
  for (const TensorInfo& t : program.tensors) {
    if (t.dtype != DType::kBFloat16) continue;
    return "tensor '" + t.name +
           "' is bfloat16, which --soc_version=" + soc_version +
           " does not support (" + NoBf16Reason(soc_version) +
           "): cast the model to float16 or float32";
  }
  return "";
}

}  // namespace atc
}  // namespace ascend_emu
