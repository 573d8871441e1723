// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// FusedConvDequant (conv_int8_fused.cc) against the chain it replaces, run
// op by op through the kernels atc would otherwise compile: Conv(int8) ->
// AscendDequant -> [Cast to float32] -> [Relu | Clip]. Bit for bit, prepared
// (oneDNN's channels-last result where it writes one) and not, over the
// shapes that take each of its paths: 8x8 blocks, channel and pixel edges,
// planes under a vector (2x2), batches, depthwise, accumulators past 2^24,
// one scale or one per channel, float16 scales, a special scale.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "conv_int8.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

using Half = Eigen::half;

// A float32 or float16 tensor's elements as their bits.
template <typename T>
std::vector<uint32_t> Bits(const HostTensor& t) {
  std::vector<uint32_t> out;
  for (T v : t.values<T>()) {
    if constexpr (std::is_same_v<T, Half>) {
      out.push_back(Eigen::numext::bit_cast<uint16_t>(v));
    } else {
      out.push_back(Eigen::numext::bit_cast<uint32_t>(v));
    }
  }
  return out;
}

struct ConvCase {
  int64_t n, c, m, h, w, k, group, stride, pad, offset_x;
  int32_t bias_span;  // biases in [-span, span]
};

struct EpilogueCase {
  bool to_float;
  std::string act;  // "", "Relu", "Clip"
  int relu_flag;
  int scales;     // 0: one per channel, 1: one, 2: float16 per channel,
                  // 3: per channel with an inf among them
  int quant = 0;  // an AscendQuant after: 0 none, 1 scale and offset (Round),
                  // 2 scale twice (sqrt_mode), Floor, no offset, 3 scale
                  // twice and offset (Round), 4 scale 0 (an inf times it is
                  // NaN, made 0) and offset, 5 scale 64 and offset 0.5
};

// The AscendQuant attributes of EpilogueCase::quant, with `prefix`.
Attrs& QuantAttrs(Attrs& a, int quant, const std::string& prefix) {
  if (quant == 1) {
    a.Float(prefix + "scale", 11.3f).Float(prefix + "offset", -3.0f);
  } else if (quant == 2) {
    a.Float(prefix + "scale", 3.7f).Int(prefix + "sqrt_mode", 1);
    a.Str(prefix + "round_mode", "Floor");
  } else if (quant == 3) {
    a.Float(prefix + "scale", 2.5f).Int(prefix + "sqrt_mode", 1);
    a.Float(prefix + "offset", 5.5f);
  } else if (quant == 4) {
    a.Float(prefix + "scale", 0.0f).Float(prefix + "offset", 2.0f);
  } else if (quant == 5) {
    a.Float(prefix + "scale", 64.0f).Float(prefix + "offset", 0.5f);
  }
  return a;
}

std::vector<HostTensor> ConvInputs(const ConvCase& t, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> i8(-128, 127);
  std::vector<int8_t> x(static_cast<size_t>(t.n * t.c * t.h * t.w));
  for (auto& v : x) v = static_cast<int8_t>(i8(gen));
  std::vector<int8_t> w(static_cast<size_t>(t.m * (t.c / t.group) * t.k * t.k));
  for (auto& v : w) v = static_cast<int8_t>(i8(gen));
  std::uniform_int_distribution<int32_t> b(-t.bias_span, t.bias_span);
  std::vector<int32_t> bias(static_cast<size_t>(t.m));
  for (auto& v : bias) v = b(gen);
  return {HostTensor::Of(DType::kInt8, S({t.n, t.c, t.h, t.w}), x),
          HostTensor::Of(DType::kInt8, S({t.m, t.c / t.group, t.k, t.k}), w)
              .Const(),
          HostTensor::Of(DType::kInt32, S({t.m}), bias).Const()};
}

