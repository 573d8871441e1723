// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shared by the Conv kernel tests (kernels_test_conv.cc,
// kernels_test_conv_depthwise.cc): the direct convolution they compare with.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {

struct ConvParams {
  int64_t group = 1;
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pl = 0, pb = 0, pr = 0;  // top, left, bottom, right
};

// x [N, C, H, W], w [M, C/g, KH, KW], bias [M] or null.
inline std::vector<float> NaiveConv(const HostTensor& x, const HostTensor& w,
                                    const HostTensor* bias, const ConvParams& p,
                                    Shape* out_shape) {
  const int64_t n = x.shape.dims[0], c = x.shape.dims[1], h = x.shape.dims[2],
                wd = x.shape.dims[3];
  const int64_t m = w.shape.dims[0], kh = w.shape.dims[2], kw = w.shape.dims[3];
  const int64_t cg = c / p.group, mg = m / p.group;
  const int64_t oh = (h + p.pt + p.pb - ((kh - 1) * p.dh + 1)) / p.sh + 1;
  const int64_t ow = (wd + p.pl + p.pr - ((kw - 1) * p.dw + 1)) / p.sw + 1;
  *out_shape = S({n, m, oh, ow});
  std::vector<float> fx = x.f32(), fw = w.f32();
  std::vector<float> fb = bias ? bias->f32() : std::vector<float>();
  std::vector<float> y(static_cast<size_t>(n * m * oh * ow));
  for (int64_t in = 0; in < n; ++in)
    for (int64_t om = 0; om < m; ++om) {
      const int64_t g = om / mg;
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double s = bias ? fb[om] : 0.0;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t a = 0; a < kh; ++a)
              for (int64_t b = 0; b < kw; ++b) {
                const int64_t yy = i * p.sh - p.pt + a * p.dh;
                const int64_t xx = j * p.sw - p.pl + b * p.dw;
                if (yy < 0 || yy >= h || xx < 0 || xx >= wd) continue;
                const int64_t cc = g * cg + ic;
                s += static_cast<double>(
                         fx[((in * c + cc) * h + yy) * wd + xx]) *
                     fw[((om * cg + ic) * kh + a) * kw + b];
              }
          y[((in * m + om) * oh + i) * ow + j] = static_cast<float>(s);
        }
    }
  return y;
}

inline Attrs ConvAttrs(const ConvParams& p) {
  Attrs a;
  if (p.group != 1) a.Int("group", p.group);
  a.Ints("strides", {p.sh, p.sw}).Ints("dilations", {p.dh, p.dw});
  a.Ints("pads", {p.pt, p.pl, p.pb, p.pr});
  return a;
}

// The Conv op on x, w (and b when `bias`) gives shape `want` and values
// `ref` (the direct convolution's).
inline void ExpectConvOpMatches(const ConvParams& p, const HostTensor& x,
                                const HostTensor& w, const HostTensor& b,
                                bool bias, const Shape& want,
                                const std::vector<float>& ref) {
  std::vector<HostTensor> in = {x, w};
  if (bias) in.push_back(b);
  RunResult r = RunKernel("Conv", ConvAttrs(p), in);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].shape, want);
  ExpectNear(r.outputs[0].f32(), ref, 1e-4f);
}

struct ConvCase {
  std::vector<int64_t> x, w;
  ConvParams p;
  bool bias;
};

// Expects got == want where want is a number, NaN where it is NaN.
inline void ExpectNearOrNan(const std::vector<float>& got,
                            const std::vector<float>& want,
                            const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      ASSERT_TRUE(std::isnan(got[i])) << what << " at " << i;
    } else {
      ASSERT_NEAR(got[i], want[i], 1e-4f * std::max(1.0f, std::abs(want[i])))
          << what << " at " << i;
    }
  }
}

}  // namespace testing
}  // namespace ascend_emu
