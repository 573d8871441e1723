// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// bfloat16 storage with fp32 compute: stores round to nearest even and keep
// NaN; the float32-only kernels (MatMul, Gemm, Softmax) and the natively
// typed ones (Add, LayerNormalization, ReduceMean, Sigmoid) give the float
// oracle's result on the same bf16-representable inputs, rounded to bf16
// once; Cast converts bf16 to and from every other dtype; mixed nodes are
// refused.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_dtypes.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

using BF16 = Eigen::bfloat16;

HostTensor B16(const Shape& s, const std::vector<float>& v) {
  std::vector<BF16> b(v.size());
  for (size_t i = 0; i < v.size(); ++i) b[i] = BF16(v[i]);
  return HostTensor::Of(DType::kBFloat16, s, b);
}

std::vector<float> B16Values(const HostTensor& t) {
  std::vector<BF16> b = t.values<BF16>();
  std::vector<float> f(b.size());
  for (size_t i = 0; i < b.size(); ++i) f[i] = static_cast<float>(b[i]);
  return f;
}

std::vector<float> RoundToB16(std::vector<float> v) {
  for (float& x : v) x = static_cast<float>(BF16(x));
  return v;
}

HostTensor B16Exact(const Shape& s, uint32_t seed) {
  return HostTensor::F32(s, RoundToB16(RandomFloats(s.numel(), seed)));
}

HostTensor ToB16(const HostTensor& t) {
  if (t.dtype != DType::kFloat32) return t;
  HostTensor b = B16(t.shape, t.f32());
  b.constant = t.constant;
  return b;
}

uint16_t Bits(float f) {
  uint16_t b;
  BF16 h(f);
  std::memcpy(&b, &h, 2);
  return b;
}

// bf16 results: exactly the float oracle rounded to bf16 once, or one bf16
// ulp (2^-8 relative) off it where the kernel's float order of operations
// differs from the oracle's by a float rounding that crossed a tie.
void ExpectB16RoundedOnce(const std::vector<float>& got,
                          const std::vector<float>& want_float) {
  ASSERT_EQ(got.size(), want_float.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const float want = static_cast<float>(BF16(want_float[i]));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got[i])) << "at flat index " << i;
      continue;
    }
    const float ulp = std::abs(want) * 0.00390625f + 1e-30f;
    ASSERT_NEAR(got[i], want, ulp) << "at flat index " << i;
  }
}

TEST(KernelsBf16, StoreRoundsToNearestEvenAndKeepsNaN) {
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to the even (1.0).
  EXPECT_EQ(Bits(1.0f + 0.00390625f), Bits(1.0f));
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: even is the upper.
  EXPECT_EQ(Bits(1.0f + 3 * 0.00390625f), Bits(1.0f + 0.015625f));
  // Just above the tie rounds up.
  EXPECT_EQ(Bits(1.0f + 0.00390625f + 1e-6f), Bits(1.0f + 0.0078125f));
  // A NaN whose payload sits in the low 16 bits only must not become inf.
  uint32_t nan_bits = 0x7f800001u;
  float nan;
  std::memcpy(&nan, &nan_bits, 4);
  RunResult c =
      RunKernel("Cast", Attrs().Int("to", 16),
                {HostTensor::F32(S({3}), {nan, 1.0f + 0.00390625f, -3.0e38f})});
  ASSERT_EQ(c.error, "");
  EXPECT_EQ(c.outputs[0].dtype, DType::kBFloat16);
  const std::vector<float> v = B16Values(c.outputs[0]);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 1.0f);
  EXPECT_EQ(v[2], static_cast<float>(BF16(-3.0e38f)));  // bf16 has fp32 range
}

