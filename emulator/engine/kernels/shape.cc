// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shape kernels: Reshape, Flatten, Squeeze, Unsqueeze, Identity (a copy of
// the bytes), Transpose and Expand (a strided copy), and Shape (the input's
// dims as 1-D int64; atc folds it to a constant, see docs/atc.md). They move
// bytes, so they accept every dtype the engine knows. As in CANN, shape
// operands passed as inputs (Reshape's shape, Squeeze's and Unsqueeze's axes,
// Expand's shape) must be constant initializers.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "const_ints.h"
#include "kernel_util.h"
#include "ops.h"
#include "strided_copy.h"

namespace ascend_emu {
namespace kernels {
namespace {

// min..max inputs, the given attributes, one output.
std::string InferCopyLike(
    const char* op, InferContext& ctx, size_t min, size_t max,
    std::initializer_list<std::pair<const char*, Attribute::Kind>> attrs) {
  std::string err = CheckInputs(op, ctx, min, max);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, attrs);
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  return err;
}

}  // namespace

std::string InferIdentity(InferContext& ctx) {
  const char* op = "Identity";
  std::string err = InferCopyLike(op, ctx, 1, 1, {});
  if (!err.empty()) return err;
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, ctx.inputs[0].shape);
}

void RunIdentity(const RunContext& ctx) {
  CopyBytes(ctx.inputs[0], ctx.outputs[0]);
}

std::string InferReshape(InferContext& ctx) {
  const char* op = "Reshape";
  std::string err =
      InferCopyLike(op, ctx, 2, 2, {{"allowzero", Attribute::Kind::kInt}});
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& s = ctx.inputs[1];
  if (s.dtype != DType::kInt64 || s.shape.rank != 1) {
    return Fail(op, "shape must be a 1-D int64 tensor, got " +
                        std::string(DTypeName(s.dtype)) + " " +
                        s.shape.ToString());
  }
  // A [0] shape (reshape to a scalar) needs no data.
  if (s.data == nullptr && s.shape.dims[0] != 0) {
    return Fail(op, "shape must be a constant initializer");
  }
  const int64_t allowzero = AttrInt(ctx.attrs, "allowzero", 0);
  if (allowzero != 0 && allowzero != 1) {
    return Fail(op, "allowzero must be 0 or 1");
  }
  const int64_t rank = s.shape.dims[0];
  if (rank > kMaxRank) {
    return Fail(op, "target rank " + std::to_string(rank) + " exceeds " +
                        std::to_string(kMaxRank));
  }
  const int64_t* want = s.as<const int64_t>();
  Shape out;
  out.rank = static_cast<int32_t>(rank);
  int32_t infer_at = -1;
  int64_t known = 1;
  bool has_zero = false;
  for (int32_t i = 0; i < out.rank; ++i) {
    int64_t d = want[i];
    if (d == -1) {
      if (infer_at >= 0) return Fail(op, "more than one -1 in shape");
      infer_at = i;
      continue;
    }
    if (d < -1) {
      return Fail(op, "invalid dimension " + std::to_string(d) + " in shape");
    }
    if (d == 0 && allowzero == 0) {
      if (i >= x.shape.rank) {
        return Fail(op, "shape copies dimension " + std::to_string(i) +
                            " that input " + x.shape.ToString() +
                            " does not have");
      }
      d = x.shape.dims[i];
    }
    if (d == 0) has_zero = true;
    out.dims[i] = d;
    if (!MulBounded(known, d, &known)) return Fail(op, "shape is too large");
  }
  const int64_t total = x.shape.numel();
  if (infer_at >= 0) {
    if (has_zero && allowzero != 0) {
      return Fail(op, "-1 and 0 cannot both appear with allowzero=1");
    }
    if (known == 0 || total % known != 0) {
      return Fail(op, "cannot reshape " + x.shape.ToString() + " (" +
                          std::to_string(total) +
                          " elements) with a -1 in the target shape");
    }
    out.dims[infer_at] = total / known;
  } else if (known != total) {
    return Fail(
        op, "cannot reshape " + x.shape.ToString() + " to " + out.ToString());
  }
  return SetOutput(op, ctx, 0, x.dtype, out);
}

void RunReshape(const RunContext& ctx) {
  CopyBytes(ctx.inputs[0], ctx.outputs[0]);
}

