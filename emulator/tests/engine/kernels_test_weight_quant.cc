// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// NPUWeightQuantBatchMatmulV2 (weight_quant_matmul.cc): the dequantized
// weight (w + offset) * scale rounded per step to x's dtype, checked bit for
// bit with K = 1 (one product, exact in float32); longer sums against a
// double oracle within one unit of the output's last place; the int4
// packing (nibble order, negative nibbles) against the same int8 weight.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace kernels {
void SetWeightQuantVectorDecodeForTest(bool on);  // weight_quant_matmul.cc
}  // namespace kernels
namespace testing {
namespace {

using Half = Eigen::half;
using Bf16 = Eigen::bfloat16;
constexpr const char* kOp = "NPUWeightQuantBatchMatmulV2";

template <typename T>
float R(float v) {
  return static_cast<float>(T(v));
}

template <typename T>
HostTensor Narrow(DType dt, const Shape& s, const std::vector<float>& v) {
  std::vector<T> h;
  for (float f : v) h.push_back(T(f));
  return HostTensor::Of(dt, s, h);
}

template <typename T>
std::vector<float> Wide(const HostTensor& t) {
  std::vector<float> out;
  for (T v : t.values<T>()) out.push_back(static_cast<float>(v));
  return out;
}

std::vector<float> RandVals(int64_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = d(gen);
  return v;
}

std::vector<int8_t> RandW(int64_t n, uint32_t seed, int lo, int hi) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<int8_t>(d(gen));
  return v;
}

// int4 values [K, N] packed 8 per int32 along N: element 8j + i in bits
// 4i..4i+3 (the low nibble of the lowest byte first).
std::vector<int32_t> PackInt4(const std::vector<int8_t>& w, int64_t k,
                              int64_t n) {
  std::vector<int32_t> out(static_cast<size_t>(k * n / 8));
  for (int64_t r = 0; r < k; ++r)
    for (int64_t j = 0; j < n / 8; ++j) {
      uint32_t word = 0;
      for (int i = 0; i < 8; ++i)
        word |= (static_cast<uint32_t>(w[r * n + j * 8 + i]) & 0xFu) << (4 * i);
      out[r * n / 8 + j] = static_cast<int32_t>(word);
    }
  return out;
}

struct Case {
  int64_t m, k, n, group;  // group 0: per channel (or per tensor)
  bool offset, per_tensor, bias;
};

// y in double from W' computed with T's per-step rounding; *magnitude gets
// each sum of |terms| (what bounds float32's summation error).
template <typename T>
std::vector<double> Oracle(const Case& c, const std::vector<float>& x,
                           const std::vector<int8_t>& w,
                           const std::vector<float>& scale,
                           const std::vector<float>& offset,
                           const std::vector<float>& bias,
                           std::vector<double>* magnitude) {
  magnitude->assign(static_cast<size_t>(c.m * c.n), 0.0);
  const int64_t cols = c.per_tensor ? 1 : c.n;
  std::vector<double> y(static_cast<size_t>(c.m * c.n));
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      double acc = c.bias ? bias[j] : 0.0;
      for (int64_t r = 0; r < c.k; ++r) {
        const int64_t g = c.group > 0 ? r / c.group : 0;
        const int64_t idx = g * cols + (c.per_tensor ? 0 : j);
        const float o = c.offset ? offset[idx] : 0.0f;
        const float wq = R<T>(R<T>(w[r * c.n + j] + o) * scale[idx]);
        acc += static_cast<double>(x[i * c.k + r]) * wq;
        (*magnitude)[i * c.n + j] += std::fabs(x[i * c.k + r] * wq);
      }
      y[i * c.n + j] = acc;
    }
  return y;
}

