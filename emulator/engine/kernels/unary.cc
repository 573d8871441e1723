// Unary elementwise kernels with ONNX semantics. Math ops take float32 and
// float16 (computed in float, rounded to half on store); Abs, Neg and Sign
// also take int32/int64 (wrapping like two's complement instead of UB); Not
// takes bool; IsInf/IsNaN take floats and give bool; Clip takes floats and
// ints with optional scalar min/max inputs (opset 11+ form).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

using AttrList = std::initializer_list<std::pair<const char*, Attribute::Kind>>;

enum class Accepts { kFloats, kFloatsAndInts, kBool };

const char* AcceptsText(Accepts a) {
  switch (a) {
    case Accepts::kFloats:
      return "float32 or float16";
    case Accepts::kFloatsAndInts:
      return "float32, float16, int32 or int64";
    case Accepts::kBool:
      return "bool";
  }
  return "";
}

bool Allowed(Accepts a, DType d) {
  switch (a) {
    case Accepts::kFloats:
      return IsFloat(d);
    case Accepts::kFloatsAndInts:
      return IsFloat(d) || IsInt(d);
    case Accepts::kBool:
      return d == DType::kBool;
  }
  return false;
}

std::string InferUnary(const char* op, InferContext& ctx, Accepts accepts,
                       AttrList attrs = {}) {
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, attrs);
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (!Allowed(accepts, x.dtype)) {
    return Fail(op, DTypeRefusal(x.dtype, AcceptsText(accepts)));
  }
  return SetOutput(op, ctx, 0, x.dtype, x.shape);
}

// y = f(x) elementwise for float32/float16 tensors, f computing in float.
template <typename F>
void MapFloat(const RunContext& ctx, F f) {
  const TensorRef& x = ctx.inputs[0];
  const int64_t n = x.shape.numel();
  if (x.dtype == DType::kFloat16) {
    const Half* px = x.as<const Half>();
    Half* py = ctx.outputs[0].as<Half>();
    for (int64_t i = 0; i < n; ++i) py[i] = Half(f(static_cast<float>(px[i])));
    return;
  }
  const float* px = x.as<const float>();
  float* py = ctx.outputs[0].as<float>();
  for (int64_t i = 0; i < n; ++i) py[i] = f(px[i]);
}

// Like MapFloat, plus int32/int64 through F's integer overloads.
template <typename F>
void MapSigned(const RunContext& ctx, F f) {
  const TensorRef& x = ctx.inputs[0];
  const int64_t n = x.shape.numel();
  if (x.dtype == DType::kInt32) {
    const int32_t* px = x.as<const int32_t>();
    int32_t* py = ctx.outputs[0].as<int32_t>();
    for (int64_t i = 0; i < n; ++i) py[i] = f(px[i]);
  } else if (x.dtype == DType::kInt64) {
    const int64_t* px = x.as<const int64_t>();
    int64_t* py = ctx.outputs[0].as<int64_t>();
    for (int64_t i = 0; i < n; ++i) py[i] = f(px[i]);
  } else {
    MapFloat(ctx, [&](float v) { return f(v); });
  }
}

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

float Sigmoid(float v) {
  // Never exp of a large positive number: no overflow to inf/inf.
  if (v >= 0.0f) return 1.0f / (1.0f + std::exp(-v));
  const float e = std::exp(v);
  return e / (1.0f + e);
}

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
  C lo = std::numeric_limits<C>::lowest();
  C hi = std::numeric_limits<C>::max();
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

// Float32/float16 in, bool out: y = pred(x) elementwise, pred on float (a
// half widens exactly, so inf and NaN survive the widening).
std::string InferFloatPredicate(const char* op, InferContext& ctx,
                                AttrList attrs = {}) {
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, attrs);
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (!IsFloat(x.dtype)) {
    return Fail(op, DTypeRefusal(x.dtype, AcceptsText(Accepts::kFloats)));
  }
  return SetOutput(op, ctx, 0, DType::kBool, x.shape);
}

template <typename P>
void MapFloatToBool(const RunContext& ctx, P pred) {
  const TensorRef& x = ctx.inputs[0];
  const int64_t n = x.shape.numel();
  Bool* py = ctx.outputs[0].as<Bool>();
  if (x.dtype == DType::kFloat16) {
    const Half* px = x.as<const Half>();
    for (int64_t i = 0; i < n; ++i) {
      py[i] = pred(static_cast<float>(px[i])) ? 1 : 0;
    }
    return;
  }
  const float* px = x.as<const float>();
  for (int64_t i = 0; i < n; ++i) py[i] = pred(px[i]) ? 1 : 0;
}

}  // namespace

#define ASCEND_EMU_FLOAT_UNARY(Name, expr)                  \
  std::string Infer##Name(InferContext& ctx) {              \
    return InferUnary(#Name, ctx, Accepts::kFloats);        \
  }                                                         \
  void Run##Name(const RunContext& ctx) {                   \
    MapFloat(ctx, [](float v) -> float { return (expr); }); \
  }

ASCEND_EMU_FLOAT_UNARY(Exp, std::exp(v))
ASCEND_EMU_FLOAT_UNARY(Log, std::log(v))
ASCEND_EMU_FLOAT_UNARY(Sqrt, std::sqrt(v))
ASCEND_EMU_FLOAT_UNARY(Reciprocal, 1.0f / v)
ASCEND_EMU_FLOAT_UNARY(Sigmoid, Sigmoid(v))
ASCEND_EMU_FLOAT_UNARY(Tanh, std::tanh(v))
ASCEND_EMU_FLOAT_UNARY(Erf, std::erf(v))
ASCEND_EMU_FLOAT_UNARY(Sin, std::sin(v))
ASCEND_EMU_FLOAT_UNARY(Cos, std::cos(v))
ASCEND_EMU_FLOAT_UNARY(Floor, std::floor(v))
ASCEND_EMU_FLOAT_UNARY(Ceil, std::ceil(v))
// nearbyint in the default rounding mode rounds halves to even, as ONNX.
ASCEND_EMU_FLOAT_UNARY(Round, std::nearbyint(v))
ASCEND_EMU_FLOAT_UNARY(HardSwish, v* HardSigmoid(v, 1.0f / 6.0f, 0.5f))

#undef ASCEND_EMU_FLOAT_UNARY

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

std::string InferNot(InferContext& ctx) {
  return InferUnary("Not", ctx, Accepts::kBool);
}
void RunNot(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const Bool* px = x.as<const Bool>();
  Bool* py = ctx.outputs[0].as<Bool>();
  const int64_t n = x.shape.numel();
  for (int64_t i = 0; i < n; ++i) py[i] = px[i] == 0 ? 1 : 0;
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
  std::string err = InferFloatPredicate(
      op, ctx,
      {{"detect_negative", Attribute::Kind::kInt},
       {"detect_positive", Attribute::Kind::kInt}});
  if (!err.empty()) return err;
  for (const char* name : {"detect_negative", "detect_positive"}) {
    const int64_t v = AttrInt(ctx.attrs, name, 1);
    if (v != 0 && v != 1) {
      return Fail(op, std::string(name) + " must be 0 or 1, got " +
                          std::to_string(v));
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
  if (!IsFloat(x.dtype) && !IsInt(x.dtype)) {
    return Fail(op, DTypeRefusal(x.dtype, "float32, float16, int32 or int64"));
  }
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
