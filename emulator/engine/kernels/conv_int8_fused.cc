// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// FusedConvDequant: what the emulator's atc makes of CANN's int8 chain
// Conv(int8) -> AscendDequant [-> Cast to float32] [-> Relu | Clip] when
// each step only feeds the next (docs/atc.md, "Conv fusions"), as CANN's
// graph compiler fuses AscendDequant into the cube op's output stage.
// Inputs: X int8, W int8, deq_scale (uint64 or float16, one or one per
// output channel), B int32 (optional: last, so the arity row can say so).
// Attributes: the int8 Conv's, the AscendDequant's (sqrt_mode, relu_flag,
// dtype), `to` (10: float16 out, AscendDequant's own; 1: float32, the Cast
// merged), `activation` (Relu, or Clip with `activation_params` [min, max])
// and, with the next int8 op's AscendQuant merged, its attributes behind
// `quant_` (quant_scale, quant_offset, ...): int8 out, that op's arithmetic
// (quant.h) on the dequantized value. Between two such Convs the int8
// tensor is agreed channels last at load (kernel.h's layout protocol), as
// the float Convs agree theirs.
// The result is bit for bit the unfused chain's: the int8 Conv runs as
// conv_int8.cc runs it, into scratch, then one pass applies AscendDequant's
// arithmetic (dequant.h, shared with the op) and the activation, and stores
// float16 or float32 (a float16 value widened exactly, as the Cast does).
// It saves the chain's three passes over the output and two of its tensors.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "conv_int8.h"
#include "conv_int8_epilogue.h"
#include "dequant.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "pointwise_int8.h"
#include "quant.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "FusedConvDequant";

// The attributes that are not the Conv's.
constexpr const char* kOwnAttrs[] = {
    "sqrt_mode",       "relu_flag",         "dtype",         "to",
    "activation",      "activation_params", "quant_scale",   "quant_offset",
    "quant_sqrt_mode", "quant_round_mode",  "quant_dst_type"};

constexpr const char* kQuantAttrs[] = {"scale", "offset", "sqrt_mode",
                                       "round_mode", "dst_type"};

// The prepared op: the int8 Conv's own (or null) and the scales, read once.
class FusedConvDequantPrepared final : public PreparedOp {
 public:
  std::unique_ptr<PreparedOp> conv;
  std::vector<DeqScale> scales;
  std::vector<float> vscales;  // each output channel's DeqScale::vscale
  // vscales with zeros up to a multiple of 8 (the vector passes' loads).
  std::vector<float> vscales8;
  // vscales repeated for as many whole pixels as fit kSmallChunk (at least
  // one): the channels-last requantization's.
  std::vector<float> rep_vs;
  bool any_special = false;
  Epilogue epilogue;  // read once: a run reads no attribute
  // With an AscendQuant merged: its table (BuildRequantTable), and where
  // the epilogue can be computed instead (MakeRequantComputed), that: on
  // the sums in registers where the Conv runs on the pointwise path, else
  // in one pass over the int32 result (requant_computed.h).
  RequantTable requant_table;
  bool computed = false;
  // Without an AscendQuant: the pointwise path dequantizes in registers
  // (MakeDequantComputed; pointwise's k.lo and k.hi).
  bool dequant_computed = false;
  PointwiseRequant pointwise;  // the pointwise path's (k: the constants)
  int32_t rank = 0;
  // The layouts agreed at load (kernel.h): int8 x and int8 y channels last,
  // between int8 Convs that both read and write it (MobileNet's chain of
  // 1x1, depthwise and 1x1 Convs), saving oneDNN's reorder of x and the
  // epilogue's transpose of y.
  bool x_nhwc = false, y_nhwc = false;

