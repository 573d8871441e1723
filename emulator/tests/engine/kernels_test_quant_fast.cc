// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The vector loops of quant.cc (AscendQuant, AscendAntiQuant, AscendDequant)
// against its scalar reference loops, bit for bit: a tensor of many elements
// takes the vector loop (all but its tail), a tensor of one element the
// scalar one. Random values plus the edge cases: float16 ties and overflow,
// the int8 saturation bounds, NaN, inf, -0, |x| at and past 2^29 (the
// uint64 deq_scale's double fast path), zero and negative-zero scales.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

using Half = Eigen::half;

template <typename T>
std::vector<uint32_t> Bits(const HostTensor& t) {
  std::vector<uint32_t> out;
  for (T v : t.values<T>()) {
    if constexpr (std::is_same_v<T, Half>) {
      out.push_back(Eigen::numext::bit_cast<uint16_t>(v));
    } else {
      out.push_back(static_cast<uint32_t>(static_cast<int32_t>(v)));
    }
  }
  return out;
}

// Each element of `all` (one tensor, vector path) against the op run on a
// one-element tensor (scalar path).
template <typename Out, typename In>
void ExpectSameAsScalar(const std::string& op, const Attrs& attrs, DType dt,
                        const std::vector<In>& x, const std::string& label) {
  RunResult all = RunKernel(
      op, attrs, {HostTensor::Of(dt, S({static_cast<int64_t>(x.size())}), x)});
  ASSERT_EQ(all.error, "") << label;
  const std::vector<uint32_t> got = Bits<Out>(all.outputs[0]);
  for (size_t i = 0; i < x.size(); ++i) {
    RunResult one =
        RunKernel(op, attrs, {HostTensor::Of<In>(dt, S({1}), {x[i]})});
    ASSERT_EQ(one.error, "");
    ASSERT_EQ(got[i], Bits<Out>(one.outputs[0])[0])
        << label << " at " << i << " x = " << static_cast<double>(x[i]);
  }
}

std::vector<float> QuantInputs() {
  std::vector<float> x = {0.0f,     -0.0f,     0.5f,     -0.5f,   1.5f,
                          2.5f,     -2.5f,     127.5f,   -128.5f, 127.49f,
                          128.0f,   -129.0f,   1e6f,     -1e6f,   65504.0f,
                          65520.0f, -65520.0f, 1e-8f,    -1e-8f,  0.99951f,
                          3.0e-5f,  6.1e-5f,   -0.0001f, 255.75f, -255.25f};
  x.push_back(std::numeric_limits<float>::infinity());
  x.push_back(-std::numeric_limits<float>::infinity());
  x.push_back(std::nanf(""));
  x.push_back(-std::nanf(""));
  std::mt19937 gen(21);
  std::uniform_real_distribution<float> wide(-300.0f, 300.0f);
  std::uniform_real_distribution<float> unit(-2.0f, 2.0f);
  for (int i = 0; i < 400; ++i) x.push_back(i % 2 ? wide(gen) : unit(gen));
  // float16 midpoints near the rounding boundaries of the scaled values.
  for (int i = -260; i <= 260; ++i) x.push_back(i * 0.5f);
  return x;
}

TEST(KernelsQuantFast, AscendQuantVectorMatchesScalar) {
  const std::vector<float> x = QuantInputs();
  std::vector<Half> xh(x.begin(), x.end());
  struct Case {
    float scale, offset;
    int sqrt_mode;
  };
  for (const Case& c :
       {Case{1.0f, 0.0f, 0}, Case{0.37f, 0.0f, 0}, Case{2.0f, 3.0f, 0},
        Case{1.0f, -7.25f, 0}, Case{1.7f, 0.5f, 1}, Case{0.001f, 1e-4f, 0},
        Case{300.0f, 0.0f, 0}}) {
    for (const char* mode : {"Round", "Floor", "Ceil", "Trunc"}) {
      const Attrs attrs = Attrs()
                              .Float("scale", c.scale)
                              .Float("offset", c.offset)
                              .Int("sqrt_mode", c.sqrt_mode)
                              .Str("round_mode", mode);
      const std::string label = std::string(mode) + " scale " +
                                std::to_string(c.scale) + " offset " +
                                std::to_string(c.offset);
      ExpectSameAsScalar<int8_t>("AscendQuant", attrs, DType::kFloat32, x,
                                 label + " fp32");
      ExpectSameAsScalar<int8_t>("AscendQuant", attrs, DType::kFloat16, xh,
                                 label + " fp16");
    }
  }
}

