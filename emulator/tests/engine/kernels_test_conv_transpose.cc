// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ConvTranspose against a naive scatter oracle (every input pixel adds
// weight * value at stride * i - pad + dilation * k), over groups, strides,
// dilations, pads, output_padding, auto_pad, output_shape, 1-D, fp16, and
// refusals.
#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

struct Params {
  int64_t group = 1;
  std::vector<int64_t> strides{1, 1}, dil{1, 1}, pads{0, 0, 0, 0},
      out_pad{0, 0};
};

// x [N, C, H, W], w [C, M/g, KH, KW] -> y [N, M, OH, OW].
std::vector<float> Oracle(const HostTensor& x, const HostTensor& w,
                          const std::vector<float>* b, const Params& p,
                          Shape* out) {
  const Shape& xs = x.shape;
  const Shape& ws = w.shape;
  const int64_t n = xs.dims[0], c = xs.dims[1], h = xs.dims[2], wd = xs.dims[3];
  const int64_t mg = ws.dims[1], m = mg * p.group, kh = ws.dims[2],
                kw = ws.dims[3];
  const int64_t oh = p.strides[0] * (h - 1) + p.out_pad[0] +
                     (kh - 1) * p.dil[0] + 1 - p.pads[0] - p.pads[2];
  const int64_t ow = p.strides[1] * (wd - 1) + p.out_pad[1] +
                     (kw - 1) * p.dil[1] + 1 - p.pads[1] - p.pads[3];
  *out = S({n, m, oh, ow});
  std::vector<double> y(static_cast<size_t>(n * m * oh * ow), 0.0);
  const std::vector<float> xv = x.f32(), wv = w.f32();
  const int64_t cg = c / p.group;
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ic = 0; ic < c; ++ic)
      for (int64_t iy = 0; iy < h; ++iy)
        for (int64_t ix = 0; ix < wd; ++ix)
          for (int64_t j = 0; j < mg; ++j)
            for (int64_t ky = 0; ky < kh; ++ky)
              for (int64_t kx = 0; kx < kw; ++kx) {
                const int64_t oy =
                    iy * p.strides[0] - p.pads[0] + ky * p.dil[0];
                const int64_t ox =
                    ix * p.strides[1] - p.pads[1] + kx * p.dil[1];
                if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
                const int64_t oc = (ic / cg) * mg + j;
                y[((in * m + oc) * oh + oy) * ow + ox] +=
                    xv[((in * c + ic) * h + iy) * wd + ix] *
                    wv[((ic * mg + j) * kh + ky) * kw + kx];
              }
  std::vector<float> r(y.size());
  for (size_t i = 0; i < y.size(); ++i) {
    r[i] = static_cast<float>(y[i]) +
           (b ? (*b)[(i / static_cast<size_t>(oh * ow)) % m] : 0.0f);
  }
  return r;
}

Attrs ToAttrs(const Params& p) {
  Attrs a;
  a.Int("group", p.group)
      .Ints("strides", p.strides)
      .Ints("dilations", p.dil)
      .Ints("pads", p.pads)
      .Ints("output_padding", p.out_pad);
  return a;
}

TEST(KernelsConvTranspose, AgainstScatterOracle) {
  struct Case {
    Shape x, w;
    Params p;
    bool bias;
  };
  std::vector<Case> cases;
  cases.push_back({S({1, 2, 3, 3}), S({2, 3, 3, 3}), Params(), false});
  Params s2;
  s2.strides = {2, 2};
  s2.pads = {1, 1, 1, 1};
  s2.out_pad = {1, 1};
  cases.push_back({S({2, 3, 4, 5}), S({3, 2, 3, 3}), s2, true});
  Params grp;
  grp.group = 2;
  grp.strides = {2, 1};
  grp.dil = {1, 2};
  grp.pads = {0, 1, 1, 0};
  cases.push_back({S({1, 4, 3, 4}), S({4, 3, 2, 3}), grp, true});
  Params dw;  // depthwise, as torch exports groups == channels
  dw.group = 3;
  dw.strides = {3, 2};
  dw.out_pad = {2, 0};
  cases.push_back({S({2, 3, 2, 3}), S({3, 1, 4, 2}), dw, false});
  uint32_t seed = 40;
  for (const Case& c : cases) {
    const HostTensor x = RandF32(c.x, seed++);
    const HostTensor w = RandF32(c.w, seed++);
    const HostTensor b = RandF32(S({c.w.dims[1] * c.p.group}), seed++);
    std::vector<HostTensor> in = {x, w};
    if (c.bias) in.push_back(b);
    RunResult r = RunKernel("ConvTranspose", ToAttrs(c.p), in);
    ASSERT_EQ(r.error, "");
    const std::vector<float> bv = b.f32();
    Shape want;
    const std::vector<float> y =
        Oracle(x, w, c.bias ? &bv : nullptr, c.p, &want);
    ASSERT_EQ(r.outputs[0].shape, want);
    ExpectNear(r.outputs[0].f32(), y, 1e-4f);
  }
}

