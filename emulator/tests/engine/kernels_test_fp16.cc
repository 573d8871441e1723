// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// float16 through the float32-only kernels (MatMul, Gemm, Conv, pools,
// Softmax): each fp16 result must be the float kernel's result on the same
// (half-representable) inputs, rounded to half once; fp16 storage with fp32
// accumulation, also in the natively typed ReduceMean. Also refusals of mixed
// fp16/fp32 nodes.
#include <string>
#include <utility>
#include <vector>

#include "kernels_test_dtypes.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

struct Case {
  std::string op;
  Attrs attrs;
  std::vector<HostTensor> inputs;  // float32, values exactly representable
};

HostTensor HalfExact(const Shape& s, uint32_t seed) {
  return HostTensor::F32(s, RoundToHalf(RandomFloats(s.numel(), seed)));
}

HostTensor ToHalf(const HostTensor& t) {
  if (t.dtype != DType::kFloat32) return t;
  HostTensor h = F16(t.shape, t.f32());
  h.constant = t.constant;
  return h;
}

std::vector<Case> Cases() {
  std::vector<Case> c;
  c.push_back({"MatMul",
               Attrs(),
               {HalfExact(S({2, 3, 40}), 1), HalfExact(S({40, 5}), 2)}});
  c.push_back({"MatMul",
               Attrs(),
               {HalfExact(S({2, 1, 3, 4}), 1), HalfExact(S({3, 4, 2}), 2)}});
  Attrs gemm;
  gemm.Int("transB", 1).Float("alpha", 0.5f).Float("beta", 2.0f);
  c.push_back({"Gemm",
               gemm,
               {HalfExact(S({4, 64}), 3), HalfExact(S({6, 64}), 4),
                HalfExact(S({6}), 5)}});
  Attrs conv;
  conv.Ints("kernel_shape", {3, 3}).Ints("pads", {1, 1, 1, 1}).Int("group", 2);
  c.push_back(
      {"Conv",
       conv,
       {HalfExact(S({1, 4, 6, 6}), 6), HalfExact(S({6, 2, 3, 3}), 7).Const(),
        HalfExact(S({6}), 8).Const()}});
  // Depthwise 3x3 stride 1, "same" padding (depthwise_strips.cc).
  Attrs dwconv;
  dwconv.Ints("kernel_shape", {3, 3})
      .Ints("pads", {1, 1, 1, 1})
      .Int("group", 3);
  c.push_back(
      {"Conv",
       dwconv,
       {HalfExact(S({1, 3, 5, 19}), 16), HalfExact(S({3, 1, 3, 3}), 17).Const(),
        HalfExact(S({3}), 18).Const()}});
  // Depthwise 3x3 stride 2 (depthwise_strips.cc's stride-2 strips).
  Attrs dwconv_s2 = dwconv;
  dwconv_s2.Ints("strides", {2, 2});
  c.push_back(
      {"Conv",
       dwconv_s2,
       {HalfExact(S({1, 3, 7, 34}), 19), HalfExact(S({3, 1, 3, 3}), 20).Const(),
        HalfExact(S({3}), 21).Const()}});
  // Depthwise 3x3 stride 2, pads 0, 0, 1, 1 (the stride-2 pads-0 strips).
  Attrs dwconv_s2_tf;
  dwconv_s2_tf.Ints("kernel_shape", {3, 3})
      .Ints("pads", {0, 0, 1, 1})
      .Ints("strides", {2, 2})
      .Int("group", 3);
  c.push_back(
      {"Conv",
       dwconv_s2_tf,
       {HalfExact(S({1, 3, 6, 34}), 25), HalfExact(S({3, 1, 3, 3}), 26).Const(),
        HalfExact(S({3}), 27).Const()}});
  // Depthwise 7x7, pads 3 (depthwise_flat.cc, ConvNeXt's).
  Attrs dwconv7;
  dwconv7.Ints("kernel_shape", {7, 7})
      .Ints("pads", {3, 3, 3, 3})
      .Int("group", 3);
  c.push_back(
      {"Conv",
       dwconv7,
       {HalfExact(S({1, 3, 9, 13}), 22), HalfExact(S({3, 1, 7, 7}), 23).Const(),
        HalfExact(S({3}), 24).Const()}});
  Attrs conv1d;
  conv1d.Ints("kernel_shape", {3}).Ints("strides", {2});
  c.push_back({"Conv",
               conv1d,
               {HalfExact(S({2, 3, 9}), 9), HalfExact(S({4, 3, 3}), 10)}});
  Attrs pool;
  pool.Ints("kernel_shape", {3, 3})
      .Ints("strides", {2, 2})
      .Ints("pads", {1, 1, 1, 1});
  c.push_back({"MaxPool", pool, {HalfExact(S({1, 2, 7, 7}), 11)}});
  c.push_back({"AveragePool", pool, {HalfExact(S({1, 2, 7, 7}), 12)}});
  c.push_back({"GlobalAveragePool", Attrs(), {HalfExact(S({2, 3, 5, 5}), 13)}});
  Attrs axis;
  axis.Int("axis", 1);
  c.push_back({"Softmax", axis, {HalfExact(S({2, 7, 3}), 14)}});
  c.push_back({"Softmax", Attrs(), {HalfExact(S({4, 33}), 15)}});
  c.push_back({"LogSoftmax", axis, {HalfExact(S({2, 7, 3}), 16)}});
  c.push_back({"LogSoftmax", Attrs(), {HalfExact(S({4, 33}), 17)}});
  return c;
}

