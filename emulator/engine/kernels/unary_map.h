// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The generic one-input elementwise kernel shared by unary_math.cc,
// activation.cc and logical.cc's Not/IsInf/IsNaN: an Infer that keeps the
// input's shape, and maps y[i] = f(x[i]). float16 computes in float and
// rounds to half once on store; integers go through F's integer overloads.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "ascend_emu/kernel.h"
#include "numeric.h"

namespace ascend_emu {
namespace kernels {

using AttrList = std::initializer_list<std::pair<const char*, Attribute::Kind>>;

// The input dtypes a unary op accepts.
enum class Accepts { kFloats, kFloatsAndInts, kBool };

// One input of an accepted dtype, the given attributes; output 0 gets the
// input's shape and dtype (or `out_dtype` when given).
std::string InferUnary(const char* op, InferContext& ctx, Accepts accepts,
                       AttrList attrs = {}, const DType* out_dtype = nullptr);

// y[i] = f(x[i]) from TX to TY storage.
template <typename TX, typename TY, typename F>
void MapElements(const TensorRef& x, const TensorRef& y, F f) {
  const TX* px = x.as<const TX>();
  TY* py = y.as<TY>();
  const int64_t n = x.shape.numel();
  for (int64_t i = 0; i < n; ++i) py[i] = f(px[i]);
}

// y = f(x) elementwise for float32/float16 tensors, f computing in float.
template <typename F>
void MapFloat(const RunContext& ctx, F f) {
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype == DType::kFloat16) {
    MapElements<Half, Half>(x, ctx.outputs[0], [&](Half v) {
      return Half(f(static_cast<float>(v)));
    });
    return;
  }
  if (x.dtype == DType::kBFloat16) {
    MapElements<BFloat16, BFloat16>(x, ctx.outputs[0], [&](BFloat16 v) {
      return BFloat16(f(static_cast<float>(v)));
    });
    return;
  }
  MapElements<float, float>(x, ctx.outputs[0], f);
}

// Like MapFloat, plus int32/int64 through F's integer overloads.
template <typename F>
void MapSigned(const RunContext& ctx, F f) {
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype == DType::kInt32) {
    MapElements<int32_t, int32_t>(x, ctx.outputs[0], f);
  } else if (x.dtype == DType::kInt64) {
    MapElements<int64_t, int64_t>(x, ctx.outputs[0], f);
  } else {
    MapFloat(ctx, [&](float v) { return f(v); });
  }
}

// Infer and Run of a float32/float16 op y = expr(v), v the input as float.
#define ASCEND_EMU_FLOAT_UNARY(Name, expr)                  \
  std::string Infer##Name(InferContext& ctx) {              \
    return InferUnary(#Name, ctx, Accepts::kFloats);        \
  }                                                         \
  void Run##Name(const RunContext& ctx) {                   \
    MapFloat(ctx, [](float v) -> float { return (expr); }); \
  }

}  // namespace kernels
}  // namespace ascend_emu
