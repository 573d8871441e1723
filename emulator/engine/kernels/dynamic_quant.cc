// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// NPUDynamicQuant (CANN's ONNX plugin name, registered for npu::1 and
// ai.onnx opsets 11-18; IR DynamicQuant, reference/cann-quant.md): symmetric
// per-row int8 quantization of activations, the first half of W8A8 dynamic.
//   x [..., K] float16 or bfloat16; smooth_scales (optional) [K], x's dtype;
//   group_index (MoE) refused: not emulated.
//   y [..., K] int8; scale [...] float32, one per row.
// The arithmetic is the Ascend910B kernel's (hicann/ops-nn@e5c3fa9,
// quant/dynamic_quant/op_kernel/dynamic_quant.h, DynamicQuant::Compute),
// every step in float32: the row widened (exact), times the smooth scales,
// m = max |x|, s = 127 / m, scale = 1 / s, y = rint(x * s) (ties to even;
// its int32 -> float16 -> int8 casts are exact in [-127, 127]). A row of
// zeros gives s = inf and x * s = NaN, whose conversion the kernel does not
// define: here 0 (not verified on a chip). The plugin reads no attribute
// (dst_type stays int8), so none is read here either; atc refuses the op on
// chips whose kernel computes otherwise (Ascend310P's multiplies in
// float16) or has none (cann_op_facts.json).
#include <cmath>
#include <cstdint>
#include <string>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "NPUDynamicQuant";

template <typename T>
float Widen(const void* p, int64_t i) {
  return Load(static_cast<const T*>(p)[i]);
}

float LoadAt(const TensorRef& t, int64_t i) {
  return t.dtype == DType::kFloat16 ? Widen<Half>(t.data, i)
                                    : Widen<BFloat16>(t.data, i);
}

// rint(v) as int8 for |v| <= 127.5 (what x * s can reach), NaN as 0.
int8_t RintInt8(float v) {
  if (std::isnan(v)) return 0;
  const float r = std::nearbyint(v);  // ties to even (the default mode)
  return static_cast<int8_t>(r < -128.0f ? -128.0f : r > 127.0f ? 127.0f : r);
}

}  // namespace

std::string InferNPUDynamicQuant(InferContext& ctx) {
  std::string err = CheckInputs(kOp, ctx, 1, 3);
  if (err.empty()) err = PrepareOutputs(kOp, ctx, 2);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype != DType::kFloat16 && x.dtype != DType::kBFloat16)
    return Fail(kOp, "x " + DTypeRefusal(x.dtype, "float16 or bfloat16"));
  if (x.shape.rank < 1)
    return Fail(kOp, "x must have a last (row) dim, got a scalar");
  const int64_t k = x.shape.dims[x.shape.rank - 1];
  const TensorRef* smooth =
      OptionalInput(ctx.inputs.data(), ctx.inputs.size(), 1);
  if (smooth != nullptr &&
      (smooth->dtype != x.dtype || smooth->shape.rank != 1 ||
       smooth->shape.dims[0] != k)) {
    return Fail(
        kOp, "smooth_scales must be " + std::string(DTypeName(x.dtype)) + " [" +
                 std::to_string(k) + "], got " + DTypeName(smooth->dtype) +
                 " " + smooth->shape.ToString());
  }
  if (OptionalInput(ctx.inputs.data(), ctx.inputs.size(), 2) != nullptr)
    return Fail(kOp, "group_index (the MoE form) is not emulated");
  err = SetOutput(kOp, ctx, 0, DType::kInt8, x.shape);
  if (!err.empty()) return err;
  Shape rows = x.shape;
  rows.rank -= 1;
  // One row of x * smooth, kept between the max pass and the rounding.
  ctx.scratch_bytes = static_cast<size_t>(k) * sizeof(float);
  return SetOutput(kOp, ctx, 1, DType::kFloat32, rows);
}

void RunNPUDynamicQuant(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef* smooth = OptionalInput(ctx.inputs, ctx.num_inputs, 1);
  const int64_t k = x.shape.dims[x.shape.rank - 1];
  const int64_t rows = k == 0 ? 0 : x.shape.numel() / k;
  int8_t* y = ctx.outputs[0].as<int8_t>();
  float* scale = ctx.outputs[1].as<float>();
  float* row = static_cast<float*>(ctx.scratch);  // Run must not allocate
  for (int64_t r = 0; r < rows; ++r) {
    float m = 0.0f;
    for (int64_t i = 0; i < k; ++i) {
      float v = LoadAt(x, r * k + i);
      if (smooth != nullptr) v *= LoadAt(*smooth, i);
      row[i] = v;
      const float a = std::fabs(v);
      // NaN stays the maximum once met (a NaN row quantizes to 0).
      if (!std::isnan(m) && !(a <= m)) m = a;
    }
    const float s = 127.0f / m;
    scale[r] = 1.0f / s;
    for (int64_t i = 0; i < k; ++i) y[r * k + i] = RintInt8(row[i] * s);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
