// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The exact float paths of the int8 Conv, MatMul and Gemm (conv_int8.h,
// matmul_int8.h) and its pointwise path on vpmaddwd (pointwise_int8.h)
// against their reference loops, bit for bit: the depthwise
// Conv on conv.cc's float depthwise kernels, the dense and grouped Conv on
// oneDNN's float convolution over slices of the input channels, MatMul and
// Gemm on sgemm over chunks of K. oneDNN's int8 kernels are switched off
// (SetOnednnInt8ForTest) so that the float paths run on every CPU. Random
// int8 data over the whole range and the extremes (x = -128 with
// offset_x = 127 against w = -128: products of 32640, sums at the 2^24
// bound), offsets, padding, strides, dilations, groups, biases that wrap.
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "conv_int8.h"
#include "kernels_test_util.h"
#include "matmul_int8.h"
#include "onednn.h"

namespace ascend_emu {
namespace testing {
namespace {

// Random int8 values, a tenth of them at -128 or 127; `fill` (when not 0)
// gives every element that value instead.
std::vector<int8_t> Int8s(int64_t n, uint32_t seed, int fill = 0) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(-128, 127), edge(0, 19);
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (auto& x : v) {
    const int e = edge(gen);
    x = static_cast<int8_t>(fill != 0 ? fill
                            : e == 0  ? -128
                            : e == 1  ? 127
                                      : d(gen));
  }
  return v;
}

// Biases over the whole int32 range (the sums wrap, as the reference's).
std::vector<int32_t> Int32s(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> d(std::numeric_limits<int32_t>::min(),
                                           std::numeric_limits<int32_t>::max());
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = d(gen);
  return v;
}

// `run` (a reference loop) on the shapes Infer gives.
std::vector<int32_t> Reference(void (*run)(const RunContext&),
                               const std::string& op, const Attrs& a,
                               const std::vector<HostTensor>& in) {
  RunResult r = InferKernel(op, a, in);
  EXPECT_EQ(r.error, "");
  if (!r.error.empty()) return {};
  std::vector<HostTensor> copy = in;
  std::vector<TensorRef> refs(copy.size());
  for (size_t i = 0; i < copy.size(); ++i) {
    refs[i].dtype = copy[i].dtype;
    refs[i].shape = copy[i].shape;
    refs[i].data = copy[i].bytes.empty() ? nullptr : copy[i].bytes.data();
  }
  std::vector<int32_t> y(static_cast<size_t>(r.outputs[0].shape.numel()));
  TensorRef out;
  out.dtype = DType::kInt32;
  out.shape = r.outputs[0].shape;
  out.data = y.data();
  std::vector<unsigned char> scratch(r.scratch_bytes + 64);
  run(RunContext{a.get(), refs.data(), refs.size(), &out, 1, scratch.data()});
  return y;
}

// oneDNN's int8 kernels off for the test's duration.
class NoOnednnInt8 {
 public:
  NoOnednnInt8() { kernels::SetOnednnInt8ForTest(false); }
  ~NoOnednnInt8() { kernels::SetOnednnInt8ForTest(true); }
};

// The pointwise int8 path's use (conv_int8.h) for the test's duration.
class PointwiseUse {
 public:
  explicit PointwiseUse(kernels::PointwiseUse use) {
    kernels::SetConvInt8PointwiseForTest(use);
  }
  ~PointwiseUse() {
    kernels::SetConvInt8PointwiseForTest(
        kernels::PointwiseUse::kWhereOnednnInexact);
  }
};

struct ConvCase {
  int64_t n, c, h, w, m, kh, kw, group;
  std::vector<int64_t> pads, strides, dilations;
  int offset_x;
  bool bias;
  int fill_x = 0, fill_w = 0;  // 0: random
  bool one_d = false;          // [n, c, w] with kh = 1
};

// Runs `t` unprepared and prepared and compares both with the reference
// loop; returns whether the prepared run had a prepared op.
bool ExpectConvMatchesReference(const ConvCase& t, uint32_t seed) {
  const std::vector<int8_t> x = Int8s(t.n * t.c * t.h * t.w, seed, t.fill_x);
  const std::vector<int8_t> w =
      Int8s(t.m * (t.c / t.group) * t.kh * t.kw, seed + 1, t.fill_w);
  Attrs a;
  a.Ints("pads", t.pads).Ints("strides", t.strides);
  a.Ints("dilations", t.dilations).Int("group", t.group);
  a.Int("offset_x", t.offset_x);
  std::vector<HostTensor> in = {
      HostTensor::Of(DType::kInt8,
                     t.one_d ? S({t.n, t.c, t.w}) : S({t.n, t.c, t.h, t.w}), x),
      HostTensor::Of(DType::kInt8,
                     t.one_d ? S({t.m, t.c / t.group, t.kw})
                             : S({t.m, t.c / t.group, t.kh, t.kw}),
                     w)
          .Const()};
  if (t.bias) {
    in.push_back(
        HostTensor::Of(DType::kInt32, S({t.m}), Int32s(t.m, seed + 2)).Const());
  }
  const std::string label =
      "n=" + std::to_string(t.n) + " c=" + std::to_string(t.c) +
      " m=" + std::to_string(t.m) + " k=" + std::to_string(t.kh) + "x" +
      std::to_string(t.kw) + " group=" + std::to_string(t.group) +
      " offset_x=" + std::to_string(t.offset_x);
  const std::vector<int32_t> want =
      Reference(&kernels::RunConvInt8Reference, "Conv", a, in);
  RunResult plain = RunKernel("Conv", a, in);
  EXPECT_EQ(plain.error, "") << label;
  EXPECT_EQ(plain.outputs[0].values<int32_t>(), want) << label;
  RunResult fast = RunKernel("Conv", a, in, 1, /*prepare=*/true);
  EXPECT_EQ(fast.error, "") << label;
  EXPECT_EQ(fast.outputs[0].values<int32_t>(), want) << label;
  return fast.prepared;
}

TEST(KernelsInt8Fast, DepthwiseMatchesTheReferenceBitForBit) {
  const std::vector<ConvCase> cases = {
      // 3x3 "same" strips, stride 2 (pads 1 and TF's 0, 0, 1, 1).
      {1, 16, 20, 24, 16, 3, 3, 16, {1, 1, 1, 1}, {1, 1}, {1, 1}, 37, true},
      {2, 8, 32, 32, 8, 3, 3, 8, {1, 1, 1, 1}, {2, 2}, {1, 1}, -128, true},
      {1, 8, 32, 32, 8, 3, 3, 8, {0, 0, 1, 1}, {2, 2}, {1, 1}, 127, false},
      // Narrow planes (flat and channels-last), 5x5 and 7x7.
      {1, 24, 7, 6, 24, 3, 3, 24, {1, 1, 1, 1}, {1, 1}, {1, 1}, 5, true},
      {1, 20, 9, 9, 20, 5, 5, 20, {2, 2, 2, 2}, {2, 2}, {1, 1}, -3, true},
      {1, 12, 14, 14, 12, 7, 7, 12, {3, 3, 3, 3}, {1, 1}, {1, 1}, 100, true},
      {1, 9, 2, 2, 9, 3, 3, 9, {1, 1, 1, 1}, {1, 1}, {1, 1}, -77, true},
      // Small planes, channels last (depthwise_int8.h): whole blocks of
      // four vectors, a partial block and a tail; a batch; stride 2.
      {1, 75, 4, 4, 75, 3, 3, 75, {1, 1, 1, 1}, {1, 1}, {1, 1}, -20, true},
      {2, 72, 8, 8, 72, 3, 3, 72, {0, 0, 1, 1}, {2, 2}, {1, 1}, 9, true},
      // Dilation, asymmetric pads, rectangular windows, a channel
      // multiplier (two outputs per input channel).
      {1, 6, 15, 13, 6, 3, 3, 6, {2, 0, 1, 3}, {1, 2}, {2, 3}, 19, true},
      {1, 5, 11, 40, 10, 1, 3, 5, {0, 1, 0, 1}, {1, 1}, {1, 1}, -5, true},
      {2, 4, 12, 12, 8, 3, 3, 4, {1, 1, 1, 1}, {1, 1}, {1, 1}, 0, false},
      // Planes larger than a block (several blocks of channels).
      {1, 7, 120, 100, 7, 3, 3, 7, {1, 1, 1, 1}, {1, 1}, {1, 1}, 11, true},
      // One input channel, group 1 (a depthwise geometry too).
      {1, 1, 10, 10, 6, 3, 3, 1, {1, 1, 1, 1}, {1, 1}, {1, 1}, -9, true},
      // 1-D.
      {1, 6, 1, 50, 6, 1, 5, 6, {2, 2}, {1}, {2}, 3, true, 0, 0, true},
      // The extremes: every product 32640 (x - offset_x = -255, w = -128).
      {1,
       4,
       16,
       16,
       4,
       7,
       7,
       4,
       {3, 3, 3, 3},
       {1, 1},
       {1, 1},
       127,
       true,
       -128,
       -128},
  };
  uint32_t seed = 1;
  for (const ConvCase& t : cases) {
    ExpectConvMatchesReference(t, seed);
    seed += 3;
  }
}

TEST(KernelsInt8Fast, DenseAndGroupedOnFloatConvolutionsMatchTheReference) {
  NoOnednnInt8 off;
  PointwiseUse never(kernels::PointwiseUse::kNever);  // the float path's 1x1
  const std::vector<ConvCase> cases = {
      // The slices come from the weights (conv_int8.cc, SliceExact): with
      // random ones (mean |w| 64), K = 64 * 9 = 576 and 130 * 9 (stride 2,
      // batch 2) are one slice each, 256 * 9 with x - offset_x up to 255
      // (sum about 38e6 > 2^24) three.
      {1, 64, 12, 12, 16, 3, 3, 1, {1, 1, 1, 1}, {1, 1}, {1, 1}, 37, true},
      {2, 130, 9, 11, 20, 3, 3, 1, {1, 2, 0, 1}, {2, 1}, {1, 1}, -21, true},
      {1, 256, 5, 5, 8, 3, 3, 1, {1, 1, 1, 1}, {1, 1}, {1, 1}, 127, true},
      // 1x1 with 600 channels and a strided 1x1.
      {1, 600, 5, 5, 24, 1, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, 127, true},
      {1, 40, 9, 9, 24, 1, 1, 1, {0, 0, 0, 0}, {2, 2}, {1, 1}, -128, false},
      // One slice: the stem (3 channels, 7x7 stride 2), dilation, 5x5.
      {1, 3, 30, 30, 16, 7, 7, 1, {3, 3, 3, 3}, {2, 2}, {1, 1}, 5, true},
      {1, 6, 10, 10, 4, 3, 3, 1, {2, 2, 2, 2}, {1, 2}, {2, 2}, -128, true},
      {1, 5, 12, 12, 7, 5, 5, 1, {2, 2, 2, 2}, {1, 1}, {1, 1}, -3, false},
      // Grouped, Cin/group * kH * kW <= 514: one grouped float convolution.
      {1, 16, 9, 9, 32, 3, 3, 2, {1, 1, 1, 1}, {1, 1}, {1, 1}, 9, true},
      {1, 24, 8, 8, 12, 3, 3, 4, {0, 1, 2, 1}, {2, 1}, {1, 2}, -60, true},
      // 1-D.
      {1, 70, 1, 40, 9, 1, 9, 1, {4, 4}, {1}, {1}, 33, true, 0, 0, true},
      // The extremes at the bound: 57 * 9 = 513 and 514 * 1 products of
      // 32640 in one slice, and 120 * 9 in three (two of 48: whole blocks
      // of 16 where the bound allows, then 24).
      {1,
       57,
       6,
       6,
       8,
       3,
       3,
       1,
       {0, 0, 0, 0},
       {1, 1},
       {1, 1},
       127,
       true,
       -128,
       -128},
      {1,
       514,
       3,
       3,
       8,
       1,
       1,
       1,
       {0, 0, 0, 0},
       {1, 1},
       {1, 1},
       127,
       true,
       -128,
       -128},
      {1,
       120,
       6,
       6,
       8,
       3,
       3,
       1,
       {1, 1, 1, 1},
       {1, 1},
       {1, 1},
       -128,
       false,
       127,
       -128},
  };
  uint32_t seed = 100;
  for (const ConvCase& t : cases) {
    EXPECT_TRUE(ExpectConvMatchesReference(t, seed))
        << "c=" << t.c << ": not prepared on the float path";
    seed += 3;
  }
  // Grouped, Cin/group * kH * kW = 576: one grouped float convolution with
  // random weights; with every product 32640 (a group is not sliced), none:
  // the reference loop.
  EXPECT_TRUE(ExpectConvMatchesReference(
      {1, 128, 6, 6, 8, 3, 3, 2, {1, 1, 1, 1}, {1, 1}, {1, 1}, 7, true}, seed));
  EXPECT_FALSE(ExpectConvMatchesReference({1,
                                           128,
                                           6,
                                           6,
                                           8,
                                           3,
                                           3,
                                           2,
                                           {1, 1, 1, 1},
                                           {1, 1},
                                           {1, 1},
                                           127,
                                           true,
                                           -128,
                                           -128},
                                          seed + 3));
}

// The pointwise path (pointwise_int8.h, AVX2) on every CPU that has it:
// channel counts odd and even (a last pair half empty), output channels
// past whole blocks of four, planes past whole blocks of 16 pixels and
// under one, a batch, offsets at both ends, biases that wrap, and the
// extremes (every product 32640, 600 of them).
TEST(KernelsInt8Fast, PointwiseOnMaddMatchesTheReference) {
  PointwiseUse always(kernels::PointwiseUse::kAlways);
  const std::vector<ConvCase> cases = {
      {1, 16, 16, 16, 96, 1, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, 0, true},
      {2, 7, 5, 7, 13, 1, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, -128, true},
      {1, 33, 2, 2, 6, 1, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, 127, false},
      {1, 1, 3, 11, 1, 1, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, 17, true},
      {1, 96, 8, 8, 24, 1, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, -3, true},
      {1, 12, 1, 37, 8, 1, 1, 1, {0, 0}, {1}, {1}, 9, true, 0, 0, true},
      {1,
       600,
       4,
       5,
       7,
       1,
       1,
       1,
       {0, 0, 0, 0},
       {1, 1},
       {1, 1},
       127,
       true,
       -128,
       -128},
  };
  uint32_t seed = 500;
  for (const ConvCase& t : cases) {
    const bool prepared = ExpectConvMatchesReference(t, seed);
#if defined(__AVX2__)
    EXPECT_TRUE(prepared) << "c=" << t.c << ": not prepared";
#endif
    seed += 3;
  }
}

// Random [m, k] x [k, n] products, prepared (the float path) and not (the
// reference loop), against the reference.
TEST(KernelsInt8Fast, MatMulAndGemmOnSgemmMatchTheReference) {
  NoOnednnInt8 off;
  uint32_t seed = 500;
  struct Case {
    int64_t m, k, n;
    int fill_x, fill_w;
  };
  const std::vector<Case> cases = {
      {1, 1, 1, 0, 0},          {3, 17, 16, 0, 0},
      {1, 2048, 33, 0, 0},      {64, 1000, 40, 0, 0},
      {300, 515, 7, 0, 0},      {5, 514, 9, -128, -128},
      {2, 1030, 5, -128, -128}, {257, 64, 65, 127, -128},
  };
  for (const Case& c : cases) {
    for (int ox : {0, -128, 127, 19}) {
      const int64_t m = c.m, k = c.k, n = c.n;
      const std::vector<int8_t> x = Int8s(m * k, seed++, c.fill_x);
      const std::vector<int8_t> w = Int8s(k * n, seed++, c.fill_w);
      const std::vector<int32_t> b = Int32s(n, seed++);
      const std::string label = std::to_string(m) + "x" + std::to_string(k) +
                                "x" + std::to_string(n) + " ox " +
                                std::to_string(ox);
      const Attrs a = Attrs().Int("offset_x", ox);
      // MatMul with a batch dim folded into the rows.
      const std::vector<HostTensor> mm = {
          HostTensor::Of(DType::kInt8, S({1, m, k}), x),
          HostTensor::Of(DType::kInt8, S({k, n}), w).Const()};
      const std::vector<int32_t> want =
          Reference(&kernels::RunMatMulInt8Reference, "MatMul", a, mm);
      RunResult r = RunKernel("MatMul", a, mm, 1, /*prepare=*/true);
      ASSERT_EQ(r.error, "") << label;
      EXPECT_TRUE(r.prepared) << label;
      EXPECT_EQ(r.outputs[0].values<int32_t>(), want) << label;
      for (int tb : {0, 1}) {
        std::vector<int8_t> wt = w;
        if (tb) {
          for (int64_t t = 0; t < k; ++t)
            for (int64_t j = 0; j < n; ++j) wt[j * k + t] = w[t * n + j];
        }
        const Attrs g = Attrs().Int("offset_x", ox).Int("transB", tb);
        const std::vector<HostTensor> gin = {
            HostTensor::Of(DType::kInt8, S({m, k}), x),
            HostTensor::Of(DType::kInt8, tb ? S({n, k}) : S({k, n}), wt)
                .Const(),
            HostTensor::Of(DType::kInt32, S({n}), b).Const()};
        const std::vector<int32_t> gwant =
            Reference(&kernels::RunGemmInt8Reference, "Gemm", g, gin);
        RunResult gr = RunKernel("Gemm", g, gin, 1, /*prepare=*/true);
        ASSERT_EQ(gr.error, "") << label;
        EXPECT_TRUE(gr.prepared) << label;
        EXPECT_EQ(gr.outputs[0].values<int32_t>(), gwant)
            << label << " transB " << tb;
      }
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
