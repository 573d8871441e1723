// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Small integer operands (Slice's starts, Pad's pads, Resize's sizes, ...)
// that ONNX passes as inputs but that the emulator, like CANN, needs as
// constants: read into fixed arrays, so Run can re-read them without
// allocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

// Enough for any per-axis operand (Pad's pads are 2 * kMaxRank).
constexpr size_t kMaxConstInts = 2 * kMaxRank;

struct ConstInts {
  int64_t v[kMaxConstInts] = {};
  size_t size = 0;
  int64_t operator[](size_t i) const { return v[i]; }
};

// Reads input `t` (named `what` in messages) as a constant 1-D int64 or
// int32 tensor of at most kMaxConstInts values. In Infer, "" or an error
// naming `op`; Run calls it on inputs Infer accepted and ignores the result.
std::string ReadConstInts(const char* op, const char* what, const TensorRef& t,
                          ConstInts* out);

// Reads an axes operand for a tensor of rank `rank` into normalized,
// duplicate-free axes `out`; `seen` (all false on entry) marks them.
std::string NormalizeAxes(const char* op, const ConstInts& axes, int32_t rank,
                          int32_t out[kMaxRank], bool seen[kMaxRank]);

}  // namespace kernels
}  // namespace ascend_emu
