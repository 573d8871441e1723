// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ScatterND (opset 16-18 semantics): output = data, then every index tuple of
// `indices` (its last dim, k, addresses the leading k dims of data) replaces
// ("none") or adds to ("add") one slice data[i0..ik-1, ...] with the matching
// slice of `updates`. CANN's parser refuses reduction="mul"; "max"/"min"
// (opset 18) have no CANN parser path either, so they are refused too.
//
// Index values are data, so Infer cannot check them: Run resolves each
// component (negative ones count from the end, as in ONNX) and SKIPS a tuple
// with any component outside its dim. ONNX leaves that case undefined;
// skipping keeps the emulator safe and deterministic (that slice keeps the
// data's value). Duplicate tuples with reduction "none" are undefined in ONNX
// (and nondeterministic in PyTorch's index_put): here tuples apply in order,
// so the last write wins. With "add" every duplicate adds.
//
// ScatterElements (opset 16-18): output = data, then each element of
// `updates` replaces, adds to or multiplies ("none", "add", "mul") the data
// element at its own position with the `axis` coordinate taken from the
// matching element of `indices` (int32 or int64, shaped like updates, each
// dim no larger than data's). CANN registers it once, for opsets 11-18, and
// its plugin reads axis and reduction (ops-nn scatter_elements_onnx_plugin):
// the lowering's accumulating index_put goes through it rather than through
// ScatterND, which CANN registers twice, once ignoring reduction
// (docs/using-real-cann.md). "max"/"min" (opset 18) are refused: CANN's
// kernels know add and mul only. Indices as ScatterND's: negatives count from
// the end, one outside its dim is skipped; duplicates apply in order.
#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "strided_copy.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "ScatterND";
constexpr const char* kElementsOp = "ScatterElements";

bool IsAdd(const Attributes& attrs) {
  return std::strcmp(AttrString(attrs, "reduction", "none"), "add") == 0;
}

template <typename T>
void ScatterTyped(const RunContext& ctx, bool add) {
  const TensorRef& data = ctx.inputs[0];
  const TensorRef& ind = ctx.inputs[1];
  const TensorRef& upd = ctx.inputs[2];
  T* out = static_cast<T*>(ctx.outputs[0].data);
  const int64_t total = data.shape.numel();
  if (total > 0 && out != data.data) {
    std::memcpy(out, data.data, static_cast<size_t>(total) * sizeof(T));
  }
  const int32_t k = static_cast<int32_t>(ind.shape.dims[ind.shape.rank - 1]);
  int64_t slice = 1;
  for (int32_t d = k; d < data.shape.rank; ++d) slice *= data.shape.dims[d];
  int64_t st[kMaxRank];
  DenseStrides(data.shape, st);
  const int64_t tuples = k == 0 ? 0 : ind.shape.numel() / k;
  const int64_t* iv = ind.as<const int64_t>();
  const T* uv = upd.as<const T>();
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t base = 0;
    bool inside = true;
    for (int32_t j = 0; j < k && inside; ++j) {
      const int64_t dim = data.shape.dims[j];
      int64_t i = iv[t * k + j];
      if (i < 0) i += dim;
      inside = i >= 0 && i < dim;
      base += i * st[j];
    }
    if (!inside) continue;
    const T* src = uv + t * slice;
    T* dst = out + base;
    if (add) {
      for (int64_t e = 0; e < slice; ++e) {
        dst[e] = Store<T>(Load(dst[e]) + Load(src[e]));
      }
    } else if (slice > 0) {
      std::memcpy(dst, src, static_cast<size_t>(slice) * sizeof(T));
    }
  }
}

enum class Reduction { kNone, kAdd, kMul };

Reduction ReductionOf(const Attributes& attrs) {
  const char* r = AttrString(attrs, "reduction", "none");
  if (std::strcmp(r, "add") == 0) return Reduction::kAdd;
  if (std::strcmp(r, "mul") == 0) return Reduction::kMul;
  return Reduction::kNone;
}

