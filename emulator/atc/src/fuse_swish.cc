// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GraphCompiler (graph_compiler_impl.h): Sigmoid and Mul into Swish.
#include "graph_compiler_impl.h"

namespace ascend_emu {
namespace atc {
namespace graph {

// ---- Sigmoid and Mul into Swish (docs/atc.md "Conv fusions"): SiLU as
// the lowering emits it, Mul(x, Sigmoid(x)) with the Sigmoid compiled just
// before and read by this Mul only, becomes one op that reads x once
// (CANN's Swish, scale 1; onnxruntime fuses the same pair as QuickGelu).
// Float32 with nothing rounded between, as the Conv fusions; the kernel
// multiplies x by the Sigmoid op's own values, so the results are the
// same. *fused true when `node` was merged into ops_.back().
std::string GraphCompiler::SigmoidMulIntoSwish(const onnx::NodeProto& node,
                                               int index, bool* fused) {
  *fused = false;
  if (ops_.empty() || node.op_type() != "Mul" || node.input_size() != 2 ||
      node.output_size() != 1 || node.output(0).empty() ||
      values_.count(node.output(0)) || node.attribute_size() != 0)
    return "";
  PendingOp& op = ops_.back();
  if (op.op_type != "Sigmoid" || op.inputs.size() != 1 ||
      op.outputs.size() != 1 || !op.attrs.map().empty())
    return "";
  const std::string s = op.outputs[0];
  const std::string& x = op.inputs[0];
  const int k = node.input(0) == s ? 0 : node.input(1) == s ? 1 : -1;
  if (k < 0 || node.input(1 - k) != x) return "";
  auto uses = uses_.find(s);
  if (s[0] == '\x01' || uses == uses_.end() || uses->second != 1) return "";
  const Value& sv = values_.at(s);
  const Value& xv = values_.at(x);
  if (sv.dtype != DType::kFloat32 || sv.rounded_to != DType::kFloat32 ||
      xv.dtype != DType::kFloat32 || xv.rounded_to != DType::kFloat32 ||
      sv.shape != xv.shape)
    return "";
  const OpPrecision precision = DecideOpPrecision(node);
  if (precision.dtype != DType::kFloat32 || precision.round_outputs) return "";

  // Swish's own Infer, as for any other op.
  std::vector<TensorRef> inputs(1);
  inputs[0].dtype = xv.dtype;
  inputs[0].shape = xv.shape;
  std::vector<TensorRef> outputs(1);
  Attributes attrs;
  InferContext ctx{attrs, inputs, outputs};
  std::string err = FindKernel("Swish")->infer(ctx);
  if (!err.empty() || outputs[0].shape != sv.shape) return "";
  err = CrossCheck(node.output(0), outputs[0]);
  if (!err.empty()) return err;

  const int op_index = static_cast<int>(ops_.size()) - 1;
  op.op_type = "Swish";
  op.scratch_bytes = ctx.scratch_bytes;
  op.name +=
      "+" + (node.name().empty() ? "#" + std::to_string(index) : node.name());
  op.outputs[0] = node.output(0);
  values_.at(x).last_use = op_index;
  Value out = sv;
  out.last_use = -1;
  values_.erase(s);
  values_[node.output(0)] = out;
  *fused = true;
  return "";
}

}  // namespace graph
}  // namespace atc
}  // namespace ascend_emu
