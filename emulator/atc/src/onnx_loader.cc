// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The ONNX front end of the emulator's atc. The checks run in CANN's order:
// the parser refuses an unregistered op (or one its plugin rejects) before
// anything validates the graph, so "Gelu at opset 17" or "Concat without
// axis" gets CANN's reason, not the ONNX checker's.
#include "onnx_loader.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cann_onnx_ops.h"
#include "cann_op_facts.h"
#include "conv_pool_guard.h"
#include "onnx/checker.h"
#include "onnx/shape_inference/implementation.h"
#include "parser_facts.h"

namespace ascend_emu {
namespace atc {
namespace {

// Protobuf cannot parse a message over 2 GB.
constexpr std::streamoff kMaxModelBytes = std::numeric_limits<int32_t>::max();

std::string ReadFile(const std::string& path, std::string* bytes) {
  // An ifstream opens a directory on Linux and reports a huge size for it,
  // which used to read as "larger than 2 GB": say what the path really is.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return "cannot read --model '" + path + "': " + std::strerror(errno);
  }
  if (S_ISDIR(st.st_mode)) {
    return "--model '" + path + "' is a directory, not an ONNX file";
  }
  if (!S_ISREG(st.st_mode)) {
    return "--model '" + path + "' is not a regular file";
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return "cannot read --model '" + path + "': " + std::strerror(errno);
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) return "cannot read --model '" + path + "'";
  if (size > kMaxModelBytes) {
    return "--model '" + path +
           "' is larger than 2 GB, protobuf's limit: save the model with its "
           "weights as ONNX external data (onnx.save(..., "
           "save_as_external_data=True)), which atc reads from the files "
           "beside it";
  }
  in.seekg(0, std::ios::beg);
  bytes->resize(static_cast<size_t>(size));
  if (size > 0 && !in.read(&(*bytes)[0], size)) {
    return "cannot read --model '" + path + "'";
  }
  return "";
}

bool IsOnnxDomain(const std::string& domain) {
  return domain.empty() || domain == "ai.onnx";
}

std::string CheckOpset(const onnx::ModelProto& model, int64_t* opset) {
  *opset = -1;
  for (const auto& imp : model.opset_import()) {
    if (IsOnnxDomain(imp.domain())) *opset = imp.version();
  }
  if (*opset < 0) return "the model imports no ai.onnx opset";
  if (*opset < kMinOnnxOpset || *opset > kMaxOnnxOpset) {
    return "ai.onnx opset " + std::to_string(*opset) +
           " is not supported: CANN's ONNX parser accepts opset " +
           std::to_string(kMinOnnxOpset) + " to " +
           std::to_string(kMaxOnnxOpset);
  }
  return "";
}

constexpr const char* kHiddenDomain = "executorch_ascend.emulator.hidden";

struct HiddenNodes {
  std::vector<std::pair<onnx::NodeProto*, std::string>> nodes;  // old domain
  bool import_added = false;
};

// CANN's vendor ops (no ONNX schema at `opset`) and the Conv, MatMul and
// Gemm nodes with an int8 operand (an int8 initializer, graph input or
// AscendQuant output) move to kHiddenDomain until Restore.
HiddenNodes HideFromLibonnx(onnx::ModelProto* model, int64_t opset) {
  onnx::GraphProto* graph = model->mutable_graph();
  std::set<std::string> int8;
  for (const auto& init : graph->initializer()) {
    if (init.data_type() == onnx::TensorProto::INT8) int8.insert(init.name());
  }
  for (const auto& in : graph->input()) {
    if (in.type().has_tensor_type() &&
        in.type().tensor_type().elem_type() == onnx::TensorProto::INT8)
      int8.insert(in.name());
  }
  HiddenNodes hidden;
  for (onnx::NodeProto& node : *graph->mutable_node()) {
    if (!IsOnnxDomain(node.domain())) continue;
    const std::string& op = node.op_type();
    bool hide =
        op != "Constant" && onnx::OpSchemaRegistry::Schema(
                                op, static_cast<int>(opset), "") == nullptr;
    if (op == "AscendQuant")
      int8.insert(node.output().begin(), node.output().end());
    if (op == "Conv" || op == "MatMul" || op == "Gemm") {
      for (const std::string& in : node.input()) hide = hide || int8.count(in);
    }
    if (!hide) continue;
    hidden.nodes.emplace_back(&node, node.domain());
    node.set_domain(kHiddenDomain);
  }
  if (!hidden.nodes.empty()) {
    auto* imp = model->add_opset_import();
    imp->set_domain(kHiddenDomain);
    imp->set_version(1);
    hidden.import_added = true;
  }
  return hidden;
}

void Restore(const HiddenNodes& hidden, onnx::ModelProto* model) {
  for (const auto& [node, domain] : hidden.nodes) node->set_domain(domain);
  if (hidden.import_added) model->mutable_opset_import()->RemoveLast();
}

std::string CheckRegistrations(const onnx::GraphProto& graph, int64_t opset) {
  // The values CANN's parser sees as constants: initializers and Constant
  // nodes' outputs.
  std::set<std::string> constants;
  for (const auto& init : graph.initializer()) constants.insert(init.name());
  for (const auto& node : graph.node()) {
    if (node.op_type() == "Constant") {
      constants.insert(node.output().begin(), node.output().end());
    }
  }
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    if (!IsOnnxDomain(node.domain())) {
      return NodeLabel(node, i) + " is in domain '" + node.domain() +
             "'; the emulator reads only ai.onnx ops";
    }
    if (!CannRegisters(node.op_type(), opset)) {
      std::string message = NodeLabel(node, i) +
                            " is not registered by CANN's ONNX parser for "
                            "ai.onnx opset " +
                            std::to_string(opset);
      if (const CannOnnxOp* op = FindCannOnnxOp(node.op_type())) {
        message += std::string(" (registered for opsets ") + op->opsets + ")";
      }
      return message;
    }
    const std::string refusal = CheckParserFacts(node);
    if (!refusal.empty()) return NodeLabel(node, i) + " " + refusal;
    for (int k = 0; k < node.input_size(); ++k) {
      const std::string& in = node.input(k);
      if (in.empty() || constants.count(in) != 0 ||
          !NeedsConstantInput(node.op_type(), k)) {
        continue;
      }
      return NodeLabel(node, i) + " input " + std::to_string(k) + " ('" + in +
             "') is computed, where CANN's ONNX parser needs a constant (" +
             OpFactSource(node.op_type()) + ")";
    }
  }
  return "";
}

std::set<std::string> InitializerNames(const onnx::GraphProto& graph) {
  std::set<std::string> names;
  for (const auto& init : graph.initializer()) names.insert(init.name());
  return names;
}

std::string ApplyInputShapes(const AtcOptions& options,
                             onnx::GraphProto* graph) {
  const std::set<std::string> initializers = InitializerNames(*graph);
  for (const auto& [name, dims] : options.input_shapes) {
    onnx::ValueInfoProto* input = nullptr;
    std::string names;
    for (auto& in : *graph->mutable_input()) {
      if (initializers.count(in.name())) continue;
      if (in.name() == name) input = &in;
      names += (names.empty() ? "" : ", ") + in.name();
    }
    if (input == nullptr) {
      return "--input_shape names '" + name +
             "', which is not a model input (inputs: " + names + ")";
    }
    if (!input->type().has_tensor_type()) {
      return "input '" + name + "' is not a tensor";
    }
    onnx::TensorShapeProto* shape =
        input->mutable_type()->mutable_tensor_type()->mutable_shape();
    if (shape->dim_size() != 0 &&
        shape->dim_size() != static_cast<int>(dims.size())) {
      return "--input_shape gives input '" + name + "' " +
             std::to_string(dims.size()) + " dims, the model has " +
             std::to_string(shape->dim_size());
    }
    if (shape->dim_size() == 0) {
      for (size_t k = 0; k < dims.size(); ++k) shape->add_dim();
    }
    for (int k = 0; k < shape->dim_size(); ++k) {
      onnx::TensorShapeProto::Dimension* dim = shape->mutable_dim(k);
      if (dim->has_dim_value() && dim->dim_value() != dims[k]) {
        return "--input_shape gives input '" + name + "' dim " +
               std::to_string(k) + " = " + std::to_string(dims[k]) +
               ", the model fixes it to " + std::to_string(dim->dim_value());
      }
      dim->set_dim_value(dims[k]);
    }
  }
  return "";
}

std::string CheckStaticInputs(const onnx::GraphProto& graph) {
  const std::set<std::string> initializers = InitializerNames(graph);
  for (const auto& in : graph.input()) {
    if (initializers.count(in.name())) continue;
    if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) {
      return "input '" + in.name() +
             "' has no static tensor shape; pass --input_shape (the emulator "
             "compiles static shapes only)";
    }
    const auto& shape = in.type().tensor_type().shape();
    for (int k = 0; k < shape.dim_size(); ++k) {
      const auto& dim = shape.dim(k);
      if (!dim.has_dim_value() || dim.dim_value() < 0) {
        const std::string sym =
            dim.has_dim_param() ? " ('" + dim.dim_param() + "')" : "";
        return "input '" + in.name() + "' dim " + std::to_string(k) + sym +
               " is dynamic; pass --input_shape=" + in.name() +
               ":<dims> (the emulator compiles static shapes only, or shape "
               "gears: -1 with --dynamic_batch_size or --dynamic_dims)";
      }
    }
  }
  return "";
}

}  // namespace

