// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// conv_int8.h: CANN's int8 Conv2D, the reference loop and oneDNN's int8
// convolution prepared at load (as conv_onednn.cc does for float32: the
// primitive, the weights reordered once, the reorders of the NCHW
// activations; a run sets data handles and executes through the C API with
// its arguments on the stack).
#include "conv_int8.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <vector>

#include "conv_geometry.h"
#include "conv_onednn.h"
#include "depthwise_int8.h"
#include "kernel_util.h"
#include "numeric.h"
#include "onednn.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "Conv";

using dnnl::memory;
using Tag = dnnl::memory::format_tag;

const dnnl::engine& CpuEngine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

int32_t OffsetX(const Attributes& attrs) {
  return static_cast<int32_t>(AttrInt(attrs, "offset_x", 0));
}

OnednnConvShape ShapeOf(const ConvGeometry& g) {
  OnednnConvShape s;
  s.n = g.n;
  s.c = g.c;
  s.m = g.m;
  s.group = g.group;
  s.w = g.w;
  return s;
}

// What PrepareConvInt8 made: oneDNN's int8 convolution, or the exact float
// convolutions of ViaFloat.
class ConvInt8Prepared : public PreparedOp {
 public:
  enum class Kind { kOnednnInt8, kViaFloat, kDepthwise };
  explicit ConvInt8Prepared(Kind k) : kind(k) {}
  const Kind kind;
};

class OnednnConvInt8 final : public ConvInt8Prepared {
 public:
  OnednnConvInt8() : ConvInt8Prepared(Kind::kOnednnInt8) {}
  mutable std::mutex run_lock;  // guards the memories' handles, as float's
  dnnl::convolution_forward conv;
  dnnl::reorder src_in, dst_out;
  memory::desc src_plain, dst_plain, src_md, dst_md, scratchpad_md;
  memory weights, bias, zero_point;
  bool has_bias = false, has_zero_point = false;
  bool reorder_src = false, reorder_dst = false;
  bool dst_nhwc = false;  // oneDNN's destination is channels last
  bool src_nhwc = false;  // and its source
  size_t scratch_bytes = 0;
  mutable dnnl::stream stream;
  mutable memory x_plain, y_plain, src, dst, pad;
};

thread_local std::vector<unsigned char> tls_pad;

// SetConvInt8ViaFloatForTest: the exact float paths (on), or only oneDNN's
// int8 convolution and the reference loop (off).
bool g_via_float = true;

std::unique_ptr<PreparedOp> PrepareOnednnInt8(const PrepareContext& ctx,
                                              const ConvGeometry& g,
                                              bool has_bias);

void SetHandle(memory& m, const void* data) {
  if (m.get_data_handle() != data) m.set_data_handle(const_cast<void*>(data));
}

void Execute(const dnnl::primitive& prim, const dnnl::stream& stream,
             const dnnl_exec_arg_t* args, int nargs) {
  dnnl::error::wrap_c_api(
      dnnl_primitive_execute(prim.get(), stream.get(), nargs, args),
      "could not execute a primitive");
}

// oneDNN's run; false when the prepared op cannot serve this call (scratch
// too small, or another thread holds it): the caller runs the reference.
// With `keep` and a destination in another layout, that destination is left
// in the scratch (*keep its address) rather than reordered into y.
// With x_channels_last (an agreed layout: src_nhwc), x is oneDNN's source
// as it is, and the run waits for the lock: the reference cannot read it.
bool RunOnednn(const OnednnConvInt8& p, const int8_t* x, int32_t* y,
               void* scratch, const int32_t** keep = nullptr,
               bool x_channels_last = false) {
  std::unique_lock<std::mutex> lock(p.run_lock, std::defer_lock);
  if (x_channels_last) {
    lock.lock();
  } else if (!lock.try_lock()) {
    return false;
  }
  OmpThreads threads;
  auto* base = static_cast<unsigned char*>(scratch);
  const size_t src_room =
      p.reorder_src ? (p.src_md.get_size() + 63) / 64 * 64 : 0;
  SetHandle(p.x_plain, x);
  SetHandle(p.y_plain, y);
  memory& src = p.reorder_src ? p.src : p.x_plain;
  memory& dst = p.reorder_dst ? p.dst : p.y_plain;
  if (x_channels_last) {
    SetHandle(p.src, x);
  } else if (p.reorder_src) {
    SetHandle(p.src, base);
    const dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, p.x_plain.get()},
                                    {DNNL_ARG_TO, p.src.get()}};
    Execute(p.src_in, p.stream, args, 2);
  }
  if (p.reorder_dst) SetHandle(p.dst, base + src_room);
  dnnl_exec_arg_t args[6] = {{DNNL_ARG_SRC, src.get()},
                             {DNNL_ARG_WEIGHTS, p.weights.get()},
                             {DNNL_ARG_DST, dst.get()}};
  int nargs = 3;
  if (p.has_bias) args[nargs++] = {DNNL_ARG_BIAS, p.bias.get()};
  if (p.has_zero_point) {
    args[nargs++] = {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC,
                     p.zero_point.get()};
  }
  const size_t pad_bytes = p.scratchpad_md.get_size();
  if (pad_bytes != 0) {
    if (tls_pad.size() < pad_bytes + 64) tls_pad.resize(pad_bytes + 64);
    auto addr = reinterpret_cast<uintptr_t>(tls_pad.data());
    SetHandle(p.pad, reinterpret_cast<void*>((addr + 63) & ~uintptr_t{63}));
    args[nargs++] = {DNNL_ARG_SCRATCHPAD, p.pad.get()};
  }
  Execute(p.conv, p.stream, args, nargs);
  if (p.reorder_dst && keep != nullptr) {
    *keep = static_cast<const int32_t*>(p.dst.get_data_handle());
  } else if (p.reorder_dst) {
    const dnnl_exec_arg_t out[] = {{DNNL_ARG_FROM, p.dst.get()},
                                   {DNNL_ARG_TO, p.y_plain.get()}};
    Execute(p.dst_out, p.stream, out, 2);
  }
  p.stream.wait();
  return true;
}

