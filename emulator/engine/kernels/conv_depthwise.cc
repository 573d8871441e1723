// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The float32 depthwise Conv (one input channel per group: MobileNet's and
// EfficientNet's), which conv.cc runs without a GEMM: each input plane is
// copied with its zero padding into the scratch buffer and every output row
// is a tap loop over it (DepthwiseRow, the taps unrolled for the usual
// windows); 3x3 windows of stride 1 and 2 take vector paths (the
// Depthwise3x3* planes, depthwise_strips.h, depthwise_flat.h,
// depthwise_channels_last.h). Every path is tested against a direct
// convolution loop (NaiveConv, emulator/tests/engine/kernels_test_conv.cc).
#include "conv_depthwise.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "conv_geometry.h"
#include "depthwise_channels_last.h"
#include "depthwise_flat.h"
#include "depthwise_strips.h"
#include "kernel_util.h"
#include "spatial.h"

namespace ascend_emu {
namespace kernels {

// The rows and columns of the zero-padded input plane the window reaches:
// (out - 1) * stride + (kernel - 1) * dilation + 1 per axis.
int64_t PaddedExtent(const Window2D& w, int axis) {
  if (w.out[axis] == 0) return 0;
  return (w.out[axis] - 1) * w.stride[axis] +
         (w.kernel[axis] - 1) * w.dilation[axis] + 1;
}

namespace {

// Copies one input plane into `padded` [PaddedExtent(0), PaddedExtent(1)],
// zeros where the window reaches into the padding.
void PadPlane(const float* in, const Window2D& w, float* padded) {
  const int64_t hp = PaddedExtent(w, 0), wp = PaddedExtent(w, 1);
  for (int64_t r = 0; r < hp; ++r) {
    float* dst = padded + r * wp;
    const int64_t ih = r - w.pad_begin[0];
    if (ih < 0 || ih >= w.in[0]) {
      std::memset(dst, 0, static_cast<size_t>(wp) * sizeof(float));
      continue;
    }
    // Columns [left, right) of the padded row are input columns
    // [left - pad, right - pad); the rest is padding.
    const int64_t left = std::min(wp, w.pad_begin[1]);
    const int64_t right =
        std::max(left, std::min(wp, w.pad_begin[1] + w.in[1]));
    std::memset(dst, 0, static_cast<size_t>(left) * sizeof(float));
    if (right > left) {
      std::memcpy(dst + left, in + ih * w.in[1] + (left - w.pad_begin[1]),
                  static_cast<size_t>(right - left) * sizeof(float));
    }
    std::memset(dst + right, 0,
                static_cast<size_t>(wp - right) * sizeof(float));
  }
}

// PadPlane for planes after the first of one Conv: writes only the input's
// part of `padded`, whose zeros (the same cells for every plane) the first
// plane's PadPlane wrote. On small planes PadPlane's three libc calls per
// row are a visible share of the work (EfficientNet's 5x5 stride-2
// depthwise on 8x8 planes: ~5% of the Conv); a plain loop per row is not.
void CopyPlaneInterior(const float* __restrict__ in, const Window2D& w,
                       float* __restrict__ padded) {
  const int64_t hp = PaddedExtent(w, 0), wp = PaddedExtent(w, 1);
  const int64_t left = std::min(wp, w.pad_begin[1]);
  const int64_t right = std::max(left, std::min(wp, w.pad_begin[1] + w.in[1]));
  const int64_t first = std::max<int64_t>(0, w.pad_begin[0]);
  const int64_t last = std::min(hp, w.pad_begin[0] + w.in[0]);
  for (int64_t r = first; r < last; ++r) {
    const float* src =
        in + (r - w.pad_begin[0]) * w.in[1] + (left - w.pad_begin[1]);
    float* dst = padded + r * wp + left;
    for (int64_t j = 0; j < right - left; ++j) dst[j] = src[j];
  }
}

// One output row from the padded plane: o[ow] = b + sum over taps of
// tap * rows[tap][ow * stride]. KH and KW fixed at compile time unroll the
// taps, so the sum stays in a register and the ow loop vectorizes; 0, 0 is
// the general window, tap by tap over the row.
template <int KH, int KW>
void DepthwiseRow(const float* __restrict__ plane, const float* tap,
                  const Window2D& w, int64_t wp, int64_t oh, float b,
                  float* __restrict__ o) {
  const int64_t ow_n = w.out[1], s = w.stride[1];
  const float* top = plane + oh * w.stride[0] * wp;
  if constexpr (KH > 0) {
    constexpr int kTaps = KH * KW;
    float t[kTaps];
    const float* r[kTaps];
    for (int kh = 0; kh < KH; ++kh) {
      for (int kw = 0; kw < KW; ++kw) {
        t[kh * KW + kw] = tap[kh * KW + kw];
        r[kh * KW + kw] = top + kh * w.dilation[0] * wp + kw * w.dilation[1];
      }
    }
    if (s == 1) {
      for (int64_t ow = 0; ow < ow_n; ++ow) {
        float acc = b;
        for (int i = 0; i < kTaps; ++i) acc += t[i] * r[i][ow];
        o[ow] = acc;
      }
    } else {
      // Strided: tap by tap over the row (the same sums in the same order),
      // as the general window does. With the taps inside the ow loop, GCC
      // vectorized the taps instead, with gathers and an in-order reduction
      // per output: EfficientNet's 5x5 stride 2 ran at 2 GFLOP/s, now 3.3 on
      // 8x8 planes and 8 on 56x56 (docs/emulator-kernels.md). Stride 2 is
      // spelled out: a constant stride vectorizes without gathers.
      for (int64_t ow = 0; ow < ow_n; ++ow) o[ow] = b;
      if (s == 2) {
        for (int i = 0; i < kTaps; ++i) {
          for (int64_t ow = 0; ow < ow_n; ++ow) o[ow] += t[i] * r[i][ow * 2];
        }
      } else {
        for (int i = 0; i < kTaps; ++i) {
          for (int64_t ow = 0; ow < ow_n; ++ow) o[ow] += t[i] * r[i][ow * s];
        }
      }
    }
  } else {
    for (int64_t ow = 0; ow < ow_n; ++ow) o[ow] = b;
    for (int64_t kh = 0; kh < w.kernel[0]; ++kh) {
      for (int64_t kw = 0; kw < w.kernel[1]; ++kw) {
        const float t = tap[kh * w.kernel[1] + kw];
        const float* r = top + kh * w.dilation[0] * wp + kw * w.dilation[1];
        for (int64_t ow = 0; ow < ow_n; ++ow) o[ow] += t * r[ow * s];
      }
    }
  }
}

// The 3x3, stride 1, dilation 1 depthwise plane (MobileNet's), read straight
// from the input without the padded copy (at 32x32 the copy's ~100 small
// memset/memcpy calls per plane cost more than the taps). Rows outside the
// input read `zeros` (W zeros); the columns whose window stays inside the
// row, [c0, c1), are one vectorisable loop over four output rows at a time,
// so each loaded input row feeds up to three of them with the nine taps in
// registers; the few border columns check every tap.
constexpr int64_t kDwBlock = 16;

// Four output rows x kDwBlock columns of the 3x3 window from six input rows;
// a fixed trip count the compiler turns into whole vectors.
inline void Depthwise3x3Block(
    const float* __restrict r0, const float* __restrict r1,
    const float* __restrict r2, const float* __restrict r3,
    const float* __restrict r4, const float* __restrict r5, const float* tap,
    float b, float* __restrict o0, float* __restrict o1, float* __restrict o2,
    float* __restrict o3) {
  const float t0 = tap[0], t1 = tap[1], t2 = tap[2], t3 = tap[3], t4 = tap[4],
              t5 = tap[5], t6 = tap[6], t7 = tap[7], t8 = tap[8];
  // Each output is the bias plus three row sums, added last: three short
  // dependency chains instead of one of nine FMAs (the order differs from
  // the tap-by-tap path by rounding only).
  for (int64_t i = 0; i < kDwBlock; ++i) {
    const float a0 = t0 * r0[i] + t1 * r0[i + 1] + t2 * r0[i + 2];
    const float a1 = t0 * r1[i] + t1 * r1[i + 1] + t2 * r1[i + 2];
    const float a2 = t0 * r2[i] + t1 * r2[i + 1] + t2 * r2[i + 2];
    const float a3 = t0 * r3[i] + t1 * r3[i + 1] + t2 * r3[i + 2];
    const float m1 = t3 * r1[i] + t4 * r1[i + 1] + t5 * r1[i + 2];
    const float m2 = t3 * r2[i] + t4 * r2[i + 1] + t5 * r2[i + 2];
    const float m3 = t3 * r3[i] + t4 * r3[i + 1] + t5 * r3[i + 2];
    const float m4 = t3 * r4[i] + t4 * r4[i + 1] + t5 * r4[i + 2];
    const float z2 = t6 * r2[i] + t7 * r2[i + 1] + t8 * r2[i + 2];
    const float z3 = t6 * r3[i] + t7 * r3[i + 1] + t8 * r3[i + 2];
    const float z4 = t6 * r4[i] + t7 * r4[i + 1] + t8 * r4[i + 2];
    const float z5 = t6 * r5[i] + t7 * r5[i + 1] + t8 * r5[i + 2];
    o0[i] = (b + a0) + (m1 + z2);
    o1[i] = (b + a1) + (m2 + z3);
    o2[i] = (b + a2) + (m3 + z4);
    o3[i] = (b + a3) + (m4 + z5);
  }
}

void Depthwise3x3Plane(const float* __restrict__ x, const float* tap,
                       const Window2D& w, float b, const float* zeros,
                       float* __restrict__ y) {
  const int64_t h = w.in[0], wd = w.in[1], oh_n = w.out[0], ow_n = w.out[1];
  const int64_t ph = w.pad_begin[0], pw = w.pad_begin[1];
  const float t0 = tap[0], t1 = tap[1], t2 = tap[2], t3 = tap[3], t4 = tap[4],
              t5 = tap[5], t6 = tap[6], t7 = tap[7], t8 = tap[8];
  // Output column ow reads input columns ow - pw .. ow - pw + 2.
  const int64_t c0 = std::min(ow_n, pw);
  const int64_t c1 = std::max(c0, std::min(ow_n, wd - 2 + pw));
  auto in_row = [&](int64_t ih) {
    return ih >= 0 && ih < h ? x + ih * wd : zeros;
  };
  // One output row's border columns, every tap checked.
  auto border = [&](const float* r0, const float* r1, const float* r2, float* o,
                    int64_t from, int64_t to) {
    for (int64_t ow = from; ow < to; ++ow) {
      // Taps kw in [lo, hi) stay inside the row.
      const int64_t lo = std::max<int64_t>(0, pw - ow);
      const int64_t hi = std::min<int64_t>(3, wd + pw - ow);
      float acc = b;
      for (int64_t kw = lo; kw < hi; ++kw) {
        const int64_t ic = ow - pw + kw;
        acc += tap[kw] * r0[ic] + tap[3 + kw] * r1[ic] + tap[6 + kw] * r2[ic];
      }
      o[ow] = acc;
    }
  };
  // "Same" padding of one column each side (MobileNet's): the two border
  // columns in straight-line code.
  const bool same = pw == 1 && wd >= 2 && ow_n == wd && c0 == 1 && c1 == wd - 1;
  const int64_t base = c0 - pw;  // input column of (c0, tap 0); >= 0
  const int64_t n = c1 - c0;
  int64_t oh = 0;
  for (; oh + 4 <= oh_n; oh += 4) {
    const float* __restrict__ r0 = in_row(oh - ph) + base;
    const float* __restrict__ r1 = in_row(oh - ph + 1) + base;
    const float* __restrict__ r2 = in_row(oh - ph + 2) + base;
    const float* __restrict__ r3 = in_row(oh - ph + 3) + base;
    const float* __restrict__ r4 = in_row(oh - ph + 4) + base;
    const float* __restrict__ r5 = in_row(oh - ph + 5) + base;
    float* __restrict__ o0 = y + oh * ow_n + c0;
    float* __restrict__ o1 = o0 + ow_n;
    float* __restrict__ o2 = o1 + ow_n;
    float* __restrict__ o3 = o2 + ow_n;
    // Fixed 16-column blocks (one AVX-512 or two AVX2 vectors), the last
    // one shifted left to end at c1: recomputing a few columns is cheaper
    // than a scalar remainder (at W = 32 the interior is 30 columns).
    if (n >= kDwBlock) {
      for (int64_t i = 0;; i += kDwBlock) {
        if (i > n - kDwBlock) i = n - kDwBlock;
        Depthwise3x3Block(r0 + i, r1 + i, r2 + i, r3 + i, r4 + i, r5 + i, tap,
                          b, o0 + i, o1 + i, o2 + i, o3 + i);
        if (i == n - kDwBlock) break;
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        o0[i] = b + t0 * r0[i] + t1 * r0[i + 1] + t2 * r0[i + 2] + t3 * r1[i] +
                t4 * r1[i + 1] + t5 * r1[i + 2] + t6 * r2[i] + t7 * r2[i + 1] +
                t8 * r2[i + 2];
        o1[i] = b + t0 * r1[i] + t1 * r1[i + 1] + t2 * r1[i + 2] + t3 * r2[i] +
                t4 * r2[i + 1] + t5 * r2[i + 2] + t6 * r3[i] + t7 * r3[i + 1] +
                t8 * r3[i + 2];
        o2[i] = b + t0 * r2[i] + t1 * r2[i + 1] + t2 * r2[i + 2] + t3 * r3[i] +
                t4 * r3[i + 1] + t5 * r3[i + 2] + t6 * r4[i] + t7 * r4[i + 1] +
                t8 * r4[i + 2];
        o3[i] = b + t0 * r3[i] + t1 * r3[i + 1] + t2 * r3[i + 2] + t3 * r4[i] +
                t4 * r4[i + 1] + t5 * r4[i + 2] + t6 * r5[i] + t7 * r5[i + 1] +
                t8 * r5[i + 2];
      }
    }
    for (int64_t k = 0; k < 4; ++k) {
      const float* a = in_row(oh + k - ph);
      const float* m = in_row(oh + k - ph + 1);
      const float* z = in_row(oh + k - ph + 2);
      float* o = y + (oh + k) * ow_n;
      if (same) {
        o[0] = b + (tap[1] * a[0] + tap[2] * a[1]) +
               (tap[4] * m[0] + tap[5] * m[1]) +
               (tap[7] * z[0] + tap[8] * z[1]);
        o[wd - 1] = b + (tap[0] * a[wd - 2] + tap[1] * a[wd - 1]) +
                    (tap[3] * m[wd - 2] + tap[4] * m[wd - 1]) +
                    (tap[6] * z[wd - 2] + tap[7] * z[wd - 1]);
      } else {
        border(a, m, z, o, 0, c0);
        border(a, m, z, o, c1, ow_n);
      }
    }
  }
  for (; oh < oh_n; ++oh) {
    const float* a = in_row(oh - ph);
    const float* m = in_row(oh - ph + 1);
    const float* z = in_row(oh - ph + 2);
    float* __restrict__ o = y + oh * ow_n;
    const float* __restrict__ r0 = a + base;
    const float* __restrict__ r1 = m + base;
    const float* __restrict__ r2 = z + base;
    for (int64_t i = 0; i < n; ++i) {
      o[c0 + i] = b + t0 * r0[i] + t1 * r0[i + 1] + t2 * r0[i + 2] +
                  t3 * r1[i] + t4 * r1[i + 1] + t5 * r1[i + 2] + t6 * r2[i] +
                  t7 * r2[i + 1] + t8 * r2[i + 2];
    }
    border(a, m, z, o, 0, c0);
    border(a, m, z, o, c1, ow_n);
  }
}

// "Same" padding (one on every side) and rows of at least kDwBlock: the
// input plane is copied into the middle of `padded`, whose zero border is
// written once per Run and never touched again, in 16-float chunks the
// compiler inlines (the last one shifted, as the blocks below), so every
// output column, borders included, comes from the vector blocks.
bool Depthwise3x3Same(const Window2D& w) {
  return w.pad_begin[0] == 1 && w.pad_begin[1] == 1 && w.pad_end[0] == 1 &&
         w.pad_end[1] == 1 && w.in[1] >= kDwBlock && w.out[1] == w.in[1] &&
         w.out[0] == w.in[0];
}

void CopyIntoPadded(const float* __restrict x, int64_t h, int64_t wd,
                    float* __restrict padded) {
  const int64_t wp = wd + 2;
  for (int64_t ih = 0; ih < h; ++ih) {
    const float* __restrict src = x + ih * wd;
    float* __restrict dst = padded + (ih + 1) * wp + 1;
    for (int64_t j = 0;; j += kDwBlock) {
      if (j > wd - kDwBlock) j = wd - kDwBlock;
      for (int64_t k = 0; k < kDwBlock; ++k) dst[j + k] = src[j + k];
      if (j == wd - kDwBlock) break;
    }
  }
}

void Depthwise3x3SamePlane(const float* tap, int64_t h, int64_t wd, float b,
                           const float* __restrict padded,
                           float* __restrict y) {
  const int64_t wp = wd + 2;
  int64_t oh = 0;
  for (; oh + 4 <= h; oh += 4) {
    const float* r = padded + oh * wp;
    float* o = y + oh * wd;
    for (int64_t i = 0;; i += kDwBlock) {
      if (i > wd - kDwBlock) i = wd - kDwBlock;
      Depthwise3x3Block(r + i, r + wp + i, r + 2 * wp + i, r + 3 * wp + i,
                        r + 4 * wp + i, r + 5 * wp + i, tap, b, o + i,
                        o + wd + i, o + 2 * wd + i, o + 3 * wd + i);
      if (i == wd - kDwBlock) break;
    }
  }
  for (; oh < h; ++oh) {
    const float* __restrict r0 = padded + oh * wp;
    const float* __restrict r1 = r0 + wp;
    const float* __restrict r2 = r1 + wp;
    float* __restrict o = y + oh * wd;
    for (int64_t i = 0; i < wd; ++i) {
      o[i] = b + (tap[0] * r0[i] + tap[1] * r0[i + 1] + tap[2] * r0[i + 2]) +
             (tap[3] * r1[i] + tap[4] * r1[i + 1] + tap[5] * r1[i + 2]) +
             (tap[6] * r2[i] + tap[7] * r2[i + 1] + tap[8] * r2[i + 2]);
    }
  }
}

// 3x3, stride 2, dilation 1, one row and column of padding at the top and
// left (MobileNet's downsampling); depthwise_strips.h checks the rest.
bool Depthwise3x3Stride2(const Window2D& w) {
  return w.kernel[0] == 3 && w.kernel[1] == 3 && w.stride[0] == 2 &&
         w.stride[1] == 2 && w.dilation[0] == 1 && w.dilation[1] == 1 &&
         w.pad_begin[0] == 1 && w.pad_begin[1] == 1;
}

// 3x3, stride 2, dilation 1, no padding at the top and left (TF "same" on an
// even plane: transformers' MobileNetV2, pads 0, 0, 1, 1).
bool Depthwise3x3Stride2Pad0(const Window2D& w) {
  return w.kernel[0] == 3 && w.kernel[1] == 3 && w.stride[0] == 2 &&
         w.stride[1] == 2 && w.dilation[0] == 1 && w.dilation[1] == 1 &&
         w.pad_begin[0] == 0 && w.pad_begin[1] == 0;
}

bool Depthwise3x3Fast(const Window2D& w) {
  return w.kernel[0] == 3 && w.kernel[1] == 3 && w.stride[0] == 1 &&
         w.stride[1] == 1 && w.dilation[0] == 1 && w.dilation[1] == 1 &&
         w.pad_begin[0] >= 0 && w.pad_begin[1] >= 0 && w.in[1] >= 1;
}

}  // namespace

// Whether RunDepthwise runs `w` in its vector strips (depthwise_strips.h:
// 3x3, an output row at least one vector wide), the one own path as fast as
// oneDNN's NHWC kernel with a reorder on each side.
bool DepthwiseStrips(const Window2D& w) {
  return (Depthwise3x3Fast(w) &&
          Depthwise3x3StripsFit(w.in[0], w.in[1], w.pad_begin[0],
                                w.pad_begin[1], w.out[1])) ||
         (Depthwise3x3Stride2(w) &&
          Depthwise3x3Stride2StripsFit(w.in[0], w.in[1], w.out[0], w.out[1])) ||
         (Depthwise3x3Stride2Pad0(w) &&
          Depthwise3x3Stride2Pad0StripsFit(w.in[0], w.in[1], w.out[0],
                                           w.out[1]));
}

namespace {

// y[n, m] = bias[m] + sum over taps of w[m, 0, kh, kw] * x[n, m / (M/C)]
// shifted by the tap; ONNX pads with zeros, so each input plane is first
// copied into the scratch buffer with its padding (one pass, far cheaper
// than the taps), and every output row is then computed without a border
// case.
void RunDepthwise(const float* x, const float* wt, const float* bias,
                  const ConvGeometry& g, float* padded, float* y) {
  const Window2D& w = g.w;
  const int64_t wp = PaddedExtent(w, 1);
  using Row = void (*)(const float*, const float*, const Window2D&, int64_t,
                       int64_t, float, float*);
  Row row = DepthwiseRow<0, 0>;
  if (w.kernel[0] == 3 && w.kernel[1] == 3) row = DepthwiseRow<3, 3>;
  if (w.kernel[0] == 5 && w.kernel[1] == 5) row = DepthwiseRow<5, 5>;
  if (w.kernel[0] == 1 && w.kernel[1] == 3) row = DepthwiseRow<1, 3>;
  if (w.kernel[0] == 1 && w.kernel[1] == 5) row = DepthwiseRow<1, 5>;
  const int64_t taps = w.kernel[0] * w.kernel[1];
  // No output, nothing to write (and the scratch may be smaller than a row).
  if (g.out_plane() == 0) return;
  if (Depthwise3x3Fast(w) &&
      Depthwise3x3StripsFit(w.in[0], w.in[1], w.pad_begin[0], w.pad_begin[1],
                            w.out[1])) {
    // Strips straight from the input (depthwise_strips.h): no copy.
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t m = 0; m < g.m; ++m) {
        Depthwise3x3Strips(x + (n * g.c + m / g.mg()) * g.in_plane(),
                           wt + m * taps, w.in[0], w.in[1], w.pad_begin[0],
                           w.pad_begin[1], w.out[0], w.out[1],
                           bias != nullptr ? bias[m] : 0.0f,
                           y + (n * g.m + m) * g.out_plane());
      }
    }
    return;
  }
  if (Depthwise3x3Stride2(w) &&
      Depthwise3x3Stride2StripsFit(w.in[0], w.in[1], w.out[0], w.out[1])) {
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t m = 0; m < g.m; ++m) {
        Depthwise3x3Stride2Strips(x + (n * g.c + m / g.mg()) * g.in_plane(),
                                  wt + m * taps, w.in[0], w.in[1], w.out[0],
                                  w.out[1], bias != nullptr ? bias[m] : 0.0f,
                                  y + (n * g.m + m) * g.out_plane());
      }
    }
    return;
  }
  if (Depthwise3x3Stride2Pad0(w) &&
      Depthwise3x3Stride2Pad0StripsFit(w.in[0], w.in[1], w.out[0], w.out[1])) {
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t m = 0; m < g.m; ++m) {
        Depthwise3x3Stride2Pad0Strips(
            x + (n * g.c + m / g.mg()) * g.in_plane(), wt + m * taps, w.in[0],
            w.in[1], w.out[0], w.out[1], bias != nullptr ? bias[m] : 0.0f,
            y + (n * g.m + m) * g.out_plane());
      }
    }
    return;
  }
  // Small output planes, channels-last (depthwise_channels_last.h): the
  // planes 4 columns wide or narrower before the flat path too, whose work
  // per plane costs more there (MobileNetV1's [1, 256, 2, 2] 3x3: 5.1 us
  // flat, 3.2 channels-last; [1, 64, 8, 8]: 3.5 flat, 4.4 channels-last).
  DepthwiseChannelsLastShape cl;
  cl.n = g.n, cl.c = g.c, cl.h = w.in[0], cl.w = w.in[1];
  cl.kh = w.kernel[0], cl.kw = w.kernel[1], cl.sh = w.stride[0];
  cl.sw = w.stride[1], cl.dh = w.dilation[0], cl.dw = w.dilation[1];
  cl.pt = w.pad_begin[0], cl.pl = w.pad_begin[1], cl.pb = w.pad_end[0];
  cl.pr = w.pad_end[1], cl.oh = w.out[0], cl.ow = w.out[1];
  const bool channels_last = g.mg() == 1 && DepthwiseChannelsLastFit(cl);
  if (channels_last && w.out[1] <= 4) {
    DepthwiseChannelsLast(x, wt, bias, cl, y);
    return;
  }
  if (w.kernel[0] == w.kernel[1] && w.stride[0] == 1 && w.stride[1] == 1 &&
      w.dilation[0] == 1 && w.dilation[1] == 1) {
    // 5x5, 7x7 (ConvNeXt's) and the 3x3 planes narrower than the strips'
    // vector, up to ~40x40 (depthwise_flat.h).
    DepthwiseFlatShape s;
    s.n = g.n, s.c = g.c, s.m = g.m, s.h = w.in[0], s.w = w.in[1];
    s.k = w.kernel[0], s.pt = w.pad_begin[0], s.pl = w.pad_begin[1];
    s.pb = w.pad_end[0], s.pr = w.pad_end[1], s.oh = w.out[0];
    s.ow = w.out[1];
    if (DepthwiseFlatFit(s)) {
      DepthwiseFlat(x, wt, bias, s, y);
      return;
    }
  }
  if (channels_last) {
    // Small output planes of any other geometry.
    DepthwiseChannelsLast(x, wt, bias, cl, y);
    return;
  }
  if (Depthwise3x3Fast(w) && Depthwise3x3Same(w)) {
    const int64_t h = w.in[0], wd = w.in[1];
    std::fill(padded, padded + (h + 2) * (wd + 2), 0.0f);
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t m = 0; m < g.m; ++m) {
        if (m % g.mg() == 0) {
          CopyIntoPadded(x + (n * g.c + m / g.mg()) * g.in_plane(), h, wd,
                         padded);
        }
        Depthwise3x3SamePlane(wt + m * taps, h, wd,
                              bias != nullptr ? bias[m] : 0.0f, padded,
                              y + (n * g.m + m) * g.out_plane());
      }
    }
    return;
  }
  if (Depthwise3x3Fast(w)) {
    // `padded` holds at least W floats (PaddedExtent(1) >= W here): the
    // zero row for the rows in the padding.
    std::fill(padded, padded + w.in[1], 0.0f);
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t m = 0; m < g.m; ++m) {
        Depthwise3x3Plane(x + (n * g.c + m / g.mg()) * g.in_plane(),
                          wt + m * taps, w, bias != nullptr ? bias[m] : 0.0f,
                          padded, y + (n * g.m + m) * g.out_plane());
      }
    }
    return;
  }
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t m = 0; m < g.m; ++m) {
      // The channel multiplier M/C: output channels m..m+M/C-1 read one
      // input channel, padded once for all of them.
      if (n == 0 && m == 0) {
        PadPlane(x, w, padded);
      } else if (m % g.mg() == 0) {
        CopyPlaneInterior(x + (n * g.c + m / g.mg()) * g.in_plane(), w, padded);
      }
      float* out = y + (n * g.m + m) * g.out_plane();
      const float b = bias != nullptr ? bias[m] : 0.0f;
      for (int64_t oh = 0; oh < w.out[0]; ++oh) {
        row(padded, wt + m * taps, w, wp, oh, b, out + oh * w.out[1]);
      }
    }
  }
}

}  // namespace

int64_t DepthwisePaddedFloats(const Window2D& w) {
  return std::max(PaddedExtent(w, 0) * PaddedExtent(w, 1), w.in[1]);
}

void RunDepthwiseFloat(const float* x, const float* w, const float* bias,
                       const ConvGeometry& g, float* padded, float* y) {
  RunDepthwise(x, w, bias, g, padded, y);
}

}  // namespace kernels
}  // namespace ascend_emu
