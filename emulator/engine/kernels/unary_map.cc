// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "unary_map.h"

#include <string>

#include "kernel_util.h"

namespace ascend_emu {
namespace kernels {
namespace {

const char* AcceptsText(Accepts a) {
  switch (a) {
    case Accepts::kFloats:
      return kFloatDTypes;
    case Accepts::kFloatsAndInts:
      return kNumericDTypes;
    case Accepts::kBool:
      return "bool";
  }
  return "";
}

bool Allowed(Accepts a, DType d) {
  switch (a) {
    case Accepts::kFloats:
      return IsFloat(d);
    case Accepts::kFloatsAndInts:
      return IsNumeric(d);
    case Accepts::kBool:
      return d == DType::kBool;
  }
  return false;
}

}  // namespace

std::string InferUnary(const char* op, InferContext& ctx, Accepts accepts,
                       AttrList attrs, const DType* out_dtype) {
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, attrs);
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (!Allowed(accepts, x.dtype)) {
    return Fail(op, DTypeRefusal(x.dtype, AcceptsText(accepts)));
  }
  return SetOutput(op, ctx, 0, out_dtype ? *out_dtype : x.dtype, x.shape);
}

}  // namespace kernels
}  // namespace ascend_emu
