// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// conv_int8.h: CANN's int8 Conv2D: the reference loop, the exact float
// paths, the channels-last depthwise path and the choice between them and
// oneDNN's int8 convolution (conv_int8_onednn.cc).
#include "conv_int8.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "conv_geometry.h"
#include "conv_int8_prepared.h"
#include "conv_onednn.h"
#include "depthwise_int8.h"
#include "kernel_util.h"
#include "numeric.h"
#include "onednn.h"
#include "pointwise_int8.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "Conv";

// SetConvInt8ViaFloatForTest: the exact float paths (on), or only oneDNN's
// int8 convolution and the reference loop (off).
bool g_via_float = true;
// SetConvInt8PointwiseForTest.
PointwiseUse g_pointwise = PointwiseUse::kWhereOnednnInexact;

// The exact float paths. Every product (x - offset_x) * w is an integer of
// magnitude at most 255 * 128 = 32640, so any float32 sum of up to 514 of
// them is an integer below 2^24 at every step, in any order and with FMA:
// exact (the depthwise path's bound). The dense path bounds the sums by the
// weights themselves (SliceExact): a reduction whose every output channel
// has |x - offset_x| * sum|w| <= 2^24 runs as one float convolution of
// (x - offset_x), zero padding standing for the offset_x padding; a larger
// one (group 1) as several over slices of the input channels, each result
// converted to int32 and summed in int32 (wrapping, as the reference loop).
constexpr int64_t kExactTerms = 514;
// Floats per block of the depthwise path's input or output (256 KB: L2).
constexpr int64_t kDepthwiseBlockFloats = 64 * 1024;

// xf = x - ox as float.
void ToFloat(const int8_t* __restrict x, int64_t count, int32_t ox,
             float* __restrict xf) {
  for (int64_t i = 0; i < count; ++i)
    xf[i] = static_cast<float>(static_cast<int32_t>(x[i]) - ox);
}

// y [channels, plane] = yf (exact integers) + bias per channel (or 0), or
// y += yf when `add`; int32 wrapping.
void ToInt32(const float* __restrict yf, const int32_t* bias, bool add,
             int64_t channels, int64_t plane, int32_t* __restrict y) {
  for (int64_t c = 0; c < channels; ++c) {
    const float* src = yf + c * plane;
    uint32_t* dst = reinterpret_cast<uint32_t*>(y + c * plane);
    if (add) {
      for (int64_t i = 0; i < plane; ++i)
        dst[i] += static_cast<uint32_t>(static_cast<int32_t>(src[i]));
    } else {
      const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[c]) : 0;
      for (int64_t i = 0; i < plane; ++i)
        dst[i] = static_cast<uint32_t>(static_cast<int32_t>(src[i])) + b;
    }
  }
}

// Depthwise (one input channel per group, any channel multiplier): conv.cc's
// float depthwise kernels over blocks of channels converted to float. The
// scratch: x block, y block, all weights, the padded plane.
struct DepthwisePlan {
  int64_t block = 0;  // input channels per block
  size_t x_off = 0, y_off = 0, w_off = 0, pad_off = 0, bytes = 0;
};

bool MakeDepthwisePlan(const ConvGeometry& g, DepthwisePlan* p) {
  const int64_t taps = g.w.kernel[0] * g.w.kernel[1];
  if (!g.depthwise() || taps > kExactTerms || g.c == 0) return false;
  const int64_t per =
      std::max<int64_t>({g.in_plane(), g.mg() * g.out_plane(), int64_t{1}});
  p->block = std::min(g.c, std::max<int64_t>(1, kDepthwiseBlockFloats / per));
  p->x_off = 0;
  p->y_off = Align64(p->block * g.in_plane() * 4);
  p->w_off = p->y_off + Align64(p->block * g.mg() * g.out_plane() * 4);
  p->pad_off = p->w_off + Align64(g.m * taps * 4);
  p->bytes = p->pad_off + Align64(DepthwisePaddedFloats(g.w) * 4);
  return p->bytes <= static_cast<size_t>(kMaxTensorBytes);
}

