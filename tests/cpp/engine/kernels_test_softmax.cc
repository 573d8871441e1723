// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Softmax over every axis, numerical stability and refusals.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

std::vector<float> NaiveSoftmax(const HostTensor& x, int32_t axis) {
  const Shape& s = x.shape;
  std::vector<float> fx = x.f32(), y(fx.size());
  const std::vector<int64_t> st = Strides(s);
  for (int64_t f = 0; f < s.numel(); ++f) {
    std::vector<int64_t> idx = Unravel(f, s);
    if (idx[axis] != 0) continue;
    double m = -INFINITY, sum = 0;
    for (int64_t k = 0; k < s.dims[axis]; ++k) {
      m = std::max<double>(m, fx[f + k * st[axis]]);
    }
    for (int64_t k = 0; k < s.dims[axis]; ++k) {
      sum += std::exp(fx[f + k * st[axis]] - m);
    }
    for (int64_t k = 0; k < s.dims[axis]; ++k) {
      y[f + k * st[axis]] =
          static_cast<float>(std::exp(fx[f + k * st[axis]] - m) / sum);
    }
  }
  return y;
}

TEST(KernelsSoftmax, SoftmaxEveryAxis) {
  const std::vector<std::vector<int64_t>> shapes = {
      {7}, {3, 5}, {2, 3, 4}, {2, 1, 3, 5}};
  uint32_t seed = 70;
  for (const auto& dims : shapes) {
    const int32_t rank = static_cast<int32_t>(dims.size());
    for (int64_t axis = -rank; axis < rank; ++axis) {
      HostTensor x = RandF32(S(dims), seed++);
      Attrs a;
      a.Int("axis", axis);
      RunResult r = RunKernel("Softmax", a, {x});
      ASSERT_EQ(r.error, "");
      ASSERT_EQ(r.outputs[0].shape, S(dims));
      ExpectNear(
          r.outputs[0].f32(),
          NaiveSoftmax(x, static_cast<int32_t>(axis < 0 ? axis + rank : axis)),
          1e-6f);
    }
  }
  HostTensor x = RandF32(S({2, 3, 4}), 99);
  RunResult r = RunKernel("Softmax", Attrs(), {x});  // default axis -1
  ASSERT_EQ(r.error, "");
  ExpectNear(r.outputs[0].f32(), NaiveSoftmax(x, 2), 1e-6f);
}

TEST(KernelsSoftmax, SoftmaxIsStableForLargeInputs) {
  HostTensor x = HostTensor::F32(
      S({2, 3}), {1000.0f, 1001.0f, 1002.0f, -1000.0f, -1000.0f, -1000.0f});
  RunResult r = RunKernel("Softmax", Attrs(), {x});
  ASSERT_EQ(r.error, "");
  std::vector<float> y = r.outputs[0].f32();
  ExpectNear(
      y, {0.09003057f, 0.24472847f, 0.66524096f, 1.0f / 3, 1.0f / 3, 1.0f / 3},
      1e-6f);
  // Axis 0 (non-innermost path) with large values too.
  Attrs a0;
  a0.Int("axis", 0);
  r = RunKernel("Softmax", a0, {x});
  ASSERT_EQ(r.error, "");
  for (float v : r.outputs[0].f32()) EXPECT_TRUE(std::isfinite(v));
}

// A decoder's causal mask: rows of 64 scores with entries at finfo.min or
// -inf (exp exactly 0), entries shifted into exp's subnormal band (-104 ..
// -87.3 below the row's max), a row all masked but one, and a row with a NaN
// (all NaN, as in PyTorch).
TEST(KernelsSoftmax, MaskedRowsMatchTheDoubleReference) {
  const int64_t rows = 5, len = 64;
  std::vector<float> x = RandomFloats(rows * len, 71);
  const float lowest = std::numeric_limits<float>::lowest();
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = r + 1; k < len; ++k) {  // causal: k > r masked
      x[r * len + k] = k % 3 == 0 ? -inf : lowest;
    }
  }
  for (int64_t k = 0; k < len; ++k) {  // row 4: a band around exp's limits
    x[4 * len + k] = k == 0 ? 10.0f : 10.0f - 80.0f - 0.5f * k;
  }
  x[3 * len + 1] = std::nanf("");
  RunResult r =
      RunKernel("Softmax", Attrs(), {HostTensor::F32(S({rows, len}), x)});
  ASSERT_EQ(r.error, "");
  const std::vector<float> got = r.outputs[0].f32();
  const std::vector<float> want =
      NaiveSoftmax(HostTensor::F32(S({rows, len}), x), 1);
  for (int64_t i = 0; i < rows * len; ++i) {
    if (i / len == 3) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
    } else if (want[i] == 0.0f || std::fpclassify(want[i]) == FP_SUBNORMAL) {
      EXPECT_EQ(got[i], want[i]) << "at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], 1e-6f * std::max(want[i], 1e-3f))
          << "at " << i;
    }
  }
}

TEST(KernelsSoftmax, SoftmaxRejections) {
  Attrs a;
  a.Int("axis", 2);
  EXPECT_INFER_FAILS(InferKernel("Softmax", a, {RandF32(S({2, 3}), 1)}),
                     "Softmax: axis 2 is out of range for [2, 3]");
  a.Int("axis", -3);
  EXPECT_INFER_FAILS(InferKernel("Softmax", a, {RandF32(S({2, 3}), 1)}),
                     "out of range");
  EXPECT_INFER_FAILS(InferKernel("Softmax", Attrs(), {RandF32(S({}), 1)}),
                     "out of range");
  EXPECT_INFER_FAILS(
      InferKernel("Softmax", Attrs(), {HostTensor::I64(S({2}), {1, 2})}),
      "float32 only");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
