// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// DType facts and Shape helpers shared by the kernels, the interpreter and atc.
#include "ascend_emu/tensor.h"

#include <cstdint>
#include <string>

namespace ascend_emu {

size_t DTypeSize(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
    case DType::kInt32:
      return 4;
    case DType::kFloat16:
    case DType::kBFloat16:
      return 2;
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kBool:
      return 1;
    case DType::kInt64:
    case DType::kUInt64:
      return 8;
  }
  return 0;
}

const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return "float32";
    case DType::kFloat16:
      return "float16";
    case DType::kBFloat16:
      return "bfloat16";
    case DType::kInt8:
      return "int8";
    case DType::kInt32:
      return "int32";
    case DType::kUInt8:
      return "uint8";
    case DType::kInt64:
      return "int64";
    case DType::kUInt64:
      return "uint64";
    case DType::kBool:
      return "bool";
  }
  return "invalid";
}

bool IsValidDType(int32_t raw) {
  return DTypeSize(static_cast<DType>(raw)) != 0;
}

bool Shape::checked_numel(int64_t* out) const {
  int64_t n = 1;
  if (rank < 0) {
    n = 0;
  } else {
    for (int32_t i = 0; i < rank && i < kMaxRank; ++i) {
      if (dims[i] < 0 || __builtin_mul_overflow(n, dims[i], &n)) return false;
    }
  }
  *out = n;
  return true;
}

// Saturating, not wrapping: an unvalidated shape read from a file can never
// make a size look small (see tensor.h).
int64_t Shape::numel() const {
  int64_t n = 0;
  return checked_numel(&n) ? n : INT64_MAX;
}

size_t ShapeBytes(DType dtype, const Shape& shape) {
  const uint64_t n = static_cast<uint64_t>(shape.numel());
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(n, DTypeSize(dtype), &bytes) || bytes > SIZE_MAX) {
    return SIZE_MAX;
  }
  return static_cast<size_t>(bytes);
}

bool Shape::operator==(const Shape& other) const {
  if (rank != other.rank) return false;
  for (int32_t i = 0; i < rank && i < kMaxRank; ++i) {
    if (dims[i] != other.dims[i]) return false;
  }
  return true;
}

std::string Shape::ToString() const {
  if (rank < 0) return "absent";
  std::string s = "[";
  for (int32_t i = 0; i < rank && i < kMaxRank; ++i) {
    if (i != 0) s += ", ";
    s += std::to_string(dims[i]);
  }
  s += "]";
  return s;
}

}  // namespace ascend_emu