template <typename T>
void CheckCase(const Case& c, DType dt, bool int4, bool exact, uint32_t seed) {
  const std::string label =
      std::string(dt == DType::kFloat16 ? "fp16" : "bf16") + " m" +
      std::to_string(c.m) + " k" + std::to_string(c.k) + " n" +
      std::to_string(c.n) + " g" + std::to_string(c.group) +
      (int4 ? " int4" : " int8") + (c.offset ? " offset" : "");
  const int64_t groups = c.group > 0 ? (c.k + c.group - 1) / c.group : 1;
  const int64_t cols = c.per_tensor ? 1 : c.n;
  std::vector<float> x = RandVals(c.m * c.k, seed, -2.0f, 2.0f);
  for (float& v : x) v = R<T>(v);
  const std::vector<int8_t> w = int4 ? RandW(c.k * c.n, seed + 1, -8, 7)
                                     : RandW(c.k * c.n, seed + 1, -128, 127);
  std::vector<float> scale = RandVals(groups * cols, seed + 2, 0.001f, 0.05f);
  std::vector<float> offset = RandVals(groups * cols, seed + 3, -4.0f, 4.0f);
  std::vector<float> bias = RandVals(c.n, seed + 4, -1.0f, 1.0f);
  for (float& v : scale) v = R<T>(v);
  for (float& v : offset) v = R<T>(v);
  for (float& v : bias) v = R<T>(v);
  const Shape sshape = c.group > 0    ? S({groups, c.n})
                       : c.per_tensor ? S({1})
                                      : S({1, c.n});
  std::vector<HostTensor> in = {
      Narrow<T>(dt, S({c.m, c.k}), x),
      int4 ? HostTensor::Of(DType::kInt32, S({c.k, c.n / 8}),
                            PackInt4(w, c.k, c.n))
                 .Const()
           : HostTensor::Of(DType::kInt8, S({c.k, c.n}), w).Const(),
      Narrow<T>(dt, sshape, scale).Const(),
      c.offset ? Narrow<T>(dt, sshape, offset).Const() : HostTensor::Absent(),
      HostTensor::Absent(),
      HostTensor::Absent(),
      c.bias ? Narrow<T>(dt, S({c.n}), bias).Const() : HostTensor::Absent()};
  Attrs a;
  if (c.group > 0) a.Int("antiquant_group_size", c.group);
  RunResult r = RunKernel(kOp, a, in);
  ASSERT_EQ(r.error, "") << label;
  ASSERT_EQ(r.outputs[0].dtype, dt);
  ASSERT_EQ(r.outputs[0].shape, S({c.m, c.n}));
  const std::vector<float> y = Wide<T>(r.outputs[0]);
  std::vector<double> magnitude;
  const std::vector<double> want =
      Oracle<T>(c, x, w, scale, offset, bias, &magnitude);
  const int fraction_bits = std::is_same_v<T, Half> ? 10 : 7;
  for (size_t i = 0; i < y.size(); ++i) {
    const float rounded = R<T>(static_cast<float>(want[i]));
    if (exact) {
      ASSERT_EQ(y[i], rounded) << label << " at " << i;
    } else {
      // float32 sums (K terms: at most K * 2^-24 of the sum of |terms|
      // off) rounded to T: one unit of T's last place more.
      int e = 0;
      std::frexp(want[i], &e);
      const double ulp = std::ldexp(1.0, std::max(e - 1, -14) - fraction_bits);
      const double tol = ulp + c.k * std::ldexp(magnitude[i], -24);
      ASSERT_LE(std::fabs(y[i] - want[i]), tol)
          << label << " at " << i << ": " << y[i] << " vs " << want[i];
    }
  }
}

TEST(KernelsWeightQuant, DequantizedWeightBitForBit) {
  // K = 1: y = x * W' exactly, so the dequantized weight shows bit for bit.
  for (bool offset : {false, true}) {
    for (bool per_tensor : {false, true}) {
      const Case c{5, 1, 64, 0, offset, per_tensor, false};
      CheckCase<Half>(c, DType::kFloat16, false, true, 1);
      CheckCase<Half>(c, DType::kFloat16, true, true, 2);
      CheckCase<Bf16>(c, DType::kBFloat16, false, true, 3);
      CheckCase<Bf16>(c, DType::kBFloat16, true, true, 4);
    }
  }
}

TEST(KernelsWeightQuant, SumsPerChannelPerGroupAndDecode) {
  uint32_t seed = 10;
  const std::vector<Case> cases = {
      {1, 2048, 512, 0, true, false, true},   // decode, per channel
      {1, 256, 264, 0, false, true, false},   // per tensor, N % 256 != 0
      {3, 70, 40, 32, true, false, true},     // groups of 32, K % G != 0
      {2, 200, 24, 64, false, false, true},   // groups of 64
      {17, 96, 300, 32, true, false, false},  // prefill-like M
  };
  for (const Case& c : cases) {
    CheckCase<Half>(c, DType::kFloat16, false, false, seed++);
    if (c.n % 8 == 0) CheckCase<Half>(c, DType::kFloat16, true, false, seed++);
    CheckCase<Bf16>(c, DType::kBFloat16, false, false, seed++);
  }
}

