// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// MaxPool and AveragePool (1-D, 2-D and 3-D: kernel_shape, strides, pads,
// auto_pad, ceil_mode; dilations for MaxPool; count_include_pad for
// AveragePool) and GlobalAveragePool, float32 (float16 via
// half_via_float.h), NCL / NCHW / NCDHW. 1-D and 2-D pools run as 3-D with
// leading spatial axes of size 1. A 2-D float32 MaxPool and a 4-D float32
// GlobalAveragePool also read NHWC when the loader agreed it with the
// producer (kernel.h, "Layouts between ops" in docs/emulator.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gnu_vectors.h"
#include "half_via_float.h"
#include "kernel_util.h"
#include "ops.h"
#include "spatial.h"

namespace ascend_emu {
namespace kernels {
namespace {

bool IsMax(const char* op) { return op[0] == 'M'; }

std::string GetWindow(const char* op, const Attributes& attrs, const Shape& x,
                      Window3D* w) {
  if (x.rank < 3 || x.rank > 5) {
    return Fail(
        op, "input must be 3-D, 4-D or 5-D (1-D, 2-D or 3-D pooling), got " +
                x.ToString());
  }
  const int32_t spatial = x.rank - 2;
  const IntsView ks = AttrInts(attrs, "kernel_shape");
  if (!ks.present) return Fail(op, "kernel_shape is required");
  if (ks.size != static_cast<size_t>(spatial)) {
    return Fail(op, "kernel_shape must have " + std::to_string(spatial) +
                        " values for input " + x.ToString());
  }
  for (size_t i = 0; i < ks.size; ++i) {
    const int64_t k = ks[i];
    if (k < 1 || k > kMaxTensorBytes) {
      return Fail(
          op, "kernel_shape value " + std::to_string(k) + " is out of range");
    }
  }
  WindowOptions opts;
  opts.allow_dilations = IsMax(op);
  opts.allow_ceil_mode = true;
  opts.pads_below_kernel = true;
  return ResolveWindow3D(op, attrs, spatial, &x.dims[2], ks.data, opts, w);
}

std::string InferPool(const char* op, InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) {
    if (IsMax(op)) {
      err = CheckAttributes(op, ctx.attrs,
                            {{"auto_pad", K::kString},
                             {"ceil_mode", K::kInt},
                             {"dilations", K::kInts},
                             {"kernel_shape", K::kInts},
                             {"pads", K::kInts},
                             {"storage_order", K::kInt},
                             {"strides", K::kInts}});
      if (err.empty() && AttrInt(ctx.attrs, "storage_order", 0) != 0) {
        err = Fail(op, "storage_order must be 0 (row-major)");
      }
    } else {
      err = CheckAttributes(op, ctx.attrs,
                            {{"auto_pad", K::kString},
                             {"ceil_mode", K::kInt},
                             {"count_include_pad", K::kInt},
                             {"kernel_shape", K::kInts},
                             {"pads", K::kInts},
                             {"strides", K::kInts}});
      const int64_t cip = AttrInt(ctx.attrs, "count_include_pad", 0);
      if (err.empty() && cip != 0 && cip != 1) {
        err = Fail(op, "count_include_pad must be 0 or 1");
      }
    }
  }
  // MaxPool's optional Indices output is refused here.
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype != DType::kFloat32) {
    return Fail(op, std::string("unsupported dtype ") + DTypeName(x.dtype) +
                        " (float32 only)");
  }
  Window3D w;
  err = GetWindow(op, ctx.attrs, x.shape, &w);
  if (!err.empty()) return err;
  Shape out = x.shape;
  for (int32_t i = 0; i < w.spatial_rank; ++i) {
    out.dims[2 + i] = w.out[3 - w.spatial_rank + i];
  }
  return SetOutput(op, ctx, 0, DType::kFloat32, out);
}

// One [D, H, W] volume of one (n, c) pair.
// The output indices [*lo, *hi) on one axis whose tap at input offset
// `off` (k * dilation - pad_begin) lands inside [0, in): o * stride + off.
void TapRange(int64_t off, int64_t stride, int64_t in, int64_t out, int64_t* lo,
              int64_t* hi) {
  const int64_t first = off >= 0 ? 0 : (-off + stride - 1) / stride;
  const int64_t last = in - 1 - off;  // o * stride <= last
  const int64_t end = last < 0 ? 0 : last / stride + 1;
  *lo = std::min(first, out);
  *hi = std::max(*lo, std::min(end, out));
}

// One kw tap's input column offset and the output columns it reaches.
struct TapColumns {
  int64_t off, lo, hi;
};

TapColumns MaxPoolColumns(const Window3D& w, int64_t kw) {
  TapColumns c;
  c.off = kw * w.dilation[2] - w.pad_begin[2];
  TapRange(c.off, w.stride[2], w.in[2], w.out[2], &c.lo, &c.hi);
  return c;
}

// Tap ranges of windows up to this wide are computed once per op (on the
// stack: Run must not allocate); recomputing them per output row (two
// integer divisions per tap) took most of ResNet's MaxPool time.
constexpr int64_t kCachedTaps = 16;

// Tap by tap over whole output rows: for each (kd, kh, kw) the output
// columns whose input column is inside the plane are one branch-free pass
// (no per-element bounds checks, so the loop vectorizes), 8-10x the
// element-by-element window loop at ResNet's 3x3/2 pool. Every output still
// sees its taps in (kd, kh, kw) order, so the result is the same, NaN
// included. `cols` holds the kernel[2] taps' ranges, or is null when the
// window is wider than kCachedTaps.
void MaxPoolVolume(const float* x, const Window3D& w, const TapColumns* cols,
                   float* y) {
  const int64_t s = w.stride[2];
  for (int64_t od = 0; od < w.out[0]; ++od) {
    const int64_t d0 = od * w.stride[0] - w.pad_begin[0];
    for (int64_t oh = 0; oh < w.out[1]; ++oh) {
      const int64_t h0 = oh * w.stride[1] - w.pad_begin[1];
      float* o = y + (od * w.out[1] + oh) * w.out[2];
      std::fill(o, o + w.out[2], -std::numeric_limits<float>::infinity());
      for (int64_t kd = 0; kd < w.kernel[0]; ++kd) {
        const int64_t id = d0 + kd * w.dilation[0];
        if (id < 0 || id >= w.in[0]) continue;
        for (int64_t kh = 0; kh < w.kernel[1]; ++kh) {
          const int64_t ih = h0 + kh * w.dilation[1];
          if (ih < 0 || ih >= w.in[1]) continue;
          const float* row = x + (id * w.in[1] + ih) * w.in[2];
          for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
            const TapColumns c =
                cols != nullptr ? cols[kw] : MaxPoolColumns(w, kw);
            const float* r = row + c.off;
            for (int64_t ow = c.lo; ow < c.hi; ++ow) {
              const float v = r[ow * s];
              // NaN wins, as in PyTorch.
              o[ow] = (v > o[ow] || v != v) ? v : o[ow];
            }
          }
        }
      }
    }
  }
}