namespace {

// Opset 15+: start/end select dims [start, end) of the input's shape;
// negatives count from the back, both are clamped to [0, rank].
void ShapeRange(const Attributes& attrs, int32_t rank, int64_t* begin,
                int64_t* end) {
  auto clamp = [rank](int64_t v) {
    if (v < 0) v += rank;
    return v < 0 ? int64_t{0} : (v > rank ? int64_t{rank} : v);
  };
  *begin = clamp(AttrInt(attrs, "start", 0));
  *end = clamp(AttrInt(attrs, "end", rank));
  if (*end < *begin) *end = *begin;
}

}  // namespace

std::string InferShape(InferContext& ctx) {
  const char* op = "Shape";
  std::string err = InferCopyLike(
      op, ctx, 1, 1,
      {{"start", Attribute::Kind::kInt}, {"end", Attribute::Kind::kInt}});
  if (!err.empty()) return err;
  int64_t begin = 0;
  int64_t end = 0;
  ShapeRange(ctx.attrs, ctx.inputs[0].shape.rank, &begin, &end);
  return SetOutput(op, ctx, 0, DType::kInt64, MakeShape({end - begin}));
}

void RunShape(const RunContext& ctx) {
  const Shape& x = ctx.inputs[0].shape;
  int64_t begin = 0;
  int64_t end = 0;
  ShapeRange(ctx.attrs, x.rank, &begin, &end);
  int64_t* out = ctx.outputs[0].as<int64_t>();
  for (int64_t i = begin; i < end; ++i) out[i - begin] = x.dims[i];
}

std::string InferFlatten(InferContext& ctx) {
  const char* op = "Flatten";
  std::string err =
      InferCopyLike(op, ctx, 1, 1, {{"axis", Attribute::Kind::kInt}});
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  int32_t axis = 0;
  if (!NormalizeAxis(AttrInt(ctx.attrs, "axis", 1), x.shape.rank, 1, &axis)) {
    return Fail(op, "axis " + std::to_string(AttrInt(ctx.attrs, "axis", 1)) +
                        " is out of range for input " + x.shape.ToString());
  }
  int64_t outer = 1;
  int64_t inner = 1;
  for (int32_t i = 0; i < x.shape.rank; ++i) {
    (i < axis ? outer : inner) *= x.shape.dims[i];
  }
  return SetOutput(op, ctx, 0, x.dtype, MakeShape({outer, inner}));
}

void RunFlatten(const RunContext& ctx) {
  CopyBytes(ctx.inputs[0], ctx.outputs[0]);
}

std::string InferTranspose(InferContext& ctx) {
  const char* op = "Transpose";
  std::string err =
      InferCopyLike(op, ctx, 1, 1, {{"perm", Attribute::Kind::kInts}});
  if (!err.empty()) return err;
  const Shape& x = ctx.inputs[0].shape;
  Shape out;
  out.rank = x.rank;
  const IntsView perm = AttrInts(ctx.attrs, "perm");
  if (perm.present) {
    if (perm.size != static_cast<size_t>(x.rank)) {
      return Fail(op, "perm has " + std::to_string(perm.size) +
                          " values for input " + x.ToString());
    }
    bool seen[kMaxRank] = {};
    for (int32_t i = 0; i < x.rank; ++i) {
      const int64_t p = perm[i];
      if (p < 0 || p >= x.rank || seen[p]) {
        return Fail(op, "perm is not a permutation of 0.." +
                            std::to_string(x.rank - 1));
      }
      seen[p] = true;
      out.dims[i] = x.dims[p];
    }
  } else {
    for (int32_t i = 0; i < x.rank; ++i) out.dims[i] = x.dims[x.rank - 1 - i];
  }
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, out);
}

void RunTranspose(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& y = ctx.outputs[0];
  const int32_t r = x.shape.rank;
  const IntsView perm = AttrInts(ctx.attrs, "perm");
  int64_t dense[kMaxRank];
  DenseStrides(x.shape, dense);
  // Output dim i walks input dim perm[i] (default reversed).
  int64_t st[kMaxRank];
  for (int32_t i = 0; i < r; ++i) {
    st[i] = dense[perm.present ? perm[i] : r - 1 - i];
  }
  StridedCopy(DTypeSize(x.dtype), x.data, 0, st, y.shape, y.data);
}

