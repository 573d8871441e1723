// Data-movement kernels: Reshape, Flatten, Identity (a copy), Transpose and
// Concat. They move bytes, so they accept every dtype the engine knows.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

// Copies src to dst unless the interpreter ran the op in place.
void CopyBytes(const TensorRef& src, const TensorRef& dst) {
  const size_t n = dst.nbytes();
  if (n == 0 || src.data == dst.data) return;
  std::memmove(dst.data, src.data, n);
}

std::string InferCopyLike(
    const char* op, InferContext& ctx, size_t inputs,
    std::initializer_list<std::pair<const char*, Attribute::Kind>> attrs) {
  std::string err = CheckInputs(op, ctx, inputs, inputs);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, attrs);
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  return err;
}

}  // namespace

std::string InferIdentity(InferContext& ctx) {
  const char* op = "Identity";
  std::string err = InferCopyLike(op, ctx, 1, {});
  if (!err.empty()) return err;
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, ctx.inputs[0].shape);
}

void RunIdentity(const RunContext& ctx) {
  CopyBytes(ctx.inputs[0], ctx.outputs[0]);
}

std::string InferReshape(InferContext& ctx) {
  const char* op = "Reshape";
  std::string err =
      InferCopyLike(op, ctx, 2, {{"allowzero", Attribute::Kind::kInt}});
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

std::string InferFlatten(InferContext& ctx) {
  const char* op = "Flatten";
  std::string err =
      InferCopyLike(op, ctx, 1, {{"axis", Attribute::Kind::kInt}});
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
      InferCopyLike(op, ctx, 1, {{"perm", Attribute::Kind::kInts}});
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

namespace {

// Walks the output in order; the input offset advances by the permuted
// strides, innermost output dim in a tight loop.
template <typename T>
void TransposeTyped(const TensorRef& x, const TensorRef& y,
                    const int64_t* perm) {
  const int32_t r = y.shape.rank;
  const int64_t n = y.shape.numel();
  const T* px = x.as<const T>();
  T* py = y.as<T>();
  if (n == 0) return;
  if (r == 0) {
    py[0] = px[0];
    return;
  }
  int64_t in_strides[kMaxRank];
  int64_t acc = 1;
  for (int32_t i = r - 1; i >= 0; --i) {
    in_strides[i] = acc;
    acc *= x.shape.dims[i];
  }
  int64_t st[kMaxRank];
  for (int32_t i = 0; i < r; ++i) st[i] = in_strides[perm[i]];
  const int64_t inner = y.shape.dims[r - 1];
  const int64_t inner_stride = st[r - 1];
  int64_t idx[kMaxRank] = {};
  int64_t off = 0;
  for (int64_t o = 0; o < n; o += inner) {
    T* row = py + o;
    for (int64_t j = 0; j < inner; ++j) row[j] = px[off + j * inner_stride];
    for (int32_t d = r - 2; d >= 0; --d) {
      off += st[d];
      if (++idx[d] < y.shape.dims[d]) break;
      off -= st[d] * y.shape.dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace

void RunTranspose(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const int32_t r = x.shape.rank;
  int64_t perm[kMaxRank];
  const IntsView given = AttrInts(ctx.attrs, "perm");
  if (given.present) {
    for (int32_t i = 0; i < r; ++i) perm[i] = given[i];
  } else {
    for (int32_t i = 0; i < r; ++i) perm[i] = r - 1 - i;
  }
  switch (DTypeSize(x.dtype)) {
    case 1:
      TransposeTyped<uint8_t>(x, ctx.outputs[0], perm);
      break;
    case 2:
      TransposeTyped<uint16_t>(x, ctx.outputs[0], perm);
      break;
    case 4:
      TransposeTyped<uint32_t>(x, ctx.outputs[0], perm);
      break;
    default:
      TransposeTyped<uint64_t>(x, ctx.outputs[0], perm);
      break;
  }
}

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

}  // namespace kernels
}  // namespace ascend_emu
