// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The depthwise KxK Conv (K = 3, 5 or 7: ConvNeXt's 7x7, EfficientNet's 5x5,
// MobileNet's 3x3 planes too narrow for depthwise_strips.h), stride 1,
// dilation 1, any pads, over small planes: each plane copied once
// into a zero-padded buffer laid out so that the whole output is one flat
// 1-D convolution (docs/emulator-kernels.md "Depthwise KxK, flat"). Used by
// conv.cc's RunDepthwise; other depthwise geometries keep its other paths.
#pragma once

#include <cstdint>

namespace ascend_emu {
namespace kernels {

// The shape of one depthwise Conv for DepthwiseFlat: x [n, c, h, w], weights
// [m, 1, k, k], y [n, m, oh, ow], m a multiple of c (output channel o reads
// input channel o / (m / c)), pads top, left, bottom, right.
struct DepthwiseFlatShape {
  int64_t n = 0, c = 0, m = 0, h = 0, w = 0, k = 0;
  int64_t pt = 0, pl = 0, pb = 0, pr = 0;
  int64_t oh = 0, ow = 0;
};

// True when DepthwiseFlat handles `s` (stride 1, dilation 1 assumed by the
// caller): the compiler has GNU vector extensions, k is 3, 5 or 7, the pads are
// not negative, oh = h + pt + pb - k + 1 and ow likewise are at least 1, and
// a plane's padded copy and output fit its stack buffer (16 KB: planes up to
// about 40x40 at k = 7).
bool DepthwiseFlatFit(const DepthwiseFlatShape& s);

// y = bias (or 0 when null) + the depthwise KxK window of w over x.
// Reads x, w, bias and writes y only.
void DepthwiseFlat(const float* x, const float* w, const float* bias,
                   const DepthwiseFlatShape& s, float* y);

}  // namespace kernels
}  // namespace ascend_emu
