// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GraphCompiler (graph_compiler_impl.h): CANN's int8 chain into
// FusedConvDequant.
#include "graph_compiler_impl.h"

namespace ascend_emu {
namespace atc {
namespace graph {

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
  const bool to_float = op.attrs.GetInt("to", 10) == 1;
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
    if (conv || has_act) return "";
    // Nothing rounded by the precision mode (as the float Conv fusions).
    const OpPrecision precision = DecideOpPrecision(node);
    if (precision.round_outputs || precision.dtype != DType::kFloat32)
      return "";
    if (type == "Cast") {
      // float16 -> float32: exact, the values unchanged.
      if (to_float || node.attribute_size() != 1 ||
          node.attribute(0).name() != "to" || node.attribute(0).i() != 1)
        return "";
      Attribute to;
      to.kind = Attribute::Kind::kInt;
      to.i = 1;
      fused_op.attrs.map()["to"] = to;
    } else if (type == "Relu") {
      if (node.input_size() != 1) return "";
      SetActivation(&fused_op.attrs, "Relu");
    } else {
      // Clip on float32 only (its bounds in float16 would be rounded).
      float bounds[2];
      if (!to_float || node.attribute_size() != 0 || !ClipBounds(node, bounds))
        return "";
      SetActivation(&fused_op.attrs, "Clip", bounds);
    }
  }
  std::string err = CheckOpDtypeOnSoc(node);
  if (err.empty()) err = CheckOpOnSoc(node);
  if (!err.empty()) return err;

  return CommitMerged(std::move(fused_op), node, index, fused);
}

}  // namespace graph
}  // namespace atc
}  // namespace ascend_emu
