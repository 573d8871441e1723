// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// conv_onednn.h: the oneDNN convolution, made at load, run per call.
//
// Layouts: the primitive is created with "any" activation layouts, so oneDNN
// picks its fastest (nChw16c on AVX-512: the brgconv kernels, 4-10x the
// im2col + Eigen GEMM at ResNet's shapes); the emulator's tensors are NCHW,
// so x is reordered into the scratch buffer before and y out of it after
// (cheap next to the convolution: one pass over each). Threads: Debian's
// libdnnl runs on OpenMP and would use every core; each call into oneDNN (the
// primitive's creation, which fixes its thread split, and every run) sizes
// the calling thread's OpenMP team to the emulator's KernelThreads() through
// OmpThreads (onednn.h), as the GEMMs do, and puts the setting back after.
#include "conv_onednn.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <unordered_map>
#include <utility>

#include "onednn.h"
#include "onednn_exec.h"

namespace ascend_emu {
namespace kernels {
namespace {

using dnnl::memory;
using Tag = dnnl::memory::format_tag;
constexpr memory::data_type kF32 = memory::data_type::f32;

const dnnl::engine& CpuEngine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

int64_t RoundUp16(int64_t v) { return (v + 15) / 16 * 16; }

// What a run of a prepared convolution needs besides the primitives, made
// once at prepare so that a warm run allocates nothing: a dnnl::memory and a
// dnnl::stream are heap objects, and the C++ execute() builds a map and a
// vector. Only the data handles change between runs (set when they differ:
// setting a blocked memory's handle also zeroes its padding).
struct ConvRunState {
  dnnl::stream stream;
  memory x_plain, y_plain, z_plain;  // the emulator's NCHW tensors
  memory src, dst;                   // blocked copies in the scratch
  memory pad;                        // oneDNN's scratchpad (ThreadScratchpad)
};

class OnednnConv final : public PreparedOp {
 public:
  // Runs of one prepared op take `run` under this lock. A model runs on one
  // thread at a time (docs/emulator.md, "Threads"), so it is never contended
  // there; a run that finds it taken makes its own objects (RunFresh).
  mutable std::mutex run_lock;
  mutable ConvRunState run;
  dnnl::convolution_forward conv;
  memory::desc src_plain, dst_plain;  // NCHW, as the emulator's tensors
  memory::desc src_md, dst_md;        // what the primitive reads and writes
  memory::desc scratchpad_md;         // its working memory (ThreadScratchpad)
  memory weights;                     // reordered once, owned
  memory bias;                        // copied once (empty md when absent)
  bool has_bias = false;
  bool residual = false;
  bool first_layer = false;  // OnednnConvIsFirstLayer
  bool depthwise = false;    // OnednnConvShape::depthwise
  bool own_strips = false;   // OnednnConvShape::depthwise_own_strips
  bool clip = false;         // OnednnConvShape::clip, over y_count floats
  float clip_lo = 0.0f, clip_hi = 0.0f;
  int64_t y_count = 0;
  size_t scratch_bytes = 0;  // OnednnConvScratchBytes of the shape
  bool reorder_src = false, reorder_dst = false;
  // What the layout agreement may offer (kernel.h): src_md / dst_md are
  // dense NHWC (brgconv's pick on AVX-512 and AVX2) and a run never falls
  // back to the emulator's own (NCHW) path, i.e. the blocked copies fit the
  // scratch Infer reserved.
  bool nhwc_src = false, nhwc_dst = false;
  // What was agreed: x, y, the residual z are in src_md / dst_md already,
  // so their reorder is skipped.
  bool keep_x = false, keep_y = false, keep_z = false;
  dnnl::reorder src_in, dst_out, residual_in;