// Input rows up to this long take MaxPoolVolumeByRows (its row buffer is on
// the stack: Run must not allocate).
constexpr int64_t kRowBufferFloats = 1024;

// The same maximum in two passes per output row: the (kd, kh) input rows of
// its windows are reduced element by element into `row` (contiguous, so it
// vectorizes), then the kw taps read `row` strided. A 3x3/2 pool reads each
// strided column once instead of three times; ResNet's stem pool took 2.5x
// less time (docs/emulator-kernels.md). The maximum is the same as
// MaxPoolVolume's; only which of equal values wins may differ (+0 vs -0), and
// NaN still wins. `cols` as for MaxPoolVolume but never null.
void MaxPoolVolumeByRows(const float* x, const Window3D& w,
                         const TapColumns* cols, float* y) {
  float row[kRowBufferFloats];
  const int64_t s = w.stride[2];
  const int64_t width = w.in[2];
  for (int64_t od = 0; od < w.out[0]; ++od) {
    const int64_t d0 = od * w.stride[0] - w.pad_begin[0];
    for (int64_t oh = 0; oh < w.out[1]; ++oh) {
      const int64_t h0 = oh * w.stride[1] - w.pad_begin[1];
      float* o = y + (od * w.out[1] + oh) * w.out[2];
      std::fill(o, o + w.out[2], -std::numeric_limits<float>::infinity());
      bool any = false;
      for (int64_t kd = 0; kd < w.kernel[0]; ++kd) {
        const int64_t id = d0 + kd * w.dilation[0];
        if (id < 0 || id >= w.in[0]) continue;
        for (int64_t kh = 0; kh < w.kernel[1]; ++kh) {
          const int64_t ih = h0 + kh * w.dilation[1];
          if (ih < 0 || ih >= w.in[1]) continue;
          const float* in = x + (id * w.in[1] + ih) * width;
          if (!any) {
            std::copy(in, in + width, row);
            any = true;
            continue;
          }
          for (int64_t i = 0; i < width; ++i) {
            const float v = in[i];
            row[i] = (v > row[i] || v != v) ? v : row[i];
          }
        }
      }
      if (!any) continue;  // every window of this row lies in the padding
      for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
        const TapColumns& c = cols[kw];
        for (int64_t ow = c.lo; ow < c.hi; ++ow) {
          // Index arithmetic, not `row + c.off`: c.off may be negative.
          const float v = row[ow * s + c.off];
          o[ow] = (v > o[ow] || v != v) ? v : o[ow];
        }
      }
    }
  }
}

