// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Element types as kernels compute with them. fp16 tensors are stored as IEEE
// half (Eigen::half, 2 bytes) and bf16 tensors as bfloat16 (Eigen::bfloat16,
// the top 16 bits of a float); both compute in float: load widens, store
// rounds to nearest even once (NaN stays NaN). bool tensors are one byte; any
// non-zero byte reads as true and kernels that compute a bool store exactly 0
// or 1.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "ascend_emu/tensor.h"

namespace ascend_emu {
namespace kernels {

using Half = Eigen::half;
using BFloat16 = Eigen::bfloat16;
using Bool = uint8_t;  // never `bool`: a stray byte value would be UB

static_assert(sizeof(Half) == 2, "fp16 storage must be 2 bytes");
static_assert(sizeof(BFloat16) == 2, "bf16 storage must be 2 bytes");

// The 16-bit float storage types: stored narrow, computed in float.
template <typename T>
inline constexpr bool kIsHalfLike =
    std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// The type arithmetic on a stored element uses.
template <typename T>
struct Compute {
  using type = T;
};
template <>
struct Compute<Half> {
  using type = float;
};
template <>
struct Compute<BFloat16> {
  using type = float;
};
template <typename T>
using ComputeT = typename Compute<T>::type;

template <typename T>
inline ComputeT<T> Load(T v) {
  return v;
}
inline float Load(Half v) { return static_cast<float>(v); }
inline float Load(BFloat16 v) { return static_cast<float>(v); }

template <typename T>
inline T Store(ComputeT<T> v) {
  return static_cast<T>(v);
}

inline bool IsFloat(DType d) {
  return d == DType::kFloat32 || d == DType::kFloat16 || d == DType::kBFloat16;
}
// float16 or bfloat16: 2-byte storage computed in float.
inline bool IsHalfLike(DType d) {
  return d == DType::kFloat16 || d == DType::kBFloat16;
}
inline bool IsInt(DType d) { return d == DType::kInt32 || d == DType::kInt64; }
inline bool IsNumeric(DType d) { return IsFloat(d) || IsInt(d); }

// The dtype groups above as refusals list them.
constexpr const char* kFloatDTypes = "float32 or float16";
constexpr const char* kNumericDTypes = "float32, float16, int32 or int64";

// "unsupported dtype int8 (float32 or float16)" style refusal text.
inline std::string DTypeRefusal(DType got, const char* allowed) {
  return std::string("unsupported dtype ") + DTypeName(got) + " (" + allowed +
         ")";
}

// Calls f(T{}) with T the storage type of `d` (float, Half, BFloat16, int32_t,
// int64_t, Bool); returns false for a dtype outside that set.
template <typename F>
bool DispatchDType(DType d, F&& f) {
  switch (d) {
    case DType::kFloat32:
      f(float{});
      return true;
    case DType::kFloat16:
      f(Half{});
      return true;
    case DType::kBFloat16:
      f(BFloat16{});
      return true;
    case DType::kInt32:
      f(int32_t{});
      return true;
    case DType::kInt64:
      f(int64_t{});
      return true;
    case DType::kBool:
      f(Bool{});
      return true;
    default:
      return false;
  }
}

// DispatchDType for the numeric storage types only; false for others (bool).
template <typename F>
bool DispatchNumeric(DType d, F&& f) {
  return d != DType::kBool && DispatchDType(d, std::forward<F>(f));
}

}  // namespace kernels
}  // namespace ascend_emu
