// Elementwise kernels: Add, Sub, Mul, Div with numpy/ONNX multidirectional
// broadcasting (float32, float16, int32, int64), and Relu. float16 computes
// in float and rounds once on store.
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "broadcast.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

std::string InferBinary(const char* op, InferContext& ctx) {
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& a = ctx.inputs[0];
  const TensorRef& b = ctx.inputs[1];
  if (!IsFloat(a.dtype) && !IsInt(a.dtype)) {
    return Fail(op, DTypeRefusal(a.dtype, "float32, float16, int32 or int64"));
  }
  if (a.dtype != b.dtype) {
    return Fail(op, std::string("input dtypes differ: ") + DTypeName(a.dtype) +
                        " and " + DTypeName(b.dtype));
  }
  Shape out;
  if (!BroadcastShapes(a.shape, b.shape, &out)) {
    return Fail(op, "shapes " + a.shape.ToString() + " and " +
                        b.shape.ToString() + " do not broadcast");
  }
  return SetOutput(op, ctx, 0, a.dtype, out);
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

template <typename F>
void RunBinary(const RunContext& ctx) {
  const TensorRef& a = ctx.inputs[0];
  const TensorRef& b = ctx.inputs[1];
  const TensorRef& y = ctx.outputs[0];
  switch (a.dtype) {
    case DType::kInt64:
      return BinaryBroadcast<int64_t, int64_t, int64_t>(a, b, y, F());
    case DType::kInt32:
      return BinaryBroadcast<int32_t, int32_t, int32_t>(a, b, y, F());
    case DType::kFloat16:
      return BinaryBroadcast<Half, Half, Half>(a, b, y, [](Half x, Half z) {
        return Half(F()(static_cast<float>(x), static_cast<float>(z)));
      });
    default:
      return BinaryBroadcast<float, float, float>(a, b, y, F());
  }
}

}  // namespace

std::string InferAdd(InferContext& ctx) { return InferBinary("Add", ctx); }
std::string InferSub(InferContext& ctx) { return InferBinary("Sub", ctx); }
std::string InferMul(InferContext& ctx) { return InferBinary("Mul", ctx); }
std::string InferDiv(InferContext& ctx) { return InferBinary("Div", ctx); }
void RunAdd(const RunContext& ctx) { RunBinary<AddOp>(ctx); }
void RunSub(const RunContext& ctx) { RunBinary<SubOp>(ctx); }
void RunMul(const RunContext& ctx) { RunBinary<MulOp>(ctx); }
void RunDiv(const RunContext& ctx) { RunBinary<DivOp>(ctx); }

std::string InferRelu(InferContext& ctx) {
  const char* op = "Relu";
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (!IsFloat(x.dtype) && !IsInt(x.dtype)) {
    return Fail(op, DTypeRefusal(x.dtype, "float32, float16, int32 or int64"));
  }
  return SetOutput(op, ctx, 0, x.dtype, x.shape);
}

namespace {

template <typename T>
void ReluTyped(const TensorRef& x, const TensorRef& y) {
  const T* px = x.as<const T>();
  T* py = y.as<T>();
  const int64_t n = x.shape.numel();
  // `x < 0 ? 0 : x` keeps NaN, as PyTorch and ONNX Runtime do.
  for (int64_t i = 0; i < n; ++i) py[i] = px[i] < T(0) ? T(0) : px[i];
}

}  // namespace

void RunRelu(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& y = ctx.outputs[0];
  switch (x.dtype) {
    case DType::kInt64:
      return ReluTyped<int64_t>(x, y);
    case DType::kInt32:
      return ReluTyped<int32_t>(x, y);
    case DType::kFloat16:
      return ReluTyped<Half>(x, y);
    default:
      return ReluTyped<float>(x, y);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