  // Channels last where the epilogue has a channels-last pass: uint64
  // scales, none special, a 4-D int8 result.
  bool ChannelsLastEpilogue() const {
#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST) && \
    defined(ASCEND_EMU_DEQUANT_VECTORS)
    return epilogue.u64 && !any_special && rank == 4;
#else
    return false;
#endif
  }
  TensorLayout PreferredOutputLayout(size_t index) const override {
    return index == 0 && epilogue.quant && ChannelsLastEpilogue() &&
                   ConvInt8WritesChannelsLast(conv.get(), x_nhwc)
               ? TensorLayout::kNhwc
               : TensorLayout::kPlain;
  }
  bool CanReadInput(size_t index, TensorLayout layout) const override {
    return index == 0 && layout == TensorLayout::kNhwc &&
           ChannelsLastEpilogue() && ConvInt8ReadsChannelsLast(conv.get());
  }
  void UseOutputLayout(size_t index, TensorLayout layout) override {
    if (index == 0) y_nhwc = layout == TensorLayout::kNhwc;
  }
  void UseInputLayout(size_t index, TensorLayout layout) override {
    if (index == 0) x_nhwc = layout == TensorLayout::kNhwc;
  }
};

// Each of the m output channels' vscale (one scale: m copies).
std::vector<float> ChannelVScales(const DeqScale* scales, int64_t count,
                                  int64_t m) {
  std::vector<float> vs(static_cast<size_t>(m));
  for (int64_t c = 0; c < m; ++c) vs[c] = scales[count == 1 ? 0 : c].vscale;
  return vs;
}

// The Conv's own attributes (InferConvInt8 refuses any other).
Attributes ConvAttributes(const Attributes& attrs) {
  Attributes conv = attrs;
  for (const char* name : kOwnAttrs) conv.map().erase(name);
  return conv;
}

// The int8 Conv's inputs X, W, B (B absent when the node has none) from
// FusedConvDequant's X, W, deq_scale, B.
std::vector<TensorRef> ConvInputs(const TensorRef* inputs, size_t n) {
  std::vector<TensorRef> in = {inputs[0], inputs[1]};
  if (n > 3 && inputs[3].present()) in.push_back(inputs[3]);
  return in;
}

}  // namespace

std::string InferFusedConvDequant(InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckInputs(kOp, ctx, 3, 4);
  if (!err.empty()) return err;
  Attributes own;
  for (const char* name : kOwnAttrs) {
    auto it = ctx.attrs.map().find(name);
    if (it != ctx.attrs.map().end()) own.map()[name] = it->second;
  }
  err = CheckAttributes(kOp, own,
                        {{"sqrt_mode", K::kInt},
                         {"relu_flag", K::kInt},
                         {"dtype", K::kInt},
                         {"to", K::kInt},
                         {"activation", K::kString},
                         {"activation_params", K::kFloats},
                         {"quant_scale", K::kFloat},
                         {"quant_offset", K::kFloat},
                         {"quant_sqrt_mode", K::kInt},
                         {"quant_round_mode", K::kString},
                         {"quant_dst_type", K::kString}});
  if (!err.empty()) return err;
  err = CheckOutputStage(kOp, own);
  if (!err.empty()) return err;
  const int64_t to = AttrInt(own, "to", 10);

  // The int8 Conv, as the Conv kernel checks it.
  const Attributes conv_attrs = ConvAttributes(ctx.attrs);
  const std::vector<TensorRef> conv_in =
      ConvInputs(ctx.inputs.data(), ctx.inputs.size());
  std::vector<TensorRef> conv_out(1);
  InferContext conv{conv_attrs, conv_in, conv_out};
  if (!ConvIsInt8(conv_in.data(), conv_in.size()))
    return Fail(kOp, "X and W must be int8 (CANN's int8 Conv2D)");
  err = InferConvInt8(conv);
  if (!err.empty()) return std::string(kOp) + ": " + err;  // "...: Conv: ..."

  // AscendDequant on its output, as that kernel checks it.
  const std::vector<TensorRef> deq_in = {conv_out[0], ctx.inputs[2]};
  std::vector<TensorRef> deq_out(1);
  Attributes deq_attrs;
  for (const char* name : {"sqrt_mode", "relu_flag", "dtype"}) {
    auto it = own.map().find(name);
    if (it != own.map().end()) deq_attrs.map()[name] = it->second;
  }
  InferContext deq{deq_attrs, deq_in, deq_out};
  err = InferAscendDequant(deq);
  if (!err.empty()) return std::string(kOp) + ": " + err;

  // The merged AscendQuant (its attributes all behind quant_, scale
  // required), as that kernel checks it on the dequantized value.
  const DType dequantized = to == 1 ? DType::kFloat32 : DType::kFloat16;
  std::vector<TensorRef> quant_in(1);
  quant_in[0].dtype = dequantized;
  quant_in[0].shape = conv_out[0].shape;
  Attributes quant_attrs;
  for (const char* name : kQuantAttrs) {
    auto it = own.map().find(std::string(kQuantPrefix) + name);
    if (it != own.map().end()) quant_attrs.map()[name] = it->second;
  }
  const bool quant = !quant_attrs.map().empty();
  if (quant) {
    if (!quant_attrs.Has("scale"))
      return Fail(kOp, "a merged AscendQuant needs quant_scale");
    std::vector<TensorRef> quant_out(1);
    InferContext q{quant_attrs, quant_in, quant_out};
    err = InferAscendQuant(q);
    if (!err.empty()) return std::string(kOp) + ": " + err;
  }

  err = PrepareOutputs(kOp, ctx, 1);
  if (!err.empty()) return err;
  err = SetOutput(kOp, ctx, 0, quant ? DType::kInt8 : dequantized,
                  conv_out[0].shape);
  if (!err.empty()) return err;
  // The int32 conv output, the dequantized value when an AscendQuant
  // follows, then the Conv's own scratch.
  ctx.scratch_bytes =
      Align64(static_cast<size_t>(conv_out[0].nbytes())) +
      (quant ? Align64(static_cast<size_t>(quant_in[0].nbytes())) : size_t{0}) +
      conv.scratch_bytes;
  return "";
}

