// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Softmax and LogSoftmax over every axis, numerical stability, masked rows
// and refusals.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

// softmax (or, with `log`, log_softmax: x - m - log(sum)) in double, m the
// max along the axis.
std::vector<float> NaiveSoftmaxLike(const HostTensor& x, int32_t axis,
                                    bool log) {
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
      const double v = fx[f + k * st[axis]] - m;
      y[f + k * st[axis]] =
          static_cast<float>(log ? v - std::log(sum) : std::exp(v) / sum);
    }
  }
  return y;
}

std::vector<float> NaiveSoftmax(const HostTensor& x, int32_t axis) {
  return NaiveSoftmaxLike(x, axis, false);
}

std::vector<float> NaiveLogSoftmax(const HostTensor& x, int32_t axis) {
  return NaiveSoftmaxLike(x, axis, true);
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

// Both paths (innermost axis, and outer axes with per-position sums), the
// default axis, and inputs scaled x50 so that the shift matters.
TEST(KernelsSoftmax, LogSoftmaxEveryAxis) {
  const std::vector<std::vector<int64_t>> shapes = {
      {7}, {3, 5}, {2, 3, 4}, {2, 1, 3, 5}, {1, 4}};
  uint32_t seed = 170;
  for (const auto& dims : shapes) {
    const int32_t rank = static_cast<int32_t>(dims.size());
    for (float scale : {1.0f, 50.0f}) {
      for (int64_t axis = -rank; axis < rank; ++axis) {
        std::vector<float> v = RandF32(S(dims), seed++).f32();
        for (float& e : v) e *= scale;
        HostTensor x = HostTensor::F32(S(dims), v);
        Attrs a;
        a.Int("axis", axis);
        RunResult r = RunKernel("LogSoftmax", a, {x});
        ASSERT_EQ(r.error, "");
        ASSERT_EQ(r.outputs[0].shape, S(dims));
        const int32_t ax = static_cast<int32_t>(axis < 0 ? axis + rank : axis);
        const std::vector<float> want = NaiveLogSoftmax(x, ax);
        const std::vector<float> got = r.outputs[0].f32();
        for (size_t i = 0; i < got.size(); ++i) {
          EXPECT_NEAR(got[i], want[i],
                      2e-6f * std::max(1.0f, std::abs(want[i])))
              << S(dims).ToString() << " axis " << axis << " at " << i;
        }
      }
    }
  }
  HostTensor x = RandF32(S({2, 3, 4}), 199);
  RunResult r = RunKernel("LogSoftmax", Attrs(), {x});  // default axis -1
  ASSERT_EQ(r.error, "");
  ExpectNear(r.outputs[0].f32(), NaiveLogSoftmax(x, 2), 2e-6f);
}

// Large values stay finite (no exp overflow); -inf entries give -inf, as
// PyTorch's log_softmax does (a masked score); a NaN makes its row NaN; on
// the outer-axis path too.
TEST(KernelsSoftmax, LogSoftmaxIsStableAndKeepsInfAndNan) {
  const float inf = std::numeric_limits<float>::infinity();
  HostTensor x = HostTensor::F32(
      S({3, 3}),
      {1000.0f, 1001.0f, 1002.0f, 0.0f, -inf, 1.0f, 2.0f, std::nanf(""), 0.0f});
  for (int64_t axis : {1, 0}) {
    Attrs a;
    a.Int("axis", axis);
    RunResult r = RunKernel("LogSoftmax", a, {x});
    ASSERT_EQ(r.error, "");
    const std::vector<float> y = r.outputs[0].f32();
    const std::vector<float> want = NaiveLogSoftmax(x, axis);
    for (size_t i = 0; i < y.size(); ++i) {
      if (std::isnan(want[i])) {
        EXPECT_TRUE(std::isnan(y[i])) << "axis " << axis << " at " << i;
      } else if (std::isinf(want[i])) {
        EXPECT_EQ(y[i], want[i]) << "axis " << axis << " at " << i;
      } else {
        EXPECT_NEAR(y[i], want[i], 1e-5f * std::max(1.0f, std::abs(want[i])))
            << "axis " << axis << " at " << i;
      }
    }
  }
  RunResult r = RunKernel("LogSoftmax", Attrs(), {x});
  ASSERT_EQ(r.error, "");
  const std::vector<float> y = r.outputs[0].f32();
  EXPECT_NEAR(y[0], -2.40760596f, 1e-6f);
  EXPECT_NEAR(y[2], -0.40760596f, 1e-6f);
  EXPECT_EQ(y[4], -inf);
}

TEST(KernelsSoftmax, LogSoftmaxRejections) {
  Attrs a;
  a.Int("axis", 2);
  EXPECT_INFER_FAILS(InferKernel("LogSoftmax", a, {RandF32(S({2, 3}), 1)}),
                     "LogSoftmax: axis 2 is out of range for [2, 3]");
  EXPECT_INFER_FAILS(
      InferKernel("LogSoftmax", Attrs(), {HostTensor::I64(S({2}), {1, 2})}),
      "float32 only");
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
