// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// FusedConv (atc's Conv fusions: residual Add, Relu, Clip, BatchNorm weight
// scale) against the naive Conv loops, on the emulator's own path and on
// oneDNN's, and the first-layer path per oneDNN block size.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "conv_onednn.h"
#include "kernels_test_conv_util.h"
#include "kernels_test_util.h"
#include "onednn.h"

namespace ascend_emu {
namespace testing {
namespace {

// FusedConv (atc's Conv -> Add -> Relu fusion) = Relu(Conv + Z), on both
// paths, with odd sizes, groups, dilations, strides and no bias.
TEST(KernelsConv, FusedConvIsConvPlusResidualThenRelu) {
  ConvParams odd;
  odd.group = 2;
  odd.dh = 2;
  odd.sw = 2;
  odd.pt = 2;
  odd.pl = 1;
  odd.pb = 0;
  odd.pr = 2;
  ConvParams same;
  same.pt = same.pl = same.pb = same.pr = 1;
  const ConvCase cases[] = {
      {{2, 4, 9, 7}, {6, 2, 3, 3}, odd, true},
      {{1, 16, 8, 8}, {16, 16, 3, 3}, same, true},
      {{1, 3, 5, 6}, {5, 3, 1, 1}, {}, false},
  };
  for (bool prepare : {false, true}) {
    for (bool residual : {false, true}) {
      for (bool relu : {false, true}) {
        uint32_t seed = 3000;
        for (const ConvCase& c : cases) {
          HostTensor x = RandF32(S(c.x), seed++);
          HostTensor w = RandF32(S(c.w), seed++);
          HostTensor b = RandF32(S({c.w[0]}), seed++);
          Shape want;
          std::vector<float> ref =
              NaiveConv(x, w, c.bias ? &b : nullptr, c.p, &want);
          HostTensor z = RandF32(want, seed++);
          std::vector<HostTensor> in = {x, w};
          in.push_back(c.bias ? b : HostTensor::Absent());
          if (residual) {
            in.push_back(z);
            for (size_t i = 0; i < ref.size(); ++i) ref[i] += z.f32()[i];
          }
          if (relu) {
            for (float& v : ref) v = std::max(v, 0.0f);
          }
          Attrs a = ConvAttrs(c.p);
          if (relu) a.Str("activation", "Relu");
          RunResult r = RunKernel("FusedConv", a, in, 1, prepare);
          ASSERT_EQ(r.error, "") << S(c.x).ToString();
          EXPECT_EQ(r.prepared, prepare);
          ASSERT_EQ(r.outputs[0].shape, want);
          ExpectNear(r.outputs[0].f32(), ref, 1e-4f);
        }
      }
    }
  }
  HostTensor x = RandF32(S({1, 2, 4, 4}), 1);
  HostTensor w = RandF32(S({3, 2, 1, 1}), 2);
  EXPECT_NE(RunKernel("FusedConv", Attrs(),
                      {x, w, HostTensor::Absent(), RandF32(S({1, 3, 4, 3}), 3)})
                .error.find("must have the output's shape"),
            std::string::npos);
  EXPECT_NE(RunKernel("FusedConv", Attrs().Str("activation", "Sigmoid"), {x, w})
                .error.find("activation 'Sigmoid'"),
            std::string::npos);
}

// First layers (fewer than 16 input channels): conv_onednn.cc takes oneDNN's
// direct kernel on the plain NCHW input when its blocked output is NHWC as it
// is, one block of exactly the output channels: 16 on AVX-512, 8 on AVX2
// (OnednnFloatLanes). Stems of 8 and of 16 output channels, so that wherever
// the test runs one block size takes the path and the other does not (CI runs
// it uncapped and with oneDNN capped to AVX2), and 32, which none takes. Each
// with and without residual and Relu, against the naive loops: the output
// agreed NHWC where the prepared op offers it (the path must), plain
// otherwise.
TEST(KernelsConv, FirstLayerConvTakesItsPathPerBlockSize) {
  const int lanes = kernels::OnednnFloatLanes();
  if (lanes < 8) {
    GTEST_SKIP() << "oneDNN runs below AVX here (" << kernels::OnednnIsaName()
                 << "): under the build's baseline, x86-64-v3";
  }
  const int64_t block = lanes;  // 16 on AVX-512, 8 on AVX and AVX2
  ConvParams stem;
  stem.sh = stem.sw = 2;
  stem.pt = stem.pl = stem.pb = stem.pr = 3;
  ConvParams same;
  same.pt = same.pl = same.pb = same.pr = 1;
  const ConvCase cases[] = {
      {{1, 3, 20, 18}, {16, 3, 7, 7}, stem, true},
      {{1, 3, 20, 18}, {8, 3, 7, 7}, stem, true},
      {{2, 3, 9, 11}, {8, 3, 3, 3}, same, true},
      {{2, 3, 9, 11}, {16, 3, 3, 3}, same, false},
      {{1, 1, 12, 12}, {16, 1, 3, 3}, same, false},
      {{1, 1, 12, 12}, {8, 1, 3, 3}, same, true},
      {{1, 3, 10, 10}, {32, 3, 3, 3}, same, true},
  };
  int taken = 0, not_taken = 0;
  uint32_t seed = 7000;
  for (const ConvCase& c : cases) {
    for (bool residual : {false, true}) {
      HostTensor x = RandF32(S(c.x), seed++);
      HostTensor w = RandF32(S(c.w), seed++);
      HostTensor b = RandF32(S({c.w[0]}), seed++);
      Shape want;
      std::vector<float> ref =
          NaiveConv(x, w, c.bias ? &b : nullptr, c.p, &want);
      HostTensor z = RandF32(want, seed++);
      if (residual) {
        for (size_t i = 0; i < ref.size(); ++i) ref[i] += z.f32()[i];
      }
      for (float& v : ref) v = std::max(v, 0.0f);
      const std::string what = S(c.x).ToString() + " " + S(c.w).ToString() +
                               " residual " + std::to_string(residual) +
                               " oneDNN " + kernels::OnednnIsaName();

      // The path, asked of the prepared primitive itself.
      kernels::OnednnConvShape shape;
      shape.n = c.x[0];
      shape.c = c.x[1];
      shape.m = c.w[0];
      shape.relu = true;
      shape.residual = residual;
      const int64_t pads[2][2] = {{c.p.pt, c.p.pb}, {c.p.pl, c.p.pr}};
      for (int a = 0; a < 2; ++a) {
        shape.w.in[a] = c.x[2 + a];
        shape.w.kernel[a] = c.w[2 + a];
        shape.w.stride[a] = a == 0 ? c.p.sh : c.p.sw;
        shape.w.pad_begin[a] = pads[a][0];
        shape.w.pad_end[a] = pads[a][1];
        shape.w.out[a] = want.dims[2 + a];
      }
      const std::vector<float> wv = w.f32(), bv = b.f32();
      std::unique_ptr<PreparedOp> prepared = kernels::PrepareOnednnConv(
          shape, wv.data(), c.bias ? bv.data() : nullptr);
      ASSERT_NE(prepared, nullptr) << what;
      const bool first_layer = kernels::OnednnConvIsFirstLayer(*prepared);
      EXPECT_EQ(first_layer, c.w[0] == block) << what;
      (first_layer ? taken : not_taken) += 1;

      // The numbers through the op, output plain and asked NHWC.
      for (bool nhwc_y : {false, true}) {
        Attrs a = ConvAttrs(c.p);
        a.Str("activation", "Relu");
        const auto run = [&](bool nhwc) {
          std::vector<HostTensor> in = {x, w};
          in.push_back(c.bias ? b : HostTensor::Absent());
          if (residual) in.push_back(nhwc ? ToNhwc(z) : z);
          AgreedLayouts agreed;
          if (nhwc) agreed.outputs = {TensorLayout::kNhwc};
          if (nhwc && residual) {
            agreed.inputs = {{}, {}, {}, TensorLayout::kNhwc};
          }
          return RunKernel("FusedConv", a, in, 1, true, &agreed);
        };
        RunResult r = run(nhwc_y);
        ASSERT_EQ(r.error, "") << what;
        ASSERT_TRUE(r.prepared) << what;
        // The path writes NHWC, so it must offer it; others may (brgconv
        // on AVX-512 does) or not (AVX2's blocked direct kernel).
        if (nhwc_y && first_layer) {
          ASSERT_TRUE(r.agreed) << what;
        }
        const bool nhwc = nhwc_y && r.agreed;
        if (nhwc_y && !r.agreed) r = run(false);
        ASSERT_TRUE(r.agreed) << what;
        ASSERT_EQ(r.outputs[0].shape, want) << what;
        ExpectNear(nhwc ? FromNhwc(r.outputs[0]) : r.outputs[0].f32(), ref,
                   1e-4f);
      }
    }
  }
  // Both outcomes, whichever the block size.
  EXPECT_GT(taken, 0);
  EXPECT_GT(not_taken, 0);
}

// FusedConv with activation Clip (atc's Conv -> Clip, MobileNet's ReLU6) is
// ONNX's Clip of the Conv: max then min, so a NaN stays NaN, a NaN bound
// clamps nothing, min > max gives max; on the own path and on oneDNN's
// (where the emulator clamps after the primitive), with a residual.
TEST(KernelsConv, FusedConvClipIsOnnxClip) {
  const float kInf = std::numeric_limits<float>::infinity();
  const float kNan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::vector<float>> bounds = {
      {0.0f, 6.0f}, {-kInf, 0.25f}, {kNan, 0.5f}, {0.5f, -0.5f}, {-kInf, kInf}};
  ConvParams same;
  same.pt = same.pl = same.pb = same.pr = 1;
  const ConvCase c = {{1, 16, 6, 5}, {16, 16, 3, 3}, same, true};
  uint32_t seed = 9000;
  for (bool prepare : {false, true}) {
    for (bool residual : {false, true}) {
      for (const std::vector<float>& bound : bounds) {
        std::vector<float> xv = RandomFloats(1 * 16 * 6 * 5, seed++);
        xv[37] = kNan;  // NaN through the Conv, then through Clip
        HostTensor x = HostTensor::F32(S(c.x), xv);
        HostTensor w = RandF32(S(c.w), seed++);
        HostTensor b = RandF32(S({c.w[0]}), seed++);
        Shape want;
        std::vector<float> ref = NaiveConv(x, w, &b, c.p, &want);
        HostTensor z = RandF32(want, seed++);
        std::vector<HostTensor> in = {x, w, b};
        if (residual) {
          in.push_back(z);
          for (size_t i = 0; i < ref.size(); ++i) ref[i] += z.f32()[i];
        }
        for (float& v : ref) v = std::min(std::max(v, bound[0]), bound[1]);
        Attrs a = ConvAttrs(c.p);
        a.Str("activation", "Clip").Floats("activation_params", bound);
        RunResult r = RunKernel("FusedConv", a, in, 1, prepare);
        ASSERT_EQ(r.error, "");
        EXPECT_EQ(r.prepared, prepare);
        ExpectNearOrNan(r.outputs[0].f32(), ref,
                        "prepare " + std::to_string(prepare) + " bounds " +
                            std::to_string(bound[0]) + ", " +
                            std::to_string(bound[1]));
      }
    }
  }
  HostTensor x = RandF32(S({1, 2, 4, 4}), 1);
  HostTensor w = RandF32(S({3, 2, 1, 1}), 2);
  EXPECT_NE(RunKernel("FusedConv", Attrs().Str("activation", "Clip"), {x, w})
                .error.find("activation_params"),
            std::string::npos);
  EXPECT_NE(
      RunKernel(
          "FusedConv",
          Attrs().Str("activation", "Clip").Floats("activation_params", {0.0f}),
          {x, w})
          .error.find("activation_params"),
      std::string::npos);
  EXPECT_NE(RunKernel("FusedConv",
                      Attrs()
                          .Str("activation", "Relu")
                          .Floats("activation_params", {0.0f, 6.0f}),
                      {x, w})
                .error.find("activation_params"),
            std::string::npos);
}

// FusedConv's weight scale S (input 4, atc's BatchNorm scale for weights in
// a weight file) is Conv(X, W * S, B): on both paths (oneDNN scales its copy
// of the weights at prepare), depthwise and grouped too, with a residual.
TEST(KernelsConv, FusedConvWeightScaleIsConvWithScaledWeights) {
  ConvParams same;
  same.pt = same.pl = same.pb = same.pr = 1;
  ConvParams dw = same;
  dw.group = 4;
  ConvParams g2;
  g2.group = 2;
  const ConvCase cases[] = {
      {{1, 4, 6, 5}, {6, 4, 3, 3}, same, true},
      {{1, 4, 7, 7}, {4, 1, 3, 3}, dw, true},
      {{2, 4, 5, 5}, {6, 2, 1, 1}, g2, false},
  };
  for (bool prepare : {false, true}) {
    uint32_t seed = 5000;
    for (const ConvCase& c : cases) {
      HostTensor x = RandF32(S(c.x), seed++);
      HostTensor w = RandF32(S(c.w), seed++);
      HostTensor b = RandF32(S({c.w[0]}), seed++);
      HostTensor scale = RandF32(S({c.w[0]}), seed++);
      std::vector<float> scaled = w.f32();
      const size_t row = scaled.size() / static_cast<size_t>(c.w[0]);
      for (size_t i = 0; i < scaled.size(); ++i)
        scaled[i] *= scale.f32()[i / row];
      Shape want;
      std::vector<float> ref = NaiveConv(x, HostTensor::F32(S(c.w), scaled),
                                         c.bias ? &b : nullptr, c.p, &want);
      HostTensor z = RandF32(want, seed++);
      for (size_t i = 0; i < ref.size(); ++i) ref[i] += z.f32()[i];
      std::vector<HostTensor> in = {x, w, c.bias ? b : HostTensor::Absent(), z,
                                    scale};
      RunResult r = RunKernel("FusedConv", ConvAttrs(c.p), in, 1, prepare);
      ASSERT_EQ(r.error, "") << S(c.x).ToString();
      // (Depthwise: prepared where oneDNN has its NHWC kernel, run on the
      // own path unless agreed, conv_onednn.h.)
      if (c.p.group != c.x[1]) {
        EXPECT_EQ(r.prepared, prepare);
      }
      ASSERT_EQ(r.outputs[0].shape, want);
      ExpectNear(r.outputs[0].f32(), ref, 1e-4f);
    }
  }
  HostTensor x = RandF32(S({1, 2, 4, 4}), 1);
  HostTensor w = RandF32(S({3, 2, 1, 1}), 2);
  EXPECT_NE(RunKernel("FusedConv", Attrs(),
                      {x, w, HostTensor::Absent(), HostTensor::Absent(),
                       RandF32(S({2}), 3)})
                .error.find("weight scale [2] must be [3]"),
            std::string::npos);
  // No output channels: an empty result, with or without a prepare step.
  for (bool prepare : {false, true}) {
    RunResult r = RunKernel(
        "FusedConv", Attrs(),
        {x, HostTensor::F32(S({0, 2, 1, 1}), {}), HostTensor::Absent(),
         HostTensor::Absent(), HostTensor::F32(S({0}), {})},
        1, prepare);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.outputs[0].shape.numel(), 0);
  }
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