std::unique_ptr<PreparedOp> PrepareFusedConvDequant(const PrepareContext& ctx) {
  const TensorRef& d = ctx.inputs[2];
  if (d.data == nullptr) return nullptr;  // computed scales: read per run
  auto p = std::make_unique<FusedConvDequantPrepared>();
  p->epilogue = ReadEpilogue(ctx.attrs, d);
  if (p->epilogue.quant) p->requant_table = BuildRequantTable(p->epilogue);
  const int64_t count = d.shape.numel();
  p->scales = ReadDeqScales(d, &p->any_special);
  if (!ctx.outputs.empty() && ctx.outputs[0].shape.rank >= 2) {
    const int64_t m = ctx.outputs[0].shape.dims[1];
    p->vscales = ChannelVScales(p->scales.data(), count, m);
    const int64_t per =
        std::max<int64_t>(1, kSmallChunk / std::max<int64_t>(m, 1));
    for (int64_t k = 0; k < per; ++k) {
      p->rep_vs.insert(p->rep_vs.end(), p->vscales.begin(), p->vscales.end());
    }
  }
  if (!ctx.outputs.empty()) p->rank = ctx.outputs[0].shape.rank;
  const std::vector<TensorRef> conv_in =
      ConvInputs(ctx.inputs.data(), ctx.inputs.size());
  const PrepareContext conv{ctx.attrs, conv_in, ctx.outputs};
  p->conv = PrepareConvInt8(conv);
  const int64_t m = ctx.outputs.empty() || ctx.outputs[0].shape.rank < 2
                        ? 0
                        : ctx.outputs[0].shape.dims[1];
  if (static_cast<int64_t>(p->vscales.size()) == m && m > 0) {
    // (One or neither: the first wants an AscendQuant, the second none.)
    p->computed =
        MakeRequantComputed(p->epilogue, p->any_special, &p->pointwise.k);
    p->dequant_computed =
        MakeDequantComputed(p->epilogue, p->any_special, &p->pointwise.k);
  }
  if (p->computed || p->dequant_computed) {
    p->vscales8 = p->vscales;
    p->vscales8.resize(static_cast<size_t>((m + 7) / 8 * 8), 0.0f);
    p->pointwise.vscale = p->vscales8.data();
    p->pointwise.scales = p->scales.data();
    p->pointwise.per_channel = count != 1;
    p->pointwise.epilogue = &p->epilogue;
  }
  return p;
}

