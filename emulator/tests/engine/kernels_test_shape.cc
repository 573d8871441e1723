// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Reshape, Flatten, Squeeze, Unsqueeze, Identity, Transpose, Expand and Shape:
// shapes, negative axes, every element size, and refusals.
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

RunResult Reshape(const HostTensor& x, std::vector<int64_t> shape,
                  int64_t allowzero = -1) {
  Attrs a;
  if (allowzero >= 0) a.Int("allowzero", allowzero);
  HostTensor s =
      HostTensor::I64(S({static_cast<int64_t>(shape.size())}), shape);
  return RunKernel("Reshape", a, {x, s.Const()});
}

TEST(KernelsShape, ReshapeZeroMinusOneAndAllowzero) {
  HostTensor x = RandF32(S({2, 3, 4}), 1);
  struct Case {
    std::vector<int64_t> target, want;
  };
  const Case cases[] = {
      {{6, 4}, {6, 4}},
      {{-1}, {24}},
      {{0, -1}, {2, 12}},
      {{0, 0, 4}, {2, 3, 4}},
      {{4, -1, 2}, {4, 3, 2}},
      {{1, 24, 1}, {1, 24, 1}},
      {{2, 0, 2, -1}, {2, 3, 2, 2}},
  };
  for (const Case& c : cases) {
    RunResult r = Reshape(x, c.target);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.outputs[0].shape, S(c.want));
    EXPECT_EQ(r.outputs[0].bytes, x.bytes);  // row-major data is unchanged
  }
  // allowzero=1: 0 is a real zero-sized dim.
  HostTensor empty = HostTensor::F32(S({0, 3}), {});
  RunResult r = Reshape(empty, {3, 0}, 1);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({3, 0}));
  EXPECT_INFER_FAILS(Reshape(x, {0, 24}, 1), "cannot reshape");
  EXPECT_INFER_FAILS(Reshape(empty, {0, -1}, 1),
                     "-1 and 0 cannot both appear with allowzero=1");
  // An empty shape makes a scalar; its constant has no bytes.
  r = Reshape(HostTensor::F32(S({1, 1}), {4.5f}), {});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({}));
  EXPECT_EQ(r.outputs[0].f32(), std::vector<float>{4.5f});
  // int64 data moves as bytes too.
  HostTensor xi = HostTensor::I64(S({2, 2}), {1, 2, 3, 4});
  r = Reshape(xi, {4});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(r.outputs[0].dtype, DType::kInt64);
}

TEST(KernelsShape, ReshapeRejections) {
  HostTensor x = RandF32(S({2, 3, 4}), 1);
  EXPECT_INFER_FAILS(Reshape(x, {5, -1}), "Reshape: cannot reshape [2, 3, 4]");
  EXPECT_INFER_FAILS(Reshape(x, {-1, -1}), "more than one -1");
  EXPECT_INFER_FAILS(Reshape(x, {5, 5}), "cannot reshape [2, 3, 4] to [5, 5]");
  EXPECT_INFER_FAILS(Reshape(x, {-2, 12}), "invalid dimension -2");
  EXPECT_INFER_FAILS(Reshape(x, {2, 3, 4, 0}), "does not have");
  EXPECT_INFER_FAILS(Reshape(x, {1, 1, 1, 1, 1, 1, 1, 1, 24}), "exceeds 8");
  EXPECT_INFER_FAILS(Reshape(x, {int64_t{1} << 40, int64_t{1} << 40}),
                     "too large");
  HostTensor s = HostTensor::I64(S({1}), {24});
  EXPECT_INFER_FAILS(InferKernel("Reshape", Attrs(), {x, s}),
                     "shape must be a constant initializer");
  HostTensor s32 = HostTensor::Of<int32_t>(DType::kInt32, S({1}), {24});
  EXPECT_INFER_FAILS(InferKernel("Reshape", Attrs(), {x, s32.Const()}),
                     "1-D int64");
  Attrs bad;
  bad.Int("allowzero", 3);
  EXPECT_INFER_FAILS(InferKernel("Reshape", bad, {x, s.Const()}),
                     "allowzero must be 0 or 1");
}

RunResult ShapeOf(const HostTensor& x, int64_t start, int64_t end,
                  bool has_start, bool has_end) {
  Attrs a;
  if (has_start) a.Int("start", start);
  if (has_end) a.Int("end", end);
  return RunKernel("Shape", a, {x});
}