void RunDepthwiseViaFloat(const RunContext& ctx, const ConvGeometry& g,
                          const DepthwisePlan& p) {
  const int8_t* x = ctx.inputs[0].as<const int8_t>();
  const int8_t* w = ctx.inputs[1].as<const int8_t>();
  const int32_t* bias = ctx.num_inputs >= 3 && ctx.inputs[2].present()
                            ? ctx.inputs[2].as<const int32_t>()
                            : nullptr;
  int32_t* y = ctx.outputs[0].as<int32_t>();
  const int32_t ox = OffsetX(ctx.attrs);
  auto* base = static_cast<unsigned char*>(ctx.scratch);
  float* xf = reinterpret_cast<float*>(base + p.x_off);
  float* yf = reinterpret_cast<float*>(base + p.y_off);
  float* wf = reinterpret_cast<float*>(base + p.w_off);
  float* pad = reinterpret_cast<float*>(base + p.pad_off);
  const int64_t taps = g.w.kernel[0] * g.w.kernel[1], mg = g.mg();
  ToFloat(w, g.m * taps, 0, wf);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c0 = 0; c0 < g.c; c0 += p.block) {
      ConvGeometry gb = g;
      gb.n = 1;
      gb.c = gb.group = std::min(p.block, g.c - c0);
      gb.m = gb.c * mg;
      ToFloat(x + (n * g.c + c0) * g.in_plane(), gb.c * g.in_plane(), ox, xf);
      RunDepthwiseFloat(xf, wf + c0 * mg * taps, nullptr, gb, pad, yf);
      ToInt32(yf, bias != nullptr ? bias + c0 * mg : nullptr, false, gb.m,
              g.out_plane(), y + (n * g.m + c0 * mg) * g.out_plane());
    }
  }
}

// Dense and grouped: oneDNN's float convolution (prepared at load) per
// slice of `chunk` input channels (group 1), or over all of them (grouped,
// Cin/group * kH * kW <= kExactTerms). The scratch: x slice as float, y as
// float, the float convolution's own.
struct FloatPlan {
  int64_t chunk = 0, chunks = 0;
  size_t y_off = 0, conv_off = 0, bytes = 0;
};

OnednnConvShape ChunkShape(const ConvGeometry& g, int64_t channels) {
  OnednnConvShape s = ShapeOf(g);
  s.c = channels;
  return s;
}

// Whether float32 sums over input channels [c0, c0 + channels) of every
// output channel are exact: each partial sum, in any order, is at most
// xmax * sum|w| over the slice, an integer; at most 2^24, every step is.
bool SliceExact(const ConvGeometry& g, const int8_t* w, int64_t xmax,
                int64_t c0, int64_t channels) {
  const int64_t taps = g.w.kernel[0] * g.w.kernel[1];
  const int64_t row = g.cg() * taps;
  const int64_t first = g.group == 1 ? c0 * taps : 0;
  const int64_t count = g.group == 1 ? channels * taps : row;
  for (int64_t m = 0; m < g.m; ++m) {
    const int8_t* src = w + m * row + first;
    int64_t sum = 0;
    for (int64_t j = 0; j < count; ++j) sum += std::abs(int64_t{src[j]});
    if (xmax * sum > (int64_t{1} << 24)) return false;
  }
  return true;
}

// The largest |x - offset_x| of an int8 x.
int64_t MaxInputTerm(int32_t ox) {
  return std::max<int64_t>(int64_t{127} - ox, int64_t{ox} + 128);
}

// The input-channel slices: as few as the weights allow (`w`, known at
// prepare; `w` null: Infer's room, which is the one-slice plan's, the
// largest). Without the weights' own bound, kExactTerms would cut a 3x3
// Conv over 128 channels into three float convolutions, each with its
// int32 pass; with it, int8 weights of typical magnitude take one.
int64_t ChunkChannels(const ConvGeometry& g, const int8_t* w, int32_t ox) {
  if (w == nullptr) return g.c;
  const int64_t xmax = MaxInputTerm(ox);
  if (g.group != 1) return SliceExact(g, w, xmax, 0, g.c) ? g.c : 0;
  for (int64_t count = 1; count <= g.c; ++count) {
    int64_t chunk = (g.c + count - 1) / count;
    bool exact = true;
    for (int64_t c0 = 0; c0 < g.c && exact; c0 += chunk)
      exact = SliceExact(g, w, xmax, c0, std::min(chunk, g.c - c0));
    if (!exact) continue;
    // Whole blocks of oneDNN's 8 or 16 channels where the bound allows.
    const int64_t blocks = std::min((chunk + 15) / 16 * 16, g.c);
    exact = true;
    for (int64_t c0 = 0; c0 < g.c && exact && blocks != chunk; c0 += blocks)
      exact = SliceExact(g, w, xmax, c0, std::min(blocks, g.c - c0));
    return exact ? blocks : chunk;
  }
  return 0;  // a single channel's sums overflow: the reference loop
}

