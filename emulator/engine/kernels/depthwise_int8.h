// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's int8 depthwise Conv (one input and one output channel per group),
// exact, computed channels last: the image's (x - offset_x) goes once into a
// zero-padded [h, w, channels] float buffer, then every output pixel sums
// its taps over vectors of channels into an int32 [oh, ow, channels] result.
// Every product is an integer of magnitude at most 255 * 128 = 32640, so a
// float sum of up to 514 of them is exact in any order (conv_int8.cc); the
// bias is added in int32, wrapping as the reference loop. The channels-last
// result is what FusedConvDequant's epilogue reads (conv_int8_fused.cc):
// MobileNetV2's depthwise Convs at 2x2 planes (up to 576 channels) took 8-10
// us through conv.cc's float kernels and their conversions, 6-7 this way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "conv_geometry.h"

namespace ascend_emu {
namespace kernels {

// What a depthwise int8 Conv with constant weights keeps from its load.
struct DepthwiseInt8 {
  ConvGeometry g;
  int32_t ox = 0;             // offset_x: the padding's value
  std::vector<float> w;       // [taps][channels]: a tap's weights together
  std::vector<int32_t> bias;  // [channels], empty: none
  int64_t padded_h = 0, padded_w = 0;  // the padded input plane
};

// True when the path takes `g`: 2-D, one input and one output channel per
// group, at most 514 taps; *d then holds `w` ([channels, 1, kh, kw]) and
// `bias` (null: none) rearranged.
bool MakeDepthwiseInt8(const ConvGeometry& g, int32_t offset_x, const int8_t* w,
                       const int32_t* bias, DepthwiseInt8* d);

// Whether the path pays on an NCHW input: a plane of at most 8 x 8. Wider
// ones vectorize along their rows in conv.cc; a channels-last input (an
// agreed layout, kernel.h) always takes the path.
bool DepthwiseInt8FitsPlanes(const ConvGeometry& g);

// Bytes of scratch RunDepthwiseInt8 needs for `g` (one image's padded
// input), known before the weights are.
size_t DepthwiseInt8ScratchBytes(const ConvGeometry& g);

// y [n, oh, ow, channels] (int32, channels last) from x [n, channels, h, w]
// (or [n, h, w, channels] when x_channels_last). Reads x and writes y and
// the scratch only.
void RunDepthwiseInt8(const DepthwiseInt8& d, const int8_t* x,
                      bool x_channels_last, void* scratch, int32_t* y);

}  // namespace kernels
}  // namespace ascend_emu
