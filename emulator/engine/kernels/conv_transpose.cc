// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ConvTranspose for 2-D (NCHW) and 1-D (NCL, run as height 1): group,
// strides, dilations, pads / auto_pad / output_shape, output_padding and an
// optional bias. Each image and group is one GEMM (W_g^T * X_g, on Eigen)
// into a column buffer, scattered into the output by col2im. float32, and
// float16 through float copies of the operands (fp32 accumulation).
#include <cstdint>
#include <cstring>
#include <string>

#include "eigen_maps.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "spatial.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "ConvTranspose";

struct TGeom {
  int64_t n = 0, c = 0, m = 0, group = 1;
  int64_t in[2] = {1, 1}, k[2] = {1, 1}, out[2] = {1, 1};
  int64_t stride[2] = {1, 1}, dil[2] = {1, 1}, pad_begin[2] = {0, 0};
  int64_t cg() const { return c / group; }
  int64_t mg() const { return m / group; }
  int64_t kk() const { return k[0] * k[1]; }
  int64_t in_plane() const { return in[0] * in[1]; }
  int64_t out_plane() const { return out[0] * out[1]; }
};

// Validates shapes and attributes; fills the geometry. Shared by Infer and
// Run (Run ignores the message: Infer accepted the same input).
std::string Resolve(const Attributes& attrs, const TensorRef* inputs,
                    size_t num_inputs, TGeom* g) {
  const Shape& x = inputs[0].shape;
  const Shape& w = inputs[1].shape;
  if (x.rank != 3 && x.rank != 4) {
    return Fail(kOp,
                "input must be [N, C, L] or [N, C, H, W], got " + x.ToString());
  }
  if (w.rank != x.rank) {
    return Fail(kOp, "weight " + w.ToString() +
                         " must have the rank of input " + x.ToString());
  }
  const int32_t sr = x.rank - 2;
  const int32_t off = 2 - sr;
  g->n = x.dims[0];
  g->c = x.dims[1];
  g->group = AttrInt(attrs, "group", 1);
  if (g->group < 1 || g->group > kMaxTensorBytes) {
    return Fail(kOp, "group must be >= 1");
  }
  if (g->c % g->group != 0 || w.dims[0] != g->c) {
    return Fail(kOp, "weight " + w.ToString() + " and group " +
                         std::to_string(g->group) + " do not fit input " +
                         x.ToString());
  }
  if (!MulBounded(w.dims[1], g->group, &g->m)) {
    return Fail(kOp, "too many output channels");
  }
  for (int32_t i = 0; i < sr; ++i) {
    g->in[off + i] = x.dims[2 + i];
    g->k[off + i] = w.dims[2 + i];
  }
  const IntsView ks = AttrInts(attrs, "kernel_shape");
  if (ks.present) {
    bool same = ks.size == static_cast<size_t>(sr);
    for (int32_t i = 0; same && i < sr; ++i) same = ks[i] == w.dims[2 + i];
    if (!same) return Fail(kOp, "kernel_shape does not match the weight");
  }
  if (num_inputs > 2 && inputs[2].present()) {
    const Shape& b = inputs[2].shape;
    if (b.rank != 1 || b.dims[0] != g->m) {
      return Fail(kOp, "bias " + b.ToString() + " must be [" +
                           std::to_string(g->m) + "]");
    }
  }
  int64_t out_pad[2] = {0, 0};
  int64_t pads[4] = {0, 0, 0, 0};  // begin..., end... (spatial order)
  int64_t out_shape[2] = {-1, -1};
  // Absent attributes keep the defaults above; 1-D ops fill only the width.
  std::string err = ReadInts(kOp, attrs, "strides", sr, 1, 1, &g->stride[off]);
  if (err.empty())
    err = ReadInts(kOp, attrs, "dilations", sr, 1, 1, &g->dil[off]);
  if (err.empty()) {
    err = ReadInts(kOp, attrs, "output_padding", sr, 0, 0, &out_pad[off]);
  }
  if (err.empty()) err = ReadInts(kOp, attrs, "pads", 2 * sr, 0, 0, pads);
  if (err.empty()) {
    err = ReadInts(kOp, attrs, "output_shape", sr, 0, -1, &out_shape[off]);
  }
  if (!err.empty()) return err;
  const char* auto_pad = AttrString(attrs, "auto_pad", "NOTSET");
  const bool notset = std::strcmp(auto_pad, "NOTSET") == 0;
  const bool valid = std::strcmp(auto_pad, "VALID") == 0;
  const bool upper = std::strcmp(auto_pad, "SAME_UPPER") == 0;
  const bool lower = std::strcmp(auto_pad, "SAME_LOWER") == 0;
  if (!notset && !valid && !upper && !lower) {
    return Fail(kOp, std::string("auto_pad '") + auto_pad + "' is invalid");
  }
  if (!notset && HasAttr(attrs, "pads", Attribute::Kind::kInts)) {
    return Fail(kOp, "pads and auto_pad cannot both be set");
  }
  for (int32_t i = off; i < 2; ++i) {
    const int64_t s = g->stride[i];
    const int64_t d = g->dil[i];
    if (out_pad[i] >= (s > d ? s : d)) {
      return Fail(kOp,
                  "output_padding must be smaller than the stride or "
                  "the dilation");
    }
    if (g->k[i] < 1) return Fail(kOp, "kernel dims must be >= 1");
    // Products bounded by 2^40 each, so the sum cannot overflow.
    int64_t span = 0;
    int64_t reach = 0;
    if (!MulBounded(s, g->in[i] > 0 ? g->in[i] - 1 : 0, &span) ||
        !MulBounded(g->k[i] - 1, d, &reach)) {
      return Fail(kOp, "output is too large");
    }
    const int64_t full = span + out_pad[i] + reach + 1;
    int64_t target = out_shape[i];
    if (target < 0 && (upper || lower) && !MulBounded(g->in[i], s, &target)) {
      return Fail(kOp, "output is too large");
    }
    int64_t begin = 0, end = 0;
    if (target >= 0) {
      const int64_t total = full - target;
      if (total < 0) {
        return Fail(kOp, "output_shape is larger than the full output");
      }
      // Per the ONNX spec, SAME_UPPER puts the smaller half in front.
      begin = lower ? total - total / 2 : total / 2;
      end = total - begin;
    } else if (notset) {
      begin = pads[i - off];
      end = pads[i - off + sr];
    }
    if (g->in[i] == 0) {
      g->out[i] = 0;
    } else {
      g->out[i] = full - begin - end;
      if (g->out[i] < 0) return Fail(kOp, "pads exceed the output size");
    }
    g->pad_begin[i] = begin;
  }
  return "";
}

