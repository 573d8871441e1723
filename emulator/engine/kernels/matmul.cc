// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// MatMul (numpy semantics: 1-D promotion, broadcast batch dims) and Gemm
// (transA/transB, alpha, beta, optional C broadcast to [M, N]), float32, on
// oneDNN's sgemm (onednn.h); float16 through float scratch
// (half_via_float.h).
#include <cstdint>
#include <memory>
#include <string>

#include "half_via_float.h"
#include "kernel_util.h"
#include "matmul_int8.h"
#include "onednn.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

// MatMul operands seen as [batch..., rows, cols] after 1-D promotion.
struct MatMulDims {
  Shape batch_a, batch_b, batch;  // batch dims of A, of B, and broadcast
  int64_t m = 0, k = 0, n = 0;
};

// Splits a MatMul operand into batch dims and its matrix dims.
void SplitOperand(const Shape& s, bool is_a, Shape* batch, int64_t* rows,
                  int64_t* cols) {
  batch->rank = 0;
  if (s.rank == 1) {
    *rows = is_a ? 1 : s.dims[0];
    *cols = is_a ? s.dims[0] : 1;
    return;
  }
  for (int32_t i = 0; i < s.rank - 2; ++i)
    batch->dims[batch->rank++] = s.dims[i];
  *rows = s.dims[s.rank - 2];
  *cols = s.dims[s.rank - 1];
}

// A leading dimension for oneDNN, which wants >= 1 even for an empty
// operand (k == 0).
int64_t Ld(int64_t cols) { return cols < 1 ? 1 : cols; }

bool GetMatMulDims(const Shape& a, const Shape& b, MatMulDims* d) {
  int64_t ka = 0;
  int64_t kb = 0;
  SplitOperand(a, true, &d->batch_a, &d->m, &ka);
  SplitOperand(b, false, &d->batch_b, &kb, &d->n);
  d->k = ka;
  return ka == kb && BroadcastShapes(d->batch_a, d->batch_b, &d->batch);
}

}  // namespace

std::string InferMatMulFloat(InferContext& ctx) {
  const char* op = "MatMul";
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& a = ctx.inputs[0];
  const TensorRef& b = ctx.inputs[1];
  if (a.dtype != DType::kFloat32 || b.dtype != DType::kFloat32) {
    return Fail(op, std::string("unsupported dtypes ") + DTypeName(a.dtype) +
                        " and " + DTypeName(b.dtype) + " (float32 only)");
  }
  if (a.shape.rank < 1 || b.shape.rank < 1) {
    return Fail(op, "inputs must have rank >= 1, got " + a.shape.ToString() +
                        " and " + b.shape.ToString());
  }
  MatMulDims d;
  if (!GetMatMulDims(a.shape, b.shape, &d)) {
    return Fail(op, "shapes " + a.shape.ToString() + " and " +
                        b.shape.ToString() + " are not compatible");
  }
  Shape out = d.batch;
  if (a.shape.rank >= 2) out.dims[out.rank++] = d.m;
  if (b.shape.rank >= 2) out.dims[out.rank++] = d.n;
  return SetOutput(op, ctx, 0, DType::kFloat32, out);
}

void RunMatMulFloat(const RunContext& ctx) {
  const TensorRef& a = ctx.inputs[0];
  const TensorRef& b = ctx.inputs[1];
  MatMulDims d;
  GetMatMulDims(a.shape, b.shape, &d);
  const float* pa = a.as<const float>();
  const float* pb = b.as<const float>();
  float* py = ctx.outputs[0].as<float>();
  const int64_t batches = d.batch.numel();
  if (batches == 0 || d.m == 0 || d.n == 0) return;
  const int64_t mk = d.m * d.k;
  const int64_t kn = d.k * d.n;
  const int64_t mn = d.m * d.n;

  // Common case (Linear over [B, S, K] x [K, N]): one tall GEMM.
  if (d.batch_b.numel() == 1 && d.batch_a.numel() == batches) {
    Sgemm(false, false, batches * d.m, d.n, d.k, 1.0f, pa, Ld(d.k), pb, Ld(d.n),
          0.0f, py, d.n);
    return;
  }
  const int32_t r = d.batch.rank;
  int64_t sa[kMaxRank];
  int64_t sb[kMaxRank];
  BroadcastStrides(d.batch_a, r, sa);
  BroadcastStrides(d.batch_b, r, sb);
  int64_t idx[kMaxRank] = {};
  int64_t oa = 0;  // in matrices
  int64_t ob = 0;
  for (int64_t i = 0; i < batches; ++i) {
    Sgemm(false, false, d.m, d.n, d.k, 1.0f, pa + oa * mk, Ld(d.k),
          pb + ob * kn, Ld(d.n), 0.0f, py + i * mn, d.n);
    for (int32_t j = r - 1; j >= 0; --j) {
      oa += sa[j];
      ob += sb[j];
      if (++idx[j] < d.batch.dims[j]) break;
      oa -= sa[j] * d.batch.dims[j];
      ob -= sb[j] * d.batch.dims[j];
      idx[j] = 0;
    }
  }
}

