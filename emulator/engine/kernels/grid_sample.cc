// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GridSample (opset 16-19 form, CANN's GridSampler2D): 4-D NCHW input X and
// grid (N, H_out, W_out, 2) of normalized (x, y) in [-1, 1], output
// (N, C, H_out, W_out). mode bilinear or nearest (CANN documents no bicubic),
// padding_mode zeros, border or reflection, align_corners 0 or 1. The
// arithmetic follows ONNX's definition, which is PyTorch's grid_sampler_2d
// (ATen GridSampler.h): unnormalize, then clip (border) or reflect and clip
// (reflection), then bilinear weights of the four neighbours or nearbyint
// (round half to even) for nearest; zeros padding reads 0 outside the
// input. float32 and float16 (computed in float); CANN's GridSampler2D has
// no bfloat16 (cann_op_facts.json).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

enum class Padding { kZeros, kBorder, kReflection };

struct GridPlan {
  bool nearest = false;
  Padding padding = Padding::kZeros;
  bool align_corners = false;
};

bool Is(const char* a, const char* b) { return std::strcmp(a, b) == 0; }

std::string Plan(const char* op, const Attributes& attrs, GridPlan* p) {
  const char* mode = AttrString(attrs, "mode", "bilinear");
  if (Is(mode, "nearest")) {
    p->nearest = true;
  } else if (!Is(mode, "bilinear")) {
    return Fail(op, std::string("mode '") + mode +
                        "' is not supported (bilinear or nearest: CANN's "
                        "GridSample has no bicubic)");
  }
  const char* pad = AttrString(attrs, "padding_mode", "zeros");
  if (Is(pad, "zeros")) {
    p->padding = Padding::kZeros;
  } else if (Is(pad, "border")) {
    p->padding = Padding::kBorder;
  } else if (Is(pad, "reflection")) {
    p->padding = Padding::kReflection;
  } else {
    return Fail(op, std::string("padding_mode '") + pad +
                        "' is not supported (zeros, border or reflection)");
  }
  const int64_t align = AttrInt(attrs, "align_corners", 0);
  if (align != 0 && align != 1) {
    return Fail(op, "align_corners must be 0 or 1");
  }
  p->align_corners = align == 1;
  return "";
}

// [-1, 1] -> pixel coordinates: -1 and 1 are the corner pixels' centres
// (align_corners) or their outer edges.
float Unnormalize(float c, int64_t size, bool align) {
  const float s = static_cast<float>(size);
  return align ? ((c + 1) / 2) * (s - 1) : ((c + 1) * s - 1) / 2;
}

float Clip(float c, int64_t size) {
  return std::fmin(static_cast<float>(size - 1), std::fmax(c, 0.0f));
}

