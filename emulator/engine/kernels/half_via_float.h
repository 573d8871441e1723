// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// float16 and bfloat16 support for float32-only kernels (GEMMs, convolution,
// pooling, Softmax, ReduceMean): widen the 16-bit operands into float scratch,
// run the float kernel unchanged (fp32 accumulation, Eigen GEMM), round its
// outputs to the node's 16-bit dtype once (nearest even, NaN kept). Infer
// sizes that scratch; a node may not mix float32, float16 and bfloat16.
#pragma once

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

// Infer of `float_infer` for a node with float16 or bfloat16 inputs (plain
// float_infer otherwise). Converted inputs are shown to float_infer without
// their data.
std::string InferViaFloat(const char* op, InferFn float_infer,
                          InferContext& ctx);
// Run of `float_run` through float scratch when the outputs are 16-bit floats.
void RunViaFloat(RunFn float_run, const RunContext& ctx);

// Defines Infer<Name>/Run<Name> over Infer<Name>Float/Run<Name>Float.
#define ASCEND_EMU_HALF_VIA_FLOAT(Name)                    \
  std::string Infer##Name(InferContext& ctx) {             \
    return InferViaFloat(#Name, &Infer##Name##Float, ctx); \
  }                                                        \
  void Run##Name(const RunContext& ctx) { RunViaFloat(&Run##Name##Float, ctx); }

}  // namespace kernels
}  // namespace ascend_emu
