// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// MaxPool, AveragePool and GlobalAveragePool against naive window loops
// (output sizes computed by the oracle with PyTorch's ceil_mode rule).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_dtypes.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

struct PoolParams {
  int64_t kh = 2, kw = 2, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pl = 0, pb = 0, pr = 0;
  bool ceil = false;
  bool include_pad = false;
};

int64_t OutSize(int64_t in, int64_t k, int64_t s, int64_t d, int64_t p0,
                int64_t p1, bool ceil) {
  const int64_t ext = (k - 1) * d + 1;
  const int64_t num = in + p0 + p1 - ext;
  int64_t out = (ceil ? (num + s - 1) / s : num / s) + 1;
  if (ceil && (out - 1) * s >= in + p0) --out;
  return out;
}

std::vector<float> NaivePool(bool is_max, const HostTensor& x,
                             const PoolParams& p, Shape* out_shape) {
  const int64_t n = x.shape.dims[0], c = x.shape.dims[1], h = x.shape.dims[2],
                w = x.shape.dims[3];
  const int64_t oh = OutSize(h, p.kh, p.sh, p.dh, p.pt, p.pb, p.ceil);
  const int64_t ow = OutSize(w, p.kw, p.sw, p.dw, p.pl, p.pr, p.ceil);
  *out_shape = S({n, c, oh, ow});
  std::vector<float> fx = x.f32();
  std::vector<float> y;
  for (int64_t pl = 0; pl < n * c; ++pl)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        float best = -std::numeric_limits<float>::infinity();
        double sum = 0;
        int64_t inside = 0, padded = 0;
        for (int64_t a = 0; a < p.kh; ++a)
          for (int64_t b = 0; b < p.kw; ++b) {
            const int64_t yy = i * p.sh - p.pt + a * p.dh;
            const int64_t xx = j * p.sw - p.pl + b * p.dw;
            // Taps in the declared padding count for count_include_pad;
            // taps past it (ceil_mode overhang) do not.
            if (yy < h + p.pb && xx < w + p.pr) ++padded;
            if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
            const float v = fx[(pl * h + yy) * w + xx];
            best = std::max(best, v);
            sum += v;
            ++inside;
          }
        y.push_back(is_max ? best
                           : static_cast<float>(
                                 sum / (p.include_pad ? padded : inside)));
      }
  return y;
}

Attrs PoolAttrs(bool is_max, const PoolParams& p) {
  Attrs a;
  a.Ints("kernel_shape", {p.kh, p.kw}).Ints("strides", {p.sh, p.sw});
  a.Ints("pads", {p.pt, p.pl, p.pb, p.pr});
  if (p.ceil) a.Int("ceil_mode", 1);
  if (is_max && (p.dh != 1 || p.dw != 1)) a.Ints("dilations", {p.dh, p.dw});
  if (!is_max) a.Int("count_include_pad", p.include_pad ? 1 : 0);
  return a;
}

std::vector<PoolParams> PoolCases(bool is_max) {
  std::vector<PoolParams> v;
  PoolParams p;
  v.push_back(p);  // 2x2 stride 1
  p.sh = p.sw = 2;
  v.push_back(p);  // 2x2 stride 2
  p.kh = p.kw = 3;
  p.pt = p.pl = p.pb = p.pr = 1;
  v.push_back(p);  // 3x3 s2 p1 (ResNet stem)
  p.ceil = true;
  v.push_back(p);
  p.pt = 0;
  p.pr = 2;
  p.kh = 3;
  p.kw = 4;
  p.sh = 2;
  p.sw = 3;
  v.push_back(p);  // asymmetric
  PoolParams q;
  q.kh = 3;
  q.kw = 2;
  q.sh = 2;
  q.sw = 2;
  q.ceil = true;
  v.push_back(q);  // ceil_mode without pads: partial last windows
  if (is_max) {
    PoolParams d;
    d.kh = d.kw = 3;
    d.dh = 2;
    d.dw = 3;
    d.pt = d.pl = 1;
    d.pb = 2;
    v.push_back(d);
    d.ceil = true;
    d.sh = 2;
    v.push_back(d);
  } else {
    for (size_t i = 0, n = v.size(); i < n; ++i) {
      PoolParams inc = v[i];
      inc.include_pad = true;
      v.push_back(inc);
    }
  }
  return v;
}

