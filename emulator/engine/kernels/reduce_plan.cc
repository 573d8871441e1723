// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Which dims a Reduce* node reduces (reduce_plan.h): axes from the attribute
// or a constant input, keepdims and noop_with_empty_axes checked once here for
// every reduction kernel.
#include "reduce_plan.h"

#include <string>

#include "kernel_util.h"

namespace ascend_emu {
namespace kernels {

std::string GetReducePlan(const char* op, const Attributes& attrs,
                          const TensorRef* inputs, size_t num_inputs,
                          ReducePlan* plan) {
  const Shape& x = inputs[0].shape;
  IntsView axes;  // never copied: this also runs in Run
  const bool axes_input = num_inputs == 2 && inputs[1].present();
  if (axes_input) {
    if (HasAttr(attrs, "axes", Attribute::Kind::kInts)) {
      return Fail(op, "axes given both as attribute and as input");
    }
    const TensorRef& a = inputs[1];
    if (a.dtype != DType::kInt64 || a.shape.rank != 1) {
      return Fail(op, "axes input must be a 1-D int64 tensor");
    }
    if (a.shape.dims[0] > kMaxRank) return Fail(op, "too many axes");
    // An empty axes tensor needs no data (its shape alone says "no axes").
    if (a.data == nullptr && a.shape.dims[0] != 0) {
      return Fail(op, "axes input must be a constant");
    }
    axes.size = static_cast<size_t>(a.shape.dims[0]);
    axes.data = a.as<const int64_t>();
  } else {
    axes = AttrInts(attrs, "axes");
  }
  const int64_t keepdims = AttrInt(attrs, "keepdims", 1);
  const int64_t noop = AttrInt(attrs, "noop_with_empty_axes", 0);
  if ((keepdims != 0 && keepdims != 1) || (noop != 0 && noop != 1)) {
    return Fail(op, "keepdims and noop_with_empty_axes must be 0 or 1");
  }
  *plan = ReducePlan();
  if (axes.size == 0) {
    plan->noop = noop == 1;
    for (int32_t i = 0; i < x.rank; ++i) plan->reduce[i] = !plan->noop;
    return "";
  }
  for (size_t i = 0; i < axes.size; ++i) {
    const int64_t a = axes[i];
    int32_t axis = 0;
    if (!NormalizeAxis(a, x.rank, 0, &axis)) {
      return Fail(op, "axis " + std::to_string(a) + " is out of range for " +
                          x.ToString());
    }
    if (plan->reduce[axis]) {
      return Fail(op, "axis " + std::to_string(a) + " is repeated");
    }
    plan->reduce[axis] = true;
  }
  return "";
}

Shape ReducedShape(const Shape& x, const bool reduce[kMaxRank], bool keepdims) {
  Shape out;
  for (int32_t i = 0; i < x.rank; ++i) {
    if (!reduce[i]) {
      out.dims[out.rank++] = x.dims[i];
    } else if (keepdims) {
      out.dims[out.rank++] = 1;
    }
  }
  return out;
}

}  // namespace kernels
}  // namespace ascend_emu
