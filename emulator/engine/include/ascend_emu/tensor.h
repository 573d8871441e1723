// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Tensors as the emulator's kernels and interpreter see them: a dtype, a
// small fixed-rank shape and a data pointer into planned memory. No ACL and no
// ownership here (see docs/emulator.md, "Engine").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "acl_api.h"

namespace ascend_emu {

// Element types the engine computes with. Values are aclDataType's, so a
// model description can hand them to ACL callers unchanged.
enum class DType : int32_t {
  kFloat32 = ACL_FLOAT,
  kFloat16 = ACL_FLOAT16,
  kBFloat16 = ACL_BF16,
  kInt8 = ACL_INT8,
  kInt32 = ACL_INT32,
  kUInt8 = ACL_UINT8,
  kInt64 = ACL_INT64,
  // AscendDequant's deq_scale (the fp32 bits of a scale in bits 31:0, AMCT's
  // layout); no kernel computes with it otherwise.
  kUInt64 = ACL_UINT64,
  kBool = ACL_BOOL,
};

// Size in bytes of one element; 0 for a value that is not a DType.
size_t DTypeSize(DType dtype);
// "float32", "int64", ...; "invalid" for a value that is not a DType.
const char* DTypeName(DType dtype);
// True when `raw` is one of the DType values above.
bool IsValidDType(int32_t raw);

constexpr int kMaxRank = 8;

struct Shape {
  int32_t rank = 0;  // -1 marks an absent optional input
  int64_t dims[kMaxRank] = {};

  // Element count: 1 for rank 0, 0 when absent. Shapes come from untrusted
  // files, so the product is overflow-checked: a product beyond INT64_MAX
  // (or a negative dim) saturates to INT64_MAX, which every size check
  // refuses, instead of wrapping (undefined behaviour) to a small size.
  int64_t numel() const;
  // The exact element count; false when a dim is negative or the product
  // overflows int64.
  bool checked_numel(int64_t* out) const;
  bool operator==(const Shape& other) const;
  bool operator!=(const Shape& other) const { return !(*this == other); }
  std::string ToString() const;  // "[2, 3, 4]"
};

// Bytes of a dtype/shape pair, saturating at SIZE_MAX like numel(): a size
// computed from untrusted dims is never small by wrap-around.
size_t ShapeBytes(DType dtype, const Shape& shape);

struct TensorRef {
  DType dtype = DType::kFloat32;
  Shape shape;
  void* data = nullptr;  // nullptr during shape inference for non-constants

  bool present() const { return shape.rank >= 0; }
  size_t nbytes() const { return ShapeBytes(dtype, shape); }
  template <typename T>
  T* as() const {
    return static_cast<T*>(data);
  }
};

}  // namespace ascend_emu