void CheckPools(const char* op, bool is_max) {
  uint32_t seed = is_max ? 3000 : 4000;
  const std::vector<std::vector<int64_t>> shapes = {
      {1, 1, 6, 6}, {2, 3, 7, 9}, {1, 2, 8, 5}, {1, 1, 11, 10}};
  for (const PoolParams& p : PoolCases(is_max)) {
    for (const auto& dims : shapes) {
      HostTensor x = RandF32(S(dims), seed++);
      RunResult r = RunKernel(op, PoolAttrs(is_max, p), {x});
      if (dims[2] + p.pt + p.pb < (p.kh - 1) * p.dh + 1 ||
          dims[3] + p.pl + p.pr < (p.kw - 1) * p.dw + 1) {
        EXPECT_INFER_FAILS(r, "exceeds padded input size");
        continue;
      }
      ASSERT_EQ(r.error, "") << op << " k " << p.kh << "x" << p.kw;
      Shape want;
      std::vector<float> ref = NaivePool(is_max, x, p, &want);
      ASSERT_EQ(r.outputs[0].shape, want)
          << op << " k " << p.kh << "x" << p.kw << " ceil " << p.ceil;
      ExpectNear(r.outputs[0].f32(), ref, 1e-5f);
    }
  }
}

TEST(KernelsPool, MaxPoolMatchesNaive) { CheckPools("MaxPool", true); }

// Rows longer than the row-pass buffer (1024 floats) take the tap-by-tap
// path: the ResNet stem case on one.
TEST(KernelsPool, MaxPoolWideRowsMatchNaive) {
  PoolParams p;
  p.kh = p.kw = 3;
  p.sh = p.sw = 2;
  p.pt = p.pl = p.pb = p.pr = 1;
  for (int64_t width : {1024, 1030}) {
    HostTensor x = RandF32(S({1, 2, 5, width}), 77);
    RunResult r = RunKernel("MaxPool", PoolAttrs(true, p), {x});
    ASSERT_EQ(r.error, "");
    Shape want;
    std::vector<float> ref = NaivePool(true, x, p, &want);
    ASSERT_EQ(r.outputs[0].shape, want);
    ExpectNear(r.outputs[0].f32(), ref, 0);
  }
}
TEST(KernelsPool, AveragePoolMatchesNaive) { CheckPools("AveragePool", false); }

TEST(KernelsPool, CeilModeDropsWindowStartingInEndPad) {
  // in 4, k 2, s 2, pad 1/1, ceil: floor gives 3, ceil gives 4 but the
  // 4th window would start at 5 >= 4 + 1, so 3 (as PyTorch).
  HostTensor x = RandF32(S({1, 1, 4, 4}), 1);
  Attrs a;
  a.Ints("kernel_shape", {2, 2})
      .Ints("strides", {2, 2})
      .Ints("pads", {1, 1, 1, 1});
  a.Int("ceil_mode", 1);
  RunResult r = RunKernel("MaxPool", a, {x});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 1, 3, 3}));
  // in 5, k 2, s 2, no pad: floor 2, ceil 3.
  Attrs b;
  b.Ints("kernel_shape", {2, 2}).Ints("strides", {2, 2}).Int("ceil_mode", 1);
  r = RunKernel("AveragePool", b, {RandF32(S({1, 1, 5, 5}), 2)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 1, 3, 3}));
}

