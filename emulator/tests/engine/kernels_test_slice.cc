// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Slice and Tile: results against naive index arithmetic (numpy's slicing
// rules), every element size, refusals.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

// The indices numpy's a[start:end:step] selects from a dim of size n.
std::vector<int64_t> PySlice(int64_t n, int64_t start, int64_t end,
                             int64_t step) {
  std::vector<int64_t> out;
  // Reference semantics written as a filter over every index, not as the
  // kernel's clamping arithmetic.
  auto norm = [n](int64_t v) { return v < 0 ? v + n : v; };
  const int64_t s = norm(start);
  const int64_t e = norm(end);
  if (step > 0) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t lo = std::max<int64_t>(s, 0);
      if (i >= lo && i < e && (i - lo) % step == 0) out.push_back(i);
    }
  } else {
    for (int64_t i = n - 1; i >= 0; --i) {
      const bool from_ok = s >= n ? true : i <= s;
      const int64_t first = s >= n ? n - 1 : s;
      if (from_ok && i > e && (first - i) % (-step) == 0) out.push_back(i);
    }
  }
  return out;
}

TEST(KernelsSlice, MatchesNumpySlicingOnEveryAxis) {
  const HostTensor x = RandF32(S({4, 5, 6}), 3);
  const int64_t big = std::numeric_limits<int64_t>::max();
  const int64_t small = std::numeric_limits<int64_t>::min();
  struct Case {
    int64_t axis, start, end, step;
  };
  const Case cases[] = {
      {0, 1, 3, 1},   {1, -3, -1, 1},      {2, 0, big, 2},  {2, -1, small, -1},
      {1, 4, 0, -2},  {0, 10, 20, 1},      {2, 5, 1, 1},    {1, -100, 100, 3},
      {-1, 1, -1, 1}, {2, big, small, -3}, {0, -1, -5, -1},
  };
  for (const Case& c : cases) {
    RunResult r = RunKernel(
        "Slice", Attrs(),
        {x, Ints({c.start}), Ints({c.end}), Ints({c.axis}), Ints({c.step})});
    ASSERT_EQ(r.error, "") << c.axis << " " << c.start;
    const int64_t axis = c.axis < 0 ? c.axis + 3 : c.axis;
    const std::vector<int64_t> sel =
        PySlice(x.shape.dims[axis], c.start, c.end, c.step);
    Shape want = x.shape;
    want.dims[axis] = static_cast<int64_t>(sel.size());
    ASSERT_EQ(r.outputs[0].shape, want);
    const std::vector<float> xv = x.f32();
    const std::vector<float> got = r.outputs[0].f32();
    const std::vector<int64_t> xs = Strides(x.shape);
    for (int64_t o = 0; o < want.numel(); ++o) {
      std::vector<int64_t> idx = Unravel(o, want);
      idx[axis] = sel[idx[axis]];
      int64_t off = 0;
      for (int d = 0; d < 3; ++d) off += idx[d] * xs[d];
      ASSERT_EQ(got[o], xv[off]) << "case start " << c.start << " at " << o;
    }
  }
}

TEST(KernelsSlice, SeveralAxesDefaultsAndDtypes) {
  std::vector<int64_t> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  const HostTensor x = HostTensor::I64(S({2, 3, 4}), v);
  // No axes, no steps: starts apply to the leading axes.
  RunResult r = RunKernel("Slice", Attrs(), {x, Ints({1, 1}), Ints({2, 3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 2, 4}));
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{16, 17, 18, 19, 20, 21, 22, 23}));
  // Two axes, one reversed; int32 operands.
  auto i32 = [](std::vector<int32_t> v) {
    return HostTensor::Of<int32_t>(DType::kInt32,
                                   S({static_cast<int64_t>(v.size())}), v)
        .Const();
  };
  r = RunKernel("Slice", Attrs(),
                {x, i32({-1, 0}), i32({-100, 3}), i32({2, 0}), i32({-2, 2})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 3, 2}));
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{3, 1, 7, 5, 11, 9}));
  // 2-byte elements (fp16 storage) move unchanged.
  const HostTensor h =
      HostTensor::Of<uint16_t>(DType::kFloat16, S({4}), {1, 2, 3, 4});
  r = RunKernel("Slice", Attrs(),
                {h, Ints({3}), Ints({0}), Ints({0}), Ints({-1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<uint16_t>(), (std::vector<uint16_t>{4, 3, 2}));
  EXPECT_EQ(r.outputs[0].dtype, DType::kFloat16);
}

TEST(KernelsSlice, OnnxClampingDiffersFromNumpy) {
  // ONNX clamps a negative-step start into [0, dim - 1], so a start before
  // the axis still selects element 0 (numpy would select nothing).
  const HostTensor x = HostTensor::F32(S({3}), {1, 2, 3});
  RunResult r =
      RunKernel("Slice", Attrs(),
                {x, Ints({-10}), Ints({INT64_MIN}), Ints({0}), Ints({-1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), std::vector<float>{1});
  // An empty axis stays empty whatever the step.
  const HostTensor e = HostTensor::F32(S({0, 2}), {});
  r = RunKernel("Slice", Attrs(),
                {e, Ints({-1}), Ints({INT64_MIN}), Ints({0}), Ints({-1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({0, 2}));
}

TEST(KernelsSlice, Refusals) {
  const HostTensor x = RandF32(S({2, 3}), 1);
  EXPECT_INFER_FAILS(RunKernel("Slice", Attrs(),
                               {x, Ints({0}), Ints({1}), Ints({0}), Ints({0})}),
                     "steps must not be 0");
  EXPECT_INFER_FAILS(
      RunKernel("Slice", Attrs(), {x, Ints({0}), Ints({1}), Ints({2})}),
      "out of range");
  EXPECT_INFER_FAILS(RunKernel("Slice", Attrs(),
                               {x, Ints({0, 0}), Ints({1, 1}), Ints({1, -1})}),
                     "repeats");
  EXPECT_INFER_FAILS(RunKernel("Slice", Attrs(), {x, Ints({0}), Ints({1, 2})}),
                     "differ in length");
  HostTensor s = HostTensor::I64(S({1}), {0});
  EXPECT_INFER_FAILS(RunKernel("Slice", Attrs(), {x, s, Ints({1})}),
                     "constant initializer");
  EXPECT_INFER_FAILS(
      RunKernel("Slice", Attrs(), {x, RandF32(S({1}), 1).Const(), Ints({1})}),
      "int64 or int32");
}

TEST(KernelsTile, RepeatsEveryAxis) {
  const HostTensor x =
      HostTensor::Of<int32_t>(DType::kInt32, S({2, 3}), {1, 2, 3, 4, 5, 6});
  RunResult r = RunKernel("Tile", Attrs(), {x, Ints({2, 2})});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].shape, S({4, 6}));
  const std::vector<int32_t> got = r.outputs[0].values<int32_t>();
  for (int64_t o = 0; o < 24; ++o) {
    const std::vector<int64_t> idx = Unravel(o, S({4, 6}));
    ASSERT_EQ(got[o], (idx[0] % 2) * 3 + idx[1] % 3 + 1) << o;
  }
  r = RunKernel("Tile", Attrs(), {x, Ints({0, 3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({0, 9}));
  EXPECT_INFER_FAILS(RunKernel("Tile", Attrs(), {x, Ints({2})}),
                     "1 values for input");
  EXPECT_INFER_FAILS(RunKernel("Tile", Attrs(), {x, Ints({-1, 1})}), ">= 0");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
