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

std::string InferViaFloat(const char* op, InferFn float_infer,
                          InferContext& ctx) {
  bool any_half = false;
  bool any_float = false;
  for (const TensorRef& t : ctx.inputs) {
    if (!t.present()) continue;
    any_half |= t.dtype == DType::kFloat16;
    any_float |= t.dtype == DType::kFloat32;
  }
  if (!any_half) return float_infer(ctx);
  if (any_float) return Fail(op, "inputs mix float16 and float32");
  if (ctx.inputs.size() > kMaxIo || ctx.outputs.size() > kMaxIo) {
    return Fail(op, "too many inputs or outputs for float16");
  }
  std::vector<TensorRef> inputs = ctx.inputs;
  for (TensorRef& t : inputs) {
    if (!t.present() || t.dtype != DType::kFloat16) continue;
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
    if (ctx.inputs[i].present() && ctx.inputs[i].dtype == DType::kFloat16) {
      bytes += static_cast<int64_t>(FloatBlock(ctx.inputs[i].shape.numel()));
    }
  }
  for (TensorRef& out : ctx.outputs) {
    if (out.dtype != DType::kFloat32) continue;
    bytes += static_cast<int64_t>(FloatBlock(out.shape.numel()));
    out.dtype = DType::kFloat16;
  }
  bytes += static_cast<int64_t>((fctx.scratch_bytes + 63) / 64 * 64);
  if (bytes > kMaxTensorBytes) return Fail(op, "float16 scratch is too large");
  ctx.scratch_bytes = static_cast<size_t>(bytes);
  return "";
}

void RunViaFloat(RunFn float_run, const RunContext& ctx) {
  bool half = false;
  for (size_t i = 0; i < ctx.num_outputs; ++i) {
    half |= ctx.outputs[i].dtype == DType::kFloat16;
  }
  if (!half) return float_run(ctx);
  TensorRef in[kMaxIo];
  TensorRef out[kMaxIo];
  unsigned char* p = static_cast<unsigned char*>(ctx.scratch);
  for (size_t i = 0; i < ctx.num_inputs; ++i) {
    in[i] = ctx.inputs[i];
    if (!in[i].present() || in[i].dtype != DType::kFloat16) continue;
    const int64_t n = in[i].shape.numel();
    const Half* src = in[i].as<const Half>();
    float* dst = reinterpret_cast<float*>(p);
    for (int64_t j = 0; j < n; ++j) dst[j] = static_cast<float>(src[j]);
    in[i].dtype = DType::kFloat32;
    in[i].data = dst;
    p += FloatBlock(n);
  }
  for (size_t i = 0; i < ctx.num_outputs; ++i) {
    out[i] = ctx.outputs[i];
    if (out[i].dtype != DType::kFloat16) continue;
    out[i].dtype = DType::kFloat32;
    out[i].data = p;
    p += FloatBlock(out[i].shape.numel());
  }
  RunContext fctx{ctx.attrs, in, ctx.num_inputs, out, ctx.num_outputs, p};
  float_run(fctx);
  for (size_t i = 0; i < ctx.num_outputs; ++i) {
    if (ctx.outputs[i].dtype != DType::kFloat16) continue;
    const int64_t n = out[i].shape.numel();
    const float* src = out[i].as<const float>();
    Half* dst = ctx.outputs[i].as<Half>();
    for (int64_t j = 0; j < n; ++j) dst[j] = Half(src[j]);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