// Reflects c into [twice_low / 2, twice_high / 2] (bounds given doubled so
// that the align_corners=0 ones, -0.5 and size - 0.5, stay integers).
float Reflect(float c, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return 0.0f;
  const float lo = static_cast<float>(twice_low) / 2;
  const float span = static_cast<float>(twice_high - twice_low) / 2;
  c = std::fabs(c - lo);
  const float extra = std::fmod(c, span);
  const int64_t flips = static_cast<int64_t>(std::floor(c / span));
  return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

// The source coordinate of a grid value along an axis of `size` pixels.
// Far-out coordinates are pulled in to just outside the input first: every
// neighbour is outside either way, and the integer conversions below stay
// defined (NaN reads as outside too).
float Source(const GridPlan& p, float g, int64_t size) {
  float c = Unnormalize(g, size, p.align_corners);
  if (p.padding == Padding::kBorder) {
    c = Clip(c, size);
  } else if (p.padding == Padding::kReflection) {
    c = p.align_corners ? Reflect(c, 0, 2 * (size - 1))
                        : Reflect(c, -1, 2 * size - 1);
    c = Clip(c, size);
  }
  if (!(c > -2.0f)) return -2.0f;
  const float far = static_cast<float>(size) + 1.0f;
  return c < far ? c : far;
}

template <typename T>
float At(const T* plane, int64_t h, int64_t w, int64_t y, int64_t x) {
  if (y < 0 || y >= h || x < 0 || x >= w) return 0.0f;
  return Load(plane[y * w + x]);
}

template <typename T>
void GridSampleTyped(const GridPlan& p, const TensorRef& xt,
                     const TensorRef& gt, const TensorRef& yt) {
  const int64_t n = xt.shape.dims[0], c = xt.shape.dims[1];
  const int64_t ih = xt.shape.dims[2], iw = xt.shape.dims[3];
  const int64_t oh = gt.shape.dims[1], ow = gt.shape.dims[2];
  const T* x = xt.as<const T>();
  const T* grid = gt.as<const T>();
  T* y = yt.as<T>();
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t o = 0; o < oh * ow; ++o) {
      const T* g = grid + (b * oh * ow + o) * 2;
      const float sx = Source(p, Load(g[0]), iw);
      const float sy = Source(p, Load(g[1]), ih);
      for (int64_t ch = 0; ch < c; ++ch) {
        const T* plane = x + (b * c + ch) * ih * iw;
        float v;
        if (p.nearest) {
          v = At(plane, ih, iw, static_cast<int64_t>(std::nearbyint(sy)),
                 static_cast<int64_t>(std::nearbyint(sx)));
        } else {
          const float fx = std::floor(sx), fy = std::floor(sy);
          const int64_t x0 = static_cast<int64_t>(fx);
          const int64_t y0 = static_cast<int64_t>(fy);
          const float wx = sx - fx, wy = sy - fy;
          // PyTorch's nw/ne/sw/se weights: (1 - wx)(1 - wy), wx(1 - wy), ...
          v = At(plane, ih, iw, y0, x0) * ((1 - wx) * (1 - wy)) +
              At(plane, ih, iw, y0, x0 + 1) * (wx * (1 - wy)) +
              At(plane, ih, iw, y0 + 1, x0) * ((1 - wx) * wy) +
              At(plane, ih, iw, y0 + 1, x0 + 1) * (wx * wy);
        }
        y[(b * c + ch) * oh * ow + o] = Store<T>(v);
      }
    }
  }
}

}  // namespace

std::string InferGridSample(InferContext& ctx) {
  const char* op = "GridSample";
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) {
    using Kind = Attribute::Kind;
    err = CheckAttributes(op, ctx.attrs,
                          {{"mode", Kind::kString},
                           {"padding_mode", Kind::kString},
                           {"align_corners", Kind::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  GridPlan p;
  err = Plan(op, ctx.attrs, &p);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& grid = ctx.inputs[1];
  if (x.dtype != DType::kFloat32 && x.dtype != DType::kFloat16) {
    return Fail(op, DTypeRefusal(x.dtype, kFloatDTypes));
  }
  if (grid.dtype != x.dtype) {
    return Fail(op, std::string("grid dtype ") + DTypeName(grid.dtype) +
                        " differs from X's " + DTypeName(x.dtype) +
                        " (CANN's GridSampler2D takes one dtype)");
  }
  if (x.shape.rank != 4) {
    return Fail(op, "X must be 4-D NCHW, got " + x.shape.ToString());
  }
  const Shape& g = grid.shape;
  if (g.rank != 4 || g.dims[0] != x.shape.dims[0] || g.dims[3] != 2) {
    return Fail(op, "grid must be (N, H_out, W_out, 2) with X's N " +
                        x.shape.ToString() + ", got " + g.ToString());
  }
  const Shape out =
      MakeShape({x.shape.dims[0], x.shape.dims[1], g.dims[1], g.dims[2]});
  if (out.numel() > 0 && (x.shape.dims[2] == 0 || x.shape.dims[3] == 0)) {
    return Fail(op, "cannot sample an empty input plane");
  }
  return SetOutput(op, ctx, 0, x.dtype, out);
}

void RunGridSample(const RunContext& ctx) {
  GridPlan p;
  Plan("GridSample", ctx.attrs, &p);
  if (ctx.inputs[0].dtype == DType::kFloat16) {
    GridSampleTyped<Half>(p, ctx.inputs[0], ctx.inputs[1], ctx.outputs[0]);
  } else {
    GridSampleTyped<float>(p, ctx.inputs[0], ctx.inputs[1], ctx.outputs[0]);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
