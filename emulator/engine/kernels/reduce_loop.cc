// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "reduce_loop.h"

#include <cstdint>
#include <limits>
#include <type_traits>

#include "numeric.h"

namespace ascend_emu {
namespace kernels {
namespace {

template <typename A>
A Identity(ReduceKind kind) {
  constexpr bool kFloat = std::is_floating_point_v<A>;
  switch (kind) {
    case ReduceKind::kMax:
      return kFloat ? -std::numeric_limits<A>::infinity()
                    : std::numeric_limits<A>::lowest();
    case ReduceKind::kMin:
      return kFloat ? std::numeric_limits<A>::infinity()
                    : std::numeric_limits<A>::max();
    default:
      return A(0);
  }
}

// The sum of one contiguous row in the accumulator type, for a reduction
// whose innermost dim is reduced (RMSNorm's and LayerNorm's ReduceMean over
// the hidden size): eight independent partial sums the compiler keeps in
// registers (and vectorises), where folding each element into acc[] through
// memory waited on the previous store every element. Floats sum in double, so
// the changed order moves the result far below float's rounding; integers
// wrap as Combine does.
template <typename A, typename T>
A RowSum(const T* row, int64_t n) {
  using U = std::conditional_t<std::is_integral_v<A>, uint64_t, A>;
  constexpr int64_t kLanes = 8;
  U part[kLanes] = {};
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    for (int64_t k = 0; k < kLanes; ++k) {
      part[k] += static_cast<U>(static_cast<A>(Load(row[j + k])));
    }
  }
  for (; j < n; ++j) part[0] += static_cast<U>(static_cast<A>(Load(row[j])));
  U total = 0;
  for (int64_t k = 0; k < kLanes; ++k) total += part[k];
  return static_cast<A>(total);
}

template <typename T>
void ReduceTyped(ReduceKind kind, const ReducePlan& plan, const TensorRef& x,
                 const TensorRef& y, void* scratch) {
  using A = Acc<T>;
  const Shape& s = x.shape;
  const int32_t r = s.rank;
  const int64_t n_out = y.shape.numel();
  // Output strides expressed per input dim (0 on reduced dims).
  int64_t ost[kMaxRank] = {};
  int64_t stride = 1;
  for (int32_t i = r - 1; i >= 0; --i) {
    if (!plan.reduce[i]) {
      ost[i] = stride;
      stride *= s.dims[i];
    }
  }
  A* acc = static_cast<A*>(scratch);
  const A init = Identity<A>(kind);
  for (int64_t i = 0; i < n_out; ++i) acc[i] = init;
  const T* px = x.as<const T>();
  const int64_t n_in = s.numel();
  if (n_in != 0 && r == 0) {
    acc[0] = static_cast<A>(Load(px[0]));
  } else if (n_in != 0) {
    const int64_t inner = s.dims[r - 1];
    const int64_t inner_stride = ost[r - 1];
    int64_t idx[kMaxRank] = {};
    int64_t off = 0;
    const bool row_sums = inner_stride == 0 && (kind == ReduceKind::kSum ||
                                                kind == ReduceKind::kMean);
    for (int64_t o = 0; o < n_in; o += inner) {
      const T* row = px + o;
      if (row_sums) {
        acc[off] = Combine<A>(kind, acc[off], RowSum<A>(row, inner));
      } else {
        for (int64_t j = 0; j < inner; ++j) {
          A& a = acc[off + j * inner_stride];
          a = Combine<A>(kind, a, static_cast<A>(Load(row[j])));
        }
      }
      for (int32_t d = r - 2; d >= 0; --d) {
        off += ost[d];
        if (++idx[d] < s.dims[d]) break;
        off -= ost[d] * s.dims[d];
        idx[d] = 0;
      }
    }
  }
  T* py = y.as<T>();
  if constexpr (std::is_floating_point_v<A>) {
    if (kind == ReduceKind::kMean) {
      // Every output element reduces the same number of inputs.
      const int64_t count = n_out == 0 ? 0 : n_in / n_out;
      for (int64_t i = 0; i < n_out; ++i) {
        acc[i] = count == 0 ? std::numeric_limits<A>::quiet_NaN()
                            : acc[i] / static_cast<A>(count);
      }
    }
  }
  for (int64_t i = 0; i < n_out; ++i) {
    py[i] = Store<T>(static_cast<ComputeT<T>>(acc[i]));
  }
}

}  // namespace

void ReduceLoop(ReduceKind kind, const ReducePlan& plan, const TensorRef& x,
                const TensorRef& y, void* scratch) {
  // Infer refused every dtype outside kNumericDTypes, so no bool gets here.
  DispatchNumeric(x.dtype, [&](auto tag) {
    ReduceTyped<decltype(tag)>(kind, plan, x, y, scratch);
  });
}

}  // namespace kernels
}  // namespace ascend_emu
