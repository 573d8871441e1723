// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Reductions: ReduceSum (axes as an optional constant int64 input, opset
// 13+), ReduceMean/ReduceMax/ReduceMin (axes attribute, opset 13-17, or
// input, 18), ArgMax/ArgMin (-> int64; select_last_index=0 only) and CumSum
// (constant axis input; exclusive, reverse). float32/float16/int32/int64
// (ReduceMean: floats only). Every Reduce* runs the one walk in
// reduce_loop.cc; ArgMax/ArgMin treat NaN as the extreme value, as PyTorch
// does, and CumSum accumulates as ReduceSum does.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "reduce_loop.h"
#include "reduce_plan.h"

namespace ascend_emu {
namespace kernels {
namespace {

std::string InferReduce(const char* op, InferContext& ctx, bool axes_attr,
                        bool floats_only = false) {
  using K = Attribute::Kind;
  std::string err = CheckInputs(op, ctx, 1, 2);
  if (err.empty()) {
    err = axes_attr ? CheckAttributes(op, ctx.attrs,
                                      {{"axes", K::kInts},
                                       {"keepdims", K::kInt},
                                       {"noop_with_empty_axes", K::kInt}})
                    : CheckAttributes(op, ctx.attrs,
                                      {{"keepdims", K::kInt},
                                       {"noop_with_empty_axes", K::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (floats_only ? !IsFloat(x.dtype) : !IsNumeric(x.dtype)) {
    return Fail(
        op, DTypeRefusal(x.dtype, floats_only ? kFloatDTypes : kNumericDTypes));
  }
  ReducePlan plan;
  err =
      GetReducePlan(op, ctx.attrs, ctx.inputs.data(), ctx.inputs.size(), &plan);
  if (!err.empty()) return err;
  const bool keepdims = AttrInt(ctx.attrs, "keepdims", 1) != 0;
  const Shape out = ReducedShape(x.shape, plan.reduce, keepdims);
  err = SetOutput(op, ctx, 0, x.dtype, out);
  if (!err.empty()) return err;
  ctx.scratch_bytes = plan.noop ? 0 : static_cast<size_t>(out.numel()) * 8;
  return "";
}

void RunReduce(const char* op, const RunContext& ctx, ReduceKind kind) {
  ReducePlan plan;
  GetReducePlan(op, ctx.attrs, ctx.inputs, ctx.num_inputs, &plan);
  if (plan.noop) {
    CopyBytes(ctx.inputs[0], ctx.outputs[0]);
    return;
  }
  ReduceLoop(kind, plan, ctx.inputs[0], ctx.outputs[0], ctx.scratch);
}

std::string InferArg(const char* op, InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"axis", K::kInt},
                           {"keepdims", K::kInt},
                           {"select_last_index", K::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (!IsNumeric(x.dtype))
    return Fail(op, DTypeRefusal(x.dtype, kNumericDTypes));
  const int64_t keepdims = AttrInt(ctx.attrs, "keepdims", 1);
  if (keepdims != 0 && keepdims != 1) {
    return Fail(op, "keepdims must be 0 or 1");
  }
  if (AttrInt(ctx.attrs, "select_last_index", 0) != 0) {
    return Fail(op, "select_last_index=1 is not supported");
  }
  const int64_t raw = AttrInt(ctx.attrs, "axis", 0);
  int32_t axis = 0;
  if (x.shape.rank < 1 || !NormalizeAxis(raw, x.shape.rank, 0, &axis)) {
    return Fail(op, "axis " + std::to_string(raw) + " is out of range for " +
                        x.shape.ToString());
  }
  if (x.shape.dims[axis] == 0) {
    return Fail(op, "cannot take an index over an empty axis");
  }
  bool reduce[kMaxRank] = {};
  reduce[axis] = true;
  return SetOutput(op, ctx, 0, DType::kInt64,
                   ReducedShape(x.shape, reduce, keepdims == 1));
}

template <typename T>
void ArgTyped(const RunContext& ctx, bool is_max) {
  const TensorRef& x = ctx.inputs[0];
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", 0), x.shape.rank, 0, &axis);
  const AxisSplit a = SplitAroundAxis(x.shape, axis);
  const T* px = x.as<const T>();
  int64_t* py = ctx.outputs[0].as<int64_t>();
  for (int64_t o = 0; o < a.outer; ++o) {
    for (int64_t j = 0; j < a.inner; ++j) {
      const T* col = px + o * a.len * a.inner + j;
      auto best = Load(col[0]);
      int64_t best_k = 0;
      for (int64_t k = 1; k < a.len; ++k) {
        const auto v = Load(col[k * a.inner]);
        bool take = is_max ? v > best : v < best;
        if constexpr (std::is_floating_point_v<decltype(v)>) {
          // The first NaN wins and stays.
          take = !std::isnan(best) && (take || std::isnan(v));
        }
        if (take) {
          best = v;
          best_k = k;
        }
      }
      py[o * a.inner + j] = best_k;
    }
  }
}

// CumSum's axis: a constant scalar (or 1-element) int32/int64 input.
std::string GetCumSumAxis(const TensorRef& x, const TensorRef& axis_in,
                          int32_t* axis) {
  const char* op = "CumSum";
  if ((axis_in.dtype != DType::kInt64 && axis_in.dtype != DType::kInt32) ||
      axis_in.shape.rank > 1 || axis_in.shape.numel() != 1) {
    return Fail(op, "axis must be a scalar int32 or int64 tensor");
  }
  if (axis_in.data == nullptr) return Fail(op, "axis must be a constant");
  const int64_t raw = axis_in.dtype == DType::kInt64
                          ? axis_in.as<const int64_t>()[0]
                          : axis_in.as<const int32_t>()[0];
  if (x.shape.rank < 1 || !NormalizeAxis(raw, x.shape.rank, 0, axis)) {
    return Fail(op, "axis " + std::to_string(raw) + " is out of range for " +
                        x.shape.ToString());
  }
  return "";
}

template <typename T>
void CumSumTyped(const RunContext& ctx, int32_t axis) {
  using A = Acc<T>;
  const TensorRef& x = ctx.inputs[0];
  const bool exclusive = AttrInt(ctx.attrs, "exclusive", 0) == 1;
  const bool reverse = AttrInt(ctx.attrs, "reverse", 0) == 1;
  const AxisSplit a = SplitAroundAxis(x.shape, axis);
  const T* px = x.as<const T>();
  T* py = ctx.outputs[0].as<T>();
  for (int64_t o = 0; o < a.outer; ++o) {
    for (int64_t j = 0; j < a.inner; ++j) {
      const int64_t base = o * a.len * a.inner + j;
      A sum = 0;
      for (int64_t step = 0; step < a.len; ++step) {
        const int64_t k = reverse ? a.len - 1 - step : step;
        const int64_t at = base + k * a.inner;
        const A v = static_cast<A>(Load(px[at]));
        if (!exclusive) sum = Combine<A>(ReduceKind::kSum, sum, v);
        py[at] = Store<T>(static_cast<ComputeT<T>>(sum));
        if (exclusive) sum = Combine<A>(ReduceKind::kSum, sum, v);
      }
    }
  }
}

}  // namespace

std::string InferReduceSum(InferContext& ctx) {
  return InferReduce("ReduceSum", ctx, false);
}
void RunReduceSum(const RunContext& ctx) {
  RunReduce("ReduceSum", ctx, ReduceKind::kSum);
}
std::string InferReduceMean(InferContext& ctx) {
  return InferReduce("ReduceMean", ctx, true, /*floats_only=*/true);
}
void RunReduceMean(const RunContext& ctx) {
  RunReduce("ReduceMean", ctx, ReduceKind::kMean);
}
std::string InferReduceMax(InferContext& ctx) {
  return InferReduce("ReduceMax", ctx, true);
}
void RunReduceMax(const RunContext& ctx) {
  RunReduce("ReduceMax", ctx, ReduceKind::kMax);
}
std::string InferReduceMin(InferContext& ctx) {
  return InferReduce("ReduceMin", ctx, true);
}
void RunReduceMin(const RunContext& ctx) {
  RunReduce("ReduceMin", ctx, ReduceKind::kMin);
}

std::string InferArgMax(InferContext& ctx) { return InferArg("ArgMax", ctx); }
void RunArgMax(const RunContext& ctx) {
  DispatchDType(ctx.inputs[0].dtype,
                [&](auto tag) { ArgTyped<decltype(tag)>(ctx, true); });
}
std::string InferArgMin(InferContext& ctx) { return InferArg("ArgMin", ctx); }
void RunArgMin(const RunContext& ctx) {
  DispatchDType(ctx.inputs[0].dtype,
                [&](auto tag) { ArgTyped<decltype(tag)>(ctx, false); });
}

std::string InferCumSum(InferContext& ctx) {
  const char* op = "CumSum";
  using K = Attribute::Kind;
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"exclusive", K::kInt}, {"reverse", K::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (!IsNumeric(x.dtype))
    return Fail(op, DTypeRefusal(x.dtype, kNumericDTypes));
  for (const char* name : {"exclusive", "reverse"}) {
    const int64_t v = AttrInt(ctx.attrs, name, 0);
    if (v != 0 && v != 1)
      return Fail(op, std::string(name) + " must be 0 or 1");
  }
  int32_t axis = 0;
  err = GetCumSumAxis(x, ctx.inputs[1], &axis);
  if (!err.empty()) return err;
  return SetOutput(op, ctx, 0, x.dtype, x.shape);
}

void RunCumSum(const RunContext& ctx) {
  int32_t axis = 0;
  GetCumSumAxis(ctx.inputs[0], ctx.inputs[1], &axis);
  DispatchDType(ctx.inputs[0].dtype,
                [&](auto tag) { CumSumTyped<decltype(tag)>(ctx, axis); });
}

}  // namespace kernels
}  // namespace ascend_emu