template <typename T, typename I>
void ScatterElementsTyped(const RunContext& ctx, int32_t axis, Reduction r) {
  const TensorRef& data = ctx.inputs[0];
  const TensorRef& ind = ctx.inputs[1];
  T* out = static_cast<T*>(ctx.outputs[0].data);
  const int64_t total = data.shape.numel();
  if (total > 0 && out != data.data) {
    std::memcpy(out, data.data, static_cast<size_t>(total) * sizeof(T));
  }
  const Shape& is = ind.shape;
  const int64_t count = is.numel();
  if (count == 0) return;
  int64_t st[kMaxRank];
  DenseStrides(data.shape, st);
  const I* iv = ind.as<const I>();
  const T* uv = ctx.inputs[2].as<const T>();
  const int64_t dim = data.shape.dims[axis];
  int64_t pos[kMaxRank] = {};  // the element's own coordinates in indices
  for (int64_t e = 0; e < count; ++e) {
    int64_t i = static_cast<int64_t>(iv[e]);
    if (i < 0) i += dim;
    if (i >= 0 && i < dim) {
      int64_t at = 0;
      for (int32_t d = 0; d < is.rank; ++d) {
        at += (d == axis ? i : pos[d]) * st[d];
      }
      const auto v = Load(uv[e]);
      if (r == Reduction::kAdd) {
        out[at] = Store<T>(Load(out[at]) + v);
      } else if (r == Reduction::kMul) {
        out[at] = Store<T>(Load(out[at]) * v);
      } else {
        out[at] = uv[e];
      }
    }
    for (int32_t d = is.rank - 1; d >= 0; --d) {  // next coordinates
      if (++pos[d] < is.dims[d]) break;
      pos[d] = 0;
    }
  }
}

}  // namespace

std::string InferScatterElements(InferContext& ctx) {
  const char* op = kElementsOp;
  std::string err = CheckInputs(op, ctx, 3, 3);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"axis", Attribute::Kind::kInt},
                           {"reduction", Attribute::Kind::kString}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const std::string reduction = AttrString(ctx.attrs, "reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul") {
    return Fail(op, "reduction \"" + reduction +
                        "\" is not supported (\"none\", \"add\" or \"mul\": "
                        "CANN's kernels have no other)");
  }
  const TensorRef& data = ctx.inputs[0];
  const TensorRef& ind = ctx.inputs[1];
  const TensorRef& upd = ctx.inputs[2];
  if (!IsFloat(data.dtype) && !IsInt(data.dtype)) {
    return Fail(op, DTypeRefusal(data.dtype,
                                 "float32, float16, bfloat16, int32 or int64"));
  }
  if (upd.dtype != data.dtype) {
    return Fail(op, std::string("updates dtype ") + DTypeName(upd.dtype) +
                        " differs from data dtype " + DTypeName(data.dtype));
  }
  if (ind.dtype != DType::kInt64 && ind.dtype != DType::kInt32) {
    return Fail(op, std::string("indices must be int32 or int64, got ") +
                        DTypeName(ind.dtype));
  }
  const Shape& x = data.shape;
  if (x.rank < 1) return Fail(op, "data must have rank >= 1");
  int32_t axis = 0;
  const int64_t raw = AttrInt(ctx.attrs, "axis", 0);
  if (!NormalizeAxis(raw, x.rank, 0, &axis)) {
    return Fail(op, "axis " + std::to_string(raw) + " is out of range for " +
                        x.ToString());
  }
  if (!(upd.shape == ind.shape)) {
    return Fail(op, "updates " + upd.shape.ToString() +
                        " must have the shape of indices " +
                        ind.shape.ToString());
  }
  bool fits = ind.shape.rank == x.rank;
  for (int32_t d = 0; fits && d < x.rank; ++d) {
    fits = d == axis || ind.shape.dims[d] <= x.dims[d];
  }
  if (!fits) {
    return Fail(op, "indices " + ind.shape.ToString() +
                        " must have data's rank and no dim larger than data " +
                        x.ToString() + " off the axis");
  }
  return SetOutput(op, ctx, 0, data.dtype, x);
}

