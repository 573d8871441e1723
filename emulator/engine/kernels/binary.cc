// Broadcasting binary kernels beyond arithmetic: Pow, variadic Max/Min,
// comparisons (-> bool), And/Or/Xor (bool), Where (bool condition, 3-way
// broadcast) and Mod. Floats compute in float (fp16 rounds once on store);
// integer results are exact and never trap (division by zero gives 0).
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "broadcast.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kNumeric = "float32, float16, int32 or int64";

// Calls f(T{}) for the numeric storage types; false for others (bool).
template <typename F>
bool DispatchNumeric(DType d, F&& f) {
  return d != DType::kBool && DispatchDType(d, std::forward<F>(f));
}

// Checks `count` inputs of one dtype accepted by `ok`, and sets output 0 to
// their broadcast shape with dtype `out_dtype` (or the inputs' dtype when
// out_dtype is not given).
template <typename Ok>
std::string InferBroadcast(const char* op, InferContext& ctx, size_t min,
                           size_t max, Ok ok, const char* accepted,
                           const DType* out_dtype = nullptr) {
  std::string err = CheckInputs(op, ctx, min, max);
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& a = ctx.inputs[0];
  if (!ok(a.dtype)) return Fail(op, DTypeRefusal(a.dtype, accepted));
  Shape out = a.shape;
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    const TensorRef& b = ctx.inputs[i];
    if (b.dtype != a.dtype) {
      return Fail(op, std::string("input dtypes differ: ") +
                          DTypeName(a.dtype) + " and " + DTypeName(b.dtype));
    }
    if (!BroadcastShapes(out, b.shape, &out)) {
      return Fail(op, "shapes " + a.shape.ToString() + " and " +
                          b.shape.ToString() + " do not broadcast");
    }
  }
  return SetOutput(op, ctx, 0, out_dtype ? *out_dtype : a.dtype, out);
}

bool IsNumeric(DType d) { return IsFloat(d) || IsInt(d); }

// y = f(a, b) on compute types, same dtype in and out.
template <typename T, typename F>
void Arith(const TensorRef& a, const TensorRef& b, const TensorRef& y, F f) {
  BinaryBroadcast<T, T, T>(
      a, b, y, [&](T x, T z) { return Store<T>(f(Load(x), Load(z))); });
}

// y = f(a, b) ? 1 : 0 on compute types, bool out.
template <typename T, typename F>
void Compare(const RunContext& ctx, F f) {
  BinaryBroadcast<T, T, Bool>(
      ctx.inputs[0], ctx.inputs[1], ctx.outputs[0],
      [&](T x, T z) -> Bool { return f(Load(x), Load(z)) ? 1 : 0; });
}

// Max/Min propagate NaN, as torch.maximum/minimum.
struct MaxOp {
  template <typename C>
  C operator()(C x, C z) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(x)) return x;
      if (std::isnan(z)) return z;
    }
    return x < z ? z : x;
  }
};
struct MinOp {
  template <typename C>
  C operator()(C x, C z) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(x)) return x;
      if (std::isnan(z)) return z;
    }
    return z < x ? z : x;
  }
};

template <typename Op>
void RunVariadic(const RunContext& ctx) {
  const TensorRef& y = ctx.outputs[0];
  DispatchNumeric(y.dtype, [&](auto tag) {
    using T = decltype(tag);
    if (ctx.num_inputs == 1) {
      const T* px = ctx.inputs[0].as<const T>();
      T* py = y.as<T>();
      for (int64_t i = 0; i < y.shape.numel(); ++i) py[i] = px[i];
      return;
    }
    Arith<T>(ctx.inputs[0], ctx.inputs[1], y, Op());
    // Later inputs fold into y in place; y already has the full shape.
    for (size_t k = 2; k < ctx.num_inputs; ++k) {
      Arith<T>(y, ctx.inputs[k], y, Op());
    }
  });
}

