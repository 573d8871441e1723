// Shape-driven data movement whose operands ONNX passes as inputs: Slice,
// Split, Squeeze, Unsqueeze, Expand and Tile. As in CANN, those operands
// (starts, split, axes, shape, repeats) must be constant initializers. The
// kernels move elements by size, so they accept every dtype.
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

using Kind = Attribute::Kind;

// Optional input `i`, present only when the node has it and it is not "".
const TensorRef* OptionalInput(const TensorRef* inputs, size_t n, size_t i) {
  return i < n && inputs[i].present() ? &inputs[i] : nullptr;
}

// Reads an axes operand for a tensor of rank `rank` into normalized,
// duplicate-free axes; `seen` marks them.
std::string NormalizeAxes(const char* op, const ConstInts& axes, int32_t rank,
                          int32_t out[kMaxRank], bool seen[kMaxRank]) {
  if (axes.size > static_cast<size_t>(rank)) {
    return Fail(op, "more axes than the rank " + std::to_string(rank));
  }
  for (size_t i = 0; i < axes.size; ++i) {
    int32_t a = 0;
    if (!NormalizeAxis(axes[i], rank, 0, &a)) {
      return Fail(op, "axis " + std::to_string(axes[i]) +
                          " is out of range for rank " + std::to_string(rank));
    }
    if (seen[a]) return Fail(op, "axis " + std::to_string(a) + " repeats");
    seen[a] = true;
    out[i] = a;
  }
  return "";
}

// Slice's per-axis start and step after ONNX's negative-index and clamping
// rules, and the output shape.
struct SlicePlan {
  int64_t start[kMaxRank] = {};
  int64_t step[kMaxRank] = {};
  Shape out;
};

std::string PlanSlice(const TensorRef* in, size_t n, SlicePlan* plan) {
  const char* op = "Slice";
  const Shape& x = in[0].shape;
  ConstInts starts, ends, axes, steps;
  std::string err = ReadConstInts(op, "starts", in[1], &starts);
  if (err.empty()) err = ReadConstInts(op, "ends", in[2], &ends);
  if (!err.empty()) return err;
  if (starts.size != ends.size) {
    return Fail(op, "starts and ends differ in length");
  }
  const TensorRef* axes_t = OptionalInput(in, n, 3);
  const TensorRef* steps_t = OptionalInput(in, n, 4);
  if (axes_t != nullptr) {
    err = ReadConstInts(op, "axes", *axes_t, &axes);
    if (!err.empty()) return err;
    if (axes.size != starts.size) {
      return Fail(op, "axes and starts differ in length");
    }
  } else {
    if (starts.size > static_cast<size_t>(x.rank)) {
      return Fail(op, "more starts than the rank " + std::to_string(x.rank));
    }
    axes.size = starts.size;
    for (size_t i = 0; i < axes.size; ++i) axes.v[i] = static_cast<int64_t>(i);
  }
  if (steps_t != nullptr) {
    err = ReadConstInts(op, "steps", *steps_t, &steps);
    if (!err.empty()) return err;
    if (steps.size != starts.size) {
      return Fail(op, "steps and starts differ in length");
    }
  } else {
    steps.size = starts.size;
    for (size_t i = 0; i < steps.size; ++i) steps.v[i] = 1;
  }
  int32_t ax[kMaxRank];
  bool seen[kMaxRank] = {};
  err = NormalizeAxes(op, axes, x.rank, ax, seen);
  if (!err.empty()) return err;
  plan->out = x;
  for (int32_t d = 0; d < x.rank; ++d) {
    plan->start[d] = 0;
    plan->step[d] = 1;
  }
  for (size_t i = 0; i < starts.size; ++i) {
    const int32_t d = ax[i];
    const int64_t dim = x.dims[d];
    const int64_t step = steps[i];
    if (step == 0) return Fail(op, "steps must not be 0");
    int64_t s = starts[i];
    int64_t e = ends[i];
    // Adding a non-negative dim to a negative value cannot overflow.
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    int64_t count = 0;
    if (dim == 0) {
      // An empty axis stays empty (the clamp ranges below would be empty).
    } else if (step > 0) {
      s = s < 0 ? 0 : (s > dim ? dim : s);
      e = e < 0 ? 0 : (e > dim ? dim : e);
      if (e > s) count = (e - s + step - 1) / step;
    } else {
      s = s < 0 ? 0 : (s > dim - 1 ? dim - 1 : s);
      e = e < -1 ? -1 : (e > dim - 1 ? dim - 1 : e);
      // -step cannot overflow: a step of INT64_MIN still yields count 1.
      if (s > e)
        count = 1 + (s - e - 1) / (step == INT64_MIN ? INT64_MAX : -step);
    }
    plan->start[d] = count > 0 ? s : 0;
    plan->step[d] = step;
    plan->out.dims[d] = count;
  }
  return "";
}

}  // namespace

