// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Resize (opset 13+) of 4-D NCHW tensors over H and W: nearest (every
// nearest_mode) and linear (bilinear), coordinate transformation modes
// half_pixel, pytorch_half_pixel, align_corners and asymmetric. scales or
// sizes must be a constant input, as in CANN; roi is ignored (it only
// matters for tf_crop_and_resize, which is refused). float32 and float16
// (computed in float).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "const_ints.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

enum class Coord { kHalfPixel, kPytorchHalfPixel, kAlignCorners, kAsymmetric };
enum class Nearest { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };

struct ResizePlan {
  bool linear = false;
  Coord coord = Coord::kHalfPixel;
  Nearest nearest = Nearest::kRoundPreferFloor;
  double scale[2] = {1.0, 1.0};  // H, W as ONNX defines them (out / in)
  Shape out;
};

bool Is(const char* a, const char* b) { return std::strcmp(a, b) == 0; }

std::string ParseAttrs(const char* op, const Attributes& attrs, ResizePlan* p) {
  const char* mode = AttrString(attrs, "mode", "nearest");
  if (Is(mode, "linear")) {
    p->linear = true;
  } else if (!Is(mode, "nearest")) {
    return Fail(op, std::string("mode '") + mode +
                        "' is not supported (nearest or linear)");
  }
  const char* ct =
      AttrString(attrs, "coordinate_transformation_mode", "half_pixel");
  if (Is(ct, "half_pixel")) {
    p->coord = Coord::kHalfPixel;
  } else if (Is(ct, "pytorch_half_pixel")) {
    p->coord = Coord::kPytorchHalfPixel;
  } else if (Is(ct, "align_corners")) {
    p->coord = Coord::kAlignCorners;
  } else if (Is(ct, "asymmetric")) {
    p->coord = Coord::kAsymmetric;
  } else {
    return Fail(op, std::string("coordinate_transformation_mode '") + ct +
                        "' is not supported");
  }
  const char* nm = AttrString(attrs, "nearest_mode", "round_prefer_floor");
  if (Is(nm, "round_prefer_floor")) {
    p->nearest = Nearest::kRoundPreferFloor;
  } else if (Is(nm, "round_prefer_ceil")) {
    p->nearest = Nearest::kRoundPreferCeil;
  } else if (Is(nm, "floor")) {
    p->nearest = Nearest::kFloor;
  } else if (Is(nm, "ceil")) {
    p->nearest = Nearest::kCeil;
  } else {
    return Fail(op, std::string("nearest_mode '") + nm + "' is not supported");
  }
  if (AttrInt(attrs, "exclude_outside", 0) != 0) {
    return Fail(op, "exclude_outside must be 0");
  }
  return "";
}

std::string Plan(const char* op, const Attributes& attrs, const TensorRef* in,
                 size_t n, ResizePlan* p) {
  std::string err = ParseAttrs(op, attrs, p);
  if (!err.empty()) return err;
  const Shape& x = in[0].shape;
  if (x.rank != 4) {
    return Fail(op, "input must be 4-D NCHW, got " + x.ToString());
  }
  auto given = [&](size_t i) {
    return i < n && in[i].present() && in[i].shape.numel() > 0;
  };
  const bool has_scales = given(2);
  const bool has_sizes = given(3);
  if (has_scales == has_sizes) {
    return Fail(op, "exactly one of scales and sizes must be given");
  }
  p->out = x;
  if (has_scales) {
    const TensorRef& s = in[2];
    if (s.dtype != DType::kFloat32 || s.shape.rank != 1 ||
        s.shape.dims[0] != 4) {
      return Fail(op, "scales must be a float32 tensor of 4 values");
    }
    if (s.data == nullptr) return Fail(op, "scales must be a constant");
    float v[4];
    std::memcpy(v, s.data, sizeof(v));
    if (v[0] != 1.0f || v[1] != 1.0f) {
      return Fail(op, "only H and W can be resized (N and C scales must be 1)");
    }
    for (int i = 0; i < 2; ++i) {
      const double sc = v[2 + i];
      if (!(sc > 0.0) || !std::isfinite(sc)) {
        return Fail(op, "scales must be finite and > 0");
      }
      const double o = std::floor(static_cast<double>(x.dims[2 + i]) * sc);
      if (o > static_cast<double>(kMaxTensorBytes)) {
        return Fail(op, "output is too large");
      }
      p->out.dims[2 + i] = static_cast<int64_t>(o);
      p->scale[i] = sc;
    }
  } else {
    ConstInts sizes;
    err = ReadConstInts(op, "sizes", in[3], &sizes);
    if (!err.empty()) return err;
    if (in[3].dtype != DType::kInt64 || sizes.size != 4) {
      return Fail(op, "sizes must be an int64 tensor of 4 values");
    }
    if (sizes[0] != x.dims[0] || sizes[1] != x.dims[1]) {
      return Fail(op, "only H and W can be resized (sizes must keep N and C)");
    }
    for (int i = 0; i < 2; ++i) {
      const int64_t o = sizes[2 + i];
      const int64_t d = x.dims[2 + i];
      if (o < 0) return Fail(op, "sizes must be >= 0");
      if (d == 0 && o > 0) {
        return Fail(op, "cannot resize an empty axis to " + std::to_string(o));
      }
      p->out.dims[2 + i] = o;
      p->scale[i] = d == 0 ? 1.0 : static_cast<double>(o) / d;
    }
  }
  // Each dim is bounded above, but their product may not be: refuse it
  // before anything multiplies the dims (scales of 1e9 on both axes).
  err = ValidateShape(p->out, 1);
  if (!err.empty()) return Fail(op, "output " + err);
  if (p->out.numel() > 0 && (x.dims[2] == 0 || x.dims[3] == 0)) {
    return Fail(op, "cannot resize an empty axis");
  }
  return "";
}