TEST(KernelsShape, ShapeWithStartAndEnd) {
  const HostTensor x = RandF32(S({2, 3, 4}), 1);
  struct Case {
    bool has_start, has_end;
    int64_t start, end;
    std::vector<int64_t> want;
  };
  const Case cases[] = {
      {false, false, 0, 0, {2, 3, 4}},
      {true, false, 1, 0, {3, 4}},
      {false, true, 0, 1, {2}},
      {true, true, -1, 3, {4}},          // negative start counts from the back
      {true, true, 0, -1, {2, 3}},       // negative end too
      {true, true, -10, 10, {2, 3, 4}},  // both clamped to [0, rank]
      {true, true, 2, 1, {}},            // end before start: empty
      {true, true, 3, 3, {}},
  };
  for (const Case& c : cases) {
    RunResult r = ShapeOf(x, c.start, c.end, c.has_start, c.has_end);
    ASSERT_EQ(r.error, "") << c.start << " " << c.end;
    EXPECT_EQ(r.outputs[0].dtype, DType::kInt64);
    EXPECT_EQ(r.outputs[0].shape, S({static_cast<int64_t>(c.want.size())}));
    EXPECT_EQ(r.outputs[0].values<int64_t>(), c.want)
        << c.start << " " << c.end;
  }
  // Any dtype, a scalar (rank 0: an empty shape), a zero-sized dim.
  RunResult r = ShapeOf(HostTensor::I64(S({}), {7}), 0, 0, false, false);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({0}));
  r = ShapeOf(HostTensor::F32(S({0, 5}), {}), 0, 0, false, false);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 5}));
  EXPECT_INFER_FAILS(InferKernel("Shape", Attrs(), {x, x}), "Shape");
  Attrs bad;
  bad.Float("start", 1.0f);
  EXPECT_INFER_FAILS(InferKernel("Shape", bad, {x}), "start");
}

TEST(KernelsShape, FlattenAxesIncludingNegative) {
  HostTensor x = RandF32(S({2, 3, 4, 5}), 2);
  const std::pair<int64_t, std::vector<int64_t>> cases[] = {
      {0, {1, 120}}, {1, {2, 60}},   {2, {6, 20}},  {4, {120, 1}},
      {-1, {24, 5}}, {-4, {1, 120}}, {-3, {2, 60}},
  };
  for (const auto& [axis, want] : cases) {
    Attrs a;
    a.Int("axis", axis);
    RunResult r = RunKernel("Flatten", a, {x});
    ASSERT_EQ(r.error, "") << axis;
    EXPECT_EQ(r.outputs[0].shape, S(want)) << axis;
    EXPECT_EQ(r.outputs[0].bytes, x.bytes);
  }
  RunResult r = RunKernel("Flatten", Attrs(), {x});  // default axis 1
  EXPECT_EQ(r.outputs[0].shape, S({2, 60}));
  Attrs bad;
  bad.Int("axis", 5);
  EXPECT_INFER_FAILS(InferKernel("Flatten", bad, {x}),
                     "Flatten: axis 5 is out of range");
  bad.Int("axis", -5);
  EXPECT_INFER_FAILS(InferKernel("Flatten", bad, {x}), "out of range");
}

TEST(KernelsShape, IdentityCopiesAnyDtype) {
  HostTensor b = HostTensor::Of<uint8_t>(DType::kBool, S({3}), {1, 0, 1});
  RunResult r = RunKernel("Identity", Attrs(), {b});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].dtype, DType::kBool);
  EXPECT_EQ(r.outputs[0].bytes, b.bytes);
  HostTensor f = RandF32(S({}), 3);
  r = RunKernel("Identity", Attrs(), {f});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].bytes, f.bytes);
}