TEST(KernelsPool, AutoPadAndOneDimensional) {
  HostTensor x = RandF32(S({1, 2, 7, 6}), 5);
  Attrs a;
  a.Ints("kernel_shape", {3, 3})
      .Ints("strides", {2, 2})
      .Str("auto_pad", "SAME_UPPER");
  RunResult r = RunKernel("MaxPool", a, {x});
  ASSERT_EQ(r.error, "");
  PoolParams p;
  p.kh = p.kw = 3;
  p.sh = p.sw = 2;
  // in 7: out 4, total 2 -> 1/1; in 6: out 3, total 1 -> 0/1.
  p.pt = 1;
  p.pb = 1;
  p.pl = 0;
  p.pr = 1;
  Shape want;
  std::vector<float> ref = NaivePool(true, x, p, &want);
  EXPECT_EQ(r.outputs[0].shape, want);
  ExpectNear(r.outputs[0].f32(), ref, 0);

  a.Str("auto_pad", "SAME_LOWER");
  r = RunKernel("AveragePool", a, {x});
  ASSERT_EQ(r.error, "");
  p.pl = 1;
  p.pr = 0;
  ref = NaivePool(false, x, p, &want);
  EXPECT_EQ(r.outputs[0].shape, want);
  ExpectNear(r.outputs[0].f32(), ref, 1e-6f);

  HostTensor x1 = RandF32(S({2, 3, 10}), 6);
  Attrs one;
  one.Ints("kernel_shape", {3}).Ints("strides", {2}).Ints("pads", {1, 1});
  r = RunKernel("AveragePool", one, {x1});
  ASSERT_EQ(r.error, "");
  HostTensor x4 = x1;
  x4.shape = S({2, 3, 1, 10});
  PoolParams p1;
  p1.kh = 1;
  p1.kw = 3;
  p1.sw = 2;
  p1.pl = p1.pr = 1;
  ref = NaivePool(false, x4, p1, &want);
  EXPECT_EQ(r.outputs[0].shape, S({2, 3, want.dims[3]}));
  ExpectNear(r.outputs[0].f32(), ref, 1e-6f);
}

TEST(KernelsPool, MaxPoolPropagatesNan) {
  HostTensor x =
      HostTensor::F32(S({1, 1, 2, 2}), {1.0f, std::nanf(""), 3.0f, 2.0f});
  Attrs a;
  a.Ints("kernel_shape", {2, 2});
  RunResult r = RunKernel("MaxPool", a, {x});
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(std::isnan(r.outputs[0].f32()[0]));
  // A NaN in a later row of the window, and one in a later column only.
  HostTensor y =
      HostTensor::F32(S({1, 1, 3, 3}), {1, 2, 3, 4, 5, 6, 7, std::nanf(""), 9});
  Attrs b;
  b.Ints("kernel_shape", {2, 2});
  r = RunKernel("MaxPool", b, {y});
  ASSERT_EQ(r.error, "");
  const std::vector<float> got = r.outputs[0].f32();
  EXPECT_FALSE(std::isnan(got[0]));
  EXPECT_FALSE(std::isnan(got[1]));
  EXPECT_TRUE(std::isnan(got[2]));
  EXPECT_TRUE(std::isnan(got[3]));
}

TEST(KernelsPool, InferRejections) {
  HostTensor x = RandF32(S({1, 2, 5, 5}), 1);
  EXPECT_INFER_FAILS(InferKernel("MaxPool", Attrs(), {x}),
                     "MaxPool: kernel_shape is required");
  Attrs k1;
  k1.Ints("kernel_shape", {3});
  EXPECT_INFER_FAILS(InferKernel("AveragePool", k1, {x}),
                     "AveragePool: kernel_shape must have 2 values");
  Attrs big_pad;
  big_pad.Ints("kernel_shape", {2, 2}).Ints("pads", {2, 0, 0, 0});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", big_pad, {x}),
                     "pads must be smaller than the kernel");
  Attrs too_big;
  too_big.Ints("kernel_shape", {6, 2});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", too_big, {x}),
                     "exceeds padded input");
  Attrs order;
  order.Ints("kernel_shape", {2, 2}).Int("storage_order", 1);
  EXPECT_INFER_FAILS(InferKernel("MaxPool", order, {x}),
                     "storage_order must be 0");
  Attrs k2;
  k2.Ints("kernel_shape", {2, 2});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", k2, {x}, 2),
                     "MaxPool: produces 1 output(s), the node asks for 2");
  Attrs dil;
  dil.Ints("kernel_shape", {2, 2}).Ints("dilations", {2, 2});
  EXPECT_INFER_FAILS(InferKernel("AveragePool", dil, {x}),
                     "unsupported attribute 'dilations'");
  Attrs ceil_valid;
  ceil_valid.Ints("kernel_shape", {2, 2})
      .Int("ceil_mode", 1)
      .Str("auto_pad", "VALID");
  EXPECT_INFER_FAILS(InferKernel("MaxPool", ceil_valid, {x}),
                     "ceil_mode requires auto_pad NOTSET");
  Attrs cip;
  cip.Ints("kernel_shape", {2, 2}).Int("count_include_pad", 2);
  EXPECT_INFER_FAILS(InferKernel("AveragePool", cip, {x}), "count_include_pad");
  EXPECT_INFER_FAILS(InferKernel("MaxPool", k2, {RandF32(S({2, 5, 5}), 1)}),
                     "kernel_shape must have 1 values");
  EXPECT_INFER_FAILS(InferKernel("MaxPool", k2, {RandF32(S({5, 5}), 1)}),
                     "3-D, 4-D or 5-D");
  EXPECT_INFER_FAILS(
      InferKernel("MaxPool", k2, {HostTensor::I64(S({1, 1, 1, 1}), {1})}),
      "float32 only");
}

