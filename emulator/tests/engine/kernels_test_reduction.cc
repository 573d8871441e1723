// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Reductions: ReduceMean (axes attribute or constant input, keepdims,
// noop_with_empty_axes, negative axes), ReduceSum/Max/Min, ArgMax/ArgMin and
// CumSum against naive oracles that walk every input element, across dtypes,
// axes, keepdims, and refusals.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_dtypes.h"
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
      "float32 or float16");
}

HostTensor Axes(const std::vector<int64_t>& a) {
  return HostTensor::I64(S({static_cast<int64_t>(a.size())}), a).Const();
}

// Naive reduction: output index of each input element, then fold.
std::vector<double> OracleReduce(const std::vector<double>& x, const Shape& s,
                                 const std::vector<bool>& reduced,
                                 const std::string& op) {
  Shape out;
  for (int32_t i = 0; i < s.rank; ++i) {
    if (!reduced[i]) out.dims[out.rank++] = s.dims[i];
  }
  const double init = op == "ReduceSum"   ? 0.0
                      : op == "ReduceMax" ? -INFINITY
                                          : INFINITY;
  std::vector<double> y(static_cast<size_t>(out.numel()), init);
  for (int64_t f = 0; f < s.numel(); ++f) {
    std::vector<int64_t> idx = Unravel(f, s);
    int64_t o = 0;
    for (int32_t i = 0; i < s.rank; ++i) {
      if (!reduced[i]) o = o * s.dims[i] + idx[i];
    }
    if (op == "ReduceSum") y[o] += x[f];
    if (op == "ReduceMax") y[o] = std::fmax(y[o], x[f]);
    if (op == "ReduceMin") y[o] = std::fmin(y[o], x[f]);
  }
  return y;
}

TEST(KernelsReduce, SumMaxMinOverAxesAndDtypes) {
  const Shape s = S({2, 3, 4});
  std::vector<float> xf = RandomFloats(24, 3);
  for (float& v : xf) v = std::round(v * 8);  // exact in every dtype
  std::vector<double> xd(xf.begin(), xf.end());
  const std::vector<std::vector<int64_t>> axes_cases = {
      {}, {0}, {-1}, {1, 2}, {0, 2}, {0, 1, 2}};
  for (const char* op : {"ReduceSum", "ReduceMax", "ReduceMin"}) {
    for (const auto& axes : axes_cases) {
      for (int keepdims : {0, 1}) {
        std::vector<bool> reduced(3, axes.empty());
        for (int64_t a : axes) reduced[(a + 3) % 3] = true;
        const std::vector<double> want = OracleReduce(xd, s, reduced, op);
        Attrs attrs;
        attrs.Int("keepdims", keepdims);
        std::vector<HostTensor> extra;
        if (std::string(op) == "ReduceSum") {
          if (!axes.empty() || keepdims) extra.push_back(Axes(axes));
        } else {
          attrs.Ints("axes", axes);
        }
        for (DType d :
             {DType::kFloat32, DType::kFloat16, DType::kInt32, DType::kInt64}) {
          HostTensor x =
              d == DType::kFloat32   ? HostTensor::F32(s, xf)
              : d == DType::kFloat16 ? F16(s, xf)
              : d == DType::kInt32
                  ? I32(s, std::vector<int32_t>(xf.begin(), xf.end()))
                  : HostTensor::I64(s,
                                    std::vector<int64_t>(xf.begin(), xf.end()));
          std::vector<HostTensor> in = {x};
          in.insert(in.end(), extra.begin(), extra.end());
          RunResult r = RunKernel(op, attrs, in);
          ASSERT_EQ(r.error, "") << op;
          ASSERT_EQ(r.outputs[0].dtype, d);
          ASSERT_EQ(r.outputs[0].shape.numel(),
                    static_cast<int64_t>(want.size()));
          ASSERT_EQ(
              r.outputs[0].shape.rank, keepdims ? 3 : 3 - [&] {
                int n = 0;
                for (bool b : reduced) n += b;
                return n;
              }());
          std::vector<double> got;
          if (d == DType::kFloat32) {
            for (float v : r.outputs[0].f32()) got.push_back(v);
          } else if (d == DType::kFloat16) {
            for (float v : HalfValues(r.outputs[0])) got.push_back(v);
          } else if (d == DType::kInt32) {
            for (int32_t v : r.outputs[0].values<int32_t>()) got.push_back(v);
          } else {
            for (int64_t v : r.outputs[0].values<int64_t>()) got.push_back(v);
          }
          EXPECT_EQ(got, want) << op << " " << DTypeName(d);
        }
      }
    }
  }
}