// The vector decode (M = 1 to 8: blocks of columns with register sums)
// against the reference loops (the test hook turns it off), bit for bit:
// every M, int8 and int4, float16 and bfloat16, with and without offset,
// per tensor, per channel and per group, N with and without a tail of
// fewer than a vector, extreme scales (float16 overflow to inf, subnormal
// products).
template <typename T>
std::vector<uint16_t> RunBits(const Case& c, DType dt, bool int4, uint32_t seed,
                              float scale_max) {
  const int64_t groups = c.group > 0 ? (c.k + c.group - 1) / c.group : 1;
  const int64_t cols = c.per_tensor ? 1 : c.n;
  std::vector<float> x = RandVals(c.m * c.k, seed, -2.0f, 2.0f);
  const std::vector<int8_t> w = int4 ? RandW(c.k * c.n, seed + 1, -8, 7)
                                     : RandW(c.k * c.n, seed + 1, -128, 127);
  std::vector<float> scale =
      RandVals(groups * cols, seed + 2, -scale_max, scale_max);
  std::vector<float> offset = RandVals(groups * cols, seed + 3, -4.5f, 4.5f);
  std::vector<float> bias = RandVals(c.n, seed + 4, -1.0f, 1.0f);
  const Shape sshape = c.group > 0    ? S({groups, c.n})
                       : c.per_tensor ? S({1})
                                      : S({c.n});
  std::vector<HostTensor> in = {
      Narrow<T>(dt, S({c.m, c.k}), x),
      int4 ? HostTensor::Of(DType::kInt32, S({c.k, c.n / 8}),
                            PackInt4(w, c.k, c.n))
                 .Const()
           : HostTensor::Of(DType::kInt8, S({c.k, c.n}), w).Const(),
      Narrow<T>(dt, sshape, scale).Const(),
      c.offset ? Narrow<T>(dt, sshape, offset).Const() : HostTensor::Absent(),
      HostTensor::Absent(),
      HostTensor::Absent(),
      c.bias ? Narrow<T>(dt, S({c.n}), bias).Const() : HostTensor::Absent()};
  Attrs a;
  if (c.group > 0) a.Int("antiquant_group_size", c.group);
  RunResult r = RunKernel(kOp, a, in);
  EXPECT_EQ(r.error, "");
  std::vector<uint16_t> out;
  for (T v : r.outputs[0].values<T>())
    out.push_back(Eigen::numext::bit_cast<uint16_t>(v));
  return out;
}

template <typename T>
void ExpectVectorDecodeSame(const Case& c, DType dt, bool int4, uint32_t seed,
                            float scale_max) {
  kernels::SetWeightQuantVectorDecodeForTest(true);
  const std::vector<uint16_t> fast = RunBits<T>(c, dt, int4, seed, scale_max);
  kernels::SetWeightQuantVectorDecodeForTest(false);
  const std::vector<uint16_t> ref = RunBits<T>(c, dt, int4, seed, scale_max);
  kernels::SetWeightQuantVectorDecodeForTest(true);
  ASSERT_EQ(fast.size(), ref.size());
  for (size_t i = 0; i < fast.size(); ++i) {
    ASSERT_EQ(fast[i], ref[i])
        << (dt == DType::kFloat16 ? "fp16" : "bf16") << " m" << c.m << " k"
        << c.k << " n" << c.n << " g" << c.group << (int4 ? " int4" : " int8")
        << (c.offset ? " offset" : "") << (c.per_tensor ? " per tensor" : "")
        << " scale_max " << scale_max << " at " << i;
  }
}

TEST(KernelsWeightQuant, VectorDecodeMatchesReferenceBitForBit) {
  uint32_t seed = 100;
  for (int64_t m = 1; m <= 9; ++m) {
    for (int64_t n : {8, 24, 72, 136, 200, 520}) {
      for (int variant = 0; variant < 4; ++variant) {
        Case c{m, 96, n, 0, variant % 2 == 1, variant == 2, variant == 3};
        if (variant == 3) c.group = 32;
        for (float scale_max : {0.05f, 2000.0f, 1e-6f}) {
          ExpectVectorDecodeSame<Half>(c, DType::kFloat16, false, seed,
                                       scale_max);
          ExpectVectorDecodeSame<Half>(c, DType::kFloat16, true, seed + 1,
                                       scale_max);
          ExpectVectorDecodeSame<Bf16>(c, DType::kBFloat16, false, seed + 2,
                                       scale_max);
          ExpectVectorDecodeSame<Bf16>(c, DType::kBFloat16, true, seed + 3,
                                       scale_max);
          seed += 4;
        }
      }
    }
    // N not a multiple of 8 (int8 only): a tail past the vectors.
    for (int64_t n : {5, 13, 203}) {
      const Case c{m, 64, n, 0, m % 2 == 0, false, true};
      ExpectVectorDecodeSame<Half>(c, DType::kFloat16, false, seed++, 0.05f);
      ExpectVectorDecodeSame<Bf16>(c, DType::kBFloat16, false, seed++, 0.05f);
    }
  }
}

