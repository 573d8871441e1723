// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// LayerNormalization (opset 17) and BatchNormalization in inference mode.
// float32 and float16 (fp16 storage, statistics and arithmetic in float).
// LayerNormalization produces only Y: a node asking for Mean or InvStdDev is
// refused, which is what the emulator can promise today.
#include <cmath>
#include <cstdint>
#include <string>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

using Kind = Attribute::Kind;

std::string CheckFloatInputs(const char* op, const InferContext& ctx) {
  const DType d = ctx.inputs[0].dtype;
  if (!IsFloat(d)) return Fail(op, DTypeRefusal(d, "float32 or float16"));
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    if (ctx.inputs[i].present() && ctx.inputs[i].dtype != d) {
      return Fail(op, "input " + std::to_string(i) + " must be " +
                          DTypeName(d) + ", got " +
                          DTypeName(ctx.inputs[i].dtype));
    }
  }
  return "";
}

// Rows before the normalized axes and elements in each row.
void SplitAt(const Shape& s, int32_t axis, int64_t* outer, int64_t* inner) {
  *outer = 1;
  *inner = 1;
  for (int32_t d = 0; d < s.rank; ++d)
    (d < axis ? *outer : *inner) *= s.dims[d];
}

// The sum of term(row[i]) in double over eight independent partial sums:
// one running sum waited on the previous add every element (about 4 cycles
// each, two passes over every row; GPT-2's LayerNorms of [64, 128] took
// 10 us). A different order of double sums moves the float result by far
// less than its rounding.
template <typename T, typename Term>
double RowSum(const T* row, int64_t n, Term term) {
  constexpr int64_t kLanes = 8;
  double part[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int64_t k = 0; k < kLanes; ++k) part[k] += term(Load(row[i + k]));
  }
  for (; i < n; ++i) part[0] += term(Load(row[i]));
  double total = 0.0;
  for (int64_t k = 0; k < kLanes; ++k) total += part[k];
  return total;
}

template <typename T>
void LayerNormTyped(const RunContext& ctx, int32_t axis, float eps) {
  const TensorRef& x = ctx.inputs[0];
  const bool has_bias = ctx.num_inputs > 2 && ctx.inputs[2].present();
  const T* px = x.as<const T>();
  const T* scale = ctx.inputs[1].as<const T>();
  const T* bias = has_bias ? ctx.inputs[2].as<const T>() : nullptr;
  T* py = ctx.outputs[0].as<T>();
  int64_t outer = 0;
  int64_t inner = 0;
  SplitAt(x.shape, axis, &outer, &inner);
  if (inner == 0) return;
  for (int64_t o = 0; o < outer; ++o) {
    const T* row = px + o * inner;
    // Two passes in double: a long row of large values would lose the
    // variance to cancellation in float.
    const double sum =
        RowSum(row, inner, [](float v) { return static_cast<double>(v); });
    const double mean = sum / static_cast<double>(inner);
    const double sq = RowSum(row, inner, [mean](float v) {
      const double dv = v - mean;
      return dv * dv;
    });
    const float inv = static_cast<float>(
        1.0 / std::sqrt(sq / static_cast<double>(inner) + eps));
    const float m = static_cast<float>(mean);
    T* out = py + o * inner;
    for (int64_t i = 0; i < inner; ++i) {
      float v = (Load(row[i]) - m) * inv * Load(scale[i]);
      if (bias != nullptr) v += Load(bias[i]);
      out[i] = Store<T>(v);
    }
  }
}

template <typename T>
void BatchNormTyped(const RunContext& ctx, float eps) {
  const TensorRef& x = ctx.inputs[0];
  const T* px = x.as<const T>();
  const T* scale = ctx.inputs[1].as<const T>();
  const T* bias = ctx.inputs[2].as<const T>();
  const T* mean = ctx.inputs[3].as<const T>();
  const T* var = ctx.inputs[4].as<const T>();
  T* py = ctx.outputs[0].as<T>();
  const int64_t n = x.shape.dims[0];
  const int64_t c = x.shape.dims[1];
  int64_t spatial = 1;
  for (int32_t d = 2; d < x.shape.rank; ++d) spatial *= x.shape.dims[d];
  for (int64_t ch = 0; ch < c; ++ch) {
    // y = x * a + b with a, b folded per channel, as inference engines do.
    const float a = Load(scale[ch]) / std::sqrt(Load(var[ch]) + eps);
    const float b = Load(bias[ch]) - Load(mean[ch]) * a;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t base = (i * c + ch) * spatial;
      for (int64_t s = 0; s < spatial; ++s) {
        py[base + s] = Store<T>(Load(px[base + s]) * a + b);
      }
    }
  }
}

}  // namespace