TEST(KernelsBf16, FloatKernelsMatchOracleRoundedOnce) {
  struct Case {
    std::string op;
    Attrs attrs;
    std::vector<HostTensor> inputs;
  };
  Attrs gemm;
  gemm.Int("transB", 1).Float("alpha", 0.5f).Float("beta", 2.0f);
  Attrs axis;
  axis.Int("axis", -1);
  Attrs ln;
  ln.Int("axis", -1).Float("epsilon", 1e-5f);
  Attrs mean;
  mean.Ints("axes", {-1}).Int("keepdims", 1);
  const std::vector<Case> cases = {
      {"MatMul",
       Attrs(),
       {B16Exact(S({2, 3, 40}), 1), B16Exact(S({40, 5}), 2)}},
      {"Gemm",
       gemm,
       {B16Exact(S({4, 64}), 3), B16Exact(S({6, 64}), 4), B16Exact(S({6}), 5)}},
      {"Softmax", axis, {B16Exact(S({4, 33}), 6)}},
      {"LogSoftmax", axis, {B16Exact(S({4, 33}), 7)}},
      {"Add", Attrs(), {B16Exact(S({3, 4}), 7), B16Exact(S({4}), 8)}},
      {"Sigmoid", Attrs(), {B16Exact(S({2, 9}), 9)}},
      {"LayerNormalization",
       ln,
       {B16Exact(S({3, 16}), 10), B16Exact(S({16}), 11),
        B16Exact(S({16}), 12)}},
      {"ReduceMean", mean, {B16Exact(S({3, 50}), 13)}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op);
    RunResult f = RunKernel(c.op, c.attrs, c.inputs);
    ASSERT_EQ(f.error, "");
    std::vector<HostTensor> b_in;
    for (const HostTensor& t : c.inputs) b_in.push_back(ToB16(t));
    RunResult b = RunKernel(c.op, c.attrs, b_in);
    ASSERT_EQ(b.error, "");
    EXPECT_EQ(b.outputs[0].dtype, DType::kBFloat16);
    EXPECT_EQ(b.outputs[0].shape, f.outputs[0].shape);
    ExpectB16RoundedOnce(B16Values(b.outputs[0]), f.outputs[0].f32());
  }
}

TEST(KernelsBf16, AccumulatesInFloat) {
  // 256 + 1 + 1 ... is stuck at 256 in bf16 arithmetic (8 significant bits).
  std::vector<float> ones(64, 1.0f);
  ones[0] = 256.0f;
  RunResult r = RunKernel(
      "MatMul", Attrs(),
      {B16(S({1, 64}), ones), B16(S({64, 1}), std::vector<float>(64, 1.0f))});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(B16Values(r.outputs[0])[0], 320.0f);  // 256 + 63 -> nearest bf16
}

TEST(KernelsBf16, CastToAndFromEveryDtype) {
  const std::vector<float> vals = {1.5f, -2.75f, 0.0f, 300.0f};
  const HostTensor b = B16(S({4}), vals);
  RunResult f32 = RunKernel("Cast", Attrs().Int("to", 1), {b});
  ASSERT_EQ(f32.error, "");
  EXPECT_EQ(f32.outputs[0].f32(), vals);
  RunResult f16 = RunKernel("Cast", Attrs().Int("to", 10), {b});
  ASSERT_EQ(f16.error, "");
  EXPECT_EQ(HalfValues(f16.outputs[0]), vals);
  RunResult i64 = RunKernel("Cast", Attrs().Int("to", 7), {b});
  ASSERT_EQ(i64.error, "");
  EXPECT_EQ(i64.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{1, -2, 0, 300}));
  RunResult i32 = RunKernel("Cast", Attrs().Int("to", 6), {b});
  ASSERT_EQ(i32.error, "");
  EXPECT_EQ(i32.outputs[0].values<int32_t>(),
            (std::vector<int32_t>{1, -2, 0, 300}));
  RunResult bo = RunKernel("Cast", Attrs().Int("to", 9), {b});
  ASSERT_EQ(bo.error, "");
  EXPECT_EQ(bo.outputs[0].values<uint8_t>(),
            (std::vector<uint8_t>{1, 1, 0, 1}));
  // And back: every dtype to bf16 (fp16 through float: exact here).
  for (const HostTensor& src :
       {F16(S({4}), vals), HostTensor::F32(S({4}), vals),
        HostTensor::I64(S({4}), {1, -2, 0, 300}), I32(S({4}), {1, -2, 0, 300}),
        BoolT(S({4}), {1, 0, 0, 2})}) {
    SCOPED_TRACE(DTypeName(src.dtype));
    RunResult r = RunKernel("Cast", Attrs().Int("to", 16), {src});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.outputs[0].dtype, DType::kBFloat16);
  }
  RunResult from_int = RunKernel("Cast", Attrs().Int("to", 16),
                                 {HostTensor::I64(S({2}), {257, -3})});
  EXPECT_EQ(B16Values(from_int.outputs[0]),
            (std::vector<float>{256.0f, -3.0f}));  // 257: tie to even
}

TEST(KernelsBf16, Refusals) {
  const HostTensor b = B16(S({2, 3}), std::vector<float>(6, 1.0f));
  EXPECT_INFER_FAILS(InferKernel("MatMul", Attrs(), {b, RandF32(S({3, 2}), 1)}),
                     "MatMul: inputs mix bfloat16 and float32");
  EXPECT_INFER_FAILS(InferKernel("MatMul", Attrs(),
                                 {b, F16(S({3, 2}), std::vector<float>(6))}),
                     "inputs mix float16 and bfloat16");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
