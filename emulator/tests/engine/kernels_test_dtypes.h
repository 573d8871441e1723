// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Host tensors of the dtypes beyond float32/int64 (float16, int32, bool) for
// the kernel tests, and the half-rounding tolerance fp16 results are held to.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {

inline HostTensor F16(const Shape& shape, const std::vector<float>& v) {
  std::vector<Eigen::half> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) h[i] = Eigen::half(v[i]);
  return HostTensor::Of(DType::kFloat16, shape, h);
}
inline HostTensor I32(const Shape& shape, const std::vector<int32_t>& v) {
  return HostTensor::Of(DType::kInt32, shape, v);
}
inline HostTensor BoolT(const Shape& shape, const std::vector<uint8_t>& v) {
  return HostTensor::Of(DType::kBool, shape, v);
}

// Values of a float16 tensor, widened.
inline std::vector<float> HalfValues(const HostTensor& t) {
  std::vector<Eigen::half> h = t.values<Eigen::half>();
  std::vector<float> f(h.size());
  for (size_t i = 0; i < h.size(); ++i) f[i] = static_cast<float>(h[i]);
  return f;
}

// Every float rounded to the nearest half, as an fp16 input holds it.
inline std::vector<float> RoundToHalf(std::vector<float> v) {
  for (float& x : v) x = static_cast<float>(Eigen::half(x));
  return v;
}

// fp16 results: the float oracle's value within `ulps` half ulps (2^-10
// relative) of its scale, plus `abs` for accumulated rounding near zero.
inline void ExpectHalfNear(const std::vector<float>& got,
                           const std::vector<float>& want, float ulps = 2.0f,
                           float abs = 1e-3f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      ASSERT_TRUE(std::isnan(got[i])) << "at flat index " << i;
      continue;
    }
    const float tol = std::abs(want[i]) * ulps * 0.0009765625f + abs;
    ASSERT_NEAR(got[i], want[i], tol) << "at flat index " << i;
  }
}

}  // namespace testing
}  // namespace ascend_emu