// A reduced innermost dim sums each row in registers (reduce_loop.cc
// RowSum): rows longer than its 8 lanes with a tail (37), a Llama-sized row
// (128), the innermost and the dim before it reduced together (rows folding
// into the same output), for ReduceMean and ReduceSum in float32 and float16,
// and int64 sums that wrap as before.
TEST(KernelsReduce, InnermostRowSumsMatchTheNaiveWalk) {
  struct Case {
    Shape shape;
    std::vector<int64_t> axes;
    std::vector<bool> red;
  };
  const Case cases[] = {
      {S({3, 37}), {-1}, {false, true}},
      {S({2, 64, 128}), {2}, {false, false, true}},
      {S({3, 5, 37}), {1, 2}, {false, true, true}},
      {S({4, 9}), {0, 1}, {true, true}},
  };
  uint32_t seed = 40;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.shape.ToString());
    HostTensor x = RandF32(c.shape, seed++);
    std::vector<float> xv = x.f32();
    for (float& v : xv) v = 3.0f * v + 0.5f;  // sums far from zero
    x = HostTensor::F32(c.shape, xv);
    Shape want_shape;
    const std::vector<float> mean = NaiveMean(x, c.red, true, &want_shape);
    int64_t count = 1;
    for (int32_t i = 0; i < c.shape.rank; ++i) {
      count *= c.red[i] ? c.shape.dims[i] : 1;
    }
    std::vector<float> sum;
    for (float m : mean) sum.push_back(m * static_cast<float>(count));
    Attrs a;
    a.Ints("axes", c.axes);
    RunResult r = RunKernel("ReduceMean", a, {x});
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.outputs[0].shape, want_shape);
    ExpectNear(r.outputs[0].f32(), mean, 1e-6f);
    r = RunKernel("ReduceSum", Attrs(), {x, Axes(c.axes)});
    ASSERT_EQ(r.error, "");
    ExpectNear(r.outputs[0].f32(), sum, 4e-6f * static_cast<float>(count));
    // float16 accumulates in float (double here) and rounds once.
    const std::vector<float> xh = RoundToHalf(xv);
    const std::vector<float> mean_h =
        NaiveMean(HostTensor::F32(c.shape, xh), c.red, true, &want_shape);
    r = RunKernel("ReduceMean", a, {F16(c.shape, xh)});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(HalfValues(r.outputs[0]), RoundToHalf(mean_h));
  }
  // int64: the row's sum wraps modulo 2^64, whatever the order.
  std::vector<int64_t> big(19, std::numeric_limits<int64_t>::max() / 4 + 7);
  big[18] = -3;
  uint64_t wrapped = 0;
  for (int64_t v : big) wrapped += static_cast<uint64_t>(v);
  RunResult r = RunKernel("ReduceSum", Attrs(),
                          {HostTensor::I64(S({1, 19}), big), Axes({1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{static_cast<int64_t>(wrapped)}));
}

TEST(KernelsReduce, NoopEmptyAndNaN) {
  HostTensor x = RandF32(S({2, 3}), 5);
  Attrs noop;
  noop.Int("noop_with_empty_axes", 1);
  RunResult r = RunKernel("ReduceSum", noop, {x, Axes({})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), x.f32());
  r = RunKernel("ReduceSum", Attrs(),
                {HostTensor::F32(S({0, 3}), {}), Axes({0})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{0, 0, 0}));
  Attrs ax;
  ax.Ints("axes", {1});
  r = RunKernel("ReduceMax", ax,
                {HostTensor::F32(S({2, 2}), {1, std::nanf(""), 3, 2})});
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(std::isnan(r.outputs[0].f32()[0]));
  EXPECT_EQ(r.outputs[0].f32()[1], 3.0f);
}

TEST(KernelsReduce, ArgMaxArgMinFirstIndex) {
  HostTensor x = HostTensor::F32(S({2, 3}), {1, 5, 5, -2, -2, 0});
  Attrs a1;
  a1.Int("axis", 1);
  RunResult r = RunKernel("ArgMax", a1, {x});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({2, 1}));
  EXPECT_EQ(r.outputs[0].dtype, DType::kInt64);
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{1, 2}));
  r = RunKernel("ArgMin", a1, {x});
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 0}));
  Attrs a0;
  a0.Int("axis", -2).Int("keepdims", 0);
  r = RunKernel("ArgMax", a0, {F16(S({2, 3}), {1, 5, 5, -2, 7, 5})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({3}));
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 1, 0}));
  r = RunKernel("ArgMin", Attrs(), {I32(S({3}), {4, -1, -1})});
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{1}));
  r = RunKernel("ArgMax", Attrs(),
                {HostTensor::F32(S({3}), {1, std::nanf(""), 9})});
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{1}));
  // Oracle over a 3-D tensor, middle axis.
  const Shape s = S({3, 4, 5});
  HostTensor big = RandF32(s, 8);
  Attrs mid;
  mid.Int("axis", 1).Int("keepdims", 0);
  r = RunKernel("ArgMax", mid, {big});
  ASSERT_EQ(r.error, "");
  std::vector<float> v = big.f32();
  for (int64_t o = 0; o < 3; ++o) {
    for (int64_t j = 0; j < 5; ++j) {
      int64_t best = 0;
      for (int64_t k = 1; k < 4; ++k) {
        if (v[(o * 4 + k) * 5 + j] > v[(o * 4 + best) * 5 + j]) best = k;
      }
      EXPECT_EQ(r.outputs[0].values<int64_t>()[o * 5 + j], best);
    }
  }
}

