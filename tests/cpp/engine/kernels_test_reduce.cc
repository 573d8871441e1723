// ReduceMean (axes attribute or constant input, keepdims,
// noop_with_empty_axes, negative axes) and Softmax (every axis, stability).
#include <cmath>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

std::vector<float> NaiveMean(const HostTensor& x, const std::vector<bool>& red,
                             bool keepdims, Shape* out) {
  const Shape& s = x.shape;
  Shape kept;  // keepdims shape
  kept.rank = s.rank;
  for (int32_t i = 0; i < s.rank; ++i) kept.dims[i] = red[i] ? 1 : s.dims[i];
  std::vector<double> sums(static_cast<size_t>(kept.numel()), 0.0);
  std::vector<float> fx = x.f32();
  const std::vector<int64_t> kst = Strides(kept);
  int64_t count = 1;
  for (int32_t i = 0; i < s.rank; ++i) count *= red[i] ? s.dims[i] : 1;
  for (int64_t f = 0; f < s.numel(); ++f) {
    std::vector<int64_t> idx = Unravel(f, s);
    int64_t o = 0;
    for (int32_t i = 0; i < s.rank; ++i) o += red[i] ? 0 : idx[i] * kst[i];
    sums[o] += fx[f];
  }
  *out = Shape();
  for (int32_t i = 0; i < s.rank; ++i) {
    if (!red[i] || keepdims) out->dims[out->rank++] = red[i] ? 1 : s.dims[i];
  }
  std::vector<float> y;
  for (double v : sums) y.push_back(static_cast<float>(v / count));
  return y;
}

TEST(KernelsReduce, ReduceMeanAxesKeepdimsAndNegative) {
  HostTensor x = RandF32(S({2, 3, 4, 5}), 11);
  struct Case {
    std::vector<int64_t> axes;
    std::vector<bool> red;
  };
  const Case cases[] = {
      {{1}, {false, true, false, false}},
      {{-1}, {false, false, false, true}},
      {{2, 3}, {false, false, true, true}},
      {{-2, -1}, {false, false, true, true}},
      {{0, 2}, {true, false, true, false}},
      {{3, 0}, {true, false, false, true}},
      {{0, 1, 2, 3}, {true, true, true, true}},
  };
  for (const Case& c : cases) {
    for (int keep = 0; keep < 2; ++keep) {
      for (bool as_input : {false, true}) {
        Attrs a;
        a.Int("keepdims", keep);
        std::vector<HostTensor> in = {x};
        if (as_input) {
          in.push_back(
              HostTensor::I64(S({static_cast<int64_t>(c.axes.size())}), c.axes)
                  .Const());
        } else {
          a.Ints("axes", c.axes);
        }
        RunResult r = RunKernel("ReduceMean", a, in);
        ASSERT_EQ(r.error, "");
        Shape want;
        std::vector<float> ref = NaiveMean(x, c.red, keep, &want);
        ASSERT_EQ(r.outputs[0].shape, want);
        ExpectNear(r.outputs[0].f32(), ref, 1e-6f);
      }
    }
  }
}

TEST(KernelsReduce, ReduceMeanEmptyAxes) {
  HostTensor x = RandF32(S({3, 4}), 12);
  RunResult r = RunKernel("ReduceMean", Attrs(), {x});  // all axes, keepdims
  ASSERT_EQ(r.error, "");
  Shape want;
  ExpectNear(r.outputs[0].f32(), NaiveMean(x, {true, true}, true, &want),
             1e-6f);
  EXPECT_EQ(r.outputs[0].shape, S({1, 1}));
  Attrs flat;
  flat.Int("keepdims", 0);
  r = RunKernel("ReduceMean", flat, {x});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({}));
  Attrs noop;
  noop.Int("noop_with_empty_axes", 1);
  r = RunKernel("ReduceMean", noop, {x});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({3, 4}));
  EXPECT_EQ(r.outputs[0].bytes, x.bytes);
  // An empty constant axes input is the same as no axes.
  r = RunKernel("ReduceMean", noop, {x, HostTensor::I64(S({0}), {}).Const()});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].bytes, x.bytes);
  // Mean over an empty axis is NaN.
  Attrs ax0;
  ax0.Ints("axes", {0});
  r = RunKernel("ReduceMean", ax0, {HostTensor::F32(S({0, 2}), {})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 2}));
  EXPECT_TRUE(std::isnan(r.outputs[0].f32()[0]));
}

TEST(KernelsReduce, ReduceMeanRejections) {
  HostTensor x = RandF32(S({3, 4}), 1);
  Attrs bad;
  bad.Ints("axes", {2});
  EXPECT_INFER_FAILS(InferKernel("ReduceMean", bad, {x}),
                     "ReduceMean: axis 2 is out of range for [3, 4]");
  bad.Ints("axes", {-3});
  EXPECT_INFER_FAILS(InferKernel("ReduceMean", bad, {x}), "out of range");
  bad.Ints("axes", {1, -1});
  EXPECT_INFER_FAILS(InferKernel("ReduceMean", bad, {x}),
                     "axis -1 is repeated");
  HostTensor axes = HostTensor::I64(S({1}), {0});
  EXPECT_INFER_FAILS(InferKernel("ReduceMean", Attrs(), {x, axes}),
                     "axes input must be a constant");
  Attrs both;
  both.Ints("axes", {0});
  EXPECT_INFER_FAILS(InferKernel("ReduceMean", both, {x, axes.Const()}),
                     "both as attribute and as input");
  Attrs keep;
  keep.Int("keepdims", 2);
  EXPECT_INFER_FAILS(InferKernel("ReduceMean", keep, {x}), "keepdims");
  EXPECT_INFER_FAILS(
      InferKernel("ReduceMean", Attrs(), {HostTensor::I64(S({2}), {1, 2})}),
      "float32 only");
}

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

TEST(KernelsReduce, SoftmaxEveryAxis) {
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

TEST(KernelsReduce, SoftmaxIsStableForLargeInputs) {
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

TEST(KernelsReduce, SoftmaxRejections) {
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