std::string InferSqueeze(InferContext& ctx) {
  const char* op = "Squeeze";
  std::string err = InferCopyLike(op, ctx, 1, 2, {});
  if (!err.empty()) return err;
  const Shape& x = ctx.inputs[0].shape;
  bool drop[kMaxRank] = {};
  const TensorRef* axes_t =
      OptionalInput(ctx.inputs.data(), ctx.inputs.size(), 1);
  if (axes_t != nullptr) {
    ConstInts axes;
    err = ReadConstInts(op, "axes", *axes_t, &axes);
    if (!err.empty()) return err;
    int32_t ax[kMaxRank];
    err = NormalizeAxes(op, axes, x.rank, ax, drop);
    if (!err.empty()) return err;
    for (size_t i = 0; i < axes.size; ++i) {
      if (x.dims[ax[i]] != 1) {
        return Fail(op, "cannot squeeze axis " + std::to_string(ax[i]) +
                            " of size " + std::to_string(x.dims[ax[i]]));
      }
    }
  } else {
    for (int32_t d = 0; d < x.rank; ++d) drop[d] = x.dims[d] == 1;
  }
  Shape out;
  for (int32_t d = 0; d < x.rank; ++d) {
    if (!drop[d]) out.dims[out.rank++] = x.dims[d];
  }
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, out);
}

void RunSqueeze(const RunContext& ctx) {
  CopyBytes(ctx.inputs[0], ctx.outputs[0]);
}

std::string InferUnsqueeze(InferContext& ctx) {
  const char* op = "Unsqueeze";
  std::string err = InferCopyLike(op, ctx, 2, 2, {});
  if (!err.empty()) return err;
  const Shape& x = ctx.inputs[0].shape;
  ConstInts axes;
  err = ReadConstInts(op, "axes", ctx.inputs[1], &axes);
  if (!err.empty()) return err;
  const int64_t out_rank = x.rank + static_cast<int64_t>(axes.size);
  if (out_rank > kMaxRank) {
    return Fail(op, "output rank " + std::to_string(out_rank) + " exceeds " +
                        std::to_string(kMaxRank));
  }
  int32_t ax[kMaxRank];
  bool add[kMaxRank] = {};
  err = NormalizeAxes(op, axes, static_cast<int32_t>(out_rank), ax, add);
  if (!err.empty()) return err;
  Shape out;
  out.rank = static_cast<int32_t>(out_rank);
  int32_t src = 0;
  for (int32_t d = 0; d < out.rank; ++d) {
    out.dims[d] = add[d] ? 1 : x.dims[src++];
  }
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, out);
}

void RunUnsqueeze(const RunContext& ctx) {
  CopyBytes(ctx.inputs[0], ctx.outputs[0]);
}

std::string InferExpand(InferContext& ctx) {
  const char* op = "Expand";
  std::string err = InferCopyLike(op, ctx, 2, 2, {});
  if (!err.empty()) return err;
  const TensorRef& s = ctx.inputs[1];
  if (s.dtype != DType::kInt64 || s.shape.rank != 1) {
    return Fail(op, "shape must be a 1-D int64 tensor");
  }
  if (s.shape.dims[0] > kMaxRank) {
    return Fail(op, "shape rank " + std::to_string(s.shape.dims[0]) +
                        " exceeds " + std::to_string(kMaxRank));
  }
  if (s.shape.dims[0] > 0 && s.data == nullptr) {
    return Fail(op, "shape must be a constant initializer");
  }
  Shape want;
  want.rank = static_cast<int32_t>(s.shape.dims[0]);
  for (int32_t i = 0; i < want.rank; ++i) {
    want.dims[i] = s.as<const int64_t>()[i];
    if (want.dims[i] < 0) {
      return Fail(op,
                  "shape has a negative value " + std::to_string(want.dims[i]));
    }
  }
  Shape out;
  if (!BroadcastShapes(ctx.inputs[0].shape, want, &out)) {
    return Fail(op, "cannot expand " + ctx.inputs[0].shape.ToString() + " to " +
                        want.ToString());
  }
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, out);
}

void RunExpand(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& y = ctx.outputs[0];
  int64_t st[kMaxRank];
  BroadcastStrides(x.shape, y.shape.rank, st);
  StridedCopy(DTypeSize(x.dtype), x.data, 0, st, y.shape, y.data);
}

}  // namespace kernels
}  // namespace ascend_emu