TEST(KernelsFp16, MatchesFloatKernelRoundedOnce) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.op);
    RunResult f = RunKernel(c.op, c.attrs, c.inputs);
    ASSERT_EQ(f.error, "");
    std::vector<HostTensor> half_in;
    for (const HostTensor& t : c.inputs) half_in.push_back(ToHalf(t));
    RunResult h = RunKernel(c.op, c.attrs, half_in);
    ASSERT_EQ(h.error, "");
    ASSERT_EQ(h.outputs.size(), 1u);
    EXPECT_EQ(h.outputs[0].dtype, DType::kFloat16);
    EXPECT_EQ(h.outputs[0].shape, f.outputs[0].shape);
    // fp32 accumulation: within one half rounding of the float result.
    ExpectHalfNear(HalfValues(h.outputs[0]), f.outputs[0].f32(), 0.51f, 1e-7f);
    EXPECT_GT(h.scratch_bytes, f.scratch_bytes);
  }
}

TEST(KernelsFp16, ReduceMeanMatchesFloatRoundedOnce) {
  // ReduceMean computes fp16 natively (double sums), not through float
  // scratch: the same contract, one rounding of the float result.
  Attrs last;
  last.Ints("axes", {-1}).Int("keepdims", 1);
  Attrs all;
  const std::vector<std::pair<Attrs, HostTensor>> cases = {
      {last, HalfExact(S({3, 50}), 16)}, {all, HalfExact(S({2, 3, 4}), 17)}};
  for (const auto& [attrs, x] : cases) {
    RunResult f = RunKernel("ReduceMean", attrs, {x});
    RunResult h = RunKernel("ReduceMean", attrs, {ToHalf(x)});
    ASSERT_EQ(f.error, "");
    ASSERT_EQ(h.error, "");
    EXPECT_EQ(h.outputs[0].dtype, DType::kFloat16);
    EXPECT_EQ(h.outputs[0].shape, f.outputs[0].shape);
    ExpectHalfNear(HalfValues(h.outputs[0]), f.outputs[0].f32(), 0.51f, 1e-7f);
  }
}

TEST(KernelsFp16, AccumulatesInFloat) {
  // 2048 + 1 + 1 ... is stuck at 2048 in half arithmetic; in fp32 it is not.
  std::vector<float> ones(256, 1.0f);
  ones[0] = 2048.0f;
  Attrs reduce;
  reduce.Ints("axes", {0}).Int("keepdims", 0);
  RunResult r = RunKernel("ReduceMean", reduce, {F16(S({256}), ones)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(HalfValues(r.outputs[0])[0],
            static_cast<float>(Eigen::half((2048.0f + 255.0f) / 256.0f)));
  r = RunKernel("MatMul", Attrs(),
                {F16(S({1, 256}), ones),
                 F16(S({256, 1}), std::vector<float>(256, 1.0f))});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(HalfValues(r.outputs[0])[0],
            2304.0f);  // 2048 + 255 -> nearest half
}

TEST(KernelsFp16, Refusals) {
  HostTensor h = F16(S({2, 3}), std::vector<float>(6, 1.0f));
  HostTensor f = RandF32(S({3, 2}), 1);
  EXPECT_INFER_FAILS(InferKernel("MatMul", Attrs(), {h, f}),
                     "MatMul: inputs mix float16 and float32");
  EXPECT_INFER_FAILS(
      InferKernel("Gemm", Attrs(), {h, ToHalf(f), RandF32(S({2}), 2)}),
      "inputs mix float16 and float32");
  EXPECT_INFER_FAILS(InferKernel("MatMul", Attrs(), {h, h}), "not compatible");
  EXPECT_INFER_FAILS(InferKernel("Softmax", Attrs(), {F16(S({}), {1})}),
                     "out of range");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