  TensorLayout PreferredOutputLayout(size_t index) const override {
    return index == 0 && nhwc_dst ? TensorLayout::kNhwc : TensorLayout::kPlain;
  }
  bool CanReadInput(size_t index, TensorLayout layout) const override {
    if (layout != TensorLayout::kNhwc) return false;
    if (index == 0) return nhwc_src;
    return index == 3 && residual && nhwc_dst;
  }
  void UseOutputLayout(size_t index, TensorLayout) override {
    if (index == 0) keep_y = true;
  }
  void UseInputLayout(size_t index, TensorLayout) override {
    if (index == 0) keep_x = true;
    if (index == 3) keep_z = true;
  }
};

// oneDNN's scratchpad, per thread (a prepared op may run on several threads
// at once) and grown to the largest a thread needed: its size depends on the
// ISA oneDNN picked, so Infer cannot bound it like the activations.
class ThreadScratchpad {
 public:
  ~ThreadScratchpad() { std::free(data_); }
  void* Get(size_t bytes) {
    if (bytes > size_) {
      std::free(data_);
      size_ = (bytes + 4095) / 4096 * 4096;
      data_ = std::aligned_alloc(64, size_);
      if (data_ == nullptr) {
        size_ = 0;
        throw std::bad_alloc();
      }
    }
    return data_;
  }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

ThreadScratchpad& ThreadPad() {
  thread_local ThreadScratchpad pad;
  return pad;
}

memory::dims Dims(std::initializer_list<int64_t> v) {
  return memory::dims(v.begin(), v.end());
}

// Whether `md`, a blocked layout of `dims` ([N, C, H, W], C = `channels`),
// holds its elements where NHWC would: one block of exactly the channels.
bool BlockedIsNhwc(const memory::desc& md, const memory::dims& dims,
                   int64_t channels) {
  return (channels == 16 && md == memory::desc(dims, kF32, Tag::nChw16c)) ||
         (channels == 8 && md == memory::desc(dims, kF32, Tag::nChw8c));
}

}  // namespace

int64_t OnednnConvScratchBytes(const OnednnConvShape& s) {
  const Window2D& w = s.w;
  const int64_t src = s.n * RoundUp16(s.c) * w.in[0] * w.in[1];
  const int64_t dst = s.n * RoundUp16(s.m) * w.out[0] * w.out[1];
  // Two buffers, each started on a 64-byte boundary.
  return (src + dst) * static_cast<int64_t>(sizeof(float)) + 128;
}

std::unique_ptr<PreparedOp> PrepareOnednnConv(const OnednnConvShape& s,
                                              const float* weights,
                                              const float* bias) {
  OmpThreads threads;
  const dnnl::engine& engine = CpuEngine();
  const Window2D& w = s.w;
  auto p = std::make_unique<OnednnConv>();
  const memory::dims src = Dims({s.n, s.c, w.in[0], w.in[1]});
  const memory::dims dst = Dims({s.n, s.m, w.out[0], w.out[1]});
  // Grouped weights are 5-D [G, M/G, C/G, kH, kW] in oneDNN.
  const memory::dims wdims = s.group == 1
                                 ? Dims({s.m, s.c, w.kernel[0], w.kernel[1]})
                                 : Dims({s.group, s.m / s.group, s.c / s.group,
                                         w.kernel[0], w.kernel[1]});
  const Tag wtag = s.group == 1 ? Tag::oihw : Tag::goihw;
  p->src_plain = memory::desc(src, kF32, Tag::nchw);
  p->dst_plain = memory::desc(dst, kF32, Tag::nchw);
  // Depthwise: NHWC asked for, not "any" (which picks nChw16c and jit_dw):
  // brdgmm on NHWC runs MobileNetV2's 3x3s as fast and, NHWC being what the
  // Convs around it agree on, with no reorder on either side.
  const Tag act_tag = s.depthwise ? Tag::nhwc : Tag::any;
  const memory::desc src_any(src, kF32, act_tag);
  const memory::desc dst_any(dst, kF32, act_tag);
  const memory::desc w_any(wdims, kF32, Tag::any);
  const memory::desc b_md(Dims({s.m}), kF32, Tag::x);
  // oneDNN counts dilation from 0 (ONNX from 1) and wants the end padding
  // that yields ONNX's output size (ONNX may leave input rows unread).
  const memory::dims strides = Dims({w.stride[0], w.stride[1]});
  const memory::dims dilations = Dims({w.dilation[0] - 1, w.dilation[1] - 1});
  const memory::dims pad_l = Dims({w.pad_begin[0], w.pad_begin[1]});
  memory::dims pad_r(2);
  for (int a = 0; a < 2; ++a) {
    const int64_t reach =
        (w.out[a] - 1) * w.stride[a] + (w.kernel[a] - 1) * w.dilation[a] + 1;
    pad_r[a] = reach - w.in[a] - w.pad_begin[a];
  }

  dnnl::post_ops ops;
  if (s.residual) ops.append_sum(1.0f);
  if (s.relu) ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  // The primitive's working memory comes from the caller: by default oneDNN
  // allocates and frees it on every execute (8% of ResNet's time in malloc).
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      src_any, w_any, bias != nullptr ? b_md : memory::desc(), dst_any, strides,
      dilations, pad_l, pad_r);
  dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
  // The reference implementation would be slower than the emulator's own.
  if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0) return nullptr;
  // Depthwise on NHWC other than brdgmm (AVX2 CPUs: oneDNN's GEMM-based
  // grouped convolution) was not measured to beat the emulator's own.
  if (s.depthwise && std::string(pd.impl_info_str()).rfind("brdgmm", 0) != 0)
    return nullptr;
  bool nhwc_bytes = false;
  if (s.c < 16 && s.group == 1) {
    // A first layer (few input channels, ResNet's stem): oneDNN's direct JIT
    // convolution reads the plain NCHW source, with no reorder of the model's
    // input. Taken only when it then writes bytes that are NHWC as they are
    // (one channel block: 16 output channels on AVX-512, 8 on AVX2), so no
    // reorder appears after it either: ResNet's stem (3 -> 16 channels, 7x7/2,
    // 64x64) took 22 us instead of 31 (brgconv and its source reorder). With
    // more output channels the blocked output's reorder cost more than it
    // saved (docs/emulator-kernels.md).
    const dnnl::convolution_forward::desc plain_desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
        p->src_plain, w_any, bias != nullptr ? b_md : memory::desc(), dst_any,
        strides, dilations, pad_l, pad_r);
    try {
      dnnl::convolution_forward::primitive_desc plain(plain_desc, attr, engine,
                                                      /*allow_empty=*/true);
      if (plain && std::string(plain.impl_info_str()).rfind("ref", 0) != 0 &&
          BlockedIsNhwc(plain.dst_desc(), dst, s.m)) {
        pd = plain;
        nhwc_bytes = true;
      }
    } catch (const dnnl::error&) {
      // No such implementation: keep the first pick.
    }
  }
  p->conv = dnnl::convolution_forward(pd);
  p->src_md = pd.src_desc();
  p->dst_md = pd.dst_desc();
  p->scratchpad_md = pd.scratchpad_desc();

