// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The depthwise Conv on small output planes, any kernel, stride, dilation
// and pads (EfficientNet's 5x5 stride 2, the last stages of MobileNets at
// small inputs), computed channels-last: a block of channels is transposed
// into a zero-padded [h, w, channels] buffer, every output position then
// sums its taps over a vector of channels, and the block is transposed
// back (docs/emulator-kernels.md "Depthwise, channels-last"). Used by
// conv.cc's RunDepthwise for what its strips and flat paths leave.
#pragma once

#include <cstdint>

namespace ascend_emu {
namespace kernels {

// One depthwise Conv for DepthwiseChannelsLast: x [n, c, h, w], weights
// [c, 1, kh, kw], y [n, c, oh, ow] (one output channel per input channel),
// strides, dilations and pads (top, left, bottom, right) as ONNX's Conv.
struct DepthwiseChannelsLastShape {
  int64_t n = 0, c = 0, h = 0, w = 0, kh = 0, kw = 0;
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pl = 0, pb = 0, pr = 0;
  int64_t oh = 0, ow = 0;
};

// True when DepthwiseChannelsLast takes `s`: the output is at most 16
// columns wide and 16 rows high (wider planes vectorize along their rows
// in conv.cc), the sizes are consistent, and a block of at least 8 channels
// (its padded input, taps and outputs) fits the 32 KB stack buffer.
bool DepthwiseChannelsLastFit(const DepthwiseChannelsLastShape& s);

// y = bias (or 0 when null) + the depthwise window of w over x.
// Reads x, w, bias and writes y only.
void DepthwiseChannelsLast(const float* x, const float* w, const float* bias,
                           const DepthwiseChannelsLastShape& s, float* y);

}  // namespace kernels
}  // namespace ascend_emu