// The window of output index `o` on axis `a`: [*lo, *hi) inside the input,
// and its length inside the padded input (count_include_pad's divisor).
int64_t AvgAxisRange(const Window3D& w, int a, int64_t o, int64_t* lo,
                     int64_t* hi) {
  const int64_t b = o * w.stride[a] - w.pad_begin[a];
  const int64_t e = std::min(b + w.kernel[a], w.in[a] + w.pad_end[a]);
  *lo = std::max<int64_t>(b, 0);
  *hi = std::min(e, w.in[a]);
  return e - b;
}

void AvgPoolVolume(const float* x, const Window3D& w, bool count_include_pad,
                   float* y) {
  for (int64_t od = 0; od < w.out[0]; ++od) {
    int64_t d0, d1;
    const int64_t pad_d = AvgAxisRange(w, 0, od, &d0, &d1);
    for (int64_t oh = 0; oh < w.out[1]; ++oh) {
      int64_t h0, h1;
      const int64_t pad_h = AvgAxisRange(w, 1, oh, &h0, &h1);
      for (int64_t ow = 0; ow < w.out[2]; ++ow) {
        int64_t w0, w1;
        const int64_t pad_w = AvgAxisRange(w, 2, ow, &w0, &w1);
        float sum = 0.0f;
        for (int64_t id = d0; id < d1; ++id) {
          for (int64_t ih = h0; ih < h1; ++ih) {
            const float* row = x + (id * w.in[1] + ih) * w.in[2];
            for (int64_t iw = w0; iw < w1; ++iw) sum += row[iw];
          }
        }
        // Windows clipped by ceil_mode past the end pad count only what is
        // inside the padded input (PyTorch and ONNX Runtime agree on this).
        const int64_t count = count_include_pad
                                  ? pad_d * pad_h * pad_w
                                  : (d1 - d0) * (h1 - h0) * (w1 - w0);
        y[(od * w.out[1] + oh) * w.out[2] + ow] =
            sum / static_cast<float>(count);
      }
    }
  }
}

// A 2-D float32 MaxPool's layout agreement (kernel.h): it reads its input
// in NHWC when the producer (a oneDNN Conv) writes it so, and then offers
// NHWC for its output too, so that a Conv -> MaxPool -> Conv chain (ResNet's
// stem) stays NHWC. Its window is resolved once here (the attributes are
// fixed at load), not on every run.
class MaxPoolLayouts final : public PreparedOp {
 public:
  bool nhwc_x = false, nhwc_y = false;
  Window3D w;

