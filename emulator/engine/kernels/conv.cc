// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Conv (1-D and 2-D, ONNX semantics: group, pads, strides, dilations,
// auto_pad, optional bias), float32 (float16 via half_via_float.h). Each
// (image, group) is one GEMM: W_g [M/g, C/g*kH*kW] x im2col(X_g) [C/g*kH*kW,
// oH*oW], with the im2col matrix in the scratch buffer Infer sized. 1x1
// convolutions with unit stride and no padding skip im2col: X_g already is that
// matrix. Depthwise convolutions (one input channel per group, MobileNet's and
// EfficientNet's) are no GEMM worth the name (a 1 x kH*kW row times the
// im2col matrix, per channel): they run directly over the input plane
// (RunDepthwise; 3x3 stride 1 and 2 in vector strips, depthwise_strips.h),
// other windows over a copy with its zero padding in the scratch buffer.
//
// Those are the paths without preparation (atc's constant folding, float16
// through half_via_float.h). A float32 Conv of a loaded model runs on oneDNN
// (conv_onednn.h), prepared once at load by PrepareConv: 4-10x faster at
// ResNet's shapes (docs/emulator-kernels.md).
//
// FusedConv is what atc makes of Conv -> [Mul] -> [Add] -> Relu|Clip chains
// (docs/atc.md): Conv's inputs and attributes, then an optional residual Z
// (input 3, shaped like Y), an optional per-output-channel weight scale S
// (input 4, [M]: a BatchNorm scale atc could not fold into weights held in a
// weight file) and activation "Relu", "Clip" (with activation_params
// [min, max], ONNX Clip's bounds; -inf / inf for an absent one) or none:
// Y = act(Conv(X, W * S, B) + Z); without S, onnxruntime's com.microsoft
// FusedConv.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "conv_geometry.h"
#include "conv_int8.h"
#include "conv_onednn.h"
#include "depthwise_channels_last.h"
#include "depthwise_flat.h"
#include "depthwise_strips.h"
#include "eigen_maps.h"
#include "half_via_float.h"
#include "kernel_util.h"
#include "ops.h"
#include "spatial.h"

