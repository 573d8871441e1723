// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Activations with ONNX semantics: Relu (float32, float16, int32, int64;
// NaN stays NaN), Sigmoid, Tanh, Elu, LeakyRelu, HardSigmoid, HardSwish
// (float32 and float16, computed in float and rounded to half on store), and
// Clip (floats and ints, optional scalar min/max inputs: the opset 11+ form).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "unary_map.h"
#include "vector_math.h"

namespace ascend_emu {
namespace kernels {
namespace {

float HardSigmoid(float v, float alpha, float beta) {
  return std::max(0.0f, std::min(1.0f, alpha * v + beta));
}

// Clip bounds: absent inputs (or empty names) leave that side open.
std::string CheckClipBound(const char* op, const TensorRef& x,
                           const TensorRef& bound, const char* name) {
  if (!bound.present()) return "";
  if (bound.dtype != x.dtype) {
    return Fail(op, std::string(name) + " dtype " + DTypeName(bound.dtype) +
                        " differs from input dtype " + DTypeName(x.dtype));
  }
  if (bound.shape.rank > 1 || bound.shape.numel() != 1) {
    return Fail(op, std::string(name) + " must be a scalar, got " +
                        bound.shape.ToString());
  }
  return "";
}

template <typename T>
void RunClipTyped(const RunContext& ctx) {
  using C = ComputeT<T>;
  const TensorRef& x = ctx.inputs[0];
  // An absent bound clamps nothing: -inf and inf stay (lowest()/max()
  // would turn them into the largest finite values).
  using L = std::numeric_limits<C>;
  C lo = L::has_infinity ? -L::infinity() : L::lowest();
  C hi = L::has_infinity ? L::infinity() : L::max();
  if (ctx.num_inputs > 1 && ctx.inputs[1].present()) {
    lo = Load(ctx.inputs[1].as<const T>()[0]);
  }
  if (ctx.num_inputs > 2 && ctx.inputs[2].present()) {
    hi = Load(ctx.inputs[2].as<const T>()[0]);
  }
  const T* px = x.as<const T>();
  T* py = ctx.outputs[0].as<T>();
  const int64_t n = x.shape.numel();
  // max then min, as ONNX Runtime: NaN stays NaN, and min > max gives max.
  for (int64_t i = 0; i < n; ++i) {
    py[i] = Store<T>(std::min(std::max(Load(px[i]), lo), hi));
  }
}

}  // namespace

// Sigmoid (Llama's SiLU) on vectorised blocks, in the stable form
// (vector_math.h): one std::exp per element cost 5-6 ns.
std::string InferSigmoid(InferContext& ctx) {
  return InferUnary("Sigmoid", ctx, Accepts::kFloats);
}
void RunSigmoid(const RunContext& ctx) { MapFloatBlocks(ctx, &SigmoidBlock); }
// Swish, x * Sigmoid(x) (SiLU): not an ONNX op, what atc makes of Sigmoid
// and the Mul by it (docs/atc.md "Conv fusions"); CANN's Swish with its
// default scale 1, which is the only one: an attribute is refused.
std::string InferSwish(InferContext& ctx) {
  if (!ctx.attrs.map().empty()) {
    return "Swish: takes no attributes (scale is 1)";
  }
  return InferUnary("Swish", ctx, Accepts::kFloats);
}
void RunSwish(const RunContext& ctx) { MapFloatBlocks(ctx, &SwishBlock); }
// Tanh (GPT-2's GELU) on vectorised blocks (vector_math.h).
std::string InferTanh(InferContext& ctx) {
  return InferUnary("Tanh", ctx, Accepts::kFloats);
}
void RunTanh(const RunContext& ctx) { MapFloatBlocks(ctx, &TanhBlock); }
ASCEND_EMU_FLOAT_UNARY(HardSwish, v* HardSigmoid(v, 1.0f / 6.0f, 0.5f))

std::string InferRelu(InferContext& ctx) {
  return InferUnary("Relu", ctx, Accepts::kFloatsAndInts);
}
void RunRelu(const RunContext& ctx) {
  DispatchNumeric(ctx.inputs[0].dtype, [&](auto tag) {
    using T = decltype(tag);
    // `x < 0 ? 0 : x` keeps NaN, as PyTorch and ONNX Runtime do.
    MapElements<T, T>(ctx.inputs[0], ctx.outputs[0],
                      [](T v) { return v < T(0) ? T(0) : v; });
  });
}

std::string InferLeakyRelu(InferContext& ctx) {
  return InferUnary("LeakyRelu", ctx, Accepts::kFloats,
                    {{"alpha", Attribute::Kind::kFloat}});
}
void RunLeakyRelu(const RunContext& ctx) {
  const float alpha = AttrFloat(ctx.attrs, "alpha", 0.01f);
  MapFloat(ctx, [alpha](float v) { return v < 0.0f ? alpha * v : v; });
}

std::string InferElu(InferContext& ctx) {
  return InferUnary("Elu", ctx, Accepts::kFloats,
                    {{"alpha", Attribute::Kind::kFloat}});
}
void RunElu(const RunContext& ctx) {
  const float alpha = AttrFloat(ctx.attrs, "alpha", 1.0f);
  MapFloat(ctx,
           [alpha](float v) { return v < 0.0f ? alpha * std::expm1(v) : v; });
}

std::string InferHardSigmoid(InferContext& ctx) {
  return InferUnary(
      "HardSigmoid", ctx, Accepts::kFloats,
      {{"alpha", Attribute::Kind::kFloat}, {"beta", Attribute::Kind::kFloat}});
}
void RunHardSigmoid(const RunContext& ctx) {
  const float alpha = AttrFloat(ctx.attrs, "alpha", 0.2f);
  const float beta = AttrFloat(ctx.attrs, "beta", 0.5f);
  MapFloat(ctx, [=](float v) { return HardSigmoid(v, alpha, beta); });
}

std::string InferClip(InferContext& ctx) {
  const char* op = "Clip";
  std::string err = CheckInputs(op, ctx, 1, 3);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (!IsNumeric(x.dtype))
    return Fail(op, DTypeRefusal(x.dtype, kNumericDTypes));
  if (ctx.inputs.size() > 1) err = CheckClipBound(op, x, ctx.inputs[1], "min");
  if (err.empty() && ctx.inputs.size() > 2) {
    err = CheckClipBound(op, x, ctx.inputs[2], "max");
  }
  if (!err.empty()) return err;
  return SetOutput(op, ctx, 0, x.dtype, x.shape);
}

void RunClip(const RunContext& ctx) {
  switch (ctx.inputs[0].dtype) {
    case DType::kFloat16:
      return RunClipTyped<Half>(ctx);
    case DType::kBFloat16:
      return RunClipTyped<BFloat16>(ctx);
    case DType::kInt32:
      return RunClipTyped<int32_t>(ctx);
    case DType::kInt64:
      return RunClipTyped<int64_t>(ctx);
    default:
      return RunClipTyped<float>(ctx);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
