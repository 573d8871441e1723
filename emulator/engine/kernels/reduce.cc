// Reductions over axes: ReduceMean (axes as attribute, opset 13-17, or as a
// constant input, opset 18; keepdims; noop_with_empty_axes) and Softmax
// (opset 13+: one axis, default -1, max-subtracted), float32 (float16 via
// half_via_float.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "half_via_float.h"
#include "kernel_util.h"
#include "ops.h"
#include "reduce_plan.h"

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

std::string InferReduceMeanFloat(InferContext& ctx) {
  const char* op = "ReduceMean";
  using K = Attribute::Kind;
  std::string err = CheckInputs(op, ctx, 1, 2);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"axes", K::kInts},
                           {"keepdims", K::kInt},
                           {"noop_with_empty_axes", K::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype != DType::kFloat32) {
    return Fail(op, std::string("unsupported dtype ") + DTypeName(x.dtype) +
                        " (float32 only)");
  }
  ReducePlan plan;
  err =
      GetReducePlan(op, ctx.attrs, ctx.inputs.data(), ctx.inputs.size(), &plan);
  if (!err.empty()) return err;
  const bool keepdims = AttrInt(ctx.attrs, "keepdims", 1) != 0;
  Shape out;
  for (int32_t i = 0; i < x.shape.rank; ++i) {
    if (!plan.reduce[i]) {
      out.dims[out.rank++] = x.shape.dims[i];
    } else if (keepdims) {
      out.dims[out.rank++] = 1;
    }
  }
  err = SetOutput(op, ctx, 0, DType::kFloat32, out);
  if (!err.empty()) return err;
  // Sums accumulate in double, one per output element.
  ctx.scratch_bytes =
      plan.noop ? 0 : static_cast<size_t>(out.numel()) * sizeof(double);
  return "";
}

void RunReduceMeanFloat(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& y = ctx.outputs[0];
  ReducePlan plan;
  GetReducePlan("ReduceMean", ctx.attrs, ctx.inputs, ctx.num_inputs, &plan);
  const int64_t n_out = y.shape.numel();
  if (plan.noop) {
    if (n_out != 0 && x.data != y.data) {
      std::memmove(y.data, x.data, y.nbytes());
    }
    return;
  }
  const Shape& s = x.shape;
  const int32_t r = s.rank;
  // Output strides expressed per input dim (0 on reduced dims).
  int64_t ost[kMaxRank] = {};
  int64_t acc = 1;
  int64_t count = 1;
  for (int32_t i = r - 1; i >= 0; --i) {
    if (plan.reduce[i]) {
      count *= s.dims[i];
    } else {
      ost[i] = acc;
      acc *= s.dims[i];
    }
  }
  double* sums = static_cast<double*>(ctx.scratch);
  for (int64_t i = 0; i < n_out; ++i) sums[i] = 0.0;
  const float* px = x.as<const float>();
  const int64_t n_in = s.numel();
  if (n_in != 0) {
    if (r == 0) {
      sums[0] = px[0];
    } else {
      const int64_t inner = s.dims[r - 1];
      const int64_t inner_stride = ost[r - 1];
      int64_t idx[kMaxRank] = {};
      int64_t off = 0;
      for (int64_t o = 0; o < n_in; o += inner) {
        const float* row = px + o;
        for (int64_t j = 0; j < inner; ++j)
          sums[off + j * inner_stride] += row[j];
        for (int32_t d = r - 2; d >= 0; --d) {
          off += ost[d];
          if (++idx[d] < s.dims[d]) break;
          off -= ost[d] * s.dims[d];
          idx[d] = 0;
        }
      }
    }
  }
  float* py = y.as<float>();
  // A mean over zero elements is NaN, as in numpy and PyTorch.
  for (int64_t i = 0; i < n_out; ++i) {
    py[i] = count == 0
                ? std::numeric_limits<float>::quiet_NaN()
                : static_cast<float>(sums[i] / static_cast<double>(count));
  }
}

std::string InferSoftmaxFloat(InferContext& ctx) {
  const char* op = "Softmax";
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs, {{"axis", Attribute::Kind::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype != DType::kFloat32) {
    return Fail(op, std::string("unsupported dtype ") + DTypeName(x.dtype) +
                        " (float32 only)");
  }
  int32_t axis = 0;
  const int64_t raw = AttrInt(ctx.attrs, "axis", -1);
  if (x.shape.rank < 1 || !NormalizeAxis(raw, x.shape.rank, 0, &axis)) {
    return Fail(op, "axis " + std::to_string(raw) + " is out of range for " +
                        x.shape.ToString());
  }
  err = SetOutput(op, ctx, 0, DType::kFloat32, x.shape);
  if (!err.empty()) return err;
  int64_t inner = 1;
  for (int32_t i = axis + 1; i < x.shape.rank; ++i) inner *= x.shape.dims[i];
  // Running max and sum per inner position when the axis is not innermost.
  ctx.scratch_bytes =
      inner > 1 ? static_cast<size_t>(inner) * 2 * sizeof(float) : 0;
  return "";
}

void RunSoftmaxFloat(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const Shape& s = x.shape;
  int32_t axis = 0;
  NormalizeAxis(AttrInt(ctx.attrs, "axis", -1), s.rank, 0, &axis);
  int64_t outer = 1;
  for (int32_t i = 0; i < axis; ++i) outer *= s.dims[i];
  const int64_t len = s.dims[axis];
  int64_t inner = 1;
  for (int32_t i = axis + 1; i < s.rank; ++i) inner *= s.dims[i];
  const float* px = x.as<const float>();
  float* py = ctx.outputs[0].as<float>();
  if (len == 0 || inner == 0) return;
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o) {
      const float* in = px + o * len;
      float* out = py + o * len;
      const float m = *std::max_element(in, in + len);
      float sum = 0.0f;
      for (int64_t k = 0; k < len; ++k) {
        out[k] = std::exp(in[k] - m);
        sum += out[k];
      }
      const float inv = 1.0f / sum;
      for (int64_t k = 0; k < len; ++k) out[k] *= inv;
    }
    return;
  }
  float* maxs = static_cast<float*>(ctx.scratch);
  float* sums = maxs + inner;
  for (int64_t o = 0; o < outer; ++o) {
    const float* in = px + o * len * inner;
    float* out = py + o * len * inner;
    std::copy(in, in + inner, maxs);
    for (int64_t k = 1; k < len; ++k) {
      const float* row = in + k * inner;
      for (int64_t j = 0; j < inner; ++j) maxs[j] = std::max(maxs[j], row[j]);
    }
    std::fill(sums, sums + inner, 0.0f);
    for (int64_t k = 0; k < len; ++k) {
      const float* row = in + k * inner;
      float* orow = out + k * inner;
      for (int64_t j = 0; j < inner; ++j) {
        orow[j] = std::exp(row[j] - maxs[j]);
        sums[j] += orow[j];
      }
    }
    for (int64_t j = 0; j < inner; ++j) sums[j] = 1.0f / sums[j];
    for (int64_t k = 0; k < len; ++k) {
      float* orow = out + k * inner;
      for (int64_t j = 0; j < inner; ++j) orow[j] *= sums[j];
    }
  }
}

// float16: widened into float scratch, float kernel, rounded on store.
ASCEND_EMU_HALF_VIA_FLOAT(ReduceMean)
ASCEND_EMU_HALF_VIA_FLOAT(Softmax)

}  // namespace kernels
}  // namespace ascend_emu