TEST(KernelsPool, GlobalAveragePool) {
  for (const auto& dims : std::vector<std::vector<int64_t>>{{2, 3, 4, 5},
                                                            {1, 1, 1, 1},
                                                            {2, 4, 7},
                                                            {1, 2, 2, 3, 4},
                                                            {2, 3, 1, 4, 1},
                                                            {0, 3, 2, 2}}) {
    HostTensor x = RandF32(S(dims), 7);
    RunResult r = RunKernel("GlobalAveragePool", Attrs(), {x});
    ASSERT_EQ(r.error, "");
    Shape want = S(dims);
    for (int32_t i = 2; i < want.rank; ++i) want.dims[i] = 1;
    ASSERT_EQ(r.outputs[0].shape, want);
    const int64_t planes = dims[0] * dims[1];
    const int64_t plane = planes ? S(dims).numel() / planes : 0;
    std::vector<float> fx = x.f32(), ref;
    for (int64_t p = 0; p < planes; ++p) {
      double s = 0;
      for (int64_t i = 0; i < plane; ++i) s += fx[p * plane + i];
      ref.push_back(static_cast<float>(s / plane));
    }
    ExpectNear(r.outputs[0].f32(), ref, 1e-6f);
  }
  EXPECT_INFER_FAILS(
      InferKernel("GlobalAveragePool", Attrs(), {RandF32(S({2, 3}), 1)}),
      "GlobalAveragePool: input must be [N, C, spatial...]");
}

// 3-D pooling: per axis (depth, height, width) kernel, stride, dilation,
// begin/end pads.
struct Pool3Params {
  int64_t k[3] = {2, 2, 2}, s[3] = {1, 1, 1}, d[3] = {1, 1, 1};
  int64_t pb[3] = {0, 0, 0}, pe[3] = {0, 0, 0};
  bool ceil = false;
  bool include_pad = false;
};

std::vector<float> NaivePool3(bool is_max, const HostTensor& x,
                              const Pool3Params& p, Shape* out_shape) {
  const int64_t planes = x.shape.dims[0] * x.shape.dims[1];
  int64_t in[3], out[3];
  for (int a = 0; a < 3; ++a) {
    in[a] = x.shape.dims[2 + a];
    out[a] = OutSize(in[a], p.k[a], p.s[a], p.d[a], p.pb[a], p.pe[a], p.ceil);
  }
  *out_shape = S({x.shape.dims[0], x.shape.dims[1], out[0], out[1], out[2]});
  std::vector<float> fx = x.f32();
  std::vector<float> y;
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t i = 0; i < out[0]; ++i)
      for (int64_t j = 0; j < out[1]; ++j)
        for (int64_t l = 0; l < out[2]; ++l) {
          float best = -std::numeric_limits<float>::infinity();
          double sum = 0;
          int64_t inside = 0, padded = 0;
          for (int64_t a = 0; a < p.k[0]; ++a)
            for (int64_t b = 0; b < p.k[1]; ++b)
              for (int64_t c = 0; c < p.k[2]; ++c) {
                const int64_t z = i * p.s[0] - p.pb[0] + a * p.d[0];
                const int64_t yy = j * p.s[1] - p.pb[1] + b * p.d[1];
                const int64_t xx = l * p.s[2] - p.pb[2] + c * p.d[2];
                if (z < in[0] + p.pe[0] && yy < in[1] + p.pe[1] &&
                    xx < in[2] + p.pe[2]) {
                  ++padded;
                }
                if (z < 0 || z >= in[0] || yy < 0 || yy >= in[1] || xx < 0 ||
                    xx >= in[2]) {
                  continue;
                }
                const float v =
                    fx[((pl * in[0] + z) * in[1] + yy) * in[2] + xx];
                best = std::max(best, v);
                sum += v;
                ++inside;
              }
          y.push_back(is_max ? best
                             : static_cast<float>(
                                   sum / (p.include_pad ? padded : inside)));
        }
  return y;
}

