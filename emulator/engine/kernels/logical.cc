// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Logic and comparisons: Equal, Less, LessOrEqual, Greater, GreaterOrEqual
// (numeric inputs, and bool for Equal; bool output), And, Or, Xor, Not (bool),
// Where (bool condition, 3-way broadcast), and IsInf, IsNaN (float32/float16
// in, bool out). Binary ops broadcast as numpy/ONNX; any non-zero bool byte
// reads as true and every bool written is 0 or 1.
#include <cmath>
#include <cstdint>
#include <string>

#include "broadcast.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "unary_map.h"

namespace ascend_emu {
namespace kernels {
namespace {

// y = f(a, b) ? 1 : 0 on compute types, bool out.
template <typename T, typename F>
void Compare(const RunContext& ctx, F f) {
  BinaryBroadcast<T, T, Bool>(
      ctx.inputs[0], ctx.inputs[1], ctx.outputs[0],
      [&](T x, T z) -> Bool { return f(Load(x), Load(z)) ? 1 : 0; });
}

// Comparisons: numeric inputs (and bool for Equal), bool output.
std::string InferCompare(const char* op, InferContext& ctx, bool allow_bool) {
  static const DType kBoolOut = DType::kBool;
  auto ok = [allow_bool](DType d) {
    return IsNumeric(d) || (allow_bool && d == DType::kBool);
  };
  return InferBroadcast(
      op, ctx, 2, 2, ok,
      allow_bool ? "float32, float16, int32, int64 or bool" : kNumericDTypes,
      &kBoolOut);
}

template <typename F>
void RunCompare(const RunContext& ctx, F f) {
  if (ctx.inputs[0].dtype == DType::kBool) {
    Compare<Bool>(ctx, [&](Bool x, Bool z) { return f(x != 0, z != 0); });
    return;
  }
  DispatchNumeric(ctx.inputs[0].dtype,
                  [&](auto tag) { Compare<decltype(tag)>(ctx, f); });
}

std::string InferLogical(const char* op, InferContext& ctx) {
  std::string err = CheckAttributes(op, ctx.attrs, {});
  if (!err.empty()) return err;
  return InferBroadcast(
      op, ctx, 2, 2, [](DType d) { return d == DType::kBool; }, "bool");
}

// Float32/float16 in, bool out: y = pred(x) elementwise, pred on float (a
// half widens exactly, so inf and NaN survive the widening).
std::string InferFloatPredicate(const char* op, InferContext& ctx,
                                AttrList attrs = {}) {
  static const DType kBoolOut = DType::kBool;
  return InferUnary(op, ctx, Accepts::kFloats, attrs, &kBoolOut);
}

template <typename P>
void MapFloatToBool(const RunContext& ctx, P pred) {
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype == DType::kFloat16) {
    MapElements<Half, Bool>(x, ctx.outputs[0], [&](Half v) -> Bool {
      return pred(static_cast<float>(v)) ? 1 : 0;
    });
    return;
  }
  if (x.dtype == DType::kBFloat16) {
    MapElements<BFloat16, Bool>(x, ctx.outputs[0], [&](BFloat16 v) -> Bool {
      return pred(static_cast<float>(v)) ? 1 : 0;
    });
    return;
  }
  MapElements<float, Bool>(x, ctx.outputs[0],
                           [&](float v) -> Bool { return pred(v) ? 1 : 0; });
}

}  // namespace

#define ASCEND_EMU_COMPARE(Name, allow_bool, expr)           \
  std::string Infer##Name(InferContext& ctx) {               \
    std::string err = CheckAttributes(#Name, ctx.attrs, {}); \
    if (!err.empty()) return err;                            \
    return InferCompare(#Name, ctx, allow_bool);             \
  }                                                          \
  void Run##Name(const RunContext& ctx) {                    \
    RunCompare(ctx, [](auto x, auto z) { return (expr); });  \
  }

ASCEND_EMU_COMPARE(Equal, true, x == z)
ASCEND_EMU_COMPARE(Less, false, x < z)
ASCEND_EMU_COMPARE(LessOrEqual, false, x <= z)
ASCEND_EMU_COMPARE(Greater, false, x > z)
ASCEND_EMU_COMPARE(GreaterOrEqual, false, x >= z)

#undef ASCEND_EMU_COMPARE

std::string InferAnd(InferContext& ctx) { return InferLogical("And", ctx); }
void RunAnd(const RunContext& ctx) {
  BinaryBroadcast<Bool, Bool, Bool>(
      ctx.inputs[0], ctx.inputs[1], ctx.outputs[0],
      [](Bool x, Bool z) -> Bool { return x != 0 && z != 0; });
}

std::string InferOr(InferContext& ctx) { return InferLogical("Or", ctx); }
void RunOr(const RunContext& ctx) {
  BinaryBroadcast<Bool, Bool, Bool>(
      ctx.inputs[0], ctx.inputs[1], ctx.outputs[0],
      [](Bool x, Bool z) -> Bool { return x != 0 || z != 0; });
}

std::string InferXor(InferContext& ctx) { return InferLogical("Xor", ctx); }
void RunXor(const RunContext& ctx) {
  BinaryBroadcast<Bool, Bool, Bool>(
      ctx.inputs[0], ctx.inputs[1], ctx.outputs[0],
      [](Bool x, Bool z) -> Bool { return (x != 0) != (z != 0); });
}

std::string InferWhere(InferContext& ctx) {
  const char* op = "Where";
  std::string err = CheckInputs(op, ctx, 3, 3);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& c = ctx.inputs[0];
  const TensorRef& x = ctx.inputs[1];
  const TensorRef& y = ctx.inputs[2];
  if (c.dtype != DType::kBool) {
    return Fail(
        op, "condition must be bool, got " + std::string(DTypeName(c.dtype)));
  }
  if (x.dtype != y.dtype) {
    return Fail(op, std::string("X and Y dtypes differ: ") +
                        DTypeName(x.dtype) + " and " + DTypeName(y.dtype));
  }
  if (!IsNumeric(x.dtype) && x.dtype != DType::kBool) {
    return Fail(op, DTypeRefusal(x.dtype,
                                 "float32, float16, int32, int64 "
                                 "or bool"));
  }
  Shape out;
  if (!BroadcastShapes(c.shape, x.shape, &out) ||
      !BroadcastShapes(out, y.shape, &out)) {
    return Fail(op, "shapes " + c.shape.ToString() + ", " + x.shape.ToString() +
                        " and " + y.shape.ToString() + " do not broadcast");
  }
  return SetOutput(op, ctx, 0, x.dtype, out);
}

void RunWhere(const RunContext& ctx) {
  DispatchDType(ctx.inputs[1].dtype, [&](auto tag) {
    using T = decltype(tag);
    TernaryBroadcast<Bool, T, T, T>(
        ctx.inputs[0], ctx.inputs[1], ctx.inputs[2], ctx.outputs[0],
        [](Bool c, T x, T y) { return c != 0 ? x : y; });
  });
}

std::string InferNot(InferContext& ctx) {
  return InferUnary("Not", ctx, Accepts::kBool);
}
void RunNot(const RunContext& ctx) {
  MapElements<Bool, Bool>(ctx.inputs[0], ctx.outputs[0],
                          [](Bool v) -> Bool { return v == 0 ? 1 : 0; });
}

std::string InferIsNaN(InferContext& ctx) {
  return InferFloatPredicate("IsNaN", ctx);
}
void RunIsNaN(const RunContext& ctx) {
  MapFloatToBool(ctx, [](float v) { return std::isnan(v); });
}

// detect_positive / detect_negative (default 1) choose which infinities
// count; with both 0 every element is false, as in ONNX Runtime.
std::string InferIsInf(InferContext& ctx) {
  const char* op = "IsInf";
  std::string err =
      InferFloatPredicate(op, ctx,
                          {{"detect_negative", Attribute::Kind::kInt},
                           {"detect_positive", Attribute::Kind::kInt}});
  if (!err.empty()) return err;
  for (const char* name : {"detect_negative", "detect_positive"}) {
    const int64_t v = AttrInt(ctx.attrs, name, 1);
    if (v != 0 && v != 1) {
      return Fail(
          op, std::string(name) + " must be 0 or 1, got " + std::to_string(v));
    }
  }
  return "";
}
void RunIsInf(const RunContext& ctx) {
  const bool pos = AttrInt(ctx.attrs, "detect_positive", 1) != 0;
  const bool neg = AttrInt(ctx.attrs, "detect_negative", 1) != 0;
  MapFloatToBool(ctx, [pos, neg](float v) {
    return std::isinf(v) && (v > 0.0f ? pos : neg);
  });
}

}  // namespace kernels
}  // namespace ascend_emu