namespace ascend_emu {
namespace kernels {

// Validates everything and fills `g`; shared by Infer and Run so Run
// recomputes the same geometry from the same (already validated) inputs.
std::string GetConvGeometry(const char* op, const Attributes& attrs,
                            const TensorRef* inputs, size_t num_inputs,
                            ConvGeometry* g) {
  const Shape& x = inputs[0].shape;
  const Shape& wt = inputs[1].shape;
  if (x.rank != 3 && x.rank != 4) {
    return Fail(
        op, "input must be 3-D or 4-D (1-D or 2-D conv), got " + x.ToString());
  }
  if (wt.rank != x.rank) {
    return Fail(op, "weight " + wt.ToString() +
                        " must have the rank of input " + x.ToString());
  }
  g->n = x.dims[0];
  g->c = x.dims[1];
  g->m = wt.dims[0];
  g->group = AttrInt(attrs, "group", 1);
  if (g->group < 1) {
    return Fail(op, "group " + std::to_string(g->group) + " must be >= 1");
  }
  if (g->c < 1) return Fail(op, "input must have at least one channel");
  if (g->c % g->group != 0) {
    return Fail(op, "group " + std::to_string(g->group) +
                        " does not divide input channels " +
                        std::to_string(g->c));
  }
  if (g->m % g->group != 0) {
    return Fail(op, "group " + std::to_string(g->group) +
                        " does not divide output channels " +
                        std::to_string(g->m));
  }
  if (wt.dims[1] != g->cg()) {
    return Fail(op, "weight " + wt.ToString() + " needs " +
                        std::to_string(g->cg()) +
                        " input channels per group, input " + x.ToString() +
                        " with group " + std::to_string(g->group));
  }
  const int32_t spatial = x.rank - 2;
  const IntsView ks = AttrInts(attrs, "kernel_shape");
  if (ks.present) {
    bool same = ks.size == static_cast<size_t>(spatial);
    for (int32_t i = 0; same && i < spatial; ++i)
      same = ks[i] == wt.dims[2 + i];
    if (!same) {
      return Fail(op, "kernel_shape does not match weight " + wt.ToString());
    }
  }
  if (num_inputs >= 3 && inputs[2].present()) {
    const Shape& b = inputs[2].shape;
    if (b.rank != 1 || b.dims[0] != g->m) {
      return Fail(op, "bias " + b.ToString() + " must be [" +
                          std::to_string(g->m) + "]");
    }
  }
  WindowOptions opts;
  opts.allow_dilations = true;
  return ResolveWindow(op, attrs, spatial, &x.dims[2], &wt.dims[2], opts,
                       &g->w);
}

namespace {

constexpr const char* kOp = "Conv";
constexpr const char* kFusedOp = "FusedConv";

// Fills col [cg*kH*kW, oH*oW] (row-major) from the channels of one group of
// one image; taps that fall in the padding are 0.
void Im2Col(const float* x, const ConvGeometry& g, float* col) {
  const Window2D& w = g.w;
  const int64_t oh_n = w.out[0];
  const int64_t ow_n = w.out[1];
  for (int64_t c = 0; c < g.cg(); ++c) {
    const float* plane = x + c * g.in_plane();
    for (int64_t kh = 0; kh < w.kernel[0]; ++kh) {
      for (int64_t kw = 0; kw < w.kernel[1]; ++kw) {
        float* row = col;
        col += oh_n * ow_n;
        const int64_t dh = kh * w.dilation[0] - w.pad_begin[0];
        const int64_t dw = kw * w.dilation[1] - w.pad_begin[1];
        for (int64_t oh = 0; oh < oh_n; ++oh) {
          float* out = row + oh * ow_n;
          const int64_t ih = oh * w.stride[0] + dh;
          if (ih < 0 || ih >= w.in[0]) {
            std::memset(out, 0, static_cast<size_t>(ow_n) * sizeof(float));
            continue;
          }
          const float* in_row = plane + ih * w.in[1];
          for (int64_t ow = 0; ow < ow_n; ++ow) {
            const int64_t iw = ow * w.stride[1] + dw;
            out[ow] = (iw >= 0 && iw < w.in[1]) ? in_row[iw] : 0.0f;
          }
        }
      }
    }
  }
}

// The rows and columns of the zero-padded input plane the window reaches:
// (out - 1) * stride + (kernel - 1) * dilation + 1 per axis.
int64_t PaddedExtent(const Window2D& w, int axis) {
  if (w.out[axis] == 0) return 0;
  return (w.out[axis] - 1) * w.stride[axis] +
         (w.kernel[axis] - 1) * w.dilation[axis] + 1;
}

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

// The oneDNN shape of a validated Conv or FusedConv.
OnednnConvShape OnednnShape(const ConvGeometry& g, const Attributes& attrs,
                            bool residual) {
  OnednnConvShape s;
  s.n = g.n;
  s.c = g.c;
  s.m = g.m;
  s.group = g.group;
  s.w = g.w;
  const std::string act = AttrString(attrs, "activation", "");
  s.relu = act == "Relu";
  const Attribute* p =
      FindAttr(attrs, "activation_params", Attribute::Kind::kFloats);
  // (Infer refuses a Clip without its two bounds.)
  s.clip = act == "Clip" && p != nullptr && p->floats.size() == 2;
  if (s.clip) {
    s.clip_lo = p->floats[0];
    s.clip_hi = p->floats[1];
  }
  s.residual = residual;
  s.depthwise = g.w.spatial_rank == 2 && g.group > 1 && g.group == g.c &&
                g.group == g.m && g.depthwise();
  s.depthwise_own_strips = s.depthwise && DepthwiseStrips(g.w);
  return s;
}

bool HasResidual(const TensorRef* inputs, size_t num_inputs) {
  return num_inputs >= 4 && inputs[3].present();
}

// FusedConv's per-output-channel weight scale S, or null.
const float* WeightScale(const TensorRef* inputs, size_t num_inputs) {
  return num_inputs >= 5 && inputs[4].present() ? inputs[4].as<const float>()
                                                : nullptr;
}

// Conv's checks and output; FusedConv's when `fused`.
std::string InferConvCommon(InferContext& ctx, bool fused) {
  using K = Attribute::Kind;
  const char* op = fused ? kFusedOp : kOp;
  std::string err = CheckInputs(op, ctx, 2, fused ? 5 : 3);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"auto_pad", K::kString},
                           {"dilations", K::kInts},
                           {"group", K::kInt},
                           {"kernel_shape", K::kInts},
                           {"pads", K::kInts},
                           {"strides", K::kInts},
                           {fused ? "activation" : "", K::kString},
                           {fused ? "activation_params" : "", K::kFloats}});
  }
  if (err.empty() && fused) {
    const std::string act = AttrString(ctx.attrs, "activation", "");
    if (!act.empty() && act != "Relu" && act != "Clip") {
      return Fail(
          op, "activation '" + act + "' (the emulator fuses Relu and Clip)");
    }
    const Attribute* params =
        FindAttr(ctx.attrs, "activation_params", Attribute::Kind::kFloats);
    if (act == "Clip" && (params == nullptr || params->floats.size() != 2)) {
      return Fail(op, "activation 'Clip' needs activation_params [min, max]");
    }
    if (act != "Clip" && params != nullptr) {
      return Fail(op, "activation_params without activation 'Clip'");
    }
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    if (ctx.inputs[i].present() && ctx.inputs[i].dtype != DType::kFloat32) {
      return Fail(op, "input " + std::to_string(i) + " has dtype " +
                          DTypeName(ctx.inputs[i].dtype) + " (float32 only)");
    }
  }
  ConvGeometry g;
  err =
      GetConvGeometry(op, ctx.attrs, ctx.inputs.data(), ctx.inputs.size(), &g);
  if (!err.empty()) return err;
  Shape out;
  out.rank = ctx.inputs[0].shape.rank;
  out.dims[0] = g.n;
  out.dims[1] = g.m;
  if (g.w.spatial_rank == 2) {
    out.dims[2] = g.w.out[0];
    out.dims[3] = g.w.out[1];
  } else {
    out.dims[2] = g.w.out[1];
  }
  err = SetOutput(op, ctx, 0, DType::kFloat32, out);
  if (!err.empty()) return err;
  const bool residual = HasResidual(ctx.inputs.data(), ctx.inputs.size());
  if (residual && ctx.inputs[3].shape != out) {
    return Fail(op, "residual " + ctx.inputs[3].shape.ToString() +
                        " must have the output's shape " + out.ToString());
  }
  if (ctx.inputs.size() >= 5 && ctx.inputs[4].present() &&
      (ctx.inputs[4].shape.rank != 1 || ctx.inputs[4].shape.dims[0] != g.m)) {
    return Fail(op, "weight scale " + ctx.inputs[4].shape.ToString() +
                        " must be [" + std::to_string(g.m) + "]");
  }
  int64_t col_bytes = 0;
  if (g.depthwise()) {
    if (!MulBounded(PaddedExtent(g.w, 0), PaddedExtent(g.w, 1), &col_bytes) ||
        !MulBounded(col_bytes, sizeof(float), &col_bytes)) {
      return Fail(op, "padded input plane would be too large");
    }
  } else if (!g.direct()) {
    if (!MulBounded(g.col_rows(), g.out_plane(), &col_bytes) ||
        !MulBounded(col_bytes, sizeof(float), &col_bytes)) {
      return Fail(op, "im2col buffer would be too large");
    }
  }
  // Room for the oneDNN path too (the larger of the two: one runs).
  const int64_t onednn_bytes =
      OnednnConvScratchBytes(OnednnShape(g, ctx.attrs, residual));
  if (onednn_bytes < 0 || onednn_bytes > (int64_t{1} << 40)) {
    return Fail(op, "activations would be too large");
  }
  ctx.scratch_bytes =
      static_cast<size_t>(std::max<int64_t>(col_bytes, onednn_bytes));
  return "";
}