bool MakeFloatPlan(const ConvGeometry& g, const int8_t* w, int32_t ox,
                   FloatPlan* p) {
  const int64_t taps = g.w.kernel[0] * g.w.kernel[1];
  if (g.depthwise() || taps == 0 || g.c == 0 || g.n == 0 ||
      g.out_plane() == 0 || g.in_plane() == 0)
    return false;
  p->chunk = ChunkChannels(g, w, ox);
  if (p->chunk == 0) return false;
  p->chunks = (g.c + p->chunk - 1) / p->chunk;
  p->y_off = Align64(g.n * p->chunk * g.in_plane() * 4);
  p->conv_off = p->y_off + Align64(g.n * g.m * g.out_plane() * 4);
  const int64_t conv = OnednnConvScratchBytes(ChunkShape(g, p->chunk));
  if (conv < 0) return false;
  p->bytes = p->conv_off + Align64(conv);
  return p->bytes <= static_cast<size_t>(kMaxTensorBytes);
}

class ConvInt8ViaFloat final : public ConvInt8Prepared {
 public:
  ConvInt8ViaFloat() : ConvInt8Prepared(Kind::kViaFloat) {}
  ConvGeometry g;
  FloatPlan plan;
  int32_t ox = 0;
  std::vector<int32_t> bias;  // empty: none
  struct Chunk {
    int64_t c0 = 0, channels = 0;
    size_t scratch_bytes = 0;
    std::unique_ptr<PreparedOp> conv;
  };
  std::vector<Chunk> chunks;
};

// The channels-last depthwise path (depthwise_int8.h): its int32 result
// goes to the scratch, after the padded input, channels last.
class ConvInt8Depthwise final : public ConvInt8Prepared {
 public:
  ConvInt8Depthwise() : ConvInt8Prepared(Kind::kDepthwise) {}
  DepthwiseInt8 d;
  size_t y_off = 0;    // the channels-last result's offset in the scratch
  bool small = false;  // DepthwiseInt8FitsPlanes: the path for NCHW input too
  DepthwisePlan nchw;  // else conv.cc's float kernels on NCHW input
};

class ConvInt8Pointwise final : public ConvInt8Prepared {
 public:
  ConvInt8Pointwise() : ConvInt8Prepared(Kind::kPointwise) {}
  PointwiseInt8 p;
};

size_t DepthwiseInt8Room(const ConvGeometry& g, size_t* y_off) {
  *y_off = Align64(static_cast<int64_t>(DepthwiseInt8ScratchBytes(g)));
  return *y_off + Align64(g.n * g.out_plane() * g.m * 4);
}

// The channels-last result of ConvInt8Depthwise into the scratch; returns it.
const int32_t* RunDepthwiseKept(const ConvInt8Depthwise& p, const int8_t* x,
                                bool x_channels_last, void* scratch) {
  auto* y = reinterpret_cast<int32_t*>(static_cast<unsigned char*>(scratch) +
                                       p.y_off);
  RunDepthwiseInt8(p.d, x, x_channels_last, scratch, y);
  return y;
}

// [n, plane, m] to [n, m, plane].
void ChannelsLastToPlanes(const int32_t* a, int64_t n, int64_t m, int64_t plane,
                          int32_t* y) {
  for (int64_t b = 0; b < n; ++b) {
    const int32_t* src = a + b * plane * m;
    int32_t* dst = y + b * m * plane;
    // Channels outer: each output row written in order (pixels outer
    // would store at a plane's stride, 4 KB apart for 32x32).
    for (int64_t c = 0; c < m; ++c) {
      for (int64_t p = 0; p < plane; ++p) dst[c * plane + p] = src[p * m + c];
    }
  }
}

