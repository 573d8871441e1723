// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// TopK (opset 11+): the k largest (largest=1) or smallest elements along
// `axis`, as Values and int64 Indices. CANN's parser maps it to its TopK op,
// which takes float16/float32 x and a constant k (cann-onnx-ops.md; hicann/
// ops-nn common/src/framework/topk_onnx_plugin.cpp reads axis, largest and
// sorted), so other dtypes are refused and K must be a constant 1-element
// int64 tensor with 1 <= k <= the axis' size.
//
// Order: ONNX's rule for equal values, the lower index first. NaN counts as
// greater than every number, as PyTorch's topk and sort treat it: first when
// largest, last when smallest. The result is always sorted (sorted=0 leaves
// the order to the implementation, and sorted is one valid order).
//
// Run sorts an index array in the scratch with std::partial_sort under a
// strict total order (value, then index), so it is deterministic and
// allocation-free (std::stable_sort may allocate).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "TopK";

// True when a (at index ia) comes before b (at index ib) in the output.
template <typename V>
bool Before(V a, int64_t ia, V b, int64_t ib, bool largest) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    // NaN is the greatest value: first when largest, last when smallest.
    if (na && nb) return ia < ib;
    return largest ? na : nb;
  }
  if (a != b) return largest ? a > b : a < b;
  return ia < ib;
}

template <typename T>
void TopKTyped(const RunContext& ctx, int32_t axis, bool largest) {
  const TensorRef& x = ctx.inputs[0];
  const AxisSplit a = SplitAroundAxis(x.shape, axis);
  const int64_t k = ctx.outputs[0].shape.dims[axis];
  const T* px = x.as<const T>();
  T* pv = ctx.outputs[0].as<T>();
  int64_t* pi = ctx.outputs[1].as<int64_t>();
  int64_t* order = static_cast<int64_t*>(ctx.scratch);
  for (int64_t o = 0; o < a.outer; ++o) {
    for (int64_t j = 0; j < a.inner; ++j) {
      const T* col = px + o * a.len * a.inner + j;
      for (int64_t i = 0; i < a.len; ++i) order[i] = i;
      std::partial_sort(order, order + k, order + a.len,
                        [&](int64_t l, int64_t r) {
                          return Before(Load(col[l * a.inner]), l,
                                        Load(col[r * a.inner]), r, largest);
                        });
      const int64_t base = o * k * a.inner + j;
      for (int64_t i = 0; i < k; ++i) {
        pv[base + i * a.inner] = col[order[i] * a.inner];
        pi[base + i * a.inner] = order[i];
      }
    }
  }
}

}  // namespace

std::string InferTopK(InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckInputs(kOp, ctx, 2, 2);
  if (err.empty()) {
    err = CheckAttributes(
        kOp, ctx.attrs,
        {{"axis", K::kInt}, {"largest", K::kInt}, {"sorted", K::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(kOp, ctx, 2);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& kin = ctx.inputs[1];
  if (x.dtype != DType::kFloat32 && x.dtype != DType::kFloat16) {
    return Fail(kOp, DTypeRefusal(x.dtype, kFloatDTypes));
  }
  for (const char* flag : {"largest", "sorted"}) {
    const int64_t v = AttrInt(ctx.attrs, flag, 1);
    if (v != 0 && v != 1)
      return Fail(kOp, std::string(flag) + " must be 0 or 1");
  }
  if (kin.dtype != DType::kInt64 || kin.shape.rank != 1 ||
      kin.shape.dims[0] != 1) {
    return Fail(kOp, "K must be a 1-element int64 tensor");
  }
  if (kin.data == nullptr) return Fail(kOp, "K must be a constant");
  const int64_t raw = AttrInt(ctx.attrs, "axis", -1);
  int32_t axis = 0;
  if (x.shape.rank < 1 || !NormalizeAxis(raw, x.shape.rank, 0, &axis)) {
    return Fail(kOp, "axis " + std::to_string(raw) + " is out of range for " +
                         x.shape.ToString());
  }
  const int64_t k = kin.as<const int64_t>()[0];
  if (k < 1 || k > x.shape.dims[axis]) {
    return Fail(kOp, "k " + std::to_string(k) + " is outside [1, " +
                         std::to_string(x.shape.dims[axis]) + "]");
  }
  Shape out = x.shape;
  out.dims[axis] = k;
  err = SetOutput(kOp, ctx, 0, x.dtype, out);
  if (err.empty()) err = SetOutput(kOp, ctx, 1, DType::kInt64, out);
  if (!err.empty()) return err;
  ctx.scratch_bytes = static_cast<size_t>(x.shape.dims[axis]) * 8;
  return "";
}

void RunTopK(const RunContext& ctx) {
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", -1), ctx.inputs[0].shape.rank, 0,
                &axis);
  const bool largest = AttrInt(ctx.attrs, "largest", 1) != 0;
  if (ctx.inputs[0].dtype == DType::kFloat16) {
    TopKTyped<Half>(ctx, axis, largest);
  } else {
    TopKTyped<float>(ctx, axis, largest);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