// The emulator's own float32 Conv (im2col + Eigen, depthwise, 1x1 direct),
// `bias` added when not null.
void RunConvOwn(const RunContext& ctx, const ConvGeometry& g,
                const float* bias) {
  const float* x = ctx.inputs[0].as<const float>();
  const float* wt = ctx.inputs[1].as<const float>();
  float* y = ctx.outputs[0].as<float>();
  if (g.depthwise()) {
    RunDepthwise(x, wt, bias, g, static_cast<float*>(ctx.scratch), y);
    return;
  }
  float* col = static_cast<float*>(ctx.scratch);
  const int64_t plane = g.out_plane();
  const int64_t rows = g.col_rows();
  const bool direct = g.direct();
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.group; ++grp) {
      const float* xg = x + (n * g.c + grp * g.cg()) * g.in_plane();
      const float* cols = xg;
      if (!direct) {
        Im2Col(xg, g, col);
        cols = col;
      }
      float* yg = y + (n * g.m + grp * g.mg()) * plane;
      Matrix(yg, g.mg(), plane).noalias() =
          ConstMatrix(wt + grp * g.mg() * rows, g.mg(), rows) *
          ConstMatrix(cols, rows, plane);
    }
    if (bias != nullptr) {
      float* yn = y + n * g.m * plane;
      for (int64_t m = 0; m < g.m; ++m) {
        float* p = yn + m * plane;
        const float b = bias[m];
        for (int64_t i = 0; i < plane; ++i) p[i] += b;
      }
    }
  }
}