// The exact float paths. Every product (x - offset_x) * w is an integer of
// magnitude at most 255 * 128 = 32640, so any float32 sum of up to 514 of
// them is an integer below 2^24 at every step, in any order and with FMA:
// exact. A reduction (Cin/group * kH * kW) of at most kExactTerms runs as
// one float convolution of (x - offset_x), zero padding standing for the
// offset_x padding; a longer one (group 1) as several over slices of the
// input channels, each result converted to int32 and summed in int32
// (wrapping, as the reference loop).
constexpr int64_t kExactTerms = 514;
// Floats per block of the depthwise path's input or output (256 KB: L2).
constexpr int64_t kDepthwiseBlockFloats = 64 * 1024;

size_t Align64(int64_t bytes) {
  return static_cast<size_t>((bytes + 63) / 64 * 64);
}

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

bool MakeFloatPlan(const ConvGeometry& g, FloatPlan* p) {
  const int64_t taps = g.w.kernel[0] * g.w.kernel[1];
  if (g.depthwise() || taps == 0 || taps > kExactTerms || g.c == 0 ||
      g.n == 0 || g.out_plane() == 0 || g.in_plane() == 0)
    return false;
  if (g.group == 1) {
    const int64_t most = kExactTerms / taps;
    const int64_t count = (g.c + most - 1) / most;
    int64_t chunk = (g.c + count - 1) / count;
    // Whole blocks of oneDNN's 8 or 16 channels where the bound allows.
    if ((chunk + 15) / 16 * 16 <= most) chunk = (chunk + 15) / 16 * 16;
    p->chunk = std::min(chunk, g.c);
  } else {
    if (g.col_rows() > kExactTerms) return false;
    p->chunk = g.c;
  }
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
  if (!MakeFloatPlan(g, &plan)) return nullptr;
  auto p = std::make_unique<ConvInt8ViaFloat>();
  p->g = g;
  p->plan = plan;
  p->ox = OffsetX(ctx.attrs);
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
  if (MakeFloatPlan(g, &fp)) via_float = fp.bytes;
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
    if (p.kind == ConvInt8Prepared::Kind::kOnednnInt8
            ? RunOnednn(static_cast<const OnednnConvInt8&>(p), x, y,
                        ctx.scratch)
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
      const auto& o = static_cast<const OnednnConvInt8&>(p);
      const int32_t* kept = nullptr;
      if (o.dst_nhwc && RunOnednn(o, x, ctx.outputs[0].as<int32_t>(),
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
  return p->kind == ConvInt8Prepared::Kind::kOnednnInt8 &&
         static_cast<const OnednnConvInt8*>(p)->src_nhwc &&
         static_cast<const OnednnConvInt8*>(p)->dst_nhwc;
}

bool ConvInt8WritesChannelsLast(const PreparedOp* prepared,
                                bool x_channels_last) {
  const auto* p = static_cast<const ConvInt8Prepared*>(prepared);
  if (p == nullptr) return false;
  if (p->kind == ConvInt8Prepared::Kind::kDepthwise)
    return x_channels_last || static_cast<const ConvInt8Depthwise*>(p)->small;
  return p->kind == ConvInt8Prepared::Kind::kOnednnInt8 &&
         static_cast<const OnednnConvInt8*>(p)->dst_nhwc;
}

void SetConvInt8ViaFloatForTest(bool on) { g_via_float = on; }

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
  std::unique_ptr<PreparedOp> int8;
  if (OnednnHasExactInt8()) int8 = PrepareOnednnInt8(ctx, g, has_bias);
  if (int8 != nullptr || !g_via_float) return int8;
  return PrepareViaFloat(ctx, g);
}

namespace {
std::unique_ptr<PreparedOp> PrepareOnednnInt8(const PrepareContext& ctx,
                                              const ConvGeometry& g,
                                              bool has_bias) {
  const std::vector<TensorRef>& in = ctx.inputs;
  if (g.w.spatial_rank != 2 || g.n == 0 || g.out_plane() == 0 ||
      g.in_plane() == 0)
    return nullptr;
  const int32_t ox = OffsetX(ctx.attrs);
  OmpThreads threads;
  const dnnl::engine& engine = CpuEngine();
  const Window2D& w = g.w;
  auto p = std::make_unique<OnednnConvInt8>();
  using dt = memory::data_type;
  const memory::dims src = {g.n, g.c, w.in[0], w.in[1]};
  const memory::dims dst = {g.n, g.m, w.out[0], w.out[1]};
  const memory::dims wdims =
      g.group == 1
          ? memory::dims{g.m, g.c, w.kernel[0], w.kernel[1]}
          : memory::dims{g.group, g.mg(), g.cg(), w.kernel[0], w.kernel[1]};
  const Tag wtag = g.group == 1 ? Tag::oihw : Tag::goihw;
  p->src_plain = memory::desc(src, dt::s8, Tag::nchw);
  p->dst_plain = memory::desc(dst, dt::s32, Tag::nchw);
  const memory::desc b_md({g.m}, dt::s32, Tag::x);
  const memory::dims strides = {w.stride[0], w.stride[1]};
  const memory::dims dilations = {w.dilation[0] - 1, w.dilation[1] - 1};
  const memory::dims pad_l = {w.pad_begin[0], w.pad_begin[1]};
  memory::dims pad_r(2);
  for (int a = 0; a < 2; ++a) {
    const int64_t reach =
        (w.out[a] - 1) * w.stride[a] + (w.kernel[a] - 1) * w.dilation[a] + 1;
    pad_r[a] = reach - w.in[a] - w.pad_begin[a];
  }
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  // oneDNN subtracts the source zero point from every source value and
  // counts a padded position as the zero point (contributing 0), CANN's
  // offset_x filling the padding.
  if (ox != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
  try {
    const dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
        memory::desc(src, dt::s8, Tag::any),
        memory::desc(wdims, dt::s8, Tag::any), has_bias ? b_md : memory::desc(),
        memory::desc(dst, dt::s32, Tag::any), strides, dilations, pad_l, pad_r);
    dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
    if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0) return nullptr;
    p->conv = dnnl::convolution_forward(pd);
    p->src_md = pd.src_desc();
    p->dst_md = pd.dst_desc();
    p->scratchpad_md = pd.scratchpad_desc();
    dnnl::stream stream(engine);
    memory user_w(memory::desc(wdims, dt::s8, wtag), engine,
                  const_cast<void*>(in[1].data));
    p->weights = memory(pd.weights_desc(), engine);
    dnnl::reorder(user_w, p->weights).execute(stream, user_w, p->weights);
    if (has_bias) {
      p->bias = memory(b_md, engine);
      std::memcpy(p->bias.get_data_handle(), in[2].data,
                  static_cast<size_t>(g.m) * sizeof(int32_t));
      p->has_bias = true;
    }
    if (ox != 0) {
      p->zero_point = memory(memory::desc({1}, dt::s32, Tag::x), engine);
      std::memcpy(p->zero_point.get_data_handle(), &ox, sizeof ox);
      p->has_zero_point = true;
    }
    stream.wait();
    p->reorder_src = p->src_md != p->src_plain;
    p->reorder_dst = p->dst_md != p->dst_plain;
    p->dst_nhwc = p->dst_md == memory::desc(dst, dt::s32, Tag::nhwc);
    p->src_nhwc = p->src_md == memory::desc(src, dt::s8, Tag::nhwc);
    const size_t src_room =
        p->reorder_src ? (p->src_md.get_size() + 63) / 64 * 64 : 0;
    const size_t dst_bytes = p->reorder_dst ? p->dst_md.get_size() : 0;
    p->scratch_bytes = src_room + dst_bytes;
    if (p->scratch_bytes >
        static_cast<size_t>(OnednnConvScratchBytes(ShapeOf(g))))
      return nullptr;
    if (p->reorder_src) {
      p->src_in = dnnl::reorder(dnnl::reorder::primitive_desc(
          engine, p->src_plain, engine, p->src_md));
    }
    if (p->reorder_dst) {
      p->dst_out = dnnl::reorder(dnnl::reorder::primitive_desc(
          engine, p->dst_md, engine, p->dst_plain));
    }
    p->stream = dnnl::stream(engine);
    p->x_plain = memory(p->src_plain, engine, nullptr);
    p->y_plain = memory(p->dst_plain, engine, nullptr);
    if (p->reorder_src || p->src_nhwc)
      p->src = memory(p->src_md, engine, nullptr);
    if (p->reorder_dst) p->dst = memory(p->dst_md, engine, nullptr);
    if (p->scratchpad_md.get_size() != 0)
      p->pad = memory(p->scratchpad_md, engine, nullptr);
  } catch (const dnnl::error&) {
    return nullptr;  // no int8 primitive for this shape: the reference runs
  }
  return p;
}
}  // namespace

}  // namespace kernels
}  // namespace ascend_emu