// Scratch: the column buffer, then (fp16 only) float copies of one image,
// the weight and one output image.
struct ScratchPlan {
  int64_t col = 0, x = 0, w = 0, y = 0;  // in floats
};

bool PlanScratch(const TGeom& g, bool half, ScratchPlan* p) {
  // Every product is checked: with a zero-sized dim elsewhere, spatial dims
  // alone are not bounded by the tensor-size check.
  int64_t kk = 0, mgk = 0, in_plane = 0, out_plane = 0;
  if (!MulBounded(g.k[0], g.k[1], &kk) || !MulBounded(g.mg(), kk, &mgk) ||
      !MulBounded(g.in[0], g.in[1], &in_plane) ||
      !MulBounded(g.out[0], g.out[1], &out_plane) ||
      !MulBounded(mgk, in_plane, &p->col)) {
    return false;
  }
  if (half) {
    if (!MulBounded(g.c, in_plane, &p->x)) return false;
    if (!MulBounded(g.c, mgk, &p->w)) return false;
    if (!MulBounded(g.m, out_plane, &p->y)) return false;
  }
  const int64_t total = p->col + p->x + p->w + p->y;
  return total <= kMaxTensorBytes / 4;
}

// One image: Y (m, out_plane) from X (c, in_plane) in float.
void OneImage(const TGeom& g, const float* x, const float* w, const float* b,
              float* col, float* y) {
  const int64_t mgk = g.mg() * g.kk();
  std::memset(y, 0, sizeof(float) * static_cast<size_t>(g.m * g.out_plane()));
  for (int64_t gi = 0; gi < g.group; ++gi) {
    Matrix(col, mgk, g.in_plane()).noalias() =
        ConstMatrix(w + gi * g.cg() * mgk, g.cg(), mgk).transpose() *
        ConstMatrix(x + gi * g.cg() * g.in_plane(), g.cg(), g.in_plane());
    for (int64_t r = 0; r < mgk; ++r) {
      const int64_t m = gi * g.mg() + r / g.kk();
      const int64_t ky = (r % g.kk()) / g.k[1];
      const int64_t kx = r % g.k[1];
      float* yp = y + m * g.out_plane();
      const float* cp = col + r * g.in_plane();
      for (int64_t iy = 0; iy < g.in[0]; ++iy) {
        const int64_t oy = iy * g.stride[0] - g.pad_begin[0] + ky * g.dil[0];
        if (oy < 0 || oy >= g.out[0]) continue;
        for (int64_t ix = 0; ix < g.in[1]; ++ix) {
          const int64_t ox = ix * g.stride[1] - g.pad_begin[1] + kx * g.dil[1];
          if (ox < 0 || ox >= g.out[1]) continue;
          yp[oy * g.out[1] + ox] += cp[iy * g.in[1] + ix];
        }
      }
    }
  }
  if (b != nullptr) {
    for (int64_t m = 0; m < g.m; ++m) {
      float* yp = y + m * g.out_plane();
      for (int64_t i = 0; i < g.out_plane(); ++i) yp[i] += b[m];
    }
  }
}

}  // namespace

