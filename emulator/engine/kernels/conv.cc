// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Conv (1-D and 2-D here, 3-D in conv3d.cc; ONNX semantics: group, pads,
// strides, dilations, auto_pad, optional bias), float32 (float16 and
// bfloat16 via half_via_float.h). Each
// (image, group) is one GEMM: W_g [M/g, C/g*kH*kW] x im2col(X_g) [C/g*kH*kW,
// oH*oW], with the im2col matrix in the scratch buffer Infer sized. 1x1
// convolutions with unit stride and no padding skip im2col: X_g already is that
// matrix. This is the general path, any window and group. Depthwise
// convolutions (one input channel per group, MobileNet's and EfficientNet's)
// are no GEMM worth the name: they run on their own paths, conv_depthwise.cc
// (a tap loop over a padded copy, and the 3x3 fast paths in vector strips).
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

#include "conv_depthwise.h"
#include "conv_geometry.h"
#include "conv_int8.h"
#include "conv_onednn.h"
#include "eigen_maps.h"
#include "half_via_float.h"
#include "kernel_util.h"
#include "ops.h"
#include "spatial.h"

namespace ascend_emu {
namespace kernels {

std::string GetConvChannels(const char* op, const Attributes& attrs,
                            const TensorRef* inputs, size_t num_inputs,
                            ConvChannels* g) {
  const Shape& x = inputs[0].shape;
  const Shape& wt = inputs[1].shape;
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
  return "";
}

std::string GetConvGeometry(const char* op, const Attributes& attrs,
                            const TensorRef* inputs, size_t num_inputs,
                            ConvGeometry* g) {
  const Shape& x = inputs[0].shape;
  if (x.rank != 3 && x.rank != 4) {
    return Fail(
        op, "input must be 3-D or 4-D (1-D or 2-D conv), got " + x.ToString());
  }
  std::string err = GetConvChannels(op, attrs, inputs, num_inputs, g);
  if (!err.empty()) return err;
  WindowOptions opts;
  opts.allow_dilations = true;
  return ResolveWindow(op, attrs, x.rank - 2, &x.dims[2],
                       &inputs[1].shape.dims[2], opts, &g->w);
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

// Sets Conv's output and checks FusedConv's residual (shaped like it) and
// weight scale ([m]).
std::string SetFusedOutput(const char* op, InferContext& ctx, const Shape& out,
                           int64_t m) {
  std::string err = SetOutput(op, ctx, 0, DType::kFloat32, out);
  if (!err.empty()) return err;
  if (HasResidual(ctx.inputs.data(), ctx.inputs.size()) &&
      ctx.inputs[3].shape != out) {
    return Fail(op, "residual " + ctx.inputs[3].shape.ToString() +
                        " must have the output's shape " + out.ToString());
  }
  if (ctx.inputs.size() >= 5 && ctx.inputs[4].present() &&
      (ctx.inputs[4].shape.rank != 1 || ctx.inputs[4].shape.dims[0] != m)) {
    return Fail(op, "weight scale " + ctx.inputs[4].shape.ToString() +
                        " must be [" + std::to_string(m) + "]");
  }
  return "";
}

// The output and scratch of a 3-D Conv or FusedConv (conv3d.cc).
std::string InferConv3DCommon(const char* op, InferContext& ctx) {
  Conv3DGeometry g;
  std::string err = GetConv3DGeometry(op, ctx.attrs, ctx.inputs.data(),
                                      ctx.inputs.size(), &g);
  if (!err.empty()) return err;
  Shape out;
  out.rank = 5;
  out.dims[0] = g.n;
  out.dims[1] = g.m;
  for (int i = 0; i < 3; ++i) out.dims[2 + i] = g.w.out[i];
  err = SetFusedOutput(op, ctx, out, g.m);
  if (!err.empty()) return err;
  const int64_t bytes = Conv3DScratchBytes(g);
  if (bytes < 0) return Fail(op, "im2col buffer would be too large");
  ctx.scratch_bytes = static_cast<size_t>(bytes);
  return "";
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
  if (ctx.inputs[0].shape.rank == 5) return InferConv3DCommon(op, ctx);
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
  err = SetFusedOutput(op, ctx, out, g.m);
  if (!err.empty()) return err;
  const bool residual = HasResidual(ctx.inputs.data(), ctx.inputs.size());
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
    RunDepthwiseFloat(x, wt, bias, g, static_cast<float*>(ctx.scratch), y);
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
  const float* bias = ctx.num_inputs >= 3 && ctx.inputs[2].present()
                          ? ctx.inputs[2].as<const float>()
                          : nullptr;
  const float* scale = WeightScale(ctx.inputs, ctx.num_inputs);
  // Conv(X, W * S) + B is S * Conv(X, W) + B: the bias goes in after S.
  const float* own_bias = scale != nullptr ? nullptr : bias;
  if (ctx.inputs[0].shape.rank == 5) {
    Conv3DGeometry g;
    GetConv3DGeometry(kOp, ctx.attrs, ctx.inputs, ctx.num_inputs, &g);
    RunConv3D(ctx.inputs[0].as<const float>(), ctx.inputs[1].as<const float>(),
              own_bias, g, static_cast<float*>(ctx.scratch), y);
  } else {
    ConvGeometry g;
    GetConvGeometry(kOp, ctx.attrs, ctx.inputs, ctx.num_inputs, &g);
    RunConvOwn(ctx, g, own_bias);
  }
  const Shape& ys = ctx.outputs[0].shape;
  if (scale != nullptr && ys.dims[0] > 0 && ys.dims[1] > 0) {
    const int64_t images = ys.dims[0], m_count = ys.dims[1];
    const int64_t plane = ys.numel() / (images * m_count);
    for (int64_t n = 0; n < images; ++n) {
      for (int64_t m = 0; m < m_count; ++m) {
        float* p = y + (n * m_count + m) * plane;
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