// False when a float convolution declines the run (the caller runs the
// reference loop, which writes all of y).
bool RunViaFloat(const ConvInt8ViaFloat& p, const int8_t* x, int32_t* y,
                 void* scratch) {
  const ConvGeometry& g = p.g;
  auto* base = static_cast<unsigned char*>(scratch);
  float* xf = reinterpret_cast<float*>(base);
  float* yf = reinterpret_cast<float*>(base + p.plan.y_off);
  void* conv_scratch = base + p.plan.conv_off;
  const int64_t in = g.in_plane();
  for (size_t i = 0; i < p.chunks.size(); ++i) {
    const ConvInt8ViaFloat::Chunk& ch = p.chunks[i];
    for (int64_t n = 0; n < g.n; ++n) {
      ToFloat(x + (n * g.c + ch.c0) * in, ch.channels * in, p.ox,
              xf + n * ch.channels * in);
    }
    if (!RunOnednnConv(*ch.conv, xf, nullptr, yf, conv_scratch,
                       ch.scratch_bytes))
      return false;
    const int64_t image = g.m * g.out_plane();
    for (int64_t n = 0; n < g.n; ++n) {
      ToInt32(yf + n * image, p.bias.empty() ? nullptr : p.bias.data(), i != 0,
              g.m, g.out_plane(), y + n * image);
    }
  }
  return true;
}

std::unique_ptr<PreparedOp> PrepareViaFloat(const PrepareContext& ctx,
                                            const ConvGeometry& g) {
  FloatPlan plan;
  const int32_t ox = OffsetX(ctx.attrs);
  // Infer reserved the one-slice plan's room: a plan of several slices
  // must fit it too (oneDNN's own scratch need not shrink with the slice).
  FloatPlan room;
  if (!MakeFloatPlan(g, ctx.inputs[1].as<const int8_t>(), ox, &plan) ||
      !MakeFloatPlan(g, nullptr, 0, &room) || plan.bytes > room.bytes)
    return nullptr;
  auto p = std::make_unique<ConvInt8ViaFloat>();
  p->g = g;
  p->plan = plan;
  p->ox = ox;
  const std::vector<TensorRef>& in = ctx.inputs;
  if (in.size() >= 3 && in[2].present()) {
    const int32_t* b = in[2].as<const int32_t>();
    p->bias.assign(b, b + g.m);
  }
  const int8_t* w = in[1].as<const int8_t>();
  const int64_t taps = g.w.kernel[0] * g.w.kernel[1];
  const int64_t row = g.cg() * taps;  // one output channel's weights
  std::vector<float> wf;
  for (int64_t c0 = 0; c0 < g.c; c0 += plan.chunk) {
    ConvInt8ViaFloat::Chunk ch;
    ch.c0 = c0;
    ch.channels = std::min(plan.chunk, g.c - c0);
    const OnednnConvShape shape = ChunkShape(g, ch.channels);
    // Group 1: the slice [c0, c0 + channels) of every output channel's
    // weights; grouped: all of them (one chunk).
    const int64_t part = g.group == 1 ? ch.channels * taps : row;
    wf.resize(static_cast<size_t>(g.m * part));
    for (int64_t m = 0; m < g.m; ++m) {
      const int8_t* src = w + m * row + (g.group == 1 ? c0 * taps : 0);
      for (int64_t j = 0; j < part; ++j) wf[m * part + j] = src[j];
    }
    ch.conv = PrepareOnednnConv(shape, wf.data(), nullptr);
    if (ch.conv == nullptr) return nullptr;
    ch.scratch_bytes = static_cast<size_t>(OnednnConvScratchBytes(shape));
    p->chunks.push_back(std::move(ch));
  }
  return p;
}

}  // namespace

bool ConvIsInt8(const TensorRef* inputs, size_t num_inputs) {
  for (size_t i = 0; i < num_inputs && i < 2; ++i) {
    if (inputs[i].present() && inputs[i].dtype == DType::kInt8) return true;
  }
  return false;
}