HostTensor DeqScales(const ConvCase& t, const EpilogueCase& e, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> mant(0.5f, 1.0f);
  const int64_t count = e.scales == 1 ? 1 : t.m;
  std::vector<float> s(static_cast<size_t>(count));
  for (auto& v : s)
    v = std::ldexp(mant(gen), -static_cast<int>(gen() % 10) - 6);
  if (e.scales == 3) s[count / 2] = std::numeric_limits<float>::infinity();
  if (e.scales == 2) {
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

Attrs ConvAttrs(const ConvCase& t) {
  Attrs a;
  a.Ints("kernel_shape", {t.k, t.k}).Int("group", t.group);
  a.Ints("strides", {t.stride, t.stride});
  a.Ints("pads", {t.pad, t.pad, t.pad, t.pad});
  if (t.offset_x != 0) a.Int("offset_x", t.offset_x);
  return a;
}

// The chain op by op: the output's raw bits.
std::vector<uint32_t> Chain(const ConvCase& t, const EpilogueCase& e,
                            const std::vector<HostTensor>& in,
                            const HostTensor& deq) {
  RunResult conv = RunKernel("Conv", ConvAttrs(t), in, 1, true);
  EXPECT_EQ(conv.error, "");
  RunResult y =
      RunKernel("AscendDequant", Attrs().Int("relu_flag", e.relu_flag),
                {conv.outputs[0], deq});
  EXPECT_EQ(y.error, "");
  if (e.to_float) {
    y = RunKernel("Cast", Attrs().Int("to", 1), {y.outputs[0]});
    EXPECT_EQ(y.error, "");
  }
  if (e.act == "Relu") y = RunKernel("Relu", Attrs(), {y.outputs[0]});
  if (e.act == "Clip") {
    y = RunKernel("Clip", Attrs(),
                  {y.outputs[0], HostTensor::F32(S({}), {0.0f}),
                   HostTensor::F32(S({}), {6.0f})});
  }
  EXPECT_EQ(y.error, "");
  if (e.quant != 0) {
    Attrs q;
    y = RunKernel("AscendQuant", QuantAttrs(q, e.quant, ""), {y.outputs[0]});
    EXPECT_EQ(y.error, "");
    std::vector<uint32_t> out;
    for (int8_t v : y.outputs[0].values<int8_t>())
      out.push_back(static_cast<uint8_t>(v));
    return out;
  }
  return e.to_float ? Bits<float>(y.outputs[0]) : Bits<Half>(y.outputs[0]);
}

// The fused op's output bits (int8 when an AscendQuant is merged).
std::vector<uint32_t> OutputBits(const HostTensor& y, const EpilogueCase& e) {
  if (e.quant != 0) {
    std::vector<uint32_t> out;
    for (int8_t v : y.values<int8_t>()) out.push_back(static_cast<uint8_t>(v));
    return out;
  }
  return e.to_float ? Bits<float>(y) : Bits<Half>(y);
}

// An int8 [N, C, H, W] tensor's data NHWC (the shape unchanged, as an agreed
// tensor's), and a channels-last int8 result's bits back in NCHW order.
HostTensor Int8ToNhwc(const HostTensor& x) {
  const int64_t n = x.shape.dims[0], c = x.shape.dims[1],
                plane = x.shape.dims[2] * x.shape.dims[3];
  const std::vector<int8_t> v = x.values<int8_t>();
  std::vector<int8_t> t(v.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t p = 0; p < plane; ++p)
        t[(b * plane + p) * c + k] = v[(b * c + k) * plane + p];
  return HostTensor::Of(DType::kInt8, x.shape, t);
}
std::vector<uint32_t> Int8BitsFromNhwc(const HostTensor& y) {
  const int64_t n = y.shape.dims[0], c = y.shape.dims[1],
                plane = y.shape.dims[2] * y.shape.dims[3];
  const std::vector<int8_t> v = y.values<int8_t>();
  std::vector<uint32_t> t(v.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t p = 0; p < plane; ++p)
        t[(b * c + k) * plane + p] =
            static_cast<uint8_t>(v[(b * plane + p) * c + k]);
  return t;
}

// With an AscendQuant merged: x and y agreed channels last (model.cc's
// AgreeLayouts between two int8 Convs), each alone and both, where the
// prepared op takes them; small depthwise Convs (their channels-last path)
// must.
void ExpectSameInLayouts(const ConvCase& t, const EpilogueCase& e,
                         const Attrs& a, const std::vector<HostTensor>& in,
                         const std::vector<uint32_t>& want,
                         const std::string& label) {
  // (depthwise_int8.h's path, channels last on planes up to 8x8)
  const bool depthwise = t.group == t.c && t.m == t.c && t.h <= 8 && t.w <= 8;
  const bool epilogue = e.scales != 2 && e.scales != 3;  // uint64, finite
  for (int layouts : {1, 2, 3}) {
    AgreedLayouts agreed;
    std::vector<HostTensor> x = in;
    if (layouts & 1) {
      agreed.inputs = {TensorLayout::kNhwc};
      x[0] = Int8ToNhwc(in[0]);
    }
    if (layouts & 2) agreed.outputs = {TensorLayout::kNhwc};
    RunResult r = RunKernel("FusedConvDequant", a, x, 1, true, &agreed);
    ASSERT_EQ(r.error, "") << label;
    if (depthwise && epilogue && layouts != 2) {
      EXPECT_TRUE(r.agreed) << label << " layouts=" << layouts;
    }
    if (!r.agreed) continue;
    const std::vector<uint32_t> got = (layouts & 2)
                                          ? Int8BitsFromNhwc(r.outputs[0])
                                          : OutputBits(r.outputs[0], e);
    ASSERT_EQ(got, want) << label << " layouts=" << layouts;
  }
}

void ExpectFusedSame(const ConvCase& t, const EpilogueCase& e, uint32_t seed) {
  const std::vector<HostTensor> in = ConvInputs(t, seed);
  const HostTensor deq = DeqScales(t, e, seed + 1);
  const std::vector<uint32_t> want = Chain(t, e, in, deq);
  // What the int8 Conv's own prepared run allocates (oneDNN's execute may):
  // the epilogue adds nothing to it.
  const long conv_news =
      RunKernel("Conv", ConvAttrs(t), in, 1, true).run_new_calls;
  Attrs a = ConvAttrs(t);
  a.Int("relu_flag", e.relu_flag).Int("to", e.to_float ? 1 : 10);
  if (!e.act.empty()) a.Str("activation", e.act);
  if (e.act == "Clip") a.Floats("activation_params", {0.0f, 6.0f});
  QuantAttrs(a, e.quant, "quant_");
  const std::vector<HostTensor> fused_in = {in[0], in[1], deq, in[2]};
  const std::string label =
      "n=" + std::to_string(t.n) + " c=" + std::to_string(t.c) +
      " m=" + std::to_string(t.m) + " hw=" + std::to_string(t.h) + "x" +
      std::to_string(t.w) + " k=" + std::to_string(t.k) +
      " group=" + std::to_string(t.group) +
      " to_float=" + std::to_string(e.to_float) + " act=" + e.act +
      " relu_flag=" + std::to_string(e.relu_flag) +
      " scales=" + std::to_string(e.scales) +
      " quant=" + std::to_string(e.quant);
  for (bool prepare : {false, true}) {
    RunResult r = RunKernel("FusedConvDequant", a, fused_in, 1, prepare);
    ASSERT_EQ(r.error, "") << label;
    const std::vector<uint32_t> got = OutputBits(r.outputs[0], e);
    ASSERT_EQ(got.size(), want.size()) << label;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], want[i])
          << label << " prepared=" << prepare << " element " << i;
    }
    if (prepare) {
      EXPECT_TRUE(r.prepared) << label;
      EXPECT_LE(r.run_new_calls, conv_news)
          << label << ": the prepared epilogue allocated";
    }
  }
  if (e.quant != 0) ExpectSameInLayouts(t, e, a, fused_in, want, label);
}

