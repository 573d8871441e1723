// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Softmax and LogSoftmax (opset 13+: one axis, default -1, max-subtracted
// for stability), float32 (float16 and bfloat16 via half_via_float.h).
// LogSoftmax is x - m - log(sum(exp(x - m))), m the max along the axis: what
// PyTorch's log_softmax computes, and one op for CANN (registered for opsets
// 8-18), where the same through ReduceMax/Exp/ReduceSum/Log took six.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "half_via_float.h"
#include "kernel_util.h"
#include "ops.h"
#include "vector_math.h"

namespace ascend_emu {
namespace kernels {

namespace {

std::string InferSoftmaxLike(const char* op, InferContext& ctx) {
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs, {{"axis", Attribute::Kind::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype != DType::kFloat32) {
    return Fail(op, std::string("unsupported dtype ") + DTypeName(x.dtype) +
                        " (float32 only)");
  }
  int32_t axis = 0;
  const int64_t raw = AttrInt(ctx.attrs, "axis", -1);
  if (x.shape.rank < 1 || !NormalizeAxis(raw, x.shape.rank, 0, &axis)) {
    return Fail(op, "axis " + std::to_string(raw) + " is out of range for " +
                        x.shape.ToString());
  }
  err = SetOutput(op, ctx, 0, DType::kFloat32, x.shape);
  if (!err.empty()) return err;
  int64_t inner = 1;
  for (int32_t i = axis + 1; i < x.shape.rank; ++i) inner *= x.shape.dims[i];
  // Running max and sum per inner position when the axis is not innermost.
  ctx.scratch_bytes =
      inner > 1 ? static_cast<size_t>(inner) * 2 * sizeof(float) : 0;
  return "";
}

// Softmax, or LogSoftmax when `log`.
void RunSoftmaxLike(const RunContext& ctx, bool log) {
  const TensorRef& x = ctx.inputs[0];
  const Shape& s = x.shape;
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", -1), s.rank, 0, &axis);
  int64_t outer = 1;
  for (int32_t i = 0; i < axis; ++i) outer *= s.dims[i];
  const int64_t len = s.dims[axis];
  int64_t inner = 1;
  for (int32_t i = axis + 1; i < s.rank; ++i) inner *= s.dims[i];
  const float* px = x.as<const float>();
  float* py = ctx.outputs[0].as<float>();
  if (len == 0 || inner == 0) return;
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o) {
      const float* in = px + o * len;
      float* out = py + o * len;
      // Vectorised (std::max_element walked the row one compare at a
      // time); a NaN anywhere makes the row NaN either way.
      const float m = MaxBlock(in, len);
      const float sum = ExpShiftSumBlock(in, m, out, len);
      if (log) {
        // (x - m) - log(sum), in PyTorch's order: x - (m + log(sum)) would
        // round the shift at m's scale (1e-4 at 1000).
        const float log_sum = std::log(sum);
        for (int64_t k = 0; k < len; ++k) out[k] = (in[k] - m) - log_sum;
      } else {
        const float inv = 1.0f / sum;
        for (int64_t k = 0; k < len; ++k) out[k] *= inv;
      }
    }
    return;
  }
  float* maxs = static_cast<float*>(ctx.scratch);
  float* sums = maxs + inner;
  for (int64_t o = 0; o < outer; ++o) {
    const float* in = px + o * len * inner;
    float* out = py + o * len * inner;
    std::copy(in, in + inner, maxs);
    for (int64_t k = 1; k < len; ++k) {
      const float* row = in + k * inner;
      for (int64_t j = 0; j < inner; ++j) maxs[j] = std::max(maxs[j], row[j]);
    }
    std::fill(sums, sums + inner, 0.0f);
    for (int64_t k = 0; k < len; ++k) {
      const float* row = in + k * inner;
      float* orow = out + k * inner;
      for (int64_t j = 0; j < inner; ++j) {
        orow[j] = std::exp(row[j] - maxs[j]);
        sums[j] += orow[j];
      }
    }
    if (log) {
      for (int64_t j = 0; j < inner; ++j) sums[j] = std::log(sums[j]);
      for (int64_t k = 0; k < len; ++k) {
        const float* row = in + k * inner;
        float* orow = out + k * inner;
        for (int64_t j = 0; j < inner; ++j) {
          orow[j] = (row[j] - maxs[j]) - sums[j];
        }
      }
      continue;
    }
    for (int64_t j = 0; j < inner; ++j) sums[j] = 1.0f / sums[j];
    for (int64_t k = 0; k < len; ++k) {
      float* orow = out + k * inner;
      for (int64_t j = 0; j < inner; ++j) orow[j] *= sums[j];
    }
  }
}

}  // namespace

std::string InferSoftmaxFloat(InferContext& ctx) {
  return InferSoftmaxLike("Softmax", ctx);
}
void RunSoftmaxFloat(const RunContext& ctx) { RunSoftmaxLike(ctx, false); }
std::string InferLogSoftmaxFloat(InferContext& ctx) {
  return InferSoftmaxLike("LogSoftmax", ctx);
}
void RunLogSoftmaxFloat(const RunContext& ctx) { RunSoftmaxLike(ctx, true); }

// float16, bfloat16: widened into float scratch, float kernel, rounded on
// store.
ASCEND_EMU_HALF_VIA_FLOAT(Softmax)
ASCEND_EMU_HALF_VIA_FLOAT(LogSoftmax)

}  // namespace kernels
}  // namespace ascend_emu
