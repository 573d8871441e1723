// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The one index walk behind every Reduce* (reduction.cc), over the dims a
// ReducePlan marks: floats accumulate in double and round once on store, a
// mean divides that sum (a mean over zero elements is NaN, as in PyTorch);
// integer sums wrap instead of UB. Max/Min treat NaN as the extreme value, as
// PyTorch does.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "ascend_emu/kernel.h"
#include "reduce_plan.h"

namespace ascend_emu {
namespace kernels {

enum class ReduceKind { kSum, kMean, kMax, kMin };

// Accumulator type: double for floats, int64 for integers (both 8 bytes).
template <typename T>
using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, double>;

// acc combined with v: the running value of one output element (CumSum's
// running sum too).
template <typename A>
A Combine(ReduceKind kind, A acc, A v) {
  if constexpr (std::is_floating_point_v<A>) {
    if (kind != ReduceKind::kSum) {
      if (std::isnan(acc)) return acc;
      if (std::isnan(v)) return v;
    }
  }
  switch (kind) {
    case ReduceKind::kSum:
    case ReduceKind::kMean:
      if constexpr (std::is_integral_v<A>) {
        return static_cast<A>(static_cast<uint64_t>(acc) +
                              static_cast<uint64_t>(v));
      } else {
        return acc + v;
      }
    case ReduceKind::kMax:
      return v > acc ? v : acc;
    case ReduceKind::kMin:
      return v < acc ? v : acc;
  }
  return acc;
}

// y = the `kind` reduction of x over the dims plan.reduce marks, accumulating
// in `scratch` (8 bytes an output element). x is float32, float16, int32 or
// int64.
void ReduceLoop(ReduceKind kind, const ReducePlan& plan, const TensorRef& x,
                const TensorRef& y, void* scratch);

}  // namespace kernels
}  // namespace ascend_emu