Attrs Pool3Attrs(bool is_max, const Pool3Params& p) {
  Attrs a;
  a.Ints("kernel_shape", {p.k[0], p.k[1], p.k[2]});
  a.Ints("strides", {p.s[0], p.s[1], p.s[2]});
  a.Ints("pads", {p.pb[0], p.pb[1], p.pb[2], p.pe[0], p.pe[1], p.pe[2]});
  if (p.ceil) a.Int("ceil_mode", 1);
  if (is_max) a.Ints("dilations", {p.d[0], p.d[1], p.d[2]});
  if (!is_max) a.Int("count_include_pad", p.include_pad ? 1 : 0);
  return a;
}

std::vector<Pool3Params> Pool3Cases(bool is_max) {
  std::vector<Pool3Params> v;
  Pool3Params p;
  v.push_back(p);  // 2x2x2 stride 1
  p.s[0] = p.s[1] = p.s[2] = 2;
  v.push_back(p);  // 2x2x2 stride 2
  Pool3Params q;
  q.k[0] = q.k[1] = q.k[2] = 3;
  q.s[0] = q.s[1] = q.s[2] = 2;
  q.pb[0] = q.pb[1] = q.pb[2] = q.pe[0] = q.pe[1] = q.pe[2] = 1;
  v.push_back(q);  // 3x3x3 s2 p1
  q.ceil = true;
  v.push_back(q);
  Pool3Params r;  // anisotropic, asymmetric pads, ceil_mode
  r.k[0] = 1;
  r.k[1] = 3;
  r.k[2] = 2;
  r.s[0] = 1;
  r.s[1] = 2;
  r.s[2] = 3;
  r.pb[1] = 1;
  r.pe[2] = 1;
  r.ceil = true;
  v.push_back(r);
  Pool3Params c;  // ceil_mode without pads: partial last windows
  c.k[0] = 2;
  c.k[1] = 3;
  c.k[2] = 2;
  c.s[0] = c.s[1] = c.s[2] = 2;
  c.ceil = true;
  v.push_back(c);
  if (is_max) {
    Pool3Params d;
    d.k[0] = d.k[1] = d.k[2] = 2;
    d.d[0] = 2;
    d.d[1] = 1;
    d.d[2] = 3;
    d.pb[0] = 1;
    d.pe[2] = 2;
    v.push_back(d);
    d.ceil = true;
    d.s[0] = d.s[2] = 2;
    v.push_back(d);
  } else {
    for (size_t i = 0, n = v.size(); i < n; ++i) {
      Pool3Params inc = v[i];
      inc.include_pad = true;
      v.push_back(inc);
    }
  }
  return v;
}

