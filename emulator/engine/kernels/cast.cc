// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Cast between float32, float16, bfloat16, int32, int64 and bool with ONNX
// semantics (half <-> bf16 goes through float, exact, rounded once):
// float -> int truncates toward zero, anything -> bool is `!= 0` (NaN is
// true), bool -> number is 0 or 1, int64 -> int32 wraps (two's complement, as
// numpy and ONNX Runtime). Where ONNX leaves a result undefined (NaN or an
// out-of-range float to an integer), the emulator saturates and maps NaN to 0
// instead of invoking C++ undefined behaviour. float32 <-> float16 goes a
// vector at a time through the CPU's F16C conversions where the build has
// them (round to nearest even like Eigen::half's scalar conversions; NaNs are
// left to those, whose NaN bits may differ from the CPU's).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "quant_round.h"

namespace ascend_emu {
namespace kernels {
namespace {

// ONNX TensorProto.DataType values the kernel converts between.
bool DTypeFromOnnx(int64_t to, DType* out) {
  switch (to) {
    case 1:
      *out = DType::kFloat32;
      return true;
    case 6:
      *out = DType::kInt32;
      return true;
    case 7:
      *out = DType::kInt64;
      return true;
    case 9:
      *out = DType::kBool;
      return true;
    case 10:
      *out = DType::kFloat16;
      return true;
    case 16:
      *out = DType::kBFloat16;
      return true;
    default:
      return false;
  }
}

bool Castable(DType d) { return IsFloat(d) || IsInt(d) || d == DType::kBool; }

template <typename To>
To FloatToInt(float v) {
  if (std::isnan(v)) return 0;
  const float t = std::trunc(v);
  // 2^31 and 2^63 are exact floats; anything at or past them saturates.
  constexpr float kHi = -static_cast<float>(std::numeric_limits<To>::min());
  if (t >= kHi) return std::numeric_limits<To>::max();
  if (t < -kHi) return std::numeric_limits<To>::min();
  return static_cast<To>(t);
}

template <typename From, typename To>
To Convert(From v) {
  if constexpr (std::is_same_v<To, Bool>) {
    return Load(v) != 0 ? 1 : 0;
  } else if constexpr (std::is_same_v<From, Bool>) {
    return Store<To>(v != 0 ? 1 : 0);
  } else if constexpr (std::is_same_v<From, float> || kIsHalfLike<From>) {
    if constexpr (std::is_integral_v<To>) {
      return FloatToInt<To>(Load(v));
    } else {
      return Store<To>(Load(v));
    }
  } else if constexpr (std::is_integral_v<To>) {
    return static_cast<To>(v);  // integer narrowing wraps (C++17: modular)
  } else {
    return Store<To>(static_cast<float>(v));
  }
}

#if defined(ASCEND_EMU_HALF_VECTORS)
inline bool AnyNaN(gnu_vectors::Vec v) {
#if defined(__AVX512F__)
  const __m512 x = gnu_vectors::BitCastV<__m512>(v);
  return _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q) != 0;
#else
  const __m256 x = gnu_vectors::BitCastV<__m256>(v);
  return _mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)) != 0;
#endif
}
#endif

// float32 <-> float16 a vector at a time; returns how many it did (a
// multiple of the lane count, the rest left to the scalar loop). A vector
// holding a NaN goes to the scalar conversion (Eigen::half's NaN bits
// need not be the CPU's: its float -> half makes every NaN 0x7E00 | sign).
template <typename From, typename To>
int64_t CastVec(const From* x, To* y, int64_t n) {
#if defined(ASCEND_EMU_HALF_VECTORS)
  using gnu_vectors::kLanes;
  using gnu_vectors::Vec;
  int64_t i = 0;
  if constexpr (std::is_same_v<From, float> && std::is_same_v<To, Half>) {
    for (; i + kLanes <= n; i += kLanes) {
      const Vec v = gnu_vectors::Load(x + i);
      if (AnyNaN(v)) {
        for (int64_t l = 0; l < kLanes; ++l) y[i + l] = Half(x[i + l]);
      } else {
        gnu_vectors::StoreHalfV(y + i, v);
      }
    }
  } else if constexpr (std::is_same_v<From, Half> &&
                       std::is_same_v<To, float>) {
    for (; i + kLanes <= n; i += kLanes) {
      const Vec v = gnu_vectors::LoadHalfV(x + i);
      if (AnyNaN(v)) {
        for (int64_t l = 0; l < kLanes; ++l)
          y[i + l] = static_cast<float>(x[i + l]);
      } else {
        gnu_vectors::Store(y + i, v);
      }
    }
  }
  return i;
#else
  (void)x;
  (void)y;
  (void)n;
  return 0;
#endif
}

template <typename From, typename To>
void CastTyped(const TensorRef& x, const TensorRef& y) {
  const From* px = x.as<const From>();
  To* py = y.as<To>();
  const int64_t n = x.shape.numel();
  for (int64_t i = CastVec(px, py, n); i < n; ++i)
    py[i] = Convert<From, To>(px[i]);
}

}  // namespace

std::string InferCast(InferContext& ctx) {
  const char* op = "Cast";
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs, {{"to", Attribute::Kind::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  if (!HasAttr(ctx.attrs, "to", Attribute::Kind::kInt)) {
    return Fail(op, "attribute 'to' is required");
  }
  const int64_t to = AttrInt(ctx.attrs, "to", 0);
  DType out;
  if (!DTypeFromOnnx(to, &out)) {
    return Fail(op, "unsupported target type " + std::to_string(to) +
                        " (FLOAT, FLOAT16, BFLOAT16, INT32, INT64 or BOOL)");
  }
  const TensorRef& x = ctx.inputs[0];
  if (!Castable(x.dtype)) {
    return Fail(
        op, DTypeRefusal(x.dtype,
                         "float32, float16, bfloat16, int32, int64 or bool"));
  }
  return SetOutput(op, ctx, 0, out, x.shape);
}

void RunCast(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& y = ctx.outputs[0];
  DispatchDType(x.dtype, [&](auto from) {
    DispatchDType(y.dtype, [&](auto to) {
      CastTyped<decltype(from), decltype(to)>(x, y);
    });
  });
}

}  // namespace kernels
}  // namespace ascend_emu