TEST(KernelsReduce, CumSumExclusiveReverse) {
  const Shape s = S({2, 3});
  HostTensor x = HostTensor::F32(s, {1, 2, 3, 4, 5, 6});
  auto axis = [](int64_t a) { return HostTensor::I64(S({}), {a}).Const(); };
  struct Case {
    int64_t axis, exclusive, reverse;
    std::vector<float> want;
  };
  const Case cases[] = {
      {1, 0, 0, {1, 3, 6, 4, 9, 15}},  {1, 1, 0, {0, 1, 3, 0, 4, 9}},
      {1, 0, 1, {6, 5, 3, 15, 11, 6}}, {1, 1, 1, {5, 3, 0, 11, 6, 0}},
      {0, 0, 0, {1, 2, 3, 5, 7, 9}},   {-2, 1, 1, {4, 5, 6, 0, 0, 0}},
  };
  for (const Case& c : cases) {
    Attrs a;
    a.Int("exclusive", c.exclusive).Int("reverse", c.reverse);
    RunResult r = RunKernel("CumSum", a, {x, axis(c.axis)});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.outputs[0].f32(), c.want)
        << c.axis << " " << c.exclusive << " " << c.reverse;
    r = RunKernel("CumSum", a,
                  {HostTensor::I64(s, {1, 2, 3, 4, 5, 6}),
                   I32(S({1}), {static_cast<int32_t>(c.axis)}).Const()});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.outputs[0].values<int64_t>(),
              std::vector<int64_t>(c.want.begin(), c.want.end()));
    r = RunKernel("CumSum", a, {F16(s, {1, 2, 3, 4, 5, 6}), axis(c.axis)});
    EXPECT_EQ(HalfValues(r.outputs[0]), c.want);
  }
}

