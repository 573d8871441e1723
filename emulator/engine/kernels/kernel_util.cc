// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "kernel_util.h"

#include <cstring>
#include <string>

namespace ascend_emu {
namespace kernels {

std::string Fail(const char* op, const std::string& message) {
  return std::string(op) + ": " + message;
}

void CopyBytes(const TensorRef& src, const TensorRef& dst) {
  const size_t n = dst.nbytes();
  if (n == 0 || src.data == dst.data) return;
  std::memmove(dst.data, src.data, n);
}

bool MulBounded(int64_t a, int64_t b, int64_t* out) {
  if (a < 0 || b < 0) return false;
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r) || r > kMaxTensorBytes) return false;
  *out = r;
  return true;
}

std::string ValidateShape(const Shape& shape, size_t elem_size) {
  if (shape.rank < 0 || shape.rank > kMaxRank) {
    return "rank " + std::to_string(shape.rank) + " is outside 0.." +
           std::to_string(kMaxRank);
  }
  int64_t bytes = static_cast<int64_t>(elem_size == 0 ? 1 : elem_size);
  for (int32_t i = 0; i < shape.rank; ++i) {
    if (shape.dims[i] < 0) {
      return "shape " + shape.ToString() + " has a negative dimension";
    }
    if (!MulBounded(bytes, shape.dims[i], &bytes)) {
      return "shape " + shape.ToString() + " is too large";
    }
  }
  return "";
}

namespace {

const char* KindName(Attribute::Kind kind) {
  switch (kind) {
    case Attribute::Kind::kInt:
      return "int";
    case Attribute::Kind::kFloat:
      return "float";
    case Attribute::Kind::kString:
      return "string";
    case Attribute::Kind::kInts:
      return "ints";
    case Attribute::Kind::kFloats:
      return "floats";
  }
  return "unknown";
}

}  // namespace

std::string CheckInputs(const char* op, const InferContext& ctx, size_t min,
                        size_t max) {
  const size_t n = ctx.inputs.size();
  if (n < min || n > max) {
    std::string want = min == max
                           ? std::to_string(min)
                           : std::to_string(min) + ".." + std::to_string(max);
    return Fail(op, "expects " + want + " inputs, got " + std::to_string(n));
  }
  for (size_t i = 0; i < n; ++i) {
    const TensorRef& t = ctx.inputs[i];
    if (!t.present()) {
      if (i < min) {
        return Fail(op, "input " + std::to_string(i) + " is required");
      }
      continue;
    }
    if (!IsValidDType(static_cast<int32_t>(t.dtype))) {
      return Fail(op, "input " + std::to_string(i) + " has an invalid dtype");
    }
    std::string err = ValidateShape(t.shape, DTypeSize(t.dtype));
    if (!err.empty()) {
      return Fail(op, "input " + std::to_string(i) + ": " + err);
    }
  }
  return "";
}

std::string CheckAttributes(
    const char* op, const Attributes& attrs,
    std::initializer_list<std::pair<const char*, Attribute::Kind>> allowed) {
  for (const auto& [name, attr] : attrs.map()) {
    bool known = false;
    for (const auto& [allowed_name, kind] : allowed) {
      if (name != allowed_name) continue;
      known = true;
      if (attr.kind != kind) {
        return Fail(op, "attribute '" + name + "' must be of kind " +
                            KindName(kind) + ", got " + KindName(attr.kind));
      }
    }
    if (!known) return Fail(op, "unsupported attribute '" + name + "'");
  }
  return "";
}

std::string PrepareOutputs(const char* op, InferContext& ctx, size_t count) {
  if (ctx.outputs.size() > count) {
    return Fail(op, "produces " + std::to_string(count) +
                        " output(s), the node asks for " +
                        std::to_string(ctx.outputs.size()));
  }
  ctx.outputs.resize(count);
  return "";
}

std::string SetOutput(const char* op, InferContext& ctx, size_t index,
                      DType dtype, const Shape& shape) {
  std::string err = ValidateShape(shape, DTypeSize(dtype));
  if (!err.empty()) return Fail(op, "output: " + err);
  TensorRef& out = ctx.outputs[index];
  out.dtype = dtype;
  out.shape = shape;
  out.data = nullptr;
  return "";
}

const Attribute* FindAttr(const Attributes& attrs, const char* name,
                          Attribute::Kind kind) {
  // Comparing std::string with const char* never allocates; maps are tiny.
  for (const auto& [key, attr] : attrs.map()) {
    if (key == name) return attr.kind == kind ? &attr : nullptr;
  }
  return nullptr;
}

int64_t AttrInt(const Attributes& attrs, const char* name, int64_t fallback) {
  const Attribute* a = FindAttr(attrs, name, Attribute::Kind::kInt);
  return a ? a->i : fallback;
}

float AttrFloat(const Attributes& attrs, const char* name, float fallback) {
  const Attribute* a = FindAttr(attrs, name, Attribute::Kind::kFloat);
  return a ? a->f : fallback;
}

const char* AttrString(const Attributes& attrs, const char* name,
                       const char* fallback) {
  const Attribute* a = FindAttr(attrs, name, Attribute::Kind::kString);
  return a ? a->s.c_str() : fallback;
}

IntsView AttrInts(const Attributes& attrs, const char* name) {
  IntsView v;
  const Attribute* a = FindAttr(attrs, name, Attribute::Kind::kInts);
  if (a != nullptr) {
    v.data = a->ints.data();
    v.size = a->ints.size();
    v.present = true;
  }
  return v;
}

bool NormalizeAxis(int64_t axis, int32_t rank, int32_t extra, int32_t* out) {
  const int64_t hi = static_cast<int64_t>(rank) + extra;
  if (axis < -static_cast<int64_t>(rank) || axis >= hi) return false;
  *out = static_cast<int32_t>(axis < 0 ? axis + rank : axis);
  return true;
}

bool BroadcastShapes(const Shape& a, const Shape& b, Shape* out) {
  Shape r;
  r.rank = a.rank > b.rank ? a.rank : b.rank;
  for (int32_t i = 0; i < r.rank; ++i) {
    const int32_t ia = i - (r.rank - a.rank);
    const int32_t ib = i - (r.rank - b.rank);
    const int64_t da = ia >= 0 ? a.dims[ia] : 1;
    const int64_t db = ib >= 0 ? b.dims[ib] : 1;
    if (da == db || db == 1) {
      r.dims[i] = da;
    } else if (da == 1) {
      r.dims[i] = db;
    } else {
      return false;
    }
  }
  *out = r;
  return true;
}

void BroadcastStrides(const Shape& shape, int32_t out_rank,
                      int64_t strides[kMaxRank]) {
  int64_t stride = 1;
  for (int32_t i = out_rank - 1; i >= 0; --i) {
    const int32_t j = i - (out_rank - shape.rank);
    if (j < 0 || shape.dims[j] == 1) {
      strides[i] = 0;
    } else {
      strides[i] = stride;
    }
    if (j >= 0) stride *= shape.dims[j];
  }
}

}  // namespace kernels
}  // namespace ascend_emu