void CheckPools3D(const char* op, bool is_max) {
  uint32_t seed = is_max ? 5000 : 6000;
  const std::vector<std::vector<int64_t>> shapes = {
      {1, 1, 4, 4, 4}, {2, 3, 5, 6, 7}, {1, 2, 7, 5, 6}, {1, 1, 3, 9, 8}};
  int checked = 0;
  for (const Pool3Params& p : Pool3Cases(is_max)) {
    for (const auto& dims : shapes) {
      HostTensor x = RandF32(S(dims), seed++);
      RunResult r = RunKernel(op, Pool3Attrs(is_max, p), {x});
      bool fits = true;
      for (int a = 0; a < 3; ++a) {
        fits = fits &&
               dims[2 + a] + p.pb[a] + p.pe[a] >= (p.k[a] - 1) * p.d[a] + 1;
      }
      if (!fits) {
        EXPECT_INFER_FAILS(r, "exceeds padded input size");
        continue;
      }
      ASSERT_EQ(r.error, "") << op << " case " << checked;
      Shape want;
      std::vector<float> ref = NaivePool3(is_max, x, p, &want);
      ASSERT_EQ(r.outputs[0].shape, want) << op << " ceil " << p.ceil;
      ExpectNear(r.outputs[0].f32(), ref, 1e-5f);
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

TEST(KernelsPool, MaxPool3DMatchesNaive) { CheckPools3D("MaxPool", true); }
TEST(KernelsPool, AveragePool3DMatchesNaive) {
  CheckPools3D("AveragePool", false);
}

TEST(KernelsPool, Pool3DAutoPadAndCeilDrop) {
  // SAME_UPPER: in 5/6/7, k 3, s 2 -> out 3/3/4, totals 2/1/2 -> pads
  // (1,1) (0,1) (1,1).
  HostTensor x = RandF32(S({1, 2, 5, 6, 7}), 9);
  Attrs a;
  a.Ints("kernel_shape", {3, 3, 3})
      .Ints("strides", {2, 2, 2})
      .Str("auto_pad", "SAME_UPPER");
  RunResult r = RunKernel("AveragePool", a, {x});
  ASSERT_EQ(r.error, "");
  Pool3Params p;
  for (int i = 0; i < 3; ++i) {
    p.k[i] = 3;
    p.s[i] = 2;
  }
  p.pb[0] = p.pe[0] = 1;
  p.pe[1] = 1;
  p.pb[2] = p.pe[2] = 1;
  Shape want;
  std::vector<float> ref = NaivePool3(false, x, p, &want);
  EXPECT_EQ(r.outputs[0].shape, want);
  ExpectNear(r.outputs[0].f32(), ref, 1e-6f);
  // ceil_mode: in 4, k 2, s 2, pads 1/1: the 4th window would start in the
  // end pad, so 3 per axis (PyTorch's rule).
  Attrs c;
  c.Ints("kernel_shape", {2, 2, 2})
      .Ints("strides", {2, 2, 2})
      .Ints("pads", {1, 1, 1, 1, 1, 1})
      .Int("ceil_mode", 1);
  r = RunKernel("MaxPool", c, {RandF32(S({1, 1, 4, 4, 4}), 3)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 1, 3, 3, 3}));
}

TEST(KernelsPool, Pool3DInferRejections) {
  HostTensor x = RandF32(S({1, 2, 4, 5, 5}), 1);
  Attrs k2;
  k2.Ints("kernel_shape", {2, 2});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", k2, {x}),
                     "MaxPool: kernel_shape must have 3 values");
  Attrs k3;
  k3.Ints("kernel_shape", {2, 2, 2});
  EXPECT_INFER_FAILS(
      InferKernel("AveragePool", k3, {RandF32(S({1, 1, 2, 2, 2, 2}), 1)}),
      "3-D, 4-D or 5-D");
  Attrs pads4 = k3;
  pads4.Ints("pads", {0, 0, 0, 0});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", pads4, {x}),
                     "pads must have 6 values");
  Attrs strides2 = k3;
  strides2.Ints("strides", {1, 1});
  EXPECT_INFER_FAILS(InferKernel("AveragePool", strides2, {x}),
                     "strides must have 3 values");
  Attrs dil2 = k3;
  dil2.Ints("dilations", {1, 1});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", dil2, {x}),
                     "dilations must have 3 values");
  EXPECT_INFER_FAILS(InferKernel("AveragePool", dil2, {x}),
                     "unsupported attribute 'dilations'");
  Attrs zero_stride = k3;
  zero_stride.Ints("strides", {1, 0, 1});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", zero_stride, {x}),
                     "strides value 0 is out of range");
  Attrs big_pad = k3;
  big_pad.Ints("pads", {0, 0, 0, 2, 0, 0});
  EXPECT_INFER_FAILS(InferKernel("AveragePool", big_pad, {x}),
                     "pads must be smaller than the kernel");
  Attrs deep;
  deep.Ints("kernel_shape", {5, 2, 2});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", deep, {x}),
                     "exceeds padded input size");
  Attrs k0;
  k0.Ints("kernel_shape", {2, 0, 2});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", k0, {x}),
                     "kernel_shape value 0 is out of range");
  Attrs huge_dil = k3;
  huge_dil.Ints("dilations", {int64_t{1} << 40, 1, 1});
  EXPECT_INFER_FAILS(InferKernel("MaxPool", huge_dil, {x}), "MaxPool:");
  EXPECT_INFER_FAILS(
      InferKernel("MaxPool", k3, {RandF32(S({1, 2, 0, 5, 5}), 1)}),
      "input spatial dims must be >= 1");
  Attrs ceil_same = k3;
  ceil_same.Int("ceil_mode", 1).Str("auto_pad", "SAME_UPPER");
  EXPECT_INFER_FAILS(InferKernel("AveragePool", ceil_same, {x}),
                     "ceil_mode requires auto_pad NOTSET");
}

