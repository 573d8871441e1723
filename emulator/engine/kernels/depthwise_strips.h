// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The depthwise 3x3 Conv plane, stride 1 with pads of 0 or 1 ("same":
// MobileNet's and the issue-14 benchmark's) or stride 2, computed
// in vertical strips of one vector width straight from the input plane
// (docs/emulator-kernels.md). Used by conv.cc's RunDepthwise; the other
// depthwise geometries keep its row and block paths.
#pragma once

#include <cstdint>

namespace ascend_emu {
namespace kernels {

// Stride 1, dilation 1: true when Depthwise3x3Strips handles an [h, w]
// plane with pads pt (top) and pl (left) giving ow output columns: the
// compiler has GNU vector extensions, at most one padding row and column on
// each side (pt, pl in {0, 1}; more at the bottom is fine), and ow is at
// least one vector.
bool Depthwise3x3StripsFit(int64_t h, int64_t w, int64_t pt, int64_t pl,
                           int64_t ow);

// y [oh, ow] = b + the 3x3 window of `tap` (row-major) over x [h, w] with
// pads pt, pl at the top and left (and zeros past the bottom and right).
// Reads x and writes y only.
void Depthwise3x3Strips(const float* x, const float* tap, int64_t h, int64_t w,
                        int64_t pt, int64_t pl, int64_t oh, int64_t ow, float b,
                        float* y);

// Stride 2 (MobileNet's downsampling): pads 1 at the top and left, any at
// the bottom and right that leave the output [oh, ow] with w == 2 * ow and
// every output row's middle input row inside the plane.
bool Depthwise3x3Stride2StripsFit(int64_t h, int64_t w, int64_t oh, int64_t ow);
void Depthwise3x3Stride2Strips(const float* x, const float* tap, int64_t h,
                               int64_t w, int64_t oh, int64_t ow, float b,
                               float* y);

// Stride 2 with pads 0 at the top and left (TF "same" on an even plane:
// MobileNetV2's downsampling from transformers, pads 0, 0, 1, 1): any pads at
// the bottom and right, 2 * ow <= w and 2 * oh <= h (every output row's
// middle input row inside the plane).
bool Depthwise3x3Stride2Pad0StripsFit(int64_t h, int64_t w, int64_t oh,
                                      int64_t ow);
void Depthwise3x3Stride2Pad0Strips(const float* x, const float* tap, int64_t h,
                                   int64_t w, int64_t oh, int64_t ow, float b,
                                   float* y);

}  // namespace kernels
}  // namespace ascend_emu
