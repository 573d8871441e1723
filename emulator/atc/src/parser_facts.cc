// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The parser facts are keyed by op type; each check mirrors a refusal that a
// CANN parser plugin makes in code (cann-onnx-ops.md, "(code)" notes), those
// on attribute values read from src/executorch_ascend/cann_op_facts.json.
// Facts known only from documentation are not enforced here: they describe
// kernels of real chips, not the parser (the per-chip dtypes are, in
// graph_precision.cc).
#include "parser_facts.h"

#include <string>

#include "cann_op_facts.h"

namespace ascend_emu {
namespace atc {
namespace {

const onnx::AttributeProto* FindAttr(const onnx::NodeProto& node,
                                     const char* name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

int64_t IntAttr(const onnx::NodeProto& node, const char* name,
                int64_t fallback) {
  const onnx::AttributeProto* a = FindAttr(node, name);
  return a != nullptr && a->type() == onnx::AttributeProto::INT ? a->i()
                                                                : fallback;
}

float FloatAttr(const onnx::NodeProto& node, const char* name, float fallback) {
  const onnx::AttributeProto* a = FindAttr(node, name);
  return a != nullptr && a->type() == onnx::AttributeProto::FLOAT ? a->f()
                                                                  : fallback;
}

bool HasInput(const onnx::NodeProto& node, int index) {
  return node.input_size() > index && !node.input(index).empty();
}

bool HasOutput(const onnx::NodeProto& node, int index) {
  return node.output_size() > index && !node.output(index).empty();
}

}  // namespace

std::string CheckParserFacts(const onnx::NodeProto& node) {
  const std::string& op = node.op_type();
  // Attribute values a plugin refuses, from cann_op_facts.json (ArgMax's
  // select_last_index=1). Values a plugin ignores (ScatterND's reduction,
  // Resize's nearest_mode) compile with their ONNX meaning here; the Python
  // side's check keeps the lowering from emitting them.
  for (const auto& a : node.attribute()) {
    std::string value;
    if (a.type() == onnx::AttributeProto::INT) {
      value = std::to_string(a.i());
    } else if (a.type() == onnx::AttributeProto::STRING) {
      value = a.s();
    } else {
      continue;
    }
    bool refused = false;
    const std::string fact = CheckAttributeFacts(op, a.name(), value, &refused);
    if (refused) return fact;
  }
  if (op == "Concat" && FindAttr(node, "axis") == nullptr) {
    return "needs the 'axis' attribute (CANN's Concat parser requires it)";
  }
  if (op == "Transpose" && FindAttr(node, "perm") == nullptr) {
    return "needs the 'perm' attribute (CANN's Transpose parser requires it)";
  }
  if (op == "MaxPool") {
    if (HasOutput(node, 1)) {
      return "uses the Indices output, which CANN's MaxPool parser does not "
             "support";
    }
    if (IntAttr(node, "storage_order", 0) != 0) {
      return "has storage_order != 0, which CANN's MaxPool parser refuses";
    }
  }
  if (op == "Cast" && FindAttr(node, "to") == nullptr) {
    return "needs the 'to' attribute";
  }
  if (op == "Clip" && !HasInput(node, 1) && !HasInput(node, 2)) {
    return "has neither min nor max, which CANN's Clip parser refuses";
  }
  if (op == "Selu" && (FloatAttr(node, "alpha", 1.67326319217681884765625f) !=
                           1.67326319217681884765625f ||
                       FloatAttr(node, "gamma", 1.05070102214813232421875f) !=
                           1.05070102214813232421875f)) {
    return "has non-default alpha/gamma, which CANN's Selu parser refuses";
  }
  if (op == "ScatterND") {
    const onnx::AttributeProto* r = FindAttr(node, "reduction");
    if (r != nullptr && r->type() == onnx::AttributeProto::STRING &&
        r->s() == "mul") {
      return "has reduction=\"mul\", which CANN's ScatterND parser refuses";
    }
  }
  if (op == "GatherND" && IntAttr(node, "batch_dims", 0) != 0) {
    return "has batch_dims != 0, which CANN's GatherND parser refuses";
  }
  if (op == "DepthToSpace" && IntAttr(node, "blocksize", 0) < 2) {
    return "needs blocksize >= 2 (CANN's DepthToSpace parser)";
  }
  if (op == "LRN" && IntAttr(node, "size", 1) % 2 == 0) {
    return "needs an odd size (CANN's LRN parser)";
  }
  if (op == "Split") {
    // The split operand itself is an input from opset 13 on; the kernel's
    // Infer compares its length with the output count.
    const int64_t n = IntAttr(node, "num_outputs", -1);
    if (FindAttr(node, "num_outputs") != nullptr && n != node.output_size()) {
      return "has num_outputs=" + std::to_string(n) + " but " +
             std::to_string(node.output_size()) +
             " outputs (CANN's Split parser requires them to match)";
    }
  }
  if (op == "ConvTranspose" && FindAttr(node, "kernel_shape") == nullptr) {
    return "needs the 'kernel_shape' attribute (CANN's ConvTranspose parser)";
  }
  return "";
}

}  // namespace atc
}  // namespace ascend_emu