TEST(KernelsQuantFast, AscendAntiQuantVectorMatchesScalar) {
  std::vector<int8_t> x;
  for (int v = -128; v <= 127; ++v) x.push_back(static_cast<int8_t>(v));
  for (float scale : {1.0f, 0.013f, -0.5f, 1000.0f, 3e-8f, 70000.0f}) {
    for (float offset : {0.0f, 3.0f, -100.5f, 0.001f}) {
      for (int sq : {0, 1}) {
        ExpectSameAsScalar<Half>("AscendAntiQuant",
                                 Attrs()
                                     .Float("scale", scale)
                                     .Float("offset", offset)
                                     .Int("sqrt_mode", sq),
                                 DType::kInt8, x,
                                 "scale " + std::to_string(scale));
      }
    }
  }
}

uint64_t Word(float scale) {
  return Eigen::numext::bit_cast<uint32_t>(scale) | (uint64_t{0xAB} << 48);
}

std::vector<int32_t> DequantInputs() {
  std::vector<int32_t> x = {0,
                            1,
                            -1,
                            2049,
                            -2049,
                            (1 << 29) - 1,
                            -((1 << 29) - 1),
                            1 << 29,
                            -(1 << 29),
                            std::numeric_limits<int32_t>::max(),
                            std::numeric_limits<int32_t>::min(),
                            65504,
                            65519,
                            65520,
                            -65520};
  std::mt19937 gen(5);
  for (int i = 0; i < 300; ++i) {
    const int bits = 1 + static_cast<int>(gen() % 31);
    int32_t v = static_cast<int32_t>(gen() & ((1u << bits) - 1));
    x.push_back(gen() % 2 ? v : -v);
  }
  return x;
}

// AscendDequant of x [1, C] per channel (C = x.size(): the channels along
// the row, the vector loop across channels) and per tensor, against one
// element at a time with that element's scale.
void ExpectDequantSame(const std::vector<int32_t>& x,
                       const std::vector<float>& scales, bool u64, int relu,
                       int sq) {
  const Attrs attrs = Attrs().Int("relu_flag", relu).Int("sqrt_mode", sq);
  auto deq = [&](const std::vector<float>& s) {
    if (u64) {
      std::vector<uint64_t> w;
      for (float v : s) w.push_back(Word(v));
      return HostTensor::Of(DType::kUInt64, S({static_cast<int64_t>(s.size())}),
                            w)
          .Const();
    }
    std::vector<Half> h(s.begin(), s.end());
    return HostTensor::Of(DType::kFloat16, S({static_cast<int64_t>(s.size())}),
                          h)
        .Const();
  };
  const int64_t n = static_cast<int64_t>(x.size());
  RunResult per_channel =
      RunKernel("AscendDequant", attrs,
                {HostTensor::Of(DType::kInt32, S({1, n}), x), deq(scales)});
  ASSERT_EQ(per_channel.error, "");
  const std::vector<uint32_t> got = Bits<Half>(per_channel.outputs[0]);
  for (size_t i = 0; i < x.size(); ++i) {
    RunResult one =
        RunKernel("AscendDequant", attrs,
                  {HostTensor::Of<int32_t>(DType::kInt32, S({1}), {x[i]}),
                   deq({scales[i]})});
    ASSERT_EQ(one.error, "");
    ASSERT_EQ(got[i], Bits<Half>(one.outputs[0])[0])
        << (u64 ? "u64" : "fp16") << " x = " << x[i] << " scale = " << scales[i]
        << " relu " << relu;
  }
  // Per tensor: one scale, the flat vector loop.
  for (float s : {scales[0], scales[scales.size() / 2]}) {
    RunResult all =
        RunKernel("AscendDequant", attrs,
                  {HostTensor::Of(DType::kInt32, S({n}), x), deq({s})});
    ASSERT_EQ(all.error, "");
    const std::vector<uint32_t> flat = Bits<Half>(all.outputs[0]);
    for (size_t i = 0; i < x.size(); ++i) {
      RunResult one = RunKernel(
          "AscendDequant", attrs,
          {HostTensor::Of<int32_t>(DType::kInt32, S({1}), {x[i]}), deq({s})});
      ASSERT_EQ(flat[i], Bits<Half>(one.outputs[0])[0])
          << "per tensor x = " << x[i] << " scale = " << s;
    }
  }
}

