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
  int scales;  // 0: one per channel, 1: one, 2: float16 per channel,
               // 3: per channel with an inf among them
};

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
  return e.to_float ? Bits<float>(y.outputs[0]) : Bits<Half>(y.outputs[0]);
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
  const std::vector<HostTensor> fused_in = {in[0], in[1], deq, in[2]};
  const std::string label =
      "n=" + std::to_string(t.n) + " c=" + std::to_string(t.c) +
      " m=" + std::to_string(t.m) + " hw=" + std::to_string(t.h) + "x" +
      std::to_string(t.w) + " k=" + std::to_string(t.k) +
      " group=" + std::to_string(t.group) +
      " to_float=" + std::to_string(e.to_float) + " act=" + e.act +
      " relu_flag=" + std::to_string(e.relu_flag) +
      " scales=" + std::to_string(e.scales);
  for (bool prepare : {false, true}) {
    RunResult r = RunKernel("FusedConvDequant", a, fused_in, 1, prepare);
    ASSERT_EQ(r.error, "") << label;
    const std::vector<uint32_t> got =
        e.to_float ? Bits<float>(r.outputs[0]) : Bits<Half>(r.outputs[0]);
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
}

TEST(KernelsConvDequant, FusedMatchesTheChainBitForBit) {
  const ConvCase convs[] = {
      {1, 16, 96, 8, 8, 1, 1, 1, 0, 0, 1000},     // 8x8 blocks
      {1, 12, 20, 5, 5, 3, 1, 1, 1, 3, 1000},     // channel and pixel edges
      {2, 24, 24, 4, 4, 3, 24, 1, 1, -5, 1000},   // depthwise, a batch of 2
      {1, 32, 64, 2, 2, 1, 1, 1, 0, 0, 1000},     // a 2x2 plane
      {1, 8, 40, 6, 6, 3, 1, 2, 1, 0, 1000},      // stride 2: 3x3 out
      {1, 16, 16, 8, 8, 1, 1, 1, 0, 0, 1 << 26},  // sums past 2^24
      {2, 16, 24, 4, 4, 1, 1, 1, 0, 7, 1000}};    // dense, a batch of 2
  const EpilogueCase epilogues[] = {{true, "Clip", 0, 0}, {false, "Relu", 0, 0},
                                    {false, "", 1, 0},    {true, "", 0, 1},
                                    {false, "", 0, 2},    {true, "Clip", 0, 3},
                                    {true, "Relu", 1, 0}};
  uint32_t seed = 1;
  for (const ConvCase& t : convs) {
    for (const EpilogueCase& e : epilogues) ExpectFusedSame(t, e, seed += 7);
  }
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
