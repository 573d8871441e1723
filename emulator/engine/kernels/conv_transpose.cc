// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ConvTranspose for 3-D (NCDHW), 2-D (NCHW) and 1-D (NCL): group, strides,
// dilations, pads / auto_pad / output_shape, output_padding and an optional
// bias. The spatial axes are right-aligned in three (depth, height, width;
// the ones an op does not have are 1). Each image and group is one GEMM
// (W_g^T * X_g, on Eigen) into a column buffer, scattered into the output by
// col2im. float32; float16 and bfloat16 through half_via_float.h (fp32
// accumulation, the bias added in float, one rounding).
#include <cstdint>
#include <cstring>
#include <string>

#include "eigen_maps.h"
#include "half_via_float.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "spatial.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "ConvTranspose";

constexpr int32_t kAxes = 3;  // depth, height, width

struct TGeom {
  int64_t n = 0, c = 0, m = 0, group = 1;
  int64_t in[kAxes] = {1, 1, 1}, k[kAxes] = {1, 1, 1}, out[kAxes] = {1, 1, 1};
  int64_t stride[kAxes] = {1, 1, 1}, dil[kAxes] = {1, 1, 1};
  int64_t pad_begin[kAxes] = {0, 0, 0};
  int64_t cg() const { return c / group; }
  int64_t mg() const { return m / group; }
  // (PlanScratch checked these products against overflow.)
  int64_t kk() const { return k[0] * k[1] * k[2]; }
  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
};

// Validates shapes and attributes; fills the geometry. Shared by Infer and
// Run (Run ignores the message: Infer accepted the same input).
std::string Resolve(const Attributes& attrs, const TensorRef* inputs,
                    size_t num_inputs, TGeom* g) {
  const Shape& x = inputs[0].shape;
  const Shape& w = inputs[1].shape;
  if (x.rank < 3 || x.rank > 5) {
    return Fail(
        kOp, "input must be [N, C, L], [N, C, H, W] or [N, C, D, H, W], got " +
                 x.ToString());
  }
  if (w.rank != x.rank) {
    return Fail(kOp, "weight " + w.ToString() +
                         " must have the rank of input " + x.ToString());
  }
  const int32_t sr = x.rank - 2;
  const int32_t off = kAxes - sr;
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
  int64_t out_pad[kAxes] = {0, 0, 0};
  int64_t pads[2 * kAxes] = {0, 0, 0, 0, 0, 0};  // begin..., end... (spatial)
  int64_t out_shape[kAxes] = {-1, -1, -1};
  // Absent attributes keep the defaults above; an op fills only its own
  // (trailing) axes.
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
  for (int32_t i = off; i < kAxes; ++i) {
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

// The column buffer's size in floats, or -1 when it is too large. Every
// product is checked: with a zero-sized dim elsewhere, spatial dims alone
// are not bounded by the tensor-size check.
int64_t ColumnFloats(const TGeom& g) {
  int64_t kk = 0, mgk = 0, in_plane = 0, out_plane = 0, col = 0;
  if (!MulBounded(g.k[0], g.k[1], &kk) || !MulBounded(kk, g.k[2], &kk) ||
      !MulBounded(g.mg(), kk, &mgk) ||
      !MulBounded(g.in[0], g.in[1], &in_plane) ||
      !MulBounded(in_plane, g.in[2], &in_plane) ||
      !MulBounded(g.out[0], g.out[1], &out_plane) ||
      !MulBounded(out_plane, g.out[2], &out_plane) ||
      !MulBounded(mgk, in_plane, &col) || col > kMaxTensorBytes / 4) {
    return -1;
  }
  return col;
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
      const int64_t tap = r % g.kk();
      const int64_t kz = tap / (g.k[1] * g.k[2]);
      const int64_t ky = (tap / g.k[2]) % g.k[1];
      const int64_t kx = tap % g.k[2];
      float* yp = y + m * g.out_plane();
      const float* cp = col + r * g.in_plane();
      for (int64_t iz = 0; iz < g.in[0]; ++iz) {
        const int64_t oz = iz * g.stride[0] - g.pad_begin[0] + kz * g.dil[0];
        if (oz < 0 || oz >= g.out[0]) continue;
        for (int64_t iy = 0; iy < g.in[1]; ++iy) {
          const int64_t oy = iy * g.stride[1] - g.pad_begin[1] + ky * g.dil[1];
          if (oy < 0 || oy >= g.out[1]) continue;
          float* yrow = yp + (oz * g.out[1] + oy) * g.out[2];
          const float* crow = cp + (iz * g.in[1] + iy) * g.in[2];
          for (int64_t ix = 0; ix < g.in[2]; ++ix) {
            const int64_t ox =
                ix * g.stride[2] - g.pad_begin[2] + kx * g.dil[2];
            if (ox < 0 || ox >= g.out[2]) continue;
            yrow[ox] += crow[ix];
          }
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

std::string InferConvTransposeFloat(InferContext& ctx) {
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
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    if (ctx.inputs[i].present() && ctx.inputs[i].dtype != DType::kFloat32) {
      return Fail(kOp, DTypeRefusal(ctx.inputs[i].dtype,
                                    "float32, float16 or bfloat16"));
    }
  }
  TGeom g;
  err = Resolve(ctx.attrs, ctx.inputs.data(), ctx.inputs.size(), &g);
  if (!err.empty()) return err;
  const int64_t col = ColumnFloats(g);
  if (col < 0) return Fail(kOp, "scratch buffer is too large");
  ctx.scratch_bytes = static_cast<size_t>(col) * sizeof(float);
  Shape out = ctx.inputs[0].shape;
  out.dims[1] = g.m;
  for (int32_t i = 2; i < out.rank; ++i) {
    out.dims[i] = g.out[kAxes - out.rank + i];
  }
  return SetOutput(kOp, ctx, 0, DType::kFloat32, out);
}

void RunConvTransposeFloat(const RunContext& ctx) {
  TGeom g;
  Resolve(ctx.attrs, ctx.inputs, ctx.num_inputs, &g);
  if (ctx.outputs[0].shape.numel() == 0) return;
  const float* b = ctx.num_inputs > 2 && ctx.inputs[2].present()
                       ? ctx.inputs[2].as<const float>()
                       : nullptr;
  const int64_t x_image = g.c * g.in_plane();
  const int64_t y_image = g.m * g.out_plane();
  for (int64_t i = 0; i < g.n; ++i) {
    OneImage(g, ctx.inputs[0].as<const float>() + i * x_image,
             ctx.inputs[1].as<const float>(), b,
             static_cast<float*>(ctx.scratch),
             ctx.outputs[0].as<float>() + i * y_image);
  }
}

}  // namespace

ASCEND_EMU_HALF_VIA_FLOAT(ConvTranspose)

}  // namespace kernels
}  // namespace ascend_emu
