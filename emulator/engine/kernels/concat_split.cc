// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Concat and Split: joining tensors along an axis and cutting one apart again
// (Split's sizes from the optional constant `split` input, equal parts, or
// opset 18's num_outputs). They copy rows of bytes, so they accept every
// dtype.
#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_util.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {

std::string InferConcat(InferContext& ctx) {
  const char* op = "Concat";
  std::string err = CheckInputs(op, ctx, 1, 4096);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs, {{"axis", Attribute::Kind::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  if (!HasAttr(ctx.attrs, "axis", Attribute::Kind::kInt))
    return Fail(op, "axis is required");
  const TensorRef& first = ctx.inputs[0];
  const int32_t rank = first.shape.rank;
  int32_t axis = 0;
  if (rank < 1 ||
      !NormalizeAxis(AttrInt(ctx.attrs, "axis", 0), rank, 0, &axis)) {
    return Fail(op, "axis " + std::to_string(AttrInt(ctx.attrs, "axis", 0)) +
                        " is out of range for input " + first.shape.ToString());
  }
  Shape out = first.shape;
  out.dims[axis] = 0;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const TensorRef& t = ctx.inputs[i];
    // All inputs are required: CheckInputs enforced presence for min=1 only.
    if (!t.present())
      return Fail(op, "input " + std::to_string(i) + " is absent");
    if (t.dtype != first.dtype) {
      return Fail(op, "input " + std::to_string(i) + " has dtype " +
                          DTypeName(t.dtype) + ", input 0 has " +
                          DTypeName(first.dtype));
    }
    bool ok = t.shape.rank == rank;
    for (int32_t d = 0; ok && d < rank; ++d) {
      ok = d == axis || t.shape.dims[d] == first.shape.dims[d];
    }
    if (!ok) {
      return Fail(op, "input " + std::to_string(i) + " " + t.shape.ToString() +
                          " does not match input 0 " + first.shape.ToString() +
                          " outside axis " + std::to_string(axis));
    }
    // Each dim is below kMaxTensorBytes, so the running sum cannot overflow
    // before SetOutput bounds the result.
    out.dims[axis] += t.shape.dims[axis];
    if (out.dims[axis] > kMaxTensorBytes)
      return Fail(op, "output is too large");
  }
  return SetOutput(op, ctx, 0, first.dtype, out);
}

void RunConcat(const RunContext& ctx) {
  const TensorRef& y = ctx.outputs[0];
  const int32_t rank = y.shape.rank;
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", 0), rank, 0, &axis);
  const size_t esize = DTypeSize(y.dtype);
  int64_t outer = 1;
  for (int32_t d = 0; d < axis; ++d) outer *= y.shape.dims[d];
  int64_t inner = 1;
  for (int32_t d = axis + 1; d < rank; ++d) inner *= y.shape.dims[d];
  const size_t out_row =
      static_cast<size_t>(y.shape.dims[axis] * inner) * esize;
  unsigned char* dst = y.as<unsigned char>();
  size_t col = 0;  // byte offset of the current input inside an output row
  for (size_t i = 0; i < ctx.num_inputs; ++i) {
    const TensorRef& t = ctx.inputs[i];
    const size_t row = static_cast<size_t>(t.shape.dims[axis] * inner) * esize;
    const unsigned char* src = t.as<const unsigned char>();
    if (row != 0) {
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(dst + o * out_row + col, src + o * row, row);
      }
    }
    col += row;
  }
}

