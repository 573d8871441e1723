// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Slice and Tile. As in CANN, the operands ONNX passes as inputs (starts,
// ends, axes, steps, repeats) must be constant initializers. The kernels move
// elements by size, so they accept every dtype.
#include <cstdint>
#include <cstring>
#include <string>

#include "const_ints.h"
#include "kernel_util.h"
#include "ops.h"
#include "strided_copy.h"

namespace ascend_emu {
namespace kernels {
namespace {

// Slice's per-axis start and step after ONNX's negative-index and clamping
// rules, and the output shape.
struct SlicePlan {
  int64_t start[kMaxRank] = {};
  int64_t step[kMaxRank] = {};
  Shape out;
};

std::string PlanSlice(const TensorRef* in, size_t n, SlicePlan* plan) {
  const char* op = "Slice";
  const Shape& x = in[0].shape;
  ConstInts starts, ends, axes, steps;
  std::string err = ReadConstInts(op, "starts", in[1], &starts);
  if (err.empty()) err = ReadConstInts(op, "ends", in[2], &ends);
  if (!err.empty()) return err;
  if (starts.size != ends.size) {
    return Fail(op, "starts and ends differ in length");
  }
  const TensorRef* axes_t = OptionalInput(in, n, 3);
  const TensorRef* steps_t = OptionalInput(in, n, 4);
  if (axes_t != nullptr) {
    err = ReadConstInts(op, "axes", *axes_t, &axes);
    if (!err.empty()) return err;
    if (axes.size != starts.size) {
      return Fail(op, "axes and starts differ in length");
    }
  } else {
    if (starts.size > static_cast<size_t>(x.rank)) {
      return Fail(op, "more starts than the rank " + std::to_string(x.rank));
    }
    axes.size = starts.size;
    for (size_t i = 0; i < axes.size; ++i) axes.v[i] = static_cast<int64_t>(i);
  }
  if (steps_t != nullptr) {
    err = ReadConstInts(op, "steps", *steps_t, &steps);
    if (!err.empty()) return err;
    if (steps.size != starts.size) {
      return Fail(op, "steps and starts differ in length");
    }
  } else {
    steps.size = starts.size;
    for (size_t i = 0; i < steps.size; ++i) steps.v[i] = 1;
  }
  int32_t ax[kMaxRank];
  bool seen[kMaxRank] = {};
  err = NormalizeAxes(op, axes, x.rank, ax, seen);
  if (!err.empty()) return err;
  plan->out = x;
  for (int32_t d = 0; d < x.rank; ++d) {
    plan->start[d] = 0;
    plan->step[d] = 1;
  }
  for (size_t i = 0; i < starts.size; ++i) {
    const int32_t d = ax[i];
    const int64_t dim = x.dims[d];
    const int64_t step = steps[i];
    if (step == 0) return Fail(op, "steps must not be 0");
    int64_t s = starts[i];
    int64_t e = ends[i];
    // Adding a non-negative dim to a negative value cannot overflow.
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    int64_t count = 0;
    if (dim == 0) {
      // An empty axis stays empty (the clamp ranges below would be empty).
    } else if (step > 0) {
      s = s < 0 ? 0 : (s > dim ? dim : s);
      e = e < 0 ? 0 : (e > dim ? dim : e);
      if (e > s) count = (e - s + step - 1) / step;
    } else {
      s = s < 0 ? 0 : (s > dim - 1 ? dim - 1 : s);
      e = e < -1 ? -1 : (e > dim - 1 ? dim - 1 : e);
      // -step cannot overflow: a step of INT64_MIN still yields count 1.
      if (s > e)
        count = 1 + (s - e - 1) / (step == INT64_MIN ? INT64_MAX : -step);
    }
    plan->start[d] = count > 0 ? s : 0;
    plan->step[d] = step;
    plan->out.dims[d] = count;
  }
  return "";
}

}  // namespace

std::string InferSlice(InferContext& ctx) {
  const char* op = "Slice";
  std::string err = CheckInputs(op, ctx, 3, 5);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  SlicePlan plan;
  err = PlanSlice(ctx.inputs.data(), ctx.inputs.size(), &plan);
  if (!err.empty()) return err;
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, plan.out);
}

void RunSlice(const RunContext& ctx) {
  SlicePlan plan;
  PlanSlice(ctx.inputs, ctx.num_inputs, &plan);
  const TensorRef& x = ctx.inputs[0];
  int64_t st[kMaxRank];
  DenseStrides(x.shape, st);
  int64_t base = 0;
  for (int32_t d = 0; d < x.shape.rank; ++d) {
    base += plan.start[d] * st[d];
    st[d] *= plan.step[d];
  }
  StridedCopy(DTypeSize(x.dtype), x.data, base, st, ctx.outputs[0].shape,
              ctx.outputs[0].data);
}

std::string InferTile(InferContext& ctx) {
  const char* op = "Tile";
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const Shape& x = ctx.inputs[0].shape;
  const TensorRef& r = ctx.inputs[1];
  if (r.dtype != DType::kInt64) return Fail(op, "repeats must be int64");
  ConstInts repeats;
  err = ReadConstInts(op, "repeats", r, &repeats);
  if (!err.empty()) return err;
  if (repeats.size != static_cast<size_t>(x.rank)) {
    return Fail(op, "repeats has " + std::to_string(repeats.size) +
                        " values for input " + x.ToString());
  }
  Shape out = x;
  for (int32_t d = 0; d < x.rank; ++d) {
    if (repeats[d] < 0) return Fail(op, "repeats must be >= 0");
    if (!MulBounded(x.dims[d], repeats[d], &out.dims[d])) {
      return Fail(op, "output is too large");
    }
  }
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, out);
}

void RunTile(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& y = ctx.outputs[0];
  const int32_t r = x.shape.rank;
  const size_t elem = DTypeSize(x.dtype);
  if (y.shape.numel() == 0) return;
  if (r == 0) {
    std::memcpy(y.data, x.data, elem);
    return;
  }
  // Each output row is the input's innermost row repeated; the outer dims
  // wrap around the input with a modulo odometer.
  int64_t st[kMaxRank];
  DenseStrides(x.shape, st);
  const int64_t in_inner = x.shape.dims[r - 1];
  const int64_t out_inner = y.shape.dims[r - 1];
  const int64_t rows = y.shape.numel() / out_inner;
  const char* src = static_cast<const char*>(x.data);
  char* dst = static_cast<char*>(y.data);
  int64_t idx[kMaxRank] = {};
  for (int64_t row = 0; row < rows; ++row) {
    int64_t in_off = 0;
    for (int32_t d = 0; d < r - 1; ++d) {
      in_off += (idx[d] % x.shape.dims[d]) * st[d];
    }
    char* out_row = dst + row * out_inner * static_cast<int64_t>(elem);
    for (int64_t j = 0; j < out_inner; j += in_inner) {
      std::memcpy(out_row + j * static_cast<int64_t>(elem),
                  src + in_off * static_cast<int64_t>(elem),
                  static_cast<size_t>(in_inner) * elem);
    }
    for (int32_t d = r - 2; d >= 0; --d) {
      if (++idx[d] < y.shape.dims[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