// Comparisons: numeric inputs (and bool for Equal), bool output.
std::string InferCompare(const char* op, InferContext& ctx, bool allow_bool) {
  static const DType kBoolOut = DType::kBool;
  auto ok = [allow_bool](DType d) {
    return IsNumeric(d) || (allow_bool && d == DType::kBool);
  };
  return InferBroadcast(
      op, ctx, 2, 2, ok,
      allow_bool ? "float32, float16, int32, int64 or bool" : kNumeric,
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

// Integer remainder without traps: x % 0 gives 0, and x % -1 is 0 (which
// also covers INT_MIN % -1). Python-style (fmod=0) takes the divisor's sign.
template <typename C>
C IntMod(C x, C z, bool python_style) {
  if (z == 0 || z == -1) return 0;
  C r = x % z;
  if (python_style && r != 0 && ((r < 0) != (z < 0))) r += z;
  return r;
}

}  // namespace

std::string InferPow(InferContext& ctx) {
  const char* op = "Pow";
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& e = ctx.inputs[1];
  if (!IsFloat(x.dtype)) {
    return Fail(op, DTypeRefusal(x.dtype, "float32 or float16 base"));
  }
  if (!IsNumeric(e.dtype)) {
    return Fail(op, DTypeRefusal(e.dtype,
                                 "float32, float16, int32 or int64 "
                                 "exponent"));
  }
  Shape out;
  if (!BroadcastShapes(x.shape, e.shape, &out)) {
    return Fail(op, "shapes " + x.shape.ToString() + " and " +
                        e.shape.ToString() + " do not broadcast");
  }
  return SetOutput(op, ctx, 0, x.dtype, out);
}

void RunPow(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& e = ctx.inputs[1];
  auto run = [&](auto base_tag) {
    using TX = decltype(base_tag);
    DispatchNumeric(e.dtype, [&](auto exp_tag) {
      using TE = decltype(exp_tag);
      BinaryBroadcast<TX, TE, TX>(x, e, ctx.outputs[0], [](TX b, TE p) {
        return Store<TX>(
            static_cast<float>(std::pow(Load(b), static_cast<float>(Load(p)))));
      });
    });
  };
  if (x.dtype == DType::kFloat16) {
    run(Half{});
  } else {
    run(float{});
  }
}

std::string InferMax(InferContext& ctx) {
  std::string err = CheckAttributes("Max", ctx.attrs, {});
  if (!err.empty()) return err;
  return InferBroadcast("Max", ctx, 1, 64, IsNumeric, kNumeric);
}
void RunMax(const RunContext& ctx) { RunVariadic<MaxOp>(ctx); }

std::string InferMin(InferContext& ctx) {
  std::string err = CheckAttributes("Min", ctx.attrs, {});
  if (!err.empty()) return err;
  return InferBroadcast("Min", ctx, 1, 64, IsNumeric, kNumeric);
}
void RunMin(const RunContext& ctx) { RunVariadic<MinOp>(ctx); }

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

std::string InferMod(InferContext& ctx) {
  const char* op = "Mod";
  std::string err =
      CheckAttributes(op, ctx.attrs, {{"fmod", Attribute::Kind::kInt}});
  if (!err.empty()) return err;
  const int64_t fmod = AttrInt(ctx.attrs, "fmod", 0);
  if (fmod != 0 && fmod != 1) return Fail(op, "fmod must be 0 or 1");
  err = InferBroadcast(op, ctx, 2, 2, IsNumeric, kNumeric);
  if (!err.empty()) return err;
  if (IsFloat(ctx.inputs[0].dtype) && fmod != 1) {
    return Fail(op, "floating-point inputs require fmod=1");
  }
  return "";
}

void RunMod(const RunContext& ctx) {
  const bool python_style = AttrInt(ctx.attrs, "fmod", 0) == 0;
  DispatchNumeric(ctx.inputs[0].dtype, [&](auto tag) {
    using T = decltype(tag);
    Arith<T>(ctx.inputs[0], ctx.inputs[1], ctx.outputs[0],
             [python_style](auto x, auto z) {
               using C = decltype(x);
               if constexpr (std::is_floating_point_v<C>) {
                 return std::fmod(x, z);
               } else {
                 return IntMod<C>(x, z, python_style);
               }
             });
  });
}

}  // namespace kernels
}  // namespace ascend_emu
