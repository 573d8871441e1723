// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "half_via_float.h"

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "numeric.h"

namespace ascend_emu {
namespace kernels {
namespace {

// Inputs and outputs a converted node may have (Run keeps them on the stack).
constexpr size_t kMaxIo = 8;

// Float copy of `numel` elements, rounded up so every block stays 64-byte
// aligned in the (64-byte aligned) scratch.
size_t FloatBlock(int64_t numel) {
  return (static_cast<size_t>(numel) * sizeof(float) + 63) / 64 * 64;
}

}  // namespace

// Widens one 16-bit float buffer into float.
template <typename H>
void Widen(const void* src, float* dst, int64_t n) {
  const H* s = static_cast<const H*>(src);
  for (int64_t j = 0; j < n; ++j) dst[j] = static_cast<float>(s[j]);
}

// Rounds float into a 16-bit float buffer (nearest even; NaN stays NaN).
template <typename H>
void Narrow(const float* src, void* dst, int64_t n) {
  H* d = static_cast<H*>(dst);
  for (int64_t j = 0; j < n; ++j) d[j] = H(src[j]);
}

std::string InferViaFloat(const char* op, InferFn float_infer,
                          InferContext& ctx) {
  // The node's one 16-bit float dtype (float16 or bfloat16), if any.
  DType half = DType::kFloat32;
  bool any_float = false;
  for (const TensorRef& t : ctx.inputs) {
    if (!t.present()) continue;
    if (IsHalfLike(t.dtype)) {
      if (half != DType::kFloat32 && half != t.dtype) {
        return Fail(op, "inputs mix float16 and bfloat16");
      }
      half = t.dtype;
    }
    any_float |= t.dtype == DType::kFloat32;
  }
  if (half == DType::kFloat32) return float_infer(ctx);
  const char* hname = DTypeName(half);
  if (any_float) {
    return Fail(op, std::string("inputs mix ") + hname + " and float32");
  }
  if (ctx.inputs.size() > kMaxIo || ctx.outputs.size() > kMaxIo) {
    return Fail(op, std::string("too many inputs or outputs for ") + hname);
  }
  std::vector<TensorRef> inputs = ctx.inputs;
  for (TensorRef& t : inputs) {
    if (!t.present() || t.dtype != half) continue;
    t.dtype = DType::kFloat32;
    t.data = nullptr;  // half bits must never be read as float
  }
  InferContext fctx{ctx.attrs, inputs, ctx.outputs};
  std::string err = float_infer(fctx);
  if (!err.empty()) return err;
  // Each term is at most 2 * kMaxTensorBytes (shapes were validated), so the
  // int64 sum of a few of them cannot overflow.
  int64_t bytes = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (ctx.inputs[i].present() && ctx.inputs[i].dtype == half) {
      bytes += static_cast<int64_t>(FloatBlock(ctx.inputs[i].shape.numel()));
    }
  }
  for (TensorRef& out : ctx.outputs) {
    if (out.dtype != DType::kFloat32) continue;
    bytes += static_cast<int64_t>(FloatBlock(out.shape.numel()));
    out.dtype = half;
  }
  bytes += static_cast<int64_t>((fctx.scratch_bytes + 63) / 64 * 64);
  if (bytes > kMaxTensorBytes) {
    return Fail(op, std::string(hname) + " scratch is too large");
  }
  ctx.scratch_bytes = static_cast<size_t>(bytes);
  return "";
}

void RunViaFloat(RunFn float_run, const RunContext& ctx) {
  // Infer made every 16-bit float operand the same dtype.
  DType half = DType::kFloat32;
  for (size_t i = 0; i < ctx.num_outputs; ++i) {
    if (IsHalfLike(ctx.outputs[i].dtype)) half = ctx.outputs[i].dtype;
  }
  if (half == DType::kFloat32) return float_run(ctx);
  const bool bf16 = half == DType::kBFloat16;
  TensorRef in[kMaxIo];
  TensorRef out[kMaxIo];
  unsigned char* p = static_cast<unsigned char*>(ctx.scratch);
  for (size_t i = 0; i < ctx.num_inputs; ++i) {
    in[i] = ctx.inputs[i];
    if (!in[i].present() || in[i].dtype != half) continue;
    const int64_t n = in[i].shape.numel();
    float* dst = reinterpret_cast<float*>(p);
    if (bf16) {
      Widen<BFloat16>(in[i].data, dst, n);
    } else {
      Widen<Half>(in[i].data, dst, n);
    }
    in[i].dtype = DType::kFloat32;
    in[i].data = dst;
    p += FloatBlock(n);
  }
  for (size_t i = 0; i < ctx.num_outputs; ++i) {
    out[i] = ctx.outputs[i];
    if (out[i].dtype != half) continue;
    out[i].dtype = DType::kFloat32;
    out[i].data = p;
    p += FloatBlock(out[i].shape.numel());
  }
  RunContext fctx{ctx.attrs, in, ctx.num_inputs, out, ctx.num_outputs, p};
  float_run(fctx);
  for (size_t i = 0; i < ctx.num_outputs; ++i) {
    if (ctx.outputs[i].dtype != half) continue;
    const int64_t n = out[i].shape.numel();
    if (bf16) {
      Narrow<BFloat16>(out[i].as<const float>(), ctx.outputs[i].data, n);
    } else {
      Narrow<Half>(out[i].as<const float>(), ctx.outputs[i].data, n);
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
