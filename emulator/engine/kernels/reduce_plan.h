// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Which dims a Reduce* node reduces, shared by the reduction kernels
// (reduction.cc). Axes come from the `axes` attribute (opset
// 13-17 for most Reduce ops) or from a constant int64 input (ReduceSum 13+,
// the others 18+); keepdims and noop_with_empty_axes are validated here.
#pragma once

#include <cstddef>
#include <string>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

struct ReducePlan {
  bool reduce[kMaxRank] = {};  // per input dim
  bool noop = false;           // empty axes with noop_with_empty_axes=1
};

// Fills `plan` for inputs[0]; "" or an Infer-style refusal. Allocation-free:
// Run calls it again.
std::string GetReducePlan(const char* op, const Attributes& attrs,
                          const TensorRef* inputs, size_t num_inputs,
                          ReducePlan* plan);

// x's shape without the dims `reduce` marks, or with them as 1 (keepdims).
Shape ReducedShape(const Shape& x, const bool reduce[kMaxRank], bool keepdims);

}  // namespace kernels
}  // namespace ascend_emu
