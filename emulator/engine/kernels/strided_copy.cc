// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "strided_copy.h"

namespace ascend_emu {
namespace kernels {
namespace {

template <typename T>
void CopyTyped(const T* src, int64_t base, const int64_t* st,
               const Shape& shape, T* dst, int64_t dst_base,
               const int64_t* dst_st) {
  const int32_t r = shape.rank;
  if (shape.numel() == 0) return;
  if (r == 0) {
    dst[dst_base] = src[base];
    return;
  }
  int64_t dense[kMaxRank];
  if (dst_st == nullptr) {
    DenseStrides(shape, dense);
    dst_st = dense;
  }
  const int64_t inner = shape.dims[r - 1];
  const int64_t in_step = st[r - 1];
  const int64_t out_step = dst_st[r - 1];
  int64_t idx[kMaxRank] = {};
  int64_t in_off = base;
  int64_t out_off = dst_base;
  for (;;) {
    for (int64_t j = 0; j < inner; ++j) {
      dst[out_off + j * out_step] = src[in_off + j * in_step];
    }
    int32_t d = r - 2;
    for (; d >= 0; --d) {
      in_off += st[d];
      out_off += dst_st[d];
      if (++idx[d] < shape.dims[d]) break;
      in_off -= st[d] * shape.dims[d];
      out_off -= dst_st[d] * shape.dims[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace

void DenseStrides(const Shape& shape, int64_t strides[kMaxRank]) {
  int64_t acc = 1;
  for (int32_t i = shape.rank - 1; i >= 0; --i) {
    strides[i] = acc;
    acc *= shape.dims[i];
  }
}

void StridedCopy(size_t elem_size, const void* src, int64_t base,
                 const int64_t* strides, const Shape& shape, void* dst,
                 int64_t dst_base, const int64_t* dst_strides) {
  switch (elem_size) {
    case 1:
      CopyTyped(static_cast<const uint8_t*>(src), base, strides, shape,
                static_cast<uint8_t*>(dst), dst_base, dst_strides);
      break;
    case 2:
      CopyTyped(static_cast<const uint16_t*>(src), base, strides, shape,
                static_cast<uint16_t*>(dst), dst_base, dst_strides);
      break;
    case 4:
      CopyTyped(static_cast<const uint32_t*>(src), base, strides, shape,
                static_cast<uint32_t*>(dst), dst_base, dst_strides);
      break;
    default:
      CopyTyped(static_cast<const uint64_t*>(src), base, strides, shape,
                static_cast<uint64_t*>(dst), dst_base, dst_strides);
      break;
  }
}

}  // namespace kernels
}  // namespace ascend_emu