// Conv and FusedConv: oneDNN when prepared (and the scratch fits), else the
// emulator's own Conv followed by the residual and Relu.
void RunConvAny(const RunContext& ctx) {
  const bool residual = HasResidual(ctx.inputs, ctx.num_inputs);
  const float* z = residual ? ctx.inputs[3].as<const float>() : nullptr;
  float* y = ctx.outputs[0].as<float>();
  // A prepared Conv knows its scratch size: no walk over the attributes per
  // run (resolving the window by attribute name took ~4% of the small
  // ResNet's emulator time, CHANGELOG.md "Performance history").
  if (ctx.prepared != nullptr &&
      RunOnednnConv(*ctx.prepared, ctx.inputs[0].as<const float>(), z, y,
                    ctx.scratch,
                    OnednnConvPreparedScratchBytes(*ctx.prepared))) {
    return;
  }
  ConvGeometry g;
  GetConvGeometry(kOp, ctx.attrs, ctx.inputs, ctx.num_inputs, &g);
  const float* bias = ctx.num_inputs >= 3 && ctx.inputs[2].present()
                          ? ctx.inputs[2].as<const float>()
                          : nullptr;
  const float* scale = WeightScale(ctx.inputs, ctx.num_inputs);
  // Conv(X, W * S) + B is S * Conv(X, W) + B: the bias goes in after S.
  RunConvOwn(ctx, g, scale != nullptr ? nullptr : bias);
  if (scale != nullptr) {
    const int64_t plane = g.out_plane();
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t m = 0; m < g.m; ++m) {
        float* p = y + (n * g.m + m) * plane;
        const float s = scale[m], b = bias != nullptr ? bias[m] : 0.0f;
        for (int64_t i = 0; i < plane; ++i) p[i] = p[i] * s + b;
      }
    }
  }
  const int64_t count = ctx.outputs[0].shape.numel();
  if (z != nullptr) {
    for (int64_t i = 0; i < count; ++i) y[i] += z[i];
  }
  const std::string act = AttrString(ctx.attrs, "activation", "");
  if (act == "Relu") {
    for (int64_t i = 0; i < count; ++i) y[i] = std::max(y[i], 0.0f);
  } else if (act == "Clip") {
    const Attribute* p =
        FindAttr(ctx.attrs, "activation_params", Attribute::Kind::kFloats);
    if (p != nullptr && p->floats.size() == 2)  // (Infer checked)
      ClipInPlace(y, count, p->floats[0], p->floats[1]);
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

std::string InferConvFloat(InferContext& ctx) {
  return InferConvCommon(ctx, /*fused=*/false);
}
void RunConvFloat(const RunContext& ctx) { RunConvAny(ctx); }
std::string InferFusedConv(InferContext& ctx) {
  return InferConvCommon(ctx, /*fused=*/true);
}
void RunFusedConv(const RunContext& ctx) { RunConvAny(ctx); }

// A float32 Conv or FusedConv with constant weights (and bias): its oneDNN
// primitive. Float16 Convs (half_via_float.h) and weights computed at run
// time keep the emulator's own path.
std::unique_ptr<PreparedOp> PrepareConv(const PrepareContext& ctx) {
  const std::vector<TensorRef>& in = ctx.inputs;
  if (ConvIsInt8(in.data(), in.size())) return PrepareConvInt8(ctx);
  for (const TensorRef& t : in) {
    if (t.present() && t.dtype != DType::kFloat32) return nullptr;
  }
  if (in[1].data == nullptr) return nullptr;
  const bool has_bias = in.size() >= 3 && in[2].present();
  if (has_bias && in[2].data == nullptr) return nullptr;
  ConvGeometry g;
  if (!GetConvGeometry(kOp, ctx.attrs, in.data(), in.size(), &g).empty())
    return nullptr;
  if (g.n == 0 || g.out_plane() == 0 || g.in_plane() == 0) return nullptr;
  const OnednnConvShape shape =
      OnednnShape(g, ctx.attrs, HasResidual(in.data(), in.size()));
  // Grouped depthwise other than one channel in and out per group (a channel
  // multiplier, 1-D): oneDNN's path with its reorders ran at 0.64x
  // RunDepthwise's FLOP/s (docs/emulator-kernels.md). One in, one out: on
  // NHWC (OnednnConvShape::depthwise), except where the own strips are
  // faster and no neighbour agrees on NHWC.
  if (g.depthwise() && g.group > 1 && !shape.depthwise) return nullptr;
  const float* bias = has_bias ? in[2].as<const float>() : nullptr;
  const float* scale = WeightScale(in.data(), in.size());
  if (in.size() >= 5 && in[4].present() && (scale == nullptr || g.m == 0))
    return nullptr;
  if (scale == nullptr)
    return PrepareOnednnConv(shape, in[1].as<const float>(), bias);
  // The primitive keeps its own (reordered) copy of the weights: S goes into
  // it here, once, and the run is a plain Conv.
  const float* w = in[1].as<const float>();
  const int64_t row = in[1].shape.numel() / g.m;
  std::vector<float> scaled(static_cast<size_t>(in[1].shape.numel()));
  for (int64_t m = 0; m < g.m; ++m) {
    for (int64_t j = 0; j < row; ++j)
      scaled[m * row + j] = w[m * row + j] * scale[m];
  }
  return PrepareOnednnConv(shape, scaled.data(), bias);
}

// int8 (conv_int8.h): CANN's int8 Conv2D. float16: widened into float
// scratch, float kernel, rounded on store.
std::string InferConv(InferContext& ctx) {
  if (ConvIsInt8(ctx.inputs.data(), ctx.inputs.size()))
    return InferConvInt8(ctx);
  return InferViaFloat("Conv", &InferConvFloat, ctx);
}
void RunConv(const RunContext& ctx) {
  if (ctx.inputs[0].dtype == DType::kInt8) return RunConvInt8(ctx);
  RunViaFloat(&RunConvFloat, ctx);
}

}  // namespace kernels
}  // namespace ascend_emu