std::string InferSlice(InferContext& ctx) {
  const char* op = "Slice";
  std::string err = CheckInputs(op, ctx, 3, 5);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  SlicePlan plan;
  err = PlanSlice(ctx.inputs.data(), ctx.inputs.size(), &plan);
  if (!err.empty()) return err;
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, plan.out);
}

void RunSlice(const RunContext& ctx) {
  SlicePlan plan;
  PlanSlice(ctx.inputs, ctx.num_inputs, &plan);
  const TensorRef& x = ctx.inputs[0];
  int64_t st[kMaxRank];
  DenseStrides(x.shape, st);
  int64_t base = 0;
  for (int32_t d = 0; d < x.shape.rank; ++d) {
    base += plan.start[d] * st[d];
    st[d] *= plan.step[d];
  }
  StridedCopy(DTypeSize(x.dtype), x.data, base, st, ctx.outputs[0].shape,
              ctx.outputs[0].data);
}

std::string InferSplit(InferContext& ctx) {
  const char* op = "Split";
  std::string err = CheckInputs(op, ctx, 1, 2);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"axis", Kind::kInt}, {"num_outputs", Kind::kInt}});
  }
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  const size_t outputs = ctx.outputs.size();
  if (outputs == 0) return Fail(op, "the node has no outputs");
  const int64_t num_outputs = AttrInt(ctx.attrs, "num_outputs", -1);
  if (HasAttr(ctx.attrs, "num_outputs", Kind::kInt) &&
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

namespace {

void CopyBytes(const TensorRef& src, const TensorRef& dst) {
  const size_t n = dst.nbytes();
  if (n == 0 || src.data == dst.data) return;
  std::memmove(dst.data, src.data, n);
}

}  // namespace

std::string InferSqueeze(InferContext& ctx) {
  const char* op = "Squeeze";
  std::string err = CheckInputs(op, ctx, 1, 2);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
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
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
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
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
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

std::string InferTile(InferContext& ctx) {
  const char* op = "Tile";
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) err = CheckAttributes(op, ctx.attrs, {});
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const Shape& x = ctx.inputs[0].shape;
  const TensorRef& r = ctx.inputs[1];
  if (r.dtype != DType::kInt64) return Fail(op, "repeats must be int64");
  ConstInts repeats;
  err = ReadConstInts(op, "repeats", r, &repeats);
  if (!err.empty()) return err;
  if (repeats.size != static_cast<size_t>(x.rank)) {
    return Fail(op, "repeats has " + std::to_string(repeats.size) +
                        " values for input " + x.ToString());
  }
  Shape out = x;
  for (int32_t d = 0; d < x.rank; ++d) {
    if (repeats[d] < 0) return Fail(op, "repeats must be >= 0");
    if (!MulBounded(x.dims[d], repeats[d], &out.dims[d])) {
      return Fail(op, "output is too large");
    }
  }
  return SetOutput(op, ctx, 0, ctx.inputs[0].dtype, out);
}

void RunTile(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& y = ctx.outputs[0];
  const int32_t r = x.shape.rank;
  const size_t elem = DTypeSize(x.dtype);
  if (y.shape.numel() == 0) return;
  if (r == 0) {
    std::memcpy(y.data, x.data, elem);
    return;
  }
  // Each output row is the input's innermost row repeated; the outer dims
  // wrap around the input with a modulo odometer.
  int64_t st[kMaxRank];
  DenseStrides(x.shape, st);
  const int64_t in_inner = x.shape.dims[r - 1];
  const int64_t out_inner = y.shape.dims[r - 1];
  const int64_t rows = y.shape.numel() / out_inner;
  const char* src = static_cast<const char*>(x.data);
  char* dst = static_cast<char*>(y.data);
  int64_t idx[kMaxRank] = {};
  for (int64_t row = 0; row < rows; ++row) {
    int64_t in_off = 0;
    for (int32_t d = 0; d < r - 1; ++d) {
      in_off += (idx[d] % x.shape.dims[d]) * st[d];
    }
    char* out_row = dst + row * out_inner * static_cast<int64_t>(elem);
    for (int64_t j = 0; j < out_inner; j += in_inner) {
      std::memcpy(out_row + j * static_cast<int64_t>(elem),
                  src + in_off * static_cast<int64_t>(elem),
                  static_cast<size_t>(in_inner) * elem);
    }
    for (int32_t d = r - 2; d >= 0; --d) {
      if (++idx[d] < y.shape.dims[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
