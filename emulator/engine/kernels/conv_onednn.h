// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Float32 Conv on oneDNN (Debian's libdnnl): a JIT convolution chosen at run
// time for the CPU's ISA (AVX-512, AVX2, SSE4.1), whatever flags the emulator
// was built with. It is made once per op at model load (kernel.h PrepareFn):
// the primitive, the weights reordered into the blocked layout it reads, and
// the reorders of the NCHW activations into and out of its layouts. Bias,
// a residual Add (sum post-op) and Relu are applied inside the convolution,
// Clip (ReLU6) by the emulator's own pass over the output after it.
// docs/emulator-kernels.md has the measurements behind this choice.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "ascend_emu/kernel.h"
#include "spatial.h"

namespace ascend_emu {
namespace kernels {

struct OnednnConvShape {
  int64_t n = 0, c = 0, m = 0, group = 1;
  Window2D w;
  bool relu = false;      // Relu after bias (and residual)
  bool residual = false;  // y = conv(x) + bias + z, z shaped like y
  // Clip after bias (and residual): y = min(max(y, clip_lo), clip_hi), by
  // ClipInPlace after the primitive, not oneDNN's eltwise_clip post-op (its
  // JIT max/min turns a NaN into the lower bound; ONNX's Clip keeps NaN).
  bool clip = false;
  float clip_lo = 0.0f, clip_hi = 0.0f;
  // One input and one output channel per group (MobileNet's 3x3): oneDNN's
  // depthwise kernel on NHWC activations (brdgmm on AVX-512). When the
  // layout agreement gave NHWC to none of x, y, the residual z, and the
  // emulator's own NCHW depthwise has its vector strips for the window
  // (depthwise_own_strips), the run falls back to that (RunOnednnConv
  // returns false): there the strips beat oneDNN's kernel plus a reorder on
  // each side. Other windows (stride 2 on planes narrower than a vector, 5x5
  // and 7x7, many channels of 4x4 to 1x1 planes: EfficientNet's, whose
  // SiLU keeps the Convs apart) run on oneDNN with the reorders.
  bool depthwise = false;
  bool depthwise_own_strips = false;
};

// ONNX Clip on float32 (activation.cc's order): max then min, so NaN stays
// NaN, a NaN bound clamps nothing, and lo > hi gives hi everywhere.
inline void ClipInPlace(float* y, int64_t count, float lo, float hi) {
  for (int64_t i = 0; i < count; ++i) y[i] = std::min(std::max(y[i], lo), hi);
}

// The scratch bytes RunOnednnConv may need: the activations in a blocked
// layout (channels padded to a multiple of 16, the widest block oneDNN uses
// for float32). A bound that does not depend on the CPU, so atc and the
// loader agree on it.
int64_t OnednnConvScratchBytes(const OnednnConvShape& s);

// Null when oneDNN has no primitive for the shape (the caller then runs its
// own path). `weights` [M, C/group, kH, kW] and `bias` [M] (or null) are
// read here once; the result does not keep them.
std::unique_ptr<PreparedOp> PrepareOnednnConv(const OnednnConvShape& s,
                                              const float* weights,
                                              const float* bias);

// Runs a prepared convolution: x NCHW, z the residual (null unless
// s.residual), y NCHW. `scratch` holds OnednnConvScratchBytes(s) bytes,
// 64-byte aligned. False when `scratch_bytes` is too small (an .om from an
// older atc), or for a depthwise primitive whose activations both stayed
// NCHW where the own strips are faster (OnednnConvShape::depthwise): the
// caller runs its own path.
bool RunOnednnConv(const PreparedOp& prepared, const float* x, const float* z,
                   float* y, void* scratch, size_t scratch_bytes);

// OnednnConvScratchBytes of the shape `prepared` was made for (kept at
// prepare, so that a run need not resolve the Conv's attributes again).
size_t OnednnConvPreparedScratchBytes(const PreparedOp& prepared);

// Whether `prepared` took the first-layer path: oneDNN's direct kernel reads
// the plain NCHW input and writes one block of exactly the output channels,
// NHWC as it is. Its block is oneDNN's vector width (OnednnFloatLanes: 16 on
// AVX-512, 8 on AVX2), so which stems take it depends on the CPU; the tests
// read this to assert both outcomes wherever they run.
bool OnednnConvIsFirstLayer(const PreparedOp& prepared);

}  // namespace kernels
}  // namespace ascend_emu
