// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// FusedMatMulInt8 (matmul_int8_fused.cc) against the chain it replaces, run
// op by op through the kernels atc would otherwise compile: MatMul | Gemm
// (int8) -> [Add of an int32 bias] -> [AscendDequant -> [Cast to float32]
// -> [Relu | Clip]]. Bit for bit, prepared and not, over products that take
// each of the int8 product's paths (the reference loop under 2^15
// multiplications, the exact float path or oneDNN's int8 above), one scale
// or one per column, float16 scales, biases that wrap, and its refusals.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

using Half = Eigen::half;

struct MatMulCase {
  bool gemm;
  std::vector<int64_t> a;  // A's shape (Gemm: [M, K])
  int64_t n;               // B: [K, N] (Gemm transB: [N, K])
  bool trans_b;
  int offset_x;
  bool bias;
  int32_t bias_span;  // biases in [-span, span]; past 2^30 the sums wrap
};

struct DequantCase {
  bool dequant;  // false: the int32 sums (and bias) are the output
  bool to_float;
  std::string act;  // "", "Relu", "Clip"
  int relu_flag;
  int scales;  // 0: one per column (a 2-D product), 1: one, 2: float16, one
};

std::vector<int8_t> Int8s(int64_t n, std::mt19937* gen) {
  std::uniform_int_distribution<int> i8(-128, 127);
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<int8_t>(i8(*gen));
  return v;
}

HostTensor Scales(int64_t count, int kind, std::mt19937* gen) {
  std::uniform_real_distribution<float> mant(0.5f, 1.0f);
  std::vector<float> s(static_cast<size_t>(count));
  for (auto& v : s)
    v = std::ldexp(mant(*gen), -static_cast<int>((*gen)() % 10) - 10);
  if (kind == 2) {
    std::vector<Half> h(s.begin(), s.end());
    return HostTensor::Of(DType::kFloat16, S({count}), h).Const();
  }
  std::vector<uint64_t> words(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &s[i], sizeof bits);
    words[i] = bits;
  }
  return HostTensor::Of(DType::kUInt64, S({count}), words).Const();
}

// The output's elements as raw bits (int32, float32 or float16).
std::vector<uint32_t> Bits(const HostTensor& t) {
  std::vector<uint32_t> out;
  if (t.dtype == DType::kFloat16) {
    for (Half v : t.values<Half>())
      out.push_back(Eigen::numext::bit_cast<uint16_t>(v));
  } else if (t.dtype == DType::kFloat32) {
    for (float v : t.values<float>())
      out.push_back(Eigen::numext::bit_cast<uint32_t>(v));
  } else {
    for (int32_t v : t.values<int32_t>())
      out.push_back(static_cast<uint32_t>(v));
  }
  return out;
}

void ExpectFusedSame(const MatMulCase& t, const DequantCase& e, uint32_t seed) {
  std::mt19937 gen(seed);
  Shape a_shape;
  a_shape.rank = static_cast<int32_t>(t.a.size());
  for (size_t i = 0; i < t.a.size(); ++i) a_shape.dims[i] = t.a[i];
  const int64_t k = t.a.back();
  const HostTensor a =
      HostTensor::Of(DType::kInt8, a_shape, Int8s(a_shape.numel(), &gen));
  const HostTensor b =
      HostTensor::Of(DType::kInt8, t.trans_b ? S({t.n, k}) : S({k, t.n}),
                     Int8s(k * t.n, &gen))
          .Const();
  std::uniform_int_distribution<int32_t> span(-t.bias_span, t.bias_span);
  std::vector<int32_t> biases(static_cast<size_t>(t.n));
  for (auto& v : biases) v = span(gen);
  const HostTensor bias =
      HostTensor::Of(DType::kInt32, S({t.n}), biases).Const();
  const HostTensor deq = Scales(e.scales == 0 ? t.n : 1, e.scales, &gen);

  // The chain.
  Attrs base;
  if (t.offset_x != 0) base.Int("offset_x", t.offset_x);
  if (t.trans_b) base.Int("transB", 1);
  std::vector<HostTensor> base_in = {a, b};
  if (t.gemm && t.bias) base_in.push_back(bias);
  RunResult y = RunKernel(t.gemm ? "Gemm" : "MatMul", base, base_in, 1, true);
  ASSERT_EQ(y.error, "");
  if (!t.gemm && t.bias) {
    y = RunKernel("Add", Attrs(), {y.outputs[0], bias});
    ASSERT_EQ(y.error, "");
  }
  if (e.dequant) {
    y = RunKernel("AscendDequant", Attrs().Int("relu_flag", e.relu_flag),
                  {y.outputs[0], deq});
    ASSERT_EQ(y.error, "");
    if (e.to_float) y = RunKernel("Cast", Attrs().Int("to", 1), {y.outputs[0]});
    if (e.act == "Relu") y = RunKernel("Relu", Attrs(), {y.outputs[0]});
    if (e.act == "Clip") {
      y = RunKernel("Clip", Attrs(),
                    {y.outputs[0], HostTensor::F32(S({}), {0.0f}),
                     HostTensor::F32(S({}), {6.0f})});
    }
    ASSERT_EQ(y.error, "");
  }
  const std::vector<uint32_t> want = Bits(y.outputs[0]);

  // The fused op.
  Attrs f = base;
  f.Str("base", t.gemm ? "Gemm" : "MatMul");
  std::vector<HostTensor> fused_in = {a, b};
  if (t.bias) {
    fused_in.push_back(bias);
  } else {
    fused_in.push_back(HostTensor::Absent());
  }
  if (e.dequant) {
    f.Int("relu_flag", e.relu_flag).Int("to", e.to_float ? 1 : 10);
    if (!e.act.empty()) f.Str("activation", e.act);
    if (e.act == "Clip") f.Floats("activation_params", {0.0f, 6.0f});
    fused_in.push_back(deq);
  }
  const std::string label =
      std::string(t.gemm ? "Gemm" : "MatMul") + " a=" + a_shape.ToString() +
      " n=" + std::to_string(t.n) + " bias=" + std::to_string(t.bias) +
      " dequant=" + std::to_string(e.dequant) +
      " to_float=" + std::to_string(e.to_float) + " act=" + e.act +
      " relu_flag=" + std::to_string(e.relu_flag) +
      " scales=" + std::to_string(e.scales);
  for (bool prepare : {false, true}) {
    RunResult r = RunKernel("FusedMatMulInt8", f, fused_in, 1, prepare);
    ASSERT_EQ(r.error, "") << label;
    ASSERT_EQ(r.outputs[0].dtype, y.outputs[0].dtype) << label;
    const std::vector<uint32_t> got = Bits(r.outputs[0]);
    ASSERT_EQ(got.size(), want.size()) << label;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], want[i])
          << label << " prepared=" << prepare << " element " << i;
    }
    if (prepare) {
      EXPECT_TRUE(r.prepared) << label;
    }
  }
}

