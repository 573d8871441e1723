// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GraphCompiler (graph_compiler_impl.h): constant folding and the cross-check
// with ONNX shape inference.
#include "graph_compiler_impl.h"

namespace ascend_emu {
namespace atc {
namespace graph {

// Constant folding, as CANN's graph optimizer does for shape arithmetic:
// Shape (its output depends only on the input's static shape, so per gear
// a constant) and int64 ops whose inputs are all constants. Their results
// become constants, so Reshape/Slice/Expand operands computed from
// Shape -> Gather -> Mul/Add -> Concat chains are constants as CANN
// requires. Graph outputs are never folded (an output must be written).
bool GraphCompiler::Foldable(const onnx::NodeProto& node, const PendingOp& op,
                             const std::vector<TensorRef>& inputs,
                             const std::vector<TensorRef>& outputs) const {
  uint64_t bytes = 0;
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (static_cast<int>(k) >= node.output_size() ||
        node.output(static_cast<int>(k)).empty() ||
        graph_outputs_.count(node.output(static_cast<int>(k))))
      return false;
    if (op.op_type != "Shape" && outputs[k].dtype != DType::kInt64)
      return false;
    bytes += outputs[k].nbytes();
  }
  if (bytes > kMaxFoldBytes) return false;
  if (op.op_type == "Shape") return true;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k].present()) continue;
    const Value& v = values_.at(op.inputs[k]);
    if (v.kind != Value::Kind::kConst) return false;
    const ConstBytes& c = consts_[v.index];
    // A file view may be misaligned: fold only what Infer could read.
    if (c.external && c.owned.empty()) return false;
  }
  return true;
}

std::string GraphCompiler::Fold(const onnx::NodeProto& node,
                                const std::string& label,
                                const KernelDef& kernel, const PendingOp& op,
                                const std::vector<TensorRef>& inputs,
                                std::vector<TensorRef>* outputs,
                                size_t scratch_bytes) {
  std::vector<std::vector<uint8_t>> bytes(outputs->size());
  for (size_t k = 0; k < outputs->size(); ++k) {
    bytes[k].assign((*outputs)[k].nbytes(), 0);
    (*outputs)[k].data = bytes[k].data();
  }
  std::vector<uint64_t> scratch((scratch_bytes + 7) / 8 + 8);
  void* aligned = reinterpret_cast<void*>(
      (reinterpret_cast<uintptr_t>(scratch.data()) + 63) & ~uintptr_t{63});
  RunContext run{op.attrs,        inputs.data(),   inputs.size(),
                 outputs->data(), outputs->size(), aligned};
  try {
    kernel.run(run);
  } catch (const std::exception& e) {
    return label + ": constant folding failed: " + e.what();
  }
  for (size_t k = 0; k < outputs->size(); ++k) {
    const std::string& name = node.output(static_cast<int>(k));
    if (values_.count(name)) {
      return label + " writes '" + name + "', which already has a value";
    }
    std::string err = CrossCheck(name, (*outputs)[k]);
    if (!err.empty()) return label + ": " + err;
    Value v;
    v.kind = Value::Kind::kConst;
    v.index = static_cast<int>(consts_.size());
    v.dtype = (*outputs)[k].dtype;
    v.shape = (*outputs)[k].shape;
    consts_.emplace_back();
    consts_.back().owned = std::move(bytes[k]);
    consts_.back().folded = true;
    values_[name] = v;
  }
  return "";
}

// ONNX inferred a static type for `name`: the kernel must agree, or one of
// the two is wrong and the emulator would compute something else.
std::string GraphCompiler::CrossCheck(const std::string& name,
                                      const TensorRef& inferred) {
  auto it = onnx_types_.find(name);
  if (it == onnx_types_.end()) return "";
  DType dtype;
  Shape shape;
  if (!StaticTensorType(*it->second, &dtype, &shape)) return "";
  if (dtype != inferred.dtype || shape != inferred.shape) {
    return "output '" + name + "' is " +
           Describe(inferred.dtype, inferred.shape) +
           " by the emulator's kernel but " + Describe(dtype, shape) +
           " by ONNX shape inference";
  }
  return "";
}

}  // namespace graph
}  // namespace atc
}  // namespace ascend_emu
