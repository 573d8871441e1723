// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What conv.cc needs of the depthwise paths in conv_depthwise.cc (their
// entry points, RunDepthwiseFloat and DepthwisePaddedFloats, are declared in
// conv_geometry.h).
#pragma once

#include <cstdint>

#include "spatial.h"

namespace ascend_emu {
namespace kernels {

// The rows (axis 0) or columns (axis 1) of the zero-padded input plane the
// window reaches: (out - 1) * stride + (kernel - 1) * dilation + 1.
int64_t PaddedExtent(const Window2D& w, int axis);

// Whether the depthwise Conv runs `w` in its vector strips
// (depthwise_strips.h: 3x3, an output row at least one vector wide), the
// one own path as fast as oneDNN's NHWC kernel with a reorder on each side.
bool DepthwiseStrips(const Window2D& w);

}  // namespace kernels
}  // namespace ascend_emu
