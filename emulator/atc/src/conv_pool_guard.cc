// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Why each check exists is the libonnx 1.12 code it protects; see the header.
#include "conv_pool_guard.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "onnx_loader.h"

namespace ascend_emu {
namespace atc {
namespace {

// libonnx computes (k - 1) * d + 1 and dim + pads in int64; window values up
// to 2^31 keep that arithmetic far from overflow.
constexpr int64_t kMaxWindowValue = int64_t{1} << 31;

// Names with a shape fixed by the model itself: initializers and graph
// inputs (after --input_shape), unless a node overwrites them. Dims are -1
// where symbolic. Subgraphs also see their enclosing graphs' names.
using DeclaredShapes = std::map<std::string, std::vector<int64_t>>;

DeclaredShapes CollectDeclared(const onnx::GraphProto& graph,
                               const DeclaredShapes& outer) {
  DeclaredShapes declared = outer;
  for (const auto& in : graph.input()) {
    declared.erase(in.name());
    if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) {
      continue;
    }
    std::vector<int64_t>& dims = declared[in.name()];
    for (const auto& d : in.type().tensor_type().shape().dim()) {
      dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
    }
  }
  for (const auto& init : graph.initializer()) {
    declared[init.name()].assign(init.dims().begin(), init.dims().end());
  }
  for (const auto& node : graph.node()) {
    for (const auto& out : node.output()) declared.erase(out);
  }
  return declared;
}

const std::vector<int64_t>* FindDeclared(const DeclaredShapes& declared,
                                         const onnx::NodeProto& node,
                                         int input) {
  if (node.input_size() <= input) return nullptr;
  auto it = declared.find(node.input(input));
  return it == declared.end() ? nullptr : &it->second;
}

std::string DimsText(const std::vector<int64_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(dims[i]);
  }
  return text + "]";
}

const onnx::AttributeProto* FindAttr(const onnx::NodeProto& node,
                                     const std::string& name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

// libonnx keeps the last of two same-named attributes, the checker and the
// compiler may see the first: refuse the ambiguity.
std::string CheckNoDuplicateAttrs(const onnx::NodeProto& node) {
  std::set<std::string> seen;
  for (const auto& a : node.attribute()) {
    if (!seen.insert(a.name()).second) {
      return "gives attribute '" + a.name() + "' twice";
    }
  }
  return "";
}

// Checks the values of one window attribute (libonnx reads ints() whatever
// the declared type) and that its length implies the same number of spatial
// dims as the others; *spatial is -1 until one attribute sets it.
std::string CheckWindowAttr(const onnx::NodeProto& node,
                            const std::string& name, int64_t min,
                            int64_t* spatial) {
  const onnx::AttributeProto* a = FindAttr(node, name);
  if (a == nullptr) return "";
  for (int64_t v : a->ints()) {
    if (v < min || v > kMaxWindowValue) {
      return "has " + name + " value " + std::to_string(v) + " (must be in [" +
             std::to_string(min) + ", " + std::to_string(kMaxWindowValue) +
             "])";
    }
  }
  const bool is_pads = name == "pads";
  const int64_t size = a->ints_size();
  if (is_pads && size % 2 != 0) {
    return "has " + std::to_string(size) +
           " pads (must be two per spatial dim)";
  }
  const int64_t dims = is_pads ? size / 2 : size;
  if (*spatial >= 0 && dims != *spatial) {
    return "has " + name + " of length " + std::to_string(size) +
           ", which does not match the other window attributes (" +
           std::to_string(*spatial) + " spatial dims)";
  }
  *spatial = dims;
  return "";
}

std::string CheckWindowAttrs(const onnx::NodeProto& node, int64_t input_rank) {
  int64_t spatial = -1;
  std::string err;
  for (const char* name : {"kernel_shape", "strides", "dilations"}) {
    if (err.empty()) err = CheckWindowAttr(node, name, 1, &spatial);
  }
  if (err.empty()) err = CheckWindowAttr(node, "pads", 0, &spatial);
  if (err.empty() && spatial >= 0 && input_rank >= 0 &&
      spatial != input_rank - 2) {
    err = "has window attributes for " + std::to_string(spatial) +
          " spatial dims, but its input has rank " + std::to_string(input_rank);
  }
  return err;
}

void SetInts(onnx::NodeProto* node, const std::string& name,
             const std::vector<int64_t>& values) {
  onnx::AttributeProto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) a->add_ints(v);
}

// Conv/ConvTranspose: the weight's rank against the input's and against
// kernel_shape, and kernel_shape filled in from a declared weight.
std::string CheckConvWeight(onnx::NodeProto* node,
                            const DeclaredShapes& declared,
                            int64_t input_rank) {
  const bool transpose = node->op_type() == "ConvTranspose";
  const std::string weight = node->input_size() > 1 ? node->input(1) : "";
  const std::vector<int64_t>* w = FindDeclared(declared, *node, 1);
  const onnx::AttributeProto* kernel = FindAttr(*node, "kernel_shape");
  if (w == nullptr) {
    if (transpose) {
      return "needs its weight '" + weight +
             "' as an initializer or a graph input with a shape (ONNX 1.12's "
             "shape inference reads the weight's dims unchecked)";
    }
    if (kernel == nullptr) {
      return "needs the 'kernel_shape' attribute when its weight '" + weight +
             "' is computed by another node (ONNX 1.12's shape inference "
             "would index the input by the weight's rank unchecked)";
    }
    return "";
  }
  const int64_t rank = static_cast<int64_t>(w->size());
  if (rank < 3) {
    return "has weight '" + weight + "' " + DimsText(*w) +
           "; a convolution weight is [M, C, k1, ...] (rank >= 3)";
  }
  if (input_rank >= 0 && rank != input_rank) {
    return "has weight '" + weight + "' of rank " + std::to_string(rank) +
           " for an input of rank " + std::to_string(input_rank) +
           " (they must be equal)";
  }
  const std::vector<int64_t> spatial(w->begin() + 2, w->end());
  if (kernel != nullptr) {
    bool same = kernel->ints_size() == rank - 2;
    for (int i = 0; same && i < kernel->ints_size(); ++i) {
      same = spatial[i] < 0 || kernel->ints(i) == spatial[i];
    }
    if (!same) {
      return "has kernel_shape " +
             DimsText({kernel->ints().begin(), kernel->ints().end()}) +
             ", which does not match weight '" + weight + "' " + DimsText(*w);
    }
    return "";
  }
  for (int64_t d : spatial) {
    if (d < 1) {
      return "needs the 'kernel_shape' attribute: weight '" + weight + "' " +
             DimsText(*w) + " has no static spatial dims to take it from";
    }
  }
  SetInts(node, "kernel_shape", spatial);
  return "";
}

std::string CheckNode(onnx::NodeProto* node, const DeclaredShapes& declared) {
  const std::string& op = node->op_type();
  const bool conv = op == "Conv" || op == "ConvTranspose";
  const bool pool = op == "MaxPool" || op == "AveragePool" || op == "LpPool";
  const bool unpool = op == "MaxUnpool";
  const bool roi_pool = op == "MaxRoiPool";
  if (!conv && !pool && !unpool && !roi_pool) return "";

  std::string err = CheckNoDuplicateAttrs(*node);
  if (!err.empty()) return err;
  const std::vector<int64_t>* x = FindDeclared(declared, *node, 0);
  const int64_t input_rank = x ? static_cast<int64_t>(x->size()) : -1;

  if (roi_pool) {
    // roiPoolTypeShapeInference reads pooled_shape[0] and [1] after checking
    // only that the length matches the input's spatial rank.
    const onnx::AttributeProto* pooled = FindAttr(*node, "pooled_shape");
    if (pooled != nullptr && pooled->ints_size() != 2) {
      return "needs pooled_shape with 2 values, has " +
             std::to_string(pooled->ints_size());
    }
    return "";
  }
  if (conv) err = CheckConvWeight(node, declared, input_rank);
  if (err.empty() && unpool && node->input_size() < 3) {
    // Without output_shape, maxUnpoolShapeInference reads the indices'
    // dim 1 whatever their rank.
    const std::vector<int64_t>* indices = FindDeclared(declared, *node, 1);
    if (indices == nullptr || indices->size() < 2) {
      err =
          "needs its indices as an initializer or a graph input of rank >= 2 "
          "when output_shape is not given";
    }
  }
  if (err.empty()) err = CheckWindowAttrs(*node, input_rank);
  return err;
}

std::string GuardGraph(onnx::GraphProto* graph, const DeclaredShapes& outer,
                       const std::string& where) {
  const DeclaredShapes declared = CollectDeclared(*graph, outer);
  for (int i = 0; i < graph->node_size(); ++i) {
    onnx::NodeProto* node = graph->mutable_node(i);
    std::string err = CheckNode(node, declared);
    if (!err.empty()) return NodeLabel(*node, i) + where + " " + err;
    // Shape inference descends into If/Loop/Scan bodies too.
    for (auto& a : *node->mutable_attribute()) {
      const std::string inner =
          " in subgraph '" + a.name() + "' of " + NodeLabel(*node, i) + where;
      if (a.has_g()) err = GuardGraph(a.mutable_g(), declared, inner);
      for (auto& g : *a.mutable_graphs()) {
        if (err.empty()) err = GuardGraph(&g, declared, inner);
      }
      if (!err.empty()) return err;
    }
  }
  return "";
}

}  // namespace

std::string GuardConvPoolNodes(onnx::GraphProto* graph) {
  return GuardGraph(graph, DeclaredShapes(), "");
}

}  // namespace atc
}  // namespace ascend_emu