TEST(KernelsWeightQuant, Int4NibbleOrderAndNegativeNibbles) {
  // Row 0: 0x87654321 holds 1, 2, 3, 4, 5, 6, 7, -8 (low nibble first);
  // row 1: 0xF0E1D2C3 holds 3, -4, 2, -3, 1, -2, 0, -1.
  const std::vector<int32_t> words = {static_cast<int32_t>(0x87654321u),
                                      static_cast<int32_t>(0xF0E1D2C3u)};
  const std::vector<int8_t> values = {1, 2,  3, 4,  5, 6,  7, -8,
                                      3, -4, 2, -3, 1, -2, 0, -1};
  const HostTensor scale = Narrow<Half>(DType::kFloat16, S({1}), {1.0f});
  for (int row = 0; row < 2; ++row) {
    // x selects one row of the weight: y is that row, as float16.
    const HostTensor x =
        Narrow<Half>(DType::kFloat16, S({1, 2}),
                     {row == 0 ? 1.0f : 0.0f, row == 1 ? 1.0f : 0.0f});
    RunResult r = RunKernel(
        kOp, Attrs(),
        {x, HostTensor::Of(DType::kInt32, S({2, 1}), words).Const(), scale});
    ASSERT_EQ(r.error, "");
    const std::vector<float> y = Wide<Half>(r.outputs[0]);
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(y[j], values[row * 8 + j]) << "row " << row << " col " << j;
  }
}

TEST(KernelsWeightQuant, Bf16WithFloat32Bias) {
  const HostTensor x = Narrow<Bf16>(DType::kBFloat16, S({1, 2}), {1.0f, 2.0f});
  const HostTensor w =
      HostTensor::Of<int8_t>(DType::kInt8, S({2, 2}), {1, -2, 3, 4}).Const();
  const HostTensor s = Narrow<Bf16>(DType::kBFloat16, S({2}), {0.5f, 0.25f});
  const HostTensor b = HostTensor::F32(S({2}), {0.001f, -100.0f}).Const();
  RunResult r = RunKernel(kOp, Attrs(),
                          {x, w, s, HostTensor::Absent(), HostTensor::Absent(),
                           HostTensor::Absent(), b});
  ASSERT_EQ(r.error, "");
  // y0 = 1*0.5 + 2*1.5 + 0.001 = 3.501 -> bf16 3.5; y1 = -0.5 + 2 - 100.
  EXPECT_EQ(Wide<Bf16>(r.outputs[0]),
            (std::vector<float>{R<Bf16>(3.501f), R<Bf16>(-98.5f)}));
}

TEST(KernelsWeightQuant, Refusals) {
  const HostTensor x =
      Narrow<Half>(DType::kFloat16, S({1, 64}), std::vector<float>(64, 1.0f));
  const HostTensor w =
      HostTensor::Of(DType::kInt8, S({64, 8}), std::vector<int8_t>(512, 1));
  const HostTensor s =
      Narrow<Half>(DType::kFloat16, S({8}), std::vector<float>(8, 1.0f));
  auto err = [&](const Attrs& a, std::vector<HostTensor> in) {
    return InferKernel(kOp, a, in).error;
  };
  EXPECT_EQ(err(Attrs(), {x, w, s}), "");
  EXPECT_NE(err(Attrs(), {x, w, s, HostTensor::Absent(), s})
                .find("quant_scale (an int8 output) is not emulated"),
            std::string::npos);
  EXPECT_NE(err(Attrs().Int("antiquant_group_size", 48), {x, w, s})
                .find("multiple of 32 below K = 64"),
            std::string::npos);
  EXPECT_NE(err(Attrs().Int("antiquant_group_size", 32), {x, w, s})
                .find("must be [2, 8] (ceil(K / group size), N)"),
            std::string::npos);
  EXPECT_NE(
      err(Attrs(), {HostTensor::F32(S({1, 64}), std::vector<float>(64)), w, s})
          .find("float16 or bfloat16"),
      std::string::npos);
  EXPECT_NE(
      err(Attrs(), {x, w, Narrow<Half>(DType::kFloat16, S({3}), {1, 1, 1})})
          .find("antiquant_scale [3]"),
      std::string::npos);
  EXPECT_NE(err(Attrs().Int("dtype", 0), {x, w, s}).find("dtype 0"),
            std::string::npos);
  // transpose flags are accepted and ignored (the plugin forces false).
  EXPECT_EQ(err(Attrs().Int("transpose_weight", 1), {x, w, s}), "");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