void RunScatterElements(const RunContext& ctx) {
  const Reduction r = ReductionOf(ctx.attrs);
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", 0), ctx.inputs[0].shape.rank, 0,
                &axis);
  const bool i64 = ctx.inputs[1].dtype == DType::kInt64;
  DispatchDType(ctx.inputs[0].dtype, [&](auto tag) {
    using T = decltype(tag);
    if (i64) {
      ScatterElementsTyped<T, int64_t>(ctx, axis, r);
    } else {
      ScatterElementsTyped<T, int32_t>(ctx, axis, r);
    }
  });
}

std::string InferScatterND(InferContext& ctx) {
  std::string err = CheckInputs(kOp, ctx, 3, 3);
  if (err.empty()) {
    err = CheckAttributes(kOp, ctx.attrs,
                          {{"reduction", Attribute::Kind::kString}});
  }
  if (err.empty()) err = PrepareOutputs(kOp, ctx, 1);
  if (!err.empty()) return err;
  const std::string reduction = AttrString(ctx.attrs, "reduction", "none");
  if (reduction == "mul") {
    return Fail(kOp, "reduction=\"mul\" is not supported (CANN refuses it)");
  }
  if (reduction != "none" && reduction != "add") {
    return Fail(kOp, "reduction \"" + reduction +
                         "\" is not supported (\"none\" or \"add\")");
  }
  const TensorRef& data = ctx.inputs[0];
  const TensorRef& ind = ctx.inputs[1];
  const TensorRef& upd = ctx.inputs[2];
  if (!IsFloat(data.dtype) && !IsInt(data.dtype)) {
    return Fail(
        kOp,
        DTypeRefusal(data.dtype, "float32, float16, bfloat16, int32 or int64"));
  }
  if (upd.dtype != data.dtype) {
    return Fail(kOp, std::string("updates dtype ") + DTypeName(upd.dtype) +
                         " differs from data dtype " + DTypeName(data.dtype));
  }
  if (ind.dtype != DType::kInt64) {
    return Fail(
        kOp, std::string("indices must be int64, got ") + DTypeName(ind.dtype));
  }
  const Shape& x = data.shape;
  const Shape& is = ind.shape;
  if (x.rank < 1) return Fail(kOp, "data must have rank >= 1");
  if (is.rank < 1) return Fail(kOp, "indices must have rank >= 1");
  const int64_t k = is.dims[is.rank - 1];
  if (k < 1 || k > x.rank) {
    return Fail(kOp, "indices " + is.ToString() + " last dim must be in [1, " +
                         std::to_string(x.rank) + "] for data " + x.ToString());
  }
  // updates.shape = indices.shape[:-1] + data.shape[k:]
  Shape want;
  for (int32_t d = 0; d + 1 < is.rank; ++d) want.dims[want.rank++] = is.dims[d];
  for (int32_t d = static_cast<int32_t>(k); d < x.rank; ++d) {
    if (want.rank >= kMaxRank) {
      return Fail(kOp, "updates rank exceeds " + std::to_string(kMaxRank));
    }
    want.dims[want.rank++] = x.dims[d];
  }
  if (!(upd.shape == want)) {
    return Fail(kOp, "updates " + upd.shape.ToString() + " must be " +
                         want.ToString() + " for data " + x.ToString() +
                         " and indices " + is.ToString());
  }
  return SetOutput(kOp, ctx, 0, data.dtype, x);
}

void RunScatterND(const RunContext& ctx) {
  const bool add = IsAdd(ctx.attrs);
  DispatchDType(ctx.inputs[0].dtype,
                [&](auto tag) { ScatterTyped<decltype(tag)>(ctx, add); });
}

}  // namespace kernels
}  // namespace ascend_emu
