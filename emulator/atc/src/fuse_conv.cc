// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GraphCompiler (graph_compiler_impl.h): BatchNorm, bias, Add and activations
// into a float Conv.
#include "graph_compiler_impl.h"

namespace ascend_emu {
namespace atc {
namespace graph {

// The Conv fusions (docs/atc.md "Fusions"), as CANN's graph compiler
// does: a node reading only the output of the op just compiled, a Conv,
// merges into it. Mul and Add by a per-channel constant (the lowering's
// BatchNormalization: x * scale + shift) fold into the Conv's weights and
// bias; Add of a tensor shaped like the output becomes FusedConv's residual
// Z; Relu its activation, and so does Clip with constant (or absent)
// scalar bounds (MobileNet's ReLU6: with it apart, no two Convs of an
// inverted residual block were neighbours to agree on a layout). Order
// kept: Conv [Mul] [Add const] [Add Z] [Relu|Clip].
// The fused op is named by the merged nodes' names joined with '+'.
// Float32 only and only where the precision mode rounds nothing in
// between (a rounded Conv is followed by Cast steps, so never merged).
// *fused true when `node` was merged into ops_.back().
std::string GraphCompiler::FuseIntoConv(const onnx::NodeProto& node, int index,
                                        bool* fused) {
  *fused = false;
  const std::string& type = node.op_type();
  if (ops_.empty() ||
      (type != "Mul" && type != "Add" && type != "Relu" && type != "Clip"))
    return "";
  PendingOp& op = ops_.back();
  if ((op.op_type != "Conv" && op.op_type != "FusedConv") ||
      op.outputs.size() != 1 || node.output_size() != 1 ||
      node.output(0).empty() || values_.count(node.output(0)))
    return "";
  const std::string y = op.outputs[0];
  auto uses = uses_.find(y);
  if (y[0] == '\x01' || uses == uses_.end() || uses->second != 1) return "";
  const Value& yv = values_.at(y);
  if (yv.dtype != DType::kFloat32 || yv.rounded_to != DType::kFloat32)
    return "";
  const OpPrecision precision = DecideOpPrecision(node);
  if (precision.dtype != DType::kFloat32 || precision.round_outputs) return "";
  const bool has_act = op.attrs.Has("activation");
  const bool has_z = op.inputs.size() >= 4 && !op.inputs[3].empty();
  if (has_act) return "";  // nothing merges after the activation

  PendingOp fused_op = op;
  if (type == "Relu") {
    if (node.input_size() != 1 || node.input(0) != y) return "";
    SetActivation(&fused_op.attrs, "Relu");
    fused_op.op_type = "FusedConv";
  } else if (type == "Clip") {
    float bounds[2];
    if (node.input_size() < 1 || node.input(0) != y ||
        node.attribute_size() != 0 || !ClipBounds(node, bounds))
      return "";
    SetActivation(&fused_op.attrs, "Clip", bounds);
    fused_op.op_type = "FusedConv";
  } else {
    if (node.input_size() != 2 || node.input(0) == node.input(1)) return "";
    const int k = node.input(0) == y ? 0 : node.input(1) == y ? 1 : -1;
    if (k < 0 || node.attribute_size() != 0) return "";
    const std::string& other = node.input(1 - k);
    auto it = values_.find(other);
    if (it == values_.end() || it->second.dtype != DType::kFloat32 ||
        it->second.rounded_to != DType::kFloat32 || has_z)
      return "";
    std::vector<float> per_channel;
    if (it->second.kind == Value::Kind::kConst) {
      if (!PerChannel(it->second, yv.shape, &per_channel)) return "";
      if (!FoldIntoWeights(type == "Mul", per_channel, &fused_op)) return "";
    } else if (type == "Add" && it->second.shape == yv.shape) {
      if (fused_op.inputs.size() < 4) fused_op.inputs.resize(4);
      fused_op.inputs[3] = other;
      fused_op.op_type = "FusedConv";
    } else {
      return "";
    }
  }

  return CommitMerged(std::move(fused_op), node, index, fused);
}

// Clip's min and max (inputs 1 and 2, opset 11+) as FusedConv's
// activation_params: float32 constant scalars, or -inf / inf when absent
// (not lowest/max: an absent bound leaves -inf and inf as they are). False
// for a bound computed at run time or of another dtype.
bool GraphCompiler::ClipBounds(const onnx::NodeProto& node, float bounds[2]) {
  if (node.input_size() > 3) return false;
  bounds[0] = -std::numeric_limits<float>::infinity();
  bounds[1] = std::numeric_limits<float>::infinity();
  for (int i = 1; i < node.input_size(); ++i) {
    if (node.input(i).empty()) continue;
    auto it = values_.find(node.input(i));
    if (it == values_.end()) return false;
    const Value& c = it->second;
    if (c.kind != Value::Kind::kConst || c.index < 0 ||
        c.dtype != DType::kFloat32 || c.shape.rank > 1 || c.shape.numel() != 1)
      return false;
    const ByteView bytes = consts_[c.index].bytes();
    const bool ok = bytes.size == sizeof(float);
    if (ok) std::memcpy(&bounds[i - 1], bytes.data, sizeof(float));
    bytes.Release();
    if (!ok) return false;
  }
  return true;
}

// A float32 constant that broadcasts along the channel axis (1) of a
// value of shape `y` without changing it: [M], [M,1,1], [1,M,1,1], a
// scalar... *values gets it per channel (M floats).
bool GraphCompiler::PerChannel(const Value& c, const Shape& y,
                               std::vector<float>* values) {
  if (y.rank < 3 || c.shape.rank > y.rank) return false;
  const int64_t m = y.dims[1];
  int64_t numel = 1;
  for (int32_t i = 0; i < c.shape.rank; ++i) {
    const int32_t axis = i + y.rank - c.shape.rank;
    const int64_t d = c.shape.dims[i];
    if (d != 1 && !(axis == 1 && d == m)) return false;
    numel *= d;
  }
  const ByteView bytes = consts_[c.index].bytes();
  if (bytes.size != static_cast<size_t>(numel) * sizeof(float)) {
    bytes.Release();
    return false;
  }
  std::vector<float> raw(static_cast<size_t>(numel));
  std::memcpy(raw.data(), bytes.data, bytes.size);
  bytes.Release();
  values->resize(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) (*values)[i] = raw[numel == 1 ? 0 : i];
  return true;
}

// Mul: W[m] *= s[m], B[m] *= s[m]; Add: B[m] += s[m] (B from 0 when
// absent). New constants (the old ones may have other readers); false
// when the weights or bias are not constants.
bool GraphCompiler::FoldIntoWeights(bool mul, const std::vector<float>& s,
                                    PendingOp* op) {
  if (op->inputs.size() < 2) return false;
  auto w = values_.find(op->inputs[1]);
  if (w == values_.end() || w->second.kind != Value::Kind::kConst ||
      w->second.dtype != DType::kFloat32)
    return false;
  const int64_t m = static_cast<int64_t>(s.size());
  if (m == 0) return false;  // no output channel to fold into
  std::vector<float> bias(static_cast<size_t>(m), 0.0f);
  // A weight in a weight file stays the source's bytes: scaled, it would be
  // a second copy of the weights beside the file (a program that keeps its
  // ONNX stores the source's). Its Mul becomes FusedConv's per-channel
  // weight scale instead (input 4, applied by the kernel: oneDNN's weights
  // are scaled while prepared at load, a copy the emulator makes anyway).
  const bool scale_input = mul && consts_[w->second.index].external;
  if (mul && (w->second.shape.rank < 1 || w->second.shape.dims[0] != m))
    return false;
  const bool has_bias = op->inputs.size() >= 3 && !op->inputs[2].empty();
  if (has_bias) {
    const Value& b = values_.at(op->inputs[2]);
    if (b.kind != Value::Kind::kConst || b.dtype != DType::kFloat32 ||
        b.shape.numel() != m)
      return false;
    const ByteView bytes = consts_[b.index].bytes();
    std::memcpy(bias.data(), bytes.data, bytes.size);
    bytes.Release();
  }
  for (int64_t i = 0; i < m; ++i)
    bias[i] = mul ? bias[i] * s[i] : bias[i] + s[i];
  const std::string base = "\x01" + op->name;
  if (scale_input) {
    std::vector<float> scale = s;
    if (op->inputs.size() >= 5 && !op->inputs[4].empty()) {
      const ByteView bytes = consts_[values_.at(op->inputs[4]).index].bytes();
      const float* before = reinterpret_cast<const float*>(bytes.data);
      for (int64_t i = 0; i < m; ++i) scale[i] *= before[i];
      bytes.Release();
    }
    std::vector<uint8_t> scale_bytes(scale.size() * sizeof(float));
    std::memcpy(scale_bytes.data(), scale.data(), scale_bytes.size());
    const std::string name = base + ":weight_scale";
    AddComputedConst(PerChannelConst(m), name, std::move(scale_bytes));
    op->inputs.resize(5);
    op->inputs[4] = name;
    op->op_type = "FusedConv";
  } else if (mul) {
    const ByteView bytes = consts_[w->second.index].bytes();
    std::vector<uint8_t> scaled(bytes.data, bytes.data + bytes.size);
    bytes.Release();
    float* f = reinterpret_cast<float*>(scaled.data());
    const int64_t row = w->second.shape.numel() / m;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < row; ++j) f[i * row + j] *= s[i];
    }
    const std::string name = base + ":folded_weight";
    AddComputedConst(w->second, name, std::move(scaled));
    op->inputs[1] = name;
  }
  std::vector<uint8_t> bias_bytes(bias.size() * sizeof(float));
  std::memcpy(bias_bytes.data(), bias.data(), bias_bytes.size());
  const std::string name = base + ":folded_bias";
  AddComputedConst(PerChannelConst(m), name, std::move(bias_bytes));
  if (op->inputs.size() < 3) op->inputs.resize(3);
  op->inputs[2] = name;
  return true;
}

// The Value of a float32 [m] constant computed here and stored inline (no
// constant it derives from: index -1).
Value GraphCompiler::PerChannelConst(int64_t m) {
  Value v;
  v.kind = Value::Kind::kConst;
  v.index = -1;
  v.dtype = DType::kFloat32;
  v.shape.rank = 1;
  v.shape.dims[0] = m;
  return v;
}

// A constant computed here, like `like` (a FileConstant stays one).
void GraphCompiler::AddComputedConst(const Value& like, const std::string& name,
                                     std::vector<uint8_t> bytes) {
  Value v = like;
  v.index = static_cast<int>(consts_.size());
  v.tensor = -1;
  v.last_use = -1;
  const bool external = like.kind == Value::Kind::kConst && like.index >= 0 &&
                        consts_[like.index].external;
  consts_.emplace_back();
  ConstBytes& c = consts_.back();
  if (external) {
    auto computed =
        std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    c.external = true;
    c.computed = computed;
    c.view = ByteView{computed->data(), computed->size(), nullptr};
  } else {
    c.owned = std::move(bytes);
  }
  values_[name] = v;
}

}  // namespace graph
}  // namespace atc
}  // namespace ascend_emu