void RunFusedConvDequant(const RunContext& ctx) {
  const TensorRef& d = ctx.inputs[2];
  TensorRef& y = ctx.outputs[0];
  const Shape& shape = y.shape;
  const auto* p = static_cast<const FusedConvDequantPrepared*>(ctx.prepared);

  // The int8 Conv into the scratch's first part.
  TensorRef acc;
  acc.dtype = DType::kInt32;
  acc.shape = shape;
  acc.data = ctx.scratch;
  const size_t acc_room = Align64(static_cast<size_t>(acc.nbytes()));
  const Epilogue full = p != nullptr ? p->epilogue : ReadEpilogue(ctx.attrs, d);
  // With a prepared AscendQuant table, the passes below only dequantize
  // (to float16) and the table does the rest.
  const RequantTable* table =
      p != nullptr && !p->requant_table.empty() ? &p->requant_table : nullptr;
  const Epilogue e = table != nullptr ? DequantOnly(full) : full;
  // Where the epilogue writes: y, or (an AscendQuant merged) the scratch
  // after acc, quantized into y at the end.
  TensorRef deq;
  deq.dtype = e.to_float ? DType::kFloat32 : DType::kFloat16;
  deq.shape = shape;
  deq.data = static_cast<unsigned char*>(ctx.scratch) + acc_room;
  const size_t deq_room =
      full.quant ? Align64(static_cast<size_t>(deq.nbytes())) : size_t{0};
  void* out = full.quant ? deq.data : y.data;
  const bool has_bias = ctx.num_inputs > 3 && ctx.inputs[3].present();
  const TensorRef conv_in[3] = {ctx.inputs[0], ctx.inputs[1],
                                has_bias ? ctx.inputs[3] : TensorRef{}};
  const RunContext conv{
      ctx.attrs,
      conv_in,
      has_bias ? size_t{3} : size_t{2},
      &acc,
      1,
      static_cast<unsigned char*>(ctx.scratch) + acc_room + deq_room,
      p != nullptr ? p->conv.get() : nullptr};
#if defined(ASCEND_EMU_POINTWISE_REQUANT)
  // The pointwise Conv with the whole epilogue on its sums in registers:
  // nothing between the Conv and y is stored.
  if (p != nullptr && p->computed && !p->x_nhwc && !p->y_nhwc &&
      ConvInt8PointwisePlan(p->conv.get()) != nullptr) {
    RunPointwiseInt8Requant(*ConvInt8PointwisePlan(p->conv.get()),
                            ctx.inputs[0].as<const int8_t>(), conv.scratch,
                            p->pointwise, y.as<int8_t>());
    return;
  }
  if (p != nullptr && p->dequant_computed && !p->x_nhwc && !p->y_nhwc &&
      ConvInt8PointwisePlan(p->conv.get()) != nullptr) {
    RunPointwiseInt8Dequant(*ConvInt8PointwisePlan(p->conv.get()),
                            ctx.inputs[0].as<const int8_t>(), conv.scratch,
                            p->pointwise, p->epilogue.to_float, y.data);
    return;
  }
#endif
  // Channels last where oneDNN writes that and the scales are uint64
  // (float16 scales, v100 chips, take the NCHW pass).
  const int32_t* channels_last = nullptr;
  // (Unused where the channels-last passes are not built: off x86-64.)
  [[maybe_unused]] const bool x_nhwc = p != nullptr && p->x_nhwc;
  const bool y_nhwc = p != nullptr && p->y_nhwc;
#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST)
  if (e.u64 || x_nhwc) {
    channels_last = RunConvInt8KeepChannelsLast(conv, x_nhwc);
  } else {
    RunConvInt8(conv);
  }
#else
  RunConvInt8(conv);
#endif

  std::vector<DeqScale> read;
  const DeqScale* scales;
  bool any_special = false;
  const int64_t count = d.shape.numel();
  if (p != nullptr) {
    scales = p->scales.data();
    any_special = p->any_special;
  } else {
    read = ReadDeqScales(d, &any_special);
    scales = read.data();
  }
  std::vector<float> read_vs;
  [[maybe_unused]] const float* vs;
  if (p != nullptr && p->vscales.size() == static_cast<size_t>(shape.dims[1])) {
    vs = p->vscales.data();
  } else {
    read_vs = ChannelVScales(scales, count, shape.dims[1]);
    vs = read_vs.data();
  }
  const int64_t plane = shape.rank == 4   ? shape.dims[2] * shape.dims[3]
                        : shape.rank == 3 ? shape.dims[2]
                                          : int64_t{1};
  const int64_t m = shape.dims[1], n = shape.dims[0];
#if defined(ASCEND_EMU_REQUANT_COMPUTED)
  // The epilogue computed in one pass over the int32 result (planes under
  // a vector's length NCHW to NCHW keep the table's passes).
  if (p != nullptr && p->computed) {
    const PointwiseRequant& r = p->pointwise;
    if (y_nhwc && channels_last != nullptr) {
      const int64_t per = static_cast<int64_t>(p->rep_vs.size()) / m;
      RequantNhwc(channels_last, y.shape.numel(), m, p->rep_vs.data(), per,
                  r.scales, r.per_channel, full, r.k, y.as<int8_t>());
      return;
    }
    if (!y_nhwc && channels_last != nullptr) {
      RequantChannelsLastToPlanes(channels_last, n, m, plane, r.vscale,
                                  r.scales, r.per_channel, full, r.k,
                                  y.as<int8_t>());
      return;
    }
    if (!y_nhwc && plane >= 8) {
      RequantPlanes(acc.as<const int32_t>(), n, m, plane, r.vscale, r.scales,
                    r.per_channel, full, r.k, y.as<int8_t>());
      return;
    }
  }
#endif
#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST) && \
    defined(ASCEND_EMU_DEQUANT_VECTORS)
  if (y_nhwc && channels_last != nullptr) {
    // Channels last in and out (only with uint64 scales, none special, and
    // an AscendQuant merged, so prepared with its table:
    // ChannelsLastEpilogue), chunks of whole pixels.
    const int64_t per =
        m > 0 ? static_cast<int64_t>(p->rep_vs.size()) / m : int64_t{1};
    RequantNhwcByTable(channels_last, y.shape.numel(), m, scales, count != 1,
                       p->rep_vs.data(), per, *table, y.as<int8_t>());
    return;
  }
#endif
#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST)
  if (channels_last != nullptr && !any_special) {
    ApplyEpilogueChannelsLast(channels_last, n, m, plane, scales, vs,
                              count != 1, e, out);
  } else if (channels_last != nullptr) {
    // A special (inf / NaN) scale: the reference on every element.
    ApplyEpilogueChannelsLastReference(channels_last, n, m, plane, scales,
                                       count != 1, e, out);
  }
#endif
  if (channels_last == nullptr) {
    ApplyEpilogue(acc.as<const int32_t>(), n, m, plane, scales, count != 1,
                  any_special, e, out);
  }
  if (!full.quant) return;
  if (table != nullptr) {
    if (y_nhwc) {
      RequantByTableTransposed(*table, deq.as<const Half>(), n, m, plane,
                               y.as<int8_t>());
    } else {
      RequantByTable(*table, deq.as<const Half>(), y.shape.numel(),
                     y.as<int8_t>());
    }
    return;
  }
  if (y_nhwc) {
    // y agreed channels last, the result NCHW (oneDNN's fast path declined
    // this run).
    QuantizeTransposed(e, deq, n, m, plane, y.as<int8_t>());
  } else {
    QuantizeOut(e, deq, y);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
