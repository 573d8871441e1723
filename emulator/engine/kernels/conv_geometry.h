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

struct ConvGeometry {
  int64_t n = 0, c = 0, m = 0, group = 1;
  Window2D w;
  int64_t cg() const { return c / group; }
  int64_t mg() const { return m / group; }
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

// Validates everything and fills `g`; shared by Infer and Run so Run
// recomputes the same geometry from the same (already validated) inputs.
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

}  // namespace kernels
}  // namespace ascend_emu