  dnnl::stream stream(engine);
  memory user_w(memory::desc(wdims, kF32, wtag), engine,
                const_cast<float*>(weights));
  p->weights = memory(pd.weights_desc(), engine);
  dnnl::reorder(user_w, p->weights).execute(stream, user_w, p->weights);
  if (bias != nullptr) {
    memory user_b(b_md, engine, const_cast<float*>(bias));
    p->bias = memory(b_md, engine);
    dnnl::reorder(user_b, p->bias).execute(stream, user_b, p->bias);
    p->has_bias = true;
  }
  stream.wait();
  p->residual = s.residual;
  p->first_layer = nhwc_bytes;
  p->depthwise = s.depthwise;
  p->own_strips = s.depthwise_own_strips;
  p->clip = s.clip;
  p->clip_lo = s.clip_lo;
  p->clip_hi = s.clip_hi;
  p->y_count = s.n * s.m * w.out[0] * w.out[1];
  p->scratch_bytes = static_cast<size_t>(OnednnConvScratchBytes(s));
  p->reorder_src = p->src_md != p->src_plain;
  p->reorder_dst = p->dst_md != p->dst_plain;
  const size_t src_room =
      p->reorder_src ? (p->src_md.get_size() + 63) / 64 * 64 : 0;
  const size_t dst_bytes = p->reorder_dst ? p->dst_md.get_size() : 0;
  const bool fits =
      src_room + dst_bytes <= static_cast<size_t>(OnednnConvScratchBytes(s));
  p->nhwc_src =
      fits && p->reorder_src && p->src_md == memory::desc(src, kF32, Tag::nhwc);
  p->nhwc_dst = fits && p->reorder_dst &&
                (nhwc_bytes || p->dst_md == memory::desc(dst, kF32, Tag::nhwc));
  if (p->reorder_src) {
    p->src_in = dnnl::reorder(
        dnnl::reorder::primitive_desc(engine, p->src_plain, engine, p->src_md));
  }
  if (p->reorder_dst) {
    p->dst_out = dnnl::reorder(
        dnnl::reorder::primitive_desc(engine, p->dst_md, engine, p->dst_plain));
    if (s.residual) {
      p->residual_in = dnnl::reorder(dnnl::reorder::primitive_desc(
          engine, p->dst_plain, engine, p->dst_md));
    }
  }
  // The run's objects (handles set per run, kernel.h's RunContext).
  ConvRunState& r = p->run;
  r.stream = dnnl::stream(engine);
  r.x_plain = memory(p->src_plain, engine, nullptr);
  r.y_plain = memory(p->dst_plain, engine, nullptr);
  if (s.residual) r.z_plain = memory(p->dst_plain, engine, nullptr);
  if (p->reorder_src) r.src = memory(p->src_md, engine, nullptr);
  if (p->reorder_dst) r.dst = memory(p->dst_md, engine, nullptr);
  if (p->scratchpad_md.get_size() != 0) {
    r.pad = memory(p->scratchpad_md, engine, nullptr);
  }
  return p;
}