// Equal bit for bit, or both NaN.
void ExpectSameFloats(const std::vector<float>& got,
                      const std::vector<float>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i;
    } else {
      EXPECT_EQ(got[i], want[i]) << what << " at " << i;
    }
  }
}

// A 2-D MaxPool whose input is agreed NHWC (pool.cc's channel-innermost
// path: vector blocks of channels, windows side by side, single channels
// for the rest), writing NHWC or NCHW, against the naive loops and against
// the NCHW path (NaN included). Channel counts hit every block size of each
// arch (4, 8 and 16 lanes, four vectors at once, odd rests).
TEST(KernelsPool, MaxPoolNhwcMatchesNaive) {
  const std::vector<std::vector<int64_t>> shapes = {
      {1, 1, 6, 6},  {2, 3, 7, 9},  {1, 16, 8, 5},  {1, 20, 11, 10},
      {2, 37, 9, 9}, {1, 70, 5, 6}, {1, 16, 32, 32}};
  uint32_t seed = 5000;
  for (const PoolParams& p : PoolCases(true)) {
    for (const auto& dims : shapes) {
      HostTensor x = RandF32(S(dims), seed++);
      if (dims[2] + p.pt + p.pb < (p.kh - 1) * p.dh + 1 ||
          dims[3] + p.pl + p.pr < (p.kw - 1) * p.dw + 1) {
        continue;  // refused by Infer (CheckPools)
      }
      const std::string what =
          S(dims).ToString() + " k " + std::to_string(p.kh) + "x" +
          std::to_string(p.kw) + " s " + std::to_string(p.sw) + " ceil " +
          std::to_string(p.ceil);
      Shape want;
      const std::vector<float> naive = NaivePool(true, x, p, &want);
      // The same input with NaNs in it: they must win in every window.
      std::vector<float> v = x.f32();
      for (size_t i = 3; i < v.size(); i += 17) v[i] = std::nanf("");
      const HostTensor xn = HostTensor::F32(x.shape, v);
      const RunResult plain_nan =
          RunKernel("MaxPool", PoolAttrs(true, p), {xn});
      ASSERT_EQ(plain_nan.error, "") << what;
      for (bool nhwc_y : {false, true}) {
        const AgreedLayouts agreed{
            {TensorLayout::kNhwc},
            {nhwc_y ? TensorLayout::kNhwc : TensorLayout::kPlain}};
        RunResult r = RunKernel("MaxPool", PoolAttrs(true, p), {ToNhwc(x)}, 1,
                                true, &agreed);
        ASSERT_EQ(r.error, "") << what;
        ASSERT_TRUE(r.agreed) << what;
        ASSERT_EQ(r.outputs[0].shape, want) << what;
        ExpectSameFloats(nhwc_y ? FromNhwc(r.outputs[0]) : r.outputs[0].f32(),
                         naive, what + " nhwc_y " + std::to_string(nhwc_y));
        r = RunKernel("MaxPool", PoolAttrs(true, p), {ToNhwc(xn)}, 1, true,
                      &agreed);
        ASSERT_TRUE(r.agreed) << what;
        ExpectSameFloats(nhwc_y ? FromNhwc(r.outputs[0]) : r.outputs[0].f32(),
                         plain_nan.outputs[0].f32(),
                         what + " NaN nhwc_y " + std::to_string(nhwc_y));
      }
    }
  }
}

