// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The naive numpy-broadcasting oracle of the elementwise binary kernel
// tests (arithmetic, logical): every output index mapped back to its inputs.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {

// Flat index into an input of shape `in` for output multi-index `idx`.
inline int64_t BIndex(const std::vector<int64_t>& idx, const Shape& out,
                      const Shape& in) {
  int64_t flat = 0;
  for (int32_t i = 0; i < in.rank; ++i) {
    const int64_t k = in.dims[i] == 1 ? 0 : idx[i + (out.rank - in.rank)];
    flat = flat * in.dims[i] + k;
  }
  return flat;
}

// out[i] = f(i_a, i_b): the flat input indices for output element i.
template <typename R>
std::vector<R> Oracle(const Shape& sa, const Shape& sb, const Shape& out,
                      const std::function<R(int64_t, int64_t)>& f) {
  std::vector<R> y(static_cast<size_t>(out.numel()));
  for (int64_t i = 0; i < out.numel(); ++i) {
    std::vector<int64_t> idx = Unravel(i, out);
    y[i] = f(BIndex(idx, out, sa), BIndex(idx, out, sb));
  }
  return y;
}

}  // namespace testing
}  // namespace ascend_emu
