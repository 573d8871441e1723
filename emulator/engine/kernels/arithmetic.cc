// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Arithmetic with numpy/ONNX multidirectional broadcasting: Add, Sub, Mul,
// Div, Pow, Mod and variadic Max/Min (float32, float16, int32, int64; Pow's
// base float only). Floats compute in float (fp16 rounds once on store);
// integer results wrap (two's complement) and never trap: division by zero
// gives 0.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "broadcast.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

// Add, Sub, Mul, Div: two inputs, then no attributes.
std::string InferArithmetic(const char* op, InferContext& ctx) {
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (!err.empty()) return err;
  return InferBroadcast(op, ctx, 2, 2, IsNumeric, kNumericDTypes);
}

// y = f(a, b) on compute types, same dtype in and out.
template <typename T, typename F>
void Arith(const TensorRef& a, const TensorRef& b, const TensorRef& y, F f) {
  BinaryBroadcast<T, T, T>(
      a, b, y, [&](T x, T z) { return Store<T>(f(Load(x), Load(z))); });
}

template <typename F>
void RunArith(const RunContext& ctx, F f) {
  DispatchNumeric(ctx.inputs[0].dtype, [&](auto tag) {
    Arith<decltype(tag)>(ctx.inputs[0], ctx.inputs[1], ctx.outputs[0], f);
  });
}

// Integer arithmetic wraps (two's complement) instead of being undefined.
template <typename T>
using U = std::make_unsigned_t<T>;
template <typename T>
inline T Wrap(U<T> v) {
  return static_cast<T>(v);
}

struct AddOp {
  float operator()(float x, float y) const { return x + y; }
  template <typename T>
  T operator()(T x, T y) const {
    return Wrap<T>(static_cast<U<T>>(x) + static_cast<U<T>>(y));
  }
};
struct SubOp {
  float operator()(float x, float y) const { return x - y; }
  template <typename T>
  T operator()(T x, T y) const {
    return Wrap<T>(static_cast<U<T>>(x) - static_cast<U<T>>(y));
  }
};
struct MulOp {
  float operator()(float x, float y) const { return x * y; }
  template <typename T>
  T operator()(T x, T y) const {
    return Wrap<T>(static_cast<U<T>>(x) * static_cast<U<T>>(y));
  }
};
// Integer division truncates (C, ONNX Runtime). Division by zero, undefined
// in ONNX, gives 0 here instead of a SIGFPE; INT_MIN / -1 wraps.
struct DivOp {
  float operator()(float x, float y) const { return x / y; }
  template <typename T>
  T operator()(T x, T y) const {
    if (y == 0) return 0;
    if (y == -1) return Wrap<T>(U<T>{0} - static_cast<U<T>>(x));
    return x / y;
  }
};

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

std::string InferAdd(InferContext& ctx) { return InferArithmetic("Add", ctx); }
std::string InferSub(InferContext& ctx) { return InferArithmetic("Sub", ctx); }
std::string InferMul(InferContext& ctx) { return InferArithmetic("Mul", ctx); }
std::string InferDiv(InferContext& ctx) { return InferArithmetic("Div", ctx); }
void RunAdd(const RunContext& ctx) { RunArith(ctx, AddOp()); }
void RunSub(const RunContext& ctx) { RunArith(ctx, SubOp()); }
void RunMul(const RunContext& ctx) { RunArith(ctx, MulOp()); }
void RunDiv(const RunContext& ctx) { RunArith(ctx, DivOp()); }

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
  // A float32 cube or square by one scalar exponent (GPT-2's GELU has
  // x^3) is multiplied out, as ONNX Runtime does: vectorised, and within an
  // ulp of powf (x * x is exact rounding).
  if (x.dtype == DType::kFloat32 && e.dtype == DType::kFloat32 &&
      e.shape.numel() == 1 && x.shape == ctx.outputs[0].shape) {
    const float p = e.as<const float>()[0];
    if (p == 2.0f || p == 3.0f) {
      const float* px = x.as<const float>();
      float* py = ctx.outputs[0].as<float>();
      const int64_t n = x.shape.numel();
      if (p == 2.0f) {
        for (int64_t i = 0; i < n; ++i) py[i] = px[i] * px[i];
      } else {
        for (int64_t i = 0; i < n; ++i) py[i] = px[i] * px[i] * px[i];
      }
      return;
    }
  }
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
  } else if (x.dtype == DType::kBFloat16) {
    run(BFloat16{});
  } else {
    run(float{});
  }
}

std::string InferMax(InferContext& ctx) {
  std::string err = CheckAttributes("Max", ctx.attrs, {});
  if (!err.empty()) return err;
  return InferBroadcast("Max", ctx, 1, 64, IsNumeric, kNumericDTypes);
}
void RunMax(const RunContext& ctx) { RunVariadic<MaxOp>(ctx); }

std::string InferMin(InferContext& ctx) {
  std::string err = CheckAttributes("Min", ctx.attrs, {});
  if (!err.empty()) return err;
  return InferBroadcast("Min", ctx, 1, 64, IsNumeric, kNumericDTypes);
}
void RunMin(const RunContext& ctx) { RunVariadic<MinOp>(ctx); }

std::string InferMod(InferContext& ctx) {
  const char* op = "Mod";
  std::string err =
      CheckAttributes(op, ctx.attrs, {{"fmod", Attribute::Kind::kInt}});
  if (!err.empty()) return err;
  const int64_t fmod = AttrInt(ctx.attrs, "fmod", 0);
  if (fmod != 0 && fmod != 1) return Fail(op, "fmod must be 0 or 1");
  err = InferBroadcast(op, ctx, 2, 2, IsNumeric, kNumericDTypes);
  if (!err.empty()) return err;
  if (IsFloat(ctx.inputs[0].dtype) && fmod != 1) {
    return Fail(op, "floating-point inputs require fmod=1");
  }
  return "";
}

void RunMod(const RunContext& ctx) {
  const bool python_style = AttrInt(ctx.attrs, "fmod", 0) == 0;
  RunArith(ctx, [python_style](auto x, auto z) {
    using C = decltype(x);
    if constexpr (std::is_floating_point_v<C>) {
      return std::fmod(x, z);
    } else {
      return IntMod<C>(x, z, python_style);
    }
  });
}

}  // namespace kernels
}  // namespace ascend_emu