TEST(KernelsConvDequant, FusedMatchesTheChainBitForBit) {
  const ConvCase convs[] = {
      {1, 16, 96, 8, 8, 1, 1, 1, 0, 0, 1000},     // 8x8 blocks
      {1, 12, 20, 5, 5, 3, 1, 1, 1, 3, 1000},     // channel and pixel edges
      {2, 24, 24, 4, 4, 3, 24, 1, 1, -5, 1000},   // depthwise, a batch of 2
      {1, 32, 64, 2, 2, 1, 1, 1, 0, 0, 1000},     // a 2x2 plane
      {1, 8, 40, 6, 6, 3, 1, 2, 1, 0, 1000},      // stride 2: 3x3 out
      {1, 16, 16, 8, 8, 1, 1, 1, 0, 0, 1 << 26},  // sums past 2^24
      {2, 16, 24, 4, 4, 1, 1, 1, 0, 7, 1000},     // dense, a batch of 2
      {1, 40, 40, 12, 12, 3, 40, 2, 1, 9, 1000},  // depthwise, 12x12 stride 2
      {1, 20, 20, 9, 9, 5, 20, 1, 2, -3, 1000},   // depthwise 5x5, edges
      {1, 20, 20, 3, 3, 3, 20, 1, 1, 2, 1000},    // depthwise, both tails
      {1, 16, 16, 2, 2, 3, 16, 1, 1, -2, 1000}};  // depthwise on 2x2
  const EpilogueCase epilogues[] = {
      {true, "Clip", 0, 0},
      {false, "Relu", 0, 0},
      {false, "", 1, 0},
      {true, "", 0, 1},
      {false, "", 0, 2},
      {true, "Clip", 0, 3},
      {true, "Relu", 1, 0},
      {true, "Clip", 0, 0, 1},
      {false, "Relu", 0, 1, 2},
      {false, "", 0, 0, 1},
      // The merged AscendQuant's table (BuildRequantTable) after relu_flag,
      // float16 scales and a special scale.
      {true, "Relu", 1, 0, 1},
      {true, "Clip", 0, 2, 1},
      {true, "Clip", 0, 3, 1},
      {false, "", 1, 1, 2}};
  uint32_t seed = 1;
  for (const ConvCase& t : convs) {
    for (const EpilogueCase& e : epilogues) ExpectFusedSame(t, e, seed += 7);
  }
}