TEST(KernelsQuantFast, AscendDequantUint64VectorMatchesExactScalar) {
  const std::vector<int32_t> x = DequantInputs();
  std::mt19937 gen(11);
  std::vector<float> scales;
  const float fixed[] = {0.0123f, -0.5f, 3.0e-7f, 1.0f,   0.0f,   -0.0f,
                         1e-30f,  2.0f,  1e10f,   -3e-5f, 1.5e-8f};
  for (size_t i = 0; i < x.size(); ++i) {
    if (i < sizeof fixed / sizeof fixed[0]) {
      scales.push_back(fixed[i]);
    } else {
      // Random mantissas over a wide exponent range.
      const float m = std::uniform_real_distribution<float>(0.5f, 1.0f)(gen);
      const int e = static_cast<int>(gen() % 60) - 45;
      scales.push_back(std::ldexp(gen() % 2 ? m : -m, e));
    }
  }
  for (int relu : {0, 1}) ExpectDequantSame(x, scales, true, relu, 0);
  // Every scale the same value: products at float16 ties.
  std::vector<float> same(x.size(), 1.0f / 4096.0f);
  ExpectDequantSame(x, same, true, 0, 0);
  // A special (inf / NaN) scale among them: that chunk takes the reference.
  std::vector<float> special = scales;
  special[3] = std::numeric_limits<float>::infinity();
  ExpectDequantSame(x, special, true, 1, 0);
}

// The vector path's own domain, |x| <= 2^24 (float's product and its FMA
// error, rounded to odd): every vector of 8 or 16 lanes takes it, with
// scales over float16's whole range, products at float16 ties (powers of
// two), just past them (a scale one float ulp off a power of two: the
// product's own float rounding would land on the tie) and past 65504.
TEST(KernelsQuantFast, AscendDequantUint64VectorWithin24Bits) {
  std::mt19937 gen(17);
  std::vector<int32_t> x = {1 << 24, -(1 << 24), (1 << 24) - 1, 3,    -3,
                            2049,    -2049,      4097,          6143, 0};
  while (x.size() < 512) {
    const int bits = 1 + static_cast<int>(gen() % 24);
    const int32_t v = static_cast<int32_t>(gen() & ((1u << bits) - 1));
    x.push_back(gen() % 2 ? v : -v);
  }
  std::vector<float> scales;
  for (size_t i = 0; i < x.size(); ++i) {
    const int e = static_cast<int>(gen() % 50) - 40;
    float s;
    switch (i % 4) {
      case 0:
        s = std::ldexp(1.0f, e);  // ties
        break;
      case 1:
        s = std::nextafter(std::ldexp(1.0f, e), 0.0f);
        break;
      case 2:
        s = std::nextafter(std::ldexp(1.0f, e), 1e30f);
        break;
      default:
        s = std::ldexp(std::uniform_real_distribution<float>(0.5f, 1.0f)(gen),
                       e);
    }
    scales.push_back(gen() % 3 == 0 ? -s : s);
  }
  for (int relu : {0, 1}) ExpectDequantSame(x, scales, true, relu, 0);
  std::vector<float> tie(x.size(), 1.0f / 8192.0f);
  ExpectDequantSame(x, tie, true, 0, 0);
}

// x * s rounded once to float16 in double, independently of the kernel:
// the product is exact there (|x| <= 2^24, s of 24 bits), and float16's ulp
// at it is a power of two, so nearbyint (ties to even) rounds it.
float HalfOfExactProduct(int32_t x, float s) {
  const double p = static_cast<double>(x) * static_cast<double>(s);
  if (p == 0.0) return static_cast<float>(p);
  int e = std::ilogb(p);
  e = e < -14 ? -14 : e;
  const double r = std::nearbyint(std::ldexp(p, 10 - e));
  const double v = std::ldexp(r, e - 10);
  if (std::fabs(v) > 65504.0) return std::copysign(INFINITY, p);
  return static_cast<float>(v);
}

// Many random products in the vector path's domain against that exact
// reference: about one in 4096 lands where rounding the float product
// instead of the exact one (round to odd) would give the other float16.
TEST(KernelsQuantFast, AscendDequantUint64RandomProductsRoundOnce) {
  std::mt19937 gen(23);
  const int64_t n = 1 << 16;
  std::vector<int32_t> x(n);
  std::vector<float> scales(n);
  std::vector<uint64_t> words(n);
  for (int64_t i = 0; i < n; ++i) {
    const int bits = 1 + static_cast<int>(gen() % 24);
    const int32_t v = static_cast<int32_t>(gen() & ((1u << bits) - 1));
    x[i] = gen() % 2 ? v : -v;
    const float m = 1.0f + static_cast<float>(gen() & 0x7FFFFF) * 0x1p-23f;
    scales[i] = std::ldexp(m, -static_cast<int>(gen() % 28) - bits + 14);
    words[i] = Word(scales[i]);
  }
  RunResult got =
      RunKernel("AscendDequant", Attrs(),
                {HostTensor::Of(DType::kInt32, S({1, n}), x),
                 HostTensor::Of(DType::kUInt64, S({n}), words).Const()});
  ASSERT_EQ(got.error, "");
  const std::vector<uint32_t> bits = Bits<Half>(got.outputs[0]);
  for (int64_t i = 0; i < n; ++i) {
    const float want = HalfOfExactProduct(x[i], scales[i]);
    ASSERT_EQ(bits[i], Half(want).x)
        << "x = " << x[i] << " scale = " << scales[i] << " want " << want;
  }
}

