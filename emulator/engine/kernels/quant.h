// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AscendQuant's arithmetic (quant.cc says what CANN computes), its
// attributes read once: the op itself and the AscendQuant that atc merges
// into FusedConvDequant (conv_int8_fused.cc) share it, so the two cannot
// drift apart.
#pragma once

#include <cstdint>
#include <string>

#include "ascend_emu/kernel.h"
#include "numeric.h"

namespace ascend_emu {
namespace kernels {

enum class RoundMode { kRound, kFloor, kCeil, kTrunc };

// scale and offset as the TBE kernel holds them (float16 values), whether
// it multiplies (scale != 1, twice with sqrt_mode) and adds (offset != 0).
struct QuantParams {
  float scale = 1.0f, offset = 0.0f;
  bool mul = false, add = false, twice = false;
  RoundMode mode = RoundMode::kRound;
};

// The AscendQuant attributes named prefix + scale, offset, sqrt_mode,
// round_mode (Infer validated them).
QuantParams ReadQuantParams(const Attributes& attrs, const std::string& prefix);

// y[i] = AscendQuant(x[i]) for i < n.
void QuantizeAscend(const float* x, int8_t* y, int64_t n, const QuantParams& q);
void QuantizeAscend(const Half* x, int8_t* y, int64_t n, const QuantParams& q);

}  // namespace kernels
}  // namespace ascend_emu