  TensorLayout PreferredOutputLayout(size_t index) const override {
    return index == 0 && nhwc_x ? TensorLayout::kNhwc : TensorLayout::kPlain;
  }
  bool CanReadInput(size_t index, TensorLayout layout) const override {
    return index == 0 && layout == TensorLayout::kNhwc;
  }
  void UseOutputLayout(size_t, TensorLayout) override { nhwc_y = true; }
  void UseInputLayout(size_t, TensorLayout) override { nhwc_x = true; }
};

// The taps of one window on one axis that land inside [0, in): k in
// [*lo, *hi) for the window starting at input index `start`.
void InsideTaps(int64_t start, int64_t kernel, int64_t dilation, int64_t in,
                int64_t* lo, int64_t* hi) {
  int64_t k = 0;
  while (k < kernel && start + k * dilation < 0) ++k;
  *lo = k;
  while (k < kernel && start + k * dilation < in) ++k;
  *hi = k;
}

// Channel blocks of the NHWC MaxPool: vectors of the build's arch (the pool
// of ResNet's stem has 16 channels, one AVX-512 vector), four at a time, then
// one at a time, then single channels for an odd rest. GNU vector extensions
// (GCC and clang), as in depthwise_strips.cc: written as plain loops over a
// fixed block, GCC unrolled them fully and then kept them scalar (the NaN
// test is a branch), 1.4x slower than ORT on the whole ResNet.
#ifdef ASCEND_EMU_GNU_VECTORS
#define ASCEND_EMU_POOL_VECTORS 1
constexpr int64_t kPoolLanes = gnu_vectors::kLanes;
using PoolVec = gnu_vectors::Vec;
using PoolMask = gnu_vectors::Mask;
using gnu_vectors::Load;

// max(m, v) with MaxPoolVolume's rule: v replaces m when greater or NaN
// (NaN wins, as in PyTorch), so ties keep the earlier tap.
inline PoolVec MaxKeepNan(PoolVec m, PoolVec v) {
  const PoolMask take = (v > m) | (v != v);
  return reinterpret_cast<PoolVec>((reinterpret_cast<PoolMask>(v) & take) |
                                   (reinterpret_cast<PoolMask>(m) & ~take));
}

// Where NP windows side by side (output columns ow..ow+NP-1, same taps
// inside the input) read and write.
struct WindowRun {
  int64_t rows, cols;      // inside taps
  int64_t row_step;        // floats from one tap row to the next
  int64_t col_step;        // ... one tap column to the next
  int64_t x_step, y_step;  // ... one window to the next (input, output)
  int64_t yc;              // output channel stride (1 in NHWC)
};

// The maxima of NP windows of NV vectors of channels from `x` (the first
// window's first inside tap), taps in (kh, kw) order as in MaxPoolVolume,
// stored to `y`. The running maxima stay in registers for the whole window
// (the loop that stored and reloaded the output after every tap took 8 us
// on ResNet's stem pool, ORT 3 us), and NP * NV of them are independent
// chains: one vector's chain of compare-and-blends waits on each tap's
// result, and ResNet's stem pool has one vector of channels.
template <int NV, int NP, bool kDenseY>
inline void WindowMaxVectors(const float* x, const WindowRun& r, float* y) {
  PoolVec m[NP][NV];
  for (int p = 0; p < NP; ++p) {
    for (int i = 0; i < NV; ++i) {
      m[p][i] = PoolVec{} - std::numeric_limits<float>::infinity();
    }
  }
  for (int64_t a = 0; a < r.rows; ++a) {
    for (int64_t b = 0; b < r.cols; ++b) {
      const float* in = x + a * r.row_step + b * r.col_step;
      for (int p = 0; p < NP; ++p) {
        for (int i = 0; i < NV; ++i) {
          m[p][i] =
              MaxKeepNan(m[p][i], Load(in + p * r.x_step + i * kPoolLanes));
        }
      }
    }
  }
  for (int p = 0; p < NP; ++p) {
    float* out = y + p * r.y_step;
    if (kDenseY) {
      std::memcpy(out, m[p], sizeof m[p]);
      continue;
    }
    float lanes[NV * kPoolLanes];
    std::memcpy(lanes, m[p], sizeof m[p]);
    for (int64_t j = 0; j < NV * kPoolLanes; ++j) out[j * r.yc] = lanes[j];
  }
}
#endif

