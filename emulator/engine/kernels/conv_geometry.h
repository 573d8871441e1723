// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A Conv's geometry (channels, groups, the window), validated from its
// inputs and attributes: shared by the float Conv (conv.cc) and the int8 one
// (conv_int8.cc).
#pragma once

#include <cstdint>
#include <string>

#include "ascend_emu/kernel.h"
#include "spatial.h"

namespace ascend_emu {
namespace kernels {

// Batch, channels and groups of a Conv of any rank.
struct ConvChannels {
  int64_t n = 0, c = 0, m = 0, group = 1;
  int64_t cg() const { return c / group; }
  int64_t mg() const { return m / group; }
};

// Checks the weight, group, kernel_shape and bias against the input (any
// rank) and fills `g`. Returns "" or an error naming `op`.
std::string GetConvChannels(const char* op, const Attributes& attrs,
                            const TensorRef* inputs, size_t num_inputs,
                            ConvChannels* g);

// A 1-D or 2-D Conv.
struct ConvGeometry : ConvChannels {
  Window2D w;
  int64_t col_rows() const { return cg() * w.kernel[0] * w.kernel[1]; }
  int64_t out_plane() const { return w.out[0] * w.out[1]; }
  int64_t in_plane() const { return w.in[0] * w.in[1]; }
  // One input channel per group and a real window: the direct path.
  bool depthwise() const { return cg() == 1 && !direct(); }
  bool direct() const {
    return w.kernel[0] == 1 && w.kernel[1] == 1 && w.stride[0] == 1 &&
           w.stride[1] == 1 && w.pad_begin[0] == 0 && w.pad_begin[1] == 0 &&
           w.pad_end[0] == 0 && w.pad_end[1] == 0;
  }
};

// Validates everything of a 1-D or 2-D Conv and fills `g`; shared by Infer
// and Run so Run recomputes the same geometry from the same (already
// validated) inputs.
std::string GetConvGeometry(const char* op, const Attributes& attrs,
                            const TensorRef* inputs, size_t num_inputs,
                            ConvGeometry* g);

// The float32 depthwise Conv of conv.cc (g.depthwise(): one input channel
// per group), `bias` added when not null: its vector strips, flat and
// channels-last paths. `padded` holds DepthwisePaddedFloats(g.w) floats.
// conv_int8.cc runs the int8 depthwise Conv through it (exact there).
int64_t DepthwisePaddedFloats(const Window2D& w);
void RunDepthwiseFloat(const float* x, const float* w, const float* bias,
                       const ConvGeometry& g, float* padded, float* y);

// A 3-D Conv ([N, C, D, H, W]): conv3d.cc, im2col over the three axes and
// one Eigen GEMM per image and group.
struct Conv3DGeometry : ConvChannels {
  Window3D w;
  int64_t col_rows() const {
    return cg() * w.kernel[0] * w.kernel[1] * w.kernel[2];
  }
  int64_t out_plane() const { return w.out[0] * w.out[1] * w.out[2]; }
  int64_t in_plane() const { return w.in[0] * w.in[1] * w.in[2]; }
};

// Validates a 3-D Conv and fills `g` (Infer and Run, as GetConvGeometry).
std::string GetConv3DGeometry(const char* op, const Attributes& attrs,
                              const TensorRef* inputs, size_t num_inputs,
                              Conv3DGeometry* g);
// Bytes of scratch RunConv3D needs (its im2col matrix), or -1 when too large.
int64_t Conv3DScratchBytes(const Conv3DGeometry& g);
// y = Conv(x, w) [+ bias when not null], float32; `col` holds
// Conv3DScratchBytes(g) bytes.
void RunConv3D(const float* x, const float* w, const float* bias,
               const Conv3DGeometry& g, float* col, float* y);

}  // namespace kernels
}  // namespace ascend_emu