// Windows whose every tap lies in the padding (dilation 5 over one column):
// -inf, on both paths; and auto_pad on the NHWC path.
TEST(KernelsPool, MaxPoolNhwcPaddingOnlyWindowsAndAutoPad) {
  Attrs a;
  a.Ints("kernel_shape", {1, 2})
      .Ints("dilations", {1, 5})
      .Ints("pads", {0, 3, 0, 3});
  const HostTensor x = RandF32(S({1, 21, 1, 1}), 9);
  const RunResult plain = RunKernel("MaxPool", a, {x});
  ASSERT_EQ(plain.error, "");
  ASSERT_EQ(plain.outputs[0].shape, S({1, 21, 1, 2}));
  for (float v : plain.outputs[0].f32()) EXPECT_EQ(v, -INFINITY);
  const AgreedLayouts agreed{{TensorLayout::kNhwc}, {TensorLayout::kNhwc}};
  RunResult r = RunKernel("MaxPool", a, {ToNhwc(x)}, 1, true, &agreed);
  ASSERT_TRUE(r.agreed);
  ExpectSameFloats(FromNhwc(r.outputs[0]), plain.outputs[0].f32(), "pads");

  Attrs same;
  same.Ints("kernel_shape", {3, 3})
      .Ints("strides", {2, 2})
      .Str("auto_pad", "SAME_UPPER");
  const HostTensor y = RandF32(S({2, 19, 7, 12}), 10);
  const RunResult ref = RunKernel("MaxPool", same, {y});
  ASSERT_EQ(ref.error, "");
  r = RunKernel("MaxPool", same, {ToNhwc(y)}, 1, true, &agreed);
  ASSERT_TRUE(r.agreed);
  ExpectSameFloats(FromNhwc(r.outputs[0]), ref.outputs[0].f32(), "same");
}

// GlobalAveragePool of an agreed NHWC input: the same double sums in the
// same order as the NCHW path, so the same floats; channel counts around
// its block of 64. float16 pools make no prepared op (the NHWC paths are
// float32 only; a float16 Conv offers no NHWC either).
TEST(KernelsPool, GlobalAveragePoolNhwcMatchesPlain) {
  const std::vector<std::vector<int64_t>> shapes = {
      {1, 1, 1, 1}, {2, 5, 3, 7}, {1, 64, 2, 2}, {1, 70, 7, 7}, {2, 130, 4, 3}};
  uint32_t seed = 6000;
  const AgreedLayouts agreed{{TensorLayout::kNhwc}, {}};
  for (const auto& dims : shapes) {
    const HostTensor x = RandF32(S(dims), seed++);
    const RunResult plain = RunKernel("GlobalAveragePool", Attrs(), {x});
    ASSERT_EQ(plain.error, "");
    const RunResult r =
        RunKernel("GlobalAveragePool", Attrs(), {ToNhwc(x)}, 1, true, &agreed);
    ASSERT_EQ(r.error, "");
    ASSERT_TRUE(r.agreed) << S(dims).ToString();
    EXPECT_EQ(r.outputs[0].shape, plain.outputs[0].shape);
    ExpectSameFloats(r.outputs[0].f32(), plain.outputs[0].f32(),
                     S(dims).ToString());
  }
  const HostTensor h = F16(S({1, 3, 4, 4}), RandF32(S({1, 3, 4, 4}), 1).f32());
  EXPECT_FALSE(RunKernel("GlobalAveragePool", Attrs(), {h}, 1, true).prepared);
  Attrs k2;
  k2.Ints("kernel_shape", {2, 2});
  EXPECT_FALSE(RunKernel("MaxPool", k2, {h}, 1, true).prepared);
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