// The same for one channel of one window (the rest after the vectors).
inline void WindowMaxOne(const float* x, const WindowRun& r, float* y) {
  float m = -std::numeric_limits<float>::infinity();
  for (int64_t a = 0; a < r.rows; ++a) {
    for (int64_t b = 0; b < r.cols; ++b) {
      const float v = x[a * r.row_step + b * r.col_step];
      m = (v > m || v != v) ? v : m;  // NaN wins, as in PyTorch
    }
  }
  *y = m;
}

// NP windows side by side over all `channels` of an NHWC image.
template <int NP, bool kDenseY>
void WindowMaxChannels(const float* x, int64_t channels, const WindowRun& r,
                       float* y) {
  int64_t c = 0;
#ifdef ASCEND_EMU_POOL_VECTORS
  if (NP == 1) {
    for (; c + 4 * kPoolLanes <= channels; c += 4 * kPoolLanes) {
      WindowMaxVectors<4, 1, kDenseY>(x + c, r, y + c * r.yc);
    }
  }
  for (; c + kPoolLanes <= channels; c += kPoolLanes) {
    WindowMaxVectors<1, NP, kDenseY>(x + c, r, y + c * r.yc);
  }
#endif
  for (; c < channels; ++c) {
    for (int p = 0; p < NP; ++p) {
      WindowMaxOne(x + c + p * r.x_step, r, y + c * r.yc + p * r.y_step);
    }
  }
}

// Windows taken side by side when their taps agree.
constexpr int64_t kSideBySide = 4;

// 2-D MaxPool of one NHWC image (channels innermost) into NHWC (`kDenseY`)
// or NCHW.
template <bool kDenseY>
void MaxPoolNhwcImage(const float* x, const Window3D& w, int64_t channels,
                      float* y) {
  const int64_t xh = w.in[2] * channels;
  WindowRun r;
  r.row_step = w.dilation[1] * xh;
  r.col_step = w.dilation[2] * channels;
  r.x_step = w.stride[2] * channels;
  r.y_step = kDenseY ? channels : 1;
  r.yc = kDenseY ? 1 : w.out[1] * w.out[2];
  for (int64_t oh = 0; oh < w.out[1]; ++oh) {
    const int64_t h0 = oh * w.stride[1] - w.pad_begin[1];
    int64_t kh0, kh1;
    InsideTaps(h0, w.kernel[1], w.dilation[1], w.in[1], &kh0, &kh1);
    r.rows = kh1 - kh0;
    int64_t ow = 0;
    while (ow < w.out[2]) {
      const int64_t w0 = ow * w.stride[2] - w.pad_begin[2];
      int64_t kw0, kw1;
      InsideTaps(w0, w.kernel[2], w.dilation[2], w.in[2], &kw0, &kw1);
      r.cols = kw1 - kw0;
      const int64_t o = oh * w.out[2] + ow;
      float* out = kDenseY ? y + o * channels : y + o;
      if (r.rows == 0 || r.cols == 0) {  // a window in the padding only
        for (int64_t c = 0; c < channels; ++c) {
          out[c * r.yc] = -std::numeric_limits<float>::infinity();
        }
        ++ow;
        continue;
      }
      const float* in = x + (h0 + kh0 * w.dilation[1]) * xh +
                        (w0 + kw0 * w.dilation[2]) * channels;
      // The last of kSideBySide windows has all the first's taps inside
      // (and so every window between): the windows move by whole strides.
      int64_t last0 = 0, last1 = 0;
      if (ow + kSideBySide <= w.out[2]) {
        InsideTaps(w0 + (kSideBySide - 1) * w.stride[2], w.kernel[2],
                   w.dilation[2], w.in[2], &last0, &last1);
      }
      if (ow + kSideBySide <= w.out[2] && last0 == kw0 && last1 == kw1) {
        WindowMaxChannels<kSideBySide, kDenseY>(in, channels, r, out);
        ow += kSideBySide;
      } else {
        WindowMaxChannels<1, kDenseY>(in, channels, r, out);
        ++ow;
      }
    }
  }
}

