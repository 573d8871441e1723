// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's quantization ops (quant.cc): AscendQuant, AscendAntiQuant,
// AscendDequant against the TBE kernels' float16 formulas written out here
// with Eigen::half (one rounding per step), plus hand-worked values where
// float16 arithmetic differs from float32 (ties, overflow, one rounding), and
// the float16 rounding helpers (quant_round.h) against Eigen's conversions.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels_test_util.h"
#include "quant_round.h"

namespace ascend_emu {
namespace testing {
namespace {

using Half = Eigen::half;
using kernels::RoundScaledToHalf;
using kernels::RoundToBf16;
using kernels::RoundToHalf;

float H(float v) { return static_cast<float>(Half(v)); }
uint16_t HalfBits(float v) {
  return Eigen::numext::bit_cast<uint16_t>(Half(v));
}

HostTensor F16(const Shape& s, const std::vector<float>& v) {
  std::vector<Half> h(v.begin(), v.end());
  return HostTensor::Of(DType::kFloat16, s, h);
}
std::vector<float> HalfValues(const HostTensor& t) {
  std::vector<float> out;
  for (Half h : t.values<Half>()) out.push_back(static_cast<float>(h));
  return out;
}
std::vector<int> Int8Values(const HostTensor& t) {
  std::vector<int> out;
  for (int8_t v : t.values<int8_t>()) out.push_back(v);
  return out;
}

// ---- quant_round.h ----

TEST(QuantRound, RoundToHalfMatchesEigenAtEveryTieAndBoundary) {
  // Every finite float16 h and the floats around the midpoint to the next:
  // the midpoint itself (a tie: to even), one float ulp either side.
  for (uint32_t bits = 0; bits < 0x7C00u; ++bits) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const float lo = static_cast<float>(
          Eigen::numext::bit_cast<Half>(static_cast<uint16_t>(bits | sign)));
      const float hi = static_cast<float>(Eigen::numext::bit_cast<Half>(
          static_cast<uint16_t>((bits + 1) | sign)));
      const float mid = (lo + hi) / 2;  // exact in float
      for (float v :
           {lo, mid, std::nextafter(mid, lo), std::nextafter(mid, hi)}) {
        ASSERT_EQ(Eigen::numext::bit_cast<uint32_t>(RoundToHalf(v)),
                  Eigen::numext::bit_cast<uint32_t>(H(v)))
            << "v = " << v << " (half bits " << bits << ")";
      }
    }
  }
  for (float v :
       {65504.0f, 65519.99f, 65520.0f, 1e9f,
        std::numeric_limits<float>::infinity(), 1e-30f, 0.0f, -0.0f}) {
    EXPECT_EQ(Eigen::numext::bit_cast<uint32_t>(RoundToHalf(v)),
              Eigen::numext::bit_cast<uint32_t>(H(v)))
        << v;
    EXPECT_EQ(Eigen::numext::bit_cast<uint32_t>(RoundToHalf(-v)),
              Eigen::numext::bit_cast<uint32_t>(H(-v)))
        << -v;
  }
  EXPECT_TRUE(std::isnan(RoundToHalf(std::nanf(""))));
  std::mt19937 gen(7);
  for (int i = 0; i < 200000; ++i) {
    const float v =
        Eigen::numext::bit_cast<float>(static_cast<uint32_t>(gen()));
    if (std::isnan(v)) continue;
    ASSERT_EQ(Eigen::numext::bit_cast<uint32_t>(RoundToHalf(v)),
              Eigen::numext::bit_cast<uint32_t>(H(v)))
        << v;
  }
}

TEST(QuantRound, RoundToBf16MatchesEigen) {
  std::mt19937 gen(11);
  for (int i = 0; i < 200000; ++i) {
    const float v =
        Eigen::numext::bit_cast<float>(static_cast<uint32_t>(gen()));
    if (std::isnan(v)) continue;
    ASSERT_EQ(Eigen::numext::bit_cast<uint32_t>(RoundToBf16(v)),
              Eigen::numext::bit_cast<uint32_t>(
                  static_cast<float>(Eigen::bfloat16(v))))
        << v;
  }
  // A tie goes to even: 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
  EXPECT_EQ(RoundToBf16(1.0f + 1.0f / 256), 1.0f);
  EXPECT_EQ(RoundToBf16(1.0f + 3.0f / 256), 1.0f + 4.0f / 256);
}

// The float16 nearest to p (ties to even), p exact in double.
float NearestHalf(double p) {
  if (std::fabs(p) >= 65520.0) return p > 0 ? INFINITY : -INFINITY;
  const Half guess(static_cast<float>(p));
  float best = static_cast<float>(guess);
  uint16_t bits = Eigen::numext::bit_cast<uint16_t>(guess);
  for (int d : {-1, 1}) {
    const float c = static_cast<float>(
        Eigen::numext::bit_cast<Half>(static_cast<uint16_t>(bits + d)));
    if (!std::isfinite(c)) continue;
    const double dc = std::fabs(p - c), db = std::fabs(p - best);
    if (dc < db ||
        (dc == db && (Eigen::numext::bit_cast<uint16_t>(Half(c)) & 1) == 0))
      best = c;
  }
  return best;
}

TEST(QuantRound, ScaledProductIsRoundedOnce) {
  std::mt19937 gen(3);
  for (int i = 0; i < 100000; ++i) {
    // Products below 2^53 are exact in double: the oracle's.
    const int64_t m = gen() % (1 << 20);
    const int exp = static_cast<int>(gen() % 60) - 50;
    const double p = std::ldexp(static_cast<double>(m), exp);
    ASSERT_EQ(RoundScaledToHalf(static_cast<uint64_t>(m), exp), NearestHalf(p))
        << m << " * 2^" << exp;
  }
  // 2049 is a float16 tie (2048 | 2050): just above it rounds up.
  EXPECT_EQ(RoundScaledToHalf((uint64_t{2049} << 24) + 1, -24), 2050.0f);
  EXPECT_EQ(RoundScaledToHalf(uint64_t{2049} << 24, -24), 2048.0f);
  EXPECT_EQ(RoundScaledToHalf(65519, 0), 65504.0f);
  EXPECT_EQ(RoundScaledToHalf(65520, 0), INFINITY);
  EXPECT_EQ(RoundScaledToHalf(1, -25), 0.0f);                   // tie -> 0
  EXPECT_EQ(RoundScaledToHalf(3, -26), std::ldexp(1.0f, -24));  // 0.75 ulp
}

// ---- AscendQuant ----

// The TBE formula, step by step in Eigen::half.
int QuantOracle(float x, float scale, float offset, bool sqrt_mode,
                const char* mode = "Round") {
  float v = H(x);
  if (scale != 1.0f) {
    v = H(v * H(scale));
    if (sqrt_mode) v = H(v * H(scale));
  }
  if (offset != 0.0f) v = H(v + H(offset));
  const std::string m(mode);
  const float r = m == "Floor"   ? std::floor(v)
                  : m == "Ceil"  ? std::ceil(v)
                  : m == "Trunc" ? std::trunc(v)
                                 : std::nearbyint(v);
  if (std::isnan(r)) return 0;
  return static_cast<int>(std::min(127.0f, std::max(-128.0f, r)));
}

std::vector<int> Quant(const HostTensor& x, const Attrs& a) {
  RunResult r = RunKernel("AscendQuant", a, {x});
  EXPECT_EQ(r.error, "");
  if (!r.error.empty()) return {};
  EXPECT_EQ(r.outputs[0].dtype, DType::kInt8);
  return Int8Values(r.outputs[0]);
}

TEST(KernelsQuant, AscendQuantTiesToEvenAndSaturates) {
  const std::vector<float> x = {0.5f,   1.5f,    2.5f,   -0.5f,    -2.5f,
                                127.4f, 127.5f,  128.0f, -128.5f,  -129.0f,
                                1000.f, -1000.f, NAN,    INFINITY, -INFINITY};
  const std::vector<int> want = {0,    2,    2,   0,    -2, 127, 127, 127,
                                 -128, -128, 127, -128, 0,  127, -128};
  EXPECT_EQ(Quant(HostTensor::F32(S({15}), x), Attrs().Float("scale", 1.0f)),
            want);
}

TEST(KernelsQuant, AscendQuantComputesInFloat16) {
  // 0.5 + 1e-4 is 0.5 in float16 (ulp 2^-11), a tie that rounds to 0; in
  // float32 it would round to 1.
  EXPECT_EQ(Quant(HostTensor::F32(S({1}), {0.5f}),
                  Attrs().Float("scale", 1.0f).Float("offset", 1e-4f)),
            std::vector<int>{0});
  // 70000 overflows float16 before the scale: +inf, saturated to 127 (keep
  // x * scale's operands in float16's range, as CANN's guide says).
  EXPECT_EQ(Quant(HostTensor::F32(S({2}), {70000.0f, -70000.0f}),
                  Attrs().Float("scale", 0.001f)),
            (std::vector<int>{127, -128}));
  // sqrt_mode multiplies twice: 10 * 0.5 * 0.5 = 2.5 -> 2.
  EXPECT_EQ(Quant(HostTensor::F32(S({1}), {10.0f}),
                  Attrs().Float("scale", 0.5f).Int("sqrt_mode", 1)),
            std::vector<int>{2});
  // scale's default is 0 (the plugin's): everything quantizes to the offset.
  EXPECT_EQ(Quant(HostTensor::F32(S({2}), {5.0f, -7.0f}),
                  Attrs().Float("offset", 3.0f)),
            (std::vector<int>{3, 3}));
}

TEST(KernelsQuant, AscendQuantRoundModes) {
  const HostTensor x = HostTensor::F32(S({4}), {-1.5f, -1.25f, 1.5f, 2.75f});
  auto run = [&](const char* mode) {
    return Quant(x, Attrs().Float("scale", 1.0f).Str("round_mode", mode));
  };
  EXPECT_EQ(run("Round"), (std::vector<int>{-2, -1, 2, 3}));
  EXPECT_EQ(run("Floor"), (std::vector<int>{-2, -2, 1, 2}));
  EXPECT_EQ(run("Ceil"), (std::vector<int>{-1, -1, 2, 3}));
  EXPECT_EQ(run("Trunc"), (std::vector<int>{-1, -1, 1, 2}));
}

TEST(KernelsQuant, AscendQuantMatchesTheFormulaOnRandomInputs) {
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> dist(-300.0f, 300.0f);
  for (const char* mode : {"Round", "Floor", "Ceil", "Trunc"}) {
    for (float scale : {1.0f, 0.37f, 1.0f / 0.0123f}) {
      for (float offset : {0.0f, -3.0f, 17.25f}) {
        for (int sq : {0, 1}) {
          std::vector<float> x(257);
          for (float& v : x) v = dist(gen) / (scale > 2 ? 100.0f : 1.0f);
          std::vector<int> want;
          for (float v : x)
            want.push_back(QuantOracle(v, scale, offset, sq, mode));
          Attrs a;
          a.Float("scale", scale).Float("offset", offset).Int("sqrt_mode", sq);
          a.Str("round_mode", mode);
          EXPECT_EQ(Quant(HostTensor::F32(S({257}), x), a), want)
              << mode << " " << scale << " " << offset << " " << sq;
          EXPECT_EQ(Quant(F16(S({257}), x), a), [&] {
            std::vector<int> w;
            for (float v : x)
              w.push_back(QuantOracle(H(v), scale, offset, sq, mode));
            return w;
          }()) << "float16 input";
        }
      }
    }
  }
}

TEST(KernelsQuant, AscendQuantRefusals) {
  const HostTensor x = HostTensor::F32(S({2}), {1, 2});
  EXPECT_EQ(
      InferKernel("AscendQuant", Attrs().Str("dst_type", "INT4"), {x}).error,
      "AscendQuant: dst_type 'INT4' is not emulated (the emulator "
      "computes INT8; CANN also has INT16 and INT4)");
  EXPECT_NE(InferKernel("AscendQuant", Attrs().Str("round_mode", "Hybrid"), {x})
                .error.find("round_mode 'Hybrid'"),
            std::string::npos);
  EXPECT_NE(InferKernel("AscendQuant", Attrs().Int("sqrt_mode", 2), {x})
                .error.find("sqrt_mode must be 0 or 1"),
            std::string::npos);
  const HostTensor i32 = HostTensor::Of<int32_t>(DType::kInt32, S({1}), {1});
  EXPECT_NE(InferKernel("AscendQuant", Attrs(), {i32}).error.find("int32"),
            std::string::npos);
}

// ---- AscendAntiQuant ----

TEST(KernelsQuant, AscendAntiQuantIsXMinusOffsetTimesScaleInFloat16) {
  const std::vector<int8_t> xs = {-128, -7, -1, 0, 1, 5, 100, 127};
  for (float scale : {0.1f, 0.0371f, 3.0f}) {
    for (float offset : {0.0f, 3.0f, -2.5f, 0.3f}) {
      for (int sq : {0, 1}) {
        RunResult r = RunKernel("AscendAntiQuant",
                                Attrs()
                                    .Float("scale", scale)
                                    .Float("offset", offset)
                                    .Int("sqrt_mode", sq),
                                {HostTensor::Of(DType::kInt8, S({8}), xs)});
        ASSERT_EQ(r.error, "");
        ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16);
        const std::vector<float> y = HalfValues(r.outputs[0]);
        for (size_t i = 0; i < xs.size(); ++i) {
          float v = H(static_cast<float>(xs[i]) + H(-offset));
          v = H(v * H(scale));
          if (sq) v = H(v * H(scale));
          EXPECT_EQ(HalfBits(y[i]), HalfBits(v))
              << int(xs[i]) << " " << scale << " " << offset << " " << sq;
        }
      }
    }
  }
  // By hand: (5 - 3) * fp16(0.1) = 2 * 0.0999755859375.
  RunResult r = RunKernel("AscendAntiQuant",
                          Attrs().Float("scale", 0.1f).Float("offset", 3.0f),
                          {HostTensor::Of<int8_t>(DType::kInt8, S({1}), {5})});
  EXPECT_EQ(HalfValues(r.outputs[0])[0], 0.199951171875f);
  // float16 overflows to inf: 127 * 1000.
  r = RunKernel("AscendAntiQuant", Attrs().Float("scale", 1000.0f),
                {HostTensor::Of<int8_t>(DType::kInt8, S({2}), {127, -128})});
  EXPECT_EQ(HalfValues(r.outputs[0]),
            (std::vector<float>{INFINITY, -INFINITY}));
  // Not int8: refused.
  EXPECT_NE(
      InferKernel("AscendAntiQuant", Attrs(), {HostTensor::F32(S({1}), {1})})
          .error.find("int8"),
      std::string::npos);
}

