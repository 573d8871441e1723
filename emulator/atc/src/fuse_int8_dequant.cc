// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GraphCompiler (graph_compiler_impl.h): CANN's int8 chains into
// FusedConvDequant and FusedMatMulInt8.
#include "graph_compiler_impl.h"

namespace ascend_emu {
namespace atc {
namespace graph {

// The element-wise ops after AscendDequant that join either int8 chain's
// output stage: a float16 -> float32 Cast, Relu, or Clip with constant
// bounds on float32, set on `attrs`. False for any other node, and where
// the precision mode would round between (as the float Conv fusions).
bool GraphCompiler::MergeAfterDequant(const onnx::NodeProto& node,
                                      Attributes* attrs) {
  const std::string& type = node.op_type();
  if (type != "Cast" && type != "Relu" && type != "Clip") return false;
  const OpPrecision precision = DecideOpPrecision(node);
  if (precision.round_outputs || precision.dtype != DType::kFloat32)
    return false;
  const bool to_float = attrs->GetInt("to", 10) == 1;
  if (type == "Cast") {
    // float16 -> float32: exact, the values unchanged.
    if (to_float || node.attribute_size() != 1 ||
        node.attribute(0).name() != "to" || node.attribute(0).i() != 1)
      return false;
    Attribute to;
    to.kind = Attribute::Kind::kInt;
    to.i = 1;
    attrs->map()["to"] = to;
  } else if (type == "Relu") {
    if (node.input_size() != 1) return false;
    SetActivation(attrs, "Relu");
  } else {
    // Clip on float32 only (its bounds in float16 would be rounded).
    float bounds[2];
    if (!to_float || node.attribute_size() != 0 || !ClipBounds(node, bounds))
      return false;
    SetActivation(attrs, "Clip", bounds);
  }
  return true;
}

// ---- CANN's int8 chain into FusedConvDequant (docs/atc.md "Conv
// fusions"): Conv(int8) -> AscendDequant [-> Cast to float32] [-> Relu |
// Clip] [-> AscendQuant], each read only by the next, as CANN's graph
// compiler fuses AscendDequant (and the ops after it, the next layer's
// AscendQuant included) into the cube op's output stage.
// The kernel computes exactly what the chain does (conv_int8_fused.cc), so
// the fusion is the emulator's own speed and changes no value. Each node
// merged is first checked on the chip as AddNode would. *fused true when
// `node` was merged into ops_.back().
std::string GraphCompiler::FuseIntoInt8Conv(const onnx::NodeProto& node,
                                            int index, bool* fused) {
  *fused = false;
  const std::string& type = node.op_type();
  if (ops_.empty() ||
      (type != "AscendDequant" && type != "Cast" && type != "Relu" &&
       type != "Clip" && type != "AscendQuant"))
    return "";
  PendingOp& op = ops_.back();
  const bool conv = op.op_type == "Conv";
  // Nothing merges after an AscendQuant (int8 out).
  if ((!conv && op.op_type != "FusedConvDequant") ||
      op.attrs.Has("quant_scale") || op.outputs.size() != 1 ||
      node.output_size() != 1 || node.output(0).empty() ||
      values_.count(node.output(0)) || node.input_size() < 1)
    return "";
  const std::string y = op.outputs[0];
  auto uses = uses_.find(y);
  if (y[0] == '\x01' || uses == uses_.end() || uses->second != 1 ||
      node.input(0) != y)
    return "";
  const Value& yv = values_.at(y);
  PendingOp fused_op = op;
  const bool has_act = op.attrs.Has("activation");
  if (type == "AscendDequant") {
    if (!conv || yv.dtype != DType::kInt32 || node.input_size() != 2) return "";
    auto d = values_.find(node.input(1));
    if (d == values_.end() || d->second.kind != Value::Kind::kConst) return "";
    Attributes deq;
    if (!ConvertAttributes(node, &deq).empty()) return "";
    for (const auto& kv : deq.map()) fused_op.attrs.map()[kv.first] = kv.second;
    // X, W, deq_scale, B (when the Conv has one).
    const std::string bias =
        fused_op.inputs.size() > 2 ? fused_op.inputs[2] : std::string();
    fused_op.inputs.resize(2);
    fused_op.inputs.push_back(node.input(1));
    if (!bias.empty()) fused_op.inputs.push_back(bias);
    fused_op.op_type = "FusedConvDequant";
  } else if (type == "AscendQuant") {
    // The next int8 op's input, quantized as it leaves the cube (CANN's
    // AscendQuant fused into the dequantizing output stage, "requant"):
    // after the activation, if any. Its attributes behind "quant_".
    if (conv || node.input_size() != 1) return "";
    Attributes quant;
    if (!ConvertAttributes(node, &quant).empty()) return "";
    for (const auto& kv : quant.map())
      fused_op.attrs.map()["quant_" + kv.first] = kv.second;
  } else {
    if (conv || has_act || !MergeAfterDequant(node, &fused_op.attrs)) return "";
  }
  std::string err = CheckOpDtypeOnSoc(node);
  if (err.empty()) err = CheckOpOnSoc(node);
  if (!err.empty()) return err;

  return CommitMerged(std::move(fused_op), node, index, fused);
}

// ---- CANN's int8 MatMul chain into FusedMatMulInt8 (docs/atc.md "Conv
// fusions"): MatMul | Gemm (int8) [-> Add of a constant int32 bias [N]] ->
// AscendDequant [-> Cast to float32] [-> Relu | Clip], each read only by
// the next: a quantized Linear as the lowering emits it (MatMul, Add,
// AscendDequant, Cast), fused as CANN's graph compiler fuses the bias and
// AscendDequant into the cube op's output stage. As FuseIntoInt8Conv, the
// kernel (matmul_int8_fused.cc) computes exactly what the chain does.
std::string GraphCompiler::FuseIntoInt8MatMul(const onnx::NodeProto& node,
                                              int index, bool* fused) {
  *fused = false;
  const std::string& type = node.op_type();
  if (ops_.empty() || (type != "Add" && type != "AscendDequant" &&
                       type != "Cast" && type != "Relu" && type != "Clip"))
    return "";
  PendingOp& op = ops_.back();
  const bool base = op.op_type == "MatMul" || op.op_type == "Gemm";
  if ((!base && op.op_type != "FusedMatMulInt8") || op.outputs.size() != 1 ||
      node.output_size() != 1 || node.output(0).empty() ||
      values_.count(node.output(0)) || node.input_size() < 1)
    return "";
  const std::string y = op.outputs[0];
  auto uses = uses_.find(y);
  if (y[0] == '\x01' || uses == uses_.end() || uses->second != 1) return "";
  const Value& yv = values_.at(y);
  PendingOp fused_op = op;
  if (base) {
    // A, B, C (Gemm's, or none), deq_scale (none yet).
    if (yv.dtype != DType::kInt32) return "";  // a float MatMul
    fused_op.inputs.resize(3);
    Attribute base_op;
    base_op.kind = Attribute::Kind::kString;
    base_op.s = op.op_type;
    fused_op.attrs.map()["base"] = base_op;
    fused_op.op_type = "FusedMatMulInt8";
  }
  const bool has_deq = fused_op.inputs.size() > 3;
  const bool has_act = op.attrs.Has("activation");
  if (type == "Add") {
    // The int32 bias of a MatMul: a constant [N] on either side.
    if (op.op_type != "MatMul" || node.input_size() != 2) return "";
    const int other = node.input(0) == y ? 1 : node.input(1) == y ? 0 : -1;
    if (other < 0) return "";
    auto b = values_.find(node.input(other));
    if (b == values_.end() || b->second.kind != Value::Kind::kConst ||
        b->second.dtype != DType::kInt32 || b->second.shape.rank != 1 ||
        yv.shape.rank < 1 ||
        b->second.shape.dims[0] != yv.shape.dims[yv.shape.rank - 1])
      return "";
    fused_op.inputs[2] = node.input(other);
  } else if (type == "AscendDequant") {
    if (has_deq || yv.dtype != DType::kInt32 || node.input_size() != 2 ||
        node.input(0) != y)
      return "";
    auto d = values_.find(node.input(1));
    if (d == values_.end() || d->second.kind != Value::Kind::kConst) return "";
    Attributes deq;
    if (!ConvertAttributes(node, &deq).empty()) return "";
    for (const auto& kv : deq.map()) fused_op.attrs.map()[kv.first] = kv.second;
    fused_op.inputs.push_back(node.input(1));
  } else {
    if (!has_deq || has_act || node.input(0) != y ||
        !MergeAfterDequant(node, &fused_op.attrs))
      return "";  // (a float Add among them)
  }
  std::string err = CheckOpDtypeOnSoc(node);
  if (err.empty()) err = CheckOpOnSoc(node);
  if (!err.empty()) return err;

  return CommitMerged(std::move(fused_op), node, index, fused);
}

}  // namespace graph
}  // namespace atc
}  // namespace ascend_emu
