// Reshape, Flatten, Identity, Transpose and Concat: shapes, negative axes,
// every element size, and refusals.
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

TEST(KernelsShape, ConcatAxesAndDtypes) {
  struct Case {
    std::vector<std::vector<int64_t>> shapes;
    int64_t axis;
    std::vector<int64_t> want;
  };
  const Case cases[] = {
      {{{2, 3}, {2, 5}}, 1, {2, 8}},
      {{{2, 3}, {4, 3}, {1, 3}}, 0, {7, 3}},
      {{{2, 3, 4}, {2, 1, 4}}, -2, {2, 4, 4}},
      {{{2, 3, 4}, {2, 3, 2}, {2, 3, 0}}, -1, {2, 3, 6}},
      {{{5}}, 0, {5}},
      {{{1, 2, 2, 2}, {1, 3, 2, 2}}, 1, {1, 5, 2, 2}},
  };
  uint32_t seed = 50;
  for (const Case& c : cases) {
    std::vector<HostTensor> in;
    for (const auto& sh : c.shapes) in.push_back(RandF32(S(sh), seed++));
    Attrs a;
    a.Int("axis", c.axis);
    RunResult r = RunKernel("Concat", a, in);
    ASSERT_EQ(r.error, "");
    const Shape want = S(c.want);
    ASSERT_EQ(r.outputs[0].shape, want);
    const int32_t axis =
        static_cast<int32_t>(c.axis < 0 ? c.axis + want.rank : c.axis);
    std::vector<float> got = r.outputs[0].f32();
    for (int64_t o = 0; o < want.numel(); ++o) {
      std::vector<int64_t> idx = Unravel(o, want);
      size_t k = 0;
      while (idx[axis] >= in[k].shape.dims[axis])
        idx[axis] -= in[k++].shape.dims[axis];
      const std::vector<int64_t> st = Strides(in[k].shape);
      int64_t src = 0;
      for (int32_t i = 0; i < want.rank; ++i) src += idx[i] * st[i];
      ASSERT_EQ(got[o], in[k].f32()[src]);
    }
  }
  Attrs a;
  a.Int("axis", 0);
  RunResult r = RunKernel(
      "Concat", a,
      {HostTensor::I64(S({2}), {1, 2}), HostTensor::I64(S({1}), {3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{1, 2, 3}));
}

TEST(KernelsShape, ConcatRejections) {
  HostTensor a = RandF32(S({2, 3}), 1);
  Attrs ax1;
  ax1.Int("axis", 1);
  EXPECT_INFER_FAILS(InferKernel("Concat", ax1, {a, RandF32(S({3, 3}), 2)}),
                     "Concat: input 1 [3, 3] does not match input 0 [2, 3]");
  EXPECT_INFER_FAILS(InferKernel("Concat", ax1, {a, RandF32(S({2, 3, 1}), 2)}),
                     "does not match");
  EXPECT_INFER_FAILS(
      InferKernel("Concat", ax1, {a, HostTensor::I64(S({2, 1}), {1, 2})}),
      "input 1 has dtype int64, input 0 has float32");
  EXPECT_INFER_FAILS(InferKernel("Concat", Attrs(), {a, a}),
                     "axis is required");
  Attrs ax2;
  ax2.Int("axis", 2);
  EXPECT_INFER_FAILS(InferKernel("Concat", ax2, {a, a}),
                     "axis 2 is out of range");
  ax2.Int("axis", -3);
  EXPECT_INFER_FAILS(InferKernel("Concat", ax2, {a, a}), "out of range");
  EXPECT_INFER_FAILS(InferKernel("Concat", ax1, {a, HostTensor::Absent()}),
                     "input 1 is absent");
  EXPECT_INFER_FAILS(InferKernel("Concat", ax1, {RandF32(S({}), 1)}),
                     "out of range");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