// ---- AscendDequant ----

uint64_t DeqWord(float scale, uint64_t garbage = 0) {
  return (garbage << 40) | Eigen::numext::bit_cast<uint32_t>(scale);
}

TEST(KernelsQuant, AscendDequantUint64PerChannelNchwIgnoresHighBits) {
  const std::vector<float> scales = {0.0123f, -0.5f, 3.0e-7f};
  std::vector<uint64_t> words;
  std::mt19937_64 gen(9);
  for (float s : scales) words.push_back(DeqWord(s, gen() >> 40));
  std::vector<int32_t> x(2 * 3 * 2 * 2);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int32_t>(gen() % 2000001) - 1000000;
  x[0] = std::numeric_limits<int32_t>::min();
  x[1] = std::numeric_limits<int32_t>::max();
  for (int relu : {0, 1}) {
    RunResult r =
        RunKernel("AscendDequant", Attrs().Int("relu_flag", relu),
                  {HostTensor::Of(DType::kInt32, S({2, 3, 2, 2}), x),
                   HostTensor::Of(DType::kUInt64, S({3}), words).Const()});
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16);
    const std::vector<float> y = HalfValues(r.outputs[0]);
    for (size_t i = 0; i < x.size(); ++i) {
      const float s = scales[(i / 4) % 3];
      // int32 times a 24-bit mantissa: exact in long double (64 bits).
      const long double p = static_cast<long double>(x[i]) * s;
      float want = NearestHalf(static_cast<double>(p));
      if (std::fabs(static_cast<double>(p)) < 65000 &&
          static_cast<long double>(static_cast<double>(p)) != p) {
        continue;  // (the double oracle is not exact there; rare)
      }
      if (relu && want < 0) want = 0;
      EXPECT_EQ(y[i], want) << "x " << x[i] << " scale " << s;
    }
  }
}