namespace {

// A run with objects of its own (allocates a few small ones): for a run that
// finds the prepared objects in use by another thread.
void RunFresh(const OnednnConv& p, const float* x, const float* z, float* y,
              unsigned char* base, size_t src_room) {
  const dnnl::engine& engine = CpuEngine();
  dnnl::stream stream(engine);
  memory x_plain(p.src_plain, engine, const_cast<float*>(x));
  memory y_plain(p.dst_plain, engine, y);
  memory src = x_plain, dst = y_plain;
  if (p.keep_x) {
    src = memory(p.src_md, engine, const_cast<float*>(x));
  } else if (p.reorder_src) {
    src = memory(p.src_md, engine, base);
    p.src_in.execute(stream, x_plain, src);
  }
  if (p.keep_y) {
    dst = memory(p.dst_md, engine, y);
  } else if (p.reorder_dst) {
    dst = memory(p.dst_md, engine, base + src_room);
  }
  if (p.residual) {
    // The sum post-op adds what dst holds: the residual, in dst's layout.
    if (p.reorder_dst && !p.keep_z) {
      memory z_plain(p.dst_plain, engine, const_cast<float*>(z));
      memory staged(p.dst_md, engine, base + src_room);
      p.residual_in.execute(stream, z_plain, staged);
      stream.wait();
      if (p.keep_y) std::memcpy(y, base + src_room, p.dst_md.get_size());
    } else if (static_cast<const void*>(z) != dst.get_data_handle()) {
      std::memcpy(dst.get_data_handle(), z, p.dst_md.get_size());
    }
  }
  std::unordered_map<int, memory> args{
      {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, p.weights}, {DNNL_ARG_DST, dst}};
  if (p.has_bias) args.emplace(DNNL_ARG_BIAS, p.bias);
  const size_t pad_bytes = p.scratchpad_md.get_size();
  if (pad_bytes != 0) {
    args.emplace(DNNL_ARG_SCRATCHPAD,
                 memory(p.scratchpad_md, engine, ThreadPad().Get(pad_bytes)));
  }
  p.conv.execute(stream, args);
  if (p.reorder_dst && !p.keep_y) p.dst_out.execute(stream, dst, y_plain);
  stream.wait();
  if (p.clip) ClipInPlace(y, p.y_count, p.clip_lo, p.clip_hi);
}

}  // namespace

size_t OnednnConvPreparedScratchBytes(const PreparedOp& prepared) {
  return static_cast<const OnednnConv&>(prepared).scratch_bytes;
}

bool OnednnConvIsFirstLayer(const PreparedOp& prepared) {
  return static_cast<const OnednnConv&>(prepared).first_layer;
}

