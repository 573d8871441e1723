// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's int8 Conv, MatMul and Gemm (conv_int8.h, matmul_int8.h): the
// reference loops against a float convolution / product of (x - offset_x)
// written here (padding contributes 0: it holds offset_x), and the oneDNN
// fast paths against the reference loops, bit for bit.
#include <cstdint>
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

std::vector<int8_t> RandInt8(int64_t n, uint32_t seed, int lo = -128,
                             int hi = 127) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<int8_t>(d(gen));
  return v;
}

std::vector<int32_t> RandInt32(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> d(-100000, 100000);
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = d(gen);
  return v;
}

// Runs `run` (a reference loop) on the shapes Infer gives.
std::vector<int32_t> RunWith(void (*run)(const RunContext&),
                             const std::string& op, const Attrs& a,
                             std::vector<HostTensor> in) {
  RunResult r = InferKernel(op, a, in);
  EXPECT_EQ(r.error, "");
  if (!r.error.empty()) return {};
  std::vector<TensorRef> refs(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    refs[i].dtype = in[i].dtype;
    refs[i].shape = in[i].shape;
    refs[i].data = in[i].bytes.empty() ? nullptr : in[i].bytes.data();
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

struct ConvCase {
  int64_t n, c, h, w, m, kh, kw, group;
  std::vector<int64_t> pads, strides, dilations;
  int offset_x;
  bool bias;
};

// A float convolution of (x - offset_x), zero padding, in double.
std::vector<int32_t> FloatConvOracle(const ConvCase& t,
                                     const std::vector<int8_t>& x,
                                     const std::vector<int8_t>& w,
                                     const std::vector<int32_t>& b,
                                     int64_t* oh_out, int64_t* ow_out) {
  const int64_t oh =
      (t.h + t.pads[0] + t.pads[2] - (t.kh - 1) * t.dilations[0] - 1) /
          t.strides[0] +
      1;
  const int64_t ow =
      (t.w + t.pads[1] + t.pads[3] - (t.kw - 1) * t.dilations[1] - 1) /
          t.strides[1] +
      1;
  *oh_out = oh;
  *ow_out = ow;
  const int64_t cg = t.c / t.group, mg = t.m / t.group;
  std::vector<int32_t> y(static_cast<size_t>(t.n * t.m * oh * ow));
  for (int64_t n = 0; n < t.n; ++n)
    for (int64_t m = 0; m < t.m; ++m)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double acc = t.bias ? b[m] : 0.0;
          for (int64_t c = 0; c < cg; ++c)
            for (int64_t p = 0; p < t.kh; ++p)
              for (int64_t q = 0; q < t.kw; ++q) {
                const int64_t ih =
                    i * t.strides[0] - t.pads[0] + p * t.dilations[0];
                const int64_t iw =
                    j * t.strides[1] - t.pads[1] + q * t.dilations[1];
                if (ih < 0 || ih >= t.h || iw < 0 || iw >= t.w) continue;
                const int64_t ch = (m / mg) * cg + c;
                const double xv =
                    static_cast<double>(
                        x[((n * t.c + ch) * t.h + ih) * t.w + iw]) -
                    t.offset_x;
                acc += xv * w[((m * cg + c) * t.kh + p) * t.kw + q];
              }
          y[((n * t.m + m) * oh + i) * ow + j] = static_cast<int32_t>(acc);
        }
  return y;
}

TEST(KernelsInt8, ConvWithPaddingAndOffsetMatchesAFloatConvOfXMinusOffset) {
  const std::vector<ConvCase> cases = {
      {1, 3, 7, 6, 4, 3, 3, 1, {1, 1, 1, 1}, {1, 1}, {1, 1}, 0, true},
      {1, 3, 7, 6, 4, 3, 3, 1, {1, 1, 1, 1}, {1, 1}, {1, 1}, 37, true},
      {2, 16, 9, 9, 32, 3, 3, 1, {1, 2, 0, 1}, {2, 1}, {1, 1}, -21, true},
      {1, 8, 8, 8, 8, 3, 3, 8, {1, 1, 1, 1}, {1, 1}, {1, 1}, 5, false},
      {1, 6, 10, 10, 4, 3, 3, 2, {2, 2, 2, 2}, {1, 2}, {2, 2}, -128, true},
      {1, 64, 6, 6, 24, 1, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, 127, true},
      {1, 5, 12, 12, 7, 5, 5, 1, {2, 2, 2, 2}, {1, 1}, {1, 1}, -3, false},
  };
  uint32_t seed = 1;
  for (const ConvCase& t : cases) {
    const std::vector<int8_t> x = RandInt8(t.n * t.c * t.h * t.w, seed++);
    const std::vector<int8_t> w =
        RandInt8(t.m * (t.c / t.group) * t.kh * t.kw, seed++);
    const std::vector<int32_t> b = RandInt32(t.m, seed++);
    int64_t oh = 0, ow = 0;
    const std::vector<int32_t> want = FloatConvOracle(t, x, w, b, &oh, &ow);
    Attrs a;
    a.Ints("pads", t.pads).Ints("strides", t.strides);
    a.Ints("dilations", t.dilations).Int("group", t.group);
    a.Int("offset_x", t.offset_x);
    std::vector<HostTensor> in = {
        HostTensor::Of(DType::kInt8, S({t.n, t.c, t.h, t.w}), x),
        HostTensor::Of(DType::kInt8, S({t.m, t.c / t.group, t.kh, t.kw}), w)
            .Const()};
    if (t.bias)
      in.push_back(HostTensor::Of(DType::kInt32, S({t.m}), b).Const());
    const std::string label = "case c=" + std::to_string(t.c) +
                              " offset_x=" + std::to_string(t.offset_x);
    // The reference loop (unprepared) against the float oracle.
    RunResult plain = RunKernel("Conv", a, in);
    ASSERT_EQ(plain.error, "") << label;
    EXPECT_EQ(plain.outputs[0].dtype, DType::kInt32);
    EXPECT_EQ(plain.outputs[0].shape, S({t.n, t.m, oh, ow})) << label;
    EXPECT_EQ(plain.outputs[0].values<int32_t>(), want) << label;
    // Prepared: oneDNN's int8 convolution where it is exact, bit for bit.
    RunResult fast = RunKernel("Conv", a, in, 1, /*prepare=*/true);
    ASSERT_EQ(fast.error, "") << label;
    EXPECT_EQ(fast.outputs[0].values<int32_t>(), want) << label;
    if (kernels::OnednnHasExactInt8() && t.group == 1) {
      EXPECT_TRUE(fast.prepared) << label << ": oneDNN has no int8 primitive";
    }
  }
}

TEST(KernelsInt8, ConvOneDimensional) {
  const std::vector<int8_t> x = {1, -2, 3, 100, -128, 127};
  const std::vector<int8_t> w = {1, 2, -3};
  RunResult r =
      RunKernel("Conv", Attrs().Ints("pads", {1, 1}).Int("offset_x", 3),
                {HostTensor::Of(DType::kInt8, S({1, 1, 6}), x),
                 HostTensor::Of(DType::kInt8, S({1, 1, 3}), w).Const()});
  ASSERT_EQ(r.error, "");
  std::vector<int32_t> want;
  for (int i = 0; i < 6; ++i) {
    int32_t acc = 0;
    for (int k = 0; k < 3; ++k) {
      const int j = i - 1 + k;
      if (j >= 0 && j < 6) acc += (x[j] - 3) * w[k];
    }
    want.push_back(acc);
  }
  EXPECT_EQ(r.outputs[0].values<int32_t>(), want);
}

TEST(KernelsInt8, ConvRefusesMixedDtypesAndBadOffsets) {
  const HostTensor x8 =
      HostTensor::Of(DType::kInt8, S({1, 1, 3, 3}), RandInt8(9, 1));
  const HostTensor w8 =
      HostTensor::Of(DType::kInt8, S({1, 1, 1, 1}), std::vector<int8_t>{1});
  const HostTensor wf = HostTensor::F32(S({1, 1, 1, 1}), {1.0f});
  EXPECT_EQ(InferKernel("Conv", Attrs(), {x8, wf}).error,
            "Conv: int8 Conv needs int8 x and weight and an int32 bias "
            "(CANN's Conv2D), got x int8, weight float32");
  EXPECT_NE(
      InferKernel("Conv", Attrs(), {x8, w8, HostTensor::F32(S({1}), {0.0f})})
          .error.find("bias float32"),
      std::string::npos);
  EXPECT_NE(InferKernel("Conv", Attrs().Int("offset_x", 200), {x8, w8})
                .error.find("offset_x 200 outside [-128, 127]"),
            std::string::npos);
  // A float Conv knows no offset_x.
  EXPECT_NE(
      InferKernel("Conv", Attrs().Int("offset_x", 1),
                  {HostTensor::F32(S({1, 1, 3, 3}), std::vector<float>(9)), wf})
          .error.find("offset_x"),
      std::string::npos);
}

// (x - ox) @ w (+ bias) in int64 (the values never wrap here).
std::vector<int32_t> ProductOracle(const std::vector<int8_t>& x,
                                   const std::vector<int8_t>& w, bool trans_b,
                                   const std::vector<int32_t>* bias, int ox,
                                   int64_t m, int64_t n, int64_t k) {
  std::vector<int32_t> y(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t acc = bias != nullptr ? (*bias)[j] : 0;
      for (int64_t t = 0; t < k; ++t)
        acc += (x[i * k + t] - ox) *
               int64_t{trans_b ? w[j * k + t] : w[t * n + j]};
      y[i * n + j] = static_cast<int32_t>(acc);
    }
  return y;
}

TEST(KernelsInt8, MatMulAndGemmMatchTheOracleAndTheReference) {
  uint32_t seed = 100;
  for (int64_t m : {1, 3, 64}) {
    for (int64_t k : {1, 17, 256, 1000}) {
      for (int64_t n : {1, 16, 33}) {
        for (int ox : {0, -128, 19, 127}) {
          const std::vector<int8_t> x = RandInt8(m * k, seed++);
          const std::vector<int8_t> w = RandInt8(k * n, seed++);
          const std::vector<int32_t> b = RandInt32(n, seed++);
          const std::string label =
              std::to_string(m) + "x" + std::to_string(k) + "x" +
              std::to_string(n) + " ox " + std::to_string(ox);
          // MatMul [2, m/.., k]: a batch dim folded into the rows.
          std::vector<HostTensor> mm = {
              HostTensor::Of(DType::kInt8, S({1, m, k}), x),
              HostTensor::Of(DType::kInt8, S({k, n}), w).Const()};
          const Attrs a = Attrs().Int("offset_x", ox);
          RunResult r = RunKernel("MatMul", a, mm);
          ASSERT_EQ(r.error, "") << label;
          EXPECT_EQ(r.outputs[0].shape, S({1, m, n}));
          const std::vector<int32_t> want =
              ProductOracle(x, w, false, nullptr, ox, m, n, k);
          EXPECT_EQ(r.outputs[0].values<int32_t>(), want) << label;
          EXPECT_EQ(RunWith(&kernels::RunMatMulInt8Reference, "MatMul", a, mm),
                    want)
              << label;
          // Gemm with transB and an int32 bias.
          for (int tb : {0, 1}) {
            std::vector<int8_t> wt = w;
            if (tb) {
              for (int64_t t = 0; t < k; ++t)
                for (int64_t j = 0; j < n; ++j) wt[j * k + t] = w[t * n + j];
            }
            const Attrs g = Attrs().Int("offset_x", ox).Int("transB", tb);
            std::vector<HostTensor> gin = {
                HostTensor::Of(DType::kInt8, S({m, k}), x),
                HostTensor::Of(DType::kInt8, tb ? S({n, k}) : S({k, n}), wt)
                    .Const(),
                HostTensor::Of(DType::kInt32, S({n}), b).Const()};
            const std::vector<int32_t> gwant =
                ProductOracle(x, w, false, &b, ox, m, n, k);
            RunResult gr = RunKernel("Gemm", g, gin);
            ASSERT_EQ(gr.error, "") << label;
            EXPECT_EQ(gr.outputs[0].values<int32_t>(), gwant) << label;
            EXPECT_EQ(RunWith(&kernels::RunGemmInt8Reference, "Gemm", g, gin),
                      gwant)
                << label;
          }
        }
      }
    }
  }
}

TEST(KernelsInt8, MatMulAndGemmRefusals) {
  const HostTensor x8 = HostTensor::Of(DType::kInt8, S({2, 3}), RandInt8(6, 1));
  const HostTensor w8 = HostTensor::Of(DType::kInt8, S({3, 2}), RandInt8(6, 2));
  const HostTensor wf = HostTensor::F32(S({3, 2}), std::vector<float>(6));
  EXPECT_EQ(InferKernel("MatMul", Attrs(), {x8, wf}).error,
            "MatMul: int8 MatMul needs int8 inputs (and an int32 bias), got "
            "int8, float32: int8 and float operands do not mix");
  EXPECT_NE(InferKernel("Gemm", Attrs().Float("alpha", 2.0f), {x8, w8})
                .error.find("alpha = beta = 1"),
            std::string::npos);
  EXPECT_NE(InferKernel("Gemm", Attrs().Int("transA", 1), {x8, w8})
                .error.find("transA = 0"),
            std::string::npos);
  EXPECT_NE(
      InferKernel(
          "Gemm", Attrs(),
          {x8, w8, HostTensor::Of<int32_t>(DType::kInt32, S({1, 2}), {1, 2})})
          .error.find("must be [2]"),
      std::string::npos);
  EXPECT_NE(InferKernel("MatMul", Attrs(),
                        {x8, HostTensor::Of(DType::kInt8, S({1, 3, 2}),
                                            RandInt8(6, 3))})
                .error.find("2-D weight"),
            std::string::npos);
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
