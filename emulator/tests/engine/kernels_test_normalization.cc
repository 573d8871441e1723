// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// LayerNormalization and BatchNormalization against double-precision naive
// formulas, fp16 against the float result rounded to half, and refusals.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

std::vector<float> LayerNormOracle(const std::vector<float>& x, int64_t rows,
                                   int64_t cols, const std::vector<float>& g,
                                   const std::vector<float>* b, double eps) {
  std::vector<float> y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0;
    for (int64_t c = 0; c < cols; ++c) mean += x[r * cols + c];
    mean /= static_cast<double>(cols);
    double var = 0;
    for (int64_t c = 0; c < cols; ++c) {
      var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    }
    var /= static_cast<double>(cols);
    for (int64_t c = 0; c < cols; ++c) {
      double v = (x[r * cols + c] - mean) / std::sqrt(var + eps) * g[c];
      if (b != nullptr) v += (*b)[c];
      y[r * cols + c] = static_cast<float>(v);
    }
  }
  return y;
}

TEST(KernelsNorm, LayerNormalizationAxesAndBias) {
  const HostTensor x = RandF32(S({2, 3, 4}), 11);
  for (int64_t axis : {-1, 1, 2, 0}) {
    const int64_t ax = axis < 0 ? axis + 3 : axis;
    Shape ns;
    int64_t cols = 1;
    for (int64_t d = ax; d < 3; ++d) {
      ns.dims[ns.rank++] = x.shape.dims[d];
      cols *= x.shape.dims[d];
    }
    const HostTensor g = RandF32(ns, 12);
    const HostTensor b = RandF32(ns, 13);
    Attrs a;
    a.Int("axis", axis).Float("epsilon", 1e-3f);
    RunResult r = RunKernel("LayerNormalization", a, {x, g, b});
    ASSERT_EQ(r.error, "");
    const std::vector<float> bv = b.f32();
    ExpectNear(r.outputs[0].f32(),
               LayerNormOracle(x.f32(), 24 / cols, cols, g.f32(), &bv, 1e-3));
    r = RunKernel("LayerNormalization", a, {x, g});
    ASSERT_EQ(r.error, "");
    ExpectNear(r.outputs[0].f32(), LayerNormOracle(x.f32(), 24 / cols, cols,
                                                   g.f32(), nullptr, 1e-3));
  }
}

// Rows longer than the eight partial sums with a tail (131), GPT-2's rows of
// 128, and rows offset by 100 (statistics in double; the output pass is
// float, as ONNX stash_type 1 says, so a far larger offset loses digits).
TEST(KernelsNorm, LayerNormalizationLongRowsAndLargeOffsets) {
  for (int64_t cols : {128, 131}) {
    for (float offset : {0.0f, 100.0f}) {
      SCOPED_TRACE(std::to_string(cols) + " " + std::to_string(offset));
      const int64_t rows = 5;
      std::vector<float> xv = RandomFloats(rows * cols, 31);
      for (float& v : xv) v = 3.0f * v + offset;
      const HostTensor g = RandF32(S({cols}), 32);
      const HostTensor b = RandF32(S({cols}), 33);
      Attrs a;
      a.Int("axis", -1).Float("epsilon", 1e-5f);
      RunResult r = RunKernel("LayerNormalization", a,
                              {HostTensor::F32(S({rows, cols}), xv), g, b});
      ASSERT_EQ(r.error, "");
      const std::vector<float> bv = b.f32();
      ExpectNear(r.outputs[0].f32(),
                 LayerNormOracle(xv, rows, cols, g.f32(), &bv, 1e-5), 2e-5f);
    }
  }
}

