// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// 3-D Conv and ConvTranspose ([N, C, D, H, W], CANN's Conv3D and
// Conv3DTranspose) against direct oracles in double: groups, strides,
// dilations, asymmetric pads, output_padding, bias; FusedConv's residual and
// activation on a 3-D Conv; float16 and bfloat16 through float.
#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

constexpr int kAxes = 3;

struct Window {
  int64_t group = 1;
  std::vector<int64_t> strides{1, 1, 1}, dil{1, 1, 1};
  std::vector<int64_t> pads{0, 0, 0, 0, 0, 0};  // begins, then ends
  std::vector<int64_t> out_pad{0, 0, 0};        // ConvTranspose only
};

Attrs ToAttrs(const Window& p, bool transpose) {
  Attrs a;
  a.Int("group", p.group)
      .Ints("strides", p.strides)
      .Ints("dilations", p.dil)
      .Ints("pads", p.pads);
  if (transpose) a.Ints("output_padding", p.out_pad);
  return a;
}

// Flat index of (a, b, d, h, w) in a [A, B, D, H, W] tensor.
int64_t At(const Shape& s, int64_t a, int64_t b, int64_t d, int64_t h,
           int64_t w) {
  return (((a * s.dims[1] + b) * s.dims[2] + d) * s.dims[3] + h) * s.dims[4] +
         w;
}

// Conv: x [N, C, D, H, W], w [M, C/g, kD, kH, kW].
std::vector<float> ConvOracle(const HostTensor& x, const HostTensor& w,
                              const std::vector<float>* b, const Window& p,
                              Shape* out) {
  const Shape& xs = x.shape;
  const Shape& ws = w.shape;
  int64_t o[kAxes];
  for (int i = 0; i < kAxes; ++i) {
    o[i] = (xs.dims[2 + i] + p.pads[i] + p.pads[kAxes + i] -
            ((ws.dims[2 + i] - 1) * p.dil[i] + 1)) /
               p.strides[i] +
           1;
  }
  *out = S({xs.dims[0], ws.dims[0], o[0], o[1], o[2]});
  const std::vector<float> xv = x.f32(), wv = w.f32();
  const int64_t cg = xs.dims[1] / p.group, mg = ws.dims[0] / p.group;
  std::vector<float> y(static_cast<size_t>(out->numel()));
  for (int64_t n = 0; n < xs.dims[0]; ++n)
    for (int64_t m = 0; m < ws.dims[0]; ++m)
      for (int64_t od = 0; od < o[0]; ++od)
        for (int64_t oh = 0; oh < o[1]; ++oh)
          for (int64_t ow = 0; ow < o[2]; ++ow) {
            double sum = b ? (*b)[m] : 0.0;
            for (int64_t ic = 0; ic < cg; ++ic)
              for (int64_t kd = 0; kd < ws.dims[2]; ++kd)
                for (int64_t kh = 0; kh < ws.dims[3]; ++kh)
                  for (int64_t kw = 0; kw < ws.dims[4]; ++kw) {
                    const int64_t id =
                        od * p.strides[0] - p.pads[0] + kd * p.dil[0];
                    const int64_t ih =
                        oh * p.strides[1] - p.pads[1] + kh * p.dil[1];
                    const int64_t iw =
                        ow * p.strides[2] - p.pads[2] + kw * p.dil[2];
                    if (id < 0 || id >= xs.dims[2] || ih < 0 ||
                        ih >= xs.dims[3] || iw < 0 || iw >= xs.dims[4])
                      continue;
                    sum += static_cast<double>(
                               xv[At(xs, n, (m / mg) * cg + ic, id, ih, iw)]) *
                           wv[At(ws, m, ic, kd, kh, kw)];
                  }
            y[At(*out, n, m, od, oh, ow)] = static_cast<float>(sum);
          }
  return y;
}

