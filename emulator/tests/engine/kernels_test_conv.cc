// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Conv against a direct 7-loop convolution: groups, depthwise, strides,
// dilations, pads, auto_pad, 1-D, bias, 1x1 fast path.
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
#include "kernels_test_conv_util.h"
#include "kernels_test_util.h"
#include "onednn.h"

namespace ascend_emu {
namespace testing {
namespace {

TEST(KernelsConv, MatchesDirectConvolution) {
  ConvParams g2;
  g2.group = 2;
  ConvParams dw;  // depthwise 3x3, stride 2, pad 1
  dw.group = 4;
  dw.sh = dw.sw = 2;
  dw.pt = dw.pl = dw.pb = dw.pr = 1;
  ConvParams dil;
  dil.dh = 2;
  dil.dw = 3;
  dil.pt = 2;
  dil.pr = 1;
  ConvParams asym;
  asym.sh = 3;
  asym.sw = 1;
  asym.pt = 0;
  asym.pl = 2;
  asym.pb = 1;
  asym.pr = 0;
  ConvParams strided_1x1;
  strided_1x1.sh = strided_1x1.sw = 2;
  ConvParams big_pad;  // pads larger than the kernel: bias-only borders
  big_pad.pt = big_pad.pl = big_pad.pb = big_pad.pr = 3;
  // Depthwise (one input channel per group): the direct path, every window
  // form it must get right.
  ConvParams dw_mult;  // channel multiplier 2, stride 1, pad 1
  dw_mult.group = 3;
  dw_mult.pt = dw_mult.pl = dw_mult.pb = dw_mult.pr = 1;
  ConvParams dw_dil;  // dilations, asymmetric pads, stride 2 across only
  dw_dil.group = 4;
  dw_dil.dh = 2;
  dw_dil.dw = 3;
  dw_dil.sw = 2;
  dw_dil.pt = 2;
  dw_dil.pl = 0;
  dw_dil.pb = 1;
  dw_dil.pr = 3;
  ConvParams dw_big_pad;  // pads past the kernel: bias-only borders
  dw_big_pad.group = 2;
  dw_big_pad.pt = dw_big_pad.pl = dw_big_pad.pb = dw_big_pad.pr = 4;
  ConvParams dw_5x5;
  dw_5x5.group = 8;
  dw_5x5.pt = dw_5x5.pl = dw_5x5.pb = dw_5x5.pr = 2;
  ConvParams dw_1x5;  // a 1-D-like depthwise row
  dw_1x5.group = 6;
  dw_1x5.pl = dw_1x5.pr = 2;
  ConvParams dw_tall;  // stride 3 down, no padding
  dw_tall.group = 2;
  dw_tall.sh = 3;
  // The 3x3 stride-1 depthwise paths (Depthwise3x3Plane): 16-column blocks
  // (the last one shifted), border columns, row blocks of four and the rows
  // left over, rows in the padding, channel multiplier, no padding.
  ConvParams dw3_same;
  dw3_same.group = 3;
  dw3_same.pt = dw3_same.pl = dw3_same.pb = dw3_same.pr = 1;
  ConvParams dw3_asym;  // left 2, right 0, top 0, bottom 2
  dw3_asym.group = 2;
  dw3_asym.pl = 2;
  dw3_asym.pb = 2;
  ConvParams dw3_s2;  // stride 2, pads 1 (MobileNet's downsampling)
  dw3_s2.group = 3;
  dw3_s2.sh = dw3_s2.sw = 2;
  dw3_s2.pt = dw3_s2.pl = dw3_s2.pb = dw3_s2.pr = 1;
  ConvParams dw3_s2_tl;  // stride 2, pads top and left only
  dw3_s2_tl.group = 3;
  dw3_s2_tl.sh = dw3_s2_tl.sw = 2;
  dw3_s2_tl.pt = dw3_s2_tl.pl = 1;
  ConvParams dw3_s2_tf;  // stride 2, pads 0 before, 1 after (TF "same")
  dw3_s2_tf.group = 3;
  dw3_s2_tf.sh = dw3_s2_tf.sw = 2;
  dw3_s2_tf.pb = dw3_s2_tf.pr = 1;
  ConvParams dw3_s2_valid;  // stride 2, no pads (odd planes: col 2 ow real)
  dw3_s2_valid.group = 3;
  dw3_s2_valid.sh = dw3_s2_valid.sw = 2;
  ConvParams dw3_mixed;  // strips with one padding column on one side only
  dw3_mixed.group = 3;
  dw3_mixed.pl = dw3_mixed.pb = 1;
  ConvParams dw3_mixed2;  // bottom past one row: output rows all padding
  dw3_mixed2.group = 3;
  dw3_mixed2.pt = dw3_mixed2.pr = 1;
  dw3_mixed2.pb = 3;
  ConvParams dw3_none;
  dw3_none.group = 2;
  // The general rows, strided (EfficientNet's 5x5 stride 2 after its
  // ZeroPad2d, pads 1 before and 2 after), and stride 3: each later plane
  // reuses the first one's zero border (CopyPlaneInterior).
  ConvParams dw5_s2;
  dw5_s2.group = 3;
  dw5_s2.sh = dw5_s2.sw = 2;
  dw5_s2.pt = dw5_s2.pl = 1;
  dw5_s2.pb = dw5_s2.pr = 2;
  ConvParams dw3_s3;
  dw3_s3.group = 2;
  dw3_s3.sh = dw3_s3.sw = 3;
  dw3_s3.pt = dw3_s3.pl = dw3_s3.pb = dw3_s3.pr = 1;
  const ConvCase cases[] = {
      {{1, 3, 7, 37}, {3, 1, 3, 3}, dw3_same, true},  // 35 interior columns
      // Stride 1, the strips of depthwise_strips.cc (4, 8 or 16 columns by
      // arch): exactly one strip, one more column, the bench's width, a
      // moved inner strip; one and two rows; pads 0 and 1 mixed.
      {{1, 3, 3, 4}, {3, 1, 3, 3}, dw3_same, true},
      {{1, 3, 2, 8}, {3, 1, 3, 3}, dw3_same, true},
      {{2, 3, 1, 16}, {3, 1, 3, 3}, dw3_same, false},
      {{1, 3, 4, 17}, {3, 1, 3, 3}, dw3_same, true},
      {{1, 3, 5, 32}, {6, 1, 3, 3}, dw3_same, true},
      {{1, 3, 3, 43}, {3, 1, 3, 3}, dw3_same, false},
      {{1, 3, 6, 17}, {3, 1, 3, 3}, dw3_mixed, true},
      {{1, 3, 4, 33}, {6, 1, 3, 3}, dw3_mixed2, true},
      {{1, 2, 5, 18}, {2, 1, 3, 3}, dw3_none, true},
      {{1, 2, 3, 10}, {4, 1, 3, 3}, dw3_none, true},
      // Stride 2 strips: one strip (4, 8, 16 output columns), a moved last
      // strip, odd heights (the bottom row's last tap row in the padding),
      // one output row, M/C 2; odd widths take the row path.
      {{1, 3, 5, 8}, {3, 1, 3, 3}, dw3_s2, true},
      {{1, 3, 4, 16}, {6, 1, 3, 3}, dw3_s2, true},
      {{2, 3, 7, 32}, {3, 1, 3, 3}, dw3_s2, false},
      {{1, 3, 2, 42}, {3, 1, 3, 3}, dw3_s2, true},
      {{1, 3, 1, 34}, {3, 1, 3, 3}, dw3_s2, true},
      {{1, 3, 9, 33}, {3, 1, 3, 3}, dw3_s2, true},
      {{1, 3, 6, 40}, {3, 1, 3, 3}, dw3_s2_tl, true},
      {{1, 3, 5, 24}, {3, 1, 3, 3}, dw3_s2_tl, true},
      // Stride 2 pads-0 strips: one strip (8, 16, 32 input columns), one
      // column more than a strip, a moved last strip, odd W (the last
      // strip reads column 2 ow), odd and even H, one output row, M/C 2.
      {{1, 3, 2, 8}, {3, 1, 3, 3}, dw3_s2_tf, true},
      {{1, 3, 4, 16}, {6, 1, 3, 3}, dw3_s2_tf, true},
      {{2, 3, 8, 32}, {3, 1, 3, 3}, dw3_s2_tf, false},
      {{1, 3, 6, 34}, {3, 1, 3, 3}, dw3_s2_tf, true},
      {{1, 3, 10, 42}, {3, 1, 3, 3}, dw3_s2_tf, true},
      {{1, 3, 7, 64}, {3, 1, 3, 3}, dw3_s2_tf, true},
      {{1, 3, 9, 33}, {3, 1, 3, 3}, dw3_s2_valid, true},
      {{1, 3, 5, 35}, {6, 1, 3, 3}, dw3_s2_valid, true},
      {{1, 3, 3, 17}, {3, 1, 3, 3}, dw3_s2_valid, true},
      {{1, 3, 3, 9}, {3, 1, 3, 3}, dw3_s2_valid, true},
      {{2, 3, 9, 18}, {6, 1, 3, 3}, dw3_same, false},  // 16 exactly, M/C 2
      {{1, 3, 5, 5}, {3, 1, 3, 3}, dw3_same, true},    // narrower than a block
      {{1, 2, 6, 21}, {2, 1, 3, 3}, dw3_asym, true},
      {{1, 2, 11, 19}, {2, 1, 3, 3}, dw3_none, true},
      {{1, 3, 2, 1}, {3, 1, 3, 3}, dw3_same, true},  // one column
      {{2, 3, 6, 7}, {6, 1, 3, 3}, dw_mult, true},
      {{1, 4, 11, 13}, {4, 1, 3, 2}, dw_dil, true},
      {{1, 2, 3, 3}, {2, 1, 3, 3}, dw_big_pad, true},
      {{2, 8, 9, 10}, {8, 1, 5, 5}, dw_5x5, false},
      {{2, 3, 8, 8}, {6, 1, 5, 5}, dw5_s2, true},    // M/C 2, batch 2
      {{1, 3, 7, 45}, {3, 1, 5, 5}, dw5_s2, false},  // ow 22: vector + tail
      {{2, 2, 10, 11}, {2, 1, 3, 3}, dw3_s3, true},
      {{1, 2, 10, 4}, {4, 1, 2, 3}, dw_tall, true},
      {{1, 6, 1, 17}, {6, 1, 1, 5}, dw_1x5, true},
      {{1, 1, 5, 5}, {1, 1, 3, 3}, {}, false},
      {{2, 3, 7, 6}, {4, 3, 3, 3}, {}, true},
      {{2, 4, 6, 6}, {6, 2, 3, 2}, g2, true},
      {{1, 4, 9, 8}, {4, 1, 3, 3}, dw, true},
      {{2, 3, 10, 11}, {2, 3, 3, 2}, dil, false},
      {{1, 2, 10, 7}, {3, 2, 2, 3}, asym, true},
      {{2, 8, 5, 4}, {16, 8, 1, 1}, {}, true},  // 1x1: no im2col
      {{2, 8, 5, 4}, {6, 4, 1, 1}, g2, false},  // grouped 1x1
      {{1, 3, 5, 5}, {2, 3, 1, 1}, strided_1x1, true},
      {{1, 2, 4, 4}, {3, 2, 3, 3}, big_pad, true},
      {{3, 16, 14, 14}, {32, 16, 3, 3}, {}, true},
      {{0, 3, 5, 5}, {2, 3, 3, 3}, {}, true},
  };
  // Both paths: the emulator's own (unprepared) and oneDNN's (prepared at
  // load), which takes every case but the empty batch and depthwise ones
  // (those with one channel in and out per group only on agreed NHWC).
  for (bool prepare : {false, true}) {
    uint32_t seed = 1000;
    for (const ConvCase& c : cases) {
      HostTensor x = RandF32(S(c.x), seed++);
      HostTensor w = RandF32(S(c.w), seed++);
      HostTensor b = RandF32(S({c.w[0]}), seed++);
      std::vector<HostTensor> in = {x, w};
      if (c.bias) in.push_back(b);
      RunResult r = RunKernel("Conv", ConvAttrs(c.p), in, 1, prepare);
      ASSERT_EQ(r.error, "") << S(c.x).ToString() << " " << S(c.w).ToString();
      const bool depthwise = c.w[1] == 1 && c.p.group > 1;
      // One channel in and out per group: prepared on oneDNN's NHWC kernel
      // where the CPU has it (AVX-512), run there only when agreed (below).
      const bool dw_nhwc = depthwise && c.w[0] == c.x[1] && c.x[0] != 0;
      if (!dw_nhwc) {
        EXPECT_EQ(r.prepared, prepare && !depthwise && c.x[0] != 0)
            << S(c.x).ToString() << " " << S(c.w).ToString();
      }
      Shape want;
      std::vector<float> ref =
          NaiveConv(x, w, c.bias ? &b : nullptr, c.p, &want);
      ASSERT_EQ(r.outputs[0].shape, want) << S(c.x).ToString();
      ExpectNear(r.outputs[0].f32(), ref, 1e-4f);
      if (dw_nhwc && r.prepared) {
        // Every window form again on oneDNN, x and y agreed NHWC.
        AgreedLayouts agreed;
        agreed.inputs = {TensorLayout::kNhwc};
        agreed.outputs = {TensorLayout::kNhwc};
        in[0] = ToNhwc(x);
        RunResult n = RunKernel("Conv", ConvAttrs(c.p), in, 1, true, &agreed);
        ASSERT_TRUE(n.agreed) << S(c.x).ToString();
        ExpectNear(FromNhwc(n.outputs[0]), ref, 1e-4f);
      }
    }
  }
}

TEST(KernelsConv, DefaultsKernelShapeAndScratchBound) {
  HostTensor x = RandF32(S({1, 3, 5, 6}), 1);
  HostTensor w = RandF32(S({2, 3, 2, 2}), 2);
  Attrs a;
  a.Ints("kernel_shape", {2, 2});
  RunResult r = RunKernel("Conv", a, {x, w});
  ASSERT_EQ(r.error, "");
  Shape want;
  ExpectNear(r.outputs[0].f32(), NaiveConv(x, w, nullptr, {}, &want), 1e-5f);
  EXPECT_EQ(r.outputs[0].shape, want);
  // The larger of im2col's matrix and oneDNN's blocked activations
  // (channels rounded up to 16, two 64-byte aligned buffers).
  EXPECT_EQ(r.scratch_bytes, (16u * 5 * 6 + 16u * 4 * 5) * sizeof(float) + 128);
  EXPECT_GE(r.scratch_bytes, 3u * 2 * 2 * 4 * 5 * sizeof(float));
  // 1x1 needs no im2col, only oneDNN's buffers.
  EXPECT_EQ(InferKernel("Conv", Attrs(), {x, RandF32(S({4, 3, 1, 1}), 3)})
                .scratch_bytes,
            (16u * 5 * 6 * 2) * sizeof(float) + 128);
}

// SAME_UPPER puts the odd pad at the end, SAME_LOWER at the start; VALID
// pads nothing. Each is compared with explicit pads computed here.
TEST(KernelsConv, AutoPadMatchesExplicitPads) {
  struct AutoCase {
    const char* mode;
    int64_t in_h, in_w, k, stride;
    ConvParams explicit_pads;
  };
  auto pads = [](int64_t t, int64_t l, int64_t b, int64_t r, int64_t s) {
    ConvParams p;
    p.pt = t;
    p.pl = l;
    p.pb = b;
    p.pr = r;
    p.sh = p.sw = s;
    return p;
  };
  const AutoCase cases[] = {
      // in 5, k 3, s 1: out 5, total 2 -> 1/1
      {"SAME_UPPER", 5, 5, 3, 1, pads(1, 1, 1, 1, 1)},
      // in 6x7, k 4, s 2: out 3x4, totals 2 and 3
      {"SAME_UPPER", 6, 7, 4, 2, pads(1, 1, 1, 2, 2)},
      {"SAME_LOWER", 6, 7, 4, 2, pads(1, 2, 1, 1, 2)},
      {"SAME_LOWER", 5, 5, 2, 1, pads(1, 1, 0, 0, 1)},
      {"VALID", 6, 7, 3, 2, pads(0, 0, 0, 0, 2)},
  };
  uint32_t seed = 2000;
  for (const AutoCase& c : cases) {
    HostTensor x = RandF32(S({1, 2, c.in_h, c.in_w}), seed++);
    HostTensor w = RandF32(S({3, 2, c.k, c.k}), seed++);
    Attrs a;
    a.Str("auto_pad", c.mode).Ints("strides", {c.stride, c.stride});
    for (bool prepare : {false, true}) {
      RunResult r = RunKernel("Conv", a, {x, w}, 1, prepare);
      ASSERT_EQ(r.error, "") << c.mode;
      EXPECT_EQ(r.prepared, prepare);
      Shape want;
      std::vector<float> ref = NaiveConv(x, w, nullptr, c.explicit_pads, &want);
      ASSERT_EQ(r.outputs[0].shape, want) << c.mode;
      ExpectNear(r.outputs[0].f32(), ref, 1e-5f);
    }
  }
}

TEST(KernelsConv, OneDimensionalConvIsHeightOne) {
  HostTensor x = RandF32(S({2, 4, 9}), 1);
  HostTensor w = RandF32(S({6, 2, 3}), 2);
  HostTensor b = RandF32(S({6}), 3);
  Attrs a;
  a.Int("group", 2)
      .Ints("strides", {2})
      .Ints("pads", {1, 2})
      .Ints("dilations", {2});
  RunResult r = RunKernel("Conv", a, {x, w, b});
  ASSERT_EQ(r.error, "");
  RunResult prepared = RunKernel("Conv", a, {x, w, b}, 1, true);
  ASSERT_EQ(prepared.error, "");
  EXPECT_TRUE(prepared.prepared);
  HostTensor x2 = x, w2 = w;
  x2.shape = S({2, 4, 1, 9});
  w2.shape = S({6, 2, 1, 3});
  ConvParams p;
  p.group = 2;
  p.sw = 2;
  p.pl = 1;
  p.pr = 2;
  p.dw = 2;
  Shape want4;
  std::vector<float> ref = NaiveConv(x2, w2, &b, p, &want4);
  EXPECT_EQ(r.outputs[0].shape, S({2, 6, want4.dims[3]}));
  ExpectNear(r.outputs[0].f32(), ref, 1e-5f);
  ExpectNear(prepared.outputs[0].f32(), ref, 1e-5f);
}

// One prepared Conv run many times, on new buffers each time, by two threads
// at once. A model runs on one thread at a time, but the kernel does not rely
// on it: the objects made at load follow the buffers of each run, and a run
// that finds them in use by another thread makes its own (TSan runs this).
TEST(KernelsConv, PreparedConvFollowsBuffersAndRunsConcurrently) {
  ConvParams p;
  p.pt = p.pl = p.pb = p.pr = 1;
  Attrs a = ConvAttrs(p);
  a.Ints("kernel_shape", {3, 3});
  const HostTensor x = RandF32(S({1, 20, 10, 10}), 1);
  const HostTensor w = RandF32(S({20, 20, 3, 3}), 2);
  const HostTensor b = RandF32(S({20}), 3);
  Shape y_shape;
  const std::vector<float> ref = NaiveConv(x, w, &b, p, &y_shape);
  const RunResult inferred = InferKernel("Conv", a, {x, w, b});
  ASSERT_EQ(inferred.error, "");
  const KernelDef* k = FindKernel("Conv");
  std::vector<HostTensor> host = {x, w, b};
  std::vector<TensorRef> in(3);
  for (size_t i = 0; i < 3; ++i) {
    in[i].dtype = DType::kFloat32;
    in[i].shape = host[i].shape;
    in[i].data = host[i].bytes.data();
  }
  std::vector<TensorRef> out(1);
  out[0].dtype = DType::kFloat32;
  out[0].shape = y_shape;
  std::unique_ptr<PreparedOp> prepared =
      k->prepare(PrepareContext{a.get(), in, out});
  ASSERT_NE(prepared, nullptr);
  const size_t scratch_bytes = (inferred.scratch_bytes + 63) / 64 * 64;
  auto runs = [&](float* max_error) {
    // One scratch per thread, filled with NaNs before every run: the blocked
    // copies' padding (20 channels in blocks of 8 or 16) must not be read from
    // a previous op.
    void* scratch = std::aligned_alloc(64, scratch_bytes);
    for (int i = 0; i < 40; ++i) {
      std::memset(scratch, 0xFF, scratch_bytes);
      // Fresh input and output buffers each run (so the addresses change).
      std::vector<unsigned char> xb = x.bytes;
      std::vector<float> y(ref.size(), -1.0f);
      TensorRef rin[3] = {in[0], in[1], in[2]};
      rin[0].data = xb.data();
      TensorRef rout = out[0];
      rout.data = y.data();
      k->run(RunContext{a.get(), rin, 3, &rout, 1, scratch, prepared.get()});
      for (size_t j = 0; j < y.size(); ++j) {
        const float e = y[j] > ref[j] ? y[j] - ref[j] : ref[j] - y[j];
        if (!(e <= *max_error)) *max_error = e;  // NaN too
      }
    }
    std::free(scratch);
  };
  float error_a = 0.0f, error_b = 0.0f;
  std::thread other(runs, &error_b);
  runs(&error_a);
  other.join();
  EXPECT_LE(error_a, 1e-4f);
  EXPECT_LE(error_b, 1e-4f);
}

TEST(KernelsConv, InferRejections) {
  HostTensor x = RandF32(S({1, 4, 5, 5}), 1);
  HostTensor w = RandF32(S({6, 4, 3, 3}), 2);
  Attrs g3;
  g3.Int("group", 3);
  EXPECT_INFER_FAILS(InferKernel("Conv", g3, {x, RandF32(S({6, 1, 3, 3}), 2)}),
                     "Conv: group 3 does not divide input channels 4");
  Attrs g2;
  g2.Int("group", 2);
  EXPECT_INFER_FAILS(InferKernel("Conv", g2, {x, RandF32(S({5, 2, 3, 3}), 2)}),
                     "Conv: group 2 does not divide output channels 5");
  EXPECT_INFER_FAILS(InferKernel("Conv", g2, {x, w}),
                     "needs 2 input channels per group");
  Attrs g0;
  g0.Int("group", 0);
  EXPECT_INFER_FAILS(InferKernel("Conv", g0, {x, w}), "group 0 must be >= 1");
  EXPECT_INFER_FAILS(InferKernel("Conv", Attrs(), {x, w, RandF32(S({5}), 3)}),
                     "bias [5] must be [6]");
  EXPECT_INFER_FAILS(
      InferKernel("Conv", Attrs(), {RandF32(S({1, 4, 5, 5, 5, 5}), 1), w}),
      "3-D or 4-D");
  EXPECT_INFER_FAILS(
      InferKernel("Conv", Attrs(), {x, RandF32(S({6, 4, 3}), 2)}),
      "must have the rank of input");
  EXPECT_INFER_FAILS(
      InferKernel("Conv", Attrs(), {x, RandF32(S({6, 4, 7, 3}), 2)}),
      "kernel extent 7 exceeds padded input size 5");
  Attrs ks;
  ks.Ints("kernel_shape", {3, 2});
  EXPECT_INFER_FAILS(InferKernel("Conv", ks, {x, w}),
                     "kernel_shape does not match");
  Attrs strides;
  strides.Ints("strides", {1, 0});
  EXPECT_INFER_FAILS(InferKernel("Conv", strides, {x, w}),
                     "strides value 0 is out of range");
  Attrs pads3;
  pads3.Ints("pads", {1, 1, 1});
  EXPECT_INFER_FAILS(InferKernel("Conv", pads3, {x, w}),
                     "pads must have 4 values");
  Attrs neg_pad;
  neg_pad.Ints("pads", {1, -1, 1, 1});
  EXPECT_INFER_FAILS(InferKernel("Conv", neg_pad, {x, w}), "out of range");
  Attrs bad_auto;
  bad_auto.Str("auto_pad", "SAME");
  EXPECT_INFER_FAILS(InferKernel("Conv", bad_auto, {x, w}),
                     "unknown auto_pad 'SAME'");
  Attrs both;
  both.Str("auto_pad", "SAME_UPPER").Ints("pads", {1, 1, 1, 1});
  EXPECT_INFER_FAILS(InferKernel("Conv", both, {x, w}),
                     "pads cannot be set together with auto_pad");
  Attrs huge_dil;
  huge_dil.Ints("dilations", {int64_t{1} << 39, 1});
  EXPECT_INFER_FAILS(InferKernel("Conv", huge_dil, {x, w}), "Conv:");
  EXPECT_INFER_FAILS(
      InferKernel("Conv", Attrs(),
                  {x, HostTensor::I64(S({1, 4, 1, 1}), {1, 2, 3, 4})}),
      "float32 only");
  // A weight big enough that im2col would not fit any machine.
  HostTensor big_x;
  big_x.shape = S({1, 1024, 4096, 4096});
  HostTensor big_w;
  big_w.shape = S({1, 1024, 64, 64});
  Attrs same;
  same.Str("auto_pad", "SAME_UPPER");
  EXPECT_INFER_FAILS(InferKernel("Conv", same, {big_x, big_w}), "too large");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
