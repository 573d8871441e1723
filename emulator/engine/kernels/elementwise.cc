// Elementwise kernels: Add, Sub, Mul, Div with numpy/ONNX multidirectional
// broadcasting (float32 and int64), and Relu.
#include <cstdint>
#include <limits>
#include <string>

#include "kernel_util.h"
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
  if (a.dtype != DType::kFloat32 && a.dtype != DType::kInt64) {
    return Fail(op, std::string("unsupported dtype ") + DTypeName(a.dtype) +
                        " (float32 or int64)");
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

// Applies f over y = f(a, b) with broadcasting. The innermost output dim is
// a tight loop; the outer dims advance an odometer of input offsets, so no
// index arithmetic per element and no heap.
template <typename T, typename F>
void BinaryBroadcast(const TensorRef& a, const TensorRef& b, const TensorRef& y,
                     F f) {
  const T* pa = a.as<const T>();
  const T* pb = b.as<const T>();
  T* py = y.as<T>();
  const int64_t n = y.shape.numel();
  if (n == 0) return;
  const int64_t na = a.shape.numel();
  const int64_t nb = b.shape.numel();
  if (na == n && nb == n) {
    for (int64_t i = 0; i < n; ++i) py[i] = f(pa[i], pb[i]);
    return;
  }
  if (na == n && nb == 1) {
    const T s = pb[0];
    for (int64_t i = 0; i < n; ++i) py[i] = f(pa[i], s);
    return;
  }
  if (na == 1 && nb == n) {
    const T s = pa[0];
    for (int64_t i = 0; i < n; ++i) py[i] = f(s, pb[i]);
    return;
  }
  const int32_t r = y.shape.rank;  // >= 1 here: rank 0 has n == na == nb == 1
  int64_t sa[kMaxRank];
  int64_t sb[kMaxRank];
  BroadcastStrides(a.shape, r, sa);
  BroadcastStrides(b.shape, r, sb);
  const int64_t inner = y.shape.dims[r - 1];
  const int64_t ia = sa[r - 1];
  const int64_t ib = sb[r - 1];
  int64_t idx[kMaxRank] = {};
  int64_t oa = 0;
  int64_t ob = 0;
  for (int64_t o = 0; o < n; o += inner) {
    T* row = py + o;
    for (int64_t j = 0; j < inner; ++j)
      row[j] = f(pa[oa + j * ia], pb[ob + j * ib]);
    for (int32_t d = r - 2; d >= 0; --d) {
      oa += sa[d];
      ob += sb[d];
      if (++idx[d] < y.shape.dims[d]) break;
      oa -= sa[d] * y.shape.dims[d];
      ob -= sb[d] * y.shape.dims[d];
      idx[d] = 0;
    }
  }
}

// int64 arithmetic wraps (two's complement) instead of being undefined.
inline int64_t Wrap(uint64_t v) { return static_cast<int64_t>(v); }

struct AddOp {
  float operator()(float x, float y) const { return x + y; }
  int64_t operator()(int64_t x, int64_t y) const {
    return Wrap(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
  }
};
struct SubOp {
  float operator()(float x, float y) const { return x - y; }
  int64_t operator()(int64_t x, int64_t y) const {
    return Wrap(static_cast<uint64_t>(x) - static_cast<uint64_t>(y));
  }
};
struct MulOp {
  float operator()(float x, float y) const { return x * y; }
  int64_t operator()(int64_t x, int64_t y) const {
    return Wrap(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
  }
};
// Integer division truncates (C, ONNX Runtime). Division by zero, undefined
// in ONNX, gives 0 here instead of a SIGFPE; INT64_MIN / -1 wraps.
struct DivOp {
  float operator()(float x, float y) const { return x / y; }
  int64_t operator()(int64_t x, int64_t y) const {
    if (y == 0) return 0;
    if (y == -1) return Wrap(0 - static_cast<uint64_t>(x));
    return x / y;
  }
};

template <typename F>
void RunBinary(const RunContext& ctx) {
  const TensorRef& a = ctx.inputs[0];
  if (a.dtype == DType::kInt64) {
    BinaryBroadcast<int64_t>(a, ctx.inputs[1], ctx.outputs[0], F());
  } else {
    BinaryBroadcast<float>(a, ctx.inputs[1], ctx.outputs[0], F());
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
  if (x.dtype != DType::kFloat32 && x.dtype != DType::kInt64) {
    return Fail(op, std::string("unsupported dtype ") + DTypeName(x.dtype) +
                        " (float32 or int64)");
  }
  return SetOutput(op, ctx, 0, x.dtype, x.shape);
}

void RunRelu(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const int64_t n = x.shape.numel();
  if (x.dtype == DType::kInt64) {
    const int64_t* px = x.as<const int64_t>();
    int64_t* py = ctx.outputs[0].as<int64_t>();
    for (int64_t i = 0; i < n; ++i) py[i] = px[i] < 0 ? 0 : px[i];
    return;
  }
  const float* px = x.as<const float>();
  float* py = ctx.outputs[0].as<float>();
  // `x < 0 ? 0 : x` keeps NaN, as PyTorch and ONNX Runtime do.
  for (int64_t i = 0; i < n; ++i) py[i] = px[i] < 0.0f ? 0.0f : px[i];
}

}  // namespace kernels
}  // namespace ascend_emu