std::string InferGemmFloat(InferContext& ctx) {
  const char* op = "Gemm";
  using K = Attribute::Kind;
  std::string err = CheckInputs(op, ctx, 2, 3);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"alpha", K::kFloat},
                           {"beta", K::kFloat},
                           {"transA", K::kInt},
                           {"transB", K::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    if (ctx.inputs[i].present() && ctx.inputs[i].dtype != DType::kFloat32) {
      return Fail(op, "input " + std::to_string(i) + " has dtype " +
                          DTypeName(ctx.inputs[i].dtype) + " (float32 only)");
    }
  }
  const int64_t trans_a = AttrInt(ctx.attrs, "transA", 0);
  const int64_t trans_b = AttrInt(ctx.attrs, "transB", 0);
  if ((trans_a != 0 && trans_a != 1) || (trans_b != 0 && trans_b != 1)) {
    return Fail(op, "transA and transB must be 0 or 1");
  }
  const Shape& a = ctx.inputs[0].shape;
  const Shape& b = ctx.inputs[1].shape;
  if (a.rank != 2 || b.rank != 2) {
    return Fail(op, "A and B must be 2-D, got " + a.ToString() + " and " +
                        b.ToString());
  }
  const int64_t m = trans_a ? a.dims[1] : a.dims[0];
  const int64_t k = trans_a ? a.dims[0] : a.dims[1];
  const int64_t kb = trans_b ? b.dims[1] : b.dims[0];
  const int64_t n = trans_b ? b.dims[0] : b.dims[1];
  if (k != kb) {
    return Fail(op, "inner dimensions differ: A " + a.ToString() + " (transA=" +
                        std::to_string(trans_a) + "), B " + b.ToString() +
                        " (transB=" + std::to_string(trans_b) + ")");
  }
  if (ctx.inputs.size() == 3 && ctx.inputs[2].present()) {
    const Shape& c = ctx.inputs[2].shape;
    const int64_t want[2] = {m, n};
    bool ok = c.rank <= 2;
    for (int32_t i = 0; ok && i < c.rank; ++i) {
      const int64_t dim = c.dims[i];
      const int64_t target = want[2 - c.rank + i];
      ok = dim == target || dim == 1;
    }
    if (!ok) {
      return Fail(op, "C " + c.ToString() + " does not broadcast to [" +
                          std::to_string(m) + ", " + std::to_string(n) + "]");
    }
  }
  return SetOutput(op, ctx, 0, DType::kFloat32, MakeShape({m, n}));
}

void RunGemmFloat(const RunContext& ctx) {
  const TensorRef& ta = ctx.inputs[0];
  const TensorRef& tb = ctx.inputs[1];
  TensorRef& ty = ctx.outputs[0];
  const bool trans_a = AttrInt(ctx.attrs, "transA", 0) != 0;
  const bool trans_b = AttrInt(ctx.attrs, "transB", 0) != 0;
  const float alpha = AttrFloat(ctx.attrs, "alpha", 1.0f);
  const float beta = AttrFloat(ctx.attrs, "beta", 1.0f);
  const int64_t m = ty.shape.dims[0];
  const int64_t n = ty.shape.dims[1];
  if (m == 0 || n == 0) return;
  float* py = ty.as<float>();

  // beta == 0 ignores C entirely (as PyTorch's addmm and ONNX Runtime do), so
  // a NaN in C does not leak into the result. Otherwise C is broadcast into
  // y, and the GEMM scales it by beta as it accumulates.
  const bool has_c =
      ctx.num_inputs == 3 && ctx.inputs[2].present() && beta != 0.0f;
  if (has_c) {
    const TensorRef& tc = ctx.inputs[2];
    const float* pc = tc.as<const float>();
    const Shape& c = tc.shape;
    const int64_t c_rows = c.rank == 2 ? c.dims[0] : 1;
    const int64_t c_cols = c.rank >= 1 ? c.dims[c.rank - 1] : 1;
    for (int64_t i = 0; i < m; ++i) {
      const float* crow = pc + (c_rows == 1 ? 0 : i * c_cols);
      float* yrow = py + i * n;
      if (c_cols == 1) {
        for (int64_t j = 0; j < n; ++j) yrow[j] = crow[0];
      } else {
        for (int64_t j = 0; j < n; ++j) yrow[j] = crow[j];
      }
    }
  }
  // A and B are passed as stored, with their transposes as flags: no copy.
  const int64_t k = trans_a ? ta.shape.dims[0] : ta.shape.dims[1];
  Sgemm(trans_a, trans_b, m, n, k, alpha, ta.as<const float>(),
        Ld(ta.shape.dims[1]), tb.as<const float>(), Ld(tb.shape.dims[1]),
        has_c ? beta : 0.0f, py, n);
}

// int8 (matmul_int8.h): CANN's quantized MatMul/Gemm, int32 out. float16:
// widened into float scratch, float kernel, rounded on store.
std::string InferMatMul(InferContext& ctx) {
  if (MatMulIsInt8(ctx.inputs)) return InferMatMulInt8(ctx);
  return InferViaFloat("MatMul", &InferMatMulFloat, ctx);
}
void RunMatMul(const RunContext& ctx) {
  if (ctx.inputs[0].dtype == DType::kInt8) return RunMatMulInt8(ctx);
  RunViaFloat(&RunMatMulFloat, ctx);
}
std::string InferGemm(InferContext& ctx) {
  if (MatMulIsInt8(ctx.inputs)) return InferGemmInt8(ctx);
  return InferViaFloat("Gemm", &InferGemmFloat, ctx);
}
void RunGemm(const RunContext& ctx) {
  if (ctx.inputs[0].dtype == DType::kInt8) return RunGemmInt8(ctx);
  RunViaFloat(&RunGemmFloat, ctx);
}
// Only the int8 forms prepare anything (their weight as float where
// oneDNN's int8 GEMM is not exact).
std::unique_ptr<PreparedOp> PrepareMatMul(const PrepareContext& ctx) {
  return MatMulIsInt8(ctx.inputs) ? PrepareMatMulInt8(ctx) : nullptr;
}

}  // namespace kernels
}  // namespace ascend_emu