// The 1x1 Convs again on the pointwise path (pointwise_int8.h), which a
// CPU with VNNI takes only when asked: every epilogue computed on the sums
// in registers (requant_computed.h), without an AscendQuant (float16 or
// float32 out) and with one (one scale or one per channel, relu_flag, each
// activation, sqrt_mode, a zero scale, sums past 2^24), or, where that path
// does not go (a special scale, Floor), through the passes and the table.
TEST(KernelsConvDequant, FusedOnThePointwisePathMatchesTheChain) {
  kernels::SetConvInt8PointwiseForTest(kernels::PointwiseUse::kAlways);
  const ConvCase convs[] = {
      {1, 16, 96, 8, 8, 1, 1, 1, 0, 0, 1000},     // 8x8 blocks
      {1, 32, 64, 2, 2, 1, 1, 1, 0, 0, 1000},     // a 2x2 plane
      {1, 16, 16, 8, 8, 1, 1, 1, 0, 0, 1 << 26},  // sums past 2^24
      {2, 15, 22, 5, 3, 1, 1, 1, 0, 7, 1000},     // a batch, odd channels
      // Sums up to 2^24, float16's inf once dequantized.
      {1, 16, 16, 8, 8, 1, 1, 1, 0, 0, (1 << 24) - (1 << 19)}};
  const EpilogueCase epilogues[] = {
      {true, "Clip", 0, 0},    {false, "", 1, 0},       {true, "Relu", 1, 0, 1},
      {true, "Clip", 0, 3, 1}, {false, "", 1, 1, 2},    {false, "", 0, 0, 1},
      {true, "Clip", 1, 1, 1}, {true, "Relu", 0, 0, 3}, {false, "", 1, 0, 1},
      {false, "", 0, 0, 4},    {false, "Relu", 0, 1},   {true, "Clip", 1, 1}};
  uint32_t seed = 3;
  for (const ConvCase& t : convs) {
    for (const EpilogueCase& e : epilogues) ExpectFusedSame(t, e, seed += 7);
  }
  kernels::SetConvInt8PointwiseForTest(
      kernels::PointwiseUse::kWhereOnednnInexact);
}