template <typename T>
void CheckTranspose(DType dtype, const std::vector<int64_t>& dims,
                    const std::vector<int64_t>& perm, bool give_perm) {
  const Shape s = S(dims);
  std::vector<T> v(static_cast<size_t>(s.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<T>(i * 7 + 3);
  HostTensor x = HostTensor::Of<T>(dtype, s, v);
  Attrs a;
  if (give_perm) a.Ints("perm", perm);
  RunResult r = RunKernel("Transpose", a, {x});
  ASSERT_EQ(r.error, "");
  Shape want;
  want.rank = s.rank;
  for (int32_t i = 0; i < s.rank; ++i) want.dims[i] = s.dims[perm[i]];
  ASSERT_EQ(r.outputs[0].shape, want);
  std::vector<T> got = r.outputs[0].template values<T>();
  const std::vector<int64_t> in_st = Strides(s);
  for (int64_t o = 0; o < want.numel(); ++o) {
    std::vector<int64_t> idx = Unravel(o, want);
    int64_t src = 0;
    for (int32_t i = 0; i < s.rank; ++i) src += idx[i] * in_st[perm[i]];
    ASSERT_EQ(got[o], v[src]) << "at " << o;
  }
}

TEST(KernelsShape, TransposePermsAndElementSizes) {
  CheckTranspose<float>(DType::kFloat32, {2, 3}, {1, 0}, true);
  CheckTranspose<float>(DType::kFloat32, {2, 3, 4}, {2, 1, 0},
                        false);  // default
  CheckTranspose<float>(DType::kFloat32, {2, 3, 4, 5}, {0, 2, 3, 1}, true);
  CheckTranspose<float>(DType::kFloat32, {2, 3, 4, 5}, {0, 3, 1, 2}, true);
  CheckTranspose<float>(DType::kFloat32, {1, 3, 1, 5}, {3, 2, 1, 0}, true);
  CheckTranspose<int64_t>(DType::kInt64, {3, 4, 2}, {1, 2, 0}, true);
  CheckTranspose<uint8_t>(DType::kUInt8, {4, 5}, {1, 0}, true);
  CheckTranspose<uint16_t>(DType::kFloat16, {3, 2, 2}, {2, 0, 1}, true);
  CheckTranspose<float>(DType::kFloat32, {2, 1, 2, 1, 2, 1, 2, 3},
                        {7, 6, 5, 4, 3, 2, 1, 0}, true);
  CheckTranspose<float>(DType::kFloat32, {5}, {0}, true);
  CheckTranspose<float>(DType::kFloat32, {2, 0, 3}, {2, 0, 1}, true);

  HostTensor x = RandF32(S({2, 3}), 1);
  Attrs dup;
  dup.Ints("perm", {0, 0});
  EXPECT_INFER_FAILS(InferKernel("Transpose", dup, {x}),
                     "Transpose: perm is not a permutation");
  Attrs range;
  range.Ints("perm", {0, 2});
  EXPECT_INFER_FAILS(InferKernel("Transpose", range, {x}), "not a permutation");
  Attrs len;
  len.Ints("perm", {0});
  EXPECT_INFER_FAILS(InferKernel("Transpose", len, {x}), "perm has 1 values");
}

TEST(KernelsSqueeze, SqueezeAndUnsqueeze) {
  const HostTensor x = RandF32(S({1, 3, 1, 2}), 2);
  RunResult r = RunKernel("Squeeze", Attrs(), {x});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({3, 2}));
  EXPECT_EQ(r.outputs[0].bytes, x.bytes);
  r = RunKernel("Squeeze", Attrs(), {x, Ints({-2})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 3, 2}));
  EXPECT_INFER_FAILS(RunKernel("Squeeze", Attrs(), {x, Ints({1})}),
                     "cannot squeeze axis 1 of size 3");
  EXPECT_INFER_FAILS(RunKernel("Squeeze", Attrs(), {x, Ints({0, -4})}),
                     "repeats");
  r = RunKernel("Unsqueeze", Attrs(), {x, Ints({0, -1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 1, 3, 1, 2, 1}));
  EXPECT_EQ(r.outputs[0].bytes, x.bytes);
  r = RunKernel("Unsqueeze", Attrs(), {RandF32(S({}), 1), Ints({0})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1}));
  EXPECT_INFER_FAILS(RunKernel("Unsqueeze", Attrs(), {x, Ints({6})}),
                     "out of range");
  EXPECT_INFER_FAILS(
      RunKernel("Unsqueeze", Attrs(), {x, Ints({0, 1, 2, 3, 4})}), "exceeds 8");
  EXPECT_INFER_FAILS(RunKernel("Unsqueeze", Attrs(), {x}), "expects 2");
}

TEST(KernelsExpand, BroadcastsBothWays) {
  const HostTensor x = HostTensor::F32(S({3, 1}), {1, 2, 3});
  RunResult r = RunKernel("Expand", Attrs(), {x, Ints({2, 1, 4})});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].shape, S({2, 3, 4}));
  const std::vector<float> got = r.outputs[0].f32();
  for (int64_t o = 0; o < 24; ++o) {
    ASSERT_EQ(got[o], static_cast<float>(Unravel(o, S({2, 3, 4}))[1] + 1));
  }
  // A smaller target shape keeps the input's dims (bidirectional).
  r = RunKernel("Expand", Attrs(), {x, Ints({1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({3, 1}));
  EXPECT_EQ(r.outputs[0].f32(), x.f32());
  EXPECT_INFER_FAILS(RunKernel("Expand", Attrs(), {x, Ints({2, 2})}),
                     "cannot expand");
  EXPECT_INFER_FAILS(RunKernel("Expand", Attrs(), {x, Ints({-1, 1})}),
                     "negative");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