TEST(KernelsConvTranspose, OneDimensionalAsHeightOne) {
  const HostTensor x = RandF32(S({2, 2, 5}), 1);
  const HostTensor w = RandF32(S({2, 3, 3}), 2);
  Attrs a;
  a.Ints("strides", {2}).Ints("pads", {1, 0}).Ints("kernel_shape", {3});
  RunResult r = RunKernel("ConvTranspose", a, {x, w});
  ASSERT_EQ(r.error, "");
  HostTensor x4 = x, w4 = w;
  x4.shape = S({2, 2, 1, 5});
  w4.shape = S({2, 3, 1, 3});
  Params p;
  p.strides = {1, 2};
  p.pads = {0, 1, 0, 0};
  Shape want;
  const std::vector<float> y = Oracle(x4, w4, nullptr, p, &want);
  EXPECT_EQ(r.outputs[0].shape, S({2, 3, want.dims[3]}));
  ExpectNear(r.outputs[0].f32(), y, 1e-4f);
}

TEST(KernelsConvTranspose, AutoPadAndOutputShape) {
  const HostTensor x = RandF32(S({1, 1, 3, 3}), 5);
  const HostTensor w = RandF32(S({1, 1, 3, 3}), 6);
  Attrs a;
  a.Str("auto_pad", "SAME_UPPER").Ints("strides", {2, 2});
  RunResult r = RunKernel("ConvTranspose", a, {x, w});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 1, 6, 6}));
  // Full output 7x7, total padding 1: SAME_UPPER drops the last row/col.
  Params p;
  p.strides = {2, 2};
  p.pads = {0, 0, 1, 1};
  Shape want;
  ExpectNear(r.outputs[0].f32(), Oracle(x, w, nullptr, p, &want), 1e-4f);
  Attrs os;
  os.Ints("output_shape", {6, 6}).Ints("strides", {2, 2});
  r = RunKernel("ConvTranspose", os, {x, w});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 1, 6, 6}));
  ExpectNear(r.outputs[0].f32(), Oracle(x, w, nullptr, p, &want), 1e-4f);
}

TEST(KernelsConvTranspose, Float16) {
  const HostTensor x = RandF32(S({1, 2, 3, 3}), 8);
  const HostTensor w = RandF32(S({2, 2, 2, 2}), 9);
  const HostTensor b = RandF32(S({2}), 10);
  auto half = [](const HostTensor& t, std::vector<float>* rounded) {
    std::vector<Eigen::half> v;
    for (float f : t.f32()) {
      v.push_back(Eigen::half(f));
      rounded->push_back(static_cast<float>(v.back()));
    }
    return HostTensor::Of(DType::kFloat16, t.shape, v);
  };
  std::vector<float> xr, wr, br;
  const HostTensor xh = half(x, &xr), wh = half(w, &wr), bh = half(b, &br);
  Params p;
  p.strides = {2, 2};
  RunResult r = RunKernel("ConvTranspose", ToAttrs(p), {xh, wh, bh});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16);
  std::vector<float> got;
  for (Eigen::half h : r.outputs[0].values<Eigen::half>()) {
    got.push_back(static_cast<float>(h));
  }
  Shape want;
  ExpectNear(got,
             Oracle(HostTensor::F32(x.shape, xr), HostTensor::F32(w.shape, wr),
                    &br, p, &want),
             2e-3f);
}

TEST(KernelsConvTranspose, Refusals) {
  const HostTensor x = RandF32(S({1, 4, 3, 3}), 1);
  const HostTensor w = RandF32(S({4, 2, 3, 3}), 2);
  Attrs g3;
  g3.Int("group", 3);
  EXPECT_INFER_FAILS(RunKernel("ConvTranspose", g3, {x, w}), "do not fit");
  EXPECT_INFER_FAILS(
      RunKernel("ConvTranspose", Attrs(), {x, RandF32(S({3, 2, 3, 3}), 1)}),
      "do not fit");
  Attrs op;
  op.Ints("output_padding", {1, 1});
  EXPECT_INFER_FAILS(RunKernel("ConvTranspose", op, {x, w}),
                     "output_padding must be smaller");
  Attrs big;
  big.Ints("pads", {3, 3, 3, 3});
  EXPECT_INFER_FAILS(RunKernel("ConvTranspose", big, {x, w}),
                     "pads exceed the output size");
  Attrs ks;
  ks.Ints("kernel_shape", {2, 2});
  EXPECT_INFER_FAILS(RunKernel("ConvTranspose", ks, {x, w}),
                     "kernel_shape does not match");
  EXPECT_INFER_FAILS(
      RunKernel("ConvTranspose", Attrs(), {x, w, RandF32(S({3}), 1)}),
      "bias [3] must be [2]");
  Attrs both;
  both.Str("auto_pad", "VALID").Ints("pads", {0, 0, 0, 0});
  EXPECT_INFER_FAILS(RunKernel("ConvTranspose", both, {x, w}),
                     "cannot both be set");
  Attrs st;
  st.Ints("strides", {int64_t{1} << 40, int64_t{1} << 40});
  EXPECT_INFER_FAILS(RunKernel("ConvTranspose", st, {x, w}), "too large");
  EXPECT_INFER_FAILS(RunKernel("ConvTranspose", Attrs(),
                               {RandF32(S({1, 4, 2, 2, 2, 2}), 1),
                                RandF32(S({4, 2, 1, 1, 1, 1}), 1)}),
                     "[N, C, D, H, W]");
  EXPECT_INFER_FAILS(
      RunKernel("ConvTranspose", Attrs(),
                {HostTensor::Of(DType::kInt32, x.shape,
                                std::vector<int32_t>(x.shape.numel())),
                 w}),
      "int32");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