std::string InferConvInt8(InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckInputs(kOp, ctx, 2, 3);
  if (err.empty()) {
    err = CheckAttributes(kOp, ctx.attrs,
                          {{"auto_pad", K::kString},
                           {"dilations", K::kInts},
                           {"group", K::kInt},
                           {"kernel_shape", K::kInts},
                           {"pads", K::kInts},
                           {"strides", K::kInts},
                           {"offset_x", K::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(kOp, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& w = ctx.inputs[1];
  const TensorRef* b = OptionalInput(ctx.inputs.data(), ctx.inputs.size(), 2);
  if (x.dtype != DType::kInt8 || w.dtype != DType::kInt8 ||
      (b != nullptr && b->dtype != DType::kInt32)) {
    return Fail(kOp,
                std::string("int8 Conv needs int8 x and weight and an "
                            "int32 bias (CANN's Conv2D), got x ") +
                    DTypeName(x.dtype) + ", weight " + DTypeName(w.dtype) +
                    (b != nullptr ? std::string(", bias ") + DTypeName(b->dtype)
                                  : std::string()));
  }
  const int64_t offset_x = AttrInt(ctx.attrs, "offset_x", 0);
  if (offset_x < -128 || offset_x > 127) {
    return Fail(
        kOp, "offset_x " + std::to_string(offset_x) + " outside [-128, 127]");
  }
  ConvGeometry g;
  err =
      GetConvGeometry(kOp, ctx.attrs, ctx.inputs.data(), ctx.inputs.size(), &g);
  if (!err.empty()) return err;
  Shape out;
  out.rank = x.shape.rank;
  out.dims[0] = g.n;
  out.dims[1] = g.m;
  if (g.w.spatial_rank == 2) {
    out.dims[2] = g.w.out[0];
    out.dims[3] = g.w.out[1];
  } else {
    out.dims[2] = g.w.out[1];
  }
  err = SetOutput(kOp, ctx, 0, DType::kInt32, out);
  if (!err.empty()) return err;
  // oneDNN's activations in its own layouts (the float32 bound is larger
  // than int8's: 4-byte elements, channels padded to 16).
  const int64_t bytes = OnednnConvScratchBytes(ShapeOf(g));
  if (bytes < 0 || bytes > kMaxTensorBytes) {
    return Fail(kOp, "activations would be too large");
  }
  // The exact float paths' (the larger: which runs depends on the CPU).
  size_t via_float = 0;
  DepthwisePlan dw;
  FloatPlan fp;
  if (MakeDepthwisePlan(g, &dw)) via_float = dw.bytes;
  if (MakeFloatPlan(g, nullptr, 0, &fp)) via_float = fp.bytes;
  if (g.group == 1 && g.direct())
    via_float = std::max(via_float, PointwiseInt8ScratchBytes(g));
  size_t y_off = 0;
  if (g.w.spatial_rank == 2 && g.group == g.c && g.m == g.c) {
    const size_t room = DepthwiseInt8Room(g, &y_off);
    if (room <= static_cast<size_t>(kMaxTensorBytes))
      via_float = std::max(via_float, room);
  }
  ctx.scratch_bytes = std::max(static_cast<size_t>(bytes), via_float);
  return "";
}

void RunConvInt8Reference(const RunContext& ctx) {
  ConvGeometry g;
  GetConvGeometry(kOp, ctx.attrs, ctx.inputs, ctx.num_inputs, &g);
  const int8_t* x = ctx.inputs[0].as<const int8_t>();
  const int8_t* w = ctx.inputs[1].as<const int8_t>();
  const int32_t* bias = ctx.num_inputs >= 3 && ctx.inputs[2].present()
                            ? ctx.inputs[2].as<const int32_t>()
                            : nullptr;
  int32_t* y = ctx.outputs[0].as<int32_t>();
  const int32_t ox = OffsetX(ctx.attrs);
  const Window2D& win = g.w;
  const int64_t kh = win.kernel[0], kw = win.kernel[1];
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t m = 0; m < g.m; ++m) {
      const int64_t grp = m / g.mg();
      const int8_t* wm = w + m * g.cg() * kh * kw;
      int32_t* ym = y + (n * g.m + m) * g.out_plane();
      for (int64_t oh = 0; oh < win.out[0]; ++oh) {
        for (int64_t ow = 0; ow < win.out[1]; ++ow) {
          // int32 accumulation, wrapping (unsigned: no overflow UB).
          uint32_t acc = bias != nullptr ? static_cast<uint32_t>(bias[m]) : 0;
          for (int64_t c = 0; c < g.cg(); ++c) {
            const int8_t* xc = x + (n * g.c + grp * g.cg() + c) * g.in_plane();
            for (int64_t i = 0; i < kh; ++i) {
              const int64_t ih =
                  oh * win.stride[0] - win.pad_begin[0] + i * win.dilation[0];
              if (ih < 0 || ih >= win.in[0]) continue;  // offset_x - offset_x
              for (int64_t j = 0; j < kw; ++j) {
                const int64_t iw =
                    ow * win.stride[1] - win.pad_begin[1] + j * win.dilation[1];
                if (iw < 0 || iw >= win.in[1]) continue;
                const int32_t xv = xc[ih * win.in[1] + iw] - ox;
                acc += static_cast<uint32_t>(xv * wm[(c * kh + i) * kw + j]);
              }
            }
          }
          ym[oh * win.out[1] + ow] = static_cast<int32_t>(acc);
        }
      }
    }
  }
}

void RunConvInt8(const RunContext& ctx) {
  // A prepared op's layouts fit the scratch Infer reserved (checked at
  // prepare against the same bound).
  if (ctx.prepared != nullptr) {
    const auto& p = static_cast<const ConvInt8Prepared&>(*ctx.prepared);
    const int8_t* x = ctx.inputs[0].as<const int8_t>();
    int32_t* y = ctx.outputs[0].as<int32_t>();
    if (p.kind == ConvInt8Prepared::Kind::kDepthwise) {
      const auto& dw = static_cast<const ConvInt8Depthwise&>(p);
      if (dw.small) {
        ChannelsLastToPlanes(RunDepthwiseKept(dw, x, false, ctx.scratch),
                             dw.d.g.n, dw.d.g.m, dw.d.g.out_plane(), y);
      } else {
        RunDepthwiseViaFloat(ctx, dw.d.g, dw.nchw);
      }
      return;
    }
#if defined(ASCEND_EMU_POINTWISE_INT8)
    if (p.kind == ConvInt8Prepared::Kind::kPointwise) {
      RunPointwiseInt8(static_cast<const ConvInt8Pointwise&>(p).p, x,
                       ctx.scratch, y);
      return;
    }
#endif
    if (p.kind == ConvInt8Prepared::Kind::kOnednnInt8
            ? RunOnednnInt8(p, x, y, ctx.scratch)
            : RunViaFloat(static_cast<const ConvInt8ViaFloat&>(p), x, y,
                          ctx.scratch)) {
      return;
    }
  } else if (g_via_float) {
    ConvGeometry g;
    GetConvGeometry(kOp, ctx.attrs, ctx.inputs, ctx.num_inputs, &g);
    DepthwisePlan dw;
    if (MakeDepthwisePlan(g, &dw)) {
      RunDepthwiseViaFloat(ctx, g, dw);
      return;
    }
  }
  RunConvInt8Reference(ctx);
}

const int32_t* RunConvInt8KeepChannelsLast(const RunContext& ctx,
                                           bool x_channels_last) {
  const int8_t* x = ctx.inputs[0].as<const int8_t>();
  if (ctx.prepared != nullptr) {
    const auto& p = static_cast<const ConvInt8Prepared&>(*ctx.prepared);
    if (p.kind == ConvInt8Prepared::Kind::kDepthwise) {
      const auto& dw = static_cast<const ConvInt8Depthwise&>(p);
      if (x_channels_last || dw.small)
        return RunDepthwiseKept(dw, x, x_channels_last, ctx.scratch);
    }
    if (p.kind == ConvInt8Prepared::Kind::kOnednnInt8) {
      bool src_nhwc = false, dst_nhwc = false;
      OnednnInt8ChannelsLast(p, &src_nhwc, &dst_nhwc);
      const int32_t* kept = nullptr;
      if (dst_nhwc && RunOnednnInt8(p, x, ctx.outputs[0].as<int32_t>(),
                                    ctx.scratch, &kept, x_channels_last)) {
        return kept;
      }
    }
  }
  RunConvInt8(ctx);
  return nullptr;
}

bool ConvInt8ReadsChannelsLast(const PreparedOp* prepared) {
  const auto* p = static_cast<const ConvInt8Prepared*>(prepared);
  if (p == nullptr) return false;
  // Depthwise: on small planes (an NCHW input costs it a transpose);
  // wider ones run faster NCHW in conv.cc's kernels than channels last
  // here (BM_ConvInt8Dequant: 96 channels at 32x32, 57 against 33 us).
  if (p->kind == ConvInt8Prepared::Kind::kDepthwise)
    return static_cast<const ConvInt8Depthwise*>(p)->small;
  // (the destination too: RunConvInt8KeepChannelsLast keeps only that)
  if (p->kind != ConvInt8Prepared::Kind::kOnednnInt8) return false;
  bool src = false, dst = false;
  OnednnInt8ChannelsLast(*p, &src, &dst);
  return src && dst;
}

bool ConvInt8WritesChannelsLast(const PreparedOp* prepared,
                                bool x_channels_last) {
  const auto* p = static_cast<const ConvInt8Prepared*>(prepared);
  if (p == nullptr) return false;
  if (p->kind == ConvInt8Prepared::Kind::kDepthwise)
    return x_channels_last || static_cast<const ConvInt8Depthwise*>(p)->small;
  if (p->kind != ConvInt8Prepared::Kind::kOnednnInt8) return false;
  bool src = false, dst = false;
  OnednnInt8ChannelsLast(*p, &src, &dst);
  return dst;
}

const PointwiseInt8* ConvInt8PointwisePlan(const PreparedOp* prepared) {
  const auto* p = static_cast<const ConvInt8Prepared*>(prepared);
  if (p == nullptr || p->kind != ConvInt8Prepared::Kind::kPointwise)
    return nullptr;
  return &static_cast<const ConvInt8Pointwise*>(p)->p;
}

void SetConvInt8ViaFloatForTest(bool on) { g_via_float = on; }
void SetConvInt8PointwiseForTest(PointwiseUse use) { g_pointwise = use; }

std::unique_ptr<PreparedOp> PrepareConvInt8(const PrepareContext& ctx) {
  const std::vector<TensorRef>& in = ctx.inputs;
  if (in[1].data == nullptr) return nullptr;
  const bool has_bias = in.size() >= 3 && in[2].present();
  if (has_bias && in[2].data == nullptr) return nullptr;
  ConvGeometry g;
  if (!GetConvGeometry(kOp, ctx.attrs, in.data(), in.size(), &g).empty())
    return nullptr;
  // Depthwise: the channels-last path (one output channel per input
  // channel), else conv.cc's float kernels at run, nothing to prepare.
  DepthwisePlan dw;
  if (g_via_float && MakeDepthwisePlan(g, &dw)) {
    auto p = std::make_unique<ConvInt8Depthwise>();
    if (!MakeDepthwiseInt8(g, OffsetX(ctx.attrs), in[1].as<const int8_t>(),
                           has_bias ? in[2].as<const int32_t>() : nullptr,
                           &p->d) ||
        DepthwiseInt8Room(g, &p->y_off) > static_cast<size_t>(kMaxTensorBytes))
      return nullptr;
    p->small = DepthwiseInt8FitsPlanes(g);
    p->nchw = dw;
    return p;
  }
#if defined(ASCEND_EMU_POINTWISE_INT8)
  // A 1x1 Conv where oneDNN's int8 is not exact: vpmaddwd, exact, rather
  // than through float (pointwise_int8.h says why).
  if (g_via_float && g_pointwise != PointwiseUse::kNever &&
      (g_pointwise == PointwiseUse::kAlways || !OnednnHasExactInt8()) &&
      PointwiseInt8ScratchBytes(g) <= static_cast<size_t>(kMaxTensorBytes)) {
    auto p = std::make_unique<ConvInt8Pointwise>();
    if (MakePointwiseInt8(g, OffsetX(ctx.attrs), in[1].as<const int8_t>(),
                          has_bias ? in[2].as<const int32_t>() : nullptr,
                          &p->p))
      return p;
  }
#endif
  std::unique_ptr<PreparedOp> int8;
  if (OnednnHasExactInt8()) int8 = PrepareOnednnInt8(ctx, g, has_bias);
  if (int8 != nullptr || !g_via_float) return int8;
  return PrepareViaFloat(ctx, g);
}

}  // namespace kernels
}  // namespace ascend_emu
