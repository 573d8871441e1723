// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Window geometry shared by Conv, ConvTranspose and the pooling kernels:
// strides, dilations, pads and auto_pad resolved into explicit per-axis
// numbers. Conv runs 1-D ops
// (input [N, C, L]) as 2-D with a height of 1; the pools run 1-D and 2-D ops
// as 3-D with leading axes of size 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

// Reads the ints attribute `name` of `count` values, each in [min, 2^40],
// into `out`; an absent attribute fills `out` with `fallback`. Returns "" or
// an error naming `op`.
std::string ReadInts(const char* op, const Attributes& attrs, const char* name,
                     size_t count, int64_t min, int64_t fallback, int64_t* out);

struct Window2D {
  int32_t spatial_rank = 2;  // 1 or 2, as in the op's input
  // Index 0 is height, 1 is width (height is 1 for 1-D ops).
  int64_t in[2] = {1, 1};
  int64_t kernel[2] = {1, 1};
  int64_t stride[2] = {1, 1};
  int64_t dilation[2] = {1, 1};
  int64_t pad_begin[2] = {0, 0};
  int64_t pad_end[2] = {0, 0};
  int64_t out[2] = {1, 1};
};

// Up to three spatial axes, right-aligned: index 0 is depth, 1 height, 2
// width; axes the op does not have keep size 1, stride 1 and no padding.
struct Window3D {
  int32_t spatial_rank = 3;  // 1, 2 or 3, as in the op's input
  int64_t in[3] = {1, 1, 1};
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t dilation[3] = {1, 1, 1};
  int64_t pad_begin[3] = {0, 0, 0};
  int64_t pad_end[3] = {0, 0, 0};
  int64_t out[3] = {1, 1, 1};
};

struct WindowOptions {
  bool allow_dilations = false;
  bool allow_ceil_mode = false;
  // Pools refuse a pad as large as the (dilated) kernel, so every window
  // overlaps the input and a max or mean over it is defined.
  bool pads_below_kernel = false;
};

// Fills `w` from the input's spatial dims (`in`, spatial_rank values), the
// kernel's spatial dims and the attributes auto_pad, pads, strides and, when
// allowed, dilations and ceil_mode. Returns "" or an error naming `op`.
std::string ResolveWindow(const char* op, const Attributes& attrs,
                          int32_t spatial_rank, const int64_t* in,
                          const int64_t* kernel, const WindowOptions& options,
                          Window2D* w);

// The same for 1 to 3 spatial axes (spatial_rank outside 1..3 is refused).
std::string ResolveWindow3D(const char* op, const Attributes& attrs,
                            int32_t spatial_rank, const int64_t* in,
                            const int64_t* kernel, const WindowOptions& options,
                            Window3D* w);

}  // namespace kernels
}  // namespace ascend_emu