std::string NodeLabel(const onnx::NodeProto& node, int index) {
  const std::string who = node.name().empty() ? "#" + std::to_string(index)
                                              : "'" + node.name() + "'";
  return "node " + who + " op '" + node.op_type() + "'";
}

std::string LoadOnnxModel(const AtcOptions& options, onnx::ModelProto* model,
                          int64_t* opset, ExternalData* external) {
  std::string bytes;
  std::string err = ReadFile(options.model, &bytes);
  if (!err.empty()) return err;
  if (!model->ParseFromString(bytes) || !model->has_graph()) {
    return "--model '" + options.model +
           "' is not an ONNX model (protobuf parse failed or no graph)";
  }
  bytes.clear();
  bytes.shrink_to_fit();

  err = CheckOpset(*model, opset);
  if (err.empty()) err = CheckRegistrations(model->graph(), *opset);
  // Before libonnx sees the graph: it checks external data only by stat()
  // and cannot read it for shape inference.
  if (err.empty()) err = external->Load(options.model, model->mutable_graph());
  if (err.empty()) err = ApplyInputShapes(options, model->mutable_graph());
  // libonnx 1.12 crashes on some malformed window ops instead of refusing.
  if (err.empty()) err = GuardConvPoolNodes(model->mutable_graph());
  if (!err.empty()) return err;

  // libonnx knows neither CANN's vendor ops (AscendQuant, ...: no ONNX
  // schema, so its checker refuses them in the default domain) nor CANN's
  // int8 Conv, MatMul and Gemm (int8 operands, int32 out, which ONNX's
  // schemas have no type for). CANN's parser checks neither against ONNX's
  // schemas; here they move to a domain of their own while libonnx checks
  // and infers the rest, and the kernels' Infer takes them.
  const HiddenNodes hidden = HideFromLibonnx(model, *opset);
  std::string libonnx_error;
  try {
    onnx::checker::check_model(*model);
  } catch (const std::exception& e) {
    libonnx_error =
        std::string("the ONNX checker refused the model: ") + e.what();
  }
  if (libonnx_error.empty()) {
    try {
      onnx::ShapeInferenceOptions inference(/*check_type=*/true,
                                            /*strict_mode=*/1,
                                            /*data_prop=*/true);
      onnx::shape_inference::InferShapes(
          *model, onnx::OpSchemaRegistry::Instance(), inference);
    } catch (const std::exception& e) {
      libonnx_error = std::string("ONNX shape inference failed: ") + e.what();
    }
  }
  Restore(hidden, model);
  if (!libonnx_error.empty()) return libonnx_error;
  return CheckStaticInputs(model->graph());
}

}  // namespace atc
}  // namespace ascend_emu