std::string InferLayerNormalization(InferContext& ctx) {
  const char* op = "LayerNormalization";
  std::string err = CheckInputs(op, ctx, 2, 3);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"axis", Kind::kInt},
                           {"epsilon", Kind::kFloat},
                           {"stash_type", Kind::kInt}});
  }
  if (err.empty() && ctx.outputs.size() > 1) {
    return Fail(op, "only the Y output is supported, the node asks for " +
                        std::to_string(ctx.outputs.size()) +
                        " (Mean/InvStdDev)");
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (err.empty()) err = CheckFloatInputs(op, ctx);
  if (!err.empty()) return err;
  if (AttrInt(ctx.attrs, "stash_type", 1) != 1) {
    return Fail(op, "stash_type must be 1 (float32 statistics)");
  }
  const float eps = AttrFloat(ctx.attrs, "epsilon", 1e-5f);
  if (!(eps >= 0.0f) || !std::isfinite(eps)) {
    return Fail(op, "epsilon must be a finite value >= 0");
  }
  const Shape& x = ctx.inputs[0].shape;
  int32_t axis = 0;
  const int64_t a = AttrInt(ctx.attrs, "axis", -1);
  if (!NormalizeAxis(a, x.rank, 0, &axis)) {
    return Fail(op, "axis " + std::to_string(a) +
                        " is out of range for input " + x.ToString());
  }
  Shape norm;
  for (int32_t d = axis; d < x.rank; ++d) norm.dims[norm.rank++] = x.dims[d];
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    if (ctx.inputs[i].present() && ctx.inputs[i].shape != norm) {
      return Fail(op, std::string(i == 1 ? "Scale " : "B ") +
                          ctx.inputs[i].shape.ToString() +
                          " must have the normalized shape " + norm.ToString());
    }
  }
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, x);
}

void RunLayerNormalization(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", -1), x.shape.rank, 0, &axis);
  const float eps = AttrFloat(ctx.attrs, "epsilon", 1e-5f);
  if (x.dtype == DType::kFloat16) {
    LayerNormTyped<Half>(ctx, axis, eps);
  } else if (x.dtype == DType::kBFloat16) {
    LayerNormTyped<BFloat16>(ctx, axis, eps);
  } else {
    LayerNormTyped<float>(ctx, axis, eps);
  }
}

std::string InferBatchNormalization(InferContext& ctx) {
  const char* op = "BatchNormalization";
  std::string err = CheckInputs(op, ctx, 5, 5);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"epsilon", Kind::kFloat},
                           {"momentum", Kind::kFloat},
                           {"training_mode", Kind::kInt}});
  }
  if (err.empty() && ctx.outputs.size() > 1) {
    return Fail(op, "only inference (one output) is supported");
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (err.empty()) err = CheckFloatInputs(op, ctx);
  if (!err.empty()) return err;
  if (AttrInt(ctx.attrs, "training_mode", 0) != 0) {
    return Fail(op, "training_mode must be 0 (inference)");
  }
  const float eps = AttrFloat(ctx.attrs, "epsilon", 1e-5f);
  if (!(eps >= 0.0f) || !std::isfinite(eps)) {
    return Fail(op, "epsilon must be a finite value >= 0");
  }
  const Shape& x = ctx.inputs[0].shape;
  if (x.rank < 2) {
    return Fail(op, "input must be [N, C, ...], got " + x.ToString());
  }
  const char* names[] = {"scale", "B", "input_mean", "input_var"};
  for (size_t i = 1; i < 5; ++i) {
    const Shape& s = ctx.inputs[i].shape;
    if (s.rank != 1 || s.dims[0] != x.dims[1]) {
      return Fail(op, std::string(names[i - 1]) + " " + s.ToString() +
                          " must be [C] with C = " + std::to_string(x.dims[1]));
    }
  }
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, x);
}

void RunBatchNormalization(const RunContext& ctx) {
  const float eps = AttrFloat(ctx.attrs, "epsilon", 1e-5f);
  if (ctx.inputs[0].dtype == DType::kFloat16) {
    BatchNormTyped<Half>(ctx, eps);
  } else if (ctx.inputs[0].dtype == DType::kBFloat16) {
    BatchNormTyped<BFloat16>(ctx, eps);
  } else {
    BatchNormTyped<float>(ctx, eps);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