TEST(KernelsNorm, LayerNormalizationFloat16) {
  const HostTensor x = RandF32(S({3, 8}), 21);
  const HostTensor g = RandF32(S({8}), 22);
  auto half = [](const HostTensor& t) {
    std::vector<Eigen::half> v;
    for (float f : t.f32()) v.push_back(Eigen::half(f));
    return HostTensor::Of(DType::kFloat16, t.shape, v);
  };
  // The oracle sees the same half-rounded inputs.
  std::vector<float> xh, gh;
  for (float f : x.f32()) xh.push_back(static_cast<float>(Eigen::half(f)));
  for (float f : g.f32()) gh.push_back(static_cast<float>(Eigen::half(f)));
  RunResult r = RunKernel("LayerNormalization", Attrs(), {half(x), half(g)});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16);
  std::vector<float> got;
  for (Eigen::half h : r.outputs[0].values<Eigen::half>()) {
    got.push_back(static_cast<float>(h));
  }
  ExpectNear(got, LayerNormOracle(xh, 3, 8, gh, nullptr, 1e-5), 2e-3f);
}

TEST(KernelsNorm, BatchNormalizationInference) {
  const HostTensor x = RandF32(S({2, 3, 2, 2}), 31);
  const HostTensor g = RandF32(S({3}), 32);
  const HostTensor b = RandF32(S({3}), 33);
  const HostTensor m = RandF32(S({3}), 34);
  const HostTensor v = HostTensor::F32(S({3}), {0.5f, 1.0f, 2.0f});
  Attrs a;
  a.Float("epsilon", 1e-2f).Float("momentum", 0.9f);
  RunResult r = RunKernel("BatchNormalization", a, {x, g, b, m, v});
  ASSERT_EQ(r.error, "");
  std::vector<float> want(24);
  const std::vector<float> xv = x.f32();
  for (int64_t i = 0; i < 24; ++i) {
    const int64_t c = (i / 4) % 3;
    want[i] = static_cast<float>((xv[i] - m.f32()[c]) /
                                     std::sqrt(v.f32()[c] + 1e-2) * g.f32()[c] +
                                 b.f32()[c]);
  }
  ExpectNear(r.outputs[0].f32(), want);
  // 1-D batch norm input [N, C, L] and [N, C].
  r = RunKernel("BatchNormalization", Attrs(),
                {RandF32(S({2, 3}), 1), g, b, m, v});
  ASSERT_EQ(r.error, "");
}

TEST(KernelsNorm, Refusals) {
  const HostTensor x = RandF32(S({2, 3}), 1);
  const HostTensor g = RandF32(S({3}), 2);
  EXPECT_INFER_FAILS(RunKernel("LayerNormalization", Attrs(), {x, g}, 3),
                     "only the Y output");
  EXPECT_INFER_FAILS(
      RunKernel("LayerNormalization", Attrs(), {x, RandF32(S({2}), 1)}),
      "must have the normalized shape [3]");
  Attrs a;
  a.Int("axis", 2);
  EXPECT_INFER_FAILS(RunKernel("LayerNormalization", a, {x, g}),
                     "out of range");
  Attrs st;
  st.Int("stash_type", 0);
  EXPECT_INFER_FAILS(RunKernel("LayerNormalization", st, {x, g}), "stash_type");
  EXPECT_INFER_FAILS(RunKernel("LayerNormalization", Attrs(),
                               {HostTensor::I64(S({3}), {1, 2, 3}),
                                HostTensor::I64(S({3}), {1, 2, 3})}),
                     "unsupported dtype int64");
  Attrs t;
  t.Int("training_mode", 1);
  EXPECT_INFER_FAILS(RunKernel("BatchNormalization", t, {x, g, g, g, g}),
                     "training_mode");
  EXPECT_INFER_FAILS(RunKernel("BatchNormalization", Attrs(),
                               {x, g, g, g, RandF32(S({2}), 1)}),
                     "input_var [2] must be [C]");
  EXPECT_INFER_FAILS(
      RunKernel("BatchNormalization", Attrs(), {x, g, g, g, g}, 3),
      "only inference");
  EXPECT_INFER_FAILS(RunKernel("BatchNormalization", Attrs(),
                               {RandF32(S({3}), 1), g, g, g, g}),
                     "[N, C, ...]");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
