// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Elementwise math with ONNX semantics: Abs, Neg, Exp, Log, Sqrt,
// Reciprocal, Ceil, Floor, Round, Sign, Sin, Cos, Erf. float32 and float16
// (computed in float, rounded to half on store); Abs, Neg and Sign also take
// int32/int64, wrapping like two's complement instead of UB.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "numeric.h"
#include "ops.h"
#include "unary_map.h"
#include "vector_math.h"

namespace ascend_emu {
namespace kernels {
namespace {

// Negation and absolute value of integers wrap at the minimum value.
template <typename T>
T WrapNeg(T v) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U{0} - static_cast<U>(v));
}

struct AbsOp {
  float operator()(float v) const { return std::fabs(v); }
  template <typename T>
  T operator()(T v) const {
    return v < 0 ? WrapNeg(v) : v;
  }
};
struct NegOp {
  float operator()(float v) const { return -v; }
  template <typename T>
  T operator()(T v) const {
    return WrapNeg(v);
  }
};
struct SignOp {
  float operator()(float v) const {
    if (std::isnan(v)) return v;
    return static_cast<float>((v > 0.0f) - (v < 0.0f));
  }
  template <typename T>
  T operator()(T v) const {
    return static_cast<T>((v > 0) - (v < 0));
  }
};

}  // namespace

ASCEND_EMU_FLOAT_UNARY(Log, std::log(v))
ASCEND_EMU_FLOAT_UNARY(Sqrt, std::sqrt(v))
ASCEND_EMU_FLOAT_UNARY(Reciprocal, 1.0f / v)
ASCEND_EMU_FLOAT_UNARY(Sin, std::sin(v))
ASCEND_EMU_FLOAT_UNARY(Cos, std::cos(v))
ASCEND_EMU_FLOAT_UNARY(Floor, std::floor(v))
ASCEND_EMU_FLOAT_UNARY(Ceil, std::ceil(v))
// nearbyint in the default rounding mode rounds halves to even, as ONNX.
ASCEND_EMU_FLOAT_UNARY(Round, std::nearbyint(v))

// Exp and Erf (BERT's GELU) on vectorised blocks (vector_math.h).
std::string InferExp(InferContext& ctx) {
  return InferUnary("Exp", ctx, Accepts::kFloats);
}
void RunExp(const RunContext& ctx) { MapFloatBlocks(ctx, &ExpBlock); }

std::string InferErf(InferContext& ctx) {
  return InferUnary("Erf", ctx, Accepts::kFloats);
}
void RunErf(const RunContext& ctx) { MapFloatBlocks(ctx, &ErfBlock); }

std::string InferAbs(InferContext& ctx) {
  return InferUnary("Abs", ctx, Accepts::kFloatsAndInts);
}
void RunAbs(const RunContext& ctx) { MapSigned(ctx, AbsOp()); }

std::string InferNeg(InferContext& ctx) {
  return InferUnary("Neg", ctx, Accepts::kFloatsAndInts);
}
void RunNeg(const RunContext& ctx) { MapSigned(ctx, NegOp()); }

std::string InferSign(InferContext& ctx) {
  return InferUnary("Sign", ctx, Accepts::kFloatsAndInts);
}
void RunSign(const RunContext& ctx) { MapSigned(ctx, SignOp()); }

}  // namespace kernels
}  // namespace ascend_emu
