// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The depthwise Conv kernels (depthwise_flat.cc, depthwise_strips.cc,
// depthwise_channels_last.cc, oneDNN's NHWC kernel) against the direct
// convolution.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "conv_onednn.h"
#include "depthwise_channels_last.h"
#include "depthwise_flat.h"
#include "kernels_test_conv_util.h"
#include "kernels_test_util.h"
#include "onednn.h"

namespace ascend_emu {
namespace testing {
namespace {

// Depthwise 3x3, 5x5 and 7x7, stride 1 (depthwise_flat.cc): every case must
// take the flat path (DepthwiseFlatFit), through the Conv op and called
// directly, and match the direct convolution. Planes from 1x1 to the buffer's
// limit, widths below, at and past a vector (4, 8, 16 lanes), flat lengths that
// end in 1 to 4 vectors, pads k/2, 0, asymmetric either way, past the kernel
// (bias-only rows), channel multiplier 2, batch 2, no bias.
TEST(KernelsConv, DepthwiseFlatMatchesDirectConvolution) {
  struct FlatCase {
    int64_t n, c, mult, h, w, k, pt, pl, pb, pr;
    bool bias;
  };
  const FlatCase cases[] = {
      {1, 3, 1, 16, 16, 7, 3, 3, 3, 3, true},  // ConvNeXt's stage 1
      {1, 2, 1, 8, 8, 7, 3, 3, 3, 3, true},
      {1, 2, 1, 4, 4, 7, 3, 3, 3, 3, true},
      {1, 2, 1, 2, 2, 7, 3, 3, 3, 3, true},
      {1, 2, 1, 1, 1, 7, 3, 3, 3, 3, false},
      {2, 3, 1, 13, 11, 7, 3, 3, 3, 3, true},
      {1, 2, 2, 17, 5, 7, 3, 3, 3, 3, true},  // M/C 2
      {1, 2, 1, 23, 29, 7, 3, 3, 3, 3, true},
      {1, 1, 1, 40, 40, 7, 3, 3, 3, 3, true},  // near the buffer's limit
      {1, 2, 1, 9, 12, 7, 0, 0, 0, 0, true},
      {1, 2, 1, 10, 9, 7, 1, 3, 5, 0, true},  // left pad > right
      {1, 2, 1, 6, 7, 7, 0, 0, 4, 6, true},   // right pad > left
      {1, 2, 1, 3, 3, 7, 8, 8, 8, 8, true},   // pads past the kernel
      {1, 3, 1, 16, 16, 5, 2, 2, 2, 2, true},
      {2, 2, 2, 7, 19, 5, 2, 2, 2, 2, false},
      {1, 2, 1, 5, 6, 5, 0, 1, 2, 3, true},
      {1, 2, 1, 12, 12, 5, 0, 0, 0, 0, true},
      // 3x3 planes the strips leave (narrower than their vector, pads 2).
      {1, 3, 1, 8, 8, 3, 1, 1, 1, 1, true},
      {2, 2, 2, 4, 4, 3, 1, 1, 1, 1, true},
      {1, 2, 1, 2, 2, 3, 1, 1, 1, 1, false},
      {1, 2, 1, 5, 7, 3, 0, 1, 2, 0, true},
      {1, 2, 1, 9, 3, 3, 0, 0, 0, 0, true},
      {1, 2, 1, 11, 21, 3, 2, 2, 2, 2, true},
  };
  uint32_t seed = 5000;
  for (const FlatCase& f : cases) {
    const int64_t m = f.c * f.mult;
    ConvParams p;
    p.group = f.c;
    p.pt = f.pt, p.pl = f.pl, p.pb = f.pb, p.pr = f.pr;
    const std::vector<int64_t> xs = {f.n, f.c, f.h, f.w}, ws = {m, 1, f.k, f.k};
    SCOPED_TRACE(S(xs).ToString() + " k " + std::to_string(f.k) + " pads " +
                 std::to_string(f.pt) + std::to_string(f.pl) +
                 std::to_string(f.pb) + std::to_string(f.pr));
    HostTensor x = RandF32(S(xs), seed++);
    HostTensor w = RandF32(S(ws), seed++);
    HostTensor b = RandF32(S({m}), seed++);
    Shape want;
    const std::vector<float> ref =
        NaiveConv(x, w, f.bias ? &b : nullptr, p, &want);
    kernels::DepthwiseFlatShape s;
    s.n = f.n, s.c = f.c, s.m = m, s.h = f.h, s.w = f.w, s.k = f.k;
    s.pt = f.pt, s.pl = f.pl, s.pb = f.pb, s.pr = f.pr;
    s.oh = want.dims[2], s.ow = want.dims[3];
#if defined(__GNUC__)
    EXPECT_TRUE(kernels::DepthwiseFlatFit(s));
#endif
    if (kernels::DepthwiseFlatFit(s)) {
      std::vector<float> y(ref.size(), -1.0f);
      kernels::DepthwiseFlat(x.f32().data(), w.f32().data(),
                             f.bias ? b.f32().data() : nullptr, s, y.data());
      ExpectNear(y, ref, 1e-4f);
    }
    ExpectConvOpMatches(p, x, w, b, f.bias, want, ref);
  }
  // Not the flat path's: a plane past its buffer, 9x9 (stride 2 and
  // dilation are the caller's to keep out); a wrong ow is refused.
  kernels::DepthwiseFlatShape big;
  big.n = 1, big.c = big.m = 1, big.h = big.w = 48, big.k = 7;
  big.pt = big.pl = big.pb = big.pr = 3;
  big.oh = big.ow = 48;
  EXPECT_FALSE(kernels::DepthwiseFlatFit(big));
  kernels::DepthwiseFlatShape k9 = big;
  k9.h = k9.w = 8, k9.k = 9, k9.pt = k9.pl = k9.pb = k9.pr = 4;
  k9.oh = k9.ow = 8;
  EXPECT_FALSE(kernels::DepthwiseFlatFit(k9));
  kernels::DepthwiseFlatShape bad_ow = big;
  bad_ow.h = bad_ow.w = 8, bad_ow.oh = 8, bad_ow.ow = 7;
  EXPECT_FALSE(kernels::DepthwiseFlatFit(bad_ow));
  // The 48x48 plane still comes out right (conv.cc's row path).
  ConvParams p7;
  p7.group = 1;
  p7.pt = p7.pl = p7.pb = p7.pr = 3;
  HostTensor x = RandF32(S({1, 2, 48, 48}), seed++);
  HostTensor w = RandF32(S({2, 1, 7, 7}), seed++);
  p7.group = 2;
  Shape want;
  const std::vector<float> ref = NaiveConv(x, w, nullptr, p7, &want);
  RunResult r = RunKernel("Conv", ConvAttrs(p7), {x, w});
  ASSERT_EQ(r.error, "");
  ExpectNear(r.outputs[0].f32(), ref, 1e-4f);
}

// Depthwise on small output planes, channels-last
// (depthwise_channels_last.cc): every case must take that path
// (DepthwiseChannelsLastFit), called directly, and match the direct
// convolution, and so must the Conv op. EfficientNet's 5x5 stride 2 with
// its pads 1/2, several channel blocks with a partial last one, a 1x1
// output, MobileNetV2's narrow 3x3 stride 2 with TF pads, dilations,
// stride 3 and a 3x5 kernel, pads past the kernel, a window that never
// reaches the last rows, 7x7 stride 2 with 70 channels, 1x1 stride 2,
// batch 2, no bias.
// Depthwise Convs of random geometry against the direct convolution, so that
// every path of RunDepthwise (strips, flat, channels-last, rows) and their
// choice meet shapes no hand-written case names: 8 to 40 channels (the
// channels-last path needs 8), channel multiplier 1 or 2, planes 1 to 20,
// kernels 1 to 7 (square or not), strides 1 to 3, dilations 1 or 2, pads
// 0 to 3 each side, batch 1 or 2. RunKernel's guard zones catch writes past
// the output and the scratch.
TEST(KernelsConv, DepthwiseRandomGeometriesMatchDirectConvolution) {
  std::mt19937 gen(2026);
  auto pick = [&gen](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(gen);
  };
  int ran = 0;
  for (int iter = 0; iter < 300; ++iter) {
    ConvParams p;
    const int64_t n = pick(1, 2), c = pick(8, 40),
                  mult = pick(1, 4) == 1 ? 2 : 1;
    const int64_t h = pick(1, 20), w = pick(1, 20);
    const int64_t kh = pick(1, 7), kw = pick(0, 2) == 0 ? pick(1, 7) : kh;
    p.group = c;
    p.sh = pick(1, 3), p.sw = pick(0, 2) == 0 ? pick(1, 3) : p.sh;
    p.dh = pick(1, 2), p.dw = pick(1, 2);
    p.pt = pick(0, 3), p.pl = pick(0, 3), p.pb = pick(0, 3), p.pr = pick(0, 3);
    if (h + p.pt + p.pb < (kh - 1) * p.dh + 1 ||
        w + p.pl + p.pr < (kw - 1) * p.dw + 1) {
      continue;  // no output: Infer refuses it (tested elsewhere)
    }
    const std::vector<int64_t> xs = {n, c, h, w}, ws = {c * mult, 1, kh, kw};
    SCOPED_TRACE("iteration " + std::to_string(iter) + ": x " +
                 S(xs).ToString() + " w " + S(ws).ToString());
    HostTensor x = RandF32(S(xs), static_cast<uint32_t>(3 * iter));
    HostTensor wt = RandF32(S(ws), static_cast<uint32_t>(3 * iter + 1));
    HostTensor b = RandF32(S({c * mult}), static_cast<uint32_t>(3 * iter + 2));
    const bool bias = pick(0, 3) != 0;
    Shape want;
    const std::vector<float> ref =
        NaiveConv(x, wt, bias ? &b : nullptr, p, &want);
    ExpectConvOpMatches(p, x, wt, b, bias, want, ref);
    ++ran;
  }
  EXPECT_GT(ran, 200);
}

TEST(KernelsConv, DepthwiseChannelsLastMatchesDirectConvolution) {
  struct Case {
    int64_t n, c, h, w, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr;
    bool bias;
  };
  const Case cases[] = {
      {1, 48, 8, 8, 5, 5, 2, 2, 1, 1, 1, 1, 2, 2, true},
      {2, 200, 8, 8, 5, 5, 2, 2, 1, 1, 1, 1, 2, 2, true},
      {1, 192, 5, 5, 5, 5, 2, 2, 1, 1, 0, 0, 0, 0, true},
      {1, 96, 16, 16, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, true},
      {1, 24, 7, 9, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, false},
      {1, 16, 12, 12, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, true},
      {2, 13, 10, 17, 3, 5, 3, 2, 1, 1, 0, 2, 1, 0, true},
      {1, 8, 3, 3, 3, 3, 2, 2, 1, 1, 4, 4, 4, 4, true},
      {1, 9, 9, 9, 2, 2, 3, 3, 1, 1, 0, 0, 0, 0, true},
      {1, 70, 14, 14, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3, true},
      {1, 32, 9, 9, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, true},
  };
  uint32_t seed = 7000;
  for (const Case& f : cases) {
    ConvParams p;
    p.group = f.c;
    p.sh = f.sh, p.sw = f.sw, p.dh = f.dh, p.dw = f.dw;
    p.pt = f.pt, p.pl = f.pl, p.pb = f.pb, p.pr = f.pr;
    const std::vector<int64_t> xs = {f.n, f.c, f.h, f.w};
    const std::vector<int64_t> ws = {f.c, 1, f.kh, f.kw};
    SCOPED_TRACE(S(xs).ToString() + " w " + S(ws).ToString() + " strides " +
                 std::to_string(f.sh) + std::to_string(f.sw) + " dilations " +
                 std::to_string(f.dh) + std::to_string(f.dw));
    HostTensor x = RandF32(S(xs), seed++);
    HostTensor w = RandF32(S(ws), seed++);
    HostTensor b = RandF32(S({f.c}), seed++);
    Shape want;
    const std::vector<float> ref =
        NaiveConv(x, w, f.bias ? &b : nullptr, p, &want);
    kernels::DepthwiseChannelsLastShape s;
    s.n = f.n, s.c = f.c, s.h = f.h, s.w = f.w, s.kh = f.kh, s.kw = f.kw;
    s.sh = f.sh, s.sw = f.sw, s.dh = f.dh, s.dw = f.dw;
    s.pt = f.pt, s.pl = f.pl, s.pb = f.pb, s.pr = f.pr;
    s.oh = want.dims[2], s.ow = want.dims[3];
#if defined(__GNUC__)
    EXPECT_TRUE(kernels::DepthwiseChannelsLastFit(s));
#endif
    if (kernels::DepthwiseChannelsLastFit(s)) {
      std::vector<float> y(ref.size(), -1.0f);
      kernels::DepthwiseChannelsLast(x.f32().data(), w.f32().data(),
                                     f.bias ? b.f32().data() : nullptr, s,
                                     y.data());
      ExpectNear(y, ref, 1e-4f);
    }
    ExpectConvOpMatches(p, x, w, b, f.bias, want, ref);
  }
  // Not taken: an output 17 wide, 7 channels, an output extent that does
  // not follow from the rest.
  kernels::DepthwiseChannelsLastShape wide;
  wide.n = 1, wide.c = 16, wide.h = wide.w = 34, wide.kh = wide.kw = 3;
  wide.sh = wide.sw = 2, wide.pt = wide.pl = wide.pb = wide.pr = 1;
  wide.oh = wide.ow = 17;
  EXPECT_FALSE(kernels::DepthwiseChannelsLastFit(wide));
  kernels::DepthwiseChannelsLastShape few = wide;
  few.h = few.w = 16, few.oh = few.ow = 8, few.c = 7;
  EXPECT_FALSE(kernels::DepthwiseChannelsLastFit(few));
  kernels::DepthwiseChannelsLastShape bad_ow = few;
  bad_ow.c = 16, bad_ow.ow = 7;
  EXPECT_FALSE(kernels::DepthwiseChannelsLastFit(bad_ow));
#if defined(__GNUC__)
  bad_ow.ow = 8;  // the same, consistent: taken
  EXPECT_TRUE(kernels::DepthwiseChannelsLastFit(bad_ow));
#endif
}

// Depthwise Convs (one channel in and out per group) prepared on oneDNN's
// NHWC kernel: against the naive loops with x and y agreed NHWC, either one,
// or neither (the run then takes the emulator's own NCHW path), with Clip
// and a residual; channel counts off the 16-lane block, MobileNetV2's TF
// padding (0, 0, 1, 1) at stride 2, odd planes.
TEST(KernelsConv, DepthwiseOnNhwcMatchesDirectConvolution) {
  ConvParams tf2;
  tf2.group = 24;
  tf2.sh = tf2.sw = 2;
  tf2.pb = tf2.pr = 1;
  ConvParams same;
  same.group = 16;
  same.pt = same.pl = same.pb = same.pr = 1;
  ConvParams odd;
  odd.group = 5;
  odd.pt = 1;
  odd.pl = 2;
  odd.pb = 0;
  odd.pr = 1;
  odd.sw = 2;
  const ConvCase cases[] = {
      {{1, 24, 9, 8}, {24, 1, 3, 3}, tf2, true},
      {{2, 16, 5, 7}, {16, 1, 3, 3}, same, true},
      {{1, 5, 6, 7}, {5, 1, 3, 3}, odd, false},
      // Wide enough for the own strips: unagreed, the run falls back to them.
      {{1, 16, 6, 37}, {16, 1, 3, 3}, same, true},
  };
  uint32_t seed = 9500;
  for (const ConvCase& c : cases) {
    // Which of x, y and the residual z are agreed NHWC (each on its own: a
    // residual agreed NHWC alone must not send the run to the NCHW path).
    for (int sides = 0; sides < 8; ++sides) {
      const bool nhwc_x = sides & 1, nhwc_y = sides & 2, nhwc_z = sides & 4;
      for (bool residual : {false, true}) {
        if (nhwc_z && !residual) continue;
        HostTensor x = RandF32(S(c.x), seed++);
        HostTensor w = RandF32(S(c.w), seed++);
        HostTensor b = RandF32(S({c.w[0]}), seed++);
        Shape want;
        std::vector<float> ref =
            NaiveConv(x, w, c.bias ? &b : nullptr, c.p, &want);
        HostTensor z = RandF32(want, seed++);
        std::vector<HostTensor> in = {nhwc_x ? ToNhwc(x) : x, w};
        in.push_back(c.bias ? b : HostTensor::Absent());
        AgreedLayouts agreed;
        agreed.inputs = {nhwc_x ? TensorLayout::kNhwc : TensorLayout::kPlain};
        if (nhwc_y) agreed.outputs = {TensorLayout::kNhwc};
        if (residual) {
          in.push_back(nhwc_z ? ToNhwc(z) : z);
          agreed.inputs.resize(4, TensorLayout::kPlain);
          if (nhwc_z) agreed.inputs[3] = TensorLayout::kNhwc;
          for (size_t i = 0; i < ref.size(); ++i) ref[i] += z.f32()[i];
        }
        for (float& v : ref) v = std::min(std::max(v, 0.0f), 0.5f);
        Attrs a = ConvAttrs(c.p);
        a.Str("activation", "Clip").Floats("activation_params", {0.0f, 0.5f});
        const std::string what =
            S(c.x).ToString() + " nhwc x " + std::to_string(nhwc_x) + " y " +
            std::to_string(nhwc_y) + " z " + std::to_string(nhwc_z) +
            " residual " + std::to_string(residual);
        RunResult r = RunKernel("FusedConv", a, in, 1, true, &agreed);
        ASSERT_EQ(r.error, "") << what;
        if (r.prepared) {
          ASSERT_TRUE(r.agreed) << what;
          ASSERT_EQ(r.outputs[0].shape, want);
          ExpectNearOrNan(nhwc_y ? FromNhwc(r.outputs[0]) : r.outputs[0].f32(),
                          ref, what);
          continue;
        }
        // oneDNN's NHWC depthwise (brdgmm) is an AVX-512 kernel: elsewhere
        // (AVX2) the op is not prepared, nothing is agreed and the own NCHW
        // path runs, on plain tensors.
        EXPECT_LT(kernels::OnednnFloatLanes(), 16) << what;
        in[0] = x;
        if (residual) in[3] = z;
        r = RunKernel("FusedConv", a, in, 1, true);
        ASSERT_EQ(r.error, "") << what;
        ASSERT_EQ(r.outputs[0].shape, want);
        ExpectNearOrNan(r.outputs[0].f32(), ref, what);
      }
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