// ConvTranspose: x [N, C, D, H, W], w [C, M/g, kD, kH, kW]; every input
// voxel adds weight * value at stride * i - pad + dilation * k.
std::vector<float> TransposeOracle(const HostTensor& x, const HostTensor& w,
                                   const std::vector<float>* b, const Window& p,
                                   Shape* out) {
  const Shape& xs = x.shape;
  const Shape& ws = w.shape;
  const int64_t mg = ws.dims[1], m = mg * p.group, cg = xs.dims[1] / p.group;
  int64_t o[kAxes];
  for (int i = 0; i < kAxes; ++i) {
    o[i] = p.strides[i] * (xs.dims[2 + i] - 1) + p.out_pad[i] +
           (ws.dims[2 + i] - 1) * p.dil[i] + 1 - p.pads[i] - p.pads[kAxes + i];
  }
  *out = S({xs.dims[0], m, o[0], o[1], o[2]});
  std::vector<double> y(static_cast<size_t>(out->numel()), 0.0);
  const std::vector<float> xv = x.f32(), wv = w.f32();
  for (int64_t n = 0; n < xs.dims[0]; ++n)
    for (int64_t c = 0; c < xs.dims[1]; ++c)
      for (int64_t id = 0; id < xs.dims[2]; ++id)
        for (int64_t ih = 0; ih < xs.dims[3]; ++ih)
          for (int64_t iw = 0; iw < xs.dims[4]; ++iw)
            for (int64_t j = 0; j < mg; ++j)
              for (int64_t kd = 0; kd < ws.dims[2]; ++kd)
                for (int64_t kh = 0; kh < ws.dims[3]; ++kh)
                  for (int64_t kw = 0; kw < ws.dims[4]; ++kw) {
                    const int64_t od =
                        id * p.strides[0] - p.pads[0] + kd * p.dil[0];
                    const int64_t oh =
                        ih * p.strides[1] - p.pads[1] + kh * p.dil[1];
                    const int64_t ow =
                        iw * p.strides[2] - p.pads[2] + kw * p.dil[2];
                    if (od < 0 || od >= o[0] || oh < 0 || oh >= o[1] ||
                        ow < 0 || ow >= o[2])
                      continue;
                    y[At(*out, n, (c / cg) * mg + j, od, oh, ow)] +=
                        static_cast<double>(xv[At(xs, n, c, id, ih, iw)]) *
                        wv[At(ws, c, j, kd, kh, kw)];
                  }
  std::vector<float> r(y.size());
  const int64_t volume = o[0] * o[1] * o[2];
  for (size_t i = 0; i < y.size(); ++i) {
    r[i] = static_cast<float>(y[i]) +
           (b ? (*b)[(static_cast<int64_t>(i) / volume) % m] : 0.0f);
  }
  return r;
}

struct Case {
  Shape x, w;
  Window p;
  bool bias;
};

TEST(KernelsConv3D, ConvAgainstOracle) {
  Window strided;
  strided.strides = {1, 2, 2};
  strided.pads = {1, 0, 1, 0, 1, 1};
  Window grouped;
  grouped.group = 2;
  grouped.dil = {2, 1, 2};
  grouped.pads = {2, 1, 0, 2, 1, 0};
  const Case cases[] = {
      {S({1, 3, 4, 5, 6}), S({4, 3, 3, 3, 3}), Window(), true},
      {S({2, 2, 5, 6, 7}), S({3, 2, 2, 3, 1}), strided, true},
      {S({1, 4, 6, 5, 6}), S({6, 2, 2, 2, 3}), grouped, false},
      {S({1, 2, 1, 1, 1}), S({5, 2, 1, 1, 1}), Window(), true},  // 1x1x1
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    const HostTensor x = RandF32(c.x, seed++), w = RandF32(c.w, seed++);
    const HostTensor b = RandF32(S({c.w.dims[0]}), seed++);
    std::vector<HostTensor> in = {x, w};
    if (c.bias) in.push_back(b);
    RunResult r = RunKernel("Conv", ToAttrs(c.p, false), in);
    ASSERT_EQ(r.error, "") << c.x.ToString();
    Shape want;
    const std::vector<float> bias = b.f32();
    const std::vector<float> ref =
        ConvOracle(x, w, c.bias ? &bias : nullptr, c.p, &want);
    ASSERT_EQ(r.outputs[0].shape, want) << c.x.ToString();
    ExpectNear(r.outputs[0].f32(), ref, 1e-4f);
  }
}

TEST(KernelsConv3D, FusedConvAddsTheResidualThenTheActivation) {
  const HostTensor x = RandF32(S({1, 2, 3, 4, 4}), 5);
  const HostTensor w = RandF32(S({3, 2, 1, 3, 3}), 6);
  const HostTensor b = RandF32(S({3}), 7);
  Window p;
  p.pads = {0, 1, 1, 0, 1, 1};
  Shape want;
  const std::vector<float> bias = b.f32();
  std::vector<float> ref = ConvOracle(x, w, &bias, p, &want);
  const HostTensor z = RandF32(want, 8);
  const std::vector<float> zv = z.f32();
  for (size_t i = 0; i < ref.size(); ++i)
    ref[i] = std::max(ref[i] + zv[i], 0.f);
  Attrs a = ToAttrs(p, false);
  a.Str("activation", "Relu");
  RunResult r = RunKernel("FusedConv", a, {x, w, b, z});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].shape, want);
  ExpectNear(r.outputs[0].f32(), ref, 1e-4f);
}