// A MaxPool with an agreed NHWC input (and output, when agreed).
void RunMaxPoolNhwc(const RunContext& ctx, const MaxPoolLayouts& layouts) {
  const TensorRef& x = ctx.inputs[0];
  const Window3D& w = layouts.w;
  const int64_t n = x.shape.dims[0], c = x.shape.dims[1];
  const int64_t in_plane = w.in[1] * w.in[2], out_plane = w.out[1] * w.out[2];
  const float* px = x.as<const float>();
  float* py = ctx.outputs[0].as<float>();
  for (int64_t b = 0; b < n; ++b) {
    const float* xb = px + b * c * in_plane;
    float* yb = py + b * c * out_plane;
    if (layouts.nhwc_y) {
      MaxPoolNhwcImage<true>(xb, w, c, yb);
    } else {
      MaxPoolNhwcImage<false>(xb, w, c, yb);
    }
  }
}

void RunPool(const char* op, const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  if (ctx.prepared != nullptr) {
    const auto& layouts = static_cast<const MaxPoolLayouts&>(*ctx.prepared);
    // Only an agreed NHWC input changes the layout of the output.
    if (layouts.nhwc_x) return RunMaxPoolNhwc(ctx, layouts);
  }
  Window3D w;
  GetWindow(op, ctx.attrs, x.shape, &w);
  const int64_t planes = x.shape.dims[0] * x.shape.dims[1];
  const int64_t in_volume = w.in[0] * w.in[1] * w.in[2];
  const int64_t out_volume = w.out[0] * w.out[1] * w.out[2];
  const float* px = x.as<const float>();
  float* py = ctx.outputs[0].as<float>();
  const bool include_pad = AttrInt(ctx.attrs, "count_include_pad", 0) != 0;
  TapColumns cached[kCachedTaps];
  const TapColumns* cols = nullptr;
  if (w.kernel[2] <= kCachedTaps) {
    for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
      cached[kw] = MaxPoolColumns(w, kw);
    }
    cols = cached;
  }
  for (int64_t p = 0; p < planes; ++p) {
    if (IsMax(op) && cols != nullptr && w.in[2] <= kRowBufferFloats) {
      MaxPoolVolumeByRows(px + p * in_volume, w, cols, py + p * out_volume);
    } else if (IsMax(op)) {
      MaxPoolVolume(px + p * in_volume, w, cols, py + p * out_volume);
    } else {
      AvgPoolVolume(px + p * in_volume, w, include_pad, py + p * out_volume);
    }
  }
}

}  // namespace

std::string InferMaxPoolFloat(InferContext& ctx) {
  return InferPool("MaxPool", ctx);
}
void RunMaxPoolFloat(const RunContext& ctx) { RunPool("MaxPool", ctx); }

std::unique_ptr<PreparedOp> PrepareMaxPool(const PrepareContext& ctx) {
  if (ctx.inputs.size() != 1 || ctx.inputs[0].dtype != DType::kFloat32 ||
      ctx.inputs[0].shape.rank != 4) {
    return nullptr;
  }
  auto p = std::make_unique<MaxPoolLayouts>();
  if (!GetWindow("MaxPool", ctx.attrs, ctx.inputs[0].shape, &p->w).empty()) {
    return nullptr;  // Infer refused it already
  }
  return p;
}
std::string InferAveragePoolFloat(InferContext& ctx) {
  return InferPool("AveragePool", ctx);
}
void RunAveragePoolFloat(const RunContext& ctx) { RunPool("AveragePool", ctx); }