std::string InferSplit(InferContext& ctx) {
  const char* op = "Split";
  std::string err = CheckInputs(op, ctx, 1, 2);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"axis", Attribute::Kind::kInt},
                           {"num_outputs", Attribute::Kind::kInt}});
  }
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  const size_t outputs = ctx.outputs.size();
  if (outputs == 0) return Fail(op, "the node has no outputs");
  const int64_t num_outputs = AttrInt(ctx.attrs, "num_outputs", -1);
  if (HasAttr(ctx.attrs, "num_outputs", Attribute::Kind::kInt) &&
      num_outputs != static_cast<int64_t>(outputs)) {
    return Fail(op, "num_outputs " + std::to_string(num_outputs) +
                        " does not match the node's " +
                        std::to_string(outputs) + " outputs");
  }
  int32_t axis = 0;
  if (!NormalizeAxis(AttrInt(ctx.attrs, "axis", 0), x.shape.rank, 0, &axis)) {
    return Fail(op, "axis " + std::to_string(AttrInt(ctx.attrs, "axis", 0)) +
                        " is out of range for input " + x.shape.ToString());
  }
  const int64_t dim = x.shape.dims[axis];
  const TensorRef* split_t =
      OptionalInput(ctx.inputs.data(), ctx.inputs.size(), 1);
  for (size_t i = 0; i < outputs; ++i) {
    Shape s = x.shape;
    if (split_t == nullptr && num_outputs > 0) {
      // Opset 18: chunks of ceil(dim / n), the last one smaller.
      const int64_t n = num_outputs;
      const int64_t chunk = dim / n + (dim % n != 0 ? 1 : 0);
      const int64_t last = dim - chunk * (n - 1);
      if (last < 0) {
        return Fail(op, "axis size " + std::to_string(dim) + " cannot make " +
                            std::to_string(n) + " chunks");
      }
      s.dims[axis] = i + 1 == outputs ? last : chunk;
    } else if (split_t == nullptr) {
      if (dim % static_cast<int64_t>(outputs) != 0) {
        return Fail(op, "axis size " + std::to_string(dim) +
                            " does not split evenly into " +
                            std::to_string(outputs) + " outputs");
      }
      s.dims[axis] = dim / static_cast<int64_t>(outputs);
    } else {
      if (split_t->dtype != DType::kInt64 || split_t->shape.rank != 1) {
        return Fail(op, "split must be a 1-D int64 tensor");
      }
      if (split_t->data == nullptr) {
        return Fail(op, "split must be a constant initializer");
      }
      if (split_t->shape.dims[0] != static_cast<int64_t>(outputs)) {
        return Fail(op, "split has " + std::to_string(split_t->shape.dims[0]) +
                            " values for " + std::to_string(outputs) +
                            " outputs");
      }
      const int64_t* v = split_t->as<const int64_t>();
      int64_t sum = 0;
      for (size_t j = 0; j < outputs; ++j) {
        if (v[j] < 0 || v[j] > dim) {
          return Fail(
              op, "split value " + std::to_string(v[j]) + " is out of range");
        }
        sum += v[j];  // each <= dim, so no overflow for sane output counts
        if (sum > dim) break;
      }
      if (sum != dim) {
        return Fail(op, "split values do not sum to the axis size " +
                            std::to_string(dim));
      }
      s.dims[axis] = v[i];
    }
    err = SetOutput(op, ctx, i, x.dtype, s);
    if (!err.empty()) return err;
  }
  return "";
}

void RunSplit(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", 0), x.shape.rank, 0, &axis);
  const size_t elem = DTypeSize(x.dtype);
  int64_t outer = 1;
  int64_t inner = 1;
  for (int32_t d = 0; d < x.shape.rank; ++d) {
    if (d < axis) outer *= x.shape.dims[d];
    if (d > axis) inner *= x.shape.dims[d];
  }
  const int64_t row = x.shape.dims[axis] * inner;
  const char* src = static_cast<const char*>(x.data);
  int64_t offset = 0;  // along the axis, in elements of one row
  for (size_t i = 0; i < ctx.num_outputs; ++i) {
    const int64_t chunk = ctx.outputs[i].shape.dims[axis] * inner;
    char* dst = static_cast<char*>(ctx.outputs[i].data);
    if (chunk > 0) {
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(dst + o * chunk * elem, src + (o * row + offset) * elem,
                    static_cast<size_t>(chunk) * elem);
      }
    }
    offset += chunk;
  }
}

}  // namespace kernels
}  // namespace ascend_emu