TEST(KernelsConv3D, ConvTransposeAgainstOracle) {
  Window up;
  up.strides = {2, 2, 1};
  up.pads = {1, 0, 0, 1, 1, 0};
  up.out_pad = {1, 0, 0};
  Window grouped;
  grouped.group = 2;
  grouped.dil = {1, 2, 1};
  grouped.strides = {1, 1, 3};
  grouped.out_pad = {0, 1, 2};
  const Case cases[] = {
      {S({1, 2, 2, 3, 4}), S({2, 3, 3, 3, 3}), Window(), true},
      {S({2, 3, 3, 2, 3}), S({3, 2, 3, 2, 2}), up, true},
      {S({1, 4, 2, 3, 2}), S({4, 3, 2, 2, 3}), grouped, false},
  };
  uint32_t seed = 20;
  for (const Case& c : cases) {
    const HostTensor x = RandF32(c.x, seed++), w = RandF32(c.w, seed++);
    const int64_t m = c.w.dims[1] * c.p.group;
    const HostTensor b = RandF32(S({m}), seed++);
    std::vector<HostTensor> in = {x, w};
    if (c.bias) in.push_back(b);
    RunResult r = RunKernel("ConvTranspose", ToAttrs(c.p, true), in);
    ASSERT_EQ(r.error, "") << c.x.ToString();
    Shape want;
    const std::vector<float> bias = b.f32();
    const std::vector<float> ref =
        TransposeOracle(x, w, c.bias ? &bias : nullptr, c.p, &want);
    ASSERT_EQ(r.outputs[0].shape, want) << c.x.ToString();
    ExpectNear(r.outputs[0].f32(), ref, 1e-4f);
  }
}

// The 16-bit float inputs rounded, the oracle on the rounded values, the
// result compared after its one rounding (half an ulp of the output).
template <typename T>
void ExpectSixteenBit(DType dtype, const char* op, float tolerance) {
  const bool transpose = std::string(op) == "ConvTranspose";
  const HostTensor x = RandF32(S({1, 2, 3, 4, 3}), 40);
  const HostTensor w =
      RandF32(transpose ? S({2, 3, 2, 2, 2}) : S({3, 2, 2, 2, 2}), 41);
  const HostTensor b = RandF32(S({3}), 42);
  auto narrow = [dtype](const HostTensor& t, std::vector<float>* rounded) {
    std::vector<T> v;
    for (float f : t.f32()) {
      v.push_back(T(f));
      rounded->push_back(static_cast<float>(v.back()));
    }
    return HostTensor::Of(dtype, t.shape, v);
  };
  std::vector<float> xr, wr, br;
  const HostTensor xh = narrow(x, &xr), wh = narrow(w, &wr),
                   bh = narrow(b, &br);
  Window p;
  p.strides = {2, 1, 1};
  RunResult r = RunKernel(op, ToAttrs(p, transpose), {xh, wh, bh});
  ASSERT_EQ(r.error, "") << op;
  ASSERT_EQ(r.outputs[0].dtype, dtype) << op;
  std::vector<float> got;
  for (T h : r.outputs[0].values<T>()) got.push_back(static_cast<float>(h));
  Shape want;
  const HostTensor xf = HostTensor::F32(x.shape, xr);
  const HostTensor wf = HostTensor::F32(w.shape, wr);
  const std::vector<float> ref = transpose
                                     ? TransposeOracle(xf, wf, &br, p, &want)
                                     : ConvOracle(xf, wf, &br, p, &want);
  ASSERT_EQ(r.outputs[0].shape, want) << op;
  ExpectNear(got, ref, tolerance);
}

TEST(KernelsConv3D, Float16AndBFloat16) {
  for (const char* op : {"Conv", "ConvTranspose"}) {
    ExpectSixteenBit<Eigen::half>(DType::kFloat16, op, 4e-3f);
    ExpectSixteenBit<Eigen::bfloat16>(DType::kBFloat16, op, 3e-2f);
  }
}

TEST(KernelsConv3D, Refusals) {
  const HostTensor x = RandF32(S({1, 4, 3, 3, 3}), 1);
  EXPECT_INFER_FAILS(
      RunKernel("Conv", Attrs(), {x, RandF32(S({2, 4, 3, 3}), 2)}),
      "must have the rank of input");
  Attrs g3;
  g3.Int("group", 3);
  EXPECT_INFER_FAILS(RunKernel("Conv", g3, {x, RandF32(S({3, 1, 1, 1, 1}), 2)}),
                     "does not divide input channels");
  Attrs pads;
  pads.Ints("pads", {0, 0, 0, 0});  // 2 spatial axes for a 3-D Conv
  EXPECT_INFER_FAILS(
      RunKernel("Conv", pads, {x, RandF32(S({2, 4, 1, 1, 1}), 2)}), "pads");
  EXPECT_INFER_FAILS(RunKernel("Conv", Attrs(),
                               {RandF32(S({1, 4, 2, 2, 2, 2}), 1),
                                RandF32(S({2, 4, 1, 1, 1, 1}), 2)}),
                     "3-D or 4-D");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
