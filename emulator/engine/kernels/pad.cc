// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Pad (opset 13+): pads is a constant input (negative values crop), the
// optional constant_value a scalar of the data's dtype; modes constant,
// reflect and edge. Elements move by size, so every dtype works (the
// constant is copied bit for bit).
#include <algorithm>
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

enum class PadMode { kConstant, kReflect, kEdge, kInvalid };

PadMode ParseMode(const Attributes& attrs) {
  const char* m = AttrString(attrs, "mode", "constant");
  if (std::strcmp(m, "constant") == 0) return PadMode::kConstant;
  if (std::strcmp(m, "reflect") == 0) return PadMode::kReflect;
  if (std::strcmp(m, "edge") == 0) return PadMode::kEdge;
  return PadMode::kInvalid;
}

// The input index that output index `o` reads along a dim of size `d` with
// `begin` padding in front, or -1 for the constant.
inline int64_t SourceIndex(int64_t o, int64_t d, int64_t begin, PadMode mode) {
  int64_t i = o - begin;
  if (i >= 0 && i < d) return i;
  if (mode == PadMode::kConstant) return -1;
  if (mode == PadMode::kEdge || d == 1) return i < 0 ? 0 : d - 1;
  // Reflect without repeating the edge, folding again for pads wider than
  // the axis (numpy's behaviour).
  const int64_t period = 2 * (d - 1);
  i %= period;
  if (i < 0) i += period;
  return i < d ? i : period - i;
}

template <typename T>
void PadTyped(const TensorRef& x, const TensorRef& y, const int64_t* begin,
              PadMode mode, T fill) {
  const Shape& s = y.shape;
  const int32_t r = s.rank;
  const T* src = x.as<const T>();
  T* dst = y.as<T>();
  const int64_t n = s.numel();
  if (n == 0) return;
  if (r == 0) {
    dst[0] = src[0];
    return;
  }
  int64_t st[kMaxRank];
  DenseStrides(x.shape, st);
  const int64_t inner = s.dims[r - 1];
  const int64_t d_in = x.shape.dims[r - 1];
  int64_t idx[kMaxRank] = {};
  for (int64_t o = 0; o < n; o += inner) {
    // Offset of the row in the input, or -1 when an outer index is padding.
    int64_t row = 0;
    for (int32_t d = 0; d < r - 1 && row >= 0; ++d) {
      const int64_t i = SourceIndex(idx[d], x.shape.dims[d], begin[d], mode);
      row = i < 0 ? -1 : row + i * st[d];
    }
    T* out = dst + o;
    if (row < 0) {
      std::fill(out, out + inner, fill);
    } else {
      // Output columns [lo, hi) read input columns lo - b .. hi - b - 1 in
      // order: one memcpy (MobileNetV2's TF-style Pads spent ~1 ns an element
      // resolving each column). Only the border columns are resolved one by
      // one, for every mode.
      const int64_t b = begin[r - 1];
      const int64_t lo = std::clamp<int64_t>(b, 0, inner);
      const int64_t hi = std::clamp<int64_t>(b + d_in, lo, inner);
      auto border = [&](int64_t j) {
        const int64_t i = SourceIndex(j, d_in, b, mode);
        out[j] = i < 0 ? fill : src[row + i];
      };
      for (int64_t j = 0; j < lo; ++j) border(j);
      if (hi > lo) {
        std::memcpy(out + lo, src + row + (lo - b),
                    static_cast<size_t>(hi - lo) * sizeof(T));
      }
      for (int64_t j = hi; j < inner; ++j) border(j);
    }
    for (int32_t d = r - 2; d >= 0; --d) {
      if (++idx[d] < s.dims[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace

std::string InferPad(InferContext& ctx) {
  const char* op = "Pad";
  std::string err = CheckInputs(op, ctx, 2, 3);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs, {{"mode", Attribute::Kind::kString}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const PadMode mode = ParseMode(ctx.attrs);
  if (mode == PadMode::kInvalid) {
    return Fail(op, std::string("mode '") + AttrString(ctx.attrs, "mode", "") +
                        "' is not constant, reflect or edge");
  }
  const TensorRef& x = ctx.inputs[0];
  ConstInts pads;
  err = ReadConstInts(op, "pads", ctx.inputs[1], &pads);
  if (!err.empty()) return err;
  if (pads.size != 2 * static_cast<size_t>(x.shape.rank)) {
    return Fail(op, "pads has " + std::to_string(pads.size) +
                        " values, input " + x.shape.ToString() + " needs " +
                        std::to_string(2 * x.shape.rank));
  }
  if (ctx.inputs.size() > 2 && ctx.inputs[2].present()) {
    const TensorRef& c = ctx.inputs[2];
    if (c.dtype != x.dtype || c.shape.numel() != 1 || c.shape.rank > 1) {
      return Fail(op, "constant_value must be a " +
                          std::string(DTypeName(x.dtype)) + " scalar");
    }
  }
  Shape out = x.shape;
  for (int32_t d = 0; d < x.shape.rank; ++d) {
    const int64_t dim = x.shape.dims[d];
    const int64_t b = pads[d];
    const int64_t e = pads[d + x.shape.rank];
    int64_t v = 0;
    if (__builtin_add_overflow(dim, b, &v) ||
        __builtin_add_overflow(v, e, &v) || v < 0) {
      return Fail(op, "pads " + std::to_string(b) + ", " + std::to_string(e) +
                          " do not fit axis " + std::to_string(d) +
                          " of size " + std::to_string(dim));
    }
    if (mode != PadMode::kConstant && dim == 0 && v > 0) {
      return Fail(op, "cannot pad the empty axis " + std::to_string(d) +
                          " in " + AttrString(ctx.attrs, "mode", "") + " mode");
    }
    out.dims[d] = v;
  }
  return SetOutput(op, ctx, 0, x.dtype, out);
}

void RunPad(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& y = ctx.outputs[0];
  ConstInts pads;
  ReadConstInts("Pad", "pads", ctx.inputs[1], &pads);
  const PadMode mode = ParseMode(ctx.attrs);
  const bool has_value = ctx.num_inputs > 2 && ctx.inputs[2].present();
  const size_t elem = DTypeSize(x.dtype);
  // The fill value as raw bits of one element (zero bits are 0 in every
  // dtype the engine knows).
  uint64_t bits = 0;
  if (has_value) std::memcpy(&bits, ctx.inputs[2].data, elem);
  switch (elem) {
    case 1: {
      uint8_t v;
      std::memcpy(&v, &bits, 1);
      PadTyped<uint8_t>(x, y, pads.v, mode, v);
      break;
    }
    case 2: {
      uint16_t v;
      std::memcpy(&v, &bits, 2);
      PadTyped<uint16_t>(x, y, pads.v, mode, v);
      break;
    }
    case 4: {
      uint32_t v;
      std::memcpy(&v, &bits, 4);
      PadTyped<uint32_t>(x, y, pads.v, mode, v);
      break;
    }
    default:
      PadTyped<uint64_t>(x, y, pads.v, mode, bits);
      break;
  }
}

}  // namespace kernels
}  // namespace ascend_emu