TEST(KernelsReduce, CumSumIntegersAreExactAndWrap) {
  // int32 and int64 running sums along a middle axis (outer and inner > 1),
  // the position-id pattern cumsum(mask, 1); int32 wraps like int64 does.
  const Shape s = S({2, 3, 2});
  const std::vector<int64_t> v = {1, 0, 1, 1, 0, 1, 5, -7, 0, 2, -3, 4};
  const std::vector<int64_t> want = {1, 0, 2, 1, 2, 2, 5, -7, 5, -5, 2, -1};
  auto axis1 = HostTensor::I64(S({}), {1}).Const();
  RunResult r = RunKernel("CumSum", Attrs(), {HostTensor::I64(s, v), axis1});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].dtype, DType::kInt64);
  EXPECT_EQ(r.outputs[0].values<int64_t>(), want);
  r = RunKernel("CumSum", Attrs(),
                {I32(s, std::vector<int32_t>(v.begin(), v.end())), axis1});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].dtype, DType::kInt32);
  EXPECT_EQ(r.outputs[0].values<int32_t>(),
            std::vector<int32_t>(want.begin(), want.end()));
  const int32_t i32max = std::numeric_limits<int32_t>::max();
  r = RunKernel(
      "CumSum", Attrs(),
      {I32(S({3}), {i32max, 1, 1}), HostTensor::I64(S({}), {0}).Const()});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int32_t>(),
            (std::vector<int32_t>{i32max, std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::min() + 1}));
  const int64_t i64max = std::numeric_limits<int64_t>::max();
  r = RunKernel("CumSum", Attrs(),
                {HostTensor::I64(S({2}), {i64max, 1}),
                 HostTensor::I64(S({}), {-1}).Const()});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(
      r.outputs[0].values<int64_t>(),
      (std::vector<int64_t>{i64max, std::numeric_limits<int64_t>::min()}));
}

TEST(KernelsReduce, Refusals) {
  HostTensor x = RandF32(S({2, 3}), 1);
  Attrs axes_attr;
  axes_attr.Ints("axes", {0});
  EXPECT_INFER_FAILS(InferKernel("ReduceSum", axes_attr, {x}),
                     "unsupported attribute 'axes'");
  EXPECT_INFER_FAILS(
      InferKernel("ReduceSum", Attrs(), {x, HostTensor::I64(S({1}), {0})}),
      "axes input must be a constant");
  EXPECT_INFER_FAILS(InferKernel("ReduceMax", axes_attr, {x, Axes({1})}),
                     "both as attribute and as input");
  Attrs bad_axis;
  bad_axis.Ints("axes", {2});
  EXPECT_INFER_FAILS(InferKernel("ReduceMin", bad_axis, {x}), "out of range");
  EXPECT_INFER_FAILS(InferKernel("ReduceSum", Attrs(), {BoolT(S({1}), {1})}),
                     "unsupported dtype bool");
  Attrs last;
  last.Int("select_last_index", 1);
  EXPECT_INFER_FAILS(InferKernel("ArgMax", last, {x}),
                     "select_last_index=1 is not supported");
  Attrs ax5;
  ax5.Int("axis", 5);
  EXPECT_INFER_FAILS(InferKernel("ArgMin", ax5, {x}), "out of range");
  EXPECT_INFER_FAILS(
      InferKernel("ArgMax", Attrs(), {HostTensor::F32(S({0, 2}), {})}),
      "empty axis");
  EXPECT_INFER_FAILS(
      InferKernel("ArgMax", Attrs(), {HostTensor::F32(S({}), {1})}),
      "out of range");
  EXPECT_INFER_FAILS(
      InferKernel("CumSum", Attrs(), {x, HostTensor::I64(S({}), {0})}),
      "axis must be a constant");
  EXPECT_INFER_FAILS(
      InferKernel("CumSum", Attrs(), {x, HostTensor::I64(S({}), {2}).Const()}),
      "out of range");
  EXPECT_INFER_FAILS(InferKernel("CumSum", Attrs(),
                                 {x, HostTensor::I64(S({2}), {0, 1}).Const()}),
                     "scalar");
  Attrs excl;
  excl.Int("exclusive", 2);
  EXPECT_INFER_FAILS(
      InferKernel("CumSum", excl, {x, HostTensor::I64(S({}), {0}).Const()}),
      "exclusive must be 0 or 1");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
