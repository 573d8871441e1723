// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Gather and GatherElements. Indices are data, not constants, so Infer cannot
// check their values: Run checks every index (negative ones count from the
// end) and writes zeros for one outside the axis instead of reading out of
// bounds. ONNX leaves that case undefined; zeros keep the emulator safe and
// deterministic. Data moves by element size, so every dtype works.
#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_util.h"
#include "ops.h"
#include "strided_copy.h"

namespace ascend_emu {
namespace kernels {
namespace {

std::string CheckIndices(const char* op, const TensorRef& t) {
  if (t.dtype != DType::kInt64 && t.dtype != DType::kInt32) {
    return Fail(op, std::string("indices must be int64 or int32, got ") +
                        DTypeName(t.dtype));
  }
  return "";
}

int64_t IndexAt(const TensorRef& t, int64_t i) {
  if (t.dtype == DType::kInt64) return t.as<const int64_t>()[i];
  return t.as<const int32_t>()[i];
}

// The index normalized into [0, dim), or -1 when it is outside.
int64_t Resolve(int64_t index, int64_t dim) {
  if (index < 0) index += dim;
  return index >= 0 && index < dim ? index : -1;
}

std::string CommonInfer(const char* op, InferContext& ctx, int32_t* axis) {
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs, {{"axis", Attribute::Kind::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (err.empty()) err = CheckIndices(op, ctx.inputs[1]);
  if (!err.empty()) return err;
  const Shape& x = ctx.inputs[0].shape;
  const int64_t a = AttrInt(ctx.attrs, "axis", 0);
  if (x.rank == 0 || !NormalizeAxis(a, x.rank, 0, axis)) {
    return Fail(op, "axis " + std::to_string(a) + " is out of range for data " +
                        x.ToString());
  }
  return "";
}

}  // namespace

std::string InferGather(InferContext& ctx) {
  const char* op = "Gather";
  int32_t axis = 0;
  std::string err = CommonInfer(op, ctx, &axis);
  if (!err.empty()) return err;
  const Shape& x = ctx.inputs[0].shape;
  const Shape& ind = ctx.inputs[1].shape;
  if (x.rank - 1 + ind.rank > kMaxRank) {
    return Fail(op, "output rank exceeds " + std::to_string(kMaxRank));
  }
  Shape out;
  for (int32_t d = 0; d < axis; ++d) out.dims[out.rank++] = x.dims[d];
  for (int32_t d = 0; d < ind.rank; ++d) out.dims[out.rank++] = ind.dims[d];
  for (int32_t d = axis + 1; d < x.rank; ++d) out.dims[out.rank++] = x.dims[d];
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, out);
}

void RunGather(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& ind = ctx.inputs[1];
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", 0), x.shape.rank, 0, &axis);
  const int64_t elem = static_cast<int64_t>(DTypeSize(x.dtype));
  int64_t outer = 1;
  int64_t inner = 1;
  for (int32_t d = 0; d < x.shape.rank; ++d) {
    if (d < axis) outer *= x.shape.dims[d];
    if (d > axis) inner *= x.shape.dims[d];
  }
  const int64_t dim = x.shape.dims[axis];
  const int64_t count = ind.shape.numel();
  const size_t block = static_cast<size_t>(inner * elem);
  const char* src = static_cast<const char*>(x.data);
  char* dst = static_cast<char*>(ctx.outputs[0].data);
  if (block == 0) return;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < count; ++j) {
      char* out = dst + (o * count + j) * inner * elem;
      const int64_t i = Resolve(IndexAt(ind, j), dim);
      if (i < 0) {
        std::memset(out, 0, block);
      } else {
        std::memcpy(out, src + (o * dim + i) * inner * elem, block);
      }
    }
  }
}

std::string InferGatherElements(InferContext& ctx) {
  const char* op = "GatherElements";
  int32_t axis = 0;
  std::string err = CommonInfer(op, ctx, &axis);
  if (!err.empty()) return err;
  const Shape& x = ctx.inputs[0].shape;
  const Shape& ind = ctx.inputs[1].shape;
  if (ind.rank != x.rank) {
    return Fail(op, "indices " + ind.ToString() +
                        " must have the rank of data " + x.ToString());
  }
  for (int32_t d = 0; d < x.rank; ++d) {
    if (d != axis && ind.dims[d] > x.dims[d]) {
      return Fail(op, "indices " + ind.ToString() + " exceed data " +
                          x.ToString() + " outside the axis");
    }
  }
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, ind);
}

namespace {

template <typename T>
void GatherElementsTyped(const TensorRef& x, const TensorRef& ind, int32_t axis,
                         T* out) {
  const Shape& s = ind.shape;
  const int64_t n = s.numel();
  if (n == 0) return;
  int64_t st[kMaxRank];
  DenseStrides(x.shape, st);
  const T* src = x.as<const T>();
  int64_t idx[kMaxRank] = {};
  int64_t base = 0;  // offset of idx in data, without the axis term
  for (int64_t k = 0; k < n; ++k) {
    const int64_t i = Resolve(IndexAt(ind, k), x.shape.dims[axis]);
    out[k] = i < 0 ? T{0} : src[base + i * st[axis]];
    for (int32_t d = s.rank - 1; d >= 0; --d) {
      if (d != axis) base += st[d];
      if (++idx[d] < s.dims[d]) break;
      if (d != axis) base -= st[d] * s.dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace

void RunGatherElements(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& ind = ctx.inputs[1];
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", 0), x.shape.rank, 0, &axis);
  void* out = ctx.outputs[0].data;
  switch (DTypeSize(x.dtype)) {
    case 1:
      GatherElementsTyped(x, ind, axis, static_cast<uint8_t*>(out));
      break;
    case 2:
      GatherElementsTyped(x, ind, axis, static_cast<uint16_t*>(out));
      break;
    case 4:
      GatherElementsTyped(x, ind, axis, static_cast<uint32_t*>(out));
      break;
    default:
      GatherElementsTyped(x, ind, axis, static_cast<uint64_t*>(out));
      break;
  }
}

}  // namespace kernels
}  // namespace ascend_emu
