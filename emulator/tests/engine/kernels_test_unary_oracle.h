// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Oracle helpers of the unary kernel tests (unary_math, activation): float
// inputs, a reference function applied elementwise, reference activations.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {

using FloatFn = std::function<float(float)>;

inline float RefSigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }
inline float RefHardSigmoid(float v, float a, float b) {
  return std::fmax(0.0f, std::fmin(1.0f, a * v + b));
}

inline std::vector<float> Inputs(int64_t n, bool positive_only, uint32_t seed) {
  std::vector<float> v = RandomFloats(n, seed);
  for (float& x : v) x = positive_only ? 2.0f * x + 2.01f : 5.0f * x;
  return v;
}

inline std::vector<float> Apply(const std::vector<float>& x, const FloatFn& f) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = f(x[i]);
  return y;
}

}  // namespace testing
}  // namespace ascend_emu
