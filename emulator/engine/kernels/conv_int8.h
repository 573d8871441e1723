// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's int8 Conv2D (reference/cann-quant.md): int8 x, int8 weight,
// optional int32 bias, int32 output, int32 accumulation, and the
// activation's quantization offset `offset_x` (an attribute atc sets from the
// AscendQuant that produces x): y = sum((x - offset_x) * w) + bias, padded
// positions filled with offset_x, i.e. contributing 0. The reference loop is
// the oracle; a Conv with constant weights is prepared on oneDNN's int8
// convolution (s8 source with a source zero point, s8 weights, s32 bias and
// destination) where oneDNN computes it exactly (VNNI: OnednnHasExactInt8).
#pragma once

#include <memory>
#include <string>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

// True when any of a Conv's inputs is int8 (the int8 kernel's, which refuses
// the mixes).
bool ConvIsInt8(const TensorRef* inputs, size_t num_inputs);

std::string InferConvInt8(InferContext& ctx);
void RunConvInt8(const RunContext& ctx);
// The oneDNN primitive of an int8 Conv with constant weights (and bias), or
// null (no such primitive, a CPU where oneDNN's int8 is not exact).
std::unique_ptr<PreparedOp> PrepareConvInt8(const PrepareContext& ctx);

// The reference loop alone (the tests compare the fast path with it).
void RunConvInt8Reference(const RunContext& ctx);

}  // namespace kernels
}  // namespace ascend_emu
