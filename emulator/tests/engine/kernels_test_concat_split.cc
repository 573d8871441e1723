// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Concat and Split: axes (negative too), every dtype, equal, explicit and
// opset 18 num_outputs splits, and refusals.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

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

TEST(KernelsSplit, EqualAndExplicitSplits) {
  const HostTensor x = RandF32(S({2, 6, 3}), 5);
  const std::vector<float> xv = x.f32();
  Attrs a;
  a.Int("axis", -2);
  RunResult r = RunKernel("Split", a, {x}, 3);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs.size(), 3u);
  r = RunKernel("Split", a, {x, Ints({1, 0, 5})}, 3);
  ASSERT_EQ(r.error, "");
  const int64_t sizes[] = {1, 0, 5};
  int64_t begin = 0;
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(r.outputs[k].shape, S({2, sizes[k], 3}));
    const std::vector<float> got = r.outputs[k].f32();
    for (int64_t o = 0; o < r.outputs[k].shape.numel(); ++o) {
      std::vector<int64_t> idx = Unravel(o, r.outputs[k].shape);
      ASSERT_EQ(got[o], xv[idx[0] * 18 + (begin + idx[1]) * 3 + idx[2]]);
    }
    begin += sizes[k];
  }
  // Equal split by output count, int64 data.
  const HostTensor xi = HostTensor::I64(S({4}), {1, 2, 3, 4});
  r = RunKernel("Split", Attrs(), {xi}, 2);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[1].values<int64_t>(), (std::vector<int64_t>{3, 4}));
}

TEST(KernelsSplit, Opset18NumOutputsMakesASmallerLastChunk) {
  const HostTensor x = HostTensor::I64(S({5}), {1, 2, 3, 4, 5});
  Attrs a;
  a.Int("num_outputs", 3);
  RunResult r = RunKernel("Split", a, {x}, 3);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(r.outputs[1].values<int64_t>(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(r.outputs[2].values<int64_t>(), (std::vector<int64_t>{5}));
  EXPECT_INFER_FAILS(RunKernel("Split", a, {x}, 2),
                     "num_outputs 3 does not match the node's 2 outputs");
  a.Int("num_outputs", 4);
  EXPECT_INFER_FAILS(RunKernel("Split", a, {x}, 4), "cannot make 4 chunks");
}

TEST(KernelsSplit, Refusals) {
  const HostTensor x = RandF32(S({2, 5}), 5);
  Attrs a;
  a.Int("axis", 1);
  EXPECT_INFER_FAILS(RunKernel("Split", a, {x}, 2), "does not split evenly");
  EXPECT_INFER_FAILS(RunKernel("Split", a, {x, Ints({2, 3})}, 3),
                     "2 values for 3 outputs");
  EXPECT_INFER_FAILS(RunKernel("Split", a, {x, Ints({2, 2})}, 2), "do not sum");
  EXPECT_INFER_FAILS(RunKernel("Split", a, {x, Ints({-1, 6})}, 2),
                     "out of range");
  EXPECT_INFER_FAILS(RunKernel("Split", a, {x}, 0), "no outputs");
  a.Int("axis", 2);
  EXPECT_INFER_FAILS(RunKernel("Split", a, {x}, 1), "out of range");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