// Where output coordinate `o` falls in the input axis.
double SourceCoord(const ResizePlan& p, int axis, int64_t o, int64_t in_len,
                   int64_t out_len) {
  const double s = p.scale[axis];
  switch (p.coord) {
    case Coord::kHalfPixel:
      return (o + 0.5) / s - 0.5;
    case Coord::kPytorchHalfPixel:
      return out_len > 1 ? (o + 0.5) / s - 0.5 : 0.0;
    case Coord::kAlignCorners:
      return out_len == 1 ? 0.0
                          : static_cast<double>(o) * (in_len - 1) /
                                static_cast<double>(out_len - 1);
    case Coord::kAsymmetric:
      return o / s;
  }
  return 0.0;
}

int64_t NearestIndex(const ResizePlan& p, double c, int64_t in_len) {
  double r = 0.0;
  switch (p.nearest) {
    case Nearest::kRoundPreferFloor:
      r = c - std::floor(c) == 0.5 ? std::floor(c) : std::round(c);
      break;
    case Nearest::kRoundPreferCeil:
      r = c - std::floor(c) == 0.5 ? std::ceil(c) : std::round(c);
      break;
    case Nearest::kFloor:
      r = std::floor(c);
      break;
    case Nearest::kCeil:
      r = std::ceil(c);
      break;
  }
  if (r < 0.0) return 0;
  if (r > static_cast<double>(in_len - 1)) return in_len - 1;
  return static_cast<int64_t>(r);
}

// Linear neighbours i0, i1 and the weight of i1, with edge clamping.
void LinearTaps(double c, int64_t in_len, int64_t* i0, int64_t* i1, float* w) {
  if (c < 0.0) c = 0.0;
  if (c > static_cast<double>(in_len - 1)) c = static_cast<double>(in_len - 1);
  const double f = std::floor(c);
  *i0 = static_cast<int64_t>(f);
  *i1 = *i0 + 1 < in_len ? *i0 + 1 : *i0;
  *w = static_cast<float>(c - f);
}

template <typename T>
void ResizeTyped(const ResizePlan& p, const TensorRef& x, const TensorRef& y) {
  const int64_t planes = x.shape.dims[0] * x.shape.dims[1];
  const int64_t ih = x.shape.dims[2], iw = x.shape.dims[3];
  const int64_t oh = y.shape.dims[2], ow = y.shape.dims[3];
  if (planes * oh * ow == 0) return;
  const T* src = x.as<const T>();
  T* dst = y.as<T>();
  for (int64_t pl = 0; pl < planes; ++pl) {
    const T* in = src + pl * ih * iw;
    T* out = dst + pl * oh * ow;
    for (int64_t oy = 0; oy < oh; ++oy) {
      const double cy = SourceCoord(p, 0, oy, ih, oh);
      if (!p.linear) {
        const T* row = in + NearestIndex(p, cy, ih) * iw;
        for (int64_t ox = 0; ox < ow; ++ox) {
          out[oy * ow + ox] =
              row[NearestIndex(p, SourceCoord(p, 1, ox, iw, ow), iw)];
        }
        continue;
      }
      int64_t y0, y1;
      float wy;
      LinearTaps(cy, ih, &y0, &y1, &wy);
      for (int64_t ox = 0; ox < ow; ++ox) {
        int64_t x0, x1;
        float wx;
        LinearTaps(SourceCoord(p, 1, ox, iw, ow), iw, &x0, &x1, &wx);
        const float top =
            Load(in[y0 * iw + x0]) * (1 - wx) + Load(in[y0 * iw + x1]) * wx;
        const float bottom =
            Load(in[y1 * iw + x0]) * (1 - wx) + Load(in[y1 * iw + x1]) * wx;
        out[oy * ow + ox] = Store<T>(top * (1 - wy) + bottom * wy);
      }
    }
  }
}

}  // namespace

std::string InferResize(InferContext& ctx) {
  const char* op = "Resize";
  std::string err = CheckInputs(op, ctx, 1, 4);
  if (err.empty()) {
    using Kind = Attribute::Kind;
    err = CheckAttributes(op, ctx.attrs,
                          {{"mode", Kind::kString},
                           {"coordinate_transformation_mode", Kind::kString},
                           {"nearest_mode", Kind::kString},
                           {"cubic_coeff_a", Kind::kFloat},
                           {"exclude_outside", Kind::kInt},
                           {"extrapolation_value", Kind::kFloat}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const DType d = ctx.inputs[0].dtype;
  if (!IsFloat(d)) {
    return Fail(op, DTypeRefusal(d, "float32, float16 or bfloat16"));
  }
  ResizePlan p;
  err = Plan(op, ctx.attrs, ctx.inputs.data(), ctx.inputs.size(), &p);
  if (!err.empty()) return err;
  return SetOutput(op, ctx, 0, d, p.out);
}

void RunResize(const RunContext& ctx) {
  ResizePlan p;
  Plan("Resize", ctx.attrs, ctx.inputs, ctx.num_inputs, &p);
  if (ctx.inputs[0].dtype == DType::kFloat16) {
    ResizeTyped<Half>(p, ctx.inputs[0], ctx.outputs[0]);
  } else if (ctx.inputs[0].dtype == DType::kBFloat16) {
    ResizeTyped<BFloat16>(p, ctx.inputs[0], ctx.outputs[0]);
  } else {
    ResizeTyped<float>(p, ctx.inputs[0], ctx.outputs[0]);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