std::string InferConvTranspose(InferContext& ctx) {
  using Kind = Attribute::Kind;
  std::string err = CheckInputs(kOp, ctx, 2, 3);
  if (err.empty()) {
    err = CheckAttributes(kOp, ctx.attrs,
                          {{"auto_pad", Kind::kString},
                           {"dilations", Kind::kInts},
                           {"group", Kind::kInt},
                           {"kernel_shape", Kind::kInts},
                           {"output_padding", Kind::kInts},
                           {"output_shape", Kind::kInts},
                           {"pads", Kind::kInts},
                           {"strides", Kind::kInts}});
  }
  if (err.empty()) err = PrepareOutputs(kOp, ctx, 1);
  if (!err.empty()) return err;
  const DType d = ctx.inputs[0].dtype;
  // Its half path reads Eigen::half directly; bf16 has no converter here.
  if (!IsFloat(d) || d == DType::kBFloat16) {
    return Fail(kOp, DTypeRefusal(d, "float32 or float16"));
  }
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    if (ctx.inputs[i].present() && ctx.inputs[i].dtype != d) {
      return Fail(kOp, "all inputs must be " + std::string(DTypeName(d)));
    }
  }
  TGeom g;
  err = Resolve(ctx.attrs, ctx.inputs.data(), ctx.inputs.size(), &g);
  if (!err.empty()) return err;
  ScratchPlan sp;
  if (!PlanScratch(g, d == DType::kFloat16, &sp)) {
    return Fail(kOp, "scratch buffer is too large");
  }
  ctx.scratch_bytes =
      static_cast<size_t>(sp.col + sp.x + sp.w + sp.y) * sizeof(float);
  Shape out = ctx.inputs[0].shape;
  out.dims[1] = g.m;
  if (out.rank == 4) {
    out.dims[2] = g.out[0];
    out.dims[3] = g.out[1];
  } else {
    out.dims[2] = g.out[1];
  }
  return SetOutput(kOp, ctx, 0, d, out);
}

void RunConvTranspose(const RunContext& ctx) {
  TGeom g;
  Resolve(ctx.attrs, ctx.inputs, ctx.num_inputs, &g);
  const TensorRef& x = ctx.inputs[0];
  const bool half = x.dtype == DType::kFloat16;
  const bool has_bias = ctx.num_inputs > 2 && ctx.inputs[2].present();
  if (ctx.outputs[0].shape.numel() == 0) return;
  ScratchPlan sp;
  PlanScratch(g, half, &sp);
  float* col = static_cast<float*>(ctx.scratch);
  const int64_t x_image = g.c * g.in_plane();
  const int64_t y_image = g.m * g.out_plane();
  if (!half) {
    const float* b = has_bias ? ctx.inputs[2].as<const float>() : nullptr;
    for (int64_t i = 0; i < g.n; ++i) {
      OneImage(g, x.as<const float>() + i * x_image,
               ctx.inputs[1].as<const float>(), b, col,
               ctx.outputs[0].as<float>() + i * y_image);
    }
    return;
  }
  float* xf = col + sp.col;
  float* wf = xf + sp.x;
  float* yf = wf + sp.w;
  const Half* wh = ctx.inputs[1].as<const Half>();
  for (int64_t j = 0; j < sp.w; ++j) wf[j] = Load(wh[j]);
  // The bias is added while rounding to half, in float.
  for (int64_t i = 0; i < g.n; ++i) {
    const Half* xh = x.as<const Half>() + i * x_image;
    for (int64_t j = 0; j < x_image; ++j) xf[j] = Load(xh[j]);
    OneImage(g, xf, wf, nullptr, col, yf);
    Half* yh = ctx.outputs[0].as<Half>() + i * y_image;
    for (int64_t m = 0; m < g.m; ++m) {
      const float bias =
          has_bias ? Load(ctx.inputs[2].as<const Half>()[m]) : 0.0f;
      for (int64_t p = 0; p < g.out_plane(); ++p) {
        yh[m * g.out_plane() + p] =
            Store<Half>(yf[m * g.out_plane() + p] + bias);
      }
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