std::string InferGlobalAveragePoolFloat(InferContext& ctx) {
  const char* op = "GlobalAveragePool";
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype != DType::kFloat32) {
    return Fail(op, std::string("unsupported dtype ") + DTypeName(x.dtype) +
                        " (float32 only)");
  }
  if (x.shape.rank < 3) {
    return Fail(op,
                "input must be [N, C, spatial...], got " + x.shape.ToString());
  }
  Shape out = x.shape;
  for (int32_t i = 2; i < out.rank; ++i) {
    if (out.dims[i] < 1) {
      return Fail(op, "spatial dims must be >= 1, got " + x.shape.ToString());
    }
    out.dims[i] = 1;
  }
  return SetOutput(op, ctx, 0, DType::kFloat32, out);
}

// GlobalAveragePool's layout agreement: a 4-D float32 one reads an NHWC input
// (ResNet's last Conv writes it so), which saves the NHWC -> NCHW reorder
// after that Conv; its [N, C, 1, 1] output is the same in both layouts.
class GlobalAveragePoolLayouts final : public PreparedOp {
 public:
  bool nhwc_x = false;

  bool CanReadInput(size_t index, TensorLayout layout) const override {
    return index == 0 && layout == TensorLayout::kNhwc;
  }
  void UseInputLayout(size_t, TensorLayout) override { nhwc_x = true; }
};

// Channels summed side by side in the NHWC walk (doubles on the stack).
constexpr int64_t kMeanChannels = 64;

// The mean of each channel of one NHWC image of `plane` positions: the same
// double sums, position by position, as the NCHW walk makes (so the same
// result), kMeanChannels channels at a time so that the sums stay in
// registers or L1 and the channel loop vectorizes.
void MeanNhwcImage(const float* x, int64_t plane, int64_t channels, float* y) {
  for (int64_t c0 = 0; c0 < channels; c0 += kMeanChannels) {
    const int64_t nc = std::min(kMeanChannels, channels - c0);
    double sum[kMeanChannels] = {};
    for (int64_t p = 0; p < plane; ++p) {
      const float* src = x + p * channels + c0;
      for (int64_t j = 0; j < nc; ++j) sum[j] += src[j];
    }
    for (int64_t j = 0; j < nc; ++j) {
      y[c0 + j] = static_cast<float>(sum[j] / static_cast<double>(plane));
    }
  }
}

void RunGlobalAveragePoolFloat(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const int64_t planes = x.shape.dims[0] * x.shape.dims[1];
  if (planes == 0) return;
  const int64_t plane = x.shape.numel() / planes;
  const float* px = x.as<const float>();
  float* py = ctx.outputs[0].as<float>();
  if (ctx.prepared != nullptr &&
      static_cast<const GlobalAveragePoolLayouts&>(*ctx.prepared).nhwc_x) {
    const int64_t c = x.shape.dims[1];
    for (int64_t b = 0; b < x.shape.dims[0]; ++b) {
      MeanNhwcImage(px + b * c * plane, plane, c, py + b * c);
    }
    return;
  }
  for (int64_t p = 0; p < planes; ++p) {
    // Accumulate in double: planes can be large and the mean should not
    // depend on summation order more than float32 output precision.
    double sum = 0.0;
    const float* src = px + p * plane;
    for (int64_t i = 0; i < plane; ++i) sum += src[i];
    py[p] = static_cast<float>(sum / static_cast<double>(plane));
  }
}

std::unique_ptr<PreparedOp> PrepareGlobalAveragePool(
    const PrepareContext& ctx) {
  if (ctx.inputs.size() != 1 || ctx.inputs[0].dtype != DType::kFloat32 ||
      ctx.inputs[0].shape.rank != 4) {
    return nullptr;
  }
  return std::make_unique<GlobalAveragePoolLayouts>();
}

// float16: widened into float scratch, float kernel, rounded on store.
ASCEND_EMU_HALF_VIA_FLOAT(MaxPool)
ASCEND_EMU_HALF_VIA_FLOAT(AveragePool)
ASCEND_EMU_HALF_VIA_FLOAT(GlobalAveragePool)

}  // namespace kernels
}  // namespace ascend_emu