bool RunOnednnConv(const PreparedOp& prepared, const float* x, const float* z,
                   float* y, void* scratch, size_t scratch_bytes) {
  const auto& p = static_cast<const OnednnConv&>(prepared);
  // (A residual agreed NHWC needs this path too: the own one reads NCHW.)
  if (p.depthwise && p.own_strips && !p.keep_x && !p.keep_y && !p.keep_z)
    return false;
  const size_t src_bytes = p.reorder_src ? p.src_md.get_size() : 0;
  const size_t src_room = (src_bytes + 63) / 64 * 64;
  const size_t dst_bytes = p.reorder_dst ? p.dst_md.get_size() : 0;
  if (src_room + dst_bytes > scratch_bytes) return false;
  OmpThreads threads;
  auto* base = static_cast<unsigned char*>(scratch);
  std::unique_lock<std::mutex> lock(p.run_lock, std::try_to_lock);
  if (!lock.owns_lock()) {
    RunFresh(p, x, z, y, base, src_room);
    return true;
  }
  ConvRunState& r = p.run;
  SetHandle(r.x_plain, x);
  SetHandle(r.y_plain, y);
  memory& src = p.reorder_src ? r.src : r.x_plain;
  memory& dst = p.reorder_dst ? r.dst : r.y_plain;
  if (p.keep_x) {
    SetHandle(r.src, x);  // x is in src_md already (layout agreement)
  } else if (p.reorder_src) {
    SetHandle(r.src, base);
    const dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, r.x_plain.get()},
                                    {DNNL_ARG_TO, r.src.get()}};
    Execute(p.src_in, r.stream, args, 2);
  }
  if (p.reorder_dst) {
    SetHandle(r.dst, p.keep_y ? static_cast<void*>(y) : base + src_room);
  }
  if (p.residual) {
    // The sum post-op adds what dst holds: the residual, in dst's layout.
    const void* dst_data = dst.get_data_handle();
    if (p.reorder_dst && !p.keep_z) {
      // Reordered into the scratch's dst area: when y is dst and z is y
      // (in place), a reorder into y would overwrite what it reads.
      SetHandle(r.z_plain, z);
      SetHandle(r.dst, base + src_room);
      const dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, r.z_plain.get()},
                                      {DNNL_ARG_TO, r.dst.get()}};
      Execute(p.residual_in, r.stream, args, 2);
      if (p.keep_y) {
        r.stream.wait();
        std::memcpy(y, base + src_room, p.dst_md.get_size());
        SetHandle(r.dst, y);
      }
    } else if (static_cast<const void*>(z) != dst_data) {
      // z is in dst's layout already (plain, or NHWC by agreement).
      std::memcpy(const_cast<void*>(dst_data), z, p.dst_md.get_size());
    }
  }
  dnnl_exec_arg_t args[5] = {{DNNL_ARG_SRC, src.get()},
                             {DNNL_ARG_WEIGHTS, p.weights.get()},
                             {DNNL_ARG_DST, dst.get()}};
  int nargs = 3;
  if (p.has_bias) args[nargs++] = {DNNL_ARG_BIAS, p.bias.get()};
  const size_t pad_bytes = p.scratchpad_md.get_size();
  if (pad_bytes != 0) {
    SetHandle(r.pad, ThreadPad().Get(pad_bytes));
    args[nargs++] = {DNNL_ARG_SCRATCHPAD, r.pad.get()};
  }
  Execute(p.conv, r.stream, args, nargs);
  if (p.reorder_dst && !p.keep_y) {
    const dnnl_exec_arg_t out[] = {{DNNL_ARG_FROM, r.dst.get()},
                                   {DNNL_ARG_TO, r.y_plain.get()}};
    Execute(p.dst_out, r.stream, out, 2);
  }
  r.stream.wait();
  // y is dense in either layout (NCHW, or NHWC by agreement): the same
  // y_count floats, and Clip is elementwise.
  if (p.clip) ClipInPlace(y, p.y_count, p.clip_lo, p.clip_hi);
  return true;
}

}  // namespace kernels
}  // namespace ascend_emu
