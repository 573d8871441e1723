// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The depthwise 3x3 Conv plane with "same" padding (pads 1, stride 1,
// dilation 1: MobileNet's and the issue-14 benchmark's) or stride 2, computed
// in vertical strips of one vector width straight from the input plane
// (docs/emulator-kernels.md). Used by conv.cc's RunDepthwise; the other
// depthwise geometries keep its row and block paths.
#pragma once

#include <cstdint>

namespace ascend_emu {
namespace kernels {

// True when Depthwise3x3SameStrips handles an H x `width` plane: the
// compiler has GNU vector extensions and the row is at least one vector
// wide.
bool Depthwise3x3StripsFit(int64_t width);

// y [h, w] = b + the 3x3 window of `tap` (row-major) over x [h, w] with one
// zero row and column on every side. Reads x and writes y only.
void Depthwise3x3SameStrips(const float* x, const float* tap, int64_t h,
                            int64_t w, float b, float* y);

// Stride 2 (MobileNet's downsampling): pads 1 at the top and left, any at
// the bottom and right that leave the output [oh, ow] with w == 2 * ow and
// every output row's middle input row inside the plane.
bool Depthwise3x3Stride2StripsFit(int64_t h, int64_t w, int64_t oh, int64_t ow);
void Depthwise3x3Stride2Strips(const float* x, const float* tap, int64_t h,
                               int64_t w, int64_t oh, int64_t ow, float b,
                               float* y);

}  // namespace kernels
}  // namespace ascend_emu
