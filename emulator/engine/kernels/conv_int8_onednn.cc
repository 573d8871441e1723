// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// conv_int8_prepared.h: oneDNN's int8 convolution for CANN's int8 Conv2D,
// prepared at load as conv_onednn.cc does for float32 (the primitive, the
// weights reordered once, the reorders of the NCHW activations; a run sets
// data handles and executes through the C API with its arguments on the
// stack). Used only where oneDNN computes it exactly (OnednnHasExactInt8).
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <oneapi/dnnl/dnnl.hpp>
#include <vector>

#include "conv_int8_prepared.h"
#include "onednn.h"
#include "onednn_exec.h"

namespace ascend_emu {
namespace kernels {
namespace {

using dnnl::memory;
using Tag = dnnl::memory::format_tag;

const dnnl::engine& CpuEngine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

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

bool RunOnednnImpl(const OnednnConvInt8& p, const int8_t* x, int32_t* y,
                   void* scratch, const int32_t** keep, bool x_channels_last) {
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

}  // namespace

bool RunOnednnInt8(const ConvInt8Prepared& p, const int8_t* x, int32_t* y,
                   void* scratch, const int32_t** keep, bool x_channels_last) {
  return RunOnednnImpl(static_cast<const OnednnConvInt8&>(p), x, y, scratch,
                       keep, x_channels_last);
}

void OnednnInt8ChannelsLast(const ConvInt8Prepared& p, bool* src, bool* dst) {
  const auto& o = static_cast<const OnednnConvInt8&>(p);
  *src = o.src_nhwc;
  *dst = o.dst_nhwc;
}

std::unique_ptr<ConvInt8Prepared> PrepareOnednnInt8(const PrepareContext& ctx,
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

}  // namespace kernels
}  // namespace ascend_emu