TEST(KernelsQuantFast, AscendDequantFloat16VectorMatchesScalar) {
  const std::vector<int32_t> x = DequantInputs();
  std::mt19937 gen(12);
  std::vector<float> scales;
  for (size_t i = 0; i < x.size(); ++i) {
    scales.push_back(static_cast<float>(
        Half(std::ldexp(std::uniform_real_distribution<float>(-1.0f, 1.0f)(gen),
                        static_cast<int>(gen() % 30) - 24))));
  }
  scales[0] = 0.0f;
  scales[1] = -0.0f;
  scales[2] = std::numeric_limits<float>::infinity();
  for (int relu : {0, 1}) {
    for (int sq : {0, 1}) ExpectDequantSame(x, scales, false, relu, sq);
  }
}

// Per channel on NCHW x: planes small enough to go in chunks of whole
// channels with the vectors crossing plane boundaries (3x3, 4x4, 7x7 with a
// chunk boundary inside the channels, 8x8, two images), a plane too large
// for a chunk (33x33), with uint64 scales (one of them inf: its chunk takes
// the reference) and float16 ones (sqrt_mode too), against each element
// run alone with its channel's scale.
TEST(KernelsQuantFast, AscendDequantPlanesMatchScalar) {
  const std::vector<int32_t> pool = DequantInputs();
  struct Case {
    int64_t n, c, h;
  };
  const Case cases[] = {{1, 3, 3},  {1, 130, 4}, {2, 37, 7},
                        {1, 45, 7}, {1, 20, 8},  {1, 2, 33}};
  std::mt19937 gen(13);
  for (const Case& k : cases) {
    const int64_t plane = k.h * k.h, numel = k.n * k.c * plane;
    std::vector<int32_t> x(static_cast<size_t>(numel));
    for (int64_t i = 0; i < numel; ++i)
      x[i] = pool[(i * 7 + gen() % 3) % pool.size()];
    for (int mode = 0; mode < 4; ++mode) {
      const bool u64 = mode < 2;
      const int relu = mode == 1, sq = mode == 3;
      std::vector<float> scales(static_cast<size_t>(k.c));
      for (float& s : scales) {
        const float m = std::uniform_real_distribution<float>(-1.0f, 1.0f)(gen);
        s = u64 ? std::ldexp(m, static_cast<int>(gen() % 40) - 30)
                : static_cast<float>(Half(std::ldexp(m, -8)));
      }
      if (mode == 1) scales[k.c / 2] = std::numeric_limits<float>::infinity();
      auto deq = [&](const std::vector<float>& s) {
        const Shape shape = S({static_cast<int64_t>(s.size())});
        if (u64) {
          std::vector<uint64_t> w;
          for (float v : s) w.push_back(Word(v));
          return HostTensor::Of(DType::kUInt64, shape, w).Const();
        }
        std::vector<Half> h(s.begin(), s.end());
        return HostTensor::Of(DType::kFloat16, shape, h).Const();
      };
      const Attrs attrs = Attrs().Int("relu_flag", relu).Int("sqrt_mode", sq);
      RunResult all =
          RunKernel("AscendDequant", attrs,
                    {HostTensor::Of(DType::kInt32, S({k.n, k.c, k.h, k.h}), x),
                     deq(scales)});
      ASSERT_EQ(all.error, "");
      const std::vector<uint32_t> got = Bits<Half>(all.outputs[0]);
      for (int64_t i = 0; i < numel; ++i) {
        const float s = scales[(i / plane) % k.c];
        RunResult one = RunKernel(
            "AscendDequant", attrs,
            {HostTensor::Of<int32_t>(DType::kInt32, S({1}), {x[i]}), deq({s})});
        ASSERT_EQ(got[i], Bits<Half>(one.outputs[0])[0])
            << "C " << k.c << " H " << k.h << " mode " << mode << " at " << i
            << " x = " << x[i] << " scale = " << s;
      }
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