TEST(KernelsQuant, AscendDequantRoundsOnce) {
  // 2049 * (1 + 2^-23): one rounding gives 2050; rounding x to float16 first
  // (the float16 deq_scale path) gives 2048.
  const float s = 1.0f + std::ldexp(1.0f, -23);
  const HostTensor x = HostTensor::Of<int32_t>(DType::kInt32, S({1}), {2049});
  RunResult r = RunKernel("AscendDequant", Attrs(),
                          {x, HostTensor::Of<uint64_t>(DType::kUInt64, S({1}),
                                                       {DeqWord(s, 0xFFFFFF)})
                                  .Const()});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(HalfValues(r.outputs[0])[0], 2050.0f);
  r = RunKernel("AscendDequant", Attrs(), {x, F16(S({1}), {1.0f})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(HalfValues(r.outputs[0])[0], 2048.0f);
}

TEST(KernelsQuant, AscendDequantFloat16PathAndMatMulChannels) {
  // [M, N] with a per-channel float16 deq_scale along N, sqrt_mode twice.
  const std::vector<int32_t> x = {1, -300, 70000, 12345, -7, 0};
  const std::vector<float> d = {0.01f, -0.25f, 3.5f};
  for (int sq : {0, 1}) {
    for (int relu : {0, 1}) {
      RunResult r = RunKernel(
          "AscendDequant", Attrs().Int("sqrt_mode", sq).Int("relu_flag", relu),
          {HostTensor::Of(DType::kInt32, S({2, 3}), x), F16(S({3}), d)});
      ASSERT_EQ(r.error, "");
      const std::vector<float> y = HalfValues(r.outputs[0]);
      for (size_t i = 0; i < x.size(); ++i) {
        const float dh = H(d[i % 3]);
        float want = H(H(static_cast<float>(x[i])) * dh);
        if (sq) want = H(want * dh);
        if (relu && want < 0) want = 0;
        EXPECT_EQ(HalfBits(y[i]), HalfBits(want)) << i << " sq " << sq;
      }
    }
  }
}

TEST(KernelsQuant, AscendDequantRefusals) {
  const HostTensor x =
      HostTensor::Of<int32_t>(DType::kInt32, S({1, 4, 1, 1}), {1, 2, 3, 4});
  const HostTensor u1 = HostTensor::Of<uint64_t>(DType::kUInt64, S({1}), {0});
  EXPECT_EQ(
      InferKernel("AscendDequant", Attrs().Int("sqrt_mode", 1), {x, u1}).error,
      "AscendDequant: sqrt_mode=1 with a uint64 deq_scale, which CANN "
      "refuses (its vdeq_cast path has no sqrt_mode)");
  const HostTensor u3 =
      HostTensor::Of<uint64_t>(DType::kUInt64, S({3}), {0, 0, 0});
  EXPECT_EQ(InferKernel("AscendDequant", Attrs(), {x, u3}).error,
            "AscendDequant: deq_scale [3] must have 1 or 4 elements (the "
            "channels of x [1, 4, 1, 1])");
  const HostTensor x3 =
      HostTensor::Of<int32_t>(DType::kInt32, S({1, 3, 1}), {1, 2, 3});
  EXPECT_NE(InferKernel("AscendDequant", Attrs(), {x3, u3})
                .error.find("needs x of rank 4 (NCHW) or 2"),
            std::string::npos);
  EXPECT_NE(InferKernel("AscendDequant", Attrs().Int("dtype", 2), {x, u1})
                .error.find("dtype must be 0 or 1"),
            std::string::npos);
  EXPECT_NE(
      InferKernel("AscendDequant", Attrs(), {x, HostTensor::F32(S({1}), {1})})
          .error.find("uint64 or float16"),
      std::string::npos);
  // dtype 0 (fp32 in the IR) still gives float16, as the TBE kernel.
  RunResult r = InferKernel("AscendDequant", Attrs().Int("dtype", 0), {x, u1});
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].dtype, DType::kFloat16);
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