TEST(KernelsMatMulDequant, FusedMatchesTheChainBitForBit) {
  const MatMulCase cases[] = {
      // A quantized Linear as the lowering emits it: [1, S, H] @ [H, N].
      {false, {1, 9, 64}, 48, false, -7, true, 1000},
      // Large enough for the fast paths (2^15 multiplications and more),
      // a batch of 3, biases that wrap the sums.
      {false, {3, 40, 96}, 40, false, 21, true, 2000000000},
      {false, {130, 64}, 24, false, 0, false, 0},
      // Gemm with C, B as [N, K] (transB) and as [K, N].
      {true, {6, 30}, 20, true, 5, true, 100000},
      {true, {64, 128}, 33, false, -128, true, 1000},
      // Under 2^15 multiplications: the reference loop.
      {true, {2, 16}, 8, true, 127, false, 0},
  };
  const DequantCase epilogues[] = {
      {true, true, "", 0, 1},     {true, false, "Relu", 0, 1},
      {true, true, "Clip", 0, 1}, {true, false, "", 1, 2},
      {true, true, "Relu", 1, 2}, {false, false, "", 0, 1},
  };
  uint32_t seed = 1;
  for (const MatMulCase& t : cases) {
    for (const DequantCase& e : epilogues) ExpectFusedSame(t, e, seed += 7);
    // One scale per column: AscendDequant's per-channel form of [M, N].
    if (t.a.size() == 2) {
      ExpectFusedSame(t, {true, true, "", 0, 0}, seed += 7);
      ExpectFusedSame(t, {true, false, "Relu", 1, 0}, seed += 7);
    }
  }
}

TEST(KernelsMatMulDequant, RefusesWhatTheChainWouldNotBe) {
  const HostTensor a =
      HostTensor::Of(DType::kInt8, S({4, 8}), std::vector<int8_t>(32, 1));
  const HostTensor b =
      HostTensor::Of(DType::kInt8, S({8, 6}), std::vector<int8_t>(48, 2));
  const HostTensor bias =
      HostTensor::Of(DType::kInt32, S({6}), std::vector<int32_t>(6, 3));
  const HostTensor deq =
      HostTensor::Of(DType::kUInt64, S({1}), std::vector<uint64_t>{0x3c000000});
  const auto error = [&](const Attrs& f, const std::vector<HostTensor>& in) {
    return RunKernel("FusedMatMulInt8", f, in).error;
  };
  EXPECT_NE(error(Attrs().Str("base", "Conv"), {a, b}).find("MatMul or Gemm"),
            std::string::npos);
  // A bias that is not one int32 per column.
  const HostTensor short_bias =
      HostTensor::Of(DType::kInt32, S({5}), std::vector<int32_t>(5, 3));
  EXPECT_NE(error(Attrs().Str("base", "MatMul"), {a, b, short_bias})
                .find("bias must be int32 [6]"),
            std::string::npos);
  // AscendDequant's attributes without its deq_scale.
  EXPECT_NE(error(Attrs().Str("base", "MatMul").Int("to", 1), {a, b, bias})
                .find("without a deq_scale"),
            std::string::npos);
  // A float A: not the int8 chain.
  const HostTensor af = HostTensor::F32(S({4, 8}), std::vector<float>(32, 1));
  EXPECT_NE(error(Attrs().Str("base", "MatMul"), {af, b, bias, deq})
                .find("needs int8 inputs"),
            std::string::npos);
  // A per-column scale count that is not N.
  const HostTensor deq5 = HostTensor::Of(DType::kUInt64, S({5}),
                                         std::vector<uint64_t>(5, 0x3c000000));
  EXPECT_NE(error(Attrs().Str("base", "MatMul"), {a, b, bias, deq5}), "");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