// One case of SumsJustPast2To24AreExact (below).
void SumsJustPast2To24(kernels::PointwiseUse use, int64_t hw) {
  kernels::SetConvInt8PointwiseForTest(use);
  const ConvCase t = {1, 16, 8, hw, hw, 1, 1, 1, 0, 3, 0};
  std::vector<HostTensor> in = ConvInputs(t, 5);
  in[0] = HostTensor::Of(DType::kInt8, S({1, 16, hw, hw}),
                         std::vector<int8_t>(16 * hw * hw, 3));  // x - 3 = 0
  const int32_t p24 = 1 << 24;
  in[2] = HostTensor::Of(DType::kInt32, S({8}),
                         std::vector<int32_t>{p24 + 1, p24, p24 - 1, p24 + 3,
                                              -p24 - 1, p24 + 5, 7, p24 + 1})
              .Const();
  const float scale = (1.0f + std::ldexp(1.0f, -11)) / 16777216.0f;
  uint32_t bits;
  std::memcpy(&bits, &scale, sizeof bits);
  const HostTensor deq =
      HostTensor::Of(DType::kUInt64, S({1}), std::vector<uint64_t>{bits})
          .Const();
  const EpilogueCase e = {false, "", 0, 1, 5};
  const std::vector<uint32_t> want = Chain(t, e, in, deq);
  ASSERT_EQ(want[0], 65u);        // the chain's own answer for 2^24 + 1
  ASSERT_EQ(want[hw * hw], 64u);  // and for 2^24 (a tie, to even)
  Attrs a = ConvAttrs(t);
  a.Int("to", 10);
  QuantAttrs(a, e.quant, "quant_");
  const std::vector<HostTensor> fused_in = {in[0], in[1], deq, in[2]};
  for (bool prepare : {false, true}) {
    RunResult r = RunKernel("FusedConvDequant", a, fused_in, 1, prepare);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(OutputBits(r.outputs[0], e), want)
        << "prepared=" << prepare << " hw=" << hw;
  }
}

// Sums just past 2^24, where float no longer holds every integer: each
// channel's sum is its bias (x equal to offset_x), 2^24 + 1 among them, and
// the scale puts 2^24 exactly on a float16 tie (1 + 2^-11), so 2^24 + 1,
// rounded to float first, would dequantize to 1 instead of 1 + 2^-10; the
// AscendQuant after (x 64 + 0.5) makes that 64 against 65. The fast paths
// must hand such sums to the reference (the pointwise path's static bound,
// PointwiseInt8::within24, included), on a 4x4 plane (the pointwise
// path's pixel blocks) and a 3x3 one (its channels across the lanes).
TEST(KernelsConvDequant, SumsJustPast2To24AreExact) {
  for (kernels::PointwiseUse use :
       {kernels::PointwiseUse::kAlways, kernels::PointwiseUse::kNever}) {
    for (int64_t hw : {4, 3}) {
      SumsJustPast2To24(use, hw);
    }
  }
  kernels::SetConvInt8PointwiseForTest(
      kernels::PointwiseUse::kWhereOnednnInexact);
}

TEST(KernelsConvDequant, InferRefusesWhatTheChainRefuses) {
  const ConvCase t = {1, 8, 8, 4, 4, 1, 1, 1, 0, 0, 10};
  const std::vector<HostTensor> conv = ConvInputs(t, 3);
  const std::vector<HostTensor> in = {conv[0], conv[1],
                                      DeqScales(t, {true, "", 0, 0}, 4)};
  // deq_scale of the wrong size, as AscendDequant says.
  std::vector<HostTensor> wrong = in;
  wrong[2] = HostTensor::Of(DType::kUInt64, S({3}), std::vector<uint64_t>(3, 0))
                 .Const();
  RunResult r = RunKernel("FusedConvDequant", ConvAttrs(t), wrong);
  EXPECT_NE(r.error.find("FusedConvDequant: AscendDequant"), std::string::npos)
      << r.error;
  // An activation the epilogue does not have.
  Attrs gelu = ConvAttrs(t);
  gelu.Str("activation", "Gelu");
  r = RunKernel("FusedConvDequant", gelu, in);
  EXPECT_NE(r.error.find("activation 'Gelu'"), std::string::npos) << r.error;
  // Clip without its bounds.
  Attrs clip = ConvAttrs(t);
  clip.Str("activation", "Clip");
  r = RunKernel("FusedConvDequant", clip, in);
  EXPECT_NE(r.error.find("activation_params"), std::string::npos) << r.error;
  // `to` other than float16 or float32.
  Attrs to = ConvAttrs(t);
  to.Int("to", 7);
  r = RunKernel("FusedConvDequant", to, in);
  EXPECT_NE(r.error.find("to must be"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
