// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The one loop behind Slice, Transpose and Expand: walk an output in
// row-major order and read each element from a base offset plus per-dim
// input strides (negative for reversed slices, 0 for broadcast dims). Moves
// elements by size, so it serves every dtype.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ascend_emu/tensor.h"

namespace ascend_emu {
namespace kernels {

// dst[o] = src[base + sum_d idx_d(o) * strides[d]] for every o in `shape`,
// elements of `elem_size` bytes (1, 2, 4 or 8). `dst_strides` (may be null
// for a dense dst) lets Pad write into the middle of a larger output.
void StridedCopy(size_t elem_size, const void* src, int64_t base,
                 const int64_t* strides, const Shape& shape, void* dst,
                 int64_t dst_base = 0, const int64_t* dst_strides = nullptr);

// Row-major element strides of `shape`.
void DenseStrides(const Shape& shape, int64_t strides[kMaxRank]);

}  // namespace kernels
}  // namespace ascend_emu
